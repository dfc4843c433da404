"""`fp8triage report` as users run it: files, stdin, formats, the summary line, error paths."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_report_fixtures import IMG_PAYLOAD, SCRIPT_PAYLOAD, payload_log
from test_report_render import _outside_code

from fp8triage.cli import cli
from fp8triage.cli.report import infer_format

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"


def run(args, input=None):
    return CliRunner().invoke(cli, args, input=input, catch_exceptions=False)


def test_html_report_of_a_real_log(tmp_path):
    out = tmp_path / "triage.html"
    r = run(["report", str(EXAMPLE), "-o", str(out)])
    assert r.exit_code == 0, r.output
    doc = out.read_text(encoding="utf-8")
    assert doc.startswith("<!DOCTYPE html>")
    assert "deepgemm-unknown-sf-transformation" in doc and "<mark>" in doc
    assert "Content-Security-Policy" in doc
    # one summary line on stderr, nothing on stdout
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "deepgemm-unknown-sf-transformation" in lines[0] and str(out) in lines[0]
    assert not list(tmp_path.glob("*.tmp"))


def test_markdown_by_suffix_by_flag_and_to_stdout(tmp_path):
    out = tmp_path / "t.md"
    r = run(["report", str(EXAMPLE), "-o", str(out)])
    assert r.exit_code == 0 and out.read_text().startswith("# fp8triage: `deepgemm-unknown-sf-transformation`")
    r = run(["report", str(EXAMPLE), "--format", "markdown", "-o", "-"])
    assert r.exit_code == 0 and r.stdout.startswith("# fp8triage:")
    assert "Markdown report" in r.stderr and "standard output" in r.stderr
    assert infer_format(None, "x.HTML") == "html" and infer_format(None, "x.markdown") == "markdown"
    assert infer_format(None, None) == "html" and infer_format("markdown", "x.html") == "markdown"


def test_default_output_name_and_stdin(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, ["report", "-"], input=EXAMPLE.read_bytes())
    assert r.exit_code == 0, r.output
    doc = (tmp_path / "triage.html").read_text()
    assert "&lt;stdin&gt;" in doc and "deepgemm-unknown-sf-transformation" in doc


def test_fact_changes_the_report(tmp_path):
    out = tmp_path / "t.md"
    r = run(["report", str(EXAMPLE), "-o", str(out), "--fact", "capability=9.0", "--verbose"])
    assert r.exit_code == 0, r.output
    md = out.read_text()
    assert "`9.0`" in md and "--fact" in md


def test_payload_log_is_escaped_in_both_formats(tmp_path):
    log = tmp_path / "evil.log"
    log.write_text(payload_log())
    r = run(["report", str(log), "-o", str(tmp_path / "e.html")])
    assert r.exit_code == 0, r.output
    doc = (tmp_path / "e.html").read_text()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in doc and doc.count("<script>") == 1 and "<img" not in doc
    r = run(["report", str(log), "-o", str(tmp_path / "e.md")])
    md = (tmp_path / "e.md").read_text()
    assert SCRIPT_PAYLOAD in md and IMG_PAYLOAD in md  # inside code: shown, never interpreted
    outside = _outside_code(md)
    assert "<script" not in outside and "<img" not in outside and "](javascript:" not in outside


def test_missing_input_is_one_sentence_and_leaves_no_file(tmp_path):
    out = tmp_path / "triage.html"
    r = run(["report", str(tmp_path / "nope.log"), "-o", str(out)])
    assert r.exit_code == 1
    assert "nope.log" in r.stderr and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not out.exists() and not list(tmp_path.iterdir())


def test_bad_signature_directory_is_exit_1(tmp_path):
    sigs = tmp_path / "sigs"
    sigs.mkdir()
    (sigs / "broken.toml").write_text("id = 'Not Kebab'\nthis is not toml = = \n")
    out = tmp_path / "t.html"
    r = run(["report", str(EXAMPLE), "--signatures", str(sigs), "-o", str(out)])
    assert r.exit_code == 1 and "Traceback" not in r.stderr and "broken.toml" in r.stderr
    assert not out.exists()


def test_bad_fact_is_a_usage_error(tmp_path):
    r = run(["report", str(EXAMPLE), "--fact", "nonsense", "-o", str(tmp_path / "t.html")])
    assert r.exit_code == 2 and "name=value" in r.stderr
    assert not (tmp_path / "t.html").exists()


def test_unwritable_output_is_one_sentence(tmp_path):
    r = run(["report", str(EXAMPLE), "-o", str(tmp_path / "no" / "such" / "dir.html")])
    assert r.exit_code == 1 and "cannot be written" in r.stderr and "Traceback" not in r.stderr


def test_help_documents_the_command():
    r = run(["report", "-h"])
    assert r.exit_code == 0
    for opt in ("-o, --output", "--format", "--fact", "--verbose", "--confirm", "Exit codes"):
        assert opt in r.stdout
    assert "report" in run(["--help"]).stdout


@pytest.mark.slow
def test_real_subprocess(tmp_path):
    out = tmp_path / "triage.html"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-m", "fp8triage", "report", str(EXAMPLE), "-o", str(out)],
                       capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "" and p.stderr.startswith("fp8triage: deepgemm-unknown-sf-transformation")
    assert out.stat().st_size > 5000
