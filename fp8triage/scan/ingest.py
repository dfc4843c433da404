"""Opening log sources and reading them in large newline-aligned chunks.

Files, directories (recursively), stdin ("-"), named pipes and process substitution
(``scan <(kubectl logs pod)``: read as streams, like stdin), gzip (detected by its magic bytes,
not the name), and the members of .tar, .tar.gz and .zip archives (a support bundle: each log
member is a source of its own, ``archive.py``). Memory stays bounded: a source is read ``CHUNK`` bytes at a time and a line longer
than ``MAX_LINE`` is cut (the rest of it is skipped, and the cut is reported).
"""
from __future__ import annotations

import gzip
import io
import os
import stat
import sys
import zlib
from pathlib import Path
from typing import BinaryIO, Iterator

from ..common.source import ARCHIVE_SUFFIXES, LOG_SUFFIXES, MAX_DIR_FILES, IngestError, Source

CHUNK = 2 * 1024 * 1024  # the size of a second-level cache: the span is read again (newlines, lines) while it is still there
MAX_LINE = 1024 * 1024  # longer lines are cut to this many bytes


def expand_inputs(args: list[str]) -> list[Source]:
    """Turn command-line arguments into sources. Raises IngestError with one clear sentence."""
    sources: list[Source] = []
    stdin_seen = False
    for arg in args:
        if arg == "-":
            if stdin_seen:
                raise IngestError("'-' (standard input) was given more than once")
            stdin_seen = True
            sources.append(Source("<stdin>", None))
            continue
        if "://" in arg:
            from .objstore import expand_url, is_url

            if is_url(arg):
                sources.extend(expand_url(arg))
                continue
        p = Path(arg)
        if not p.exists():
            raise IngestError(f"{arg}: no such file or directory")
        if p.is_dir():
            files = _log_files(p)
            if not files:
                raise IngestError(
                    f"{arg}: the directory holds no log files (looked for {', '.join(sorted(LOG_SUFFIXES))} "
                    "and files without a suffix)"
                )
            from .archive import expand_archive

            for f in files:
                members = expand_archive(str(f), f)
                sources.extend(members if members is not None else [Source(str(f), f, _size(f))])
            continue
        if not p.is_file():
            if _is_stream(p):  # `scan <(kubectl logs pod)`, a named pipe: read it as a stream, like '-'
                sources.append(Source(arg, p, None, stream=True))
                continue
            raise IngestError(f"{arg}: not a regular file (nor a pipe)")
        if not os.access(p, os.R_OK):
            raise IngestError(f"{arg}: permission denied")
        from .archive import expand_archive

        members = expand_archive(arg, p)
        if members is not None:
            sources.extend(members)
            continue
        sources.append(Source(arg, p, _size(p)))
    return sources


def _is_stream(p: Path) -> bool:
    """A named pipe or a character device (/dev/fd/63 of a process substitution, /dev/stdin)."""
    try:
        mode = p.stat().st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)


def _size(p: Path) -> int | None:
    try:
        return p.stat().st_size
    except OSError:
        return None


def _log_files(d: Path) -> list[Path]:
    out: list[Path] = []
    for root, dirs, files in os.walk(d):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for f in sorted(files):
            if f.startswith("."):
                continue
            suffix = Path(f).suffix.lower()
            if (suffix in LOG_SUFFIXES or suffix in ARCHIVE_SUFFIXES or suffix == ""
                    or suffix.lstrip(".").isdigit()):  # server.log.1
                out.append(Path(root) / f)
                if len(out) >= MAX_DIR_FILES:
                    return out
    return out


def _open(src: Source) -> BinaryIO:
    if src.data is not None:
        raw: BinaryIO = io.BufferedReader(io.BytesIO(src.data))  # type: ignore[arg-type]
    elif src.member is not None:
        from .archive import open_member

        raw = open_member(src)
    elif src.url is not None:
        from .objstore import open_url

        raw = open_url(src)
    elif src.path is None:
        raw = sys.stdin.buffer
    else:
        try:
            raw = open(src.path, "rb", buffering=0)  # type: ignore[assignment]
        except OSError as e:
            raise IngestError(f"{src.name}: cannot be opened ({e.strerror or e})") from None
        if _plain_file(raw):
            return raw
    if not hasattr(raw, "peek"):
        raw = io.BufferedReader(raw)  # type: ignore[arg-type]
    peek = raw.peek(3)[:3]  # type: ignore[attr-defined]
    if peek == b"\x1f\x8b\x08":  # gzip's magic and its only compression method (deflate)
        src.compressed = True
        return gzip.GzipFile(fileobj=raw, mode="rb")  # type: ignore[return-value]
    return raw


def _plain_file(raw) -> bool:
    """Whether ``raw`` (unbuffered) is a regular file that is not gzip: read unbuffered, since a
    buffered read of 2 MiB costs a third more CPU than the system call alone."""
    try:
        if not stat.S_ISREG(os.fstat(raw.fileno()).st_mode):
            return False
        return os.pread(raw.fileno(), 3, 0) != b"\x1f\x8b\x08"
    except OSError:
        return False


def _read_chunks(src: Source, chunk_size: int | None = None) -> Iterator[bytes]:
    """Yield newline-terminated chunks (the last may lack the newline): the spans of
    ``read_spans`` as bytes. Nothing is lost: a corrupt or truncated gzip stream yields what was
    readable and records a warning; lines longer than MAX_LINE are cut (and reported)."""
    for buf, start, end in read_spans(src, chunk_size):
        yield buf[start:end] if (start, end) != (0, len(buf)) else buf


def read_spans(src: Source, chunk_size: int | None = None, start: int = 0,
               stop: int | None = None) -> Iterator[tuple[bytes, int, int]]:
    """The source's lines without copying each read again: yields ``(buf, start, end)`` where
    ``buf[start:end]`` holds whole newline-terminated lines (the last span of a source may lack
    the newline). A line that straddles two reads comes as its own small span. A corrupt or
    truncated gzip stream yields what was readable and records a warning; lines longer than
    MAX_LINE are cut. ``start``/``stop``: read only this byte range of an uncompressed file
    (both line starts or the end; a parallel scan's share, see ``split_points``)."""
    chunk_size = chunk_size or CHUNK
    fh = _open(src)
    if start or stop is not None:
        if src.compressed or src.stream or (src.path is None and src.url is None):
            fh.close()
            raise ValueError("byte ranges are read only from uncompressed files")
        fh = _Range(fh, start, stop)
    carry = b""
    try:
        while True:
            try:
                data = _read_upto(fh, chunk_size)
            except (EOFError, gzip.BadGzipFile, zlib.error, OSError) as e:
                what = "truncated" if isinstance(e, EOFError) else f"corrupt ({e})"
                src.warnings.append(
                    f"{src.name}: compressed stream is {what}; scanned the {src.bytes_read + len(carry)} bytes before it"
                )
                data = b""
            if not data:
                break
            src.bytes_read += len(data)
            last = data.rfind(b"\n")
            if last < 0:
                buf = _squeeze(carry + data)
                if len(buf) > MAX_LINE:
                    line = _cut_long(src, buf) + b"\n"
                    yield line, 0, len(line)
                    carry = _skip_to_newline(src, fh)
                    continue
                carry = buf
                continue
            start = 0
            if carry:
                first = data.find(b"\n")
                line = carry + data[: first + 1]
                yield line, 0, len(line)
                start = first + 1
            if last + 1 > start:
                yield data, start, last + 1
            carry = _squeeze(data[last + 1 :])
            if len(carry) > MAX_LINE:
                line = _cut_long(src, carry) + b"\n"
                yield line, 0, len(line)
                carry = _skip_to_newline(src, fh)
        if carry:
            yield carry, 0, len(carry)
    finally:
        if src.path is not None or src.data is not None or src.url is not None or src.member is not None:
            fh.close()


class _Range:
    """A file read from ``start`` up to ``stop`` (exclusive), as if that were all of it."""

    def __init__(self, fh, start: int, stop: int | None):
        self.fh = fh
        fh.seek(start)
        self.left = None if stop is None else max(0, stop - start)

    def read(self, n: int = -1) -> bytes:
        if self.left is not None:
            n = self.left if n < 0 else min(n, self.left)
        data = self.fh.read(n)
        if self.left is not None:
            self.left -= len(data)
        return data

    def close(self) -> None:
        self.fh.close()


def split_points(path: Path, size: int, parts: int, opener=open) -> list[int]:
    """Offsets that cut a file into ``parts`` byte ranges of about equal size, each moved to
    the start of the next line (so that no line is split); first 0, last ``size``.
    ``opener(path, "rb")``: how to open it (an object in storage: scan/objstore.py)."""
    cuts = [0]
    with opener(path, "rb") as fh:
        for k in range(1, parts):
            at = max(size * k // parts, cuts[-1])
            fh.seek(at)
            while True:
                data = fh.read(1 << 16)
                if not data:
                    at = size
                    break
                nl = data.find(b"\n")
                if nl >= 0:
                    at += nl + 1
                    break
                at += len(data)
            if cuts[-1] < at < size:
                cuts.append(at)
    cuts.append(size)
    return cuts


def _read_upto(fh: BinaryIO, n: int) -> bytes:
    """``fh.read(n)``, except that a compressed stream that breaks part-way first returns what it
    decoded before the break (``GzipFile.read`` would discard it); the next call raises."""
    if not isinstance(fh, gzip.GzipFile):
        return fh.read(n)
    out = bytearray()
    while len(out) < n:
        try:
            piece = fh.read1(min(n - len(out), 1 << 16))  # small steps: a break loses at most 64 KiB
        except (EOFError, gzip.BadGzipFile, zlib.error, OSError):
            if out:
                return bytes(out)
            raise
        if not piece:
            break
        out += piece
    return bytes(out)


def _squeeze(buf: bytes) -> bytes:
    """A line longer than MAX_LINE less its NUL bytes: logrotate's copytruncate pads the head of a
    file with megabytes of NULs and no newline, and the text that follows them on the same line
    is a log line (the selector removes a line's NULs in any case: ``binary.clean_span``)."""
    if len(buf) > MAX_LINE and buf.find(b"\x00") >= 0:
        return buf.replace(b"\x00", b"")
    return buf


def _cut_long(src: Source, buf: bytes) -> bytes:
    if not any("longer than" in w for w in src.warnings):
        src.warnings.append(f"{src.name}: a line is longer than {MAX_LINE} bytes; it was cut to that length")
    return buf[:MAX_LINE]


def _skip_to_newline(src: Source, fh: BinaryIO) -> bytes:
    """Discard input up to and including the next newline; return what follows it."""
    while True:
        try:
            data = _read_upto(fh, CHUNK)
        except (EOFError, gzip.BadGzipFile, zlib.error, OSError):
            return b""
        if not data:
            return b""
        src.bytes_read += len(data)
        i = data.find(b"\n")
        if i >= 0:
            return data[i + 1 :]
