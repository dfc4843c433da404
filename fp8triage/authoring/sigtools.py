"""Tools over the signature catalogue: validation beyond the schema, the sample harness,
full-text search, the reference docs and scaffolding.

Core functions return data (``Problem``, ``SampleResult``, dicts, strings); only
``fp8triage.cli.signatures`` prints. ``python -m fp8triage.authoring.sigtools --write-docs``
regenerates docs/signatures.md from the signature files.
"""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import regex

from .. import paths
from ..catalogue.loader import Catalogue, CatalogueError, Problem, Signature, load_catalogue, signature_files
from ..catalogue.conditions import FactCondition, condition_text
from ..common.gpus import search_names
from ..facts.vocabulary import FactError, parse_cli_fact
from ..model import Fact, Status
from ..errors import TriageError

SAMPLE_KINDS = ("match", "near-miss")
# Set to 1 to (re)write each match sample's pin (NAME.expect.json) from what the scan gives now.
BLESS_ENV = "FP8TRIAGE_BLESS"
CLAIMING = (Status.LIKELY, Status.CONFIRMED)  # statuses that count as a claim in the cross-check
ID_RE = regex.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DOCS_HEADER = (
    "# Signature reference\n\n"
    "Generated from `signatures/*.toml` by `python -m fp8triage.authoring.sigtools --write-docs`; do not edit by hand\n"
    "(tests/catalogue/test_signature_docs.py fails when this file and the signature files disagree).\n"
)


class SigToolsError(TriageError):
    """A request the catalogue tools cannot satisfy (unknown id, file exists, bad directory)."""


# -- locations --------------------------------------------------------------------------------

def builtin_dir() -> Path:
    return paths.data_dir("signatures")


def samples_dir(sig_dir: Path | None = None) -> Path:
    return Path(sig_dir or builtin_dir()) / "samples"


def load(sig_dir: Path | None = None) -> Catalogue:
    """The catalogue in ``sig_dir`` (default: the bundled one). Raises CatalogueError."""
    if sig_dir is None:
        return load_catalogue()
    return load_catalogue([Path(sig_dir)], builtin=False)


# -- samples ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Sample:
    sig_id: str
    kind: str  # "match" | "near-miss"
    path: Path

    @property
    def facts_path(self) -> Path:
        return self.path.with_suffix(".facts")

    @property
    def pin_path(self) -> Path:
        """The match sample's pin: the status, evidence lines and condition facts it must give."""
        return self.path.with_suffix(".expect.json")

    def pin(self) -> dict | None:
        fp = self.pin_path
        if not fp.exists():
            return None
        try:
            data = json.loads(fp.read_text(encoding="utf-8"))
        except ValueError as e:
            raise SigToolsError(f"{fp}: not valid JSON ({e}); rewrite it with {BLESS_ENV}=1") from None
        if not isinstance(data, dict) or not {"status", "evidence", "conditions"} <= set(data):
            raise SigToolsError(f"{fp}: a pin needs status, evidence and conditions; rewrite it with {BLESS_ENV}=1")
        return data

    def text(self) -> str:
        return self.path.read_text(encoding="utf-8", errors="replace")

    def facts(self) -> list[Fact]:
        """Facts from the sidecar ``NAME.facts`` (``name=value`` lines, # comments), as if given by --fact."""
        fp = self.facts_path
        if not fp.exists():
            return []
        out = []
        for i, line in enumerate(fp.read_text(encoding="utf-8").splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                f = parse_cli_fact(line)
            except FactError as e:
                raise SigToolsError(f"{fp}:{i}: {e}") from None
            out.append(Fact(f.name, f.value, f"sample facts {fp.name}:{i}", "cli"))
        return out


def find_samples(sig_dir: Path | None = None, ids: Iterable[str] | None = None) -> list[Sample]:
    root = samples_dir(sig_dir)
    wanted = set(ids) if ids is not None else None
    out: list[Sample] = []
    if not root.is_dir():
        return out
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        if wanted is not None and d.name not in wanted:
            continue
        for kind in SAMPLE_KINDS:
            for f in sorted((d / kind).glob("*.log")) if (d / kind).is_dir() else []:
                out.append(Sample(d.name, kind, f))
    return out


# -- validation -------------------------------------------------------------------------------

_PLACEHOLDER = regex.compile(r"\bTODO\b|^todo-")


def _placeholders(sig: Signature) -> list[Problem]:
    """Keys that still hold the scaffold's TODO text (or a todo- id): a signature is not done."""
    out: list[Problem] = []

    def walk(v, key: str) -> None:
        if isinstance(v, str):
            if _PLACEHOLDER.search(v):
                out.append(Problem(str(sig.path), key, "still holds the scaffold's TODO text; write the real content"))
        elif isinstance(v, dict):
            for k, x in v.items():
                walk(x, f"{key}.{k}" if key else str(k))
        elif isinstance(v, list):
            for i, x in enumerate(v):
                walk(x, f"{key}.{i}")

    walk(sig.data, "")
    return out


def validate(sig_dir: Path | None = None, *, require_samples: bool = True) -> list[Problem]:
    """Every problem in a signature directory: schema and loader errors (file, key, what to
    write), sample folders that name no signature, missing match/near-miss samples, and match
    samples that contain none of the signature's anchors (the prefilter would never see them)."""
    d = Path(sig_dir) if sig_dir is not None else builtin_dir()
    if not d.is_dir():
        return [Problem(str(d), "", "is not a directory of signature files")]
    try:
        cat = load(d) if sig_dir is not None else load_catalogue(user=False)
    except CatalogueError as e:
        return list(e.problems)
    problems: list[Problem] = []
    for sig in cat.drafts:
        problems.append(Problem(str(sig.path), "draft", "is true: scans do not use this signature yet; fill in "
                                "what this list names, then delete the line `draft = true`"))
    every = cat.signatures + cat.drafts
    for sig in every:
        problems += _placeholders(sig)
    ids = set(cat.ids) | {s.id for s in cat.drafts}
    root = samples_dir(d)
    if root.is_dir():
        for sd in sorted(p for p in root.iterdir() if p.is_dir()):
            if sd.name not in ids:
                problems.append(Problem(str(sd), "", f"sample folder names no signature; rename it to a signature id or add signatures/{sd.name}.toml"))
    samples = find_samples(d)
    by_sig: dict[str, dict[str, list[Sample]]] = {}
    for s in samples:
        by_sig.setdefault(s.sig_id, {}).setdefault(s.kind, []).append(s)
    for sig in every:
        have = by_sig.get(sig.id, {})
        from ..catalogue.regexsafety import stress_problems  # catastrophic backtracking on stress inputs (issue 9)

        problems += stress_problems(sig, [s.text() for s in have.get("match", [])])
        if require_samples:
            for kind in SAMPLE_KINDS:
                if not have.get(kind):
                    problems.append(
                        Problem(str(sig.path), "samples", f"no {kind} sample; add samples/{sig.id}/{kind}/NAME.log")
                    )
        for s in have.get("match", []):
            problems += _anchor_problems(sig, s)
        for s in have.get("match", []) + have.get("near-miss", []):
            try:
                s.facts()
            except SigToolsError as e:
                problems.append(Problem(str(s.facts_path), "", str(e)))
    return problems


def _anchor_problems(sig: Signature, s: Sample) -> list[Problem]:
    """A match sample must contain an anchor, and every primary pattern that matches it must
    match text that contains one (else the prefilter hides the evidence in real logs)."""
    if not sig.primary:
        return []
    text = s.text()
    out = []
    if not (sig.anchors and sig.has_anchor(text)) and not _rule_recognises(sig, text):
        out.append(
            Problem(str(s.path), "evidence.anchors", f"contains none of {sig.id}'s anchors {sig.anchors}; add a literal from this sample's error line to anchors")
        )
        return out
    lines = text.splitlines()
    for p in sig.primary:
        if p.kind != "message":
            continue  # frames, locations and tokens: the anchors are checked on the whole sample above
        m = p.compiled.search(text)
        if m is None:
            continue
        # the lines the match touches must hold an anchor, or the prefilter never starts an event there
        first = text.count("\n", 0, m.start())
        last = text.count("\n", 0, max(m.start(), m.end() - 1))
        window = "\n".join(lines[first : last + 1])
        if not sig.has_anchor(window):
            out.append(
                Problem(str(s.path), f"evidence.patterns.{p.name}", f"matches lines {first + 1}-{last + 1}, which contain none of the anchors {sig.anchors}; add an anchor found on those lines")
            )
    return out


def _rule_recognises(sig: Signature, text: str) -> bool:
    """Whether one of the signature's rules (component x failure kind) fires on the sample read as
    one failure: such a sample needs no anchor, the prefilter's error words and cues start its event."""
    if not sig.rules:
        return False
    from ..judge import recognise
    from ..scan.events import Assembler
    from ..scan.normalise import LineFormat, normalise

    events: list = []
    asm = Assembler(events.append)
    for i, raw in enumerate(text.splitlines(), 1):
        asm.feed(normalise(raw.encode("utf-8", "replace"), "sample", i, LineFormat()), True)
    asm.finish()
    for ev in events:
        r = recognise.read(ev)
        if any(recognise.fires(rule, r, recognise.states_failure(ev)) for rule in sig.rules):
            return True
    return False


# -- the sample harness -----------------------------------------------------------------------

@dataclass
class SampleResult:
    sample: Sample
    ok: bool
    expected: str  # human-readable expectation
    got: list[tuple[str, str]]  # (finding id, status), most probable first
    detail: str = ""
    check: str = "sample"  # "sample" | "cross"

    @property
    def name(self) -> str:
        return f"{self.sample.sig_id}/{self.sample.kind}/{self.sample.path.name}"


_PREFILTERS: dict = {}  # catalogue version -> its prefilter


def _scan(text: str, source: str, cat: Catalogue, facts: Sequence[Fact]):
    """The real scan path. The harness scans hundreds of tiny samples against a handful of
    catalogues; building the prefilter is most of each scan's cost, so it is built once per
    catalogue (its version is the hash of its content)."""
    from ..drivers import batch  # imported late so `signatures list` stays light
    from ..scan.scanner import make_prefilter

    pf = _PREFILTERS.get(cat.version)
    if pf is None:
        pf = _PREFILTERS[cat.version] = make_prefilter(cat)
    return batch.scan_text(text, source=source, catalogue=cat, cli_facts=list(facts), prefilter=pf)


def pin_of(finding) -> dict:
    """What a match sample's pin holds: the finding's status, the lines (and pattern, kind) of its
    evidence, and each condition's fact, value seen and result."""
    return {
        "status": finding.status.value,
        "evidence": [{"line": n, "pattern": p, "kind": k}
                     for n, p, k in sorted({(e.lineno, e.pattern, e.kind) for e in finding.evidence})],
        "conditions": [{"fact": c.fact, "value": c.value, "result": c.truth.value} for c in finding.conditions],
    }


def _pin_text(pin: dict) -> str:
    """A pin as JSON that diffs well: one line per key, one line per evidence line and condition."""
    def items(v):
        return "[" + "".join(f"\n  {json.dumps(x)}," for x in v).rstrip(",") + ("\n ]" if v else "]")

    return ("{\n" + f' "status": {json.dumps(pin["status"])},\n'
            + f' "evidence": {items(pin["evidence"])},\n' + f' "conditions": {items(pin["conditions"])}\n' + "}\n")


def _pin_drift(want: dict, got: dict) -> list[str]:
    out = []
    if want["status"] != got["status"]:
        out.append(f"status {want['status']} -> {got['status']}")
    if want["evidence"] != got["evidence"]:
        lines = lambda d: [e["line"] for e in d["evidence"]]  # noqa: E731
        out.append(f"evidence {lines(want)} -> {lines(got)}" if lines(want) != lines(got)
                   else f"evidence patterns {want['evidence']} -> {got['evidence']}")
    if want["conditions"] != got["conditions"]:
        out.append(f"conditions {want['conditions']} -> {got['conditions']}")
    return out


def run_sample(sample: Sample, cat: Catalogue) -> SampleResult:
    """Run one sample through the real scan pipeline with the whole catalogue.

    match: the top finding must be the sample's signature (any status but ruled-out) and, where
    the sample has a pin (NAME.expect.json), give the pinned status, evidence lines and condition
    facts; with FP8TRIAGE_BLESS=1 the pin is (re)written from this run instead.
    near-miss: no finding (likely/possible/confirmed) may carry the sample's signature id."""
    res = _scan(sample.text(), str(sample.path), cat, sample.facts())
    got = [(f.id, f.status.value) for f in res.findings]
    if sample.kind == "match":
        ok = bool(got) and got[0][0] == sample.sig_id
        detail = "" if ok else (f"top finding is {got[0][0]} ({got[0][1]})" if got else "no finding")
        if not ok and any(f.id == sample.sig_id for f in res.ruled_out):
            f = next(f for f in res.ruled_out if f.id == sample.sig_id)
            detail += f"; {sample.sig_id} was ruled out: {'; '.join(f.contradicted_by)}"
        if ok:
            now = pin_of(res.findings[0])
            if os.environ.get(BLESS_ENV) == "1":
                sample.pin_path.write_text(_pin_text(now), encoding="utf-8")
            else:
                want = sample.pin()
                drift = _pin_drift(want, now) if want is not None else []
                ok, detail = not drift, "; ".join(drift)
        return SampleResult(sample, ok, f"top finding {sample.sig_id}", got, detail)
    hit = [g for g in got if g[0] == sample.sig_id]
    return SampleResult(
        sample, not hit, f"no {sample.sig_id} finding", got, f"{sample.sig_id} found ({hit[0][1]})" if hit else ""
    )


def _single(cat: Catalogue, sig: Signature) -> Catalogue:
    return Catalogue([sig], f"{cat.version}:{sig.id}")


def cross_check(sample: Sample, cat: Catalogue) -> SampleResult:
    """The catalogue-wide check for one match sample: no other signature may claim it.

    1. In the full scan, no other finding may reach likely/confirmed (it would claim another
       event of the sample as a second root cause).
    2. Each other signature whose anchors occur in the sample is run on its own; if it finds the
       sample likely/confirmed and its priority is not below the sample's own signature's, it
       would win or tie the claim on the same event: an unexpected second claimant. A lower
       priority one, or one with only weak evidence where the sample's own signature has its
       message (strong evidence), is shadowed by design and only listed."""
    text = sample.text()
    facts = sample.facts()
    own = cat.get(sample.sig_id)
    own_prio = own.priority if own is not None else -1
    claimants: list[tuple[str, str]] = []
    bad: list[str] = []
    full = _scan(text, str(sample.path), cat, facts)
    own_strong = any(f.id == sample.sig_id and f.strength == "strong" for f in full.findings)
    for f in full.findings:
        if f.id != sample.sig_id and f.status in CLAIMING and not f.from_facts_only:
            claimants.append((f.id, f.status.value))
            bad.append(f"{f.id} ({f.status.value}) claims another event of this sample")
    for sig in cat.signatures:
        if sig.id == sample.sig_id or not sig.has_anchor(text):  # the prefilter's rule
            continue
        res = _scan(text, str(sample.path), _single(cat, sig), facts)
        for f in res.findings:
            if f.id == sig.id and f.status in CLAIMING and not f.from_facts_only:
                if (f.id, f.status.value) not in claimants:
                    claimants.append((f.id, f.status.value))
                # weak evidence (frames, a location, tokens) never takes an event from the
                # failure's own message: shadowed by design, like a lower priority
                if sig.priority >= own_prio and not (own_strong and f.strength != "strong"):
                    bad.append(f"{f.id} ({f.status.value}) matches on its own with priority {sig.priority} >= {own_prio}")
    return SampleResult(sample, not bad, "no unexpected second claimant", claimants, "; ".join(dict.fromkeys(bad)), "cross")


def test_samples(
    sig_dir: Path | None = None, ids: Iterable[str] | None = None, *, cross: bool = True, cat: Catalogue | None = None
) -> list[SampleResult]:
    """The harness CI runs: every sample through the real pipeline, plus the cross-check. Drafts
    are tested too (their author checks them before deleting ``draft = true``)."""
    cat = cat or load(sig_dir)
    if cat.drafts:
        cat = Catalogue(cat.signatures + cat.drafts, f"{cat.version}:drafts")
    unknown = [i for i in (ids or []) if cat.get(i) is None]
    if unknown:
        raise SigToolsError(f"unknown signature id(s): {', '.join(unknown)}")
    out: list[SampleResult] = []
    for s in find_samples(sig_dir, ids):
        if cat.get(s.sig_id) is None:
            continue  # reported by validate
        out.append(run_sample(s, cat))
        if cross and s.kind == "match":
            out.append(cross_check(s, cat))
    return out


# -- show / list ------------------------------------------------------------------------------

def summary_rows(cat: Catalogue) -> list[dict]:
    rows = []
    for s in sorted(cat.signatures, key=lambda s: s.id):
        rows.append({"id": s.id, "severity": s.severity, "priority": s.priority, "title": s.title,
                     "stacks": s.stacks, "silent": s.silent, "preflight": s.preflight})
    return rows


def sample_excerpt(sig_id: str, sig_dir: Path | None = None, max_lines: int = 12) -> tuple[str, str] | None:
    """(relative sample path, excerpt) of the first match sample, preferring a real (corpus) one."""
    samples = [s for s in find_samples(sig_dir, [sig_id]) if s.kind == "match"]
    if not samples:
        return None
    samples.sort(key=lambda s: (not s.path.name.startswith(("corpus-", "h200-")), s.path.name))
    s = samples[0]
    lines = s.text().splitlines()
    if len(lines) > max_lines:
        lines = lines[-max_lines:]
    return f"samples/{sig_id}/match/{s.path.name}", "\n".join(lines)


def show(cat: Catalogue, sig_id: str, sig_dir: Path | None = None) -> dict:
    sig = cat.get(sig_id) or next((d for d in cat.drafts if d.id == sig_id), None)
    if sig is None:
        raise SigToolsError(f"no signature {sig_id!r}{did_you_mean(sig_id, cat.ids)}")
    d = sig.data
    return {
        "id": sig.id,
        "title": sig.title,
        "severity": sig.severity,
        "priority": sig.priority,
        "stacks": sig.stacks,
        "summary": sig.summary,
        "cause": sig.cause,
        "fix": sig.fix,
        "known_problems": d.get("known_problems", "").strip(),
        "conditions": [condition_text(c) for c in sig.conditions],
        "remedies": [
            {"id": r.id, "title": r.title, "action": dict(r.table),
             "when": [c.expect for c in r.when], "repro": list(r.repro), "rank": r.rank}
            for r in sorted(sig.remedies, key=lambda r: r.rank)
        ],
        "evidence": [{"name": p.name, "role": p.role, "kind": p.kind, "strength": p.strength, "regex": p.source,
                      "tokens": list(p.tokens_all), "exc_types": sorted(p.exc_types)} for p in sig.patterns],
        "anchors": sig.anchors,
        "repro": sig.repro,
        "references": sig.references,
        "sample": sample_excerpt(sig.id, sig_dir),
        "path": str(sig.path),
    }


def did_you_mean(name: str, ids) -> str:
    """"; did you mean X, Y?" with the ids closest to a mistyped ``name`` (difflib), closest first,
    or a pointer to the list when none is close."""
    import difflib

    close = difflib.get_close_matches(name, list(ids), n=3, cutoff=0.5)
    return f"; did you mean {', '.join(close)}?" if close else "; `fp8triage signatures list` lists them"


# -- search (SQLite FTS via sqlite-utils) -----------------------------------------------------

def _index_rows(cat: Catalogue) -> list[dict]:
    rows = []
    for s in cat.signatures:
        d = s.data
        rows.append({
            "id": s.id,
            "title": s.title,
            "severity": s.severity,
            "summary": s.summary,
            "cause": s.cause,
            "fix": s.fix,
            "known_problems": d.get("known_problems", ""),
            "evidence": "\n".join([*s.anchors, *(p.source for p in s.patterns)]),
            "remedies": "\n".join(f"{r.title} {r.action.short()}" for r in s.remedies),
            "refs": "\n".join(f"{r['ref']} {r.get('title', '')}" for r in s.references),
            "tags": " ".join(d.get("tags", []) + s.stacks),
            "terms": search_terms(s),
        })
    return rows


FTS_COLUMNS = ("id", "title", "summary", "cause", "fix", "known_problems", "evidence", "remedies", "refs", "tags", "terms")
TERMS_COLUMN = FTS_COLUMNS.index("terms")
INDEX_FORMAT = 3  # bump when the index's columns change (the cache file name carries it)

# a word made of letters then digits ("RTX5090", "SM120", "sm_120", "B200"), or split by a space,
# "_" or "-" ("RTX 5090"): both the joined and the split form are indexed
_MODEL_NUMBER = regex.compile(r"\b([A-Z]{1,4}|(?i:sm|compute))[ _-]?(\d{2,5}[A-Za-z]?)\b")


def search_terms(s: Signature) -> str:
    """Extra words for the search index: model numbers in joined and split form, and the GPU names
    of every capability the signature's capability conditions accept."""
    from ..judge.conditions import evaluate
    from ..model import Truth

    text = " ".join([s.title, s.summary, s.cause, s.fix, *(f"{r['ref']} {r.get('title', '')}" for r in s.references)])
    words: list[str] = []
    for m in _MODEL_NUMBER.finditer(text):
        words += [m.group(1) + m.group(2), f"{m.group(1)} {m.group(2)}"]
    caps = [c for c in s.conditions if isinstance(c, FactCondition) and c.fact == "capability"]
    for cc, names in search_names().items():
        facts = {"capability": Fact("capability", cc, "search", "cli")}
        if caps and all(evaluate(c, facts).truth is Truth.HOLDS for c in caps):
            words.append(f"{names} {cc}")
    return "\n".join(dict.fromkeys(words))


def catalogue_digest(sig_dir: Path | None = None) -> str:
    """The catalogue version (as ``load_catalogue`` computes it) from the files alone, without
    parsing or validating them: the search cache is keyed by it."""
    d = Path(sig_dir) if sig_dir is not None else builtin_dir()
    digest = hashlib.sha256()
    for f in signature_files([d]):
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()[:12]


def index_path(version: str) -> Path:
    return paths.cache_dir() / f"catalogue-{version}-i{INDEX_FORMAT}.db"


def build_index(cat: Catalogue, path: Path | None = None) -> Path:
    """Build (once per catalogue version) the SQLite FTS index with sqlite-utils; written to a
    temp file and renamed, so concurrent runs never see a half-built index."""
    import sqlite_utils

    path = path or index_path(cat.version)
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        db = sqlite_utils.Database(tmp)
        db["signatures"].insert_all(_index_rows(cat), pk="id")
        db["signatures"].enable_fts(list(FTS_COLUMNS))
        db.conn.commit()
        db.close()
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def search(text: str, sig_dir: Path | None = None, limit: int = 20, cat: Catalogue | None = None) -> list[dict]:
    """Full-text search over the catalogue: [{id, title, severity, snippet}], best first.

    The index is built on first use for a catalogue version; later searches only hash the
    signature files and query SQLite (no schema validation, no sqlite-utils import)."""
    words = regex.findall(r"[\w.]+", text)
    if not words:
        return []
    version = cat.version if cat is not None else catalogue_digest(sig_dir)
    path = index_path(version)
    if not path.exists():
        build_index(cat or load(sig_dir), path)
    # every word must occur (as a word or a word prefix: "transform" finds "transformation")
    query = " ".join('"' + w.replace('"', "") + '"*' for w in words)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "select s.id, s.title, s.severity, snippet(signatures_fts, -1, '[', ']', '…', 12), "
            f"snippet(signatures_fts, {TERMS_COLUMN}, '[', ']', '…', 12), snippet(signatures_fts, 2, '[', ']', '…', 12) "
            "from signatures_fts join signatures s on s.rowid = signatures_fts.rowid "
            "where signatures_fts match ? order by bm25(signatures_fts, 10.0, 5.0, 3.0, 1.0, 1.0, 1.0, 4.0, 1.0, 2.0, 2.0, 1.0) limit ?",
            [query, limit],
        ).fetchall()
    except sqlite3.OperationalError as e:
        raise SigToolsError(f"cannot search for {text!r}: {e}") from None
    finally:
        conn.close()
    # the extra search words are no snippet to show: the summary stands in for them
    return [{"id": r[0], "title": r[1], "severity": r[2], "snippet": " ".join((r[5] if r[3] == r[4] else r[3]).split())}
            for r in rows]


# -- docs -------------------------------------------------------------------------------------

def render_docs(cat: Catalogue) -> str:
    """docs/signatures.md: the same sections for every signature."""
    sigs = sorted(cat.signatures, key=lambda s: s.id)
    out = [DOCS_HEADER, f"{len(sigs)} signatures.\n", "| id | severity | priority | title |", "|---|---|---|---|"]
    for s in sigs:
        out.append(f"| [`{s.id}`](#{s.id}) | {s.severity} | {s.priority} | {_md(s.title)} |")
    for s in sigs:
        d = s.data
        out += ["", f"## {s.id}", "", f"**{_md(s.title)}**", ""]
        meta = f"Severity: {s.severity} · priority: {s.priority}"
        if s.stacks:
            meta += f" · stacks: {', '.join(s.stacks)}"
        flags = [n for n, v in (("silent", s.silent), ("preflight", s.preflight)) if v]
        if flags:
            meta += f" · {', '.join(flags)}"
        out += [meta, "", "### What it is", "", _md(s.summary), "", "### Cause", "", s.cause.strip(), "", "### Fix", "", s.fix.strip(), ""]
        out += ["### Evidence", ""]
        if s.anchors:
            out.append("Anchors: " + ", ".join(f"`{a}`" for a in s.anchors))
            out.append("")
        for p in s.patterns:
            what = f"`{_code(p.source)}`" if p.compiled is not None else "all of " + ", ".join(f"`{_code(t)}`" for t in p.tokens_all)
            exc = f", {'/'.join(sorted(p.exc_types))}" if p.exc_types else ""
            out.append(f"- `{p.name}` ({p.role}, {p.kind}, {p.strength}{exc}): {what}")
        out += ["", "### Conditions", ""]
        out += [f"- {_md(condition_text(c))}" for c in s.conditions] or ["None: the log evidence alone decides."]
        out += ["", "### Remedies", ""]
        for r in sorted(s.remedies, key=lambda r: r.rank):
            when = f" — when {', '.join(c.expect for c in r.when)}" if r.when else ""
            repro = f" — checked by {', '.join(f'`{x}`' for x in r.repro)}" if r.repro else ""
            out.append(f"- {_md(r.title)}{when}{repro} (rank {r.rank})")
            out.append(f"  `{r.table['kind']}`: `{_code(r.action.short())}`")
        if not s.remedies:
            out.append("None.")
        out += ["", "### Known problems", "", (d.get("known_problems") or "None recorded.").strip(), ""]
        if s.repro:
            out += ["### Repro", "", ", ".join(f"`{x}`" for x in s.repro), ""]
        out += ["### References", ""]
        for r in s.references:
            title = f" — {_md(r['title'])}" if r.get("title") else ""
            out.append(f"- [{r['ref']}]({r['url']}){title}" if r.get("url") else f"- {r['ref']}{title}")
        if not s.references:
            out.append("None.")
    return "\n".join(out).rstrip() + "\n"


def _md(t: str) -> str:
    return t.replace("|", "\\|")


def _code(t: str) -> str:
    return t.replace("`", "'").replace("\n", " ⏎ ").replace("|", "\\|")


def docs_path() -> Path:
    return Path(__file__).resolve().parents[2] / "docs" / "signatures.md"


# -- scaffolding ------------------------------------------------------------------------------

SCAFFOLD = '''id = "{id}"
# a draft is never matched: fill in every TODO, add samples, run `fp8triage signatures validate`,
# then delete the next line
draft = true
title = "TODO: one line naming the failure"
severity = "high"
stacks = ["vllm"]
priority = 50
summary = "TODO: one sentence saying what happened."
cause = """
TODO: the root cause, with the verbatim error text and where it is thrown.
"""
fix = """
TODO: how to fix it.
"""
known_problems = "TODO: where this signature can be wrong."

[evidence]
anchors = ["{anchor}"]

[[evidence.patterns]]
name = "main"
regex = \'\'\'{regex}\'\'\'

[[remedies]]
id = "todo-remedy"
rank = 10
title = "TODO: the first thing to try"
action = {{ kind = "note", text = "TODO" }}
'''


def scaffold(sig_id: str, sig_dir: Path | None = None, anchor: str = "", pattern: str | None = None,
             header: str = "") -> list[Path]:
    """Write ID.toml (valid against the schema, ``draft = true``) and its sample folders into
    ``sig_dir`` (default: the user catalogue, ``paths.user_signatures_dir()``). ``pattern``: the
    evidence regex (default: the anchor, escaped); ``header``: comment lines put on top."""
    if not ID_RE.match(sig_id):
        raise SigToolsError(f"{sig_id!r} is not a kebab-case id; write e.g. deepgemm-unknown-sf-transformation")
    d = Path(sig_dir) if sig_dir is not None else paths.user_signatures_dir()
    if d.exists() and not d.is_dir():
        raise SigToolsError(f"{d} is not a directory")
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SigToolsError(f"{d}: cannot be created ({e.strerror or e})") from None
    f = d / f"{sig_id}.toml"
    if f.exists():
        raise SigToolsError(f"{f} already exists")
    anchor = anchor or "TODO error text"
    if len(anchor) < 5:
        raise SigToolsError("the anchor must be at least 5 characters of literal error text")
    rx = pattern if pattern is not None else regex.escape(anchor, literal_spaces=True)
    f.write_text(header + SCAFFOLD.format(id=sig_id, anchor=anchor.replace('"', '\\"'), regex=rx), encoding="utf-8")
    made = [f]
    for kind in SAMPLE_KINDS:
        sd = samples_dir(d) / sig_id / kind
        sd.mkdir(parents=True, exist_ok=True)
        keep = sd / "README"
        keep.write_text(f"Put {kind} samples here as *.log (optional sidecar NAME.facts with name=value lines).\n", encoding="utf-8")
        made.append(sd)
    return made


def _main(argv: list[str]) -> int:
    if argv == ["--write-docs"] or argv == ["--check-docs"]:
        text = render_docs(load())
        p = docs_path()
        if argv[0] == "--check-docs":
            same = p.exists() and p.read_text(encoding="utf-8") == text
            print("docs/signatures.md is up to date" if same else "docs/signatures.md is stale; run python -m fp8triage.authoring.sigtools --write-docs")
            return 0 if same else 1
        p.write_text(text, encoding="utf-8")
        print(f"wrote {p}")
        return 0
    print("usage: python -m fp8triage.authoring.sigtools --write-docs | --check-docs", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
