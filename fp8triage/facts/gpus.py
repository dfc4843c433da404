"""GPU product names to CUDA compute capability (NVIDIA's table, see docs/facts.md).

Ordered most specific first: "RTX PRO 6000 Blackwell" must win over "RTX 6000 Ada",
"GH200" over "H200", "GB300" over "B300".
"""
from __future__ import annotations

import regex

# (pattern, capability, architecture label)
_TABLE: list[tuple[str, str, str]] = [
    (r"GB10\b|DGX\s*Spark", "12.1", "Blackwell (GB10)"),
    (r"RTX\s*PRO\s*\d{4}\s*Blackwell|RTX\s*PRO\s*\d{4}(?!\s*Ada)\b", "12.0", "Blackwell (workstation)"),
    (r"RTX\s*50[5-9]0(?:\s*Ti)?(?:\s*D)?\b", "12.0", "Blackwell (GeForce)"),
    (r"Jetson\s*T[45]000|\bThor\b", "11.0", "Blackwell (Jetson Thor)"),
    (r"GB300|B300\b", "10.3", "Blackwell Ultra"),
    (r"GB200|\bB200\b|\bB100\b", "10.0", "Blackwell (datacenter)"),
    (r"GH200|\bH200\b|\bH100\b|\bH800\b|\bH20\b", "9.0", "Hopper"),
    (r"\bL40S?\b|\bL4\b|\bL20\b|RTX\s*6000\s*Ada|RTX\s*[2-5]000\s*Ada|RTX\s*40[5-9]0(?:\s*Ti)?(?:\s*SUPER)?\b", "8.9", "Ada"),
    (r"\bA100\b|\bA800\b|\bA30\b", "8.0", "Ampere"),
    (r"\bA40\b|\bA10G?\b|\bA16\b|\bA2\b|RTX\s*A[4-6]000|RTX\s*30[5-9]0(?:\s*Ti)?\b", "8.6", "Ampere"),
    (r"\bT4\b|RTX\s*20[6-8]0|Quadro\s*RTX", "7.5", "Turing"),
    (r"V100|Titan\s*V\b", "7.0", "Volta"),
    (r"P100", "6.0", "Pascal"),
]
_COMPILED = [(regex.compile(p, regex.I), cc, arch) for p, cc, arch in _TABLE]


def capability_for(gpu_name: str) -> tuple[str, str] | None:
    """(capability, architecture) for a GPU product name, or None if the name is not known."""
    for rx, cc, arch in _COMPILED:
        if rx.search(gpu_name):
            return cc, arch
    return None


