"""One multi-literal pass over large byte chunks, so the exact patterns run only near hits.

Every signature declares the literals its evidence cannot appear without (``anchors``); the
fact extractors and the event assembler add theirs. ``Prefilter.line_starts`` returns the
start offsets of the lines that contain any anchor. Hyperscan does the search where it is
installed; otherwise one compiled alternation of the escaped literals (Python ``re``).
"""
from __future__ import annotations

import re
from typing import Iterable


class Prefilter:
    def __init__(self, anchors: Iterable[str], ignore_case: Iterable[str] = ()):
        cs = sorted({a for a in anchors if a})
        ci = sorted({a for a in ignore_case if a} - set(cs))
        self.anchors = cs
        self.anchors_ci = ci
        # longest first, so the alternation reports one hit per position
        alt_cs = "|".join(re.escape(a) for a in sorted(cs, key=len, reverse=True))
        parts = []
        if alt_cs:
            parts.append(alt_cs)
        if ci:
            parts.append("(?i:" + "|".join(re.escape(a) for a in sorted(ci, key=len, reverse=True)) + ")")
        self._re = re.compile("|".join(parts).encode("utf-8")) if parts else None
        self._hs = _hyperscan_db(cs, ci)
        self.engine = "hyperscan" if self._hs is not None else "re"

    def contains_anchor(self, raw_line: bytes) -> bool:
        """True if one line contains an anchor (used by the exhaustive path and for checks)."""
        return self._re is not None and self._re.search(raw_line) is not None

    def hit_offsets(self, buf: bytes, start: int = 0) -> list[int]:
        """Sorted, de-duplicated offsets (>= start) at which an anchor match ends."""
        if self._re is None:
            return []
        if self._hs is not None:
            hits: list[int] = []
            append = hits.append

            def on_match(_id, _frm, to, _flags, _ctx):
                append(to)
                return None

            view = memoryview(buf)[start:] if start else buf
            self._hs.scan(bytes(view) if start else buf, match_event_handler=on_match)
            if start:
                hits = [h + start for h in hits]
            return sorted(set(hits))
        return [m.end() for m in self._re.finditer(buf, start)]

    def line_starts(self, buf: bytes, start: int = 0) -> list[int]:
        """Start offsets of the lines (within buf) that contain an anchor at or after ``start``."""
        out: list[int] = []
        last_line_end = -1
        for off in self.hit_offsets(buf, start):
            if off <= last_line_end:
                continue
            ls = buf.rfind(b"\n", 0, off - 1) + 1 if off > 0 else 0
            le = buf.find(b"\n", off - 1)
            last_line_end = le if le >= 0 else len(buf)
            if not out or out[-1] != ls:
                out.append(ls)
        return out


def _hyperscan_db(cs: list[str], ci: list[str]):
    try:
        import hyperscan  # type: ignore
    except Exception:  # not installed, or no binary for this platform
        return None
    exprs, ids, flags = [], [], []
    for i, a in enumerate(cs + ci):
        exprs.append(re.escape(a).encode("utf-8"))
        ids.append(i)
        flags.append(hyperscan.HS_FLAG_CASELESS if i >= len(cs) else 0)
    if not exprs:
        return None
    try:
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        db.compile(expressions=exprs, ids=ids, elements=len(exprs), flags=flags)
    except Exception:
        return None
    return db
