"""Signatures × event groups × facts → findings.

Two steps, because facts captured by evidence patterns (``(?P<fact_capability>...)``) join
the fact pool before conditions are judged:

1. ``claim``: each event group is claimed by at most one signature (highest priority among
   those whose primary pattern matches; anchors are checked first, so most signatures never
   run their regex on most events).
2. ``judge``: conditions and remedies are evaluated against the facts in force and each
   claim becomes a ``Finding`` with a status.

Matching is read-only: nothing here changes the catalogue or the events.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

import regex


from ..catalogue.loader import Catalogue, Pattern, Signature
from ..catalogue.recognition import FP8_FORMATS
from . import recognise
from .conditions import combine, evaluate
from ..facts.vocabulary import canonical_name, normalise_value
from ..model import (
    ConditionResult,
    Event,
    EventKind,
    Evidence,
    Fact,
    Finding,
    Line,
    Remedy,
    Severity,
    Status,
    Truth,
    UnknownGroup,
)

# how much a weak hit of a signature's own pattern says, against a rule hit (recognise.score: 1-9): a
# frame or a source location names the component only; a set of tokens or a cut message also the failure
PATTERN_SPECIFICITY = {"frame": 4, "location": 4, "tokens": 6, "message": 8}
REGEX_TIMEOUT = 1.0  # seconds for one pattern on one event; a runaway pattern is reported, not fatal
MAX_EVIDENCE = 6


@dataclass
class Group:
    """Identical events (same fingerprint) across workers and repeats."""

    fingerprint: str
    event: Event  # the first occurrence
    count: int = 1
    workers: list[str] = field(default_factory=list)
    last: Line | None = None
    order: int = 0  # first-seen order across the whole scan

    # source -> its own first event, count, workers and last line (a source is one machine's
    # log: findings are judged per source, see persource.py)
    parts: dict[str, "SourcePart"] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.parts:
            src = self.event.lines[0].source
            self.parts[src] = SourcePart(self.event, self.count, list(self.workers), self.last or self.event.lines[0])

    def add(self, ev: Event) -> None:
        _count(self, ev)
        part = self.parts.get(ev.lines[0].source)
        if part is None:
            self.parts[ev.lines[0].source] = SourcePart(ev, 1, list(ev.workers), ev.lines[0])
        else:
            part.add(ev)

    def absorb(self, other: "Group") -> None:
        """Add the occurrences of ``other`` (same fingerprint, from later sources)."""
        self.count += other.count
        for w in other.workers:
            if w not in self.workers:
                self.workers.append(w)
        self.last = other.last
        for src, p in other.parts.items():
            mine = self.parts.get(src)
            if mine is None:
                self.parts[src] = p
            else:
                mine.count += p.count
                mine.workers.extend(w for w in p.workers if w not in mine.workers)
                mine.last = p.last


@dataclass
class SourcePart:
    """A group's occurrences in one source."""

    event: Event  # the first occurrence in this source
    count: int
    workers: list[str]
    last: Line

    def add(self, ev: Event) -> None:
        _count(self, ev)


def _count(occ: "Group | SourcePart", ev: Event) -> None:
    """One more occurrence of an event: the count, its workers, where it was seen last."""
    occ.count += 1
    for w in ev.workers:
        if w not in occ.workers:
            occ.workers.append(w)
    occ.last = ev.lines[0]


@dataclass(frozen=True)
class Match:
    """Where a pattern matched in an event, whatever its kind."""

    line: int  # index into event.lines of the evidence line
    span: tuple[int, int] | None  # within the evidence text
    text: str | None = None  # the evidence text when it is not the physical line (a joined wrapped message)
    facts: tuple[tuple[str, str, int], ...] = ()  # (group name, value, line index) of named fact_ groups


@dataclass
class Hit:
    sig: Signature
    pattern: Pattern
    match: Match
    group: Group
    specificity: int = 0  # how much a weak hit says (PATTERN_SPECIFICITY; rule hits: recognise.score)

    @property
    def strong(self) -> bool:
        return self.pattern.strength == "strong"


@dataclass
class Claims:
    primary: dict[str, list[Hit]] = field(default_factory=dict)  # sig id -> hits
    supporting: dict[str, list[Hit]] = field(default_factory=dict)
    claimed: set[str] = field(default_factory=set)  # fingerprints claimed by some signature
    also: dict[str, list[str]] = field(default_factory=dict)  # fingerprint -> other matching sig ids
    weak: dict[str, list[Hit]] = field(default_factory=dict)  # fingerprint -> every weak hit, when only weak ones matched
    facts: list[Fact] = field(default_factory=list)  # facts captured by named groups
    warnings: list[str] = field(default_factory=list)
    timed_out: set[tuple[str, str]] = field(default_factory=set)  # (sig id, pattern name): skipped from then on
    context: set[str] = field(default_factory=set)  # components named by the groups read so far (symptom rules)


def _candidates(cat: Catalogue, text: str) -> list[Signature]:
    low = text.lower() if any(s.anchors_ignore_case for s in cat.signatures) else None
    return [sig for sig in cat.signatures if sig.has_anchor(text, low)]


# source locations an event names: C++/CUDA/Python files (with or without a line number) and JIT paths.
# Found from the extension backwards, so the cost stays linear on any line (a regex that scans a path
# from every start position is quadratic on a megabyte of word characters).
_LOC_EXT = regex.compile(r"\.(?:cuh|cu|hpp|hh|h|cpp|cc|cxx|py|pyx|so)(?::\d+)?\b")
_LOC_JIT = regex.compile(r"\bjit/[\w./-]{1,300}")
_PATH_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+~-/")
MAX_PATH = 400


def locations(text: str) -> list[str]:
    """The source locations named in ``text``, in order."""
    out = []
    for m in _LOC_EXT.finditer(text):
        i = start = m.start()
        while i > 0 and start - i < MAX_PATH and text[i - 1] in _PATH_CHARS:
            i -= 1
        if i < start and text[start - 1] != "/":
            out.append(text[i:m.end()])
    out += [m.group(0) for m in _LOC_JIT.finditer(text)]
    return out


def _offset_line(ev: Event, offset: int) -> tuple[int, int]:
    """(line index, offset within that line) of an offset into ``ev.text``."""
    pos = 0
    for i, ln in enumerate(ev.lines):
        end = pos + len(ln.text)
        if offset <= end:
            return i, offset - pos
        pos = end + 1
    return len(ev.lines) - 1, 0


def _regex_match(m: Any, ev: Event) -> Match:
    i, s0 = _offset_line(ev, m.start())
    j, e0 = _offset_line(ev, max(m.start(), m.end()))
    span = (s0, e0 if j == i else len(ev.lines[i].text))
    facts = tuple(
        (name, value, _offset_line(ev, m.start(name))[0]) for name, value in m.groupdict().items() if name.startswith("fact_") and value
    )
    return Match(i, (span[0], max(span[0], span[1])), None, facts)


def _find_line(ev: Event, needle: str) -> int:
    for i, ln in enumerate(ev.lines):
        if needle and needle in ln.text:
            return i
    return len(ev.lines) - 1


def _exc_ok(p: Pattern, ev: Event) -> bool:
    if not p.exc_types or not ev.exc_type:
        return True
    return ev.exc_type.rsplit(".", 1)[-1] in p.exc_types or ev.exc_type in p.exc_types


# failures with a cause of their own: frames, a location or tokens never claim them for an FP8 signature
# (an OOM raised inside an FP8 GEMM's frames is still an OOM)
OTHER_FAILURE = regex.compile(
    r"OutOfMemoryError|out of memory|CUDA_ERROR_OUT_OF_MEMORY|CUBLAS_STATUS_ALLOC_FAILED|NCCL error|ncclInternalError|"
    r"ncclSystemError|ncclUnhandledCudaError|KeyboardInterrupt|Address already in use|Connection refused|"
    r"No space left on device|Too many open files|DistStoreError|TimeoutError|timed out",
    regex.IGNORECASE,
)


@functools.lru_cache(maxsize=512)
def _token_rx(token: str) -> regex.Pattern:
    return regex.compile(r"(?<![a-z0-9_])" + regex.escape(token.lower()))


def _has_token(low: str, token: str) -> bool:
    """Whether lower-cased text holds ``token`` as a word of its own: a token that starts like an
    identifier does not match inside a longer one (``_scaled_mm(`` is not in ``cutlass_scaled_mm(``)."""
    t = token.lower()
    if t not in low:
        return False
    return not (t[:1].isalnum() or t[:1] == "_") or bool(_token_rx(t).search(low))


def match_pattern(p: Pattern, ev: Event, claims: Claims, sig: Signature) -> Match | None:
    """Match one evidence pattern of any kind against an event."""
    if (p.kinds and ev.kind.value not in p.kinds) or not _exc_ok(p, ev):
        return None
    if p.strength == "weak" and (OTHER_FAILURE.search(ev.headline) or any(OTHER_FAILURE.search(c) for c in ev.chain[-2:])):
        return None
    if p.kind == "tokens":
        low = ev.text.lower()
        if not all(_has_token(low, t) for t in p.tokens_all):
            return None
        if p.tokens_any and not any(_has_token(low, t) for t in p.tokens_any):
            return None
        words = [t.lower() for t in p.tokens_all]
        best = max(range(len(ev.lines)), key=lambda i: (sum(w in ev.lines[i].text.lower() for w in words), -i))
        return Match(best, None)
    if p.kind == "frame":
        for path, func in ev.frames:
            m = _search(p, f"{path}:{func}" if func else path, claims, sig)
            if m is not None:
                return Match(_find_line(ev, path), None)
        return None
    if p.kind == "location":
        seen = set()
        for loc in [*locations(ev.text), *(path for path, _ in ev.frames)]:
            if loc in seen:
                continue
            seen.add(loc)
            m = _search(p, loc, claims, sig)
            if m is not None:
                return Match(_find_line(ev, loc), None)
        return None
    m = _search(p, ev.text, claims, sig)
    if m is not None:
        return _regex_match(m, ev)
    if ev.wrapped:
        # a message wrapped by a terminal or a logger: cut mid-word at a fixed width (""), or at a space (" ")
        for sep in ("", " "):
            joined = ev.unwrapped(sep)
            text = "\n".join(t for _, t in joined)
            m = _search(p, text, claims, sig)
            if m is None:
                continue
            pos, k = 0, 0
            for k, (_, t) in enumerate(joined):
                if m.start() <= pos + len(t):
                    break
                pos += len(t) + 1
            first, t = joined[k]
            s0 = m.start() - pos
            return Match(first, (s0, min(len(t), m.end() - pos)), t,
                         tuple((n, v, first) for n, v in m.groupdict().items() if n.startswith("fact_") and v))
    return None


# a line of source code that holds a message: a raise, a check macro, a logger call (a quoted excerpt)
QUOTED_SOURCE = regex.compile(
    r"^\s*(?:\d+\s*[|:]?\s*)?(?:[-+>]\s*)?(?:raise\s+\w[\w.]*\(|throw\s|(?:TORCH|TLLM|FLASHINFER|TVM_FFI)_\w*CHECK\w*\(|"
    r"DG_(?:HOST|DEVICE)_ASSERT\(|STD_TORCH_CHECK\(|logger\.\w+\(|warnings\.warn\()"
)


def quoted_source(ev: Event, m: Match) -> bool:
    """Whether a match lies on a quoted line of source code rather than on a printed message."""
    if ev.kind is not EventKind.LINE and ev.kind is not EventKind.ERROR:
        return False
    line = m.text if m.text is not None else ev.lines[min(m.line, len(ev.lines) - 1)].text
    return bool(QUOTED_SOURCE.match(line))


PARTIAL_MIN = 14  # characters of a cut message that must match the start of a known one
_NOT_PARTIAL = regex.compile(r"\(\?[=!<]|\\A|\\K|\(\?s\)|\(\?[a-z]*s[a-z]*\)")


def partial_ok(p: Pattern) -> bool:
    """Whether a pattern can say that a cut line is the start of its message: lookarounds and
    whole-event scans (\\A, \\K, dot-all) would take any cut text for a start."""
    return p.kind == "message" and p.compiled is not None and not _NOT_PARTIAL.search(p.source)


CUT_TAIL = 4096
CUT_ANCHOR_MIN = 6  # characters of an anchor that a cut line must end with


def _cut_candidates(cat: Catalogue, tail: str) -> list[tuple[Signature, int]]:
    """(signature, offset) for each signature with an anchor in the line, or one that the line's
    end cuts (the line ends with the anchor's first CUT_ANCHOR_MIN or more characters: "... or
    higher req")."""
    out = []
    low = tail.lower()
    for sig in cat.signatures:
        hay = low if sig.anchors_ignore_case else tail
        for a in sig.anchors:
            a = a.lower() if sig.anchors_ignore_case else a
            i = hay.rfind(a[:CUT_ANCHOR_MIN])
            if i >= 0 and (hay.startswith(a, i) or (len(hay) - i < len(a) and a.startswith(hay[i:]))):
                out.append((sig, i))
                break
    return out


_SENTINEL = "\x00"  # no message contains it: a pattern that can consume it was inside a wildcard


def _cut_inside_literal(p: Pattern, tail: str, m: Any) -> bool:
    """The partial match ran out of text inside the message's own words, not inside a wildcard
    (``[^\\n]*deep_gemm`` is "partial" on any line: it would take more of anything)."""
    try:
        m2 = p.compiled.search(tail + _SENTINEL, pos=m.start(), partial=True, timeout=REGEX_TIMEOUT)
    except TimeoutError:
        return False
    return m2 is None or m2.start() != m.start() or not m2.partial


def match_cut(cat: Catalogue, g: Group) -> list[Hit]:
    """Weak hits for an event whose last line ends inside a signature's message: a paste or an
    excerpt cut mid-line. The line must end inside one of the signature's anchors, and the cut
    text must match the start of one of its messages for PARTIAL_MIN characters or more, up to
    the end of the line."""
    ev = g.event
    if not ev.lines:
        return []
    joined = ev.unwrapped(" ") if ev.wrapped else [(len(ev.lines) - 1, ev.lines[-1].text)]
    idx, tail = joined[-1]
    tail = tail.rstrip()[-CUT_TAIL:]  # a cut is at the end: its message starts within the last few KB
    if len(tail) < PARTIAL_MIN:
        return []
    hits = []
    for sig, at in _cut_candidates(cat, tail):
        for p in sig.primary:
            if not partial_ok(p) or (p.kinds and ev.kind.value not in p.kinds) or not _exc_ok(p, ev):
                continue
            try:
                m = p.compiled.search(tail, partial=True, timeout=REGEX_TIMEOUT)
            except TimeoutError:
                continue
            if m is None or not m.partial or m.end() - m.start() < PARTIAL_MIN or m.start() > at:
                continue
            if not _cut_inside_literal(p, tail, m):
                continue
            cut = Pattern(p.name, p.source, p.compiled, p.role, p.kinds, "message", "weak", p.exc_types)
            hits.append(Hit(sig, cut, Match(idx, (m.start(), m.end()), tail if ev.wrapped else None), g,
                            PATTERN_SPECIFICITY["message"]))
            break
    return hits


def _search(p: Pattern, text: str, claims: Claims, sig: Signature):
    if (sig.id, p.name) in claims.timed_out:
        return None
    try:
        return p.compiled.search(text, timeout=REGEX_TIMEOUT)
    except TimeoutError:
        # one runaway search per pattern per scan: on every event it would cost the timeout again
        claims.timed_out.add((sig.id, p.name))
        claims.warnings.append(
            f"signature {sig.id}: pattern {p.name!r} took longer than {REGEX_TIMEOUT}s on one event and was "
            "skipped for the rest of this scan (check it with `fp8triage signatures validate`)"
        )
        return None


def claim(cat: Catalogue, groups: list[Group], claims: Claims | None = None) -> Claims:
    """Match each group against the catalogue. Can be called again with new groups (follow mode)."""
    claims = claims or Claims()
    for g in groups:
        reading = None
        text = g.event.text
        if g.event.wrapped:  # an anchor may be cut in two by the wrap
            text = "\n".join([text, *(t for sep in ("", " ") for _, t in g.event.unwrapped(sep))])
        cands = _candidates(cat, text)
        matched: list[Hit] = []
        for sig in cands:
            hit = None
            # strong evidence first: a signature's message pattern beats its frames, locations, tokens
            for p in sorted(sig.primary, key=lambda p: p.strength != "strong"):
                m = match_pattern(p, g.event, claims, sig)
                if m is not None:
                    if p.strength == "strong" and quoted_source(g.event, m):
                        # the message inside a quoted source excerpt (a write-up that shows the library's
                        # `raise`): what the library can say, not what the reporter hit
                        p = Pattern(p.name, p.source, p.compiled, p.role, p.kinds, p.flags, "message", "weak", p.exc_types)
                    hit = Hit(sig, p, m, g)
                    break
            if hit is not None:
                hit.specificity = PATTERN_SPECIFICITY.get(hit.pattern.kind, 4)
                matched.append(hit)
        if not matched and g.count == 1 and g.event.is_error:
            matched = match_cut(cat, g)
        if not any(h.strong for h in matched):
            reading = recognise.read(g.event, context=frozenset(claims.context))
            # frames or a location of an FP8 component in an event about another format only (FP4, INT8)
            matched = [h for h in matched if recognise.format_fits(h.sig, reading)]
            # a rule that says more than a signature's own weak pattern (frames or a location) replaces it
            ruled = rule_hits(cat, g, reading)
            better = {h.sig.id for h in ruled if all(h.specificity > m.specificity for m in matched if m.sig is h.sig)}
            matched = [m for m in matched if m.sig.id not in better] + [h for h in ruled if h.sig.id in better]
        # what the groups so far name is the context of a later symptom line (a write-up that names
        # DeepGEMM, then shows a zero eval score): earlier groups only, so follow mode reads the same
        claims.context |= (reading or recognise.read(g.event)).components
        silent = [h for h in matched if h.sig.silent and h.pattern.kind == "rule"]
        matched = [h for h in matched if not (h.sig.silent and h.pattern.kind == "rule")]
        if matched:
            # the failure's own message beats a signature that only recognised the frames or location,
            # and a signature's own weak pattern beats a rule over component and failure kind
            best = max(matched, key=lambda h: (h.strong, h.specificity, h.sig.priority, -cat.signatures.index(h.sig)))
            claims.primary.setdefault(best.sig.id, []).append(best)
            claims.claimed.add(g.fingerprint)
            if not best.strong and len(matched) > 1:
                # frames, a location or tokens shared by several causes: the facts choose (``judge``)
                claims.weak[g.fingerprint] = matched
            others = [h.sig.id for h in matched if h is not best]
            if others:
                claims.also[g.fingerprint] = others
            for name, value, idx in best.match.facts:
                ln = g.event.lines[idx]
                fname = canonical_name(name[5:]) or name[5:]
                claims.facts.append(
                    Fact(fname, normalise_value(fname, value), f"log {ln.source}:{ln.lineno} (matched by {best.sig.id})", "log")
                )
        supported = set()
        for sig in cands:
            for p in sig.supporting:
                m = match_pattern(p, g.event, claims, sig)
                if m is not None:
                    claims.supporting.setdefault(sig.id, []).append(Hit(sig, p, m, g))
                    supported.add(sig.id)
                    break
        # a silent failure's rule (component x symptom) is a symptom line like its own symptom patterns
        for h in silent:
            if h.sig.id not in supported and g.fingerprint not in claims.claimed:
                claims.supporting.setdefault(h.sig.id, []).append(h)
    return claims


def rule_hits(cat: Catalogue, g: Group, reading: "recognise.Reading") -> list[Hit]:
    """Weak hits from the signatures' rules over component x failure kind (recognise.py)."""
    ev = g.event
    if not ev.lines or OTHER_FAILURE.search(ev.headline) or any(OTHER_FAILURE.search(c) for c in ev.chain[-2:]):
        return []
    out = []
    for sig, rule in recognise.hits(cat, ev, reading):
        p = Pattern(recognise.describe(rule, reading), "", None, "primary", frozenset(), kind="rule", strength="weak")
        out.append(Hit(sig, p, Match(reading.failure_line, None), g, recognise.score(rule, reading)))
    return out


def _evidence(hit: Hit, symptom: bool = False) -> Evidence:
    ev = hit.group.event
    m = hit.match
    ln = ev.lines[min(m.line, len(ev.lines) - 1)]
    kind = "symptom" if symptom else hit.pattern.kind
    return Evidence(
        ln.source, ln.lineno, m.text if m.text is not None else ln.text, m.span, tuple(hit.group.workers),
        hit.pattern.name, kind, hit.pattern.strength,
    )


# -- conditions and remedies ---------------------------------------------------------------

def evaluate_conditions(sig: Signature, facts: Mapping[str, Fact], absent: frozenset[str] = frozenset()) -> list[ConditionResult]:
    """The signature's conditions judged on ``facts`` (``absent``: see ``conditions.evaluate``)."""
    return [evaluate(c, facts, absent) for c in sig.conditions]


def build_remedies(sig: Signature, facts: Mapping[str, Fact], events: Sequence[Event] = ()) -> list[Remedy]:
    """The signature's remedies judged on ``facts`` and the failing ``events``, best first
    (``remedies.build``: conditions, stack, the code path in the trace, what is already in force)."""
    from .remedies import build

    return build(sig.remedies, facts, events)


def status_of(results: list[ConditionResult]) -> tuple[Status, list[str], list[str]]:
    """(status, facts that would decide it, what contradicts it) from condition results: the one
    rule for scan findings and preflight risks."""
    truth, decide, contra = combine(results)
    if truth is Truth.FAILS:
        return Status.RULED_OUT, decide, contra
    status = Status.LIKELY if truth is Truth.HOLDS else Status.POSSIBLE
    # a supporting fact that contradicts the diagnosis lowers it one step
    support_fails = [r for r in results if r.role == "support" and r.truth is Truth.FAILS]
    if support_fails and status is Status.LIKELY:
        status = Status.POSSIBLE
        contra = [f"{r.fact} = {r.value} ({r.source}) does not fit {r.expect}" for r in support_fails]
    return status, decide, contra


def _used_facts(results: list[ConditionResult], facts: Mapping[str, Fact]) -> list[Fact]:
    seen, out = set(), []
    for r in results:
        f = facts.get(r.fact)
        if f is not None and f.name not in seen:
            seen.add(f.name)
            out.append(f)
    return out


def _facts_support(results: list[ConditionResult]) -> bool:
    """Some condition holds on a fact actually seen (not an assumed default), and none fails."""
    if any(r.truth is Truth.FAILS for r in results):
        return False
    return any(r.truth is Truth.HOLDS and r.source and not r.source.startswith("default") for r in results)


def _weak_status(status: Status, results: list[ConditionResult]) -> Status:
    """Frames, a source location, a set of tokens or a symptom alone: the cause is only possible
    until a fact seen in the log or on the machine supports it."""
    return Status.POSSIBLE if status is Status.LIKELY and not _facts_support(results) else status


def evidence_strength(hits: list[Hit], symptom: bool) -> str:
    if symptom:
        return "symptom"
    return "strong" if any(h.strong for h in hits) else "weak"


def make_finding(sig: Signature, facts: Mapping[str, Fact], hits: list[Hit], support: list[Hit], symptom: bool = False,
                 absent: frozenset[str] = frozenset()) -> Finding:
    results = evaluate_conditions(sig, facts, absent)
    status, decide, contra = status_of(results)
    from_facts = not hits and not support
    strength = evidence_strength(hits, symptom) if not from_facts else "strong"
    if strength != "strong":
        status = _weak_status(status, results)
    # strong hits first, then in log order
    ordered = sorted(hits, key=lambda h: (not h.strong, h.group.order))
    evidence = [_evidence(h, symptom) for h in ordered[:MAX_EVIDENCE]]
    evidence += [_evidence(h) for h in support[: max(0, MAX_EVIDENCE - len(evidence))]]
    # a rule hit on a line that other evidence already shows adds nothing
    shown = {(e.source, e.lineno) for e in evidence if e.kind != "rule"}
    evidence = [e for e in evidence if e.kind != "rule" or (e.source, e.lineno) not in shown]
    workers: list[str] = []
    for h in hits + support:
        for w in h.group.workers:
            if w not in workers:
                workers.append(w)
    if from_facts and status is Status.LIKELY:
        status = Status.POSSIBLE  # a risk judged from facts alone, nothing in the log shows it
    return Finding(
        id=sig.id,
        title=sig.title,
        severity=Severity(sig.severity),
        status=status,
        summary=sig.summary,
        cause=sig.cause,
        evidence=evidence,
        conditions=results,
        facts=_used_facts(results, facts),
        remedies=build_remedies(sig, facts, [h.group.event for h in hits]),
        references=sig.references,
        repro=list(sig.repro),
        count=sum(h.group.count for h in hits) or len(support),
        workers=workers,
        fingerprints=sorted({h.group.fingerprint for h in hits}),
        decide=decide,
        contradicted_by=contra,
        from_facts_only=from_facts,
        strength=strength,
    )


def _weak_rank(hit: Hit, facts: Mapping[str, Fact]) -> tuple:
    sig = hit.sig
    results = evaluate_conditions(sig, facts)
    status = _weak_status(status_of(results)[0], results)
    seen = sum(1 for r in results if r.truth is Truth.HOLDS and r.source and not r.source.startswith("default"))
    # a candidate the facts rule out loses; among the rest the more telling evidence wins, then the facts
    return status is Status.RULED_OUT, -hit.specificity, status.rank, -seen, -sig.priority


# facts that name a component for a symptom that names none (the log's other lines named it)
CONTEXT_FACTS = {"deepgemm_named": "deepgemm"}


def _symptoms_in_context(cat: Catalogue, claims: Claims, facts: Mapping[str, Fact], groups: list[Group]) -> dict[str, list[Hit]]:
    """Silent failures' rule hits on symptom lines that no signature claimed, read with the
    components the log names elsewhere (a NaN traceback, then a sentence that DeepGEMM was picked;
    an INFO line that selected DeepGEMM, then garbage output): signature id -> hits."""
    context = frozenset(c for name, c in CONTEXT_FACTS.items() if name in facts)
    out: dict[str, list[Hit]] = {}
    if not context:
        return out
    for g in groups:
        if g.fingerprint in claims.claimed:
            continue
        reading = recognise.read(g.event, context=context | frozenset(claims.context))
        if "symptom" not in reading.kinds:
            continue
        for h in rule_hits(cat, g, reading):
            if h.sig.silent:
                out.setdefault(h.sig.id, []).append(h)
    return out


def _shows_symptom(hit: Hit) -> bool:
    """Whether a silent failure's supporting line shows something going wrong (NaN, garbage, a score
    that collapsed) in an FP8 run, not only the code path it needs ("Using DEEPGEMM Fp8 MoE backend"),
    and not a model that also runs another format (NVFP4 garbage is not FP8's)."""
    if hit.pattern.kind == "rule":
        return True  # a rule over component x symptom, format-checked already (recognise.fires)
    if hit.pattern.strength == "weak":
        return False  # a pattern the signature marks as context (the backend it needs was selected)
    return not (recognise.read(hit.group.event).formats - FP8_FORMATS)


def arbitrate(claims: Claims, facts: Mapping[str, Fact]) -> None:
    """Give each group that only weak evidence matched to the signature the facts fit best: the
    same DeepGEMM call frames belong to the SM120 layout gap on an RTX 5090 and to the E8M0 switch
    on a B200."""
    for fp, hits in claims.weak.items():
        best = min(hits, key=lambda h: _weak_rank(h, facts))
        current = next((h for h in hits if any(x is h for x in claims.primary.get(h.sig.id, []))), None)
        if current is None or current is best:
            continue
        claims.primary[current.sig.id] = [x for x in claims.primary[current.sig.id] if x is not current]
        if not claims.primary[current.sig.id]:
            del claims.primary[current.sig.id]
        claims.primary.setdefault(best.sig.id, []).append(best)
        claims.also[fp] = [h.sig.id for h in hits if h is not best]


def judge(
    cat: Catalogue, claims: Claims, facts: Mapping[str, Fact], groups: list[Group], fact_risks: bool = True
) -> tuple[list[Finding], list[Finding]]:
    """(findings ordered most probable first, ruled-out findings). ``fact_risks``: also the
    preflight signatures whose conditions hold on the facts alone, without log evidence."""
    arbitrate(claims, facts)
    findings: list[Finding] = []
    ruled: list[Finding] = []
    read_in_context = _symptoms_in_context(cat, claims, facts, groups)
    for sig in cat.signatures:
        hits = claims.primary.get(sig.id, [])
        support = claims.supporting.get(sig.id, []) if (hits or sig.silent) else []
        if sig.silent and not support:
            support = read_in_context.get(sig.id, [])
        symptom = False
        if sig.silent and not hits and support:
            if not any(_shows_symptom(h) for h in support) and len({h.pattern.name for h in support}) < 2:
                # only the backend it needs was selected (one context line): nothing shows it went
                # wrong. The risk warning and the backend selected after it together are evidence.
                continue
            # symptoms only: the symptom lines are the evidence
            hits, support, symptom = support, [], True
        if hits or support:
            f = make_finding(sig, facts, hits, support, symptom)
        elif fact_risks and sig.preflight and sig.conditions:
            results = evaluate_conditions(sig, facts)
            truth, _, _ = combine(results)
            if truth is not Truth.HOLDS:
                continue
            f = make_finding(sig, facts, [], [])
        else:
            continue
        (ruled if f.status is Status.RULED_OUT else findings).append(f)
    evidenced = {f.id for f in findings + ruled if not f.from_facts_only}
    findings = [
        f for f in findings
        if not (f.from_facts_only and evidenced & set(cat.get(f.id).data.get("covered_by", [])))
    ]
    first_line = {}
    failure: dict[str, bool] = {}
    for sig_id, hs in claims.primary.items():
        first_line[sig_id] = min(h.group.order for h in hs)
        failure[sig_id] = any(h.group.event.is_error for h in hs)
    for f in findings:
        f.failure = failure.get(f.id, False)
    findings.sort(
        key=lambda f: (
            f.status.rank,
            f.from_facts_only,
            # a failure (an error, an assertion, a traceback) is the root cause before a warning or
            # a symptom line, and the failure's own message before frames or a location
            not failure.get(f.id, False),
            f.strength != "strong",
            f.severity.rank,
            -(cat.get(f.id).priority if cat.get(f.id) else 50),
            first_line.get(f.id, 1 << 30),
        )
    )
    return findings, ruled


def unknown_groups(
    groups: list[Group], claims: Claims, limit: int = 50, ruled_out: Iterable[str] = ()
) -> list[UnknownGroup]:
    """Error groups that no finding explains. A group claimed only by a ruled-out signature is
    listed too: the facts say that signature is not the cause, so the error is unexplained."""
    ruled = set(ruled_out)
    explained = {h.group.fingerprint for sid, hs in claims.primary.items() if sid not in ruled for h in hs}
    explained |= {h.group.fingerprint for sid, hs in claims.supporting.items() if sid not in ruled for h in hs}
    out = []
    for g in groups:
        if g.fingerprint in explained or not g.event.is_error:
            continue
        out.append(unknown_of(g))
    out.sort(key=lambda u: -u.count)
    return out[:limit] if limit else out


def unknown_of(g: Group) -> UnknownGroup:
    """The unknown-error view of a group: the headline of its first occurrence as it was written
    (redacted; the mask is for the fingerprint only), the last lines as its sample."""
    from ..common.redact import redact

    ev = g.event
    return UnknownGroup(
        fingerprint=g.fingerprint,
        kind=ev.kind.value,
        headline=redact(ev.headline)[:300],
        sample=ev.lines[-8:],
        count=g.count,
        workers=g.workers,
        first=ev.lines[0],
        last=g.last or ev.lines[0],
    )
