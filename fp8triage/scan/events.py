"""Assembling multi-line events from normalised lines, one state machine per worker.

Events: Python tracebacks (with chained causes, and headless ones that start at a frame),
C++ host assertions (``Assertion error (file:line): reason``), CUDA device asserts, error
lines, warning lines, and other lines an anchor pointed at. Interleaved workers are kept
apart by the worker name that ``normalise`` took from each line's prefix.

An event is complete when its worker's next line does not continue it, or when its worker has
written nothing for ``QUIET_LINES`` lines (it *expires*: a line that far away continues
nothing, and a scan need not look further for it). An expired event is completed at its
expiry line (its last line + ``QUIET_LINES`` + 1), before that line is read, in the order of
expiry, so a scan that reads only some lines completes it exactly as one that reads all.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import regex

from ..catalogue import scoretables
from ..common import rxcache
from ..common.frames import FRAME, NUMBERED_SOURCE
from ..model import Event, EventKind, Line

# Python's header, and IPython's ("ImportError                    Traceback (most recent call last)", no colon)
TRACEBACK_START = rxcache.compile(r"Traceback \(most recent call last\)(?::|\s*$)")
CHAIN_MARKER = rxcache.compile(
    r"^\s*(?:During handling of the above exception, another exception occurred:"
    r"|The above exception was the direct cause of the following exception:)"
)
# Exception line: "RuntimeError: msg", "torch.AcceleratorError: msg", "E   RuntimeError: msg" (pytest)
EXCEPTION_LINE = rxcache.compile(
    r"^(?:E\s+)?(?P<type>(?:[A-Za-z_][\w]*\.)*[A-Za-z_]\w*(?:Error|Exception|Exit|Interrupt|Warning|Failure|Fault|Abort))"
    r"(?::\s?(?P<msg>.*))?$"
)
# after a traceback's frames, an exception class named by its module path whatever its name ends with
# ("triton.runtime.errors.OutOfResources: out of resource: shared memory, ...")
DOTTED_EXCEPTION = rxcache.compile(r"^(?P<type>(?:[a-z_][\w]*\.)+[A-Z]\w*):\s?(?P<msg>.*)$")


def _exception_line(stripped: str):
    """The match of a traceback's exception line (``EXCEPTION_LINE``, or a class named by its module path), or None."""
    return EXCEPTION_LINE.match(stripped) or DOTTED_EXCEPTION.match(stripped)


CPP_ASSERT = rxcache.compile(
    r"Assertion error \(|Assertion failed[:.]|terminate called after throwing|^\s*what\(\):|"
    r"Assertion .{0,200} failed\.|Assertion `|TllmException|CUDA driver error \(|CUDA runtime error \(|NVRTC error \("
)
DEVICE_ASSERT = rxcache.compile(r"block: \[\d+,\d+,\d+\], thread: \[\d+,\d+,\d+\] Assertion|device-side assert")
ERRORISH = rxcache.compile(
    # (not "there is no error", "runs without error": a sentence that says nothing failed)
    r"\b(?:ERROR|FATAL|CRITICAL)\b|(?<!\b(?:[Nn]o|[Ww]ithout|[Aa]ny) )\b[Ee]rror\b|\bfailed\b|\bFailed\b|\bException\b|\bfatal\b|Aborting|Segmentation fault|[Ss]egfault|\bSIGSEGV\b|Illegal instruction"
)
# the start of another log record: never a continuation of an exception message
LOGLIKE = rxcache.compile(r"^(?:\[?(?:INFO|DEBUG|WARNING|WARN|ERROR|CRITICAL|TRACE|FATAL)\]?[:\s]|\d{4}-\d\d-\d\d|\[\d|\d\d:\d\d:\d\d)")
# a line that prints its value on the next line: a label ("Accuracy:") or a call at a prompt ("torch.allclose(d, ref)",
# "llm.generate(p)[0].outputs[0].text": its result indexed)
VALUE_LABEL = rxcache.compile(r"(?:[:=]|\)(?:\[[^\]\n]{0,20}\]|\.\w+)*)\s*(?:#.*)?$")
# a rule a script prints between a call and its value
RULE_LINE = rxcache.compile(r"^\s*[-=_*]{3,}\s*$")
# what a call or a label prints on the next line: a number, a tensor of one, True/False, NaN/inf (or a rule before it)
# ... or the text a decode call returned, as a REPL prints a string ("'<|im_start|>user ...'"); IPython's "Out[14]: " before it
VALUE_LINE = rxcache.compile(r"^\s*(?:Out\[\d*\]:\s*)?(?:[-=_*]{3,}|(?:tensor\(\s*)?\[?[-+]?(?:\d[\d.,]*(?:e[-+]?\d+)?|nan|inf|true|false)\b.{0,80}"
                             r"|\[?b?'[^'\n]{8,}'?\]?|\[?b?\"[^\"\n]{8,}\"?\]?)\s*$", regex.I)
TABLE_ROWS = 14  # an event under a table's header takes this many lines at most (its rules and rows)
WARNINGISH = rxcache.compile(r"\bWARNING\b|\bWARN\b|\bWarning\b|\bUserWarning\b|FutureWarning")
# native stack frames: TensorRT-LLM / glibc backtraces ("1       0x7ffb85c9bc41 tensorrt_llm::...(...) + 100"),
# torch's C++ stacks ("frame #3: at::native::foo(...) + 0x1d (0x7f.. in /usr/lib/libtorch_cuda.so)"), gdb ("#3 0x.. in foo")
NATIVE_FRAME = rxcache.compile(
    r"^(?:\d+\s+0x[0-9a-fA-F]+\s+(?P<sym>.+)"
    r"|frame #\d+: (?:0x[0-9a-fA-F]+\s*)?(?P<sym2>.+)"
    r"|#\d+\s+0x[0-9a-fA-F]+ in (?P<sym3>.+))$"
)
# what goes on with an error's message after a blank line: the header of the C++ backtrace torch prints under a
# c10::Error's message, and the graph node torch.compile was running when its backend raised ("While executing
# %_scaled_mm : [...] = call_function[target=torch.ops.aten._scaled_mm.default](...)")
AFTER_BLANK = rxcache.compile(r"^(?:Exception raised from \S+ at \S+ \(most recent call first\):?|While executing %\w+ : .*)$")
# a frame line cut by a terminal before its line number: 'File "/x/y.py', 'File "/x/y.py", l'
PARTIAL_FRAME = rxcache.compile(r'^\s*File "[^"]+(?:"(?:,\s?(?:l(?:i(?:n(?:e\s?)?)?)?)?)?)?$')
# a terminal, a logger or a paste wraps long lines at a fixed width: a header-less, unindented line right
# after a line at least this long continues it
WRAP_MIN = 60
WRAP_MIN_PREFIXED = 16

MAX_EVENT_LINES = 4000  # a longer traceback keeps its head and its newest frames
MAX_CONTINUATION = 12
QUIET_LINES = 2000  # an event whose worker wrote nothing for this many lines is complete
_NO_LINE = -(1 << 62)  # below every line number
# a traceback in its frames whose worker wrote nothing for this many lines takes no further line: a paste cut
# inside its frames is not finished by an unrelated exception line of the same worker far below it (workers
# that print their tracebacks at once, interleaved line by line, stay well within it)
FRAMES_GAP = 200
MAX_CHAIN = 64  # chained exceptions kept per traceback (the first and the newest)


def table_row(b: _Builder, line: Line) -> bool:
    """Is ``line`` a row (or a rule) of the table whose header started the event ``b`` (scoretables.py), or, once it
    has a row, a blank line, a caption or a note between its rows or after them (two in a row at most: "B200,
    VLLM_USE_DEEP_GEMM=1:" before a second run's table, "expected ~0.87" after the rows)?"""
    if not b.lines or not scoretables.headed([ln.text for ln in (b.lines[:-1] if b.lines[-1] is line else b.lines)[:2]]):
        return False
    if _in_table(line.text):
        return True
    text = line.text
    if (len(b.lines) < 2 or line.level is not None or TRACEBACK_START.search(text) or LOGLIKE.match(text)
            or ERRORISH.search(text) or (text.strip() and not scoretables.is_note(text))):
        return False
    before = b.lines[:-1] if b.lines[-1] is line else b.lines  # (linefeed.py asks once the line was added)
    return any(_in_table(ln.text) for ln in before[-2:])


def _after_table(b: _Builder | None, lines: list[Line] | None = None) -> bool:
    """Does the table event ``b`` end (``lines``: these of its lines end) in a blank line or a caption after its
    rows ("B200, DeepGEMM on:"), which only a table goes on from?"""
    lines = lines if lines is not None else (b.lines if b is not None else [])
    if b is None or b.kind is not EventKind.LINE or len(lines) < 2 or not scoretables.headed([ln.text for ln in lines[:2]]):
        return False
    last = lines[-1].text.rstrip()
    return not last or (last.endswith(":") and not _in_table(last) and not scoretables.states_score(last))


def _in_table(text: str) -> bool:
    return scoretables.cells(text) is not None or (bool(text.strip()) and bool(scoretables.RULE.match(text)))


@dataclass
class _Builder:
    kind: EventKind
    lines: list[Line] = field(default_factory=list)
    state: str = "frames"  # traceback: frames | exc | exc-blank | chained ; others: body
    exc_type: str | None = None
    message: str = ""
    chain: list[str] = field(default_factory=list)
    frames: list[tuple[str, str]] = field(default_factory=list)
    wrapped: list[int] = field(default_factory=list)
    frame_at: int = -1  # index of the line the last frame was read from
    cont: int = 0
    dropped: int = 0
    exc_level: str | None = None
    provisional: bool = False  # a warning record kept only if its next line is its wrapped tail (linefeed.py)
    awaits_value: bool = False  # provisional: a cue line kept only if its next line prints a symptom's value
    blank: bool = False  # an error's message was followed by a blank line: only a C++ backtrace continues it
    past: bool = False  # printed right under a sentence that puts it in the past (linefeed.py)

    @property
    def expiry(self) -> int | None:
        """The line at which this event expires: its last line + ``QUIET_LINES`` + 1."""
        return self.lines[-1].lineno + QUIET_LINES + 1 if self.lines else None

    def add(self, line: Line) -> None:
        if len(self.lines) >= MAX_EVENT_LINES:
            # keep the first half and slide the rest
            del self.lines[MAX_EVENT_LINES // 2]
            self.dropped += 1
        # frames and chained exceptions are bounded the same way (a 100k-frame or endlessly chained
        # traceback must not grow memory without limit)
        if len(self.frames) >= MAX_EVENT_LINES:
            del self.frames[MAX_EVENT_LINES // 2]
        if len(self.chain) >= MAX_CHAIN:
            del self.chain[MAX_CHAIN // 2]
        self.lines.append(line)


class Assembler:
    """Feed lines in order with ``feed``; completed events go to ``emit``.

    ``notable`` says the line contains an anchor (only such lines, frames and traceback
    headers start events). ``gap`` marks a jump in the input (flushes every worker).
    """

    def __init__(self, emit: Callable[[Event], None]):
        self.emit = emit
        self.open: dict[str | None, _Builder] = {}
        self._last: str | None = None  # the worker of the line fed last
        self._last_at: tuple[str, int] | None = None  # (source, line number) of the line fed last
        self.closed_at: int | None = None  # the expiry line of the event being emitted (None: the line fed)
        # no open event expires at or before this line: a lower bound of the open events' expiry
        # lines (a line added to an event or a new event only moves them later); none yet (the
        # warm-up before a parallel range numbers its lines from below zero)
        self._quiet_until = _NO_LINE

    # -- public -----------------------------------------------------------------------------
    def feed(self, line: Line, notable: bool) -> None:
        if self.open:
            self.expire(line.lineno)
        w = line.worker
        unprefixed_tb = self.open.get(None)
        right_after = self._last_at == (line.source, line.lineno - 1)  # a wrapped tail follows its line at once
        self._last_at = (line.source, line.lineno)
        if (w is None and line.level is None and self._last is not None and right_after
                and not (unprefixed_tb is not None and unprefixed_tb.kind is EventKind.TRACEBACK and line.text[:1] in (" ", "\t"))):
            # a prefixed line wrapped by the terminal or the paste: its tail has no prefix of its own
            b = self.open.get(self._last)
            if b is not None and self._wrap(b, line, indented_ok=True):
                return
        if (w is None and line.level is None and self._last is not None and right_after
                and not (unprefixed_tb is not None and unprefixed_tb.kind is EventKind.TRACEBACK)):
            # a multi-line record logged once under one prefix (SGLang's "[... TP0] Scheduler hit an
            # exception: Traceback ..." and the frames after it): its later lines belong to that worker
            b = self.open.get(self._last)
            if b is not None and b.kind is EventKind.TRACEBACK and self._continue(b, line):
                return
        if w is not None and _after_table(self.open.get(None)):
            self._close(None)  # a caption or note goes on with its table at once, not after another worker's lines
        self._last = w
        b = self.open.get(w)
        if b is not None:
            if self._continue(b, line):
                return
            self._close(w)
        self._start(line, notable)

    @property
    def table_waits(self) -> bool:
        """Does an open table of no worker wait for its caption or next rows (it ended in a blank line or a caption)?
        Then a line of any worker closes it (``feed``): every line must be read."""
        return _after_table(self.open.get(None))

    @property
    def takes_next(self) -> bool:
        """May a line without a prefix right after the line fed last continue an open event (the
        wrapped tail of a line, or the next line of a record logged once under one prefix)? Its
        worker is the one whose line was fed last, and that worker has an open event."""
        return self._last is not None and self._last in self.open

    def gap(self) -> None:
        for w in list(self.open):
            self._close(w)

    def close_worker(self, w: str | None) -> None:
        """Complete ``w``'s open event now (follow mode: the worker has been quiet for a while)."""
        self._close(w)

    def adopt(self, builders: dict) -> None:
        """Take over open events (a parallel range's handover)."""
        self.open.update(builders)
        self._quiet_until = _NO_LINE

    def continues(self, b: _Builder, line: Line) -> bool:
        """Whether ``line`` continues the event ``b`` builds (and adds it): a parallel scan's
        check where two byte ranges meet."""
        return self._continue(b, line)

    def expire(self, lineno: int) -> None:
        """Complete, in order of expiry, the events that expire at or before line ``lineno``."""
        if lineno <= self._quiet_until:
            return
        due = [(b.expiry, w) for w, b in self.open.items() if b.lines and lineno >= b.expiry]
        for at, w in sorted(due, key=lambda d: d[0]):
            self.closed_at = at
            self._close(w)
        self.closed_at = None
        last = min((b.lines[-1].lineno for b in self.open.values() if b.lines), default=lineno)
        self._quiet_until = last + QUIET_LINES

    def finish(self, last_lineno: int | None = None) -> None:
        """The end of the source (``last_lineno``: its last line, when known): the events
        that expire within it first, in order of expiry, then the others."""
        if last_lineno is not None and self.open:
            self.expire(last_lineno)
        self.gap()

    # -- internals --------------------------------------------------------------------------
    def _start(self, line: Line, notable: bool) -> None:
        text = line.text
        w = line.worker
        if not text.strip():
            return
        if TRACEBACK_START.search(text):
            self.open[w] = _Builder(EventKind.TRACEBACK, [line], "frames")
            return
        fm = FRAME.match(text)
        if fm:
            b = _Builder(EventKind.TRACEBACK, [line], "frames", frame_at=0)
            b.frames.append(_frame(fm))
            self.open[w] = b
            return
        if PARTIAL_FRAME.match(text):  # a frame line cut by a terminal: its tail follows
            self.open[w] = _Builder(EventKind.TRACEBACK, [line], "frames")
            return
        if CHAIN_MARKER.match(text):
            self.open[w] = _Builder(EventKind.TRACEBACK, [line], "chained")
            return
        if not notable:
            return
        em = EXCEPTION_LINE.match(text.strip())
        if em and (em.group("msg") is not None or text.strip() == em.group("type")):
            b = _Builder(EventKind.ERROR, [line], "exc", exc_type=em.group("type"), message=(em.group("msg") or "").strip())
            b.exc_level = line.level
            if CPP_ASSERT.search(text):
                b.kind = EventKind.CPP_ASSERT
            self.open[w] = b
            return
        if text[:1] in (" ", "\t") and not ERRORISH.search(text) and not CPP_ASSERT.search(text):
            kind = EventKind.LINE  # a source line of a traceback whose header was cut off
        elif DEVICE_ASSERT.search(text):
            kind = EventKind.DEVICE_ASSERT
        elif CPP_ASSERT.search(text):
            kind = EventKind.CPP_ASSERT
        elif line.level in ("ERROR", "CRITICAL"):
            kind = EventKind.ERROR
        elif line.level == "WARNING" or WARNINGISH.search(text):
            kind = EventKind.WARNING
        elif ERRORISH.search(text):
            kind = EventKind.ERROR
        else:
            kind = EventKind.LINE
        b = _Builder(kind, [line], "body", message=text.strip())
        b.exc_level = line.level
        self.open[w] = b

    def _continue(self, b: _Builder, line: Line) -> bool:
        """Add ``line`` to the open builder if it belongs there."""
        if b.kind is EventKind.TRACEBACK:
            if b.state in ("frames", "chained"):
                return self._continue_frames(b, line, line.text, line.text.strip())
            if b.state in ("exc", "exc-blank"):
                return self._continue_exception(b, line, line.text, line.text.strip())
            return False
        if b.kind is EventKind.LINE and not b.provisional and len(b.lines) < TABLE_ROWS and table_row(b, line):
            b.add(line)  # a table's row under the header that started the event
            return True
        if b.awaits_value and b.provisional:
            if VALUE_LINE.match(line.text) or table_row(b, line):
                b.add(line)  # the reading its call or label printed (linefeed.py keeps it if the two state a symptom)
                return True
            return False
        if (b.kind is EventKind.LINE and b.cont < MAX_CONTINUATION and VALUE_LINE.match(line.text)
                and VALUE_LABEL.search(b.lines[-1].text)):
            b.add(line)  # the value a call or label on the event's last line printed
            b.cont += 1
            return True
        if b.kind in (EventKind.WARNING, EventKind.LINE):
            return self._message_continuation(b, line, strict=True)
        return self._message_continuation(b, line)

    def _continue_frames(self, b: _Builder, line: Line, text: str, stripped: str) -> bool:
        """A traceback in its frames (or after a chain marker): a frame, its source line, a chain
        marker, or the exception line that ends them."""
        if b.lines and line.lineno - b.lines[-1].lineno > FRAMES_GAP:
            return False
        if TRACEBACK_START.search(text):
            if b.state == "chained":
                b.add(line)
                b.state = "frames"
                return True
            return False
        fm = FRAME.match(text)
        if fm:
            b.add(line)
            b.frames.append(_frame(fm))
            b.frame_at = len(b.lines) - 1
            b.state = "frames"
            return True
        if CHAIN_MARKER.match(text):
            b.add(line)
            b.state = "chained"
            return True
        if not stripped:
            b.add(line)  # after a chain marker, or inside frames (rare): keep going
            return True
        if text[:1] in (" ", "\t") or stripped.startswith("^") or stripped.startswith("~") or NUMBERED_SOURCE.match(text):
            b.add(line)  # source line or caret marker under a frame
            return True
        if stripped == "...":
            b.add(line)
            return True
        em = _exception_line(stripped)
        last = b.lines[-1].text if b.lines else ""
        # the tail of a frame line, or of the source line under it, cut by a terminal
        if not em and (FRAME.match(last) or PARTIAL_FRAME.match(last) or last[:1] in (" ", "\t")) and len(last) >= WRAP_MIN:
            if self._wrap(b, line):
                return True
        if not em and (line.level in ("INFO", "DEBUG", "TRACE", "WARNING") or LOGLIKE.match(stripped)):
            # an informational record ends the frames: the exception line is missing (a cut paste)
            # (vLLM logs every line of a traceback, its exception line too, as ERROR records)
            return False
        if em or b.frames:
            # the final (or a chained) exception line
            if b.exc_type:
                b.chain.append(f"{b.exc_type}: {b.message}".strip())
            if em:
                b.exc_type, b.message = em.group("type"), (em.group("msg") or "").strip()
            else:
                b.exc_type, b.message = None, stripped
            b.exc_level = line.level
            b.add(line)
            b.state = "exc"
            b.cont = 0
            return True
        return False

    def _continue_exception(self, b: _Builder, line: Line, text: str, stripped: str) -> bool:
        """A traceback past its exception line: the message's continuation, a chained traceback, or
        the C++ backtrace of a c10::Error after one blank line."""
        if CHAIN_MARKER.match(text):
            b.add(line)
            b.state = "chained"
            return True
        if not stripped:
            if b.state == "exc":
                b.add(line)
                b.state = "exc-blank"
                return True
            return False
        if b.state == "exc-blank":
            if not AFTER_BLANK.match(stripped):
                return False
            b.state = "exc"  # the C++ backtrace of the exception's c10::Error
        if TRACEBACK_START.search(text) or FRAME.match(text):
            return False
        return self._message_continuation(b, line)

    def _wrap(self, b: _Builder, line: Line, indented_ok: bool = False) -> bool:
        """Add ``line`` as the wrapped tail of the builder's last line, if it looks like one: the line
        before is long (wrapping happens at a fixed width) and this one starts nothing of its own."""
        if line.worker is not None or line.level is not None:
            return False  # a line with a prefix of its own starts a record; a wrapped tail has none
        last = b.lines[-1] if b.lines else None
        if last is None or last.source != line.source or last.lineno != line.lineno - 1:
            return False  # a wrapped tail comes right after the line it continues
        stripped = line.text.strip()
        prev = last.text if last else ""
        if not stripped or (line.text[:1] in (" ", "\t") and not indented_ok):
            return False
        if line.text[:1] in ("(", "["):
            return False  # may be another record's worker or logger prefix (the selectors' rule: selector.may_be_tail)
        # a line's width is its logger/worker prefix (removed from its text) plus its text, so a
        # prefixed line can be cut with little text; a line that ends a sentence was not cut
        # (a logger header is 20-60 characters wide: a line that had one may be cut right after its header)
        least = 1 if last.level is not None else WRAP_MIN_PREFIXED if last.worker is not None else WRAP_MIN
        if len(prev) < least or (prev.rstrip()[-1:] in (".", "!", "?", ";", "}", "]") and not _cut_at_dot(prev, stripped)):
            return False
        if (TRACEBACK_START.search(line.text) or FRAME.match(line.text) or CHAIN_MARKER.match(line.text)
                or LOGLIKE.match(stripped) or (_exception_line(stripped) and not _cut_type(prev, stripped))
                or NATIVE_FRAME.match(stripped)
                or (stripped[:1] == "{" and stripped[-1:] == "}")):  # a JSON record is a record of its own
            return False
        b.add(line)
        b.wrapped.append(len(b.lines) - 1)
        if b.kind is EventKind.TRACEBACK and b.state in ("frames", "chained"):
            # the logical line: the last unwrapped line and every wrapped piece after it
            k = len(b.lines) - 1
            while k > 0 and k in b.wrapped:
                k -= 1
            whole = "".join(ln.text for ln in b.lines[k:])
            fm = FRAME.match(whole)  # a frame line cut in two (or more)
            if fm:
                if b.frames and b.frame_at == k:
                    b.frames[-1] = _frame(fm)  # it was read from a cut piece: take the whole line
                else:
                    b.frames.append(_frame(fm))
                b.frame_at = k
        elif b.kind is not EventKind.TRACEBACK or b.state in ("exc", "exc-blank"):
            b.message = _join_wrapped(b.message, line.text)
        return True

    def _message_continuation(self, b: _Builder, line: Line, strict: bool = False) -> bool:
        text = line.text
        stripped = text.strip()
        if not stripped:
            if b.kind in (EventKind.ERROR, EventKind.CPP_ASSERT) and not b.blank and not strict:
                b.add(line)  # kept only if a C++ backtrace follows (trailing blank lines are dropped)
                b.blank = True
                return True
            return False
        if b.blank:
            b.blank = False
            if not (AFTER_BLANK.match(stripped) or NATIVE_FRAME.match(stripped)):
                return False
        if AFTER_BLANK.match(stripped):
            b.add(line)  # the header of the frames below: neither message text nor another record
            return True
        nf = NATIVE_FRAME.match(stripped)
        if nf:  # a native backtrace frame (as long as the backtrace is): a frame, not message text
            b.add(line)
            b.frames.append((nf.group("sym") or nf.group("sym2") or nf.group("sym3") or "", ""))
            return True
        if b.cont >= MAX_CONTINUATION:
            return False
        if line.worker is None and text[:1] in ("(", "["):
            return False  # may be another record's worker or logger prefix (the selectors' rule: selector.next_line_of)
        if (TRACEBACK_START.search(text) or FRAME.match(text) or PARTIAL_FRAME.match(text) or CHAIN_MARKER.match(text)
                or LOGLIKE.match(stripped)):
            return False
        indented = text[:1] in (" ", "\t")
        if b.kind is EventKind.WARNING and not indented and CPP_ASSERT.search(text):
            return False  # a C++ abort under a long warning is a failure of its own, not the warning's wrapped tail
        # no logger header on either line, or the same header on both (vLLM logs every line of a
        # multi-line message through its logger: "ERROR ... CUDA kernel errors might be ...")
        bare = line.level == b.exc_level and not strict
        if indented or bare:
            if bare and not indented and EXCEPTION_LINE.match(stripped):
                return False
            b.add(line)
            b.cont += 1
            b.wrapped.append(len(b.lines) - 1)
            if b.kind in (EventKind.ERROR, EventKind.CPP_ASSERT) and b.cont <= 4:
                b.message = _join_wrapped(b.message, stripped)
            return True
        if self._wrap(b, line):  # a message wrapped by the terminal after its logger header
            b.cont += 1
            return True
        return False

    def peek(self, w: str | None) -> Event | None:
        """The event ``w``'s open builder would give if it closed now, when that event is
        structurally complete (a traceback past its exception line, an error or assertion line),
        else None. The builder stays open: follow mode looks at a quiet input's open events
        without completing them (the next line or the expiry still decides where they end)."""
        b = self.open.get(w)
        if b is None or b.provisional or not b.lines:
            return None
        if b.kind is EventKind.TRACEBACK:
            if b.state not in ("exc", "exc-blank"):
                return None
        elif b.kind in (EventKind.WARNING, EventKind.LINE):
            return None
        return self._event(b, w)

    def _close(self, w: str | None) -> None:
        b = self.open.pop(w, None)
        if b is None or b.provisional:
            return  # (a provisional warning that nothing continued is dropped unseen)
        self.emit(self._event(b, w))

    @staticmethod
    def _event(b: _Builder, w: str | None) -> Event:
        lines = list(b.lines)
        # trailing blank lines are not part of the event, nor a table's captions that no table followed
        while len(lines) > 1 and (not lines[-1].text.strip() or _after_table(b, lines)):
            lines.pop()
        message = b.message
        if b.kind is EventKind.TRACEBACK and b.exc_type is None and not message:
            # frames without an exception line (a cut paste): its innermost frame is the headline
            frame_lines = [ln.text.strip() for ln in lines if FRAME.match(ln.text)]
            message = frame_lines[-1] if frame_lines else lines[-1].text.strip()
        return Event(
            kind=b.kind,
            lines=lines,
            exc_type=b.exc_type,
            message=message,
            frames=list(b.frames),
            chain=list(b.chain),
            wrapped=list(b.wrapped),
            workers=[w] if w else [],
            past=b.past,
        )


def _cut_at_dot(prev: str, piece: str) -> bool:
    """Was ``prev`` cut right after a dot inside a number or a path ("compute capability >= 9." then "0 or 8.9",
    "10." then "x)", "csrc/apis/hyperconnection." then "hpp:56): ...")? No sentence ends there."""
    token = prev.rsplit(None, 1)[-1] if prev.strip() else ""
    if len(token) >= 2 and token[-2].isdigit():
        return piece[:1].isdigit() or (piece[:1] == "x" and not piece[1:2].isalpha())
    return "/" in token and piece[:1].isalnum()


# the end of a line cut inside an exception's type: "... [core.py:962] Runtime" then "Error: Assertion error ..."
_TYPE_HEAD = rxcache.compile(r"(?<![\w.])[A-Z][a-z]+(?:[A-Z][a-z]+)*$")
_TYPE_TAIL = rxcache.compile(r"^(?:Error|Exception|Warning)\b")


def _cut_type(prev: str, piece: str) -> bool:
    """Is ``piece`` the rest of an exception's type a terminal cut at the end of ``prev``?"""
    return _TYPE_TAIL.match(piece) is not None and _TYPE_HEAD.search(prev) is not None


def _join_wrapped(message: str, piece: str) -> str:
    return (message.rstrip() + " " + piece.strip()).strip()


def _frame(m: regex.Match) -> tuple[str, str]:
    return m.group("path"), m.group("func") or ""
