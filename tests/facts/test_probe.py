"""The live probe: nvidia-smi, nvcc, packages, env vars, torch only when asked; never an error."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from fp8triage.facts import probe as P
from fp8triage.cli import cli
from fp8triage.facts.envdump import parse_env_dump
from fp8triage.model import Fact

FIX = Path(__file__).parents[1] / "fixtures" / "envdumps"

SMI_QUERY = "NVIDIA B200, 10.0, 580.95.05\nNVIDIA B200, 10.0, 580.95.05\n"
SMI_HEADER = (FIX / "nvidia-smi-h200.txt").read_text()
NVCC = "nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 13.0, V13.0.88\nBuild cuda_13.0.r13.0\n"


def fake_runner(table):
    calls = []

    def run(argv):
        calls.append(argv)
        key = argv[0].rsplit("/", 1)[-1] + (" query" if any(a.startswith("--query-gpu") for a in argv) else "")
        return table.get(key)

    run.calls = calls
    return run


def by_name(facts):
    out = {}
    for f in facts:
        out.setdefault(f.name, f)
    return out


def test_full_probe_with_fake_tools():
    run = fake_runner({"nvidia-smi query": SMI_QUERY, "nvidia-smi": SMI_HEADER, "nvcc": NVCC})
    versions = {"transformers": "5.12.1", "deep-gemm": "2.5.0", "flashinfer-python": "0.6.8"}
    env = {"VLLM_USE_DEEP_GEMM": "0", "CUDA_VISIBLE_DEVICES": "0,1", "HF_TOKEN": "hf_secret"}
    pr = P.probe(run=run, environ=env, version_of=versions.get)
    f = by_name(pr.facts)
    assert f["gpu"].value == "NVIDIA B200" and f["gpu"].origin == "live"
    assert f["gpu_count"].value == "2"
    assert f["capability"].value == "10.0" and "compute_cap" in f["capability"].source
    assert f["driver"].value == "580.95.05"
    assert f["cuda"].value == "13.0" and "driver supports" in f["cuda"].source
    assert f["nvcc"].value == "13.0.88"
    assert f["transformers"].value == "5.12.1"
    assert f["deep_gemm"].value == "2.5.0" and "deep-gemm" in f["deep_gemm"].source
    assert f["deepgemm_source"].value == "pip"
    assert f["flashinfer"].value == "0.6.8"
    assert f["VLLM_USE_DEEP_GEMM"].value == "0"
    assert f["CUDA_VISIBLE_DEVICES"].value == "0,1"
    assert "HF_TOKEN" not in f  # not a dispatch variable: never collected
    assert "vllm" in pr.absent and "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR" in pr.absent
    assert "VLLM_USE_DEEP_GEMM" not in pr.absent
    assert all(x.origin == "live" for x in pr.facts)


def test_no_gpu_tools_is_fewer_facts_not_an_error():
    pr = P.probe(run=lambda argv: None, environ={}, version_of=lambda n: None)
    names = {f.name for f in pr.facts}
    assert names == {"python", "os"}
    assert any("nvidia-smi" in n for n in pr.notes)
    assert any("nvcc" in n for n in pr.notes)
    assert set(P.PACKAGES) <= set(pr.absent)


def test_capability_derived_from_name_when_smi_has_no_compute_cap():
    # old drivers print [N/A] (or lack the field): derive from the name, origin "derived"
    run = fake_runner({"nvidia-smi query": "NVIDIA GeForce RTX 5090, [N/A], 575.51.03\n"})
    pr = P.probe(run=run, environ={}, version_of=lambda n: None)
    cc = [f for f in pr.facts if f.name == "capability"]
    assert len(cc) == 1
    assert cc[0].value == "12.0" and cc[0].origin == "derived"
    assert "derived" in cc[0].source and "RTX 5090" in cc[0].source


def test_nvcc_found_through_cuda_home():
    run = fake_runner({})
    seen = []

    def runner(argv):
        seen.append(argv[0])
        return NVCC if argv[0] == "/opt/cuda-13/bin/nvcc" else run(argv)

    pr = P.probe(run=runner, environ={"CUDA_HOME": "/opt/cuda-13"}, version_of=lambda n: None)
    assert by_name(pr.facts)["nvcc"].source.startswith("/opt/cuda-13/bin/nvcc")
    assert "nvcc" in seen and "/opt/cuda-13/bin/nvcc" in seen


def test_run_command_missing_and_timeout():
    assert P.run_command(["definitely-not-a-command-fp8triage"]) is None
    assert P.run_command([sys.executable, "-c", "import time; time.sleep(5)"], timeout=0.3) is None
    assert P.run_command([sys.executable, "-c", "import sys; sys.exit(3)"]) is None
    assert P.run_command([sys.executable, "-c", "print('hi')"]) == "hi\n"


def test_env_values_are_redacted_by_the_one_secret_name_list(monkeypatch):
    from fp8triage.common.redact import MASK, redact_env_value

    assert redact_env_value("HF_TOKEN", "hf_abc") == MASK
    assert redact_env_value("OPENAI_API_KEY", "sk-1") == MASK
    assert redact_env_value("DB_PASSWORD", "x") == MASK
    assert redact_env_value("DG_JIT_CACHE_DIR", "/root/.cache/dg") == "/root/.cache/dg"
    assert redact_env_value("PROXY", "http://user:pw@proxy:3128") == f"http://user:{MASK}@proxy:3128"
    # the probe's environment facts go through it
    monkeypatch.setenv("VLLM_USE_DEEP_GEMM", "1")
    monkeypatch.setenv("HF_TOKEN", "hf_" + "x" * 30)
    facts = {f.name: f.value for f in P.probe().facts}
    assert facts.get("VLLM_USE_DEEP_GEMM") == "1" and "hf_" + "x" * 30 not in str(facts)


def test_probe_does_not_import_torch_unless_asked():
    code = "import sys, fp8triage.facts.probe as p; p.probe(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).parents[2])
    assert out.stdout.strip() == "False"


def test_live_facts_on_this_machine():
    facts = P.live_facts()
    assert all(isinstance(f, Fact) and f.origin in ("live", "derived") for f in facts)
    assert any(f.name == "python" and f.value.count(".") == 2 for f in facts)


def test_derive_capabilities_keeps_origin_of_the_name():
    facts = [
        Fact("gpu", "NVIDIA B200", "--fact", "cli"),
        Fact("gpu", "NVIDIA H200", "nvidia-smi", "live"),
        Fact("capability", "9.0", "nvidia-smi", "live"),
        Fact("gpu", "NVIDIA A100-SXM4-80GB", "log x:1", "log"),
        Fact("capability", "8.0", "log x:2", "log"),
        Fact("gpu", "Some Future GPU", "env", "env-dump"),
    ]
    got = P.derive_capabilities(facts)
    assert [(f.value, f.origin) for f in got] == [("10.0", "cli")]
    # a live name with no live capability is derived once, with origin "derived"
    again = P.derive_capabilities([Fact("gpu", "NVIDIA L40S", "smi", "live")] * 2)
    assert [(f.value, f.origin) for f in again] == [("8.9", "derived")]
    assert P.derive_capabilities(again + [Fact("gpu", "NVIDIA L40S", "smi", "live")]) == []


def test_env_command_json_and_text():
    r = CliRunner().invoke(cli, ["env", "--format", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert (doc["schema_version"], doc["kind"]) == ("1.0", "env")
    assert any(f["name"] == "python" for f in doc["facts"])
    r = CliRunner().invoke(cli, ["env"])
    assert r.exit_code == 0 and "Facts of this machine" in r.output and "python" in r.output


def test_recorded_gpu_env_output_agrees_with_that_machines_dumps():
    """The `env --format json` captured on the GPU machine (docs/facts.md) reports capability 9.0 and
    the same GPU, driver and versions as torch's collect_env captured in the same run."""
    doc = json.loads((FIX / "fp8triage-env-h200.json").read_text())
    live = {f["name"]: f["value"] for f in doc["facts"]}
    assert live["capability"] == "9.0"
    dump = by_name(parse_env_dump((FIX / "torch-collect-env-h200.txt").read_text(), "collect_env"))
    assert live["gpu"] == dump["gpu"].value == "NVIDIA H200"
    assert live["driver"] == dump["driver"].value
    assert live["nvcc"] == dump["nvcc"].value
    assert live["triton"] == dump["triton"].value
    assert dump["torch"].value.startswith(live["torch"])
    torch_doc = json.loads((FIX / "fp8triage-env-torch-h200.json").read_text())
    assert ("capability", "9.0") in {(f["name"], f["value"]) for f in torch_doc["facts"] if f["source"].startswith("torch.")}


def test_env_lists_each_fact_once_with_torch():
    """issue 16, item 14: torch.__version__ and the installed distribution are one fact, not two lines."""
    def version_of(dist):
        return {"torch": "2.13.0+cpu", "vllm": "0.24.0"}.get(dist)

    got = P.probe(use_torch=False, run=lambda *a, **k: None, environ={}, version_of=version_of)
    assert [f.name for f in got.facts].count("torch") == 1
    fresh = P.Probe([])  # what `env --torch` does: torch's own facts first, then the packages
    fresh.facts.append(Fact("torch", "2.13.0+cpu", "torch.__version__", "live"))
    P._package_facts(fresh, version_of)
    assert [(f.name, f.source) for f in fresh.facts if f.name == "torch"] == [("torch", "torch.__version__")]


def test_facts_command_says_version_once():
    r = CliRunner().invoke(cli, ["facts"])
    assert r.exit_code == 0 and "version version" not in r.output
    assert "NVIDIA driver version" in r.output and "Python version" in r.output
