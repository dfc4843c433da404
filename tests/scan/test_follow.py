"""Follow mode: findings reported once, promptly, across rotation and truncation; pipes; Ctrl-C."""
from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from fp8triage.catalogue.loader import load_catalogue
from fp8triage.scan.follow import Follower, tail_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "vllm-rtx5090-unknown-sf.log").read_text().splitlines(keepends=True)
SF_END = next(i for i, ln in enumerate(EXAMPLE) if "rank=1" in ln and "Unknown SF transformation" in ln) + 1
NO_KERNEL = (
    "Traceback (most recent call last):\n"
    '  File "/usr/local/lib/python3.12/dist-packages/vllm/worker.py", line 10, in init\n'
    '    torch.zeros(1, device="cuda")\n'
    "RuntimeError: CUDA error: no kernel image is available for execution on the device\n"
)
UNKNOWN = (
    "Traceback (most recent call last):\n"
    '  File "/srv/app/loader.py", line 7, in load\n'
    "    blob = parse(path)\n"
    "ValueError: weird fp8 blob 0x7f12ab at rank 3 has shape [128, 7168]\n"
)
PROMPT = 8.0  # seconds: a notice must arrive within this (the idle flush is 1 s, polling 0.1 s)


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


def _env():
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), PYTHONUNBUFFERED="1")


class Proc:
    """fp8triage scan --follow in a subprocess, its stdout lines in a queue."""

    def __init__(self, args, stdin=None):
        self.p = subprocess.Popen([sys.executable, "-m", "fp8triage", "scan", "--follow", *args],
                                  stdin=stdin or subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=_env(), text=True)
        self.q: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for ln in self.p.stdout:
            self.q.put(ln)
        self.q.put(None)

    def next(self, timeout=PROMPT):
        ln = self.q.get(timeout=timeout)
        return json.loads(ln) if ln is not None else None

    def quiet(self, seconds):
        """No notice within ``seconds``."""
        try:
            ln = self.q.get(timeout=seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"unexpected notice: {ln[:300]}")

    def consequences(self, seconds=1.0):
        """Drain the consequence notices that follow a finding; fail on anything else."""
        got = []
        while True:
            try:
                ln = self.q.get(timeout=seconds)
            except queue.Empty:
                return got
            n = json.loads(ln)
            assert n["event"] == "consequence", n
            got.append(n)

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        rest = []
        while True:
            n = self.next(timeout=30)
            if n is None:
                break
            rest.append(n)
        self.p.wait(timeout=30)
        return rest


def _append(path: Path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()


@pytest.mark.slow
def test_file_with_rotation_reports_each_finding_once_promptly(tmp_path):
    log = tmp_path / "server.log"
    log.write_text("".join(EXAMPLE[:5]))
    db = tmp_path / "h.db"
    proc = Proc([str(log), "--format", "json", "--db", str(db)])
    try:
        proc.quiet(0.5)
        # the DeepGEMM assertion on two workers; the log then goes quiet (the crash): reported after the idle flush
        t0 = time.monotonic()
        _append(log, "".join(EXAMPLE[5:SF_END]))
        n = proc.next()
        assert n["event"] == "finding" and n["finding"]["id"] == "deepgemm-unknown-sf-transformation"
        assert time.monotonic() - t0 < PROMPT
        assert n["finding"]["evidence"][0]["source"] == str(log)
        # "WorkerProc failed to start." came before the assertion: held, now attached to the finding
        assert [c["of"] for c in proc.consequences()] == ["deepgemm-unknown-sf-transformation"]
        # the same failure again (another restart of the server): not reported again
        _append(log, "".join(EXAMPLE[5:SF_END]))
        proc.quiet(1.8)
        # rotation: the old file moves away, a new one starts
        os.rename(log, tmp_path / "server.log.1")
        log.write_text("INFO 08-11 09:20:00 [core.py:1] restarted\n")
        n = proc.next()
        assert n["event"] == "rotated"
        t0 = time.monotonic()
        _append(log, NO_KERNEL)
        n = proc.next()
        assert n["event"] == "finding" and n["finding"]["id"] == "no-kernel-image-for-arch"
        assert time.monotonic() - t0 < PROMPT
        _append(log, "INFO 08-11 09:20:05 [core.py:1] still here\n" + UNKNOWN)
        n = proc.next()
        assert n["event"] == "unknown" and n["unknown"]["headline"].startswith("ValueError: weird fp8 blob")
        _append(log, NO_KERNEL + UNKNOWN)
        proc.quiet(1.8)
        rest = proc.stop()
    finally:
        if proc.p.poll() is None:
            proc.p.kill()
    assert [r["event"] for r in rest] == ["summary"]
    s = rest[0]
    assert s["interrupted"] is True and s["exit_code"] == 3
    assert sorted(f["id"] for f in s["findings"]) == ["deepgemm-unknown-sf-transformation", "no-kernel-image-for-arch"]
    assert proc.p.returncode == 3
    from fp8triage.store import history

    assert history.query(db)["runs"]["total"] == 1


def test_truncation_starts_over(tmp_path, cat):
    log = tmp_path / "t.log"
    log.write_text("line one\nline two\n")
    got = []
    stop = threading.Event()
    it = tail_file(str(log), poll=0.02, stop=stop.is_set)
    deadline = time.monotonic() + 5
    for item in it:
        if isinstance(item, list):
            got.extend(item)
        elif item is not None:
            got.append(item)
        if len(got) == 2 and item is None:
            log.write_text("new\n")  # shorter than before
        if b"new" in got:
            break
        assert time.monotonic() < deadline
    stop.set()
    assert got == [b"line one", b"line two", ("truncated", f"{log} got shorter (truncated); reading it from the start"), b"new"]


@pytest.mark.slow
def test_pipe_reports_before_input_ends(tmp_path):
    proc = Proc(["-", "--format", "json", "--no-history"], stdin=subprocess.PIPE)
    try:
        t0 = time.monotonic()
        proc.p.stdin.write("".join(EXAMPLE[:SF_END]))
        proc.p.stdin.flush()
        n = proc.next()
        assert n["event"] == "finding" and n["finding"]["id"] == "deepgemm-unknown-sf-transformation"
        assert time.monotonic() - t0 < PROMPT
        proc.p.stdin.write("".join(EXAMPLE[SF_END:]))
        proc.p.stdin.close()  # end of input: the rest, then the summary
        rest = []
        while (n := proc.next(timeout=30)) is not None:
            rest.append(n)
        proc.p.wait(timeout=30)
    finally:
        if proc.p.poll() is None:
            proc.p.kill()
    assert {r["event"] for r in rest[:-1]} == {"consequence"}
    assert all(r["of"] == "deepgemm-unknown-sf-transformation" for r in rest[:-1])
    assert rest[-1]["event"] == "summary" and rest[-1]["interrupted"] is False and rest[-1]["exit_code"] == 3
    assert proc.p.returncode == 3


def test_text_output_and_unknown_only_exit(tmp_path):
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--follow", "-", "--no-history"], input=UNKNOWN + "INFO ok\n",
                       capture_output=True, text=True, env=_env(), timeout=60)
    assert p.returncode == 4, p.stderr
    assert "UNKNOWN ERROR" in p.stdout and "exit 4" in p.stdout.splitlines()[-1]


def test_follower_idle_flush_and_once(cat):
    clock = [0.0]
    fl = Follower(cat, "x.log", idle=1.0, clock=lambda: clock[0])
    out = []
    for ln in NO_KERNEL.splitlines():
        out += fl.feed(ln.encode())
    assert out == []  # the traceback's worker has not moved on yet
    clock[0] = 0.5
    assert fl.tick() == []
    clock[0] = 1.5
    out = fl.tick()
    assert [n.event for n in out] == ["finding"] and out[0].finding.id == "no-kernel-image-for-arch"
    for ln in NO_KERNEL.splitlines():
        out = fl.feed(ln.encode())
    clock[0] = 5.0
    assert fl.tick() == [] and fl.finish() == []
    res = fl.result()
    assert res.findings[0].count == 2 and res.meta["mode"] == "follow"


def test_cascade_before_root_cause_is_held_then_attached(cat):
    clock = [0.0]
    fl = Follower(cat, "x.log", idle=1.0, hold=2.0, clock=lambda: clock[0])
    out = []
    for ln in EXAMPLE[:SF_END]:
        out += fl.feed(ln.rstrip("\n").encode())
    clock[0] = 1.5
    out += fl.tick()
    events = [(n.event, n.of) for n in out]
    assert events[0] == ("finding", None)
    assert ("consequence", "deepgemm-unknown-sf-transformation") in events  # "WorkerProc failed to start." came first
    assert all(e != "unknown" for e, _ in events)


def test_follow_rejects_several_inputs(tmp_path):
    a = tmp_path / "a.log"
    a.write_text("x\n")
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--follow", str(a), str(a)], capture_output=True,
                       text=True, env=_env(), timeout=60)
    assert p.returncode == 2 and "exactly one file" in p.stderr


def test_text_stream_says_when_it_clips_a_long_line():
    long = "RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation " + "x" * 5000 + "\n"
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--follow", "-", "--no-history"], input=long,
                       capture_output=True, text=True, timeout=60)
    assert "ROOT CAUSE deepgemm-unknown-sf-transformation" in p.stdout
    assert "[line clipped: 5,083 characters]" in p.stdout  # the line, less its newline and trailing space
    assert max(len(x) for x in p.stdout.splitlines()) < 400
