"""The scan command as users run it: stdin, exit codes, JSON contract, error paths."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from fp8triage.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"
SCHEMA = json.loads((ROOT / "fp8triage" / "schemas" / "scan.schema.json").read_text())


def run(args, input=None):
    return CliRunner().invoke(cli, args, input=input, catch_exceptions=False)


def test_stdin_sm120_crash_names_root_cause_evidence_facts_and_remedy():
    r = run(["scan", "-"], input=EXAMPLE.read_bytes())
    assert r.exit_code == 3, r.output
    out = r.output
    assert "ROOT CAUSE  deepgemm-unknown-sf-transformation" in out
    assert "<stdin>:55" in out and "Unknown SF transformation" in out
    assert "capability = 12.0" in out and "<stdin>:8" in out
    assert "export VLLM_USE_DEEP_GEMM=0" in out
    assert "\x1b[" not in out  # not a TTY: no colour


def test_json_validates_against_schema_file_and_orders_findings():
    r = run(["scan", str(EXAMPLE), "--format", "json"])
    assert r.exit_code == 3
    doc = json.loads(r.output)
    jsonschema.validate(doc, SCHEMA)
    assert doc["schema_version"] == "1.3" and doc["exit_code"] == 3
    top = doc["findings"][0]
    assert top["id"] == "deepgemm-unknown-sf-transformation" and top["status"] == "likely"
    assert top["evidence"][0] == {**top["evidence"][0], "source": str(EXAMPLE), "line": 55}
    assert {"name": "capability", "value": "12.0"}.items() <= top["facts"][0].items()
    assert any(r["snippet"] == "export VLLM_USE_DEEP_GEMM=0" for r in top["remedies"])
    assert isinstance(doc["unknown_errors"], list)


def test_unknown_only_exit_code_and_groups():
    log = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.60 GiB.\n" * 3
    r = run(["scan", "-", "--format", "json"], input=log)
    assert r.exit_code == 4
    doc = json.loads(r.output)
    assert doc["findings"] == [] and doc["unknown_errors"][0]["count"] == 3


def test_clean_log_exits_zero():
    r = run(["scan", "-"], input="INFO all good\nINFO serving on :8000\n")
    assert r.exit_code == 0 and "No known FP8 failure and no errors found" in r.output


def test_fail_on_threshold():
    log = EXAMPLE.read_text()
    assert run(["scan", "-", "--fail-on", "never"], input=log).exit_code == 0
    oom = "torch.OutOfMemoryError: CUDA out of memory.\n"
    assert run(["scan", "-", "--fail-on", "possible"], input=oom).exit_code == 0


def test_fact_override_changes_the_judgement():
    log = "RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation\n"
    r = run(["scan", "-", "--format", "json", "--fact", "capability=9.0"], input=log)
    top = json.loads(r.output)["findings"][0]
    assert top["status"] == "possible"
    assert top["conditions"][0]["result"] == "fails" and top["conditions"][0]["source"] == "--fact"


@pytest.mark.parametrize(
    "args, message",
    [
        (["scan", "/nonexistent/server.log"], "no such file or directory"),
        (["scan", "-", "--fact", "nonsense"], "name=value"),
        (["scan", "-", "--signatures", "/nonexistent-dir"], "not a directory of signature files"),
    ],
)
def test_errors_are_one_sentence_without_traceback(args, message):
    r = CliRunner().invoke(cli, args, input="x\n")
    assert r.exit_code in (1, 2)
    assert message in r.output
    assert "Traceback" not in r.output


def test_output_file_written_only_at_the_end(tmp_path):
    out = tmp_path / "r.json"
    r = run(["scan", str(EXAMPLE), "--format", "json", "-o", str(out)])
    assert r.exit_code == 3 and json.loads(out.read_text())["findings"]
    bad = tmp_path / "never.json"
    run(["scan", "/nonexistent", "-o", str(bad)])
    assert not bad.exists()


def test_python_dash_m_and_real_pipe():
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "-"], input=EXAMPLE.read_bytes(),
                       capture_output=True, env=env, cwd="/")
    assert p.returncode == 3, p.stderr.decode()
    assert b"deepgemm-unknown-sf-transformation" in p.stdout and not p.stderr


def test_every_command_has_help():
    from fp8triage.cli import COMMANDS

    for name in COMMANDS:
        r = CliRunner().invoke(cli, [name, "--help"])
        assert r.exit_code == 0, (name, r.output)
        assert len(r.output.splitlines()) > 3


def test_exit_line_says_what_was_found_and_why_the_code_is_zero():
    """--fail-on never (or a threshold above what was found) exits 0 without claiming nothing was found."""
    r = run(["scan", str(EXAMPLE), "--fail-on", "never", "--no-history"])
    assert r.exit_code == 0
    last = r.output.rstrip().splitlines()[-1]
    assert last == "exit 0: found 1 likely finding; --fail-on never: the exit code is always 0"
    unknown_only = "INFO start\nTraceback (most recent call last):\n  File \"x.py\", line 1, in f\nValueError: frob failed\n"
    r = run(["scan", "-", "--fail-on", "likely", "--no-history"], input=unknown_only)
    assert r.exit_code == 0
    assert r.output.rstrip().splitlines()[-1] == "exit 0: found 1 unknown error group; --fail-on likely does not count it"
    r = run(["scan", "-", "--no-history"], input="INFO all good\n")
    assert r.exit_code == 0 and r.output.rstrip().splitlines()[-1] == "exit 0: nothing found"
