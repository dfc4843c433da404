"""A specific case names the broader failure it refines (Signature.refines): the first family the facts leave
possible, ranked before it."""
from __future__ import annotations

from fp8triage.drivers.batch import scan_text

DISPATCH = ("(EngineCore_DP0 pid=811) ERROR 03-22 08:10:44 [core.py:708] RuntimeError: Assertion error "
            "(/workspace/.deps/deepgemm-src/csrc/apis/gemm.hpp:122): Unsupported architecture or scaling factor types")


def _ids(text):
    return [f.id for f in scan_text(text).findings]


def test_fp32_scales_on_sm100_name_the_label_of_that_failure_first():
    ids = _ids("VLLM_USE_DEEP_GEMM_E8M0=0 on 2x NVIDIA B200\n" + DISPATCH)
    assert ids[0] == "deepgemm-fp32-sf-sm100"
    assert "deepgemm-e8m0-disabled-on-blackwell" in ids


def test_with_no_gpu_known_the_dispatch_failure_is_float32_scales_on_sm100_first():
    """The dispatch refuses float32 scales where the transform let them through: on SM100 with the E8M0 cast off
    (elsewhere the transform itself refuses first, 'Unknown SF transformation')."""
    assert _ids(DISPATCH)[:2] == ["deepgemm-fp32-sf-sm100", "deepgemm-e8m0-disabled-on-blackwell"]


def test_on_a_gpu_outside_sm100_the_dispatch_failure_is_the_architecture():
    assert _ids("GPU 0: NVIDIA GeForce RTX 5090\n" + DISPATCH)[0] == "deepgemm-unsupported-arch"


INVALID_ACTIVATION = ("(EngineCore_DP0 pid=1) ERROR 04-21 17:42:31 [core.py:1010] RuntimeError: Invalid activation type. "
                      "(/x/flashinfer/data/csrc/nv_internal/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/"
                      "moe_gemm_template_dispatch.h:1042)")


def test_flashinfer_s_moe_activation_gap_for_an_fp8_model_is_a_flashinfer_fp8_failure():
    ids = _ids("vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-FP8 on GB10\n" + INVALID_ACTIVATION)
    assert ids[:2] == ["flashinfer-fp8", "flashinfer-moe-activation-unsupported"]


def test_the_same_gap_for_an_nvfp4_checkpoint_names_no_fp8_family():
    ids = _ids("vllm serve nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-NVFP4 on GB10\n" + INVALID_ACTIVATION)
    assert ids[:1] == ["flashinfer-moe-activation-unsupported"] and "flashinfer-fp8" not in ids


BLOCK_SIZE = ("ValueError: DeepGEMM requires `block_size` ∈ {(128, 128), (1, 128)}, got (64, 64).")
PER_TENSOR = ("ValueError: DeepGEMM requires block-wise quantized FP8 weights, but the experts have no `block_size` set "
              "(per-tensor quantization is not supported).")


def test_a_checkpoint_s_other_block_size_is_named_a_block_size_mismatch_first():
    ids = _ids("model.set_experts_implementation('deepgemm')\n" + BLOCK_SIZE)
    assert ids[:2] == ["fp8-block-size-mismatch", "deepgemm-unsupported-quant-scheme"]


def test_per_tensor_weights_refused_by_deepgemm_name_no_block_size_mismatch():
    """The family is named for the block-size message only (``refines`` with ``patterns``)."""
    ids = _ids("model.set_experts_implementation('deepgemm')\n" + PER_TENSOR)
    assert ids[0] == "deepgemm-unsupported-quant-scheme"
    assert "fp8-block-size-mismatch" not in ids


def test_an_accuracy_loss_from_requantized_ue8m0_scales_is_named_as_ue8m0_corruption_first():
    """e8m0-precision-loss (correct requantization that still costs accuracy) is a case of what the UE8M0
    corruption label covers."""
    text = ("MiniMax-M2 on 4x GB200 scores well below 8x H200 with the same sglang image.\n"
            "[2026-07-30 19:03:18 TP0] DeepGemm is enabled but the scale_fmt of checkpoint is not ue8m0. "
            "This might cause accuracy degradation on Blackwell.\n"
            '{"run": "gb200_default", "gsm8k": 0.874, "gpqa_diamond": 0.642}\n'
            '{"run": "h200_default", "gsm8k": 0.943, "gpqa_diamond": 0.763}\n')
    ids = _ids(text)
    assert ids[:2] == ["ue8m0-silent-corruption", "e8m0-precision-loss"]
