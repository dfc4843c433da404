"""Scanning on a Ray cluster (``fp8triage scan --ray [ADDRESS]``).

The work is cut as ``parallel.py`` cuts it for local processes: one task per file or object,
and one task per byte range of a big uncompressed one (``split`` bytes each, at line starts;
the range after reads ``parallel.WARM`` bytes before its start to rebuild the events open
there). Each task runs ``parallel.run_task``, the same scanner as a local worker process, in a
Ray worker; the driver merges the partial results in task order with
``parallel.scan_parallel`` (renumbering, handover checks, exact re-scans), so the result
equals the local scan's. Claiming, judging and rendering run once, in the driver.

At most ``window`` tasks are in flight, so the driver holds a bounded number of partial
results (each is bounded by ``scan/scanner.MAX_GROUPS`` groups) however many objects there are.

Ray is an optional extra (``pip install 'fp8triage[fleet]'``); without it, or when the
cluster cannot be reached, or when a worker dies or a task fails, ``FleetError`` says so in
one sentence and no result is produced: a scan with a missing part is never passed off as
complete. Tasks are not retried (``max_retries=0``): a scan is cheap to run again, and a
worker that died on an input (out of memory) would die again.
"""
from __future__ import annotations

import logging
import os
import re
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from ..common.source import IngestError, Source
from ..errors import TriageError
from ..judge.fleet import attach
from ..scan.ingest import expand_inputs, split_points
from ..scan.normalise import detect_format
from ..scan.scanner import Scanner
from . import parallel

SPLIT = 64 * 1024 * 1024  # an uncompressed input this big or bigger is cut into ranges of this size
ADDRESS = re.compile(r"^(?:auto|local|(?:ray://)?[\w.-]+:\d+)$")
EXTRA = "pip install 'fp8triage[fleet]'"


class FleetError(TriageError):
    """A distributed scan cannot run or did not complete. One sentence."""


def is_address(text: str) -> bool:
    """Does ``text`` look like a Ray address (auto, local, HOST:PORT, ray://HOST:PORT)?"""
    return ADDRESS.match(text) is not None


@dataclass
class RayStats:
    """What the workers reported: per worker process, tasks, seconds and peak memory."""

    tasks: int = 0
    workers: dict[str, dict] = field(default_factory=dict)  # "node:pid" -> {"tasks", "seconds", "peak_rss"}

    def add(self, state: dict) -> None:
        self.tasks += 1
        w = self.workers.setdefault(state.get("ray_worker", "?"), {"tasks": 0, "seconds": 0.0, "peak_rss": 0})
        w["tasks"] += 1
        w["seconds"] = round(w["seconds"] + state.get("ray_seconds", 0.0), 3)
        w["peak_rss"] = max(w["peak_rss"], state.get("ray_peak_rss", 0))


# -- in the worker -------------------------------------------------------------------------------

_SCANNERS: dict = {}  # catalogue version + mode -> a Scanner, reused by the worker's later tasks


def run_task(key: str, cat_box: list, exhaustive: bool, task: tuple) -> dict:
    """One task in a Ray worker: ``parallel.run_task`` with this worker's Scanner."""
    import resource
    import socket

    started = time.perf_counter()
    sc = _SCANNERS.get(key)
    if sc is None:
        import ray

        cat = cat_box[0]
        if not hasattr(cat, "signatures"):  # an ObjectRef: fetched once per worker
            cat = ray.get(cat)
        sc = _SCANNERS[key] = Scanner(cat, exhaustive=exhaustive)
        if not exhaustive:
            sc.prefilter.compile()  # once per worker: its tasks are often small logs
    state = parallel.run_task(sc, task)
    state["ray_worker"] = f"{socket.gethostname()}:{os.getpid()}"
    state["ray_seconds"] = time.perf_counter() - started
    state["ray_peak_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    return state


# -- in the driver -------------------------------------------------------------------------------

def plan(sources: Sequence[Source], split: int = SPLIT) -> list[tuple]:
    """Tasks in source order, in ``parallel.plan``'s shapes: byte ranges of about ``split``
    bytes for a big uncompressed file or object, one task for any other file or object, and
    ("local", src) for standard input and in-memory data (scanned in the driver)."""
    tasks: list[tuple] = []
    for src in sources:
        if src.data is not None or (src.path is None and src.url is None) or src.stream:
            tasks.append(("local", src))
            continue
        size = src.size or 0
        parts = -(-size // split) if split > 0 else 1
        if parts >= 2:
            opener = _opener(src)
            with opener(None, "rb") as fh:
                head = fh.read(65536)
            if head[:2] != b"\x1f\x8b":
                cuts = split_points(src.path or src.url, size, parts, opener=opener)
                if len(cuts) > 2:
                    fmt = detect_format(head)
                    for k in range(len(cuts) - 1):
                        a, b = cuts[k], cuts[k + 1]
                        warm_from = _line_start_at(opener, a - parallel.WARM) if k else a
                        part = Source(src.name, src.path, size, url=src.url, mtime=src.mtime)
                        tasks.append(("range", part, fmt, a, b, warm_from, k == len(cuts) - 2))
                    continue
        tasks.append(("file", src))
    return tasks


def _opener(src: Source) -> Callable:
    if src.url is not None:
        from ..scan.objstore import open_url

        return lambda _path, _mode: open_url(src)
    return lambda _path, mode: open(src.path, mode)  # noqa: SIM115 - closed by the caller's with


def _line_start_at(opener: Callable, at: int) -> int:
    """The first line start at or after ``at`` (0 if ``at`` <= 0)."""
    if at <= 0:
        return 0
    with opener(None, "rb") as fh:
        fh.seek(at - 1)
        data = fh.read(1 << 20)
    nl = data.find(b"\n")
    return at + nl if nl >= 0 else at


def connect(address: str | None, cpus: int | None = None):
    """Import Ray and connect to ``address`` ("local" or None: start Ray on this machine;
    "auto": the cluster this machine belongs to, or $RAY_ADDRESS). Raises FleetError."""
    try:
        import ray
    except ImportError:
        raise FleetError(f"--ray needs Ray, which is not installed ({EXTRA})") from None
    if ray.is_initialized():
        return ray
    kw: dict = {"log_to_driver": False, "logging_level": logging.ERROR, "configure_logging": True}
    if address not in (None, "local", "auto"):
        _reachable(address)
    try:
        if address in (None, "local"):
            ray.init(num_cpus=cpus, include_dashboard=False, **kw)
        else:
            ray.init(address=address, **kw)
    except (ConnectionError, RuntimeError, ValueError, TimeoutError) as e:
        where = "a local Ray instance cannot be started" if address in (None, "local") else \
            f"cannot connect to the Ray cluster at {address}"
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise FleetError(f"{where} ({first[:200]})") from None
    return ray


def _reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast when nothing listens at HOST:PORT (Ray itself retries for minutes)."""
    import socket

    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise FleetError(f"cannot connect to the Ray cluster at {address} "
                         f"({e.strerror or type(e).__name__.replace('Error', ' error').lower()})") from None


def runner(ray, catalogue, exhaustive: bool, stats: RayStats, window: int | None = None):
    """A ``runner`` for ``parallel.scan_parallel``: runs the tasks on Ray, yields their states
    in task order; a failed or lost task raises FleetError (the rest are cancelled)."""
    key = f"{catalogue.version}:{int(exhaustive)}"
    cat_ref = ray.put(catalogue)
    remote = ray.remote(max_retries=0, num_cpus=1)(run_task)
    if window is None:
        cpus = int(ray.cluster_resources().get("CPU", 1) or 1)
        window = max(4, 2 * cpus)

    def run(tasks: list[tuple]) -> Iterator[dict]:
        pending: list = []
        nxt = 0
        ok = False
        try:
            for i, task in enumerate(tasks):
                while nxt < len(tasks) and nxt < i + window:
                    pending.append(remote.remote(key, [cat_ref], exhaustive, tasks[nxt]))
                    nxt += 1
                ref = pending[i]
                try:
                    state = ray.get(ref)
                except Exception as e:  # noqa: BLE001 - Ray wraps what happened in its own types
                    raise _failure(ray, e, task) from None
                pending[i] = None  # the driver keeps only the states not merged yet
                stats.add(state)
                yield state
            ok = True
        finally:
            if not ok:
                for ref in pending:
                    if ref is not None:
                        try:
                            ray.cancel(ref, force=True)
                        except Exception:  # noqa: BLE001 - already finished or gone
                            pass

    return run


def _what(task: tuple) -> str:
    if task[0] == "range":
        return f"bytes {task[3]}..{task[4]} of {task[1].name}"
    return task[1].name


def _failure(ray, e: BaseException, task: tuple) -> Exception:
    exc = ray.exceptions
    what = _what(task)
    tail = "; the scan is incomplete and no result was produced"
    if isinstance(e, exc.RayTaskError):
        cause = getattr(e, "cause", None)
        if isinstance(cause, IngestError):
            return IngestError(str(cause))
        if isinstance(cause, KeyboardInterrupt):
            return FleetError(f"the task scanning {what} was interrupted{tail}")
        name = type(cause).__name__ if cause is not None else "error"
        msg = (str(cause).strip().splitlines() or [""])[0][:200] if cause is not None else ""
        return FleetError(f"scanning {what} failed on a Ray worker ({name}: {msg}){tail}")
    lost = (exc.WorkerCrashedError, exc.NodeDiedError, exc.TaskCancelledError, exc.ObjectLostError)
    oom = getattr(exc, "OutOfMemoryError", ())
    if oom and isinstance(e, oom):
        return FleetError(f"the Ray worker scanning {what} was killed for lack of memory{tail}")
    if isinstance(e, lost):
        return FleetError(f"the Ray worker scanning {what} died ({type(e).__name__}){tail}")
    first = (str(e).strip().splitlines() or [type(e).__name__])[0][:200]
    return FleetError(f"the Ray task scanning {what} did not complete ({type(e).__name__}: {first}){tail}")


def scan_on_ray(sc, sources: Sequence[Source], ray, *, split: int = SPLIT, window: int | None = None,
                progress: Callable[[int], None] | None = None) -> RayStats:
    """Scan ``sources`` on the connected Ray cluster into Scanner ``sc``; the result equals a
    sequential ``sc.scan_source`` of each. Returns the workers' statistics."""
    stats = RayStats()
    tasks = plan(sources, split)
    run = runner(ray, sc.cat, sc.exhaustive, stats, window)
    parallel.scan_parallel(sc, sources, 2, progress, tasks=tasks, runner=run)
    return stats


def scan_paths_ray(paths: Sequence[str], *, address: str | None, catalogue, cli_facts=(), extra_facts=(),
                   prefer: str = "log", exhaustive: bool = False, progress: Callable[[int], None] | None = None,
                   one_machine: bool = False, split: int = SPLIT, window: int | None = None,
                   cpus: int | None = None):
    """``batch.scan_paths`` on Ray: the inputs are listed here (bad input fails before Ray
    starts), scanned in Ray tasks, merged, claimed and judged here. ``result.meta["executor"]``
    records the tasks and each worker's task count, busy seconds and peak memory. Raises
    IngestError, FleetError."""
    started = time.perf_counter()
    sources = expand_inputs(list(paths))
    ray = connect(address, cpus)
    owned = address in (None, "local")
    try:
        sc = Scanner(catalogue, exhaustive=exhaustive, progress=progress)
        stats = scan_on_ray(sc, sources, ray, split=split, window=window, progress=progress)
    finally:
        if owned:
            ray.shutdown()
    result = sc.result(list(cli_facts) + list(extra_facts), prefer, started, one_machine)
    attach(result, sources, one_machine)
    result.meta["executor"] = {"kind": "ray", "address": address or "local", "tasks": stats.tasks,
                               "workers": stats.workers}
    return result
