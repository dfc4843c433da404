"""Hyperscan block-mode databases, compiled once per machine and loaded from the cache after.

Compiling a database costs 0.05-0.2 s, loading one about a millisecond. A database is cached under
``<cache>/<folder>/hs-<digest>.db``, keyed by its expressions, their flags, the Hyperscan build and
the CPU (a database is compiled for the host's instruction set). A damaged or stale file is compiled
again; a cache that cannot be written is no error. Hyperscan is optional: ``database`` returns
None where it is not installed (or has no binary for the platform), and callers take the slow path.
"""
from __future__ import annotations


def available() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("hyperscan") is not None
    except (ImportError, ValueError):
        return False


def module():
    """The ``hyperscan`` module, or None."""
    try:
        import hyperscan  # type: ignore
    except Exception:  # not installed, or no binary for this platform
        return None
    return hyperscan


def database(exprs: list[bytes], flags: list[int], folder: str):
    """A block-mode database of ``exprs`` (ids 0..n-1) with a scratch space, or None (no
    Hyperscan, no expression, or an expression it cannot compile)."""
    hyperscan = module()
    if hyperscan is None or not exprs:
        return None
    path = cached_path(hyperscan, exprs, flags, folder)
    if path is not None:
        try:
            db = hyperscan.loadb(path.read_bytes(), hyperscan.HS_MODE_BLOCK)
            db.scratch = hyperscan.Scratch(db)  # a loaded database has none
            return db
        except Exception:  # absent, stale or damaged: compile it again
            pass
    try:
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        db.compile(expressions=exprs, ids=list(range(len(exprs))), elements=len(exprs), flags=flags)
    except Exception:
        return None
    if path is not None:
        store(path, hyperscan.dumpb(db))
    return db


def compiles(expr: bytes, flags: int) -> bool:
    """Whether Hyperscan compiles ``expr`` with ``flags`` (a construct it lacks: False)."""
    hyperscan = module()
    if hyperscan is None:
        return False
    try:
        hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK).compile(expressions=[expr], ids=[0], elements=1, flags=[flags])
    except Exception:
        return False
    return True


def cached_path(hyperscan, exprs: list[bytes], flags: list[int], folder: str):
    """Where the database compiled from these expressions is cached (None: no cache directory)."""
    import hashlib
    import platform

    from ..paths import cache_dir

    h = hashlib.sha256()
    for e, f in zip(exprs, flags):
        h.update(e + b"\0" + str(f).encode() + b"\n")
    h.update(f"{getattr(hyperscan, '__version__', '')} {platform.machine()} {_cpu_flags()}".encode())
    try:
        return cache_dir() / folder / f"hs-{h.hexdigest()[:24]}.db"
    except (OSError, RuntimeError):  # no home directory
        return None


def _cpu_flags() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("flags"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def store(path, data: bytes) -> None:
    """Write the cache file atomically; a cache that cannot be written is no error."""
    import os
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".hs-")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        pass
