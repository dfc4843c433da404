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

from .facts import DISPATCH_ENV_VARS, normalise_capability
from .gpus import capability_for
from .model import Fact, Line

_V = r"v?(?P<v>\d+\.\d+(?:\.\d+)?(?:[.+-]?(?:rc|dev|post|a|b)\d*)*(?:\+[\w.]+)?)"


@dataclass(frozen=True)
class Extractor:
    name: str
    anchors: tuple[str, ...]
    pattern: regex.Pattern
    make: Callable[[regex.Match], list[tuple[str, str]]]  # -> [(fact name, value)]
    ignore_case: bool = False


def _one(fact: str, group: str = "v") -> Callable[[regex.Match], list[tuple[str, str]]]:
    return lambda m: [(fact, m.group(group))]


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
        regex.compile(
            r"(?:compute|device|CUDA|current|gpu|GPU)[ _]capabilit(?:y|ies)[\s:=]*(?:is\s*)?[`'(]?\s*(?:(?P<major>\d{1,2})\s*[.,]\s*(?P<minor>\d)\b|(?P<cap>sm_?\d{2,3}|\d{2,3})\b)",
            regex.I,
        ),
        _cap,
    ),
    Extractor(
        "capability-actual",
        ("actual = ", "Current capability", "capability is"),
        regex.compile(r"(?:actual = `?|Current capability:\s*|capability is\s*)(?P<cap>\d{1,2}\.\d|\d{2,3})\b"),
        _cap,
    ),
    Extractor(
        "capability-sm",
        ("sm_", "SM1", "SM8", "SM9", "sm1", "sm8", "sm9"),
        regex.compile(
            r"(?:current device is|with CUDA capability|on \.target|target|device is|running on)\s*'?(?P<cap>(?:sm|SM)_?\d{2,3})[af]?\b"
        ),
        _cap,
    ),
    Extractor(
        "capability-tuple",
        ("get_device_capability", "(9, 0)", "(10, 0)", "(12, 0)", "(12, 1)", "(10, 3)", "(8, 9)", "(8, 0)", "(8, 6)"),
        regex.compile(r"(?:capability|NVIDIA [\w ]+?)\s*[:=]?\s*\((?P<major>\d{1,2}), (?P<minor>\d)\)"),
        _cap,
    ),
    # versions
    Extractor(
        "vllm-version",
        ("vLLM", "vllm", "LLM engine"),
        regex.compile(
            r"(?:vLLM (?:API server )?version:?\s*|Initializing a V\d LLM engine \(|\bvllm(?:==|\s+version:?\s*|\s+(?=v?\d)))" + _V
        ),
        _one("vllm"),
    ),
    Extractor(
        "sglang-version",
        ("sglang", "SGLang"),
        regex.compile(r"\b(?:sglang|SGLang)(?:==|\s+version:?\s*|\s+(?=v?\d))" + _V),
        _one("sglang"),
    ),
    Extractor(
        "torch-version",
        ("torch", "PyTorch"),
        regex.compile(r"(?<![\w/.-])(?:torch(?:==|\s+version:?\s*|\s+(?=v?\d))|PyTorch version:\s*)" + _V),
        _one("torch"),
    ),
    Extractor(
        "transformers-version",
        ("transformers",),
        regex.compile(r"(?<![\w/.-])(?:`?transformers`?(?:==|\s+version:?\s*|\s+(?=v?\d)))" + _V),
        _one("transformers"),
    ),
    Extractor(
        "triton-version",
        ("triton",),
        regex.compile(r"(?<![\w/.-])triton(?:==|\s+version:?\s*|\s+(?=v?\d))" + _V),
        _one("triton"),
    ),
    Extractor(
        "deepgemm-version",
        ("deep_gemm", "deep-gemm", "DeepGEMM", "deepgemm"),
        regex.compile(r"(?<![\w/.-])(?<!sgl-)(?:deep[_-]?gemm|DeepGEMM)(?:==|-(?=\d)|\s+version:?\s*|\s+(?=v?\d+\.\d))" + _V, regex.I),
        _one("deep_gemm"),
    ),
    Extractor(
        "sgl-deepgemm-version",
        ("sgl-deep-gemm", "sgl_deep_gemm"),
        regex.compile(r"sgl[-_]deep[-_]gemm(?:==|\s+|-)" + _V),
        _one("sgl_deep_gemm"),
    ),
    Extractor(
        "flashinfer-version",
        ("flashinfer",),
        regex.compile(r"(?<![\w/.-])flashinfer(?:-python)?(?:==|\s+version:?\s*|\s+(?=v?\d))" + _V),
        _one("flashinfer"),
    ),
    Extractor(
        "cuda-version",
        ("CUDA Version", "CUDA version", "CUDA runtime", "cuda_", "release "),
        regex.compile(
            r"(?:CUDA Version:?\s*|CUDA version:?\s*|CUDA runtime (?:version )?|Cuda compilation tools, release\s*)(?P<v>\d{2}\.\d)"
        ),
        _one("cuda"),
    ),
    Extractor(
        "driver-version",
        ("Driver Version", "driver version"),
        regex.compile(r"[Dd]river [Vv]ersion:?\s*(?P<v>\d{3}\.\d+(?:\.\d+)?)"),
        _one("driver"),
    ),
    # environment variable settings (not advice such as "set VLLM_USE_DEEP_GEMM=0 to ...")
    Extractor(
        "env-setting",
        tuple(DISPATCH_ENV_VARS),
        regex.compile(
            r"(?<!(?:[Ss]et|[Uu]se|[Tt]ry|[Ss]etting|globally,)\s`?)(?<![\w])(?P<name>" + _ENV_ALT + r")\s*(?:=|:\s)\s*['\"]?(?P<value>[\w./:-]*)"
        ),
        lambda m: [(m.group("name"), m.group("value"))] if m.group("value") else [],
    ),
    # the model
    Extractor(
        "model",
        ("model=", "--model", "model_path", "pretrained=", "Loading model"),
        regex.compile(
            r"(?:\bmodel='|\bmodel=\"|--model(?:-path)?[= ]+|\bmodel_path[=:]\s*['\"]?|pretrained=|Loading model:?\s*)(?P<v>[\w./~-]+[\w-])"
        ),
        _one("model"),
    ),
    Extractor(
        "quantization",
        ("quantization", "quant_method"),
        regex.compile(r"(?:\bquantization[=:]\s*['\"]?|--quantization\s+|quant_method['\"]?\s*[:=]\s*['\"]?)(?P<v>[\w-]+)"),
        _one("quantization"),
    ),
    Extractor(
        "experts-implementation",
        ("experts_implementation",),
        regex.compile(r"experts_implementation\s*=\s*['\"](?P<v>\w+)"),
        _one("experts_implementation"),
    ),
    Extractor(
        "scale-dtype",
        ("scale_inv", "weight_scale", "scales are plain float32", "float8_e8m0fnu"),
        regex.compile(
            r"(?:_scale(?:_inv)?\S*\s+torch\.(?P<a>float32|float8_e8m0fnu)|these scales are plain (?P<b>float32))"
        ),
        lambda m: [("scale_dtype", m.group("a") or m.group("b"))],
    ),
    Extractor(
        "scale-fmt",
        ("scale_fmt",),
        regex.compile(r"scale_fmt['\"]?\s*[=:]\s*['\"]?(?P<v>ue8m0|float)\b"),
        _one("scale_fmt"),
    ),
]

# GPU product names: only on lines that say NVIDIA / GeForce / Tesla / GPU, so that "A2" or
# "L4" in unrelated text is not taken for a GPU.
GPU_ANCHORS = ("NVIDIA", "GeForce", "Tesla", "Quadro", "GPU", "DGX")
_GPU_CONTEXT = regex.compile(r"NVIDIA|GeForce|Tesla|Quadro|\bGPU|DGX")
_GPU_NAME = regex.compile(
    r"(?P<name>(?:NVIDIA\s+)?(?:GeForce\s+|Tesla\s+|Quadro\s+)?"
    r"(?:RTX\s*PRO\s*\d{4}(?:\s+Blackwell)?(?:\s+(?:Workstation|Server|Max-Q)(?:\s+Edition)?)?"
    r"|RTX\s*\d{4}(?:\s*Ti|\s*SUPER|\s*D)?(?:\s+Ada(?:\s+Generation)?)?|RTX\s*A\d{4}"
    r"|GB\d{2,3}|GH200|[BHA]\d{3}|H20|L40S?|L20|L4|A[1-4]0G?|A16|A2|T4|V100|P100|Jetson\s+T\d000|DGX\s*Spark))"
    r"(?![\w])"
)

# Which serving stack wrote the log: paths and banners.
STACK_MARKERS: list[tuple[str, regex.Pattern]] = [
    ("vllm", regex.compile(r"\bvllm[/.]|vLLM|\(VllmWorker|\(EngineCore")),
    ("sglang", regex.compile(r"\bsglang[/.]|SGLang|sgl_kernel|sgl-workspace")),
    ("tensorrt-llm", regex.compile(r"tensorrt_llm|TensorRT-LLM|trtllm-build")),
    ("lmdeploy", regex.compile(r"\blmdeploy\b")),
    ("transformers", regex.compile(r"\btransformers/(?:modeling|integrations|quantizers|models)|from_pretrained")),
]
STACK_ANCHORS = ("vllm", "vLLM", "VllmWorker", "EngineCore", "sglang", "SGLang", "sgl_kernel", "sgl-workspace",
                 "tensorrt_llm", "TensorRT-LLM", "trtllm", "lmdeploy", "transformers/", "from_pretrained")


# Anchors that fire on ordinary lines of a busy server log ("GPU KV cache usage" in every vLLM
# stats line, the "(VllmWorker rank=N pid=P)" / "(EngineCore_DP0 pid=P)" prefix of every worker
# line, which normalise strips before STACK_MARKERS look) are replaced in the prefilter by
# patterns that still find every line these facts can come from (issue 8).
HOT_ANCHORS = ("GPU", "VllmWorker", "EngineCore")
_GPU_NAME_HINT = r"(?:RTX|GB[0-9][0-9]|GH200|[BHA][0-9][0-9][0-9]|H20|L4|L20|A[1-4]0|A16|A2|T4|V100|P100|Jetson|DGX)"
PREFILTER_PATTERNS = (
    r"GPU[^\n]*" + _GPU_NAME_HINT,  # a GPU model name on a line that says GPU
    _GPU_NAME_HINT + r"[^\n]*GPU",
    r"[^\n]\((?:VllmWorker|EngineCore)",  # the marker after the line's start, i.e. not the worker prefix
    r"^\((?:VllmWorker|EngineCore)[^ )\n]*\)",  # "(EngineCore_DP0)": a prefix that normalise keeps
)


# Cheaper stand-ins for the prefilter's Hyperscan pass (a leading "NAME[^\n]*" makes it try
# every short name as a match start): it searches for the hint, then checks the line.
PREFILTER_HINTS = {_GPU_NAME_HINT + r"[^\n]*GPU": _GPU_NAME_HINT}


def patterns() -> list[str]:
    """Regular expressions for the prefilter (literals, classes, ``[^\\n]*``, ``^``: both
    Hyperscan and Python ``re`` read them the same way)."""
    return list(PREFILTER_PATTERNS)


def anchors() -> tuple[list[str], list[str]]:
    """(case-sensitive anchors, case-insensitive anchors) for the prefilter; see ``patterns``."""
    cs: set[str] = (set(GPU_ANCHORS) | set(STACK_ANCHORS)) - set(HOT_ANCHORS)
    ci: set[str] = set()
    for ex in EXTRACTORS:
        (ci if ex.ignore_case else cs).update(ex.anchors)
    return sorted(cs), sorted(ci)


# values of --model that name a backend, not a model (lm_eval --model vllm)
_NOT_MODELS = {"vllm", "hf", "sglang", "openai", "auto", "local-completions", "local-chat-completions", "dummy"}


class LogFacts:
    """Collects facts from lines; the first value seen for a name wins, later ones are kept
    as alternatives so a conflict can be shown."""

    def __init__(self) -> None:
        self.facts: list[Fact] = []
        self._seen: set[tuple[str, str]] = set()
        self.stack_votes: dict[str, tuple[int, Line]] = {}

    def _add(self, name: str, value: str, line: Line, note: str = "") -> None:
        value = value.strip().strip("'\"`")
        if not value or (name, value.lower()) in self._seen:
            return
        if name == "model" and value.lower() in _NOT_MODELS:
            return
        self._seen.add((name, value.lower()))
        src = f"log {line.source}:{line.lineno}" + (f" ({note})" if note else "")
        self.facts.append(Fact(name, value, src, "log"))

    def add_fact(self, name: str, value: str, line: Line, note: str = "") -> None:
        """A fact captured by a signature's named group (?P<fact_NAME>...)."""
        if name == "capability":
            value = normalise_capability(value) or value
        self._add(name, value, line, note)

    def feed(self, line: Line) -> None:
        text = line.text
        if len(text) > 4000:
            text = text[:4000]
        for ex in EXTRACTORS:
            if not _has_anchor(text, ex):
                continue
            for m in ex.pattern.finditer(text):
                if _advice(text, m.start()):
                    continue  # "Use a checkpoint quantized with scale_fmt='ue8m0'" is no fact of this machine
                for name, value in ex.make(m):
                    if value:
                        self._add(name, value, line)
        if any(a in text for a in GPU_ANCHORS) and _GPU_CONTEXT.search(text):
            for m in _GPU_NAME.finditer(text):
                if _advice(text, m.start()):
                    continue
                name = " ".join(m.group("name").split())
                hit = capability_for(name)
                if hit is None:
                    continue
                self._add("gpu", name, line)
                self._add("capability", hit[0], line, f"{name} is {hit[1]}")
        for stack, rx in STACK_MARKERS:
            if rx.search(text):
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
            out.append(Fact("stack", best, f"log {first.source}:{first.lineno} ({n} line(s) name {best})", "log"))
        names = {f.name for f in out}
        model = next((f for f in out if f.name == "model"), None)
        if model is not None:
            m = model.value
            if "quantization" not in names and regex.search(r"(?i)fp8", m):
                out.append(Fact("quantization", "fp8", f"{model.source} (model name says FP8)", "log"))
            if "moe" not in names and regex.search(r"(?i)\bA\d+(?:\.\d+)?B\b|moe|mixtral|deepseek-(?:v[234]|r1)|-A\d+B", m):
                out.append(Fact("moe", "true", f"{model.source} (model name names a mixture of experts)", "log"))
        return out


# advice or a condition in the same clause before a match: the value is a suggestion, not a fact
_ADVICE = regex.compile(
    r"(?i)\b(?:use|using|set|setting|try|consider|please|should|recommend(?:ed)?|instead|if|unless|when|"
    r"re-?export|re-?quantize|switch(?:ing)? to|quantized with|upgrade|downgrade)\b")
_CLAUSE_END = regex.compile(r"[.;!?:,(]\s|—|\s-\s")


def _advice(text: str, start: int) -> bool:
    """Whether the clause before ``start`` (back to the last '. ', '; ', ': ', ', ' or '(') gives advice."""
    head = text[max(0, start - 160):start]
    cut = None
    for cut in _CLAUSE_END.finditer(head):
        pass
    clause = head[cut.end():] if cut else head
    return bool(_ADVICE.search(clause))


def _has_anchor(text: str, ex: Extractor) -> bool:
    if ex.ignore_case:
        low = text.lower()
        return any(a.lower() in low for a in ex.anchors)
    return any(a in text for a in ex.anchors)


def facts_from_lines(lines: Iterable[Line]) -> list[Fact]:
    lf = LogFacts()
    for ln in lines:
        lf.feed(ln)
    return lf.finish()
