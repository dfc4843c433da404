"""The scanner: ingest → prefilter/selector → linefeed (normalise, environment dumps, log facts,
events) → fingerprint/group, and the groups judged per source (``judge/persource.py``) into a result.
The drivers (``drivers/``: batch, parallel, follow, Ray) run it.

Streaming: each source is read in large chunks; a selector (``selector.prefiltered``, or
``selector.every_line`` with ``exhaustive=True``, the reference the equivalence tests compare
against) passes the lines that can change anything to ``LineFeed.feed``, the per-line entry
point that follow mode and the parallel workers (``drivers/parallel.py``) use too. Memory is bounded by
the chunk size plus the number of distinct event fingerprints (capped at ``MAX_GROUPS``).
"""
from __future__ import annotations

import platform
import time
import uuid
from datetime import datetime, timezone
from typing import Callable, Iterable

from ..version import __version__
from .binary import HEAD, SMALL_SPAN, clean_span, is_dirty, signature_kind
from ..catalogue.loader import Catalogue
from ..facts.envdump import ENV_DUMP_ANCHORS, DumpReader
from .fingerprint import ALGORITHM_VERSION, fingerprint
from .fingerprint import reset_repeats as _fresh_fingerprint_memo
from ..common.source import Source
from . import newlines
from .ingest import read_spans
from .ocr import read_as_shown
from .linefeed import LineFeed
from ..judge.patterns import PAST_CUES
from ..facts.logfacts import STACK_PATTERNS, LogFacts
from ..facts.logfacts import triggers as fact_triggers
from ..judge import recognise
from ..judge.claims import Group
from ..catalogue.recognition import kind_cues
from ..catalogue import scoretables
from ..model import Event, Fact, InputInfo, Line, ScanResult
from .normalise import LineFormat, detect_format
from .normalise import reset_repeats as _fresh_line_memo
from .prefilter import (ALERT, CUE, DUMP, EVIDENCE, FACT, LITERAL, LITERAL_CI, LITERAL_TAILED, PAST, REGEX, REGEX_CI, SCORE,
                             STACK, STRUCTURAL, WARN, Prefilter)
from .selector import every_line, prefiltered
from ..judge.persource import judge_sources

MAX_GROUPS = 20_000
# while the stack is not settled a span's first this many bytes are read on their own (``select``): at least the
# prefilter's SMALL, so that Hyperscan reads them too
SETTLE_PROBE = 64 * 1024
MAX_DUMP_LINES = 8_000

# Lines with these may start or continue a traceback without being notable: the prefiltered
# path feeds them (and what follows) to the assembler, as the exhaustive path does.
STRUCTURAL_ANCHORS = ('File "', 'File \\"', "File &quot;",  # a frame, also inside a JSON string or HTML-escaped
                      "During handling of the above exception", "The above exception was the direct cause",
                      "While executing %")  # the graph node torch.compile ran when its backend raised
# pytest's short-traceback frames ("tests/kernels/test_block_fp8.py:45: in test_w8a8_block_fp8")
STRUCTURAL_PATTERNS = (r"\.py:[0-9]{1,6}: in [A-Za-z_<]",)  # (bounded: "[0-9]+" made Hyperscan verify every ".py:" of a vLLM header, +30 % on its pass)

# Generic error words (class ALERT): a line with one starts an event unless its logger header
# says INFO or DEBUG, so errors that no signature knows are still found (and listed as unknown
# groups). The logger level WARNING is a class of its own (WARN, linefeed.py): it starts no event.
GENERIC_ANCHORS = (
    "Traceback (most recent call last)",
    "Error",
    "ERROR",
    "error:",
    "error   :",  # ptxas / nvcc: "ptxas /tmp/k.ptx, line 77; error   : Instruction ..."
    "fatal   :",
    "Exception",
    "Assertion",
    "assert",
    "FATAL",
    "Fatal",
    "terminate called",
    "what():",
    "failed",
    "Failed",
    "Aborted",
    "Segmentation fault",
    "Segfault",
    "segfault",
    "SIGSEGV",
    "Illegal instruction",
    "core dumped",
)


# Warnings (class WARN): a logger's level word, and the warnings module's categories (UserWarning,
# FutureWarning, "Warning:"). A warning starts an event only where a signature can claim it: its
# own line has a signature's anchor (EVIDENCE), or it is long and its next line may be its
# wrapped tail (linefeed.py). A server, or every rank of a torchrun job, that repeats a warning
# costs a test per line, not an event that pulls in the rank's next lines (a tqdm bar's line
# starts with spaces, as a warning's continuation does).
WARNING_WORDS = ("WARNING", "Warning")


def prefilter_rules(catalogue: Catalogue) -> list[tuple[str, int, int]]:
    """What the prefilter searches for, with the class bits of each expression."""
    rules: list[tuple[str, int, int]] = []
    for sig in catalogue.signatures:
        kind = LITERAL_CI if sig.anchors_ignore_case else LITERAL
        rules.extend((a, kind, EVIDENCE) for a in sig.anchors)
    rules.extend((a, LITERAL, ALERT) for a in GENERIC_ANCHORS)
    rules.extend((w, LITERAL_TAILED, WARN) for w in WARNING_WORDS)
    rules.extend((a, LITERAL, DUMP) for a in ENV_DUMP_ANCHORS)
    rules.extend((a, LITERAL, STRUCTURAL) for a in STRUCTURAL_ANCHORS)
    rules.extend((p, REGEX, STRUCTURAL) for p in STRUCTURAL_PATTERNS)
    rules.extend((t, REGEX_CI if ci else REGEX, FACT) for t, ci in fact_triggers())
    rules.extend((p, REGEX, STACK) for p in STACK_PATTERNS)
    cues = kind_cues()
    rules.extend((c, LITERAL_CI, CUE) for c in sorted(set().union(*cues.values())))
    rules.extend((c, LITERAL_CI, SCORE) for c in cues.get("symptom", ()))
    rules.extend((c, LITERAL_CI, PAST) for c in PAST_CUES)
    rules.append((scoretables.GPU_HEADER, REGEX, CUE | SCORE))  # (a table's header with no eval word on it)
    return rules


def make_prefilter(catalogue: Catalogue) -> Prefilter:
    """The prefilter of ``catalogue``'s anchors and the log-fact triggers (a caller that scans many
    small texts with one catalogue builds it once and passes it to ``scan_sources``)."""
    return Prefilter(tuple(prefilter_rules(catalogue)))


def _probe_end(buf: bytes, at: int, end: int) -> int:
    """The newline that ends the first line at or after ``at`` that is no warning (a warning's selector looks at the
    line after it, which a cut would hide: it would decode both); -1 where there is none before ``end``."""
    cut = buf.find(b"\n", at, end)
    for _ in range(8):
        if cut < 0 or buf.find(b"WARN", buf.rfind(b"\n", 0, cut) + 1, cut) < 0:
            return cut
        cut = buf.find(b"\n", cut + 1, end)
    return -1


class Scanner:
    """Scan sources into event groups and log facts. ``on_group`` is called for each new
    fingerprint as soon as its first event is complete (follow mode uses it)."""

    def __init__(
        self,
        catalogue: Catalogue,
        exhaustive: bool = False,
        on_group: Callable[[Group], None] | None = None,
        progress: Callable[[int], None] | None = None,
        prefilter: Prefilter | None = None,
    ):
        self.cat = catalogue
        _fresh_fingerprint_memo()  # every scan tries the memos afresh: the result never depends on them,
        _fresh_line_memo()  # and their time should not depend on what this process scanned before
        self.exhaustive = exhaustive
        self.on_group = on_group
        self.progress = progress
        self.prefilter = prefilter or make_prefilter(catalogue)
        self.groups: dict[str, Group] = {}
        self.logfacts = LogFacts()  # the current source's
        self.logfacts_by_source: dict[str, LogFacts] = {}
        self.dumps = DumpReader(MAX_DUMP_LINES)
        self.feed = LineFeed(self.on_event, self.logfacts, self.dumps)
        self.inputs: list[InputInfo] = []
        self.warnings: list[str] = []
        self._order = 0
        self._overflow = 0
        self._anchorless: list | None = None  # the patterns of signatures without anchors, read when first needed
        self.first_emit: dict[str, int] = {}  # fingerprint -> the line whose feeding completed its first event
        self.text_lines = 0  # text seen in the current source (a dirty span's text lines; 1 per clean span)
        self.dirty = False  # the current source holds bytes no text has (binary.DIRTY)

    # -- events -----------------------------------------------------------------------------
    def _visible(self, ev: Event) -> bool:
        """Can this event change the result? Errors are listed (claimed or unknown); other
        events (warnings, anchored lines) only when a signature can claim them: their text
        holds a signature's anchor, or an anchorless signature's pattern matches. The others
        (a chatty server's warnings) are not fingerprinted or grouped at all."""
        if ev.is_error:
            return True
        if self.feed.had_evidence(ev.workers[0] if ev.workers else None) and not self.feed.fmt.jsonl:
            return True
        if self._anchorless is None:
            self._anchorless = [p for s in self.cat.signatures if not s.anchors for p in s.patterns]
        has_anchor = self.prefilter.has
        text = ev.text
        if self.feed.fmt.jsonl and has_anchor(text.encode("utf-8"), EVIDENCE):
            return True  # JSON escapes may hide an anchor from the prefilter
        if ev.wrapped and any(has_anchor(t.encode("utf-8"), EVIDENCE) for sep in ("", " ") for _, t in ev.unwrapped(sep)):
            return True  # a terminal cut an anchor in two
        if any(p.compiled is not None and p.compiled.search(text) for p in self._anchorless):
            return True
        # a line no logger marked as informational that a rule over component x failure kind claims,
        # or that states a symptom (the library may be named elsewhere in the log: judge.matcher)
        if not (recognise.states_failure(ev) or recognise.logged_score(ev)):
            return False
        reading = recognise.read(ev)
        return "symptom" in reading.kinds or bool(recognise.hits(self.cat, ev, reading))

    def on_event(self, ev: Event) -> None:
        if not self._visible(ev):
            return
        fp = fingerprint(ev)
        ev.fingerprint = fp
        g = self.groups.get(fp)
        if g is not None:
            g.add(ev)
            return
        if len(self.groups) >= MAX_GROUPS:
            self._overflow += 1
            return
        self._order += 1
        g = Group(fp, ev, 1, list(ev.workers), ev.lines[0], self._order)
        self.groups[fp] = g
        self.first_emit[fp] = self.feed.emit_lineno
        if self.on_group is not None:
            self.on_group(g)

    def feed_line(self, raw: bytes, lineno: int) -> Line | None:
        """One line, classified on its own (follow mode). None: the line was not decoded (no
        prefilter hit while no event and no dump is open: it changes nothing, the selectors'
        rule)."""
        dirty = is_dirty(raw, 0, len(raw))
        self.dirty = self.dirty or dirty
        if self.text_lines < 1 or dirty:
            raw, text = clean_span(raw, self.text_lines < 1)
            self.text_lines += text
        bits = self.prefilter.line_bits(raw)
        if not bits and not self.feed.open and not self.feed.dump_open:
            self.feed.skip(lineno)
            return None
        return self.feed.feed(raw, lineno, bits)

    def select(self, buf: bytes, start: int, end: int, lineno: int, fmt: LineFormat) -> int:
        """Feed the lines of buf[start:end] that the selector picks (every line when exhaustive);
        returns the next line number. A span with bytes no text has (NUL padding, binary garbage)
        is read by its text regions (``binary.clean_span``: same lines, same line numbers)."""
        if end <= start:
            return lineno
        dirty = is_dirty(buf, start, end)
        self.dirty = self.dirty or dirty
        if dirty or (end - start < SMALL_SPAN and self.text_lines < 1):
            # every line is looked at only until the source's first text line (is it all binary?)
            buf, text = clean_span(buf if (start, end) == (0, len(buf)) else buf[start:end], self.text_lines < 1)
            start, end = 0, len(buf)
            self.text_lines += text
        else:
            self.text_lines += 1
        if self.exhaustive:
            return every_line(self.prefilter, self.feed, buf, start, end, lineno)
        if not self.feed.stack_settled and end - start > SETTLE_PROBE:
            # a span's first lines usually settle the stack (a vLLM process prefix on every line): read them first,
            # so that the rest of the span is read without the STACK class, not each of its lines fed for its prefix
            cut = _probe_end(buf, start + SETTLE_PROBE, end)
            if 0 <= cut < end - 1:
                lineno = prefiltered(self.prefilter, self.feed, buf, start, cut + 1, lineno, jsonl=fmt.jsonl)
                start = cut + 1
        # once the stack is settled a STACK bit changes nothing: the prefilter without that class
        pf = self.prefilter.settled() if self.feed.stack_settled else self.prefilter
        return prefiltered(pf, self.feed, buf, start, end, lineno, jsonl=fmt.jsonl)

    # -- sources ----------------------------------------------------------------------------
    def use_source(self, name: str) -> None:
        """Read log facts into ``name``'s own set: each source is one machine (persource.py)."""
        self.logfacts = self.logfacts_by_source.setdefault(name, LogFacts())
        self.feed.use_logfacts(self.logfacts)

    def scan_source(self, src: Source) -> None:
        self.use_source(src.name)
        if src.skip:
            self.inputs.append(InputInfo(src.name, 0, 0, "skipped"))
            self.warnings.append(f"{src.name}: {src.skip}")
            return
        fmt: LineFormat | None = None
        lineno = 1
        binary = False  # a binary file is skipped with a warning (its lines are still counted)
        self.text_lines = 0
        self.dirty = False
        if (src.size or 0) >= newlines.PREPARE_MIN:
            newlines.prepare()
        for buf, start, end in read_as_shown(src, read_spans(src)):
            if fmt is None:
                fmt = detect_format(buf[start:min(end, start + 65536)])
                kind = signature_kind(buf[start:min(end, start + HEAD)])
                if kind:
                    binary = True
                    src.warnings.append(f"{src.name}: {kind}, not a text log; skipped")
                self.feed.begin(src.name, fmt)
            if binary:
                lineno += buf.count(b"\n", start, end) + (0 if buf.endswith(b"\n", start, end) else 1)
            else:
                lineno = self.select(buf, start, end, lineno, fmt)
            if self.progress is not None:
                self.progress(src.bytes_read)
        if fmt is None:
            self.feed.begin(src.name, LineFormat())
        self.feed.end(lineno - 1)
        skipped = skip_reason(src, binary, self.text_lines or not self.dirty)
        if skipped and not binary:
            src.warnings.append(f"{src.name}: {skipped}")
        fmt_name = "binary" if binary or (skipped and src.bytes_read) else (fmt.name if fmt else "text")
        if not src.bytes_read:
            fmt_name = "empty"
        if src.compressed:
            fmt_name = "gzip+" + fmt_name
        self.inputs.append(InputInfo(src.name, src.bytes_read, lineno - 1, fmt_name))
        self.warnings.extend(src.warnings)

    # -- parallel scans (--jobs) --------------------------------------------------------------
    def reset(self) -> None:
        """Forget what was scanned (a worker process reuses its Scanner for the next source)."""
        self.groups = {}
        self.logfacts = LogFacts()
        self.logfacts_by_source = {}
        self.dumps = DumpReader(MAX_DUMP_LINES)
        self.feed = LineFeed(self.on_event, self.logfacts, self.dumps)
        self.first_emit = {}
        self.inputs = []
        self.warnings = []
        self._order = 0
        self._overflow = 0

    def state(self) -> dict:
        """What a scan found, as plain picklable data for ``merge``."""
        return {
            "groups": sorted(self.groups.values(), key=lambda g: g.order),
            "first_emit": dict(self.first_emit),
            "logfacts": self.logfacts_by_source,
            "dumps": self.dumps.blocks,
            "inputs": self.inputs,
            "warnings": self.warnings,
            "overflow": self._overflow,
        }

    def merge(self, state: dict) -> None:
        """Add the state of a scan of later sources, as if they had been scanned here next:
        groups keep their first-seen order, counts add up, the first value of a fact wins."""
        for g in state["groups"]:
            mine = self.groups.get(g.fingerprint)
            if mine is not None:
                mine.absorb(g)
                continue
            if len(self.groups) >= MAX_GROUPS:
                self._overflow += g.count
                continue
            self._order += 1
            g.order = self._order
            self.groups[g.fingerprint] = g
            if self.on_group is not None:
                self.on_group(g)
        for name, lf in state["logfacts"].items():
            have = self.logfacts_by_source.get(name)
            if have is None:
                self.logfacts_by_source[name] = lf
            else:
                have.merge(lf)
        for block in state["dumps"]:
            if self.dumps.kept + len(block[2]) <= self.dumps.max_lines:
                self.dumps.blocks.append(block)
                self.dumps.kept += len(block[2])
        self.inputs.extend(state["inputs"])
        self.warnings.extend(state["warnings"])
        self._overflow += state["overflow"]

    # -- result -----------------------------------------------------------------------------
    def result(
        self,
        extra_facts: Iterable[Fact] = (),
        prefer: str = "log",
        started: float | None = None,
        one_machine: bool = False,
    ) -> ScanResult:
        groups = sorted(self.groups.values(), key=lambda g: g.order)
        # each source is judged on its own facts (persource.py); follow mode feeds self.logfacts
        by_source = self.logfacts_by_source or {(groups[0].event.lines[0].source if groups else ""): self.logfacts}
        j = judge_sources(self.cat, groups, by_source, self.dumps.facts_by_source(), extra_facts, prefer, one_machine)
        findings, ruled, unknown, conflicts = j.findings, j.ruled, j.unknown, j.conflicts
        warnings = list(self.warnings) + j.warnings
        if self._overflow:
            warnings.append(f"more than {MAX_GROUPS} distinct errors; {self._overflow} later events were counted but not grouped")
        meta = {
            "tool": "fp8triage",
            "version": __version__,
            "catalogue_version": self.cat.version,
            "signatures": len(self.cat.signatures),
            "fingerprint_algorithm": ALGORITHM_VERSION,
            "time": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "host": platform.node(),
            "facts_from": prefer,
            "prefilter": "exhaustive" if self.exhaustive else self.prefilter.engine,
            "elapsed_s": round(time.perf_counter() - started, 3) if started else None,
            "run_id": uuid.uuid4().hex,  # `history import` merges each run once
        }
        return ScanResult(
            findings=findings,
            unknown=unknown,
            facts=j.facts,
            conflicts=conflicts,
            inputs=self.inputs,
            meta=meta,
            ruled_out=ruled,
            warnings=warnings,
        )


def skip_reason(src: Source, binary: bool, text_lines: int) -> str | None:
    """Why a source read to its end gave nothing to triage: empty, or bytes no text has and no
    text line at all (``text_lines``: how many it held; true for a source without such bytes)."""
    if binary:
        return "skipped"
    if not src.bytes_read:
        return "empty; nothing to scan (a pod that never started writes no log)"
    if not text_lines:
        return "binary data with no text line, not a text log; skipped"
    return None
