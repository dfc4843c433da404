"""Mine the vocabularies of the FP8 components: the names that say which component a log line comes from.

A failure's sentence changes between releases and is often generic (``Error Internal``, ``invalid argument``,
a bare ``AssertionError``); the names of the component it comes from change far less. For every component of
``signatures/recognition/components.toml`` this script reads the files that belong to it, in every release of
its libraries that can be reached, and writes ``signatures/recognition/vocab/<component-id>.jsonl``.

Usage (from the repository root)::

    python tools/mine_components.py --all        # every component (network for the wheels, ~20 min)
    python tools/mine_components.py deepgemm     # only these components (their libraries are read)
    python tools/mine_components.py --list       # the components, their libraries and path globs
    python tools/mine_components.py --table      # counts per component of the checked-in files (markdown)

Sources (``LIBRARIES``; the machinery is ``tools/mine_messages.py``'s):

- git snapshots under the mirror directory (DeepGEMM: every branch and tag and every commit that changed its
  Python API; FlashInfer, CUTLASS, FBGEMM, Transformer Engine: the main branch and the newest release of each
  minor series; SageAttention: its branches and tags);
- wheels fetched with ``pip download --no-deps --only-binary=:all:`` one at a time and deleted after reading
  (vLLM, SGLang, sgl-kernel, transformers, torchao, torch). Their Python files are read; for vLLM and
  sgl-kernel, whose C++/CUDA sources are only in the compiled extensions, the extensions' exported symbols
  (``nm -DC``) and the ``csrc/...`` source paths their checks print (``strings``) are read too.

Which files belong to a component is written in components.toml, in the component's ``[component.mine]``
table: ``<library> = [globs]`` (``*`` within a path segment, ``**`` across segments) for files whose names
all belong to the component, and ``shared.<library> = [globs]`` with ``shared_match`` (a regex) for files that
hold several components' names (``envs.py``, ``_custom_ops.py``, a compiled extension): only names matching
``shared_match`` (one regex, or ``shared_match.<library>`` per library) are taken from those; such a
name belongs to the component that matched it even when it is also defined in another component's own
files. Test, benchmark and example files are never read.

What is extracted:

- identifiers: Python functions and classes (``ast``), module- and class-level constants (UPPER_CASE), env
  vars (``os.environ``/``os.getenv``/``*env*()`` calls with a literal name, ``envs.NAME`` reads, ``Env*()``
  declarations, env-looking string keys in env modules), CLI flags (``add_argument("--...")``); C++/CUDA
  ``__global__`` kernels, function definitions, classes and structs, op registrations (``m.def("name"``),
  ``getenv``/``get_env`` reads, ``#define`` macros; the file names themselves;
- the ``assert`` statements of the components' Python files: the first physical source line, stripped (what
  a traceback prints above a bare ``AssertionError``), and the whole expression.

Filters (an identifier is kept when all hold): at least 6 characters; not in ``STOPLIST`` (generic names:
``forward``, ``apply``, ``create_weights``, ...); it contains a domain marker (``MARKERS``: fp8, float8, f8,
e4m3, e5m2, ue8m0, gemm, scaled, fp4, mxfp, cutlass, deep, moe, fmha, quant, block, tma, grouped, cublas,
sage, ... or a token sf/sfa/sfb/dg); it is not defined in the generic files of a library that has it (``BACKGROUND``: the
other quantization methods, the base classes); it is not a generated instance name (``GENERATED``: MMA atoms,
tile configurations); in a component without fp4 in its formats it names no other number format
(``OTHER_FORMAT``: NVFP4, MXFP4, E2M1, W4A8, INT4; files so named are not read for it); and it is in one
component only. Two claims are settled by the one claimant that hand-lists the name, then by definition over a
mere read (``envs.X``), then by a ``shared_match`` claim over an own-file claim; a name still claimed twice, or
mined for one component and hand-listed in another's ``names``, is ambiguous, dropped from both and listed in
the report and in ``signatures/recognition/ambiguous.jsonl``. Asserts are kept when their line has
more than a trivial condition (``MIN_ASSERT`` characters after ``assert``) and the line is in one component.

Output, one file per component, one JSON object per line, sorted by name, deterministic::

    {"name": "fp8_gemm_nt", "type": "function", "sources": ["deepgemm@main:csrc/apis/gemm.hpp", ...]}
    {"assert": "assert x.dtype == torch.float8_e4m3fn", "expr": "x.dtype == torch.float8_e4m3fn", "sources": [...]}

``type`` is one of function, class, kernel, file, env, flag, constant. ``sources`` are
``<library>@<git ref>:<path>`` or ``<library>==<version>:<path>``: the newest and the oldest release of the
first library that has the name, and the newest of the next one (at most 3). Releases that could not be read
are reported at the end (and in docs/recognition.md).
"""
from __future__ import annotations

import argparse
import ast
import json
import re
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mine_messages import MIRROR, BlobReader, _vkey, download_wheel, git, split_args  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
COMPONENTS = ROOT / "signatures" / "recognition" / "components.toml"
VOCAB = ROOT / "signatures" / "recognition" / "vocab"
AMBIGUOUS = ROOT / "signatures" / "recognition" / "ambiguous.jsonl"
TYPES = ("kernel", "class", "function", "env", "flag", "constant", "file")   # priority when a name has two


@dataclass(frozen=True)
class Git:
    repo: str                                  # owner+name under the mirror directory
    branches: str = r"^(main|master)$"         # branch names read
    tags: str = r"^v\d+\.\d+\.\d+$"            # release tags read
    per_minor: bool = True                     # only the newest tag of each minor series
    max_tags: int = 10
    api_history: tuple[str, ...] = ()          # also every commit that changed these paths


@dataclass(frozen=True)
class Dist:
    package: str
    versions: tuple[str, ...]                  # oldest first
    so: str = ""                               # compiled extensions whose symbols and csrc paths are read


LIBRARIES: dict[str, Git | Dist] = {
    "deepgemm": Git("deepseek-ai+DeepGEMM", branches=r".", tags=r".", per_minor=False, max_tags=99,
                    api_history=("deep_gemm/__init__.py", "csrc/python_api.cpp", "deep_gemm/jit_kernels")),
    "flashinfer": Git("flashinfer-ai+flashinfer", max_tags=8),
    "cutlass": Git("NVIDIA+cutlass", max_tags=8),
    "fbgemm": Git("pytorch+FBGEMM", max_tags=8),
    "sageattention": Git("thu-ml+SageAttention", branches=r"^(main|sageattention-1|hopper_kernel|sm120_compilation)$",
                         tags=r"^v\d+\.\d+\.\d+$", per_minor=False),
    "transformer-engine": Git("NVIDIA+TransformerEngine", tags=r"^v\d+\.\d+(?:\.\d+)?$", max_tags=8),
    "vllm": Dist("vllm", ("0.8.5", "0.9.2", "0.10.2", "0.11.2", "0.13.0", "0.16.0", "0.19.1", "0.22.1",
                          "0.25.1", "0.28.0", "0.31.0", "0.34.0"), so=r"^vllm/_(?:C|moe_C)\.abi3\.so$"),
    "sglang": Dist("sglang", ("0.4.6", "0.4.8", "0.4.10", "0.5.1", "0.5.3", "0.5.6", "0.5.10", "0.5.14",
                              "0.5.18", "0.5.23")),
    "sgl-kernel": Dist("sgl-kernel", ("0.1.9", "0.2.9", "0.3.9", "0.3.21"), so=r"common_ops[^/]*\.so$"),
    "transformers": Dist("transformers", ("4.50.3", "4.53.3", "4.55.4", "4.57.6", "5.0.0", "5.5.4", "5.10.4",
                                          "5.15.1", "5.20.2", "5.25.0")),
    "torchao": Dist("torchao", ("0.8.0", "0.11.0", "0.14.1", "0.18.0")),
    "torch": Dist("torch", ("2.6.0", "2.9.1", "2.15.0")),
}

# Files whose definitions are generic to the library (the other quantization methods, base classes): a name
# defined there says nothing about an FP8 component.
BACKGROUND: dict[str, tuple[str, ...]] = {
    "vllm": ("vllm/model_executor/layers/quantization/*.py", "vllm/model_executor/layers/quantization/utils/*.py",
             "vllm/model_executor/layers/linear.py", "vllm/model_executor/layers/fused_moe/layer.py"),
    "sglang": ("sglang/srt/layers/quantization/*.py", "sglang/srt/layers/linear.py",
               "sglang/srt/layers/moe/fused_moe_triton/layer.py"),
    "transformers": ("transformers/quantizers/*.py", "transformers/integrations/*.py"),
    "torchao": ("torchao/quantization/*.py",),
}

MIN_LEN = 6
MIN_ASSERT = 12
STOPLIST = frozenset("""
forward apply run __init__ main get setup __call__ __repr__ __post_init__ create_weights process_weights_after_loading
from_config get_name get_config_filenames get_min_capability get_supported_act_dtypes get_quant_method
is_layer_skipped apply_weights quantize dequantize quant_config quant_method quant_dtype block_size block_shape
num_blocks weight_block_size quantization is_quantized get_scaled_act_names override_quantization_method
get_cache_scale maybe_make_prepare_finalize select_gemm_impl is_static_input_scheme get_fused_moe_quant_config
quant_type block_quant num_experts moe_config QuantizationConfig QuantizeMethodBase LinearMethodBase
FusedMoEMethodBase scaled scaling grouped blocks blocked tma_copy
""".split())
MARKERS = re.compile(
    r"(?i)fp8|float8|f8|e4m3|e5m2|ue8m0|e8m0|gemm|scaled|fp4|mxfp|nvfp|cutlass|deep|moe|fmha|quant|block|tma"
    r"|grouped|cublas|sage|qattn|wgmma|tcgen|umma|gmma|w8a8|a8w8|int8_pv|pv_f8")
TOKEN_MARKERS = frozenset({"sf", "sfa", "sfb", "sfs", "dg"})
ENV_NAME = re.compile(r"^(?:VLLM|SGLANG|SGL|DG|DEEPGEMM|DEEP_GEMM|FLASHINFER|TRTLLM|TLLM|NVTE|TORCHINDUCTOR|TORCH"
                      r"|TRANSFORMERS|HF|CUTLASS|FBGEMM|SAGE|TORCHAO)_[A-Z0-9_]{3,}$")
SKIP_PATH = re.compile(r"(?:^|/)(?:tests?|testing|benchmarks?|examples?|docs?|third[-_]party|3rdparty)/|(?:^|/)test_[^/]*$")
# names of other number formats (FP4, INT4 and mixed 4-bit schemes): not FP8 evidence
OTHER_FORMAT = re.compile(r"(?i)nvfp4|mxfp4|e2m1|w4a(?:8|16)|f4f4|int4|(?<!fp8_)(?<!f8)(?<!fp8)fp4")
# generated instance names (an MMA atom or a tile configuration each): MMA_64x56x32_..., f8f8bf16_128_128_128_2_1_1_9_t
GENERATED = re.compile(r"\d+x\d+x\d+|(?:_\d+){3,}")
READ_PATH = re.compile(r"\.(?:py|cu|cuh|cpp|cc|h|hpp|cxx)$")


def tokens(name: str) -> list[str]:
    parts = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower().split("_")
    return [p for p in parts if p]


def distinctive(name: str) -> bool:
    base = name.rsplit(".", 1)[0] if re.search(r"\.\w{1,4}$", name) else name
    if len(name) < MIN_LEN or name in STOPLIST or base in STOPLIST or name.startswith("__"):
        return False
    return bool(MARKERS.search(name) or TOKEN_MARKERS.intersection(tokens(base)))


def glob_rx(pattern: str) -> re.Pattern:
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append(r"(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(r".*")
            i += 2
        elif pattern[i] == "*":
            out.append(r"[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append(r"[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"\Z")


# --------------------------------------------------------------------------------------------- components
@dataclass
class Component:
    id: str
    names: frozenset[str]
    formats: tuple[str, ...] = ("fp8",)
    own: dict[str, list[re.Pattern]] = field(default_factory=dict)      # library -> globs
    shared: dict[str, list[re.Pattern]] = field(default_factory=dict)
    shared_match: dict[str, re.Pattern] = field(default_factory=dict)    # library (or "*") -> regex
    order: list[str] = field(default_factory=list)                        # libraries, in the table's order


def load_components(path: Path = COMPONENTS) -> list[Component]:
    data = tomllib.loads(path.read_text())
    out = []
    for c in data.get("component", []):
        comp = Component(c["id"], frozenset(c.get("names", [])), tuple(c.get("formats", ["fp8"])))
        mine = c.get("mine", {})
        for lib, globs in mine.items():
            if lib == "shared":
                for slib, sglobs in globs.items():
                    comp.shared[slib] = [glob_rx(g) for g in sglobs]
                    if slib not in comp.order:
                        comp.order.append(slib)
            elif lib == "shared_match":
                items = globs.items() if isinstance(globs, dict) else [("*", globs)]
                comp.shared_match = {k: re.compile(v) for k, v in items}
            else:
                comp.own[lib] = [glob_rx(g) for g in globs]
                if lib not in comp.order:
                    comp.order.append(lib)
        for lib in comp.order:
            if lib not in LIBRARIES:
                raise SystemExit(f"{path}: component {comp.id} names an unknown library {lib!r}; "
                                 f"known: {', '.join(LIBRARIES)}")
        out.append(comp)
    return out


# --------------------------------------------------------------------------------------------- extraction
@dataclass
class Found:
    names: dict[str, str] = field(default_factory=dict)                   # name -> type
    asserts: dict[str, str] = field(default_factory=dict)                 # first line -> expression
    refs: set[str] = field(default_factory=set)                           # names only read here (envs.X)

    def add(self, name: str, typ: str, ref: bool = False) -> None:
        if ref:
            if name not in self.names:
                self.refs.add(name)
        else:
            self.refs.discard(name)
        old = self.names.get(name)
        if old is None or TYPES.index(typ) < TYPES.index(old):
            self.names[name] = typ


ENV_CALL = re.compile(r"(?i)env")


def _str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def mine_python(src: str, path: str) -> Found:
    found = Found()
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return found
    lines = src.splitlines()
    env_module = bool(re.search(r"(?:^|/)(?:envs?|environ)\.py$", path))
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.add(node.name, "function")
        elif isinstance(node, ast.ClassDef):
            found.add(node.name, "class")
            for stmt in node.body:       # class-level constants and Env*() declarations (sglang's environ.py)
                if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                    for t in targets:
                        if isinstance(t, ast.Name) and re.fullmatch(r"[A-Z][A-Z0-9_]{2,}", t.id):
                            is_env = isinstance(stmt.value, ast.Call) and _call_name(stmt.value).startswith("Env")
                            found.add(t.id, "env" if is_env else "constant")
        elif isinstance(node, ast.Assert):
            first = lines[node.lineno - 1].strip() if node.lineno - 1 < len(lines) else ""
            if first.startswith("assert"):
                expr = ast.get_source_segment(src, node.test) or ast.unparse(node.test)
                found.asserts.setdefault(first, re.sub(r"\s+", " ", expr).strip())
        elif isinstance(node, ast.Call):
            fname = _call_name(node)
            if fname == "add_argument":
                for a in node.args:
                    s = _str(a)
                    if s and s.startswith("--"):
                        found.add(s, "flag")
            elif ENV_CALL.search(fname) or fname in ("get", "getenv", "setdefault") and _is_environ(node.func):
                for a in node.args[:1]:
                    s = _str(a)
                    if s and re.fullmatch(r"[A-Z][A-Z0-9_]{3,}", s):
                        found.add(s, "env")
        elif isinstance(node, ast.Subscript) and _is_environ(node):
            s = _str(node.slice)
            if s and re.fullmatch(r"[A-Z][A-Z0-9_]{3,}", s):
                found.add(s, "env")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "envs" \
                and re.fullmatch(r"[A-Z][A-Z0-9_]{3,}", node.attr):
            found.add(node.attr, "env", ref=True)
        elif env_module and isinstance(node, ast.Dict):
            for k in node.keys:
                s = _str(k) if k is not None else None
                if s and ENV_NAME.match(s):
                    found.add(s, "env")
    for stmt in tree.body:               # module-level constants
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                if isinstance(t, ast.Name) and re.fullmatch(r"_?[A-Z][A-Z0-9_]{2,}", t.id):
                    found.add(t.id, "env" if env_module and ENV_NAME.match(t.id) else "constant")
    return found


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _is_environ(node: ast.AST) -> bool:
    v = node.value if isinstance(node, (ast.Attribute, ast.Subscript)) else None
    return isinstance(v, ast.Attribute) and v.attr == "environ" or isinstance(v, ast.Name) and v.id == "environ"


CPP_KEYWORDS = frozenset("""if for while switch return sizeof catch defined static_assert decltype alignas alignof
__launch_bounds__ new delete throw case else do typeid noexcept operator template typename using namespace""".split())
KERNEL = re.compile(r"(?:__global__|CUTLASS_GLOBAL)\s+(?:__launch_bounds__\s*\((?:[^()]|\([^()]*\))*\)\s*)?"
                    r"(?:static\s+|inline\s+)*void\s+(?:__launch_bounds__\s*\((?:[^()]|\([^()]*\))*\)\s*)?(\w+)\s*\(")
CLASS = re.compile(r"\b(?:class|struct)\s+(?:alignas\s*\([^)]*\)\s+|__align__\s*\([^)]*\)\s+|CUTE_\w+\s+)?(\w+)"
                   r"\s*(?:final\s*)?(?::[^;{()]*)?\{")
FUNC_LINE = re.compile(r"^[ \t]*(?!return\b|else\b|new\b|delete\b|throw\b|case\b|using\b|typedef\b|goto\b)"
                       r"[A-Za-z_][\w:<>, *&]{0,200}?[ \t*&](\w+)[ \t]*\(", re.M)
FUNC_TAIL = re.compile(r"\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?(?:->\s*[\w:<>,\s*&]+?)?\s*\{")
OP_DEF = re.compile(r"""\b(?:def|impl)\(\s*(?:TORCH_SELECTIVE_SCHEMA\(\s*)?"(?:\w+::)?(\w+)""")
CPP_ENV = re.compile(r"\b\w*(?:getenv|get_env|GetEnv|getEnv)\w*\s*(?:<[^<>()]*>)?\s*\(\s*\"([A-Z][A-Z0-9_]{3,})\"")
DEFINE = re.compile(r"^\s*#\s*define\s+([A-Z][A-Z0-9_]{3,})\b", re.M)


def mine_cpp(src: str, path: str) -> Found:
    found = Found()
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    for m in KERNEL.finditer(src):
        found.add(m.group(1), "kernel")
    for m in CLASS.finditer(src):
        found.add(m.group(1), "class")
    for m in FUNC_LINE.finditer(src):
        name = m.group(1)
        if name in CPP_KEYWORDS or len(m.group(0)) > 260:
            continue
        _, end = split_args(src, m.end())
        if FUNC_TAIL.match(src, end):
            found.add(name, "function")
    for m in OP_DEF.finditer(src):
        found.add(m.group(1), "function")
    for m in CPP_ENV.finditer(src):
        found.add(m.group(1), "env")
    for m in DEFINE.finditer(src):
        found.add(m.group(1), "constant")
    return found


def mine_source(path: str, data: bytes) -> Found:
    text = data.decode("utf-8", "replace")
    return mine_python(text, path) if path.endswith(".py") else mine_cpp(text, path)


SO_PATH = re.compile(r"(?:^|/)(csrc/[\w/.+-]+\.(?:cu|cuh|cpp|cc|hpp|h))\b")
SO_SYMBOL = re.compile(r"^(?:[\w:<>,*& ]+?\s)?(?:[\w]+::)*(\w+)(?:<.*>)?\(")


def mine_so(path: Path) -> tuple[Found, list[str]]:
    """Exported function names of a compiled extension, and the csrc/ source paths its checks print."""
    found = Found()
    try:
        nm = subprocess.run(["nm", "-DC", "--defined-only", str(path)], capture_output=True, text=True,
                            errors="replace", check=True).stdout
        strings = subprocess.run(["strings", "-n", "8", str(path)], capture_output=True, text=True,
                                 errors="replace", check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return found, []
    for line in nm.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in "TW":
            m = SO_SYMBOL.match(parts[2])
            if m and not m.group(1).startswith("_"):
                found.add(m.group(1), "function")
    paths = sorted({m.group(1) for m in SO_PATH.finditer(strings)})
    return found, paths


# --------------------------------------------------------------------------------------------- sources
@dataclass(frozen=True)
class Release:
    library: str
    label: str          # deepgemm@v2.1.1, vllm==0.8.5
    rank: float         # larger is newer
    named: bool = True  # a branch, tag or version (not a commit of the API history)


@dataclass
class Hit:
    release: Release
    path: str


class Miner:
    """Reads libraries and collects, per component, the names and asserts of its files with provenance."""

    def __init__(self, components: list[Component], log):
        self.components = components
        self.log = log
        self.names: dict[str, dict[str, tuple[str, list[Hit]]]] = {c.id: {} for c in components}
        self.asserts: dict[str, dict[str, tuple[str, list[Hit]]]] = {c.id: {} for c in components}
        self.generic: dict[str, set[str]] = {}                                      # library -> generic names
        self.own_claim: dict[str, set[str]] = {c.id: set() for c in components}    # names from own files
        self.strong: dict[str, set[str]] = {c.id: set() for c in components}       # defined, not only read
        self.unreached: list[str] = []
        self.read: dict[str, list[str]] = {}

    def wants(self, lib: str) -> list[tuple[Component, bool, list[re.Pattern]]]:
        out = []
        for c in self.components:
            if lib in c.own:
                out.append((c, False, c.own[lib]))
            if lib in c.shared:
                out.append((c, True, c.shared[lib]))
        return out

    def selects(self, lib: str, path: str) -> bool:
        if SKIP_PATH.search(path):
            return False
        if any(rx.match(path) for _, _, globs in self.wants(lib) for rx in globs):
            return True
        return any(glob_rx(g).match(path) for g in BACKGROUND.get(lib, ()))

    def take(self, lib: str, rel: Release, path: str, found: Found) -> None:
        owners = [(c, shared) for c, shared, globs in self.wants(lib) if any(rx.match(path) for rx in globs)
                  and ("fp4" in c.formats or not OTHER_FORMAT.search(path.rsplit("/", 1)[-1]))]
        if not owners:
            if any(glob_rx(g).match(path) for g in BACKGROUND.get(lib, ())):
                self.generic.setdefault(lib, set()).update(n for n, t in found.names.items() if t in ("function", "class"))
            return
        hit = Hit(rel, path)
        names = dict(found.names)
        if not path.endswith(".so"):
            names.setdefault(path.rsplit("/", 1)[-1], "file")      # the file's own name
        for c, shared in owners:
            for name, typ in names.items():
                if shared:
                    rx = c.shared_match.get(lib) or c.shared_match.get("*")
                    if not (rx and rx.search(name)):
                        continue
                entry = self.names[c.id].setdefault(name, (typ, []))
                if TYPES.index(typ) < TYPES.index(entry[0]):
                    self.names[c.id][name] = entry = (typ, entry[1])
                entry[1].append(hit)
                if not shared:
                    self.own_claim[c.id].add(name)
                if name not in found.refs:
                    self.strong[c.id].add(name)
            if shared or not path.endswith(".py"):
                continue
            for line, expr in found.asserts.items():
                self.asserts[c.id].setdefault(line, (expr, []))[1].append(hit)

    # ---- git
    def mine_git(self, lib: str, src: Git) -> None:
        repo = MIRROR / src.repo / "repo"
        if not repo.exists():
            self.unreached.append(f"{lib}: no git snapshot of {src.repo.replace('+', '/')} in the mirror directory")
            self.log(self.unreached[-1])
            return
        refs = []
        fmt = "%(refname) %(objectname) %(*objectname) %(committerdate:unix) %(*committerdate:unix)"
        for line in git(repo, "for-each-ref", f"--format={fmt}").splitlines():
            parts = line.split(" ")
            name, obj, peeled, date, pdate = (parts + [""] * 5)[:5]
            if name.startswith("refs/heads/") and re.search(src.branches, name[11:]):
                refs.append(("branch", name[11:], peeled or obj, int(pdate or date or 0)))
            elif name.startswith("refs/tags/") and re.search(src.tags, name[10:]):
                refs.append(("tag", name[10:], peeled or obj, int(pdate or date or 0)))
        tags = sorted((r for r in refs if r[0] == "tag"), key=lambda r: (_vkey(r[1]), r[3]), reverse=True)
        if src.per_minor:
            newest: dict[tuple, tuple] = {}
            for t in tags:
                newest.setdefault(_vkey(t[1]).release[:2], t)
            tags = list(newest.values())
        chosen = [r for r in refs if r[0] == "branch"] + tags[:src.max_tags]
        commits = [(f"{lib}@{label}", c, d, True) for _, label, c, d in chosen]
        if src.api_history:
            seen = {c for _, c, _, _ in commits}
            for line in git(repo, "log", "--all", "--format=%H %ct", "--", *src.api_history).splitlines():
                c, d = line.split()
                if c not in seen:
                    seen.add(c)
                    commits.append((f"{lib}@{c[:9]}", c, int(d), False))
        self.log(f"{lib}: {len(chosen)} refs ({', '.join(r[1] for r in chosen)})"
                 + (f" and {len(commits) - len(chosen)} API-history commits" if src.api_history else ""))
        self.read[lib] = [r[1] for r in sorted(chosen, key=lambda r: r[3])]
        reader = BlobReader(repo)
        cache: dict[str, Found] = {}
        try:
            for label, commit, date, named in commits:
                rel = Release(lib, label, float(date), named)
                for line in git(repo, "ls-tree", "-r", commit).splitlines():
                    meta, path = line.split("\t", 1)
                    if not READ_PATH.search(path) or not self.selects(lib, path):
                        continue
                    blob = meta.split()[2]
                    if blob not in cache:
                        cache[blob] = mine_source(path, reader.read(blob))
                    self.take(lib, rel, path, cache[blob])
        finally:
            reader.close()

    # ---- wheels
    def mine_dist(self, lib: str, src: Dist, keep: bool) -> None:
        read = []
        for i, ver in enumerate(src.versions):
            wheel = download_wheel(src.package, ver, lambda s: self.log(f"{lib} {s}"))
            if wheel is None:
                self.unreached.append(f"{lib} {ver}: the package registry has no wheel of it for this platform")
                continue
            rel = Release(lib, f"{lib}=={ver}", float(i))
            try:
                with zipfile.ZipFile(wheel) as zf, tempfile.TemporaryDirectory() as tmp:
                    n = 0
                    for info in zf.infolist():
                        path = info.filename
                        if src.so and re.search(src.so, path):
                            target = Path(tmp) / "ext.so"
                            target.write_bytes(zf.read(info))
                            found, csrc = mine_so(target)
                            target.unlink()
                            self.take(lib, rel, path, found)
                            for p in csrc:
                                if self.selects(lib, p):
                                    self.take(lib, rel, p, Found())
                            n += 1
                        elif READ_PATH.search(path) and self.selects(lib, path):
                            self.take(lib, rel, path, mine_source(path, zf.read(info)))
                            n += 1
                self.log(f"{lib} {ver}: {wheel.name} ({wheel.stat().st_size >> 20} MiB), {n} files read")
                read.append(ver)
            except (OSError, zipfile.BadZipFile) as e:
                self.unreached.append(f"{lib} {ver}: cannot read {wheel.name}: {e}")
            finally:
                if not keep:
                    wheel.unlink(missing_ok=True)
        self.read[lib] = read


# --------------------------------------------------------------------------------------------- output
def pick_sources(hits: list[Hit], order: list[str]) -> list[str]:
    """The newest and the oldest release of the first library (in the component's order) that has the name,
    then the newest of the next one; at most 3. Commits of an API history count only where no branch or tag
    has the name."""
    by_lib: dict[str, list[Hit]] = {}
    for h in hits:
        by_lib.setdefault(h.release.library, []).append(h)
    out: list[str] = []
    libs = [lib for lib in order if lib in by_lib] + sorted(set(by_lib) - set(order))
    for i, lib in enumerate(libs):
        hs = [h for h in by_lib[lib] if h.release.named] or by_lib[lib]    # releases before history commits
        newest = max(hs, key=lambda h: (h.release.rank, h.release.label))
        oldest = min(hs, key=lambda h: (h.release.rank, h.release.label))
        picks = [newest, oldest] if i == 0 else [newest]
        for h in picks:
            s = f"{h.release.label}:{h.path}"
            if s not in out:
                out.append(s)
    return out[:3]


def build(miner: Miner, only: set[str], hand: dict[str, frozenset[str]],
          ambiguous_before: dict[str, list[str]]) -> tuple[dict[str, list[dict]], dict[str, list[str]]]:
    """The vocab records per component, and the ambiguous names (name -> components)."""
    owners: dict[str, set[str]] = {}
    formats = {c.id: c.formats for c in miner.components}
    for cid, names in miner.names.items():
        for name, (_, hits) in names.items():
            if any(name in miner.generic.get(lib, ()) for lib in {h.release.library for h in hits}):
                continue              # defined in the generic files of a library that has it
            if "fp4" not in formats[cid] and OTHER_FORMAT.search(name) and name not in hand[cid]:
                continue              # an FP4 name says nothing about an FP8 component (format confusion)
            if distinctive(name) and not GENERATED.search(name):
                owners.setdefault(name, set()).add(cid)
    # Two claims on a name are settled, in this order, by: the one claimant that hand-lists it in
    # components.toml; the claimants that define it over those that only read it (envs.X); a name taken from a
    # shared file by a component's shared_match over the one whose own file it also is (vLLM's fp8_utils.py
    # holds the DeepGEMM wrappers). What is left with two claimants is ambiguous.
    for name, comps in owners.items():
        if len(comps) > 1 and len(handed := {c for c in comps if name in hand[c]}) == 1:
            comps.intersection_update(handed)
        for narrow in ({c for c in comps if name in miner.strong[c]},
                       {c for c in comps if name not in miner.own_claim[c]}):
            if len(comps) > 1 and narrow and len(narrow) < len(comps):
                comps.intersection_update(narrow)
    for name, comps in ambiguous_before.items():          # components not re-mined this time keep their verdicts
        if name in owners:
            owners[name].update(c for c in comps if c not in only)
    # a mined name hand-listed in a component that did not mine it is ambiguous
    for name, comps in owners.items():
        for cid, names in hand.items():
            if name in names:
                comps.add(cid)
    line_owners: dict[str, set[str]] = {}
    for cid, asserts in miner.asserts.items():
        for line in asserts:
            line_owners.setdefault(line, set()).add(cid)
    for line, comps in ambiguous_before.items():
        if line in line_owners:
            line_owners[line].update(c for c in comps if c not in only)
    ambiguous = {n: sorted(c) for n, c in owners.items() if len(c) > 1}
    ambiguous.update({ln: sorted(c) for ln, c in line_owners.items() if len(c) > 1})
    comps = {c.id: c for c in miner.components}
    # a run for some components keeps the others' checked-in verdicts: what their files hold stays theirs
    kept_elsewhere: set[str] = set()
    for path in VOCAB.glob("*.jsonl"):
        if path.stem not in only:
            kept_elsewhere.update(r.get("name") or r.get("assert") for r in map(json.loads, path.read_text().splitlines()))
    out: dict[str, list[dict]] = {}
    for cid in only:
        recs = []
        for name, (typ, hits) in miner.names[cid].items():
            if owners.get(name) == {cid} and name not in kept_elsewhere:
                recs.append({"name": name, "type": typ, "sources": pick_sources(hits, comps[cid].order)})
        recs.sort(key=lambda r: (r["name"].lower(), r["name"]))
        arecs = []
        for line, (expr, hits) in miner.asserts[cid].items():
            if len(line) - len("assert") < MIN_ASSERT or line_owners[line] != {cid} or line in kept_elsewhere:
                continue
            arecs.append({"assert": line, "expr": expr, "sources": pick_sources(hits, comps[cid].order)})
        arecs.sort(key=lambda r: r["assert"])
        out[cid] = recs + arecs
    return out, ambiguous


def write_vocab(cid: str, recs: list[dict]) -> Path:
    VOCAB.mkdir(parents=True, exist_ok=True)
    path = VOCAB / f"{cid}.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs))
    return path


def read_ambiguous() -> dict[str, list[str]]:
    if not AMBIGUOUS.exists():
        return {}
    out = {}
    for line in AMBIGUOUS.read_text().splitlines():
        d = json.loads(line)
        out[d["name"]] = d["components"]
    return out


def write_ambiguous(amb: dict[str, list[str]]) -> None:
    AMBIGUOUS.write_text("".join(json.dumps({"name": n, "components": c}, ensure_ascii=False) + "\n"
                                 for n, c in sorted(amb.items())))


def count_table() -> str:
    rows = ["| component | " + " | ".join(TYPES) + " | asserts | size |", "|---" * (len(TYPES) + 3) + "|"]
    for path in sorted(VOCAB.glob("*.jsonl")):
        recs = [json.loads(line) for line in path.read_text().splitlines()]
        counts = [sum(1 for r in recs if r.get("type") == t) for t in TYPES]
        n_assert = sum(1 for r in recs if "assert" in r)
        rows.append(f"| {path.stem} | " + " | ".join(map(str, counts)) + f" | {n_assert} | {path.stat().st_size >> 10} KiB |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("components", nargs="*", help="component ids to mine (see --list)")
    ap.add_argument("--all", action="store_true", help="mine every component")
    ap.add_argument("--list", action="store_true", help="list the components, their libraries and globs")
    ap.add_argument("--keep-wheels", action="store_true", help="do not delete downloaded wheels")
    ap.add_argument("--table", action="store_true", help="print the counts of the checked-in vocabularies (markdown)")
    args = ap.parse_args(argv)
    if args.table:
        print(count_table())
        return 0
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    try:
        components = load_components()
    except (OSError, tomllib.TOMLDecodeError, re.error) as e:
        ap.error(f"cannot read {COMPONENTS.relative_to(ROOT)}: {e}")
    ids = [c.id for c in components]
    if args.list:
        for c in components:
            libs = ", ".join(f"{lib}{' (shared)' if lib not in c.own else ''}" for lib in c.order) or "(nothing mined)"
            print(f"{c.id:20} {libs}")
        for lib, src in LIBRARIES.items():
            print(f"  {lib:20} {src}")
        return 0
    unknown = [c for c in args.components if c not in ids]
    if unknown:
        ap.error(f"unknown component {', '.join(unknown)}; known: {', '.join(ids)}")
    only = set(ids if args.all else args.components)
    if not only:
        ap.error("name components to mine, or pass --all")
    miner = Miner(components, log)
    libs = [lib for lib in LIBRARIES if any(lib in c.order for c in components if c.id in only)]
    for lib in libs:
        src = LIBRARIES[lib]
        try:
            if isinstance(src, Git):
                miner.mine_git(lib, src)
            else:
                miner.mine_dist(lib, src, args.keep_wheels)
        except (OSError, subprocess.CalledProcessError) as e:
            miner.unreached.append(f"{lib}: cannot read its source ({e})")
            log(miner.unreached[-1])
    hand = {c.id: c.names for c in components}
    before = {} if args.all else read_ambiguous()
    vocab, ambiguous = build(miner, only, hand, before)
    for cid in sorted(vocab):
        recs = vocab[cid]
        if not recs:
            log(f"{cid}: nothing mined; the checked-in vocabulary is kept")
            continue
        path = write_vocab(cid, recs)
        n_assert = sum(1 for r in recs if "assert" in r)
        log(f"{cid}: {len(recs) - n_assert} names, {n_assert} asserts ({path.stat().st_size >> 10} KiB)")
    merged = {n: c for n, c in before.items() if not set(c) <= only}
    merged.update({n: c for n, c in ambiguous.items() if set(c) & only})
    write_ambiguous(merged)
    names_amb = {n: c for n, c in ambiguous.items() if not n.startswith("assert")}
    log(f"ambiguous (in two components, dropped): {len(names_amb)} names, {len(ambiguous) - len(names_amb)} asserts")
    for n, c in sorted(names_amb.items()):
        log(f"  {n}: {', '.join(c)}")
    for lib in libs:
        log(f"read {lib}: {', '.join(miner.read.get(lib, [])) or 'nothing'}")
    for u in miner.unreached:
        log(f"not reached: {u}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
