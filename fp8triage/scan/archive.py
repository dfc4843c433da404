"""The logs inside a support bundle: .tar, .tar.gz (.tgz) and .zip archives, told by their
magic bytes, not their names. Each log member is a source of its own, named
``ARCHIVE:MEMBER`` (``bundle.tar.gz:pods/vllm-0/server.log``), and read as any file is (a
``.gz`` member is decompressed, a binary member skipped with a warning).

Members are chosen as a directory's files are (``common.source.LOG_SUFFIXES``, no suffix, a rotation
number; no hidden files). Nothing is ever extracted to disk, so a member's path cannot write
anywhere: a name with ``..``, an absolute path or control characters is only shown (made
printable). Links, devices and other non-regular members are left out; a member larger than
``MAX_MEMBER`` or, in a zip, compressed more than ``MAX_RATIO`` times (a zip bomb) is skipped
with a warning; an archive holds at most ``MAX_MEMBERS`` sources.
"""
from __future__ import annotations

import gzip
import tarfile
import threading
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import BinaryIO

MAX_MEMBER = 4 << 30  # bytes, uncompressed
MAX_RATIO = 200  # a zip member that expands more than this is a zip bomb, not a log
MAX_MEMBERS = 10_000


def archive_kind(path: Path) -> str | None:
    """"tar" (also gzip-compressed) or "zip" when ``path`` is such an archive, else None."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(512)
            if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
                return "zip"
            if head[:3] == b"\x1f\x8b\x08":
                fh.seek(0)
                with gzip.GzipFile(fileobj=fh) as gz:
                    head = gz.read(512)
    except (OSError, EOFError, gzip.BadGzipFile, ValueError):
        return None
    return "tar" if len(head) >= 262 and head[257:262] == b"ustar" else None


def expand_archive(arg: str, path: Path) -> list | None:
    """The sources inside the archive at ``path`` (given as ``arg``), or None when it is no archive.
    An archive without a log member is one source that is skipped with the reason."""
    from ..common.source import Source

    kind = archive_kind(path)
    if kind is None:
        return None
    warnings: list[str] = []
    try:
        members = _tar_members(path, warnings) if kind == "tar" else _zip_members(path, warnings)
    except (OSError, EOFError, tarfile.TarError, zipfile.BadZipFile, gzip.BadGzipFile, ValueError) as e:
        return [Source(arg, path, _size(path), skip=f"a {kind} archive that cannot be read ({e}); skipped")]
    sources = []
    for name, size, where in members[:MAX_MEMBERS]:
        sources.append(Source(f"{arg}:{_shown(name)}", None, size, member=(str(path), name, kind, where)))
    if len(members) > MAX_MEMBERS:
        warnings.append(f"{arg}: more than {MAX_MEMBERS} log files in the archive; read the first {MAX_MEMBERS}")
    if not sources:
        reason = "; ".join(warnings) if warnings else "no log file in it"
        return [Source(arg, path, _size(path), skip=f"a {kind} archive with no log to read ({reason}); skipped")]
    sources[0].warnings.extend(warnings)
    return sources


def _wanted(name: str) -> bool:
    from ..common.source import LOG_SUFFIXES

    base = PurePosixPath(name).name
    if not base or base.startswith("."):
        return False
    suffix = PurePosixPath(base).suffix.lower()
    return suffix in LOG_SUFFIXES or suffix == "" or suffix.lstrip(".").isdigit()


def _shown(name: str) -> str:
    """A member's name as shown: relative, printable."""
    name = name.lstrip("/")
    return "".join(ch if ch.isprintable() else "?" for ch in name) or "?"


def _too_big(arg: str, name: str, size: int, warnings: list[str]) -> bool:
    if size > MAX_MEMBER:
        warnings.append(f"{_shown(name)}: {size} bytes uncompressed, more than {MAX_MEMBER}; skipped")
        return True
    return False


def _tar_members(path: Path, warnings: list[str]) -> list[tuple[str, int, int]]:
    out: list[tuple[str, int, int]] = []
    try:
        with tarfile.open(path, "r|*") as tf:  # one pass, also through gzip
            for ti in tf:
                if not ti.isreg() or not _wanted(ti.name) or _too_big(str(path), ti.name, ti.size, warnings):
                    continue
                out.append((ti.name, ti.size, ti.offset_data))
                if len(out) > MAX_MEMBERS:
                    break
    except (OSError, EOFError, tarfile.TarError, gzip.BadGzipFile, zlib.error) as e:
        if not out:
            raise
        warnings.append(f"{path}: the archive breaks off ({e or 'truncated'}); read the {len(out)} logs before it")
    return out


def _zip_members(path: Path, warnings: list[str]) -> list[tuple[str, int, int]]:
    out = []
    with zipfile.ZipFile(path) as zf:
        for zi in zf.infolist():
            if zi.is_dir() or not _wanted(zi.filename) or _too_big(str(path), zi.filename, zi.file_size, warnings):
                continue
            if zi.file_size > MAX_RATIO * max(zi.compress_size, 1) and zi.file_size > (1 << 20):
                warnings.append(f"{_shown(zi.filename)}: expands {zi.file_size // max(zi.compress_size, 1)} times "
                                "(a zip bomb?); skipped")
                continue
            if zi.flag_bits & 0x1:
                warnings.append(f"{_shown(zi.filename)}: encrypted; skipped")
                continue
            out.append((zi.filename, zi.file_size, 0))
            if len(out) > MAX_MEMBERS:
                break
    return out


def _size(p: Path) -> int | None:
    try:
        return p.stat().st_size
    except OSError:
        return None


# -- reading a member ----------------------------------------------------------------------------

_local = threading.local()  # the open .tar.gz stream, reused while members are read in order


class _Member:
    """``size`` bytes of ``fh`` from where it stands, read as ``ingest`` reads a file (``read``,
    ``peek``). A compressed archive that breaks off inside the member first gives what it decoded
    before the break (the next read raises, and the scan says the stream is truncated); closing it
    leaves ``fh`` open (``owner``: closed with it)."""

    def __init__(self, fh, size: int, owner=None):
        self.fh, self.left, self.owner = fh, size, owner
        self._head = b""
        self._broken: BaseException | None = None

    def peek(self, n: int = 1) -> bytes:
        if len(self._head) < n:
            self._head += self._read(n - len(self._head))
        return self._head

    def read(self, n: int = -1) -> bytes:
        if n is None or n < 0:
            n = self.left + len(self._head)
        head, self._head = self._head[:n], self._head[n:]
        return head + self._read(n - len(head))

    def _read(self, n: int) -> bytes:
        out = bytearray()
        while len(out) < n and self.left > 0:
            if self._broken is not None:
                if out:
                    break
                raise self._broken
            step = min(n - len(out), self.left, 1 << 16)
            try:
                piece = self.fh.read1(step) if hasattr(self.fh, "read1") else self.fh.read(step)
            except (EOFError, OSError, zlib.error) as e:
                self._broken = e
                continue
            if not piece:
                break
            self.left -= len(piece)
            out += piece
        return bytes(out)

    def close(self) -> None:
        if self.owner is not None:
            self.owner.close()
            self.owner = None


def open_member(src) -> BinaryIO:
    """The content of an archive member (``Source.member``)."""
    archive, name, kind, offset = src.member
    if kind == "zip":
        zf = zipfile.ZipFile(archive)
        return _Member(zf.open(name), src.size or 0, owner=zf)  # type: ignore[return-value]
    with open(archive, "rb") as probe:
        compressed = probe.read(2) == b"\x1f\x8b"
    if not compressed:
        fh = open(archive, "rb")  # noqa: SIM115 - closed with the member
        fh.seek(offset)
        return _Member(fh, src.size or 0, owner=fh)  # type: ignore[return-value]
    # a .tar.gz is read forward: members in order reuse one stream (no decompression from the start each time)
    cached = getattr(_local, "gz", None)
    if cached is None or cached[0] != archive or cached[1].tell() > offset:
        if cached is not None:
            cached[1].close()
        cached = (archive, gzip.open(archive, "rb"))
        _local.gz = cached
    gz = cached[1]
    gz.seek(offset)
    return _Member(gz, src.size or 0)  # type: ignore[return-value]
