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

NOTABLE = 1  # the line may start an event and is read for facts
STRUCTURAL = 2  # the line may start or continue a traceback (frames, chain markers)
FACT = 4  # the line has a fact anchor or pattern (log facts may find something in it)
_VERIFY = 8  # internal: a pattern's cheaper Hyperscan stand-in hit; the line is checked with the pattern

SMALL = 1 << 20  # below this many bytes Python ``re`` is used: compiling Hyperscan costs ~0.15 s


class Prefilter:
    def __init__(
        self,
        anchors: Iterable[str],
        ignore_case: Iterable[str] = (),
        patterns: Iterable[str] = (),
        structural: Iterable[str] = (),
        facts: Iterable[str] = (),
        facts_ignore_case: Iterable[str] = (),
        hints: Iterable[tuple[str, str]] | dict[str, str] = (),
    ):
        """``anchors``/``ignore_case``: literals that make a line notable; ``patterns``: regular
        expressions that make a line notable; ``facts``/``facts_ignore_case``: literals that
        make a line notable and say that log facts may be found in it (``patterns`` are
        fact patterns too); ``structural``: literals that make a line structural.
        ``hints``: (pattern, a regex that matches wherever the pattern does and costs
        Hyperscan less (e.g. without a leading ``NAME[^\\n]*``)) pairs: Hyperscan searches
        for the hint, and the lines it hits are checked with the pattern itself."""
        patterns = list(patterns)
        pairs = hints.items() if isinstance(hints, dict) else hints
        self.hints = {p: h for p, h in pairs if p in set(patterns)}
        bits: dict[tuple[str, int], int] = {}  # (expression, kind) -> class bits; kind 0 literal, 1 caseless, 2 regex
        for a in anchors:
            if a:
                bits[(a, 0)] = bits.get((a, 0), 0) | NOTABLE
        for a in ignore_case:
            if a:
                bits[(a, 1)] = bits.get((a, 1), 0) | NOTABLE
        for a in facts:
            if a:
                bits[(a, 0)] = bits.get((a, 0), 0) | NOTABLE | FACT
        for a in facts_ignore_case:
            if a:
                bits[(a, 1)] = bits.get((a, 1), 0) | NOTABLE | FACT
        for p in patterns:
            if p:
                bits[(p, 2)] = NOTABLE | FACT
        for a in structural:
            if a:
                bits[(a, 0)] = bits.get((a, 0), 0) | STRUCTURAL
        self._bits = bits
        self.anchors = sorted(e for (e, k), b in bits.items() if k == 0 and b & NOTABLE)
        self.anchors_ci = sorted(e for (e, k), b in bits.items() if k == 1)
        self.patterns = sorted(e for (e, k) in bits if k == 2)
        self.structural = sorted(e for (e, k), b in bits.items() if k == 0 and b & STRUCTURAL)
        # one alternation per class combination, for the `re` engine and single lines
        self._res: list[tuple[re.Pattern, int]] = []
        groups: dict[int, list[tuple[str, int]]] = {}
        for (e, k), b in bits.items():
            groups.setdefault(b, []).append((e, k))
        for b, items in sorted(groups.items()):
            rx = _alternation(items)
            if rx is not None:
                self._res.append((rx, b))
        self._notable = [rx for rx, b in self._res if b & NOTABLE]
        self._structural = [rx for rx, b in self._res if b & STRUCTURAL]
        self._hs = None
        self._hs_tried = False
        self.engine = "hyperscan" if _hyperscan_available() else "re"

    def contains_anchor(self, raw_line: bytes) -> bool:
        """True if one line is notable (has an anchor or a pattern hit): it may start an event
        and is read for facts. Used by the exhaustive path and follow mode."""
        return any(rx.search(raw_line) is not None for rx in self._notable)

    def is_structural(self, raw_line: bytes) -> bool:
        return any(rx.search(raw_line) is not None for rx in self._structural)

    def _db(self):
        if not self._hs_tried:
            self._hs_tried = True
            exprs = []
            for (e, k), b in sorted(self._bits.items()):
                if k == 2 and e in self.hints:
                    exprs.append((self.hints[e].encode("utf-8"), k, _VERIFY))
                    continue
                exprs.append((e.encode("utf-8") if k == 2 else re.escape(e).encode("utf-8"), k, b))
            if self.hints:
                self._verify = re.compile(
                    "|".join(f"(?:{p})" for p in sorted(self.hints)).encode("utf-8"), re.M)
            self._classes = [b for _e, _k, b in exprs]
            self._hs = _hyperscan_db(exprs)
            if self._hs is None:
                self.engine = "re"
        return self._hs

    def hits(self, buf, start: int = 0, end: int | None = None) -> tuple[list[int], dict[int, int]]:
        """(sorted start offsets of the lines of buf[start:end] with a hit, {line start: class
        bits}). buf[start:end] holds whole lines (a span from ``ingest.read_spans``)."""
        if end is None:
            end = len(buf)
        ends: dict[int, int] = {}  # match end offset (in buf) -> class bits
        db = self._db() if end - start >= SMALL else None
        if db is not None:
            classes = self._classes
            get = ends.get

            def on_match(i, _frm, to, _flags, _ctx):
                to += start
                ends[to] = get(to, 0) | classes[i]

            db.scan(memoryview(buf)[start:end] if start or end != len(buf) else buf, match_event_handler=on_match)
        else:
            for rx, b in self._res:
                for m in rx.finditer(buf, start, end):
                    e = m.end()
                    ends[e] = ends.get(e, 0) | b
        flags: dict[int, int] = {}
        if not ends:
            return [], flags
        rfind = buf.rfind
        find = buf.find
        line_start, line_end = -1, -1
        for off in sorted(ends):
            if off > line_end:  # a new line (a match ends at or before the newline of its line)
                line_start = rfind(b"\n", start, off - 1) + 1 if off > start else start
                if line_start < start:
                    line_start = start
                line_end = find(b"\n", max(off - 1, start), end)
                if line_end < 0:
                    line_end = end
            flags[line_start] = flags.get(line_start, 0) | ends[off]
        if db is not None and self.hints:
            for ls, b in list(flags.items()):
                if b & _VERIFY:
                    b &= ~_VERIFY
                    le = find(b"\n", ls, end)
                    if self._verify.search(buf, ls, end if le < 0 else le):
                        b |= NOTABLE | FACT
                    if b:
                        flags[ls] = b
                    else:
                        del flags[ls]
        return sorted(flags), flags

    def line_starts(self, buf, start: int = 0) -> list[int]:
        """Start offsets of the notable lines of ``buf`` at or after ``start``."""
        starts, flags = self.hits(buf)
        return [s for s in starts if flags[s] & NOTABLE and s >= start]


def _alternation(items: list[tuple[str, int]]):
    cs = sorted((e for e, k in items if k == 0), key=len, reverse=True)
    ci = sorted((e for e, k in items if k == 1), key=len, reverse=True)
    rx = [e for e, k in items if k == 2]
    parts = []
    if cs:
        parts.append("|".join(re.escape(a) for a in cs))
    if ci:
        parts.append("(?i:" + "|".join(re.escape(a) for a in ci) + ")")
    parts.extend(f"(?:{p})" for p in sorted(rx))
    return re.compile("|".join(parts).encode("utf-8"), re.M) if parts else None


def _hyperscan_available() -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec("hyperscan") is not None
    except (ImportError, ValueError):
        return False


def _hyperscan_db(exprs: list[tuple[bytes, int, int]]):
    if not exprs:
        return None
    try:
        import hyperscan  # type: ignore
    except Exception:  # not installed, or no binary for this platform
        return None
    flags = []
    for _e, kind, _b in exprs:
        if kind == 1:
            flags.append(hyperscan.HS_FLAG_CASELESS)
        elif kind == 2:
            flags.append(hyperscan.HS_FLAG_MULTILINE)
        else:
            flags.append(0)
    try:
        db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
        db.compile(
            expressions=[e for e, _k, _b in exprs], ids=list(range(len(exprs))), elements=len(exprs), flags=flags
        )
    except Exception:
        return None
    return db
