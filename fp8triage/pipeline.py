"""The one module that knows the order of the stages: ingest → prefilter → normalise →
events → fingerprint/group → facts → match → (confirm) → result.

Streaming: each source is read in large chunks; the prefilter finds the lines that contain
an anchor (or a traceback frame), and only those lines, and the lines after them while an
event they started is still open, are decoded and assembled into events (see
``Scanner._feed_hits``; ``exhaustive=True`` feeds every line and is the reference the
equivalence test compares against). Memory is bounded by the chunk size plus the number of
distinct event fingerprints (capped at ``MAX_GROUPS``).
"""
from __future__ import annotations

import platform
import re
import time
from datetime import datetime, timezone
from typing import Callable, Iterable, Sequence

from . import __version__
from .binary import HEAD, binary_kind
from .cascades import cascade_kind
from .catalogue import Catalogue, load_catalogue
from .envdump import ENV_DUMP_ANCHORS
from .events import Assembler
from .fingerprint import ALGORITHM_VERSION, fingerprint
from .ingest import Source, expand_inputs, read_spans
from .logfacts import LogFacts
from .logfacts import anchors as fact_anchors
from .logfacts import PREFILTER_HINTS
from .logfacts import patterns as fact_patterns
from .matcher import Claims, Group
from .model import Event, Fact, InputInfo, ScanResult
from .normalise import LineFormat, detect_format, normalise
from .persource import judge_sources, pool
from .prefilter import FACT, NOTABLE, Prefilter

FWD = 32 * 1024  # bytes an open event keeps pulling lines in without its worker writing
MAX_GROUPS = 20_000
DUMP_LINES = 800  # lines kept after an environment-dump header
MAX_DUMP_LINES = 8_000

# Lines with these may start or continue a traceback without being notable: the prefiltered
# path feeds them (and what follows) to the assembler, as the exhaustive path does.
STRUCTURAL_ANCHORS = ('File "', "During handling of the above exception", "The above exception was the direct cause")

# Lines with these literals start events even when no signature names them, so errors that
# no signature knows are still found (and listed as unknown groups).
GENERIC_ANCHORS = (
    "Traceback (most recent call last)",
    "Error",
    "ERROR",
    "error:",
    "Exception",
    "Assertion",
    "assert",
    "FATAL",
    "Fatal",
    "terminate called",
    "what():",
    "WARNING",
    "Warning",
    "failed",
    "Failed",
    "Aborted",
    "Segmentation fault",
    "core dumped",
)


class Scanner:
    """Scan sources into event groups and log facts. ``on_group`` is called for each new
    fingerprint as soon as its first event is complete (follow mode uses it)."""

    def __init__(
        self,
        catalogue: Catalogue,
        exhaustive: bool = False,
        on_group: Callable[[Group], None] | None = None,
        progress: Callable[[int], None] | None = None,
    ):
        self.cat = catalogue
        self.exhaustive = exhaustive
        self.on_group = on_group
        self.progress = progress
        cs, ci = fact_anchors()
        sig_cs: set[str] = set(GENERIC_ANCHORS) | set(ENV_DUMP_ANCHORS)
        sig_ci: set[str] = set()
        for sig in catalogue.signatures:
            (sig_ci if sig.anchors_ignore_case else sig_cs).update(sig.anchors)
        self.prefilter = Prefilter(sig_cs, sig_ci, patterns=fact_patterns(), structural=STRUCTURAL_ANCHORS,
                                   facts=cs, facts_ignore_case=ci, hints=tuple(PREFILTER_HINTS.items()))
        self.groups: dict[str, Group] = {}
        self.logfacts = LogFacts()  # the current source's
        self.logfacts_by_source: dict[str, LogFacts] = {}
        self._dump_lines: list = []  # lines after an environment-dump header (collect_env, nvidia-smi, ...)
        self._dump_budget = 0
        self.inputs: list[InputInfo] = []
        self.warnings: list[str] = []
        self._order = 0
        self._overflow = 0
        self._worker_tokens: dict = {}  # worker name -> the raw words every line of it contains

    # -- events -----------------------------------------------------------------------------
    def _on_event(self, ev: Event) -> None:
        fp = fingerprint(ev)
        ev.fingerprint = fp
        g = self.groups.get(fp)
        if g is not None:
            g.add(ev)
            return
        if len(self.groups) >= MAX_GROUPS:
            self._overflow += 1
            return
        self._order += 1
        g = Group(fp, ev, 1, list(ev.workers), ev.lines[0], self._order)
        self.groups[fp] = g
        if self.on_group is not None:
            self.on_group(g)

    def _feed_line(self, asm: Assembler, raw: bytes, lineno: int, src: Source, fmt: LineFormat, notable: bool,
                   facts: bool = True):
        """One line through normalise, the environment-dump collector, log facts and the
        assembler. The exhaustive path and the prefiltered path both come through here.
        ``facts=False``: the line has no fact anchor or pattern, so log facts would find
        nothing in it (the prefiltered path knows this from the prefilter's hit classes)."""
        line = normalise(raw, src.name, lineno, fmt)
        if notable and any(a in line.text for a in ENV_DUMP_ANCHORS):
            self._dump_budget = DUMP_LINES
        if self._dump_budget > 0 and len(self._dump_lines) < MAX_DUMP_LINES:
            # inside a pasted environment dump: envdump reads these lines (a pip list is
            # not evidence of which stack wrote the log)
            self._dump_lines.append(line)
            self._dump_budget -= 1
        elif notable and facts:
            self.logfacts.feed(line)
        asm.feed(line, notable)
        return line

    def _feed_lines(self, asm: Assembler, buf: bytes, start: int, end: int, first_lineno: int,
                    src: Source, fmt: LineFormat) -> int:
        """Feed buf[start:end] (whole lines) to the assembler: every line (the exhaustive path).
        Returns the number of the line after the last."""
        pos = start
        lineno = first_lineno
        contains = self.prefilter.contains_anchor
        while pos < end:
            nl = buf.find(b"\n", pos, end)
            stop = end if nl < 0 else nl
            raw = buf[pos:stop]
            self._feed_line(asm, raw, lineno, src, fmt, contains(raw))
            pos = stop + 1
            lineno += 1
        return lineno

    def _feed_hits(self, asm: Assembler, chunk: bytes, start: int, end: int, first_lineno: int, src: Source,
                   fmt: LineFormat, base: int, touched: dict) -> int:
        """The prefiltered path over chunk[start:end] (whole lines; ``base``: the offset of
        chunk[0] in the source). Returns the number of the line after the last.

        A line without a hit changes nothing while no event is open and no environment dump
        is being read: it cannot start an event (only notable lines, traceback headers, frames
        and chain markers can, and those are all hits), and it is not read for facts. So lines
        are fed from each hit on while the assembler has an open event that is still live (or
        a dump is being read), and skipped otherwise.

        An event is live while its worker wrote to it within the last ``FWD`` bytes: lines are
        then walked one by one (a line whose raw text lacks the words of every open worker's
        name is skipped undecoded). A stale event does not pull every line in; the scan jumps
        to the next hit or to the next line that may belong to its worker (found with
        ``bytes.find`` on the worker's name, or, for lines without a worker prefix, the next
        line that starts with neither "(" nor "["), so it is continued or closed exactly where
        the exhaustive path would do it. ``touched``: worker -> offset of the line that last
        started or continued its event."""
        starts, flags = self.prefilter.hits(chunk, start, end)
        n = end
        find = chunk.find
        count = chunk.count
        pos = start  # offset of the next line not yet accounted for
        lineno = first_lineno
        i = 0
        nstarts = len(starts)
        open_ = asm.open
        tokens = self._worker_tokens
        jsonl = fmt.jsonl
        cand: dict = {}  # worker -> offset of its next candidate line in this chunk
        while pos < n:
            if self._dump_budget > 0 or (open_ and any(base + pos - touched.get(w, -FWD) < FWD for w in open_)):
                # follow the live events line by line
                bits = flags.get(pos, 0)
                if i < nstarts and starts[i] <= pos:
                    i += 1
                if not bits and self._dump_budget <= 0 and not jsonl:
                    # a line that belongs to no open event's worker is a no-op: skip it
                    # without decoding (every word of a worker name is in the raw line)
                    nl = find(b"\n", pos, n)
                    stop = n if nl < 0 else nl
                    raw = chunk[pos:stop]
                    for w in open_:
                        toks = tokens.get(w)
                        if toks is None:
                            toks = tokens[w] = _worker_tokens(w)
                        if not toks or all(t in raw for t in toks):
                            break
                    else:
                        pos = stop + 1
                        lineno += 1
                        continue
            else:
                # nothing live: jump to the next hit, or to the next line that may belong to
                # the worker of a stale open event
                while i < nstarts and starts[i] < pos:
                    i += 1
                target = starts[i] if i < nstarts else n
                if open_ and not jsonl:
                    for w in open_:
                        c = cand.get(w, -1)
                        if c < pos:
                            c = cand[w] = _next_line_of(chunk, w, pos, n, tokens)
                        if c < target:
                            target = c
                if target >= n:
                    break
                lineno += count(b"\n", pos, target)
                pos = target
                bits = flags.get(pos, 0)
                if i < nstarts and starts[i] == pos:
                    i += 1
            nl = find(b"\n", pos, n)
            stop = n if nl < 0 else nl
            raw = chunk[pos:stop]
            # log facts need a fact anchor or pattern in the line; decoding (JSON lines, ANSI
            # codes between the letters of a word) could make one that the raw bytes lack
            facts = bool(bits & FACT) or jsonl or b"\x1b" in raw
            line = self._feed_line(asm, raw, lineno, src, fmt, bool(bits & NOTABLE), facts)
            if line.worker in open_:
                touched[line.worker] = base + pos
            pos = stop + 1
            lineno += 1
        if pos < n:
            lineno += count(b"\n", pos, n)
            if not chunk.endswith(b"\n", start, n):
                lineno += 1  # the source's last line has no newline
        return lineno

    # -- sources ----------------------------------------------------------------------------
    def scan_source(self, src: Source) -> None:
        asm = Assembler(self._on_event)
        self._dump_budget = 0  # an environment dump ends with its file
        self.logfacts = self.logfacts_by_source.setdefault(src.name, LogFacts())
        fmt: LineFormat | None = None
        lineno = 1
        touched: dict = {}
        base = 0
        binary = False  # a binary file is skipped with a warning (its lines are still counted)
        for buf, start, end in read_spans(src):
            if fmt is None:
                fmt = detect_format(buf[start:min(end, start + 65536)])
                kind = binary_kind(buf[start:min(end, start + HEAD)])
                if kind:
                    binary = True
                    src.warnings.append(f"{src.name}: {kind}, not a text log; skipped")
            if binary:
                lineno += buf.count(b"\n", start, end) + (0 if buf.endswith(b"\n", start, end) else 1)
            elif self.exhaustive:
                lineno = self._feed_lines(asm, buf, start, end, lineno, src, fmt)
            else:
                lineno = self._feed_hits(asm, buf, start, end, lineno, src, fmt, base - start, touched)
            base += end - start
            if self.progress is not None:
                self.progress(src.bytes_read)
        asm.finish()
        fmt_name = "binary" if binary else (fmt.name if fmt else "text")
        if src.compressed:
            fmt_name = "gzip+" + fmt_name
        self.inputs.append(InputInfo(src.name, src.bytes_read, lineno - 1, fmt_name))
        self.warnings.extend(src.warnings)

    # -- parallel scans (--jobs) --------------------------------------------------------------
    def reset(self) -> None:
        """Forget what was scanned (a worker process reuses its Scanner for the next source)."""
        self.groups = {}
        self.logfacts = LogFacts()
        self.logfacts_by_source = {}
        self._dump_lines = []
        self._dump_budget = 0
        self.inputs = []
        self.warnings = []
        self._order = 0
        self._overflow = 0

    def state(self) -> dict:
        """What a scan found, as plain picklable data for ``merge``."""
        return {
            "groups": sorted(self.groups.values(), key=lambda g: g.order),
            "logfacts": self.logfacts_by_source,
            "dump_lines": self._dump_lines,
            "inputs": self.inputs,
            "warnings": self.warnings,
            "overflow": self._overflow,
        }

    def merge(self, state: dict) -> None:
        """Add the state of a scan of later sources, as if they had been scanned here next:
        groups keep their first-seen order, counts add up, the first value of a fact wins."""
        for g in state["groups"]:
            mine = self.groups.get(g.fingerprint)
            if mine is not None:
                mine.absorb(g)
                continue
            if len(self.groups) >= MAX_GROUPS:
                self._overflow += g.count
                continue
            self._order += 1
            g.order = self._order
            self.groups[g.fingerprint] = g
            if self.on_group is not None:
                self.on_group(g)
        for name, lf in state["logfacts"].items():
            have = self.logfacts_by_source.get(name)
            self.logfacts_by_source[name] = lf if have is None else pool([have, lf])
        room = MAX_DUMP_LINES - len(self._dump_lines)
        if room > 0:
            self._dump_lines.extend(state["dump_lines"][:room])
        self.inputs.extend(state["inputs"])
        self.warnings.extend(state["warnings"])
        self._overflow += state["overflow"]

    # -- result -----------------------------------------------------------------------------
    def result(
        self,
        extra_facts: Iterable[Fact] = (),
        prefer: str = "log",
        started: float | None = None,
        one_machine: bool = False,
    ) -> ScanResult:
        groups = sorted(self.groups.values(), key=lambda g: g.order)
        # each source is judged on its own facts (persource.py); follow mode feeds self.logfacts
        by_source = self.logfacts_by_source or {(groups[0].event.lines[0].source if groups else ""): self.logfacts}
        j = judge_sources(self.cat, groups, by_source, self._dump_lines, extra_facts, prefer, one_machine)
        findings, ruled, unknown, conflicts = j.findings, j.ruled, j.unknown, j.conflicts
        warnings = list(self.warnings) + j.warnings
        if self._overflow:
            warnings.append(f"more than {MAX_GROUPS} distinct errors; {self._overflow} later events were counted but not grouped")
        meta = {
            "tool": "fp8triage",
            "version": __version__,
            "catalogue_version": self.cat.version,
            "signatures": len(self.cat.signatures),
            "fingerprint_algorithm": ALGORITHM_VERSION,
            "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "host": platform.node(),
            "facts_from": prefer,
            "prefilter": "exhaustive" if self.exhaustive else self.prefilter.engine,
            "elapsed_s": round(time.perf_counter() - started, 3) if started else None,
        }
        return ScanResult(
            findings=findings,
            unknown=unknown,
            facts=j.facts,
            conflicts=conflicts,
            inputs=self.inputs,
            meta=meta,
            ruled_out=ruled,
            warnings=warnings,
        )


def _worker_tokens(worker: str | None) -> tuple[bytes, ...]:
    """Words that every raw line of ``worker`` contains (normalise builds worker names from
    pieces of the line's prefix); () when that cannot be relied on (no worker, non-ASCII)."""
    if not worker or not worker.isascii() or not worker.isprintable():
        return ()
    return tuple(t.encode("ascii") for t in worker.split())


# the next line that may have no worker prefix (a blank line, or one that starts with
# neither "(" nor "["): where a stale event of worker None may continue
_MAYBE_NO_WORKER = re.compile(rb"\n(?:[^(\[\n]|\n)")


def _next_line_of(chunk: bytes, worker: str | None, pos: int, n: int, tokens: dict) -> int:
    """Offset of the next line in chunk[pos:n] (``pos`` a line start) that may belong to
    ``worker``; ``n`` if none."""
    if worker is None:
        if chunk[pos - 1:pos] in (b"", b"\n") and chunk[pos:pos + 1] not in (b"(", b"["):
            return pos
        m = _MAYBE_NO_WORKER.search(chunk, pos - 1 if pos else 0, n)
        return m.start() + 1 if m else n
    toks = tokens.get(worker)
    if toks is None:
        toks = tokens[worker] = _worker_tokens(worker)
    if not toks:
        return n  # cannot be found cheaply: the event waits for the next hit of its worker
    first, rest = toks[0], toks[1:]
    at = pos
    while True:
        c = chunk.find(first, at, n)
        if c < 0:
            return n
        ls = chunk.rfind(b"\n", pos, c) + 1 or pos
        le = chunk.find(b"\n", c, n)
        if le < 0:
            le = n
        line = chunk[ls:le]
        if all(t in line for t in rest):
            return ls
        at = le + 1


CASCADE_LOOKBACK = 200  # lines: "WorkerProc failed to start." is printed just before its traceback


def attach_cascades(findings, unknown, claims: Claims):
    """Move unknown groups that follow from the top finding into its consequences.

    A group is a consequence when it matches a cascade pattern and appears in another source
    (another pod's log) or, in the same source, no more than CASCADE_LOOKBACK lines before the
    finding's first evidence line.
    """
    top = next((f for f in findings if not f.from_facts_only and f.severity.value != "info"), None)
    if top is None:
        return unknown
    hits = claims.primary.get(top.id, []) or claims.supporting.get(top.id, [])
    if not hits:
        return unknown
    first = {}
    for h in hits:
        ln = h.group.event.lines[0]
        first[ln.source] = min(first.get(ln.source, ln.lineno), ln.lineno)
    keep = []
    for u in unknown:
        kind = cascade_kind(u.headline + "\n" + "\n".join(ln.text for ln in u.sample))
        src = u.first.source
        if kind and (src not in first or u.last.lineno >= first[src] - CASCADE_LOOKBACK):
            top.consequences.append({"kind": kind, "fingerprint": u.fingerprint, "headline": u.headline,
                                     "count": u.count, "source": src, "line": u.first.lineno})
            continue
        keep.append(u)
    return keep


def scan_sources(
    sources: Sequence[Source],
    *,
    catalogue: Catalogue | None = None,
    cli_facts: Iterable[Fact] = (),
    extra_facts: Iterable[Fact] = (),
    prefer: str = "log",
    exhaustive: bool = False,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
    one_machine: bool = False,
) -> ScanResult:
    """Scan ``sources`` in order. ``jobs`` > 1 scans files in that many worker processes
    (each source in one worker) and merges the results in source order; claiming and
    judging run once, here."""
    started = time.perf_counter()
    cat = catalogue or load_catalogue()
    sc = Scanner(cat, exhaustive=exhaustive, progress=progress)
    parallel = [s for s in sources if s.path is not None and s.data is None]
    if jobs > 1 and len(parallel) > 1:
        _scan_parallel(sc, sources, jobs)
    else:
        for src in sources:
            sc.scan_source(src)
    return sc.result(list(cli_facts) + list(extra_facts), prefer, started, one_machine)


_WORKER_SCANNER: Scanner | None = None


def _worker_init(cat: Catalogue, exhaustive: bool) -> None:
    global _WORKER_SCANNER
    _WORKER_SCANNER = Scanner(cat, exhaustive=exhaustive)


def _worker_scan(src: Source) -> dict:
    sc = _WORKER_SCANNER
    assert sc is not None
    sc.reset()
    sc.scan_source(src)
    return sc.state()


def _scan_parallel(sc: Scanner, sources: Sequence[Source], jobs: int) -> None:
    """Scan files in worker processes (stdin and in-memory sources in this one), merging the
    per-source states in the order the sources were given."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform
        ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init,
                             initargs=(sc.cat, sc.exhaustive)) as pool:
        futures = [pool.submit(_worker_scan, s) if s.path is not None and s.data is None else None for s in sources]
        done_bytes = 0
        for src, fut in zip(sources, futures):
            if fut is None:
                local = Scanner(sc.cat, exhaustive=sc.exhaustive)
                local.scan_source(src)
                state = local.state()
            else:
                state = fut.result()
            sc.merge(state)
            src.bytes_read = state["inputs"][-1].bytes if state["inputs"] else src.bytes_read
            done_bytes += src.bytes_read
            if sc.progress is not None:
                sc.progress(done_bytes)


def scan_paths(paths: Sequence[str], **kw) -> ScanResult:
    """Scan files, directories or "-" (stdin). Raises ingest.IngestError for unusable input."""
    return scan_sources(expand_inputs(list(paths)), **kw)


def scan_text(text: str | bytes, *, source: str = "<text>", **kw) -> ScanResult:
    """Scan an in-memory log (tests, the signature sample harness)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return scan_sources([Source(source, None, len(data), data=data)], **kw)
