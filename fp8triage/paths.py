"""Where the bundled data lives: inside the wheel (fp8triage/_data/...) or in a source checkout."""
from __future__ import annotations

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
    """fp8triage's cache folder: ``$FP8TRIAGE_CACHE_DIR``, else ``$XDG_CACHE_HOME/fp8triage``, else
    ``~/.cache/fp8triage`` (the signature search index, the schema-validation markers)."""
    import os

    env = os.environ.get("FP8TRIAGE_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "fp8triage"


def schema_path(name: str) -> Path:
    return _PKG / "schemas" / f"{name}.schema.json"
