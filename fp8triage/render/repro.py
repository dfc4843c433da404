"""`fp8triage repro`: the kernels' results as text and as the JSON document (strings only; the CLI prints)."""
from __future__ import annotations

import json
from typing import Any

from ..common.envelope import envelope


def render_json(results: list[dict[str, Any]], device: str = "auto", wall_s: float | None = None) -> str:
    doc = {**envelope("repro"), "device_requested": device, "wall_s": wall_s, "summary": summarize(results),
           "results": results}
    return json.dumps(doc, indent=2, sort_keys=False)


def summarize(results: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for r in results:
        counts[r.get("verdict", "error")] = counts.get(r.get("verdict", "error"), 0) + 1
    return counts


def render_text(results: list[dict[str, Any]], wall_s: float | None = None, verbose: bool = False) -> str:
    lines = []
    width = max((len(r["id"]) for r in results), default=10)
    for r in results:
        where = r.get("device") or "?"
        if r.get("capability"):
            where += f" (SM{str(r['capability']).replace('.', '')})"
        t = r.get("wall_s")
        gpu = r.get("gpu_s")
        timing = (f"{t:.2f} s" if isinstance(t, (int, float)) else "-") + (
            f", GPU {gpu * 1000:.2f} ms" if isinstance(gpu, (int, float)) else "")
        lines.append(f"{r['id']:<{width}}  {r.get('verdict', '?'):<14}  {r.get('mode') or '-':<13}  {where}  [{timing}]")
        if r.get("reason"):
            lines.append(f"  {r['reason']}")
        if r.get("note"):
            lines.append(f"  note: {r['note']}")
        if verbose or r.get("verdict") in ("error", "timeout"):
            for ln in r.get("stderr_tail", [])[-4:]:
                lines.append(f"  stderr: {ln}")
        lines.append(f"  re-run: {r.get('command', '')}")
    s = summarize(results)
    total = ", ".join(f"{n} {v}" for v, n in s.items())
    tail = f"{len(results)} repro{'s' if len(results) != 1 else ''}: {total}"
    if wall_s is not None:
        tail += f" in {wall_s:.1f} s"
    lines.append(tail)
    return "\n".join(lines) + "\n"
