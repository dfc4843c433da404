"""fp8triage: triage FP8 model-server failures from logs, facts and local GPU reproductions.

``fp8triage.triage(logs, ...)`` and ``fp8triage.check(...)`` are the Python API (docs/api.md); it is imported on first use so that
the command line starts fast."""

from .version import __version__

__all__ = ["__version__", "triage", "check"]


def __getattr__(name: str):
    if name in ("triage", "check"):
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'fp8triage' has no attribute {name!r}")
