"""The GPUs a write-up names by itself: in its sentences (where no line prints the machine's GPU), and in
the headings and labels of the parts it pastes from several machines.

A comparison of two machines is pasted in parts, each under its GPU: a heading ("--- B200 ---", "H200:",
"==== host gpu-b200-04 | NVIDIA B200 | capability (10, 0) ====") heads the lines below it, and a label
("B200: rel_err 0.91", "NVIDIA H100 80GB HBM3: diff=0.00041") says whose line it is. Where the labels
name GPUs of more than one capability, the fact ``gpu_sections`` lists each part's GPU and lines: a
symptom printed in one part is that GPU's, whichever GPU the paste names first.
"""
from __future__ import annotations

from ..common import rxcache
from ..common.gpus import capability_for
from ..model import Fact, Line
from .gpunames import PROSE_NAMES

GPU_LABEL = "gpu-label"  # (a heading's or a label's GPU, "B200|h" or "B200|l": the parts of a comparison)
LABELS_MAX = 64  # labels kept per source (only a write-up's first lines are read for them)
SECTION_LINES = 40  # a heading heads at most this many lines (or up to the next heading or label)

_NAME = r"(?:NVIDIA[ \t]+)?(?P<name>" + PROSE_NAMES + r")(?![\w-])"
# a heading: a rule of marks on both sides ("--- B200 ---", "==== host ... | NVIDIA B200 | ... ===="), a
# Markdown heading ("## GB300 (sm_100)"), a line in brackets ("[b200-pool-02 | NVIDIA B200]"), or a GPU's name
# alone before a colon ("H200:", "B200 with DG off:", "H200, same code:", "B200 (transformers 5.13.0, torch 2.10.0):")
_RULED = rxcache.compile(r"^[ \t]*(?:[-=#*]{2,}|#{1,6}[ \t]|\[)[^\n]{0,120}?(?<![\w-])" + _NAME + r"[^\n]{0,120}$")
_RULE_END = rxcache.compile(r"(?:[-=#*]{2,}|\))[ \t]*$|^[ \t]*#{1,6}[ \t]|^[ \t]*\[[^\[\]\n]*\][ \t]*$")
_ALONE = rxcache.compile(r"^\W{0,4}" + _NAME + r"(?:[ \t]*\([^()\n]{0,100}\))?,?(?:[ \t]+[^\s:]{1,40}){0,5}[ \t]*:[ \t]*$")
# a label: the GPU's name heads the line, then a colon and what was measured on it
_LABEL = rxcache.compile(r"^\W{0,4}" + _NAME + r"[^:\n]{0,30}:[ \t]*\S")
_ANY_NAME = rxcache.compile(r"(?<![\w-])" + _NAME)


def label(text: str) -> str | None:
    """"NAME|h" where ``text`` is a heading naming one GPU, "NAME|l" where it is a line labelled with one
    GPU's name, None otherwise (a line naming two GPUs compares them: no part of its own)."""
    if len(text) > 240:
        return None
    m = _ALONE.match(text) or (_RULED.match(text) if _RULE_END.search(text) else None)
    kind = "h"
    if m is None:
        m, kind = _LABEL.match(text), "l"
    if m is None:
        return None
    name = " ".join(m.group("name").split())
    if capability_for(name) is None or len({capability_for(" ".join(x.group("name").split()))
                                            for x in _ANY_NAME.finditer(text)}) > 1:
        return None
    return f"{name}|{kind}"


def sections(labels: list[tuple[str, Line]], first_lines: int) -> Fact | None:
    """``gpu_sections`` from the labels of one source's first ``first_lines`` lines (value "NAME|h" or
    "NAME|l", the line): "H100@5-9, B200@10-17, H100@18, B200@19"; None unless they name GPUs of two
    capabilities or more."""
    kept = sorted(((ln.lineno, v.split("|", 1)) for v, ln in labels if ln.lineno <= first_lines), key=lambda x: x[0])
    if len({capability_for(name)[0] for _, (name, _) in kept}) < 2:
        return None
    parts = []
    for i, (lineno, (name, kind)) in enumerate(kept):
        end = lineno
        if kind == "h":
            nxt = kept[i + 1][0] if i + 1 < len(kept) else lineno + SECTION_LINES + 1
            end = min(nxt - 1, lineno + SECTION_LINES)
        parts.append(f"{name}@{lineno}" + (f"-{end}" if end > lineno else ""))
    return Fact("gpu_sections", ", ".join(parts), f"log {labels[0][1].source}:{kept[0][0]}{_NOTE}", "log")


_NOTE = " (the parts the paste prints under a GPU's name)"


def parse_sections(fact: Fact) -> tuple[str, list[tuple[int, int, str]]]:
    """The source and (first line, last line, GPU) of each part of a ``gpu_sections`` fact ("" for the source
    where the fact did not come from a log)."""
    where = fact.source.removesuffix(_NOTE)
    source = where[4:].rsplit(":", 1)[0] if where.startswith("log ") and where != fact.source else ""
    out = []
    for part in fact.value.split(", "):
        name, _, span = part.rpartition("@")
        lo, _, hi = span.partition("-")
        if name and lo.isdigit() and (not hi or hi.isdigit()):
            out.append((int(lo), int(hi or lo), name))
    return source, out


def prose_gpu(said: list[tuple[str, Line]], out: list[Fact]) -> list[Fact]:
    """The GPU a write-up's sentences name (``said``: "role:NAME" and its line, from its first lines), where no
    line states the machine's GPU or capability: the first named where it went wrong, else the one named (none
    where the sentences name GPUs of more than one generation, besides the healthy reference, and none says
    which one failed). Where lines print two boxes' GPUs, the one a sentence says went wrong comes first."""
    roles = [(v.split(":", 1), ln) for v, ln in said]
    failing = [(name, ln) for (role, name), ln in roles if role == "failing"]
    printed = [f for f in out if f.name == "capability"]
    if printed or any(f.name == "gpu" for f in out):
        if failing and len({f.value for f in printed}) > 1:
            _put_first(out, capability_for(failing[0][0])[0])  # two boxes' GPUs printed: the one that failed
        return []
    plain = [(name, ln) for (role, name), ln in roles if role in ("plain", "setup")]
    # (where the sentences name several generations, the one named beside the stack's versions: the report's machine)
    setup = [(name, ln) for (role, name), ln in roles if role == "setup"]
    pick = (failing[0] if failing else plain[0] if len({capability_for(name) for name, _ in plain}) == 1
            else setup[0] if len({capability_for(name) for name, _ in setup}) == 1 else None)
    if pick is None:
        return []
    name, ln = pick
    cc, arch = capability_for(name)
    where = f"log {ln.source}:{ln.lineno}"
    return [Fact("gpu", name, f"{where} (named in a sentence)", "log"),
            Fact("capability", cc, f"{where} ({name} is {arch})", "log")]


def _put_first(out: list[Fact], capability: str) -> None:
    """Move the first printed GPU of ``capability`` and its capability ahead of the others (the first value
    of a fact wins): a write-up that prints both boxes' GPUs and says which one went wrong."""
    cap = next((f for f in out if f.name == "capability" and f.value == capability), None)
    if cap is None:
        return
    gpu = next((f for f in out if f.name == "gpu" and (capability_for(f.value) or ("",))[0] == capability), None)
    moved = [cap] + ([gpu] if gpu is not None else [])
    out[:] = moved + [f for f in out if not any(f is m for m in moved)]
