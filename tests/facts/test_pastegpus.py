"""Which lines of a paste are which machine's: the headings and labels of a comparison's parts."""
from __future__ import annotations

import pytest

from fp8triage.facts.logfacts import _facts_from_lines
from fp8triage.facts.pastegpus import label, parse_sections
from fp8triage.model import Line


def facts_of(text: str) -> dict[str, str]:
    lines = [Line("paste.log", i, t) for i, t in enumerate(text.splitlines(), 1)]
    out: dict[str, str] = {}
    for f in _facts_from_lines(lines):
        out.setdefault(f.name, f.value)
    return out


@pytest.mark.parametrize("text, want", [
    ("--- B200 ---", "B200|h"),
    ("=== H100 80GB HBM3 ===", "H100|h"),
    ("==== host gpu-b200-04 | NVIDIA B200 | capability (10, 0) ====", "B200|h"),
    ("## GB300 (sm_103)", "GB300|h"),
    ("[b200-pool-02 | NVIDIA B200]", "B200|h"),
    ("H200:", "H200|h"),
    ("B200 with VLLM_USE_DEEP_GEMM=0:", "B200|h"),
    ("  B200: rel_err 0.91   out_norm/ref_norm 1.87", "B200|l"),
    ("NVIDIA H100 80GB HBM3: diff=0.00041 norm_ratio=0.9998", "H100|l"),
    ("H200, same code:", "H200|h"),
    ("B200 (transformers 5.13.0, torch 2.10.0+cu130, kernels 0.12.3):", "B200|h"),
    ("B200 with TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1:", "B200|h"),
])
def test_a_heading_or_a_label_names_its_part_s_gpu(text, want):
    assert label(text) == want


@pytest.mark.parametrize("text", [
    "--- H100 vs B200 ---",  # a comparison's heading: both sides
    "B200: 0.81, H100: 0.93",
    "We moved the service to B200: it fails now",  # a sentence, not a label
    "Step 3: rerun on the B200",
    "--- results ---",
    "[2026-05-28 16:02:11 TP0] Load weight end on B200",  # a log line's bracketed prefix
])
def test_a_line_that_compares_or_only_mentions_a_gpu_labels_nothing(text):
    assert label(text) is None


def test_the_parts_of_a_two_machine_comparison_are_a_fact():
    paste = ("Same script on both boxes, Qwen3-8B-FP8, greedy.\n"
             "\n"
             "--- H100 80GB HBM3 ---\n"
             "The capital of France is Paris.\n"
             "\n"
             "--- B200 ---\n"
             "The the the the the the\n"
             "\n"
             "per-layer check:\n"
             "  H100: rel_err 0.004\n"
             "  B200: rel_err 0.91\n")
    facts = facts_of(paste)
    assert facts["gpu_sections"] == "H100@3-5, B200@6-9, H100@10, B200@11"


def test_parts_of_one_gpu_generation_are_no_comparison():
    facts = facts_of("--- H100 node 1 ---\nok\n--- H200 node 2 ---\nok\n")
    assert "gpu_sections" not in facts


def test_the_fact_reads_back_as_its_parts():
    from fp8triage.facts.pastegpus import sections

    labels = [("H100|h", Line("my (1) paste.log", 3, "")), ("B200|h", Line("my (1) paste.log", 6, "")),
              ("B200|l", Line("my (1) paste.log", 11, ""))]
    fact = sections(labels, 300)
    assert fact.value == "H100@3-5, B200@6-10, B200@11"
    # the source's name survives brackets and colons in it
    assert parse_sections(fact) == ("my (1) paste.log", [(3, 5, "H100"), (6, 10, "B200"), (11, 11, "B200")])


@pytest.mark.parametrize("paste, gpu", [
    # named beside the stack's versions: the report's machine, whatever the comparison names after it
    ("Kernel-level repro. deep_gemm 2.5.0 (built from 891d57b), B200, CUDA 13.0, torch 2.10.0+cu130.\n"
     "On H100 both lines give rel=0.03.\n", "B200"),
    # the machine whose answers the sentence says went wrong
    ("Same lm_eval command on both boxes.\nB200 answers are all \"!!!!!!!!\" or the the the.\n", "B200"),
])
def test_the_gpu_a_write_up_names_for_its_own_machine(paste, gpu):
    assert facts_of(paste)["gpu"] == gpu


def test_gpus_named_side_by_side_with_no_versions_pick_none():
    assert "gpu" not in facts_of("Tried on H100, B200, and GB200.\nSame error on each.\n")
