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
