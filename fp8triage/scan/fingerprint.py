"""Stable fingerprints: the same failure on another host, day, worker or library version
gets the same id.

The masks (``common/masks.py``) mask source line numbers too: DeepGEMM's "Unknown SF
transformation" is at layout.hpp:59 in one vLLM build and :60 in the next.
"""
from __future__ import annotations

import hashlib
import re


from ..common.masks import mask
from ..catalogue.recognition import vocabulary
from ..model import Event, EventKind
from .normalise import Repeats

ALGORITHM_VERSION = 1


def frame_key(path: str, func: str) -> str:
    p = path.replace("\\", "/")
    for marker in ("site-packages/", "dist-packages/"):
        i = p.rfind(marker)
        if i >= 0:
            p = p[i + len(marker):]
            break
    else:
        parts = [x for x in p.split("/") if x and x != "..." and x != ".."]
        p = "/".join(parts[-2:])
    if p.endswith(".py"):
        p = p[:-3]
    return f"{p.replace('/', '.')}:{func}"


_TAIL_LINES = 8  # a block's lines under its first one that are read for a symptom


def _tail(ev: Event) -> str:
    """The lines under a block of plain log lines' first one, where its symptom may stand ("" for one line)."""
    if ev.kind is not EventKind.LINE or len(ev.lines) < 2:
        return ""
    return "\n" + "\n".join(ln.text for ln in ev.lines[1:_TAIL_LINES])


def event_signature_text(ev: Event, headline: str | None = None) -> str:
    """What the fingerprint is computed from, readable (stored next to the fingerprint);
    ``headline``: ``ev.headline``, where the caller has it."""
    return "\n".join(_signature_parts(ev, ev.headline if headline is None else headline))


def _signature_parts(ev: Event, raw: str) -> list[str]:
    """(kind, exception type, masked headline, frame keys..., ["symptom"]): ``event_signature_text``'s lines."""
    head = mask(raw)[:400]
    frames = [frame_key(p, f) for p, f in ev.frames[-3:]]
    parts = [ev.kind.value, ev.exc_type or "", head, *frames]
    if ev.kind is EventKind.LINE and vocabulary().states_symptom(raw + _tail(ev)):
        # the numbers the mask removes are the symptom ("|gsm8k|...|0.0000|" after a healthy "|0.8597|"
        # row): a line that states one is not grouped with the same line that does not, nor a block whose
        # next lines do (the same eval command twice, "Accuracy: 0.952" under one, "Accuracy: 0.000" under the other)
        parts.append("symptom")
    return parts


# (kind, exception type, headline, last frames) -> fingerprint: a crash loop or a restart loop
# repeats the same events, and each one's masked text is made once (cleared when full); a storm of
# events that differ in their ids and numbers is not looked up while it lasts (``Repeats``)
_MEMO: dict[tuple, str] = {}
_MEMO_SIZE = 4096
_MEMO_HEADLINE = 600  # longer headlines are not kept (the memo stays within a few MB)
_PAYS = Repeats()

# The same for the *digit shape* of an error's headline (every ASCII digit read as "1"): OOM errors,
# timeouts and the like repeat with other sizes, GPUs and ranks. Exact, because every mask reads a digit
# as any digit (``\d``, ``[0-9a-f]``, ``\w``; the one literal digit is the "0" of "0x", and a headline
# with "0x" is not looked up) and keeps or removes it where it would keep or remove any other: two
# headlines of one shape mask to texts that differ only in the digits the masks keep, so a shape is
# kept only where its masked headline kept none. A line event is not looked up (whether it states a
# symptom depends on its numbers).
_SHAPES: dict[tuple, str] = {}
_SHAPE_PAYS = Repeats()
_DIGIT_SHAPE = str.maketrans("023456789", "111111111")
_ASCII_DIGIT = re.compile(r"[0-9]")


def reset_repeats() -> None:
    """A new scan starts with the memos on trial again (``Repeats``): a long-lived process (the API,
    a test run) scans as a fresh one does."""
    _PAYS.reset()
    _SHAPE_PAYS.reset()


def fingerprint(ev: Event) -> str:
    head = ev.headline
    key = shape = None
    tail = _tail(ev)
    if len(head) + len(tail) <= _MEMO_HEADLINE and not _PAYS.skip():
        key = (ev.kind, ev.exc_type, head, tuple(ev.frames[-3:]), tail)
        done = _MEMO.get(key)
        _PAYS.count(done is not None)
        if done is not None:
            return done
    if (ev.kind is not EventKind.LINE and len(head) <= _MEMO_HEADLINE and "0x" not in head and "0X" not in head
            and not _SHAPE_PAYS.skip()):
        shape = (ev.kind, ev.exc_type, head.translate(_DIGIT_SHAPE), tuple(ev.frames[-3:]))
        done = _SHAPES.get(shape)
        _SHAPE_PAYS.count(done is not None)
        if done is not None:
            return done
    parts = _signature_parts(ev, head)
    fp = hashlib.sha1("\n".join([f"v{ALGORITHM_VERSION}", *parts]).encode("utf-8")).hexdigest()[:16]
    if key is not None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = fp
    if shape is not None and not _ASCII_DIGIT.search(parts[2]):  # (parts[2]: the masked headline)
        if len(_SHAPES) >= _MEMO_SIZE:
            _SHAPES.clear()
        _SHAPES[shape] = fp
    return fp
