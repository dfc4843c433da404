"""Failures and symptoms that name no component, read with what the log names elsewhere: the facts that
name a component (``deepgemm_named``), the frames a logger printed apart from their error, the interpreter
statement that raised, the FP8 checkpoint and GPU a write-up names on other lines, and the GPU whose part
of a comparison a symptom is printed in (``gpu_sections``).
"""
from __future__ import annotations

from typing import Mapping

from ..catalogue import scoretables
from ..catalogue.loader import Catalogue
from ..catalogue.recognition import FP8_FORMATS
from ..common import rxcache
from ..common.gpus import capability_for
from ..facts.gpunames import gpu_facts, prose_gpus
from ..facts.pastegpus import parse_sections
from . import recognise
from .claims import Claims, Group, Hit
from .matcher import rule_hits
from ..model import EventKind, Fact, Line


# facts that name a component for a symptom that names none (the log's other lines named it)
CONTEXT_FACTS = {"deepgemm_named": "deepgemm", "cutlass_fp8_named": "cutlass-fp8", "transformers_fp8_named": "transformers-fp8",
                 "fp8_attention_named": "fp8-attention"}


def read_in_context(cat: Catalogue, claims: Claims, facts: Mapping[str, Fact],
                     groups: list[Group]) -> tuple[dict[str, list[Hit]], dict[str, list[Hit]]]:
    """Groups that no signature claimed, read with the components the log names elsewhere:
    (silent failures' rule hits on symptom lines: a NaN traceback, then a sentence that DeepGEMM was
    picked; rule hits on failures that name nothing: a segfault right after the log said a CuTe FP8
    kernel was being compiled, a cuBLASLt status whose frames were printed after it), each as
    signature id -> hits."""
    context = frozenset(c for name, c in CONTEXT_FACTS.items() if name in facts)
    symptoms: dict[str, list[Hit]] = {}
    linked: dict[str, list[Hit]] = {}
    frames_after = _frames_after(groups) if groups else {}
    written: tuple[frozenset[str], str] | None = None
    for g in groups:
        if g.fingerprint in claims.claimed:
            continue
        own = frames_after.get(id(g))
        if own is not None:
            reading = recognise.read(g.event, context=own, linked=True)
            for h in rule_hits(cat, g, reading):
                if not h.sig.silent:
                    linked.setdefault(h.sig.id, []).append(h)
            continue
        text = g.event.text
        if not (context or claims.context or "gpu" in facts or "capability" in facts or "gpu_sections" in facts
                or any(scoretables.row_gpu(ln.text) for ln in g.event.lines)):
            continue
        if g.event.wrapped:  # a phrase a terminal or the write-up's line breaks cut in two
            text = "\n".join([text, *(t for _, t in g.event.unwrapped(" "))])
        if not (g.event.is_error or recognise.CRASH.search(text) or recognise.states_symptom(text)):
            continue  # (a check first: a chatty log has many unclaimed warnings)
        reading = recognise.read(g.event, context=context | frozenset(claims.context), elsewhere=True)
        hits = rule_hits(cat, g, reading)
        part = section_gpu(facts, [g.event.lines[min(reading.failure_line, len(g.event.lines) - 1)]]) if g.event.lines else None
        if not hits and "symptom" in reading.kinds and reading.formats <= FP8_FORMATS and ("gpu" in facts or part):
            # what the components named elsewhere do not explain, the paste's FP8 checkpoint and GPU may (a line
            # that names the FP8 checkpoint but not the GPU takes the GPU; a line printed under a GPU's name, that GPU)
            if written is None:
                written = _written(groups, facts)
            formats, words = written
            reading = recognise.with_paste(reading, formats, gpu_words(part) if part else words)
            hits = rule_hits(cat, g, reading)
        refused = False
        if not hits and "unsupported-arch" in reading.kinds and g.event.is_error and not reading.formats:
            # a capability refusal that names no number format refuses the checkpoint's ("Quantization scheme is not
            # supported for the current GPU. Min capability: 80" for an FP8-dynamic checkpoint on a T4)
            said = FP8_FORMATS & checkpoint_formats(facts)
            if said:
                reading, refused = recognise.with_paste(reading, said, ""), True
                hits = rule_hits(cat, g, reading)
        for h in hits:
            if h.sig.silent and "symptom" in reading.kinds:
                symptoms.setdefault(h.sig.id, []).append(h)
            elif (reading.bare or refused) and not h.sig.silent:
                linked.setdefault(h.sig.id, []).append(h)
    return symptoms, linked


def _written(groups: list[Group], facts: Mapping[str, Fact]) -> tuple[frozenset[str], str]:
    """The FP8 formats and the GPU a paste names outside its symptom lines (a write-up's first line names the
    FP8_BLOCK checkpoint and the B200, a later one the NaN): the formats of the checkpoint's quantization and
    model facts and of every line, and the GPU's name and ``smNNN`` target."""
    formats = FP8_FORMATS & checkpoint_formats(facts)
    if not formats:
        for g in groups:
            formats |= FP8_FORMATS & recognise.vocabulary().formats_of(g.event.text)
            if formats:
                break
    gpu, cap = facts.get("gpu"), facts.get("capability")
    words = "" if gpu is None else gpu_words(str(gpu.value), str(cap.value) if cap is not None else None)
    return frozenset(formats), words


def gpu_words(name: str, capability: str | None = None) -> str:
    """A GPU's name and ``smNNN`` target (its capability, else the one its name says), as a symptom rule's words
    read them."""
    if capability is None:
        capability = (capability_for(name) or (None,))[0]
    return (f"{name} sm{capability.replace('.', '')}" if capability else name).lower()


def section_gpu(facts: Mapping[str, Fact], lines: list[Line]) -> str | None:
    """The GPU that every one of ``lines`` speaks of: the one its sentence says went wrong or it prints (a table row
    "| dgx-b200-11 | NVIDIA B200 | ... garbage |"), else the one whose part of a comparison (``gpu_sections``) holds
    it, where a line that names its machine ("No exception on the B200") under another's heading is that machine's;
    None where they differ in generation, or one lies outside every part of a comparison."""
    fact = facts.get("gpu_sections")
    source, parts = parse_sections(fact) if fact is not None else ("", [])
    names = set()
    for ln in lines:
        own = _own_gpu(ln.text, plain=False)
        if own is None:
            held = [name for lo, hi, name in parts if lo <= ln.lineno <= hi]
            if (source and ln.source != source) or not held:
                if parts:
                    return None
                continue  # (no comparison: a line that names no machine says nothing of it)
            own = _own_gpu(ln.text, plain=True) or held[-1]
        names.add(own)
    caps = {capability_for(n) for n in names}
    return min(names) if names and len(caps) == 1 else None


def _own_gpu(text: str, plain: bool) -> str | None:
    """The GPU a line speaks of: the one its sentence says went wrong, else the one it prints (``gpu_facts``), or with
    ``plain`` the one it names, besides the healthy side of a comparison; None where those differ in generation."""
    roles = list(prose_gpus(text))
    names = {name for name, role in roles if role == "failing"}
    if not names:
        healthy = {capability_for(name) for name, role in roles if role == "reference"}
        names = {value for name, value, _ in gpu_facts(text) if name == "gpu" and capability_for(value) not in healthy}
        row = scoretables.row_gpu(text) if not names else None  # (a table row: the machine its numbers are from)
        if row is not None and capability_for(row) is not None:
            names = {row}
        if plain:
            names |= {name for name, role in roles if role in ("plain", "setup")}
    caps = {capability_for(n) for n in names}
    return min(names) if names and len(caps) == 1 else None


def under_section_gpu(facts: Mapping[str, Fact], hits: list[Hit]) -> Mapping[str, Fact]:
    """``facts`` with the GPU whose part of a comparison holds every evidence line of ``hits`` (a symptom printed
    under "--- B200 ---" in a paste that shows an H100 first): the GPU the symptom was seen on."""
    lines = [h.group.event.lines[min(h.match.line, len(h.group.event.lines) - 1)] for h in hits if h.group.event.lines]
    name = section_gpu(facts, lines)
    if name is None:
        return facts
    cc, arch = capability_for(name)
    cap = facts.get("capability")
    if cap is not None and str(cap.value) == cc:
        return facts
    where = f"log {lines[0].source}:{lines[0].lineno}"
    return {**facts, "gpu": Fact("gpu", name, f"{where} (printed on or under {name}'s name)", "log"),
            "capability": Fact("capability", cc, f"{where} ({name} is {arch})", "log")}


def _frames_after(groups: list[Group]) -> dict[int, frozenset[str]]:
    """id(group) -> the FP8 components of its error's own frames, for each error that names none and
    whose frames were printed as a traceback of their own with no message, right after it (a paste or
    a logger that prints the message first: "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED ..."
    and then 'File ".../mm_scaled.py", line 512, in tuned_scaled_mm', at most two lines between: a paste's blank
    lines) or right before it (a traceback whose indentation was lost, so that its frames and its exception line
    came apart)."""
    out = _prompt_before(groups)
    frames = [g for g in groups if g.event.lines and g.event.kind is EventKind.TRACEBACK and g.event.exc_type is None]
    starts = {(g.event.lines[0].source, g.event.lines[0].lineno, g.event.lines[0].worker): g for g in frames}
    ends = {(g.event.lines[-1].source, g.event.lines[-1].lineno, g.event.lines[-1].worker): g for g in frames}
    if not frames:
        return out
    for g in groups:
        ev = g.event
        if not ev.is_error or ev.kind is EventKind.TRACEBACK or not ev.lines:
            continue
        first, last = ev.lines[0], ev.lines[-1]
        comps: frozenset[str] = frozenset()
        # (right after or before it, or with a line or two between: a paste's blank lines)
        near_ones = [starts.get((last.source, last.lineno + k, last.worker)) for k in (1, 2, 3)]
        near_ones += [ends.get((first.source, first.lineno - k, first.worker)) for k in (1, 2, 3)]
        for near in near_ones:
            if near is not None:
                comps |= recognise.read(near.event).components
        if comps and not recognise.read(ev).components:
            out[id(g)] = comps
    return out


_REPL = frozenset({"<stdin>", "<console>"})
_CALL = rxcache.compile(r"\b[A-Za-z_][\w.]*\.[A-Za-z_]\w*\([^()\n]{0,200}\)")  # "sgl_kernel.fp8_scaled_mm(x_q, ...)"


def _prompt_before(groups: list[Group]) -> dict[int, frozenset[str]]:
    """id(group) -> the FP8 components of the interpreter statement right before a traceback that names
    none and whose first frame is the interpreter's prompt (a REPL paste: `>>> out =
    torch.ops.fbgemm.f8f8bf16_rowwise(...)`, then the traceback it raised through `<stdin>` and torch's
    dispatch), or right before an exception line alone that the call on the line above raised."""
    out: dict[int, frozenset[str]] = {}
    repl = [g for g in groups if g.event.kind is EventKind.TRACEBACK and g.event.is_error and g.event.lines
            and g.event.frames and g.event.frames[0][0] in _REPL]
    # (or an exception line alone, right under the call that raised it: "sgl_kernel.fp8_scaled_mm(x, w, ...)", then
    # "RuntimeError: mat_b must be a column major tensor")
    repl += [g for g in groups if g.event.is_error and g.event.exc_type and not g.event.frames and len(g.event.lines) <= 2]
    if not repl:
        return out
    ends = {(g.event.lines[-1].source, g.event.lines[-1].lineno, g.event.lines[-1].worker): g for g in groups
            if g.event.lines and g.event.kind is EventKind.LINE}
    for g in repl:
        first = g.event.lines[0]
        near = ends.get((first.source, first.lineno - 1, first.worker))
        if near is not None and not g.event.frames and not _CALL.search(near.event.text):
            continue  # (the line before a lone exception line is a call, or it says nothing of where it failed)
        if near is not None and not recognise.read(g.event).components:
            comps = recognise.read(near.event).components
            if comps:
                out[id(g)] = comps
    return out


def checkpoint_formats(facts: Mapping[str, Fact]) -> frozenset[str]:
    """The number formats the checkpoint's quantization and model name say ("/models/ft-32b-fp8-block", "...-NVFP4")."""
    said = " ".join(str(facts[n].value) for n in ("quantization", "model") if n in facts)
    return recognise.vocabulary().formats_of(said) if said else frozenset()
