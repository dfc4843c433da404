"""The fleet view (``ScanResult.fleet``, judge/fleet.py) for the text, Markdown and HTML
renderers: strings and plain dicts only; values from logs are cleaned or escaped by the caller
(text: ``clean``; HTML: autoescape; Markdown: the template's filters)."""
from __future__ import annotations

from typing import Any, Callable

from .chart import geometry

MAX_SOURCES_TEXT = 12  # affected sources listed per finding in text (all in JSON)
MAX_SERIES = 4  # findings drawn in the chart (the report's palette has four colours)


def _when(t: str | None) -> str:
    return (t or "-")[:16].replace("T", " ")


def _values(d: dict[str, int]) -> str:
    return ", ".join(f"{v} ({n})" for v, n in d.items())


def text_lines(fleet: dict[str, Any] | None, clean: Callable[[object], str]) -> list[str]:
    """The FLEET section of the text report (empty when nothing was found on any source)."""
    if not fleet or not fleet.get("findings"):
        return []
    total = len(fleet["sources"])
    hit = sum(1 for s in fleet["sources"] if s["findings"])
    out = [f"FLEET  {hit} of {total} sources (pods/hosts) affected"]
    for f in fleet["findings"]:
        out.append(f"  {clean(f['id'])}  [{f['status']} · {f['severity']}]  on {f['affected']} of {f['total']} sources, "
                   f"{f['events']} event(s); first {_when(f['first_time'])}, last {_when(f['last_time'])} UTC")
        shown = f["sources"][:MAX_SOURCES_TEXT]
        names = "  ".join(f"{clean(s['label'])} ×{s['count']}"
                          + (f" ({s['status']})" if s["status"] != f["status"] else "") for s in shown)
        more = f"  … and {len(f['sources']) - len(shown)} more" if len(f["sources"]) > len(shown) else ""
        out.append(f"    seen on: {names}{more}")
        for d in f["differs"]:
            out.append(f"    {clean(d['fact'])}: affected {clean(_values(d['affected']))}; "
                       f"unaffected {clean(_values(d['unaffected']))}")
        if not f["differs"] and f["affected"] < f["total"]:
            out.append("    no fact read from the logs sets the affected sources apart")
    return out


def markdown_view(fleet: dict[str, Any] | None) -> dict[str, Any] | None:
    """Rows for the Markdown template (values escaped there)."""
    if not fleet or not fleet.get("findings"):
        return None
    return {
        "affected": sum(1 for s in fleet["sources"] if s["findings"]),
        "total": len(fleet["sources"]),
        "findings": [{
            **f, "first": _when(f["first_time"]), "last": _when(f["last_time"]),
            "seen": ", ".join(f"{s['label']} ×{s['count']}" for s in f["sources"]),
            "differs": [{"fact": d["fact"], "affected": _values(d["affected"]), "unaffected": _values(d["unaffected"])}
                        for d in f["differs"]],
        } for f in fleet["findings"]],
    }


def html_view(fleet: dict[str, Any] | None) -> dict[str, Any] | None:
    """The fleet section of the HTML report: the markdown rows plus a chart of affected
    sources over time (drawn by the report's ``chart`` macro)."""
    view = markdown_view(fleet)
    if view is None:
        return None
    view["chart"] = _chart(fleet["findings"][:MAX_SERIES], view["total"])  # type: ignore[index]
    return view


def _chart(findings: list[dict[str, Any]], total: int) -> dict[str, Any] | None:
    times = sorted({p["time"] for f in findings for p in f["timeline"]})
    if len(times) < 2:
        return None
    series = []
    for k, f in enumerate(findings):
        steps = {p["time"]: p["affected"] for p in f["timeline"]}
        values, cur = [], 0
        for t in times:
            cur = steps.get(t, cur)
            values.append(cur)
        series.append({"label": f["id"], "values": values, "cls": f"s{k}"})
    c = geometry("affected sources", f"of {total}, by the time each source's log was last written", series)
    n = len(times)
    idx = sorted({0, (n - 1) // 2, n - 1})
    # the x axis is the i-th distinct time: label the ticks with the times themselves
    for tick, i in zip(c["x_ticks"], idx):
        tick["label"] = _when(times[i])[5:]  # MM-DD HH:MM
    c["axis"] = "time (UTC)"
    c["title"] = "affected sources"
    return c
