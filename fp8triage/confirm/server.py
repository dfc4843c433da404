"""The repro server (``fp8triage repro --serve``): started workers, one per lane of every kernel, that the runs of
its user take (``served.py`` says what a run asks and when it may; docs/repro.md). Each run's kernels run here, on
those workers, as the run would run them on its own (``repro.run_repros``); fresh workers then take their place.
"""
from __future__ import annotations

import os
import socket
import struct
import sys
import tempfile
import threading
import time
from concurrent.futures import Future
from pathlib import Path

from . import repro as R
from .served import UNIX_PATH_MAX, _ask, _ours, _recv, _send, identity, socket_path
from ..errors import TriageError


class ServerError(TriageError):
    """The server cannot start (a bad socket path, another server already listening): one sentence."""


class Server:
    """Started workers, one per lane of every kernel, replaced after each run; see the module's docstring."""

    def __init__(self, device: str = "auto", idle_s: float = 900.0, directory: str | os.PathLike | None = None,
                 path: Path | None = None, log=None):
        self.known = R.discover(directory)
        self.plan = R.lanes(list(self.known), self.known)
        self.lane_of = {rid: i for i, lane in enumerate(self.plan) for rid in lane}
        self.device = device
        self.idle_s = idle_s
        self.path = path or socket_path()
        self.log = log or (lambda _msg: None)
        self.who = identity(self.known, device)
        self._tmp = tempfile.TemporaryDirectory(prefix="fp8triage-repro-serve-")
        self._ready: dict[int, Future] = {}
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self.runs = 0

    # workers -------------------------------------------------------------------------------------------------
    def _start(self, i: int) -> None:
        """Start lane ``i``'s worker in the background (its future gives the worker, or None)."""
        fut: Future = Future()
        with self._lock:
            self._ready[i] = fut
        tmp = tempfile.mkdtemp(dir=self._tmp.name)

        def go() -> None:
            try:
                w = R._start_worker(self.plan[i], self.known, sys.executable, self.device, tmp)
            except Exception:  # noqa: BLE001 - a run then starts its own worker
                w = None
            if w is not None:
                w.served = True
            fut.set_result(w)
        threading.Thread(target=go, daemon=True).start()

    def take(self, rid: str, wait: float):
        """The started worker of ``rid``'s lane (waiting for it to be ready), or None (the run starts its own)."""
        i = self.lane_of.get(rid)
        with self._lock:
            fut = self._ready.pop(i, None) if i is not None else None
        if fut is None:
            return None
        try:
            return fut.result(timeout=wait)
        except Exception:  # noqa: BLE001
            return None

    def refill(self) -> None:
        """Start a worker for every lane that has none (after a run: not while its kernels use the GPU)."""
        for i in range(len(self.plan)):
            if i not in self._ready:
                self._start(i)

    def start_workers(self) -> float:
        """Start every lane's worker and wait for them; returns the seconds it took."""
        t0 = time.perf_counter()
        self.refill()
        for fut in list(self._ready.values()):
            fut.result()
        return time.perf_counter() - t0

    def close(self) -> None:
        with self._lock:
            futs, self._ready = list(self._ready.values()), {}
        for fut in futs:
            w = fut.result() if fut.done() else None
            if w is not None:
                w.close()
            elif not fut.done():
                fut.add_done_callback(lambda f: f.result() and f.result().close())
        if self._sock is not None:
            self._sock.close()
            self._sock = None
            try:
                self.path.unlink()
            except OSError:
                pass
        self._tmp.cleanup()

    # the socket ----------------------------------------------------------------------------------------------
    def listen(self) -> None:
        if len(str(self.path)) > UNIX_PATH_MAX:
            raise ServerError(f"the socket path {self.path} is longer than {UNIX_PATH_MAX} bytes; set "
                              "FP8TRIAGE_REPRO_SOCKET to a shorter one.")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(self.path.parent, 0o700)
        if _ours(self.path) and _ask(self.path, {"op": "ping"}, 5) is not None:
            raise ServerError(f"a repro server is already listening on {self.path}; stop it with "
                              "`fp8triage repro --stop`.")
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            s.bind(str(self.path))
        finally:
            os.umask(old)
        s.listen(4)
        self._sock = s

    def serve(self) -> None:
        """Answer runs until idle for ``idle_s`` seconds or asked to stop."""
        sock = self._sock
        assert sock is not None
        sock.settimeout(self.idle_s)
        while True:
            try:
                conn, _ = sock.accept()
            except socket.timeout:
                self.log(f"idle for {self.idle_s:g} s; stopping")
                return
            except OSError:
                if self._sock is not sock:
                    return  # closed while it waited for a run (``close`` from another thread): nothing to answer
                raise
            with conn:
                if not self._same_user(conn):
                    continue
                try:
                    conn.settimeout(30)
                    msg = _recv(conn)
                    conn.settimeout(None)
                    reply, go_on = self.handle(msg or {})
                    _send(conn, reply)
                except (OSError, ValueError):
                    continue
                if not go_on:
                    self.log("asked to stop")
                    return

    @staticmethod
    def _same_user(conn: socket.socket) -> bool:
        opt = getattr(socket, "SO_PEERCRED", None)
        if opt is None:
            return True  # the socket's folder is this user's alone
        _pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, opt, struct.calcsize("3i")))
        return uid == os.getuid()

    def handle(self, msg: dict) -> tuple[dict, bool]:
        """(the reply, whether to go on serving)."""
        op = msg.get("op")
        if op == "ping":
            return {"ok": True, "runs": self.runs}, True
        if op == "stop":
            return {"ok": True}, False
        if op != "run":
            return {"error": f"unknown request {op!r}"}, True
        if msg.get("who") != self.who:
            return {"error": "this run's kernels, interpreter or environment differ from the server's"}, True
        ids = msg.get("ids")
        timeout = msg.get("timeout")
        if (not isinstance(ids, list) or not ids or any(r not in self.known for r in ids)
                or not isinstance(timeout, (int, float)) or timeout <= 0):
            return {"error": "a bad run request"}, True
        self.runs += 1
        t0 = time.perf_counter()
        try:
            results = R.run_repros(ids, self.device, float(timeout), self.known[ids[0]].parent, served=self)
        finally:
            self.refill()
        self.log(f"run {self.runs}: {len(ids)} kernels in {time.perf_counter() - t0:.1f} s")
        return {"results": results}, True
