"""Repro isolation through `scan --confirm`, end to end.

tests/confirm/test_repro.py checks the runner itself (run_repros / confirm_findings with planted kernels).
Here the whole triage runs: a log matches a planted user signature whose repros are planted
kernels that segfault, hang (with a child process), die on a sticky CUDA error, or print a good
result and then hang in teardown as a poisoned CUDA context does. The scan must finish within the
repro timeout (not the kernels' lifetime), mark each repro `error` or `timeout` with a reason,
keep the other findings and repros, kill the hung kernels' process groups, and exit as usual.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.confirm import repro as R
from fp8triage.cli import cli

pytestmark = pytest.mark.slow  # the whole module: `make check` leaves it to `make test`

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "vllm-rtx5090-unknown-sf.log").read_text()

SIG = '''id = "{id}"
title = "A planted signature whose repros misbehave"
severity = "critical"
priority = 90
summary = "Planted by tests/confirm/test_repro_isolation.py."
cause = "A planted cause, to drive scan --confirm."
fix = "Nothing to fix: this is a test."
repro = [{repros}]

[evidence]
anchors = ["{anchor}"]

[[evidence.patterns]]
name = "main"
regex = \'\'\'{anchor}\'\'\'
'''

KERNELS = {
    # a segfault (as a bad FP8 GEMM launch can do)
    "crash_segv.py": "import os, signal, sys\nprint('launching', file=sys.stderr)\nos.kill(os.getpid(), signal.SIGSEGV)\n",
    # a hang, with a child that would outlive a naive kill
    "hang_forever.py": (
        "import os, subprocess, sys, time, pathlib\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
        "pathlib.Path(os.environ['PLANT_DIR'], 'hang_child.pid').write_text(str(child.pid))\n"
        "while True:\n    time.sleep(0.1)\n"),
    # a sticky CUDA error: every later CUDA call in this process fails, the kernel dies with it
    "sticky_cuda.py": (
        "import sys\n"
        "print('RuntimeError: CUDA error: an illegal memory access was encountered', file=sys.stderr)\n"
        "print('CUDA kernel errors might be asynchronously reported at some other API call', file=sys.stderr)\n"
        "raise SystemExit(1)\n"),
    # prints a (tempting) result, then hangs in teardown like a poisoned CUDA context
    "sticky_teardown.py": (
        "import json, sys, time\n"
        "print(json.dumps({'id': 'sticky-teardown', 'verdict': 'reproduced', 'reason': 'looked fine',"
        " 'metrics': {}, 'machine_independent': True}), flush=True)\n"
        "while True:\n    time.sleep(0.1)\n"),
    # a well-behaved kernel that runs in the same triage, after the others
    "good_one.py": (
        "import json\n"
        "print(json.dumps({'id': 'good-one', 'verdict': 'reproduced', 'reason': 'mechanism shown',"
        " 'metrics': {'rel_err': 0.5}, 'mode': 'cpu-emulation', 'machine_independent': True}))\n"),
}
BAD = ["crash-segv", "hang-forever", "sticky-cuda", "sticky-teardown"]
TIMEOUT = 3


@pytest.fixture
def planted(tmp_path, monkeypatch):
    kdir = tmp_path / "kernels"
    kdir.mkdir()
    for name, code in KERNELS.items():
        (kdir / name).write_text(code)
    sigs = tmp_path / "sigs"
    sigs.mkdir()
    (sigs / "planted-bad-repros.toml").write_text(SIG.format(
        id="planted-bad-repros", repros=", ".join(f'"{r}"' for r in BAD), anchor="Frobnication went wrong"))
    (sigs / "planted-good-repro.toml").write_text(SIG.format(
        id="planted-good-repro", repros='"good-one", "crash-segv"', anchor="Gizmo overflowed"))
    log = tmp_path / "server.log"
    log.write_text(EXAMPLE + "RuntimeError: Frobnication went wrong\nValueError: Gizmo overflowed\n")
    # scan --confirm runs the kernels of the bundled folder: point it at the planted one. The planted
    # kernels need no torch, so the runner's torch check is bypassed too.
    monkeypatch.setattr(R, "kernel_dir", lambda: kdir)
    monkeypatch.setattr(R, "torch_available", lambda python=None: True)
    monkeypatch.setenv("PLANT_DIR", str(kdir))
    return sigs, log, kdir


def confirm_scan(sigs: Path, log: Path, fmt: str = "json"):
    t0 = time.perf_counter()
    res = CliRunner().invoke(cli, ["scan", "--signatures", str(sigs), "--confirm", "--device", "cpu",
                                   "--repro-timeout", str(TIMEOUT), "--format", fmt, "-v", str(log)])
    return res, time.perf_counter() - t0


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def test_misbehaving_repros_give_error_or_timeout_and_the_triage_completes(planted):
    sigs, log, kdir = planted
    res, took = confirm_scan(sigs, log)
    assert res.exit_code == 3, res.output
    assert "Traceback" not in res.output
    doc = json.loads(res.stdout)
    by_id = {f["id"]: f for f in doc["findings"]}
    # every finding of the log is still there, with or without working repros
    assert {"planted-bad-repros", "planted-good-repro", "deepgemm-unknown-sf-transformation"} <= set(by_id)

    bad = {r["id"]: r for r in by_id["planted-bad-repros"]["repro_results"]}
    assert set(bad) == set(BAD)
    assert bad["crash-segv"]["verdict"] == "error" and "SIGSEGV" in bad["crash-segv"]["reason"]
    assert bad["hang-forever"]["verdict"] == "timeout" and f"{TIMEOUT} s" in bad["hang-forever"]["reason"]
    assert bad["sticky-cuda"]["verdict"] == "error"
    assert "status 1" in bad["sticky-cuda"]["reason"]
    assert any("illegal memory access" in ln for ln in bad["sticky-cuda"]["stderr_tail"])
    assert bad["sticky-teardown"]["verdict"] == "timeout"  # a printed result does not count if it never exits
    for r in bad.values():
        assert r["note"] and r["command"].endswith("--device cpu --json")
    # nothing confirmed a finding whose repros all failed
    assert by_id["planted-bad-repros"]["status"] in ("likely", "possible")

    good = {r["id"]: r for r in by_id["planted-good-repro"]["repro_results"]}
    assert good["good-one"]["verdict"] == "reproduced"  # ran in the same triage as the crashes
    assert good["crash-segv"]["verdict"] == "error"  # shared repros run once, the result is reused
    assert by_id["planted-good-repro"]["status"] == "confirmed"

    # the bundled finding's repro is not in the planted folder: skipped with a reason, not an error
    dg = by_id["deepgemm-unknown-sf-transformation"]["repro_results"]
    assert dg and all(r["verdict"] == "skipped" and r["reason"] for r in dg)

    # bounded by the timeout (the hangs would run forever), with the runner's parallel jobs
    assert took < 4 * TIMEOUT + 20, took


def test_hung_kernels_and_their_children_are_killed(planted):
    sigs, log, kdir = planted
    res, _ = confirm_scan(sigs, log)
    assert res.exit_code == 3
    pid = int((kdir / "hang_child.pid").read_text())
    deadline = time.time() + 5
    while _alive(pid) and time.time() < deadline:
        time.sleep(0.1)
    assert not _alive(pid), "the hung kernel's child survived the timeout"


def test_text_report_shows_the_failed_repros_and_the_remedies(planted):
    sigs, log, _ = planted
    res, _ = confirm_scan(sigs, log, fmt="text")
    assert res.exit_code == 3, res.output
    out = res.stdout
    assert "crash-segv (confirms the cause" in out and ": error; " in out and "killed by SIGSEGV" in out
    assert "hang-forever (confirms the cause" in out and ": timeout" in out
    assert "ROOT CAUSE" in out and "Remedies" in out  # the rest of the triage is intact
    assert "exit 3" in out


def test_repro_folder_missing_entirely_still_gives_a_report(planted, monkeypatch, tmp_path):
    sigs, log, _ = planted
    monkeypatch.setattr(R, "kernel_dir", lambda: tmp_path / "no-such-folder")
    res, _ = confirm_scan(sigs, log)
    assert res.exit_code == 3, res.output
    doc = json.loads(res.stdout)
    results = [r for f in doc["findings"] for r in f["repro_results"]]
    assert results and all(r["verdict"] == "skipped" and "does not exist" in r["reason"] for r in results)
