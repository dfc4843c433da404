"""Streaming keeps memory flat (issue 8): peak RSS of a scan does not grow with the log.

A 60 MB generated log is scanned in a subprocess (its VmHWM, the peak RSS) and
compared with a scan of a 6 MB log: the difference must stay well under the input size. The
1 GB and 4 GB figures are measured by bench/run.py and recorded in docs/performance.md.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _gen():
    spec = importlib.util.spec_from_file_location("gen_log_mem", REPO / "bench" / "gen_log.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# The child reports its own high-water mark (VmHWM is reset by exec; ru_maxrss of a child
# of a big pytest process would include the parent's size at fork time).
CHILD = r"""
import sys
from fp8triage.cli import main
sys.argv = ["fp8triage"] + sys.argv[1:]
try:
    main()
except SystemExit as e:
    code = e.code
for ln in open("/proc/self/status"):
    if ln.startswith("VmHWM:"):
        sys.stderr.write("@@HWM@@%s\n" % ln.split()[1])
sys.exit(code)
"""


def _peak_rss_mb(log: Path, tmp_path: Path) -> float:
    cmd = [sys.executable, "-c", CHILD, "scan", str(log), "--format", "json", "-o", str(tmp_path / "r.json"),
           "--no-history"]
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(REPO), "HOME": str(tmp_path)}
    r = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode in (0, 3, 4), r.stderr
    return int(r.stderr.rsplit("@@HWM@@", 1)[1].split()[0]) / 1024


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs Linux /proc for VmHWM")
def test_peak_rss_flat_in_input_size(tmp_path):
    gen = _gen()
    small, big = tmp_path / "small.log", tmp_path / "big.log"
    gen.generate(small, 6 * 1024 * 1024, seed=41, style="mixed", plants=3)
    gen.generate(big, 60 * 1024 * 1024, seed=41, style="mixed", plants=3)
    rss_small = _peak_rss_mb(small, tmp_path)
    rss_big = _peak_rss_mb(big, tmp_path)
    # chunks are 8 MB (a read and at most one line carried over): 54 MB more input may cost a
    # few chunks' worth, never the input itself
    assert rss_big - rss_small < 30, (rss_small, rss_big)
    assert rss_big < 150, rss_big
