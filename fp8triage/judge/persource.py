"""Judging each log source on its own facts.

A source (one file, or standard input) is taken to be one machine's log: the facts read from
it (GPU, capability, versions, env vars, an environment dump pasted into it, facts captured by
evidence patterns) judge only the findings whose evidence is in it. Facts from the command
line, the checkpoint, ``--env-file`` and the live machine apply to every source. Identical
errors in two sources are counted and shown per source. ``one_machine=True`` (``scan
--one-machine``) pools every source's facts and events, as for several files of one machine.

The result is one finding per (signature, source), each carrying its ``source``; findings
judged from the facts alone that come out the same for several sources are listed once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ..catalogue.loader import Catalogue
from ..facts.vocabulary import resolve
from ..facts.logfacts import LogFacts
from .cascades import attach_cascades
from .claims import Group
from .matcher import claim
from .verdict import judge, order, unknown_groups
from ..model import Fact, Finding, UnknownGroup
from ..facts.probe import derive_capabilities


@dataclass
class Judged:
    findings: list[Finding] = field(default_factory=list)
    ruled: list[Finding] = field(default_factory=list)
    unknown: list[UnknownGroup] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)  # the facts in force (every source's)
    conflicts: list[dict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def split_groups(groups: Iterable[Group]) -> dict[str, list[Group]]:
    """Event groups per source, each with that source's first event, count and workers."""
    out: dict[str, list[Group]] = {}
    for g in groups:
        if len(g.parts) <= 1:
            src = next(iter(g.parts), g.event.lines[0].source)
            out.setdefault(src, []).append(g)
            continue
        for src, p in g.parts.items():
            out.setdefault(src, []).append(
                Group(g.fingerprint, p.event, p.count, list(p.workers), p.last, g.order, parts={src: p})
            )
    return out


def pool(logfacts: Iterable[LogFacts]) -> LogFacts:
    """One LogFacts holding the facts of several, in order (the first value of a fact wins)."""
    out = LogFacts()
    for lf in logfacts:
        out.merge(lf)
    return out


def judge_sources(
    cat: Catalogue,
    groups: Sequence[Group],
    logfacts: dict[str, LogFacts],
    dump_facts: dict[str, list[Fact]],
    shared_facts: Iterable[Fact],
    prefer: str = "log",
    one_machine: bool = False,
) -> Judged:
    """Claim, judge and collect unknown errors per source (see the module docstring)."""
    shared = list(shared_facts)
    by_src = split_groups(sorted(groups, key=lambda g: g.order))
    sources = list(logfacts)
    sources += [s for s in by_src if s not in logfacts]
    if one_machine or len(sources) <= 1:
        only = sources[0] if len(sources) == 1 and not one_machine else None
        # pooled facts, but each source's occurrences stay its own group: evidence from every log
        every = sorted((g for gs in by_src.values() for g in gs), key=lambda g: g.order)
        plan = [(only, every, pool(logfacts.values()), [f for fs in dump_facts.values() for f in fs])]
    else:
        plan = [(s, by_src.get(s, []), logfacts.get(s) or LogFacts(), list(dump_facts.get(s, [])))
                for s in sources]
    out = _Collector()
    for source, gs, lf, dumps in plan:
        claims = claim(cat, gs)
        facts = shared + dumps + lf.finish() + claims.facts
        facts += derive_capabilities(facts)
        chosen, conflicts = resolve(facts, prefer)
        findings, ruled = judge(cat, claims, chosen, gs)
        unknown = unknown_groups(gs, claims, limit=0, ruled_out=[f.id for f in ruled], findings=findings)
        out.add_findings(source, findings, ruled)
        out.add_unknown(attach_cascades(findings, unknown, claims))
        out.add_facts(chosen, conflicts)
        out.judged.warnings.extend(w for w in claims.warnings if w not in out.judged.warnings)
    return out.result(cat, sources)


class _Collector:
    """What the sources' judgements add up to: findings named by source, unknown groups merged by
    fingerprint, each fact and conflict once."""

    def __init__(self) -> None:
        self.judged = Judged()
        self.fact_seen: set[tuple[str, str, str]] = set()
        self.conflict_seen: set[str] = set()
        self.facts_only_seen: set[tuple] = set()
        self.unknown_by_fp: dict[str, UnknownGroup] = {}

    def add_findings(self, source: str | None, findings: list[Finding], ruled: list[Finding]) -> None:
        for f in findings + ruled:
            if f.from_facts_only:
                key = (f.id, f.status.value, tuple((c.fact, c.value, c.source) for c in f.conditions))
                if key in self.facts_only_seen:
                    continue
                self.facts_only_seen.add(key)
                # judged only from facts that every source shares: no one source to name
                if all((fc.origin not in ("log", "env-dump") or source is None) for fc in f.facts):
                    f.source = None
                else:
                    f.source = source
            else:
                f.source = source
            (self.judged.ruled if f in ruled else self.judged.findings).append(f)

    def add_unknown(self, unknown: list[UnknownGroup]) -> None:
        for u in unknown:
            have = self.unknown_by_fp.get(u.fingerprint)
            if have is None:
                self.unknown_by_fp[u.fingerprint] = u
                continue
            have.count += u.count
            have.workers = have.workers + [w for w in u.workers if w not in have.workers]
            have.last = u.last

    def add_facts(self, chosen: dict, conflicts: list[dict]) -> None:
        for fct in chosen.values():
            key = (fct.name, fct.value, fct.source)
            if key not in self.fact_seen:
                self.fact_seen.add(key)
                self.judged.facts.append(fct)
        for c in conflicts:
            key = repr(sorted((v["value"], v["source"]) for v in c["values"])) + c["name"]
            if key not in self.conflict_seen:
                self.conflict_seen.add(key)
                self.judged.conflicts.append(c)

    def result(self, cat: Catalogue, sources: list) -> Judged:
        out = self.judged
        rank = {s: i for i, s in enumerate(sources)}

        # as judge orders one source's findings (stable: ties keep source order, then judge's order)
        out.findings.sort(key=lambda f: order(cat, f))
        out.ruled.sort(key=lambda f: rank.get(f.source, -1))
        out.unknown = sorted(self.unknown_by_fp.values(), key=lambda u: -u.count)
        out.facts.sort(key=lambda f: f.name)
        return out
