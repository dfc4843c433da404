"""HTML and Markdown renderers: content, exhaustive mappings, and that log text cannot inject."""
from __future__ import annotations

import base64
import hashlib
import html as htmllib
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_report_fixtures import IMG_PAYLOAD, SCRIPT_PAYLOAD, empty_result, repro_result, sample_result

from fp8triage.model import Evidence, Fact, Line, ScanResult, Severity, Status, Truth, UnknownGroup
from fp8triage.render import html as H
from fp8triage.render import markdown as M
from fp8triage.render.html import render_html
from fp8triage.render.markdown import render_markdown

# ── what the HTML may contain ────────────────────────────────────────────────────────────────

ALLOWED_TAGS = {
    "html", "head", "meta", "title", "style", "body", "header", "nav", "a", "section", "div", "span", "h1", "h2",
    "h3", "h4", "p", "code", "strong", "article", "ol", "ul", "li", "pre", "mark", "table", "thead", "tbody", "tr",
    "th", "td", "button", "details", "summary", "figure", "figcaption", "svg", "line", "text", "polyline",
    "circle", "script", "footer",
}
ALLOWED_ATTRS = {
    "lang", "charset", "http-equiv", "content", "name", "href", "class", "id", "aria-label", "title", "type",
    "data-copy", "hidden", "rel", "referrerpolicy", "viewbox", "role", "xmlns", "x1", "x2", "y1", "y2", "x", "y",
    "text-anchor", "dominant-baseline", "points", "cx", "cy", "r",
}


class Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []
        self.script_bodies: list[str] = []
        self.style_bodies: list[str] = []
        self._in = None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in = tag if tag in ("script", "style") else None

    def handle_endtag(self, tag):
        self._in = None

    def handle_data(self, data):
        if self._in == "script":
            self.script_bodies.append(data)
        elif self._in == "style":
            self.style_bodies.append(data)
        else:
            self.text.append(data)


def parse(doc: str) -> Collector:
    c = Collector()
    c.feed(doc)
    c.close()
    return c


def assert_html_safe(doc: str) -> Collector:
    c = parse(doc)
    for tag, attrs in c.tags:
        assert tag in ALLOWED_TAGS, f"unexpected element <{tag}>"
        for name, value in attrs.items():
            assert name in ALLOWED_ATTRS, f"unexpected attribute {name}= on <{tag}>"
            if name == "href":
                assert value.startswith(("#", "https://", "http://")), value
    assert sum(1 for t, _ in c.tags if t == "script") == 1
    assert sum(1 for t, _ in c.tags if t == "style") == 1
    return c


# ── mappings are exhaustive ──────────────────────────────────────────────────────────────────


def test_every_status_severity_truth_and_verdict_is_mapped():
    assert set(H.STATUS_TEXT) == set(Status)
    assert set(H.SEVERITY_TEXT) == set(Severity)
    assert set(H.TRUTH_TEXT) == set(Truth)
    assert set(H.REMEDY_FIT) == set(Truth)
    from fp8triage.confirm.repro import VERDICTS

    assert set(H.VERDICT_TEXT) == set(VERDICTS)


@pytest.mark.parametrize("status", list(Status))
def test_each_status_renders_its_badge(status):
    r = sample_result()
    r.findings[0].status = status
    doc = render_html(r)
    assert f'class="badge st-{status.value}"' in doc
    assert H.STATUS_TEXT[status] in render_markdown(r)


@pytest.mark.parametrize("verdict", list(H.VERDICT_TEXT) + ["something-new"])
def test_each_repro_verdict_renders(verdict):
    r = sample_result()
    r.findings[0].repro_results[0]["verdict"] = verdict
    doc = render_html(r)
    cls = verdict if verdict in H.VERDICT_TEXT else "other"
    assert f'class="badge v-{cls}"' in doc
    assert f".v-{cls}" in (H._templates_dir() / "report.css").read_text()


# ── content and order ────────────────────────────────────────────────────────────────────────


def test_html_has_the_content_in_reading_order():
    doc = render_html(sample_result())
    order = ['id="verdict"', 'id="findings"', "Evidence", "Conditions", "Remedies", "Reproductions",
             "References", 'id="unknown"', 'id="environment"', "Conflicting facts", 'id="run"', "Metadata"]
    pos = [doc.find(s) for s in order]
    assert all(p >= 0 for p in pos), dict(zip(order, pos))
    assert pos == sorted(pos)
    c = assert_html_safe(doc)
    text = "".join(c.text)
    for s in ("ue8m0-silent-corruption", "VllmWorker rank=7", "line 1412", "holds", "unknown", "log server.log:88",
              "export VLLM_USE_DEEP_GEMM=0", "fp8triage version", "0.0.0-golden", "golden000000",
              "2026-01-01T00:00:00+00:00", "1.4 MiB", "api.log.gz", "15 later errors follow from this", "×8"):
        assert s in text, s
    # the matched span is highlighted, exactly
    assert "<mark>DeepGEMM kernels</mark>" in doc
    # the remedy that does not fit is hidden unless verbose; ruled-out findings likewise
    assert "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1" not in doc
    assert "deepgemm-unsupported-arch" not in doc
    v = render_html(sample_result(), verbose=True)
    assert "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1" in v and "deepgemm-unsupported-arch" in v
    assert "Ruled out because:" in v


def test_repro_metrics_become_tables_and_per_layer_charts():
    metrics = repro_result()["metrics"]
    labels = H.SERIES_LABELS["ue8m0-scale-rounding"]
    charts = H.metric_charts(metrics, labels)
    assert [c["key"] for c in charts] == ["cosine_by_layer", "norm_ratio_by_layer"]
    for c in charts:
        assert c["where"] == "stack" and c["axis"] == "layer"
        assert [s["label"] for s in c["series"]] == [labels["a"], labels["b"], labels["c"]]
        assert all(len(s["values"]) == 12 and len(s["points"].split()) == 12 for s in c["series"])
        for s in c["series"]:
            for pt in s["points"].split():
                x, y = map(float, pt.split(","))
                assert c["x0"] <= x <= c["x1"] and c["y0"] <= y <= c["y1"]
    # the bug's cosine falls layer by layer: its line ends lower on the chart (larger y) than it starts
    bug = charts[0]["series"][1]["points"].split()
    assert float(bug[-1].split(",")[1]) > float(bug[0].split(",")[1])
    tables = H.metric_tables(metrics, labels)
    matrix = next(t for t in tables if t["columns"][1:] == ["rel_err", "cosine", "norm_ratio", "finite"])
    assert [row[0] for row in matrix["rows"]] == ["fp32_scales", "rounded_no_requant", "requantized_pow2"]
    stack = next(t for t in tables if t["columns"][0] == "stack" and t["kind"] == "matrix")
    assert [row[0] for row in stack["rows"]] == [labels["a"], labels["b"], labels["c"]]


@pytest.mark.parametrize("metrics", [
    {}, None, [], "text", {"x": float("nan")}, {"a": [1]}, {"a": [1, "nan", 3]}, {"a": [True, False]},
    {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": [1, 2, 3]}}}}}}}}, {"same": [5, 5, 5]},
    {"traceback_tail": ["Traceback", "  File x", "ValueError: <b>"]}, {"a": [1e308, -1e308]},
    {"k": {"a": [1, 2], "b": [3, 4, 5]}}, {"a": list(range(5000))},
])
def test_odd_metrics_never_break_the_report(metrics):
    r = sample_result()
    r.findings[0].repro_results[0]["metrics"] = metrics
    assert_html_safe(render_html(r))
    render_markdown(r)


def test_repro_result_that_is_not_a_dict_is_skipped():
    r = sample_result()
    r.findings[0].repro_results = ["garbage", {"id": "x"}]
    assert 'class="badge v-other"' in render_html(r)


def test_empty_and_unknown_only_verdicts():
    assert "Nothing found" in render_html(empty_result())
    r = sample_result()
    r.findings = []
    doc = render_html(r)
    assert "No known root cause" in doc and "2 error groups that no signature knows" in doc


def test_csp_is_restrictive_and_hashes_match_the_inline_assets():
    doc = render_html(sample_result())
    csp = htmllib.unescape(re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', doc).group(1))
    assert csp.startswith("default-src 'none';")
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp and "http" not in csp
    c = parse(doc)

    def h(s):
        return "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"

    assert f"style-src {h(c.style_bodies[0])};" in csp
    assert f"script-src {h(c.script_bodies[0])};" in csp
    # nothing that could load a resource: no src, no CSS url() or @import
    assert "url(" not in c.style_bodies[0] and "@import" not in c.style_bodies[0]
    for tag, attrs in c.tags:
        assert "src" not in attrs and "srcset" not in attrs
        assert "style" not in attrs  # style attributes would be blocked by the CSP
    assert "@media print" in c.style_bodies[0] and "prefers-color-scheme: dark" in c.style_bodies[0]


def test_renderer_modules_do_not_import_jinja2_until_used():
    code = ("import sys, fp8triage.render.html, fp8triage.render.markdown, fp8triage.cli.report; "
            "assert 'jinja2' not in sys.modules, 'jinja2 imported at module level'; "
            "assert 'torch' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


# ── untrusted text ───────────────────────────────────────────────────────────────────────────


def test_payloads_show_as_text_in_html():
    doc = render_html(sample_result(), verbose=True)
    c = assert_html_safe(doc)
    text = "".join(c.text)
    assert SCRIPT_PAYLOAD in text and IMG_PAYLOAD in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in doc
    assert "<img" not in doc and "onerror=alert" not in doc.replace("onerror=alert(1)&gt;", "")
    assert 'href="javascript:' not in doc
    assert "\u202e" not in doc  # bidi overrides are neutralised


def test_span_highlighting_is_defensive():
    assert H.split_span("abcdef", (1, 3))[ "match"] == "bc"
    for bad in [None, (5, 2), (-4, 2), (0, 999), ("a", "b"), (1,), (True, 3), [2, 2]]:
        parts = H.split_span("abcdef", bad)
        assert parts["before"] + parts["match"] + parts["after"] == "abcdef"
    long = "x" * 10_000 + "NEEDLE" + "y" * 10_000
    p = H.split_span(long, (10_000, 10_006))
    assert p["match"] == "NEEDLE" and p["cut_left"] and p["cut_right"]
    assert len(p["before"]) + len(p["after"]) <= H.MAX_LINE_CHARS


@pytest.mark.parametrize("url,ok", [
    ("https://github.com/x/y/issues/1", True), ("http://example.org/a?b=c#d", True),
    ("javascript:alert(1)", False), ("JaVaScRiPt:alert(1)", False), ("data:text/html,<b>", False),
    ("//evil.example/x", False), ("https:///nohost", False), ("https://a b", False), ("https://a\nb", False),
    ("vbscript:x", False), ("file:///etc/passwd", False), (None, False), (42, False), ("", False),
])
def test_only_http_urls_become_links(url, ok):
    assert (H.safe_url(url) is not None) is ok


def test_markdown_code_spans_and_fences_cannot_be_closed_from_inside():
    for s in ["plain", "a`b", "``x``", "`", "ends`", " both ", "|pipe|", "x" + "`" * 7 + "y"]:
        span = M.md_code(s)
        tick = re.match(r"`+", span).group(0)
        assert span.endswith(tick) and tick not in span[len(tick):-len(tick)]
        assert M.md_code(s, cell=True).count("|") == M.md_code(s, cell=True).count("\\|")
    body = "a\n```\n````\n`````x\nb"
    block = M.md_fence(body)
    fence = block.split("\n", 1)[0]
    assert len(fence) == 6 and block.endswith("\n" + fence)
    assert all(not ln.startswith(fence) for ln in block.split("\n")[1:-1])


def test_markdown_text_is_escaped():
    s = M.md_text("<script>x</script> [a](javascript:b) *c* _d_ | `e` # f")
    assert "<" not in s and ">" not in s
    assert "\\[a\\]" in s and "\\*c\\*" in s and "\\_d\\_" in s and "\\|" in s and "\\`e\\`" in s
    assert M.md_text("1. not a list").startswith("1\\.")
    assert M.md_text("- not a list").startswith("\\-")
    assert M.md_text("line\nbreak") == "line break"
    assert M.md_link("x", "javascript:alert(1)").startswith("x (")
    assert M.md_link("x", "https://e.org/a(b)") == "[x](https://e.org/a%28b%29)"


def test_markdown_report_keeps_log_text_inert():
    md = render_markdown(sample_result(), verbose=True)
    outside = _outside_code(md)
    assert "<script" not in outside and "<img" not in outside
    assert "](javascript:" not in outside and "](http://fp8triage-test.invalid" not in outside


def _outside_code(md: str) -> str:
    """The Markdown with fenced blocks and code spans removed (a rough CommonMark reading)."""
    out, fence = [], None
    for ln in md.split("\n"):
        s = ln.lstrip()
        m = re.match(r"(`{3,})", s)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if re.fullmatch(re.escape(fence) + r"`*\s*", s):
                fence = None
            continue
        out.append(re.sub(r"(`+)(.+?)\1", "", ln))
    return "\n".join(out)


def _result_with(text: str) -> ScanResult:
    r = empty_result()
    ln = Line("x.log", 7, text)
    r.unknown = [UnknownGroup("f" * 16, "error", text, [ln], 2, ["w<1>"], ln, ln)]
    r.facts = [Fact("model", text, f"log x.log:7 {text}", "log")]
    r.warnings = [text]
    f = sample_result().findings[1]
    f.evidence = [Evidence("x.log", 7, text, (0, len(text)) if text else None, ("w",), "p")]
    f.title, f.summary = "title", text
    r.findings = [f]
    return r


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(list("<>&\"'`/=*_[]()!#|\\-+.: \n\tabcxyz") +
                               ["<script>", "</pre>", "<img src=x onerror=alert(1)>", "javascript:",
                                "```", "\u202e", "\x00", "-->", "<!--", "</style>", "</script>"]),
                max_size=40).map("".join))
@pytest.mark.slow
def test_no_log_text_can_inject_html_or_markdown(text):
    r = _result_with(text)
    doc = render_html(r)
    c = assert_html_safe(doc)
    assert "alert" not in "".join(c.script_bodies)
    md = render_markdown(r)
    outside = _outside_code(md)
    assert "<" not in outside.replace("&lt;", "")
    assert "](" not in outside or "](https://" in outside


# ── real scans ───────────────────────────────────────────────────────────────────────────────


@pytest.mark.slow
def test_every_corpus_case_renders_in_both_formats(corpus):
    from fp8triage.drivers.batch import scan_paths

    for log in sorted((corpus / "cases").glob("*.log")):
        r = scan_paths([str(log)])
        doc = render_html(r, verbose=True)
        assert_html_safe(doc)
        md = render_markdown(r, verbose=True)
        if r.top is not None:
            assert r.top.id in doc and f"`{r.top.id}`" in md, log.name
        else:
            assert ("No known root cause" in doc) == bool(r.unknown), log.name


def test_scan_command_uses_these_renderers():
    from click.testing import CliRunner

    from fp8triage.cli import cli
    from test_report_cli import EXAMPLE

    for fmt, start in (("html", "<!DOCTYPE html>"), ("markdown", "# fp8triage: `deepgemm-unknown-sf-transformation`")):
        res = CliRunner().invoke(cli, ["scan", str(EXAMPLE), "--format", fmt])
        assert res.stdout.startswith(start), res.output[:300]


# -- what a reader sees first (issue 16, item 12) ----------------------------------------------------

def _body(doc: str) -> str:
    return doc.split("<body>", 1)[1]


def _esc(text: str) -> str:
    from markupsafe import escape

    return str(escape(text))


def test_top_box_holds_the_first_fitting_remedy_and_the_card_does_not_repeat_it():
    res = sample_result()
    doc = render_html(res)
    verdict = _body(doc).split('<section id="findings"', 1)[0]
    first = next(r for r in res.top.remedies if r.applies is not Truth.FAILS)
    assert "First remedy: " + _esc(first.title) in verdict
    assert _esc(first.snippet) in verdict and 'data-copy="top-remedy"' in verdict
    body = _body(doc)
    assert body.count(_esc(res.top.summary)) == 1
    assert body.count(_esc(res.top.title)) == 1  # the card says "The root cause above"
    assert "The root cause above" in body


def test_evidence_paths_are_clipped_in_the_middle_with_the_full_path_on_hover(tmp_path):
    import shutil

    from fp8triage.drivers.batch import scan_paths

    example = __import__("pathlib").Path(__file__).resolve().parents[2] / "examples" / "vllm-rtx5090-unknown-sf.log"
    deep = tmp_path / ("very-long-directory-name-" * 3) / "cluster-a" / "namespace-inference"
    for pod in ("vllm-0", "vllm-1"):
        (deep / pod).mkdir(parents=True)
        shutil.copy(example, deep / pod / "server.log")
    doc = render_html(scan_paths([str(deep)]))
    shown = dict(re.findall(r'<span class="src" title="([^"]+)">([^<]+)</span>', doc))
    full = {str(deep / p / "server.log") for p in ("vllm-0", "vllm-1")}
    assert full <= set(shown)
    short = {shown[p] for p in full}
    assert len(short) == 2  # the two files look different
    for p in full:
        assert len(shown[p]) <= 48 and "…" in shown[p] and shown[p].endswith(p[-20:])
    assert "text-overflow: ellipsis" not in doc.split(".loc .src", 1)[1].split("}", 1)[0]
