"""The scan progress line (fp8triage/cli/progress.py)."""
from __future__ import annotations

import io

from fp8triage.cli import progress as P


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_bar_shows_bytes_rate_and_eta():
    clock = Clock()
    out = io.StringIO()
    bar = P.Progress(total=1000 * 1024 * 1024, stream=out, clock=clock)
    bar(10 * 1024 * 1024)
    assert out.getvalue() == ""  # nothing in the first DELAY seconds
    clock.t = 2.0
    bar(500 * 1024 * 1024)
    text = out.getvalue()
    assert "50%" in text and "500.0 MB / 1000.0 MB" in text and "250.0 MB/s" in text and "ETA 2 s" in text
    bar.close()
    assert out.getvalue().endswith("\r\x1b[K")


def test_sources_add_up():
    clock = Clock()
    bar = P.Progress(total=None, stream=io.StringIO(), clock=clock)
    bar(100)
    bar(300)
    bar(50)  # the next source started
    assert bar.bytes == 350
    assert "scanning" in bar.line(1.0) and "/s" in bar.line(1.0)


def test_not_shown_in_pipes_or_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    assert not P.wanted(io.StringIO())  # not a terminal

    class Tty(io.StringIO):
        def isatty(self):
            return True

    assert P.wanted(Tty()) or P.os.environ.get("TERM") == "dumb"
    monkeypatch.setenv("CI", "true")
    assert not P.wanted(Tty())


def test_scan_prints_no_progress_when_piped(tmp_path):
    import subprocess
    import sys

    log = tmp_path / "x.log"
    log.write_text("INFO hello\n" * 1000)
    r = subprocess.run([sys.executable, "-m", "fp8triage", "scan", str(log), "--no-history"], capture_output=True,
                       text=True)
    assert "scanning" not in r.stderr


# The scan as a runbook runs it: the report piped on, stderr on the operator's terminal. DELAY and
# EVERY are set to 0 in the probe, so the bar is drawn at the scanner's first report of bytes read
# (at the end of the file's first span) instead of after half a second: the test waits for no clock.
PROBE = r"""
import sys
from fp8triage.cli import progress
progress.DELAY = progress.EVERY = 0.0
from fp8triage.cli import cli
cli.main(sys.argv[1:], prog_name="fp8triage")
"""


def _run_with_terminal(tmp_path, terminal: str) -> tuple[int, str, str]:
    """Scan a log with ``terminal`` ("stderr" or "stdout") a pseudo-terminal and the other a
    pipe; the exit code and what each stream got."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    log = tmp_path / "x.log"
    log.write_text("INFO hello\n" * 1000 + "RuntimeError: CUDA error: an illegal memory access was encountered\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "FP8TRIAGE_NO_PROGRESS")}
    env.update(TERM="xterm", PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    master, slave = os.openpty()
    pipe = subprocess.PIPE
    p = subprocess.Popen([sys.executable, "-c", PROBE, "scan", str(log), "--no-history", "--format", "json"],
                         stdout=slave if terminal == "stdout" else pipe, stderr=slave if terminal == "stderr" else pipe,
                         stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    tty = b""
    while True:  # until the child has exited and closed its end (EIO on Linux)
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        tty += chunk
    os.close(master)
    piped = (p.stdout or p.stderr).read()
    rc = p.wait(timeout=120)
    tty_text, piped_text = tty.decode(errors="replace"), piped.decode(errors="replace")
    return (rc, piped_text, tty_text) if terminal == "stderr" else (rc, tty_text, piped_text)


def test_progress_on_a_terminal_stderr_while_stdout_is_piped(tmp_path):
    import json

    rc, out, err = _run_with_terminal(tmp_path, "stderr")
    assert rc in (0, 3, 4), err
    assert "scanning" in err and "\x1b[K" in err  # the bar, then its erasure
    report = json.loads(out)  # the piped report is untouched by it
    assert report["kind"] == "scan" and "scanning" not in out


def test_no_progress_when_only_stdout_is_a_terminal(tmp_path):
    rc, out, err = _run_with_terminal(tmp_path, "stdout")
    assert rc in (0, 3, 4), err
    assert "scanning" not in err and "scanning" not in out
