"""docs/runbook-example.sh: triage a log, apply the remedy, branch on the exit code."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "docs" / "runbook-example.sh"
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"

pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="the runbook is a bash script")


def _run(*args, tmp_path):
    env = dict(os.environ, FP8TRIAGE=f"{sys.executable} -m fp8triage", PYTHON=sys.executable,
               PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               FP8TRIAGE_DB=str(tmp_path / "history.db"))
    env.pop("VLLM_USE_DEEP_GEMM", None)
    return subprocess.run(["bash", str(SCRIPT), *map(str, args)], capture_output=True, text=True, env=env, timeout=180)


@pytest.mark.slow
def test_known_root_cause_applies_the_remedy_and_restarts(tmp_path):
    p = _run(EXAMPLE, "sh", "-c", 'echo "server sees VLLM_USE_DEEP_GEMM=$VLLM_USE_DEEP_GEMM"; exit 0', tmp_path=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "runbook: deepgemm-unknown-sf-transformation (likely)" in p.stdout
    assert "export VLLM_USE_DEEP_GEMM=0" in p.stdout
    assert "server sees VLLM_USE_DEEP_GEMM=0" in p.stdout
    # the log says vLLM: the transformers and SGLang remedies are not applied
    assert "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1\n" not in p.stdout


@pytest.mark.slow
def test_known_root_cause_without_server_command_exits_3(tmp_path):
    p = _run(EXAMPLE, tmp_path=tmp_path)
    assert p.returncode == 3, p.stdout + p.stderr
    assert "export VLLM_USE_DEEP_GEMM=0" in p.stdout


def test_unknown_errors_escalate_with_fingerprints(tmp_path):
    log = tmp_path / "u.log"
    log.write_text('Traceback (most recent call last):\n  File "/a/b.py", line 1, in f\n'
                   "ValueError: weird fp8 blob 0x7f at rank 3\nINFO ok\n")
    p = _run(log, tmp_path=tmp_path)
    assert p.returncode == 4, p.stdout + p.stderr
    assert "escalating" in p.stdout and "ValueError: weird fp8 blob" in p.stdout
    assert "--from-fingerprint" in p.stdout


def test_clean_log_exits_0(tmp_path):
    log = tmp_path / "ok.log"
    log.write_text("INFO 12-01 10:00:00 [api_server.py:1] Started server process\nINFO ready\n")
    p = _run(log, "false", tmp_path=tmp_path)
    assert p.returncode == 0 and "no known FP8 failure" in p.stdout


def test_triage_failure_exits_1(tmp_path):
    p = _run(tmp_path / "missing.log", tmp_path=tmp_path)
    assert p.returncode == 1
    assert "could not triage" in p.stderr


def test_empty_log_is_not_called_healthy(tmp_path):
    """`kubectl logs` of a pod that never started: an empty file is no clean bill of health (exit 5, why)."""
    log = tmp_path / "never-started.log"
    log.write_text("")
    p = _run(log, "false", tmp_path=tmp_path)
    assert p.returncode == 5, p.stdout + p.stderr
    assert "no known FP8 failure" not in p.stdout
    assert "nothing in" in p.stderr and "empty" in p.stderr
