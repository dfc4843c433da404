"""One multi-pattern pass over large byte chunks, so the exact patterns run only near hits.

Every signature declares the literals its evidence cannot appear without (``anchors``); the
fact extractors and the event assembler add theirs, and a few facts use small regular
expressions instead of literals that would fire on ordinary lines (``patterns``, e.g. a GPU
model name near "GPU", rather than "GPU" alone, which every vLLM stats line contains).

Two classes of hits:

* **notable** (anchors and patterns): the line may start an event and is read for facts;
* **structural** (``structural``): the line may start or continue a traceback without being
  notable (``File "..."`` frames, chained-exception markers). The scanner feeds these lines
  to the assembler, but they do not start events on their own.

``Prefilter.hits(buf)`` returns the start offsets of the lines with a hit and, for each, the
class bits. Hyperscan does the search where it is installed (one compiled database, one pass
over the chunk, one Python callback per match); otherwise one compiled alternation per class
(Python ``re``). Both engines see the same patterns, and ``contains_anchor`` (one line, used
by the exhaustive reference path and follow mode) uses ``re`` with the same patterns, so the
engines cannot disagree about which lines are notable: patterns are restricted to what both
understand identically (literals, character classes, alternation, ``[^\\n]*``, ``^`` in
multi-line mode).
"""
from __future__ import annotations

import re
from typing import Iterable

NOTABLE = 1
STRUCTURAL = 2


class Prefilter:
    def __init__(
        self,
        anchors: Iterable[str],
        ignore_case: Iterable[str] = (),
        patterns: Iterable[str] = (),
        structural: Iterable[str] = (),
    ):
        cs = sorted({a for a in anchors if a})
        ci = sorted({a for a in ignore_case if a} - set(cs))
        pats = sorted({p for p in patterns if p})
        st = sorted({a for a in structural if a} - set(cs))
        self.anchors = cs
        self.anchors_ci = ci
        self.patterns = pats
        self.structural = st
        # longest first, so the alternation reports one hit per position
        parts = []
        if cs:
            parts.append("|".join(re.escape(a) for a in sorted(cs, key=len, reverse=True)))
        if ci:
            parts.append("(?i:" + "|".join(re.escape(a) for a in sorted(ci, key=len, reverse=True)) + ")")
        parts.extend(f"(?:{p})" for p in pats)
        self._re = re.compile("|".join(parts).encode("utf-8"), re.M) if parts else None
        self._st_re = (
            re.compile("|".join(re.escape(a) for a in sorted(st, key=len, reverse=True)).encode("utf-8")) if st else None
        )
        exprs: list[tuple[bytes, int, int]] = []  # (expression, class, caseless)
        exprs += [(re.escape(a).encode("utf-8"), NOTABLE, 0) for a in cs]
        exprs += [(re.escape(a).encode("utf-8"), NOTABLE, 1) for a in ci]
        exprs += [(p.encode("utf-8"), NOTABLE, 2) for p in pats]
        exprs += [(re.escape(a).encode("utf-8"), STRUCTURAL, 0) for a in st]
        self._classes = [c for _e, c, _f in exprs]
        self._hs = _hyperscan_db(exprs)
        self.engine = "hyperscan" if self._hs is not None else "re"

    def contains_anchor(self, raw_line: bytes) -> bool:
        """True if one line is notable (has an anchor or a pattern hit): it may start an event
        and is read for facts. Used by the exhaustive path and follow mode."""
        return self._re is not None and self._re.search(raw_line) is not None

    def is_structural(self, raw_line: bytes) -> bool:
        return self._st_re is not None and self._st_re.search(raw_line) is not None

    def hits(self, buf) -> tuple[list[int], dict[int, int]]:
        """(sorted start offsets of the lines of ``buf`` with a hit, {line start: class bits}).

        ``buf`` is bytes-like and holds whole lines (a chunk from ``ingest.read_chunks``)."""
        ends: dict[int, int] = {}  # match end offset -> class bits
        if self._hs is not None:
            classes = self._classes
            get = ends.get

            def on_match(i, _frm, to, _flags, _ctx):
                ends[to] = get(to, 0) | classes[i]

            self._hs.scan(buf, match_event_handler=on_match)
        else:
            if self._re is not None:
                for m in self._re.finditer(buf):
                    ends[m.end()] = ends.get(m.end(), 0) | NOTABLE
            if self._st_re is not None:
                for m in self._st_re.finditer(buf):
                    ends[m.end()] = ends.get(m.end(), 0) | STRUCTURAL
        flags: dict[int, int] = {}
        if not ends:
            return [], flags
        rfind = buf.rfind
        find = buf.find
        line_start, line_end = -1, -1
        for off in sorted(ends):
            bits = ends[off]
            if off > line_end:  # a new line (a match ends at or before the newline of its line)
                line_start = rfind(b"\n", 0, off - 1) + 1 if off > 0 else 0
                line_end = find(b"\n", off - 1) if off > 0 else find(b"\n")
                if line_end < 0:
                    line_end = len(buf)
            flags[line_start] = flags.get(line_start, 0) | bits
        return sorted(flags), flags

    # kept for callers that only want the notable lines
    def line_starts(self, buf, start: int = 0) -> list[int]:
        """Start offsets of the lines (within buf, at or after ``start``) that are notable."""
        starts, flags = self.hits(buf)
        return [s for s in starts if flags[s] & NOTABLE and s >= start]


def _hyperscan_db(exprs: list[tuple[bytes, int, int]]):
    if not exprs:
        return None
    try:
        import hyperscan  # type: ignore
    except Exception:  # not installed, or no binary for this platform
        return None
    flags = []
    for _e, _c, kind in exprs:
        if kind == 1:
            flags.append(hyperscan.HS_FLAG_CASELESS)
        elif kind == 2:
            flags.append(hyperscan.HS_FLAG_MULTILINE)
        else:
            flags.append(0)
    try:
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        db.compile(
            expressions=[e for e, _c, _k in exprs], ids=list(range(len(exprs))), elements=len(exprs), flags=flags
        )
    except Exception:
        return None
    return db
