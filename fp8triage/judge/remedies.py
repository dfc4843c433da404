"""A finding's remedies, best first: the signature's ``[[remedies]]`` judged on the facts in force,
on the code path the failing trace runs through and on the serving stack.

Four rules, in this order, decide how a remedy fits:

1. Its ``when`` conditions (``conditions.evaluate``): holds, may fit (a fact is unknown), does not fit.
2. The stack: a remedy whose action belongs to one serving stack (a ``VLLM_*`` variable, a
   ``python -m sglang.launch_server`` command, ``model.set_experts_implementation``) does not fit a
   log or a machine of another stack (``action_stack``).
3. The code path: a remedy that ``covers`` only some FP8 code paths (``linear``: the dense FP8
   linears; ``experts``: the MoE experts) does not fit when the failing trace runs through another
   one (``trace_path``), and one that covers the failing path comes first.
4. Already in force: an environment variable the facts already show at the remedy's value, a
   package already at the version the remedy installs, or the experts backend a remedy switches to
   already running (``experts_implementation``), was in force when the failure happened, so
   it is not the fix; it is listed last with ``in_force`` saying where it was seen.

The trace also gives facts the conditions can use (``trace_facts``): a trace through the MoE
experts says the model is a mixture of experts (``moe = true``) even where no model name was read.
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import regex

from ..common import rxcache
from ..catalogue.actions import Code, Command, Env, Install, RemedySpec
from ..model import ConditionResult, Event, Fact, Remedy, Truth
from .conditions import combine, evaluate

# -- the code path of a trace ---------------------------------------------------------------------

# Frames ("path:function", innermost first) that name the MoE experts or a dense FP8 linear. The
# innermost frame that names one decides: an experts forward that calls a DeepGEMM grouped GEMM is
# the experts path, although the model's decoder layer (outer) also ran attention linears.
_EXPERTS_FRAME = rxcache.compile(
    r"(?i)(?:experts|fused_moe|moe_forward|m_grouped|grouped_gemm|grouped_mm|deep_gemm_moe|deepgemm_moe"
    r"|/integrations/moe\.py:|/fused_moe/)")
_LINEAR_FRAME = rxcache.compile(
    r"(?i)(?::[\w.]*linear\w*$|:\w*block_fp8_matmul\w*$|:apply_w8a8\w*$|/integrations/finegrained\w*\.py:\w*linear)")
# a source line shown under a frame: ``self.experts(...)`` or ``self.q_proj(...)``
_EXPERTS_CALL = rxcache.compile(r"\bself\.(?:experts|moe|shared_experts)\s*\(")
_LINEAR_CALL = rxcache.compile(r"\bself\.(?:[qkvo]_proj|qkv_proj|o_proj|gate_proj|up_proj|down_proj|lm_head)\s*\(")
# a model file or class of a mixture of experts (the decoder layers of such a model run experts)
_MOE_MODEL = rxcache.compile(r"(?i)(?:modeling_\w*moe\w*\.py|\b\w*Moe\w*ForCausalLM|/mixtral/|modeling_mixtral|deepseek_v[23])")

# transformers' experts backends name their forward: deepgemm_fp8_fp4_experts_forward,
# fp8_grouped_mm_experts_forward, ...
_EXPERTS_BACKEND = rxcache.compile(r"(?i)^\w*?(deepgemm_megamoe|deepgemm|grouped_mm|batched_mm|sonicmoe)\w*experts_forward$")

PATH_TEXT = {"experts": "the MoE experts", "linear": "the dense FP8 linears"}


def trace_path(events: Iterable[Event]) -> tuple[str | None, str]:
    """("experts" | "linear" | None, what showed it) for the failing traces: the innermost frame
    that names the MoE experts or a dense FP8 linear, else a call shown in the trace's source lines."""
    for ev in events:
        for path, func in reversed(ev.frames):
            where = f"{path}:{func}"
            if _EXPERTS_FRAME.search(where):
                return "experts", f"frame {_short(path)}:{func}"
            if _LINEAR_FRAME.search(where):
                return "linear", f"frame {_short(path)}:{func}"
        for ln in reversed(ev.lines):
            if _EXPERTS_CALL.search(ln.text):
                return "experts", f"line {ln.lineno}: {ln.text.strip()[:80]}"
            if _LINEAR_CALL.search(ln.text):
                return "linear", f"line {ln.lineno}: {ln.text.strip()[:80]}"
    return None, ""


def trace_facts(events: Sequence[Event]) -> list[Fact]:
    """Facts the failing traces show: ``moe = true`` when a trace runs through the MoE experts or
    an MoE model's code; ``experts_implementation`` when it runs through one of transformers'
    experts backends (``fp8_grouped_mm_experts_forward``: grouped_mm)."""
    path, how = trace_path(events)
    out: list[Fact] = []
    for ev in events:
        src = f"log {ev.lines[0].source}:{ev.lines[0].lineno}" if ev.lines else "log"
        backend = next((m.group(1).lower() for _p, func in reversed(ev.frames)
                        for m in [_EXPERTS_BACKEND.match(func)] if m), None)
        if backend:
            out.append(Fact("experts_implementation", backend,
                            f"{src} (the trace runs through transformers' {backend} experts)", "log"))
        if path == "experts":
            return out + [Fact("moe", "true", f"{src} (the trace runs through the MoE experts: {how})", "log")]
        for p, func in ev.frames:
            if _MOE_MODEL.search(p) or _MOE_MODEL.search(func):
                return out + [Fact("moe", "true", f"{src} (the trace runs through an MoE model: {_short(p)})", "log")]
        # each line's head only: a log line can be megabytes long
        m = next((m for ln in ev.lines for m in [_MOE_MODEL.search(ln.text[:4096])] if m), None)
        if m:
            return out + [Fact("moe", "true", f"{src} (the trace names an MoE model: {m.group(0)})", "log")]
    return out


def _short(path: str) -> str:
    parts = path.replace("\\", "/").split("/")
    return "/".join(parts[-2:])


# -- the stack an action belongs to -----------------------------------------------------------------

_ENV_STACK = (("VLLM_", "vllm"), ("TRANSFORMERS_", "transformers"), ("SGLANG_", "sglang"), ("SGL_", "sglang"))
_PKG_STACK = {"vllm": "vllm", "sglang": "sglang", "sgl-deep-gemm": "sglang", "sgl_deep_gemm": "sglang",
              "sgl-kernel": "sglang", "transformers": "transformers", "tensorrt_llm": "tensorrt-llm",
              "tensorrt-llm": "tensorrt-llm", "lmdeploy": "lmdeploy"}
_TEXT_STACK = (
    (rxcache.compile(r"\bvllm serve\b|\bfrom vllm\b|\bimport vllm\b|\bvllm\.entrypoints\b"), "vllm"),
    (rxcache.compile(r"\bsglang\.launch_server\b|\bfrom sglang\b|\bimport sglang\b"), "sglang"),
    (rxcache.compile(r"\bset_experts_implementation\b|\bexperts_implementation\s*=|\bfrom transformers\b"
                   r"|\bAutoModel\w*\.from_pretrained\b"), "transformers"),
    (rxcache.compile(r"\btrtllm-build\b|\bfrom tensorrt_llm\b"), "tensorrt-llm"),
)


def action_stack(spec: RemedySpec) -> str | None:
    """The serving stack a remedy's action only makes sense for, or None (any stack: a DeepGEMM
    variable, a CUDA toolkit, a checkpoint, advice in words)."""
    a = spec.action
    if isinstance(a, Env):
        return next((stack for prefix, stack in _ENV_STACK if a.name.startswith(prefix)), None)
    if isinstance(a, Install):
        return _PKG_STACK.get(_package(a.spec))
    if isinstance(a, (Code, Command)):
        text = a.snippet()
        hits = {stack for rx, stack in _TEXT_STACK if rx.search(text)}
        if len(hits) == 1:
            return hits.pop()
        if isinstance(a, Command):
            pkg = regex.match(r"\s*pip install\s+(?:-\S+\s+)*['\"]?([A-Za-z0-9_.-]+)", text)
            if pkg:
                return _PKG_STACK.get(_package(pkg.group(1)))
    return None


def _package(spec: str) -> str:
    m = regex.match(r"\s*['\"]?([A-Za-z0-9_.-]+)", spec)
    return m.group(1).lower() if m else ""


# -- already in force ------------------------------------------------------------------------------

_FALSE = {"0", "false", "no", "off"}
_TRUE = {"1", "true", "yes", "on"}


def _same_setting(a: str, b: str) -> bool:
    x, y = str(a).strip().strip("'\"").lower(), str(b).strip().strip("'\"").lower()
    if x in _FALSE and y in _FALSE or x in _TRUE and y in _TRUE:
        return True
    return x == y


def in_force(spec: RemedySpec, facts: Mapping[str, Fact]) -> str:
    """Where the facts show the remedy's action already in force ("" when they do not): the
    variable set to the remedy's value, or the package installed at a version the remedy asks for."""
    a = spec.action
    if isinstance(a, Env):
        f = facts.get(a.name)
        if f is not None and _same_setting(f.value, a.value):
            return f"{a.name}={f.value} is already set ({f.source})"
        return ""
    if isinstance(a, Install):
        return _installed(a.spec, facts)
    if isinstance(a, Code):
        m = _SETS_EXPERTS.search(a.snippet())
        f = facts.get("experts_implementation")
        if m and f is not None and f.value.strip().lower() == m.group(1).lower():
            return f"the experts already run {f.value} ({f.source})"
    return ""


_SETS_EXPERTS = rxcache.compile(r"""experts_implementation(?:\(\s*|\s*=\s*)['"](\w+)['"]""")


def _installed(spec: str, facts: Mapping[str, Fact]) -> str:
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.version import InvalidVersion, Version

    from ..facts.vocabulary import canonical_name

    try:
        req = Requirement(spec.strip().strip("'\""))
    except InvalidRequirement:
        return ""
    name = canonical_name(req.name) or canonical_name(req.name.replace("-", "_"))
    f = facts.get(name) if name else None
    if f is None or not str(req.specifier):
        return ""
    try:
        have = Version(f.value.split("+", 1)[0].lstrip("vV"))
    except InvalidVersion:
        return ""
    if req.specifier.contains(have, prereleases=True):
        return f"{req.name} {f.value} is already installed ({f.source})"
    return ""


# -- building them -----------------------------------------------------------------------------------


def build(specs: Sequence[RemedySpec], facts: Mapping[str, Fact], events: Sequence[Event] = ()) -> list[Remedy]:
    """The remedies of ``specs`` judged on ``facts`` and the failing ``events``, best first: those
    that fit, then those that may fit, then those that do not; among equals the one that covers the
    failing code path first, then ``rank``; remedies already in force last."""
    facts = dict(facts)
    for f in trace_facts(events):
        facts.setdefault(f.name, f)
    path, how = trace_path(events)
    stack = facts.get("stack")
    out: list[tuple[tuple, Remedy]] = []
    for i, r in enumerate(specs):
        results = [evaluate(c, facts) for c in r.when]
        truth, _decide, contra = combine(
            [ConditionResult(x.fact, x.expect, x.truth, x.value, x.source, "require") for x in results])
        why = r.why
        own = action_stack(r)
        covers = _covers(r)
        if truth is not Truth.FAILS and own and stack is not None and stack.value != own:
            truth, contra = Truth.FAILS, [f"it is for {own}; the stack is {stack.value} ({stack.source})"]
        if truth is not Truth.FAILS and covers and path and path not in covers:
            truth = Truth.FAILS
            contra = [f"it covers {' and '.join(PATH_TEXT[c] for c in covers)} only; the failing trace runs "
                      f"through {PATH_TEXT[path]} ({how})"]
        if truth is Truth.UNKNOWN:
            unknown = [x.expect for x in results if x.truth is Truth.UNKNOWN]
            if unknown:
                why = (why + " " if why else "") + f"(fits if: {', '.join(unknown)})"
        elif truth is Truth.FAILS:
            why = (why + " " if why else "") + f"(does not fit: {'; '.join(contra)})"
        already = in_force(r, facts)
        if already:
            truth = Truth.FAILS
            why = (r.why + " " if r.why else "") + f"({already}: it was in force when this failed, so it is not the fix)"
        rem = Remedy(r.id, r.title, dict(r.table), r.action.snippet(), truth, why, r.repro, in_force=already)
        order = {Truth.HOLDS: 0, Truth.UNKNOWN: 1, Truth.FAILS: 2}[truth]
        out.append(((bool(already), order, not (path and path in covers), r.rank, i), rem))
    return [rem for _k, rem in sorted(out, key=lambda t: t[0])]


def _covers(spec: RemedySpec) -> tuple[str, ...]:
    return tuple(spec.covers)
