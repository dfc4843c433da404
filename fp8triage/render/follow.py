"""The live notices of `fp8triage scan --follow`: one JSON object per line, or text for people."""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from ..common.redact import redact
from ..common.envelope import envelope


def notice_json(n) -> str:
    d = {**envelope("follow"), **n.to_dict()}
    return redact(json.dumps(d, ensure_ascii=True))


def notice_text(n) -> str:
    ts = time.strftime("%H:%M:%S")
    if n.event == "finding":
        f = n.finding
        ev = f.evidence[0] if f.evidence else None
        where = f"  {ev.source}:{ev.lineno}" if ev else ""
        out = [f"[{ts}] ROOT CAUSE {f.id} [{f.status.value.upper()} · {f.severity.value}]{where}", f"    {f.title}"]
        if ev:
            out.append(f"    {_short(ev.text.strip())}")
        for r in [r for r in f.remedies if r.applies.value != "fails"][:2]:
            out.append(f"    remedy: {_short(r.snippet.splitlines()[0]) if r.snippet else r.title}")
        if f.decide:
            out.append(f"    would decide: {', '.join(f.decide)}")
        return "\n".join(out)
    if n.event in ("unknown", "consequence"):
        u = n.unknown
        where = f"{u.first.source}:{u.first.lineno}"
        if n.event == "consequence":
            return f"[{ts}]   ↳ follows from {n.of}: {_short(u.headline, 160)}  ({where})"
        return f"[{ts}] UNKNOWN ERROR {u.fingerprint} ({u.kind})  {where}\n    {_short(u.headline)}"
    if n.event in ("rotated", "truncated"):
        return f"[{ts}] -- {n.note}"
    raise AssertionError(f"unhandled notice {n.event}")


def _short(text: str, limit: int = 200) -> str:
    """A line for the live notice stream: clipped, and saying so (the JSON stream has it whole)."""
    from ..render.clip import clipped_note, visible

    text = visible(text)
    return text if len(text) <= limit else f"{text[:limit]} … {clipped_note(len(text))}"


def notice_jsonl(n, *, run_id: str | None, source: str) -> str:
    """One notice as a record of the `--format jsonl` stream."""
    from .jsonl import line, notice_record

    return redact(line(notice_record(n, run_id=run_id, source=source)))


@dataclass(frozen=True)
class FollowSummary:
    """What the closing record of `scan --follow` says."""

    result: Any  # the ScanResult of everything followed
    exit_code: int
    interrupted: bool
    lines: int
    run_id: str | None = None
    source: str = ""


def summary_text(s: FollowSummary) -> str:
    r = s.result
    found = ", ".join(f"{f.id} ({f.status.value}, {f.count}x)" for f in r.findings) or "no known root cause"
    return (f"-- {'interrupted' if s.interrupted else 'end of input'}: {s.lines} lines; {found}; "
            f"{len(r.unknown)} unknown error group(s); exit {s.exit_code}"
            + (": nothing could be read (see the warning)" if s.exit_code == 5 else ""))


def summary_json(s: FollowSummary) -> str:
    r = s.result
    return json.dumps({**envelope("follow"), "event": "summary",
                       "exit_code": s.exit_code, "interrupted": s.interrupted, "lines": s.lines,
                       "findings": [{"id": f.id, "status": f.status.value, "count": f.count} for f in r.findings],
                       "unknown_errors": len(r.unknown)}, ensure_ascii=True)


def summary_jsonl(s: FollowSummary) -> str:
    from .jsonl import line, record, versions

    r = s.result
    return line(record(
        "summary", run_id=s.run_id, source=s.source, exit_code=s.exit_code, interrupted=s.interrupted,
        complete=not s.interrupted, lines=s.lines, sources=1,
        findings=[{"id": f.id, "status": f.status.value, "count": f.count, "source": f.source} for f in r.findings],
        unknown_errors=len(r.unknown), **versions(r.meta)))
