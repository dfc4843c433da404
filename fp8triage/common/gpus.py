"""GPU product names to CUDA compute capability (NVIDIA's table, see docs/facts.md): the one table
the log facts, the live probe, preflight and the signature search read.

Ordered most specific first: "RTX PRO 6000 Blackwell" must win over "RTX 6000 Ada",
"GH200" over "H200", "GB300" over "B300".
"""
from __future__ import annotations

import regex

from . import rxcache

# (pattern, capability, architecture label, the product names a user may search for)
_TABLE: list[tuple[str, str, str, str]] = [
    (r"GB10\b|DGX\s*Spark", "12.1", "Blackwell (GB10)", "GB10 DGX Spark"),
    (r"RTX\s*PRO\s*\d{4}\s*Blackwell|RTX\s*PRO\s*\d{4}(?!\s*Ada)\b", "12.0", "Blackwell (workstation)",
     "RTX PRO 6000 5000 4500 4000 2000 Blackwell workstation"),
    (r"RTX\s*50[5-9]0(?:\s*Ti)?(?:\s*D)?\b", "12.0", "Blackwell (GeForce)", "RTX 5090 5080 5070 5060 5050 GeForce"),
    (r"Jetson\s*T[45]000|\bThor\b", "11.0", "Blackwell (Jetson Thor)", "Jetson T5000 T4000 Thor"),
    (r"GB300|B300\b", "10.3", "Blackwell Ultra", "B300 GB300 Blackwell Ultra"),
    (r"GB200|\bB200\b|\bB100\b", "10.0", "Blackwell (datacenter)", "B200 GB200 B100 Blackwell"),
    (r"GH200|\bH200\b|\bH100\b|\bH800\b|\bH20\b", "9.0", "Hopper", "H100 H200 H800 H20 GH200 Hopper"),
    (r"\bL40S?\b|\bL4\b|\bL20\b|RTX\s*6000\s*Ada|RTX\s*[2-5]000\s*Ada|RTX\s*40[5-9]0(?:\s*Ti)?(?:\s*SUPER)?\b", "8.9", "Ada",
     "L4 L40 L40S L20 RTX 6000 5000 4000 2000 Ada 4090 4080 4070 4060 4050"),
    (r"\bA100\b|\bA800\b|\bA30\b", "8.0", "Ampere", "A100 A800 A30 Ampere"),
    (r"\bA40\b|\bA10G?\b|\bA16\b|\bA2\b|RTX\s*A[4-6]000|RTX\s*30[5-9]0(?:\s*Ti)?\b", "8.6", "Ampere",
     "A10 A10G A16 A2 A40 RTX A6000 A5000 A4000 3090 3080 3070 3060 3050 Ampere"),
    (r"\bT4\b|RTX\s*20[6-8]0|Quadro\s*RTX", "7.5", "Turing", "T4 RTX 2080 2070 2060 Quadro Turing"),
    (r"V100|Titan\s*V\b", "7.0", "Volta", "V100 Titan V Volta"),
    (r"P100", "6.0", "Pascal", "P100 Pascal"),
]
_COMPILED = [(rxcache.compile(p, regex.I), cc, arch) for p, cc, arch, _ in _TABLE]


def capability_for(gpu_name: str) -> tuple[str, str] | None:
    """(capability, architecture) for a GPU product name, or None if the name is not known."""
    for rx, cc, arch in _COMPILED:
        if rx.search(gpu_name):
            return cc, arch
    return None


def search_names() -> dict[str, str]:
    """Capability -> the product names of its GPUs and its ``smNN`` targets, as words for a
    search index ("5090" finds the SM120 signatures). From the table above, so the capability a
    log's GPU name gives and the one a search by that name finds are the same."""
    out: dict[str, list[str]] = {}
    for _, cc, _, names in _TABLE:
        out.setdefault(cc, []).append(names)
    return {cc: " ".join(dict.fromkeys(" ".join(names).split())) + " " + _sm(cc) for cc, names in
            sorted(out.items(), key=lambda kv: tuple(int(x) for x in kv[0].split(".")))}


def _sm(cc: str) -> str:
    """"sm90 sm90a" for 9.0: the architecture-specific target of the capabilities that have one."""
    sm = "sm" + cc.replace(".", "")
    return f"{sm} {sm}a" if cc in ("9.0", "10.0", "12.0") else sm
