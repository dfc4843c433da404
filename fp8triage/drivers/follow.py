"""Follow mode: a growing log file or a pipe, one notice per finding as soon as its event is
complete, so an alerting pipeline can act on the first occurrence.

Core only: ``follow(...)`` yields ``Notice`` objects and never prints. The lines that one read
brings go through ``Scanner.select`` as a block (``Follower.feed_lines``: the batch selector,
one Hyperscan pass, then the same per-line entry point as ``scan``: normalise,
environment-dump reader, log facts, assembler); ``Follower.feed`` takes one line at a time
(``Scanner.feed_line``, its bits from ``Prefilter.line_bits``). Then the new event groups are
claimed and judged with the facts known so far.

- An event completes as in the batch scan, by structure or by line count, never by the clock:
  when its worker's next unrelated line arrives, when the input is ``QUIET_LINES`` lines past
  it (``events.py``'s expiry), or at the end of the input (a pipe's end, Ctrl-C, rotation).
  So a writer that pauses inside a traceback changes nothing: the follower reports what the
  batch scan of the same bytes reports, and the closing summary agrees with the notices.
- A quiet input is still reported promptly: when nothing new arrives for ``idle`` seconds
  (``tick``), the known root causes in the open events that are structurally complete (a
  traceback past its exception line, an assertion or error line; ``Assembler.peek``) are
  judged and reported as findings, while those events stay open. Unknown error groups are
  reported only once their event is complete.
- Each signature is reported once (its first finding); each unknown error group once.
- An unknown error that is a typical consequence of a root cause ("Engine core initialization
  failed", "WorkerProc failed to start") is judged by the batch rule, not by the clock: it is
  held until a root cause arrives whose first evidence starts no more than
  ``CASCADE_LOOKBACK`` (200) lines after the error's last occurrence (then it is reported
  once, as a consequence), or until the input is past that line with no event still open
  from before it (then once, as unknown). vLLM prints "WorkerProc failed to start." just
  before the root cause's traceback, so how fast the lines arrive does not change the
  result. The end of the input (or Ctrl-C) releases the rest.
- Binary input (``scan --follow /bin/ls``): skipped as the batch scan skips it, with a
  warning (``Follower.skipped``), and following ends. Dirty lines (NUL padding, garbage) are
  read by their text regions (``binary.clean_span``) as in the batch scan.
- Files: polled every ``poll`` seconds; a named pipe or a process substitution
  (``--follow <(kubectl logs -f pod)``) is read as a stream, like ``-``; rotation (the path now names another inode: the old
  file is read to its end first) and truncation (the file got shorter) start over at line 1.
"""
from __future__ import annotations

import os
import select
import stat
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from ..catalogue.loader import Catalogue
from ..facts.vocabulary import resolve
from ..judge.claims import Claims, Group
from ..judge.matcher import claim
from ..judge.verdict import judge, unknown_of
from ..catalogue.recognition import vocabulary
from ..model import Fact, Finding, InputInfo, ScanResult, UnknownGroup
from ..judge.cascades import CASCADE_LOOKBACK, consequence_kind, first_evidence_lines, follows_from
from ..scan.binary import HEAD, signature_kind
from ..scan.fingerprint import fingerprint
from ..scan.normalise import LineFormat, detect_format
from ..scan.scanner import Scanner

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
    if len(rest) > MAX_PARTIAL and b"\x00" in rest:  # NUL padding (copytruncate): the text after it is a line
        rest = rest.replace(b"\x00", b"")
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
    judged by the batch rules (``cascades.consequence_kind`` and ``cascades.follows_from``)."""

    catalogue: Catalogue
    source: str
    facts: Iterable[Fact] = ()
    prefer: str = "log"
    idle: float = 1.0  # seconds without input before a quiet input's open events are looked at (``tick``)
    hold: float = 2.0  # (no longer used: held errors are released by line count or the end of input)
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
        self._last_input = self.clock()
        self._previewed: tuple[int, int] | None = None  # the input (lines, pending) the last tick looked at
        self.skipped: str | None = None  # why the input is not read (binary): said once, then following ends
        self._new: list[Group] = []
        self._reported: set[str] = set()  # signature ids and fingerprints already reported
        self._shown: set[str] = set()  # the groups the last judgement's findings show
        self._found: list[str] = []  # reported signature ids, in order
        self._root: str | None = None  # the first reported finding that consequences attach to
        self._held: list[_Held] = []
        self._pending: list[bytes] = []
        self._pending_bytes = 0
        self.started = time.perf_counter()

    # feeding -------------------------------------------------------------------------------------
    def feed(self, raw: bytes) -> list[Notice]:
        self.lines_total += 1
        self.bytes_total += len(raw) + 1
        self._last_input = self.clock()
        if self.skipped:
            return []
        if self.fmt is None:
            # the wrapping (JSON lines, compose prefixes) is chosen from the first FORMAT_LINES
            # lines (or HEAD bytes), as scan does; they wait until then (or the end of input)
            self._pending.append(raw)
            self._pending_bytes += len(raw) + 1
            if len(self._pending) < FORMAT_LINES and self._pending_bytes < HEAD:
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
        while self.fmt is None and i < len(lines) and not self.skipped:  # the first lines wait for the format (``feed``)
            out += self.feed(lines[i])
            i += 1
        if self.skipped:
            rest = lines[i:]
            self.lines_total += len(rest)
            self.bytes_total += sum(map(len, rest)) + len(rest)
            return out
        if i == len(lines):
            return out
        block = lines[i:] if i else lines
        self.lines_total += len(block)
        self.bytes_total += sum(map(len, block)) + len(block)
        self._last_input = self.clock()
        buf = b"\n".join(block) + b"\n"
        before = self.lineno
        self.lineno = self.scanner.select(buf, 0, len(buf), before + 1, self.fmt) - 1
        return out + self._process()

    def _line(self, raw: bytes) -> None:
        self.lineno += 1
        self.scanner.feed_line(raw, self.lineno)

    def _flush(self) -> list[Notice]:
        if self.fmt is None and self._pending:
            head = b"\n".join(self._pending) + b"\n"
            kind = signature_kind(head[:HEAD])
            if kind:  # an executable, an archive, an image: skipped as the batch scan skips it
                self.skipped = f"{self.source}: {kind}, not a text log; skipped"
                self.scanner.warnings.append(self.skipped)
                self._pending = []
                return []
            self.fmt = detect_format(head)
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
        self._pending_bytes = 0
        n = Notice(event, self.clock(), note=reason)
        self.notices.append(n)
        return out + [n]

    def tick(self) -> list[Notice]:
        """Nothing new arrived for a while (``idle`` seconds). No event is completed for it
        (that would make the result depend on how fast the lines come); the known root causes
        in what has arrived are reported now (``_preview``)."""
        if self.clock() - self._last_input < self.idle:
            return []
        out = self._preview()
        self.notices.extend(out)
        return out

    def _preview(self) -> list[Notice]:
        """Findings in the structurally complete open events (and, while the format still
        waits for more lines, in the lines so far), judged as if the input ended here; the
        events stay open and only new signature ids are reported."""
        key = (self.lines_total, len(self._pending))
        if self.skipped or key == self._previewed:
            return []
        self._previewed = key
        if self.fmt is None:
            if not self._pending:
                return []
            sc = Scanner(self.catalogue, prefilter=self.scanner.prefilter)
            sc.use_source(self.source)
            sc.feed.begin(self.source, detect_format(b"\n".join(self._pending) + b"\n"))
            for n, raw in enumerate(self._pending, 1):
                sc.feed_line(raw, n)
            closed = sorted(sc.groups.values(), key=lambda g: g.order)
        else:
            sc, closed = self.scanner, []
        feed = sc.feed
        order = len(self.scanner.groups) + len(closed)
        peeked = []
        for w in list(feed.open):
            ev = feed.peek(w)
            if ev is None or not ev.is_error:
                continue
            ev.fingerprint = fingerprint(ev)
            order += 1
            peeked.append(Group(ev.fingerprint, ev, 1, list(ev.workers), ev.lines[0], order))
        new = [g for g in closed + peeked if g.fingerprint not in self.scanner.groups]
        if not new:
            return []
        claims = _copy_claims(self.claims)
        claim(self.catalogue, new, claims)
        fresh = {k for k, v in claims.primary.items() if len(v) > len(self.claims.primary.get(k, []))}
        if not fresh:
            return []
        groups = sorted(self.scanner.groups.values(), key=lambda g: g.order) + new
        facts = list(self.facts) + sc.logfacts.finish() + claims.facts
        chosen, _conflicts = resolve(facts, self.prefer)
        findings, _ruled = judge(self.catalogue, claims, chosen, groups, fact_risks=False)
        return self._report([f for f in findings if f.id in fresh])

    def _report(self, findings) -> list[Notice]:
        """A notice for each finding not reported yet (the first one that is not informational is
        the root cause that later errors are attached to)."""
        out = []
        for f in findings:
            if f.id in self._reported or f.from_facts_only:
                continue
            self._reported.add(f.id)
            self._found.append(f.id)
            if self._root is None and f.severity.value != "info":
                self._root = f.id
            out.append(Notice("finding", self.clock(), finding=f))
        return out

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
            voc = vocabulary()
            # a symptom no signature claimed may be read with the library the facts name (verdict.judge)
            if changed or any(g.fingerprint not in self.claims.claimed and voc.states_symptom(g.event.text) for g in new):
                out += self._judge()
            supporting = {id(h.group) for hs in self.claims.supporting.values() for h in hs}
            for g in new:
                if (g.fingerprint in self.claims.claimed or id(g) in supporting or g.fingerprint in self._shown
                        or not g.event.is_error):
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
        self._shown = {fp for f in findings for fp in f.fingerprints}
        out = self._report(findings)
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
        is still open) the batch rule cannot attach it. The end of the input and Ctrl-C
        (``force``) also release them; a pause does not."""
        if not self._held:
            return []
        now = self.clock()
        out, keep = [], []
        for h in self._held:
            last = (h.group.last or h.group.event.lines[0]).lineno
            limit = last + CASCADE_LOOKBACK
            past = self.lineno > limit and not any(
                b.lines and b.lines[0].lineno <= limit for b in self.scanner.feed.open.values())
            if force or past:
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
        why = None
        if self.skipped or (self.bytes_total and sc.dirty and not sc.text_lines):
            fmt = "binary"
            why = None if self.skipped else f"{self.source}: binary data with no text line, not a text log; skipped"
        elif not self.bytes_total:
            fmt = "empty"
            why = f"{self.source}: empty; nothing to scan (a pod that never started writes no log)"
        if why and why not in sc.warnings:
            sc.warnings.append(why)
        sc.inputs = [InputInfo(self.source, self.bytes_total, self.lines_total, fmt)]
        res = sc.result(self.facts, self.prefer, self.started)
        res.meta["mode"] = "follow"
        return res


def _copy_claims(c: Claims) -> Claims:
    """A copy of ``c`` that ``claim`` can add to without changing ``c``."""
    return Claims(primary={k: list(v) for k, v in c.primary.items()},
                  supporting={k: list(v) for k, v in c.supporting.items()},
                  claimed=set(c.claimed), also={k: list(v) for k, v in c.also.items()},
                  weak={k: list(v) for k, v in c.weak.items()}, facts=list(c.facts),
                  warnings=list(c.warnings), timed_out=set(c.timed_out), context=set(c.context))


def _is_stream(path: str) -> bool:
    """A named pipe or a character device (``--follow <(kubectl logs -f pod)``)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


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
    pipe = None
    if target == "-":
        lines = _stdin_lines(poll, stop)
    elif _is_stream(target):  # a named pipe, a process substitution: a stream, not a file to poll
        pipe = open(target, "rb")  # noqa: SIM115 - closed below
        lines = read_stream(pipe.fileno(), poll, stop)
    else:
        lines = tail_file(target, poll, stop)
    try:
        yield from _drive(fl, lines)
    finally:
        if pipe is not None:
            pipe.close()


def _drive(fl: Follower, lines: Iterator[Any]) -> Iterator[Notice]:
    """Feed what the line source brings; ``None`` (nothing new within a poll) is a tick."""
    for item in lines:
        if item is None:
            yield from fl.tick()
            continue
        if isinstance(item, tuple):
            yield from fl.restart(item[1], item[0])
            continue
        yield from fl.feed_lines(item)
        if fl.skipped:  # binary input: said once, then nothing more to follow
            break
    yield from fl.finish()
