"""Event groups and what the signatures claimed of them: the data the matching steps share.

``Group``: one fingerprint's events (the first in full, the others counted); ``Hit``: a signature's
pattern or rule that matched a group; ``Claims``: every hit of a scan, by signature, with the facts
the patterns captured.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..catalogue.loader import Pattern, Signature
from ..model import Event, Fact, Line

# how much a weak hit of a signature's own pattern says, against a rule hit (recognise.score: 1-9): a
# frame or a source location names the component only; a set of tokens or a cut message also the failure
PATTERN_SPECIFICITY = {"frame": 4, "location": 4, "tokens": 6, "message": 8}


@dataclass
class Group:
    """Identical events (same fingerprint) across workers and repeats."""

    fingerprint: str
    event: Event  # the first occurrence
    count: int = 1
    workers: list[str] = field(default_factory=list)
    last: Line | None = None
    order: int = 0  # first-seen order across the whole scan

    # source -> its own first event, count, workers and last line (a source is one machine's
    # log: findings are judged per source, see persource.py)
    parts: dict[str, "SourcePart"] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if not self.parts:
            src = self.event.lines[0].source
            self.parts[src] = SourcePart(self.event, self.count, list(self.workers), self.last or self.event.lines[0])

    def add(self, ev: Event) -> None:
        _count(self, ev)
        part = self.parts.get(ev.lines[0].source)
        if part is None:
            self.parts[ev.lines[0].source] = SourcePart(ev, 1, list(ev.workers), ev.lines[0])
        else:
            part.add(ev)

    def absorb(self, other: "Group") -> None:
        """Add the occurrences of ``other`` (same fingerprint, from later sources)."""
        self.count += other.count
        for w in other.workers:
            if w not in self.workers:
                self.workers.append(w)
        self.last = _later(self.last, other.last) if other.last is not None else self.last
        for src, p in other.parts.items():
            mine = self.parts.get(src)
            if mine is None:
                self.parts[src] = p
            else:
                mine.count += p.count
                mine.workers.extend(w for w in p.workers if w not in mine.workers)
                mine.last = _later(mine.last, p.last)


@dataclass
class SourcePart:
    """A group's occurrences in one source."""

    event: Event  # the first occurrence in this source
    count: int
    workers: list[str]
    last: Line

    def add(self, ev: Event) -> None:
        _count(self, ev)


def _count(occ: "Group | SourcePart", ev: Event) -> None:
    """One more occurrence of an event: the count, its workers, where it was seen last."""
    occ.count += 1
    for w in ev.workers:
        if w not in occ.workers:
            occ.workers.append(w)
    occ.last = _later(occ.last, ev.lines[0])


def _later(a: Line | None, b: Line) -> Line:
    """The later of two occurrences' first lines: by line number within a source (two workers' events complete in
    either order, and a parallel scan completes them in another one), else the one seen last."""
    if a is None or a.source != b.source or b.lineno >= a.lineno:
        return b
    return a


@dataclass(frozen=True)
class Match:
    """Where a pattern matched in an event, whatever its kind."""

    line: int  # index into event.lines of the evidence line
    span: tuple[int, int] | None  # within the evidence text
    text: str | None = None  # the evidence text when it is not the physical line (a joined wrapped message)
    facts: tuple[tuple[str, str, int], ...] = ()  # (group name, value, line index) of named fact_ groups


@dataclass
class Hit:
    sig: Signature
    pattern: Pattern
    match: Match
    group: Group
    specificity: int = 0  # how much a weak hit says (PATTERN_SPECIFICITY; rule hits: recognise.score)
    named: bool = False  # a rule hit whose component the failure names in its own words (recognise.named)
    other_format: bool = False  # the event names only number formats the signature is not about: named, at most possible

    @property
    def strong(self) -> bool:
        return self.pattern.strength == "strong"


@dataclass
class Claims:
    primary: dict[str, list[Hit]] = field(default_factory=dict)  # sig id -> hits
    supporting: dict[str, list[Hit]] = field(default_factory=dict)
    claimed: set[str] = field(default_factory=set)  # fingerprints claimed by some signature
    also: dict[str, list[str]] = field(default_factory=dict)  # fingerprint -> other matching sig ids
    weak: dict[str, list[Hit]] = field(default_factory=dict)  # fingerprint -> every weak hit, when only weak ones matched
    facts: list[Fact] = field(default_factory=list)  # facts captured by named groups
    warnings: list[str] = field(default_factory=list)
    timed_out: set[tuple[str, str]] = field(default_factory=set)  # (sig id, pattern name): skipped from then on
    context: set[str] = field(default_factory=set)  # components named by the groups read so far (symptom rules)


