"""Three-valued evaluation of signature conditions against facts: the one judging path of scan
findings, remedies and preflight risks.

The conditions are typed and validated when the catalogue is loaded
(``fp8triage.catalogue.conditions``); ``evaluate`` returns a ``ConditionResult`` that is
``holds``, ``fails`` or ``unknown`` (the fact that would decide it is not known).
"""
from __future__ import annotations

from typing import Mapping

import regex
from packaging.version import InvalidVersion, Version

from ..catalogue.conditions import AllOf, AnyOf, Condition, FactCondition
from ..facts.vocabulary import FACTS, normalise_capability
from ..model import ConditionResult, Fact, Truth


def evaluate(cond: Condition, facts: Mapping[str, Fact], absent: frozenset[str] = frozenset()) -> ConditionResult:
    """Judge ``cond`` on ``facts``. ``absent``: facts known not to exist on the judged machine
    (preflight's closed world: a package the live probe did not find); a test on one of them
    fails (or holds, for ``present = false``) instead of being unknown."""
    role, why = cond.role, cond.why
    if isinstance(cond, AnyOf):
        subs = [evaluate(c, facts, absent) for c in cond.items]
        hit = next((s for s in subs if s.truth is Truth.HOLDS), None)
        if hit is not None:
            return ConditionResult(hit.fact, cond.expect, Truth.HOLDS, hit.value, hit.source, role, why)
        unknown = [s for s in subs if s.truth is Truth.UNKNOWN]
        if unknown:
            # the facts that would decide it are those of the undecided branches
            names = ", ".join(dict.fromkeys(s.fact for s in unknown))
            return ConditionResult(names, cond.expect, Truth.UNKNOWN, None, None, role, why)
        first = subs[0]
        return ConditionResult(first.fact, cond.expect, Truth.FAILS, first.value, first.source, role, why)

    if isinstance(cond, AllOf):
        subs = [evaluate(c, facts, absent) for c in cond.items]
        bad = next((s for s in subs if s.truth is Truth.FAILS), None) or next(
            (s for s in subs if s.truth is Truth.UNKNOWN), None
        )
        pick = bad or subs[0]
        truth = bad.truth if bad else Truth.HOLDS
        return ConditionResult(pick.fact, cond.expect, truth, pick.value, pick.source, role, why or pick.note)

    name = cond.fact
    fact = facts.get(name)
    value: str | None
    source: str | None
    note = why
    if fact is None:
        if cond.default is not None:
            value, source = cond.default, "its default: not set anywhere we looked"
            note = (why + "; " if why else "") + f"{name} is not set, so its default {cond.default!r} applies"
        elif name in absent:
            truth = Truth.HOLDS if cond.present is False else Truth.FAILS
            what = "not installed" if FACTS[name].kind == "version" else "not set"
            return ConditionResult(name, cond.expect, truth, None, f"live probe: {what} on this machine", role, note)
        else:
            # absence is only known for certain where the environment was seen (``absent``);
            # from a log it is unknown
            return ConditionResult(name, cond.expect, Truth.UNKNOWN, None, None, role, note)
    else:
        value, source = fact.value, fact.source
    return ConditionResult(name, cond.expect, _test(cond, value), value, source, role, note)


def _test(cond: FactCondition, value: str) -> Truth:
    kind = FACTS[cond.fact].kind
    v = value.strip()
    test = cond.test
    if test == "present":
        return Truth.HOLDS if cond.present else Truth.FAILS
    if test in ("equals", "in"):
        return _bool(_norm(kind, v) in {_norm(kind, x) for x in cond.values})
    if test == "not_in":
        return _bool(_norm(kind, v) not in {_norm(kind, x) for x in cond.values})
    if test in ("version", "capability"):
        text = normalise_capability(v) if test == "capability" else v
        if text is None:
            return Truth.UNKNOWN
        ver = _version(text)
        if ver is None:
            return Truth.UNKNOWN
        return _bool(cond.spec.contains(ver, prereleases=True))
    return _bool(cond.pattern.search(v) is not None)  # regex


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
    # a precondition rules the finding out where it fails; unknown, it leaves the finding as it is
    fails = [r for r in results if r.role in ("require", "precondition") and r.truth is Truth.FAILS]
    unknown = [r for r in required if r.truth is Truth.UNKNOWN]
    if fails:
        return Truth.FAILS, [], [f"{r.fact} = {r.value if r.value is not None else '(absent)'} ({r.source}); expected {r.expect}"
                                 for r in fails]
    if unknown:
        return Truth.UNKNOWN, sorted({n for r in unknown for n in r.fact.split(", ")}), []
    return Truth.HOLDS, [], []
