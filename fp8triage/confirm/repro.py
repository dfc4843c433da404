"""Run the bundled FP8 repro kernels and use their results to confirm findings.

Each kernel under ``repro_kernels/`` (``<id with underscores>.py``) is a script,
``python <file> --device auto|cuda|cpu --json``, that prints one JSON object (see docs/repro.md for the
contract). By default the kernels run in lanes on warm worker processes (``repro_worker.py``: torch and
the CUDA context loaded once per worker, the kernels of one ``GROUP`` in turn on one worker, each run
as ``__main__`` with its own arguments, output files and a restored environment); with ``isolate``
each runs in a fresh subprocess. Either way there is a
timeout, and a kernel that crashes, hangs, is killed or prints garbage yields a result with verdict
``error`` or ``timeout`` and a reason; a worker that died or hung is killed with its process group and
replaced. The runner itself never raises for a kernel failure, so a sticky CUDA error or a segfault in
a kernel cannot take the triage down.

Running one kernel (a fresh process, or a warm worker) is ``runner.py``'s; this module finds the
kernels, plans the lanes, runs the pool of workers and confirms findings with the results.

This module never imports torch: only the kernels do, in their own processes.
"""
from __future__ import annotations

import ast
import copy
import importlib.util
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterable

from ..model import Finding, Status
from ..errors import TriageError
from ..common.envelope import SCHEMA_VERSIONS
from .served import request as served_run
from .runner import DEFAULT_TIMEOUT, WORKER_START_TIMEOUT, _base, _command, _finish, _timed_out, _Worker, run_one
from .runner import VERDICTS, _env, bytecode_cache  # noqa: F401  (offered here too, as before the split)

SCHEMA_VERSION = SCHEMA_VERSIONS["repro"]
DEVICES = ("auto", "cuda", "cpu")
RESULT_KEYS = ("id", "verdict", "reason", "metrics", "device", "capability", "versions", "wall_s", "gpu_s",
               "command", "mode")
NO_TORCH = ("torch is not installed, so the repro kernels cannot run; install it with "
            "`pip install 'fp8triage[repro]'`.")


class ReproError(TriageError):
    """Bad input to the runner (unknown id, bad device, missing kernel folder): one clear sentence."""


class UnknownRepro(ReproError):
    pass


# ── discovery ─────────────────────────────────────────────────────────────────────────────────────


def kernel_dir() -> Path:
    from ..paths import data_dir

    return data_dir("repro_kernels")


def discover(directory: str | os.PathLike | None = None) -> dict[str, Path]:
    """Repro id → script path, for every ``*.py`` in the folder not starting with ``_``."""
    d = Path(directory) if directory is not None else kernel_dir()
    if not d.is_dir():
        raise ReproError(f"the repro kernel folder {d} does not exist.")
    return {p.stem.replace("_", "-"): p for p in sorted(d.glob("*.py")) if not p.name.startswith("_")}


def torch_available(python: str | None = None) -> bool:
    """Whether the interpreter that runs the kernels can import torch (checked without importing it)."""
    if python is None or os.path.realpath(python) == os.path.realpath(sys.executable):
        return importlib.util.find_spec("torch") is not None
    try:
        r = subprocess.run([python, "-c", "import importlib.util,sys; sys.exit(importlib.util.find_spec('torch') is None)"],
                           capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0


def resolve_ids(ids: Iterable[str] | None, known: dict[str, Path]) -> list[str]:
    """The ids to run, in order, without duplicates; raises UnknownRepro naming the known ids."""
    if not ids:
        return list(known)
    out: list[str] = []
    bad = []
    for i in ids:
        key = i.strip().replace("_", "-")
        if key not in known:
            bad.append(i)
        elif key not in out:
            out.append(key)
    if bad:
        noun = "repro id" if len(bad) == 1 else "repro ids"
        raise UnknownRepro(f"unknown {noun} {', '.join(repr(b) for b in bad)}; known ids: {', '.join(known)}.")
    return out


def _source(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _priority(path: Path) -> int:
    """Kernels that say ``HEAVY = True`` (they import a large library or compile) are started first."""
    return 0 if re.search(r"(?m)^HEAVY = True\b", _source(path)) else 1


def _literal(path: Path, name: str) -> Any:
    """The value of a top-level ``NAME = <literal>`` line of a kernel, read from the source text (never
    by importing the kernel); None when absent or not a literal."""
    m = re.search(rf"(?m)^{name} = (.+?)\s*(?:#.*)?$", _source(path))
    if not m:
        return None
    try:
        return ast.literal_eval(m.group(1))
    except (ValueError, SyntaxError):
        return None


def _preload_hint(path: Path, name: str = "PRELOAD") -> tuple[str, ...]:
    """What a kernel declares for a new worker: ``PRESTART = ("module:function", ...)``, called with the
    device before the worker imports torch (for example to start a child process early), and
    ``PRELOAD = ("module", "module:function", ...)``, imported or called while it creates the CUDA context."""
    names = _literal(path, name)
    if not isinstance(names, tuple):
        return ()
    return tuple(n for n in names if isinstance(n, str) and re.fullmatch(r"[A-Za-z_][\w.]*(?::[A-Za-z_]\w*)?", n))


def _group(path: Path) -> tuple[str, int] | None:
    """``GROUP = ("name", rank)``: the kernels of one group run in rank order on one worker."""
    g = _literal(path, "GROUP")
    if isinstance(g, str):
        return g, 0
    if isinstance(g, tuple) and len(g) == 2 and isinstance(g[0], str) and isinstance(g[1], int):
        return g[0], g[1]
    return None


def lanes(todo: list[str], known: dict[str, Path]) -> list[list[str]]:
    """The kernels to run, as lanes: each lane runs on one worker, one kernel after another.

    Kernels that declare the same ``GROUP`` share a lane (in rank order), so what they need is loaded
    once: one worker with transformers imported runs two of its kernels; one worker and one DeepGEMM
    child serve the kernels that need only torch (and DeepGEMM). Any other kernel is a lane of its
    own. Lanes that hold a ``HEAVY`` kernel come first; otherwise the order asked is kept.
    """
    by_group: dict[str, list[tuple[int, int, str]]] = {}
    plan: list[tuple[int, int, list[str]]] = []
    for i, rid in enumerate(todo):
        g = _group(known[rid])
        if g is None:
            plan.append((_priority(known[rid]), i, [rid]))
        else:
            by_group.setdefault(g[0], []).append((g[1], i, rid))
    for members in by_group.values():
        members.sort()
        plan.append((min(_priority(known[r]) for _, _, r in members), min(i for _, i, _ in members),
                     [r for _, _, r in members]))
    plan.sort(key=lambda p: (p[0], p[1]))
    return [p[2] for p in plan]


STAGGER_S = 2.5  # a lane that imports no large library waits this long while the others import torch


def _start_delays(plan: list[list[str]], known: dict[str, Path]) -> list[float]:
    """Seconds each lane waits before its worker starts. Interpreters that import torch at the same
    moment slow each other down (measured on the H200: alone 2.8 s, eight at once 3.6-4.7 s each), and
    the lanes that also import transformers are the longest; so where such lanes run, the lanes whose
    kernels declare no PRELOAD start ``STAGGER_S`` later, which they can afford."""
    big = [any(_preload_hint(known[r]) for r in lane) for lane in plan]
    return [0.0 if b or not any(big) else STAGGER_S for b in big]


def _run_pool(plan: list[list[str]], known: dict[str, Path], device: str, timeout: float, jobs: int,
              python: str, served=None) -> list[dict[str, Any]]:
    """Run the lanes on ``jobs`` warm workers; a worker that crashed or hung is replaced. ``served``: a
    ``server.Server`` whose started workers the lanes take (``fp8triage repro --serve``)."""
    tasks: queue.Queue = queue.Queue()
    for lane, delay in zip(plan, _start_delays(plan, known)):
        tasks.put((lane, delay))
    results: dict[str, dict[str, Any]] = {}
    t_run = time.perf_counter()

    def slot(tmpdir: str) -> None:
        worker: _Worker | None = None
        try:
            while True:
                try:
                    lane, delay = tasks.get_nowait()
                except queue.Empty:
                    return
                wait = t_run + delay - time.perf_counter()
                if wait > 0 and worker is None and served is None:  # (a server's workers have started already)
                    time.sleep(wait)
                for n, rid in enumerate(lane):
                    path = known[rid]
                    fresh = worker is None or not worker.alive()
                    if fresh:
                        worker = served.take(rid, WORKER_START_TIMEOUT) if served is not None else None
                        worker = worker or _start_worker(lane[n:], known, python, device, tmpdir)
                        if worker is None:  # no worker here: fall back to a fresh process
                            results[rid] = run_one(rid, path, device, timeout, python)
                            continue
                    results[rid], keep = _run_on(worker, fresh, rid, path, device, timeout, python, t_run)
                    if not keep:
                        worker = None
        finally:
            if worker is not None:
                worker.close()

    with tempfile.TemporaryDirectory(prefix="fp8triage-repro-") as tmp:
        threads = [threading.Thread(target=slot, args=(os.path.join(tmp, str(i)),), daemon=True)
                   for i in range(jobs)]
        for i, t in enumerate(threads):
            os.makedirs(os.path.join(tmp, str(i)))
            t.start()
        for t in threads:
            t.join()
    return [results[r] for lane in plan for r in lane]


def _start_worker(rest: list[str], known: dict[str, Path], python: str, device: str,
                  tmpdir: str) -> _Worker | None:
    """A warm worker for the rest of a lane, loading what those kernels declare while it starts
    (PRESTART, PRELOAD); None when no worker starts here."""
    hints: dict[str, list[str]] = {"PRESTART": [], "PRELOAD": []}
    for r in rest:
        for key, got in hints.items():
            got += [m for m in _preload_hint(known[r], key) if m not in got]
    t_start = time.perf_counter()
    worker = _Worker(python, device, tmpdir, tuple(hints["PRELOAD"]), str(known[rest[0]].parent),
                     tuple(hints["PRESTART"]))
    if not worker.wait_ready():
        return None
    worker.ready_s = round(time.perf_counter() - t_start, 3)
    return worker


def _run_on(worker: _Worker, fresh: bool, rid: str, path: Path, device: str, timeout: float, python: str,
            t_run: float) -> tuple[dict[str, Any], bool]:
    """One kernel on ``worker``: its result, and whether the worker can run the next one (it did not
    hang or die)."""
    res = _base(rid, _command(python, path, device), device)
    res["isolation"] = "worker"
    info = {"pid": worker.proc.pid, "fresh": fresh, "ready_s": worker.ready_s,
            "started_at_s": round(time.perf_counter() - t_run, 3), "served": worker.served}
    if fresh and worker.ready:
        info["preload"] = worker.ready.get("preload")
    state, code, out, err, wall = worker.run(rid, path, timeout)
    if state == "timeout":
        res, keep = _timed_out(res, timeout, wall, err), False
    else:
        res = _finish(res, rid, path, out, err, code if code is not None else 1, round(wall, 4))
        keep = worker.alive()
    res["worker"] = info
    return res, keep


def run_repros(ids: Iterable[str] | None = None, device: str = "auto", timeout: float = DEFAULT_TIMEOUT,
               directory: str | os.PathLike | None = None, jobs: int | None = None,
               python: str | None = None, isolate: bool = False, served=None) -> list[dict[str, Any]]:
    """Run the named (or all) kernels; results in the order asked. Raises ReproError on bad input only.

    By default the kernels run in lanes (see :func:`lanes`) on at most ``jobs`` warm worker processes
    (torch imported and the CUDA context created once per worker; a worker that crashes or hangs is
    replaced); with ``isolate`` every kernel runs in a fresh process, ``jobs`` at a time. Where a repro server
    of this user runs the same kernels in the same environment (``server.py``), its started workers run them.
    """
    if device not in DEVICES:
        raise ReproError(f"unknown device {device!r}; use one of {', '.join(DEVICES)}.")
    if timeout is None or timeout <= 0:
        raise ReproError("the timeout must be a positive number of seconds.")
    known = discover(directory)
    todo = resolve_ids(ids, known)
    python = python or sys.executable
    if not todo:
        return []
    if not isolate:
        if served is None and jobs is None and os.path.realpath(python) == os.path.realpath(sys.executable):
            got = served_run(todo, known, device, timeout)
            if got is not None:
                return got
        plan = lanes(todo, known)
        jobs = max(1, min(jobs or default_jobs(len(plan)), len(plan)))
        done = {r["id"]: r for r in _run_pool(plan, known, device, timeout, jobs, python, served)}
        return [done[r] for r in todo]
    jobs = max(1, min(jobs or default_jobs(len(todo)), len(todo)))
    if jobs == 1:
        return [run_one(r, known[r], device, timeout, python) for r in todo]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda r: run_one(r, known[r], device, timeout, python), todo))


def default_jobs(n: int) -> int:
    """Workers at once: one per lane (or per kernel with ``isolate``) up to 6, at most one per CPU core
    (each imports torch)."""
    return max(1, min(6, os.cpu_count() or 1, n))


# ── confirming findings ───────────────────────────────────────────────────────────────────────────


def _where(res: dict[str, Any]) -> str:
    cap = res.get("capability")
    if res.get("mode") == "cuda" and cap:
        return f"this is an SM{str(cap).replace('.', '')} GPU ({res.get('device')})"
    return "there is no CUDA GPU here"


def _confirm_note(res: dict[str, Any]) -> tuple[bool, str]:
    """(confirms, note) for a result of a confirming repro."""
    v = res.get("verdict")
    scope = res.get("scope_note") or ""
    if res.get("kind") == "remedy-check":
        return False, (f"{res.get('id')} checks a remedy and cannot confirm the cause "
                       f"(verdict {v}: {res.get('reason', '')})")
    if v == "reproduced":
        if res.get("machine_independent"):
            return True, f"confirmed: {res.get('reason', '')} ({scope or 'machine-independent mechanism'})"
        if res.get("real_path") and res.get("mode") == "cuda":
            return True, f"confirmed on this machine's real path: {res.get('reason', '')}"
        if res.get("mode") == "cpu-emulation":
            return False, f"not confirmed on this machine: {_where(res)}; the mechanism was shown in emulation"
        return False, f"not confirmed on this machine: {scope or _where(res) + '; the mechanism was shown in emulation'}"
    if v == "not-reproduced":
        return False, f"did not reproduce on this machine ({_where(res)}): {res.get('reason', '')}"
    if v == "not-executed":
        return False, f"nothing ran here, so nothing is confirmed: {res.get('reason', '')}"
    if v == "not-applicable":
        return False, f"not applicable on this machine ({_where(res)}): {res.get('reason', '')}"
    if v == "skipped":
        return False, f"skipped: {res.get('reason', '')}"
    return False, f"the repro failed ({v}): {res.get('reason', '')}"


def _remedy_note(res: dict[str, Any]) -> str:
    v = res.get("verdict")
    if v == "reproduced":
        if res.get("real_path") and res.get("mode") == "cuda":
            return f"remedy checked on this GPU: {res.get('reason', '')}"
        return f"remedy checked only in emulation ({_where(res)}): {res.get('reason', '')}"
    if v == "not-reproduced":
        return f"the remedy check failed: {res.get('reason', '')}"
    return f"remedy not checked ({v}): {res.get('reason', '')}"


def confirm_findings(findings: list[Finding], device: str = "auto", timeout: float = DEFAULT_TIMEOUT,
                     directory: str | os.PathLike | None = None, jobs: int | None = None) -> None:
    """Run the repros the findings name (each distinct one once) and record the results on them.

    ``finding.repro`` ids confirm the cause; ``remedy.repro`` ids check remedies. Results go to
    ``finding.repro_results`` (copies of the kernel JSON plus ``purpose`` and ``note``). A finding is
    upgraded to CONFIRMED only when a confirming repro reproduced the mechanism on this machine's real
    path, or the mechanism is machine-independent; ruled-out findings keep their status. Never raises
    for kernel failures; without torch every result is ``skipped`` with the reason.
    """
    from ..model import Truth

    wanted: list[str] = []
    for f in findings:
        # remedy checks only for remedies that fit the facts (or may fit)
        for rid in list(f.repro) + [r for rem in f.remedies if rem.applies is not Truth.FAILS for r in rem.repro]:
            if rid not in wanted:
                wanted.append(rid)
    if not wanted:
        return
    results = _results(wanted, device, timeout, directory, jobs)
    for f in findings:
        _record(f, results)


def _results(wanted: list[str], device: str, timeout: float, directory: str | os.PathLike | None,
             jobs: int | None) -> dict[str, dict[str, Any]]:
    """Repro id -> its result, for every id wanted: run where bundled and torch is here, else skipped."""
    try:
        known = discover(directory)
    except ReproError as e:
        known, missing_reason = {}, str(e)
    else:
        missing_reason = ""
    results: dict[str, dict[str, Any]] = {}
    runnable = [r for r in wanted if r in known]
    for r in wanted:
        if r not in known:
            results[r] = _base(r, [], device) | {
                "verdict": "skipped",
                "reason": missing_reason or f"no repro kernel named {r!r} is bundled with this fp8triage"}
    if runnable:
        if not torch_available():
            for r in runnable:
                results[r] = _base(r, _command(sys.executable, known[r], device), device) | {
                    "verdict": "skipped", "reason": NO_TORCH}
        else:
            for res in run_repros(runnable, device, timeout, directory, jobs):
                results[res["id"]] = res
    return results


def _record(f: Finding, results: dict[str, dict[str, Any]]) -> None:
    """Put the results of ``f``'s repros on it (replacing those of an earlier run), and confirm it
    where a confirming repro reproduced the mechanism here."""
    from ..model import Truth

    f.repro_results = [x for x in f.repro_results if x.get("purpose") not in ("confirm", "remedy")]
    confirmed = False
    for rid in f.repro:
        res = copy.deepcopy(results[rid])
        ok, note = _confirm_note(res)
        if ok and f.status == Status.RULED_OUT:
            ok, note = False, note.replace("confirmed", "mechanism shown", 1) + \
                "; the finding stays ruled out because a required condition fails"
        res.update(purpose="confirm", note=note)
        f.repro_results.append(res)
        confirmed = confirmed or ok
    # one result per remedy repro, naming every fitting remedy it checks
    checks: dict[str, list[str]] = {}
    for rem in f.remedies:
        if rem.applies is Truth.FAILS:
            continue
        for rid in rem.repro:
            if rid not in f.repro and rem.id not in checks.setdefault(rid, []):
                checks[rid].append(rem.id)
    for rid, rems in checks.items():
        res = copy.deepcopy(results[rid])
        res.update(purpose="remedy", remedy=rems[0], remedies=rems, note=_remedy_note(res))
        f.repro_results.append(res)
    if confirmed and f.status in (Status.LIKELY, Status.POSSIBLE):
        f.status = Status.CONFIRMED
        f.held_back = ""  # the GPU here reproduced it: what held the log's reading back no longer does
