"""Text for `fp8triage history` (its JSON is the query result as it is) and `history import`."""
from __future__ import annotations

from ..common.envelope import envelope


def _day(ts: str | None) -> str:
    return (ts or "-")[:16].replace("T", " ")


def render_text(data: dict) -> str:
    runs = data["runs"]
    out = [f"history {data['db']}: {runs['total']} run(s)"
           + (f", {_day(runs['first'])} .. {_day(runs['last'])} UTC" if runs["total"] else "")]
    flt = ", ".join(f"{k}={v}" for k, v in data["filters"].items() if v)
    if flt:
        out[0] += f"  [{flt}]"
    out.append("")
    out.append("Findings")
    if not data["findings"]:
        sig = data["filters"].get("signature")
        out.append(f"  (none: no recorded run found {sig})" if sig else "  (none)")
    for f in data["findings"]:
        out.append(f"  {f['signature_id']}  [{f['status']} · {f['severity']}]")
        out.append(f"    {f['runs']} run(s) on {f['hosts']} host(s), {f['events'] or 0} event(s); "
                   f"first {_day(f['first_seen'])}, last {_day(f['last_seen'])} (run {f['last_run']})")
    out.append("")
    out.append("Error groups")
    if not data["groups"]:
        out.append("  (none)")
    for g in data["groups"]:
        who = g["signature_id"] or "UNKNOWN"
        if g["kind"] == "consequence":
            who = f"follows from {who}"
        out.append(f"  {g['fingerprint']}  {who}  [{g['status']}]")
        out.append(f"    {g['headline'][:160]}")
        out.append(f"    {g['runs']} run(s) on {g['hosts']} host(s), {g['events'] or 0} event(s); "
                   f"first {_day(g['first_seen'])}, last {_day(g['last_seen'])}")
    unknown = [g for g in data["groups"] if not g["signature_id"]]
    if unknown:
        out.append("")
        out.append(f"Turn an unknown group into a signature: fp8triage signatures new ID --from-fingerprint {unknown[0]['fingerprint']}")
    return "\n".join(out) + "\n"


def import_dict(rep) -> dict:
    """`history import --format json`: the files imported, skipped (already there) and failed."""
    return {**envelope("history-import"), "imported": rep.imported, "skipped": rep.skipped, "failed": rep.failed}


def render_import_text(rep) -> str:
    out = [f"imported {r['file']}: run {r['run_id'][:12]} from host {r['host']} (history run {r['id']})"
           for r in rep.imported]
    out += [f"skipped  {r['file']}: run {r['run_id'][:12]} is already in the history (run {r['id']})" for r in rep.skipped]
    out.append(f"{len(rep.imported)} imported, {len(rep.skipped)} already there, {len(rep.failed)} failed")
    return "\n".join(out) + "\n"
