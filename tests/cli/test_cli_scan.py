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
    assert doc["schema_version"] == "1.5" and doc["exit_code"] == 3
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


def _catches(pid: int, sig: int) -> bool:
    """Whether process ``pid`` has a handler installed for ``sig`` (/proc/PID/status, SigCgt)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (sig - 1) & 1)
    return False


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_signal_to_a_single_process_scan_says_interrupted(tmp_path, signame):
    """issue 24, item 12: SIGTERM to a scan without workers printed nothing (killed silently), although
    docs/json-contract.md promises "interrupted" on stderr and exit 128 + the signal. The scan reads a
    pipe that stays open, so it is still running whenever the signal arrives: no timing involved."""
    import signal

    sig = getattr(signal, signame)
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(tmp_path), FP8TRIAGE_NO_PROGRESS="1")
    p = subprocess.Popen([sys.executable, "-m", "fp8triage", "scan", "-", "--no-history", "-j", "1"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        p.stdin.write(EXAMPLE.read_bytes()[:4000])
        p.stdin.flush()
        # the scan command has started (its handler is installed): a state, waited for, not a delay
        # (the bound only ends a scan that never installs one)
        import time

        deadline = time.monotonic() + 60
        while p.poll() is None and not _catches(p.pid, sig) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert p.poll() is None, p.stderr.read().decode()
        assert _catches(p.pid, sig), f"the scan does not handle {signame}: it dies without a word"
        p.send_signal(sig)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 128 + sig, (p.returncode, err.decode()[-2000:])
    assert err.decode().strip().splitlines()[-1] == "interrupted"
    assert b"Traceback" not in err
