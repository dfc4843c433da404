"""Mine the FP8 error, assertion and warning messages of the libraries fp8triage triages.

The catalogue (signatures/*.toml) must recognise what the libraries actually print, in every wording a
message has had across releases. This script reads the libraries' own sources and writes the checked-in
inventory ``signatures/messages/<library>.jsonl``: one JSON object per distinct message with

- ``library``, ``versions`` (release tags, branches or wheel versions whose source holds it; a message
  that only ever existed between refs is listed as ``history:<first>..<last>`` commit ids),
- ``location`` (``file:line`` in the newest version that has it; ``lib.so`` for strings recovered from a
  compiled extension), ``kind`` (``error``, ``assert`` or ``warning``), ``exception`` (the raised type
  where the source names one),
- ``template``: the message with ``{name}`` / ``{}`` placeholders where the source formats a value in,
- ``signature`` (the catalogue id it belongs to) or ``unrelated`` (a one-line reason), from
  ``signatures/messages/mapping.toml`` (first matching rule wins; see that file).

Sources: git snapshots (DeepGEMM: every commit reachable from any ref, i.e. every wording it ever had;
FlashInfer, FBGEMM, CUTLASS: their branches and the newest release of each minor series) and wheels
fetched with ``pip download --no-deps --only-binary=:all:`` one at a time (deleted after mining): Python
files are read with ``ast`` (``raise``, ``assert``, logger warnings/errors, ``warnings.warn``), C++/CUDA
files by their check macros (``TORCH_CHECK``, ``DG_HOST_ASSERT``, ``TLLM_CHECK_WITH_INFO``, ``<<``
streams, ``throw``), and compiled ``.so`` files with ``strings``. Only messages about the domain are
kept (FP8, scales, block sizes, architectures, DeepGEMM, CUTLASS, ``_scaled_mm``, FlashInfer FP8, kernel
availability; see ``KEEP``).

Usage (from the repository root)::

    python tools/mine_messages.py --all              # mine every library, then apply the mapping
    python tools/mine_messages.py deepgemm vllm      # only these libraries
    python tools/mine_messages.py --remap            # re-apply mapping.toml to the checked-in inventory
    python tools/mine_messages.py --list             # the libraries and what is mined for each

``--remap`` needs no network and takes a second: use it after editing mapping.toml. Mining fails with
exit status 1 when a message is matched by no mapping rule (it is still written, with neither field).
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "signatures" / "messages"
MIRROR = Path(os.environ.get("FP8TRIAGE_MIRROR", "/work/.mirror"))
WHEEL_DIR = Path(os.environ.get("FP8TRIAGE_WHEELS", "/tmp/minewheels"))


@dataclass(frozen=True)
class GitSource:
    repo: str                      # owner+name under MIRROR
    paths: tuple[str, ...]         # path prefixes to read
    history: bool = False          # every commit reachable from any ref (else: selected refs only)
    tags: str = r"^v\d+\.\d+\.\d+$"  # release tags; the newest of each minor series is read
    max_tags: int = 12
    keep_all: bool = False         # every message of the library is about the domain (DeepGEMM)


@dataclass(frozen=True)
class WheelSource:
    package: str
    versions: tuple[str, ...]
    members: str = r"\.(py|so|cu|cuh|h|hpp)$"   # wheel members to read
    skip: str = r"/(tests?|benchmarks?|examples|cutlass|cute|third_party)/"
    keep_all: bool = False
    extra: str = ""                # also keep messages matching this (torch: the _scaled_mm argument checks)


SOURCES: dict[str, GitSource | WheelSource] = {
    "deepgemm": GitSource("deepseek-ai+DeepGEMM", ("csrc/", "deep_gemm/", "setup.py"), history=True,
                          keep_all=True),
    "flashinfer": GitSource("flashinfer-ai+flashinfer", ("csrc/", "include/flashinfer/", "flashinfer/"),
                            max_tags=8),
    "fbgemm": GitSource("pytorch+FBGEMM", ("fbgemm_gpu/experimental/gen_ai/", "fbgemm_gpu/fbgemm_gpu/quantize"),
                        max_tags=5),
    "cutlass": GitSource("NVIDIA+cutlass", ("include/cute/arch/", "include/cutlass/arch/",
                                           "include/cutlass/gemm/collective/", "python/cutlass_library/"),
                         max_tags=5),
    "vllm": WheelSource("vllm", ("0.8.5", "0.10.2", "0.12.0", "0.18.0", "0.24.0", "0.28.0", "0.34.0")),
    "sglang": WheelSource("sglang", ("0.4.10", "0.5.3", "0.5.10", "0.5.23")),
    "sgl-kernel": WheelSource("sgl-kernel", ("0.3.5", "0.3.21")),
    "sgl-deep-gemm": WheelSource("sgl-deep-gemm", ("0.1.7", "0.2.5"), keep_all=True),
    "transformers": WheelSource("transformers", ("5.0.0", "5.5.0", "5.12.1", "5.17.0", "5.25.0")),
    "compressed-tensors": WheelSource("compressed-tensors", ("0.10.2", "0.20.1")),
    # tensorrt-llm is not mined: the registry has no wheel of it (its wheels live on NVIDIA's own index) and
    # its repository snapshot is over the size limit; its CUTLASS/MoE kernels are mined through FlashInfer's
    # vendored copy (csrc/nv_internal/tensorrt_llm). See docs/inventory.md.
    "torch": WheelSource("torch", ("2.11.0",), members=r"(\.so[.\d]*|/_meta_registrations\.py|/_tensor_docs\.py)$",
                         extra=r"(?:\bmat[12]\b|\bmat_[ab]\b|\bscale_[ab]\b|scale tensors|scaling|row-?wise|tensor-?wise"
                               r"|Float8|cublasLt)[^\n]*(?:must|[Ee]xpected|only|not supported|invalid|Invalid|requires?)"
                               r"|(?:must|[Ee]xpected|Invalid|Only)[^\n]*(?:\bmat[12]\b|\bmat_[ab]\b|\bscale_[ab]\b|scaling|Float8)"),
}

# --------------------------------------------------------------------------------------------- filter
# A message is kept when it is about the domain: an architecture/capability word with a domain word or
# an availability verb, or a domain word (FP8, scales, block sizes, DeepGEMM, CUTLASS, ...) with an
# availability/requirement verb. For DeepGEMM every message is about the domain, so the library itself
# counts as the domain word and scale-factor/recipe/JIT words are enough.
ARCH = re.compile(
    r"(?i)compute capability|\bcapability\b|\bsm_?\d{2,3}[af]?\b|\bsm ?\d{2,3}[af]?\b|\bsm\d+x\b|\barch(?:itecture)?s?\b"
    r"|arch_major|hopper|blackwell|\bada\b|ampere|cuda_arch|kernel image|device capability")
DOMAIN = re.compile(
    r"(?i)fp8|float8|e4m3|e5m2|\bfnuz\b|e8m0|ue8m0|mxfp8|deep_?gemm|cutlass|scaled_mm|flashinfer|trtllm|trt-llm"
    r"|tensorrt|cublaslt|block[_ -]?(?:wise|scale|size|quant)|weight_block|scale_fmt|scal(?:e|es|ing)[ _]factor"
    r"|\bsf[ab]?\b|0x807fffff|wgmma|tcgen05|\bumma\b|\bgmma\b|weight quantization|quantization block|\bblock_[nk]\b"
    r"|compressed[-_ ]tensors")
AVAIL = re.compile(
    r"(?i)no (?:compiled|kernel|supported|suitable)|not (?:be )?compiled|unavailable|not available|not installed"
    r"|failed to (?:load|compile|import|build|launch|initiali[sz]e)|cannot import|please install|could not (?:find|load)"
    r"|not (?:yet )?(?:supported|implemented|enabled)|unsupported|only (?:be )?(?:supports?|supported|available|works?)"
    r"|without CUTE_ARCH_|\bno\b[\w\s-]{0,40}\b(?:was |were )?found\b|\brequires?\b|\bneeds?\b|divisible|multiple of|disabl|fall(?:ing)? ?back|is deprecated|\bunknown\b|\binvalid\b")
DG_WORDS = re.compile(r"(?i)\bsf[ab]?\b|\bsf[ab]?\.|_sf\b|recipe|ue8m0|0x807fffff|scal(?:e|ing)|nvcc|nvrtc|cuda_home|version"
                      r"|compil|arch|kPackedFP4")
NOISE = re.compile(r"(?i)rope|rotary|\blora\b|logit|temperature|tokeni[sz]er|attention sink|\bint4\b|awq|gptq"
                   r"|bitsandbytes|\bgguf\b|marlin|\bhqq\b|\bxpu\b|\bhpu\b|\brocm\b|\bhip\b|\bamd\b|\bcpu\b|\bnpu\b"
                   r"|\btpu\b|gfx\d|\bmps\b|\bmi3\d\d|diffusion|\bvae\b|\blinter\b")
FP4 = re.compile(r"(?i)nvfp4|mxfp4|\bfp4\b|w4a\d|e2m1")
DEBUG = re.compile(r"(?i)^(?:making|launching|compiling|running|using|loading|build(?:ing)?|debug|can implement)\b"
                   r"|\btook\b|\belapsed\b|\(\)$")


def keep(text: str, library_is_domain: bool = False) -> bool:
    text = re.sub(r"\{[^{}]*\}", "{}", text)     # placeholder names are not words of the message
    if len(text) < 12 or len(text) > 600 or not re.search(r"[A-Za-z]{3}", text) or DEBUG.search(text):
        return False
    if NOISE.search(text) and not (library_is_domain or DOMAIN.search(text)):
        return False
    if FP4.search(text) and not re.search(r"(?i)fp8|deep_?gemm|int8-packed|kPackedFP4", text):
        return False          # FP4-only kernels are outside this catalogue except through DeepGEMM
    if library_is_domain:
        return bool(ARCH.search(text) or AVAIL.search(text) or DG_WORDS.search(text))
    if ARCH.search(text):
        return bool(DOMAIN.search(text) or AVAIL.search(text))
    return bool(DOMAIN.search(text) and AVAIL.search(text))


# Templates that differ only in a generated name (CuTe's one message per MMA atom) collapse into one.
COLLAPSE = [(re.compile(r"^Attempting to use .+? without (CUTE_ARCH_\w+)$"), r"Attempting to use {op} without \1")]


def collapse(text: str) -> str:
    for rx, rep in COLLAPSE:
        text = rx.sub(rep, text)
    return text


# --------------------------------------------------------------------------------------------- records
@dataclass
class Msg:
    template: str
    kind: str
    file: str
    line: int
    exception: str | None = None


@dataclass
class Rec:
    library: str
    template: str
    kind: str
    exception: str | None
    location: str
    versions: list[str] = field(default_factory=list)
    signature: str | None = None
    unrelated: str | None = None

    def key(self) -> tuple:
        return (self.template, self.kind)

    def to_json(self) -> str:
        d = {"library": self.library, "versions": self.versions, "location": self.location,
             "kind": self.kind, "exception": self.exception, "template": self.template}
        if self.signature:
            d["signature"] = self.signature
        if self.unrelated:
            d["unrelated"] = self.unrelated
        return json.dumps(d, ensure_ascii=False)


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


PCT = re.compile(r"%(?:\([^)]*\))?[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfFgGcsprab]")


def pct_to_braces(text: str) -> str:
    return PCT.sub("{}", text.replace("%%", "%"))


# --------------------------------------------------------------------------------------------- Python
LOG_METHODS = {"warning": "warning", "warning_once": "warning", "warn": "warning", "warn_once": "warning",
               "error": "error", "error_once": "error", "critical": "error", "exception": "error",
               "info_once": None}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Call):
        return _name(node.func)
    if isinstance(node, ast.Subscript):
        return _name(node.value)
    return ""


def _ph(node: ast.AST) -> str:
    n = _name(node)
    return "{" + n + "}" if re.fullmatch(r"[A-Za-z_]\w{0,30}", n or "") else "{}"


def py_template(node: ast.AST, assigns: dict[str, ast.AST], depth: int = 0) -> str | None:
    if depth > 4:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            elif isinstance(v, ast.FormattedValue):
                parts.append(_ph(v.value))
        return "".join(parts)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = py_template(node.left, assigns, depth + 1), py_template(node.right, assigns, depth + 1)
        if a is None and b is None:
            return None
        return (a if a is not None else _ph(node.left)) + (b if b is not None else _ph(node.right))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        a = py_template(node.left, assigns, depth + 1)
        return pct_to_braces(a) if a is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        a = py_template(node.func.value, assigns, depth + 1)
        return re.sub(r"\{([^{}:!]*)[:!][^{}]*\}", r"{\1}", a) if a is not None else None
    if isinstance(node, ast.Name) and node.id in assigns:
        return py_template(assigns[node.id], assigns, depth + 1)
    return None


def mine_python(src: str, file: str) -> list[Msg]:
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return []
    out: list[Msg] = []

    def visit(scope: ast.AST) -> None:
        assigns: dict[str, ast.AST] = {}
        for node in ast.walk(scope):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                assigns[node.targets[0].id] = node.value
        for node in ast.walk(scope):
            msg = kind = exc = None
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                msg, kind, exc = py_template(node.exc.args[0], assigns), "error", _name(node.exc.func)
            elif isinstance(node, ast.Assert) and node.msg is not None:
                msg, kind, exc = py_template(node.msg, assigns), "assert", "AssertionError"
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
                attr, owner = node.func.attr, _name(node.func.value)
                if owner == "warnings" and attr == "warn":
                    msg, kind = py_template(node.args[0], assigns), "warning"
                    exc = _name(node.args[1]) if len(node.args) > 1 else "UserWarning"
                elif attr in LOG_METHODS and LOG_METHODS[attr] and re.search(r"(?i)log", owner):
                    msg, kind = py_template(node.args[0], assigns), LOG_METHODS[attr]
                    if "%" in (msg or ""):
                        msg = pct_to_braces(msg)
            if msg:
                out.append(Msg(squash(msg), kind, file, node.lineno, exc))

    visit(tree)
    return out


# --------------------------------------------------------------------------------------------- C++
# macro -> (index of the first message argument or "cond" for the stringified condition, kind, exception)
CPP_MACROS = {
    "TORCH_CHECK": (1, "error", "RuntimeError"), "STD_TORCH_CHECK": (1, "error", "RuntimeError"),
    "TORCH_CHECK_NOT_IMPLEMENTED": (1, "error", "NotImplementedError"),
    "TORCH_CHECK_VALUE": (1, "error", "ValueError"), "TORCH_CHECK_TYPE": (1, "error", "TypeError"),
    "TORCH_INTERNAL_ASSERT": (1, "assert", "RuntimeError"), "TORCH_WARN": (0, "warning", None),
    "TORCH_WARN_ONCE": (0, "warning", None), "AT_ERROR": (0, "error", "RuntimeError"),
    "DG_HOST_ASSERT": ("cond", "assert", "RuntimeError"), "DG_HOST_UNREACHABLE": (0, "assert", "RuntimeError"),
    "DG_DEVICE_ASSERT": ("devcond", "assert", None),
    "FLASHINFER_CHECK": (1, "error", "RuntimeError"), "FLASHINFER_ERROR": (0, "error", "RuntimeError"),
    "FLASHINFER_WARN": (0, "warning", None),
    "TLLM_CHECK_WITH_INFO": (1, "error", "RuntimeError"), "TLLM_THROW": (0, "error", "RuntimeError"),
    "TLLM_LOG_WARNING": (0, "warning", None), "TLLM_LOG_ERROR": (0, "error", None),
    "CUTE_INVALID_CONTROL_PATH": (0, "error", None),
    "std::runtime_error": (0, "error", "RuntimeError"), "std::invalid_argument": (0, "error", "RuntimeError"),
    "std::logic_error": (0, "error", "RuntimeError"),
    "DGException": ("dg", "error", "RuntimeError"),
}
STREAM_MACROS = {"TVM_FFI_ICHECK": ("error", "RuntimeError"), "TVM_FFI_THROW": ("error", None),
                 "TVM_FFI_CHECK": ("error", "RuntimeError"), "TVM_FFI_LOG_AND_THROW": ("error", None),
                 "TLLM_LOG_WARNING_STREAM": ("warning", None)}
CPP_CALL = re.compile(r"\b(" + "|".join(re.escape(k) for k in sorted(CPP_MACROS, key=len, reverse=True))
                      + r"|" + "|".join(STREAM_MACROS) + r"|TVM_FFI_ICHECK_\w+)\s*\(")
STR_LIT = re.compile(r'(?:u8|L|u|U)?"((?:[^"\\\n]|\\.)*)"')


def split_args(text: str, start: int) -> tuple[list[str], int]:
    """Split the call whose '(' is at text[start-1]; returns (args, index after ')')."""
    depth, i, cur, args = 1, start, [], []
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"' or (c == "'" and not text[i - 1].isalnum()):
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            cur.append(text[i:j + 1])
            i = j + 1
            continue
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append("".join(cur))
                return args, i + 1
        elif c == "," and depth == 1:
            args.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    return args, n


def unescape(s: str) -> str:
    return s.replace('\\"', '"').replace("\\n", " ").replace("\\t", " ").replace("\\\\", "\\")


def cpp_template(parts: list[str]) -> str | None:
    """Join message arguments / stream operands: string literals verbatim, anything else a placeholder."""
    out, has_lit = [], False
    first = STR_LIT.findall(parts[0]) if parts else []
    if first and (PCT.search("".join(first)) or "{}" in "".join(first)):
        parts = parts[:1]          # printf / fmt style: the arguments fill the placeholders
    for p in parts:
        p = p.strip()
        if not p:
            continue
        lits = STR_LIT.findall(p)
        rest = STR_LIT.sub("", p).strip()
        if lits and not re.search(r"[^\s+()]", rest):
            out.append(unescape("".join(lits)))
            has_lit = True
        elif lits and rest.startswith("fmt::format") or lits and re.match(r"(?:std::)?string\s*\(", rest):
            out.append(unescape("".join(lits)))
            has_lit = True
        else:
            name = re.sub(r"\W+", "_", p.split("(")[0].split(".")[-1].split("->")[-1]).strip("_")
            out.append("{" + name + "}" if re.fullmatch(r"[A-Za-z_]\w{0,30}", name) else "{}")
    if not has_lit:
        return None
    text = "".join(out)
    return pct_to_braces(text) if PCT.search(text) else text


def mine_cpp(src: str, file: str) -> list[Msg]:
    out: list[Msg] = []
    for m in CPP_CALL.finditer(src):
        name = m.group(1)
        line = src.count("\n", 0, m.start()) + 1
        args, end = split_args(src, m.end())
        if name in STREAM_MACROS or name.startswith("TVM_FFI_ICHECK"):
            kind, exc = STREAM_MACROS.get(name, ("error", "RuntimeError"))
            if name == "TVM_FFI_THROW" and args:
                exc = args[0].strip()
            semi = src.find(";", end)
            tail = src[end:semi if semi > 0 else end]
            ops = tail.split("<<")[1:] if tail.lstrip().startswith("<<") else []
            tmpl = cpp_template(ops)
        else:
            idx, kind, exc = CPP_MACROS[name]
            if idx == "cond":
                tmpl = "Assertion error ({file}:{line}): " + squash(args[0]) if args else None
            elif idx == "dg":
                lit = STR_LIT.findall(args[0]) if args else []
                msg = cpp_template(args[3:]) if len(args) > 3 else None
                tmpl = f"{lit[0]} error ({{file}}:{{line}}): {msg or '{}'}" if lit and "Assertion" not in lit[0] else None
            elif idx == "devcond":
                tmpl = "Assertion failed: {file}:{line}, condition: " + squash(args[0]) if args else None
            else:
                tmpl = cpp_template(args[idx:]) if len(args) > idx else None
                if name == "DG_HOST_UNREACHABLE" and tmpl:
                    tmpl = "Assertion error ({file}:{line}): " + tmpl
        if tmpl:
            out.append(Msg(squash(tmpl), kind, file, line, exc))
    return out


# --------------------------------------------------------------------------------------------- .so
SO_NOISE = re.compile(r"\((?:Tensor|int|float|bool|str)\b|^\{\} -I|pybind11|--compiler-options|_Z\w{6}|\.(?:cu|cuh|cpp|hpp|h|py)\b|^[\w./-]+$|[{};]\s*$|\bvoid\b|\btemplate\b|"
                      r"\bconst\b|\bstd::|::\w+<|\(\w+\*|@|\\x[0-9a-f]{2}")


def mine_so(path: Path, name: str) -> list[Msg]:
    try:
        res = subprocess.run(["strings", "-n", "16", str(path)], capture_output=True, text=True,
                             errors="replace", check=True)
    except (OSError, subprocess.CalledProcessError):
        return []
    out = []
    for s in dict.fromkeys(res.stdout.splitlines()):
        s = s.strip()
        if s.count(" ") < 2 or SO_NOISE.search(s):
            continue
        out.append(Msg(collapse(so_template(s)), "error", name, 0, None))
    return out


def so_template(s: str) -> str:
    """A string from a compiled extension as a template: printf specs become {}, and a fragment that
    ends where the check streams a value in (``capability: ``) gets the {} it is followed by."""
    s = squash(pct_to_braces(s) if PCT.search(s) else s)
    return s + " {}" if re.search(r"[:=]$", s) else s


def mine_file(path: str, data: bytes) -> list[Msg]:
    text = data.decode("utf-8", "replace")
    if path.endswith(".py"):
        msgs = mine_python(text, path)
    elif re.search(r"\.(cu|cuh|cpp|cc|h|hpp|cxx)$", path):
        msgs = mine_cpp(text, path)
    else:
        return []
    for m in msgs:
        m.template = collapse(m.template)
    return msgs


# --------------------------------------------------------------------------------------------- git
def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(repo), *args], capture_output=True, text=True,
                          check=True, errors="replace").stdout


def _vkey(tag: str) -> Version:
    try:
        return Version(tag.lstrip("v"))
    except InvalidVersion:
        return Version("0")


def git_refs(repo: Path, src: GitSource) -> list[tuple[str, str]]:
    """(label, commit) for the branches and the newest release tag of each minor series, newest first."""
    refs = []
    for line in git(repo, "for-each-ref", "--format=%(refname) %(objectname) %(*objectname)").splitlines():
        name, obj, peeled = (line.split() + [""])[:3]
        commit = peeled or obj
        if name.startswith("refs/heads/"):
            refs.append((name[len("refs/heads/"):], commit))
        elif name.startswith("refs/tags/") and re.match(src.tags, name[len("refs/tags/"):]):
            refs.append((name[len("refs/tags/"):], commit))
    branches = [r for r in refs if not re.match(src.tags, r[0])]
    if not src.history:
        branches = [r for r in branches if r[0] in ("main", "master")]
    tags = sorted((r for r in refs if re.match(src.tags, r[0])), key=lambda r: _vkey(r[0]), reverse=True)
    newest: dict[tuple, tuple[str, str]] = {}
    for t in tags:
        newest.setdefault(_vkey(t[0]).release[:2], t)
    return branches + list(newest.values())[:src.max_tags]


class BlobReader:
    def __init__(self, repo: Path):
        self.p = subprocess.Popen(["git", "--git-dir", str(repo), "cat-file", "--batch"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def read(self, sha: str) -> bytes:
        self.p.stdin.write(sha.encode() + b"\n")
        self.p.stdin.flush()
        header = self.p.stdout.readline().split()
        size = int(header[2])
        data = self.p.stdout.read(size)
        self.p.stdout.read(1)
        return data

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait()


def tree(repo: Path, commit: str, paths: tuple[str, ...]) -> list[tuple[str, str]]:
    out = []
    for line in git(repo, "ls-tree", "-r", commit, "--", *paths).splitlines():
        meta, path = line.split("\t", 1)
        if re.search(r"\.(py|cu|cuh|cpp|cc|h|hpp)$", path) and not re.search(r"(^|/)(tests?|benchmarks?)/", path):
            out.append((path, meta.split()[2]))
    return out


def mine_git(lib: str, src: GitSource, log) -> dict[tuple, Rec]:
    repo = MIRROR / src.repo / "repo"
    refs = git_refs(repo, src)
    log(f"{lib}: {len(refs)} refs: {', '.join(r[0] for r in refs)}")
    commits = [(label, c) for label, c in refs]
    if src.history:
        order = git(repo, "rev-list", "--all", "--date-order", "--", *src.paths).split()
        commits += [(None, c) for c in order]
        log(f"{lib}: {len(order)} commits in history")
    reader, blob_msgs = BlobReader(repo), {}
    recs: dict[tuple, Rec] = {}
    seen_in: dict[tuple, list[str]] = {}
    done = set()
    for label, commit in commits:
        if label is None and commit in done:
            continue
        done.add(commit)
        for path, blob in tree(repo, commit, src.paths):
            if blob not in blob_msgs:
                blob_msgs[blob] = [m for m in mine_file(path, reader.read(blob)) if keep(m.template, src.keep_all)]
            for m in blob_msgs[blob]:
                key = (m.template, m.kind)
                if key not in recs:
                    recs[key] = Rec(lib, m.template, m.kind, m.exception, f"{path}:{m.line}")
                tag = label or commit[:9]
                lst = seen_in.setdefault(key, [])
                if tag not in lst:
                    lst.append(tag)
    reader.close()
    for key, rec in recs.items():
        labels = [t for t in seen_in[key] if not re.fullmatch(r"[0-9a-f]{9}", t)]
        hist = [t for t in seen_in[key] if re.fullmatch(r"[0-9a-f]{9}", t)]
        rec.versions = labels or [f"history:{hist[-1]}..{hist[0]}" if len(hist) > 1 else f"history:{hist[0]}"]
    return recs


# --------------------------------------------------------------------------------------------- wheels
def download_wheel(package: str, ver: str, log) -> Path | None:
    """One wheel of ``package==ver`` in WHEEL_DIR (``pip download --no-deps --only-binary=:all:``), or None
    (logged) when the registry has none for this platform."""
    WHEEL_DIR.mkdir(parents=True, exist_ok=True)
    before = set(WHEEL_DIR.iterdir())
    cmd = [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
           "-d", str(WHEEL_DIR), f"{package}=={ver}"]
    res = subprocess.run(cmd, capture_output=True, text=True)
    new = [p for p in set(WHEEL_DIR.iterdir()) - before if p.suffix == ".whl"]
    wheels = new or sorted(WHEEL_DIR.glob(f"{package.replace('-', '_')}-{ver}-*.whl"))
    if res.returncode or not wheels:
        log(f"{ver}: download failed: {res.stderr.strip().splitlines()[-1:]}")
        return None
    return wheels[0]


def mine_wheel(lib: str, src: WheelSource, log, keep_wheels: bool) -> dict[tuple, Rec]:
    recs: dict[tuple, Rec] = {}
    WHEEL_DIR.mkdir(parents=True, exist_ok=True)
    for ver in src.versions:          # oldest first is not required: locations come from the newest
        wheel = download_wheel(src.package, ver, lambda s: log(f"{lib} {s}"))
        if wheel is None:
            continue
        log(f"{lib} {ver}: {wheel.name} ({wheel.stat().st_size >> 20} MiB)")
        n = 0
        with zipfile.ZipFile(wheel) as zf, tempfile.TemporaryDirectory() as tmp:
            for info in zf.infolist():
                name = info.filename
                if not re.search(src.members, name) or re.search(src.skip, name):
                    continue
                if re.search(r"\.so[.\d]*$", name):
                    target = Path(tmp) / "lib.so"
                    with zf.open(info) as fin, open(target, "wb") as fout:
                        shutil.copyfileobj(fin, fout)
                    msgs = mine_so(target, Path(name).name)
                    target.unlink()
                else:
                    msgs = mine_file(name, zf.read(info))
                for m in msgs:
                    if not (keep(m.template, src.keep_all) or (src.extra and re.search(src.extra, m.template))):
                        continue
                    n += 1
                    key = (m.template, m.kind)
                    rec = recs.get(key)
                    if rec is None:
                        rec = recs[key] = Rec(lib, m.template, m.kind, m.exception, "")
                    rec.location = m.file if m.line == 0 else f"{m.file}:{m.line}"
                    if ver not in rec.versions:
                        rec.versions.append(ver)
        log(f"{lib} {ver}: {n} domain messages")
        if not keep_wheels:
            wheel.unlink()
    return recs


# --------------------------------------------------------------------------------------------- mapping
@dataclass(frozen=True)
class Rule:
    regex: re.Pattern
    library: re.Pattern | None
    location: re.Pattern | None
    signature: str | None
    unrelated: str | None


def load_rules(path: Path) -> list[Rule]:
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SystemExit(f"{path}: cannot read the mapping: {e}")
    rules = []
    for i, r in enumerate(data.get("rule", [])):
        if bool(r.get("signature")) == bool(r.get("unrelated")):
            raise SystemExit(f"{path}: rule {i + 1} needs exactly one of 'signature' or 'unrelated'")
        try:
            re.compile(r["match"])
        except (KeyError, re.error) as e:
            raise SystemExit(f"{path}: rule {i + 1} needs a valid 'match' regex: {e}")
        rules.append(Rule(re.compile(r["match"]), re.compile(r["library"]) if r.get("library") else None,
                          re.compile(r["location"]) if r.get("location") else None,
                          r.get("signature"), r.get("unrelated")))
    return rules


def apply_rules(recs: list[Rec], rules: list[Rule]) -> list[Rec]:
    unmapped = []
    for rec in recs:
        rec.signature = rec.unrelated = None
        for rule in rules:
            if rule.library and not rule.library.fullmatch(rec.library):
                continue
            if rule.location and not rule.location.search(rec.location):
                continue
            if rule.regex.search(rec.template):
                rec.signature, rec.unrelated = rule.signature, rule.unrelated
                break
        else:
            unmapped.append(rec)
    return unmapped


def read_inventory(lib: str) -> list[Rec]:
    path = OUT / f"{lib}.jsonl"
    if not path.exists():
        return []
    recs = []
    for line in path.read_text().splitlines():
        d = json.loads(line)
        if re.search(r"\.so[.\d]*$", d["location"]):
            d["template"] = so_template(d["template"])
        recs.append(Rec(d["library"], d["template"], d["kind"], d.get("exception"), d["location"],
                        d["versions"], d.get("signature"), d.get("unrelated")))
    return recs


def write_inventory(lib: str, recs: list[Rec]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    recs = sorted(recs, key=lambda r: (r.template.lower(), r.kind))
    (OUT / f"{lib}.jsonl").write_text("".join(r.to_json() + "\n" for r in recs))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("libraries", nargs="*", help="libraries to mine (see --list)")
    ap.add_argument("--all", action="store_true", help="mine every library")
    ap.add_argument("--remap", action="store_true", help="re-apply mapping.toml to the checked-in inventory only")
    ap.add_argument("--list", action="store_true", help="list the libraries and their sources")
    ap.add_argument("--keep-wheels", action="store_true", help="do not delete downloaded wheels")
    args = ap.parse_args(argv)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    if args.list:
        for lib, src in SOURCES.items():
            print(f"{lib:20} {src}")
        return 0
    unknown = [lib for lib in args.libraries if lib not in SOURCES]
    if unknown:
        ap.error(f"unknown library {', '.join(unknown)}; known: {', '.join(SOURCES)}")
    libs = list(SOURCES) if (args.all or (args.remap and not args.libraries)) else args.libraries
    if not libs:
        ap.error("name libraries to mine, or pass --all or --remap")
    rules = load_rules(OUT / "mapping.toml")
    status = 0
    for lib in libs:
        if args.remap:
            recs = read_inventory(lib)
        else:
            src = SOURCES[lib]
            try:
                found = mine_git(lib, src, log) if isinstance(src, GitSource) else mine_wheel(lib, src, log, args.keep_wheels)
            except (OSError, subprocess.CalledProcessError, zipfile.BadZipFile) as e:
                log(f"{lib}: cannot read its source ({e}); the checked-in inventory is kept")
                status = 1
                continue
            recs = list(found.values())
            if not recs:
                log(f"{lib}: nothing mined; the checked-in inventory is kept")
                continue
        unmapped = apply_rules(recs, rules)
        write_inventory(lib, recs)
        n_sig = sum(1 for r in recs if r.signature)
        log(f"{lib}: {len(recs)} messages, {n_sig} mapped to a signature, "
            f"{len(recs) - n_sig - len(unmapped)} unrelated, {len(unmapped)} unmapped")
        for r in unmapped[:40]:
            log(f"  unmapped: {r.template[:160]}")
        status |= bool(unmapped)
    return status


if __name__ == "__main__":
    sys.exit(main())
