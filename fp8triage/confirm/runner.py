"""Running one repro kernel: in a fresh process of its own (``run_one``) or on a warm worker process
(``_Worker``, which starts ``repro_worker.py``), each with a timeout, and reading what it printed into a
result (a verdict and a reason for a kernel that crashed, hung, was killed or printed garbage). The
lanes, the pool of workers and the confirming of findings are ``repro.py``'s.

This module never imports torch: only the kernels do, in their own processes.
"""
from __future__ import annotations

import importlib.util
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from ..paths import cache_dir

VERDICTS = ("reproduced", "not-reproduced", "not-executed", "not-applicable", "skipped", "error", "timeout")
DEFAULT_TIMEOUT = 120.0


def _command(python: str, path: Path, device: str) -> list[str]:
    return [python, str(path), "--device", device, "--json"]


def _signal_name(rc: int) -> str:
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def _tail(text: str, n: int = 8) -> list[str]:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return [ln[:400] for ln in lines[-n:]]


def _json_object(text: str) -> dict[str, Any] | None:
    """``text`` as a JSON object; None if it is not one."""
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


def _parse(stdout: str) -> dict[str, Any] | None:
    """The kernel's JSON object: the whole stdout, else the last line that parses as an object."""
    text = stdout.strip()
    if not text:
        return None
    try:
        obj = json.loads(text)
        return obj if isinstance(obj, dict) else None
    except ValueError:
        pass
    for line in reversed(text.splitlines()):
        line = line.strip()
        obj = _json_object(line) if line.startswith("{") else None
        if obj is not None:
            return obj
    return None


def _base(rid: str, cmd: list[str], device: str) -> dict[str, Any]:
    return {
        "id": rid, "verdict": "error", "reason": "", "metrics": {}, "device": None, "capability": None,
        "versions": {}, "wall_s": None, "gpu_s": None, "command": shlex.join(cmd),
        "mode": "cuda" if device == "cuda" else ("cpu-emulation" if device == "cpu" else None),
        "real_path": False, "machine_independent": False, "scope_note": "", "kind": None,
    }


def run_one(rid: str, path: Path, device: str = "auto", timeout: float = DEFAULT_TIMEOUT,
            python: str | None = None) -> dict[str, Any]:
    """Run one kernel in a fresh subprocess and return its result dict (never raises for a kernel failure)."""
    python = python or sys.executable
    cmd = _command(python, path, device)
    res = _base(rid, cmd, device)
    res["isolation"] = "process"
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                text=True, errors="replace", env=_env(), start_new_session=True)
    except OSError as e:
        res["reason"] = f"could not start the kernel: {e}"
        return res
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        return _timed_out(res, timeout, time.perf_counter() - t0, err)
    return _finish(res, rid, path, out, err, proc.returncode, round(time.perf_counter() - t0, 4))


def _env() -> dict[str, str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONDONTWRITEBYTECODE="1")
    prefix = bytecode_cache()
    if prefix:  # bytecode goes to fp8triage's cache, never next to the installed packages or kernels
        env["PYTHONPYCACHEPREFIX"] = prefix
        env.pop("PYTHONDONTWRITEBYTECODE")
    return env


def bytecode_cache() -> str | None:
    """Where the kernels' interpreters keep compiled bytecode, when the installed torch has none.

    Container images often ship packages without bytecode and set ``PYTHONDONTWRITEBYTECODE=1``; every
    kernel process then compiles torch's, sympy's and transformers' Python from source (measured on
    the H200 image: importing torch 3.9 s, transformers' FP8 integration 7.4 s). So when torch's
    ``__init__`` has no bytecode, the kernels keep theirs in ``<cache>/fp8triage/pycache``
    (``FP8TRIAGE_CACHE_DIR``, else ``XDG_CACHE_HOME`` or ``~/.cache``) and later runs load it.
    ``FP8TRIAGE_REPRO_PYCACHE`` names another folder, or ``off``; a ``PYTHONPYCACHEPREFIX`` already
    set is kept. None: leave bytecode as it is (torch was installed with it, as pip does).
    """
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return None
    setting = os.environ.get("FP8TRIAGE_REPRO_PYCACHE", "").strip()
    if setting.lower() == "off":
        return None
    if setting:
        return setting
    try:
        spec = importlib.util.find_spec("torch")  # locates torch without importing it
        init = spec.origin if spec else None
        if not init or not init.endswith(".py") or os.path.exists(importlib.util.cache_from_source(init)):
            return None
    except (ImportError, ValueError, NotImplementedError):
        return None
    return str(cache_dir() / "pycache")


def _timed_out(res: dict[str, Any], timeout: float, wall: float, err: str) -> dict[str, Any]:
    res.update(verdict="timeout", wall_s=round(wall, 4),
               reason=f"the kernel did not finish within {timeout:g} s and was killed")
    res["stderr_tail"] = _tail(err)
    return res


def _finish(res: dict[str, Any], rid: str, path: Path, out: str, err: str, returncode: int,
            wall: float) -> dict[str, Any]:
    """Turn a finished kernel's stdout, stderr and exit status into its result."""
    res["returncode"] = returncode
    obj = _parse(out)
    if obj is None:
        if returncode < 0:
            why = f"the kernel was killed by {_signal_name(returncode)} before printing a result"
        elif returncode:
            why = f"the kernel exited with status {returncode} without printing a result"
        else:
            why = "the kernel printed no JSON result" if not out.strip() else "the kernel printed output that is not a JSON result"
        last = _tail(err, 1)
        res.update(reason=why + (f" (last stderr line: {last[0]})" if last else ""), wall_s=wall)
        res["stderr_tail"] = _tail(err)
        if out.strip():
            res["stdout_tail"] = _tail(out, 3)
        return res
    missing = [k for k in ("id", "verdict", "reason", "metrics") if k not in obj]
    if missing or obj.get("verdict") not in VERDICTS or not isinstance(obj.get("metrics"), dict):
        res.update(wall_s=wall, reason=f"the kernel printed a malformed result (missing or bad: "
                                       f"{', '.join(missing) or 'verdict/metrics'})")
        res["stderr_tail"] = _tail(err)
        return res
    if obj["id"] != rid:
        res.update(wall_s=wall, reason=f"the kernel at {path.name} reported id {obj['id']!r}, expected {rid!r}")
        return res
    isolation = res.get("isolation")
    res.update(obj)
    if isolation:
        res["isolation"] = isolation
    if res.get("wall_s") is None:
        res["wall_s"] = wall
    res["runner_wall_s"] = wall
    if returncode != 0:
        # it printed a result and then died (for example a crash at interpreter exit): keep the result,
        # but say so
        res["returncode"] = returncode
        res["reason"] = (res.get("reason") or "") + (
            f" [the process then exited with {'signal ' + _signal_name(returncode) if returncode < 0 else 'status ' + str(returncode)}]")
        res["stderr_tail"] = _tail(err)
    return res


def _kill_group(proc: subprocess.Popen) -> None:
    """Kill the kernel and anything it started (its own process group, which start_new_session made)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            proc.kill()
        except ProcessLookupError:
            pass


WORKER_SCRIPT = Path(__file__).with_name("repro_worker.py")
WORKER_START_TIMEOUT = 180.0  # importing torch and creating a CUDA context, on a slow machine


class _Worker:
    """One warm worker process (fp8triage/confirm/repro_worker.py): runs kernels one at a time.

    It is its own process group, so a kernel that hangs is killed with everything it started; a
    worker that dies (a kernel segfaulted) or was killed is replaced by the caller.
    """

    def __init__(self, python: str, device: str, tmpdir: str, preload: tuple[str, ...] = (),
                 kernel_dir: str | None = None, prestart: tuple[str, ...] = ()):
        self.device = device
        self.tmpdir = tmpdir
        self.ready_s: float | None = None
        self.served = False  # started by a repro server for a later run (server.py)
        cmd = [python, str(WORKER_SCRIPT), "--device", device]
        if kernel_dir:
            cmd += ["--kernel-dir", kernel_dir]
        for spec in prestart:
            cmd += ["--prestart", spec]
        for mod in preload:
            cmd += ["--preload", mod]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                                     errors="replace", env=_env(), start_new_session=True)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.ready: dict[str, Any] | None = None

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.lines.put(line)
        self.lines.put(None)  # EOF: the worker is gone

    def _next(self, timeout: float) -> dict[str, Any] | None:
        """The next protocol message; None when the worker died; raises queue.Empty on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            if line is None:
                return None
            obj = _json_object(line)
            if obj is not None:
                return obj

    def wait_ready(self) -> bool:
        try:
            msg = self._next(WORKER_START_TIMEOUT)
        except queue.Empty:
            msg = None
        if not msg or not msg.get("ready"):
            self.kill()
            return False
        self.ready = msg
        return True

    def run(self, rid: str, path: Path, timeout: float) -> tuple[str, int | None, str, str, float]:
        """Run one kernel: (state, returncode, stdout, stderr, wall) with state ok, died or timeout."""
        out_f = os.path.join(self.tmpdir, f"{rid}.out")
        err_f = os.path.join(self.tmpdir, f"{rid}.err")
        req = {"path": str(path), "argv": ["--device", self.device, "--json"], "out": out_f, "err": err_f}
        t0 = time.perf_counter()
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")  # type: ignore[union-attr]
            self.proc.stdin.flush()  # type: ignore[union-attr]
            msg = self._next(timeout)
            state = "ok" if msg and msg.get("done") else "died"
        except (BrokenPipeError, OSError):
            msg, state = None, "died"
        except queue.Empty:
            msg, state = None, "timeout"
            self.kill()
        wall = time.perf_counter() - t0
        if state == "died":
            self.kill()  # anything the kernel left in the group goes with it
            code = self.proc.wait()
        else:
            code = int(msg["code"]) if msg else None
            if msg and msg.get("poisoned"):
                self.kill()
        return state, code, _read_text(out_f), _read_text(err_f), wall

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        _kill_group(self.proc)
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            pass

    def close(self) -> None:
        """End the worker once its lanes are done: its process group is killed at once rather than left to
        shut down (an interpreter holding torch, transformers and a CUDA context takes over a second to
        exit, measured on the H200); every result has been read by then."""
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        _kill_group(self.proc)
        threading.Thread(target=self.proc.wait, daemon=True).start()  # reaped in the background


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError:
        return ""
