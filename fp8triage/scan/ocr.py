"""Screen transcriptions: a small paste that an OCR engine read off a screenshot of a terminal, with its
usual confusions ("Fi1e", "1ine", "NotImp1ementedError", "ERR0R", "Unkn0wn SF transf0rmation", a pid
"5l3", "cornpi1ed", "NotlmplementedError"), read as the text the screen showed.

Only a whole source of at most ``MAX_BYTES`` is looked at, and only one whose garbled words spell words
of tracebacks and logs once the confusions are undone (``looks_transcribed``): a log that a program wrote
is never changed. Words are mended in place, so every line keeps its number; the scan says that it read the
source so (a warning of the source).
"""
from __future__ import annotations

import re
from typing import Iterator

MAX_BYTES = 256 * 1024
MIN_WORDS = 2  # distinct garbled words that must spell known words before a source is read as a transcription

_TOKEN = re.compile(rb"[A-Za-z0-9]+")
# a digit an OCR engine read for a letter: between two letters ("Fi1e", "ERR0R"), a 1 before lower-case letters
# at a word's start ("1ine", "1ayer"), and 1s at the end of a word that has such a digit inside ("B1ackwe11")
_INNER = re.compile(rb"(?<=[A-Za-z])[01](?=[A-Za-z])|\A1(?=[a-z]{2})")
_TAIL = re.compile(rb"(?<=[A-Za-z])1+\Z")
# ... or a letter read for a digit in a number ("pid=5l3", "22:l4:08", "line ll38", "sm_12O")
_DIGITS_L = re.compile(rb"\A(?=[0-9lO]*[0-9])[0-9lO]*[lO][0-9lO]*\Z")
# words whose digits are their own: number formats, targets, hashes, ranks, dimensions ("e8m0fnu", "sm100a", "TP1",
# "a1b2c3d4e5", "conv1d")
_OWN = re.compile(rb"\A(?:[a-z]+[1-3]d|e\d+m\d+\w*|sm\d+\w*|fp\d+\w*|bf\d+|int\d+\w*|[0-9a-f]{8,}|[A-Z]{1,4}\d+|0x[0-9a-fA-F]+)\Z")
_FOR = bytes.maketrans(b"01", b"ol")
_DIGITS = bytes.maketrans(b"lO", b"10")
_FOR_UPPER = bytes.maketrans(b"01", b"OI")

# the words of tracebacks and FP8 logs that a garbled word must spell to count as a sign
KNOWN = frozenset(
    "file line call last self error value valueerror runtimeerror typeerror assertionerror importerror "
    "notimplementederror assertion failed unknown model module modeling layer layers scale scales block blocks "
    "local lib utils init load loaded loader kernel kernels float only supported capability actual install "
    "installed implemented implementation blackwell plain linear falls automatically experts possible solutions "
    "smaller scheduler available avail most recent launch illegal compile compiled layout transformation "
    "silently would directly quantization quantized values models executor worker process image major col "
    "row compute device memory access execution compatible installation architecture recipe cutlass scaled "
    "notimplemented".split())
_KNOWN_B = frozenset(w.encode() for w in KNOWN)


def _fixed(tok: bytes) -> bytes:
    """``tok`` as the screen showed it: its digits read for letters (and letters for digits), then, for a word that
    still spells no known one, "rn" read for "m" or one "l" for "I" (or the other way) where that spells a known word
    ("cornpiled", "irnage", "NotlmplementedError")."""
    new = _digits_fixed(tok)
    if new.isalpha() and new.lower() not in _KNOWN_B:
        for alt in _spellings(new):
            if alt.lower() in _KNOWN_B:
                return alt
    return new


def _spellings(tok: bytes):
    if b"rn" in tok:
        yield tok.replace(b"rn", b"m")
    for a, b in ((b"l", b"I"), (b"I", b"l")):
        at = tok.find(a)
        while at >= 0:
            yield tok[:at] + b + tok[at + 1:]
            at = tok.find(a, at + 1)


def _digits_fixed(tok: bytes) -> bytes:
    if _OWN.match(tok):
        return tok
    if _DIGITS_L.match(tok):
        return tok.translate(_DIGITS)
    spots = [m.start() for m in _INNER.finditer(tok)]
    if not spots:
        # only 1s at its end ("mode1", "ca11", "actua1"): a garbled word only where it then spells a known one
        t = _TAIL.search(tok)
        if t is not None and tok[:t.start()].isalpha():
            new = tok[:t.start()] + b"l" * (t.end() - t.start())
            if new.lower() in _KNOWN_B:
                return new
        return tok
    t = _TAIL.search(tok)
    if t is not None:
        spots += range(t.start(), t.end())
    out = bytearray(tok)
    for i in spots:
        before = tok[i - 1:i]
        upper = before.isupper() and (i + 1 >= len(tok) or not tok[i + 1:i + 2].islower())
        out[i:i + 1] = tok[i:i + 1].translate(_FOR_UPPER if upper else _FOR)
    return bytes(out)


# each byte's class: a letter "a", a 0 or 1 "0", another digit "9", anything else " " (bytes.find over the classes
# finds the few places a garbled word may be; a regular expression over a 256 KB paste took 15-40 ms)
_CLASSES = bytes(ord("a") if chr(c).isascii() and chr(c).isalpha() else ord("0") if c in b"01"
                 else ord("9") if c in b"23456789" else ord(" ") for c in range(256))
_SHAPES = (b"a0a", b" 0aa", b"aa0 ")


def _candidates(data: bytes):
    """The words of ``data`` with a 0 or 1 where a letter could be (between letters, first before letters, last
    after them)."""
    cls = b" " + data.translate(_CLASSES) + b" "
    seen = set()
    for shape in _SHAPES:
        at = cls.find(shape)
        while at >= 0:
            start = cls.rfind(b" ", 0, at + 1) + 1
            if start not in seen:
                seen.add(start)
                end = cls.find(b" ", start)
                yield data[start - 1:end - 1]
            at = cls.find(shape, at + 1)


def looks_transcribed(data: bytes) -> bool:
    """Whether ``data`` reads as an OCR'd screenshot: ``MIN_WORDS`` distinct garbled words spell known words."""
    if len(data) > MAX_BYTES or not (b"1" in data or b"0" in data):
        return False
    signs = set()
    for tok in _candidates(data):
        fixed = _fixed(tok)
        if fixed != tok and fixed.lower() in _KNOWN_B:
            signs.add(tok)
            if len(signs) >= MIN_WORDS:
                return True
    return False


def read_as_shown(src, spans: Iterator[tuple[bytes, int, int]]) -> Iterator[tuple[bytes, int, int]]:
    """``read_spans``' spans of ``src``, as the screen showed them where the whole source is a transcription
    (a warning of ``src`` says so); else as they are. Holds back at most ``MAX_BYTES`` to decide."""
    held: list[tuple[bytes, int, int]] = []
    size = 0
    it = iter(spans)
    for span in it:
        held.append(span)
        size += span[2] - span[1]
        if size > MAX_BYTES:
            yield from held
            yield from it
            return
    data = b"".join(buf[a:b] for buf, a, b in held)
    shown = as_shown(data)
    if shown is not None:
        data, n = shown
        src.warnings.append(f"{src.name}: read as a screenshot's transcription (OCR): {n} words mended (1 read for l, "
                            "0 for O, rn for m, and the other way)")
        yield data, 0, len(data)
        return
    yield from held


def as_shown(data: bytes) -> tuple[bytes, int] | None:
    """``data`` as the screen showed it and how many words were mended, where it is a transcription; else None."""
    return untranscribed(data) if looks_transcribed(data) else None


def untranscribed(data: bytes) -> tuple[bytes, int]:
    """``data`` with its OCR confusions undone, and how many words changed (no line is added or removed)."""
    changed = 0

    def fix(m: re.Match) -> bytes:
        nonlocal changed
        tok = m.group()
        if b"0" not in tok and b"1" not in tok and b"l" not in tok and b"O" not in tok:
            return tok
        new = _fixed(tok)
        changed += new != tok
        return new

    return _TOKEN.sub(fix, data), changed
