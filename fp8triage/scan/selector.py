"""Line selectors: which lines of a span of bytes are decoded, and with which prefilter bits.

A selector walks ``buf[start:end]`` (whole lines) and calls ``feed.feed(raw, lineno, bits)``
(``fp8triage.scan.linefeed.LineFeed``) for the lines it selects; it returns the number of the
line after the last. Two selectors, one sink, so the equivalence test compares selectors:

* ``every_line``: every line, with ``Prefilter.classify``'s bits (the exhaustive reference,
  ``--no-prefilter``; follow mode reads one line at a time, ``Scanner.feed_line``).
* ``prefiltered``: one prefilter pass over the span (``Prefilter.hits``), then only the lines
  with a hit, plus the lines an open event or an open environment dump pulls in.

Why skipping is exact: a line without a hit changes nothing while no event and no dump is
open. It cannot start an event (only EVENT hits, traceback headers, frames and chain markers
can, and those are all hits), it cannot start a dump (DUMP hits only), and it is not read for
facts (FACT hits only). While an event is open, a line may continue or close it, so lines are
fed, except those that cannot belong to an open event's worker.

An open event does not pull every line in: the walk jumps to the next hit or to the next line
that may belong to an open event's worker (``bytes.find`` on the worker's name; for lines
without a worker prefix, the next line that starts with neither "(" nor "["), where it is
continued or closed exactly as ``every_line`` would do it; the search stops at the line where
the event expires. While an environment dump is open, every line is fed.

The selector only reads ``feed.open`` (worker -> open event) and ``feed.dump_open``; the
unit tests drive it with a recording stand-in.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Protocol

from . import newlines
from .literal import find as find_literal
from .prefilter import CUE, FACT, SCORE, STACK, WARN, Prefilter

if TYPE_CHECKING:
    from ..model import Line


class Sink(Protocol):
    """What a selector reads and calls: ``linefeed.LineFeed`` (the tests use a recording stand-in)."""

    open: dict  # worker -> its open event
    dump_open: bool
    last_fed: tuple[int, int]  # (line number, length in bytes) of the line fed last
    stack_settled: bool  # lines that only name a serving stack change nothing any more
    awaiting_tail: bool  # a provisional warning waits for the next line
    takes_next: bool  # a line without a prefix right after the line fed last may continue an open event
    table_waits: bool  # an open table of no worker waits for its caption or rows: a line of any worker closes it

    def expires_at(self, worker) -> int | None: ...
    def feed(self, raw: bytes, lineno: int, bits: int) -> Line: ...
    def feed_facts(self, raw: bytes, lineno: int, bits: int) -> None: ...

# a line with only these bits can give facts and nothing else (a failure kind's cue word starts an
# event only on a line that no logger marked informational: ``LineFeed.feed_facts`` feeds such a
# line as any other)
FACTS_ONLY = FACT | STACK | CUE | SCORE

NEAR = 32 * 1024  # an open event's next candidate line is looked for this far first
WRAP_WIDTH_MIN = 60  # terminals wrap lines at 80 columns or more: a shorter line has no wrapped tail


def every_line(pf: Prefilter, feed: Sink, buf: bytes, start: int, end: int, lineno: int) -> int:
    """Feed every line of buf[start:end] with its bits."""
    pos = start
    classify = pf.classify
    find = buf.find
    while pos < end:
        nl = find(b"\n", pos, end)
        stop = end if nl < 0 else nl
        raw = buf[pos:stop]
        feed.feed(raw, lineno, classify(raw))
        pos = stop + 1
        lineno += 1
    return lineno


def prefiltered(pf: Prefilter, feed: Sink, buf: bytes, start: int, end: int, lineno: int, *,
                jsonl: bool = False) -> int:
    """Feed the lines of buf[start:end] that can change anything. ``jsonl``: JSON-wrapped
    lines, read as wrapped tails or as a worker-less event's next line by their message only
    (``may_be_tail``, ``next_line_of``)."""
    starts, flags = pf.hits(buf, start, end)
    n = end
    find = buf.find
    pos = start  # offset of the next line not yet accounted for
    i = 0
    nstarts = len(starts)
    tokens: dict = {}
    cand: dict = {}  # worker -> offset of its next candidate line in this span
    # offset of the line after the one fed last, when that one was long or its worker's event is open:
    # its next line may be its wrapped tail or go on with its record (also across spans)
    last_no, last_len = feed.last_fed
    after_fed = start if last_no == lineno - 1 and (last_len >= WRAP_WIDTH_MIN or feed.takes_next) else -1
    index = LineIndex(buf, start, n, lineno)  # line numbers at jumps, expiry lines; each byte counted once
    while pos < n:
        open_ = feed.open
        if feed.dump_open:
            # an open environment dump takes every line until its structure ends
            bits = flags.get(pos, 0)
            if i < nstarts and starts[i] <= pos:
                i += 1
        else:
            # jump to the next hit, or to the next line that may belong to the worker of an
            # open event
            while i < nstarts and starts[i] < pos:
                i += 1
            target = starts[i] if i < nstarts else n
            if open_:
                target = _jump(feed, buf, pos, n, target, after_fed, cand, tokens, jsonl, index, lineno)
            if target >= n:
                break
            lineno = index.lineno_at(target, pos, lineno)
            pos = target
            bits = flags.get(pos, 0)
            if i < nstarts and starts[i] == pos:
                i += 1
            if bits and _unfed(feed, buf, pos, n, lineno, bits, cand, after_fed, jsonl):
                nl = find(b"\n", pos, n)
                pos = n if nl < 0 else nl + 1
                lineno += 1
                continue
        nl = find(b"\n", pos, n)
        stop = n if nl < 0 else nl
        feed.feed(buf[pos:stop], lineno, bits)
        if stop - pos >= WRAP_WIDTH_MIN or feed.takes_next:
            # a long line: the next one may be its tail, wrapped by a terminal; a line whose worker
            # has an open event: the next one may continue it without a prefix of its own
            after_fed = stop + 1
        pos = stop + 1
        lineno += 1
    if pos < n:
        lineno = index.lineno_at(n, pos, lineno)
        if not buf.endswith(b"\n", start, n):
            lineno += 1  # the source's last line has no newline
    return lineno


def _jump(feed: Sink, buf: bytes, pos: int, n: int, target: int, after_fed: int, cand: dict, tokens: dict,
          jsonl: bool, index: LineIndex, lineno: int) -> int:
    """Where the walk goes from ``pos`` (line ``lineno``) while events are open, when the next hit
    is at ``target``: sooner, to the line right after a long fed line or to the next line that may
    belong to the worker of an open event (``cand`` keeps each worker's next candidate)."""
    if pos == after_fed and pos < target and (feed.awaiting_tail or may_be_tail(buf, pos, n, jsonl)):
        # the line right after a long fed line may be its tail, wrapped by a terminal or a
        # paste (no prefix of its own): the assembler decides (and a provisional warning
        # is settled by its next line, whatever it holds)
        target = pos
    for w in feed.open:
        c = cand.get(w, -1)
        if w is None and feed.table_waits:
            c = cand[w] = pos  # (a table that ended in a blank line or a caption: the next line ends it, whoever wrote it)
        elif c < pos:
            # no further than the line where the event expires (events.QUIET_LINES):
            # feeding that line completes it as reading every line would
            near = min(n, pos + NEAR)
            c = next_line_of(buf, w, pos, near, tokens, jsonl)  # mostly close by
            if c >= near:
                exp = feed.expires_at(w)
                limit = n if exp is None else max(pos, index.at_or_after(exp, pos, lineno))
                if limit > near:
                    # on from the line that holds ``near`` (the first search saw no whole
                    # occurrence before it)
                    c = next_line_of(buf, w, buf.rfind(b"\n", pos, near) + 1 or pos, limit, tokens, jsonl)
                else:
                    c = limit
            cand[w] = c
        if c < target:
            target = c
    return target


def _unfed(feed: Sink, buf: bytes, pos: int, n: int, lineno: int, bits: int, cand: dict, after_fed: int,
           jsonl: bool) -> bool:
    """Whether the hit line at ``pos`` is left out of the assembler (the facts it carries are read
    here): it changes no event, no dump and nothing the next line depends on."""
    open_ = feed.open
    if bits == STACK and not open_ and feed.stack_settled:
        # it only names a serving stack, the stack is settled and no event is open (an open
        # event's next line must be fed whatever it holds): nothing to do
        return True
    if pos == after_fed or any(cand.get(w) == pos for w in open_):
        return False  # a long line's possible tail, or a line an open event's worker may have written
    if not bits & ~FACTS_ONLY:
        # it only carries facts: facts and nothing else (not decoded twice, not given to the assembler)
        nl = buf.find(b"\n", pos, n)
        feed.feed_facts(buf[pos:n if nl < 0 else nl], lineno, bits)
        return True
    if bits == WARN and not jsonl:
        # a warning record with nothing a signature could claim: it starts no event unless it
        # is long (the prefilter gave it WARN only because its next line may be its tail)
        nl = buf.find(b"\n", pos, n)
        return nl >= 0 and nl - pos < WRAP_WIDTH_MIN
    return False


def may_be_tail(buf: bytes, pos: int, n: int, jsonl: bool = False) -> bool:
    """May the line at ``pos`` be the wrapped tail of the line before it? Not if it starts
    with "(" or "[" (a worker or logger prefix); in JSON lines, the same for the message."""
    if not jsonl:
        return buf[pos:pos + 1] not in (b"(", b"[")
    return _MAYBE_NO_WORKER_JSON.match(b"\n" + buf[pos:min(n, pos + 64)]) is not None


class LineIndex:
    """Newline counts of buf[start:n] at checkpoints: the number of the line at an offset (the
    selector's jumps) and the offset of a line (where each of many open events expires), with
    each byte counted once. The selector's own position (where it knows the line number) is
    where counting ahead starts; ahead of it the checkpoints are ``BLOCK`` bytes apart."""

    BLOCK = newlines.BLOCK
    BATCH = 32  # blocks counted ahead at a time (256 KB: an event's expiry line is some 2,000 lines ahead)

    def __init__(self, buf: bytes, start: int, n: int, first_lineno: int):
        self.buf, self.start, self.n, self.first = buf, start, n, first_lineno
        self.offs = [start]  # checkpoint offsets, ascending
        self.nls = [0]  # newlines in buf[start:offs[i]]

    def lineno_at(self, off: int, pos: int, lineno: int) -> int:
        """The number of the line that holds ``off``, given that line ``lineno`` starts at
        ``pos`` (<= ``off``)."""
        offs = self.offs
        if offs[-1] > pos:  # counted ahead already: from the checkpoint nearest below ``off``
            i = bisect_right(offs, off) - 1
            if offs[i] > pos:
                return self.first + self.nls[i] + self.buf.count(b"\n", offs[i], off)
        return lineno + newlines.count(self.buf, pos, off)

    def at_or_after(self, target: int, pos: int | None = None, lineno: int | None = None) -> int:
        """The offset of a line start at or after the start of line ``target`` (at most one block
        beyond it), or ``n``; ``pos``/``lineno``: where the caller knows the line number."""
        need = target - self.first  # newlines before line ``target``
        if need <= 0:
            return self.start  # it starts at or before the span
        offs, nls = self.offs, self.nls
        if pos is not None and offs[-1] < pos:
            offs.append(pos)
            nls.append(lineno - self.first)
        while nls[-1] < need:
            a = offs[-1]
            if a >= self.n:
                return self.n
            # a batch of blocks at a time (NumPy counts a batch in one call: ``newlines``)
            e = min(a + self.BLOCK * self.BATCH, self.n)
            total = nls[-1]
            for k, c in enumerate(newlines.blocks(self.buf, a, e)):
                total += c
                nls.append(total)
                offs.append(min(a + (k + 1) * self.BLOCK, e))
        e = offs[bisect_left(nls, need)]
        if e >= self.n or e == self.start or self.buf[e - 1:e] == b"\n":
            return e
        nl = self.buf.find(b"\n", e, self.n)
        return self.n if nl < 0 else nl + 1


def worker_tokens(worker: str | None) -> tuple[bytes, ...]:
    """Words that every raw line of ``worker`` contains (normalise builds worker names from
    pieces of the line's prefix); () when that cannot be relied on (no worker, non-ASCII)."""
    if not worker or not worker.isascii() or not worker.isprintable():
        return ()
    return tuple(t.encode("ascii") for t in worker.split())


# the next line that may have no worker prefix (a blank line, or one that starts with
# neither "(" nor "["): where a stale event of worker None may continue
# ("[2025-08-01 09:04:44] INFO ..." from SGLang's main process starts with "[" and has no worker: a
# bracket is a worker prefix only with a worker's mark in it, as normalise reads them; a parenthesis
# only before a name: "(/src/cpp/.../fp8_gemm_template.h:251)" under a C++ assertion has none)
_MAYBE_NO_WORKER = re.compile(rb"\n(?:[^(\[\n]|\n|\((?![A-Za-z_])|\[(?!\d+,\d+\]<)(?![^\]\n]*(?:TP|DP|EP|PP|rank)\d))")
# the same for JSON lines: the message value (as ``normalise`` picks it) does not start with
# "(" or "[", or the line is not a JSON object
# (the message key first, as Docker and Kubernetes write it; a line that starts otherwise is a
# candidate, to be safe)
_MAYBE_NO_WORKER_JSON = re.compile(
    rb'\n(?:[^{\n]|\n|\{(?!")|\{"(?!(?:log|message|msg|MESSAGE|line|textPayload)")'
    rb'|\{"(?:log|message|msg|MESSAGE|line|textPayload)": ?"(?:[^(\[\\\n"]|\\[^u]|"))')


_WORD_BYTES = frozenset(bytes([c]) for c in b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")


def next_line_of(buf: bytes, worker: str | None, pos: int, n: int, tokens: dict, jsonl: bool = False) -> int:
    """Offset of the next line in buf[pos:n] (``pos`` a line start) that may belong to
    ``worker``; ``n`` if none."""
    if worker is None:
        rx = _MAYBE_NO_WORKER_JSON if jsonl else _MAYBE_NO_WORKER
        if pos == 0 or buf[pos - 1:pos] != b"\n":
            nl = buf.find(b"\n", pos, n)
            if rx.match(b"\n" + buf[pos:n if nl < 0 else nl + 1]):
                return pos
            if nl < 0:
                return n
            pos = nl + 1
        m = rx.search(buf, pos - 1, n)
        return m.start() + 1 if m else n
    got = tokens.get(worker)
    if got is None:
        toks = worker_tokens(worker)
        # search for the last word ("rank=3", "TP3", "ip=..."): it tells workers apart, the first
        # ("VllmWorker") is on every worker's lines; the line is then checked for the others
        got = tokens[worker] = (toks[-1], toks[:-1]) if toks else ()
    if not got:
        return n  # cannot be found cheaply: the event waits for the next hit of its worker
    first, rest = got
    size = len(first)
    at = pos
    while True:
        c = find_literal(buf, first, at, n)
        if c < 0:
            return n
        if buf[c + size:c + size + 1] in _WORD_BYTES:
            # "rank=1" inside "rank=12": in a line of its worker, every piece of the worker's
            # name ends where its prefix pattern has a non-word character (space, ")", "]", ...)
            at = c + 1
            continue
        ls = buf.rfind(b"\n", pos, c) + 1 or pos
        le = buf.find(b"\n", c, n)
        if le < 0:
            le = n
        for t in rest:
            if buf.find(t, ls, le) < 0:
                break
        else:
            return ls
        at = le + 1
