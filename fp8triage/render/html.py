"""The self-contained HTML report (and the view of a scan result that the Markdown report shares).

``render_html`` returns one HTML document: inline CSS, inline SVG charts, one small inline script
for the copy buttons, and a Content-Security-Policy that allows nothing else (no network, no other
script, no images). Everything from the log is untrusted: the template autoescapes, links are made
only from http(s) URLs, and no value from the log ever lands in a tag name, an attribute name, a
URL scheme, a style or a script.

jinja2 is imported inside the functions: the scan path must not pay for it.
"""
from __future__ import annotations

import base64
import functools
import hashlib
import math
from pathlib import Path
from typing import Any, Iterable
from urllib.parse import urlsplit

from ..model import Evidence, Finding, ScanResult, Severity, Status, Truth
from .chart import fmt_value, geometry  # noqa: F401 (fmt_value: part of this module's API)
from .clip import MAX_LINE_CHARS, MAX_TEXT_CHARS, clip, split_span, visible  # noqa: F401 (split_span, visible: part of this module's API)
from .text import evidence_label

# Everything a report maps is listed here, exhaustively (tests walk every enum member).
STATUS_TEXT = {
    Status.CONFIRMED: "confirmed on this machine",
    Status.LIKELY: "likely",
    Status.POSSIBLE: "possible",
    Status.RULED_OUT: "ruled out",
}
SEVERITY_TEXT = {
    Severity.CRITICAL: "critical",
    Severity.HIGH: "high",
    Severity.MEDIUM: "medium",
    Severity.LOW: "low",
    Severity.INFO: "info",
}
TRUTH_TEXT = {Truth.HOLDS: "holds", Truth.FAILS: "fails", Truth.UNKNOWN: "unknown"}
REMEDY_FIT = {Truth.HOLDS: "fits these facts", Truth.UNKNOWN: "may fit", Truth.FAILS: "does not fit these facts"}
# repro verdicts (fp8triage.confirm.repro.VERDICTS); anything else renders as "other"
VERDICT_TEXT = {
    "reproduced": "reproduced",
    "not-reproduced": "not reproduced",
    "not-executed": "not executed",
    "not-applicable": "not applicable",
    "skipped": "skipped",
    "error": "error",
    "timeout": "timed out",
}
PURPOSE_TEXT = {"confirm": "confirms the cause", "remedy": "checks a remedy"}

# Friendly names for the series of known repro kernels' per-layer lists (keys read from
# repro_kernels/*.py); unknown keys fall back to the key path.
SERIES_LABELS: dict[str, dict[str, str]] = {
    "ue8m0-scale-rounding": {
        "a": "float32 scales",
        "b": "2^k scales, data not requantized (the bug)",
        "c": "data requantized to 2^k (the fix)",
    },
}

MAX_CHART_POINTS = 512
MAX_SERIES = 6
MAX_CHARTS = 8
MAX_TABLE_ROWS = 200
MAX_DEPTH = 6
MAX_WORKERS_SHOWN = 8
MAX_SAMPLE_LINES = 12  # unknown group sample lines shown (all in verbose mode)

TEMPLATE = "report.html.j2"
ASSETS = ("report.css", "report.js")


# ── small helpers ───────────────────────────────────────────────────────────────────────────


def safe_url(url: Any) -> str | None:
    """``url`` if it is an absolute http(s) URL with a host and no whitespace or control characters."""
    if not isinstance(url, str) or not url or len(url) > 2048:
        return None
    if any(ord(c) <= 32 or ord(c) == 127 for c in url) or "\\" in url:
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return url


def fmt_bytes(n: Any) -> str:
    if not isinstance(n, (int, float)):
        return "?"
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"  # pragma: no cover


def workers_text(workers: Iterable[str], limit: int = MAX_WORKERS_SHOWN) -> str:
    ws = [clip(w, 200) for w in workers]
    if not ws:
        return ""
    shown = ", ".join(ws[:limit])
    return shown + (f" and {len(ws) - limit} more" if len(ws) > limit else "")


def _clipped_line(text: str) -> str:
    part = split_span(text, None)
    return part["before"] + (f" … {part['clipped']}" if part["clipped"] else "")


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def chartable(v: Any) -> bool:
    """A list of at least two plain numbers of sane magnitude: drawn as a chart, not put in a table."""
    return (isinstance(v, (list, tuple)) and len(v) >= 2
            and all(_is_number(x) and abs(x) < 1e150 for x in v))


# ── metrics: dict → tables, per-layer lists → charts ────────────────────────────────────────


def _flatten(d: dict, prefix: str = "", depth: int = 0) -> dict[str, Any]:
    """Scalar leaves of a nested dict as dotted keys (number lists left out; they are charted)."""
    out: dict[str, Any] = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict):
            if depth < MAX_DEPTH:
                out.update(_flatten(v, key + ".", depth + 1))
        elif chartable(v):
            continue
        else:
            out[key] = v
    return out


def metric_tables(metrics: Any, labels: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Tables for a repro's metrics dict.

    Scalars of a level make one name/value table. Child dicts are flattened to their scalar leaves;
    siblings with the same leaf names become one comparison table (a row per child, a column per
    leaf), so ``{"a": {"rel_err":..}, "b": {"rel_err":..}}`` reads as a matrix.
    """
    labels = labels or {}
    tables: list[dict[str, Any]] = []
    if not isinstance(metrics, dict):
        if metrics in (None, {}, []):
            return []
        return [{"title": "", "columns": ["value"], "rows": [["", fmt_value(metrics)]], "kind": "kv"}]

    def level(d: dict, path: str, depth: int) -> None:
        if depth > MAX_DEPTH or len(tables) >= MAX_TABLE_ROWS:
            return
        kv: list[list[str]] = []
        groups: dict[tuple[str, ...], list[tuple[str, dict[str, Any]]]] = {}
        nested: list[tuple[str, dict]] = []
        for k, v in d.items():
            k = str(k)
            if isinstance(v, dict):
                flat = _flatten(v)
                if not flat:
                    nested.append((k, v))  # only lists inside: charted
                    continue
                groups.setdefault(tuple(flat), []).append((k, flat))
            elif isinstance(v, (list, tuple)):
                if chartable(v):
                    kv.append([k, f"{len(v)} values, {fmt_value(v[0])} → {fmt_value(v[-1])} (charted below)"])
                else:
                    kv.append([k, "\n".join(clip(x, 500) for x in v[:50]) if all(isinstance(x, str) for x in v) else fmt_value(v)])
            else:
                kv.append([k, fmt_value(v)])
        if kv:
            tables.append({"title": path, "columns": [path or "metric", "value"], "rows": kv[:MAX_TABLE_ROWS], "kind": "kv"})
        for cols, members in groups.items():
            if len(members) == 1 and any(isinstance(x, dict) for x in d[members[0][0]].values()):
                nested.append((members[0][0], d[members[0][0]]))  # a lone nested dict: its own tables
                continue
            rows = [[labels.get(k, k)] + [fmt_value(flat[c]) for c in cols] for k, flat in members]
            tables.append({"title": path, "columns": [path] + list(cols), "rows": rows[:MAX_TABLE_ROWS], "kind": "matrix"})
        for k, v in nested:
            level(v, f"{path}.{k}" if path else k, depth + 1)

    level(metrics, "", 0)
    return tables


def _number_lists(d: Any, path: tuple[str, ...] = (), depth: int = 0) -> Iterable[tuple[tuple[str, ...], list]]:
    if depth > MAX_DEPTH:
        return
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _number_lists(v, path + (str(k),), depth + 1)
    elif chartable(d):
        yield path, list(d)


def metric_charts(metrics: Any, labels: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """Line charts for the number lists in a metrics dict: one chart per key name (for example
    ``cosine_by_layer``), one series per place it occurs (``stack.a``, ``stack.b``, ...)."""
    labels = labels or {}
    by_key: dict[str, list[tuple[tuple[str, ...], list]]] = {}
    for path, values in _number_lists(metrics):
        if not path:
            continue
        by_key.setdefault(path[-1], []).append((path[:-1], values[:MAX_CHART_POINTS]))
    charts = []
    for key, items in list(by_key.items())[:MAX_CHARTS]:
        items = items[:MAX_SERIES]
        parents = [p for p, _ in items]
        common = 0
        while parents and all(len(p) > common for p in parents) and len({p[common] for p in parents}) == 1 and len(parents) > 1:
            common += 1
        series = []
        for i, (parent, values) in enumerate(items):
            rest = parent[common:]
            name = labels.get(rest[-1], ".".join(rest)) if rest else (labels.get(parent[-1], ".".join(parent)) if parent else key)
            series.append({"label": name or key, "values": values, "cls": f"s{i}"})
        charts.append(geometry(key, ".".join(parents[0][:common]) if parents else "", series))
    return charts


# ── the view: plain dicts for both templates ────────────────────────────────────────────────


def middle_clip(text: Any, limit: int = 48) -> str:
    """A path shortened in the middle ("/var/log/…/pod-1/server.log"): the file name, which tells
    two evidence lines apart, always stays; the full path goes into the element's title."""
    s = visible(text)
    if len(s) <= limit:
        return s
    tail = max(limit * 2 // 3, limit - 12)
    return s[: limit - tail - 1] + "…" + s[-tail:]


def _evidence_view(e: Evidence) -> dict[str, Any]:
    return {
        "source": clip(e.source, 500),
        "source_short": middle_clip(e.source),
        "lineno": e.lineno,
        "workers": workers_text(e.workers, 4),
        "pattern": clip(e.pattern, 200),
        "kind": evidence_label(e),
        **split_span(e.text, e.span),
    }


def _snippet_lang(action: Any) -> str:
    from ..catalogue.actions import parse

    return parse(action).language() if isinstance(action, dict) else ""


def _repro_view(r: dict[str, Any]) -> dict[str, Any]:
    rid = clip(r.get("id", "?"), 200)
    labels = SERIES_LABELS.get(str(r.get("id")), {})
    metrics = r.get("metrics") if isinstance(r.get("metrics"), dict) else {}
    verdict = str(r.get("verdict", ""))
    purpose = str(r.get("purpose", "confirm"))
    wall = r.get("wall_s")
    details = []
    for label, key in (("kernel", "kind"), ("mode", "mode"), ("device", "device"), ("compute capability", "capability")):
        if r.get(key) not in (None, ""):
            details.append([label, fmt_value(r.get(key))])
    if _is_number(wall):
        details.append(["wall time", f"{wall:.2f} s"])
    if _is_number(r.get("gpu_s")):
        details.append(["GPU time", f"{r['gpu_s'] * 1000:.2f} ms"])
    versions = r.get("versions")
    if isinstance(versions, dict) and versions:
        details.append(["versions", ", ".join(f"{k} {fmt_value(v)}" for k, v in versions.items() if v)])
    return {
        "id": rid,
        "verdict": verdict if verdict in VERDICT_TEXT else "other",
        "verdict_text": VERDICT_TEXT.get(verdict, clip(verdict, 100) or "unknown"),
        "purpose": purpose if purpose in PURPOSE_TEXT else "other",
        "purpose_text": PURPOSE_TEXT.get(purpose, clip(purpose, 100)),
        "remedy": clip(r.get("remedy", ""), 200),
        "reason": clip(r.get("reason", "")),
        "note": clip(r.get("note", "")),
        "scope_note": clip(r.get("scope_note", "")),
        "details": details,
        "command": clip(r.get("command", ""), 2000),
        "tables": metric_tables(metrics, labels),
        "charts": metric_charts(metrics, labels),
        "stderr_tail": [clip(x, 500) for x in (r.get("stderr_tail") or [])[-6:]] if isinstance(r.get("stderr_tail"), list) else [],
    }


def _remedies_view(f: Finding, index: int, verbose: bool) -> tuple[list[dict[str, Any]], int]:
    """The remedies shown, and how many are hidden (those that do not apply, unless verbose)."""
    remedies = []
    hidden = 0
    for j, r in enumerate(f.remedies):
        if r.applies is Truth.FAILS and not verbose and not r.in_force:
            hidden += 1
            continue
        remedies.append({
            "anchor": f"f{index}-r{j}",
            "id": clip(r.id, 200),
            "title": clip(r.title, 500),
            "snippet": clip(r.snippet, 8000),
            "lang": _snippet_lang(r.action),
            "applies": r.applies.value,
            "fit": "already in force: not the fix" if r.in_force else REMEDY_FIT[r.applies],
            "why": clip(r.why),
            "repro": [clip(x, 200) for x in r.repro],
        })
    return remedies, hidden


def _references_view(references: list) -> list[dict[str, str]]:
    refs = []
    for ref in references:
        if not isinstance(ref, dict):
            continue
        url = safe_url(ref.get("url"))
        label = clip(ref.get("ref") or ref.get("title") or ref.get("url") or "", 300)
        refs.append({"label": label, "url": url, "raw_url": "" if url else clip(ref.get("url") or "", 300)})
    return refs


def _condition_view(c) -> dict[str, Any]:
    return {
        "truth": c.truth.value,
        "truth_text": TRUTH_TEXT[c.truth],
        "fact": clip(c.fact, 200),
        "expect": clip(c.expect, 1000),
        "value": clip(c.value, 1000) if c.value is not None else None,
        "source": clip(c.source, 1000) if c.source else "",
        "role": {"require": "required", "support": "supporting"}.get(c.role, c.role),
        "note": clip(c.note, 1000),
    }


def _consequence_view(c: dict) -> dict[str, Any]:
    return {
        "kind": clip(c.get("kind", ""), 100),
        "headline": clip(c.get("headline", ""), 1000),
        "count": c.get("count", 1),
        "source": clip(c.get("source", ""), 500),
        "line": c.get("line", ""),
    }


def _finding_view(f: Finding, index: int, verbose: bool) -> dict[str, Any]:
    remedies, hidden = _remedies_view(f, index, verbose)
    refs = _references_view(f.references)
    n_conseq = sum(int(c.get("count", 1)) if isinstance(c.get("count", 1), int) else 1 for c in f.consequences)
    return {
        "index": index,
        "anchor": f"f{index}",
        "source": clip(f.source, 500) if f.source else "",
        "id": clip(f.id, 200),
        "title": clip(f.title, 500),
        "severity": f.severity.value,
        "severity_text": SEVERITY_TEXT[f.severity],
        "status": f.status.value,
        "status_text": STATUS_TEXT[f.status],
        "summary": clip(f.summary),
        "cause": clip(f.cause, 8000),
        "count": f.count,
        "workers": workers_text(f.workers),
        "n_workers": len(f.workers),
        "from_facts_only": f.from_facts_only,
        "evidence": [_evidence_view(e) for e in f.evidence],
        "conditions": [_condition_view(c) for c in f.conditions],
        "decide": [clip(x, 200) for x in f.decide],
        "held_back": clip(f.held_back, 500),
        "contradicted_by": [clip(x, 1000) for x in f.contradicted_by],
        "remedies": remedies,
        "hidden_remedies": hidden,
        "references": refs,
        "repro": [clip(x, 200) for x in f.repro],
        "repro_results": [_repro_view(r) for r in f.repro_results if isinstance(r, dict)],
        "consequences": [_consequence_view(c) for c in f.consequences if isinstance(c, dict)],
        "n_consequences": n_conseq,
        "fingerprints": [clip(x, 100) for x in f.fingerprints],
    }


def _verdict(result: ScanResult) -> dict[str, Any]:
    top = result.top
    if top is None:
        if result.unknown:
            n = len(result.unknown)
            return {"kind": "unknown", "headline": "No known root cause",
                    "text": f"{n} error group{'s' if n != 1 else ''} that no signature knows (listed below)."}
        if result.nothing_read:
            return {"kind": "unknown", "headline": "Nothing was read",
                    "text": "Every input was skipped (binary, empty, an archive without logs): see the warnings."}
        return {"kind": "clear", "headline": "Nothing found",
                "text": "No known FP8 failure and no unrecognised errors in the scanned input."}
    others = len(result.findings) - 1
    return {
        "kind": "finding",
        "id": clip(top.id, 200),
        "title": clip(top.title, 500),
        "status": top.status.value,
        "status_text": STATUS_TEXT[top.status],
        "severity": top.severity.value,
        "severity_text": SEVERITY_TEXT[top.severity],
        "summary": clip(top.summary),
        "workers": workers_text(top.workers),
        "n_workers": len(top.workers),
        "count": top.count,
        "from_facts_only": top.from_facts_only,
        "n_consequences": sum(int(c.get("count", 1)) if isinstance(c.get("count", 1), int) else 1 for c in top.consequences),
        "others": others,
        "n_unknown": len(result.unknown),
        "source": clip(top.source, 500) if top.source and len(result.inputs) > 1 else "",
        "remedy": _top_remedy(top),
    }


def _top_remedy(f: Finding) -> dict[str, Any] | None:
    """The first remedy that fits (or may fit) the facts, for the verdict box."""
    for r in f.remedies:
        if r.applies is not Truth.FAILS:
            return {"title": clip(r.title, 500), "snippet": clip(r.snippet, 8000), "applies": r.applies.value,
                    "fit": REMEDY_FIT[r.applies]}
    return None


META_FIELDS = (
    ("version", "fp8triage version"),
    ("catalogue_version", "signature catalogue"),
    ("signatures", "signatures"),
    ("time", "scanned at"),
    ("host", "host"),
    ("elapsed_s", "scan time (s)"),
    ("facts_from", "facts from"),
    ("prefilter", "prefilter"),
    ("fingerprint_algorithm", "fingerprint algorithm"),
)


def build_view(result: ScanResult, verbose: bool = False) -> dict[str, Any]:
    """The report's content as plain data, in reading order. Both templates render this."""
    findings = [_finding_view(f, i, verbose) for i, f in enumerate(result.findings)]
    ruled = [_finding_view(f, len(findings) + i, True) for i, f in enumerate(result.ruled_out)] if verbose else []
    limit = None if verbose else MAX_SAMPLE_LINES
    unknown = []
    for u in result.unknown:
        sample = u.sample if limit is None else u.sample[:limit]
        unknown.append({
            "fingerprint": clip(u.fingerprint, 100),
            "kind": clip(u.kind, 100),
            "headline": clip(u.headline, 1000),
            "count": u.count,
            "workers": workers_text(u.workers),
            "first": f"{clip(u.first.source, 500)}:{u.first.lineno}",
            "last": f"{clip(u.last.source, 500)}:{u.last.lineno}",
            "sample": [{"lineno": ln.lineno, "text": _clipped_line(ln.text)} for ln in sample],
            "more": len(u.sample) - len(sample),
        })
    meta = result.meta or {}
    meta_rows = [[label, fmt_value(meta.get(key))] for key, label in META_FIELDS if key in meta and meta.get(key) is not None]
    known = {k for k, _ in META_FIELDS} | {"tool"}
    meta_rows += [[clip(k, 100), fmt_value(v)] for k, v in meta.items() if k not in known and v is not None]
    conflicts = []
    for c in result.conflicts:
        if not isinstance(c, dict):
            continue
        chosen = c.get("chosen") or {}
        vals = [v for v in c.get("values", []) if isinstance(v, dict)]
        conflicts.append({
            "name": clip(c.get("name", ""), 200),
            "chosen": f"{clip(chosen.get('value', ''), 500)} from {clip(chosen.get('source', ''), 500)}",
            "others": [f"{clip(v.get('value', ''), 500)} from {clip(v.get('source', ''), 500)} [{clip(v.get('origin', ''), 50)}]"
                       for v in vals if v.get("value") != chosen.get("value") or v.get("source") != chosen.get("source")],
            "rule": clip(c.get("rule", ""), 500),
        })
    return {
        "verbose": verbose,
        "verdict": _verdict(result),
        "findings": findings,
        "ruled_out": ruled,
        "n_ruled_out": len(result.ruled_out),
        "unknown": unknown,
        "facts": [{"name": clip(f.name, 200), "value": clip(f.value, 1000), "source": clip(f.source, 1000), "origin": clip(f.origin, 50)}
                  for f in result.facts],
        "conflicts": conflicts,
        "inputs": [{"source": clip(i.source, 500), "format": clip(i.format, 50), "bytes": fmt_bytes(i.bytes), "lines": f"{i.lines:,}"}
                   for i in result.inputs],
        "n_inputs": len(result.inputs),
        "total_bytes": fmt_bytes(sum(i.bytes for i in result.inputs)),
        "total_lines": f"{sum(i.lines for i in result.inputs):,}",
        "meta": meta_rows,
        "version": fmt_value(meta.get("version")),
        "time": fmt_value(meta.get("time")),
        "warnings": [clip(w, 1000) for w in result.warnings],
        "fleet": _fleet(result),
    }


def _fleet(result: ScanResult) -> dict[str, Any] | None:
    from .fleet import html_view

    return html_view(result.fleet)


# ── HTML ────────────────────────────────────────────────────────────────────────────────────


def _templates_dir() -> Path:
    from ..paths import data_dir

    return data_dir("templates")


@functools.lru_cache(maxsize=8)
def environment(folder: str, autoescape: bool):
    """A jinja2 environment for the templates in ``folder`` (cached: templates compile once per process).

    ``autoescape`` is True for HTML; the Markdown environment escapes value by value with filters.
    """
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(folder),
        autoescape=autoescape,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=True,
    )


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _assets(folder: Path) -> tuple[str, str]:
    css = (folder / ASSETS[0]).read_text(encoding="utf-8")
    js = (folder / ASSETS[1]).read_text(encoding="utf-8")
    # both are inserted raw into <style>/<script>: they must not be able to close their element
    for name, text, end in ((ASSETS[0], css, "</style"), (ASSETS[1], js, "</script")):
        if end in text.lower() or "<!--" in text:
            raise ValueError(f"templates/{name} must not contain {end!r} or '<!--'")
    return css, js


def content_security_policy(css: str, js: str) -> str:
    return (
        "default-src 'none'; "
        f"style-src {_csp_hash(css)}; "
        f"script-src {_csp_hash(js)}; "
        "img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; "
        "frame-src 'none'; worker-src 'none'; manifest-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )


def render_html(result: ScanResult, *, verbose: bool = False) -> str:
    """One self-contained HTML document for ``result`` (a string; the caller writes it)."""
    folder = _templates_dir()
    css, js = _assets(folder)
    view = build_view(result, verbose)
    return environment(str(folder), autoescape=True).get_template(TEMPLATE).render(
        r=view, css=jinja2_markup(css), js=jinja2_markup(js), csp=jinja2_markup(content_security_policy(css, js))
    )


def jinja2_markup(text: str):
    """Mark a bundled asset or the CSP built from constants (never log text) as safe for raw insertion."""
    from markupsafe import Markup

    return Markup(text)
