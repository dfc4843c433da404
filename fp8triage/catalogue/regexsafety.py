"""Stress-testing signature patterns for catastrophic backtracking.

A signature pattern runs on untrusted log text. The matcher gives every search a time limit
(``judge.patterns.REGEX_TIMEOUT``), so a runaway pattern costs a warning, not a hung triage; this
module is the check that keeps such patterns out of the catalogue in the first place
(``fp8triage signatures validate`` calls ``stress_problems``).

``stress_inputs`` builds adversarial texts for one pattern:

- for every repeated part of the pattern (``X+``, ``X*``, ``X{n,}``), a long run of text that
  part matches, followed by a character that makes the overall match fail (the classic
  ``(a+)+b`` on ``aaaa…a!``), alone and after the literal prefix the pattern needs;
- long runs of spaces, word characters, digits, punctuation and mixed word/space text;
- the signature's own match samples, repeated and cut.

``check_pattern`` searches each input with a short timeout; a pattern that runs out of time on
any of them backtracks catastrophically (or at least super-linearly, which on a 1 MB log line
is the same thing) and is rejected with the input that showed it.
"""
from __future__ import annotations

import math
import re as _re
import time
from dataclasses import dataclass
from typing import Any, Iterable

import regex

try:  # Python >= 3.11
    from re import _constants as _c  # type: ignore[attr-defined]
    from re import _parser as _p  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

STRESS_LEN = 3000  # characters in each generated run
# The ``regex`` package checks its timeout now and then: a search stops about 3x later than asked.
STRESS_TIMEOUT = 0.1  # seconds for one search of one full-size stress input before it is measured
PROBE_TIMEOUT = 0.5  # seconds for one search at an eighth or half of the size
MAX_DEGREE = 2.6  # time growing faster than n^2.6 is catastrophic (quadratic is tolerated, with a warning)
MAX_PROBES = 3  # growth measurements per pattern
MAX_SAMPLE_REPEAT_LEN = 6_000  # characters of repeated sample text
_FAILERS = ("!", "\n", "\x00")  # appended so that a match must fail at the very end

# representative characters of the classes \d \s \w and their negations
_CATEGORY_CHAR = {
    "CATEGORY_DIGIT": "7",
    "CATEGORY_NOT_DIGIT": "a",
    "CATEGORY_SPACE": " ",
    "CATEGORY_NOT_SPACE": "a",
    "CATEGORY_WORD": "a",
    "CATEGORY_NOT_WORD": " ",
    "CATEGORY_LINEBREAK": "\n",
    "CATEGORY_NOT_LINEBREAK": "a",
}


@dataclass(frozen=True)
class Verdict:
    ok: bool
    reason: str = ""  # why it was rejected: which input, how long
    input_label: str = ""
    seconds: float = 0.0
    warning: str = ""  # accepted, but super-linear (quadratic) on some input


def _cat_name(x: Any) -> str:
    return getattr(x, "name", str(x)).upper().replace("SRE_", "")


def _set_char(items: list) -> str:
    """One character that the character set ``[...]`` matches (or does not, if negated)."""
    negate = any(op == _c.NEGATE for op, _ in items)
    members: list[str] = []
    for op, av in items:
        if op == _c.LITERAL:
            members.append(chr(av))
        elif op == _c.RANGE:
            members.append(chr(av[0]))
        elif op == _c.CATEGORY:
            members.append(_CATEGORY_CHAR.get(_cat_name(av), "a"))
    if not negate:
        return members[0] if members else "a"
    for cand in "a7 -_.:/x":
        if cand not in members:
            return cand
    return "\u00e9"


def _sample(tree: Iterable, limit: int = 64) -> str:
    """A short string that the (sub)pattern matches, good enough to build stress runs from."""
    out: list[str] = []
    for op, av in tree:
        if len("".join(out)) > limit:
            break
        if op == _c.LITERAL:
            out.append(chr(av))
        elif op == _c.NOT_LITERAL:
            out.append("a" if chr(av) != "a" else "b")
        elif op == _c.ANY:
            out.append("a")
        elif op == _c.IN:
            out.append(_set_char(av))
        elif op == _c.SUBPATTERN:
            out.append(_sample(av[-1], limit))
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT, getattr(_c, "POSSESSIVE_REPEAT", object())):
            lo, _hi, body = av
            out.append(_sample(body, limit) * max(1, min(lo, 3)))
        elif op == _c.BRANCH:
            out.append(_sample(av[1][0], limit) if av[1] else "")
        elif op == getattr(_c, "ATOMIC_GROUP", object()):
            out.append(_sample(av, limit))
        # AT (anchors), ASSERT, ASSERT_NOT, GROUPREF, CATEGORY at top level: contribute nothing
    return "".join(out)


def _repeat_units(tree: Iterable, prefix: str = "") -> list[tuple[str, str, Any]]:
    """(literal prefix before it, unit, the repeat node) for every unbounded or large repeat."""
    units: list[tuple[str, str, Any]] = []
    seen_prefix = prefix
    for op, av in tree:
        if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            lo, hi, body = av
            if hi is _c.MAXREPEAT or hi > 50:
                u = _sample(body)
                if u:
                    units.append((seen_prefix, u, av))
            units.extend(_repeat_units(body, seen_prefix))
        elif op == _c.SUBPATTERN:
            units.extend(_repeat_units(av[-1], seen_prefix))
        elif op == _c.BRANCH:
            for alt in av[1]:
                units.extend(_repeat_units(alt, seen_prefix))
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            units.extend(_repeat_units(av[1], seen_prefix))
        seen_prefix += _sample([(op, av)])
    return units


def _expanded(tree: Iterable, node: Any, times: int) -> tuple[str, str]:
    """(text before, text after) the repeat ``node`` in a sample of the whole pattern."""
    before: list[str] = []
    after: list[str] = []
    found = False
    for op, av in tree:
        if found:
            after.append(_sample([(op, av)]))
            continue
        if av is node:
            found = True
            continue
        inner = None
        if op == _c.SUBPATTERN:
            inner = av[-1]
        elif op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
            inner = av[2]
        elif op == _c.BRANCH:
            for alt in av[1]:
                b, a = _expanded(alt, node, times)
                if b is not None:
                    inner = alt
                    break
        if inner is not None:
            b, a = _expanded(inner, node, times)
            if b is not None:
                before.append(b)
                after.append(a)
                found = True
                continue
        before.append(_sample([(op, av)]))
    if not found:
        return None, None  # type: ignore[return-value]
    return "".join(before), "".join(after)


def _parse(pattern: str):
    try:
        return _p.parse(pattern)
    except Exception:  # regex-only syntax (\p{..}, possessive forms, ...): fall back to heuristics
        return None


@dataclass(frozen=True)
class StressInput:
    """``before + unit * n + after``: a template, so the same input can be built at other sizes."""

    label: str
    before: str
    unit: str
    n: int
    after: str

    def text(self, n: int | None = None) -> str:
        return self.before + self.unit * (self.n if n is None else n) + self.after


def stress_inputs(pattern: str, samples: Iterable[str] = (), length: int = STRESS_LEN) -> list[StressInput]:
    """Inputs that make a backtracking pattern show its worst case (repeat-driven ones first)."""
    out: list[StressInput] = []
    seen: set[tuple[str, str, str]] = set()

    def add(label: str, before: str, unit: str, n: int, after: str) -> None:
        key = (before, unit, after)
        if key not in seen:
            seen.add(key)
            out.append(StressInput(label, before, unit, n, after))

    tree = _parse(pattern)
    units: list[tuple[str, str, Any]] = _repeat_units(tree) if tree is not None else []
    if tree is None:  # every literal character of the pattern as a possible repeated unit
        units = [("", ch, None) for ch in dict.fromkeys(_re.sub(r"\\.", "", pattern)) if ch.isprintable()]
    for prefix, unit, node in units[:24]:
        n = max(1, length // len(unit))
        before, after = _expanded(tree, node, n) if tree is not None and node is not None else (None, None)
        for fail in _FAILERS:
            add(f"{n} repetitions of {unit[:20]!r} then {fail!r}", "", unit, n, fail)
            if prefix:
                add(f"{prefix[:30]!r} then {n} repetitions of {unit[:20]!r} then {fail!r}", prefix, unit, n, fail)
            if before is not None:
                add(f"{before[:30]!r}, {n} repetitions of {unit[:20]!r}, {fail!r}, then {after[:30]!r}",
                    before, unit, n, fail + after)
                if after:
                    add(f"{before[:30]!r}, {n} repetitions of {unit[:20]!r}, {after[:30]!r}, then {fail!r}",
                        before, unit, n, after + fail)
    generic = {
        "spaces": " ",
        "word characters": "a",
        "digits": "7",
        "punctuation characters": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
        "words and spaces": "ab ",
        "tabs and dots": "\t.",
        "short lines": "a\n",
    }
    for label, unit in generic.items():
        n = max(1, length // len(unit))
        add(f"a line of {n} x {label}", "", unit, n, "")
        add(f"a line of {n} x {label} then '!'", "", unit, n, "!")
    for i, smp in enumerate(samples):
        smp = smp.rstrip("\n")
        if not smp:
            continue
        k = max(2, MAX_SAMPLE_REPEAT_LEN // (len(smp) + 1))
        add(f"match sample {i + 1} repeated {k} times", "", smp + "\n", k, "")
        add(f"match sample {i + 1} repeated {k} times without newlines", "", smp + " ", k, "")
        if len(smp) > 1:
            add(f"match sample {i + 1} without its last character, repeated {k} times", "", smp[:-1] + " ", k, "")
    return out


def _time(compiled: Any, text: str, timeout: float) -> float | None:
    """CPU seconds one search took (best of three while quick), None if it ran out of time.

    CPU time, not wall time: a loaded CI machine must not make a quadratic pattern look cubic."""
    best = None
    for _ in range(3):
        t0 = time.process_time()
        try:
            compiled.search(text, timeout=timeout)
        except TimeoutError:
            return None
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
        if dt > timeout / 4:
            break
    return best


def check_pattern(
    pattern: str | Any,
    samples: Iterable[str] = (),
    *,
    flags: int = regex.MULTILINE,
    timeout: float = STRESS_TIMEOUT,
    length: int = STRESS_LEN,
) -> Verdict:
    """Reject a pattern whose search time grows faster than quadratically on some stress input.

    Each input is searched once at full size with ``timeout``. One that runs out of time is
    measured again at an eighth and at half of its size (``PROBE_TIMEOUT`` each): running out
    of time there, or time growing faster than ``n ** MAX_DEGREE``, is
    catastrophic backtracking. Quadratic growth is accepted with a warning (``Verdict.warning``):
    the matcher's per-search timeout bounds it on long lines.
    """
    source = pattern if isinstance(pattern, str) else pattern.pattern
    compiled = regex.compile(pattern, flags) if isinstance(pattern, str) else pattern
    warning = ""
    probes = 0
    for inp in stress_inputs(source, samples, length):
        t0 = time.perf_counter()
        try:
            compiled.search(inp.text(), timeout=timeout)
            continue
        except TimeoutError:
            pass
        if probes >= MAX_PROBES:
            break  # measured as (at worst) quadratic on several inputs already
        probes += 1
        q, h = max(1, inp.n // 8), max(2, inp.n // 2)
        tq = _time(compiled, inp.text(q), PROBE_TIMEOUT)
        th = _time(compiled, inp.text(h), PROBE_TIMEOUT) if tq is not None else None
        if tq is None or th is None:
            size = len(inp.text(q if tq is None else h))
            return Verdict(False, _reason(inp.label, f"even {size} characters of it took more than {PROBE_TIMEOUT:g} s"),
                           inp.label, time.perf_counter() - t0)
        degree = math.log(max(th, 1e-4) / max(tq, 1e-4)) / math.log(len(inp.text(h)) / len(inp.text(q)))
        if degree > MAX_DEGREE:
            return Verdict(False, _reason(inp.label, f"search time grows about n^{degree:.1f} with its length "
                                          f"({tq:.3f} s at {len(inp.text(q))} characters, {th:.3f} s at "
                                          f"{len(inp.text(h))})"), inp.label, time.perf_counter() - t0)
        warning = warning or (f"search time grows about n^{degree:.1f} on {inp.label} (over {timeout:g} s at "
                              f"{len(inp.text())} characters); the matcher's timeout bounds it, but consider "
                              "making the repeated parts exclusive")
    return Verdict(True, input_label="", warning=warning)


def _reason(label: str, how: str) -> str:
    return (f"backtracks catastrophically on {label}: {how}; make the repeated parts unable to match the "
            "same text (e.g. (?:a+)+ → a+, (\\w+\\s?)+ → [\\w\\s]+), bound them ({0,200}), or use an atomic "
            "group (?>...) or a possessive quantifier (a++)")


def stress_problems(sig: Any, samples: Iterable[str] = (), *, timeout: float = STRESS_TIMEOUT) -> list[Any]:
    """``Problem``s (file, key, message) for each pattern of a loaded ``Signature`` that fails the check."""
    from .loader import Problem

    samples = list(samples)
    problems = []
    raw = sig.data.get("evidence", {}).get("patterns", [])
    for i, p in enumerate(sig.patterns):
        if p.compiled is None:  # a tokens pattern: substring tests, nothing to backtrack
            continue
        idx = next((j for j, r in enumerate(raw) if r.get("name") == p.name), i)
        v = check_pattern(p.compiled, samples, timeout=timeout)
        if not v.ok:
            problems.append(Problem(str(sig.path), f"evidence.patterns.{idx}.regex", f"pattern {p.name!r} {v.reason}"))
    return problems


def _match_samples(sig: Any) -> list[str]:
    """The text of the signature's match samples (signatures/samples/<id>/match/*.log), if any."""
    d = sig.path.parent / "samples" / sig.id / "match"
    out = []
    if d.is_dir():
        for f in sorted(d.glob("*.log"))[:20]:
            try:
                out.append(f.read_text(encoding="utf-8", errors="replace")[:20_000])
            except OSError:
                continue
    return out
