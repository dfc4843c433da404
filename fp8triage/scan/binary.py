"""Telling binary files from text logs, so that `scan /bin/ls` (or a core dump, an image, a
tarball someone put in the log directory) is skipped with one warning instead of being read as
errors made of replacement characters.

A source is binary when it starts with a known file signature (executables, archives, images,
databases) and holds bytes no text has, or when more than ``MAX_NON_TEXT`` of the first ``HEAD``
bytes are neither text
(printable ASCII, tab, newline, carriage return, form feed, ESC for ANSI colours, valid UTF-8)
nor anything a log writer emits. A log with a few NUL bytes or invalid UTF-8 lines is text.
"""
from __future__ import annotations

HEAD = 64 * 1024  # bytes looked at
MIN_HEAD = 256  # shorter inputs are judged by their file signature only
MAX_NON_TEXT = 0.30
MAGIC_NON_TEXT = 0.05

# file signatures at offset 0: (magic, what it is)
MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x7fELF", "an ELF executable or library"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
    (b"\xce\xfa\xed\xfe", "a Mach-O executable"),
    (b"\xca\xfe\xba\xbe", "a Mach-O universal binary or Java class"),
    (b"PK\x03\x04", "a zip archive (or wheel, jar)"),
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"%PDF-", "a PDF document"),
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-zip archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"\x28\xb5\x2f\xfd", "a zstd archive"),
    (b"\x93NUMPY", "a NumPy array"),
)

_ALLOWED_CONTROLS = frozenset("\t\n\r\x0c\x1b")


def binary_kind(head: bytes) -> str | None:
    """What the data is when it is binary ("an ELF executable or library", "binary data"), else None.

    A file signature counts only together with bytes no text has (NUL bytes in more than 1% of the
    head, or more than ``MAGIC_NON_TEXT`` non-text characters): a log whose first line happens to
    read "GIF87a" is still a log."""
    head = head[:HEAD]
    ratio = _non_text(head)
    what = next((w for magic, w in MAGIC if head.startswith(magic)), None)
    if what is None and len(head) >= 512 and head[257:262] == b"ustar":
        what = "a tar archive"
    if what is not None and (head.count(b"\x00") > len(head) * MAGIC_NON_TEXT / 5 or ratio > MAGIC_NON_TEXT):
        return what
    if len(head) >= MIN_HEAD and ratio > MAX_NON_TEXT:
        return "binary data"
    return None


def _non_text(head: bytes) -> float:
    """The share of characters that no text log holds (undecodable bytes, control characters)."""
    if not head:
        return 0.0
    text = head.decode("utf-8", "replace")
    bad = sum(1 for ch in text if ch == "\ufffd" or (ch < " " and ch not in _ALLOWED_CONTROLS) or ch == "\x7f")
    return bad / len(text)
