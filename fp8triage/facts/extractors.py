"""The extractors that read facts from a log's lines: named regular expressions, each with the literal anchors and
the prefilter trigger that find its lines (``logfacts.LogFacts`` runs them; ``logfacts.triggers`` gives the
prefilter their triggers).

Each makes (fact name, value) pairs from a match: a capability stated outright or by a GPU's name, the versions a
release prints, the environment variables that pick a kernel, the model and its quantization, and flags (a bool
fact) where a line says something: DeepGEMM or a CUTLASS FP8 kernel named, the failure said to be behind the
reporter, the GPU itself failed, the GPU is AMD's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import regex

from ..common import rxcache
from .clauses import FIRST_PERSON as _FIRST_PERSON
from .vocabulary import DISPATCH_ENV_VARS, normalise_capability

# (not the version an upgrade left: "bumped from vllm 0.11.x to 0.24.0")
_V = r"v?(?P<v>\d+\.\d+(?:\.\d+)?(?:[.+-]?(?:rc|dev|post|a|b)\d*)*(?:\+[\w.]+)?)(?![\w.+-]*\s+(?:to|->|→)\s)"


FP8_CHECKPOINT = "fp8-checkpoint"  # (a name kept, not a fact: the quantization where nothing else states it)


@dataclass(frozen=True)
class Extractor:
    name: str
    anchors: tuple[str, ...]
    pattern: regex.Pattern
    make: Callable[[regex.Match], list[tuple[str, str]]]  # -> [(fact name, value)]
    # the prefilter's trigger: a regular expression that matches on every line where
    # ``pattern`` can (literals, classes, alternation only: Hyperscan and Python ``re`` must
    # read it alike; ``[ \t]`` rather than ``\s``, which would cross lines in a buffer)
    trigger: str = ""
    ignore_case: bool = False  # the anchors and the trigger are case-insensitive
    any_clause: bool = False  # a mention counts in any clause ("Using DeepGEMM ..." is no advice to the reader)


def _one(fact: str, group: str = "v") -> Callable[[regex.Match], list[tuple[str, str]]]:
    return lambda m: [(fact, m.group(group))]


def _flag(name: str, fact: str, anchors: tuple[str, ...], pattern: regex.Pattern, trigger: str) -> Extractor:
    """An extractor that sets a bool fact where a line says something (any clause, any case)."""
    return Extractor(name, anchors, pattern, lambda m: [(fact, "true")], trigger=trigger, ignore_case=True,
                     any_clause=True)


def _cap(m: regex.Match) -> list[tuple[str, str]]:
    gd = m.groupdict()
    raw = gd.get("cap") or ""
    if gd.get("major"):
        raw = f"{gd['major']}.{gd['minor']}"
    cc = normalise_capability(raw)
    return [("capability", cc)] if cc else []


_ENV_ALT = "|".join(sorted(DISPATCH_ENV_VARS, key=len, reverse=True))

EXTRACTORS: list[Extractor] = [
    # capability, stated outright
    Extractor(
        "capability-explicit",
        ("capability", "Capability"),
        rxcache.compile(
            # (not code: "current_platform.is_device_capability(90)" asks, it does not say; nor a requirement:
            # "Device compute capability 8.9 or higher required for FP8 execution")
            r"(?<![\w.])(?:compute|device|CUDA|current|gpu|GPU)[ _]capabilit(?:y|ies)[\s:=]*(?:is\s*)?[`'(]?\s*(?>(?P<major>\d{1,2})\s*[.,]\s*(?P<minor>\d)\b|(?P<cap>sm_?\d{2,3}|\d{2,3})\b)"
            r"(?!\s*(?:\+|or (?:higher|above|newer|later|greater)))",
            regex.I,
        ),
        _cap,
        trigger=r"(?:compute|device|cuda|current|gpu)[ _]capabilit",
        ignore_case=True,
    ),
    Extractor(
        "capability-actual",
        ("actual = ", "Current capability", "capability is"),
        rxcache.compile(r"(?:actual = `?|Current capability:\s*|capability is\s*)(?P<cap>\d{1,2}\.\d|\d{2,3})\b"),
        _cap,
        trigger=r"actual = |Current capability:|capability is",
    ),
    Extractor(
        "capability-sm",
        ("sm_", "SM1", "SM8", "SM9", "sm1", "sm8", "sm9"),
        rxcache.compile(
            # (not a requirement: "Feature 'cvt with .e4m3x2' requires .target sm_89 or higher" is no device)
            r"(?:current device is|with CUDA capability|on \.target|target|device is|running on)\s*'?(?P<cap>(?:sm|SM)_?\d{2,3})[af]?\b"
            r"(?!'?\s+or (?:higher|later|newer|above))"
        ),
        _cap,
        trigger=r"(?:target|device is|with CUDA capability|running on)[ \t]*'?(?:sm|SM)_?[0-9][0-9]",
    ),
    Extractor(
        "capability-tuple",
        ("get_device_capability", "(9, 0)", "(10, 0)", "(12, 0)", "(12, 1)", "(10, 3)", "(8, 9)", "(8, 0)", "(8, 6)"),
        rxcache.compile(r"(?:capability|NVIDIA [\w ]+?)\s*[:=]?\s*\((?P<major>\d{1,2}), (?P<minor>\d)\)"),
        _cap,
        trigger=r"(?:capability|NVIDIA [0-9A-Za-z_ ]*)[ \t]*[:=]?[ \t]*\([0-9][0-9]?, [0-9]\)",
    ),
    # versions
    Extractor(
        "vllm-version",
        ("vLLM", "vllm", "LLM engine"),
        rxcache.compile(
            r"(?:vLLM (?:API server )?version:?\s*|Initializing a V\d LLM engine \(|\bvllm(?:==|\s+version:?\s*|\s+(?=v?\d)))" + _V
        ),
        _one("vllm"),
        trigger=r"vLLM (?:API server )?version|Initializing a V[0-9] LLM engine \(|\bvllm(?:==|[ \t]+version|[ \t]+v?[0-9])",
    ),
    Extractor(
        "sglang-version",
        ("sglang", "SGLang"),
        rxcache.compile(r"\b(?:sglang|SGLang)(?:==|\s+version:?\s*|\s+(?=v?\d))" + _V),
        _one("sglang"),
        trigger=r"\b(?:sglang|SGLang)(?:==|[ \t]+version|[ \t]+v?[0-9])",
    ),
    Extractor(
        "torch-version",
        ("torch", "PyTorch"),
        rxcache.compile(r"(?<![\w/.-])(?:torch(?:==|\s+version:?\s*|\s+(?=v?\d))|PyTorch version:\s*)" + _V),
        _one("torch"),
        trigger=r"torch(?:==|[ \t]+version|[ \t]+v?[0-9])|PyTorch version:",
    ),
    Extractor(
        "transformers-version",
        ("transformers",),
        rxcache.compile(r"(?<![\w/.-])(?:`?transformers`?(?:==|\s+version:?\s*|\s+(?=v?\d)))" + _V),
        _one("transformers"),
        trigger=r"transformers`?(?:==|[ \t]+version|[ \t]+v?[0-9])",
    ),
    Extractor(
        "triton-version",
        ("triton",),
        rxcache.compile(r"(?<![\w/.-])triton(?:==|\s+version:?\s*|\s+(?=v?\d))" + _V),
        _one("triton"),
        trigger=r"triton(?:==|[ \t]+version|[ \t]+v?[0-9])",
    ),
    Extractor(
        "deepgemm-version",
        ("deep_gemm", "deep-gemm", "DeepGEMM", "deepgemm"),
        rxcache.compile(r"(?<![\w/.-])(?<!sgl-)(?:deep[_-]?gemm|DeepGEMM)(?:==|-(?=\d)|\s+version:?\s*|[ \t](?=v?\d+\.\d))" + _V, regex.I),
        _one("deep_gemm"), trigger=r"deep[_-]?gemm(?:==|-[0-9]|[ \t]+version|[ \t]+v?[0-9])", ignore_case=True,
    ),
    _flag(
        # DeepGEMM named in the log, not as switched off (VLLM_USE_DEEP_GEMM=0, ..._DISABLE_DEEPGEMM_...=1)
        "deepgemm-named", "deepgemm_named",
        ("deep_gemm", "deep-gemm", "deep gemm", "deepgemm"),
        rxcache.compile(r"(?<![a-z0-9])(?<!disable_)(?P<v>deep[_ -]?gemm)(?!\w*\s*[=:]\s*[\"']?(?:0|false|off)\b)(?!_linear\w*\s*[=:]\s*1)", regex.I),
        r"deep[_ -]?gemm",
    ),
    _flag(
        # the paste says the failure is behind it ("this works now", "is fixed", "no longer happens", "this PR fixes") or was
        # never run ("we have not tried it yet"): its messages are named, not claimed (the trigger: not vLLM's "Resolved architecture")
        "not-current", "not_current", ("works now", "now works", "working now", "fixed", "resolved", "solved", "no longer", "not tried", "haven't tried", "just asking", "gone", "went away", "repro", "this pr", "anymore", "any more"),
        rxcache.compile(
            r"(?:\b(?:works now|now works|is working now|(?:issue|bug|problem|error|it|this|that|this one|that one) "
            r"(?:is|was|got|has been) (?:now )?(?:fixed|resolved|solved|gone)|it'?s (?:now )?(?:fixed|resolved|gone)|fixed (?:now|it)"
            # ("the `Unknown SF transformation` crash with the FP8-block model on our RTX PRO 6000 pair is gone", "not seen anymore")
            r"|(?:crash|error|failure|assert(?:ion)?)\b[^.;,\n]{0,80}? (?:is|was|has been) (?:now )?(?:fixed|resolved|solved|gone)"
            r"|(?:not|never) seen (?:it |this |that )?any ?more"
            r"|(?:error|crash|issue|problem|it|this|assert(?:ion)?)s? (?:went|goes|has gone) away|can no longer repro(?:duce)?"
            r"|(?:can(?:no|')?t|cannot|could(?:n'?t| not)) repro(?:duce)? (?:it |this )?any ?more|no longer (?:happens|fails|crashes"
            r"|reproduces|occurs)|(?:have not|haven't) (?:tried|run|tested) it|just asking|this PR (?:fixes|adds|resolves|addresses"
            r"|avoids|prevents|makes|changes|requantizes|builds|compiles|skips|guards))\b"
            # (not a workaround that got past one failure to the next: "The Unknown SF error is gone, but now it dies in ...")
            r"(?!(?: now)?,?\s*but\s+(?:now|then|it|the|when|after|with)\b)"
            # a sentence that opens with the fix ("Resolved by setting X", "So resolved by ..."), unless the line says it is not over
            r"|(?:^|[.!]\s+|\bso\s+)(?:resolved|fixed|solved)(?:\b(?: by| with| after| via| in)\b|,))"
            r"(?![^\n]*\b(?:still|again|not (?:fixed|resolved)|did(?:n'?t| not) (?:help|fix|work))\b)", regex.I | regex.M),
        r"works now|now works|working now|(?:is|was|got|been|it'?s) (?:now )?(?:fixed|resolved|solved|gone)|fixed (?:now|it)|(?:resolved|fixed"
        r"|solved)(?: by| with| after| via| in|,)|no longer|not tried|haven't tried|not run|not tested|just asking|(?:gone|went|goes) away|\brepro|this PR"
        r"|(?:is|was|been) (?:now )?(?:fixed|resolved|solved|gone)|seen (?:it |this |that )?any ?more",
    ),
    _flag(
        # the GPU itself failed: the driver lost it (Xid 79 "GPU has fallen off the bus"), or reported an uncorrectable
        # memory error: what the libraries raised after it (CUDA 719 in a DeepGEMM kernel) is no bug of theirs
        "gpu-fault", "gpu_fault",
        ("fallen off the bus", "Xid", "Uncorrectable ECC", "uncorrectable ECC", "GPU is lost", "GPU Reset Required"),
        rxcache.compile(r"fallen off the bus|\bXid\b[^\n]{0,40}?\b(?:79|48|63|64|74|92|94|95|119|120|154)\b|uncorrectable ECC|GPU is lost"
                        r"|GPU Reset Required", regex.I),
        r"fallen off the bus|Xid|[Uu]ncorrectable ECC|GPU is lost|GPU Reset Required",
    ),
    _flag(
        # the GPU is AMD's (ROCm, an Instinct card, a gfx9 target, hipBLAS): the NVIDIA kernels the catalogue knows are
        # not what failed (not the capability check's words "... or ROCm MI300+")
        "amd-gpu", "amd_gpu",
        ("rocm", "gfx9", "MI2", "MI3", "AMD Instinct", "hipblas", "hipErr", "HIP error"),
        rxcache.compile(r"\+rocm\d|\brocm/|\bROCm[ -]?\d|\brocm-smi\b|\bgfx9[0-9a-f]{2}\b|\bMI[23]\d{2}[XA]\b|\bAMD Instinct\b"
                        r"|\bHIPBLAS_STATUS_\w+|\bhipblasLt\w*|\bhipErr\w+|\bHIP error\b", regex.I),
        r"\+rocm[0-9]|rocm/|rocm[ -]?[0-9]|rocm-smi|gfx9[0-9a-f][0-9a-f]|MI[23][0-9][0-9][XA]|AMD Instinct|HIPBLAS_STATUS_|hipblasLt"
        r"|hipErr|HIP error",
    ),
    _flag(
        # DeepGEMM switched off, and then the run is fine (a write-up's A/B: "with VLLM_USE_DEEP_GEMM=0 it
        # goes back to 0.85"): the symptom it describes is read with DeepGEMM named
        "deepgemm-off-recovers", "deepgemm_named",
        ("deep_gemm", "deepgemm", "dg_enabled"),
        rxcache.compile(
            r"(?:use_deep_?gemm\w*|enable_jit_deep_?gemm|disable_deep_?gemm\w*|deep_?gemm_scale_ue8m0|trtllm_dg_enabled)\s*[=:]\s*[\"']?(?:0|1|false|true)\b"
            r"[^\n]{0,160}?(?:\bfine\b|\bcorrect\b|\bnormal\b|recover|goes back|back to|gives? back|restores?|\bworks?\b|\bfix(?:es|ed)?\b|\b0\.[5-9]\d)"
            r"|(?:\bfix(?:es|ed)?\b|goes away|recovers?|\bfine\b|\bcorrect\b)[^\n]{0,80}?"
            r"(?:use_deep_?gemm\w*|enable_jit_deep_?gemm|disable_deep_?gemm\w*)\s*[=:]", regex.I),
        r"deep[_ -]?gemm|dg_enabled",
    ),
    _flag(
        # a CUTLASS or CuTe kernel (not FlashInfer's CUTLASS MoE) run or compiled with an FP8 dtype ("cute.compile() with
        # dtype=Float8E4M3FN"): what a crash that prints no message is read with
        "cutlass-fp8-named", "cutlass_fp8_named",
        ("cutlass", "cute.", "cute dsl", "cute_dsl", "cute-dsl"),
        rxcache.compile(r"(?:(?<!flashinfer[ _-])cutlass|\bcute(?:\.|[ _-]dsl))[^\n]{0,160}?(?:float8_?e[45]m[23]|\bfp8\b|\bf8\b)"
                        r"|(?:float8_?e[45]m[23]|\bfp8\b)[^\n]{0,160}?(?:(?<!flashinfer[ _-])cutlass|\bcute(?:\.|[ _-]dsl))", regex.I),
        r"cutlass|cute\.|cute[ _-]dsl",
    ),
    _flag(
        # TensorRT-LLM's FP8 context FMHA switched on ("--use_fp8_context_fmha enable", "Set use_fp8_context_fmha to
        # True.", "use_fp8_context_fmha=True"): what an attention kernel's arch assert that names no dtype is read with
        "fp8-fmha-enabled", "fp8_attention_named",
        ("fp8_context_fmha", "fp8_fmha"),
        rxcache.compile(r"\b(?:use|enable)_fp8_(?:context_)?fmha\b(?:\s+(?:enable|true|1)\b|\s*[=:]\s*[\"']?(?:true|1|enable)\b"
                        r"| to True\b)", regex.I),
        r"(use|enable)_fp8_(context_)?fmha",
    ),
    _flag(
        # vLLM's compiled ops failed to load ("Failed to import from vllm._C with ImportError('.../_C.abi3.so: undefined
        # symbol ...')", a torch upgraded under it): every op it registers is missing after it, whatever the GPU
        "vllm-ops-unloaded", "vllm_ops_unloaded",
        ("vllm._C", "_C.abi3.so"),
        rxcache.compile(r"Failed to import from vllm\._C\b|vllm/_C\.abi3\.so: (?:undefined symbol|cannot open)", regex.I),
        r"Failed to import from vllm\._C|vllm/_C\.abi3\.so: (?:undefined symbol|cannot open)",
    ),
    _flag(
        # transformers' fine-grained FP8 path or its hub kernel named ("kernels-community/finegrained-fp8",
        # FP8Linear): what a failure that names no component is read with
        "transformers-fp8-named", "transformers_fp8_named",
        ("finegrained", "fp8linear"),
        rxcache.compile(r"finegrained[_-]fp8|\bFP8Linear\b|FineGrainedFP8", regex.I),
        r"finegrained[_-]?fp8|fp8linear",
    ),
    Extractor(
        "sgl-deepgemm-version",
        ("sgl-deep-gemm", "sgl_deep_gemm"),
        rxcache.compile(r"sgl[-_]deep[-_]gemm(?:==|\s+|-)" + _V),
        _one("sgl_deep_gemm"),
        trigger=r"sgl[-_]deep[-_]gemm(?:==|[ \t]+|-)v?[0-9]",
    ),
    Extractor(
        "flashinfer-version",
        ("flashinfer",),
        rxcache.compile(r"(?<![\w/.-])flashinfer(?:-python)?(?:==|\s+version:?\s*|\s+(?=v?\d))" + _V),
        _one("flashinfer"),
        trigger=r"flashinfer(?:-python)?(?:==|[ \t]+version|[ \t]+v?[0-9])",
    ),
    Extractor(
        "cuda-version",
        ("CUDA Version", "CUDA version", "CUDA runtime", "cuda_", "release "),
        rxcache.compile(
            r"(?:CUDA Version:?\s*|CUDA version:?\s*|CUDA runtime (?:version )?|Cuda compilation tools, release\s*)(?P<v>\d{2}\.\d)"
        ),
        _one("cuda"),
        trigger=r"CUDA [Vv]ersion|CUDA runtime|Cuda compilation tools",
    ),
    Extractor(
        "driver-version",
        ("Driver Version", "driver version"),
        rxcache.compile(r"[Dd]river [Vv]ersion:?\s*(?P<v>\d{3}\.\d+(?:\.\d+)?)"),
        _one("driver"),
        trigger=r"[Dd]river [Vv]ersion",
    ),
    # environment variable settings (not advice such as "set VLLM_USE_DEEP_GEMM=0 to ...")
    Extractor(
        "env-setting",
        tuple(DISPATCH_ENV_VARS),
        rxcache.compile(
            r"(?:(?<!(?<!\b(?i:" + _FIRST_PERSON + r")\s)(?:[Ss]et|[Uu]se|[Tt]ry|[Ss]etting|globally,)\s`?)"
            # ("set X=0 on our B200 box": the reporter's shorthand for what they set)
            r"|(?=[^\n.;]{0,80}\b(?i:our|my)\b))"
            r"(?<![\w])(?P<name>" + _ENV_ALT + r")\s*(?:=|:\s)\s*['\"]?(?P<value>[\w./:-]*)"
        ),
        # (a sentence's colon or full stop after the value is not part of it: "with VLLM_USE_DEEP_GEMM=0: fine")
        lambda m: [(m.group("name"), v)] if (v := m.group("value").rstrip(":.")) else [],
        trigger="(?:" + "|".join(sorted(DISPATCH_ENV_VARS, key=len, reverse=True)) + r")[ \t]*(?:=|:[ \t])",
    ),
    # the model: "Loading model: X", vLLM's "Starting to load model X...", "vllm serve X" (not "Loading model from scratch")
    Extractor(
        "model",
        ("model=", "--model", "model_path", "pretrained=", "Loading model", "load model", "vllm serve", "trtllm-serve", "lmdeploy serve"),
        rxcache.compile(
            r"(?:\bmodel='|\bmodel=\"|--model(?:-path)?[= ]+|\bmodel_path[=:]\s*['\"]?|pretrained=|(?:\bvllm serve|\btrtllm-serve|\blmdeploy serve api_server)\s+(?!-)|(?:Loading|Starting to load) model:?\s*"
            r"(?!(?:from|weights?|in|on|with|to|took|using|config|checkpoints?|shards?|files?|state|and|for|the|a)\b))(?P<v>[\w./~-]+[\w-])"
        ),
        _one("model"),
        trigger=r"""\bmodel='|\bmodel="|--model|\bmodel_path[=:]|pretrained=|Loading model|Starting to load model|\bvllm serve[ \t]|\btrtllm-serve[ \t]|\blmdeploy serve api_server[ \t]""",
    ),
    # the method in use; "quantization=None" (vLLM's engine config of an unquantized model) is no method
    Extractor(
        "quantization",
        ("quantization", "quant_method"),
        rxcache.compile(r"(?:\bquantization[=:]\s*['\"]?|--quantization\s+|quant_method['\"]?\s*[:=]\s*(?:<QuantizationMethod\.\w+:\s*)?['\"]?)"
                      r"(?!(?:None|none|null|NULL|False|false)\b)(?P<v>[\w-]+)(?![\w-]|\s*[.(])"),  # (not code: "= quant_config.get_...")
        _one("quantization"),
        trigger=r"\bquantization[=:]|--quantization[ \t]|quant_method",
    ),
    # the compressed-tensors scheme vLLM picked a kernel for ("Using CutlassScaledMMLinearKernel for CompressedTensorsW8A8Int8",
    # older releases: "Using CompressedTensorsW8A8Int8 scheme for model.layers.*")
    Extractor("quant-scheme", ("CompressedTensorsW",),
              rxcache.compile(r"\b(?:for|[Uu]sing) CompressedTensors(?P<v>W(?:8A8|8A16|4A8|4A16|NA16)\w*)\b"),
              _one("quant_scheme"), trigger=r"(?:for|[Uu]sing) CompressedTensorsW", any_clause=True),
    # the 4-bit method vLLM picked kernels for, as its class names it ("Using FlashInfer CUTLASS kernels for
    # ModelOptNvFp4FusedMoE", "... for Mxfp4MoEMethod"): the checkpoint's format where the engine config is not shown
    Extractor("quant-method-fp4", ("NvFp4", "Mxfp4", "MxFp4"),
              rxcache.compile(r"\b(?:for|[Uu]sing) (?:ModelOpt(?P<nv>NvFp4)\w*|(?:Mxfp4|MxFp4)\w*(?:Method|MoE)\w*)\b"),
              lambda m: [("quantization", "modelopt_fp4" if m.group("nv") else "mxfp4")],
              trigger=r"(?:for|[Uu]sing) (?:ModelOptNvFp4|Mxfp4|MxFp4)", any_clause=True),
    # a hub checkpoint whose name says FP8 ("neuralmagic/Meta-Llama-3.1-70B-Instruct-FP8-dynamic", "Qwen/Qwen3-30B-A3B-FP8"),
    # named anywhere (a write-up's prose, a download line): the checkpoint's format where nothing else states one
    # (``finish``), as the model argument's name says it
    Extractor(
        "fp8-checkpoint-named",
        ("-FP8", "-fp8", "-Fp8"),
        # (or a bare model name with its size: "Qwen3-30B-A3B-FP8, vllm 0.10.0")
        rxcache.compile(r"(?<![\w./-])(?:[A-Za-z0-9][\w.-]{1,38}/[\w.-]{1,80}?|[A-Za-z][\w.]*(?:-[\w.]+)*?-\d+(?:\.\d+)?[BbMm](?:-[\w.]+)*?)"
                        r"-(?i:fp8)(?:[-_.][\w.-]*)?(?![\w/-]|\.py\b)"),
        lambda m: [(FP8_CHECKPOINT, m.group())],
        trigger=r"-[Ff][Pp]8",
    ),
    # a write-up's words for a block-FP8 checkpoint ("our compressed-tensors FP8_BLOCK export", "a block FP8 checkpoint",
    # "the FP8 weights"): the checkpoint's format where nothing else states one, as a hub name with -FP8 says it
    Extractor(
        "fp8-checkpoint-said",
        ("fp8",),
        rxcache.compile(r"(?i)\b(?:fp8[_-](?:block|dynamic)|block[- ]?(?:wise[- ])?(?:scaled[- ])?fp8|"
                        r"fp8 (?:block[- ]?(?:wise|scaled)?[- ])?(?:checkpoint|model|export|weights|quantized model)|FineGrainedFP8Config)\b"),
        lambda m: [(FP8_CHECKPOINT, m.group())],
        trigger=r"[Ff][Pp]8[_ -](?:[Bb][Ll][Oo][Cc][Kk]|[Dd][Yy][Nn][Aa][Mm][Ii][Cc]|[Cc]heckpoint|[Mm]odel|[Ee]xport|[Ww]eights|quantized model)"
                r"|[Bb]lock[- ]?(?:wise[- ])?(?:scaled[- ])?[Ff][Pp]8|FineGrainedFP8Config",
        ignore_case=True,
    ),
    # a mixture-of-experts architecture named in the log ("Resolved architecture: Qwen3MoeForCausalLM",
    # "loaded FP8: MixtralForCausalLM")
    Extractor(
        "moe-architecture",
        ("ForCausalLM", "ForConditionalGeneration"),
        rxcache.compile(r"\b\w*(?:Moe|MoE|Mixtral|DeepseekV[23]|GptOss)\w*For(?:CausalLM|ConditionalGeneration)\b"),
        lambda m: [("moe", "true")],
        trigger=r"(?:Moe|MoE|Mixtral|DeepseekV[23]|GptOss)[A-Za-z0-9_]*For(?:CausalLM|ConditionalGeneration)",
    ),
    # vLLM's tuned-config file names: "configs/E=128,N=768,device_name=NVIDIA_B200,dtype=fp8_w8a8,
    # block_shape=[128,128].json" (fused MoE) and "N=4096,K=4096,device_name=...,block_shape=[128,128]"
    # (block-FP8 linear); the GPU in device_name is read with the other GPU names
    Extractor(
        "tuning-config-moe",
        ("device_name=",),
        rxcache.compile(r"\bE=\d+,N=\d+,device_name="),
        lambda m: [("moe", "true")],
        trigger=r"E=[0-9]+,N=[0-9]+,device_name=",
    ),
    Extractor(
        "tuning-config-block",
        ("block_shape=",),
        rxcache.compile(r"device_name=[\w-]+,dtype=fp8\w*,block_shape=\[(?P<n>\d+),\s*(?P<k>\d+)\]"),
        lambda m: [("weight_block_size", f"{m.group('n')},{m.group('k')}")],
        trigger=r"block_shape=\[",
    ),
    Extractor(
        "experts-implementation",
        ("experts_implementation",),
        rxcache.compile(r"experts_implementation\s*=\s*['\"](?P<v>\w+)"),
        _one("experts_implementation"),
        trigger=r"experts_implementation[ \t]*=",
    ),
    Extractor(
        "scale-dtype",
        ("scale_inv", "weight_scale", "scales are plain float32", "float8_e8m0fnu"),
        rxcache.compile(
            r"(?:_scale(?:_inv)?\S*\s+torch\.(?P<a>float32|float8_e8m0fnu)|these scales are plain (?P<b>float32))"
        ),
        lambda m: [("scale_dtype", m.group("a") or m.group("b"))],
        trigger=r"torch\.(?:float32|float8_e8m0fnu)|scales are plain float32",
    ),
    Extractor(
        "scale-fmt",
        ("scale_fmt",),
        rxcache.compile(r"scale_fmt['\"]?\s*[=:]\s*['\"]?(?P<v>ue8m0|float)\b"),
        _one("scale_fmt"),
        trigger=r"""scale_fmt['"]?[ \t]*[=:]""",
    ),
]
