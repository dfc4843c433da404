"""A progress line on stderr for long scans: bytes read, rate and time left.

Shown only when stderr is a terminal (never in pipes, files or CI) and only once a scan has
run for ``DELAY`` seconds, so short scans print nothing. ``Scanner`` calls the object with the
bytes read so far from the current source; a smaller number than last time means the next
source has started.
"""
from __future__ import annotations

import os
import sys
import time
from typing import TextIO

DELAY = 0.5  # seconds before the bar appears
EVERY = 0.1  # seconds between redraws
WIDTH = 24


def wanted(stream: TextIO | None = None) -> bool:
    stream = stream or sys.stderr
    if os.environ.get("CI") or os.environ.get("TERM") == "dumb" or os.environ.get("FP8TRIAGE_NO_PROGRESS"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def total_size(args) -> int | None:
    """Bytes on disk of the given files, or None when unknown (stdin, directories, gzip)."""
    total = 0
    for a in args:
        if a == "-" or str(a).endswith(".gz") or not os.path.isfile(a):
            return None
        total += os.path.getsize(a)
    return total


def human(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"


class Progress:
    def __init__(self, total: int | None = None, stream: TextIO | None = None, clock=time.monotonic):
        self.total = total
        self.stream = stream or sys.stderr
        self.clock = clock
        self.started = clock()
        self.done = 0  # bytes of finished sources
        self.current = 0  # bytes read from the current source
        self.last_draw = 0.0
        self.drawn = False

    @property
    def bytes(self) -> int:
        return self.done + self.current

    def __call__(self, bytes_read: int) -> None:
        if bytes_read < self.current:  # a new source
            self.done += self.current
        self.current = bytes_read
        now = self.clock()
        if now - self.started < DELAY or now - self.last_draw < EVERY:
            return
        self.last_draw = now
        self.stream.write("\r" + self.line(now) + "\x1b[K")
        self.stream.flush()
        self.drawn = True

    def line(self, now: float | None = None) -> str:
        now = self.clock() if now is None else now
        elapsed = max(now - self.started, 1e-6)
        rate = self.bytes / elapsed
        text = f"scanning {human(self.bytes)}"
        if self.total:
            frac = min(self.bytes / self.total, 1.0)
            fill = int(frac * WIDTH)
            left = (self.total - self.bytes) / rate if rate > 0 else 0
            text = (f"scanning [{'#' * fill}{'.' * (WIDTH - fill)}] {frac * 100:3.0f}%  "
                    f"{human(self.bytes)} / {human(self.total)}  {human(rate)}/s  ETA {max(left, 0):.0f} s")
        else:
            text += f"  {human(rate)}/s"
        return text

    def close(self) -> None:
        """Erase the bar (the report follows on stdout)."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


def for_scan(args) -> Progress | None:
    """A Progress for ``fp8triage scan ARGS``, or None when it must not be shown."""
    if not wanted():
        return None
    return Progress(total_size(args))


def triage_with_progress(logs, **kw):
    """``api.triage`` with the progress bar on stderr (when wanted): `scan` and `report` alike."""
    from ..api import triage

    bar = for_scan(logs)
    try:
        return triage(list(logs), progress=bar, **kw)
    finally:
        if bar is not None:
            bar.close()
