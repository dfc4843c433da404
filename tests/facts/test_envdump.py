"""Environment dumps: each format as a file, and embedded in a log."""
from __future__ import annotations

from pathlib import Path

import pytest

from fp8triage.facts.envdump import ENV_DUMP_ANCHORS, _detect_formats, _env_dump_facts, find_env_dumps, parse_env_dump
from fp8triage.model import Line

FIX = Path(__file__).parents[1] / "fixtures" / "envdumps"


def facts_of(name: str) -> dict[str, tuple[str, str]]:
    out = {}
    for f in parse_env_dump((FIX / name).read_text(), name):
        assert f.origin == "env-dump"
        assert f.name not in out, f"duplicate {f.name}"
        out[f.name] = (f.value, f.source)
    return out


def values(d):
    return {k: v for k, (v, _) in d.items()}


def test_torch_collect_env_real_h200():
    d = facts_of("torch-collect-env-h200.txt")
    assert values(d) == {
        "torch": "2.11.0+cu130",
        "cuda": "13.0",
        "os": "Ubuntu 24.04.3 LTS (x86_64)",
        "python": "3.12.3",
        "nvcc": "13.0.88",
        "driver": "580.159.04",
        "triton": "3.6.0",
        "gpu": "NVIDIA H200",
        "gpu_count": "1",
        "capability": "9.0",
    }
    assert d["torch"][1] == "torch-collect-env-h200.txt:3 (torch collect_env)"
    assert "derived" in d["capability"][1] and "Hopper" in d["capability"][1]
    assert _detect_formats((FIX / "torch-collect-env-h200.txt").read_text()) == ["torch-collect-env"]


def test_transformers_env_real_h200():
    d = values(facts_of("transformers-env-h200.txt"))
    assert d["transformers"] == "5.17.0"
    assert d["torch"] == "2.11.0+cu130"
    assert d["python"] == "3.12.3"
    assert d["gpu"] == "NVIDIA H200"
    assert d["capability"] == "9.0"
    assert "Using GPU in script" not in str(d)


def test_transformers_env_older_format():
    text = """Copy-and-paste the text below in your GitHub issue and FILL OUT the two last points.

- `transformers` version: 4.46.3
- Platform: Linux-5.15.0-x86_64-with-glibc2.35
- Python version: 3.10.12
- Huggingface_hub version: 0.26.2
- PyTorch version (GPU?): 2.5.1+cu124 (True)
- Tensorflow version (GPU?): not installed (NA)
- Using distributed or parallel set-up in script?: <fill in>
- GPU type: NVIDIA A100-SXM4-80GB
"""
    d = values({f.name: (f.value, f.source) for f in parse_env_dump(text, "t.txt")})
    assert d["transformers"] == "4.46.3" and d["torch"] == "2.5.1+cu124"
    assert d["gpu"] == "NVIDIA A100-SXM4-80GB" and d["capability"] == "8.0"


def test_nvidia_smi_table_real_h200():
    d = facts_of("nvidia-smi-h200.txt")
    assert values(d) == {"driver": "580.159.04", "cuda": "13.0", "gpu": "NVIDIA H200", "gpu_count": "1", "capability": "9.0"}
    assert "driver supports" in d["cuda"][1]


def test_nvidia_smi_table_several_gpus_and_truncated_names():
    lines = (FIX / "nvidia-smi-h200.txt").read_text().splitlines()
    row = next(i for i, ln in enumerate(lines) if "NVIDIA H200" in ln)
    block = lines[row:row + 3]
    gpu1 = [block[0].replace("|   0  NVIDIA H200          ", "|   1  NVIDIA RTX PRO 6000 B...")] + block[1:]
    text = "\n".join(lines[: row + 3] + gpu1 + lines[row + 3:])
    d = values({f.name: (f.value, f.source) for f in parse_env_dump(text, "smi")})
    assert d["gpu"] == "NVIDIA H200" and d["gpu_count"] == "2"
    assert d["capability"] == "9.0"


@pytest.mark.parametrize("name", ["nvidia-smi-query-h200.csv", "nvidia-smi-query-noheader-h200.csv"])
def test_nvidia_smi_query_csv_real(name):
    d = facts_of(name)
    assert values(d) == {"gpu": "NVIDIA H200", "gpu_count": "1", "capability": "9.0", "driver": "580.159.04"}
    assert "compute_cap" in d["capability"][1]  # read, not derived


def test_nvidia_smi_query_csv_other_columns():
    text = "name, driver_version, compute_cap, memory.total [MiB]\nNVIDIA B200, 580.95.05, 10.0, 183359 MiB\nNVIDIA B200, 580.95.05, 10.0, 183359 MiB\n"
    d = {f.name: f.value for f in parse_env_dump(text, "q")}
    assert d == {"gpu": "NVIDIA B200", "gpu_count": "2", "capability": "10.0", "driver": "580.95.05"}


def test_vllm_collect_env_current_layout():
    d = facts_of("vllm-collect-env-b200.txt")
    v = values(d)
    assert _detect_formats((FIX / "vllm-collect-env-b200.txt").read_text()) == ["vllm-collect-env"]
    assert v["vllm"] == "0.26.1"
    assert v["torch"] == "2.10.0+cu130" and v["transformers"] == "5.12.1"
    assert v["deep_gemm"] == "2.5.0" and v["flashinfer"] == "0.6.8.post1" and v["triton"] == "3.5.1"
    assert v["gpu"] == "NVIDIA B200" and v["gpu_count"] == "8" and v["capability"] == "10.0"
    assert v["driver"] == "580.95.05" and v["nvcc"] == "13.0.88" and v["cuda"] == "13.0"
    assert v["VLLM_USE_DEEP_GEMM"] == "1" and v["VLLM_USE_DEEP_GEMM_E8M0"] == "0"
    assert v["stack"] == "vllm"
    assert d["VLLM_USE_DEEP_GEMM_E8M0"][1] == "vllm-collect-env-b200.txt:119 (vLLM collect_env, environment variable)"
    assert "NCCL_VERSION" not in v  # not a dispatch variable


def test_vllm_collect_env_legacy_layout():
    v = values(facts_of("vllm-collect-env-legacy-rtx5090.txt"))
    assert v["vllm"] == "0.9.1" and v["stack"] == "vllm"
    assert v["gpu"] == "NVIDIA GeForce RTX 5090" and v["capability"] == "12.0"
    assert v["torch"] == "2.7.0+cu128" and v["flashinfer"] == "0.2.5"
    assert v["VLLM_USE_DEEP_GEMM"] == "1"
    assert "hf_" not in str(v)


def test_not_a_dump():
    assert parse_env_dump("hello\nRuntimeError: boom\nname: x\n", "x") == []
    assert parse_env_dump("", "x") == []


def test_dumps_embedded_in_a_log():
    torch_dump = (FIX / "torch-collect-env-h200.txt").read_text().splitlines()
    tf_dump = (FIX / "transformers-env-h200.txt").read_text().splitlines()
    log = (
        ["INFO 12-02 10:00:00 [api_server.py:1] starting"]
        + torch_dump
        + ["", "Traceback (most recent call last):", '  File "x.py", line 1, in <module>', "RuntimeError: boom"]
        + tf_dump
        + ["NVIDIA H200, 9.0, 580.159.04", "ordinary text after"]
    )
    lines = [Line("server.log", i, t) for i, t in enumerate(log, 1)]
    dumps = find_env_dumps(lines)
    assert [d.format for d in dumps] == ["torch-collect-env", "transformers-env", "nvidia-smi-csv"]
    torch_d = dumps[0]
    assert torch_d.first_line == 3  # "Collecting environment information..." (line 2 is the runpy warning)
    assert torch_d.last_line == 1 + len(torch_dump)
    f = {x.name: x for x in torch_d.facts}
    assert f["torch"].source == "server.log:4 (torch collect_env)"
    assert all(x.origin == "env-dump" for d in dumps for x in d.facts)
    assert len(_env_dump_facts(lines)) == sum(len(d.facts) for d in dumps)


def test_logger_record_ends_an_embedded_dump():
    text = ["Collecting environment information...", "PyTorch version: 2.11.0+cu130",
            "GPU models and configuration: GPU 0: NVIDIA H200", "Python version: 3.9.1"]
    lines = [Line("a.log", i, t) for i, t in enumerate(text, 1)]
    lines[3] = Line("a.log", 4, "Python version: 3.9.1", level="INFO")  # a log record, not part of the dump
    d = find_env_dumps(lines)[0]
    assert d.last_line == 3
    assert "python" not in {x.name for x in d.facts}


@pytest.mark.parametrize("end", ["</details>", "```", "### 🐛 Describe the bug"])
def test_an_issue_template_s_markdown_ends_a_pasted_collect_env(end):
    from fp8triage.drivers.batch import scan_text

    text = ("### Your current environment\n<details>\n<summary>The output of collect_env.py</summary>\n\n"
            "PyTorch version: 2.10.0+cu130\nGPU models and configuration: \nGPU 0: NVIDIA GB10\n"
            f"vLLM Version: 0.26.2\n{end}\n\n"
            "Qwen3-8B-FP8 serves garbage: `!!!!!!!!`, NaN logprobs. No exceptions anywhere.\n"
            "Startup log has `Selected DeepGemmFp8BlockScaledMMKernel for Fp8LinearMethod`; "
            "with VLLM_USE_DEEP_GEMM=0 it gives normal text.\n")
    res = scan_text(text, source="issue.md")
    facts = {f.name: f.value for f in res.facts}
    assert facts["gpu"] == "NVIDIA GB10" and facts.get("deepgemm_named") == "true"  # the sentences after are read
    assert res.findings and res.findings[0].id == "ue8m0-silent-corruption"


def test_anchors_cover_every_start_line():
    for name in ["torch-collect-env-h200.txt", "transformers-env-h200.txt", "nvidia-smi-h200.txt",
                 "nvidia-smi-query-h200.csv", "vllm-collect-env-b200.txt"]:
        text = (FIX / name).read_text()
        assert any(a in text for a in ENV_DUMP_ANCHORS), name


def test_a_chat_line_with_as_many_commas_does_not_go_on_with_an_nvidia_smi_csv():
    from fp8triage.drivers.batch import scan_text

    text = ("$ nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv\n"
            "name, compute_cap, driver_version\n"
            "NVIDIA B200, 10.0, 580.95.05\n"
            "[11:03] dana: container = transformers 5.12.1, a fine-tune we quantized with FineGrainedFP8Config() (float scales)\n")
    got = {f.name: f.value for f in scan_text(text).facts}
    assert got["gpu_count"] == "1" and got["transformers_fp8_named"] == "true" and got["quantization"] == "fp8"
