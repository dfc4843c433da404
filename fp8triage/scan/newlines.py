"""Counting newlines in large byte ranges: the numbers of the lines the selector jumps to.

Every byte of a scanned file is counted once for line numbers (``selector.LineIndex``). ``bytes.count``
reads 2-3 GB/s for one byte; NumPy's vectorised compare reads 5-7 GB/s, so where NumPy is installed
a range of ``MIN`` bytes or more is counted with it. NumPy is imported only for a big file
(``prepare``, before the workers of a parallel scan fork, so that they share it): a short log does
not pay its import. Both give the same counts.
"""
from __future__ import annotations

MIN = 64 * 1024  # shorter ranges: bytes.count (a NumPy call costs a few microseconds)
PREPARE_MIN = 32 * 1024 * 1024  # a source this big imports NumPy (about 70 ms) before it is read
BLOCK = 8192  # the checkpoints ``blocks`` gives are this many bytes apart

_np = None  # the numpy module once ``prepare`` imported it; False: not installed


def prepare() -> None:
    """Import NumPy now (a big file is about to be read; a forked worker inherits the module)."""
    global _np
    if _np is None:
        try:
            import numpy

            _np = numpy
        except Exception:  # not installed or broken: bytes.count does the work
            _np = False


def count(buf: bytes, a: int, b: int) -> int:
    """The newlines in buf[a:b]."""
    if b - a < MIN or not _np:
        return buf.count(b"\n", a, b)
    arr = _np.frombuffer(buf, dtype=_np.uint8, count=b - a, offset=a)
    return int(_np.count_nonzero(arr == 10))


def blocks(buf: bytes, a: int, b: int) -> list[int]:
    """The newlines in each ``BLOCK`` bytes of buf[a:b] (the last block may be shorter)."""
    if b - a < MIN or not _np:
        return [buf.count(b"\n", x, min(x + BLOCK, b)) for x in range(a, b, BLOCK)]
    whole = (b - a) // BLOCK * BLOCK
    arr = _np.frombuffer(buf, dtype=_np.uint8, count=whole, offset=a)
    # (a sum of the compare's bytes per row reads about three times as fast as count_nonzero along an axis)
    out = _np.add.reduce((arr == 10).view(_np.uint8).reshape(-1, BLOCK), axis=1, dtype=_np.uint16).tolist()
    if whole < b - a:
        out.append(buf.count(b"\n", a + whole, b))
    return out
