"""The batch scan: sources in order, in one process or on every core (``parallel.py``), then
judged once and given the fleet view."""
from __future__ import annotations

import os
import time
from typing import Callable, Iterable, Sequence

from ..catalogue.loader import Catalogue, load_catalogue
from ..common.source import Source
from ..judge.fleet import attach
from ..model import Fact, ScanResult
from ..scan.ingest import expand_inputs
from ..scan.prefilter import SMALL, Prefilter
from ..scan.scanner import Scanner
from . import parallel

SLOW_WITHOUT_HYPERSCAN = 32 * 1024 * 1024  # from this many bytes, a scan without Hyperscan says why it is slow


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
    prefilter: Prefilter | None = None,
) -> ScanResult:
    """Scan ``sources`` in order. ``jobs`` > 1 (0: one per CPU) scans in that many worker
    processes when the input is big enough (``parallel.worth_it``): several files at once, and
    a big file in byte ranges; the result is the sequential one. Claiming and judging run
    once, here. Raises ``parallel.Interrupted`` on SIGINT/SIGTERM/SIGHUP during a parallel scan
    (every worker is stopped first)."""
    started = time.perf_counter()
    cat = catalogue or load_catalogue()
    sc = Scanner(cat, exhaustive=exhaustive, progress=progress, prefilter=prefilter)
    if jobs == 0:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if not exhaustive and sum(s.size or 0 for s in sources) >= SMALL:
        sc.prefilter.compile()  # many small logs (a fleet's pods): one Hyperscan database for all
    if parallel.worth_it(sources, jobs):
        parallel.scan_parallel(sc, sources, jobs, progress)
    else:
        for src in sources:
            sc.scan_source(src)
    if not exhaustive and sc.prefilter.engine == "re" and sum(i.bytes for i in sc.inputs) >= SLOW_WITHOUT_HYPERSCAN:
        sc.warnings.append("Hyperscan is not available here, so large logs are read at a few MB/s instead of "
                           "hundreds (pip install hyperscan)")
    result = sc.result(list(cli_facts) + list(extra_facts), prefer, started, one_machine)
    attach(result, sources, one_machine)
    return result


def scan_paths(paths: Sequence[str], **kw) -> ScanResult:
    """Scan files, directories or "-" (stdin). Raises common.source.IngestError for unusable input."""
    return scan_sources(expand_inputs(list(paths)), **kw)


def scan_text(text: str | bytes, *, source: str = "<text>", **kw) -> ScanResult:
    """Scan an in-memory log (tests, the signature sample harness)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    return scan_sources([Source(source, None, len(data), data=data)], **kw)
