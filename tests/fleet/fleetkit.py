"""Helpers of the fleet tests (the fixtures are in conftest.py)."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

BUCKET = "fleet-logs"
HEAD: dict = {}  # "pid": the session's Ray head (`ray start --block`, a session leader): its processes' session id


def session_of(pid: int) -> int | None:
    """The session id of process ``pid`` (None if it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[3])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


def cli(args, env=None, timeout=180, stdin=None):
    """Run the installed CLI in a subprocess (its own environment, as a user would)."""
    return subprocess.run([sys.executable, "-m", "fp8triage", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=timeout, input=stdin, cwd=ROOT)
