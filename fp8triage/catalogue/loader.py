"""Load and validate signature files.

A bad file is never skipped silently: ``load_catalogue`` raises ``CatalogueError`` whose
``problems`` each name the file, the key and what to write.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import regex

from ..common import rxcache
from .. import paths
from .recognition import Rule, rules_of
from . import actions
from .actions import RemedySpec
from .conditions import Condition, parse_conditions
from ..facts.vocabulary import canonical_name
from ..errors import TriageError


@dataclass(frozen=True)
class Problem:
    file: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.key}: {self.message}" if self.key else f"{self.file}: {self.message}"


class CatalogueError(TriageError):
    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems))

    @property
    def message(self) -> str:
        lines = "\n  ".join(str(p) for p in self.problems)
        return f"the signature catalogue has {len(self.problems)} problem(s):\n  {lines}"


@dataclass(frozen=True)
class Pattern:
    """One piece of evidence a signature looks for in an event.

    ``kind`` says what it is matched against: ``message`` the event's text (the failure's own
    words), ``frame`` each traceback or native backtrace frame as ``path:function``, ``location``
    each source location the event names (a ``.cu``/``.hpp``/``.py`` path, a ``jit/`` path),
    ``tokens`` an unordered set of words that must all occur in one event. ``strength`` is
    ``strong`` (can make a finding likely on its own) or ``weak`` (possible, unless the facts
    support it); messages default to strong, the rest to weak."""

    name: str
    source: str  # the regex ("" for tokens)
    _compiled: Any  # regex.Pattern; None until first used (files already validated here), and for tokens
    role: str  # "primary" | "supporting"
    kinds: frozenset[str]  # event kinds it applies to; empty: any kind
    flags: int = 0
    kind: str = "message"
    strength: str = "strong"
    exc_types: frozenset[str] = frozenset()  # exception types it applies to (when the event has one)
    tokens_all: tuple[str, ...] = ()
    tokens_any: tuple[str, ...] = ()

    @property
    def compiled(self):
        """The compiled pattern (None for tokens). Compiled on first use when the signature file
        was validated before (a scan only compiles the patterns of signatures whose anchors it meets)."""
        if self._compiled is None and self.kind != "tokens":
            object.__setattr__(self, "_compiled", rxcache.compile(self.source, self.flags))
        return self._compiled


@dataclass
class Signature:
    id: str
    title: str
    severity: str
    summary: str
    cause: str
    fix: str
    path: Path
    data: dict[str, Any]
    patterns: list[Pattern]
    anchors: list[str]
    anchors_ignore_case: bool
    conditions: tuple[Condition, ...]  # parsed and validated once, here (catalogue/conditions.py)
    remedies: tuple[RemedySpec, ...]  # parsed once, here (catalogue/actions.py)
    references: list[dict[str, str]]
    repro: list[str]
    priority: int = 50
    preflight: bool = False
    silent: bool = False
    outside_fp8: bool = False  # another number format's failure: at most possible (verdict.make_finding)
    vendor_neutral: bool = False  # no NVIDIA kernel's failure: as probable on an AMD GPU (verdict._lower_for_paste_facts)
    yields_to: tuple[str, ...] = ()  # found beside one of these, at most possible and ranked after it (verdict)
    # (id, component or None): the labelled failures this one is a specific case of; found, it names the first
    # whose component its evidence names (or that names none) too, ranked before it (verdict._families)
    refines: tuple[tuple[str, str | None], ...] = ()
    # family id -> the names of this signature's patterns whose hits alone name that family (none listed: any)
    refine_patterns: dict[str, frozenset[str]] = field(default_factory=dict)
    stacks: list[str] = field(default_factory=list)
    rules: tuple[Rule, ...] = ()  # recognition by component x failure kind (catalogue/recognition.py)

    def has_anchor(self, text: str, low: str | None = None) -> bool:
        """One of the anchors occurs in ``text`` (case-insensitively where the signature says so;
        ``low``: ``text.lower()`` when the caller has it). True for a signature without anchors."""
        if not self.anchors:
            return True
        if self.anchors_ignore_case:
            low = text.lower() if low is None else low
            return any(a.lower() in low for a in self.anchors)
        return any(a in text for a in self.anchors)

    @property
    def primary(self) -> list[Pattern]:
        return [p for p in self.patterns if p.role == "primary"]

    @property
    def supporting(self) -> list[Pattern]:
        return [p for p in self.patterns if p.role == "supporting"]


@dataclass
class Catalogue:
    signatures: list[Signature]
    version: str  # content hash of every signature file, so runs can say which catalogue judged them
    # signatures marked ``draft = true`` (a scaffold not filled in yet): loaded and checked, never matched
    drafts: list[Signature] = field(default_factory=list)

    def get(self, sig_id: str) -> Signature | None:
        return next((s for s in self.signatures if s.id == sig_id), None)

    @property
    def ids(self) -> list[str]:
        return [s.id for s in self.signatures]


@lru_cache(maxsize=1)
def _validator():
    import jsonschema

    schema = json.loads(paths.schema_path("signature").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def _where(err) -> str:
    return ".".join(str(p) for p in err.absolute_path) or "(top level)"


def _schema_problem(file: str, err) -> Problem:
    key = _where(err)
    schema = err.schema if isinstance(err.schema, dict) else {}
    hint = schema.get("description", "")
    if err.validator == "additionalProperties":
        extra = sorted(set(err.instance) - set(schema.get("properties", {})))
        allowed = ", ".join(sorted(schema.get("properties", {})))
        msg = f"unknown key(s) {', '.join(extra)}; allowed here: {allowed}"
    elif err.validator == "required":
        missing = [r for r in schema.get("required", []) if r not in err.instance]
        sub = schema.get("properties", {})
        hints = [sub.get(m, {}).get("description", "") for m in missing]
        msg = f"missing key(s) {', '.join(missing)}" + (f"; write {hints[0]}" if hints and hints[0] else "")
    elif err.validator == "oneOf" and isinstance(err.instance, dict) and "kind" in err.instance:
        msg = f"action of kind {err.instance.get('kind')!r} is malformed; {hint}"
    else:
        msg = err.message + (f"; write {hint}" if hint else "")
    return Problem(file, key, msg)


def parse_file(path: Path) -> tuple[dict[str, Any] | None, list[Problem]]:
    name = str(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        return None, [Problem(name, "", f"cannot be read: {e.strerror or e}")]
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None, [Problem(name, "", "is not UTF-8 text; save it as UTF-8")]
    except tomllib.TOMLDecodeError as e:
        return None, [Problem(name, "", f"is not valid TOML ({e}); regexes belong in '''literal strings'''")]
    return data, []


def _pattern_of(name: str, i: int, p: dict[str, Any], schema_checked: bool, problems: list[Problem]) -> Pattern | None:
    """evidence.patterns[i] as a Pattern, or None (its problems appended) when it is unusable."""
    kind = p.get("kind", "message")
    strength = p.get("strength", "strong" if kind == "message" else "weak")
    common = dict(kind=kind, strength=strength, exc_types=frozenset(p.get("exc_types", [])))
    if kind == "tokens":
        words = tuple(p.get("all", []))
        if len(words) < 2:
            problems.append(Problem(name, f"evidence.patterns.{i}.all", 'a tokens pattern needs all = ["word", "word", ...] (two or more stable words)'))
            return None
        return Pattern(p["name"], "", None, p.get("role", "primary"), frozenset(p.get("kinds", [])),
                       0, tokens_all=words, tokens_any=tuple(p.get("any", [])), **common)
    if "regex" not in p:
        problems.append(Problem(name, f"evidence.patterns.{i}", f"a {kind} pattern needs regex = '''...'''"))
        return None
    flags = regex.MULTILINE
    if p.get("ignore_case"):
        flags |= regex.IGNORECASE
    if schema_checked:
        # validated here before (compiles, fact groups known): compile on first use
        return Pattern(p["name"], p["regex"], None, p.get("role", "primary"),
                       frozenset(p.get("kinds", [])), flags, **common)
    try:
        compiled = rxcache.compile(p["regex"], flags)
    except (regex.error, ValueError, OverflowError, RecursionError) as e:  # the regex module raises ValueError on some texts ("{0d<")
        problems.append(Problem(name, f"evidence.patterns.{i}.regex", f"does not compile ({e}); fix the pattern"))
        return None
    for group in compiled.groupindex:
        if group.startswith("fact_") and canonical_name(group[5:]) is None:
            problems.append(Problem(name, f"evidence.patterns.{i}.regex",
                                    f"named group (?P<{group}>...) names no known fact; write (?P<fact_NAME>...) with NAME from `fp8triage facts`"))
    return Pattern(p["name"], p["regex"], compiled, p.get("role", "primary"),
                   frozenset(p.get("kinds", [])), flags, **common)


def _remedies_of(data: dict[str, Any]) -> tuple[list[RemedySpec], list]:
    """The signature's remedies, with the problems of their `when` conditions."""
    remedies = []
    errors: list = []
    for i, r in enumerate(data.get("remedies", [])):
        when, more = parse_conditions(r.get("when", []), f"remedies.{i}.when")
        remedies.append(RemedySpec(r["id"], r["title"], actions.parse(r["action"]), r["action"], when,
                                   r.get("why", ""), tuple(r.get("repro", [])), int(r.get("rank", 50)),
                                   tuple(r.get("covers", []))))
        errors += more
    return remedies, errors


def _signature_of(path: Path, data: dict[str, Any], patterns: list[Pattern], anchors: list, conditions, remedies: list[RemedySpec]) -> Signature:
    """The Signature of a file whose every part checked out."""
    ev = data["evidence"]
    return Signature(
        id=data["id"],
        title=data["title"],
        severity=data["severity"],
        summary=data["summary"],
        cause=data["cause"].strip(),
        fix=data["fix"].strip(),
        path=path,
        data=data,
        patterns=patterns,
        anchors=anchors,
        anchors_ignore_case=bool(ev.get("anchors_ignore_case", False)),
        conditions=conditions,
        remedies=tuple(remedies),
        references=list(data.get("references", [])),
        repro=list(data.get("repro", [])),
        priority=int(data.get("priority", 50)),
        preflight=bool(data.get("preflight", False)),
        silent=bool(data.get("silent", False)),
        outside_fp8=bool(data.get("outside_fp8", False)),
        vendor_neutral=bool(data.get("vendor_neutral", False)),
        yields_to=tuple(data.get("yields_to", ())),
        refines=tuple((r["id"], r.get("component")) for r in data.get("refines", ())),
        refine_patterns={r["id"]: frozenset(r["patterns"]) for r in data.get("refines", ()) if r.get("patterns")},
        stacks=list(data.get("stacks", [])),
        rules=rules_of(data["id"], data.get("rules", [])),
    )


def build_signature(path: Path, data: dict[str, Any], schema_checked: bool = False) -> tuple[Signature | None, list[Problem]]:
    name = str(path)
    if not schema_checked:
        errors = sorted(_validator().iter_errors(data), key=lambda e: list(e.absolute_path))
        problems = [_schema_problem(name, e) for e in errors]
        if problems:
            return None, problems
    problems = []
    if data["id"] != path.stem:
        problems.append(Problem(name, "id", f"is {data['id']!r} but the file is named {path.name}; rename one so they agree"))
    ev = data["evidence"]
    patterns = [pat for i, p in enumerate(ev["patterns"]) if (pat := _pattern_of(name, i, p, schema_checked, problems)) is not None]
    anchors = list(ev.get("anchors", []))
    if any(p.role == "primary" for p in patterns) and not anchors:
        problems.append(
            Problem(name, "evidence.anchors", "is required with a primary pattern; write the literal text every match contains, e.g. anchors = [\"Unknown SF transformation\"]")
        )
    conditions, errors = parse_conditions(data.get("conditions", []))
    remedies, more = _remedies_of(data)
    problems += [Problem(name, key, message) for key, message in errors + more]
    if problems:
        return None, problems
    return _signature_of(path, data, patterns, anchors, conditions, remedies), []


def _validated_marker(digest: str) -> Path | None:
    """A file whose existence says: this exact set of signature files passed the JSON Schema
    here before. Loading jsonschema costs about half a second, so the scan path skips it for
    files it has already checked; any edit changes the digest and brings the full check back."""
    try:
        return paths.cache_dir() / f"signatures-valid-{digest}"
    except (OSError, RuntimeError):
        return None


def signature_files(dirs: Iterable[Path]) -> list[Path]:
    files: list[Path] = []
    for d in dirs:
        files.extend(sorted(p for p in Path(d).glob("*.toml") if not p.name.startswith("_")))
    return files


def _catalogue_dirs(extra_dirs: Iterable[Path], builtin: bool, user: bool | None) -> tuple[list[Path], list[Problem]]:
    """The directories to read, in order, with the problems of the extra ones (not a directory,
    signature files in another format)."""
    dirs: list[Path] = [paths.data_dir("signatures")] if builtin else []
    extra_dirs = [Path(d) for d in extra_dirs]
    if builtin if user is None else user:
        own = paths.user_signatures_dir()
        if own.is_dir() and not any(_same(own, d) for d in [*dirs, *extra_dirs]):
            dirs.append(own)
    problems: list[Problem] = []
    for d in extra_dirs:
        d = Path(d)
        if not d.is_dir():
            problems.append(Problem(str(d), "", "is not a directory of signature files"))
        else:
            dirs.append(d)
            for other in sorted(p for p in d.iterdir() if p.suffix.lower() in (".yaml", ".yml", ".json", ".tml")):
                problems.append(Problem(str(other), "", f"is not read: signatures are TOML files; write it as {other.stem}.toml"))
    return dirs, problems


def _read_files(files: list[Path]) -> tuple[dict[Path, bytes], str]:
    """The bytes of each readable file, and the digest of the whole set (names and contents)."""
    digest = hashlib.sha256()
    raw: dict[Path, bytes] = {}
    for f in files:
        try:
            raw[f] = f.read_bytes()
        except OSError:
            continue
        digest.update(str(f).encode() + b"\0" + raw[f] + b"\0")
    return raw, digest.hexdigest()


def _parsed_from_marker(marker: Path) -> dict:
    """The parsed files the marker holds (start-up: no TOML parsing); {} when it cannot be read."""
    try:
        import json

        return json.loads(marker.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}


def _save_to_marker(marker: Path, parsed: dict) -> None:
    try:
        import json

        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps(parsed), encoding="utf-8")
    except (OSError, TypeError, ValueError):
        pass  # not writable: validate again next time


def _build_all(files: list[Path], parsed: dict, checked: bool, problems: list[Problem]) -> tuple[list[Signature], list[Signature]]:
    """(signatures, drafts) of the files, parsing those not in ``parsed`` (and adding them to it);
    the problems found are appended to ``problems``."""
    sigs: list[Signature] = []
    drafts: list[Signature] = []
    seen: dict[str, Path] = {}
    for f in files:
        data = parsed.get(str(f))
        probs = []
        if data is None:
            data, probs = parse_file(f)
            parsed[str(f)] = data
        problems += probs
        if data is None:
            continue
        sig, probs = build_signature(f, data, schema_checked=checked)
        problems += probs
        if sig is None:
            continue
        if sig.id in seen:
            problems.append(Problem(str(f), "id", f"{sig.id!r} is already defined in {seen[sig.id]}; ids must be unique"))
            continue
        seen[sig.id] = f
        (drafts if data.get("draft") else sigs).append(sig)
    return sigs, drafts


def load_catalogue(extra_dirs: Iterable[Path] = (), builtin: bool = True, user: bool | None = None) -> Catalogue:
    """Load the bundled signatures, then the user catalogue (``paths.user_signatures_dir()``, when
    it exists; ``user`` defaults to ``builtin``), then ``extra_dirs``. A signature marked
    ``draft = true`` goes to ``Catalogue.drafts``, out of matching. Raises CatalogueError."""
    dirs, problems = _catalogue_dirs(extra_dirs, builtin, user)
    files = signature_files(dirs)
    raw, full = _read_files(files)
    marker = _validated_marker(full + _schema_digest())
    checked = bool(marker and marker.exists())
    # the marker holds the parsed files of this exact catalogue (start-up: no TOML parsing)
    parsed: dict = _parsed_from_marker(marker) if checked else {}
    cached = bool(parsed)
    sigs, drafts = _build_all(files, parsed, checked, problems)
    if problems:
        raise CatalogueError(problems)
    if marker is not None and not cached:
        _save_to_marker(marker, parsed)
    version = hashlib.sha256(b"".join(f.name.encode() + b"\0" + raw[f] for f in files if f in raw)).hexdigest()[:12]
    return Catalogue(sigs, version, drafts)


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == Path(b).resolve()
    except OSError:
        return False


@lru_cache(maxsize=1)
def _schema_digest() -> str:
    return hashlib.sha256(paths.schema_path("signature").read_bytes()).hexdigest()[:12]
