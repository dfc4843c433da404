"""Warm repro workers kept between runs, on request (``fp8triage repro --serve``): what a run asks, and the
socket it asks on (the server itself is ``server.py``).

A ``--confirm`` or ``repro`` run starts its worker processes afresh: importing torch and transformers' FP8
integration and creating a CUDA context take about six seconds before the first kernel runs, however warm the
file system cache is (docs/gpu-validation.md, run 13). Someone triaging one machine again and again can keep a
pool of started workers instead: ``fp8triage repro --serve`` starts one worker per lane of kernels
(``repro.lanes``), each with what its kernels preload, and answers the runs of the same user on a Unix socket
until it has been idle for a while. A run takes the started workers, runs its kernels on them as it would on its
own (``repro._run_pool``), and the server starts fresh workers in their place while it waits for the next run:
no kernel ever runs on a worker that ran a kernel for an earlier run.

A run uses the server only when everything the kernels would see is the same: this fp8triage, the same
interpreter, the same kernel files (names, sizes, modification times), the same device choice and the same
environment for CUDA, PyTorch, Triton, transformers and fp8triage. Anything else, or no server, or
``FP8TRIAGE_REPRO_SERVER=off``: the run starts its own workers, as without a server.

The socket is ``$FP8TRIAGE_REPRO_SOCKET``, else ``repro.sock`` in ``$XDG_RUNTIME_DIR/fp8triage`` (or the cache
folder), in a folder only its user can enter; the server answers only connections of its own user.
"""
from __future__ import annotations

import hashlib
import json
import os
import socket
import struct
import stat
import sys
from pathlib import Path
from typing import Any

from ..paths import cache_dir
from ..version import __version__

ENV_PREFIXES = ("CUDA_", "NVIDIA_", "PYTORCH_", "TORCH", "TRITON_", "TRANSFORMERS_", "HF_", "DG_", "FP8TRIAGE_",
                "LD_LIBRARY_PATH", "PYTHONPATH")
ENV_IGNORED = ("FP8TRIAGE_REPRO_SOCKET", "FP8TRIAGE_REPRO_SERVER")  # how the run finds the server, not what kernels see
MAX_MESSAGE = 64 * 1024 * 1024
UNIX_PATH_MAX = 107


def socket_path() -> Path:
    explicit = os.environ.get("FP8TRIAGE_REPRO_SOCKET")
    if explicit:
        return Path(explicit)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return (Path(runtime) / "fp8triage" if runtime else cache_dir()) / "repro.sock"


def identity(known: dict[str, Path], device: str) -> dict[str, Any]:
    """What must be the same for a run to use the server's workers."""
    folder = next(iter(known.values())).parent if known else None
    h = hashlib.sha256()
    for p in sorted(folder.glob("*.py")) if folder else ():  # the kernels and the modules they share
        st = p.stat()
        h.update(f"{p.name}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    env = {k: v for k, v in os.environ.items() if k.startswith(ENV_PREFIXES) and k not in ENV_IGNORED}
    return {"version": __version__, "python": os.path.realpath(sys.executable), "prefix": sys.prefix,
            "kernels": str(folder or ""), "digest": h.hexdigest(), "device": device, "env": env}


# -- the client: a run asks the server ---------------------------------------------------------------------------

def request(todo: list[str], known: dict[str, Path], device: str, timeout: float) -> list[dict[str, Any]] | None:
    """The server's results for ``todo`` (in that order), or None: no server, or one that cannot run them as this
    process would (it said why; the caller runs them itself)."""
    if os.environ.get("FP8TRIAGE_REPRO_SERVER", "").strip().lower() in ("off", "0", "no", "false"):
        return None
    path = socket_path()
    if not _ours(path):
        return None
    budget = timeout * len(todo) + 120  # every kernel's own limit, and a worker start
    reply = _ask(path, {"op": "run", "ids": todo, "timeout": timeout, "who": identity(known, device)}, budget)
    if not reply or not isinstance(reply.get("results"), list) or len(reply["results"]) != len(todo):
        return None
    return reply["results"]


def stop() -> bool:
    """Ask the server to stop; whether one was listening."""
    path = socket_path()
    return _ours(path) and _ask(path, {"op": "stop"}, 30) is not None


def _ours(path: Path) -> bool:
    """A socket of this user's, in a folder only this user can enter."""
    try:
        st, parent = path.lstat(), path.parent.stat()
    except OSError:
        return False
    return (stat.S_ISSOCK(st.st_mode) and st.st_uid == os.getuid() and parent.st_uid == os.getuid()
            and not parent.st_mode & 0o077)


def _ask(path: Path, msg: dict, wait: float) -> dict | None:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(5)
            s.connect(str(path))
            s.settimeout(wait)
            _send(s, msg)
            return _recv(s)
    except (OSError, ValueError):
        return None


def _send(s: socket.socket, msg: dict) -> None:
    data = json.dumps(msg).encode("utf-8")
    s.sendall(struct.pack("!I", len(data)) + data)


def _recv(s: socket.socket) -> dict | None:
    head = _exactly(s, 4)
    if head is None:
        return None
    n = struct.unpack("!I", head)[0]
    if n > MAX_MESSAGE:
        raise ValueError("message too long")
    body = _exactly(s, n)
    obj = json.loads(body) if body is not None else None
    return obj if isinstance(obj, dict) else None


def _exactly(s: socket.socket, n: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(min(1 << 20, n - len(buf)))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)

