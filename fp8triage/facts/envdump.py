"""Facts from environment dumps that people paste into issues and logs (origin "env-dump").

Formats recognised:

- ``torch-collect-env``: ``python -m torch.utils.collect_env`` ("PyTorch version: 2.11.0+cu130", ...)
- ``vllm-collect-env``: ``python -m vllm.collect_env`` / ``vllm collect-env``: the same base lines,
  in newer versions aligned as "PyTorch version              : 2.8.0" under "=====" section banners,
  plus "vLLM Version", "[pip3] ..." lines and an "Environment Variables" section
- ``transformers-env``: ``transformers env`` ("- `transformers` version: 5.17.0", "- GPU type: ...")
- ``nvidia-smi``: the plain ``nvidia-smi`` table
- ``nvidia-smi-csv``: ``nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv[,noheader]``

None of these collectors reports the compute capability except the CSV query; a capability
is derived from the GPU name (``fp8triage.common.gpus``) and says so in its source.

Two entry points:

- ``parse_env_dump(text, source)``: a whole file or paste (``check --env-file``).
- ``find_env_dumps(lines)``: dumps embedded in a scanned log, given the log's ``Line`` objects in
  order. One cheap anchored match per line while outside a dump, so it can run over every line;
  a prefilter that wants to skip it can search for ``ENV_DUMP_ANCHORS`` first.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable

from .vocabulary import DISPATCH_ENV_VARS, normalise_capability
from ..model import Fact, Line
from .probe import derive_capabilities
from ..common.redact import redact_env_value

ORIGIN = "env-dump"

FORMAT_LABELS = {
    "torch-collect-env": "torch collect_env",
    "vllm-collect-env": "vLLM collect_env",
    "transformers-env": "transformers env",
    "nvidia-smi": "nvidia-smi",
    "nvidia-smi-csv": "nvidia-smi --query-gpu",
}

# Literal text at or near the start of every recognised dump (for a prefilter). A bare
# `--format=csv,noheader` row ("NVIDIA H200, 9.0, 580.159.04") has none; it is found only when
# find_env_dumps sees every line.
ENV_DUMP_ANCHORS = (
    "Collecting environment information",
    "PyTorch version",
    "System Info",
    "`transformers` version",
    "Copy-and-paste the text below",
    "NVIDIA-SMI",
    "compute_cap",
)

# distribution name in "[pip3] NAME==VERSION" / "- NAME version:" -> fact name
_PKG_FACT = {
    "torch": "torch",
    "triton": "triton",
    "pytorch-triton": "triton",
    "transformers": "transformers",
    "kernels": "kernels",
    "vllm": "vllm",
    "sglang": "sglang",
    "deep-gemm": "deep_gemm",
    "deep_gemm": "deep_gemm",
    "deepgemm": "deep_gemm",
    "sgl-deep-gemm": "sgl_deep_gemm",
    "sgl_deep_gemm": "sgl_deep_gemm",
    "flashinfer-python": "flashinfer",
    "flashinfer": "flashinfer",
    "compressed-tensors": "compressed_tensors",
    "compressed_tensors": "compressed_tensors",
    "tensorrt-llm": "tensorrt_llm",
    "tensorrt_llm": "tensorrt_llm",
}

_START = re.compile(
    r"(?P<collect>Collecting environment information|PyTorch version\s*:|\s*System Info\s*$)"
    r"|(?P<tf>Copy-and-paste the text below in your GitHub issue|-\s+`?transformers`?\s+version\s*:)"
    r"|(?P<smi>\|\s*NVIDIA-SMI\s+\d)"
    r"|(?P<csvh>name\s*,[^\n]*(?:compute_cap|driver_version))"
    r"|(?P<csvrow>(?:NVIDIA|Tesla|Quadro|GeForce)[^,]*,\s*\d{1,2}\.\d\s*,\s*\d+\.\d+(?:\.\d+)?\s*$)",
    re.I,
)
# A log record starting: the end of an embedded collect_env dump.
_LOG_RECORD = re.compile(
    r"(?:Traceback \(most recent call last\)|(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL)[\s:]"
    r"|\[?\d{4}-\d{2}-\d{2}[ T]\d|\d{2}-\d{2} \d{2}:\d{2}:\d{2})"
)
_MAX_LINES = 800  # no dump we know of is longer; stops a misdetected one from swallowing a log


@dataclass
class EnvDump:
    """One dump found in a text: its format, where it is, and its facts."""

    format: str
    source: str
    first_line: int
    last_line: int
    facts: list[Fact] = field(default_factory=list)

    @property
    def label(self) -> str:
        return FORMAT_LABELS[self.format]

    def to_dict(self) -> dict:
        return {
            "format": self.format,
            "source": self.source,
            "first_line": self.first_line,
            "last_line": self.last_line,
            "facts": [f.to_dict() for f in self.facts],
        }


def parse_env_dump(text: str, source: str) -> list[Fact]:
    """Facts from a pasted or saved environment dump (one or several, in any order).

    ``source`` names the file ("collect_env.txt"); each fact's source is
    "SOURCE:LINE (FORMAT)". Returns [] when the text holds no recognised dump.
    """
    facts: list[Fact] = []
    for d in find_env_dumps_in_text(text, source):
        facts.extend(d.facts)
    return facts


def _detect_formats(text: str) -> list[str]:
    """The dump formats found in ``text``, in order of appearance."""
    return [d.format for d in find_env_dumps_in_text(text, "<text>")]


def find_env_dumps_in_text(text: str, source: str) -> list[EnvDump]:
    lines = (Line(source, i, t) for i, t in enumerate(text.splitlines(), 1))
    return find_env_dumps(lines)


def _env_dump_facts(lines: Iterable[Line]) -> list[Fact]:
    """All facts of all dumps in ``lines`` (flattened ``find_env_dumps``)."""
    return [f for d in find_env_dumps(lines) for f in d.facts]


def find_env_dumps(lines: Iterable[Line]) -> list[EnvDump]:
    """Environment dumps embedded in a log.

    ``lines``: the log's ``Line`` objects in file order (any iterable; consumed once; lines of
    several sources may follow each other). Returns one ``EnvDump`` per dump with its facts
    (origin "env-dump", source "FILE:LINE (FORMAT)", plus a capability derived from the GPU name
    where the dump has none). A line whose ``level`` is set (a logger record) ends a dump.
    """
    dumps: list[EnvDump] = []
    block: _Block | None = None
    for ln in lines:
        text = ln.text.rstrip("\r\n")
        if block is not None:
            if ln.source == block.source and block.accepts(text, ln):
                block.add(ln.lineno, text)
                continue
            dumps.append(block.finish())
            block = None
        m = _START.match(text)
        if m is None:
            continue
        kind = m.lastgroup
        fmt = {"collect": "torch-collect-env", "tf": "transformers-env", "smi": "nvidia-smi"}.get(kind, "nvidia-smi-csv")
        block = _Block(fmt, ln.source, kind)
        block.add(ln.lineno, text)
    if block is not None:
        dumps.append(block.finish())
    return [d for d in dumps if d.facts]


class DumpReader:
    """Environment dumps embedded in a log, read line by line as the scan goes (the scan's
    collector; ``find_env_dumps`` is the same rule over a list of lines).

    A dump starts at a header line (``_START``; the scan passes ``header=True`` only for lines
    the prefilter found a dump anchor in) and ends where its own structure ends
    (``_Block.accepts``: a logger record, a blank run, a line of another shape), not after a
    fixed number of lines, so the log after a pasted dump is read as log. The lines of each
    dump are kept (at most ``max_lines`` in all) and parsed by ``facts()`` at the end, so a
    parallel scan can renumber them before they become fact sources.
    """

    def __init__(self, max_lines: int = 8000):
        self.max_lines = max_lines
        self.blocks: list[tuple[str, str, list[Line]]] = []  # (format, start kind, lines)
        self.kept = 0
        self._block: _Block | None = None
        self._lines: list[Line] | None = None

    @property
    def open(self) -> bool:
        return self._block is not None

    @property
    def block(self):
        """The dump being read, or None: what a parallel scan hands to the range after."""
        return self._block

    def resume(self, block) -> None:
        """Go on reading ``block``, a dump the range before left open (its lines stay there)."""
        self._block, self._lines = block, None

    def forget_read(self) -> None:
        """Drop the dumps read so far; the open one goes on (a range's warm-up, whose dumps
        belong to the range before)."""
        self.blocks, self.kept, self._lines = [], 0, None

    def feed(self, line: Line, header: bool) -> bool:
        """True when ``line`` belongs to a dump (its first line or a later one)."""
        text = line.text.rstrip("\r\n")
        b = self._block
        if b is not None:
            if line.source == b.source and b.accepts(text, line):
                b.add(line.lineno, text)
                if self._lines is not None and self.kept < self.max_lines:
                    self._lines.append(line)
                    self.kept += 1
                return True
            self._block = self._lines = None
        if not header:
            return False
        m = _START.match(text)
        if m is None:
            return False
        kind = m.lastgroup
        fmt = {"collect": "torch-collect-env", "tf": "transformers-env", "smi": "nvidia-smi"}.get(kind, "nvidia-smi-csv")
        self._block = _Block(fmt, line.source, kind)
        self._block.add(line.lineno, text)
        if self.kept < self.max_lines:
            self._lines = [line]
            self.kept += 1
            self.blocks.append((fmt, kind, self._lines))
        return True

    def close(self) -> None:
        """The source ended: a dump does not continue into the next one."""
        self._block = self._lines = None

    def facts(self) -> list[Fact]:
        return [f for fs in self.facts_by_source().values() for f in fs]

    def facts_by_source(self) -> dict[str, list[Fact]]:
        """The facts of the dumps read, per source (a dump describes the machine whose log holds it)."""
        out: dict[str, list[Fact]] = {}
        for fmt, kind, lines in self.blocks:
            b = _Block(fmt, lines[0].source, kind)
            for ln in lines:
                b.add(ln.lineno, ln.text.rstrip("\r\n"))
            out.setdefault(lines[0].source, []).extend(b.finish().facts)
        return out


# where a pasted collect_env output ends in an issue's Markdown: its closing fence, the end of the <details> it was
# folded into, the template's next heading ("### 🐛 Describe the bug")
_PASTE_END = re.compile(r"\s*(?:```|~~~|</details>|#{1,6}\s)")
_SMI_NAME = re.compile(r"\s*(?:NVIDIA|Tesla|Quadro|GeForce|GRID|TITAN)\b")


class _Block:
    def __init__(self, fmt: str, source: str, start_kind: str):
        self.format = fmt
        self.source = source
        self.start_kind = start_kind
        self.lines: list[tuple[int, str]] = []
        self.blank_run = 0
        self.columns: int | None = None
        self.named = False  # a CSV whose first column is the GPU's name: each row starts with its maker's name

    def add(self, lineno: int, text: str) -> None:
        self.lines.append((lineno, text))
        self.blank_run = self.blank_run + 1 if not text.strip() else 0
        if self.start_kind == "csvh" and self.columns is None:
            self.columns = text.count(",")
            self.named = text.split(",", 1)[0].strip().lower() == "name"

    def accepts(self, text: str, ln: Line) -> bool:
        if len(self.lines) >= _MAX_LINES:
            return False
        blank = not text.strip()
        if self.format in ("torch-collect-env", "vllm-collect-env"):
            if getattr(ln, "level", None) or _LOG_RECORD.match(text) or _PASTE_END.match(text):
                return False
            if blank:
                return self.blank_run < 2
            m = _START.match(text)
            if m and m.lastgroup in ("tf", "smi", "csvh"):
                return False  # another dump follows
            return True
        if self.format == "transformers-env":
            if blank:
                return self.blank_run < 1 or len(self.lines) <= 2
            return text.lstrip().startswith("- ")
        if self.format == "nvidia-smi":
            if blank:
                return self.blank_run < 1
            return text.startswith(("|", "+"))
        # CSV: rows with the header's number of columns, or noheader rows of the same shape
        if blank:
            return False
        if self.columns is not None:
            # (not a chat line or a sentence that happens to hold as many commas)
            return text.count(",") == self.columns and (not self.named or _SMI_NAME.match(text) is not None)
        return _START.match(text) is not None and _START.match(text).lastgroup == "csvrow"

    def finish(self) -> EnvDump:
        parse = {
            "torch-collect-env": _parse_collect_env,
            "vllm-collect-env": _parse_collect_env,
            "transformers-env": _parse_transformers_env,
            "nvidia-smi": _parse_smi_table,
            "nvidia-smi-csv": _parse_smi_csv,
        }[self.format]
        fmt, raw = parse(self.lines)
        self.format = fmt
        label = FORMAT_LABELS[fmt]
        facts: list[Fact] = []
        seen: set[str] = set()
        for name, value, lineno, note in raw:
            if name in seen or not value:
                continue
            seen.add(name)
            src = f"{self.source}:{lineno} ({label}{', ' + note if note else ''})"
            facts.append(Fact(name, value, src, ORIGIN))
        facts.extend(derive_capabilities(facts))
        first = self.lines[0][0]
        last = max((n for n, t in self.lines if t.strip()), default=first)
        return EnvDump(fmt, self.source, first, last, facts)


# Raw fact tuples: (name, value, line number, note for the source)
_Raw = list[tuple[str, str, int, str]]

_KV = re.compile(r"^([A-Za-z][A-Za-z0-9 _()/.?-]*?)\s*:\s?(.*)$")
_GPU_LINE = re.compile(r"^\s*GPU (\d+): (.+?)\s*$")
_PIP = re.compile(r"^\[(pip3?|conda)\]\s+([A-Za-z0-9_.-]+)(?:==|\s+)(\d[^\s]*)")
_ENV = re.compile(r"^([A-Z_][A-Z0-9_]*)=(.*)$")
_NOT_KNOWN = {"", "n/a", "none", "could not collect", "not installed", "not found", "no cuda", "unknown"}


def _known(v: str) -> bool:
    return v.strip().lower() not in _NOT_KNOWN


def _gpu_facts(gpus: list[tuple[int, str]], counted: str) -> list[tuple[str, str, int, str]]:
    """The ``gpu`` (the first, naming the others if they differ) and ``gpu_count`` facts of a
    dump's GPU lines ((line number, name) pairs)."""
    if not gpus:
        return []
    names = [n for _, n in gpus]
    distinct = sorted(set(names))
    note = "" if len(distinct) == 1 else f"GPU 0 of {len(names)}; also {', '.join(distinct[1:])}"
    return [("gpu", names[0], gpus[0][0], note), ("gpu_count", str(len(names)), gpus[0][0], counted)]


def _first_token(v: str) -> str:
    return v.strip().split()[0] if v.strip() else ""


def _parse_collect_env(lines: list[tuple[int, str]]) -> tuple[str, _Raw]:
    raw: _Raw = []
    fmt = "torch-collect-env"
    gpus: list[tuple[int, str]] = []
    for lineno, text in lines:
        s = text.strip()
        g = _GPU_LINE.match(s)
        if g:
            gpus.append((lineno, g.group(2)))
            continue
        p = _PIP.match(s)
        if p:
            fact = _PKG_FACT.get(p.group(2).lower())
            if fact:
                raw.append((fact, p.group(3), lineno, f"[{p.group(1)}] {p.group(2)}"))
            continue
        e = _ENV.match(s)
        if e:
            if e.group(1) in DISPATCH_ENV_VARS:
                raw.append((e.group(1), redact_env_value(e.group(1), e.group(2).strip()), lineno, "environment variable"))
            continue
        if s.lower() in ("vllm info", "environment variables"):
            fmt = "vllm-collect-env"
        kv = _KV.match(s)
        if not kv:
            continue
        key, value = kv.group(1).strip().lower(), kv.group(2).strip()
        if key == "gpu models and configuration":
            g = re.match(r"GPU (\d+): (.+)$", value)
            if g:
                gpus.append((lineno, g.group(2).strip()))
            elif _known(value) and value:
                gpus.append((lineno, value))
            continue
        if not _known(value):
            continue
        if key == "pytorch version":
            raw.append(("torch", _first_token(value), lineno, ""))
        elif key == "cuda used to build pytorch":
            raw.append(("cuda", _first_token(value), lineno, "CUDA used to build PyTorch"))
        elif key == "cuda runtime version":
            raw.append(("nvcc", _first_token(value), lineno, "CUDA runtime version, read from nvcc"))
        elif key == "nvidia driver version":
            raw.append(("driver", _first_token(value), lineno, ""))
        elif key == "python version":
            raw.append(("python", _first_token(value), lineno, ""))
        elif key == "os":
            raw.append(("os", value, lineno, ""))
        elif key == "vllm version":
            fmt = "vllm-collect-env"
            raw.append(("vllm", _first_token(value).lstrip("vV"), lineno, ""))
        elif key == "vllm build flags":
            fmt = "vllm-collect-env"
    raw.extend(_gpu_facts(gpus, "GPU lines counted"))
    if fmt == "vllm-collect-env":
        first = lines[0][0]
        raw.append(("stack", "vllm", first, "a vLLM collect_env dump"))
    return fmt, raw


_TF_ITEM = re.compile(r"^-\s+(.+?)\s*:\s*(.*)$")


def _parse_transformers_env(lines: list[tuple[int, str]]) -> tuple[str, _Raw]:
    raw: _Raw = []
    for lineno, text in lines:
        m = _TF_ITEM.match(text.strip())
        if not m:
            continue
        key = m.group(1).replace("`", "").strip().lower()
        value = m.group(2).strip()
        if not _known(value) or value.startswith("<fill"):
            continue
        if key == "python version":
            raw.append(("python", _first_token(value), lineno, ""))
        elif key.startswith("pytorch version"):
            # "2.11.0+cu130 (CUDA)" (5.x) or "2.1.0+cu121 (True)" (4.x)
            raw.append(("torch", _first_token(value), lineno, ""))
        elif key == "gpu type":
            raw.append(("gpu", value, lineno, ""))
        elif key == "platform":
            raw.append(("os", value, lineno, ""))
        elif key.endswith(" version"):
            pkg = key[: -len(" version")].strip().replace(" ", "-")
            fact = _PKG_FACT.get(pkg)
            if fact:
                raw.append((fact, _first_token(value), lineno, ""))
    return "transformers-env", raw


_SMI_HEADER = re.compile(r"NVIDIA-SMI\s+\S+\s+Driver Version:\s*([0-9.]+)(?:\s+CUDA Version:\s*([0-9.]+))?")
_SMI_GPU_ROW = re.compile(r"^\|\s+(\d+)\s+(.+?)\s+(On|Off)\s+\|")


def _parse_smi_table(lines: list[tuple[int, str]]) -> tuple[str, _Raw]:
    raw: _Raw = []
    gpus: list[tuple[int, str]] = []
    in_processes = False
    for lineno, text in lines:
        m = _SMI_HEADER.search(text)
        if m:
            raw.append(("driver", m.group(1), lineno, ""))
            if m.group(2):
                raw.append(("cuda", m.group(2), lineno, "highest CUDA the driver supports"))
            continue
        if "Processes:" in text:
            in_processes = True
        if in_processes:
            continue
        g = _SMI_GPU_ROW.match(text)
        if g:
            gpus.append((lineno, g.group(2).rstrip(". ").strip()))
    raw.extend(_gpu_facts(gpus, "GPU rows counted"))
    return "nvidia-smi", raw


def _parse_smi_csv(lines: list[tuple[int, str]]) -> tuple[str, _Raw]:
    raw: _Raw = []
    header: list[str] | None = None
    rows: list[tuple[int, list[str]]] = []
    for lineno, text in lines:
        cells = [c.strip() for c in text.split(",")]
        if header is None and cells and cells[0].lower() == "name":
            header = [c.lower().split(" [", 1)[0] for c in cells]
            continue
        rows.append((lineno, cells))
    cols = header or ["name", "compute_cap", "driver_version"]
    recs = [(n, dict(zip(cols, cells))) for n, cells in rows if len(cells) == len(cols)]
    if not recs:
        return "nvidia-smi-csv", raw
    lineno, first = recs[0]
    names = [r.get("name", "") for _, r in recs]
    if first.get("name"):
        distinct = sorted(set(names))
        note = "" if len(distinct) == 1 else f"GPU 0 of {len(names)}; also {', '.join(distinct[1:])}"
        raw.append(("gpu", first["name"], lineno, note))
        raw.append(("gpu_count", str(len(recs)), lineno, "rows counted"))
    cc = normalise_capability(first.get("compute_cap", ""))
    if cc:
        raw.append(("capability", cc, lineno, "compute_cap"))
    drv = first.get("driver_version", "")
    if re.fullmatch(r"\d+(\.\d+)+", drv):
        raw.append(("driver", drv, lineno, ""))
    return "nvidia-smi-csv", raw
