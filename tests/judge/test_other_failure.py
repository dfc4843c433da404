"""A log whose failure is another one (a chat template, a KV cache that does not fit): an FP8 warning beside it is named, never claimed as the root cause."""
from __future__ import annotations

import pytest

from fp8triage.drivers.batch import scan_text

WARNING = "(Worker_TP0 pid=410) WARNING 10-29 11:06:20 [fp8.py:457] Failed to import DeepGemm kernels."
STARTED = "(APIServer pid=1) INFO:     Application startup complete."


@pytest.mark.parametrize("error", [
    "(APIServer pid=1) ERROR 10-29 11:09:13 [serving_chat.py:263] ValueError: As of transformers v4.44, default chat "
    "template is no longer allowed, so you must provide a chat template if the tokenizer does not define one.",
    "(EngineCore_DP0 pid=331) ERROR 10-27 08:19:40 [core.py:708] ValueError: No available memory for the cache blocks. "
    "Try increasing `gpu_memory_utilization` when initializing the engine.",
])
def test_an_fp8_warning_beside_another_failure_is_not_the_root_cause(error):
    question = 'Is the "Failed to import DeepGemm kernels" warning the reason it breaks?'
    res = scan_text("\n".join([WARNING, STARTED, error, "", question]))
    found = {f.id: f.status.value for f in res.findings}
    assert found.get("deepgemm-not-installed") == "possible", found
    assert "likely" not in found.values()


def test_the_warning_alone_is_still_likely():
    res = scan_text("\n".join([WARNING, "RuntimeError: DeepGEMM backend is not available or outdated."]))
    assert res.findings and res.findings[0].id == "deepgemm-not-installed"
    assert res.findings[0].status.value == "likely"


def test_a_format_the_message_suggests_instead_is_not_the_one_that_failed():
    res = scan_text(
        "INT8 w8a8 model on 4x RTX PRO 6000 Blackwell\n"
        "RuntimeError: Int8 not supported on SM120. Use FP8 quantization instead, or run on older arch (SM < 100).")
    assert not any(f.status.value == "likely" for f in res.findings), [(f.id, f.status.value) for f in res.findings]


def test_a_gpu_the_driver_lost_makes_what_the_libraries_raised_after_it_possible():
    error = ("RuntimeError: CUDA driver error (/sgl-kernel/build/_deps/repo-deepgemm-src/csrc/apis/../jit/kernel_runtime"
             ".hpp:111): 719 (CUDA_ERROR_LAUNCH_FAILED, unspecified launch failure)")
    alone = {f.id: f.status.value for f in scan_text("8x NVIDIA B200\n" + error).findings}
    assert "likely" in alone.values(), alone
    xid = "[Wed Mar 18 02:41:06 2026] NVRM: Xid (PCI:0000:9b:00): 79, pid='<unknown>', GPU has fallen off the bus."
    res = scan_text("\n".join(["8x NVIDIA B200", error, "", "dmesg:", xid]))
    assert any(f.name == "gpu_fault" for f in res.facts)
    assert res.findings and "likely" not in {f.status.value for f in res.findings}



def test_a_gsp_timeout_and_a_gpu_reset_required_are_a_gpu_fault_too():
    error = "RuntimeError: CUDA error: unspecified launch failure"
    frames = ('  File "/usr/local/lib/python3.12/dist-packages/vllm/_custom_ops.py", line 806, in cutlass_scaled_mm\n'
              "    torch.ops._C.cutlass_scaled_mm(out, a, b, scale_a, scale_b, bias)\n")
    for xid in ("kernel: NVRM: Xid (PCI:0000:4c:00): 119, pid=903, name=python3, Timeout after 6s of waiting for RPC "
                "response from GPU2 GSP!",
                "kernel: NVRM: Xid (PCI:0000:4c:00): 154, GPU recovery action changed from 0x0 (None) to 0x1 "
                "(GPU Reset Required)"):
        res = scan_text("8x H100, Llama-3.1-405B-Instruct-FP8\nTraceback (most recent call last):\n" + frames + error
                        + "\n\nsyslog:\n" + xid + "\n")
        assert any(f.name == "gpu_fault" for f in res.facts), xid
        assert "likely" not in {f.status.value for f in res.findings}, xid


def test_a_notice_that_deepgemm_declined_comes_after_the_failure_its_reason_names():
    reason = "Failed to load `kernels-community/deep-gemm` - check that a build matches the current torch/CUDA."
    text = (f"DeepGEMM unavailable for this call, falling back to Triton. Reason: {reason}\n"
            "Traceback (most recent call last):\n"
            '  File "/venv/lib/python3.12/site-packages/transformers/integrations/deepgemm.py", line 88, in _load\n'
            f"ImportError: {reason}\n")
    ids = [f.id for f in scan_text(text).findings]
    assert "deepgemm-declined-fallback" in ids
    assert ids[0] != "deepgemm-declined-fallback", ids


@pytest.mark.parametrize("doubt", [
    "Chat template broken for Qwen3-8B-FP8? it produces word salad on our new B200 node",
    "Qwen3-8B-FP8 produces word salad on our B200 node. I assumed the FP8 repo ships a different chat template, "
    "but the templates are identical.",
])
def test_a_cause_the_reporter_only_asks_about_does_not_hide_the_symptom(doubt):
    res = scan_text(doubt)
    assert [f.id for f in res.findings][:1] == ["ue8m0-silent-corruption"], [(f.id, f.status.value) for f in res.findings]


def test_a_cause_the_reporter_states_still_hides_the_symptom():
    res = scan_text("Qwen3-8B-FP8 produces word salad on our B200 node because of a chat template mismatch.")
    assert not res.findings, [(f.id, f.status.value) for f in res.findings]


def test_a_notice_that_the_library_routed_around_the_problem_is_named_not_claimed():
    notice = ("[transformers] This FP8 model spans multiple CUDA devices in one process; routing its FP8 linear and "
              "experts layers through Triton/grouped_mm instead of DeepGEMM (DeepGEMM's cached kernels are bound to a "
              "single CUDA context and corrupt across devices).")
    res = scan_text("Qwen3-32B-FP8 on 4x GB200 keeps listing questions instead of answering.\n" + notice + "\n")
    found = {f.id: f.status.value for f in res.findings}
    assert found.get("deepgemm-multi-device-context") == "possible", found
