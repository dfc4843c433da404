"""Remedies that fit: the code path in the trace, what is already in force, the stack and version seen
(issue 24, items 4-6). Each test reads what a user reads: the scan's text or JSON, `check`, `remedy`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.cli import cli

ROOT = Path(__file__).parents[2]
MOE_SAMPLE = ROOT / "signatures" / "samples" / "deepgemm-fp32-sf-sm100" / "match" / "corpus-044.log"
VLLM_SAMPLE = ROOT / "signatures" / "samples" / "deepgemm-unknown-sf-transformation" / "match" / "vllm-026-rtx5090-layout60.log"


def scan_json(*args: str) -> dict:
    r = CliRunner().invoke(cli, ["scan", "--format", "json", "--no-history", *args])
    assert r.exit_code in (0, 3, 4), r.output
    return json.loads(r.output)


def scan_text(*args: str) -> str:
    r = CliRunner().invoke(cli, ["scan", "--no-history", *args])
    assert r.exit_code in (0, 3, 4), r.output
    return r.output


def finding(doc: dict, sig: str) -> dict:
    return next(f for f in doc["findings"] if f["id"] == sig)


def remedies_shown(text: str) -> list[str]:
    """The numbered remedy titles of the text report, in order."""
    lines = text.split("Remedies (ready to paste)", 1)[1].splitlines()
    out = []
    for ln in lines[1:]:
        s = ln.strip()
        if not s:
            break
        if s[:2].rstrip(".").isdigit() and ". " in s[:4]:
            out.append(s.split(". ", 1)[1])
    return out


# -- item 4: the first remedy covers the code path that failed -------------------------------------


def test_moe_experts_crash_gets_grouped_mm_first_not_the_linear_switch():
    doc = scan_json(str(MOE_SAMPLE))
    rems = finding(doc, "deepgemm-fp32-sf-sm100")["remedies"]
    assert rems[0]["id"] == "experts-grouped-mm" and rems[0]["applies"] == "holds"
    linear = next(r for r in rems if r["id"] == "transformers-skip-deepgemm-linear")
    assert linear["applies"] == "fails" and "MoE experts" in linear["why"]
    text = scan_text(str(MOE_SAMPLE))
    shown = remedies_shown(text)
    assert shown[0].startswith("Run the MoE experts with grouped_mm")
    assert "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR" not in text.split("Remedies", 1)[1].split("References")[0]


DENSE_TRACE = """\
transformers 5.17.0 torch 2.11.0+cu130
Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/transformers/models/qwen3/modeling_qwen3.py", line 210, in forward
    query_states = self.q_proj(hidden_states)
  File "/opt/venv/lib/python3.12/site-packages/transformers/integrations/finegrained_fp8.py", line 480, in forward
    return fp8_linear(input, self.weight, self.weight_scale_inv, self.block_size)
  File "/opt/venv/lib/python3.12/site-packages/transformers/integrations/finegrained_fp8.py", line 402, in fp8_linear
    return deepgemm_fp8_fp4_linear(input, weight, weight_scale, block_size)
  File "/opt/venv/lib/python3.12/site-packages/transformers/integrations/deepgemm.py", line 520, in deepgemm_fp8_fp4_linear
    sf = deep_gemm.transform_sf_into_required_layout(sf, n, k, (1, 128, 128), is_sfa=False)
RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation
"""

EXPERTS_TRACE = DENSE_TRACE.replace(
    '"/opt/venv/lib/python3.12/site-packages/transformers/integrations/finegrained_fp8.py", line 480, in forward\n'
    "    return fp8_linear(input, self.weight, self.weight_scale_inv, self.block_size)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/integrations/finegrained_fp8.py", line 402, in fp8_linear\n'
    "    return deepgemm_fp8_fp4_linear(input, weight, weight_scale, block_size)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/integrations/deepgemm.py", line 520, in deepgemm_fp8_fp4_linear\n',
    '"/opt/venv/lib/python3.12/site-packages/transformers/integrations/moe.py", line 573, in forward\n'
    "    return experts_forward(self, *args, **kwargs)\n"
    '  File "/opt/venv/lib/python3.12/site-packages/transformers/integrations/deepgemm.py", line 702, in deepgemm_fp8_fp4_experts_forward\n',
).replace("self.q_proj(hidden_states)", "self.experts(hidden_states, selected_experts, routing_weights)")


def test_a_dense_linear_trace_keeps_the_linear_switch_first(tmp_path):
    log = tmp_path / "dense.log"
    log.write_text(DENSE_TRACE)
    rems = finding(scan_json(str(log), "--fact", "capability=12.0"), "deepgemm-unknown-sf-transformation")["remedies"]
    fitting = [r["id"] for r in rems if r["applies"] != "fails"]
    assert fitting[0] == "transformers-skip-deepgemm-linear", fitting


def test_the_same_error_from_the_experts_does_not_offer_the_linear_switch(tmp_path):
    assert EXPERTS_TRACE != DENSE_TRACE
    log = tmp_path / "experts.log"
    log.write_text(EXPERTS_TRACE)
    rems = finding(scan_json(str(log), "--fact", "capability=12.0"), "deepgemm-unknown-sf-transformation")["remedies"]
    linear = next(r for r in rems if r["id"] == "transformers-skip-deepgemm-linear")
    assert linear["applies"] == "fails" and "dense FP8 linears only" in linear["why"]


# -- item 5: a remedy already in force is not the fix ---------------------------------------------


def test_vllm_use_deep_gemm_given_as_a_fact_is_said_to_be_in_force_and_not_offered_first():
    doc = scan_json(str(VLLM_SAMPLE), "--fact", "VLLM_USE_DEEP_GEMM=0")
    rems = finding(doc, "deepgemm-unknown-sf-transformation")["remedies"]
    assert rems[0]["id"] != "vllm-disable-deepgemm"
    off = next(r for r in rems if r["id"] == "vllm-disable-deepgemm")
    assert off is rems[-1] and off["applies"] == "fails" and "--fact" in off["in_force"]
    text = scan_text(str(VLLM_SAMPLE), "--fact", "VLLM_USE_DEEP_GEMM=0")
    shown = remedies_shown(text)
    assert shown[0] != "Turn DeepGEMM off in vLLM (CUTLASS/Triton take the FP8 GEMMs)"
    assert shown[-1].endswith("(already in force: not the fix)")
    assert "VLLM_USE_DEEP_GEMM=0 is already set" in " ".join(text.split())


def test_a_variable_the_log_shows_set_is_in_force(tmp_path):
    log = tmp_path / "vllm.log"
    log.write_text("(APIServer pid=1) INFO 08-11 10:00:00 [envs.py:10] VLLM_USE_DEEP_GEMM=false\n"
                   + VLLM_SAMPLE.read_text())
    rems = finding(scan_json(str(log)), "deepgemm-unknown-sf-transformation")["remedies"]
    off = next(r for r in rems if r["id"] == "vllm-disable-deepgemm")
    assert off["in_force"].startswith("VLLM_USE_DEEP_GEMM=false is already set (log ")
    assert rems[0]["id"] != "vllm-disable-deepgemm"


def test_remedy_command_does_not_export_a_variable_the_environment_already_has(monkeypatch):
    monkeypatch.setenv("VLLM_USE_DEEP_GEMM", "0")
    r = CliRunner().invoke(cli, ["remedy", "deepgemm-unknown-sf-transformation", "--fact", "stack=vllm",
                                 "--facts-from", "live"])
    exports = [ln for ln in r.output.splitlines() if ln.startswith("export ")]
    assert "export VLLM_USE_DEEP_GEMM=0" not in exports
    assert "[already in force]" in r.output and "(environment)" in r.output


def test_a_package_already_at_the_version_a_remedy_installs_is_in_force():
    r = CliRunner().invoke(cli, ["check", "--no-probe", "--format", "json", "--fact", "capability=8.0",
                                 "--fact", "stack=vllm", "--fact", "vllm=0.11.0", "--fact", "quantization=fp8"])
    doc = json.loads(r.output)
    rems = [x for f in doc["findings"] if f["id"] == "preflight-pre-ada-fp8-dequantized" for x in f["remedies"]]
    marlin = next(x for x in rems if x["action"].get("spec", "").startswith("vllm>="))
    assert "vllm 0.11.0 is already installed" in marlin["in_force"]


# -- item 6: remedies follow the stack and the version ------------------------------------------------


SGLANG_SM120 = """\
[2026-08-11 10:02:11 TP0] Load weight begin. avail mem=30.12 GB
[2026-08-11 10:02:11 TP0] sglang 0.5.2 on NVIDIA GeForce RTX 5090
[2026-08-11 10:03:40 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/layers/quantization/fp8_utils.py", line 210, in requant_weight_ue8m0
    sf = deep_gemm.transform_sf_into_required_layout(sf, mn, k, (1, 128, 128), is_sfa=False)
RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation
"""


def test_an_sglang_log_is_not_told_to_use_a_vllm_build(tmp_path):
    log = tmp_path / "sglang.log"
    log.write_text(SGLANG_SM120)
    doc = scan_json(str(log))
    assert {f["name"]: f["value"] for f in doc["facts"]}["stack"] == "sglang"
    rems = finding(doc, "deepgemm-unknown-sf-transformation")["remedies"]
    fitting = [r for r in rems if r["applies"] != "fails"]
    assert fitting[0]["id"] == "sglang-triton-fp8-gemm"
    assert all("vLLM" not in r["title"] and "VLLM_" not in r["snippet"] for r in fitting), [r["title"] for r in fitting]
    assert "deepgemm-nv-dev" in [r["id"] for r in fitting]
    assert "vLLM build" not in " ".join(scan_text(str(log)).split())


def test_check_for_vllm_lists_no_transformers_only_remedy():
    r = CliRunner().invoke(cli, ["check", "--no-probe", "--fact", "stack=vllm", "--fact", "capability=10.0",
                                 "--fact", "transformers=4.57.0"])
    assert "ue8m0-silent-corruption" in r.output
    remedies = r.output.split("  remedy:\n", 1)[1]
    assert "export VLLM_USE_DEEP_GEMM=0" in remedies
    assert "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR" not in remedies
    assert "set_experts_implementation" not in remedies
    assert "transformers" not in remedies.lower()


@pytest.mark.parametrize("version, pin_text", [("0.11.0", False), ("0.24.0", True)])
def test_the_v0240_pin_is_named_only_to_a_vllm_that_has_it(tmp_path, version, pin_text):
    log = tmp_path / "vllm.log"
    log.write_text(f"(APIServer pid=1) INFO 08-11 10:00:00 [api_server.py:1839] vLLM API server version {version}\n"
                   + VLLM_SAMPLE.read_text())
    text = " ".join(scan_text(str(log)).split())  # the report wraps to the terminal
    assert ("v0.24.0's pin" in text) is pin_text
    doc = scan_json(str(log))
    fitting = [r["id"] for r in finding(doc, "deepgemm-unknown-sf-transformation")["remedies"] if r["applies"] != "fails"]
    assert fitting[0] == "vllm-disable-deepgemm"
    assert ("deepgemm-with-sm120" in fitting) is pin_text
    assert ("deepgemm-nv-dev" in fitting) is not pin_text


def test_switching_the_experts_to_the_backend_they_already_run_is_in_force():
    r = CliRunner().invoke(cli, ["check", "--no-probe", "--format", "json", "--fact", "capability=10.0",
                                 "--fact", "stack=transformers", "--fact", "transformers=5.10.0", "--fact", "moe=true",
                                 "--fact", "scale_dtype=float32", "--fact", "experts_implementation=grouped_mm"])
    doc = json.loads(r.output)
    rems = next(f for f in doc["findings"] if f["id"] == "ue8m0-silent-corruption")["remedies"]
    grouped = next(x for x in rems if x["id"] == "experts-grouped-mm")
    assert grouped is rems[-1] and "the experts already run grouped_mm (--fact)" == grouped["in_force"]
    assert rems[0]["applies"] == "holds" and rems[0]["id"] != "experts-grouped-mm"


def test_the_trace_names_the_experts_backend_that_failed():
    from fp8triage.judge.remedies import trace_facts
    from fp8triage.scan.events import Assembler
    from fp8triage.scan.normalise import LineFormat, normalise

    evs = []
    asm = Assembler(evs.append)
    for i, raw in enumerate(MOE_SAMPLE.read_text().splitlines(), 1):
        asm.feed(normalise(raw.encode(), "moe.log", i, LineFormat()), True)
    asm.finish()
    got = {f.name: f.value for f in trace_facts([e for e in evs if e.frames])}
    assert got == {"experts_implementation": "deepgemm", "moe": "true"}
