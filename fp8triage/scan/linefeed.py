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
   (the prefilter's STRUCTURAL class finds them). Any line may continue an open event. An event
   that starts right under a sentence that puts it in the past ("Before this PR, users saw:", the
   prefilter's PAST class) is marked so (``Event.past``: the judge names it, it does not claim it).

   A record whose only such word is a warning's (WARN: the logger level ``WARNING``, the
   ``warnings`` module's ``UserWarning:`` or ``Warning:``) starts no event: a warning that no
   signature can claim changes nothing, and a chatty server (or every rank of a job) logs many. Its
   claimable kind has a signature's anchor on the line. One exception, so that a terminal
   cannot hide an anchor by cutting it in two: a record at least ``WRAP_WIDTH_MIN`` bytes
   long starts a *provisional* event that is kept only if the very next line is its wrapped
   tail (not starting with "(" or "[", the selectors' rule for what may be a tail) and
   dropped unseen otherwise. The selector skips the other warning records undecoded.

   The same for a failure kind's cue line that prints its reading on the next line (a label, "Accuracy:",
   or a call at a prompt, "torch.allclose(d, ref)"): a provisional event that takes the next line of its
   worker when that line is a value ("0.046", "tensor(0.81)", "False", a rule before it) and is kept only
   if the two state a symptom together.
"""
from __future__ import annotations

import copy
from contextlib import contextmanager
from typing import Callable

from ..facts.envdump import DumpReader
from .events import RULE_LINE, TABLE_ROWS, VALUE_LABEL, Assembler, table_row
from ..facts.logfacts import LogFacts
from ..model import ERROR_KINDS, Event, Line
from .normalise import LineFormat, normalise, strip
from ..common.redact import redact
from .prefilter import ALERT, CUE, DUMP, EVIDENCE, FACT, PAST, SCORE, STACK, WARN
from ..catalogue import scoretables
from ..catalogue.recognition import vocabulary
from ..judge.patterns import AROUND_AFTER, PAST_SENTENCE, WORKED_AROUND
from ..judge.recognise import SCORES_LEVEL  # (a symptom on such a line starts an event: eval tools log scores at INFO)
from .selector import WRAP_WIDTH_MIN, may_be_tail

QUIET_LEVELS = frozenset({"INFO", "DEBUG", "TRACE"})  # an ALERT word on such a line starts no event

# An event that starts within PAST_LINES lines after a sentence that puts it in the past ("Before this PR, users
# saw:"; a fence or a blank line between; judge.patterns.PAST_SENTENCE), or right under such an event, is named,
# not claimed (``Event.past``). The sentence's cue words are the prefilter's class PAST; the pattern decides.
PAST_LINES = 3
# So is an event that ended at most AROUND_AFTER lines before a sentence that says a workaround got past it
# (judge.patterns.WORKED_AROUND: "Server starts now, no errors, but:").


def starts_event(bits: int, line: Line) -> bool:
    """May this line start an event (given its prefilter bits and its decoded level)? A failure
    kind's cue word starts one where the line also names an FP8 component or format (a sentence of
    a write-up, a kernel-selection line with no error word), or states a symptom."""
    if bits & EVIDENCE:
        return True
    if line.level in QUIET_LEVELS:
        # (an eval tool logs its scores at INFO: "evalscope - INFO - aime24 | AveragePass@1 | 0.0333")
        return line.level == SCORES_LEVEL and bool(bits & SCORE) and vocabulary().states_symptom(line.text)
    if bits & ALERT:
        return True
    if not bits & CUE:
        return False
    # a symptom (NaN, garbage output) starts one whatever it names: the log's other lines may name
    # the library (judge.matcher reads it with the log's facts)
    voc = vocabulary()
    return voc.names_fp8(line.text) or voc.states_symptom(line.text)


def awaits_value(bits: int, line: Line) -> bool:
    """May this line print its reading on the next line: a label ("Accuracy:" then "0.046"), a call at a
    prompt ("torch.allclose(d, ref)" then "False"), or a table's header ("| GPU | gsm8k |" then its rows)? A
    provisional event, kept only if what follows states a symptom with it."""
    return bool(bits & CUE) and line.level not in QUIET_LEVELS and (
        VALUE_LABEL.search(line.text) is not None or scoretables.is_header(line.text))


def may_be_wrapped_warning(bits: int, raw: bytes) -> bool:
    """Can this line start a (provisional) warning event? A WARN-only record as long as a
    terminal line; see the module's docstring. The selector skips the others."""
    return bits & (WARN | EVIDENCE | ALERT) == WARN and len(raw) >= WRAP_WIDTH_MIN


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
        self._prov = None  # (worker, builder, line number) of the provisional warning event
        self.last_fed = (0, 0)  # (line number, length in bytes) of the line ``feed`` took last
        self.past_at: int | None = None  # the line of the last sentence that puts what follows in the past
        self.past_run: tuple | None = None  # the last line (and its worker) fed into an event printed under such a sentence
        self.recent: list[Event] = []  # the events emitted last (a later sentence may say they were worked around)

    # the state a selector needs ---------------------------------------------------------
    @property
    def open(self) -> dict:
        """Worker -> its open event builder."""
        return self.asm.open

    @property
    def dump_open(self) -> bool:
        return self.dumps.open

    def expires_at(self, worker) -> int | None:
        """The line at which ``worker``'s open event expires (``events.QUIET_LINES``)."""
        b = self.asm.open.get(worker)
        return b.expiry if b is not None else None

    @property
    def awaiting_tail(self) -> bool:
        """A provisional warning waits for the next line (it must be fed, whatever it holds)."""
        return self._prov is not None

    @property
    def takes_next(self) -> bool:
        """The line right after the one fed last, if it has no prefix, may continue an open event
        whatever the length of the line fed last (``Assembler.takes_next``): it must be fed."""
        return self.asm.takes_next

    @property
    def table_waits(self) -> bool:
        """An open table waits for its caption or rows: a line of any worker closes it (``Assembler.table_waits``)."""
        return self.asm.table_waits

    @property
    def stack_settled(self) -> bool:
        """Lines that only name a serving stack can change nothing any more."""
        return self.logfacts.stack_settled

    # ------------------------------------------------------------------------------------
    def begin(self, source: str, fmt: LineFormat) -> None:
        self.asm = Assembler(self._emit)
        self._prov = None
        self.last_fed = (0, 0)
        self.past_at = None
        self.past_run = None
        self.recent = []
        self.dumps.close()
        self.source = source
        self.fmt = fmt

    def end(self, last_lineno: int | None = None) -> None:
        """The source ended (``last_lineno``: its last line, when known)."""
        self.lineno = 1 << 62
        self.asm.finish(last_lineno)
        self.dumps.close()

    @property
    def emit_lineno(self) -> int:
        """The line at which the event being emitted was completed (an expired event: its
        expiry line, whether or not that line was read)."""
        at = self.asm.closed_at
        return self.lineno if at is None else at

    def _emit(self, ev: Event) -> None:
        if not self.quiet:
            self.emit(ev)
            self.recent = [*self.recent[-5:], ev]

    def feed_dump_only(self, raw: bytes, lineno: int) -> bool:
        """Give a line to the open environment dump only (a parallel range reading the dump
        that runs past its end); False once the dump has ended."""
        return self.dumps.feed(normalise(raw, self.source, lineno, self.fmt), False)

    def feed_facts(self, raw: bytes, lineno: int, bits: int) -> None:
        """A line that only carries facts (bits within FACT | STACK | CUE) and that no open event
        or dump can take (the selector knows): read for facts as ``feed`` would, without the
        assembler (which would do nothing with it) and without redacting a text whose facts are
        known already (``LogFacts.feed_text``). A cue word on a line no logger marked
        informational may start an event: that line is fed as any other."""
        text, w, level = strip(raw, self.fmt)
        if bits & CUE and (level not in QUIET_LEVELS or (level == SCORES_LEVEL and bits & SCORE)):
            self.feed(raw, lineno, bits)
            return
        self.lineno = lineno
        if w not in self.workers_fed:
            self.workers_fed[w] = lineno
        if self.quiet:
            return
        if bits & FACT:
            if self.logfacts.repeat(text):
                return  # a fact line seen before (with other timestamps and pids): a lookup
            line = Line(self.source, lineno, "", w, level)  # where the facts were found; the text is not kept
            self.logfacts.feed_text(text, line, redactor=redact)
        elif bits & STACK and not self.logfacts.stack_settled:
            self.logfacts.feed_stack(Line(self.source, lineno, redact(text)[:4000], w, level))

    def feed(self, raw: bytes, lineno: int, bits: int) -> Line:
        self.lineno = lineno
        self.last_fed = (lineno, len(raw))
        line = normalise(raw, self.source, lineno, self.fmt)
        in_dump = self.dumps.feed(line, bool(bits & DUMP)) if (bits & DUMP or self.dumps.open) else False
        if not in_dump and not self.quiet:
            if bits & FACT:
                if not self.logfacts.repeat(line.text):  # a fact line seen before costs a lookup
                    self.logfacts.feed(line)
            elif bits & STACK and not self.logfacts.stack_settled:
                self.logfacts.feed_stack(line)
        w = line.worker
        if w not in self.workers_fed:
            self.workers_fed[w] = lineno
        open_ = self.asm.open
        before = open_.get(w)
        prov, self._prov = self._prov, None
        if prov is not None and prov[1].awaits_value and lineno == prov[2] + 1 and w != prov[0] and not raw.strip():
            self._prov, prov = (prov[0], prov[1], lineno), None  # a blank line between a prefixed table's rows and its note
        if prov is not None and (lineno != prov[2] + 1 or not (may_be_tail(raw, 0, len(raw))
                                                              or (prov[1].awaits_value and w == prov[0]))):
            self._drop(prov)  # this line cannot be its tail (or the value its worker printed next): as if it had started nothing
            prov = None
        notable = starts_event(bits, line)
        value = not notable and awaits_value(bits, line)
        provisional = value or (not notable and not self.fmt.jsonl and line.level not in QUIET_LEVELS
                                and may_be_wrapped_warning(bits, raw))
        self.asm.feed(line, notable or provisional)
        if prov is not None:
            self._settle(prov)
        after = open_.get(w)
        self._mark_past(line, bits, before, after)
        if provisional and after is not None and after is not before and after.lines[-1] is line:
            after.provisional = True
            after.awaits_value = value
            self._prov = (w, after, lineno)
        if after is not None:
            # does the event being assembled for this worker hold a signature's anchor?
            ev = bool(bits & EVIDENCE)
            ev = (self.evidence.get(w, False) or ev) if after is before else ev
            self.evidence[w] = ev
            after.has_evidence = ev  # travels with the open event when a parallel range hands it over
        return line

    def _mark_past(self, line: Line, bits: int, before, after) -> None:
        """Mark an event that ``line`` started right under a sentence that puts it in the past (or right under
        such an event of its worker), and remember where such a sentence was."""
        lineno, w = line.lineno, line.worker
        if (after is not None and after is not before and after.lines[0] is line
                and ((self.past_at is not None and 0 < lineno - self.past_at <= PAST_LINES)
                     or (lineno - 1, w) == self.past_run)):
            after.past = True
        if after is not None and after.past and line.text.strip():
            self.past_run = (lineno, w)
        if bits & PAST and line.level is None and PAST_SENTENCE.search(line.text):
            self.past_at = lineno
        if bits & PAST and line.level is None and WORKED_AROUND.search(line.text):
            self._worked_around(lineno)

    def _worked_around(self, lineno: int) -> None:
        """Mark the events that ended shortly before ``lineno`` as what the reporter hit before."""
        for ev in self.recent:
            if ev.lines and 0 < lineno - ev.lines[-1].lineno <= AROUND_AFTER:
                ev.past = True
        for b in self.asm.open.values():
            if not b.lines:
                continue
            # (the sentence may have been taken as an open error's continuation: the error started before it)
            before = b.lines[-1].lineno < lineno or (b.kind in ERROR_KINDS and b.lines[0].lineno < lineno)
            if before and lineno - b.lines[-1].lineno <= AROUND_AFTER:
                b.past = True

    def _drop(self, prov: tuple) -> None:
        w, b, _at = prov
        if self.asm.open.get(w) is b and b.provisional:
            del self.asm.open[w]

    def _settle(self, prov: tuple) -> None:
        """The line right after a provisional warning (one that may be its tail) was fed:
        keep the warning if the line went into it, else drop it unseen."""
        w, b, _at = prov
        if self.asm.open.get(w) is b and b.provisional:
            if len(b.lines) < 2:
                del self.asm.open[w]
            elif b.awaits_value:
                self._settle_value(w, b)
            else:
                b.provisional = False

    def _settle_value(self, w, b) -> None:
        """A line that may print its reading on the next line took that line: kept if the two state a
        symptom together; a rule between them waits for the line after it."""
        last = b.lines[-1]
        if RULE_LINE.match(last.text) and len(b.lines) < 4:
            self._prov = (w, b, last.lineno)
        elif vocabulary().states_symptom("\n".join(ln.text for ln in b.lines)):
            b.provisional = False
        elif len(b.lines) < TABLE_ROWS and table_row(b, last):
            self._prov = (w, b, last.lineno)  # a table's row: the next may be the one that collapsed
        else:
            del self.asm.open[w]

    def adopt(self, builders: dict) -> None:
        """Take over open events (a parallel range's handover)."""
        self.asm.adopt(builders)
        for w, b in builders.items():
            self.evidence[w] = getattr(b, "has_evidence", False)
            if getattr(b, "provisional", False) and b.lines:
                self._prov = (w, b, b.lines[-1].lineno)

    # -- the drivers' interface: follow mode and the ranges of a parallel scan ---------------
    def use_logfacts(self, logfacts: LogFacts) -> None:
        """Read log facts into ``logfacts`` from now on (each source is one machine)."""
        self.logfacts = logfacts

    def skip(self, lineno: int) -> None:
        """Line ``lineno`` was not fed (the selectors' rule: it changes nothing)."""
        self.lineno = lineno

    def peek(self, worker) -> Event | None:
        """``worker``'s open event as it would be completed now, left open (follow mode)."""
        return self.asm.peek(worker)

    @contextmanager
    def warming(self):
        """Lines fed inside are read only to rebuild the open events and dump (the bytes before
        a parallel range): nothing is reported, and the dump lines read are the range before's."""
        self.quiet = True
        try:
            yield self
        finally:
            self.quiet = False
            self.dumps.forget_read()

    def resume_dump(self, block) -> None:
        """Continue the dump the range before left open (``handover``)."""
        self.dumps.resume(block)

    def start_range(self) -> tuple:
        """A parallel range starts here: forget which workers were fed; returns ``boundary()``."""
        self.workers_fed = {}
        return self.boundary()

    def boundary(self, shift: int = 0) -> tuple:
        """What must agree where two ranges meet: the open events and the open dump (line
        numbers shifted by ``shift``)."""
        builders = sorted((str(w), b.lines[0].lineno - shift, len(b.lines), b.dropped, b.state, b.kind.value)
                          for w, b in self.asm.open.items() if b.lines)
        blk = self.dumps.block
        dump = (blk.lines[0][0] - shift, len(blk.lines)) if blk is not None and blk.lines else None
        return tuple(builders), dump

    def open_dump(self):
        """A copy of the open environment dump (None if none is open)."""
        blk = self.dumps.block
        return copy.deepcopy(blk) if blk is not None else None

    def hand_over(self) -> dict:
        """Give up the open events, unclosed: the range after (or the parent) finishes them."""
        builders = dict(self.asm.open)
        self.asm.open.clear()
        return builders

    def close_handed(self, worker, builder, lineno: int) -> None:
        """Complete an event handed over by the range before at line ``lineno``, where the
        sequential scan completes it (``emit`` receives it)."""
        asm = Assembler(self.emit)
        asm.open[worker] = builder
        self.evidence[worker] = getattr(builder, "has_evidence", False)
        self.lineno = lineno
        asm.close_worker(worker)

    def finish_handed(self, builders: dict, nlines: int) -> None:
        """The end of a split file of ``nlines`` lines: close the events the last range handed
        over, in the sequential order."""
        self.asm = Assembler(self.emit)
        self.adopt(builders)
        self.lineno = 1 << 62
        self.asm.finish(nlines)

    def had_evidence(self, worker) -> bool:
        """Did a line of the event just completed for ``worker`` have an EVIDENCE hit?"""
        return self.evidence.get(worker, False)
