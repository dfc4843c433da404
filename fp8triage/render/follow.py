"""The live notices of `fp8triage scan --follow`: one JSON object per line, or text for people."""
from __future__ import annotations

import json
import time

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
