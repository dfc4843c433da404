"""Stable fingerprints: the same failure on another host, day, worker or library version
gets the same id.

The masks (``common/masks.py``) mask source line numbers too: DeepGEMM's "Unknown SF
transformation" is at layout.hpp:59 in one vLLM build and :60 in the next.
"""
from __future__ import annotations

import hashlib


from ..common.masks import mask
from ..model import Event

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


def event_signature_text(ev: Event) -> str:
    """What the fingerprint is computed from, readable (stored next to the fingerprint)."""
    head = mask(ev.headline)[:400]
    frames = [frame_key(p, f) for p, f in ev.frames[-3:]]
    return "\n".join([ev.kind.value, ev.exc_type or "", head, *frames])


# (kind, exception type, headline, last frames) -> fingerprint: a crash loop, a restart loop or an
# error storm repeats the same event, and its masked text is computed once (cleared when full)
_MEMO: dict[tuple, str] = {}
_MEMO_SIZE = 4096
_MEMO_HEADLINE = 600  # longer headlines are not kept (the memo stays within a few MB)


def fingerprint(ev: Event) -> str:
    head = ev.headline
    key = (ev.kind, ev.exc_type, head, tuple(ev.frames[-3:])) if len(head) <= _MEMO_HEADLINE else None
    if key is not None:
        done = _MEMO.get(key)
        if done is not None:
            return done
    data = f"v{ALGORITHM_VERSION}\n" + event_signature_text(ev)
    fp = hashlib.sha1(data.encode("utf-8")).hexdigest()[:16]
    if key is not None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[key] = fp
    return fp
