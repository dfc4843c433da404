"""Findings as a stream for log pipelines (``--format jsonl``): one JSON object per line, each
complete on its own, versioned by ``fp8triage/schemas/stream.schema.json``.

``scan --format jsonl`` writes one ``finding`` line per finding, one ``unknown`` line per error
group that no signature knows, then a ``summary`` line; ``scan --follow --format jsonl`` writes
the same records as they happen (plus ``consequence``, ``rotated``, ``truncated``). Every
record names the host that scanned (in a Kubernetes sidecar: the pod), the run and the
source (its pod/host label too), so a log pipeline can route and aggregate them.
"""
from __future__ import annotations

import json
import platform
from datetime import datetime, timezone
from typing import Any

from ..model import ScanResult
from ..common.envelope import envelope
from .jsonout import _clip_lines


def record(event: str, *, run_id: str | None, source: str | None = None, label: str | None = None,
           time: str | None = None, **body: Any) -> dict[str, Any]:
    """One stream record (the keys every record has, then ``body``)."""
    rec: dict[str, Any] = {
        **envelope("stream"), "event": event,
        "time": time or datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
        "host": platform.node(), "run_id": run_id,
    }
    if source is not None:
        rec["source"] = source
        rec["label"] = label or source
    rec.update({k: v for k, v in body.items() if v is not None})
    return rec


def line(rec: dict[str, Any]) -> str:
    # ensure_ascii: control characters stay escaped; one line per record
    return json.dumps(rec, ensure_ascii=True, separators=(",", ":"))


def _clipped_finding(d: dict) -> dict:
    return _clip_lines({"findings": [d], "ruled_out": [], "unknown_errors": []})["findings"][0]


def _clipped_unknown(d: dict) -> dict:
    return _clip_lines({"findings": [], "ruled_out": [], "unknown_errors": [d]})["unknown_errors"][0]


def records(result: ScanResult, *, exit_code: int | None = None) -> list[dict[str, Any]]:
    from ..judge.fleet import labels

    run = result.meta.get("run_id")
    names = [i.source for i in result.inputs]
    label = labels(names) if names else {}
    out = []
    for f in result.findings:
        src = f.source or (f.evidence[0].source if f.evidence else None)
        out.append(record("finding", run_id=run, source=src, label=label.get(src),
                          finding=_clipped_finding(f.to_dict())))
    for u in result.unknown:
        src = u.first.source
        out.append(record("unknown", run_id=run, source=src, label=label.get(src),
                          unknown=_clipped_unknown(u.to_dict())))
    out.append(record(
        "summary", run_id=run, exit_code=exit_code, interrupted=False, complete=True,
        lines=sum(i.lines for i in result.inputs), sources=len(result.inputs),
        findings=[{"id": f.id, "status": f.status.value, "count": f.count, "source": f.source} for f in result.findings],
        unknown_errors=len(result.unknown), warnings=list(result.warnings) or None,
        **versions(result.meta),
    ))
    return out


def versions(meta: dict[str, Any]) -> dict[str, Any]:
    """What a summary record carries so that `history import` can store the run like a scan."""
    return {"version": meta.get("version"), "catalogue_version": meta.get("catalogue_version"),
            "fingerprint_algorithm": meta.get("fingerprint_algorithm")}


def render_jsonl(result: ScanResult, *, exit_code: int | None = None) -> str:
    return "".join(line(r) + "\n" for r in records(result, exit_code=exit_code))


def notice_record(n, *, run_id: str | None, source: str) -> dict[str, Any]:
    """A follow-mode notice (``follow.Notice``) as a stream record."""
    from ..judge.fleet import labels

    t = datetime.fromtimestamp(n.wall, timezone.utc).isoformat(timespec="milliseconds")
    lab = labels([source]).get(source) if source != "<stdin>" else None
    body: dict[str, Any] = {}
    if n.finding is not None:
        body["finding"] = _clipped_finding(n.finding.to_dict())
    if n.unknown is not None:
        body["unknown"] = _clipped_unknown(n.unknown.to_dict())
    return record(n.event, run_id=run_id, source=source, label=lab, time=t, of=n.of, cascade=n.cascade,
                  note=n.note or None, **body)
