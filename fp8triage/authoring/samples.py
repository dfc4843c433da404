"""Where a catalogue and its samples are, the samples themselves, and the harness that runs each
through the real scan: a match sample must make its signature the top finding (and give its pin),
a near-miss must not produce it, and no other signature may claim a match sample (the
catalogue-wide second-claimant check). ``fp8triage signatures test`` and CI run it."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from .. import paths
from ..catalogue.loader import Catalogue, Signature, load_catalogue
from ..errors import TriageError
from ..facts.vocabulary import FactError, parse_cli_fact
from ..model import Fact, Status

SAMPLE_KINDS = ("match", "near-miss")
# Set to 1 to (re)write each match sample's pin (NAME.expect.json) from what the scan gives now.
BLESS_ENV = "FP8TRIAGE_BLESS"
CLAIMING = (Status.LIKELY, Status.CONFIRMED)  # statuses that count as a claim in the cross-check


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


def leading_at(cat: Catalogue, sig_id: str, got: list[tuple[str, str]]) -> int:
    """Where ``sig_id`` must be among the (id, status) findings to lead them: first, or right after
    the broader failure it refines (``Signature.refines``), which is named first; an informational notice
    right after the failure it states in its own words ("DeepGEMM declined this call ... Reason: ...")."""
    own = cat.get(sig_id)
    families = {fid for fid, _ in own.refines} if own is not None else set()
    notice = own is not None and own.severity == "info"
    return 1 if len(got) > 1 and (got[0][0] in families or (notice and got[0][0] != sig_id)) else 0


def leads(cat: Catalogue, sig_id: str, got: list[tuple[str, str]]) -> bool:
    """``sig_id`` leads the (id, status) findings (``leading_at``)."""
    return bool(got) and got[leading_at(cat, sig_id, got)][0] == sig_id


def run_sample(sample: Sample, cat: Catalogue) -> SampleResult:
    """Run one sample through the real scan pipeline with the whole catalogue.

    match: the top finding must be the sample's signature (any status but ruled-out), or come right
    after the broader failure it refines (``Signature.refines``), and, where
    the sample has a pin (NAME.expect.json), give the pinned status, evidence lines and condition
    facts; with FP8TRIAGE_BLESS=1 the pin is (re)written from this run instead.
    near-miss: no finding (likely/possible/confirmed) may carry the sample's signature id."""
    res = _scan(sample.text(), str(sample.path), cat, sample.facts())
    got = [(f.id, f.status.value) for f in res.findings]
    if sample.kind == "match":
        at = leading_at(cat, sample.sig_id, got)
        ok = bool(got) and got[at][0] == sample.sig_id
        detail = "" if ok else (f"top finding is {got[0][0]} ({got[0][1]})" if got else "no finding")
        if not ok and any(f.id == sample.sig_id for f in res.ruled_out):
            f = next(f for f in res.ruled_out if f.id == sample.sig_id)
            detail += f"; {sample.sig_id} was ruled out: {'; '.join(f.contradicted_by)}"
        if ok:
            now = pin_of(res.findings[at])
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
       message (strong evidence), or one that yields to the sample's own signature, is shadowed by
       design and only listed. A signature the sample's own refines (``Signature.refines``), or one
       that refines it, names the same event by design."""
    text = sample.text()
    facts = sample.facts()
    own = cat.get(sample.sig_id)
    own_prio = own.priority if own is not None else -1
    claimants: list[tuple[str, str]] = []
    bad: list[str] = []
    full = _scan(text, str(sample.path), cat, facts)
    own_strong = any(f.id == sample.sig_id and f.strength == "strong" for f in full.findings)
    # the broader failures the sample's signature is a case of, and the cases of it, name the same event
    kin = {fid for fid, _ in own.refines} if own is not None else set()
    kin |= {s.id for s in cat.signatures if any(fid == sample.sig_id for fid, _ in s.refines)}
    for f in full.findings:
        if f.id != sample.sig_id and f.id not in kin and f.status in CLAIMING and not f.from_facts_only:
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
                # nor does a signature that yields to the sample's own (Signature.yields_to)
                if (sig.priority >= own_prio and not (own_strong and f.strength != "strong")
                        and sample.sig_id not in sig.yields_to and sig.id not in kin):
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
