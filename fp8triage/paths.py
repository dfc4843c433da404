"""Where the bundled data lives: inside the wheel (fp8triage/_data/...) or in a source checkout."""
from __future__ import annotations

import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent

DATA_DIRS = ("signatures", "templates", "repro_kernels", "examples")


def data_dir(name: str) -> Path:
    """The folder of bundled data ``name`` (one of DATA_DIRS)."""
    if name not in DATA_DIRS:
        raise ValueError(f"unknown data folder {name!r}")
    for cand in (_PKG / "_data" / name, _PKG.parent / name):
        if cand.is_dir():
            return cand
    raise FileNotFoundError(
        f"the bundled {name}/ folder is missing from this installation ({_PKG}); reinstall fp8triage"
    )


def cache_dir() -> Path:
    """Where derived data is cached ($FP8TRIAGE_CACHE_DIR, else $XDG_CACHE_HOME/fp8triage or
    ~/.cache/fp8triage): the search index, the compiled prefilter, the schema-validation markers,
    the compiled regex patterns (``regex/``) and the loaded recognition data (``recognition/``)."""
    env = os.environ.get("FP8TRIAGE_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "fp8triage"


def user_data_dir() -> Path:
    """fp8triage's data directory: ``$FP8TRIAGE_DATA_DIR``, else ``$XDG_DATA_HOME/fp8triage``, else
    ``~/.local/share/fp8triage`` (the history database, the user catalogue)."""
    own = os.environ.get("FP8TRIAGE_DATA_DIR", "").strip()
    if own:
        return Path(own).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or ""
    root = Path(base) if base.strip() and os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "fp8triage"


def user_signatures_dir() -> Path:
    """The user catalogue: ``signatures/`` in the data directory. Every scan loads it after the
    bundled catalogue (when it exists); ``fp8triage signatures new`` writes there by default."""
    return user_data_dir() / "signatures"


def schema_path(name: str) -> Path:
    return _PKG / "schemas" / f"{name}.schema.json"
