"""Terminal text for a scan result. Returns a string; colour only when asked."""
from __future__ import annotations

import textwrap

from ..common import rxcache
from ..model import Fact, Finding, ScanResult, Status, Truth
from .fleet import text_lines as fleet_lines
from .clip import split_span

TEXT_LINE_CHARS = 500  # an evidence line longer than this is clipped around its match (and says so)
DEFAULT_WIDTH = 100  # wrap width when the caller does not pass the terminal's

_CTRL = rxcache.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\x1b]")

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
    """The evidence line, clipped around its match when long (and saying so), match highlighted."""
    part = split_span(text if span else text.strip(), span, TEXT_LINE_CHARS)
    out = ("… " if part["cut_left"] else "") + clean(part["before"])
    out += st(clean(part["match"]), "1;4") if part["match"] else ""
    out += clean(part["after"]) + (" …" if part["cut_right"] else "")
    return out + (" " + st(part["clipped"], "2") if part["clipped"] else "")


def _short(text: object, limit: int) -> str:
    s = clean(text)
    return s if len(s) <= limit else s[:limit] + f"… [clipped: {len(s):,} characters]"


def _wrap(text: str, width: int, indent: str = "  ") -> list[str]:
    text = clean(text)
    if not text.strip():
        return []
    return textwrap.wrap(text, width=max(40, width), initial_indent=indent, subsequent_indent=indent,
                         break_long_words=True, break_on_hyphens=False) or [indent]


# the version fact of each serving stack
_STACK_VERSION = {"vllm": ("vllm", "vLLM"), "sglang": ("sglang", "SGLang"), "transformers": ("transformers", "transformers"),
                  "tensorrt-llm": ("tensorrt_llm", "TensorRT-LLM")}


def context_line(facts: dict[str, Fact]) -> str:
    """GPU and capability, stack and version, model: what the tool knows of the machine, on one line."""
    parts = []
    gpu, cap = facts.get("gpu"), facts.get("capability")
    if gpu and cap:
        parts.append(f"{clean(gpu.value)} (capability {clean(cap.value)})")
    elif gpu or cap:
        parts.append(clean(gpu.value) if gpu else f"capability {clean(cap.value)}")
    stack = facts.get("stack")
    if stack:
        vname, label = _STACK_VERSION.get(stack.value, (None, stack.value))
        ver = facts.get(vname) if vname else None
        parts.append(clean(label) + (f" {clean(ver.value)}" if ver else ""))
    model = facts.get("model")
    if model:
        parts.append(clean(model.value))
    return " · ".join(parts)


def _judged_on(facts: dict[str, Fact], f) -> dict[str, Fact]:
    """The facts a finding was judged on where they name another GPU than the log's first (a symptom printed in
    the B200's part of a comparison that shows the H100 first)."""
    own = {x.name: x for x in f.facts if x.name in ("gpu", "capability")}
    if "gpu" in own and "capability" in own:
        return {**facts, **own}
    return facts


def facts_for(result: ScanResult, source: str | None) -> dict[str, Fact]:
    """The facts in force for one source's findings: its own and those every source shares (a fact
    read from another input is left out)."""
    others = [i.source for i in result.inputs if i.source != source] if source else []
    out: dict[str, Fact] = {}
    for fct in result.facts:
        if fct.name in out:
            continue
        if any(o and o in fct.source for o in others):
            continue
        out[fct.name] = fct
    return out


def _where_remedy(r) -> list[str]:
    """Where a remedy goes, and that the server must be restarted: phrases that are never split."""
    kind = r.action.get("kind")
    if kind == "env":
        name, value = clean(r.action.get("name", "")), clean(r.action.get("value", ""))
        return ["set it where the server starts", "(Kubernetes: the pod spec's env;", f"Docker: docker run -e {name}={value};",
                "a shell: the export above),", "then restart the server"]
    if kind == "install":
        return ["install it into the server's environment", "(the image or the virtualenv),", "then restart the server"]
    if kind == "config":
        return ["change the server's configuration,", "then restart the server"]
    if kind == "command":
        return ["stop the server and start it with this command"]
    if kind == "code":
        return ["in the script that loads the model, before the first forward pass; then rerun it"]
    return []


def _wrap_phrases(phrases: list[str], width: int, indent: str) -> list[str]:
    """Greedy wrap that keeps each phrase whole (a command in it stays pasteable)."""
    out: list[str] = []
    line = ""
    for p in phrases:
        if line and len(indent) + len(line) + 1 + len(p) > width:
            out.append(indent + line)
            line = p
        else:
            line = f"{line} {p}" if line else p
    if line:
        out.append(indent + line)
    return out


def _reference(ref: dict) -> str:
    label = clean(ref.get("ref", ""))
    url = ref.get("url")
    if isinstance(url, str) and url.startswith(("https://", "http://")) and not _CTRL.search(url) and " " not in url:
        return f"{label}  {clean(url)}"
    m = _GH_REF.fullmatch(ref.get("ref", ""))
    if m:
        return f"{label}  https://github.com/{m.group(1)}/issues/{m.group(2)}"
    return label


_GH_REF = rxcache.compile(r"([A-Za-z0-9][\w.-]*/[\w.-]+)#(\d+)")


def render_finding(f: Finding, st: _Style, verbose: bool, top: bool, sources: int = 1,
                   context: str = "", width: int = DEFAULT_WIDTH) -> list[str]:
    out = _finding_head(f, st, top, sources, context, width)
    out.extend(_finding_statement(f, width))
    if f.evidence:
        out.extend(_evidence_lines(f, st))
    if f.conditions:
        out.extend(_fact_lines(f, st))
    rems = [r for r in f.remedies if verbose or r.applies is not Truth.FAILS or r.in_force]
    if rems:
        out.extend(_remedy_lines(rems, st, verbose, width))
    if f.repro_results:
        out.append("")
        out.append(f"  {st('Reproductions on this machine', '1')}")
        numbers = {r.id: i for i, r in enumerate(rems, 1)}
        for rr in f.repro_results:
            out.extend(_wrap(_repro_line(rr, numbers), width, "    "))
    if f.consequences:
        out.extend(_consequence_lines(f, verbose))
    if f.references and (top or verbose):
        out.extend(_reference_lines(f, st, verbose))
    if verbose and not f.repro_results and f.repro and top:
        out.append(f"  Confirm on this machine: fp8triage repro {' '.join(f.repro)}  (or scan --confirm)")
    return out


def _finding_head(f: Finding, st: _Style, top: bool, sources: int, context: str, width: int) -> list[str]:
    """The label, id and badge line; the log it was found in (of several); the context line."""
    out: list[str] = []
    label = "ROOT CAUSE" if top else "FINDING"
    badge = f"[{f.status.value.upper()} · {f.severity.value}]"
    out.append(f"{st(label, '1')}  {st(f.id, '1;36')}  {st(badge, _STATUS_COLOR.get(f.status, ''))}")
    if sources > 1:
        out.append(f"  in {clean(f.source)}" if f.source else "  in every log (judged from facts they share)")
    if context:
        parts = context.split(" · ")
        ctx = _wrap_phrases([parts[0]] + ["· " + p for p in parts[1:]], width - 3, "")
        out.append("  " + st("On", "2") + " " + ctx[0])
        out.extend("     " + ln for ln in ctx[1:])
    return out


def _finding_statement(f: Finding, width: int) -> list[str]:
    """Title and summary, with what a possible finding needs and what contradicts it."""
    out = _wrap(f.title, width)
    out.extend(_wrap(f.summary, width))
    if f.from_facts_only:
        out.append("  (no log line shows this; it is a risk judged from the facts below)")
    if f.held_back:
        out.extend(_wrap(f"At most possible: {f.held_back}", width))
    if f.status is Status.POSSIBLE and f.decide:
        out.extend(_wrap(f"Possible: these facts would decide it: {', '.join(f.decide)} (pass them with --fact NAME=VALUE)", width))
    if f.contradicted_by:
        what = "Ruled out" if f.status is Status.RULED_OUT else "Contradicted"
        for c in f.contradicted_by:
            out.extend(_wrap(f"{what}: {c}", width))
    return out


def _evidence_lines(f: Finding, st: _Style) -> list[str]:
    out = [""]
    seen = f" (seen {f.count} times" + (f" on {_workers(f.workers)})" if f.workers else ")") if f.count > 1 else ""
    if f.count <= 1 and f.workers:
        seen = f" (on {_workers(f.workers)})"
    out.append(f"  {st('Evidence', '1')}{seen}")
    note = evidence_note(f)
    if note:
        out.append(f"  {note}")
    for ev in f.evidence:
        # the worker list is printed once, above; a line names its workers only when they are fewer
        w = f"  [{_workers(ev.workers, 2)}]" if ev.workers and set(ev.workers) != set(f.workers) else ""
        kind = f"  ({evidence_label(ev)})" if evidence_label(ev) else ""
        out.append(f"    {st(clean(ev.source) + ':' + str(ev.lineno), '2')}{w}{kind}")
        out.append(f"      {_highlight(ev.text, ev.span, st)}")
    return out


def _fact_lines(f: Finding, st: _Style) -> list[str]:
    out = ["", f"  {st('Facts', '1')}"]
    for c in f.conditions:
        mark = _TRUTH_MARK[c.truth]
        val = f"{clean(c.fact)} = {clean(c.value)}" if c.value is not None else f"{clean(c.fact)} unknown"
        src = f"  (from {clean(c.source)})" if c.source else ""
        role = {"require": "", "support": "  [supporting]"}.get(c.role, f"  [{c.role}]")
        out.append(f"    {mark} {val}{src}; expects {clean(c.expect)}{role}")
    return out


def _remedy_lines(rems: list, st: _Style, verbose: bool, width: int) -> list[str]:
    """The remedies shown, numbered, each with its snippet ready to paste."""
    out = ["", f"  {st('Remedies', '1')} (ready to paste)"]
    for i, r in enumerate(rems, 1):
        fit = {Truth.HOLDS: "", Truth.UNKNOWN: "  (may apply)", Truth.FAILS: "  (does not apply here)"}[r.applies]
        if r.in_force:
            fit = "  (already in force: not the fix)"
        out.append(f"    {i}. {clean(r.title)}{fit}")
        if r.in_force:
            out.extend(_wrap(f"{r.in_force}; it did not prevent this failure", width, "       "))
            continue
        if r.action.get("kind") in ("env", "install", "config", "code", "command"):
            for line in clean(r.snippet).splitlines() or [""]:
                out.append(f"       {st(line, '32')}")
        else:  # prose: wrapped to the terminal
            out.extend(_wrap(r.snippet, width, "       "))
        out.extend(_wrap_phrases(_where_remedy(r), width, "       "))
        if r.why and verbose:
            out.extend(_wrap(r.why, width, "       "))
        if r.repro and verbose:
            out.append(f"       check on this GPU: fp8triage repro {' '.join(r.repro)}")
    return out


def _consequence_lines(f: Finding, verbose: bool) -> list[str]:
    n = sum(int(c.get("count", 1)) for c in f.consequences)
    kinds = ", ".join(sorted({clean(c["kind"]) for c in f.consequences}))
    out = ["", f"  {n} later error{'s follow' if n != 1 else ' follows'} from this ({kinds})"]
    if verbose:
        for c in f.consequences:
            out.append(f"    {clean(c['source'])}:{c['line']}  ×{c['count']}  {_short(c['headline'], 160)}")
    return out


def _reference_lines(f: Finding, st: _Style, verbose: bool) -> list[str]:
    out = ["", f"  {st('References', '1')}"]
    shown = f.references if verbose else f.references[:3]
    for ref in shown:
        out.append(f"    {_reference(ref)}")
    if len(f.references) > len(shown):
        out.append(f"    … and {len(f.references) - len(shown)} more (--verbose shows all)")
    return out


_PURPOSE = {"confirm": "confirms the cause", "remedy": "checks"}


def _repro_line(rr: dict, numbers: dict) -> str:
    """One line per repro: id, what it is for, the verdict, and the note (or reason)."""
    rid = clean(rr.get("id"))
    if rr.get("purpose") == "remedy":
        rems = rr.get("remedies") or [rr.get("remedy")]
        nums = [f"remedy {numbers[r]}" if r in numbers else f"remedy {clean(r)}" for r in rems if r]
        what = "checks " + ", ".join(nums) if nums else "checks a remedy"
    else:
        what = _PURPOSE.get(str(rr.get("purpose", "confirm")), clean(rr.get("purpose")))
    mode = f", {clean(rr['mode'])}" if rr.get("mode") else ""
    why = clean(rr.get("note") or rr.get("reason") or "")
    return f"{rid} ({what}{mode}): {clean(rr.get('verdict'))}" + (f"; {why}" if why else "")


def render_text(result: ScanResult, *, color: bool = False, verbose: bool = False, exit_note: str = "",
                width: int = DEFAULT_WIDTH) -> str:
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
        elif result.nothing_read:
            out.append(st("Nothing was read: every input was skipped (see the warnings above).", "1"))
        else:
            out.append(st("No known FP8 failure and no errors found.", "1"))
    for i, f in enumerate(result.findings):
        ctx = context_line(_judged_on(facts_for(result, f.source), f))
        out.extend(render_finding(f, st, verbose, top=(i == 0), sources=len(result.inputs), context=ctx, width=width))
        out.append("")
    if verbose and result.ruled_out:
        out.append(st("RULED OUT", "1"))
        for f in result.ruled_out:
            out.extend(render_finding(f, st, verbose, top=False, sources=len(result.inputs),
                                      context=context_line(facts_for(result, f.source)), width=width))
            out.append("")
    fleet = fleet_lines(result.fleet, clean)
    if fleet:
        out.append(st(fleet[0], "1"))
        out.extend(fleet[1:])
        out.append("")
    if result.unknown:
        out.append(st("UNKNOWN ERRORS", "1") + " (no signature matched; `fp8triage signatures new ID --from-fingerprint FP` starts one)")
        limit = len(result.unknown) if verbose else 10
        for u in result.unknown[:limit]:
            w = f" on {_workers(u.workers, 2)}" if u.workers else ""
            out.append(f"  {st(u.fingerprint, '36')}  ×{u.count}{w}  {u.kind}")
            out.append(f"    {_short(u.headline, 200)}")
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


def evidence_label(ev) -> str:
    """What kind of evidence a line is, when it is not the failure's own message."""
    if ev.kind == "message":
        return "" if ev.strength == "strong" else "cut message"
    if ev.kind == "rule":
        return f"component x failure kind: {ev.pattern}"
    return {"frame": "frame", "location": "source location", "tokens": "tokens", "symptom": "symptom"}.get(ev.kind, ev.kind)


def evidence_note(f) -> str:
    """One sentence for a finding that rests on weak evidence or symptoms."""
    if f.strength == "weak":
        return ("Weak evidence: the failure's own error line was not found (cut, reworded or missing); "
                "the frames, source location, words, or the component and kind of failure below point at it.")
    if f.strength == "symptom":
        return "Symptoms only: this failure prints no error; the lines below are what it looks like."
    return ""

