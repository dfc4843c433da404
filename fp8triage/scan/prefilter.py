"""One multi-pattern pass over large byte chunks: which lines are worth decoding, and why.

Each expression the prefilter searches for carries class bits; a line's bits are the union
of the bits of every expression found in it:

* **EVIDENCE**: a signature's evidence anchor (the line may start an event);
* **ALERT**: a generic error or warning word ("Error", "WARNING", "failed", ...): the line
  starts an event unless its logger header says INFO or DEBUG (decided after decoding);
* **FACT**: a log-fact trigger (a version banner, a GPU name near "GPU", an env var setting):
  the line is read for facts and nothing else;
* **STACK**: a serving stack's marker ("vLLM", "sglang/"): read for the ``stack`` fact until
  the stack that ranks first (vLLM) has been named, then skipped undecoded;
* **WARN**: the logger level word ``WARNING`` and the ``warnings`` module's categories
  (``UserWarning``, ``Warning:``; ``scanner.WARNING_WORDS``): such a record starts an event only when a
  signature can claim it, which its own line shows, or its terminal-wrapped tail
  (``fp8triage.linefeed``), so a server that warns a lot costs a test per warning;
* **DUMP**: the header of an environment dump (``collect_env``, ``nvidia-smi``, ...);
* **STRUCTURAL**: the line may start or continue a traceback (``File "..."`` frames,
  chained-exception markers);
* **CUE**: a failure kind's cue word; **SCORE**: a symptom's cue word (the line has CUE too): an INFO
  line is read for a symptom only with this bit (an eval tool logs its scores at INFO), so the INFO
  lines that carry another kind's cue ("compute capability 9.0" at every start-up) cost no decoding.

Facts are not events: a line whose only bits are FACT or DUMP never starts an event, so a
server that prints "torch.compile takes 12 s in total" at every restart costs a regex test,
not an event.

``Prefilter.hits(buf)`` returns the start offsets of the lines with a hit and, for each, the
bits. Hyperscan does the search where it is installed (one compiled database, one pass over
the chunk, one Python callback per match); otherwise one compiled alternation per bit
combination (Python ``re``). ``classify(line)`` gives the same bits for one line (the
exhaustive reference path), with ``re`` and the same expressions; ``line_bits(line)`` gives
them from the Hyperscan database once it is loaded (follow mode: ~1 µs a line instead of
~0.2 ms). The tests hold the engines to the same bits; expressions are restricted to what both read identically (literals,
character classes, alternation, ``[^\\n]*``, ``\\b``, ``^`` in multi-line mode).
"""
from __future__ import annotations

import re
from typing import Iterable

from ..common import hsdb

EVIDENCE = 1  # a signature's evidence anchor: the line may start an event
STRUCTURAL = 2  # the line may start or continue a traceback (frames, chain markers)
FACT = 4  # a log-fact trigger: log facts may be found in the line
DUMP = 16  # an environment-dump header
ALERT = 32  # a generic error/warning word: starts an event unless the line is INFO/DEBUG
STACK = 64  # names a serving stack (read for the ``stack`` fact until the first-ranked stack is named)
CUE = 256  # a failure kind's cue word ("not supported", "NaN output"): starts an event on a line that names FP8 (linefeed.py)
WARN = 128  # a warning's word (WARNING, UserWarning): starts no event by itself (linefeed.py: a warning no signature claims)
PAST = 512  # a sentence that may put what follows in the past ("Before this PR, users saw:"): read, starts nothing
SCORE = 1024  # a symptom's cue word (also CUE): on an INFO line, an eval tool's score may state a symptom (linefeed.py)
EVENT = EVIDENCE | ALERT  # bits that may start an event
NOTABLE = EVENT  # the name used before issue 13

# expression kinds
LITERAL, LITERAL_CI, REGEX, REGEX_CI = 0, 1, 2, 3
# a literal whose line is a hit in a span only when the next line may be its wrapped tail (does
# not start with "(" or "["), or is not in the span; ``classify`` (one line) ignores the condition
LITERAL_TAILED = 4
_TAIL_NEXT = r"(?=[^\n]*(?:\n(?:[^(\[]|\Z)|\Z))"  # the condition, for Python ``re``
_TAIL_NEXT_HS = r"[^\n]*(?:\n(?:[^(\[]|\z)|\z)"  # the same for Hyperscan (which reports the match start)

SMALL = 64 * 1024  # below this many bytes Python ``re`` is used unless the Hyperscan database is cached (compiling it costs ~0.15 s)
CACHED_MIN = 32 * 1024  # a cached database is loaded for this many bytes or more (importing Hyperscan costs ~20 ms, about what `re` takes for 30 KB)

Rule = tuple[str, int, int]  # (expression, kind, bits)


class Prefilter:
    def __init__(self, rules: Iterable[Rule]):
        """``rules``: (expression, kind, bits) with kind LITERAL, LITERAL_CI, LITERAL_TAILED,
        REGEX or REGEX_CI."""
        bits: dict[tuple[str, int], int] = {}
        for e, k, b in rules:
            if e:
                bits[(e, k)] = bits.get((e, k), 0) | b
        self._bits = bits
        self.rules = sorted((e, k, b) for (e, k), b in bits.items())
        self._alts: tuple | None = None  # the `re` engine's alternations, compiled when first needed
        self._hs = None
        self._hs_tried = False
        self._on_disk: bool | None = None  # is the compiled database cached (asked once)
        self.engine = "hyperscan" if _hyperscan_available() else "re"
        self._settled: Prefilter | None = None  # ``settled()``, built when first needed

    def settled(self) -> Prefilter:
        """This prefilter without the STACK class: for the spans read once the stack is settled
        (``LineFeed.stack_settled``), when a STACK bit changes nothing. A line whose only hit was a
        stack's name is then no hit at all: no callback, no step of the selector (a serving stack's
        module paths are on every frame of its tracebacks and on a quarter of a restart loop's lines)."""
        if self._settled is None:
            if any(b & STACK for _e, _k, b in self.rules):
                self._settled = Prefilter((e, k, b & ~STACK) for e, k, b in self.rules if b & ~STACK)
            else:
                self._settled = self
        return self._settled

    def _re_engine(self) -> tuple[list[tuple[re.Pattern, int]], list[tuple[re.Pattern, int]]]:
        """One alternation per class combination, for single lines and for spans (~20 ms to
        compile: not done for a big file that Hyperscan reads)."""
        if self._alts is None:
            res: list[tuple[re.Pattern, int]] = []
            span_res: list[tuple[re.Pattern, int]] = []
            groups: dict[int, list[tuple[str, int]]] = {}
            for (e, k), b in self._bits.items():
                groups.setdefault(b, []).append((e, k))
            for b, items in sorted(groups.items()):
                rx = _alternation(items)
                if rx is not None:
                    res.append((rx, b))
                    tailed = any(k == LITERAL_TAILED for _e, k in items)
                    span_res.append((_alternation(items, span=True) if tailed else rx, b))
            self._alts = (res, span_res)
        return self._alts

    def classify(self, raw_line: bytes) -> int:
        """The bits of one line (what ``hits`` would give it)."""
        out = 0
        for rx, b in self._re_engine()[0]:
            if b & ~out and rx.search(raw_line) is not None:
                out |= b
        return out

    def line_bits(self, raw_line: bytes) -> int:
        """``classify``'s bits, from the Hyperscan database once it is loaded (~1 µs a line
        instead of ~0.2 ms for hundreds of alternated anchors in Python ``re``): follow mode."""
        if self._hs is None or b"\n" in raw_line:
            return self.classify(raw_line)
        _starts, flags = self.hits(raw_line)
        return flags.get(0, 0)

    def has(self, text: bytes, bits: int) -> bool:
        """Does ``text`` (any number of lines) hold an expression of a class in ``bits``? One
        Hyperscan scan once the database is loaded (a few microseconds for a short text);
        otherwise the classes' ``re`` alternations, line by line (hundreds of alternated
        anchors cost Python ``re`` about a microsecond per character)."""
        if self._hs is not None:
            _starts, flags = self.hits(text)
            return any(b & bits for b in flags.values())
        alts = [rx for rx, b in self._re_engine()[0] if b & bits]
        return any(rx.search(line) is not None for line in text.split(b"\n") for rx in alts)

    def compile(self, settled: bool = False) -> None:
        """Build the Hyperscan database now (before worker processes fork, so they share it); with ``settled``,
        ``settled()``'s too (a large file read in byte ranges reads most of them with it)."""
        self._db()
        if settled and self.settled() is not self:
            self.settled()._db()

    def _exprs(self) -> list[tuple[bytes, int, int]]:
        """What Hyperscan searches for: (expression, kind, class bits); sets up the tables that
        read its matches back."""
        exprs = []
        for (e, k), b in sorted(self._bits.items()):
            if k == LITERAL_TAILED:
                exprs.append((re.escape(e).encode("utf-8") + _TAIL_NEXT_HS.encode("ascii"), k, b))
                continue
            if k in (REGEX, REGEX_CI) and _anchored_line(e):
                # a multi-line "^" makes Hyperscan try the expression at every line start: the line start found as
                # the newline before it (a literal it can search for), or the start of the span
                exprs += [(rb"\n" + e[1:].encode("utf-8"), k, b), (rb"\A" + e[1:].encode("utf-8"), k, b)]
                continue
            exprs.append((e.encode("utf-8") if k in (REGEX, REGEX_CI) else re.escape(e).encode("utf-8"), k, b))
        self._classes = [b for _e, _k, b in exprs]
        # a tailed literal's match runs into the next line: its line is where the match starts
        self._tailed = {i for i, (_e, k, _b) in enumerate(exprs) if k == LITERAL_TAILED}
        return exprs

    def _db(self):
        if not self._hs_tried:
            self._hs_tried = True
            self._hs = _hyperscan_db(self._exprs())
            if self._hs is None:
                self.engine = "re"
        return self._hs

    def _cached(self) -> bool:
        """Is a compiled Hyperscan database of these expressions on disk (loading it costs ~1 ms)?"""
        if self._on_disk is None:
            self._on_disk = False
            if self.engine == "hyperscan":
                hyperscan = hsdb.module()
                if hyperscan is None:
                    return False
                exprs = self._exprs()
                path = hsdb.cached_path(hyperscan, [e for e, _k, _b in exprs], _hs_flags(hyperscan, exprs), "prefilter")
                try:
                    self._on_disk = path is not None and path.is_file()
                except OSError:  # an unreadable cache directory: compile as if nothing were cached
                    self._on_disk = False
        return self._on_disk

    def hits(self, buf, start: int = 0, end: int | None = None, engine: str | None = None
             ) -> tuple[list[int], dict[int, int]]:
        """(sorted start offsets of the lines of buf[start:end] with a hit, {line start: class
        bits}). buf[start:end] holds whole lines (a span from ``ingest.read_spans``).
        Hyperscan where it is installed (compiled for spans of ``SMALL`` bytes or more, loaded
        from its cache for ``CACHED_MIN`` or more); ``engine="re"``: Python ``re`` (the tests compare the two)."""
        if end is None:
            end = len(buf)
        if engine == "re":
            db = None
        elif self._hs is not None or self._hs_tried:
            db = self._hs
        else:
            size = end - start
            db = self._db() if size >= SMALL or (size >= CACHED_MIN and self._cached()) else None
        if db is None:
            ends: dict[int, int] = {}  # match end offset (in buf) -> class bits
            for rx, b in self._re_engine()[1]:
                for m in rx.finditer(buf, start, end):
                    e = m.end()
                    ends[e] = ends.get(e, 0) | b
            return _lines_of(buf, start, end, ends)
        flags: dict[int, int] = {}
        get = flags.get
        classes = self._classes
        tailed = self._tailed
        rfind, find = buf.rfind, buf.find
        line = [start, -1]  # the line of the match before: [start offset, offset of its newline]

        def on_match(i, frm, to, _flags, _ctx):
            # the line the match ends in (a match ends at or before the newline of its line); matches come
            # mostly in order of their end, so most of a line's matches find it where the one before did
            if i in tailed:
                to = frm + 1  # inside the literal's own line
            off = to + start
            ls = line[0]
            if off > line[1] or off <= ls:
                ls = rfind(b"\n", start, off - 1) + 1 if off > start else start
                if ls < start:
                    ls = start
                le = find(b"\n", max(off - 1, start), end)
                line[0], line[1] = ls, (end if le < 0 else le)
            flags[ls] = get(ls, 0) | classes[i]

        db.scan(memoryview(buf)[start:end] if start or end != len(buf) else buf, match_event_handler=on_match)
        return sorted(flags), flags


def _anchored_line(expr: str) -> bool:
    """Does ``expr`` start with "^" that anchors all of it (no "|" outside a group) and match at least one
    character after it (so that its match ends inside the line, after the newline that stands for the "^")?"""
    if not expr.startswith("^") or expr[1:2] in ("", "|", ")", "$"):
        return False
    depth, i = 0, 1
    while i < len(expr):
        c = expr[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":  # a class: its "|" and parentheses are characters
            j = expr.find("]", i + 2)
            i = len(expr) if j < 0 else j + 1
            continue
        depth += (c == "(") - (c == ")")
        if c == "|" and depth == 0:
            return False
        i += 1
    return True


def _lines_of(buf, start: int, end: int, ends: dict[int, int]) -> tuple[list[int], dict[int, int]]:
    """``hits``' result from match end offsets and their bits (the ``re`` engine's matches)."""
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
    return sorted(flags), flags


def _alternation(items: list[tuple[str, int]], span: bool = False):
    """One regex for ``items``; ``span``: for a span of lines (a tailed literal's condition on
    the next line applies), else for one line."""
    tail = _TAIL_NEXT if span else ""
    cs = sorted((e for e, k in items if k == LITERAL), key=len, reverse=True)
    cs += sorted((e for e, k in items if k == LITERAL_TAILED), key=len, reverse=True)
    ci = sorted((e for e, k in items if k == LITERAL_CI), key=len, reverse=True)
    parts = []
    if cs:
        tailed = {e for e, k in items if k == LITERAL_TAILED}
        parts.append("|".join(re.escape(a) + (tail if a in tailed else "") for a in cs))
    if ci:
        parts.append("(?i:" + "|".join(re.escape(a) for a in ci) + ")")
    parts.extend(f"(?:{p})" for p in sorted(e for e, k in items if k == REGEX))
    parts.extend(f"(?i:{p})" for p in sorted(e for e, k in items if k == REGEX_CI))
    return re.compile("|".join(parts).encode("utf-8"), re.M) if parts else None


def _hyperscan_available() -> bool:
    return hsdb.available()


def _hyperscan_db(exprs: list[tuple[bytes, int, int]]):
    if not exprs:
        return None
    hyperscan = hsdb.module()
    if hyperscan is None:
        return None
    return hsdb.database([e for e, _k, _b in exprs], _hs_flags(hyperscan, exprs), "prefilter")


def _hs_flags(hyperscan, exprs: list[tuple[bytes, int, int]]) -> list[int]:
    flags = []
    for _e, kind, _b in exprs:
        if kind == LITERAL_CI:
            flags.append(hyperscan.HS_FLAG_CASELESS)
        elif kind == REGEX:
            flags.append(hyperscan.HS_FLAG_MULTILINE)
        elif kind == REGEX_CI:
            flags.append(hyperscan.HS_FLAG_MULTILINE | hyperscan.HS_FLAG_CASELESS)
        elif kind == LITERAL_TAILED:
            flags.append(hyperscan.HS_FLAG_SOM_LEFTMOST)
        else:
            flags.append(0)
    return flags
