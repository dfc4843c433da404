"""The fleet view of a scan of many sources: per finding, which pods or hosts it was seen on
(with counts and times), and which facts set the affected sources apart from the others.

A source's *label* is its pod or host: the first path component below the folder or prefix
that all scanned sources share (``s3://logs/fleet/vllm-7/server.log`` → ``vllm-7``), or, for
sources side by side in one folder, the file name without its log suffixes
(``logs/vllm-7.log.gz`` → ``vllm-7``). Several files of one pod share its label.

A source's *time* is when its log was last written: the object's last-modified time in
object storage, a local file's modification time. "First" and "last" of a finding are the
earliest and latest time among the sources it was seen on; the timeline counts the affected
sources up to each of those times. A log's own timestamps are not used: their format and
zone differ between stacks, and many lines carry none.

A fact *differs* (sets the affected sources apart) when an affected source has a value of it
that no unaffected source has, and the fact is known on the unaffected side too (GPU model,
capability, vLLM or torch version, a dispatch env var). A fact known only on the affected side
(read from the failure's own lines, or missing from the other logs) and a fact whose affected
values all occur on unaffected sources as well do not differ. Facts that every source shares
(``--fact``, the checkpoint, the live machine) never differ.

Core only: returns plain data (``ScanResult.fleet``); the renderers draw it.
"""
from __future__ import annotations

import os
import re
from datetime import datetime, timezone
from typing import Any, Sequence

from ..common.source import Source
from ..model import ScanResult

_SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*://")
_SUFFIX = re.compile(r"(?:\.(?:log|txt|out|err|gz|jsonl|json|ndjson|\d+))+$", re.IGNORECASE)
MAX_VALUES = 8  # values listed per fact and side


def labels(names: Sequence[str]) -> dict[str, str]:
    """Source name → pod/host label (see the module docstring)."""
    parts = {n: [p for p in _SCHEME.sub("", n).replace("\\", "/").split("/") if p] for n in names}
    dirs = [p[:-1] for p in parts.values()]
    common = 0
    if dirs:
        shortest = min(len(d) for d in dirs)
        while common < shortest and len({d[common] for d in dirs}) == 1:
            common += 1
    out = {}
    for n, p in parts.items():
        rest = p[common:]
        if len(rest) >= 2:
            out[n] = rest[0]
        else:
            leaf = rest[0] if rest else (p[-1] if p else n)
            out[n] = _SUFFIX.sub("", leaf) or leaf
    return out


def source_time(src: Source) -> str | None:
    if src.mtime:
        return src.mtime
    if src.path is not None:
        try:
            st = os.stat(src.path)
        except OSError:
            return None
        return datetime.fromtimestamp(st.st_mtime, timezone.utc).isoformat(timespec="seconds")
    return None


def _owner(fact_source: str, names: list[str]) -> str | None:
    """The input a fact was read from (its provenance names the input), else None (shared)."""
    best = None
    for n in names:
        if (f" {n}:" in fact_source or fact_source.startswith(f"{n}:")) and (best is None or len(n) > len(best)):
            best = n
    return best


def fleet_view(result: ScanResult, sources: Sequence[Source]) -> dict[str, Any]:
    names = [s.name for s in sources]
    label = labels(names)
    times = _label_times(sources, label)
    all_labels = list(dict.fromkeys(label[n] for n in names))
    facts = _facts_by_label(result, names, label, all_labels)
    rows = _rows_by_id(result, label, times)
    out_findings = [_fleet_finding(row, all_labels, facts) for row in rows.values()]
    out_findings.sort(key=lambda r: (-r["affected"], r["id"]))
    return {
        "sources": [{"label": lab, "time": times.get(lab),
                     "findings": sorted(r["id"] for r in out_findings if lab in {s["label"] for s in r["sources"]})}
                    for lab in all_labels],
        "findings": out_findings,
    }


def _label_times(sources: Sequence[Source], label: dict[str, str]) -> dict[str, str | None]:
    """label -> the time of its latest log (None where no log of it has one)."""
    times: dict[str, str | None] = {}
    for s in sources:
        t = source_time(s)
        lab = label[s.name]
        if t and (times.get(lab) is None or t > times[lab]):  # a pod's latest log
            times[lab] = t
        times.setdefault(lab, None)
    return times


def _facts_by_label(result: ScanResult, names: list[str], label: dict[str, str],
                    all_labels: list[str]) -> dict[str, dict[str, set[str]]]:
    """facts per label: name -> set of values"""
    facts: dict[str, dict[str, set[str]]] = {lab: {} for lab in all_labels}
    for f in result.facts:
        if f.origin not in ("log", "env-dump", "derived"):
            continue
        owner = _owner(f.source, names)
        if owner is None:
            continue
        facts[label[owner]].setdefault(f.name, set()).add(f.value)
    return facts


def _rows_by_id(result: ScanResult, label: dict[str, str], times: dict[str, str | None]) -> dict[str, dict[str, Any]]:
    """finding id -> its best status and, per label, the sources and events where it was found."""
    rows: dict[str, dict[str, Any]] = {}
    for f in result.findings:
        if f.source is None or f.source not in label:
            continue
        row = rows.setdefault(f.id, {"id": f.id, "title": f.title, "severity": f.severity.value,
                                     "status": f.status.value, "_rank": f.status.rank, "sources": {}})
        if f.status.rank < row["_rank"]:
            row["status"], row["_rank"] = f.status.value, f.status.rank
        lab = label[f.source]
        s = row["sources"].setdefault(lab, {"label": lab, "sources": [], "count": 0, "status": f.status.value,
                                             "time": times.get(lab)})
        s["sources"].append(f.source)
        s["count"] += f.count
    return rows


def _timeline(stamped: list[str]) -> list[dict[str, Any]]:
    """The number of affected labels at each of their times, in time order."""
    timeline: list[dict[str, Any]] = []
    for i, t in enumerate(sorted(stamped)):
        if timeline and timeline[-1]["time"] == t:
            timeline[-1]["affected"] = i + 1
        else:
            timeline.append({"time": t, "affected": i + 1})
    return timeline


def _fleet_finding(row: dict[str, Any], all_labels: list[str], facts: dict[str, dict[str, set[str]]]) -> dict[str, Any]:
    """One finding across the fleet: where, when, how often, and the facts that set its sources apart."""
    affected = sorted(row["sources"].values(), key=lambda s: (s["time"] or "", s["label"]))
    hit = {s["label"] for s in affected}
    others = [lab for lab in all_labels if lab not in hit]
    stamped = [s["time"] for s in affected if s["time"]]
    return {
        "id": row["id"], "title": row["title"], "severity": row["severity"], "status": row["status"],
        "affected": len(affected), "total": len(all_labels),
        "events": sum(s["count"] for s in affected),
        "first_time": min(stamped) if stamped else None, "last_time": max(stamped) if stamped else None,
        "sources": affected,
        "differs": _differs([facts[lab] for lab in hit], [facts[lab] for lab in others]),
        "timeline": _timeline(stamped),
    }


def _differs(affected: list[dict[str, set[str]]], unaffected: list[dict[str, set[str]]]) -> list[dict[str, Any]]:
    """Facts with a value on the affected sources that no unaffected source has (and known on
    both sides); each side lists value → number of sources (a source without the fact counts
    as "unknown")."""
    if not unaffected:
        return []
    names = sorted({n for side in (affected, unaffected) for fs in side for n in fs})
    out = []
    for name in names:
        a = _tally(affected, name)
        u = _tally(unaffected, name)
        known_a = {v for v in a if v != "unknown"}
        known_u = {v for v in u if v != "unknown"}
        if not known_a or not known_u or known_a <= known_u:
            continue  # not known on one side, or every affected value runs unaffected elsewhere
        out.append({"fact": name, "affected": dict(list(a.items())[:MAX_VALUES]),
                    "unaffected": dict(list(u.items())[:MAX_VALUES])})
    return out


def _tally(side: list[dict[str, set[str]]], name: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for fs in side:
        for v in sorted(fs.get(name) or {"unknown"}):
            counts[v] = counts.get(v, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def attach(result: ScanResult, sources: Sequence[Source], one_machine: bool = False) -> None:
    """Set ``result.fleet`` when the scan read several machines' logs (not ``--one-machine``)."""
    if not one_machine and len({s.name for s in sources}) > 1:
        result.fleet = fleet_view(result, sources)
