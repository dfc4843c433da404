"""Golden text output of `fp8triage scan` (issue 16, items 1, 6, 10): what an on-call engineer reads.

Regenerate after an intended wording change and review the diff:

    FP8TRIAGE_UPDATE_GOLDEN=1 python -m pytest tests/render/test_text_golden.py
    git diff tests/golden/
"""
from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.cli import cli

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
UPDATE = os.environ.get("FP8TRIAGE_UPDATE_GOLDEN") == "1"
EXAMPLE = "examples/vllm-rtx5090-unknown-sf.log"
TWO = "tests/golden/inputs/two-machines"

CASES = {
    "scan-example.txt": [EXAMPLE],
    "scan-example-verbose.txt": [EXAMPLE, "--verbose"],
    "scan-example-fail-on-never.txt": [EXAMPLE, "--fail-on", "never"],
    "scan-two-machines.txt": [TWO],
}


def _scan(args, monkeypatch) -> str:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "101")  # wrap at 100 whatever the terminal
    r = CliRunner().invoke(cli, ["scan", *args, "--no-history", "--no-color"], catch_exceptions=False)
    out = re.sub(r" in \d+\.\d+ s\n", " in 0.00 s\n", r.output, count=1)
    # the fleet view's times are the logs' modification times: a checkout's, not the golden's
    out = re.sub(r"first [\d-]+ [\d:]+, last [\d-]+ [\d:]+ UTC", "first TIME, last TIME UTC", out)
    return re.sub(r"^fp8triage \S+ ", "fp8triage VERSION ", out)


@pytest.mark.parametrize("name", sorted(CASES))
def test_text_golden(name, monkeypatch):
    got = _scan(CASES[name], monkeypatch)
    path = GOLDEN / name
    if UPDATE:
        path.write_text(got, encoding="utf-8")
        return
    assert path.exists(), f"{path} is missing; create it with FP8TRIAGE_UPDATE_GOLDEN=1 and review it"
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), f"golden/{name}", "scan"))[:120])
        pytest.fail(f"text output differs from golden/{name} (regenerate with FP8TRIAGE_UPDATE_GOLDEN=1 if intended):\n{diff}")


def test_text_output_is_what_a_first_time_user_needs(monkeypatch):
    out = _scan([EXAMPLE], monkeypatch)
    lines = out.splitlines()
    # one-line context first: GPU and capability, stack and version, model
    assert lines[3] == "  On NVIDIA GeForce RTX 5090 (capability 12.0) · vLLM 0.24.0 · RedHatAI/Muse-Glimmer-30B-FP8-block"
    # where the remedy goes, and the restart
    assert "docker run -e VLLM_USE_DEEP_GEMM=0" in out and "pod spec" in out and "restart the server" in out
    # the worker list once
    assert out.count("VllmWorker rank=0") == 1
    # issue references are links
    assert "vllm-project/vllm#47436  https://github.com/vllm-project/vllm/issues/47436" in out
    # "how to confirm" only with --verbose
    assert "fp8triage repro" not in out and "check on this GPU" not in out
    verbose = _scan([EXAMPLE, "--verbose"], monkeypatch)
    assert "Confirm on this machine: fp8triage repro" in verbose and "check on this GPU" in verbose
    # title, summary and notes are wrapped to the terminal
    assert all(len(ln) <= 100 for ln in lines if ln.startswith("  ") and not ln.startswith("   "))


def test_summaries_wrap_to_the_terminal(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "61")
    r = CliRunner().invoke(cli, ["scan", EXAMPLE, "--no-history"], catch_exceptions=False)
    lines = r.output.splitlines()
    head = lines[lines.index(next(ln for ln in lines if ln.startswith("ROOT CAUSE"))) + 1:]
    head = head[:head.index("")]  # context, title and summary
    assert len(head) > 4 and max(len(ln) for ln in head) <= 60, head


def test_readme_command_table_names_every_command_and_follow():
    """The README's table is what a first-time user reads (issue 16, item 14)."""
    from fp8triage.cli import COMMANDS

    readme = (ROOT / "README.md").read_text()
    table = [ln for ln in readme.splitlines() if ln.startswith("| `")]
    for cmd in COMMANDS:
        assert any(ln.startswith(f"| `{cmd}") for ln in table), cmd
    assert any(ln.startswith("| `scan --follow") for ln in table)
    assert "--one-machine" in readme
