"""Preflight: judge the risks that facts alone can show, before anything has gone wrong.

``judge_risks(catalogue, facts)`` evaluates every signature with ``preflight = true`` against the
facts in force (no log evidence): ``likely`` when every required condition holds, ``possible``
when some are unknown (``decide`` names them), ``ruled-out`` when one fails (returned only when
asked). Conditions, remedies and the status are built by ``fp8triage.judge.matcher`` (``evaluate_conditions``,
``build_remedies``, ``make_finding``, ``status_of``), the same code that judges ``scan`` findings.

``preflight(...)`` gathers the facts (command line, checkpoint, env dumps, live probe), resolves
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
from ..facts.vocabulary import resolve
from .verdict import make_finding, status_of
from ..model import Evidence, Fact, Finding, Severity, Status
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


def judge_risks(
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
    """One signature judged from facts alone, by the rule that judges scan findings
    (``verdict.status_of``); unlike a scan, a preflight risk whose conditions all hold is likely.
    ``absent``: facts known not to exist here (``conditions.evaluate`` judges them)."""
    f = make_finding(sig, facts, [], [], absent=absent)
    f.status, f.decide, f.contradicted_by = status_of(f.conditions)
    return f


def _priority(cat: Catalogue, sig_id: str) -> int:
    sig = cat.get(sig_id)
    return sig.priority if sig else 50


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


def preflight(
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
    ``facts_from``: "live" (the probe beats dumps), "dump" (dumps beat the probe) or "all".
    """
    prefer = "log" if facts_from == "dump" else facts_from  # resolve's name: what is not live wins
    all_facts = list(cli_facts) + list(other_facts)
    if checkpoint is not None:
        all_facts += checkpoint.facts
    if probe is not None:
        all_facts += probe.facts
    all_facts += derive_capabilities(all_facts)
    chosen, conflicts = resolve(all_facts, prefer)
    closed = closed_world(all_facts, probe is not None, facts_from)
    absent = [a for a in (probe.absent if (probe is not None and closed) else []) if a not in chosen]
    findings = judge_risks(catalogue, chosen, absent, include_ruled_out)
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
    warnings = _no_gpu(chosen, probe) + _consistency(chosen)
    return CheckResult(findings, chosen, conflicts, checkpoint, mode, judged, catalogue.version, warnings, absent)


def _no_gpu(chosen: Mapping[str, Fact], probe) -> list[str]:
    """A warning when this machine was probed and no source named a GPU: the risks that depend on
    the GPU stay undecided, which a reader should not take for a clean bill."""
    if probe is None or "gpu" in chosen or "capability" in chosen:
        return []
    why = "; ".join(n for n in probe.notes if "nvidia-smi" in n or "CUDA" in n or "GPU" in n)
    return [
        "no GPU found on this machine" + (f" ({why})" if why else "")
        + ": conditions on the GPU stay unknown; to judge a target machine give its GPU with "
        "--fact gpu='NVIDIA B200' or --fact capability=10.0"
    ]


def _consistency(chosen: Mapping[str, Fact]) -> list[str]:
    """Facts in force that contradict each other (a GPU name and a capability from different sources)."""
    from ..common.gpus import capability_for

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
