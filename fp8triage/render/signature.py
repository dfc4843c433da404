"""Text for `fp8triage signatures show ID`."""
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
