"""Clipping long log lines for every renderer: a line longer than ``MAX_LINE_CHARS`` is shown
around its match, and the renderers say that it was clipped and how long it was."""
from __future__ import annotations

from typing import Any

MAX_LINE_CHARS = 2000  # a log line longer than this is shown clipped around its match

_INVISIBLE = {c: "\ufffd" for c in [*range(0, 9), *range(11, 32), 127, *range(0x80, 0xA0),
                                     0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def visible(text: Any) -> str:
    return ("" if text is None else str(text)).translate(_INVISIBLE)


def split_span(text: str, span: Any, limit: int = MAX_LINE_CHARS) -> dict[str, Any]:
    """Cut a log line into (before, match, after) for highlighting, clipped around the match.

    A span that is missing, malformed or out of range highlights nothing rather than failing.
    """
    out = _split(visible(text), span, limit)
    out["clipped"] = clipped_note(out["length"]) if out["cut_left"] or out["cut_right"] else ""
    return out


def _split(text: str, span: Any, limit: int) -> dict[str, Any]:
    s = e = None
    if isinstance(span, (list, tuple)) and len(span) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in span):
        s, e = max(0, span[0]), min(len(text), span[1])
        if s >= e:
            s = e = None
    if s is None:
        if len(text) <= limit:
            return {"before": text, "match": "", "after": "", "cut_left": False, "cut_right": False, "length": len(text)}
        return {"before": text[:limit], "match": "", "after": "", "cut_left": False, "cut_right": True, "length": len(text)}
    if len(text) <= limit:
        return {"before": text[:s], "match": text[s:e], "after": text[e:], "cut_left": False, "cut_right": False,
                "length": len(text)}
    ctx = 200
    lo = max(0, s - ctx)
    hi = min(len(text), max(e + ctx, lo + limit))
    if e - s > limit:
        e = s + limit
        hi = e
    return {"before": text[lo:s], "match": text[s:e], "after": text[e:hi], "cut_left": lo > 0, "cut_right": hi < len(text),
            "length": len(text)}


def clipped_note(length: int) -> str:
    """What a renderer appends to a clipped line."""
    return f"[line clipped: {length:,} characters]"


def clip_raw(text: str, span: Any = None, limit: int = MAX_LINE_CHARS) -> tuple[str, Any, bool]:
    """(text, span) clipped around the span to at most about ``limit`` characters, without
    changing any character (for JSON), and whether it was clipped; the span is moved to match."""
    if len(text) <= limit:
        return text, span, False
    part = _split(text, span, limit)
    new = part["before"] + part["match"] + part["after"]
    new_span = [len(part["before"]), len(part["before"]) + len(part["match"])] if part["match"] else None
    return new, new_span, True


MAX_TEXT_CHARS = 4000  # any other single value from the log or a repro


# C0/C1 controls (but tab and newline) and bidirectional overrides ("trojan source") in log text
# become U+FFFD, one character for one, so match spans keep their offsets.
def clip(text: Any, limit: int = MAX_TEXT_CHARS) -> str:
    s = visible(text)
    if len(s) <= limit:
        return s
    return s[:limit] + f"… ({len(s) - limit:,} more characters)"
