"""The fact vocabulary, and how facts from several sources combine.

Every fact has a canonical name from ``FACTS``. Signature conditions, ``--fact
name=value``, the log extractors, the live probe, environment-dump parsers and
the checkpoint reader all use these names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ..model import Fact
from ..common.redact import redact_fact
from ..errors import TriageError


@dataclass(frozen=True)
class FactSpec:
    name: str
    kind: str  # "version" | "capability" | "bool" | "text" | "enum" | "int" | "env"
    help: str
    aliases: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()  # the values an "enum" fact may take (empty: any identifier)


_VERSION_PKGS = {
    "vllm": "vLLM",
    "sglang": "SGLang",
    "transformers": "transformers",
    "torch": "PyTorch",
    "triton": "Triton",
    "deep_gemm": "DeepGEMM (pip deep-gemm / deep_gemm, or the copy vendored in vLLM)",
    "sgl_deep_gemm": "sgl-deep-gemm (SGLang's DeepGEMM build)",
    "kernels": "Hugging Face kernels package",
    "flashinfer": "FlashInfer",
    "compressed_tensors": "compressed-tensors",
    "tensorrt_llm": "TensorRT-LLM",
    "cuda": "CUDA runtime version (torch.version.cuda or the image)",
    "nvcc": "CUDA toolkit (nvcc)",
    "driver": "NVIDIA driver",
    "python": "Python",
}

# Environment variables that change FP8 dispatch. Their facts are named after the variable.
DISPATCH_ENV_VARS = (
    "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR",
    "VLLM_USE_DEEP_GEMM",
    "VLLM_MOE_USE_DEEP_GEMM",
    "VLLM_USE_DEEP_GEMM_E8M0",
    "VLLM_USE_DEEP_GEMM_E8M0_HOPPER",
    "VLLM_USE_DEEP_GEMM_TMA_ALIGNED_SCALES",
    "VLLM_DEEP_GEMM_WARMUP",
    "VLLM_BLOCKSCALE_FP8_GEMM_FLASHINFER",
    "VLLM_USE_FLASHINFER_MOE_FP8",
    "SGLANG_ENABLE_JIT_DEEPGEMM",
    "SGL_ENABLE_JIT_DEEPGEMM",
    "SGLANG_JIT_DEEPGEMM_PRECOMPILE",
    "SGLANG_USE_DEEPGEMM_BMM",
    "DG_JIT_CACHE_DIR",
    "DG_JIT_USE_NVRTC",
    "CUDA_HOME",
    "TORCH_CUDA_ARCH_LIST",
    "FLASHINFER_CUDA_ARCH_LIST",
    "CUDA_VISIBLE_DEVICES",
)

_SPECS: list[FactSpec] = [
    FactSpec("gpu", "text", "GPU product name, e.g. 'NVIDIA B200'", ("gpu_name", "gpu.name")),
    FactSpec(
        "capability",
        "capability",
        "CUDA compute capability as major.minor, e.g. '9.0', '10.0', '12.0'",
        ("compute_capability", "cc", "sm", "gpu.capability"),
    ),
    FactSpec("gpu_count", "int", "number of GPUs visible"),
    FactSpec("stack", "enum", "serving stack: vllm, sglang, transformers, tensorrt-llm, lmdeploy, other",
             choices=("vllm", "sglang", "transformers", "tensorrt-llm", "lmdeploy", "other")),
    FactSpec("model", "text", "model name or path being served", ("model_name",)),
    FactSpec("model_type", "text", "config.json model_type, e.g. 'qwen3_moe'"),
    FactSpec("moe", "bool", "the model is a mixture of experts"),
    FactSpec("quantization", "text", "quantization method in use: fp8, compressed-tensors, modelopt, awq, ...", ("quant_method",)),
    FactSpec("quant_scheme", "text", "the compressed-tensors scheme a kernel was picked for: W8A8Fp8, W8A8Int8, WNA16, ..."),
    FactSpec("weight_block_size", "text", "FP8 weight block size as 'N,K', e.g. '128,128'; empty for per-tensor/channel"),
    FactSpec("fp8_granularity", "enum", "FP8 scale granularity: block, channel, tensor", choices=("block", "channel", "tensor")),
    FactSpec("scale_fmt", "enum", "quantization_config.scale_fmt: float or ue8m0", choices=("float", "ue8m0")),
    FactSpec("scale_dtype", "enum", "dtype of the weight scale tensors: float32, float8_e8m0fnu, bfloat16, ..."),
    FactSpec("weight_dtype", "enum", "dtype of the quantized weights: float8_e4m3fn, int8 (packed FP4), ..."),
    FactSpec("activation_scheme", "enum", "quantization_config.activation_scheme: dynamic or static",
             choices=("dynamic", "static")),
    FactSpec("experts_implementation", "text", "transformers experts backend: eager, batched_mm, grouped_mm, deepgemm, ..."),
    FactSpec("deepgemm_source", "text", "where DeepGEMM comes from: pip, vendored, hub-kernel, nv_dev"),
    FactSpec("deepgemm_named", "bool", "the log names DeepGEMM (a backend selected, a flag, a frame), not as switched off: "
             "the library a symptom that names none is read with"),
    FactSpec("cutlass_fp8_named", "bool", "the log names a CUTLASS or CuTe kernel run or compiled with an FP8 dtype: "
             "what a failure that names no component is read with"),
    FactSpec("transformers_fp8_named", "bool", "the log names transformers' fine-grained FP8 path or its hub kernel: "
             "what a failure that names no component is read with"),
    FactSpec("fp8_attention_named", "bool", "the log switches on an FP8 attention kernel (TensorRT-LLM's FP8 context "
             "FMHA): what an attention kernel's failure that names no dtype is read with"),
    FactSpec("vllm_ops_unloaded", "bool", "vLLM's compiled ops (vllm._C) failed to load (an undefined symbol after a torch "
             "upgrade): the ops missing after it say nothing of the GPU"),
    FactSpec("gpu_sections", "text", "the parts of a paste printed under a GPU's name, as 'GPU@first-last' (a heading "
             "'--- B200 ---' or 'H200:', a line labelled 'B200: rel_err 0.91'), where they name GPUs of two capabilities "
             "or more: a symptom printed in a part is that GPU's"),
    FactSpec("not_current", "bool", "the log says the failure is fixed or no longer happens, or was never run (a "
             "question): findings are named, at most possible"),
    FactSpec("gpu_fault", "bool", "the log shows the GPU itself failed (the driver's Xid 79 'fallen off the bus', an "
             "uncorrectable ECC error): findings are named, at most possible"),
    FactSpec("amd_gpu", "bool", "the log's GPU is AMD's (ROCm, an Instinct MI card, a gfx9 target, hipBLAS errors): a "
             "failure of the NVIDIA kernels the catalogue knows is at most possible, except one that is no kernel's (a "
             "checkpoint's block size against the tensor-parallel split)"),
    FactSpec("multi_device", "bool", "one process spans several CUDA devices"),
    FactSpec("os", "text", "operating system"),
]
_SPECS += [FactSpec(n, "version", label if "version" in label.lower() else f"{label} version")
           for n, label in _VERSION_PKGS.items()]
_SPECS += [FactSpec(v, "env", f"environment variable {v}") for v in DISPATCH_ENV_VARS]

FACTS: dict[str, FactSpec] = {s.name: s for s in _SPECS}
_ALIASES: dict[str, str] = {}
for _s in _SPECS:
    _ALIASES[_s.name.lower()] = _s.name
    for _a in _s.aliases:
        _ALIASES[_a.lower()] = _s.name
for _n in _VERSION_PKGS:
    _ALIASES[_n.replace("_", "-")] = _n
_ALIASES["deepgemm"] = "deep_gemm"
_ALIASES["deep-gemm"] = "deep_gemm"


class FactError(TriageError, ValueError):
    """A fact given on the command line (or in a file) is malformed."""

    usage = True


def canonical_name(name: str) -> str | None:
    """The canonical fact name for ``name`` (case-insensitive, aliases allowed), or None."""
    key = name.strip()
    if key in FACTS:
        return key
    return _ALIASES.get(key.lower())


def parse_cli_fact(text: str) -> Fact:
    """Parse ``name=value`` from ``--fact``. Unknown names are an error that lists the known ones."""
    if "=" not in text:
        raise FactError(f"--fact {text!r} is not of the form name=value (for example --fact capability=12.0)")
    name, value = text.split("=", 1)
    canon = canonical_name(name)
    if canon is None:
        import difflib

        close = difflib.get_close_matches(name.strip(), sorted(FACTS), n=3, cutoff=0.6)
        hint = f"did you mean {', '.join(close)}? " if close else ""
        raise FactError(
            f"--fact {name.strip()!r} is not a known fact; {hint}known facts: " + ", ".join(sorted(FACTS))
        )
    value = normalise_value(canon, value)
    problem = check_value(canon, value)
    if problem:
        raise FactError(f"--fact {canon}={value.strip()!r} is not valid: {problem}")
    return redact_fact(Fact(canon, value, "--fact", "cli"))


def check_value(name: str, value: str) -> str | None:
    """Why ``value`` (already normalised) is not a valid value of fact ``name``, or None.

    capability: major.minor (9.0, 12.0, sm_120); version: PEP 440; bool: true/false, 1/0,
    yes/no, on/off; enum: one of its choices (or a dtype-like name); int: a whole number."""
    import re

    spec = FACTS.get(name)
    v = value.strip()
    if spec is None:
        return None
    if not v and spec.kind != "env":  # an environment variable may be set to the empty string
        return f"the value is empty; give one, e.g. {_EXAMPLE.get(name, name + '=VALUE')}"
    if name == "weight_block_size" and not re.fullmatch(r"\d+,\d+", v):
        return "a block size is N,K, e.g. 128,128 (per-tensor or per-channel: --fact fp8_granularity=tensor)"
    if spec.kind == "capability":
        cc = normalise_capability(v)
        if cc is None or not re.fullmatch(r"\d{1,2}\.\d", v) or not (1 <= int(cc.split(".")[0]) <= 13):
            return "a compute capability is major.minor, e.g. 9.0, 10.0, 12.0 (or sm_120)"
    elif spec.kind == "version":
        from packaging.version import InvalidVersion, Version

        try:
            Version(v)
        except InvalidVersion:
            return f"{name} takes a version such as 0.24.0 or 2.9.1+cu130 (PEP 440)"
    elif spec.kind == "bool":
        if v not in ("true", "false"):
            return "use true or false (also 1/0, yes/no, on/off)"
    elif spec.kind == "enum":
        if spec.choices:
            if v.lower() not in spec.choices:
                return f"{name} is one of {', '.join(spec.choices)}"
        elif not re.fullmatch(r"[A-Za-z][\w.-]*", v):
            return f"{name} takes a name such as float32 or float8_e4m3fn"
    elif spec.kind == "int":
        if not re.fullmatch(r"\d+", v):
            return f"{name} takes a whole number"
    return None


def normalise_value(name: str, value: str) -> str:
    spec = FACTS.get(name)
    v = value.strip()
    if spec is None:
        return v
    if spec.kind == "capability":
        return normalise_capability(v) or v
    if spec.kind == "bool":
        low = v.lower()
        if low in ("1", "true", "yes", "y", "on"):
            return "true"
        if low in ("0", "false", "no", "n", "off"):
            return "false"
    if spec.kind == "version":
        return v.lstrip("vV")
    if name == "weight_block_size":
        # "[128, 128]", "(128, 128)", "128x128" as a config or a log writes it -> "128,128"
        import re

        m = re.fullmatch(r"[\[(]?\s*(\d+)\s*[,x×]\s*(\d+)\s*[\])]?", v)
        if m:
            return f"{m.group(1)},{m.group(2)}"
    return v


# what an empty --fact NAME= is told to write
_EXAMPLE = {"gpu": "--fact gpu='NVIDIA B200'", "model": "--fact model=Qwen/Qwen3-30B-A3B-FP8",
            "capability": "--fact capability=12.0", "stack": "--fact stack=vllm",
            "weight_block_size": "--fact weight_block_size=128,128", "quantization": "--fact quantization=fp8"}


def implied_facts(facts: Iterable[Fact]) -> list[Fact]:
    """Facts that another fact implies, with the origin of the fact they come from: a weight
    block size means block granularity. Only where no fact of that name and origin was given."""
    facts = list(facts)
    have = {(f.name, f.origin) for f in facts}
    out: list[Fact] = []
    for f in facts:
        if f.name == "weight_block_size" and f.value.strip() and ("fp8_granularity", f.origin) not in have:
            have.add(("fp8_granularity", f.origin))
            out.append(Fact("fp8_granularity", "block", f"implied by weight_block_size={f.value} ({f.source})", f.origin))
    return out


def normalise_capability(v: str) -> str | None:
    """'12.0', '12', 'sm_120', 'sm120', 'SM120a', '(12, 0)', '120' -> '12.0'."""
    import re

    s = v.strip().lower()
    if re.fullmatch(r"\d{1,2}", s) and int(s) <= 13:
        return f"{int(s)}.0"
    m = re.fullmatch(r"\(?\s*(\d{1,2})\s*,\s*(\d)\s*\)?", s)
    if m:
        return f"{int(m.group(1))}.{m.group(2)}"
    m = re.fullmatch(r"(?:sm|compute)?_?(\d{1,2})\.(\d)", s)
    if m:
        return f"{int(m.group(1))}.{m.group(2)}"
    m = re.fullmatch(r"(?:sm|compute)?_?(\d{2,3})[af]?", s)
    if m:
        digits = m.group(1)
        if len(digits) == 2:
            return f"{digits[0]}.{digits[1]}"
        return f"{digits[:2]}.{digits[2]}"
    m = re.fullmatch(r"(\d{1,2})", s)
    if m:
        return f"{int(m.group(1))}.0"
    return None


# Precedence: the command line beats everything; facts read from the checkpoint or an env
# dump beat the log; the log beats the live probe unless the user says the log came from
# this machine ("live" mode). Within one origin, the first fact seen wins.
PRECEDENCE = {
    "log": ("cli", "checkpoint", "env-dump", "log", "derived", "live"),
    "live": ("cli", "checkpoint", "live", "env-dump", "log", "derived"),
    "all": ("cli", "checkpoint", "env-dump", "log", "live", "derived"),
}


def resolve(facts: Iterable[Fact], prefer: str = "log") -> tuple[dict[str, Fact], list[dict]]:
    """Pick one fact per name by origin precedence; report conflicting values.

    Returns (facts in force by name, conflicts). A conflict lists every distinct value
    with its source and which one was chosen.
    """
    order = PRECEDENCE.get(prefer, PRECEDENCE["log"])
    rank = {o: i for i, o in enumerate(order)}
    by_name: dict[str, list[Fact]] = {}
    for f in facts:
        by_name.setdefault(f.name, []).append(redact_fact(f))
    chosen: dict[str, Fact] = {}
    conflicts: list[dict] = []
    for name, fs in by_name.items():
        best = min(enumerate(fs), key=lambda t: (rank.get(t[1].origin, 99), t[0]))[1]
        chosen[name] = best
        values = {}
        for f in fs:
            values.setdefault(_comparable(name, f.value), f)
        if len(values) > 1:
            conflicts.append(
                {
                    "name": name,
                    "chosen": best.to_dict(),
                    "values": [f.to_dict() for f in values.values()],
                    "rule": f"facts-from={prefer}: " + " > ".join(order)
                    + ("; the first value seen wins within one origin"
                       if sum(1 for f in values.values() if f.origin == best.origin) > 1 else ""),
                }
            )
    return chosen, conflicts


def _comparable(name: str, value: str) -> str:
    spec = FACTS.get(name)
    if spec and spec.kind == "version":
        # "0.24.0" from a log and "0.24.0+cu130" from a probe are the same release
        return value.split("+", 1)[0].lower()
    return value.strip().lower()
