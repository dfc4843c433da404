"""The package version, importable from every layer (``fp8triage.__version__`` re-exports it)."""

__version__ = "0.1.0"
