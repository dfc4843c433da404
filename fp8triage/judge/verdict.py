"""Claims x facts -> findings: conditions, status, evidence lines and remedies for each claimed
signature, the choice among causes that share weak evidence, symptoms read with the log's facts, and
the error groups that no finding explains.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import regex

from ..catalogue.loader import Catalogue, Signature
from ..common import rxcache
from ..catalogue.recognition import FP8_FORMATS
from . import recognise
from .claims import Claims, Group, Hit
from .incontext import checkpoint_formats, read_in_context, under_section_gpu
from .patterns import OTHER_FAILURE, guessed, in_prose, match_line, not_now, said_gone
from .conditions import combine, evaluate
from ..model import ConditionResult, Event, EventKind, Evidence, Fact, Finding, Remedy, Severity, Status, Truth, UnknownGroup


MAX_EVIDENCE = 6


def _evidence(hit: Hit, symptom: bool = False) -> Evidence:
    ev = hit.group.event
    m = hit.match
    ln = ev.lines[min(m.line, len(ev.lines) - 1)]
    kind = "symptom" if symptom else hit.pattern.kind
    return Evidence(
        ln.source, ln.lineno, m.text if m.text is not None else ln.text, m.span, tuple(hit.group.workers),
        hit.pattern.name, kind, hit.pattern.strength,
    )


# -- conditions and remedies ---------------------------------------------------------------

def evaluate_conditions(sig: Signature, facts: Mapping[str, Fact], absent: frozenset[str] = frozenset()) -> list[ConditionResult]:
    """The signature's conditions judged on ``facts`` (``absent``: see ``conditions.evaluate``)."""
    return [evaluate(c, facts, absent) for c in sig.conditions]


def build_remedies(sig: Signature, facts: Mapping[str, Fact], events: Sequence[Event] = ()) -> list[Remedy]:
    """The signature's remedies judged on ``facts`` and the failing ``events``, best first
    (``remedies.build``: conditions, stack, the code path in the trace, what is already in force)."""
    from .remedies import build

    return build(sig.remedies, facts, events)


def status_of(results: list[ConditionResult]) -> tuple[Status, list[str], list[str]]:
    """(status, facts that would decide it, what contradicts it) from condition results: the one
    rule for scan findings and preflight risks."""
    truth, decide, contra = combine(results)
    if truth is Truth.FAILS:
        return Status.RULED_OUT, decide, contra
    status = Status.LIKELY if truth is Truth.HOLDS else Status.POSSIBLE
    # a supporting fact that contradicts the diagnosis lowers it one step
    support_fails = [r for r in results if r.role == "support" and r.truth is Truth.FAILS]
    if support_fails and status is Status.LIKELY:
        status = Status.POSSIBLE
        contra = [f"{r.fact} = {r.value} ({r.source}) does not fit {r.expect}" for r in support_fails]
    return status, decide, contra


def _used_facts(results: list[ConditionResult], facts: Mapping[str, Fact]) -> list[Fact]:
    seen, out = set(), []
    for r in results:
        f = facts.get(r.fact)
        if f is not None and f.name not in seen:
            seen.add(f.name)
            out.append(f)
    if "capability" in seen and "gpu" not in seen and "gpu" in facts:
        out.append(facts["gpu"])  # the GPU the capability is of (a comparison's part may be judged on its own)
    return out


def _facts_support(results: list[ConditionResult]) -> bool:
    """Some condition holds on a fact actually seen (not an assumed default), and none fails."""
    if any(r.truth is Truth.FAILS for r in results):
        return False
    return any(r.truth is Truth.HOLDS and r.source and not r.source.startswith("default") and r.role != "precondition"
               for r in results)


def _weak_status(status: Status, results: list[ConditionResult]) -> Status:
    """Frames, a source location, a set of tokens or a symptom alone: the cause is only possible
    until a fact seen in the log or on the machine supports it."""
    return Status.POSSIBLE if status is Status.LIKELY and not _facts_support(results) else status


def evidence_strength(hits: list[Hit], symptom: bool) -> str:
    if symptom:
        return "symptom"
    return "strong" if any(h.strong for h in hits) else "weak"


def make_finding(sig: Signature, facts: Mapping[str, Fact], hits: list[Hit], support: list[Hit], symptom: bool = False,
                 absent: frozenset[str] = frozenset()) -> Finding:
    results = evaluate_conditions(sig, facts, absent)
    status, decide, contra = status_of(results)
    from_facts = not hits and not support
    strength = evidence_strength(hits, symptom) if not from_facts else "strong"
    if strength != "strong":
        status = _weak_status(status, results)
    # strong hits first, then in log order
    ordered = sorted(hits, key=lambda h: (not h.strong, h.group.order))
    evidence = [_evidence(h, symptom) for h in ordered[:MAX_EVIDENCE]]
    evidence += [_evidence(h) for h in support[: max(0, MAX_EVIDENCE - len(evidence))]]
    # a rule hit on a line that other evidence already shows adds nothing
    shown = {(e.source, e.lineno) for e in evidence if e.kind != "rule"}
    evidence = [e for e in evidence if e.kind != "rule" or (e.source, e.lineno) not in shown]
    workers: list[str] = []
    for h in hits + support:
        for w in h.group.workers:
            if w not in workers:
                workers.append(w)
    held_back = ""
    if status is Status.LIKELY and _named_not_claimed(sig, hits, from_facts):
        status = Status.POSSIBLE
    elif status is Status.LIKELY and _another_format_s_checkpoint(sig, facts, hits):
        status = Status.POSSIBLE
        said = next(f"{n} = {facts[n].value}" for n in ("quantization", "model")
                    if n in facts and recognise.vocabulary().formats_of(str(facts[n].value)))
        held_back = f"the checkpoint is another number format ({said}) and the failure's own lines name none"
    return Finding(
        id=sig.id,
        title=sig.title,
        severity=Severity(sig.severity),
        status=status,
        summary=sig.summary,
        cause=sig.cause,
        evidence=evidence,
        conditions=results,
        facts=_used_facts(results, facts),
        remedies=build_remedies(sig, facts, [h.group.event for h in hits]),
        references=sig.references,
        repro=list(sig.repro),
        count=sum(h.group.count for h in hits) or len(support),
        workers=workers,
        fingerprints=sorted({h.group.fingerprint for h in hits}),
        decide=decide,
        contradicted_by=contra,
        from_facts_only=from_facts,
        strength=strength,
        held_back=held_back,
    )


def _named_not_claimed(sig: Signature, hits: list[Hit], from_facts: bool) -> bool:
    """Whether a finding whose conditions hold is still only named, never claimed as the root cause."""
    if from_facts:
        return True  # a risk judged from facts alone, nothing in the log shows it
    if sig.outside_fp8 or sig.severity == "info":
        # an NVFP4 (not FP8) failure, or a notice that nothing is broken (DeepGEMM declined, Triton ran)
        return True
    if not hits:
        return False
    # "the X error is gone with ...": what the reporter hit before, not now; "looks like X": a guess
    return (all(h.group.event.past or said_gone(h.group.event, h.match) or guessed(h.group.event, h.match)
                or not_now(h.group.event, h.match) for h in hits)
            # only sentences of a write-up read by rules, frames or names ("we use cutlass because deep_gemm is not
            # supported on sm120"): what the reporter says, not what was printed
            or all(not h.strong and in_prose(h.group.event, h.match) for h in hits)
            # "... We will default to dequantizing the model to bf16": the library said what it will do instead and
            # went on; the risk is named (with its remedy), the run did not fail on it
            or all(_falls_back(h) for h in hits)
            # its message raised building another format's module
            or all(h.other_format for h in hits)
            # a warning read by rules, frames or names ("CutlassBlockScaledGroupedGemm not supported on the current
            # platform" beside "Using DeepGemm kernels for Fp8MoEMethod"): the library warned and went on
            or all(not h.strong and h.group.event.kind is EventKind.WARNING for h in hits))


def _another_format_s_checkpoint(sig: Signature, facts: Mapping[str, Fact], hits: list[Hit]) -> bool:
    """Whether the failure's lines name no number format while the log's checkpoint is of a format the signature is
    not about (an NVFP4 model's FlashInfer MoE failing, the method named only in an earlier "Using ... kernels for
    ModelOptNvFp4FusedMoE", or the model's name): its messages are another format's failure as much as this one's."""
    if not hits:
        return False
    named = checkpoint_formats(facts)
    # (a signature without rules of its own refines an FP8 failure's, unless it is about another format)
    own = recognise.signature_formats(sig) or (frozenset() if sig.outside_fp8 else FP8_FORMATS)
    if not named or not own or named & own:
        return False
    return all(not recognise.read(h.group.event).formats for h in hits)


# a notice that the library goes on another way, or only warns of a risk (not a failure): "will default to
# dequantizing", "falling back to", "using CUTLASS block fp8 instead", "This might cause accuracy degradation"
FALLBACK = rxcache.compile(r"\b(?:will (?:default|fall ?back|be dequantized)|falling back|fall(?:s|ing)? back to|defaulting to"
                           r"|will not be used|won't be used|(?:using|use|uses) [^.;\n]{1,40}? instead|rout(?:ing|es|ed) [^.;\n]{1,80}? instead"
                           r"|(?:might|may|could) (?:cause|lead to|result in|degrade)|weight-only [^.;\n]{0,40}? will be used)\b"
                           # "Failed to import deep_gemm, disable ENABLE_JIT_DEEPGEMM." (SGLang goes on without it)
                           r"|\bdisable\s+(?:ENABLE_\w+|\w*deep_?gemm\w*)", regex.I)


def _falls_back(hit: Hit) -> bool:
    """Whether a hit is on a log line (no raised exception) that says the library went on another way."""
    ev = hit.group.event
    if ev.exc_type or (ev.is_error and ev.kind is not EventKind.ERROR):
        return False
    line = match_line(ev, hit.match)
    if _RAISED.match(line):
        return False  # the exception's own line inside a record (a JSON log's traceback field): its advice is no fallback taken
    return FALLBACK.search(line) is not None


# an exception's line: "NotImplementedError: DeepGEMM has no float32 ... falls back to Triton automatically" was raised
_RAISED = rxcache.compile(r"\s*(?:[A-Za-z_][\w]*\.)*[A-Za-z_]\w*(?:Error|Exception): ")


def _weak_rank(hit: Hit, facts: Mapping[str, Fact]) -> tuple:
    sig = hit.sig
    results = evaluate_conditions(sig, facts)
    status = _weak_status(status_of(results)[0], results)
    seen = sum(1 for r in results if r.truth is Truth.HOLDS and r.source and not r.source.startswith("default"))
    # a candidate the facts rule out loses; among the rest the more telling evidence wins, then the facts
    return status is Status.RULED_OUT, -hit.specificity, status.rank, -seen, -hit.named, -sig.priority


def _shows_symptom(hit: Hit) -> bool:
    """Whether a silent failure's supporting line shows something going wrong (NaN, garbage, a score
    that collapsed) in an FP8 run, not only the code path it needs ("Using DEEPGEMM Fp8 MoE backend"),
    and not a model that also runs another format (NVFP4 garbage is not FP8's)."""
    if hit.pattern.kind == "rule":
        return True  # a rule over component x symptom, format-checked already (recognise.fires)
    if hit.pattern.strength == "weak":
        return False  # a pattern the signature marks as context (the backend it needs was selected)
    return not (recognise.read(hit.group.event).formats - FP8_FORMATS)


def arbitrate(claims: Claims, facts: Mapping[str, Fact]) -> None:
    """Give each group that only weak evidence matched to the signature the facts fit best: the
    same DeepGEMM call frames belong to the SM120 layout gap on an RTX 5090 and to the E8M0 switch
    on a B200."""
    for fp, hits in claims.weak.items():
        best = min(hits, key=lambda h: _weak_rank(h, facts))
        current = next((h for h in hits if any(x is h for x in claims.primary.get(h.sig.id, []))), None)
        if current is None or current is best:
            continue
        claims.primary[current.sig.id] = [x for x in claims.primary[current.sig.id] if x is not current]
        if not claims.primary[current.sig.id]:
            del claims.primary[current.sig.id]
        claims.primary.setdefault(best.sig.id, []).append(best)
        claims.also[fp] = [h.sig.id for h in hits if h is not best]


def _handed_over(cat: Catalogue, claims: Claims, facts: Mapping[str, Fact], findings: list[Finding],
                 ruled: list[Finding]) -> list[Finding]:
    """Findings the facts ruled out (or the GPU contradicts) whose evidence is another signature's failure on this
    machine (``ruled_out_to``: a message two failures share, told apart by the GPU), judged as that one, at
    most possible; only where the evidence shows an FP8 path (vLLM's "No compiled cutlass_scaled_mm" on a
    Turing GPU is an INT8 W8A8 model's too). A finding of that one on weak evidence alone (a rule over a
    wrapper's "worker died" line) takes the message as its evidence, as probable as it was."""
    have = {f.id: f for f in findings}
    out = []
    # (also a finding that every GPU condition of its contradicts without ruling it out: the same message on that GPU is
    # the other one)
    gpu_contradicted = [f for f in findings if (caps := [c for c in f.conditions if c.fact == "capability"])
                        and all(c.role == "support" and c.truth is Truth.FAILS for c in caps)]
    for r in ruled + gpu_contradicted:
        sig = cat.get(r.id)
        target = cat.get(sig.data.get("ruled_out_to", "")) if sig is not None else None
        hits = claims.primary.get(r.id, [])
        if target is None or not hits:
            continue
        found = have.get(target.id)
        if found is not None and found.strength == "strong":
            continue  # found on evidence of its own as strong as a handed-over message
        quant = facts.get("quantization")
        if not (any(_fp8_path(h.group.event) for h in hits) or set(claims.context) - _SHARED_WITH_INT8
                or (quant is not None and "fp8" in str(quant.value).lower())):
            continue  # nothing in the evidence, elsewhere in the log or in the checkpoint shows an FP8 path
        # a weak finding of the target (a rule over a wrapper's "worker died" line) takes the message too
        f = make_finding(target, facts, hits + claims.primary.get(target.id, []) if found is not None else hits, [])
        if f.status is Status.RULED_OUT:
            continue
        if f.status is Status.LIKELY:
            f.status = found.status if found is not None else Status.POSSIBLE  # no more probable than it was
        if found is not None:
            findings[findings.index(found)] = f
        else:
            out.append(f)
        have[target.id] = f
        if r in findings:  # told apart by the GPU: that one, not this
            findings.remove(r)
            r.status = Status.RULED_OUT
            ruled.append(r)
    return out


def _families(cat: Catalogue, claims: Claims, facts: Mapping[str, Fact], findings: list[Finding]) -> list[Finding]:
    """A finding of a specific case names the broader failure it refines too (``Signature.refines``: the
    ptxas refusal of SM100 instructions for an SM120 GPU inside DeepGEMM's JIT is a DeepGEMM JIT compile
    failure): the first family whose component its evidence names (else the log names elsewhere), or
    that names none, ranked before it: judged on the case's evidence, as probable as the case; found on
    its own too, at least as probable. A family whose conditions a fact contradicts is left out."""
    have = {f.id: f for f in findings}
    out = []
    for f in findings:
        sig = cat.get(f.id)
        hits = claims.primary.get(f.id, [])
        if sig is None or not sig.refines or f.from_facts_only or not hits:
            continue
        readings = [recognise.read(h.group.event) for h in hits]
        named = frozenset().union(*(r.components for r in readings))
        if not any(c is None or c in named for _, c in sig.refines):
            # the evidence names none: what the log names elsewhere, and the switches it turned on
            # (VLLM_USE_FLASHINFER_MOE_FP8=1: FlashInfer's FP8 MoE ran)
            on = {n for n, fact in facts.items() if str(fact.value).lower() in ("1", "true")}
            named = frozenset(claims.context) | recognise.vocabulary().components_of(on)
        for fam_id, component in sig.refines:
            family = cat.get(fam_id)
            if family is None or (component is not None and component not in named):
                continue
            only = sig.refine_patterns.get(fam_id)
            if only is not None and not any(h.pattern.name in only for h in hits):
                continue  # the family is named by some of the case's patterns, not the ones that matched
            if not all(recognise.format_fits(family, r) for r in readings) or not _checkpoint_fits(family, facts):
                continue  # the case's event or the checkpoint names only another format (an NVFP4 model's MoE)
            results = evaluate_conditions(family, facts)
            if any(r.truth is Truth.FAILS for r in results):
                continue  # the facts say it is not that failure: the next family, else the case stands alone
            fam = have.get(fam_id)
            if fam is None:  # judged on the case's evidence: as probable as the case
                fam = make_finding(family, facts, hits, [])
                fam.status = f.status
                have[fam_id] = fam
                out.append(fam)
            elif f.status.rank < fam.status.rank:
                fam.status = f.status  # found on its own too: at least as probable as its case
            f.yielded = True
            break
    return out


def _checkpoint_fits(sig: Signature, facts: Mapping[str, Fact]) -> bool:
    """Whether the checkpoint leaves ``sig`` possible (a signature about FP8 does not explain a failure of a model
    whose checkpoint is NVFP4)."""
    said, formats = checkpoint_formats(facts), recognise.signature_formats(sig)
    return not said or not formats or bool(said & formats)


# the components whose names also serve INT8 (vLLM's cutlass_scaled_mm op, torch._scaled_mm): naming them
# alone does not show an FP8 path
_SHARED_WITH_INT8 = frozenset({"cutlass-fp8", "torch-scaled-mm"})


def _fp8_path(ev: Event) -> bool:
    """Whether an event shows an FP8 path: an FP8 format word, or a component only FP8 runs through."""
    r = recognise.read(ev)
    return bool(r.formats & FP8_FORMATS or r.components - _SHARED_WITH_INT8)


def _behind_other_failure(claims: Claims, groups: list[Group], findings: list[Finding]) -> None:
    """A log whose failure is another one (an OOM, an NCCL timeout that no signature claims): a finding
    that rests only on lines that are no error ("DeepGEMM is not installed so it's the Triton path" in
    the write-up around the OOM) is context, at most possible."""
    if not any(g.event.is_error and g.fingerprint not in claims.claimed
               and (OTHER_FAILURE.search(g.event.headline) or _other_format_failure(g.event)) for g in groups):
        return
    for f in findings:
        hits = claims.primary.get(f.id, [])
        # (a sentence of the write-up that names the warning is no error that was printed)
        if f.status is Status.LIKELY and hits and not any(h.group.event.is_error and not in_prose(h.group.event, h.match)
                                                          for h in hits):
            f.status = Status.POSSIBLE


def _other_format_failure(ev: Event) -> bool:
    """Whether an error no signature claims is about other number formats only (an AWQ Marlin shape check, an NVFP4
    kernel's refusal): the log's failure is that model's, not an FP8 one."""
    formats = recognise.read(ev).formats
    return bool(formats) and not formats & FP8_FORMATS


def _yield(cat: Catalogue, findings: list[Finding]) -> None:
    """A finding whose signature yields to another one found with evidence in the same log is at most
    possible (``Finding.yielded``: ``_rank`` puts it after the others of its status)."""
    shown = {f.id for f in findings if not f.from_facts_only}
    for f in findings:
        sig = cat.get(f.id)
        if sig is not None and shown & set(sig.yields_to):
            f.yielded = True
            if f.status is Status.LIKELY:
                f.status = Status.POSSIBLE


def order(cat: Catalogue, f: Finding) -> tuple:
    """How probable a finding is, most first: its status (a notice after the others of its status, then a yielded
    one, then one whose evidence was all quoted under a sentence that puts it in the past),
    evidence before facts alone, a failure (an error, an assertion, a traceback) before a warning or a
    symptom line (one whose lines name its component before one read with what the log named elsewhere),
    the failure's own message before frames or a location, then severity and priority."""
    sig = cat.get(f.id)
    # (an informational notice, "DeepGEMM declined this call, falling back to Triton", after the failures it names)
    return (f.status.rank, f.severity is Severity.INFO, f.yielded, f.quoted, f.strength != "strong" and _contradicted(f),
            f.from_facts_only, not f.failure, f.by_context, f.strength != "strong", not _supported(f), f.severity.rank,
            -(sig.priority if sig else 50))


def _supported(f: Finding) -> bool:
    """A fact bears out a condition that supports it (the E8M0 cast turned off, beside DeepGEMM's "Unsupported
    architecture or scaling factor types" on an unnamed GPU): it ranks before one that no fact bears out."""
    return any(r.role == "support" and r.truth is Truth.HOLDS for r in f.conditions)


def _contradicted(f: Finding) -> bool:
    """A fact contradicts a condition that would support it (an FP8-below-Ada finding on an SM120 GPU):
    read from frames, tokens or a rule, it ranks after the findings no fact contradicts."""
    return any(r.role == "support" and r.truth is Truth.FAILS for r in f.conditions)


def _rank(cat: Catalogue, claims: Claims, findings: list[Finding], crashes: dict[str, list[Hit]]) -> None:
    """Order findings most probable first (in place), and mark those a failure event shows (``crashes``: the
    failures that name nothing, read with what the log said was running)."""
    first_line = {}
    failure: dict[str, bool] = {}
    quoted: dict[str, bool] = {}
    for sig_id, hs in {**crashes, **{k: v for k, v in claims.primary.items() if v}}.items():
        quoted[sig_id] = all(h.group.event.past or said_gone(h.group.event, h.match) for h in hs)
        first_line[sig_id] = min(h.group.order for h in hs)
        failure[sig_id] = any(h.group.event.is_error and not h.group.event.past for h in hs)  # (a quoted one is not now)
    for f in findings:
        f.failure = failure.get(f.id, False)
        f.quoted = quoted.get(f.id, False)
        f.by_context = f.id in crashes and not claims.primary.get(f.id)
    findings.sort(key=lambda f: (*order(cat, f), first_line.get(f.id, 1 << 30)))


def judge(
    cat: Catalogue, claims: Claims, facts: Mapping[str, Fact], groups: list[Group], fact_risks: bool = True
) -> tuple[list[Finding], list[Finding]]:
    """(findings ordered most probable first, ruled-out findings). ``fact_risks``: also the
    preflight signatures whose conditions hold on the facts alone, without log evidence."""
    arbitrate(claims, facts)
    findings: list[Finding] = []
    ruled: list[Finding] = []
    elsewhere, crashes = read_in_context(cat, claims, facts, groups)
    for sig in cat.signatures:
        hits = claims.primary.get(sig.id, [])
        by_context = not hits and sig.id in crashes
        if by_context:
            hits = crashes[sig.id]  # a failure that names nothing, read with its frames or what the log said was running
        support = claims.supporting.get(sig.id, []) if (hits or sig.silent) else []
        if sig.silent:
            # the symptom lines that name nothing, read with what the log names elsewhere, support it too
            # (a write-up's "Paris Paris Paris" beside its A/B sentence that names DeepGEMM)
            shown = {h.group.fingerprint for h in hits + support}
            support = support + [h for h in elsewhere.get(sig.id, []) if h.group.fingerprint not in shown]
        symptom = False
        if sig.silent and not hits and support:
            if not any(_shows_symptom(h) for h in support) and len({h.pattern.name for h in support}) < 2:
                # only the backend it needs was selected (one context line): nothing shows it went
                # wrong. The risk warning and the backend selected after it together are evidence.
                continue
            # symptoms only: the symptom lines are the evidence
            hits, support, symptom = support, [], True
        if hits or support:
            # a failure or a symptom printed in one machine's part of a comparison is judged on that machine's GPU
            f = make_finding(sig, under_section_gpu(facts, hits), hits, support, symptom)
            if by_context and f.status is Status.LIKELY:
                f.status = Status.POSSIBLE  # the failure itself names no component: never more than possible
        elif fact_risks and sig.preflight and sig.conditions:
            results = evaluate_conditions(sig, facts)
            truth, _, _ = combine(results)
            if truth is not Truth.HOLDS:
                continue
            f = make_finding(sig, facts, [], [])
        else:
            continue
        (ruled if f.status is Status.RULED_OUT else findings).append(f)
    findings += _handed_over(cat, claims, facts, findings, ruled)
    findings += _families(cat, claims, facts, findings)
    evidenced = {f.id for f in findings + ruled if not f.from_facts_only}
    findings = [
        f for f in findings
        if not (f.from_facts_only and evidenced & set(cat.get(f.id).data.get("covered_by", [])))
    ]
    _yield(cat, findings)
    _behind_other_failure(claims, groups, findings)
    _lower_for_paste_facts(cat, facts, findings)
    _rank(cat, claims, findings, crashes)
    return findings, ruled


def _lower_for_paste_facts(cat: Catalogue, facts: Mapping[str, Fact], findings: list[Finding]) -> None:
    """At most possible where the paste says the failure is behind it, or asks whether it could happen, or the GPU
    itself failed (what the libraries raised after it says nothing of their bugs), or the GPU is AMD's (the NVIDIA
    kernels these signatures know did not run; a checkpoint's block size against the split fails there alike)."""
    if not ("not_current" in facts or "gpu_fault" in facts or "amd_gpu" in facts):
        return
    neutral = "amd_gpu" in facts and not ("not_current" in facts or "gpu_fault" in facts)
    why = _held_back(facts)
    for f in findings:
        if f.status in (Status.LIKELY, Status.POSSIBLE) and not (neutral and cat.get(f.id).vendor_neutral):
            f.status = Status.POSSIBLE
            f.held_back = why


def _held_back(facts: Mapping[str, Fact]) -> str:
    """The sentence that says why findings are at most possible (``_lower_for_paste_facts``)."""
    if "not_current" in facts:
        return "the log says this failure is behind it (fixed, gone, or from before) or asks whether it could happen"
    if "gpu_fault" in facts:
        return "the GPU itself failed (an Xid or ECC error): what the libraries raised after that says nothing of their bugs"
    return "the GPU is AMD's (ROCm): the NVIDIA kernels this signature knows do not run there"


def unknown_groups(
    groups: list[Group], claims: Claims, limit: int = 50, ruled_out: Iterable[str] = (),
    findings: Iterable[Finding] = (),
) -> list[UnknownGroup]:
    """Error groups that no finding explains. A group claimed only by a ruled-out signature is
    listed too: the facts say that signature is not the cause, so the error is unexplained.
    ``findings``: the judged findings, whose groups are explained too (a symptom that ``judge`` read
    with the log's facts is in no claim)."""
    ruled = set(ruled_out)
    explained = {h.group.fingerprint for sid, hs in claims.primary.items() if sid not in ruled for h in hs}
    explained |= {h.group.fingerprint for sid, hs in claims.supporting.items() if sid not in ruled for h in hs}
    explained |= {fp for f in findings for fp in f.fingerprints}
    out = []
    for g in groups:
        if g.fingerprint in explained or not g.event.is_error:
            continue
        out.append(unknown_of(g))
    out.sort(key=lambda u: -u.count)
    return out[:limit] if limit else out


def unknown_of(g: Group) -> UnknownGroup:
    """The unknown-error view of a group: the headline of its first occurrence as it was written
    (redacted; the mask is for the fingerprint only), the last lines as its sample."""
    from ..common.redact import redact

    ev = g.event
    return UnknownGroup(
        fingerprint=g.fingerprint,
        kind=ev.kind.value,
        headline=redact(ev.headline)[:300],
        sample=ev.lines[-8:],
        count=g.count,
        workers=g.workers,
        first=ev.lines[0],
        last=g.last or ev.lines[0],
    )
