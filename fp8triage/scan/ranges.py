"""Reading where two byte ranges of one file meet (a parallel scan, ``drivers/parallel.py``):
the environment dump open at a range's end read to its end, and the open events of the range
before settled by their workers' first lines in the next range. The bytes are read as
``ingest.read_spans`` reads them, in spans (no mmap: page-cache pages would count as this
process's memory)."""
from __future__ import annotations

import copy

from ..common.source import Source
from .events import Assembler
from .ingest import read_spans
from .normalise import LineFormat, normalise
from .selector import next_line_of


def overrun(feed, src: Source, b: int, lineno: int) -> None:
    """Read the environment dump that is open at ``b`` to its end (its lines are this range's)."""
    for buf, s, e in read_spans(src, start=b):
        pos = s
        while pos < e:
            nl = buf.find(b"\n", pos, e)
            stop = e if nl < 0 else nl
            if not feed.feed_dump_only(buf[pos:stop], lineno):
                return
            pos = stop + 1
            lineno += 1


def pass_through(prev: dict, state: dict, src: Source, fmt: LineFormat, a: int, b: int,
                  offset: int) -> tuple[dict, list] | None:
    """Compare the open events where two ranges meet (line numbers: the file's; the range
    starts at line ``offset`` + 1). The same: ({}, []). Where the range before holds events
    the warm-up did not rebuild (their workers were quiet during it), each such event of
    worker W is settled by W's first line in the range: no such line, the event passes
    through the range unchanged (returned in the first dict); a line that does not continue
    it, the event ends there (returned in the list as (line number, builder), to be completed
    between the range's events as the sequential scan completes it); a line that continues
    it, or anything else: None (the parent scans the range again)."""
    _builders, dump = prev["end_sig"]
    prev_off = offset - prev["lines"]
    before = {(str(w), bld.lines[0].lineno, len(bld.lines), bld.dropped, bld.state, bld.kind.value)
              for w, bld in prev["handover"]["builders"].items() if bld.lines}
    sb, sdump = state["start_sig"]
    after = {(w, ln + offset, n, d, st, k) for w, ln, n, d, st, k in sb}
    if ((dump[0] + prev_off, dump[1]) if dump else None) != ((sdump[0] + offset, sdump[1]) if sdump else None):
        return None
    if before == after:
        return {}, []
    if not after <= before:
        return None
    missing = {e[0] for e in before - after}
    held = {str(w): (w, bld) for w, bld in prev["handover"]["builders"].items()}
    if not missing <= set(held) or len(missing) != len(before - after):
        return None
    carried: dict = {}
    late: list = []
    for name in sorted(missing):
        w, bld = held[name]
        expiry = bld.expiry  # it ends there at the latest
        found = first_line_of(src, fmt, w, a, b, offset, state["workers_fed"].get(w))
        if found is None or found.lineno >= expiry:
            if expiry <= offset + state["lines"]:
                late.append((expiry, 0, w, bld))  # it expires in this range
            else:
                carried[w] = bld
            continue
        probe = copy.deepcopy(bld)
        if Assembler(lambda _ev: None).continues(probe, found):
            return None  # the event goes on in this range: only a full re-scan is exact
        late.append((found.lineno, 1, w, bld))
    # in line order; at one line, expiry comes before the line is read
    late.sort(key=lambda x: (x[0], x[1]))
    return carried, [(ln, w, bld) for ln, _k, w, bld in late]


def first_line_of(src: Source, fmt: LineFormat, w, a: int, b: int, offset: int, first_fed: int | None):
    """Worker ``w``'s first line in bytes [a, b) (its line numbers start at ``offset`` + 1),
    normalised; None if it has none. That is the first line the selector would look at for an
    open event of ``w`` (``next_line_of``) whose worker is ``w``, or the first line of ``w`` the
    range's own worker fed (``first_fed``, counted from the range start), whichever is first."""
    tokens: dict = {}
    limit = offset + first_fed if first_fed is not None else None
    lineno = offset + 1
    for buf, s, e in read_spans(src, start=a, stop=b):
        pos = s
        while pos < e:
            c = next_line_of(buf, w, pos, e, tokens, fmt.jsonl)
            here = lineno + buf.count(b"\n", pos, c)
            if limit is not None and here >= limit:
                c, here = nth_line(buf, pos, e, limit - lineno), limit
            if c >= e:
                lineno += buf.count(b"\n", pos, e)
                break
            nl = buf.find(b"\n", c, e)
            line = normalise(buf[c:e if nl < 0 else nl], src.name, here, fmt)
            if line.worker == w or here == limit:
                return line
            pos, lineno = (e if nl < 0 else nl + 1), here + 1
    return None


def nth_line(buf: bytes, pos: int, end: int, n: int) -> int:
    """Offset of the line ``n`` lines after the one at ``pos`` (``end`` if past it)."""
    while n > 0:
        nl = buf.find(b"\n", pos, end)
        if nl < 0:
            return end
        pos, n = nl + 1, n - 1
    return pos
