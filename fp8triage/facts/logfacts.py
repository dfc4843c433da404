"""Facts read from the log itself, so conditions can be judged without the live machine.

GPU names (mapped to a compute capability), explicit capability mentions, versions printed
by vLLM / torch / transformers / DeepGEMM / SGLang, environment variable settings, the model
name, the quantization method, and which serving stack wrote the log. Every fact records the
line it came from. Extractors are ordered, named data; each has literal anchors so that the
prefilter finds its lines.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

import regex

from ..common import rxcache
from .vocabulary import DISPATCH_ENV_VARS, normalise_capability
from . import gpunames, pastegpus
from .pastegpus import GPU_LABEL
from .clauses import FIRST_PERSON as _FIRST_PERSON, advice as _advice
from .gpunames import gpu_facts
from ..model import Fact, Line

# (not the version an upgrade left: "bumped from vllm 0.11.x to 0.24.0")
_V = r"v?(?P<v>\d+\.\d+(?:\.\d+)?(?:[.+-]?(?:rc|dev|post|a|b)\d*)*(?:\+[\w.]+)?)(?![\w.+-]*\s+(?:to|->|→)\s)"


FP8_CHECKPOINT = "fp8-checkpoint"  # (a name kept, not a fact: the quantization where nothing else states it)
PROSE_GPU = "prose-gpu"  # (a GPU a sentence names, "failing:B200": the GPU where no line states the machine's)
_KEPT = (FP8_CHECKPOINT, PROSE_GPU, GPU_LABEL)
# a write-up's sentences stand around the lines it pastes; deep in a server log a GPU named in a message is no
# reporter's sentence
PROSE_LINES = 300


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
        "not-current", "not_current", ("works now", "now works", "working now", "fixed", "resolved", "solved", "no longer", "not tried", "haven't tried", "just asking", "gone", "went away", "repro", "this pr"),
        rxcache.compile(
            r"(?:\b(?:works now|now works|is working now|(?:issue|bug|problem|error|it|this|that|this one|that one) "
            r"(?:is|was|got|has been) (?:now )?(?:fixed|resolved|solved|gone)|it'?s (?:now )?(?:fixed|resolved|gone)|fixed (?:now|it)"
            r"|(?:error|crash|issue|problem|it|this|assert(?:ion)?)s? (?:went|goes|has gone) away|can no longer repro(?:duce)?"
            r"|(?:can(?:no|')?t|cannot|could(?:n'?t| not)) repro(?:duce)? (?:it |this )?any ?more|no longer (?:happens|fails|crashes"
            r"|reproduces|occurs)|(?:have not|haven't) (?:tried|run|tested) it|just asking|this PR (?:fixes|adds|resolves|addresses"
            r"|avoids|prevents|makes|changes|requantizes|builds|compiles|skips|guards))\b"
            # (not a workaround that got past one failure to the next: "The Unknown SF error is gone, but now it dies in ...")
            r"(?!,?\s*but\s+(?:now|then|it|the|when|after|with)\b)"
            # a sentence that opens with the fix ("Resolved by setting X", "So resolved by ..."), unless the line says it is not over
            r"|(?:^|[.!]\s+|\bso\s+)(?:resolved|fixed|solved)(?:\b(?: by| with| after| via| in)\b|,))"
            r"(?![^\n]*\b(?:still|again|not (?:fixed|resolved)|did(?:n'?t| not) (?:help|fix|work))\b)", regex.I | regex.M),
        r"works now|now works|working now|(?:is|was|got|been|it'?s) (?:now )?(?:fixed|resolved|solved|gone)|fixed (?:now|it)|(?:resolved|fixed"
        r"|solved)(?: by| with| after| via| in|,)|no longer|not tried|haven't tried|not run|not tested|just asking|(?:gone|went|goes) away|\brepro|this PR",
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
    # the compressed-tensors scheme vLLM picked a kernel for ("Using CutlassScaledMMLinearKernel for CompressedTensorsW8A8Int8")
    Extractor("quant-scheme", ("CompressedTensorsW",), rxcache.compile(r"\bfor CompressedTensors(?P<v>W(?:8A8|8A16|4A8|4A16|NA16)\w*)\b"),
              _one("quant_scheme"), trigger=r"for CompressedTensorsW", any_clause=True),
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

# Which serving stack wrote the log: paths and banners.
STACK_MARKERS: list[tuple[str, regex.Pattern]] = [
    ("vllm", rxcache.compile(r"\bvllm[/.]|vLLM|\(VllmWorker|\(EngineCore")),
    ("sglang", rxcache.compile(r"\bsglang[/.]|SGLang|sgl_kernel|sgl-workspace")),
    # (not FlashInfer's vendored copy of TensorRT-LLM's kernels: ".../flashinfer/data/csrc/nv_internal/tensorrt_llm/")
    ("tensorrt-llm", rxcache.compile(r"(?<!nv_internal/)tensorrt_llm|TensorRT-LLM|trtllm-build")),
    ("lmdeploy", rxcache.compile(r"\blmdeploy\b")),
    ("transformers", rxcache.compile(r"\btransformers/(?:modeling|integrations|quantizers|models)|from_pretrained")),
]


# What the prefilter searches for to find the lines log facts can come from (class FACT).
# Facts are not events: these lines are read for facts and nothing else, so a trigger must be
# narrow (a version banner, not every line that says "torch"). Stack markers: the worker marker
# "(VllmWorker" / "(EngineCore" counts only where it is not the line's prefix (``normalise``
# strips that before the markers look). Stack markers (class STACK: once vLLM, the stack that ranks first, has
# been named, these lines are not decoded any more).
# vLLM's process names ("(EngineCore_DP0 pid=9)", "(Worker_TP2 pid=7)"), a line's worker once ``normalise`` strips them
_VLLM_PROCESS_NAMES = r"(?:VllmWorker|EngineCore|Worker_[TPDE]P|APIServer|RayWorkerWrapper)"
STACK_PATTERNS = (
    r"\bvllm[/.]|vLLM|\bsglang[/.]|SGLang|sgl_kernel|sgl-workspace|tensorrt_llm|TensorRT-LLM|trtllm-build|\blmdeploy\b"
    r"|transformers/(?:modeling|integrations|quantizers|models)|from_pretrained",
    r"[^ \t\"\n]\((?:VllmWorker|EngineCore)",  # the marker after the line's start, i.e. not the worker prefix
    r"^\((?:VllmWorker|EngineCore)[^ )\n]*\)",  # "(EngineCore_DP0)": a prefix that normalise keeps
    r"^\(" + _VLLM_PROCESS_NAMES,  # one it strips (``_VLLM_PROCESS``)
)
_VLLM_PROCESS = rxcache.compile(_VLLM_PROCESS_NAMES)


def triggers() -> list[tuple[str, bool]]:
    """(regular expression, ignore case) pairs that find every line a log fact can come from
    (Hyperscan and Python ``re`` read them alike: literals, classes, alternation,
    ``[^\\n]*``, ``\\b``, ``^``)."""
    out = [(ex.trigger, ex.ignore_case) for ex in EXTRACTORS if ex.trigger]
    out += [(p, False) for p in gpunames.PREFILTER_PATTERNS]
    out.append((gpunames.PROSE_TRIGGER, False))
    return out


# values of --model that name a backend, not a model (lm_eval --model vllm)
_NOT_MODELS = {"vllm", "hf", "sglang", "openai", "auto", "local-completions", "local-chat-completions", "dummy"}


MEMO_SIZE = 4096  # distinct fact-bearing texts remembered per source


class LogFacts:
    """Collects facts from lines; the first value seen for a name wins, later ones are kept
    as alternatives so a conflict can be shown."""

    def __init__(self) -> None:
        # (name, value, line, note): the source text is made when the facts are read, so a
        # parallel scan can renumber the lines first
        self.raw: list[tuple[str, str, Line, str]] = []
        self._seen: set[tuple[str, str]] = set()
        self._labels = 0  # GPU_LABEL records kept
        self.stack_votes: dict[str, tuple[int, Line]] = {}
        # text -> what it yields ((name, value, note) in order, the stacks it names, and the keys
        # of ``_seen`` its facts would add): servers repeat the lines that carry facts (a config
        # path with the GPU name at every start-up), so each text is read once
        self._memo: dict[str, tuple[tuple[tuple[str, str, str], ...], tuple[str, ...], tuple]] = {}

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_memo": {}}  # a parallel worker's result travels without it

    @property
    def facts(self) -> list[Fact]:
        return [Fact(name, value, f"log {ln.source}:{ln.lineno}" + (f" ({note})" if note else ""), "log")
                for name, value, ln, note in self.raw if name not in _KEPT]

    def merge(self, other: "LogFacts") -> None:
        """Add the facts of a scan of later lines (the first value of a fact still wins)."""
        for rec in other.raw:
            if rec[0] == GPU_LABEL:
                self.raw.append(rec)
                continue
            key = (rec[0], rec[1].lower())
            if key not in self._seen:
                self._seen.add(key)
                self.raw.append(rec)
        for stack, (n, first) in other.stack_votes.items():
            m, mine_first = self.stack_votes.get(stack, (0, first))
            self.stack_votes[stack] = (m + n, mine_first)

    def _add(self, name: str, value: str, line: Line, note: str = "") -> None:
        if name == GPU_LABEL:  # every one counts (where each part of a comparison starts), the first few
            if line.lineno <= PROSE_LINES and self._labels < pastegpus.LABELS_MAX:
                self._labels += 1
                self.raw.append((name, value, line, note))
            return
        value = value.strip().strip("'\"`")
        if not value or (name, value.lower()) in self._seen:
            return
        if name == "model" and value.lower() in _NOT_MODELS:
            return
        self._seen.add((name, value.lower()))
        self.raw.append((name, value, line, note))


    def feed(self, line: Line) -> None:
        self.feed_text(line.text, line)

    def feed_text(self, text: str, line: Line, redactor=None) -> None:
        """The facts of ``text`` (found at ``line``: its source and number). ``redactor``: the
        text is not redacted yet; it is applied before a text not seen before is read."""
        if len(text) > 4000:
            text = text[:4000]
        found = self._memo.get(text)
        if found is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            clean = redactor(text) if redactor is not None else text
            facts = tuple(self._extract(clean))
            found = self._memo[text] = (facts, tuple(stack for stack, rx in STACK_MARKERS if rx.search(clean)),
                                        tuple(k for k in map(_seen_key, facts) if k is not None))
        facts, stacks, _keys = found
        for name, value, note in facts:
            self._add(name, value, line, note)
        for stack in stacks:
            self._vote(stack, line)
        self._worker(line)

    def _worker(self, line: Line) -> None:
        if line.worker and "vllm" not in self.stack_votes and _VLLM_PROCESS.match(line.worker):
            self._vote("vllm", line)

    def repeat(self, text: str) -> bool:
        """Feed ``text`` if it was read before and all it yields is recorded already (a line that a
        restart loop repeats with new timestamps and pids): then it only counts for the stacks it
        names, and a lookup is all it costs. False: nothing was done (``feed_text`` reads it)."""
        found = self._memo.get(text[:4000] if len(text) > 4000 else text)
        if found is None:
            return False
        facts, stacks, keys = found
        seen, votes = self._seen, self.stack_votes
        if any(k not in seen for k in keys) or any(st not in votes for st in stacks) or any(f[0] == GPU_LABEL for f in facts):
            return False
        for stack in stacks:
            n, first = votes[stack]
            votes[stack] = (n + 1, first)
        return True

    def _extract(self, text: str):
        """(name, value, note) of every fact in ``text``, in order."""
        for ex in EXTRACTORS:
            if not _has_anchor(text, ex):
                continue
            for m in ex.pattern.finditer(text):
                if not ex.any_clause and _advice(text, m.start()):
                    continue  # "Use a checkpoint quantized with scale_fmt='ue8m0'" is no fact of this machine
                for name, value in ex.make(m):
                    if value:
                        yield name, value, ""
        yield from gpu_facts(text)
        for name, role in gpunames.prose_gpus(text):
            yield PROSE_GPU, f"{role}:{name}", ""
        part = pastegpus.label(text)
        if part is not None:
            yield GPU_LABEL, part, ""

    @property
    def stack_settled(self) -> bool:
        """No later line can change the stack: the first-ranked stack has been named."""
        return STACK_MARKERS[0][0] in self.stack_votes

    def feed_stack(self, line: Line) -> None:
        """Only the stack markers (a line with no other fact trigger)."""
        self._stack(line.text[:4000], line)

    def _stack(self, text: str, line: Line) -> None:
        for stack, rx in STACK_MARKERS:
            if rx.search(text):
                self._vote(stack, line)
        self._worker(line)

    def _vote(self, stack: str, line: Line) -> None:
        n, first = self.stack_votes.get(stack, (0, line))
        self.stack_votes[stack] = (n + 1, first)

    def finish(self) -> list[Fact]:
        """All facts, plus the stack and what the model name implies."""
        out = list(self.facts)
        if self.stack_votes:
            # the serving framework wins over the libraries it loads (vLLM imports transformers)
            order = [s for s, _ in STACK_MARKERS]
            best = min(self.stack_votes, key=order.index)
            n, first = self.stack_votes[best]
            out.append(Fact("stack", best, f"log {first.source}:{first.lineno} (names {best})", "log"))
        names = {f.name for f in out}
        model = next((f for f in out if f.name == "model"), None)
        if model is not None:
            m = model.value
            if "quantization" not in names and regex.search(r"(?i)fp8", m):
                out.append(Fact("quantization", "fp8", f"{model.source} (model name says FP8)", "log"))
            if "moe" not in names and regex.search(r"(?i)\bA\d+(?:\.\d+)?B\b|moe|mixtral|deepseek-(?:v[234]|r1)|-A\d+B", m):
                out.append(Fact("moe", "true", f"{model.source} (model name names a mixture of experts)", "log"))
        said = [(v, ln) for n, v, ln, _ in self.raw if n == PROSE_GPU and ln.lineno <= PROSE_LINES]
        out += pastegpus.prose_gpu(said, out)
        parts = pastegpus.sections([(v, ln) for n, v, ln, _ in self.raw if n == GPU_LABEL], PROSE_LINES)
        if parts is not None:
            out.append(parts)
        named = next(((v, ln) for n, v, ln, _ in self.raw if n == FP8_CHECKPOINT), None)
        if named is not None and not any(f.name == "quantization" for f in out):
            out.append(Fact("quantization", "fp8", f"log {named[1].source}:{named[1].lineno} (names an FP8 checkpoint: {named[0]})", "log"))
        elif named is not None and "/" in named[0] and not any(f.name == "model" for f in out):
            # a method that names no format ("compressed-tensors") and a hub name that does: the model's name
            out.append(Fact("model", named[0], f"log {named[1].source}:{named[1].lineno} (names an FP8 checkpoint)", "log"))
        return out


def _seen_key(fact: tuple[str, str, str]) -> tuple[str, str] | None:
    """The key ``LogFacts._add`` records for a fact it keeps (None: one it never keeps)."""
    name, value, _note = fact
    value = value.strip().strip("'\"`")
    if not value or name == GPU_LABEL or (name == "model" and value.lower() in _NOT_MODELS):
        return None
    return name, value.lower()


def _has_anchor(text: str, ex: Extractor) -> bool:
    if ex.ignore_case:
        low = text.lower()
        return any(a.lower() in low for a in ex.anchors)
    return any(a in text for a in ex.anchors)


def _facts_from_lines(lines: Iterable[Line]) -> list[Fact]:
    lf = LogFacts()
    for ln in lines:
        lf.feed(ln)
    return lf.finish()
