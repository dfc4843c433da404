"""The data every stage passes on: lines, events, facts, findings, scan results.

Plain frozen dataclasses with a ``to_dict`` each. Core modules return these;
renderers turn them into strings; nothing here does I/O.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Status(str, enum.Enum):
    """How sure a finding is. Ordered from most to least certain."""

    CONFIRMED = "confirmed"  # a repro ran on this machine and showed the mechanism
    LIKELY = "likely"  # log evidence, and every required condition holds
    POSSIBLE = "possible"  # evidence, but a required fact is unknown (or risk from facts alone)
    RULED_OUT = "ruled-out"  # evidence, but a required condition fails

    @property
    def rank(self) -> int:
        return _STATUS_RANK[self]


_STATUS_RANK = {Status.CONFIRMED: 0, Status.LIKELY: 1, Status.POSSIBLE: 2, Status.RULED_OUT: 3}


class Severity(str, enum.Enum):
    CRITICAL = "critical"  # crash at load or silently wrong output
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"
    INFO = "info"  # informational (e.g. a fallback that was taken)

    @property
    def rank(self) -> int:
        return list(Severity).index(self)


class Truth(str, enum.Enum):
    """Three-valued outcome of a condition."""

    HOLDS = "holds"
    FAILS = "fails"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Line:
    """One normalised log line with where it came from."""

    source: str  # path as given, or "<stdin>"
    lineno: int  # 1-based physical line number in the source
    text: str  # normalised text: ANSI stripped, worker/logger prefix removed
    worker: str | None = None  # e.g. "VllmWorker rank=3", "rank3", "EngineCore_DP0"
    level: str | None = None  # logger level when the line had a logger header: ERROR, WARNING, INFO, ...

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "line": self.lineno, "text": self.text, "worker": self.worker}


class EventKind(str, enum.Enum):
    TRACEBACK = "traceback"  # Python traceback, chained causes included
    CPP_ASSERT = "cpp-assert"  # "Assertion error (file:line): reason", TllmException, CUTLASS asserts
    DEVICE_ASSERT = "device-assert"  # CUDA device-side assert lines
    ERROR = "error"  # a single error line (plus its continuation lines)
    WARNING = "warning"  # a warning line
    LINE = "line"  # any other line that a signature or fact pattern points at


# the kinds of event that are a failure: an exception, a C++ or device assertion, an error line
ERROR_KINDS = frozenset({EventKind.TRACEBACK, EventKind.CPP_ASSERT, EventKind.DEVICE_ASSERT, EventKind.ERROR})


@dataclass
class Event:
    """A multi-line unit: a traceback, an assertion block, a warning line."""

    kind: EventKind
    lines: list[Line]
    exc_type: str | None = None  # final exception type, e.g. "RuntimeError"
    message: str = ""  # final exception message / the error line text (continuations joined)
    frames: list[tuple[str, str]] = field(default_factory=list)  # (module path, function), innermost last
    chain: list[str] = field(default_factory=list)  # earlier exceptions in a chained traceback ("Type: msg")
    wrapped: list[int] = field(default_factory=list)  # indices of lines that continue the line before (a wrapped message)
    fingerprint: str = ""
    workers: list[str] = field(default_factory=list)  # every worker on which this event was seen
    past: bool = False  # printed right under a sentence that puts it in the past ("Before this PR, users saw:")

    @property
    def text(self) -> str:
        return "\n".join(ln.text for ln in self.lines)

    def unwrapped(self, sep: str) -> list[tuple[int, str]]:
        """The event's lines with wrapped continuations joined to the line they continue, as
        (index of the first physical line, joined text). ``sep`` goes between the pieces: ""
        for a message cut at a fixed column mid-word, " " for one wrapped at a word boundary."""
        out: list[tuple[int, str]] = []
        cont = set(self.wrapped)
        for i, ln in enumerate(self.lines):
            if i in cont and out:
                first, text = out[-1]
                # cut at a fixed column: the pieces join as they are (a pasted block's indent before the tail
                # is the block's, not the text's); at a word: one space between
                joined = text + ln.text.lstrip() if sep == "" else text.rstrip() + sep + ln.text.strip()
                out[-1] = (first, joined)
            else:
                out.append((i, ln.text))
        return out

    @property
    def is_error(self) -> bool:
        return self.kind in ERROR_KINDS

    @property
    def headline(self) -> str:
        if self.exc_type:
            return f"{self.exc_type}: {self.message}".strip()
        return self.message or self.lines[-1].text


@dataclass(frozen=True)
class Fact:
    """A named fact about the environment, with where it came from."""

    name: str  # canonical name from fp8triage.facts.vocabulary.FACTS (e.g. "capability", "vllm", "VLLM_USE_DEEP_GEMM")
    value: str
    source: str  # human-readable provenance: "log server.log:12", "nvidia-smi", "checkpoint config.json", "--fact"
    origin: str  # one of ORIGINS

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "source": self.source, "origin": self.origin}


# Where a fact can come from, strongest first (see fp8triage.facts.vocabulary.resolve for the precedence rules).
ORIGINS = ("cli", "checkpoint", "env-dump", "log", "live", "derived")


@dataclass(frozen=True)
class ConditionResult:
    fact: str
    expect: str  # human-readable expectation, e.g. "in {12.0, 12.1}" or ">=0.24.0"
    truth: Truth
    value: str | None = None
    source: str | None = None
    role: str = "require"  # "require", "support" or "precondition" (failing rules it out; holding is no evidence)
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "fact": self.fact,
            "expect": self.expect,
            "result": self.truth.value,
            "value": self.value,
            "source": self.source,
            "role": self.role,
            "note": self.note,
        }


@dataclass(frozen=True)
class Evidence:
    source: str
    lineno: int
    text: str
    span: tuple[int, int] | None = None  # matched span within text, if the match lies on this line
    workers: tuple[str, ...] = ()
    pattern: str = ""  # name of the evidence pattern that matched
    kind: str = "message"  # what matched: message | frame | location | tokens | symptom
    strength: str = "strong"  # strong: the failure's own message; weak: frames, location, tokens

    def to_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "line": self.lineno,
            "text": self.text,
            "span": list(self.span) if self.span else None,
            "workers": list(self.workers),
            "pattern": self.pattern,
            "kind": self.kind,
            "strength": self.strength,
        }


@dataclass(frozen=True)
class Remedy:
    id: str
    title: str
    action: dict[str, Any]  # {"kind": "env"|"install"|"config"|"code"|"command"|"checkpoint", ...}
    snippet: str  # ready to paste
    applies: Truth  # HOLDS: the facts say it fits; UNKNOWN: may fit; FAILS: does not fit (verbose only)
    why: str = ""
    repro: tuple[str, ...] = ()  # repro ids that check this remedy on the local GPU
    # where the facts show this action already in force (applies is then FAILS: it did not prevent
    # the failure, so it is not the fix); "" when they do not
    in_force: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = {
            "id": self.id,
            "title": self.title,
            "action": self.action,
            "snippet": self.snippet,
            "applies": self.applies.value,
            "why": self.why,
            "repro": list(self.repro),
        }
        if self.in_force:
            d["in_force"] = self.in_force
        return d


@dataclass
class Finding:
    id: str  # signature id
    title: str
    severity: Severity
    status: Status
    summary: str
    cause: str
    evidence: list[Evidence]
    conditions: list[ConditionResult]
    facts: list[Fact]  # the facts the conditions relied on
    remedies: list[Remedy]
    references: list[dict[str, str]]
    repro: list[str]
    count: int = 0  # how many matching events
    workers: list[str] = field(default_factory=list)
    fingerprints: list[str] = field(default_factory=list)
    consequences: list[dict[str, Any]] = field(default_factory=list)  # later errors that follow from this one
    decide: list[str] = field(default_factory=list)  # facts that would decide a "possible" finding
    contradicted_by: list[str] = field(default_factory=list)  # for ruled-out
    repro_results: list[dict[str, Any]] = field(default_factory=list)
    from_facts_only: bool = False  # no log evidence: a risk judged from the facts
    strength: str = "strong"  # strongest evidence: strong (the message), weak (frames/location/tokens), symptom
    source: str | None = None  # the log (one machine) whose evidence and facts judged it; None: every source
    failure: bool = False  # its evidence holds a failure (an error, an assertion, a traceback), not only warnings or lines
    yielded: bool = False  # a signature it yields to was found too (Signature.yields_to): ranked after it
    quoted: bool = False  # its evidence was all printed under a sentence that puts it in the past: ranked after the rest
    by_context: bool = False  # its failure names no component and was read with what the log named elsewhere
    held_back: str = ""  # why it is at most possible whatever its evidence (the paste puts it in the past, the GPU failed, an AMD GPU, another format's checkpoint)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "severity": self.severity.value,
            "status": self.status.value,
            "summary": self.summary,
            "cause": self.cause,
            "count": self.count,
            "workers": self.workers,
            "fingerprints": self.fingerprints,
            "evidence": [e.to_dict() for e in self.evidence],
            "conditions": [c.to_dict() for c in self.conditions],
            "facts": [f.to_dict() for f in self.facts],
            "remedies": [r.to_dict() for r in self.remedies],
            "references": self.references,
            "repro": self.repro,
            "repro_results": self.repro_results,
            "consequences": self.consequences,
            "decide": self.decide,
            "contradicted_by": self.contradicted_by,
            "held_back": self.held_back,
            "from_facts_only": self.from_facts_only,
            "evidence_strength": self.strength,
            "source": self.source,
        }


@dataclass
class UnknownGroup:
    """Error events that no signature claimed, grouped by fingerprint."""

    fingerprint: str
    kind: str
    headline: str  # masked message
    sample: list[Line]
    count: int
    workers: list[str]
    first: Line
    last: Line

    def to_dict(self) -> dict[str, Any]:
        return {
            "fingerprint": self.fingerprint,
            "kind": self.kind,
            "headline": self.headline,
            "count": self.count,
            "workers": self.workers,
            "first": {"source": self.first.source, "line": self.first.lineno},
            "last": {"source": self.last.source, "line": self.last.lineno},
            "sample": [ln.to_dict() for ln in self.sample],
        }


SKIPPED_FORMATS = ("skipped", "binary", "empty", "gzip+binary", "gzip+empty")  # InputInfo.format of a source not read


@dataclass(frozen=True)
class InputInfo:
    source: str
    bytes: int
    lines: int
    format: str  # "text", "jsonl", "kubectl-prefix", "gzip+text", ...

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "bytes": self.bytes, "lines": self.lines, "format": self.format}


@dataclass
class ScanResult:
    findings: list[Finding]
    unknown: list[UnknownGroup]
    facts: list[Fact]  # every fact in force, after precedence
    conflicts: list[dict[str, Any]]  # facts given different values by different sources
    inputs: list[InputInfo]
    meta: dict[str, Any]  # tool version, catalogue version, time, fingerprint algorithm version, ...
    ruled_out: list[Finding] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # problems with the input that did not stop the scan
    fleet: dict[str, Any] | None = None  # several sources: per finding, the pods/hosts it was seen on (judge/fleet.py)

    @property
    def nothing_read(self) -> bool:
        """Every input was skipped (binary, empty, an archive without logs): "nothing found" is
        then no clean bill of health (the CLI's exit code 5)."""
        return bool(self.inputs) and all(i.format in SKIPPED_FORMATS for i in self.inputs)

    @property
    def top(self) -> Finding | None:
        return self.findings[0] if self.findings else None
