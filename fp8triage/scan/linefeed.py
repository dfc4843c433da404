"""The one per-line entry point of every scan: what is done with a line once it is read.

Batch scans (prefiltered or exhaustive), follow mode and the workers of a parallel scan all
call ``LineFeed.feed(raw, lineno, bits)``; they differ only in which lines they pass and how
they learn a line's bits (``fp8triage.scan.selector``; ``Prefilter.classify`` for one line).

For one line, in this order:

1. ``normalise``: decode, strip worker and logger prefixes, redact.
2. The environment-dump reader: a line inside a pasted ``collect_env`` / ``nvidia-smi`` /
   ``transformers env`` dump belongs to the dump and is not read for log facts (a pip list
   is not evidence of which stack wrote the log). A dump starts only at a DUMP hit and ends
   by its own structure.
3. Log facts, for a FACT hit outside a dump (STACK hits: only until vLLM, the first-ranked
   stack, has been named). Facts are not events: that is all a fact-only line does.
4. The assembler. A line may *start* an event only when it has a signature's evidence anchor
   (EVIDENCE) or a generic error/warning word (ALERT) on a line whose logger header is not
   INFO or DEBUG; traceback headers, frames and chain markers start tracebacks by their shape
   (the prefilter's STRUCTURAL class finds them). Any line may continue an open event.
"""
from __future__ import annotations

from typing import Callable

from ..facts.envdump import DumpReader
from .events import Assembler
from ..facts.logfacts import LogFacts
from ..model import Event, Line
from .normalise import LineFormat, normalise
from .prefilter import ALERT, DUMP, EVIDENCE, FACT, STACK

QUIET_LEVELS = frozenset({"INFO", "DEBUG", "TRACE"})  # an ALERT word on such a line starts no event


def starts_event(bits: int, line: Line) -> bool:
    """May this line start an event (given its prefilter bits and its decoded level)?"""
    return bool(bits & EVIDENCE) or (bool(bits & ALERT) and line.level not in QUIET_LEVELS)


class LineFeed:
    """Feeds lines of one source at a time into the dump reader, log facts and the assembler.

    ``emit`` receives each completed event. ``begin(name, fmt)`` starts a source (events and
    dumps do not continue across sources); ``end()`` closes the open events."""

    def __init__(self, emit: Callable[[Event], None], logfacts: LogFacts | None = None,
                 dumps: DumpReader | None = None):
        self.emit = emit
        self.logfacts = logfacts if logfacts is not None else LogFacts()
        self.dumps = dumps if dumps is not None else DumpReader()
        self.asm = Assembler(self._emit)
        self.source = "<text>"
        self.fmt = LineFormat()
        self.quiet = False  # warm-up of a parallel range: track state, report nothing
        self.evidence: dict = {}  # worker -> whether its open event has a line with an EVIDENCE hit
        self.workers_fed: dict = {}  # worker -> its first line fed (a parallel range's handover check)
        self.lineno = 0  # the line being fed (events completed at the end: after every line)

    # the state a selector needs ---------------------------------------------------------
    @property
    def open(self) -> dict:
        """Worker -> its open event builder."""
        return self.asm.open

    @property
    def dump_open(self) -> bool:
        return self.dumps.open

    @property
    def stack_settled(self) -> bool:
        """Lines that only name a serving stack can change nothing any more."""
        return self.logfacts.stack_settled

    # ------------------------------------------------------------------------------------
    def begin(self, source: str, fmt: LineFormat) -> None:
        self.asm = Assembler(self._emit)
        self.dumps.close()
        self.source = source
        self.fmt = fmt

    def end(self) -> None:
        self.lineno = 1 << 62
        self.asm.finish()
        self.dumps.close()

    def _emit(self, ev: Event) -> None:
        if not self.quiet:
            self.emit(ev)

    def feed_dump_only(self, raw: bytes, lineno: int) -> bool:
        """Give a line to the open environment dump only (a parallel range reading the dump
        that runs past its end); False once the dump has ended."""
        return self.dumps.feed(normalise(raw, self.source, lineno, self.fmt), False)

    def feed(self, raw: bytes, lineno: int, bits: int) -> Line:
        self.lineno = lineno
        line = normalise(raw, self.source, lineno, self.fmt)
        in_dump = self.dumps.feed(line, bool(bits & DUMP)) if (bits & DUMP or self.dumps.open) else False
        if not in_dump and not self.quiet:
            if bits & FACT:
                self.logfacts.feed(line)
            elif bits & STACK and not self.logfacts.stack_settled:
                self.logfacts.feed_stack(line)
        w = line.worker
        if w not in self.workers_fed:
            self.workers_fed[w] = lineno
        open_ = self.asm.open
        before = open_.get(w)
        self.asm.feed(line, starts_event(bits, line))
        after = open_.get(w)
        if after is not None:
            # does the event being assembled for this worker hold a signature's anchor?
            ev = bool(bits & EVIDENCE)
            ev = (self.evidence.get(w, False) or ev) if after is before else ev
            self.evidence[w] = ev
            after.has_evidence = ev  # travels with the open event when a parallel range hands it over
        return line

    def adopt(self, builders: dict) -> None:
        """Take over open events (a parallel range's handover)."""
        self.asm.open.update(builders)
        for w, b in builders.items():
            self.evidence[w] = getattr(b, "has_evidence", False)

    def had_evidence(self, worker) -> bool:
        """Did a line of the event just completed for ``worker`` have an EVIDENCE hit?"""
        return self.evidence.get(worker, False)
