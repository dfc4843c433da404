"""Three-valued evaluation of signature conditions against facts.

A condition is a TOML table (see fp8triage/schemas/signature.schema.json):
``{fact = "capability", in = ["12.0", "12.1"]}``, ``{fact = "transformers", version = "<=5.12.1"}``,
``{fact = "capability", capability = ">=10.0,<11.0"}``, ``{any_of = [...]}``.
"""
from __future__ import annotations

from typing import Any, Mapping

import regex
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

from ..facts.vocabulary import FACTS, normalise_capability
from ..model import ConditionResult, Fact, Truth
from ..errors import TriageError


class ConditionError(TriageError, ValueError):
    """A condition is malformed (bad specifier, unknown fact)."""


def validate_condition(cond: Mapping[str, Any]) -> None:
    """Raise ConditionError if a condition cannot be evaluated. Used by the loader."""
    for key in ("any_of", "all_of"):
        if key in cond:
            for sub in cond[key]:
                validate_condition(sub)
            return
    name = cond.get("fact", "")
    if name not in FACTS:
        raise ConditionError(f"unknown fact {name!r}; write one of: {', '.join(sorted(FACTS))}")
    for key in ("version", "capability"):
        if key in cond:
            try:
                SpecifierSet(cond[key])
            except InvalidSpecifier:
                raise ConditionError(
                    f"{key} = {cond[key]!r} is not a PEP 440 specifier; write e.g. {key} = \">=10.0,<11.0\""
                ) from None
    if "regex" in cond:
        try:
            regex.compile(cond["regex"])
        except regex.error as e:
            raise ConditionError(f"regex = {cond['regex']!r} does not compile: {e}") from None


def describe(cond: Mapping[str, Any]) -> str:
    """A short human-readable expectation, e.g. 'capability in {12.0, 12.1}'."""
    if "any_of" in cond:
        return " or ".join(f"({describe(c)})" for c in cond["any_of"])
    if "all_of" in cond:
        return " and ".join(describe(c) for c in cond["all_of"])
    name = cond["fact"]
    if "equals" in cond:
        return f"{name} = {cond['equals']}"
    if "in" in cond:
        return f"{name} in {{{', '.join(cond['in'])}}}"
    if "not_in" in cond:
        return f"{name} not in {{{', '.join(cond['not_in'])}}}"
    if "version" in cond:
        return f"{name} {cond['version']}"
    if "capability" in cond:
        return f"{name} {cond['capability']}"
    if "regex" in cond:
        return f"{name} ~ /{cond['regex']}/"
    if "present" in cond:
        return f"{name} is {'set' if cond['present'] else 'not set'}"
    return name


def evaluate(cond: Mapping[str, Any], facts: Mapping[str, Fact]) -> ConditionResult:
    role = cond.get("role", "require")
    why = cond.get("why", "")
    if "any_of" in cond:
        subs = [evaluate(c, facts) for c in cond["any_of"]]
        if any(s.truth is Truth.HOLDS for s in subs):
            hit = next(s for s in subs if s.truth is Truth.HOLDS)
            return ConditionResult(hit.fact, describe(cond), Truth.HOLDS, hit.value, hit.source, role, why)
        unknown = [s for s in subs if s.truth is Truth.UNKNOWN]
        if unknown:
            # the facts that would decide it are those of the undecided branches
            names = ", ".join(dict.fromkeys(s.fact for s in unknown))
            return ConditionResult(names, describe(cond), Truth.UNKNOWN, None, None, role, why)
        first = subs[0]
        return ConditionResult(first.fact, describe(cond), Truth.FAILS, first.value, first.source, role, why)

    if "all_of" in cond:
        subs = [evaluate(c, facts) for c in cond["all_of"]]
        bad = next((s for s in subs if s.truth is Truth.FAILS), None) or next(
            (s for s in subs if s.truth is Truth.UNKNOWN), None
        )
        pick = bad or subs[0]
        truth = bad.truth if bad else Truth.HOLDS
        return ConditionResult(pick.fact, describe(cond), truth, pick.value, pick.source, role, why or pick.note)

    name = cond["fact"]
    expect = describe(cond)
    fact = facts.get(name)
    value: str | None
    source: str | None
    note = why
    if fact is None:
        if "present" in cond:
            # absence is only known for certain when we saw the environment; from a log it is unknown
            return ConditionResult(name, expect, Truth.UNKNOWN, None, None, role, note)
        if "default" in cond:
            value, source = cond["default"], "its default: not set anywhere we looked"
            note = (why + "; " if why else "") + f"{name} is not set, so its default {cond['default']!r} applies"
        else:
            return ConditionResult(name, expect, Truth.UNKNOWN, None, None, role, note)
    else:
        value, source = fact.value, fact.source
    truth = _test(cond, name, value)
    return ConditionResult(name, expect, truth, value, source, role, note)


def _test(cond: Mapping[str, Any], name: str, value: str) -> Truth:
    kind = FACTS[name].kind if name in FACTS else "text"
    v = value.strip()
    if "present" in cond:
        return Truth.HOLDS if cond["present"] else Truth.FAILS
    if "equals" in cond:
        return _bool(_norm(kind, v) == _norm(kind, cond["equals"]))
    if "in" in cond:
        return _bool(_norm(kind, v) in {_norm(kind, x) for x in cond["in"]})
    if "not_in" in cond:
        return _bool(_norm(kind, v) not in {_norm(kind, x) for x in cond["not_in"]})
    if "version" in cond or "capability" in cond:
        spec = SpecifierSet(cond.get("version") or cond["capability"], prereleases=True)
        text = normalise_capability(v) if "capability" in cond else v
        if text is None:
            return Truth.UNKNOWN
        ver = _version(text)
        if ver is None:
            return Truth.UNKNOWN
        return _bool(spec.contains(ver, prereleases=True))
    if "regex" in cond:
        return _bool(regex.search(cond["regex"], v) is not None)
    return Truth.UNKNOWN


def _norm(kind: str, v: str) -> str:
    if kind == "capability":
        return normalise_capability(v) or v.lower()
    return v.strip().lower()


def _version(text: str) -> Version | None:
    """Parse a version leniently: '0.26.1rc1.dev608+g99a10304d', '2.11.0+cu130', '12.9'."""
    t = text.strip().lstrip("vV")
    try:
        return Version(t)
    except InvalidVersion:
        pass
    m = regex.match(r"\d+(?:\.\d+)*", t)
    if not m:
        return None
    try:
        return Version(m.group(0))
    except InvalidVersion:
        return None


def _bool(b: bool) -> Truth:
    return Truth.HOLDS if b else Truth.FAILS


def combine(results: list[ConditionResult]) -> tuple[Truth, list[str], list[str]]:
    """Overall truth of required conditions; (truth, facts that would decide, facts that contradict)."""
    required = [r for r in results if r.role == "require"]
    fails = [r for r in required if r.truth is Truth.FAILS]
    unknown = [r for r in required if r.truth is Truth.UNKNOWN]
    if fails:
        return Truth.FAILS, [], [f"{r.fact} = {r.value if r.value is not None else '(absent)'} ({r.source}); expected {r.expect}"
                                 for r in fails]
    if unknown:
        return Truth.UNKNOWN, sorted({n for r in unknown for n in r.fact.split(", ")}), []
    return Truth.HOLDS, [], []
