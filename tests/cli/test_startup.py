"""Start-up stays light (issue 8): no heavy import on `fp8triage --help` or on a small scan.

The benchmark (bench/run.py) is the performance measure; here a subprocess only checks which
modules got imported, and that start-up is not grossly slow (a generous bound, so a busy CI
machine does not make the test flaky).
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# jsonschema is not listed: the catalogue validates signature files with it the first time it
# sees them (a fresh HOME here) and skips it once they are known to be valid.
HEAVY = ("torch", "numpy", "jinja2", "sqlite_utils", "triton", "pandas", "requests")

PROBE = r"""
import json, sys
from fp8triage.cli import cli
try:
    cli.main(sys.argv[1:], prog_name="fp8triage")
except SystemExit:
    pass
sys.stdout.flush()
print("\n@@MODULES@@" + json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _modules_after(args: list[str], tmp_path: Path) -> set[str]:
    r = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, cwd=tmp_path,
                       env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(tmp_path), "NO_COLOR": "1"},
                       timeout=120)
    tail = r.stderr.rsplit("@@MODULES@@", 1)
    assert len(tail) == 2, r.stderr
    return set(json.loads(tail[1]))


def _heavy(mods: set[str]) -> list[str]:
    return sorted(m for m in mods if m.split(".")[0] in HEAVY)


def _small_log(tmp_path: Path) -> Path:
    log = tmp_path / "small.log"
    lines = [f"(APIServer pid=1) INFO 08-11 09:14:{i % 60:02d} [loggers.py:123] Engine 000: Avg prompt throughput: "
             f"{i}.0 tokens/s, GPU KV cache usage: 1.{i}%" for i in range(97)]
    lines += ["Traceback (most recent call last):", '  File "x.py", line 1, in <module>',
              "RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation"]
    log.write_text("\n".join(lines) + "\n")
    return log


def test_help_imports_nothing_heavy(tmp_path):
    mods = _modules_after(["--help"], tmp_path)
    assert not _heavy(mods)
    assert "fp8triage.scan.scanner" not in mods and "hyperscan" not in mods and "regex" not in mods


def test_small_scan_imports_nothing_heavy(tmp_path):
    log = _small_log(tmp_path)
    mods = _modules_after(["scan", str(log), "--no-history", "--format", "json"], tmp_path)
    assert "fp8triage.scan.scanner" in mods
    assert not _heavy(mods), _heavy(mods)
    assert "hyperscan" not in mods  # a small input is searched with `re`; Hyperscan is loaded only for bigger ones


@pytest.mark.slow
def test_startup_is_not_grossly_slow(tmp_path):
    """Generous bounds (the targets, 0.2 s for a small scan and 0.1 s for --help, are measured by
    bench/run.py --startup-only on a quiet machine)."""
    log = _small_log(tmp_path)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(tmp_path)}
    for args in (["--help"], ["scan", str(log), "--no-history"]):
        best = min(_wall([sys.executable, "-m", "fp8triage", *args], env) for _ in range(3))
        assert best < 3.0, (args, best)


def _wall(cmd, env) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, capture_output=True, env=env, timeout=120)
    return time.perf_counter() - t
