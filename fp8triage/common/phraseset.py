"""Alternations of phrases, with one Hyperscan pass per text that rules most of them out.

The recognition vocabulary asks each failure line whether it states a kind (eight alternations of
up to a hundred phrases), names a component or a number format. ``regex`` reads such an alternation
at 10-220 µs a line: a log with a hundred error groups spent 0.2 s judging them, and every cue line of
a scan asked the same. Here every phrase of every alternation is also compiled into one Hyperscan
database in *prefilter* mode (a superset of what the phrase matches: back-references and lookarounds
are widened, never narrowed), scanned once per text; an alternation none of whose phrases Hyperscan
found cannot match, and one that it may match is searched with ``regex`` as before. So the answer is
always ``regex``'s, only reached faster.

Where the two engines could read a text differently, the text takes ``regex`` alone: text outside
ASCII (Unicode case folding, Unicode classes) and the ASCII control characters that Python's ``\\s``
counts as space and Hyperscan's does not. A phrase Hyperscan cannot compile (``\\p{Han}``, a ``\\u``
escape) is searched with ``regex`` on every text, alone. Without Hyperscan, or for the first ``WARM`` searches
of a process (a small scan is not worth a database), every search is ``regex``'s.
"""
from __future__ import annotations

import json
import regex

from . import hsdb, rxcache

WARM = 64  # searches before the database is built (compiled once per machine, then loaded: ~1 ms)
MEMO = 512  # texts whose candidates are remembered (each failure line is asked by every kind in turn)
_ODD_SPACE = regex.compile(r"[\x1c-\x1f]")  # space to Python's \s, not to Hyperscan's


class PhraseSet:
    """The alternations of one vocabulary; ``add`` returns one to search."""

    def __init__(self) -> None:
        self.groups: list[tuple[list[str], int]] = []  # (phrases, regex flags)
        self._db = None
        self._ids: list[int] = []  # database expression -> phrase (its index in every group's phrases in turn)
        self._phrases: list[tuple[str, int]] = []  # phrase -> (source, regex flags)
        self._rx: dict[int, regex.Pattern] = {}  # phrase -> compiled alone (when first needed)
        self.unruled: frozenset[int] = frozenset()  # phrases Hyperscan cannot compile: searched on every text
        self._next = 0  # index of the next phrase added
        self._calls = 0
        self._state = "cold"  # cold -> ready | off
        self._memo: dict[str, frozenset[int]] = {}

    def add(self, phrases: list[str], flags: int) -> Phrases:
        self.groups.append((list(phrases), flags))
        first = self._next
        self._next += len(phrases)
        self._phrases += [(p, flags) for p in phrases]
        return Phrases(self, frozenset(range(first, self._next)), phrases, flags)

    def __getstate__(self):  # a database does not pickle: a copy builds its own
        return {"groups": self.groups}

    def __setstate__(self, state) -> None:
        self.__init__()
        for phrases, flags in state["groups"]:
            self.add(phrases, flags)

    def phrase(self, k: int) -> regex.Pattern:
        """Phrase ``k`` compiled alone."""
        rx = self._rx.get(k)
        if rx is None:
            rx = self._rx[k] = rxcache.compile(*self._phrases[k])
        return rx

    def candidates(self, text: str) -> frozenset[int] | None:
        """The phrases Hyperscan may find in ``text`` (besides ``unruled``); None: no fast answer."""
        if self._state != "ready":
            if self._state == "off":
                return None
            self._calls += 1
            if self._calls < WARM or not self._build():
                return None
        got = self._memo.get(text)
        if got is not None:
            return got
        if not text.isascii() or _ODD_SPACE.search(text):
            return None
        hits: set[int] = set()
        ids = self._ids
        self._db.scan(text.encode("ascii"), match_event_handler=lambda i, _a, _b, _f, _c: hits.add(ids[i]))
        got = frozenset(hits)
        if len(self._memo) >= MEMO:
            self._memo.clear()
        self._memo[text] = got
        return got

    def _build(self) -> bool:
        hyperscan = hsdb.module()
        self._state = "off"
        if hyperscan is None:
            return False
        exprs, flags = [], []
        for p, rflags in self._phrases:
            exprs.append(p.encode("utf-8"))
            flags.append(hyperscan.HS_FLAG_PREFILTER | hyperscan.HS_FLAG_SINGLEMATCH | hyperscan.HS_FLAG_ALLOWEMPTY
                         | (hyperscan.HS_FLAG_CASELESS if rflags & regex.IGNORECASE else 0)
                         | (hyperscan.HS_FLAG_MULTILINE if rflags & regex.MULTILINE else 0)
                         | (hyperscan.HS_FLAG_DOTALL if rflags & regex.DOTALL else 0))
        ok = _compilable(hyperscan, exprs, flags)
        keep = [k for k in range(len(exprs)) if ok[k]]
        db = hsdb.database([exprs[k] for k in keep], [flags[k] for k in keep], "phrases")
        if db is None:
            return False
        self._db, self._ids = db, keep
        self.unruled = frozenset(k for k in range(len(exprs)) if not ok[k])
        self._state = "ready"
        return True


def _compilable(hyperscan, exprs: list[bytes], flags: list[int]) -> list[bool]:
    """Which expressions Hyperscan compiles (remembered per machine: finding out costs a few
    compilations of the whole set)."""
    path = hsdb.cached_path(hyperscan, exprs, flags, "phrases")
    mask_path = path.with_suffix(".ok.json") if path is not None else None
    if mask_path is not None:
        try:
            mask = json.loads(mask_path.read_text(encoding="utf-8"))
            if isinstance(mask, list) and len(mask) == len(exprs) and all(isinstance(b, bool) for b in mask):
                return mask
        except (OSError, ValueError):
            pass
    ok = [False] * len(exprs)

    def split(idx: list[int]) -> None:
        if not idx:
            return
        try:
            hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK).compile(
                expressions=[exprs[i] for i in idx], ids=list(range(len(idx))), elements=len(idx),
                flags=[flags[i] for i in idx])
        except Exception:
            if len(idx) > 1:
                split(idx[:len(idx) // 2])
                split(idx[len(idx) // 2:])
            return
        for i in idx:
            ok[i] = True

    split(list(range(len(exprs))))
    if mask_path is not None:
        hsdb.store(mask_path, json.dumps(ok).encode())
    return ok


class Phrases:
    """One alternation: ``search`` finds a match where ``regex`` finds one for the phrases joined
    (a match of one of its phrases: callers ask whether, not where)."""

    __slots__ = ("owner", "ks", "phrases", "rx")

    def __init__(self, owner: PhraseSet, ks: frozenset[int], phrases: list[str], flags: int):
        self.owner, self.ks, self.phrases = owner, ks, list(phrases)
        self.rx = rxcache.compile("|".join(f"(?:{p})" for p in phrases), flags)

    @property
    def pattern(self) -> str:
        return self.rx.pattern

    @property
    def flags(self) -> int:
        return self.rx.flags

    def search(self, text: str):
        owner = self.owner
        c = owner.candidates(text)
        if c is None:
            return self.rx.search(text)
        maybe = self.ks & c
        if owner.unruled:
            maybe |= self.ks & owner.unruled
        for k in sorted(maybe):
            m = owner.phrase(k).search(text)
            if m:
                return m
        return None
