"""Stable fingerprints: the same failure on another host, day, worker or library version
gets the same id.

The masks (``common/masks.py``) mask source line numbers too: DeepGEMM's "Unknown SF
transformation" is at layout.hpp:59 in one vLLM build and :60 in the next.
"""
from __future__ import annotations

import hashlib


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
    raw = ev.headline if headline is None else headline
    head = mask(raw)[:400]
    frames = [frame_key(p, f) for p, f in ev.frames[-3:]]
    parts = [ev.kind.value, ev.exc_type or "", head, *frames]
    if ev.kind is EventKind.LINE and vocabulary().states_symptom(raw + _tail(ev)):
        # the numbers the mask removes are the symptom ("|gsm8k|...|0.0000|" after a healthy "|0.8597|"
        # row): a line that states one is not grouped with the same line that does not, nor a block whose
        # next lines do (the same eval command twice, "Accuracy: 0.952" under one, "Accuracy: 0.000" under the other)
        parts.append("symptom")
    return "\n".join(parts)


# (kind, exception type, headline, last frames) -> fingerprint: a crash loop or a restart loop
# repeats the same events, and each one's masked text is made once (cleared when full); a storm of
# events that differ in their ids and numbers is not looked up while it lasts (``Repeats``)
_MEMO: dict[tuple, str] = {}
_MEMO_SIZE = 4096
_MEMO_HEADLINE = 600  # longer headlines are not kept (the memo stays within a few MB)
_PAYS = Repeats()


def reset_repeats() -> None:
    """A new scan starts with the memo on trial again (``Repeats``): a long-lived process (the API,
    a test run) scans as a fresh one does."""
    _PAYS.reset()


def fingerprint(ev: Event) -> str:
    head = ev.headline
    key = None
    tail = _tail(ev)
    if len(head) + len(tail) <= _MEMO_HEADLINE and not _PAYS.skip():
        key = (ev.kind, ev.exc_type, head, tuple(ev.frames[-3:]), tail)
        done = _MEMO.get(key)
        _PAYS.count(done is not None)
        if done is not None:
            return done
    data = f"v{ALGORITHM_VERSION}\n" + event_signature_text(ev, head)
    fp = hashlib.sha1(data.encode("utf-8")).hexdigest()[:16]
    if key is not None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = fp
    return fp
