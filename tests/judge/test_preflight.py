"""`fp8triage check`: risks judged from facts alone, remedies, exit codes."""
from __future__ import annotations

import importlib.util
import json
import struct
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.catalogue.loader import load_catalogue
from fp8triage.facts.checkpoint import checkpoint_facts
from fp8triage.cli import cli
from fp8triage.facts.vocabulary import resolve
from fp8triage.model import Fact, Status, Truth
from fp8triage.judge.preflight import CHECKPOINT_FINDING_ID, judge_risks, preflight
from fp8triage.facts.probe import Probe

_spec = importlib.util.spec_from_file_location("ckpt_builder", Path(__file__).parents[1] / "fixtures" / "checkpoints" / "builder.py")
B = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(B)
FIX = Path(__file__).parents[1] / "fixtures" / "envdumps"


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


@pytest.fixture
def f32_ckpt(tmp_path):
    return B.build(tmp_path / "f32")


@pytest.fixture
def ue8m0_ckpt(tmp_path):
    return B.build(tmp_path / "ue8m0", scales="ue8m0")


def run(*args):
    r = CliRunner().invoke(cli, ["check", *args])
    return r


def by_id(doc):
    return {f["id"]: f for f in doc["findings"]}


# --- the done-when --------------------------------------------------------------------


@pytest.mark.parametrize("probe_args", [["--no-probe"], []])
def test_b200_float32_scales_reports_silent_corruption_with_the_remedy(f32_ckpt, probe_args):
    r = run("--model", str(f32_ckpt), "--fact", "gpu=NVIDIA B200", "--fact", "transformers=5.12.1", "--format", "json", *probe_args)
    assert r.exit_code == 3, r.output
    doc = json.loads(r.output)
    f = by_id(doc)["ue8m0-silent-corruption"]
    assert f["status"] == "likely" and f["from_facts_only"] is True
    top = f["remedies"][0]
    assert top["action"] == {"kind": "env", "name": "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR", "value": "1"}
    assert top["applies"] == "holds"
    assert top["snippet"] == "export TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1"
    conds = {c["fact"]: c for c in f["conditions"]}
    assert conds["capability"]["value"] == "10.0" and conds["capability"]["result"] == "holds"
    assert conds["scale_dtype"]["value"] == "float32" and "safetensors" in conds["scale_dtype"]["source"]
    assert doc["exit_code"] == 3


def test_same_checkpoint_with_ue8m0_scales_is_not_at_risk(ue8m0_ckpt):
    r = run("--model", str(ue8m0_ckpt), "--fact", "gpu=NVIDIA B200", "--fact", "transformers=5.12.1", "--format", "json", "--no-probe")
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    f = by_id(doc)["ue8m0-silent-corruption"]
    assert f["status"] == "ruled-out"
    assert any("scale_dtype = float8_e8m0fnu" in c for c in f["contradicted_by"])
    r = run("--model", str(ue8m0_ckpt), "--fact", "gpu=NVIDIA B200", "--fact", "transformers=5.12.1", "--no-probe")
    assert r.exit_code == 0 and "ue8m0-silent-corruption" not in r.output and "No risks found" in r.output


def test_text_output_names_deciding_facts_and_remedy(f32_ckpt):
    r = run("--model", str(f32_ckpt), "--fact", "gpu=NVIDIA B200", "--fact", "transformers=5.12.1", "--no-probe")
    assert r.exit_code == 3
    out = r.output
    assert "[LIKELY] critical  ue8m0-silent-corruption" in out
    assert "holds   capability >=10.0: capability = 10.0" in out
    assert "export TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1" in out
    assert out.index("TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1") < out.index("VLLM_USE_DEEP_GEMM=0")


def test_hopper_is_not_at_risk(f32_ckpt):
    r = run("--model", str(f32_ckpt), "--fact", "gpu=NVIDIA H100 80GB HBM3", "--fact", "transformers=5.12.1", "--no-probe", "--format", "json")
    assert r.exit_code == 0
    assert by_id(json.loads(r.output))["ue8m0-silent-corruption"]["status"] == "ruled-out"


def test_unknown_fact_makes_a_possible_risk_and_fail_on(f32_ckpt):
    args = ["--model", str(f32_ckpt), "--fact", "gpu=NVIDIA B200", "--no-probe"]
    r = run(*args, "--format", "json")
    assert r.exit_code == 0, r.output  # possible does not fail by default
    f = by_id(json.loads(r.output))["ue8m0-silent-corruption"]
    assert f["status"] == "possible" and "transformers" in f["decide"]
    assert run(*args, "--fail-on", "possible").exit_code == 3
    r = run(*args)
    assert "would be decided by: deep_gemm, transformers, vllm" in r.output


def test_disabling_deepgemm_linear_removes_the_risk(f32_ckpt):
    r = run("--model", str(f32_ckpt), "--fact", "gpu=NVIDIA B200", "--fact", "transformers=5.12.1",
            "--fact", "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1", "--no-probe", "--format", "json")
    assert r.exit_code == 0
    f = by_id(json.loads(r.output))["ue8m0-silent-corruption"]
    # the transformers branch fails; vLLM and DeepGEMM are not given, so the risk stays only possible
    assert f["status"] == "possible"
    # on this machine's closed world (nothing of vLLM or DeepGEMM installed) it is ruled out
    pr = Probe([Fact("gpu", "NVIDIA B200", "nvidia-smi", "live")], absent=["vllm", "deep_gemm", "stack"])
    res = preflight(load_catalogue(), [Fact("transformers", "5.12.1", "--fact", "cli"),
                                   Fact("TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR", "1", "--fact", "cli")], [],
                checkpoint=checkpoint_facts(f32_ckpt), probe=pr, facts_from="live", include_ruled_out=True)
    assert {x.id: x for x in res.findings}["ue8m0-silent-corruption"].status is Status.RULED_OUT


# --- the preflight signatures of this issue -----------------------------------------------------


def test_sm120_with_vllm_deepgemm(f32_ckpt):
    base = ["--model", str(f32_ckpt), "--fact", "gpu=NVIDIA GeForce RTX 5090", "--no-probe", "--format", "json"]
    r = run(*base, "--fact", "vllm=0.24.0")
    assert r.exit_code == 3
    f = by_id(json.loads(r.output))["preflight-sm120-vllm-deepgemm"]
    assert f["status"] == "likely"
    assert f["remedies"][0]["snippet"] == "export VLLM_USE_DEEP_GEMM=0"
    for extra in (["--fact", "vllm=0.23.1"], ["--fact", "vllm=0.24.0", "--fact", "VLLM_USE_DEEP_GEMM=0"]):
        doc = json.loads(run(*base, *extra).output)
        assert by_id(doc)["preflight-sm120-vllm-deepgemm"]["status"] == "ruled-out"


def test_sm120_per_tensor_checkpoint_is_not_at_risk(tmp_path):
    d = tmp_path / "pt"
    d.mkdir()
    (d / "config.json").write_text(json.dumps({"model_type": "llama", "quantization_config": {"quant_method": "fp8", "activation_scheme": "static"}}))
    B.write_safetensors(d / "model.safetensors", {"l.weight": ("F8_E4M3", [256, 256], None), "l.weight_scale": ("F32", [], B.f32([0.01]))})
    r = run("--model", str(d), "--fact", "gpu=NVIDIA GeForce RTX 5090", "--fact", "vllm=0.24.0", "--no-probe", "--format", "json")
    f = by_id(json.loads(r.output))["preflight-sm120-vllm-deepgemm"]
    assert f["status"] == "ruled-out"


def test_pre_ada(f32_ckpt):
    r = run("--model", str(f32_ckpt), "--fact", "gpu=NVIDIA A100-SXM4-80GB", "--no-probe", "--format", "json")
    assert r.exit_code == 3
    assert by_id(json.loads(r.output))["preflight-pre-ada-fp8-dequantized"]["status"] == "likely"
    r = run("--model", str(f32_ckpt), "--fact", "gpu=NVIDIA L40S", "--no-probe", "--format", "json")
    assert by_id(json.loads(r.output))["preflight-pre-ada-fp8-dequantized"]["status"] == "ruled-out"


# --- closed world, env files, precedence ---------------------------------------------------------


def test_closed_world_on_this_machine(cat, f32_ckpt):
    info = checkpoint_facts(f32_ckpt)
    pr = Probe([Fact("gpu", "NVIDIA GeForce RTX 5090", "nvidia-smi", "live"), Fact("capability", "12.0", "nvidia-smi", "live")],
               absent=["vllm", "VLLM_USE_DEEP_GEMM", "transformers"])
    res = preflight(cat, [], [], checkpoint=info, probe=pr, facts_from="live", include_ruled_out=True)
    f = {x.id: x for x in res.findings}["preflight-sm120-vllm-deepgemm"]
    assert f.status is Status.RULED_OUT
    vllm = next(c for c in f.conditions if c.fact == "vllm")
    assert vllm.truth is Truth.FAILS and "not installed" in vllm.source
    assert "judging this machine" in res.mode
    # naming another GPU on the command line opens the world: vLLM is then unknown, not absent
    res = preflight(cat, [Fact("gpu", "NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "--fact", "cli")], [],
                checkpoint=info, probe=pr, facts_from="live", include_ruled_out=True)
    f = {x.id: x for x in res.findings}["preflight-sm120-vllm-deepgemm"]
    assert f.status is Status.POSSIBLE and f.decide == ["vllm"]


def test_env_file_of_another_machine(f32_ckpt):
    r = run("--model", str(f32_ckpt), "--env-file", str(FIX / "vllm-collect-env-b200.txt"), "--format", "json")
    assert r.exit_code == 3, r.output
    doc = json.loads(r.output)
    facts = {f["name"]: f for f in doc["facts"]}
    assert facts["capability"]["value"] == "10.0" and facts["capability"]["origin"] == "env-dump"
    assert facts["transformers"]["value"] == "5.12.1" and facts["transformers"]["origin"] == "env-dump"
    assert doc["mode"].startswith("facts-from=dump")
    assert by_id(doc)["ue8m0-silent-corruption"]["status"] == "likely"


def test_env_file_loses_to_live_in_live_mode(cat):
    dump = [Fact("gpu", "NVIDIA B200", "dump:3", "env-dump")]
    pr = Probe([Fact("gpu", "NVIDIA H200", "nvidia-smi", "live"), Fact("capability", "9.0", "nvidia-smi", "live")])
    res = preflight(cat, [], dump, probe=pr, facts_from="live")
    assert res.facts["gpu"].value == "NVIDIA H200" and res.facts["capability"].value == "9.0"
    assert {c["name"] for c in res.conflicts} == {"gpu", "capability"}
    res = preflight(cat, [], dump, probe=pr, facts_from="dump")
    assert res.facts["gpu"].value == "NVIDIA B200" and res.facts["capability"].value == "10.0"


def test_check_facts_from_says_dump_and_still_takes_the_old_name(f32_ckpt):
    env = ["--model", str(f32_ckpt), "--env-file", str(FIX / "vllm-collect-env-b200.txt"), "--format", "json"]
    for word in ("dump", "log"):
        r = run(*env, "--facts-from", word)
        assert r.exit_code == 3, r.output
        assert json.loads(r.output)["mode"].startswith("facts-from=dump")
    r = run(*env, "--facts-from", "logs")
    assert r.exit_code == 2 and "'live', 'dump', 'all'" in r.output


def test_cli_gpu_beats_live_capability(cat):
    pr = Probe([Fact("gpu", "NVIDIA H200", "nvidia-smi", "live"), Fact("capability", "9.0", "nvidia-smi", "live")])
    res = preflight(cat, [Fact("gpu", "NVIDIA B200", "--fact", "cli")], [], probe=pr, facts_from="live")
    assert res.facts["capability"].value == "10.0" and res.facts["capability"].origin == "cli"
    assert "derived" in res.facts["capability"].source
    conflict = next(c for c in res.conflicts if c["name"] == "capability")
    assert {v["value"] for v in conflict["values"]} == {"10.0", "9.0"}


# --- the checkpoint as a finding, and bad input -------------------------------------------------


def test_inconsistent_checkpoint_is_a_finding(tmp_path):
    d = B.build(tmp_path / "m", block=(64, 64), config_block=(128, 128))
    r = run("--model", str(d), "--no-probe", "--format", "json")
    assert r.exit_code == 3
    f = by_id(json.loads(r.output))[CHECKPOINT_FINDING_ID]
    assert f["status"] == "likely" and "weight_block_size [128,128]" in f["evidence"][0]["text"]
    r = run("--model", str(d), "--no-probe")
    assert "checkpoint-config-tensor-mismatch" in r.output and "problem 1:" in r.output


def test_truncated_safetensors_is_one_sentence_exit_1(tmp_path):
    d = B.build(tmp_path / "m")
    (d / "model.safetensors").write_bytes(struct.pack("<Q", 1 << 20) + b"{}")
    r = CliRunner().invoke(cli, ["check", "--model", str(d), "--no-probe"])
    assert r.exit_code == 1
    assert "model.safetensors" in r.output and "truncated or corrupt" in r.output
    assert "Traceback" not in r.output and r.output.strip().count("\n") == 0


def test_bad_inputs(tmp_path):
    r = run("--fact", "gpu", "--no-probe")
    assert r.exit_code == 2 and "name=value" in r.output
    r = run("--fact", "colour=blue", "--no-probe")
    assert r.exit_code == 2 and "not a known fact" in r.output
    junk = tmp_path / "junk.txt"
    junk.write_text("nothing to see\n")
    r = run("--env-file", str(junk), "--no-probe")
    assert r.exit_code == 1 and "no environment dump recognised" in r.output
    r = run("--model", str(tmp_path / "missing"), "--no-probe")
    assert r.exit_code == 1 and "does not exist" in r.output


def test_no_facts_no_likely_risk():
    r = run("--no-probe")
    assert r.exit_code == 0
    assert "Preflight check" in r.output


# --- judge_risks directly, with a catalogue of its own -------------------------------------------

SIG = '''
id = "preflight-test-risk"
title = "A test risk for remedy ranking"
severity = "high"
preflight = true
summary = "Only for the tests of the preflight."
cause = "Only for the tests of the preflight."
fix = "Only for the tests of the preflight."
[evidence]
[[evidence.patterns]]
name = "nothing"
regex = "never matches anything here"
role = "supporting"
[[conditions]]
fact = "capability"
capability = ">=10.0"
[[conditions]]
fact = "stack"
in = ["vllm"]
role = "support"
[[remedies]]
id = "fails"
title = "Does not fit"
action = { kind = "env", name = "A", value = "1" }
when = [ { fact = "capability", capability = "<9.0" } ]
rank = 1
[[remedies]]
id = "unknown"
title = "May fit"
action = { kind = "env", name = "B", value = "1" }
when = [ { fact = "vllm", version = ">=0.1" } ]
rank = 2
[[remedies]]
id = "fits-late"
title = "Fits, ranked later"
action = { kind = "env", name = "C", value = "1" }
rank = 30
[[remedies]]
id = "fits-early"
title = "Fits, ranked earlier"
action = { kind = "env", name = "D", value = "1" }
when = [ { fact = "capability", capability = ">=10.0" } ]
rank = 20
'''


def test_run_check_statuses_and_remedy_ranking(tmp_path):
    d = tmp_path / "sigs"
    d.mkdir()
    (d / "preflight-test-risk.toml").write_text(SIG)
    cat = load_catalogue([d], builtin=False)
    facts, _ = resolve([Fact("capability", "10.0", "x", "cli")])
    [f] = judge_risks(cat, facts)
    assert f.status is Status.LIKELY and f.from_facts_only
    assert [r.id for r in f.remedies] == ["fits-early", "fits-late", "unknown", "fails"]
    assert [r.applies for r in f.remedies] == [Truth.HOLDS, Truth.HOLDS, Truth.UNKNOWN, Truth.FAILS]
    # a failing supporting condition lowers it to possible
    facts, _ = resolve([Fact("capability", "10.0", "x", "cli"), Fact("stack", "sglang", "x", "cli")])
    [f] = judge_risks(cat, facts)
    assert f.status is Status.POSSIBLE and f.contradicted_by
    # required fact unknown -> possible, with the deciding fact
    [f] = judge_risks(cat, {})
    assert f.status is Status.POSSIBLE and f.decide == ["capability"]
    # failing -> hidden unless asked
    facts, _ = resolve([Fact("capability", "9.0", "x", "cli")])
    assert judge_risks(cat, facts) == []
    [f] = judge_risks(cat, facts, include_ruled_out=True)
    assert f.status is Status.RULED_OUT


def test_every_preflight_signature_has_conditions_and_samples(cat):
    root = Path(__file__).parents[2] / "signatures" / "samples"
    for sig in cat.signatures:
        if sig.id.startswith("preflight-"):
            assert sig.preflight and sig.conditions and sig.remedies
            assert list((root / sig.id / "match").glob("*.log")), sig.id
            assert list((root / sig.id / "near-miss").glob("*.log")), sig.id


def test_a_variables_default_reads_as_a_sentence():
    """issue 16, item 14: the note on an unset variable says it is not set and which default applies."""
    from fp8triage.catalogue.conditions import parse_condition
    from fp8triage.judge.conditions import evaluate
    from fp8triage.model import Truth

    r = evaluate(parse_condition({"fact": "VLLM_USE_DEEP_GEMM", "not_in": ["0", "false"], "default": "1",
                                  "why": "DeepGEMM is on unless VLLM_USE_DEEP_GEMM=0"}), {})
    assert r.truth is Truth.HOLDS and r.value == "1"
    assert r.note == "DeepGEMM is on unless VLLM_USE_DEEP_GEMM=0; VLLM_USE_DEEP_GEMM is not set, so its default '1' applies"
    assert r.source == "its default: not set anywhere we looked"


# -- issue 24, item 12: a machine without a GPU says so ------------------------------------------------


def test_check_on_a_machine_without_a_gpu_says_so(cat):
    from fp8triage.render.facts_text import render_check_text

    probe = Probe([Fact("python", "3.12.3", "platform", "live")],
                  notes=["nvidia-smi not found or failed: no GPU facts from it"])
    text = render_check_text(preflight(cat, [], [], probe=probe))
    assert "warning: no GPU found on this machine (nvidia-smi not found" in text
    assert "--fact gpu=" in text
    # a GPU named on the command line, or one the probe found: no such warning
    given = preflight(cat, [Fact("gpu", "NVIDIA B200", "--fact", "cli")], [], probe=probe)
    assert not any("no GPU" in w for w in given.warnings)
    found = Probe([Fact("gpu", "NVIDIA H200", "nvidia-smi", "live")])
    assert not any("no GPU" in w for w in preflight(cat, [], [], probe=found).warnings)
