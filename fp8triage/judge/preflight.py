"""Preflight: judge the risks that facts alone can show, before anything has gone wrong.

``run_check(catalogue, facts)`` evaluates every signature with ``preflight = true`` against the
facts in force (no log evidence): ``likely`` when every required condition holds, ``possible``
when some are unknown (``decide`` names them), ``ruled-out`` when one fails (returned only when
asked). Conditions and remedies are built by ``fp8triage.judge.matcher`` (``evaluate_conditions``,
``build_remedies``, ``make_finding``), the same code that judges ``scan`` findings.

``check(...)`` gathers the facts (command line, checkpoint, env dumps, live probe), resolves
precedence and conflicts, adds the checkpoint's own inconsistencies as a finding, and returns a
``CheckResult`` for the renderers.

Closed world: when the facts describe *this* machine (live probe used, ``facts_from="live"``, and
no GPU given on the command line or in a dump), a package the probe did not find counts as not
installed, so a condition on its version fails instead of staying unknown. Otherwise what is not
given is unknown.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..catalogue.loader import Catalogue, Signature
from .conditions import describe, evaluate
from ..facts.vocabulary import FACTS, resolve
from .matcher import build_remedies, make_finding
from ..model import ConditionResult, Evidence, Fact, Finding, Severity, Status, Truth
from ..facts.probe import derive_capabilities

CHECKPOINT_FINDING_ID = "checkpoint-config-tensor-mismatch"


@dataclass
class CheckResult:
    findings: list[Finding]  # risks, most serious first (ruled-out last, only when asked)
    facts: dict[str, Fact]  # facts in force by name
    conflicts: list[dict[str, Any]]
    checkpoint: Any  # CheckpointInfo | None
    mode: str  # facts-from mode, and whether the world was closed
    judged: int  # preflight signatures evaluated
    catalogue_version: str
    warnings: list[str] = field(default_factory=list)
    absent: list[str] = field(default_factory=list)  # facts known to be absent (closed world)

    @property
    def risks(self) -> list[Finding]:
        return [f for f in self.findings if f.status is not Status.RULED_OUT]


def run_check(
    catalogue: Catalogue,
    facts: Mapping[str, Fact],
    absent: Iterable[str] = (),
    include_ruled_out: bool = False,
) -> list[Finding]:
    """Findings (``from_facts_only=True``) for every preflight signature, most serious first.

    ``absent``: fact names known not to exist on the judged machine (closed world); a condition
    on one fails (or holds, for ``present = false``) instead of being unknown.
    """
    absent = frozenset(a for a in absent if a not in facts)
    out: list[Finding] = []
    for sig in catalogue.signatures:
        if not sig.preflight or not sig.conditions:
            continue
        f = judge_signature(sig, facts, absent)
        if f.status is Status.RULED_OUT and not include_ruled_out:
            continue
        out.append(f)
    out.sort(key=lambda f: (f.status.rank, f.severity.rank, -_priority(catalogue, f.id), f.id))
    return out


def judge_signature(sig: Signature, facts: Mapping[str, Fact], absent: frozenset[str] = frozenset()) -> Finding:
    """One signature judged from facts alone."""
    f = make_finding(sig, facts, [], [])
    results = [_evaluate(c, facts, absent) for c in sig.conditions] if absent else f.conditions
    required = [r for r in results if r.role == "require"]
    fails = [r for r in required if r.truth is Truth.FAILS]
    unknown = [r for r in required if r.truth is Truth.UNKNOWN]
    if fails:
        status = Status.RULED_OUT
        f.contradicted_by = [f"{r.fact} = {r.value if r.value is not None else '(absent)'} ({r.source}); expected {r.expect}" for r in fails]
        f.decide = []
    elif unknown:
        status = Status.POSSIBLE
        f.decide = sorted({n for r in unknown for n in r.fact.split(", ")})
        f.contradicted_by = []
    else:
        status = Status.LIKELY
        f.decide, f.contradicted_by = [], []
        support_fails = [r for r in results if r.role == "support" and r.truth is Truth.FAILS]
        if support_fails:
            status = Status.POSSIBLE
            f.contradicted_by = [f"{r.fact} = {r.value} ({r.source}) does not fit {r.expect}" for r in support_fails]
    f.status = status
    f.conditions = results
    f.from_facts_only = True
    if absent:
        f.remedies = build_remedies(sig, facts)
    return f


def _priority(cat: Catalogue, sig_id: str) -> int:
    sig = cat.get(sig_id)
    return sig.priority if sig else 50


def _evaluate(cond: Mapping[str, Any], facts: Mapping[str, Fact], absent: frozenset[str]) -> ConditionResult:
    """conditions.evaluate, except that a fact known to be absent is judged, not unknown."""
    if not _mentions(cond, absent):
        return evaluate(cond, facts)
    role, why = cond.get("role", "require"), cond.get("why", "")
    for key in ("any_of", "all_of"):
        if key in cond:
            subs = [_evaluate(c, facts, absent) for c in cond[key]]
            if key == "any_of":
                pick = next((s for s in subs if s.truth is Truth.HOLDS), None) or next(
                    (s for s in subs if s.truth is Truth.UNKNOWN), None
                ) or subs[0]
            else:
                pick = next((s for s in subs if s.truth is Truth.FAILS), None) or next(
                    (s for s in subs if s.truth is Truth.UNKNOWN), None
                ) or subs[0]
            return ConditionResult(pick.fact, describe(cond), pick.truth, pick.value, pick.source, role, why or pick.note)
    name = cond["fact"]
    if "default" in cond:  # an unset variable takes its default: the normal rule already covers it
        return evaluate(cond, facts)
    truth = Truth.HOLDS if cond.get("present") is False else Truth.FAILS
    what = "not installed" if FACTS[name].kind == "version" else "not set"
    return ConditionResult(name, describe(cond), truth, None, f"live probe: {what} on this machine", role, why)


def _mentions(cond: Mapping[str, Any], names: frozenset[str]) -> bool:
    if not names:
        return False
    for key in ("any_of", "all_of"):
        if key in cond:
            return any(_mentions(c, names) for c in cond[key])
    return cond.get("fact") in names and cond.get("fact") is not None


# --- the checkpoint's own inconsistencies ---------------------------------------------------


def checkpoint_finding(info) -> Finding | None:
    """A finding for a checkpoint whose config.json and tensors disagree (None if they agree)."""
    if info is None or not info.problems:
        return None
    cfg = str(info.path / "config.json")
    return Finding(
        id=CHECKPOINT_FINDING_ID,
        title="The checkpoint's config.json and its tensors disagree",
        severity=Severity.HIGH,
        status=Status.LIKELY,
        summary="What config.json declares about quantization does not match the scale tensors in the safetensors files, "
        "so a framework that trusts the config will interpret the scales wrongly.",
        cause="Frameworks choose kernels and scale handling from quantization_config (weight_block_size, scale_fmt); "
        "when the tensors were written differently, loading either fails on shapes or silently computes with "
        "wrongly interpreted scales.",
        evidence=[Evidence(cfg, 0, p, pattern="checkpoint") for p in info.problems],
        conditions=[],
        facts=[f for f in info.facts if f.name in ("weight_block_size", "scale_fmt", "scale_dtype", "fp8_granularity")],
        remedies=[],
        references=[],
        repro=[],
        from_facts_only=True,
    )


# --- gathering and judging ------------------------------------------------------------------


def closed_world(all_facts: Iterable[Fact], probed: bool, facts_from: str) -> bool:
    """True when the facts describe this machine, so what the probe did not find is absent."""
    if not probed or facts_from != "live":
        return False
    return not any(f.name in ("gpu", "capability") and f.origin in ("cli", "env-dump", "log") for f in all_facts)


def check(
    catalogue: Catalogue,
    cli_facts: list[Fact],
    other_facts: list[Fact],
    checkpoint=None,
    probe=None,
    facts_from: str = "live",
    include_ruled_out: bool = False,
) -> CheckResult:
    """Resolve the facts and judge every preflight signature.

    ``cli_facts``: from ``--fact``; ``other_facts``: env dumps, logs; ``checkpoint``: a
    ``CheckpointInfo`` or None; ``probe``: a ``probe.Probe`` or None (not probed).
    """
    all_facts = list(cli_facts) + list(other_facts)
    if checkpoint is not None:
        all_facts += checkpoint.facts
    if probe is not None:
        all_facts += probe.facts
    all_facts += derive_capabilities(all_facts)
    chosen, conflicts = resolve(all_facts, facts_from)
    closed = closed_world(all_facts, probe is not None, facts_from)
    absent = [a for a in (probe.absent if (probe is not None and closed) else []) if a not in chosen]
    findings = run_check(catalogue, chosen, absent, include_ruled_out)
    ck = checkpoint_finding(checkpoint)
    if ck is not None:
        findings.insert(0, ck)
        findings.sort(key=lambda f: (f.status.rank, f.severity.rank))
    judged = sum(1 for s in catalogue.signatures if s.preflight and s.conditions)
    if probe is None:
        mode = f"facts-from={facts_from}; this machine not probed: facts not given are unknown"
    elif closed:
        mode = "facts-from=live; judging this machine: packages and variables not found here count as absent"
    else:
        mode = f"facts-from={facts_from}; the facts describe another machine: facts not given are unknown"
    return CheckResult(findings, chosen, conflicts, checkpoint, mode, judged, catalogue.version, _consistency(chosen), absent)


def _consistency(chosen: Mapping[str, Fact]) -> list[str]:
    """Facts in force that contradict each other (a GPU name and a capability from different sources)."""
    from ..facts.gpus import capability_for

    gpu, cc = chosen.get("gpu"), chosen.get("capability")
    if gpu is None or cc is None:
        return []
    hit = capability_for(gpu.value)
    if hit is None or hit[0] == cc.value:
        return []
    return [
        f"gpu {gpu.value!r} ({gpu.source}) is a compute capability {hit[0]} part, but capability {cc.value} "
        f"({cc.source}) is in force; give both with --fact if the name is wrong"
    ]
