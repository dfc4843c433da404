"""The Markdown report: the HTML report's content in a compact form for tickets and chat.

Log text is untrusted here too. Inline values from the log go into code spans whose delimiter is
longer than any backtick run inside them; log lines go into fenced blocks whose fence is longer
than any backtick run in the block; other text has Markdown punctuation backslash-escaped and
``< > &`` written as entities, so nothing from the log can become a link, an image, a mention-free
heading, raw HTML or a closed fence.

jinja2 is imported on first use (html.environment): the scan path must not pay for it.
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from ..model import ScanResult
from .html import build_view, safe_url, visible

TEMPLATE = "report.md.j2"

_MD_PUNCT = re.compile(r"([\\`*_\[\]|~#])")
_LEADING = re.compile(r"^(\s*)([-+=]|\d{1,9}[.)])(?=\s|$)")
_SPARK = "▁▂▃▄▅▆▇█"


def one_line(text: Any) -> str:
    """Newlines and runs of whitespace become one space (a table cell or a list item stays one line)."""
    return " ".join(visible(text).split())


def md_text(text: Any) -> str:
    """Plain text, safe anywhere inline (table cells included): no emphasis, links, HTML or headings."""
    s = one_line(text)
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    s = _MD_PUNCT.sub(r"\\\1", s)
    # a value that starts a line must not start a list, a quote or a setext heading
    return _LEADING.sub(lambda m: m.group(1) + m.group(2)[:-1] + "\\" + m.group(2)[-1], s)


def longest_run(text: str, ch: str = "`") -> int:
    best = run = 0
    for c in text:
        run = run + 1 if c == ch else 0
        best = max(best, run)
    return best


def md_code(text: Any, cell: bool = False) -> str:
    """An inline code span holding ``text`` literally (pipes escaped inside table cells)."""
    s = one_line(text)
    if not s:
        return "(empty)"
    tick = "`" * (longest_run(s) + 1)
    if s.startswith("`") or s.endswith("`") or (s.startswith(" ") and s.endswith(" ")):
        s = f" {s} "
    if cell:
        s = s.replace("|", "\\|")
    return f"{tick}{s}{tick}"


def md_fence(text: Any, lang: str = "") -> str:
    """A fenced code block with a fence longer than any backtick run in ``text``."""
    body = visible(text).rstrip("\n")
    fence = "`" * max(3, longest_run(body) + 1)
    lang = "".join(c for c in str(lang) if c.isalnum() or c in "+-")[:20]
    return f"{fence}{lang}\n{body}\n{fence}"


def md_link(label: Any, url: Any) -> str:
    """``[label](url)`` for http(s) URLs; otherwise the label as text (and the rejected URL as code)."""
    ok = safe_url(url)
    if not ok:
        lab = md_text(label)
        return lab + (f" ({md_code(url)})" if url and str(url) != str(label) else "")
    href = quote(ok, safe=":/?#@!$&'*+,;=%~-._")
    href = href.replace("(", "%28").replace(")", "%29")
    return f"[{md_text(label)}]({href})"


def evidence_block(evidence: list[dict[str, Any]]) -> str:
    """Evidence lines as one fenced block: ``source:line  text``, with a caret line under the match."""
    out = []
    for e in evidence:
        loc = f"{e['source']}:{e['lineno']}" + (f" [{e['workers']}]" if e["workers"] else "") + (f" ({e['kind']})" if e.get("kind") else "")
        left = ("… " if e["cut_left"] else "") + e["before"]
        line = f"{loc}  {left}{e['match']}{e['after']}" + (" …" if e["cut_right"] else "")
        line += f" {e['clipped']}" if e.get("clipped") else ""
        out.append(line)
        if e["match"] and (e["before"] or e["after"]) and "\t" not in left + e["match"]:
            out.append(" " * (len(loc) + 2 + len(left)) + "^" * len(e["match"]))
    return md_fence("\n".join(out))


def sample_block(sample: list[dict[str, Any]]) -> str:
    width = max((len(str(ln["lineno"])) for ln in sample), default=1)
    return md_fence("\n".join(f"{str(ln['lineno']).rjust(width)}  {ln['text']}" for ln in sample))


def sparkline(values: list[float], lo: float, hi: float) -> str:
    if hi <= lo:
        return _SPARK[3] * len(values)
    return "".join(_SPARK[min(7, max(0, int((v - lo) / (hi - lo) * 7.999)))] for v in values)


def _chart_lines(chart: dict[str, Any]) -> list[dict[str, str]]:
    vals = [v for s in chart["series"] for v in s["values"]]
    lo, hi = min(vals), max(vals)
    return [{"label": s["label"], "spark": sparkline(s["values"], lo, hi), "first": s["first"], "last": s["last"]}
            for s in chart["series"]]


def render_markdown(result: ScanResult, *, verbose: bool = False) -> str:
    """The report as Markdown (a string; the caller writes it)."""
    from ..paths import data_dir
    from .html import environment

    # Markdown: no autoescape; escaping is done by the filters below, value by value
    env = environment(str(data_dir("templates")), autoescape=False)
    env.filters.update(t=md_text, code=md_code, cell=lambda s: md_code(s, cell=True), fence=md_fence,
                       link=md_link, spark=_chart_lines, evidence=evidence_block, sample=sample_block)
    return env.get_template(TEMPLATE).render(r=build_view(result, verbose)).strip("\n") + "\n"
