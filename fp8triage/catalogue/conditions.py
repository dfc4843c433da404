"""Signature conditions as typed values, parsed and validated once when a signature is loaded.

A condition is a TOML table (fp8triage/schemas/signature.schema.json): a test on one fact
(``{fact = "capability", in = ["12.0", "12.1"]}``, ``{fact = "transformers", version = "<=5.12.1"}``,
``{fact = "capability", capability = ">=10.0,<11.0"}``, ``{fact = "X", regex = '...'}``,
``{fact = "X", present = true}``, an ``equals``/``in``/``not_in`` with a ``default`` for a variable
that may be unset) or ``any_of``/``all_of`` over such tables. ``parse_condition`` turns one into a
``FactCondition``, ``AnyOf`` or ``AllOf``; ``fp8triage.judge.conditions.evaluate`` judges them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Union

import regex
from packaging.specifiers import InvalidSpecifier, SpecifierSet

from ..common import rxcache
from ..errors import TriageError
from ..facts.vocabulary import FACTS

# the tests a condition on one fact can make, in the order the schema documents them
TESTS = ("equals", "in", "not_in", "version", "capability", "regex", "present")
ROLES = ("require", "support", "precondition")


class ConditionError(TriageError, ValueError):
    """A condition is malformed (bad specifier, unknown fact, no test or two)."""


@dataclass(frozen=True)
class FactCondition:
    """One test on one fact. ``test`` is one of TESTS; the operand is in the field it needs:
    ``values`` (equals: one; in, not_in), ``spec`` (version, capability), ``pattern`` (regex),
    ``present``. ``default``: the value an unset fact (an environment variable) takes."""

    fact: str
    test: str
    expect: str  # what a reader is told it expects, e.g. "capability in {12.0, 12.1}"
    values: tuple[str, ...] = ()
    spec: SpecifierSet | None = None
    pattern: Any = None  # regex.Pattern
    present: bool | None = None
    default: str | None = None
    role: str = "require"
    why: str = ""

    def fact_names(self) -> tuple[str, ...]:
        return (self.fact,)


@dataclass(frozen=True)
class _Combined:
    items: tuple["Condition", ...]
    expect: str
    role: str = "require"
    why: str = ""

    def fact_names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(n for c in self.items for n in c.fact_names()))


@dataclass(frozen=True)
class AnyOf(_Combined):
    """Holds if any of ``items`` holds."""


@dataclass(frozen=True)
class AllOf(_Combined):
    """Holds if every one of ``items`` holds."""


Condition = Union[FactCondition, AnyOf, AllOf]


def parse_condition(raw: Mapping[str, Any]) -> Condition:
    """The typed condition of one TOML table. Raises ConditionError, whose message says what to
    write, for an unknown fact, a bad specifier or regex, or a table with no test or two."""
    role, why = raw.get("role", "require"), raw.get("why", "")
    if role not in ROLES:
        raise ConditionError(f"role = {role!r} is not one of {', '.join(ROLES)}")
    for key, kind in (("any_of", AnyOf), ("all_of", AllOf)):
        if key in raw:
            items = tuple(parse_condition(sub) for sub in raw[key])
            if len(items) < 2:
                raise ConditionError(f"{key} needs two conditions or more; write the one condition on its own")
            joiner = " or " if kind is AnyOf else " and "
            expect = joiner.join(f"({c.expect})" if kind is AnyOf else c.expect for c in items)
            return kind(items, expect, role, why)
    name = raw.get("fact", "")
    if name not in FACTS:
        raise ConditionError(f"unknown fact {name!r}; write one of: {', '.join(sorted(FACTS))}")
    tests = [t for t in TESTS if t in raw]
    if len(tests) != 1:
        what = f"has {', '.join(tests)}" if tests else "has no test"
        raise ConditionError(f"a condition on {name} {what}; write exactly one of {', '.join(TESTS)}")
    test = tests[0]
    operand = raw[test]
    kw: dict[str, Any] = {}
    if test in ("version", "capability"):
        try:
            kw["spec"] = SpecifierSet(operand, prereleases=True)
        except InvalidSpecifier:
            raise ConditionError(
                f"{test} = {operand!r} is not a PEP 440 specifier; write e.g. {test} = \">=10.0,<11.0\""
            ) from None
        expect = f"{name} {operand}"
    elif test == "regex":
        try:
            kw["pattern"] = rxcache.compile(operand)
        except (regex.error, ValueError, OverflowError, RecursionError) as e:
            raise ConditionError(f"regex = {operand!r} does not compile: {e}") from None
        expect = f"{name} ~ /{operand}/"
    elif test == "present":
        kw["present"] = bool(operand)
        expect = f"{name} is {'set' if operand else 'not set'}"
    elif test == "equals":
        kw["values"] = (operand,)
        expect = f"{name} = {operand}"
    else:  # in, not_in
        kw["values"] = tuple(operand)
        expect = f"{name} {'in' if test == 'in' else 'not in'} {{{', '.join(operand)}}}"
    return FactCondition(name, test, expect, default=raw.get("default"), role=role, why=why, **kw)


def parse_conditions(raws, where: str = "conditions") -> tuple[tuple[Condition, ...], list[tuple[str, str]]]:
    """Parse a list of tables: (the conditions that parsed, [(key, message)] for those that did not;
    the key is ``where.INDEX``)."""
    out: list[Condition] = []
    errors: list[tuple[str, str]] = []
    for i, raw in enumerate(raws):
        try:
            out.append(parse_condition(raw))
        except ConditionError as e:
            errors.append((f"{where}.{i}", str(e)))
    return tuple(out), errors


def condition_text(c: Condition) -> str:
    """How `signatures show` and docs/signatures.md list a condition: role, expectation, reason."""
    why = f" ({c.why})" if c.why else ""
    return f"[{c.role}] {c.expect}{why}"

