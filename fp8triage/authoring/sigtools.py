"""Tools over the signature catalogue: validation beyond the schema, show and list, the reference
docs and scaffolding; the sample harness (``samples.py``) and full-text search (``search.py``) are
modules of their own, whose names this module still offers.

Core functions return data (``Problem``, ``SampleResult``, dicts, strings); only
``fp8triage.cli.signatures`` prints. ``python -m fp8triage.authoring.sigtools --write-docs``
regenerates docs/signatures.md from the signature files.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import regex

from .. import paths
from ..catalogue.loader import Catalogue, CatalogueError, Problem, Signature, load_catalogue
from ..catalogue.conditions import condition_text
from ..scan import ocr
from .samples import (BLESS_ENV, CLAIMING, SAMPLE_KINDS, Sample, SampleResult, SigToolsError, builtin_dir,
                      cross_check, find_samples, load, pin_of, run_sample, samples_dir, test_samples)
from .samples import _scan  # noqa: F401  (the harness's scan, which tools/accuracy_report.py and the drift test reuse)
from .search import build_index, catalogue_digest, index_path, search, search_terms

__all__ = [
    "BLESS_ENV", "CLAIMING", "SAMPLE_KINDS", "Sample", "SampleResult", "SigToolsError", "builtin_dir", "build_index",
    "catalogue_digest", "cross_check", "did_you_mean", "docs_path", "find_samples", "index_path", "load", "pin_of",
    "render_docs", "run_sample", "sample_excerpt", "samples_dir", "scaffold", "search", "search_terms", "show",
    "summary_rows", "test_samples", "validate",
]

ID_RE = regex.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DOCS_HEADER = (
    "# Signature reference\n\n"
    "Generated from `signatures/*.toml` by `python -m fp8triage.authoring.sigtools --write-docs`; do not edit by hand\n"
    "(tests/catalogue/test_signature_docs.py fails when this file and the signature files disagree).\n"
)


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
        # signatures that hand their evidence to this one where the facts rule them out (``ruled_out_to``)
        handing = [o for o in cat.signatures if o.data.get("ruled_out_to") == sig.id]
        for s in have.get("match", []):
            problems += _anchor_problems(sig, s, handing)
        for s in have.get("match", []) + have.get("near-miss", []):
            try:
                s.facts()
            except SigToolsError as e:
                problems.append(Problem(str(s.facts_path), "", str(e)))
    return problems


def _anchor_problems(sig: Signature, s: Sample, handing: Sequence[Signature] = ()) -> list[Problem]:
    """A match sample must contain an anchor (its own, or one of a signature that hands its evidence
    over to it: a message two failures share, told apart by the GPU), and every primary pattern that
    matches it must match text that contains one (else the prefilter hides the evidence in real logs)."""
    if not sig.primary:
        return []
    text = s.text()
    shown = ocr.as_shown(text.encode("utf-8", "surrogateescape"))
    if shown is not None:  # a screenshot's transcription: the scan reads it as the screen showed it
        text = shown[0].decode("utf-8", "surrogateescape")
    out = []
    if (not (sig.anchors and sig.has_anchor(text)) and not _rule_recognises(sig, text)
            and not any(o.has_anchor(text) for o in handing)):
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
    one failure, or with what its other lines name: such a sample needs no anchor, the prefilter's
    error words and cues start its event."""
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
    readings = [recognise.read(ev) for ev in events]
    named = frozenset().union(*(r.components for r in readings)) if readings else frozenset()
    for ev, r in zip(events, readings):
        # alone, or with the components the sample's other lines name (a failure that names none,
        # a symptom: judge.verdict reads them so)
        for reading in (r, recognise.read(ev, context=named, elsewhere=True)):
            if any(recognise.fires(rule, reading, recognise.states_failure(ev)) for rule in sig.rules):
                return True
    return False


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
