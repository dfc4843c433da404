"""The masks that make a text stable across hosts, days, workers and library versions: the
event fingerprint (``scan/fingerprint.py``), the matcher, the history and signature scaffolding
read masked text through ``mask``.

Masking is ordered, named data. Version strings are captured as facts *before* this runs
(a number mask turns v0.26.1 into v0.<N>). Source line numbers are masked too.
"""
from __future__ import annotations

import regex

from . import rxcache


def _hex_word(word: str) -> str:
    return word if word.isdigit() or not any(c.isdigit() for c in word) else "<HEX>"


MASKS: list[tuple[str, regex.Pattern, object]] = [
    ("uuid", rxcache.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", regex.I), "<UUID>"),
    ("hex", rxcache.compile(r"\b0x[0-9a-fA-F]+\b"), "<HEX>"),
    ("ip", rxcache.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b"), "<IP>"),
    # a word of 7 or more lower-case hex digits with a letter and a digit (a hash, an address)
    ("long-hex", rxcache.compile(r"\b[0-9a-f]{7,}\b"), lambda m: _hex_word(m.group())),
    # directories of a path (keep the basename, which names the failing file)
    ("dirs", rxcache.compile(r"(?:(?<=[\s(\"'=:`])|^)(?:[A-Za-z]:)?(?:\.{1,3}|~)?(?:[/\\][^\s/\\\"'(),:`]+)*[/\\](?=[^\s/\\\"'(),:`]+)"), ""),
    ("elided-dirs", rxcache.compile(r"(?:[\w.-]+/)+(?=[\w.-]+\.(?:py|hpp|h|cuh|cu|cpp|cc|so)\b)"), ""),
    ("worker-ids", rxcache.compile(r"\b(rank|TP|DP|EP|PP|cuda:|pid=|GPU)\s?\d+"), r"\1<N>"),
    ("number", rxcache.compile(r"(?<!\w)\d+(?:\.\d+)*"), "<N>"),
    ("space", rxcache.compile(r"\s+"), " "),
]


# masks that cannot apply to a text without this character are skipped (the costliest ones)
_NEEDS = {"dirs": ("/", "\\"), "elided-dirs": ("/",), "uuid": ("-",), "hex": ("0x",), "ip": (".",)}


def mask(text: str) -> str:
    # stripped first as well as last: str.strip() takes characters (\x1c-\x1f) that the masks'
    # \s does not, and a mask anchored at the start must see the same start both times
    out = text.strip()
    for name, rx, repl in MASKS:
        needs = _NEEDS.get(name)
        if needs is not None and not any(c in out for c in needs):
            continue
        if name == "space" and _single_spaced(out):
            continue
        out = rx.sub(repl, out)
    return out.strip()


def _single_spaced(text: str) -> bool:
    """No run of whitespace other than one space (the space mask would change nothing)."""
    return text.isascii() and "  " not in text and not any(c in text for c in "\t\n\x0b\x0c\r")
