"""Follow mode: a growing log file or a pipe, one notice per finding as soon as its event is
complete, so an alerting pipeline can act on the first occurrence.

Core only: ``follow(...)`` yields ``Notice`` objects and never prints. The lines that one read
brings go through ``Scanner.select`` as a block (``Follower.feed_lines``: the batch selector,
one Hyperscan pass, then the same per-line entry point as ``scan``: normalise,
environment-dump reader, log facts, assembler); ``Follower.feed`` takes one line at a time
(``Scanner.feed_line``, its bits from ``Prefilter.line_bits``). Then the new event groups are
claimed and judged with the facts known so far.

- An event closes when its worker's next unrelated line arrives, or when that worker has
  been quiet for ``idle`` seconds (a traceback at the end of a crash has no next line).
- Each signature is reported once (its first finding); each unknown error group once.
- An unknown error that is a typical consequence of a root cause ("Engine core initialization
  failed", "WorkerProc failed to start") is judged by the batch rule, not by the clock: it is
  held until a root cause arrives whose first evidence starts no more than
  ``CASCADE_LOOKBACK`` (200) lines after the error's last occurrence (then it is reported
  once, as a consequence), or until the input is past that line with no event still open
  from before it (then once, as unknown). vLLM prints "WorkerProc failed to start." just
  before the root cause's traceback, so how fast the lines arrive does not change the
  result. The only clock-based release is the input going quiet for ``hold`` seconds (2 s),
  its end, or Ctrl-C.
- Files: polled every ``poll`` seconds; rotation (the path now names another inode: the old
  file is read to its end first) and truncation (the file got shorter) start over at line 1.
"""
from __future__ import annotations

import os
import select
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from ..catalogue.loader import Catalogue
from ..facts.vocabulary import resolve
from ..judge.matcher import Claims, Group, claim, judge, unknown_of
from ..model import Fact, Finding, InputInfo, ScanResult, UnknownGroup
from .normalise import LineFormat, detect_format
from ..pipeline import CASCADE_LOOKBACK, Scanner, consequence_kind, first_evidence_lines, follows_from

READ_SIZE = 1 << 16
FORMAT_LINES = 50  # lines the wrapping is detected from (normalise.detect_format reads 50 as well)
MAX_PARTIAL = 1 << 20  # a line longer than this without a newline is cut


@dataclass
class Notice:
    """Something follow mode reports: a new finding, a new unknown error group, or a consequence."""

    event: str  # "finding" | "unknown" | "consequence" | "rotated" | "truncated"
    time: float  # the follower's clock (monotonic), for timing
    finding: Finding | None = None
    unknown: UnknownGroup | None = None
    of: str | None = None  # for a consequence: the finding it follows from
    cascade: str | None = None
    note: str = ""
    wall: float = field(default_factory=time.time)  # when it was noticed (seconds since the epoch)

    def to_dict(self) -> dict[str, Any]:
        from datetime import datetime, timezone

        d: dict[str, Any] = {"event": self.event,
                             "time": datetime.fromtimestamp(self.wall, timezone.utc).isoformat(timespec="milliseconds")}
        if self.finding is not None:
            d["finding"] = self.finding.to_dict()
        if self.unknown is not None:
            d["unknown"] = self.unknown.to_dict()
        if self.of:
            d["of"] = self.of
        if self.cascade:
            d["cascade"] = self.cascade
        if self.note:
            d["note"] = self.note
        return d


# -- line sources ----------------------------------------------------------------------------------
# Each yields lists of complete raw lines (bytes, without the newline: what one read brought),
# None when nothing new arrived within one poll interval, and ("rotated"|"truncated", reason)
# markers.

def _split(buf: bytes) -> tuple[list[bytes], bytes]:
    parts = buf.split(b"\n")
    rest = parts.pop()
    if len(rest) > MAX_PARTIAL:
        parts.append(rest[:MAX_PARTIAL])
        rest = b""
    return [p[:-1] if p.endswith(b"\r") else p for p in parts], rest


def tail_file(path: str, poll: float = 0.1, stop: Callable[[], bool] = lambda: False) -> Iterator[Any]:
    """Lines of ``path`` from its start, then as they are appended; survives rotation and truncation."""
    fh = None
    ident = None
    pos = 0
    rest = b""
    while not stop():
        if fh is None:
            try:
                fh = open(path, "rb")
                st = os.fstat(fh.fileno())
                ident, pos, rest = (st.st_dev, st.st_ino), 0, b""
            except FileNotFoundError:
                yield None  # not there (yet, or between rename and create)
                time.sleep(poll)
                continue
        data = fh.read(READ_SIZE)
        if data:
            pos += len(data)
            lines, rest = _split(rest + data)
            if lines:
                yield lines
            continue
        # at the end: rotated, truncated, or just quiet?
        try:
            st = os.stat(path)
            now_ident = (st.st_dev, st.st_ino)
        except FileNotFoundError:
            now_ident, st = None, None
        if now_ident is not None and now_ident != ident:
            data = fh.read()  # whatever was written to the old file after our last read
            lines, rest = _split(rest + data)
            if rest:
                lines.append(rest)
            if lines:
                yield lines
            fh.close()
            fh, rest = None, b""
            yield ("rotated", f"{path} was replaced by a new file (rotation); reading it from the start")
            continue
        if st is not None and st.st_size < pos:
            fh.seek(0)
            pos, rest = 0, b""
            yield ("truncated", f"{path} got shorter (truncated); reading it from the start")
            continue
        yield None
        time.sleep(poll)
    if fh is not None:
        fh.close()


def read_stream(fd: int, poll: float = 0.1, stop: Callable[[], bool] = lambda: False) -> Iterator[Any]:
    """Lines from a pipe or terminal (``-``) until end of input."""
    rest = b""
    while not stop():
        try:
            ready, _, _ = select.select([fd], [], [], poll)
        except (OSError, ValueError):  # not selectable (a regular file on some platforms): just read
            ready = [fd]
        if not ready:
            yield None
            continue
        data = os.read(fd, READ_SIZE)
        if not data:
            if rest:
                yield [rest]
            return
        lines, rest = _split(rest + data)
        if lines:
            yield lines


def read_object(fh, stop: Callable[[], bool] = lambda: False) -> Iterator[Any]:
    """Lines from a file object without a file descriptor (an in-memory stream)."""
    rest = b""
    while not stop():
        data = fh.read(READ_SIZE)
        if not data:
            break
        lines, rest = _split(rest + data)
        if lines:
            yield lines
    if rest:
        yield [rest]


def _stdin_lines(poll: float, stop: Callable[[], bool]) -> Iterator[Any]:
    import io
    import sys

    stream = getattr(sys.stdin, "buffer", sys.stdin)
    if stream is None:
        return iter(())
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, io.UnsupportedOperation):
        return read_object(stream, stop)
    return read_stream(fd, poll, stop)


# -- the incremental triage ------------------------------------------------------------------------

@dataclass
class _Held:
    group: Group
    kind: str


@dataclass
class Follower:
    """Feed raw lines; collect notices. ``result()`` is the whole run as a ScanResult.

    Lines go through ``Scanner.feed_line``, the per-line entry point of every scan (dump
    reader, log facts, assembler), so follow mode reads what ``scan`` reads. Consequences are
    judged by the batch rules (``pipeline.consequence_kind`` and ``pipeline.follows_from``)."""

    catalogue: Catalogue
    source: str
    facts: Iterable[Fact] = ()
    prefer: str = "log"
    idle: float = 1.0
    hold: float = 2.0
    clock: Callable[[], float] = time.monotonic
    notices: list[Notice] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.facts = list(self.facts)
        self.scanner = Scanner(self.catalogue, on_group=self._new_group)
        self.scanner.prefilter.compile()  # Hyperscan for each line (loaded from its cache after the first run)
        self.claims = Claims()
        self.fmt: LineFormat | None = None
        self.lineno = 0
        self.lines_total = 0
        self.bytes_total = 0
        self._touched: dict[str | None, float] = {}
        self._last_input = self.clock()
        self._new: list[Group] = []
        self._reported: set[str] = set()  # signature ids and fingerprints already reported
        self._found: list[str] = []  # reported signature ids, in order
        self._root: str | None = None  # the first reported finding that consequences attach to
        self._held: list[_Held] = []
        self._pending: list[bytes] = []
        self.started = time.perf_counter()

    # feeding -------------------------------------------------------------------------------------
    def feed(self, raw: bytes) -> list[Notice]:
        self.lines_total += 1
        self.bytes_total += len(raw) + 1
        self._last_input = self.clock()
        if self.fmt is None:
            # the wrapping (JSON lines, compose prefixes) is chosen from the first FORMAT_LINES
            # lines, as scan does; they wait until then (or until the input pauses)
            self._pending.append(raw)
            if len(self._pending) < FORMAT_LINES:
                return []
            return self._flush()
        self._line(raw)
        return self._process()

    def feed_lines(self, lines: list[bytes]) -> list[Notice]:
        """The lines one read brought, at once: through the batch selector (``Scanner.select``,
        one Hyperscan pass for the block, only the lines that can change something decoded),
        which feeds the same lines as ``feed`` one by one would (the equivalence tests hold the
        selectors to that). A log's backlog (``kubectl logs -f`` starts with it) reads at the
        batch scan's speed."""
        out: list[Notice] = []
        i = 0
        while self.fmt is None and i < len(lines):  # the first lines wait for the format (``feed``)
            out += self.feed(lines[i])
            i += 1
        if i == len(lines):
            return out
        block = lines[i:] if i else lines
        self.lines_total += len(block)
        self.bytes_total += sum(map(len, block)) + len(block)
        self._last_input = now = self.clock()
        buf = b"\n".join(block) + b"\n"
        before = self.lineno
        self.lineno = self.scanner.select(buf, 0, len(buf), before + 1, self.fmt) - 1
        for w, b in self.scanner.feed.asm.open.items():
            if b.lines and b.lines[-1].lineno > before:
                self._touched[w] = now  # its worker wrote in this block
        return out + self._process()

    def _line(self, raw: bytes) -> None:
        self.lineno += 1
        line = self.scanner.feed_line(raw, self.lineno)
        if line is not None:  # (a line that was not decoded belongs to no open event)
            self._touched[line.worker] = self._last_input  # when it arrived (pending lines wait for the format)

    def _flush(self) -> list[Notice]:
        if self.fmt is None and self._pending:
            self.fmt = detect_format(b"\n".join(self._pending) + b"\n")
            self.scanner.feed.begin(self.source, self.fmt)
            pending, self._pending = self._pending, []
            for raw in pending:
                self._line(raw)
        return self._process()

    def restart(self, reason: str, event: str) -> list[Notice]:
        """The source was rotated or truncated: close open events, start at line 1 again
        (held errors are judged first: line numbers start over)."""
        out = self._flush()
        self.scanner.feed.end()
        out += self._process()
        released = self._release_held(force=True)
        self.notices.extend(released)
        out += released
        self.lineno = 0
        self.fmt = None
        n = Notice(event, self.clock(), note=reason)
        self.notices.append(n)
        return out + [n]

    def tick(self) -> list[Notice]:
        """Nothing new arrived for a while: close events whose worker has been quiet for ``idle``."""
        now = self.clock()
        # the input paused: do not keep the first lines waiting for more
        out = self._flush() if self._pending and now - self._last_input >= self.idle else []
        asm = self.scanner.feed.asm
        for w in list(asm.open):
            if now - self._touched.get(w, now) >= self.idle:
                asm.close_worker(w)
        return out + self._process()

    def finish(self) -> list[Notice]:
        out = self._flush()
        self.scanner.feed.end()
        out += self._process()
        released = self._release_held(force=True)
        self.notices.extend(released)
        return out + released

    # judging -------------------------------------------------------------------------------------
    def _new_group(self, g: Group) -> None:
        self._new.append(g)

    def _process(self) -> list[Notice]:
        out: list[Notice] = []
        if self._new:
            new, self._new = self._new, []
            before = {k: len(v) for k, v in self.claims.primary.items()}
            before_s = {k: len(v) for k, v in self.claims.supporting.items()}
            claim(self.catalogue, new, self.claims)
            changed = any(len(v) != before.get(k, 0) for k, v in self.claims.primary.items()) or any(
                len(v) != before_s.get(k, 0) for k, v in self.claims.supporting.items())
            if changed:
                out += self._judge()
            supporting = {id(h.group) for hs in self.claims.supporting.values() for h in hs}
            for g in new:
                if g.fingerprint in self.claims.claimed or id(g) in supporting or not g.event.is_error:
                    continue
                out += self._unknown(g)
        out += self._release_held(force=False)
        self.notices.extend(out)
        return out

    def _root_first_lines(self) -> dict[str, int]:
        hits = self.claims.primary.get(self._root, []) or self.claims.supporting.get(self._root, [])
        return first_evidence_lines(hits)

    def _judge(self) -> list[Notice]:
        groups = sorted(self.scanner.groups.values(), key=lambda g: g.order)
        facts = list(self.facts) + self.scanner.logfacts.finish() + self.claims.facts
        chosen, _conflicts = resolve(facts, self.prefer)
        findings, _ruled = judge(self.catalogue, self.claims, chosen, groups, fact_risks=False)
        out = []
        for f in findings:
            if f.id in self._reported or f.from_facts_only:
                continue
            self._reported.add(f.id)
            self._found.append(f.id)
            if self._root is None and f.severity.value != "info":
                self._root = f.id
            out.append(Notice("finding", self.clock(), finding=f))
        if self._root is not None and self._held:
            # held errors that follow from the root cause (by the batch rule) are its consequences
            first = self._root_first_lines()
            keep = []
            for h in self._held:
                u = unknown_of(h.group)
                if follows_from(u, first):
                    out.append(Notice("consequence", self.clock(), unknown=u, of=self._root, cascade=h.kind))
                    self._reported.add(h.group.fingerprint)
                else:
                    keep.append(h)
            self._held = keep
        return out

    def _unknown(self, g: Group) -> list[Notice]:
        if g.fingerprint in self._reported:
            return []
        u = unknown_of(g)
        kind = consequence_kind(u)
        if kind:
            if self._root is not None and follows_from(u, self._root_first_lines()):
                self._reported.add(g.fingerprint)
                return [Notice("consequence", self.clock(), unknown=u, of=self._root, cascade=kind)]
            self._held.append(_Held(g, kind))
            return []
        self._reported.add(g.fingerprint)
        return [Notice("unknown", self.clock(), unknown=u)]

    def _release_held(self, force: bool) -> list[Notice]:
        """Report held errors as unknown once no root cause can claim them any more: its first
        evidence would have to start within CASCADE_LOOKBACK lines after the error's last
        occurrence, so once the input is past that line (and no event that started before it
        is still open) the batch rule cannot attach it. The input going quiet for ``hold``
        seconds, its end and Ctrl-C also release them."""
        if not self._held:
            return []
        now = self.clock()
        quiet = now - self._last_input >= self.hold
        out, keep = [], []
        for h in self._held:
            last = (h.group.last or h.group.event.lines[0]).lineno
            limit = last + CASCADE_LOOKBACK
            past = self.lineno > limit and not any(
                b.lines and b.lines[0].lineno <= limit for b in self.scanner.feed.asm.open.values())
            if force or quiet or past:
                self._reported.add(h.group.fingerprint)
                out.append(Notice("unknown", now, unknown=unknown_of(h.group), cascade=h.kind))
            else:
                keep.append(h)
        self._held = keep
        return out

    # summary -------------------------------------------------------------------------------------
    def result(self) -> ScanResult:
        sc = self.scanner
        fmt = self.fmt.name if self.fmt else "text"
        sc.inputs = [InputInfo(self.source, self.bytes_total, self.lines_total, fmt)]
        res = sc.result(self.facts, self.prefer, self.started)
        res.meta["mode"] = "follow"
        return res


def follow(
    catalogue: Catalogue,
    target: str,
    *,
    facts: Iterable[Fact] = (),
    prefer: str = "log",
    poll: float = 0.1,
    idle: float = 1.0,
    hold: float = 2.0,
    stop: Callable[[], bool] = lambda: False,
    follower: Follower | None = None,
) -> Iterator[Notice]:
    """Notices for ``target`` (a file path, or "-" for standard input) until the input ends
    (a pipe) or ``stop()`` is true or the caller stops iterating (Ctrl-C). Pass ``follower`` to
    read ``follower.result()`` afterwards."""
    name = "<stdin>" if target == "-" else target
    fl = follower or Follower(catalogue, name, facts, prefer, idle, hold)
    lines = _stdin_lines(poll, stop) if target == "-" else tail_file(target, poll, stop)
    last_tick = time.monotonic()
    for item in lines:
        if item is None:
            yield from fl.tick()
            last_tick = time.monotonic()
            continue
        if isinstance(item, tuple):
            yield from fl.restart(item[1], item[0])
            continue
        yield from fl.feed_lines(item)
        if time.monotonic() - last_tick >= idle:  # a steady stream never idles: check quiet workers anyway
            yield from fl.tick()
            last_tick = time.monotonic()
    yield from fl.finish()
