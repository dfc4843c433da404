"""Text for `fp8triage signatures list`, `show ID` and `search`."""
from __future__ import annotations

from ..catalogue import actions


def render_show(info: dict) -> str:
    out = [f"{info['id']} — {info['title']}",
           f"severity {info['severity']} · priority {info['priority']}"
           + (f" · stacks {', '.join(info['stacks'])}" if info["stacks"] else ""), ""]
    out += ["Summary", "  " + info["summary"], "", "Cause"] + _indent(info["cause"]) + ["", "Fix"] + _indent(info["fix"])
    if info["conditions"]:
        out += ["", "Conditions"] + [f"  - {c}" for c in info["conditions"]]
    if info["remedies"]:
        out += ["", "Remedies"]
        for i, r in enumerate(info["remedies"], 1):  # in rank order; the rank itself is not a number to read
            when = f"  (when {', '.join(r['when'])})" if r["when"] else ""
            out.append(f"  {i:>2}. {r['title']}{when}")
            for ln in actions.parse(r["action"]).short().splitlines():
                out.append(f"      {ln}")
    out += ["", "Evidence"] + [
        f"  - {e['name']} ({e['role']}, {e['kind']}, {e['strength']}): " + (e["regex"] or "all of " + ", ".join(e["tokens"]))
        for e in info["evidence"]
    ]
    out += ["", "Known problems"] + (_indent(info["known_problems"]) if info["known_problems"] else ["  none recorded"])
    if info["references"]:
        out += ["", "References"] + [f"  - {r['ref']}" + (f"  {r['url']}" if r.get("url") else "") for r in info["references"]]
    if info["sample"]:
        path, text = info["sample"]
        out += ["", f"Sample ({path})"] + [f"  | {ln}" for ln in text.splitlines()]
    return "\n".join(out)


def _indent(text: str) -> list[str]:
    return ["  " + ln if ln else "" for ln in text.strip().splitlines()]


def render_list(rows: list[dict]) -> str:
    """`signatures list`: one signature a line (id, severity, priority, title)."""
    w = max(len(r["id"]) for r in rows) if rows else 2
    return "".join(f"{r['id']:<{w}}  {r['severity']:<8}  {r['priority']:>3}  {r['title']}\n" for r in rows)


def render_search(rows: list[dict]) -> str:
    """`signatures search`: each hit's id and title, and the snippet that matched under it."""
    w = max((len(r["id"]) for r in rows), default=0)
    return "".join(f"{r['id']:<{w}}  {r['title']}\n{'':<{w}}  {r['snippet']}\n" for r in rows)
