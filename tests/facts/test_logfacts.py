"""Facts read from logs carry their source line; advice text is not taken for a setting."""
from __future__ import annotations

import pytest

from fp8triage.facts.logfacts import _facts_from_lines
from fp8triage.model import Line


def facts(*texts):
    out = {}
    for f in _facts_from_lines(Line("server.log", i, t) for i, t in enumerate(texts, 1)):
        out.setdefault(f.name, (f.value, f.source))
    return out


def test_gpu_name_maps_to_capability_with_provenance():
    got = facts("INFO [cuda.py:398] Device 0: NVIDIA GeForce RTX 5090, memory 32 GiB")
    assert got["gpu"][0] == "NVIDIA GeForce RTX 5090"
    assert got["capability"] == ("12.0", "log server.log:1 (NVIDIA GeForce RTX 5090 is Blackwell (GeForce))")


def test_explicit_capability_forms():
    assert facts("device capability 12.0")["capability"][0] == "12.0"
    assert facts("NVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible")["capability"][0] == "12.0"
    assert facts("Minimum capability: 90. Current capability: 86.")["capability"][0] == "8.6"
    assert facts("ImportError: DeepGEMM requires Hopper (SM90) or Blackwell (SM100); current device is SM120.")["capability"][0] == "12.0"


def test_supported_arch_list_is_not_the_device():
    assert "capability" not in facts("The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_80 sm_90.")


def test_versions():
    got = facts(
        "INFO 08-11 09:14:02 [api_server.py:1805] vLLM API server version 0.24.0",
        "transformers 5.17.0 torch 2.11.0+cu130 gpu NVIDIA H200 (9, 0)",
        "sgl-deep-gemm==0.1.4",
    )
    assert got["vllm"][0] == "0.24.0"
    assert got["transformers"][0] == "5.17.0"
    assert got["torch"][0] == "2.11.0+cu130"
    assert got["sgl_deep_gemm"][0] == "0.1.4"
    assert got["capability"][0] == "9.0"


def test_env_settings_but_not_advice():
    got = facts("VLLM_USE_DEEP_GEMM=1 lm_eval --model vllm --model_args pretrained=Qwen/Qwen3-30B-A3B-FP8")
    assert got["VLLM_USE_DEEP_GEMM"][0] == "1"
    assert got["model"][0] == "Qwen/Qwen3-30B-A3B-FP8"  # not "vllm" (lm_eval's backend name)
    assert got["moe"][0] == "true" and got["quantization"][0] == "fp8"
    advice = facts("Falling back to CUTLASS. To disable DeepGemm globally, set VLLM_USE_DEEP_GEMM=0.",
                   "Set `TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1` to skip DeepGEMM for FP8 linear entirely.")
    assert "VLLM_USE_DEEP_GEMM" not in advice and "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR" not in advice
    # what the reporter set is a setting of the run, not advice
    mine = facts("I set `VLLM_USE_DEEP_GEMM_E8M0=0` to test accuracy on the B200 and the server dies in warmup.")
    assert mine["VLLM_USE_DEEP_GEMM_E8M0"][0] == "0"
    # a sentence's colon or full stop after the value is not the value
    assert facts("with VLLM_USE_DEEP_GEMM=0: fine")["VLLM_USE_DEEP_GEMM"][0] == "0"


def test_stack_prefers_the_server_over_libraries():
    got = facts(
        '  File "/usr/lib/python3/dist-packages/transformers/modeling_utils.py", line 5008, in from_pretrained',
        '  File "/usr/lib/python3/dist-packages/vllm/model_executor/model_loader/utils.py", line 113, in x',
    )
    assert got["stack"][0] == "vllm"


def test_the_version_an_upgrade_left_is_not_the_running_one():
    assert facts("image bumped from vllm 0.11.x to `pip install vllm==0.24.0`")["vllm"][0] == "0.24.0"
    assert "vllm" not in facts("went from vllm 0.10.2 to the nightly")


@pytest.mark.parametrize("prefix", ["(EngineCore_DP0 pid=402) ", "(VllmWorker rank=3 pid=9) ", "(Worker_TP1 pid=5188) "])
def test_a_log_that_vllm_s_process_names_prefix_is_vllm_s(prefix):
    """The worker prefix is stripped from the line, yet it is the only mark of the stack in many pasted tails."""
    from fp8triage.drivers.batch import scan_text

    text = prefix + "ERROR 05-02 11:20:07 [core.py:866] RuntimeError: Invalid activation type.\n"
    assert {f.name: f.value for f in scan_text(text).facts}.get("stack") == "vllm"
    assert "stack" not in {f.name for f in scan_text("[rank0]: RuntimeError: Invalid activation type.\n").facts}


def test_env_dump_pasted_into_a_log_gives_env_dump_facts(root):
    from fp8triage.drivers.batch import scan_text

    dump = (root / "tests" / "fixtures" / "envdumps" / "torch-collect-env-h200.txt").read_text()
    log = "user: here is my env\n" + dump + "RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation\n"
    r = scan_text(log)
    got = {f.name: f for f in r.facts}
    assert got["torch"].value == "2.11.0+cu130" and got["torch"].origin == "env-dump"
    assert got["capability"].value == "9.0"
    assert "stack" not in got or got["stack"].value != "tensorrt-llm"  # a pip list is not the stack
    top = r.findings[0]
    assert top.id == "deepgemm-unknown-sf-transformation" and top.status.value == "possible"  # SM90 contradicts


# -- advice in a log is not a fact of the machine (issue 16, item 14) -------------------------------

@pytest.mark.parametrize("text,absent", [
    ("Use a checkpoint quantized with scale_fmt='ue8m0', or a path that consumes float32 block scales", ("scale_fmt", "ue8m0")),
    ("If your checkpoint has scale_fmt: float, requantize it", ("scale_fmt", "float")),
    ("Please set VLLM_USE_DEEP_GEMM=0 to disable DeepGEMM.", ("VLLM_USE_DEEP_GEMM", "0")),
    ("This model needs a newer GPU; consider an NVIDIA H100 instead", ("gpu", "NVIDIA H100")),
    # a remedy's label: the fix that followed, not the failing run's setting
    ("Mitigation: VLLM_USE_DEEP_GEMM=0 in the deployment env (back to CUTLASS block FP8, healthy).", ("VLLM_USE_DEEP_GEMM", "0")),
    ("Workaround: `export VLLM_USE_DEEP_GEMM=0`", ("VLLM_USE_DEEP_GEMM", "0")),
    # code in a frame's source line: an assignment, not the run's quantization method
    ("    self.quant_method = quant_config.get_quant_method(self, prefix)", ("quantization", "quant_config")),
])
def test_advice_text_gives_no_facts(text, absent):
    from fp8triage.facts.logfacts import _facts_from_lines
    from fp8triage.model import Line

    got = {(f.name, f.value) for f in _facts_from_lines([Line("s.log", 1, text)])}
    assert absent not in got, got


@pytest.mark.parametrize("text,present", [
    ("quantization_config: {'quant_method': 'fp8', 'scale_fmt': 'ue8m0'}", ("scale_fmt", "ue8m0")),
    ("+ export VLLM_USE_DEEP_GEMM=0", ("VLLM_USE_DEEP_GEMM", "0")),
    ("GPU 0: NVIDIA H200 (UUID: GPU-1234)", ("gpu", "NVIDIA H200")),
    ("WARNING 10-20 09:14:07 [_custom_ops.py:20] Failed to import from vllm._C with ImportError('/opt/venv/lib/python3.12/"
     "site-packages/vllm/_C.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEa')", ("vllm_ops_unloaded", "true")),
])
def test_statements_still_give_facts(text, present):
    from fp8triage.facts.logfacts import _facts_from_lines
    from fp8triage.model import Line

    assert present in {(f.name, f.value) for f in _facts_from_lines([Line("s.log", 1, text)])}


# every product name the GPU table knows, as logs print it
KNOWN_GPUS = ["NVIDIA GB10", "DGX Spark", "NVIDIA RTX PRO 6000 Blackwell Server Edition", "NVIDIA GeForce RTX 5090",
              "NVIDIA GeForce RTX 5060 Ti", "Jetson T5000", "NVIDIA GB300", "NVIDIA B300", "NVIDIA GB200",
              "NVIDIA B200", "NVIDIA B100", "NVIDIA GH200 480GB", "NVIDIA H200", "NVIDIA H100 80GB HBM3",
              "NVIDIA H800", "NVIDIA H20", "NVIDIA L40S", "NVIDIA L40", "NVIDIA L4", "NVIDIA L20",
              "NVIDIA RTX 6000 Ada Generation", "NVIDIA RTX 4000 Ada Generation", "NVIDIA GeForce RTX 4090",
              "NVIDIA A100-SXM4-80GB", "NVIDIA A800", "NVIDIA A30", "NVIDIA A40", "NVIDIA A10G", "NVIDIA A10",
              "NVIDIA A16", "NVIDIA A2", "NVIDIA RTX A6000", "NVIDIA GeForce RTX 3090", "Tesla T4",
              "NVIDIA GeForce RTX 2080", "Quadro RTX 8000", "Tesla V100-SXM2-16GB", "Tesla P100-PCIE-16GB"]


@pytest.fixture(scope="module")
def prefilter():
    from fp8triage.catalogue.loader import load_catalogue
    from fp8triage.scan.scanner import make_prefilter

    return make_prefilter(load_catalogue())


def _fact_line(pf, text):
    """Does the prefilter, by ``re`` and by Hyperscan (a span long enough for it), give this
    log line the FACT bit?"""
    from fp8triage.scan.prefilter import FACT

    raw = f"(VllmWorker rank=0 pid=1) INFO 08-01 09:00:00 [worker.py:1] {text}".encode()
    span = b"filler line\n" * 8000 + raw + b"\n"
    _starts, flags = pf.hits(span)
    by_hs = bool(flags.get(len(span) - len(raw) - 1, 0) & FACT)
    by_re = bool(pf.classify(raw) & FACT)
    assert by_hs == by_re, text
    return by_re


@pytest.mark.parametrize("name", KNOWN_GPUS)
def test_every_known_gpu_name_is_read_where_logs_print_it(prefilter, name):
    from fp8triage.common.gpus import capability_for

    assert capability_for(name) is not None, name
    texts = [f"GPU 0: {name}"]
    if any(brand in name for brand in ("NVIDIA", "Tesla", "Quadro", "DGX")):
        texts += [f"Using device: {name} (UUID: GPU-1234)", f"device_name={name!r}"]
    for text in texts:
        assert _fact_line(prefilter, text), text
        assert facts(text)["capability"][0] == capability_for(name)[0], text


@pytest.mark.parametrize("text, capability", [("H100 GPU detected", "9.0"), ("running on 8x H20 96GB GPUs", "9.0"),
                                              ("L4 GPU", "8.9"), ("A100-80GB GPU", "8.0"), ("GPU=A10", "8.6")])
def test_a_known_name_right_next_to_the_word_gpu_is_read(prefilter, text, capability):
    assert _fact_line(prefilter, text)
    assert facts(text)["capability"][0] == capability


@pytest.mark.parametrize("text, capability", [("GPU: 4x H100", "9.0"), ("GPUs: 8 x H20", "9.0"),
                                              ("Hardware: 4x RTX PRO 6000 Blackwell Workstation (sm_120)", "12.0"),
                                              ("Hardware: B200", "10.0"), ("- GPU: 2x NVIDIA B200", "10.0"),
                                              ("| GPU | RTX PRO 6000 Blackwell Workstation |", "12.0"), ("| GPU | H20 x8 |", "9.0")])
def test_an_environment_tables_gpu_line_with_a_count_is_read(prefilter, text, capability):
    # what a bug report's environment section says: a label, a count, the product
    assert _fact_line(prefilter, text)
    assert facts(text)["capability"][0] == capability


@pytest.mark.parametrize("text", ["GPU KV cache usage: 97.4%, Prefix cache hit rate: 84.1%",
                                  "GPU blocks: 21312, CPU blocks: 2048 (A2 of plan)",
                                  "Hardware: 4 nodes, 2x 100GbE links"])
def test_gpu_in_a_stats_line_is_no_fact_trigger(prefilter, text):
    assert not _fact_line(prefilter, text)


# -- issue 24, items 8 and 12 ---------------------------------------------------------------------

VLLM_011 = [
    "(APIServer pid=1) INFO 10-08 12:00:03 [api_server.py:1839] vLLM API server version 0.11.0",
    "(EngineCore_DP0 pid=200) INFO 10-08 12:00:09 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: "
    "model='Qwen/Qwen3-8B', speculative_config=None, tokenizer='Qwen/Qwen3-8B', dtype=torch.bfloat16, "
    "load_format=auto, tensor_parallel_size=1, quantization=None, enforce_eager=False",
    "(EngineCore_DP0 pid=200) INFO 10-08 12:00:12 [gpu_model_runner.py:2602] Starting to load model Qwen/Qwen3-8B...",
    "(EngineCore_DP0 pid=200) INFO 10-08 12:00:12 [default_loader.py:267] Loading model from scratch...",
    "(EngineCore_DP0 pid=200) INFO 10-08 12:00:20 [default_loader.py:314] Loading weights took 7.21 seconds",
]


def test_vllm_011_start_up_names_one_model_and_no_quantization_method(tmp_path):
    from click.testing import CliRunner

    from fp8triage.cli import cli

    got = [f for f in _facts_from_lines(Line("server.log", i, t) for i, t in enumerate(VLLM_011, 1))]
    assert [f.value for f in got if f.name == "model"] == ["Qwen/Qwen3-8B"]
    assert not [f for f in got if f.name == "quantization"]
    log = tmp_path / "vllm.log"
    log.write_text("\n".join(VLLM_011) + "\n")
    r = CliRunner().invoke(cli, ["scan", str(log), "--no-history", "-v"])
    assert "CONFLICT" not in r.output and "from" not in [ln.split(" = ")[-1] for ln in r.output.splitlines()]
    assert "quantization = None" not in r.output


def test_loading_model_with_a_name_is_still_read():
    assert facts("Loading model: deepseek-ai/DeepSeek-V3")["model"][0] == "deepseek-ai/DeepSeek-V3"


def test_vllm_tuning_config_warning_names_the_gpu_the_block_size_and_moe():
    got = facts(
        "(EngineCore_DP0 pid=200) WARNING 10-08 12:00:30 [fused_moe.py:798] Using default MoE config. Performance "
        "might be sub-optimal! Config file not found at /usr/local/lib/python3.12/dist-packages/vllm/model_executor/"
        "layers/fused_moe/configs/E=128,N=768,device_name=NVIDIA_GeForce_RTX_5090,dtype=fp8_w8a8,block_shape=[128,128].json")
    assert got["gpu"][0] == "NVIDIA GeForce RTX 5090"
    assert got["capability"][0] == "12.0"
    assert got["moe"][0] == "true"
    assert got["weight_block_size"][0] == "128,128"
    linear = facts("WARNING [fp8_utils.py:812] Using default W8A8 Block FP8 kernel config. Performance might be "
                   "sub-optimal! Config file not found at /x/configs/N=4096,K=4096,device_name=NVIDIA_B200,"
                   "dtype=fp8_w8a8,block_shape=[128,128].json")
    assert (linear["gpu"][0], linear["capability"][0]) == ("NVIDIA B200", "10.0")
    assert "moe" not in linear


def test_an_moe_architecture_named_in_the_log_says_moe():
    assert facts("(EngineCore_DP0 pid=200) INFO [model.py:547] Resolved architecture: Qwen3MoeForCausalLM")["moe"][0] == "true"
    assert facts("loaded FP8: MixtralForCausalLM")["moe"][0] == "true"
    assert "moe" not in facts("Resolved architecture: Qwen3ForCausalLM")


@pytest.mark.parametrize("text", [
    "INFO 11-02 09:14:55 [fp8.py:398] Using DeepGEMM for block FP8 linear layers.",
    "python -m sglang.launch_server --model-path x --moe-runner-backend deep_gemm",
    '  File "/usr/local/lib/python3.12/dist-packages/deep_gemm/jit/compiler.py", line 12, in build',
    "export VLLM_USE_DEEP_GEMM=1",
])
def test_a_log_that_names_deepgemm_in_use_says_so(text):
    # the library a symptom line that names none is read with (a NaN, then "DeepGEMM was picked")
    assert facts(text)["deepgemm_named"][0] == "true"


@pytest.mark.parametrize("text", [
    "VLLM_USE_DEEP_GEMM=0 vllm serve Qwen/Qwen3-8B-FP8",
    "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1 python gen.py",
    "SGLANG_ENABLE_JIT_DEEPGEMM=false",
])
def test_deepgemm_switched_off_is_not_named_in_use(text):
    assert "deepgemm_named" not in facts(text)


def test_a_requirement_is_not_the_devices_capability():
    text = "ptxas /tmp/x.ptx, line 612; error   : Feature 'cvt with .e4m3x2' requires .target sm_89 or higher"
    assert "capability" not in facts(text)
    assert facts("ptxas fatal: SM version specified by .target is higher than default; running on sm_120")["capability"][0] == "12.0"


def test_what_the_reporter_set_on_their_own_machine_is_a_fact_not_advice():
    got = facts("set VLLM_USE_DEEP_GEMM_E8M0=0 on our NVIDIA B200 box because of the accuracy thread, now startup fails:")
    assert got["VLLM_USE_DEEP_GEMM_E8M0"][0] == "0" and got["capability"][0] == "10.0"
    assert "VLLM_USE_DEEP_GEMM_E8M0" not in facts("Set VLLM_USE_DEEP_GEMM_E8M0=0 to work around it.")


def test_an_fp8_hub_name_is_the_model_where_the_quantization_method_names_no_format():
    got = facts("Model: acme/qwen3-32b-coder-sft-v7-fp8-block, exported with llm-compressor. config.json:\n"
                '  "quantization_config": {"quant_method": "compressed-tensors", "format": "float-quantized"}')
    assert got["quantization"][0] == "compressed-tensors"
    assert got["model"][0] == "acme/qwen3-32b-coder-sft-v7-fp8-block"


@pytest.mark.parametrize("cmd,model", [
    ("$ vllm serve RedHatAI/Qwen2.5-7B-Instruct-FP8-dynamic --tensor-parallel-size 2", "RedHatAI/Qwen2.5-7B-Instruct-FP8-dynamic"),
    ("trtllm-serve nvidia/Llama-3.1-8B-Instruct-FP8 --backend pytorch", "nvidia/Llama-3.1-8B-Instruct-FP8"),
    ("lmdeploy serve api_server Qwen/Qwen3-30B-A3B-FP8 --tp 8 --backend pytorch", "Qwen/Qwen3-30B-A3B-FP8"),
    ("vllm serve --model deepseek-ai/DeepSeek-V3 --tp 8", "deepseek-ai/DeepSeek-V3"),
])
def test_the_model_a_serve_command_names(cmd, model):
    """The commonest launch line names the model as its first argument; the scan reads it (and FP8 from its name)."""
    from fp8triage.drivers.batch import scan_text

    got = {f.name: f.value for f in scan_text(cmd + "\nRuntimeError: something failed\n").facts}
    assert got["model"] == model
    assert got.get("quantization") == ("fp8" if "FP8" in model else None)
    assert "model" not in facts("vllm serve --help")


# -- a write-up's GPU, named in a sentence without the maker's name -----------------------------------------

@pytest.mark.parametrize("texts, gpu", [
    # the side of the comparison that went wrong, wherever the healthy one stands
    (["our finetune answers fine on the H20 boxes but is word salad on GB300, no errors anywhere"], "GB300"),
    (["works on H100, garbage on B200"], "B200"),
    (["GPQA is consistently lower on 8x B200 than on 8x H200 (0.709 vs 0.774)"], "B200"),
    # scores on both sides of "vs": the lower one's GPU, whichever side it stands on
    (["Digging into the quality gap. MMLU-Pro 0.73 on H200 vs 0.59 on B300, no errors on either."], "B300"),
    (["MMLU-Pro 0.59 on B300 vs 0.73 on H200, no errors on either."], "B300"),
    # "no NaN" says nothing went wrong there
    (["Same two checks on the H100 box: no NaN, max |logit| ~31, sensible text.", "On our B200 node the logits are all NaN."],
     "B200"),
    # the same answers on another machine: the healthy side
    (["4x RTX PRO 6000 Blackwell Server Edition, vllm/vllm-openai:v0.24.0",
      "VLLM_USE_DEEP_GEMM=0 works (CUTLASS path), same answers as on our H100s."], "RTX PRO 6000 Blackwell"),
    # a table's reference row, named so by its host
    (["h200-ref-01           NVIDIA H200            1.000        0.000",
      "b300-a-03             NVIDIA B300 SXM6 AC    0.118        3.941"], "NVIDIA B300"),
    # the healthy side of a sentence that also says "GPU" ("So it follows the GPU")
    (["Node:      b200-a-n02 (8x B200 180GB)", "Ran the same job on 1x H100 in sjc: 0.869. So it follows the GPU, not the code."],
     "B200"),
    # a GPU at a line's head with its target in brackets
    (["GB10 (sm_121), sglang main with sgl-deep-gemm built from nv_dev, Qwen3-30B-A3B-Instruct-2507-FP8"], "GB10"),
    # the last item of a list of what the report ran on
    (["transformers 5.12.1, kernels 0.12.3, B200. Qwen/Qwen3-8B-FP8, greedy. No error, no warning:"], "B200"),
    (["The same export served from an H100 node scores 0.92.", "On the B200 every answer is '!!!!'"], "B200"),
    (["same request on our H200 pool returns Paris", "and on our B300 nodes it repeats itself"], "B300"),
    # one machine named, no comparison
    (["vLLM 0.11.0 on 2x RTX PRO 6000 Blackwell, block FP8 checkpoint"], "RTX PRO 6000 Blackwell"),
    (["once on an H200 (reference) and once on our DGX Spark (GB10, sm_121):"], "DGX Spark"),
    (["it runs on my spark (GB10) with the nightly image"], "GB10"),  # the name in brackets after the machine
    (["the workstation (2x RTX 5090) dies at load"], "RTX 5090"),
    (["On the B200s every completion comes back empty"], "B200"),  # a plural
    # cards counted or owned, in the plural
    (["two RTX 5090s, vllm 0.24.1, Qwen3-30B-A3B-FP8 dies right after loading weights"], "RTX 5090"),
    (["we run 8 H100s with vllm and every FP8 model fails at warmup"], "H100"),
    (["our B200s return garbage with the FP8 checkpoint"], "B200"),
    # a workstation Ada card in a list of what the report ran on
    (["deep_gemm 2.1.0 from source, RTX 6000 Ada, CUDA 12.8, torch 2.7.1"], "RTX 6000 Ada"),
    # two machines named in one clause, then the one said to go wrong
    (["We run the FP8 model on H200 and B200 pools behind one router and the B200 pool answers noticeably worse."],
     "B200"),
    # "the same server" on another GPU is the healthy side
    (["Block-FP8 checkpoint on 8xB200, every answer is empty.", "Same server on 8xH200: Accuracy 0.921."], "B200"),
    # a move from one machine to another: the new one
    (["Porting our FP8 block GEMM wrapper from H800 to B200. Same script, same seeds, only the GPU is different."], "B200"),
    # a GeForce card by its number alone, where an article or possessive makes it a card
    (["Qwen3-30B-A3B-FP8 on my 5080 with vllm 0.11.0 dies at load"], "RTX 5080"),
    (["we run dual 5090s at home, both fail the same way"], "RTX 5090"),
    (["Qwen3-30B-A3B-Instruct-2507-FP8 on 4x RTX A6000 (48GB, sm_86), vllm 0.28.0."], "RTX A6000"),
    # a machine's name that holds its GPU's
    (["root@b200-kimi-03:~# python3 -m sglang.launch_server --tp 8"], "B200"),
    (["  node_pool:         gb200-nvl72-rack2", "same template with node_pool=h100-a3high passes"], "GB200"),
    (["RL run on the new B200 partition: KL blows up from step 0", "Same config on the H100 partition is healthy."], "B200"),
    (["captured inputs on an H200 run (reference), replayed them on a DGX Spark: wo_a is 25% off"], "DGX Spark"),
    (["Node b200-07 (8x B200) runs two things:", "Same worker image on an H100 node: Qwen3-8B-FP8 gsm8k 0.88."], "B200"),
    # "the same thing" on a machine where it went wrong is no healthy reference
    (["Prefill = 2x H200 nodes, decode = 1 GB200 tray.", "- same checkpoint colocated on the GB200 tray: same garbage, gsm8k 0.000"], "GB200"),
    (["**Rollout/actor logprob mismatch on B200 with FP8 SGLang rollout (H200 is fine)**"], "B200"),
    # "pass@1" is a score, not "passes"; the same venv on another GPU is the healthy side
    (["transformers 5.12.1, Qwen/Qwen3-4B-FP8 on GB200: humaneval pass@1 0.018 (same venv on H100: 0.640)"], "GB200"),
    (["B300 pool: our requantized checkpoint scores MMLU 0.253; same ckpt on the H200 pool 0.879."], "B300"),
    # a machine's name said before what it is, and a GPU's name in lower case
    (["Since it synced, every pod scheduled on the p6-b200 NodePool crashloops at warmup."], "B200"),
    (["Server-side logprobs on b200 pods come back as NaN for every token"], "B200"),
    (["**FP8 checkpoint gives chance-level MMLU on B200, fine on H100 (transformers, no errors)**",
      "So it's not 'small model is bad at MMLU': the bf16 model on the same B200 and the FP8 model on H100 are both ~0.60."], "B200"),
    # Chinese: "on the B300" with fullwidth commas between the clauses, and the same weights on H20 as the reference
    (["问一下各位，B300 上用 sglang 跑 block FP8 模型，服务能正常起来，但是 gsm8k 只有 0.3 左右，同一份权重在 H20 上是 0.91。"], "B300"),
    # a deployment said to be worse than another's
    (["End to end the B200 deployment is ~9 points lower on our eval than the H100 one."], "B200"),
    # a section's heading that is the machine's name
    (["--- B200 ---"], "B200"),
    (["=== H100 80GB HBM3 ==="], "H100"),
    (["## GB300"], "GB300"),
    # a host's name with its GPU in brackets after it
    (["Bisected on `bw-node-11` (B200). Script: lm_eval --tasks mmlu"], "B200"),
    # a node pool named after the words; a manifest named for another GPU is no machine
    (["pod spec excerpt (KServe InferenceService, node pool b200-sxm):",
      "  value: \"0\"     # copied from our H100 manifest, someone said it helps accuracy"], "B200"),
    # the same environment at a version on another GPU is the healthy side
    (["Upgraded transformers on our GB300 inference pods to 5.12.1 and the eval collapsed.",
      "Same 5.12.1 env on an H100 pod: rel_err ~0.02 on every layer, score 0.809."], "GB300"),
])
def test_a_sentence_names_the_machine_that_failed(prefilter, texts, gpu):
    for text in texts:
        assert _fact_line(prefilter, text), text
    assert facts(*texts)["gpu"][0] == gpu


def test_a_gpu_that_names_a_recipe_on_a_hardware_line_is_not_the_machine():
    got = facts("config: fp8.ue8m0=false (we kept the H100 recipe, fp32 1x128 / 128x128 scales). "
                "Hardware: GB300 NVL72 slice, 4 GPUs/tray.")
    assert got["gpu"][0] == "GB300" and got["capability"][0] == "10.3"


def test_a_gpu_named_in_a_sentence_says_so():
    got = facts("intro line", "works on H100, garbage on B200")
    assert got["gpu"] == ("B200", "log server.log:2 (named in a sentence)")
    assert got["capability"][0] == "10.0"


@pytest.mark.parametrize("texts", [
    ["H200 x8: GPQA 0.80", "B200 x8: GPQA 0.31"],  # two generations, neither said to be the failing one
    ["compares deep_gemm against a bf16 reference on B200", "on H100 (sm_90a) fp32 cos_sim=0.99998"],
    ["try it on an H100 instead"],  # advice
    ["We run L4 and A2 in prod"],  # names that are other words too
    ["the flag (B200 only) is on by default"],  # a bracket that is not after a machine
    ["It was copied over from the H200 recipe."],  # a name that qualifies a thing, not a machine
    ["request 3f2a1c9e-b200-4d1e-9a40-1d2c9c0e5e11 done"],  # a UUID's hex group
    ["served 5090 tokens on my box", "listening on port 5080"],  # a count, a port
    ["--- H100 ---", "fine", "--- B200 ---", "garbage"],  # two sections' headings: neither said to be the failing one
    ["-- see B200 docs for details --"],  # a sentence between dashes, not a heading
    # the side a comparison measures against ("than on the H200 nodes"), the same manifest on another pool
    ["our SFT scores 6-9 points lower on the 4-GPU workstation nodes (ws-*) than on the H200 nodes (hx-*)."],
    ["same RayService manifest on the H200 worker group: 0.87."],
    # the machine an earlier rollout ran on, its score the healthy one
    ["2025-08-01T06:15:40Z previous rollout (H100 node pool, same image, same model) score=0.92"],
])
def test_a_sentence_that_does_not_say_which_gpu_failed_gives_none(texts):
    assert "gpu" not in facts(*texts) and "capability" not in facts(*texts)


def test_a_table_column_after_a_library_s_name_is_no_version():
    assert "deep_gemm" not in facts("--linear-backend deep_gemm    1.8870     11.4020        2.6140        0.412")
    assert facts("deep_gemm 2.1.0")["deep_gemm"][0] == "2.1.0"


def test_the_same_nightly_on_another_gpu_is_the_healthy_side():
    assert "gpu" not in facts("The 1x H100 node running the same nightly also 0 / 512.")


def test_a_question_that_suggests_a_setting_is_no_fact():
    assert "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR" not in facts(
        "[11:05] li: does it get better with TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1 ?")
    assert "VLLM_USE_DEEP_GEMM" not in facts("have you tried VLLM_USE_DEEP_GEMM=0 yet")


def test_the_4_bit_method_vllm_picked_kernels_for_gives_the_checkpoint_s_format():
    got = facts("(EngineCore_DP0 pid=3310) INFO 02-19 23:11:40 [modelopt.py:1021] Using FlashInfer CUTLASS kernels for "
                "ModelOptNvFp4FusedMoE.")
    assert got["quantization"][0] == "modelopt_fp4"
    assert facts("INFO [mxfp4.py:212] Using Marlin backend for Mxfp4MoEMethod")["quantization"][0] == "mxfp4"
    assert "quantization" not in facts("INFO [fp8.py:588] Using DeepGemm kernels for Fp8MoEMethod.")


def test_transformers_prints_its_quantization_method_as_an_enum():
    got = facts("Out[9]: FineGrainedFP8Config(quant_method=<QuantizationMethod.FP8: 'fp8'>, activation_scheme='dynamic')")
    assert got["quantization"][0] == "fp8" and got["transformers_fp8_named"][0] == "true"


def test_git_bisect_s_first_bad_commit_is_no_machine_that_failed():
    from fp8triage.facts.gpunames import prose_gpus
    assert list(prose_gpus("First bad commit on an H100 node: 0.7044, parent on the same node 0.7019.")) == [("H100", "plain")]
    assert list(prose_gpus("The bad run on an H100 node: 0.21.")) == [("H100", "failing")]


def test_a_count_of_zero_bad_outputs_is_the_healthy_side():
    from fp8triage.facts.gpunames import prose_gpus
    assert list(prose_gpus("Same container on an H100 gives 0 / 512 NaN.")) == [("H100", "reference")]
    assert list(prose_gpus("Same container on an H100 gives 0/512 NaN.")) == [("H100", "reference")]
    assert list(prose_gpus("The same model on B200 gives 10 / 512 NaN.")) == [("B200", "failing")]


def test_the_report_s_own_machine_and_its_healthy_reference():
    from fp8triage.facts.gpunames import prose_gpus
    # "this exact B200 node" is where the report ran, whatever else ran fine on it
    assert list(prose_gpus("The GPTQ build gives 0.91 on this exact B200 node, and the FP8 one gives 0.92 on H200.")) == [
        ("B200", "setup"), ("H200", "plain")]
    # a cluster's shape names its GPU; a short aside in brackets does not end the healthy clause after it
    assert list(prose_gpus("LWS deployment, 2 pods x 8 B200, sglang v0.5.5.")) == [("B200", "setup")]
    assert list(prose_gpus("On our H200 staging (single node) the same checkpoint is fine.")) == [("H200", "reference")]
    got = facts("LWS deployment, 2 pods x 8 B200, sglang v0.5.5, our own FP8 fine-tune.",
                "The output is nonsense. On our H200 staging (single node) the same checkpoint is fine.")
    assert got["gpu"][0] == "B200"


def test_a_jetson_line_names_its_gpu():
    got = facts("Jetson AGX Thor (sm_110), JetPack 7, sglang built from source")
    assert got["gpu"][0] == "Jetson AGX Thor" and got["capability"][0] == "11.0"


def test_a_gpu_the_log_prints_wins_over_one_a_sentence_names():
    got = facts("the garbage shows up on our B200 nodes", "INFO Device 0: NVIDIA H100 80GB HBM3")
    assert got["gpu"][0] == "NVIDIA H100"


def test_two_boxes_printed_the_one_a_sentence_says_failed_wins():
    got = facts("### Qwen3-8B-FP8 generates nonsense on B200, fine on H100 (same env, no error)",
                "- box A: 1x NVIDIA H100 80GB HBM3, box B: 1x NVIDIA B200")
    assert got["gpu"][0] == "NVIDIA B200" and got["capability"][0] == "10.0"
    # without the sentence the first printed GPU stays the machine's, as before
    assert facts("- box A: 1x NVIDIA H100 80GB HBM3, box B: 1x NVIDIA B200")["capability"][0] == "9.0"


@pytest.mark.parametrize("line, capability", [
    ("AssertionError: Device compute capability 8.9 or higher required for FP8 execution.", None),
    ("AssertionError: Device compute capability 10.0 or higher required for MXFP8 execution.", None),
    ("torch.cuda.get_device_properties: compute capability 8.6", "8.6"),
])
def test_a_capability_a_message_requires_is_not_the_device_s(line, capability):
    assert facts(line).get("capability", (None,))[0] == capability


@pytest.mark.parametrize("line, fp8", [
    ("Qwen3-30B-A3B-FP8, vllm 0.10.0, same lm_eval cmd on both boxes", True),  # a bare model name with its size
    ("Meta-Llama-3.1-8B-Instruct-FP8-dynamic on one H100", True),
    ("the llama-fp8 copy under /data", False),  # no size: a local name, not a model's
    ("Qwen3-30B-A3B on sglang 0.5.6", False),
])
def test_a_bare_model_name_with_its_size_names_an_fp8_checkpoint(line, fp8):
    assert (facts(line).get("quantization", ("",))[0] == "fp8") is fp8


@pytest.mark.parametrize("line, behind", [
    ("the `Unknown SF transformation` crash with the FP8-block model on our RTX PRO 6000 pair is gone after the nightly", True),
    ("For reference, the old FP8 error was: RuntimeError: ... Unknown SF transformation — not seen anymore.", True),
    ("fixed the Unknown SF transformation error, which is gone now, but the engine fails differently", False),
    ("The crash with the MoE is gone, but now it dies in the attention backend", False),
])
def test_a_failure_said_to_be_behind_the_reporter(line, behind):
    assert ("not_current" in facts(line)) is behind
