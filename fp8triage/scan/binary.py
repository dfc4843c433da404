"""Telling binary files from text logs, so that `scan /bin/ls` (or a core dump, an image, a
tarball someone put in the log directory) is skipped with one warning instead of being read as
errors made of replacement characters.

A source is binary when it starts with a known file signature (executables, archives, images,
databases) and holds bytes no text has, or when more than ``MAX_NON_TEXT`` of the first ``HEAD``
bytes are neither text
(printable ASCII, tab, newline, carriage return, form feed, ESC for ANSI colours, valid UTF-8)
nor anything a log writer emits. A log with a few NUL bytes or invalid UTF-8 lines is text.

A file without a file signature is never skipped for its head alone: logrotate's copytruncate
leaves NUL padding in front of the text, a crashed writer a few KB of garbage in the middle. As
grep does, the scan reads the text regions of such a file (``clean_span``: NUL bytes are removed
from a line, a line that is mostly non-text is blanked, so line numbers stay those of the file)
and skips the file only when it holds no text line at all.
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


def signature_kind(head: bytes) -> str | None:
    """What the data is when it starts with a known file signature and holds bytes no text has
    (an executable, an archive, an image), else None: such a source is skipped unread."""
    head = head[:HEAD]
    what = next((w for magic, w in MAGIC if head.startswith(magic)), None)
    if what is None and len(head) >= 512 and head[257:262] == b"ustar":
        what = "a tar archive"
    if what is not None and (head.count(b"\x00") > len(head) * MAGIC_NON_TEXT / 5 or _non_text(head) > MAGIC_NON_TEXT):
        return what
    return None


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


# -- the text regions of a dirty file ------------------------------------------------------------

DIRTY = (b"\x00", b"\xff")  # bytes no UTF-8 text has: a span without them is read as it is
MIN_TEXT_LINE = 8  # a line counts as text (the file is not all binary) from this many characters
SMALL_SPAN = 4096  # a clean span at least this long counts as text without a look at its lines
_PRINTABLE = bytes(range(0x20, 0x7F)) + b"\t\r\x0c\x1b"


def is_dirty(buf: bytes, start: int, end: int) -> bool:
    """Does ``buf[start:end]`` hold bytes no text has? Two memchr passes: the clean log's cost."""
    return any(buf.find(b, start, end) >= 0 for b in DIRTY)


def clean_span(data: bytes, count: bool = True) -> tuple[bytes, int]:
    """The text regions of a span, and (``count``) how many text lines it holds. Only a line with
    a byte no text has (``DIRTY``) is changed: its NUL bytes are removed (logrotate's padding,
    UTF-16's high bytes), and it is blanked when it is still mostly non-text. Lines stay where
    they are (the newlines are kept), so line numbers are those of the file; a line is read the
    same whichever span it comes in (follow mode's blocks, a parallel scan's ranges). Without
    ``count`` only the dirty lines are visited (bytes.find from one to the next)."""
    if not count:
        return _clean_dirty_lines(data), 0
    lines = data.split(b"\n")
    text = 0
    changed = False
    for i, ln in enumerate(lines):
        if not ln:
            continue
        dirty = b"\x00" in ln or b"\xff" in ln
        if dirty:
            ln = _clean_line(ln)
            lines[i] = ln
            changed = True
        if len(ln) >= MIN_TEXT_LINE and _bad(ln) <= len(ln) * 0.1:
            text += 1
    return (b"\n".join(lines) if changed else data), text


def _bad(ln: bytes) -> int:
    """How many bytes of the line are no text (approximately, for UTF-8)."""
    bad = len(ln.translate(None, _PRINTABLE))
    if bad and not ln.isascii():
        bad = round(_non_text(ln) * len(ln))
    return bad


def _clean_line(ln: bytes) -> bytes:
    """A dirty line without its NUL bytes, or blank when it is still mostly non-text."""
    ln = ln.replace(b"\x00", b"")
    # blank, but still a line: a last line of only NULs is counted like any other (line numbers stay the file's)
    return b" " if not ln or _bad(ln) > len(ln) * MAX_NON_TEXT else ln


def _clean_dirty_lines(data: bytes) -> bytes:
    out = []
    pos = 0
    n = len(data)
    nxt = {b: data.find(b) for b in DIRTY}
    while True:
        for b, at in nxt.items():
            if 0 <= at < pos:
                nxt[b] = data.find(b, pos)
        hits = [at for at in nxt.values() if at >= 0]
        if not hits:
            break
        i = min(hits)
        start = data.rfind(b"\n", pos, i) + 1 or pos
        end = data.find(b"\n", i)
        end = n if end < 0 else end
        out.append(data[pos:start])
        out.append(_clean_line(data[start:end]))
        pos = end
    if not out:
        return data
    out.append(data[pos:])
    return b"".join(out)
