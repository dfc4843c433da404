"""Untrusted content in outputs, end to end: hostile text enters through a real log (evidence
lines, unknown errors, facts read from the log, kubectl pod prefixes, file names) and through
--fact, and goes out through `scan --format text|json|markdown|html`.

- text: no control character but newline (so no ESC, CSI, OSC, C1 controls, BEL, backspace,
  carriage return) whatever the log held;
- JSON: always parses, validates against fp8triage/schemas/scan.schema.json, and carries the
  hostile text unchanged as data (escaped, never dropped);
- HTML: the report has exactly the same element/attribute structure as the report of a benign
  run: log text never becomes markup, and no javascript: URL appears;
- Markdown: outside code spans and fences, no raw `<`, no link or image syntax from the log, and
  no control characters.

tests/render/test_report_render.py checks the HTML/Markdown renderers on synthetic results; these go
through the whole pipeline, where the text has been decoded, normalised and masked on the way.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fp8triage.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "vllm-rtx5090-unknown-sf.log").read_text()
KNOWN = "deepgemm-unknown-sf-transformation"

TERMINAL = [
    "\x1b[2J\x1b[H",  # clear screen
    "\x1b]0;pwned title\x07",  # OSC: window title
    "\x1b]8;;http://evil.invalid/\x1b\\click me\x1b]8;;\x1b\\",  # OSC 8 hyperlink
    "\x1b]52;c;cm0gLXJmIC8K\x07",  # OSC 52: write the clipboard
    "\x9b31m",  # C1 CSI
    "\x9d0;c1 title\x9c",  # C1 OSC ... ST
    "\x1bP+q\x1b\\",  # DCS
    "\x07\x08\x08\x08\r\x0b\x0c",  # bell, backspaces, CR, VT, FF
    "\x00nul\x7fdel\x85nel",
    "\x1b[6n",  # cursor position report request (makes the terminal type)
]
MARKUP = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    '"><svg/onload=alert(3)>',
    "</pre></code></td></table><iframe src=javascript:alert(4)>",
    "<!-- x --><style>*{display:none}</style>",
    "[click](javascript:alert(5)) ![img](http://evil.invalid/x.png) <http://evil.invalid>",
    "```\n# heading\n```",
    "| a | b |\n|---|---|",
    "`` ` `` ~~~ <details open>",
    "{{ 7*7 }} {% for x in y %}${jndi:ldap://x}",
    "&lt;script&gt; &#60;b&#62;",
    "\u202eevil\u202c \u2066",
]
PAYLOADS = TERMINAL + MARKUP


def hostile_log(payload: str) -> str:
    one = payload.replace("\n", " ")
    return (
        f"(APIServer pid=1) INFO 08-11 09:14:02 [utils.py:326] non-default args: {{'model': 'org/{one}'}}\n"
        + EXAMPLE.replace("Unknown SF transformation", f"Unknown SF transformation {one}", 1)
        + f"[pod/vllm-{one[:20].replace(']', '').replace('/', '').replace(' ', '')}-0/vllm] RuntimeError: {one}\n"
        + f"ValueError: second {one}\n"
    )


def run(tmp_path: Path, payload: str, fmt: str, name: str = "server.log") -> str:
    safe_name = re.sub(r"[/\x00]", "_", name)
    f = tmp_path / safe_name
    f.write_bytes(hostile_log(payload).encode("utf-8", "surrogatepass"))
    res = CliRunner().invoke(cli, ["scan", "--format", fmt, "-v", "--fact", f"model=org/{payload}", str(f)])
    assert res.exit_code == 3, res.output
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output  # the CLI did not crash
    if "Traceback" not in payload:  # (a log line may say "Traceback" itself: then the output quotes it)
        assert "Traceback" not in res.output
    return res.stdout


CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@lru_cache(maxsize=1)
def schema():
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads((ROOT / "fp8triage/schemas/scan.schema.json").read_text()))


# -- text --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_text_output_has_no_control_characters(tmp_path, payload):
    out = run(tmp_path, payload, "text")
    assert KNOWN in out
    bad = CONTROL.findall(out)
    assert not bad, bad
    assert "\x1b" not in out and "\u009b" not in out


def test_text_output_with_colour_has_only_our_own_sgr_sequences(tmp_path):
    f = tmp_path / "server.log"
    f.write_text(hostile_log("".join(TERMINAL)))
    out = CliRunner().invoke(cli, ["scan", "--color", "-v", str(f)]).stdout
    # every ESC starts one of the renderer's own colour codes (SGR: ESC [ digits ; m)
    assert out.count("\x1b") == len(re.findall(r"\x1b\[[0-9;]*m", out)) > 0
    assert not re.search(r"[\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f]", out)


# -- JSON --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_json_is_valid_schema_valid_and_keeps_the_text_as_data(tmp_path, payload):
    out = run(tmp_path, payload, "json")
    assert not CONTROL.search(out)  # ensure_ascii: control characters are \u escapes
    doc = json.loads(out)
    errs = list(schema().iter_errors(doc))
    assert not errs, errs[0].message
    assert doc["findings"][0]["id"] == KNOWN
    model = next(f for f in doc["facts"] if f["name"] == "model")
    assert model["value"] == f"org/{payload}".strip()  # --fact text round-trips, as data (trimmed)


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(min_size=1, max_size=60))
def test_json_survives_any_unicode_in_log_and_facts(tmp_path, text):
    out = run(tmp_path, text, "json")
    doc = json.loads(out)
    assert not list(schema().iter_errors(doc))


def test_file_names_with_markup_and_controls(tmp_path):
    name = "<img src=x onerror=alert(1)>\x1b[2J.log"
    for fmt in ("text", "json", "markdown", "html"):
        out = run(tmp_path, "plain", fmt, name=name)
        assert "\x1b" not in out
        if fmt == "json":
            assert json.loads(out)["inputs"][0]["source"].endswith(name)
        elif fmt == "html":
            assert structure(out) == structure(run(tmp_path, "plain", "html", name="server.log"))
        elif fmt == "markdown":
            assert_markdown_inert(out)


# -- HTML --------------------------------------------------------------------------------------------

class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items: list[tuple[str, tuple[str, ...]]] = []
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.items.append((tag, tuple(sorted(k for k, _ in attrs))))
        for k, v in attrs:
            if k in ("href", "src", "action", "formaction", "xlink:href") and v:
                self.urls.append(v)

    handle_startendtag = handle_starttag


def structure(html: str) -> tuple[list, list]:
    p = _Tags()
    p.feed(html)
    return sorted(set(p.items)), p.urls


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_html_structure_is_the_same_as_for_benign_text(tmp_path, payload):
    hostile = run(tmp_path, payload, "html")
    benign = run(tmp_path, "benign words", "html")
    tags_h, urls_h = structure(hostile)
    tags_b, _ = structure(benign)
    assert tags_h == tags_b, set(tags_h) ^ set(tags_b)
    assert not any(u.strip().lower().startswith(("javascript:", "data:", "vbscript:")) for u in urls_h)
    assert not any("evil.invalid" in u for u in urls_h)  # log text never becomes a link
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", hostile)
    assert "alert(" not in "".join(re.findall(r"<script[^>]*>(.*?)</script>", hostile, re.S))


# -- Markdown ----------------------------------------------------------------------------------------

def _outside_code(md: str) -> str:
    """Markdown with fenced blocks and code spans removed (CommonMark: a fence closes with a run of
    at least its length; a code span closes with a run of exactly its length)."""
    out, fence = [], None
    for ln in md.split("\n"):
        s = ln.lstrip()
        m = re.match(r"(`{3,}|~{3,})", s)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if re.fullmatch(re.escape(fence[0]) + "{%d,}\\s*" % len(fence), s):
                fence = None
            continue
        out.append(re.sub(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", "", ln))
    return "\n".join(out)


def assert_markdown_inert(md: str) -> None:
    assert not CONTROL.search(md.replace("\n", "")), CONTROL.findall(md)
    outside = _outside_code(md)
    # raw HTML needs an unescaped '<' before a letter, '/', '!' or '?'
    assert not re.search(r"(?<!\\)<[A-Za-z/!?]", outside), re.findall(r".{0,30}(?<!\\)<[A-Za-z/!?].{0,30}", outside)
    assert not re.search(r"(?<!\\)\]\((?:javascript|data|vbscript):", outside, re.I)
    assert not re.search(r"(?<!\\)\]\(http://evil\.invalid", outside)
    assert not re.search(r"(?<!\\)<http://evil\.invalid>", outside)


@pytest.mark.parametrize("payload", PAYLOADS, ids=range(len(PAYLOADS)))
def test_markdown_keeps_log_text_inert(tmp_path, payload):
    md = run(tmp_path, payload, "markdown")
    assert KNOWN in md
    assert_markdown_inert(md)


@pytest.mark.slow
def test_markdown_renders_to_the_same_html_structure_as_benign_text(tmp_path):
    """With a CommonMark renderer (where installed), the ticket shows the same elements whatever
    the log held: no element or link comes from log text."""
    mdit = pytest.importorskip("markdown_it")
    md = mdit.MarkdownIt("commonmark", {"html": True}).enable("table")
    benign = structure(md.render(run(tmp_path, "benign words", "markdown")))[0]
    for payload in PAYLOADS:
        tags, urls = structure(md.render(run(tmp_path, payload, "markdown")))
        assert set(tags) <= set(benign), (payload, set(tags) - set(benign))
        assert not any("evil.invalid" in u or u.lower().startswith("javascript:") for u in urls), payload


# -- long lines are clipped in every renderer, and say so (issue 16, item 8) ------------------------

@pytest.mark.slow
def test_a_huge_evidence_line_is_clipped_in_every_format(tmp_path: Path):
    from click.testing import CliRunner

    from fp8triage.cli import cli

    example = (Path(__file__).resolve().parents[2] / "examples" / "vllm-rtx5090-unknown-sf.log").read_text()
    lines = example.splitlines()
    at = next(i for i, ln in enumerate(lines) if "Unknown SF transformation" in ln)
    lines[at] = lines[at].replace("RuntimeError:", "RuntimeError: " + "x" * 600_000 + " ") + " " + "y" * 400_000
    log = tmp_path / "huge.log"
    log.write_text("\n".join(lines) + "\n")
    full = len(lines[at]) - lines[at].index("RuntimeError:")
    outs = {}
    for fmt in ("text", "markdown", "json", "html"):
        r = CliRunner().invoke(cli, ["scan", str(log), "--format", fmt, "--no-history"], catch_exceptions=False)
        assert r.exit_code == 3, (fmt, r.output[:500])
        outs[fmt] = r.output
        assert len(r.output) < 100_000, (fmt, len(r.output))
    assert max(len(ln) for ln in outs["text"].splitlines()) < 1000
    assert "Unknown SF transformation" in outs["text"] and "[line clipped: " in outs["text"]
    assert "[line clipped: " in outs["markdown"] and "[line clipped: " in outs["html"]
    doc = json.loads(outs["json"])
    ev = next(e for e in doc["findings"][0]["evidence"] if e.get("clipped"))
    assert ev["text_length"] >= full and len(ev["text"]) <= 2500
    s, e = ev["span"]
    assert ev["text"][s:e].endswith("Unknown SF transformation")  # the span still points at the match
