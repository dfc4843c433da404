"""The one base class of the errors fp8triage raises for input it cannot use.

Every stage raises its own subclass (``IngestError``, ``CatalogueError``, ``FactError``, ...);
the command line turns any of them into one sentence on stderr in one place
(``fp8triage.cli.options.handle_errors``), and a library user can catch ``TriageError``.
"""
from __future__ import annotations


class TriageError(Exception):
    """Input fp8triage cannot use: a missing log, a bad signature file, a malformed fact, ...

    ``str(error)`` (``message``) is one sentence that names the file, key or value at fault.
    ``usage`` is True when the fault is in the command line's own words (exit code 2, not 1)."""

    usage: bool = False

    @property
    def message(self) -> str:
        return str(self)
