"""`fp8triage remedy`: a runnable shell script, text, and the JSON document."""
from __future__ import annotations

from typing import Any, NamedTuple

from ..catalogue.conditions import FactCondition
from ..common.envelope import envelope


class RemedyDoc(NamedTuple):
    """What `fp8triage remedy` renders: a signature, the remedies shown (best first) and the facts."""

    signature: Any
    remedies: list
    facts: dict


def remedy_dict(sig, remedies, facts) -> dict:
    used = sorted({c.fact for r in sig.remedies for c in r.when if isinstance(c, FactCondition)})
    return {
        **envelope("remedy"),
        "signature": {"id": sig.id, "title": sig.title, "severity": sig.severity},
        "remedies": [
            {"rank": i + 1, **r.to_dict(), "shell": shell_line(r.action)} for i, r in enumerate(remedies)
        ],
        "facts": [facts[n].to_dict() for n in used if n in facts],
        "undecided": [n for n in used if n not in facts],
    }


def shell_line(action: dict) -> str | None:
    """A line a shell can run for this action, or None when it is not a shell command."""
    from ..catalogue.actions import parse

    return parse(action).shell()


def _comment(text: str) -> str:
    return "\n".join("# " + ln if ln.strip() else "#" for ln in str(text).splitlines()) or "#"


def render_sh(sig, remedies) -> str:
    out = [f"# fp8triage remedy {sig.id}: {sig.title}"]
    # when some remedy is known to fit, the ones that only may fit are shown, not exported
    any_holds = any(r.applies.value == "holds" for r in remedies)
    if not remedies:
        out.append("# no remedy fits the given facts (exit 5); see `fp8triage remedy --all`")
    for i, r in enumerate(remedies, 1):
        state = "already in force" if r.in_force else r.applies.value
        out.append(f"# {i}. {r.title} [{state}]" + (f" - {r.why}" if r.why else ""))
        line = shell_line(r.action)
        if r.applies.value == "fails":
            out.append(_comment(line or r.snippet))
        elif r.action.get("kind") == "env" and line and (r.applies.value == "holds" or not any_holds):
            out.append(line)
        else:
            # installs, config keys, code and notes change more than this shell: shown, not run
            out.append(_comment(line or r.snippet))
    return "\n".join(out) + "\n"


def render_text(sig, remedies) -> str:
    out = [f"{sig.id}: {sig.title}"]
    if not remedies:
        out.append("  no remedy fits the given facts")
    for i, r in enumerate(remedies, 1):
        out.append(f"  {i}. {r.title}  [{'already in force' if r.in_force else r.applies.value}]")
        out.extend("       " + ln for ln in (r.snippet or "").splitlines())
        if r.why:
            out.append(f"       {r.why}" if r.why.startswith("(") else f"       ({r.why})")
    return "\n".join(out) + "\n"
