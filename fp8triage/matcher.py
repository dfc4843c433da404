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

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping


from .catalogue import Catalogue, Pattern, Signature
from .conditions import combine, evaluate
from .facts import canonical_name, normalise_value
from .model import (
    ConditionResult,
    Event,
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
        self.count += 1
        for w in ev.workers:
            if w not in self.workers:
                self.workers.append(w)
        self.last = ev.lines[0]
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
        self.count += 1
        for w in ev.workers:
            if w not in self.workers:
                self.workers.append(w)
        self.last = ev.lines[0]


@dataclass
class Hit:
    sig: Signature
    pattern: Pattern
    match: Any  # regex.Match on group.event.text
    group: Group


@dataclass
class Claims:
    primary: dict[str, list[Hit]] = field(default_factory=dict)  # sig id -> hits
    supporting: dict[str, list[Hit]] = field(default_factory=dict)
    claimed: set[str] = field(default_factory=set)  # fingerprints claimed by some signature
    also: dict[str, list[str]] = field(default_factory=dict)  # fingerprint -> other matching sig ids
    facts: list[Fact] = field(default_factory=list)  # facts captured by named groups
    warnings: list[str] = field(default_factory=list)
    timed_out: set[tuple[str, str]] = field(default_factory=set)  # (sig id, pattern name): skipped from then on


def _candidates(cat: Catalogue, text: str) -> list[Signature]:
    low = None
    out = []
    for sig in cat.signatures:
        if not sig.anchors:
            out.append(sig)
            continue
        if sig.anchors_ignore_case:
            low = low if low is not None else text.lower()
            if any(a.lower() in low for a in sig.anchors):
                out.append(sig)
        elif any(a in text for a in sig.anchors):
            out.append(sig)
    return out


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
        text = g.event.text
        cands = _candidates(cat, text)
        if not cands:
            continue
        matched: list[Hit] = []
        for sig in cands:
            for p in sig.primary:
                if p.kinds and g.event.kind.value not in p.kinds:
                    continue
                m = _search(p, text, claims, sig)
                if m is not None:
                    matched.append(Hit(sig, p, m, g))
                    break
        if matched:
            best = max(matched, key=lambda h: (h.sig.priority, -cat.signatures.index(h.sig)))
            claims.primary.setdefault(best.sig.id, []).append(best)
            claims.claimed.add(g.fingerprint)
            others = [h.sig.id for h in matched if h is not best]
            if others:
                claims.also[g.fingerprint] = others
            for name, value in best.match.groupdict().items():
                if name.startswith("fact_") and value:
                    ln = _line_at(g.event, best.match.start(name))
                    fname = canonical_name(name[5:]) or name[5:]
                    claims.facts.append(
                        Fact(fname, normalise_value(fname, value), f"log {ln.source}:{ln.lineno} (matched by {best.sig.id})", "log")
                    )
        for sig in cands:
            for p in sig.supporting:
                if p.kinds and g.event.kind.value not in p.kinds:
                    continue
                m = _search(p, text, claims, sig)
                if m is not None:
                    claims.supporting.setdefault(sig.id, []).append(Hit(sig, p, m, g))
                    break
    return claims


def _line_at(ev: Event, offset: int) -> Line:
    pos = 0
    for ln in ev.lines:
        end = pos + len(ln.text)
        if offset <= end:
            return ln
        pos = end + 1
    return ev.lines[-1]


def _evidence(hit: Hit) -> Evidence:
    ev = hit.group.event
    start, end = hit.match.span()
    pos = 0
    for ln in ev.lines:
        line_end = pos + len(ln.text)
        if start <= line_end:
            s = start - pos
            e = min(end, line_end) - pos
            return Evidence(
                ln.source, ln.lineno, ln.text, (s, max(s, e)), tuple(hit.group.workers), hit.pattern.name
            )
        pos = line_end + 1
    last = ev.lines[-1]
    return Evidence(last.source, last.lineno, last.text, None, tuple(hit.group.workers), hit.pattern.name)


# -- conditions and remedies ---------------------------------------------------------------

def evaluate_conditions(sig: Signature, facts: Mapping[str, Fact]) -> list[ConditionResult]:
    return [evaluate(c, facts) for c in sig.conditions]


def snippet(action: Mapping[str, Any]) -> str:
    kind = action["kind"]
    if kind == "env":
        return f"export {action['name']}={action['value']}"
    if kind == "install":
        return f"pip install '{action['spec']}'"
    if kind == "config":
        where = f" in {action['file']}" if action.get("file") else ""
        return f"set {action['key']} = {action['value']}{where}"
    if kind == "code":
        return action["code"]
    if kind == "command":
        return action["command"]
    return action.get("text", "")


def build_remedies(sig: Signature, facts: Mapping[str, Fact]) -> list[Remedy]:
    out: list[tuple[int, int, int, Remedy]] = []
    for i, r in enumerate(sig.remedies):
        results = [evaluate(c, facts) for c in r.get("when", [])]
        truth, decide, contra = combine([ConditionResult(x.fact, x.expect, x.truth, x.value, x.source, "require") for x in results])
        why = r.get("why", "")
        if truth is Truth.UNKNOWN and decide:
            why = (why + " " if why else "") + f"(fits if: {', '.join(x.expect for x in results if x.truth is Truth.UNKNOWN)})"
        elif truth is Truth.FAILS:
            why = (why + " " if why else "") + f"(does not fit: {'; '.join(contra)})"
        rem = Remedy(r["id"], r["title"], dict(r["action"]), snippet(r["action"]), truth, why, tuple(r.get("repro", [])))
        order = {Truth.HOLDS: 0, Truth.UNKNOWN: 1, Truth.FAILS: 2}[truth]
        out.append((order, int(r.get("rank", 50)), i, rem))
    return [r for *_k, r in sorted(out, key=lambda t: t[:3])]


def _status(results: list[ConditionResult]) -> tuple[Status, list[str], list[str]]:
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


def make_finding(sig: Signature, facts: Mapping[str, Fact], hits: list[Hit], support: list[Hit]) -> Finding:
    results = evaluate_conditions(sig, facts)
    status, decide, contra = _status(results)
    from_facts = not hits and not support
    evidence = [_evidence(h) for h in sorted(hits, key=lambda h: h.group.order)[:MAX_EVIDENCE]]
    evidence += [_evidence(h) for h in support[: max(0, MAX_EVIDENCE - len(evidence))]]
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
        remedies=build_remedies(sig, facts),
        references=sig.references,
        repro=list(sig.repro),
        count=sum(h.group.count for h in hits) or len(support),
        workers=workers,
        fingerprints=sorted({h.group.fingerprint for h in hits}),
        decide=decide,
        contradicted_by=contra,
        from_facts_only=from_facts,
    )


def judge(
    cat: Catalogue, claims: Claims, facts: Mapping[str, Fact], groups: list[Group], facts_only: bool = True
) -> tuple[list[Finding], list[Finding]]:
    """(findings ordered most probable first, ruled-out findings)."""
    findings: list[Finding] = []
    ruled: list[Finding] = []
    for sig in cat.signatures:
        hits = claims.primary.get(sig.id, [])
        support = claims.supporting.get(sig.id, []) if (hits or sig.silent) else []
        if sig.silent and not hits and support:
            # symptoms only: the symptom lines are the evidence
            hits, support = support, []
        if hits or support:
            f = make_finding(sig, facts, hits, support)
        elif facts_only and sig.preflight and sig.conditions:
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
    for sig_id, hs in claims.primary.items():
        first_line[sig_id] = min(h.group.order for h in hs)
    findings.sort(
        key=lambda f: (
            f.status.rank,
            f.from_facts_only,
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
    """The unknown-error view of a group: masked headline, the last lines as its sample."""
    from .fingerprint import mask

    ev = g.event
    return UnknownGroup(
        fingerprint=g.fingerprint,
        kind=ev.kind.value,
        headline=mask(ev.headline)[:300],
        sample=ev.lines[-8:],
        count=g.count,
        workers=g.workers,
        first=ev.lines[0],
        last=g.last or ev.lines[0],
    )
