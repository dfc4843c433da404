"""A known message cut short: at the end of a pasted line (an excerpt cut mid-line) or by the reporter's
ellipsis ("... layout.hpp:59): Unknown SF transf..."). The cut text must be the start of one of a
signature's messages, ending inside the message's own words: weak evidence, at most ``possible`` alone.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..catalogue.loader import Catalogue, Pattern, Signature
from ..common import rxcache
from .claims import PATTERN_SPECIFICITY, Group, Hit, Match
from .patterns import REGEX_TIMEOUT, exc_ok, not_shown

PARTIAL_MIN = 14  # characters of a cut message that must match the start of a known one
_FLAG_ONLY = rxcache.compile(r"--?[\w-]+(?:[ =]\S+)?\s*\Z")
_NOT_PARTIAL = rxcache.compile(r"\(\?[=!<]|\\A|\\K|\(\?s\)|\(\?[a-z]*s[a-z]*\)")


def partial_ok(p: Pattern) -> bool:
    """Whether a pattern can say that a cut line is the start of its message: lookarounds and
    whole-event scans (\\A, \\K, dot-all) would take any cut text for a start."""
    return p.kind == "message" and p.compiled is not None and not _NOT_PARTIAL.search(p.source)


CUT_TAIL = 4096
CUT_ANCHOR_MIN = 6  # characters of an anchor that a cut line must end with


def _cut_candidates(cat: Catalogue, tail: str) -> list[tuple[Signature, int]]:
    """(signature, offset) for each signature with an anchor in the line, or one that the line's
    end cuts (the line ends with the anchor's first CUT_ANCHOR_MIN or more characters: "... or
    higher req")."""
    out = []
    low = tail.lower()
    for sig in cat.signatures:
        hay = low if sig.anchors_ignore_case else tail
        for a in sig.anchors:
            a = a.lower() if sig.anchors_ignore_case else a
            i = hay.rfind(a[:CUT_ANCHOR_MIN])
            if i >= 0 and (hay.startswith(a, i) or (len(hay) - i < len(a) and a.startswith(hay[i:]))):
                out.append((sig, i))
                break
    return out


_SENTINEL = "\x00"  # no message contains it: a pattern that can consume it was inside a wildcard


def _cut_inside_literal(p: Pattern, tail: str, m: Any) -> bool:
    """The partial match ran out of text inside the message's own words, not inside a wildcard
    (``[^\\n]*deep_gemm`` is "partial" on any line: it would take more of anything)."""
    try:
        m2 = p.compiled.search(tail + _SENTINEL, pos=m.start(), partial=True, timeout=REGEX_TIMEOUT)
    except TimeoutError:
        return False
    return m2 is None or m2.start() != m.start() or not m2.partial


def match_cut(cat: Catalogue, g: Group) -> list[Hit]:
    """Weak hits for an event whose last line ends inside a signature's message: a paste or an
    excerpt cut mid-line. The line must end inside one of the signature's anchors, and the cut
    text must match the start of one of its messages for PARTIAL_MIN characters or more, up to
    the end of the line."""
    ev = g.event
    if not ev.lines:
        return []
    joined = ev.unwrapped(" ") if ev.wrapped else [(len(ev.lines) - 1, ev.lines[-1].text)]
    idx, tail = joined[-1]
    tail = tail.rstrip()[-CUT_TAIL:]  # a cut is at the end: its message starts within the last few KB
    return _cut_hits(cat, g, idx, tail, tail if ev.wrapped else None)


def _cut_hits(cat: Catalogue, g: Group, idx: int, tail: str, text: str | None, quoted: bool = False) -> list[Hit]:
    """Weak hits for ``tail`` (line ``idx`` of the event up to a cut; ``text``: the joined text the span is
    in, where it is not the line's) that ends inside a signature's message; ``quoted``: the reporter quotes
    it, so a message kept to one kind of event or exception reads any line."""
    ev = g.event
    if len(tail) < PARTIAL_MIN:
        return []
    hits = []
    for sig, at in _cut_candidates(cat, tail):
        for p in sig.primary:
            if not partial_ok(p) or (not quoted and ((p.kinds and ev.kind.value not in p.kinds) or not exc_ok(p, ev))):
                continue
            try:
                m = p.compiled.search(tail, partial=True, timeout=REGEX_TIMEOUT)
            except TimeoutError:
                continue
            if m is None or not m.partial or m.end() - m.start() < PARTIAL_MIN or m.start() > at:
                continue
            if not _cut_inside_literal(p, tail, m):
                continue
            if _FLAG_ONLY.match(tail, m.start(), m.end()):
                continue  # a command line's flag and value ("--moe-runner-backend deep_gemm") is no cut message
            cut = replace(p, kind="message", strength="weak")
            hits.append(Hit(sig, cut, Match(idx, (m.start(), m.end()), text), g, PATTERN_SPECIFICITY["message"]))
            break
    return hits


# a word the reporter cut short with an ellipsis: "transf..." or "transf…" (not "-> ..." or a sentence's "...")
_ELIDED = rxcache.compile(r"\w(?=\.{3}|\u2026)")
ELIDED_LINES = 400  # lines of an event looked at for an elided message


def match_elided(cat: Catalogue, g: Group) -> list[Hit]:
    """Weak hits for a line where the reporter cut a known message short with an ellipsis: the text
    before the ellipsis must be the start of a signature's message, as for a cut line; not where the line
    says the failure is gone, is quoted source, is not failing now or is the reporter's guess."""
    ev = g.event
    for idx, ln in enumerate(ev.lines[:ELIDED_LINES]):
        if "..." not in ln.text and "\u2026" not in ln.text:
            continue
        for e in _ELIDED.finditer(ln.text):
            cut = ln.text[:e.end()][-CUT_TAIL:]
            hits = [h for h in _cut_hits(cat, g, idx, cut, None, quoted=True) if not not_shown(ev, h.match)]
            if hits:
                return hits
    return []
