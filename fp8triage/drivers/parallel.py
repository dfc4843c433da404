"""Scanning on every core: files, and byte ranges of one big file, in worker processes.

The result is exactly the sequential scan's:

* A big uncompressed file (``SPLIT_MIN`` or more) is cut into one byte range per worker at
  line starts (``scan/ingest.split_points``). Each worker scans its range with the same selector
  and ``LineFeed`` as a sequential scan, numbering its lines from 1; the parent renumbers
  them (the sum of the earlier ranges' line counts) and merges the ranges in order
  (``Scanner.merge``: groups keep first-seen order, counts add up, the first fact wins).
* An event or an environment dump that is open where a range ends is assembled once: the
  worker of the range before stops feeding it (its open events are not closed there), and
  the worker of the range after has already read the ``WARM`` bytes before its range without
  reporting anything (``LineFeed.quiet``), so it holds the same open events and finishes
  them. The parent checks that the two agree (worker, first line, number of lines and state
  of every open event, and of an open dump). Where they do not (an event that began before
  the warm-up, e.g. a worker that went quiet in the middle of a traceback), the parent scans
  that range again itself, starting from the open events the range before handed over: still
  exact, only slower. A dump open at a range end is read to its end by the worker of the
  range before (``overrun``), so its lines stay together.
* Other sources (several files, ``.gz``) are one task each; standard input and in-memory
  sources are scanned in the parent.

Signals: SIGINT, SIGTERM and SIGHUP to the parent terminate every worker at once and raise
``Interrupted`` (exit code 128 + the signal number; the CLI prints "interrupted"). Workers
ignore SIGINT (Ctrl-C reaches the whole process group; the parent decides) and, on Linux, are
killed if the parent dies.
"""
from __future__ import annotations

import copy
import signal
import threading
from dataclasses import replace
from typing import Callable, Iterator, Sequence

from ..common.source import Source
from ..model import InputInfo, Line
from ..scan import newlines, ranges
from ..scan.ingest import read_spans, split_points
from ..scan.normalise import LineFormat, detect_format
from ..scan.scanner import Scanner

SPLIT_MIN = 32 * 1024 * 1024  # a file at least this big is cut into byte ranges
PARALLEL_MIN = 32 * 1024 * 1024  # less input than this in all is scanned in one process
WARM = 256 * 1024  # bytes read before a range to rebuild the events open at its start


class Interrupted(KeyboardInterrupt):
    """A signal stopped the scan; ``exit_code`` is 128 + the signal number."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        self.exit_code = 128 + signum


# -- one range ---------------------------------------------------------------------------------

def scan_range(sc, src: Source, fmt: LineFormat, a: int, b: int, warm_from: int, last: bool,
               carry: dict | None = None) -> dict:
    """Scan bytes [a, b) of ``src`` (line starts) with Scanner ``sc`` (freshly reset); lines
    numbered from 1 at ``a``. ``carry``: the open events and dump handed over by the range
    before (the parent's exact re-scan); else the ``warm_from``..``a`` bytes rebuild them."""
    sc.use_source(src.name)
    feed = sc.feed
    feed.begin(src.name, fmt)
    if carry is not None:
        feed.adopt(carry["builders"])
        if carry["dump"] is not None:
            feed.resume_dump(carry["dump"])  # stored by the range before
    elif warm_from < a:
        data = b"".join(buf[s:e] for buf, s, e in read_spans(src, start=warm_from, stop=a))
        with feed.warming():
            sc.select(data, 0, len(data), 1 - data.count(b"\n"), fmt)
    start_sig = feed.start_range()
    lineno = 1
    for buf, s, e in read_spans(src, start=a, stop=b):
        lineno = sc.select(buf, s, e, lineno, fmt)
    nlines = lineno - 1
    end_sig = feed.boundary()
    dump = feed.open_dump()
    if dump is not None and not last:
        ranges.overrun(feed, src, b, lineno)
    handover = {"builders": feed.hand_over(), "dump": dump}  # the range after (or, after the last, the parent) finishes them
    state = sc.state()
    state.update(lines=nlines, start_sig=start_sig, end_sig=end_sig, handover=handover,
                 warnings=list(src.warnings), workers_fed=feed.workers_fed)
    return state


def renumber(state: dict, shift: int) -> None:
    """Add ``shift`` to the line number of every line a range's state holds (``Line`` is
    frozen: each is replaced, once, wherever it is held)."""
    if not shift:
        return
    memo: dict[int, Line] = {}

    def mv(ln):
        if ln is None:
            return None
        new = memo.get(id(ln))
        if new is None:
            new = memo[id(ln)] = replace(ln, lineno=ln.lineno + shift)
        return new

    for g in state["groups"]:
        g.event.lines[:] = [mv(ln) for ln in g.event.lines]
        g.last = mv(g.last)
        for part in g.parts.values():  # each source's own first event and last line (persource.py reads them)
            if part.event is not g.event:
                part.event.lines[:] = [mv(ln) for ln in part.event.lines]
            part.last = mv(part.last)
    for lf in state["logfacts"].values():  # per source (persource.py)
        lf.raw = [(n, v, mv(ln), note) for n, v, ln, note in lf.raw]
        lf.stack_votes = {k: (n, mv(first)) for k, (n, first) in lf.stack_votes.items()}
    for _fmt, _kind, lines in state["dumps"]:
        lines[:] = [mv(ln) for ln in lines]
    state["first_emit"] = {fp: ln + shift for fp, ln in state.get("first_emit", {}).items()}
    state["workers_fed"] = {w: ln + shift for w, ln in state.get("workers_fed", {}).items()}


# -- the pool ------------------------------------------------------------------------------------

_PARENT = None  # the parent's Scanner, inherited by forked workers
_WORKER = None


def _worker_init() -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    _die_with_parent()
    _WORKER = Scanner(_PARENT.cat, exhaustive=_PARENT.exhaustive, prefilter=_PARENT.prefilter)


def _die_with_parent() -> None:
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux: the parent's handlers still terminate the pool


def _task(task: tuple) -> dict:
    return run_task(_WORKER, task)


def run_task(sc, task: tuple) -> dict:
    """One task of ``plan`` on Scanner ``sc`` (a worker process's, or a Ray worker's)."""
    sc.reset()
    kind = task[0]
    if kind == "range":
        _kind, src, fmt, a, b, warm_from, last = task
        return scan_range(sc, src, fmt, a, b, warm_from, last)
    sc.scan_source(task[1])
    state = sc.state()
    state["bytes_read"] = task[1].bytes_read
    return state


def plan(sources: Sequence[Source], jobs: int) -> list[tuple]:
    """Tasks in source order: ("range", src, fmt, a, b, warm_from, last) for the ranges of a
    big file, ("file", src) for another file, ("local", src) for stdin and in-memory data."""
    tasks: list[tuple] = []
    for src in sources:
        if (src.path is None and src.url is None) or src.data is not None or src.stream:
            tasks.append(("local", src))
            continue
        if src.url is not None:  # an object in storage: one task (rayscan.py also cuts big ones)
            tasks.append(("file", src))
            continue
        size = src.size or 0
        if size >= SPLIT_MIN and _plain(src):
            cuts = split_points(src.path, size, jobs)
            if len(cuts) > 2:
                with open(src.path, "rb") as fh:
                    fmt = detect_format(fh.read(65536))
                for k in range(len(cuts) - 1):
                    a, b = cuts[k], cuts[k + 1]
                    warm_from = _line_start_before(src, a - WARM) if k else a
                    part = Source(src.name, src.path, size)
                    tasks.append(("range", part, fmt, a, b, warm_from, k == len(cuts) - 2))
                continue
        tasks.append(("file", src))
    return tasks


def _plain(src: Source) -> bool:
    try:
        with open(src.path, "rb") as fh:
            return fh.read(2) != b"\x1f\x8b"
    except OSError:
        return False


def _line_start_before(src: Source, at: int) -> int:
    """The first line start at or after ``at`` (0 if ``at`` <= 0)."""
    if at <= 0:
        return 0
    with open(src.path, "rb") as fh:
        fh.seek(at - 1)
        data = fh.read(1 << 20)
    nl = data.find(b"\n")
    return at + nl if nl >= 0 else at


def worth_it(sources: Sequence[Source], jobs: int) -> bool:
    files = [s for s in sources if (s.path is not None or s.url is not None) and s.data is None and not s.stream]
    total = sum(s.size or 0 for s in files)
    if jobs < 2 or total < PARALLEL_MIN:
        return False
    return len(files) > 1 or any((s.size or 0) >= SPLIT_MIN for s in files)


def scan_parallel(sc, sources: Sequence[Source], jobs: int,
                  progress: Callable[[int], None] | None = None, *, tasks: list[tuple] | None = None,
                  runner: Callable[[list[tuple]], Iterator[dict]] | None = None) -> None:
    """Scan ``sources`` in ``jobs`` worker processes into Scanner ``sc`` (see the module
    docstring); the result equals ``for s in sources: sc.scan_source(s)``. ``tasks`` and
    ``runner`` (drivers/rayscan.py): other tasks of ``plan``'s shapes, run elsewhere (the
    runner yields each non-local task's ``_task`` state, in order); merged here the same way."""
    import multiprocessing

    global _PARENT
    tasks = plan(sources, jobs) if tasks is None else tasks
    if any(t[0] == "range" for t in tasks) and not sc.exhaustive:
        sc.prefilter.compile(settled=True)  # once, before the workers fork
        newlines.prepare()
    _PARENT = sc
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform: one process
        if runner is None:
            for src in sources:
                sc.scan_source(src)
            return
    old = _stop_on_signals()
    pool = None
    results = None
    try:
        remote = [t for t in tasks if t[0] != "local"]
        if runner is None:
            pool = ctx.Pool(min(jobs, len(tasks)), initializer=_worker_init)
            results = pool.imap(_task, remote)
        else:
            results = iter(runner(remote))
        _merge_results(sc, tasks, results, progress)
        if pool is not None:
            pool.close()
            pool.join()
    except BaseException:
        if pool is not None:
            pool.terminate()
            pool.join()
        if runner is not None and hasattr(results, "close"):
            results.close()  # the runner stops its tasks
        raise
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        _PARENT = None


def _stop_on_signals() -> dict:
    """In the main thread: SIGINT, SIGTERM and SIGHUP raise ``Interrupted``; the handlers
    they had before, to put back."""
    old: dict = {}
    if threading.current_thread() is threading.main_thread():
        def stop(signum, _frame):
            raise Interrupted(signum)

        for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            old[s] = signal.signal(s, stop)
    return old


def _merge_results(sc, tasks: list[tuple], results: Iterator[dict], progress: Callable[[int], None] | None) -> None:
    """Merge every task's state into ``sc`` in plan order (local tasks scanned here), reporting
    the bytes done after each."""
    done = 0
    file = _FileRanges()
    for task in tasks:
        if task[0] == "local":
            local = _fresh(sc)
            local.scan_source(task[1])
            sc.merge(local.state())
            continue
        state = next(results)
        if task[0] == "file":
            sc.merge(state)
            done += state.get("bytes_read", 0)
        else:
            done += file.merge(sc, task, state)
        if progress is not None:
            progress(done)


class _FileRanges:
    """The byte ranges of one file, merged in order: the state of the range before, the lines
    before the current range, the file's warnings so far."""

    def __init__(self) -> None:
        self.prev: dict | None = None
        self.offset = 0
        self.file_warnings: list[str] = []

    def merge(self, sc, task: tuple, state: dict) -> int:
        """Merge one range's state into ``sc``; after the file's last range, its input and
        warnings too. Returns the range's bytes."""
        _kind, src, fmt, a, b, warm_from, last = task
        prev = self.prev
        if prev is None:
            self.offset, self.file_warnings = 0, []
        offset = self.offset
        late: list = []
        if prev is not None:
            met = ranges.pass_through(prev, state, src, fmt, a, b, offset)
            if met is None:  # the warm-up did not rebuild the open events: scan again, exactly
                carry = {"builders": _shifted_builders(prev["handover"]["builders"], -offset),
                         "dump": prev["handover"]["dump"]}
                state = scan_range(_fresh(sc), src, fmt, a, b, a, last, carry=carry)
                met = ({}, [])
            state["carried"], late = met
        renumber(state, offset)
        _own_handover(state, offset)
        self.offset = offset = offset + state["lines"]
        for w in state["warnings"]:
            if w not in self.file_warnings:
                self.file_warnings.append(w)
        state["warnings"] = []
        _merge_with_late(sc, state, late)
        self.prev = state
        if last:
            _finish(sc, state, offset)
            self.prev = None
            sc.inputs.append(InputInfo(src.name, src.size or 0, offset, fmt.name))
            sc.warnings.extend(self.file_warnings)
        return b - a


def _fresh(sc):
    return Scanner(sc.cat, exhaustive=sc.exhaustive, prefilter=sc.prefilter)


def _shifted_builders(builders: dict, shift: int) -> dict:
    out = copy.deepcopy(builders)
    for bld in out.values():
        bld.lines[:] = [replace(ln, lineno=ln.lineno + shift) for ln in bld.lines]
    return out


def _own_handover(state: dict, offset: int) -> None:
    """The open events a range hands over, detached from the lines ``renumber`` moved and
    numbered in the file's lines; plus those carried through it unchanged (``carried``),
    ordered as the sequential assembler holds them (by first line)."""
    own = _shifted_builders(state["handover"]["builders"], offset)
    both = {**state.get("carried", {}), **own}
    state["handover"]["builders"] = dict(sorted(both.items(), key=lambda kv: kv[1].lines[0].lineno))


def _merge_with_late(sc, state: dict, late: list) -> None:
    """Merge a range, completing the events handed over to it (``late``: (line, worker,
    builder)) where the sequential scan completes them: after the range's events completed
    before that line."""
    if not late:
        sc.merge(state)
        return
    groups = state["groups"]
    first = state["first_emit"]
    empty = {"logfacts": {}, "dumps": [], "inputs": [], "warnings": [], "overflow": 0}
    i = 0
    for lineno, w, bld in late:
        j = i
        while j < len(groups) and first.get(groups[j].fingerprint, 0) < lineno:
            j += 1
        sc.merge({**empty, "groups": groups[i:j]})
        i = j
        keep = {fp: g.last for fp, g in sc.groups.items()}
        sc.feed.close_handed(w, bld, lineno)
        # a group that the range's later events reached keeps its later last occurrence
        for fp, last in keep.items():
            g = sc.groups[fp]
            if last is not None and g.last is not None and last.lineno > g.last.lineno:
                g.last = last
    sc.merge({**state, "groups": groups[i:]})


def _finish(sc, state: dict, nlines: int) -> None:
    """The end of a split file of ``nlines`` lines: close the events still open, in the
    sequential order."""
    sc.feed.finish_handed(state["handover"]["builders"], nlines)
