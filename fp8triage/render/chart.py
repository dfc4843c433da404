"""Line charts as geometry for the HTML templates (the repro metrics, the fleet view's spread over
time): points, ticks and labels, no markup."""
from __future__ import annotations

import math
from typing import Any

from .clip import clip


def fmt_value(v: Any) -> str:
    """A metric or fact value as short text."""
    if v is None:
        return "–"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return str(v)
        if v != 0 and (abs(v) >= 1e6 or abs(v) < 1e-3):
            return f"{v:.3e}"
        return f"{v:.4g}"
    if isinstance(v, (list, tuple)):
        return clip(", ".join(fmt_value(x) for x in v))
    if isinstance(v, dict):
        return clip(", ".join(f"{k}={fmt_value(x)}" for k, x in v.items()))
    return clip(v)


def _nice(lo: float, hi: float) -> tuple[float, float]:
    if lo == hi:
        pad = abs(lo) * 0.1 or 1.0
        return lo - pad, hi + pad
    pad = (hi - lo) * 0.08
    # counts and other non-negative series should not get a negative axis
    return (lo - pad if lo - pad >= 0 or lo < 0 else 0.0), hi + pad


def geometry(key: str, where: str, series: list[dict[str, Any]]) -> dict[str, Any]:
    W, H, L, R, T, B = 480, 210, 56, 14, 12, 34
    n = max(len(s["values"]) for s in series)
    allv = [v for s in series for v in s["values"]]
    lo, hi = _nice(min(allv), max(allv))
    pw, ph = W - L - R, H - T - B

    def x(i: int) -> float:
        return L + (pw * i / (n - 1) if n > 1 else pw / 2)

    def y(v: float) -> float:
        return T + ph * (1 - (v - lo) / (hi - lo))

    for s in series:
        pts = [(x(i), y(v)) for i, v in enumerate(s["values"])]
        s["points"] = " ".join(f"{px:.1f},{py:.1f}" for px, py in pts)
        s["dots"] = [{"x": f"{px:.1f}", "y": f"{py:.1f}"} for px, py in pts] if n <= 32 else []
        s["first"] = fmt_value(s["values"][0])
        s["last"] = fmt_value(s["values"][-1])
        s["text"] = ", ".join(fmt_value(v) for v in s["values"])
    yt = [lo + (hi - lo) * f for f in (0.0, 0.25, 0.5, 0.75, 1.0)]
    y_ticks = [{"y": f"{y(v):.1f}", "label": f"{v:.3g}"} for v in yt]
    xs = sorted({0, (n - 1) // 2, n - 1}) if n > 1 else [0]
    x_ticks = [{"x": f"{x(i):.1f}", "label": str(i + 1)} for i in xs]
    axis = "layer" if "layer" in key.lower() else "index"
    title = key.replace("_", " ")
    return {
        "key": key, "title": title, "where": where, "axis": axis, "series": series,
        "w": W, "h": H, "x0": L, "x1": W - R, "y0": T, "y1": H - B,
        "y_ticks": y_ticks, "x_ticks": x_ticks, "axis_y": f"{H - 6}",
        "grid_x1": f"{W - R}", "label_x": f"{L - 6}",
    }
