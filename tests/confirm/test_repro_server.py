"""Warm repro workers kept between runs (`fp8triage repro --serve`, fp8triage/confirm/server.py): a run takes
the server's started workers and gets the results it would get on its own; no worker serves two runs; a run
whose kernels, interpreter or environment differ from the server's, or with the server switched off, starts
its own workers; only the server's user can reach it; it stops when asked or when idle."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import pytest

from fp8triage.confirm import repro as R
from fp8triage.confirm import served as C
from fp8triage.confirm import server as S

pytestmark = pytest.mark.slow  # worker processes: `make check` leaves it to `make test`

KERNEL = textwrap.dedent("""
    import json, os, sys
    rid = os.path.basename(sys.argv[0])[:-3].replace('_', '-')
    print(json.dumps({'id': rid, 'verdict': 'not-reproduced', 'reason': 'ok', 'metrics': {
        'pid': os.getpid(), 'argv': sys.argv[1:]}}))
""")


@pytest.fixture
def kernels(tmp_path):
    for name in ("a_first.py", "b_second.py"):
        (tmp_path / name).write_text(KERNEL)
    (tmp_path / "c_crash.py").write_text("GROUP = ('g', 0)\nimport os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    (tmp_path / "d_after.py").write_text("GROUP = ('g', 1)\n" + KERNEL)
    return tmp_path


@pytest.fixture
def sock(monkeypatch):
    d = Path(tempfile.mkdtemp(prefix="fp8s-"))  # short: a Unix socket's path has at most 107 bytes
    path = d / "run" / "repro.sock"
    monkeypatch.setenv("FP8TRIAGE_REPRO_SOCKET", str(path))
    yield path
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture
def served(kernels, sock):
    srv = S.Server("cpu", idle_s=60, directory=kernels, path=sock)
    srv.listen()
    srv.start_workers()
    t = threading.Thread(target=srv.serve, daemon=True)
    t.start()
    yield srv
    C.stop()
    t.join(10)
    srv.close()


def _pids(srv) -> set[int]:
    return {f.result().proc.pid for f in list(srv._ready.values()) if f.result() is not None}


def test_a_run_takes_the_started_workers_and_gets_what_it_would_get_alone(kernels, served):
    started = _pids(served)
    got = R.run_repros(["a-first", "b-second"], device="cpu", timeout=20, directory=kernels)
    assert [r["worker"]["served"] for r in got] == [True, True]
    assert {r["metrics"]["pid"] for r in got} <= started | {r["worker"]["pid"] for r in got}
    assert {r["worker"]["pid"] for r in got} <= started
    os.environ["FP8TRIAGE_REPRO_SERVER"] = "off"
    try:
        alone = R.run_repros(["a-first", "b-second"], device="cpu", timeout=20, directory=kernels)
    finally:
        del os.environ["FP8TRIAGE_REPRO_SERVER"]
    assert [r["worker"]["served"] for r in alone] == [False, False]
    keys = ("id", "verdict", "reason", "command", "isolation")
    assert [{k: r[k] for k in keys} for r in got] == [{k: r[k] for k in keys} for r in alone]
    assert [r["metrics"]["argv"] for r in got] == [r["metrics"]["argv"] for r in alone]


def test_no_worker_serves_two_runs(kernels, served):
    first = R.run_repros(["a-first"], device="cpu", timeout=20, directory=kernels)
    second = R.run_repros(["a-first"], device="cpu", timeout=20, directory=kernels)
    assert first[0]["worker"]["served"] and second[0]["worker"]["served"]
    assert first[0]["worker"]["pid"] != second[0]["worker"]["pid"]


def test_a_crash_in_a_served_lane_gets_the_next_kernel_a_worker_of_its_own(kernels, served):
    got = {r["id"]: r for r in R.run_repros(["c-crash", "d-after"], device="cpu", timeout=20, directory=kernels)}
    assert got["c-crash"]["verdict"] == "error" and "SIGSEGV" in got["c-crash"]["reason"]
    assert got["c-crash"]["worker"]["served"]
    assert got["d-after"]["verdict"] == "not-reproduced" and not got["d-after"]["worker"]["served"]


def test_other_kernel_files_or_environment_do_not_use_the_server(kernels, served, monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3")  # what the kernels would see differs
    assert not R.run_repros(["a-first"], device="cpu", timeout=20, directory=kernels)[0]["worker"]["served"]
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES")
    (kernels / "b_second.py").write_text(KERNEL + "\n# changed\n")
    assert not R.run_repros(["a-first"], device="cpu", timeout=20, directory=kernels)[0]["worker"]["served"]
    assert served.runs == 0


def test_only_its_user_can_reach_it(served, sock):
    assert stat.S_IMODE(sock.parent.stat().st_mode) == 0o700
    assert not stat.S_IMODE(sock.stat().st_mode) & 0o077
    os.chmod(sock.parent, 0o755)  # a folder others may enter: the run does not trust the socket in it
    try:
        assert not C._ours(sock)
    finally:
        os.chmod(sock.parent, 0o700)
    assert C._ours(sock)


def test_it_stops_when_idle(kernels, sock):
    srv = S.Server("cpu", idle_s=0.5, directory=kernels, path=sock)
    srv.listen()
    t0 = time.perf_counter()
    srv.serve()  # no worker started, no run: returns after half a second
    assert time.perf_counter() - t0 < 5
    srv.close()
    assert not sock.exists()


def test_a_second_server_on_the_same_socket_is_one_sentence(kernels, served, sock):
    r = subprocess.run([sys.executable, "-m", "fp8triage", "repro", "--serve", "--device", "cpu", "--kernel-dir",
                        str(kernels)], capture_output=True, text=True, timeout=60)
    assert r.returncode != 0
    assert "already listening" in r.stderr and "Traceback" not in r.stderr


def test_stop_without_a_server_says_so(sock):
    r = subprocess.run([sys.executable, "-m", "fp8triage", "repro", "--stop"], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0 and "no server is running" in r.stderr


def test_a_served_run_does_not_wait_for_lanes_that_start_no_worker(kernels, served, monkeypatch):
    """A run staggers the start of its light lanes behind the heavy ones (they import torch at once); the server's
    workers have started already, so its runs begin every lane at once."""
    (kernels / "h_heavy.py").write_text("HEAVY = True\nPRELOAD = ('json',)\n" + KERNEL)
    srv = S.Server("cpu", idle_s=60, directory=kernels, path=served.path.with_name("r2.sock"))
    monkeypatch.setenv("FP8TRIAGE_REPRO_SOCKET", str(srv.path))
    srv.listen()
    srv.start_workers()
    t = threading.Thread(target=srv.serve, daemon=True)
    t.start()
    try:
        got = {r["id"]: r for r in R.run_repros(["h-heavy", "a-first"], device="cpu", timeout=20, directory=kernels)}
    finally:
        C.stop()
        t.join(10)
        srv.close()
    assert got["a-first"]["worker"]["served"]
    assert got["a-first"]["worker"]["started_at_s"] < R.STAGGER_S


class _Accepting:
    """A listening socket whose next accept fails as a closed one does (EBADF); ``close``: the server's own
    ``close`` ran first, from another thread."""

    def __init__(self, srv, close: bool):
        self.srv, self.close = srv, close

    def settimeout(self, _t):
        pass

    def accept(self):
        if self.close:
            self.srv._sock = None
        raise OSError(9, "Bad file descriptor")


def test_a_server_closed_while_it_waits_for_a_run_stops_without_an_error(kernels, sock):
    srv = S.Server("cpu", idle_s=60, directory=kernels, path=sock)
    srv._sock = _Accepting(srv, close=True)
    srv.serve()  # returns: nothing to answer any more
    srv._sock = _Accepting(srv, close=False)
    with pytest.raises(OSError):
        srv.serve()  # a socket error of an open server is not hidden
