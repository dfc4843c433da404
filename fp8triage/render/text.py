"""Terminal text for a scan result. Returns a string; colour only when asked."""
from __future__ import annotations

import regex

from ..model import Finding, ScanResult, Status, Truth

_CTRL = regex.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\x1b]")

_STATUS_COLOR = {
    Status.CONFIRMED: "1;31",
    Status.LIKELY: "1;31",
    Status.POSSIBLE: "1;33",
    Status.RULED_OUT: "2",
}
_TRUTH_MARK = {Truth.HOLDS: "✓", Truth.FAILS: "✗", Truth.UNKNOWN: "?"}


def clean(text: object) -> str:
    """No control characters (so no terminal escape sequences) from untrusted text."""
    return _CTRL.sub("\ufffd", str(text))


class _Style:
    def __init__(self, color: bool):
        self.color = color

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and code else text


def _workers(ws: list[str] | tuple[str, ...], limit: int = 4) -> str:
    ws = list(ws)
    if not ws:
        return ""
    shown = ", ".join(clean(w) for w in ws[:limit])
    more = f" and {len(ws) - limit} more" if len(ws) > limit else ""
    return f"{len(ws)} worker{'s' if len(ws) != 1 else ''}: {shown}{more}"


def _highlight(text: str, span, st: _Style) -> str:
    if not span or not st.color:
        return clean(text)
    s, e = span
    return clean(text[:s]) + st(clean(text[s:e]), "1;4") + clean(text[e:])


def render_finding(f: Finding, st: _Style, verbose: bool, top: bool, sources: int = 1) -> list[str]:
    out: list[str] = []
    label = "ROOT CAUSE" if top else "FINDING"
    badge = f"[{f.status.value.upper()} · {f.severity.value}]"
    out.append(f"{st(label, '1')}  {st(f.id, '1;36')}  {st(badge, _STATUS_COLOR.get(f.status, ''))}")
    if sources > 1:
        out.append(f"  in {clean(f.source)}" if f.source else "  in every log (judged from facts they share)")
    out.append(f"  {clean(f.title)}")
    out.append(f"  {clean(f.summary)}")
    if f.from_facts_only:
        out.append("  (no log line shows this; it is a risk judged from the facts below)")
    if f.status is Status.POSSIBLE and f.decide:
        out.append(f"  Possible: these facts would decide it: {', '.join(f.decide)} (pass them with --fact NAME=VALUE)")
    if f.contradicted_by:
        what = "Ruled out" if f.status is Status.RULED_OUT else "Contradicted"
        for c in f.contradicted_by:
            out.append(f"  {what}: {clean(c)}")
    if f.evidence:
        out.append("")
        seen = f" (seen {f.count} times" + (f" on {_workers(f.workers)})" if f.workers else ")") if f.count > 1 else ""
        out.append(f"  {st('Evidence', '1')}{seen}")
        for ev in f.evidence:
            w = f"  [{_workers(ev.workers, 2)}]" if ev.workers else ""
            out.append(f"    {st(clean(ev.source) + ':' + str(ev.lineno), '2')}{w}")
            out.append(f"      {_highlight(ev.text.strip() if not ev.span else ev.text, ev.span, st)}")
    if f.conditions:
        out.append("")
        out.append(f"  {st('Facts', '1')}")
        for c in f.conditions:
            mark = _TRUTH_MARK[c.truth]
            val = f"{clean(c.fact)} = {clean(c.value)}" if c.value is not None else f"{clean(c.fact)} unknown"
            src = f"  (from {clean(c.source)})" if c.source else ""
            role = "" if c.role == "require" else "  [supporting]"
            out.append(f"    {mark} {val}{src}; expects {clean(c.expect)}{role}")
    rems = [r for r in f.remedies if verbose or r.applies is not Truth.FAILS]
    if rems:
        out.append("")
        out.append(f"  {st('Remedies', '1')} (ready to paste)")
        for i, r in enumerate(rems, 1):
            fit = {Truth.HOLDS: "", Truth.UNKNOWN: "  (may apply)", Truth.FAILS: "  (does not apply here)"}[r.applies]
            out.append(f"    {i}. {clean(r.title)}{fit}")
            for line in clean(r.snippet).splitlines() or [""]:
                out.append(f"       {st(line, '32')}")
            if r.why and verbose:
                out.append(f"       {clean(r.why)}")
            if r.repro:
                out.append(f"       check on this GPU: fp8triage repro {' '.join(r.repro)}")
    if f.repro_results:
        out.append("")
        out.append(f"  {st('Reproductions on this machine', '1')}")
        for rr in f.repro_results:
            why = f": {clean(rr.get('reason', ''))}" if rr.get("reason") else ""
            out.append(
                f"    {clean(rr.get('id'))} ({clean(rr.get('purpose', 'confirm'))}, {clean(rr.get('mode', '?'))}): "
                f"{clean(rr.get('verdict'))}{why}"
            )
    if f.consequences:
        n = sum(int(c.get("count", 1)) for c in f.consequences)
        kinds = ", ".join(sorted({clean(c["kind"]) for c in f.consequences}))
        out.append("")
        out.append(f"  {n} later error{'s follow' if n != 1 else ' follows'} from this ({kinds})")
        if verbose:
            for c in f.consequences:
                out.append(f"    {clean(c['source'])}:{c['line']}  ×{c['count']}  {clean(c['headline'])[:160]}")
    if f.references and (top or verbose):
        out.append("")
        out.append("  References: " + ", ".join(clean(r.get("ref", "")) for r in f.references))
    if not f.repro_results and f.repro and top:
        out.append(f"  Confirm on this machine: fp8triage repro {' '.join(f.repro)}  (or scan --confirm)")
    return out


def render_text(result: ScanResult, *, color: bool = False, verbose: bool = False, exit_note: str = "") -> str:
    st = _Style(color)
    out: list[str] = []
    total_lines = sum(i.lines for i in result.inputs)
    total_bytes = sum(i.bytes for i in result.inputs)
    names = ", ".join(clean(i.source) for i in result.inputs[:3]) + (" …" if len(result.inputs) > 3 else "")
    elapsed = result.meta.get("elapsed_s")
    took = f" in {elapsed:.2f} s" if isinstance(elapsed, (int, float)) else ""
    out.append(st(f"fp8triage {result.meta.get('version', '')}", "2") + f"  scanned {names} ({total_lines:,} lines, {_size(total_bytes)}){took}")
    for w in result.warnings:
        out.append(st(f"warning: {clean(w)}", "33"))
    out.append("")
    if not result.findings:
        if result.unknown:
            out.append(st("No known FP8 failure matched.", "1") + f" {len(result.unknown)} error group(s) that no signature knows are listed below.")
        else:
            out.append(st("No known FP8 failure and no errors found.", "1"))
    for i, f in enumerate(result.findings):
        out.extend(render_finding(f, st, verbose, top=(i == 0), sources=len(result.inputs)))
        out.append("")
    if verbose and result.ruled_out:
        out.append(st("RULED OUT", "1"))
        for f in result.ruled_out:
            out.extend(render_finding(f, st, verbose, top=False, sources=len(result.inputs)))
            out.append("")
    if result.unknown:
        out.append(st("UNKNOWN ERRORS", "1") + " (no signature matched; `fp8triage signatures new ID --from-fingerprint FP` starts one)")
        limit = len(result.unknown) if verbose else 10
        for u in result.unknown[:limit]:
            w = f" on {_workers(u.workers, 2)}" if u.workers else ""
            out.append(f"  {st(u.fingerprint, '36')}  ×{u.count}{w}  {u.kind}")
            out.append(f"    {clean(u.headline)[:200]}")
            out.append(f"    first {clean(u.first.source)}:{u.first.lineno}, last {clean(u.last.source)}:{u.last.lineno}")
        if len(result.unknown) > limit:
            out.append(f"  … and {len(result.unknown) - limit} more (--verbose shows all)")
        out.append("")
    if result.conflicts:
        out.append(st("FACT CONFLICTS", "1"))
        for c in result.conflicts:
            vals = "; ".join(f"{clean(v['value'])} ({clean(v['source'])})" for v in c["values"])
            out.append(f"  {clean(c['name'])}: {vals} → using {clean(c['chosen']['value'])} [{clean(c['rule'])}]")
        out.append("")
    if verbose and result.facts:
        out.append(st("FACTS", "1"))
        for fct in result.facts:
            out.append(f"  {clean(fct.name)} = {clean(fct.value)}  ({clean(fct.source)})")
        out.append("")
    if exit_note:
        out.append(st(exit_note, "2"))
    return "\n".join(out).rstrip() + "\n"


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"
