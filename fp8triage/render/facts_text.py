"""Strings for `env`, `check` and `facts`: text for people, JSON for machines.

JSON documents carry ``schema_version`` ("MAJOR.MINOR") and ``kind`` ("env", "check", "facts"),
like every fp8triage JSON document (docs/json-contract.md); fields are only ever added within a
major version.
"""
from __future__ import annotations

import json
import textwrap
from typing import Any, Iterable

from ..version import __version__
from ..facts.vocabulary import DISPATCH_ENV_VARS
from ..model import Fact, Finding, Truth
from ..common.envelope import envelope



def _dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, sort_keys=False) + "\n"


def _table(rows: list[tuple[str, ...]], indent: str = "  ") -> list[str]:
    if not rows:
        return []
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    out = []
    for r in rows:
        cells = [c.ljust(w) for c, w in zip(r[:-1], widths)] + [r[-1]]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, width=96, initial_indent="  ", subsequent_indent="  ", break_on_hyphens=False)


def _fact_rows(facts: Iterable[Fact]) -> list[tuple[str, str, str]]:
    return [(f.name, f.value, f"[{f.origin}] {f.source}") for f in facts]


# --- env ------------------------------------------------------------------------------------


def render_env_text(probe) -> str:
    """Facts of this machine, one per line: name, value, [origin] source."""
    lines = ["Facts of this machine", ""]
    lines += _table(_fact_rows(probe.facts)) or ["  (none)"]
    pkgs = [a for a in probe.absent if a not in DISPATCH_ENV_VARS]
    envs = [a for a in probe.absent if a in DISPATCH_ENV_VARS]
    if pkgs:
        lines += ["", "Not installed here:"] + _wrap(", ".join(pkgs))
    if envs:
        lines += ["", f"Dispatch environment variables not set ({len(envs)}):"] + _wrap(", ".join(envs))
    if probe.notes:
        lines += ["", "Notes:"] + [f"  - {n}" for n in probe.notes]
    return "\n".join(lines) + "\n"


def render_env_json(probe) -> str:
    return _dump({**envelope("env"), "tool_version": __version__, **probe.to_dict()})


# --- facts (the vocabulary) -----------------------------------------------------------------


def render_fact_specs_text(specs) -> str:
    rows = []
    for s in specs:
        alias = f" (also: {', '.join(s.aliases)})" if s.aliases else ""
        rows.append((s.name, s.kind, s.help + alias))
    return "\n".join(_table([("NAME", "KIND", "MEANING")] + rows, indent="")) + "\n"


def render_fact_specs_json(specs) -> str:
    return _dump(
        {
            **envelope("facts"),
            "facts": [{"name": s.name, "kind": s.kind, "help": s.help, "aliases": list(s.aliases)} for s in specs],
        }
    )


# --- check ----------------------------------------------------------------------------------

_MARK = {Truth.HOLDS: "holds  ", Truth.FAILS: "fails  ", Truth.UNKNOWN: "unknown"}


def render_check_text(result, verbose: bool = False) -> str:
    """The preflight report: facts in force, conflicts, checkpoint problems, then each risk."""
    out: list[str] = []
    out.append(f"Preflight check ({result.mode})")
    out.append("")
    out.append("Facts in force:")
    out += _table(_fact_rows(sorted(result.facts.values(), key=lambda f: f.name))) or ["  (none)"]
    if result.conflicts:
        out += ["", "Conflicting facts (the first value is the one used):"]
        for c in result.conflicts:
            chosen = c["chosen"]
            others = [v for v in c["values"] if v["value"] != chosen["value"] or v["source"] != chosen["source"]]
            rest = "; ".join(f"{v['value']} from {v['source']} [{v['origin']}]" for v in others)
            out.append(f"  {c['name']}: {chosen['value']} from {chosen['source']} [{chosen['origin']}]; also {rest}")
            out.append(f"    rule: {c['rule']}")
    if result.checkpoint is not None:
        ck = result.checkpoint
        out += ["", f"Checkpoint {ck.path}:"]
        for k, v in ck.summary().items():
            out.append(f"  {k}: {v}")
    for w in result.warnings:
        out.append(f"warning: {w}")
    shown = [f for f in result.findings if verbose or f.status.value != "ruled-out"]
    out.append("")
    risky = [f for f in shown if f.status.value != "ruled-out"]
    if not risky:
        out.append(f"No risks found by {result.judged} preflight signature(s).")
    else:
        out.append(f"{len(risky)} risk(s) found by {result.judged} preflight signature(s):")
    for f in shown:
        out.append("")
        out += _finding_text(f, verbose)
    return "\n".join(out) + "\n"


def _finding_text(f: Finding, verbose: bool) -> list[str]:
    out = [f"[{f.status.value.upper()}] {f.severity.value}  {f.id}: {f.title}"]
    out.append(f"  {f.summary}")
    if f.evidence:
        for e in f.evidence:
            out.append(f"  evidence: {e.source}: {e.text}")
    if f.conditions:
        out.append("  deciding facts:")
        for c in f.conditions:
            if c.role == "support" and not verbose:
                continue
            val = f" = {c.value}" if c.value is not None else ""
            src = f" ({c.source})" if c.source else ""
            note = f"  [{c.note}]" if c.note else ""
            role = {"require": "", "support": " (supporting)"}.get(c.role, f" ({c.role})")
            out.append(f"    {_MARK[c.truth]} {c.expect}{role}: {c.fact}{val}{src}{note}")
    if f.decide:
        out.append(f"  would be decided by: {', '.join(f.decide)} (give them with --fact NAME=VALUE)")
    if f.contradicted_by:
        out.append("  ruled out because: " + "; ".join(f.contradicted_by))
    remedies = [r for r in f.remedies if verbose or r.applies is not Truth.FAILS or r.in_force]
    if remedies:
        out.append("  remedy:")
        for i, r in enumerate(remedies, 1):
            fit = {Truth.HOLDS: "", Truth.UNKNOWN: " (may fit)", Truth.FAILS: " (does not fit these facts)"}[r.applies]
            if r.in_force:
                out.append(f"    {i}. {r.title} (already in force: {r.in_force})")
                continue
            out.append(f"    {i}. {r.title}{fit}")
            for ln in r.snippet.splitlines():
                out.append(f"         {ln}")
            if verbose and r.why:
                out.append(f"       why: {r.why}")
    if verbose and f.cause:
        out.append("  cause: " + " ".join(f.cause.split()))
    for ref in f.references[:3] if verbose else []:
        out.append(f"  ref: {ref.get('ref')} {ref.get('url', '')}".rstrip())
    return out


def render_check_json(result, exit_code: int) -> str:
    return _dump(
        {
            **envelope("check"),
            "tool_version": __version__,
            "mode": result.mode,
            "catalogue_version": result.catalogue_version,
            "judged": result.judged,
            "exit_code": exit_code,
            "findings": [f.to_dict() for f in result.findings],
            "facts": [f.to_dict() for f in sorted(result.facts.values(), key=lambda f: f.name)],
            "conflicts": result.conflicts,
            "checkpoint": result.checkpoint.to_dict() if result.checkpoint is not None else None,
            "warnings": result.warnings,
        }
    )
