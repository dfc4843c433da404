"""Streaming keeps memory flat (issue 8): peak RSS of a scan does not grow with the log.

A 60 MB generated log is scanned in a subprocess (ru_maxrss of that child, from os.wait4) and
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

REPO = Path(__file__).resolve().parent.parent


def _gen():
    spec = importlib.util.spec_from_file_location("gen_log_mem", REPO / "bench" / "gen_log.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _peak_rss_mb(log: Path, tmp_path: Path) -> float:
    cmd = [sys.executable, "-m", "fp8triage", "scan", str(log), "--format", "json", "-o", str(tmp_path / "r.json"),
           "--no-history"]
    env = dict(os.environ, PYTHONPATH=str(REPO), HOME=str(tmp_path))
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _pid, status, ru = os.wait4(p.pid, 0)
    assert os.waitstatus_to_exitcode(status) in (0, 3, 4)
    return ru.ru_maxrss / 1024


@pytest.mark.slow
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
