"""What a log source is (``Source``: a file, stdin, a pipe, an object in storage, an archive's
member, in-memory text), which files are logs, and the error for an input that cannot be used.
``scan/ingest.py`` and its neighbours read sources; the fleet view groups findings by them."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import TriageError

LOG_SUFFIXES = {".log", ".txt", ".out", ".err", ".gz", ".jsonl", ".json", ".ndjson"}
ARCHIVE_SUFFIXES = {".tar", ".tgz", ".zip"}  # support bundles in a directory (a .tar.gz ends in .gz)
MAX_DIR_FILES = 100_000


class IngestError(TriageError):
    """An input cannot be used at all (missing, unreadable, not a log). One sentence."""


@dataclass
class Source:
    name: str  # as the user gave it, or the file path under a given directory; "<stdin>" for "-"
    path: Path | None  # None for stdin
    size: int | None = None  # bytes on disk, if known
    warnings: list[str] = field(default_factory=list)
    bytes_read: int = 0  # decompressed bytes
    compressed: bool = False
    data: bytes | None = None  # in-memory content (tests, pasted text)
    url: str | None = None  # an object in storage (s3://, gs://, file://): scan/objstore.py
    mtime: str | None = None  # last modified (ISO 8601 UTC), when the listing gave it
    stream: bool = False  # a named pipe or a process substitution: read once, in this process
    member: tuple[str, str, str, int] | None = None  # (archive, member name, "tar" | "zip", offset): archive.py
    skip: str | None = None  # why this source is not read (an archive without logs): said, not scanned
