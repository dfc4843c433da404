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
from fp8triage.drivers.follow import Follower, tail_file

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
BOUND = 120.0  # seconds: a bound for a broken run (a notice that never comes), not a measurement


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


def _env():
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), PYTHONUNBUFFERED="1")


class Proc:
    """fp8triage scan --follow in a subprocess, its stdout lines in a queue."""

    def __init__(self, args, stdin=None, ignore_sigint=False):
        # (``ignore_sigint``: launched the way a background job or a test runner's worker may be, SIGINT ignored)
        pre = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if ignore_sigint else None
        self.p = subprocess.Popen([sys.executable, "-m", "fp8triage", "scan", "--follow", *args],
                                  stdin=stdin or subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  env=_env(), text=True, preexec_fn=pre)
        self.q: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for ln in self.p.stdout:
            self.q.put(ln)
        self.q.put(None)

    def next(self, timeout=BOUND):
        ln = self.q.get(timeout=timeout)
        return json.loads(ln) if ln is not None else None

    def stop(self):
        self.p.send_signal(signal.SIGINT)
        rest = []
        while True:
            n = self.next()
            if n is None:
                break
            rest.append(n)
        self.p.wait(timeout=BOUND)
        return rest


def _append(path: Path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()


class Clock:
    """The follower's clock, moved by the test: a "pause" is the clock moving with no data."""

    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


class Tail:
    """``tail_file`` driven step by step (no polling sleeps): ``pump`` reads what the file holds
    now (until the line source reports nothing new) into the follower; ``pause`` is the writer
    going quiet (the clock moves, the follower ticks)."""

    def __init__(self, cat, path: Path):
        self.clock = Clock()
        self.fl = Follower(cat, str(path), clock=self.clock)
        self.src = tail_file(str(path), poll=0)

    def pump(self) -> list:
        out = []
        for item in self.src:
            if item is None:
                return out
            if isinstance(item, tuple):
                out += self.fl.restart(item[1], item[0])
            else:
                out += self.fl.feed_lines(item)
        return out

    def pause(self) -> list:
        self.clock.t += 30.0
        return self.fl.tick()


def _what(notices) -> list:
    return [(n.event, n.finding.id if n.finding else (n.unknown.headline[:40] if n.unknown else None))
            for n in notices if n.event != "consequence"]


def test_file_with_rotation_reports_each_finding_once(tmp_path, cat):
    """A growing file, its writer pausing, then rotated: each finding reported once, as soon as
    the input pauses after it; driven step by step, so nothing depends on timing."""
    log = tmp_path / "server.log"
    log.write_text("".join(EXAMPLE[:5]))
    t = Tail(cat, log)
    assert t.pump() == [] and t.pause() == []
    # the DeepGEMM assertion on two workers; then the log goes quiet (the crash): reported at the pause
    _append(log, "".join(EXAMPLE[5:SF_END]))
    got = t.pump() + t.pause()
    assert _what(got) == [("finding", "deepgemm-unknown-sf-transformation")]
    f = got[-1].finding
    assert f.evidence[0].source == str(log)
    # the same failure again (another restart of the server): not reported again
    _append(log, "".join(EXAMPLE[5:SF_END]))
    assert _what(t.pump() + t.pause()) == []
    # rotation: the old file moves away, a new one starts
    os.rename(log, tmp_path / "server.log.1")
    # (50 lines: the line format is chosen from the first 50 lines, as the batch scan does)
    log.write_text("INFO 08-11 09:20:00 [core.py:1] restarted\n" * 50)
    got = t.pump()
    assert "rotated" in [n.event for n in got]
    # "WorkerProc failed to start." came before the assertion: attached to the finding, never unknown
    assert [n.of for n in t.fl.notices if n.event == "consequence"][:1] == ["deepgemm-unknown-sf-transformation"]
    _append(log, NO_KERNEL)
    assert _what(t.pump() + t.pause()) == [("finding", "no-kernel-image-for-arch")]
    _append(log, "INFO 08-11 09:20:05 [core.py:1] still here\n" + UNKNOWN)
    assert _what(t.pump() + t.pause()) == []  # an unknown error is reported when its event is complete
    _append(log, NO_KERNEL + UNKNOWN)
    # an unknown group is shown as its first occurrence was written (the mask is for its fingerprint)
    assert _what(t.pump() + t.pause()) == [("unknown", "ValueError: weird fp8 blob 0x7f12ab at r")]
    t.fl.finish()
    assert [n.event for n in t.fl.notices].count("finding") == 2
    assert [n.event for n in t.fl.notices].count("unknown") == 1
    res = t.fl.result()
    assert sorted(f.id for f in res.findings) == ["deepgemm-unknown-sf-transformation", "no-kernel-image-for-arch"]
    assert len(res.unknown) == 1


@pytest.mark.slow
def test_file_through_the_cli_with_rotation(tmp_path):
    """The same through `scan --follow FILE` in a process: waits only for the notices it expects
    (a bound for a broken run, not a measurement)."""
    log = tmp_path / "server.log"
    log.write_text("".join(EXAMPLE[:5]))
    db = tmp_path / "h.db"
    proc = Proc([str(log), "--format", "json", "--db", str(db)])
    try:
        _append(log, "".join(EXAMPLE[5:SF_END]))
        n = proc.next(timeout=120)
        assert n["event"] == "finding" and n["finding"]["id"] == "deepgemm-unknown-sf-transformation"
        os.rename(log, tmp_path / "server.log.1")
        log.write_text("INFO 08-11 09:20:00 [core.py:1] restarted\n")
        while (n := proc.next(timeout=120))["event"] == "consequence":
            pass
        assert n["event"] == "rotated"
        _append(log, NO_KERNEL)
        n = proc.next(timeout=120)
        assert n["event"] == "finding" and n["finding"]["id"] == "no-kernel-image-for-arch"
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


# -- pauses change nothing (issue 24, item 10) -----------------------------------------------------

def _batch(cat, data: bytes):
    from fp8triage.drivers.batch import scan_text

    r = scan_text(data, catalogue=cat)
    return sorted(f.id for f in r.findings), sorted(u.fingerprint for u in r.unknown)


def _paused_run(cat, lines: list[bytes], pauses: set[int], blocks: bool):
    """Follow ``lines`` with the writer pausing (the clock moving 30 s, a tick) before each line
    index in ``pauses``; returns (printed findings, printed unknowns, summary findings, summary unknowns)."""
    clock = Clock()
    fl = Follower(cat, "x.log", clock=clock)
    start = 0
    for cut in sorted(pauses) + [len(lines)]:
        chunk = lines[start:cut]
        if blocks:
            fl.feed_lines(chunk)
        else:
            for raw in chunk:
                fl.feed(raw)
        clock.t += 30.0
        fl.tick()
        start = cut
    fl.finish()
    res = fl.result()
    printed_f = sorted(n.finding.id for n in fl.notices if n.event == "finding")
    printed_u = sorted(n.unknown.fingerprint for n in fl.notices if n.event == "unknown")
    return printed_f, printed_u, sorted(f.id for f in res.findings), sorted(u.fingerprint for u in res.unknown)


PAUSED_TB = (
    "INFO 12-01 10:00:00 [api_server.py:1] Started server process\n"
    + UNKNOWN
    + "INFO 12-01 10:00:01 [core.py:1] shutting down\n"
    + NO_KERNEL
)


@pytest.mark.parametrize("text", ["example", "tracebacks"])
@pytest.mark.parametrize("blocks", [False, True])
def test_a_pause_anywhere_changes_nothing(cat, text, blocks):
    """A writer that pauses (seconds, minutes) after any line, inside a traceback too: follow
    prints exactly the findings and unknown errors of the batch scan of the same bytes, and its
    closing summary is what it printed."""
    data = "".join(EXAMPLE).encode() if text == "example" else PAUSED_TB.encode()
    lines = data.rstrip(b"\n").split(b"\n")
    want_f, want_u = _batch(cat, data)
    assert want_f
    for cut in range(1, len(lines)):
        pf, pu, sf, su = _paused_run(cat, lines, {cut}, blocks)
        assert (pf, pu) == (want_f, want_u), f"pause before line {cut + 1}"
        assert (sf, su) == (want_f, want_u), f"pause before line {cut + 1}: the summary"


def test_pauses_inside_every_traceback_line(cat):
    """A pause after every single line (a slow writer): still the batch result."""
    data = PAUSED_TB.encode()
    lines = data.rstrip(b"\n").split(b"\n")
    assert _paused_run(cat, lines, set(range(1, len(lines))), False)[:2] == _batch(cat, data)


@pytest.mark.slow
def test_pipe_paused_inside_a_traceback_prints_no_unknown_the_batch_scan_lacks(tmp_path):
    """`kubectl logs -f | fp8triage scan --follow -`, the writer pausing half-way through a
    traceback. The pause is proved by a notice, not timed: rank 0's complete assertion is
    reported at the pause while rank 1's traceback is still half written (the old follower
    closed that half at the same tick and printed it as an unknown error)."""
    r0 = "(VllmWorker rank=0 pid=11) "
    r1 = "(VllmWorker rank=1 pid=12) "
    part1 = (r1 + "Traceback (most recent call last):\n"
             + r1 + '  File "/srv/app/loader.py", line 7, in load\n'
             + r1 + "    blob = parse(path)\n"
             + "".join(r0 + ln + "\n" for ln in NO_KERNEL.splitlines()))
    part2 = (r1 + '  File "/srv/app/parse.py", line 3, in parse\n'
             + r1 + "    raise ValueError(path)\n"
             + r1 + "ValueError: weird fp8 blob 0x7f12ab at rank 3 has shape [128, 7168]\n"
             + "INFO 12-01 10:00:01 [core.py:1] shutting down\n")
    proc = Proc(["-", "--format", "json", "--no-history"], stdin=subprocess.PIPE)
    try:
        proc.p.stdin.write(part1)
        proc.p.stdin.flush()
        n = proc.next(timeout=120)  # the pause: reported while rank 1's traceback is open
        assert n["event"] == "finding" and n["finding"]["id"] == "no-kernel-image-for-arch"
        rest = [n]
        proc.p.stdin.write(part2)
        proc.p.stdin.close()
        while (n := proc.next(timeout=120)) is not None:
            rest.append(n)
        proc.p.wait(timeout=120)
    finally:
        if proc.p.poll() is None:
            proc.p.kill()
    # rank 1's error is one traceback, printed once, whole: not its first half as an error of its own
    # (an unknown error, or a consequence of rank 0's root cause)
    unknown = [r for r in rest if r["event"] in ("unknown", "consequence")]
    assert [u["unknown"]["headline"][:26] for u in unknown] == ["ValueError: weird fp8 blob"]
    summary = rest[-1]
    assert summary["event"] == "summary" and summary["unknown_errors"] == 1 == len(unknown)
    from fp8triage.drivers.batch import scan_text

    batch = scan_text((part1 + part2).encode())
    assert len(batch.unknown) == 1 and [f["id"] for f in summary["findings"]] == [f.id for f in batch.findings]


def test_follow_a_fifo_and_process_substitution(tmp_path):
    """`scan --follow FIFO` and `scan --follow <(cmd)`: read as streams until their end (no
    "not seekable" traceback)."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, "-m", "fp8triage", "scan", "--follow", str(fifo), "--no-history"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    with open(fifo, "w") as w:  # blocks until the follower opens it
        w.write("".join(EXAMPLE))
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 3, err
    assert "Traceback" not in err and "ROOT CAUSE deepgemm-unknown-sf-transformation" in out
    assert "end of input" in out.splitlines()[-1]
    ex = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"
    p = subprocess.run(["bash", "-c", f'"{sys.executable}" -m fp8triage scan --follow --no-history <(cat "{ex}")'],
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode == 3 and "Traceback" not in p.stderr, p.stderr
    assert "ROOT CAUSE deepgemm-unknown-sf-transformation" in p.stdout


def test_follow_skips_binary_input_as_the_batch_scan_does(tmp_path):
    """`scan --follow /bin/ls`: one warning, no unknown errors made of replacement characters,
    and it ends (exit 5: nothing could be read) instead of following an executable."""
    elf = tmp_path / "ls"
    elf.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 400 + b"\nError: \xff\xfe boom\n" * 80)
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--follow", str(elf), "--no-history"],
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode == 5, p.stdout + p.stderr
    assert "an ELF executable or library, not a text log; skipped" in p.stderr
    assert "UNKNOWN ERROR" not in p.stdout and "\ufffd" not in p.stdout and "Traceback" not in p.stderr


def test_follow_reads_a_nul_padded_log(cat):
    """copytruncate's NUL padding in front of the text: follow finds the crash as the batch scan does."""
    data = b"\x00" * 100_000 + "".join(EXAMPLE).encode()
    fl = Follower(cat, "x.log", clock=Clock())
    lines = data.split(b"\n")
    for i in range(0, len(lines), 7):
        fl.feed_lines(lines[i:i + 7])
    fl.finish()
    assert [f.id for f in fl.result().findings] == _batch(cat, data)[0]


def test_truncation_starts_over(tmp_path, cat):
    log = tmp_path / "t.log"
    log.write_text("line one\nline two\n")
    got = []
    stop = threading.Event()
    it = tail_file(str(log), poll=0, stop=stop.is_set)
    deadline = time.monotonic() + BOUND
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
        proc.p.stdin.write("".join(EXAMPLE[:SF_END]))
        proc.p.stdin.flush()
        n = proc.next()  # before the input ends: the pipe is still open
        assert n["event"] == "finding" and n["finding"]["id"] == "deepgemm-unknown-sf-transformation"
        proc.p.stdin.write("".join(EXAMPLE[SF_END:]))
        proc.p.stdin.close()  # end of input: the rest, then the summary
        rest = []
        while (n := proc.next()) is not None:
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


def test_follower_reports_at_a_pause_and_once(cat):
    clock = Clock()
    fl = Follower(cat, "x.log", idle=1.0, clock=clock)
    out = []
    for ln in NO_KERNEL.splitlines():
        out += fl.feed(ln.encode())
    assert out == []  # the traceback's worker has not moved on yet
    clock.t = 0.5
    assert fl.tick() == []  # not quiet for ``idle`` yet
    clock.t = 1.5
    out = fl.tick()
    assert [n.event for n in out] == ["finding"] and out[0].finding.id == "no-kernel-image-for-arch"
    for ln in NO_KERNEL.splitlines():
        out = fl.feed(ln.encode())
    clock.t = 5.0
    assert fl.tick() == [] and fl.finish() == []
    res = fl.result()
    assert res.findings[0].count == 2 and res.meta["mode"] == "follow"


def test_cascade_before_root_cause_is_held_then_attached(cat):
    clock = Clock()
    fl = Follower(cat, "x.log", idle=1.0, hold=2.0, clock=clock)
    out = []
    for ln in EXAMPLE[:SF_END]:
        out += fl.feed(ln.rstrip("\n").encode())
    clock.t = 1.5
    out += fl.tick()
    assert [(n.event, n.of) for n in out][0] == ("finding", None)
    out += fl.finish()
    events = [(n.event, n.of) for n in out]
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


def test_follow_of_an_empty_pipe_is_no_clean_bill_of_health():
    """`kubectl logs -f` of a pod that never started: end of input with nothing in it is exit 5, said why."""
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--follow", "-", "--no-history"], input="",
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode == 5, p.stdout + p.stderr
    assert "<stdin>: empty" in p.stderr and "exit 5" in p.stdout.splitlines()[-1]


NAN_AFTER_DEEPGEMM = """INFO 11-02 09:14:55 [fp8.py:398] Using DeepGEMM for block FP8 linear layers.
Traceback (most recent call last):
  File "/home/ubuntu/gen.py", line 19, in <module>
    out = model.generate(**enc, do_sample=True, max_new_tokens=256)
RuntimeError: probability tensor contains either `inf`, `nan` or element < 0
INFO 11-02 09:15:01 [api_server.py:1] shutting down
"""


def test_follow_reads_a_symptom_with_the_library_named_before_it_as_the_batch_scan_does(cat):
    # the NaN names no library; the log named DeepGEMM before it: a finding, not an unknown error
    from fp8triage.drivers.batch import scan_text

    fl = Follower(cat, "x.log", idle=1.0, clock=Clock())
    out = []
    for ln in NAN_AFTER_DEEPGEMM.splitlines():
        out += fl.feed(ln.encode())
    out += fl.finish()
    batch = scan_text(NAN_AFTER_DEEPGEMM, source="x.log", catalogue=cat)
    assert [f.id for f in batch.findings] == ["ue8m0-silent-corruption"] and not batch.unknown
    assert [(n.event, n.finding.id if n.finding else None) for n in out] == [("finding", "ue8m0-silent-corruption")]


@pytest.mark.slow
def test_ctrl_c_stops_following_where_the_launcher_ignored_sigint(tmp_path):
    """A process that inherits SIGINT ignored (a background job of a non-interactive shell, a test runner's worker)
    still stops on Ctrl-C with its summary."""
    log = tmp_path / "server.log"
    log.write_text("".join(EXAMPLE[:SF_END]))
    proc = Proc([str(log), "--format", "json", "--no-history"], ignore_sigint=True)
    try:
        n = proc.next(timeout=120)
        assert n["event"] == "finding"
        rest = proc.stop()
    finally:
        if proc.p.poll() is None:
            proc.p.kill()
    assert rest and rest[-1]["event"] == "summary"
