"""Recognition by component x failure kind: a failure in a wording no signature pattern knows still
lands on its signature (`possible` alone, `likely` when the facts agree), and the number format, an
OOM or a healthy line keep FP8 claims honest."""
from __future__ import annotations

import pytest

from fp8triage.catalogue.recognition import vocabulary
from fp8triage.drivers.batch import scan_text
from fp8triage.judge import recognise


def top(text: str, **kw):
    res = scan_text(text, source="paste.log", **kw)
    return [(f.id, f.status.value) for f in res.findings]


def test_every_rule_names_known_components_and_kinds(catalogue):
    voc = vocabulary()
    comps, kinds = voc.component_ids(), voc.kind_ids()
    bad = [f"{s.id} {r.name}: {sorted((r.components - comps) | (r.kinds - kinds))}"
           for s in catalogue.signatures for r in s.rules if (r.components - comps) or (r.kinds - kinds)]
    assert bad == []


@pytest.mark.parametrize("text, expected", [
    # an API mismatch at a DeepGEMM call boundary, in words no release printed
    ('Traceback (most recent call last):\n  File "/srv/app/moe.py", line 12, in run\n'
     '    deep_gemm.m_grouped_fp8_gemm_nt_contiguous(a, b, d, m_indices, alignment=128)\n'
     "TypeError: m_grouped_fp8_gemm_nt_contiguous() got multiple values for argument 'alignment'\n",
     "deepgemm-api-mismatch"),
    # DeepGEMM missing, reported through the wrapper's name
    ("ImportError: the sgl_deep_gemm extension could not be loaded: libnvrtc.so.13: cannot open shared object file\n",
     "deepgemm-not-installed"),
    # a bare assertion inside FlashInfer's FP8 MoE path: the frames name the component
    ('Traceback (most recent call last):\n  File "/x/flashinfer_trtllm.py", line 70, in fused_experts_none_to_flashinfer_trtllm_fp8\n'
     "    assert routing_bias is None\nAssertionError\n", "flashinfer-fp8"),
    # SGLang's native FP8 sparse-prefill attention refused by GPU generation: the backend's name says FP8
    ('  File "/sgl-workspace/sglang/python/sglang/srt/layers/attention/dsa_backend.py", line 417, in __init__\n'
     "    raise ValueError(\n"
     "ValueError: --dsa-prefill-backend flashmla_sparse_q8 is SM90-only; got compute capability sm_10x.\n",
     "fp8-attention-arch-gate"),
    # a contract check of torch's scaled GEMM in a new wording
    ("RuntimeError: torch._scaled_mm: mat2 must be column-major with a stride multiple of 16\n", "scaled-mm-layout"),
    # DeepGEMM's JIT, another compiler message
    ("RuntimeError: DeepGEMM JIT: nvcc exited with status 1 while building sm90_fp8_gemm_1d2d\n", "deepgemm-jit-compile-failure"),
])
def test_a_new_wording_lands_on_its_signature(text, expected):
    got = top(text)
    assert got and got[0] == (expected, "possible"), got


def test_facts_that_agree_make_it_likely():
    from fp8triage.model import Fact

    text = "RuntimeError: this DeepGEMM build has no kernels for the current GPU generation; arch unsupported\n"
    assert top(text)[0] == ("deepgemm-unsupported-arch", "possible")
    gpu = [Fact("capability", "8.9", "--fact", "cli")]
    assert top(text, cli_facts=gpu)[0] == ("deepgemm-unsupported-arch", "likely")
    hopper = [Fact("capability", "9.0", "--fact", "cli")]
    assert top(text, cli_facts=hopper)[0][1] == "possible"  # DeepGEMM has SM90 kernels: the facts do not agree


@pytest.mark.parametrize("text", [
    # an FP4 kernel's arch abort from CUTLASS is not the FP8 one
    "RuntimeError: cutlass_fp4_gemm: NVFP4 block-scaled GEMM is not supported on this device (requires SM100)\n",
    # INT8 W8A8 through cutlass_scaled_mm
    "RuntimeError: No compiled cutlass_scaled_mm for INT8 W8A8 on this GPU\n",
    # an OOM inside DeepGEMM's frames is an OOM
    ('Traceback (most recent call last):\n  File "/x/deep_gemm/__init__.py", line 3, in fp8_gemm_nt\n    x = torch.empty(n)\n'
     "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n"),
    # a healthy eval table is no symptom
    "VLLM_USE_DEEP_GEMM=1 lm_eval --tasks gsm8k\n|gsm8k|      3|flexible-extract|     5|exact_match|0.8605|\n",
])
def test_other_formats_and_other_failures_get_no_fp8_claim(text):
    fp8 = [(i, st) for i, st in top(text) if i not in ("nvfp4-requires-blackwell",)]
    assert fp8 == [], fp8


def test_an_nvfp4_failure_is_named_but_never_claimed_as_likely():
    # vLLM's NVFP4 GEMM on a Hopper GPU: the tool names it, with its remedy; its `likely` claims are FP8's
    text = ("  File \"/usr/local/lib/python3.12/dist-packages/vllm/_custom_ops.py\", line 1012, in cutlass_scaled_fp4_mm\n"
            "NotImplementedError: No compiled nvfp4 mm kernel for SM 90. Recompile with CUDA >= 12.8 and CC >= 100.\n")
    res = scan_text(text, source="p.log")
    assert [(f.id, f.status.value) for f in res.findings][:1] == [("nvfp4-requires-blackwell", "possible")]
    assert res.findings[0].remedies
    assert not any(f.status.value in ("likely", "confirmed") for f in res.findings)


@pytest.mark.parametrize("quoted, sig", [
    ('    DG_HOST_UNREACHABLE("Unknown SF transformation");\n', "deepgemm-unknown-sf-transformation"),
    ('    raise RuntimeError(\n        "DeepGEMM backend is not available or outdated. Please install or "\n'
     '        "update the `deep_gemm` to a newer version to enable FP8 kernels."\n    )\n', "deepgemm-not-installed"),
    # a check's message with the call's last arguments after it on the same line
    ('    TORCH_CHECK(status == CUBLAS_STATUS_SUCCESS,\n'
     '                "bmm_fp8_internal_cublaslt failed: ", cublasGetStatusString(status));\n', "flashinfer-fp8"),
])
def test_a_message_quoted_from_the_source_is_never_a_likely_claim(quoted, sig):
    # a write-up that shows the library's source around an unrelated report: the quoted message is what
    # the library can say, not what the reporter hit
    text = "I looked at the source:\n\n" + quoted + "\nbut the server crashes with an OOM instead.\n"
    assert (sig, "likely") not in top(text)


def test_an_informational_finding_is_never_claimed_as_likely():
    # transformers fell back to Triton and generation worked: the notice is named, but nothing is broken
    text = ("WARNING:transformers.integrations.finegrained_fp8:DeepGEMM declined this call, falling back to Triton. "
            "Reason: DeepGEMM requires block-wise quantized FP8 weights. Set `TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1` "
            "to skip DeepGEMM for FP8 linear entirely.\n"
            'Generated: "The capital of France is Paris."\n')
    got = top(text)
    # (the reason it states is named too, right before it: why DeepGEMM was not used; nothing is claimed)
    assert ("deepgemm-declined-fallback", "possible") in got
    assert {st for _, st in got} == {"possible"}


def test_evidence_says_what_the_rule_rests_on():
    res = scan_text("RuntimeError: deep_gemm.fp8_gemm_nt(): unexpected keyword argument 'recipe2'\n", source="p.log")
    ev = res.findings[0].evidence[0]
    assert res.findings[0].id == "deepgemm-api-mismatch"
    assert ev.lineno == 1


def test_the_error_the_reporter_hit_outranks_a_message_quoted_from_the_source():
    text = (
        "The guard in transformers/integrations/deepgemm.py looks like this:\n\n"
        '    raise NotImplementedError("DeepGEMM has no float32 scale-factor path on Blackwell (SM100): these scales are plain float32")\n\n'
        "but what we actually hit on the H100 box is:\n\n"
        "Traceback (most recent call last):\n"
        '  File "/srv/app.py", line 3, in <module>\n'
        "    out = deep_gemm.fp8_gemm_nt(a, b, d, recipe=(1, 128, 128))\n"
        "TypeError: fp8_gemm_nt() got an unexpected keyword argument 'recipe'\n"
    )
    res = scan_text(text, source="issue.md")
    assert res.findings[0].id == "deepgemm-api-mismatch"
    quoted = [f for f in res.findings if f.id == "deepgemm-fp32-sf-sm100"]
    assert not quoted or quoted[0].strength == "weak"


@pytest.mark.parametrize("path, func, line, expected", [
    ("quantization/fp8_utils.py", "apply_w8a8_block_fp8_linear", "assert is_sm90_supported() or is_sm100_supported()",
     "fp8-unsupported-capability"),
    # a library switched off beside a dtype check: DeepGEMM is missing
    ("quantization/fp8_kernel.py", "w8a8_block_fp8_matmul_deepgemm",
     "assert C.dtype == torch.bfloat16 and deep_gemm_wrapper.ENABLE_JIT_DEEPGEMM", "deepgemm-not-installed"),
])
def test_a_bare_assertion_is_read_by_what_its_assert_line_checks(path, func, line, expected):
    text = (
        "Traceback (most recent call last):\n"
        f'  File "/x/sglang/srt/layers/{path}", line 90, in {func}\n'
        f"    {line}\n"
        "AssertionError\n"
    )
    got = top(text)
    assert got and got[0][0] == expected, got


@pytest.mark.parametrize("line, kinds", [
    # a library switched off beside a dtype check: the switch is what failed
    ("assert C.dtype == torch.bfloat16 and deep_gemm_wrapper.ENABLE_JIT_DEEPGEMM", {"not-installed"}),
    ("assert self.deepgemm_input_quant_op is not None", {"not-installed"}),  # a kernel that was never loaded
    ("assert self.block_shape == self.DEEPGEMM_BLOCK_SHAPE", {"contract"}),  # the block shape a kernel takes
    ("assert weight_block_size == [128, 128]", {"contract"}),  # the checkpoint's block size a requant path takes
    ("assert get_sm_version() in (89, 90)", {"unsupported-arch"}),  # the architecture, as a membership test
    ("assert x.dim() == 2", {"contract"}),
])
def test_what_an_assert_line_checks(line, kinds):
    assert recognise.assert_checks([line]) == kinds


def test_a_sentence_that_says_there_was_no_error_is_no_error():
    res = scan_text("On B200 there is no error, DeepGEMM only consumes packed UE8M0 scales: GSM8K 0.91 -> 0.04.\n",
                    source="pr.md")
    assert res.findings and res.findings[0].id == "ue8m0-silent-corruption"
    assert not res.unknown


def test_a_crash_that_names_nothing_is_read_with_what_the_log_said_was_running():
    from fp8triage.model import Fact

    crash = "Segmentation fault (core dumped)\n"
    fp8 = "Compiling the CuTe DSL GEMM: cute.compile() with dtype=Float8E4M3FN\n"
    # the FP8 CuTe compile right before the crash: named, with the component taken from that line
    res = scan_text(fp8 + crash, source="p.log")
    assert [(f.id, f.status.value) for f in res.findings][:1] == [("cutlass-fp8-unsupported-arch", "possible")]
    assert "named elsewhere in the log" in res.findings[0].evidence[0].pattern
    # never more than possible, even where the facts fit the signature (an SM121 GPU)
    gb10 = [Fact("capability", "12.1", "--fact", "cli")]
    assert top(fp8 + crash, cli_facts=gb10)[0] == ("cutlass-fp8-unsupported-arch", "possible")
    # the same crash after an F16 compile, alone, or in a library it names: nothing to claim
    assert top("Compiling the CuTe DSL GEMM: cute.compile() with dtype=Float16\n" + crash) == []
    assert top(crash) == []
    assert top(fp8 + "Segmentation fault (core dumped) in libnccl.so.2 ncclCommInitRank\n") == []


def test_a_notice_that_the_library_falls_back_is_never_claimed_as_likely():
    # transformers' newer wording of its capability check: a warning, it dequantizes and goes on
    text = ("FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g 4090/H100), "
            "actual = `8.0`. We will default to dequantizing the model to bf16.\n")
    got = top(text)
    assert got[:1] == [("fp8-unsupported-capability", "possible")], got
    # the older release raised it: the same words as an error are the failure
    raised = "ValueError: FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g 4090/H100), actual = `8.0`\n"
    assert top(raised)[:1] == [("fp8-unsupported-capability", "likely")]


def test_frames_printed_after_an_error_name_its_component():
    status = "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmul( ltHandle, ...)`\n"
    frames = '  File "/usr/lib/python3.11/site-packages/torch/_inductor/kernel/mm_scaled.py", line 512, in tuned_scaled_mm\n'
    assert top(status + frames)[:1] == [("scaled-mm-layout", "possible")]
    assert top(status) == []  # the status alone names no component
    # frames of a bf16 linear say it was no FP8 GEMM
    bf16 = '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/linear.py", line 125, in forward\n'
    assert top(status + bf16) == []


def test_a_failure_that_names_nothing_is_read_with_the_component_the_log_names():
    error = ("huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and "
             "outgoing traffic has been disabled.\n")
    prose = "The FP8 linear needs the Triton kernel from the Hub (kernels-community/finegrained-fp8), offline here.\n"
    assert top(prose + error)[:1] == [("transformers-fp8-kernels-unavailable", "possible")]
    assert top(error) == []


@pytest.mark.parametrize("text", [
    "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.0311|±  |0.0048|\n",
    "scales=fp32 (checkpoint)   cos_sim=0.8712  rel_l2=0.4931\n",
    "GPQA-diamond: B200 = 0.541, H200 = 0.663, about 12 points lower on B200\n",
    'It generates the same token over and over: "Paris Paris Paris Paris Paris"\n',
    # a score table whose Blackwell column fell by a fifth or more; a reply that repeats itself; Chinese
    "| GSM8K         | 95.3 (H200) | 72.6 (B200) |\n",
    "Generated: ' the the the the the the the the the the'\n",
    "B200 \u4e0a\u7cbe\u5ea6\u660e\u663e\u4e0b\u964d\uff0cH800 \u6b63\u5e38\n",
    # an A/B: DeepGEMM switched off and the answers are right again
    "With VLLM_USE_DEEP_GEMM=0 on the same B200 it answers correctly.\n",
    # a cosine between backends written "cos=", scores that "fall off a cliff"
    "layer 35 down_proj   cos=0.71044  rel_norm=1.8830\n",
    "With VLLM_USE_DEEP_GEMM=1 the GPQA scores fall off a cliff.\n",
    # two scores compared in a sentence (either order); the A/B that brings it back; a quality that fell; a reply that
    # repeats the prompt; a table row with DeepGEMM off and a percentage back up
    "hey, seeing gsm8k 0.31 on b200 vs 0.93 on h200 for the same fp8 ckpt\n",
    "gsm8k 0.93 on h200 versus 0.31 on the b200s\n",
    "flipping VLLM_USE_DEEP_GEMM=0 brings it back to 0.93.\n",
    "We see a large quality regression for DeepSeek-V3.1 (FP8) when moving from H100 to B200.\n",
    "On B200 the generated text is mostly repetition of the prompt.\n",
    "| B200 | SGLANG_ENABLE_JIT_DEEPGEMM=0 | 79.1 | 87.6 |\n",
    # an eval at chance, a perplexity in the hundreds, NaN found by a check, inf logits, a quarter lost in a 'vs'
    "GPQA-diamond on the B200s is at random chance now (0.25)\n",
    "wikitext perplexity went from 9.7 to 412.9 on B200\n",
    ">>> torch.isnan(logits).any()  # -> tensor(True, device='cuda:0')\n",
    "half of the logits are -inf after the first MoE layer on B200\n",
    "gsm8k is 0.71 vs 0.95 on H200\n",
    # a relative error of a tenth, a perplexity written in exponent notation, endless repetitions, Korean "low"
    "max abs diff (B200, deepgemm): 14.81, mean rel err 0.27\n",
    "wikitext-2 ppl: 1.84e+04   (expected ~3.1)\n",
    "With DeepGEMM on, the B200 scores fell off a cliff.\n",
    'Outputs on B200 are sometimes endless repetitions of "the the the".\n',
    "B200\uc5d0\uc11c \uc815\ud655\ub3c4\uac00 \uc774\uc0c1\ud558\uac8c \ub0ae\uc2b5\ub2c8\ub2e4.\n",
    # a benchmark line that measures shapes and states wrong numbers: the numbers, not a shape contract
    "shape (m=4096, n=7168, k=2048)   deepgemm vs bf16 ref: cos=0.9213  rel_l2=0.391\n",
    # a cosine written with a space
    "the DeepGEMM path disagrees with the Triton path (cos 0.87)\n",
    # a degenerate reply, scores under the model card, one eval named between two scores
    'Qwen3-14B-FP8 turns into "the the the the , , , ," after a few tokens on the B200 nodes\n',
    "Scores are below the model card and below our 4x H200 deployment of the same checkpoint.\n",
    "scores 0.29 on GPQA-diamond vs 0.65 on H100, no errors or warnings\n",
    # a table of evals under GPU columns aligned with spaces, the evals' column unnamed
    "\n                 8x H200    8x B200\ngsm8k (5-shot)   0.957      0.951\nmmlu-pro         0.812      0.779\n",
])
def test_a_symptom_in_a_write_up_is_read_with_the_library_it_names(text):
    context = "VLLM_USE_DEEP_GEMM=1 vllm serve deepseek-ai/DeepSeek-R1 -tp 8 on 8x NVIDIA B200\n"
    assert top(context + text)[:1] == [("ue8m0-silent-corruption", "possible")]
    # a healthy score row: its stderr column is no collapse
    healthy = "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.9545|±  |0.0057|\n"
    assert top(context + healthy) == []
    # nor are two close scores, a zero-shot column, a stderr, or an A/B with DeepGEMM on
    for healthy in ("| GSM8K         | 95.3 (H200) | 94.8 (B200) |\n",
                    "|mmlu     |      2|none  |     0|acc   |↑  |0.7034|±  |0.0036|\n",
                    "gsm8k (5-shot): 0.954 ± 0.006, strict 0.950 stderr 0.006\n",
                    "With VLLM_USE_DEEP_GEMM=1 it answers correctly: 0.95\n",
                    "gsm8k 0.91 on h200 vs 0.93 on b200\n",
                    "perplexity 9.71 over 2048 samples\n", "the Triton path gives cos 0.99998\n"):
        assert top(context + healthy) == [], healthy


def test_an_output_that_collapsed_is_corruption_before_a_precision_loss():
    warning = ("[2025-11-02 09:14:21 TP0] DeepGemm is enabled but the scale_fmt of checkpoint is not ue8m0. "
               "This might cause accuracy degradation on Blackwell.\n")
    # the warning alone: the precision loss it announces, a risk (nothing measured it) on a B200 too, named after the
    # UE8M0 scale failure it is a case of (refines)
    assert [i for i, _ in top(warning)][:2] == ["ue8m0-silent-corruption", "e8m0-precision-loss"]
    assert top("8x NVIDIA B200, sglang 0.5.3\n" + warning)[:2] == [("ue8m0-silent-corruption", "possible"),
                                                                   ("e8m0-precision-loss", "possible")]
    # beside a collapse on a B200 (garbage, a score near zero): the corruption first, the loss after it
    collapse = "gsm8k (5-shot) on 8x B200 with deep_gemm: 0.031, outputs are mostly garbage\n"
    got = top(warning + collapse)
    assert got[0][0] == "ue8m0-silent-corruption", got
    assert ("e8m0-precision-loss", "possible") in got[1:]


def test_scales_said_to_be_rounded_without_requantizing_are_the_corruption_not_a_refused_contract():
    line = ("On SM100 the DeepGEMM linear only takes UE8M0 scales, and we round the float32 scales up to the next power "
            "of two {} the fp8 weights, so every block comes out scaled by a factor in [1, 2). Error compounds "
            "over 36 layers.\n")  # ("Error": read as a failure, as a refusal would be)
    said = top("1x NVIDIA B200\n" + line.format("without requantizing"))
    assert said and said[0][0] == "ue8m0-silent-corruption", said
    assert not {"deepgemm-fp32-sf-sm100", "deepgemm-sf-layout-shape"} & {i for i, _ in said}
    # the same words as a refusal (no rounding said): the scale contract
    refused = top("1x NVIDIA B200\nRuntimeError: the DeepGEMM linear only takes UE8M0 scales, but got float32 scales\n")
    assert refused and refused[0][0] == "deepgemm-fp32-sf-sm100", refused


def test_a_sentence_that_quotes_a_message_is_weak_evidence_for_it():
    # a write-up that quotes the guard in a sentence (here in Korean prose): named, at most possible
    text = ("B200에서 experts_implementation=\"deepgemm\" 으로 로드하면 `no float32 scale-factor path on Blackwell` "
            "라는 NotImplementedError가 발생합니다.\n")
    assert top(text)[:1] == [("deepgemm-fp32-sf-sm100", "possible")]


@pytest.mark.parametrize("text, expected", [
    ("flashinfer trtllm_fp8_block_scale_moe crashes right away on a 5090 with VLLM_USE_FLASHINFER_MOE_FP8=1\n",
     "flashinfer-fp8"),
    ("on our air-gapped node FP8 forward in transformers dies because it wants to pull kernels-community/finegrained-fp8\n",
     "transformers-fp8-kernels-unavailable"),
])
def test_a_failure_said_in_everyday_words_is_read(text, expected):
    assert [i for i, _ in top(text)][:1] == [expected]


def test_a_negated_failure_word_states_no_failure():
    assert top("DeepGEMM on our H100s never crashes and the server runs fine with VLLM_USE_DEEP_GEMM=1\n") == []


def test_a_component_switched_off_on_import_failure_is_no_likely_root_cause():
    # SGLang on a bf16 model: DeepGEMM did not import, SGLang disabled it and went on; the port was taken
    text = ("[2025-08-14 10:02:11] Failed to import deep_gemm, disable ENABLE_JIT_DEEPGEMM.\n"
            "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use\n")
    assert not [f for f in top(text) if f[1] in ("likely", "confirmed")]


def test_the_gpu_a_write_up_compares_against_is_not_the_machine():
    from fp8triage.drivers.batch import scan_text as scan

    text = ("Accuracy: 0.021\n"
            "Same command on H100 gives Accuracy: 0.912. GPU here is B200 (sm_100), DeepGEMM 2.0.0 from the image.\n")
    facts = {f.name: f.value for f in scan(text, source="p.log").facts}
    assert facts.get("capability") == "10.0"
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")]


def test_a_progress_line_that_prints_a_torch_size_is_no_shape_failure():
    text = ("(EngineCore_DP0 pid=12) INFO 12-01 08:14:05 [deep_gemm_warmup.py:120] DeepGEMM warmup: "
            "fp8_gemm_nt shapes torch.Size([4096, 7168]) 100% 48/48\n"
            "(EngineCore_DP0 pid=12) WARNING 12-01 08:14:06 [fp8_utils.py:88] DeepGEMM warmup took 41.2 s (torch.Size([8192, 7168]) last)\n")
    assert [f for f in top(text) if f[0] == "deepgemm-sf-layout-shape"] == []


def test_an_assertion_whose_message_only_prints_values_is_read_by_its_assert_line():
    text = ('  File "/x/transformers/integrations/finegrained_fp8.py", line 322, in w8a8_block_fp8_matmul_triton\n'
            '    assert triton.cdiv(N, block_n) == Bs.shape[0], f"{N}, {block_n}, {Bs.shape}"\n'
            "AssertionError: 1536, 128, torch.Size([24, 56])\n")
    assert [i for i, _ in top(text)][:1] == ["fp8-block-size-mismatch"]


def test_a_cuda_error_raised_in_other_frames_is_not_put_on_a_component_named_elsewhere():
    text = ("INFO 12-01 08:14:05 [cutlass.py:88] Using CUTLASS FP8 scaled_mm kernels\n"
            "Traceback (most recent call last):\n"
            '  File "/x/vllm/attention/backends/flash_attn.py", line 812, in forward\n'
            "    out = flash_attn_varlen_func(q, k, v)\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered\n")
    assert [f for f in top(text) if f[0] == "cutlass-fp8-unsupported-arch"] == []


def test_a_component_mentioned_beside_another_failure_is_no_likely_root_cause():
    # the write-up says in passing that DeepGEMM is not installed; what the reporter hit is an OOM
    text = ("Weights load (DeepGEMM is not installed so it's the triton block fp8 path), then during the profile run:\n"
            "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.00 GiB.\n")
    assert not [f for f in top(text) if f[1] in ("likely", "confirmed")]
    # alone, the same words as a log line are the failure's own message
    assert [i for i, _ in top("DeepGEMM is not installed so it's the triton block fp8 path\n")][:1] == ["deepgemm-not-installed"]


def test_a_score_sentence_cut_by_a_line_break_is_read_whole():
    text = ("If I export VLLM_USE_DEEP_GEMM=0 on the B200 box the score goes back to 0.86, so it is the DeepGEMM path.\n"
            "`lm_eval --model local-completions --tasks gsm8k --num_fewshot 5`. On H100 strict-match is 0.87. On B200\n"
            "it is 0.00. No error, no warning, the server happily answers, the answers are just word salad.\n")
    assert [i for i, _ in top(text)][:1] == ["ue8m0-silent-corruption"]


@pytest.mark.parametrize("text", [
    # a closed issue's summary: the original error, fixed in a later sentence
    ("Closing this. Summary for anyone landing here from search:\n\n"
     "Original error was `RuntimeError: CUDA error: no kernel image is available for execution on the device` from "
     "`cutlass_scaled_mm` on RTX 5090 (sm_120). Fixed in #20243, shipped in v0.10.0. No further action needed.\n"),
    # a merged PR: the error users saw before it, indented under the sentence that says so
    ("DeepGEMM 2.0 renamed `gemm_fp8_fp8_bf16_nt` -> `fp8_gemm_nt`. Before this PR, users on DeepGEMM 2.x saw:\n"
     "    AttributeError: module 'deep_gemm' has no attribute 'gemm_fp8_fp8_bf16_nt'\n"
     "This PR calls the new names and keeps a shim for 1.x.\n"),
    ("Update: after upgrading to vLLM 0.27.0 this works now on our RTX PRO 6000s, closing.\n"
     "For reference, the error we had on 0.24.0 was:\n"
     "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation\n"),
    ("Question before we buy hardware: could we hit `No compiled cutlass_scaled_mm for CUDA device capability: 120` "
     "with the official wheel? We have not tried it yet.\n"),
    # the words that settle it come after the error, in a reporter's later comment
    ("RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation\n\n"
     "Anyway, this is gone after upgrading to 0.27.0. Closing.\n"),
    ("RuntimeError: mat2 must be col_major\n\nMy mistake. Fixed by passing w.t(), no bug in torch.\n"),
    # a sentence that names another issue and introduces the current error still introduces it (below)
    # yesterday's error, quoted before today's (which the same paste may show as well)
    ("Yesterday with experts_implementation=\"deepgemm\" I got\n\n  NotImplementedError: DeepGEMM has no float32 "
     "scale-factor path on Blackwell (SM100) ...\n"),
    ("On the cloud box this model first failed with\n\n  NotImplementedError: DeepGEMM has no float32 "
     "scale-factor path on Blackwell (SM100) ...\n"),
    ("ValueError: Weight output_partition_size = 176 is not divisible by weight quantization block_n = 128.\n\n"
     "So resolved by setting TP=8 with EP.\n"),
    ("RuntimeError: bmm_fp8_internal_cublaslt failed: CUBLAS_STATUS_NOT_SUPPORTED\n"
     "Confirming it's fixed in flashinfer 0.6.9, can't repro anymore on the same machine.\n"),
    ("ValueError: FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g 4090/H100), actual = `8.6`\n"
     "error went away after upgrading, that one is resolved.\n"),
    # a pull request's description quotes the error it fixes, with no sentence in the past
    ("### Purpose\nRTX 5090 and RTX PRO 6000 owners reported\n`RuntimeError: No compiled cutlass_scaled_mm for CUDA device "
     "capability: 120. Required capability: 90 or 100`\nwhen loading FP8 checkpoints. This PR adds the sm120a instantiation.\n"
     "### Test Plan\npytest tests/kernels/quantization/test_cutlass_scaled_mm.py\n"),
])
def test_a_failure_the_paste_says_is_fixed_or_never_ran_is_named_not_claimed(text):
    got = top(text)
    assert got and not [f for f in got if f[1] in ("likely", "confirmed")], got


@pytest.mark.parametrize("said", [
    "You said this was resolved in 0.11, but we still get it on 0.11.1:",
    "This was fixed by #7482 for H100, but on our RTX PRO 6000 it still crashes:",
    "Fixed by #1234 upstream? I still see it:",
])
def test_a_fix_the_reporter_says_did_not_help_leaves_the_failure_claimed(said):
    text = (f"{said}\n(EngineCore_DP0 pid=2211) RuntimeError: Assertion error "
            "(/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation\n"
            "GPU: NVIDIA RTX PRO 6000 Blackwell Server Edition, compute capability 12.0\n")
    assert top(text)[:1] == [("deepgemm-unknown-sf-transformation", "likely")]


def test_an_architecture_named_before_its_refusal_is_an_unsupported_arch():
    # "on SM100 ... does not support" (the verb after the architecture); "scale-factor" hyphenated
    text = ("NotImplementedError: DeepGEMM on SM100 (Blackwell) does not support the float32 scale-factor path for "
            "grouped GEMMs\n")
    assert [i for i, _ in top(text)][:1] == ["deepgemm-fp32-sf-sm100"]


def test_a_message_two_failures_share_is_told_apart_by_the_gpu():
    from fp8triage.model import Fact

    text = "RuntimeError: Assertion error (csrc/apis/gemm.hpp:295): Unsupported architecture or scaling factor types\n"
    b200 = [Fact("capability", "10.0", "--fact", "cli")]
    # on a B200: float32 scale factors reached SM100's DeepGEMM (the broader failure), the E8M0 switch right after
    assert [i for i, _ in top(text, cli_facts=b200)][:2] == ["deepgemm-fp32-sf-sm100", "deepgemm-e8m0-disabled-on-blackwell"]
    ada = [Fact("capability", "8.9", "--fact", "cli")]
    assert top(text, cli_facts=ada)[:1] == [("deepgemm-unsupported-arch", "possible")]
    # no GPU known: float32 scales on SM100 first (where else the transform refuses them before the dispatch),
    # the E8M0 switch right after it; neither claimed
    assert top(text)[:2] == [("deepgemm-fp32-sf-sm100", "possible"), ("deepgemm-e8m0-disabled-on-blackwell", "possible")]


def test_a_symptom_that_names_the_fp8_checkpoint_but_not_the_gpu_takes_the_gpu_the_paste_names():
    paste = ("Our eval node (8x B200) runs a transformers worker for small checkpoints.\n"
             "It gives garbage for every FP8 (block-128, float32 weight_scale_inv) checkpoint: repeated tokens, no error.\n")
    assert top(paste)[:1] == [("ue8m0-silent-corruption", "possible")]
    # the same words for an NVFP4 checkpoint: no FP8 claim
    assert "ue8m0-silent-corruption" not in {i for i, _ in top(paste.replace("FP8 (block-128, float32 weight_scale_inv)", "NVFP4"))}


def test_a_specific_case_quoted_in_a_sentence_outranks_its_broader_failures_component_and_kind():
    from fp8triage.model import Fact

    said = ('now every replica crashes in the first dummy run: fp8_gemm_nt -> "Unsupported architecture or scaling '
            'factor types" from deepgemm-src/csrc/apis/gemm.hpp. the H200 pool with the same env is fine.\n')
    b200 = [Fact("capability", "10.0", "--fact", "cli")]
    # the message (quoted: named, at most possible) is the SM100 float32-scale case, not "DeepGEMM has no kernel for
    # this architecture" read from the words "unsupported architecture" and "deepgemm"
    got = [i for i, _ in top(said, cli_facts=b200)]
    assert got[:2] == ["deepgemm-fp32-sf-sm100", "deepgemm-e8m0-disabled-on-blackwell"], got


def test_a_specific_case_names_the_broader_failure_it_refines_first():
    from fp8triage.model import Fact

    ptxas = ("ptxas {path}/kernel.ptx, line 412; error   : Instruction 'tcgen05.alloc' not supported on .target 'sm_120a'\n"
             "ptxas fatal   : Ptx assembly aborted due to errors\n")
    # inside DeepGEMM's JIT: a DeepGEMM JIT compile failure, for this reason
    got = top(ptxas.format(path="/root/.cache/vllm/deep_gemm/tmp/1759-0b8e"))
    assert [i for i, _ in got[:2]] == ["deepgemm-jit-compile-failure", "sm100-instructions-on-sm12x"]
    assert got[0][1] == got[1][1] == "likely"
    # inside the JIT build of one of FlashInfer's FP8 GEMMs: a FlashInfer FP8 failure
    got = top(ptxas.format(path="/root/.cache/flashinfer/jit/fp8_blockscale_gemm_sm90"))
    assert [i for i, _ in got[:2]] == ["flashinfer-fp8", "sm100-instructions-on-sm12x"]
    # a JIT the log does not name: the case alone
    assert top(ptxas.format(path="/tmp/build"))[0][0] == "sm100-instructions-on-sm12x"
    # a fact that contradicts the broader failure leaves it out: DeepGEMM has SM100 kernels on a B200
    gemm = ("(EngineCore_DP0 pid=811) ERROR [core.py:708] RuntimeError: Assertion error "
            "(/workspace/.deps/deepgemm-src/csrc/apis/gemm.hpp:122): Unsupported architecture or scaling factor types\n")
    # (and the next one listed is tried: float32 scale factors on SM100)
    got = top(gemm, cli_facts=[Fact("capability", "10.0", "--fact", "cli")])
    assert [i for i, _ in got[:2]] == ["deepgemm-fp32-sf-sm100", "deepgemm-e8m0-disabled-on-blackwell"]
    assert "deepgemm-unsupported-arch" not in [i for i, _ in got]


def test_a_message_the_reporter_says_is_gone_is_not_the_failure_now():
    text = ("Setting VLLM_USE_DEEP_GEMM=0 fixed the Unknown SF transformation error, which is gone now, but the engine "
            "fails differently on the RTX 5090:\n"
            "NotImplementedError: No compiled cutlass_scaled_mm for CUDA device capability: 120. Required capability: 90 or 100\n")
    got = top(text)
    assert got[0] == ("cutlass-fp8-unsupported-arch", "likely")
    assert ("deepgemm-unknown-sf-transformation", "likely") not in got
    # the same message hit now is the failure
    hit = top("RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation\n"
              "the Unknown SF transformation error appears on every start")
    assert hit[0][0] == "deepgemm-unknown-sf-transformation"
    # a later sentence of the message's own line says the rebuild that got past it works now
    update = ("Update: the `NotImplementedError: No compiled cutlass_scaled_mm for CUDA device capability: 120` I posted "
              "last week was my own build. Rebuilt with \"12.0a\" and it runs now, RTX 5090, Qwen3-14B-FP8:\n"
              "INFO 09-12 20:14:19 [fp8.py:588] Using CUTLASS kernels for Fp8LinearMethod.\n")
    assert ("cutlass-fp8-unsupported-arch", "likely") not in top(update)


def test_a_status_error_inside_deepgemm_is_told_apart_by_the_gpu():
    # nothing but a CUDA driver error from DeepGEMM's runtime: on an RTX 5090 DeepGEMM has no kernels for the
    # GPU; on a B200 the UE8M0 packer's device assert fits the facts better
    err = ("(Worker_TP0 pid=2211) ERROR [multiproc_executor.py:671]   File \"/usr/local/lib/python3.12/dist-packages/vllm/"
           "utils/deep_gemm.py\", line 401, in fp8_gemm_nt\n"
           "(Worker_TP0 pid=2211) ERROR [multiproc_executor.py:671]     return _fp8_gemm_nt_impl(*args, **kwargs)\n"
           "(Worker_TP0 pid=2211) ERROR [multiproc_executor.py:671] RuntimeError: CUDA driver error "
           "(/workspace/.deps/deepgemm-src/csrc/jit/kernel_runtime.hpp:91): 1 (CUDA_ERROR_INVALID_VALUE, invalid argument)\n")
    gpu = "(Worker_TP0 pid=2211) INFO [cuda.py:398] Device 0: NVIDIA {}, compute capability {}\n"
    assert top(gpu.format("GeForce RTX 5090", "12.0") + err)[0] == ("deepgemm-unsupported-arch", "likely")
    assert top(gpu.format("B200", "10.0") + err)[0] == ("ue8m0-pack-assert", "likely")


def test_a_message_quoted_in_a_sentence_is_named_not_shown():
    text = ("I expected the \u201cUnknown SF transformation\u201d error for our per-token scales, but what we actually get is:\n"
            "RuntimeError: Assertion error (/root/DeepGEMM/csrc/apis/layout.hpp:24): sf.size(-1) == ceil_div(k, gran_k)\n")
    got = top(text)
    assert got[0] == ("deepgemm-sf-layout-shape", "likely")
    assert ("deepgemm-unknown-sf-transformation", "likely") not in got


@pytest.mark.parametrize("text, sig", [
    # an ImportError whose message says it is the GPU, not a missing module
    ('  File "/srv/.venv/lib/python3.12/site-packages/transformers/integrations/deepgemm.py", line 97, in _load_deepgemm_kernel\n'
     "    raise ImportError(err)\n"
     "ImportError: DeepGEMM kernels are only built for SM90 and SM100; this GPU is SM120.\n", "deepgemm-unsupported-arch"),
    # CUTLASS's own status check as torch prints it is a status failure, not a shape contract
    ('  File "/usr/lib/python3/dist-packages/sgl_kernel/gemm.py", line 41, in fp8_scaled_mm\n'
     "RuntimeError: Expected can_implement == cutlass::Status::kSuccess to be true, but got false.\n", "cutlass-fp8-unsupported-arch"),
    # an FP8 attention kernel's gate is that kernel's, not the generic FP8 capability one
    ("[TensorRT-LLM][ERROR] Assertion failed: FP8 Context FMHA is only supported on sm_89, sm_90 and sm_100 "
     "(/src/cpp/tensorrt_llm/common/attentionOp.cpp:2718)\n", "fp8-attention-arch-gate"),
    # an arch refusal worded as a need
    ("RuntimeError: the DeepGEMM FP4 grouped GEMM needs arch_major == 10 (got 9)\n", "deepgemm-fp4-requires-sm100"),
    # transformers' float32-scale guard as another release words it
    ('  File "/x/site-packages/transformers/integrations/deepgemm.py", line 306, in _assert_sm100_scales_are_ue8m0\n'
     "ValueError: DeepGEMM's Blackwell (SM100) experts kernel requires power-of-two (UE8M0) scale factors, but this "
     "checkpoint's expert scales are plain float32.\n", "deepgemm-fp32-sf-sm100"),
    # the hub kernel cannot be fetched through a proxy
    ('  File "/x/site-packages/transformers/integrations/hub_kernels.py", line 120, in load_kernel\n'
     "requests.exceptions.ProxyError: HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with "
     "url: /api/kernels/kernels-community/finegrained-fp8/refs (Caused by ProxyError('Unable to connect to proxy'))\n",
     "transformers-fp8-kernels-unavailable"),
    # a kernel family's support check shown as its assert line
    ('  File "/sgl-workspace/sglang/python/sglang/srt/layers/quantization/fp8_kernel.py", line 88, in apply\n'
     "    assert cutlass_fp8_supported(), (\n"
     "AssertionError\n", "cutlass-fp8-unsupported-arch"),
    # DeepGEMM's older Python-era refusal of a scale-factor case
    ('  File "/opt/conda/lib/python3.11/site-packages/deep_gemm/jit_kernels/utils.py", line 214, in transform_sf\n'
     "AssertionError: Unknown cases: sf.dtype=torch.float32, gran=(1, 128), arch='120a'\n",
     "deepgemm-unknown-sf-transformation"),
    # an availability check shown as its assert line
    ('  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/layers/fused_moe/deep_gemm_moe.py", line 250, in apply\n'
     "    assert has_deep_gemm()\n"
     "AssertionError\n", "deepgemm-not-installed"),
    # an assertion whose message only dumps a value ("sm_version=121") is read by its assert line
    ('  File "/usr/local/lib/python3.12/dist-packages/vllm/utils/deep_gemm.py", line 120, in _check_arch\n'
     "    assert sm_version in (90, 100, 103), f\"sm_version={sm_version}\"\n"
     "AssertionError: sm_version=121\n", "deepgemm-unsupported-arch"),
    # neither the package nor a vendored copy could be imported
    ('  File "/usr/local/lib/python3.12/dist-packages/vllm/utils/deep_gemm.py", line 60, in _lazy_init\n'
     "RuntimeError: neither the deep_gemm package nor the vendored copy could be imported. Install DeepGEMM.\n",
     "deepgemm-not-installed"),
    # transformers' float32-scale guard worded as "take X only; got Y"
    ('  File "/x/site-packages/transformers/integrations/deepgemm.py", line 158, in _assert_sm100_requirements\n'
     "NotImplementedError: Blackwell (SM100) DeepGEMM kernels take UE8M0 scale factors only; got float32 scales for "
     "`gate_up_proj`.\n", "deepgemm-fp32-sf-sm100"),
    # an FP8 KV cache's arch check shown as its assert line, in an attention backend
    ('  File "/sgl-workspace/sglang/python/sglang/srt/layers/attention/trtllm_mha_backend.py", line 64, in __init__\n'
     "    assert is_sm100_supported() and model_runner.kv_cache_dtype in (torch.float8_e4m3fn,)\n"
     "AssertionError\n", "fp8-attention-arch-gate"),
    # torch 2.1's _scaled_mm gate, before "or 8.9" was added
    (">>> out, amax = torch._scaled_mm(a_fp8, b_fp8.t(), out_dtype=torch.bfloat16, scale_a=sa, scale_b=sb)\n"
     "RuntimeError: torch._scaled_mm is only supported on devices with compute capability >= 9.0)\n",
     "fp8-unsupported-capability"),
    # the CUDA message cut by a terminal or a paste
    ('  File "/x/sgl_kernel/gemm.py", line 96, in sgl_per_token_group_quant_fp8\n'
     "RuntimeError: CUDA error: no kernel image is available for execution on the dev\n", "no-kernel-image-for-arch"),
    # transformers' float32-scale guard with its message in Chinese (a translated paste)
    ('  File "/x/site-packages/transformers/integrations/deepgemm.py", line 188, in _assert_sm100_requirements\n'
     "    raise NotImplementedError(\n"
     "NotImplementedError: DeepGEMM 在 Blackwell (SM100) 上没有 float32 缩放因子路径\n", "deepgemm-fp32-sf-sm100"),
    # the UE8M0 packer's device assert recalled by the reporter, its constant cut short
    ("warmup on GB200 crashes. There were a bunch of device-side \"Assertion failed ... smxx_layout.cuh ... values[j] & "
     "0x807fff...\" lines above this\n"
     "(EngineCore_DP0 pid=9921) ERROR 07-25 18:20:31 [core.py:843] torch.AcceleratorError: CUDA error: unspecified "
     "launch failure\n", "ue8m0-pack-assert"),
    # TensorRT's builder refusing an FP8 network on a GPU without FP8
    ("[12/01/2024-03:14:10] [TRT] [E] IBuilder::buildSerializedNetwork: Error Code 9: API Usage Error (Networks with "
     "FP8 precision require hardware with FP8 support.)\n", "fp8-unsupported-capability"),
    # the float32-scale guard worded "consumes X only"
    ('  File "/x/site-packages/transformers/integrations/deepgemm.py", line 188, in _assert_sm100_requirements\n'
     "NotImplementedError: DeepGEMM on Blackwell (SM100) consumes UE8M0 scale factors only; this checkpoint has "
     "float32 block scales.\n", "deepgemm-fp32-sf-sm100"),
    # ptxas refusing Triton's FP8 conversion below Ada (an A100)
    ('  File "/x/vllm/model_executor/layers/quantization/utils/fp8_utils.py", line 412, in w8a8_block_fp8_matmul\n'
     '  File "/x/triton/backends/nvidia/compiler.py", line 302, in make_cubin\n'
     "RuntimeError: Internal Triton PTX codegen error:\n"
     "ptxas /tmp/tmpk2u4x8ad.ptx, line 612; error   : Feature 'cvt with .e4m3x2' requires .target sm_89 or higher\n",
     "fp8-unsupported-capability"),
    # a vLLM built without the CUTLASS kernels for its GPU: the op is not in torch's op namespace
    ('  File "/workspace/vllm/vllm/_custom_ops.py", line 479, in cutlass_scaled_mm\n'
     "    torch.ops._C.cutlass_scaled_mm(out, a, b, scale_a, scale_b, bias)\n"
     '  File "/workspace/venv/lib/python3.10/site-packages/torch/_ops.py", line 1170, in __getattr__\n'
     "AttributeError: '_OpNamespace' '_C' object has no attribute 'cutlass_scaled_mm'\n", "cutlass-fp8-unsupported-arch"),
    # sgl-kernel's refusal for an op name of another release
    ('  File "/usr/local/lib/python3.10/dist-packages/sgl_kernel/gemm.py", line 41, in fp8_blockwise_scaled_mm\n'
     "RuntimeError: No implemented fp8_blockwise_mm for current compute capability: 120\n", "cutlass-fp8-unsupported-arch"),
    # the float32-scale guard worded "cannot consume ... scales"
    ('  File "/x/site-packages/transformers/integrations/deepgemm.py", line 188, in _assert_sm100_requirements\n'
     "NotImplementedError: DeepGEMM on SM100 cannot consume float32 weight scales (the Blackwell kernel only reads "
     "packed UE8M0)\n", "deepgemm-fp32-sf-sm100"),
    # DeepGEMM's FP4 check with its operands in the other order
    ("(EngineCore_DP0 pid=221) ERROR 05-02 11:07:44 [core.py:926] RuntimeError: Assertion error "
     "(/workspace/.deps/deepgemm-src/csrc/utils/layout.hpp:48): arch_major == 10 and b.scalar_type() == kPackedFP4\n",
     "deepgemm-fp4-requires-sm100"),
    # retyped from memory: a word cut short, a misspelling, a dropped "is"
    ('  File "/usr/local/lib/python3.12/dist-packages/vllm/utils/deep_gemm.py", line 240, in fp8_gemm_nt\n'
     "TypeError: fp8_gemm_nt() got an unexpected keyword arg 'disable_ue8m0_cast'\n", "deepgemm-api-mismatch"),
    ("ValueError: weight output size 1000 is not divisable by block_n 128 (FP8 block quantization)\n",
     "fp8-block-size-mismatch"),
    ('  File "/usr/lib/python3/dist-packages/sgl_kernel/gemm.py", line 41, in fp8_scaled_mm\n'
     "RuntimeError: CUDA error: no kernel image available for execution on the device\n", "no-kernel-image-for-arch"),
    # a need with words between it and the architecture
    ('  File "/x/site-packages/transformers/integrations/deepgemm.py", line 420, in deepgemm_fp8_fp4_experts_forward\n'
     "NotImplementedError: FP4 expert weights (int8-packed e2m1) need DeepGEMM's Blackwell (SM100) kernels; current "
     "device is SM90\n", "deepgemm-fp4-requires-sm100"),
    # an alignment in blocks checked by a bare assert
    ('  File "/sgl-workspace/sglang/python/sglang/srt/layers/moe/moe_runner/deep_gemm.py", line 211, in run\n'
     "    assert ceil_div(hidden_size, activation_block_size * 4) == (\n"
     "AssertionError\n", "deepgemm-sf-layout-shape"),
    # TensorRT-LLM's FP8 context FMHA check by its member's name
    ("[TensorRT-LLM][ERROR] Assertion failed: mEnableContextFMHA || !mFP8ContextFMHA "
     "(/src/tensorrt_llm/cpp/tensorrt_llm/plugins/gptAttentionCommon/gptAttentionCommon.cpp:412)\n",
     "fp8-attention-arch-gate"),
    # a hub kernel with no build for this torch and CUDA
    ('  File "/x/site-packages/transformers/integrations/finegrained_fp8.py", line 96, in load_finegrained_fp8_kernel\n'
     "FileNotFoundError: Kernel `kernels-community/finegrained-fp8` at revision v1 does not have build: "
     "torch212-cxx11-cu132-x86_64-linux\n", "transformers-fp8-kernels-unavailable"),
    # the FP4 check through the runtime's accessor
    ("RuntimeError: Assertion error (csrc/apis/gemm.hpp:95): b.scalar_type() == kPackedFP4 and "
     "device_runtime->get_arch_major() == 10\n", "deepgemm-fp4-requires-sm100"),
    # sgl-kernel naming the architectures it was built for
    ('  File "/x/sgl_kernel/gemm.py", line 64, in fp8_blockwise_scaled_mm\n'
     "RuntimeError: fp8_blockwise_scaled_mm: no kernel implemented for sm_120 (supported: sm_90a, sm_100a)\n",
     "cutlass-fp8-unsupported-arch"),
    # a block-size check in a stack's own layer code, an FP8 model on the command line
    ('  File "/opt/py3/lib/python3.10/site-packages/lmdeploy/pytorch/nn/linear.py", line 412, in __init__\n'
     "    assert out_features % self.quant_config_block_size == 0\n"
     "AssertionError\n"
     "lmdeploy serve api_server Qwen/Qwen3-30B-A3B-FP8 --tp 8 --backend pytorch\n", "fp8-block-size-mismatch"),
    # an old DeepGEMM's arch check with its own words
    ('  File "/x/deep_gemm/jit_kernels/gemm.py", line 30, in get_num_sms\n'
     "    assert prop.major == 9, 'Only SM90 is supported'\n"
     "AssertionError: Only SM90 is supported\n", "deepgemm-unsupported-arch"),
    # CUTLASS's status for a kernel built for another architecture (not a shape "mismatch")
    ('  File "/usr/local/lib/python3.12/dist-packages/sgl_kernel/gemm.py", line 57, in fp8_blockwise_scaled_mm\n'
     "    return torch.ops.sgl_kernel.fp8_blockwise_scaled_mm.default(\n"
     "RuntimeError: Failed to run CUTLASS kernel: Error Architecture Mismatch\n", "cutlass-fp8-unsupported-arch"),
    # DeepGEMM "not importable"
    ("(VllmWorker rank=0 pid=88123) ERROR 09-21 18:02:55 [multiproc_executor.py:596] RuntimeError: DeepGEMM backend "
     "requested via VLLM_USE_DEEP_GEMM=1 but deep_gemm is not importable.\n", "deepgemm-not-installed"),
    # an older vLLM's wording of DeepGEMM missing
    ('  File "/x/vllm/model_executor/layers/fused_moe/deep_gemm_moe.py", line 61, in _valid_deep_gemm\n'
     "    assert has_deep_gemm(), \"DeepGEMM kernels not available.\"\n"
     "AssertionError: DeepGEMM kernels not available.\n", "deepgemm-not-installed"),
    # the hub kernel on an offline machine with no copy of it
    ('  File "/x/site-packages/transformers/integrations/finegrained_fp8.py", line 96, in load_finegrained_fp8_kernel\n'
     "RuntimeError: Cannot load hub kernel `kernels-community/finegrained-fp8`: no cached revision found and "
     "HF_HUB_OFFLINE is set.\n", "transformers-fp8-kernels-unavailable"),
])
def test_kind_wordings_of_other_releases(text, sig):
    assert top(text)[:1][0][0] == sig, top(text)


def test_a_logger_record_that_quotes_a_message_is_not_a_sentence_of_a_write_up():
    # a log record (it has a level) quoting the message is the failure; only prose is demoted
    text = ('(Worker_TP0 pid=7) ERROR 01-09 08:41:59 [core.py:708] WorkerProc hit an exception while loading the '
            'weights of the model: "Unknown SF transformation" from the scale-factor transform\n')
    res = scan_text(text, source="p.log")
    assert res.findings[0].id == "deepgemm-unknown-sf-transformation" and res.findings[0].strength == "strong"


def test_the_reporters_guess_at_the_cause_is_never_a_likely_claim():
    text = ("Serving the FP8 model on the DGX Spark dies at the first request. Looks like DeepGEMM has no recipe for "
            "sm_121.\n"
            "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/utils/layout.hpp:81): Unknown recipe\n")
    from fp8triage.model import Fact

    got = top(text, cli_facts=[Fact("capability", "12.1", "--fact", "cli")])
    assert got[0] == ("deepgemm-unknown-sf-transformation", "likely")
    assert ("deepgemm-unsupported-arch", "likely") not in got


def test_a_message_handed_over_by_the_gpu_outranks_a_wrappers_worker_died_line():
    # DeepGEMM's dispatch refusal on a GB10 is "no kernel for this GPU", not the E8M0 switch (ruled out by the
    # capability); a weak rule hit of the same signature on the wrapper's exit line must not hide the message
    text = ("(Worker_TP0 pid=9) INFO 08-01 09:00:11 [cuda.py:398] Device 0: NVIDIA GB10, compute capability 12.1\n"
            "(Worker_TP0 pid=9) ERROR 08-01 09:00:41 [multiproc_executor.py:671] RuntimeError: Assertion error "
            "(/workspace/.deps/deepgemm-src/csrc/apis/gemm.hpp:122): Unsupported architecture or scaling factor types\n"
            "2026-08-14T16:20:42.110Z ERROR dynamo_runtime::component: deep_gemm worker died unexpectedly (exit code 1)\n")
    got = scan_text(text, source="p.log").findings
    assert got[0].id == "deepgemm-unsupported-arch" and got[0].strength == "strong"


def test_a_weak_finding_that_the_gpu_contradicts_ranks_after_one_it_does_not():
    # a bare FP8 backend assertion asks for SM90/SM100; the environment table says SM120 with the CUTLASS MoE
    # runner: "FP8 below Ada" is contradicted by the GPU and ranks after the CUTLASS arch failure
    text = ("2026-08-14T16:20:03.551Z  INFO dynamo.sglang: Launching SGLang worker, model=zai-org/GLM-4.6-FP8 tp=4 "
            "moe_runner_backend=cutlass\n"
            "[2026-08-14 16:20:41 TP2] Scheduler hit an exception: Traceback (most recent call last):\n"
            '  File "/opt/venv/lib/python3.12/site-packages/sglang/srt/layers/quantization/fp8.py", line 610, in __init__\n'
            "    assert is_sm100_supported() or is_sm90_supported()\n"
            "AssertionError\n\n"
            "2026-08-14T16:20:42.110Z ERROR dynamo_runtime::component: sglang worker died unexpectedly (exit code 1)\n"
            "Hardware: 4x RTX PRO 6000 Blackwell Workstation (sm_120), sglang 0.5.6\n")
    ids = [f.id for f in scan_text(text, source="p.log").findings]
    assert ids.index("cutlass-fp8-unsupported-arch") < ids.index("fp8-unsupported-capability")


def test_a_sentence_read_by_a_rule_alone_is_never_a_likely_claim():
    # the reporter's reason for a choice names a failure on an SM120 GPU: said, not printed
    text = ("DeepSeek-V3 block FP8 on 8x RTX PRO 6000 Blackwell Server Edition. We use `--fp8-gemm-backend cutlass` "
            "because deep_gemm is not supported on sm120.\n")
    got = top(text)
    assert got and got[0][0] == "deepgemm-unsupported-arch" and got[0][1] == "possible"


def test_not_a_crash_is_no_crash():
    text = ("Not a crash - throughput on H200 is lower than I expected for DeepSeek-V3 and I'm not sure DeepGEMM is "
            "being used.\n")
    assert top(text) == []


def test_no_cuda_error_said_beside_a_symptom_is_no_kernel_failure():
    # the reporter rules out a CUDA error: the DeepGEMM symptom stays a symptom, not a kernel's status failure
    text = ("Our trainer calls deep_gemm.fp8_gemm_nt with float32 scales (use_ue8m0=False) on 8x B300.\n"
            "Nothing in the logs on B300: no warnings, no CUDA errors, grad norm climbs to ~40, then the loss is nan.\n")
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")]



@pytest.mark.parametrize("text", [
    "GEMM wo_a through DeepGEMM on B200 with UE8M0 scales: rel_fro_err=0.2471  cos=0.9688",
    "DeepGEMM on B200: ||out|| / ||ref|| = 1.374 for every FP8 GEMM of the first layer",
    "With UE8M0 on the B200 the DeepGEMM scales lose their mantissa and the answers drift.",
])
def test_symptoms_read_from_per_gemm_comparisons(text):
    assert top(text)[0][0] == "ue8m0-silent-corruption"


@pytest.mark.parametrize("text", [
    "Any idea why e8m0 costs 23 points on gsm8k here? DeepGEMM on B300.",
    "Per FP8Linear through DeepGEMM on B200, a single GEMM on random input: rel_err 0.94, norm gain 1.97x.",
    "The DeepGEMM scales in the checkpoint are float32; they get ceil'd to ue8m0 before fp8_gemm_nt but the fp8 "
    "payload is not requantized.",
])
def test_symptoms_worded_as_a_cost_a_norm_gain_or_a_missing_requantization(text):
    assert top(text)[0][0] == "ue8m0-silent-corruption"


def test_a_message_cut_mid_word_inside_an_indented_block_is_read_whole():
    # a forum's code block: every line indented, the record wrapped at 80 columns in the middle of words
    text = ("    (EngineCore_DP0 pid=2201) ERROR 08-30 07:55:14 [core.py:866] RuntimeError: D\n"
            "    eepGEMM backend is unavailable in the current vLLM environment, or the avail\n"
            "    able DeepGEMM package does not provide the required APIs for these kernels.\n")
    assert top(text)[0] == ("deepgemm-not-installed", "likely")


def test_a_fallback_notice_that_says_what_it_uses_instead_is_no_likely_claim():
    text = ("WARNING 11-05 09:00:26 [fp8.py:1023] Failed to import DeepGemm kernels for dense linear; using CUTLASS "
            "block fp8 instead.\n"
            "INFO:     Application startup complete.\n")
    got = top(text)
    assert got[0] == ("deepgemm-not-installed", "possible")



def test_a_pytest_short_traceback_in_a_ci_log_is_a_traceback():
    # Buildkite's timestamps, pytest's --tb=short frames, a bare "E   AssertionError"; the capability the code
    # asks for is not the GPU's
    text = ("[2026-09-09T08:01:55Z] ____________________ test_deepep_deepgemm_moe[fp8-256-7168] ____________________\n"
            "[2026-09-09T08:01:55Z] tests/kernels/moe/test_deepep_deepgemm_moe.py:312: in test_deepep_deepgemm_moe\n"
            "[2026-09-09T08:01:55Z]     fused_experts = make_modular_kernel(...)\n"
            "[2026-09-09T08:01:55Z] vllm/model_executor/layers/fused_moe/deep_gemm_moe.py:198: in __init__\n"
            "[2026-09-09T08:01:55Z]     assert current_platform.is_device_capability(90) or "
            "current_platform.is_device_capability_family(100)\n"
            "[2026-09-09T08:01:55Z] E   AssertionError\n"
            "[2026-09-09T08:01:55Z] INFO     vllm.platforms.cuda:cuda.py:112 NVIDIA Thor, capability 11.0\n")
    res = scan_text(text, source="ci.log")
    assert res.findings[0].id == "deepgemm-unsupported-arch"
    assert {f.name: f.value for f in res.facts}["capability"] == "11.0"


@pytest.mark.parametrize("text", [
    # a release note's bullet that fixes it
    "## Bug fixes\n- [Kernel] Fix `RuntimeError: Assertion error (csrc/apis/layout.hpp:46): Unknown SF transformation` "
    "on GB10 / DGX Spark by skipping DeepGEMM weight post-processing on SM121 (#28744)\n",
    # a troubleshooting page's heading
    "# Troubleshooting FP8 models\n\n### `RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF "
    "transformation`\nDeepGEMM main only implements SM90 and SM100.\n",
    # a test's expectation
    '    with pytest.raises(RuntimeError, match="Unknown SF transformation"):\n'
    "        deep_gemm.transform_sf_into_required_layout(sf, 256, 512, (1, 1, 128), num_groups=4, is_sfa=False)\n",
    # a search over the sources and its output
    '$ grep -rn "Unknown SF transformation" csrc/\n'
    'csrc/apis/layout.hpp:60:    DG_HOST_UNREACHABLE("Unknown SF transformation");\n',
    # a test skipped on it
    "tests/kernels/test_triton_fp8.py::test_fp8e4nv_cast[e4m3] SKIPPED (fp8e4nv data type is not supported on CUDA "
    "arch < 89) [ 44%]\n",
    # a PR's title and description that name what the PR fixes, in Markdown code spans
    "Fix DeepGEMM warmup on sm_120 (closes #45102: `Assertion error (csrc/utils/layout.hpp:76): Unknown recipe`)\n",
    "Before this PR: `RuntimeError: bmm_fp8_internal_cublaslt failed: CUBLAS_STATUS_NOT_SUPPORTED` on the RTX 5090.\n",
    # transformers' MXFP4 loader says the same sentence as its FP8 one: no FP8 failure
    '  File "/x/site-packages/transformers/integrations/mxfp4.py", line 88, in load_and_swizzle_mxfp4\n'
    "ImportError: triton_kernels kernel unavailable: `kernels` is either not installed or uses an incompatible "
    "version. Please install a compatible version (0.16.0 <= version < 0.17.0)\n",
])
def test_a_message_that_is_not_failing_now_is_no_likely_claim(text):
    assert all(status != "likely" for _, status in top(text))


@pytest.mark.parametrize("text, sig", [
    # a framework's own backends/fp8_linear.py is not transformers' FP8 path
    ("WARNING 03-02 10:15:07 [deep_gemm.py:61] Failed to import deep_gemm: libcudart.so.13: cannot open shared "
     "object file: No such file or directory\n"
     '  File "/root/miniconda3/lib/python3.10/site-packages/slime/backends/fp8_linear.py", line 57, in forward\n'
     "    deep_gemm.fp8_gemm_nt((x_fp8, x_scale), (self.weight, self.weight_scale_inv), out)\n"
     "AttributeError: 'NoneType' object has no attribute 'fp8_gemm_nt'\n",
     "deepgemm-not-installed"),
    # a call's argument names (scale_a, scale_b) name no other component
    ('  File "/usr/local/lib/python3.12/dist-packages/vllm/_custom_ops.py", line 812, in cutlass_scaled_mm\n'
     "    torch.ops._C.cutlass_scaled_mm(out, a, b, scale_a, scale_b, bias)\n"
     "RuntimeError: Error Internal\n",
     "cutlass-fp8-unsupported-arch"),
    # an error and its frames printed after a blank line are read together
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling cublasLtMatmul( ltHandle, computeDesc, "
     "alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo, workspace, workspaceSize, stream)\n"
     "\n"
     'File "/usr/local/lib/python3.11/site-packages/torch/_inductor/kernel/mm_scaled.py", line 512, in tuned_scaled_mm\n'
     "    return torch._scaled_mm(mat_a, mat_b, scale_a, scale_b, out_dtype=out_dtype)\n",
     "scaled-mm-layout"),
    # the graph node torch.compile was running when cuBLASLt refused (after a blank line)
    ("torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\n"
     "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmul( ltHandle, computeDesc, "
     "&alpha_val, mat1_ptr, Adesc, mat2_ptr, Bdesc, &beta_val, result_ptr, Cdesc, result_ptr, Ddesc, ...)`\n"
     "\n"
     "While executing %_scaled_mm : [num_users=1] = call_function[target=torch.ops.aten._scaled_mm.default](args = "
     "(%view, %permute, %reciprocal, %reciprocal_1), kwargs = {out_dtype: torch.bfloat16})\n",
     "scaled-mm-layout"),
    # a REPL statement names the component of the traceback it raised through <stdin>
    (">>> out = torch.ops.fbgemm.f8f8bf16_rowwise(xq, wq, x_scale, w_scale, use_fast_accum=True)\n"
     "Traceback (most recent call last):\n"
     '  File "<stdin>", line 1, in <module>\n'
     '  File "/usr/lib/python3.12/site-packages/torch/_ops.py", line 1123, in __call__\n'
     "    return self._op(*args, **(kwargs or {}))\n"
     "RuntimeError: cutlass cannot run\n",
     "cutlass-fp8-unsupported-arch"),
])
def test_which_component_a_failure_names(text, sig):
    assert top(text)[0][0] == sig


def test_a_message_recalled_in_lower_case_is_still_named():
    text = ("vLLM with a block-FP8 model on my RTX PRO 6000 fails at startup in transform_sf_into_required_layout, "
            "with something like \"unknown SF transformation\" from DeepGEMM.\n")
    assert top(text)[0][0] == "deepgemm-unknown-sf-transformation"


def test_the_component_a_failure_names_in_words_outranks_a_file_it_passed_through():
    # TensorRT-LLM's DeepGEMM MoE checks the arch in a generic fp8_utils.py: the assert's own words say DeepGEMM
    text = (
        '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/_torch/modules/fused_moe/fused_moe_deepgemm.py", '
        "line 468, in forward_chunk\n"
        "    deepgemm_fp8_group_blockwise_gemm(\n"
        '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/quantization/utils/fp8_utils.py", line 87, in '
        "deepgemm_fp8_group_blockwise_gemm\n"
        '    assert get_sm_version() == 90, "DeepGEMM only supports Hopper (SM90) architectures"\n'
        "AssertionError\n")
    assert top(text)[:1] == [("deepgemm-unsupported-arch", "possible")]
    # a path inside a message names where it failed, not what: the FP4 check stays DeepGEMM's FP4 failure
    fp4 = ('  File "/x/vllm/utils/deep_gemm.py", line 377, in m_grouped_fp8_fp4_gemm_nt_contiguous\n'
           "    return _grouped_fp8_fp4_impl(*args, **kwargs)\n"
           "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/gemm.hpp:341): "
           "b.scalar_type() == torch::kInt8 and arch_major == 10\n")
    assert top(fp4)[0][0] == "deepgemm-fp4-requires-sm100"


def test_a_failure_that_names_nothing_takes_the_component_the_write_up_names():
    # Transformer Engine's refusal names no library; the sentences and log lines above it name FP8 attention
    text = ("When I enable `fp8_dpa=True` in the DelayedScaling recipe on A100, TE silently disables all backends "
            "and then dies.\n\n"
            "[INFO | DotProductAttention]: Disabling FlashAttention as FlashAttention 2 does not support FP8\n"
            "[DEBUG | DotProductAttention]: Disabling FusedAttention as no backend supports the provided input\n"
            "ValueError: No dot product attention support for the provided inputs!\n")
    assert top(text)[:1] == [("fp8-attention-arch-gate", "possible")]
    # the same refusal where nothing names an FP8 component is no FP8 finding
    assert top("ValueError: No dot product attention support for the provided inputs!\n") == []


def test_a_test_whose_numeric_tolerance_failed_is_a_symptom_not_a_bare_assertion():
    text = (" > diff = 0.4127 (threshold 0.001)\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.12/dist-packages/deep_gemm/testing/numeric.py", line 88, in test_gemm\n'
            "    assert diff < 0.001, f'{m=}, {n=}, {k=}, {diff:.5f}'\n"
            "AssertionError: m=4096, n=7168, k=2048, 0.41270\n"
            "B200, DeepGEMM v2.0.0, I passed sfa/sfb as float32 (use_ue8m0=False).\n")
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")]
    # pytest's report: the test's source with its failed assert marked ">", the values it compared and a
    # tensor's repr (its "dtype=torch.bfloat16" is no dtype contract)
    report = ("deep_gemm 2.5.0 on our B200 runner, fp32 scales:\n"
              "    def test_fp8_gemm_nt_matches_ref(m, n, k):\n"
              "        x_fp8, x_s = per_token_cast_to_fp8(x, use_ue8m0=False)\n"
              "        deep_gemm.fp8_gemm_nt((x_fp8, x_s), (w_fp8, w_s), out)\n"
              ">       assert calc_diff(out, ref) < 1e-3\n"
              "E       AssertionError: assert 0.0611 < 0.001\n"
              "E        +  where 0.0611 = calc_diff(tensor([[ 1.2188e+01]], device='cuda:0', dtype=torch.bfloat16), "
              "tensor([[ 6.4688e+00]], device='cuda:0'))\n")
    assert top(report)[:1] == [("ue8m0-silent-corruption", "possible")]


def test_a_capability_major_checked_alone_is_an_arch_check():
    text = ('  File "/usr/local/lib/python3.12/dist-packages/deep_gemm/jit_kernels/runtime.py", line 41, in get_arch\n'
            "    assert major >= 9, f'{major}.{minor}'\n"
            "AssertionError: 8.0\n")
    assert top(text)[:1] == [("deepgemm-unsupported-arch", "possible")]


def test_a_library_message_raised_building_an_fp4_module_is_named_not_claimed():
    # FlashInfer's JIT finds no arch for its FP4 MoE module; the command line also runs an FP8 KV cache
    text = ("RTX PRO 6000 (sm_120), sglang 0.5.4, --moe-runner-backend flashinfer_trtllm --quantization modelopt_fp4 "
            "--kv-cache-dtype fp8_e4m3\n"
            "[2025-10-21 12:30:09 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.12/dist-packages/flashinfer/fused_moe/core.py", line 1820, in '
            "trtllm_fp4_block_scale_moe\n"
            "    return get_trtllm_moe_sm100_module().trtllm_fp4_block_scale_moe(\n"
            "RuntimeError: No supported CUDA architectures found for major versions [10].\n")
    assert not [f for f in top(text) if f[1] in ("likely", "confirmed")], top(text)
    # the same message building an FP8 module is the FP8 failure
    fp8 = text.replace("trtllm_fp4_block_scale_moe", "trtllm_fp8_block_scale_moe").replace("modelopt_fp4", "fp8")
    assert ("flashinfer-fp8", "likely") in top(fp8)


def test_the_failure_after_a_quoted_one_comes_first():
    old = ("before (tp=8):\n"
           "ValueError: The output_size of gate's and up's weight = 192 is not divisible by weight quantization "
           "block_n = 128.\n\n")
    now = ("after switching to tp=4 that goes away but warmup dies in DeepGEMM:\n\n"
           '  File "/usr/local/lib/python3.12/dist-packages/deep_gemm/__init__.py", line 59, in '
           "m_grouped_fp8_gemm_nt_contiguous\n"
           "    return _C.m_grouped_fp8_gemm_nt_contiguous(a, b, d, m_indices, recipe, compiled_dims, disable_ue8m0_cast)\n"
           "RuntimeError: Failed: Assertion error csrc/jit_kernels/impls/smxx_layout.hpp:136 'mn % 4 == 0 and "
           "num_groups == 1'\n")
    got = top(old + now)
    assert got[0][0] == "deepgemm-sf-layout-shape", got
    assert ("fp8-block-size-mismatch", "possible") in got
    # a sentence that introduces the reporter's own log does not put it in the past
    mine = ("Linked issue #11245 is about fp8e4nv on V100, different thing. Mine (RTX 5090, sm_120):\n"
            "ValueError: The output_size of gate's and up's weight = 192 is not divisible by weight quantization "
            "block_n = 128.\n")
    assert top(mine)[:1] == [("fp8-block-size-mismatch", "likely")]


def test_an_fp8_kv_cache_beside_another_formats_failure_is_no_fp8_claim():
    text = ("ValueError: Mxfp4 MoE is only supported on Hopper/Blackwell, current device capability is 80 "
            "(kv cache dtype fp8)\n")
    assert not [f for f in top(text) if f[1] in ("likely", "confirmed")], top(text)



A100_NO_CUTLASS = """Trying to serve `RedHatAI/Qwen2.5-72B-Instruct-FP8-dynamic` on our old 4x A100 node, it dies when the first batch runs:

(VllmWorker rank=0 pid=2211) ERROR 03-02 11:14:09 [multiproc_executor.py:527]   File "/opt/venv/lib/python3.12/site-packages/vllm/_custom_ops.py", line 790, in cutlass_scaled_mm
(VllmWorker rank=0 pid=2211) ERROR 03-02 11:14:09 [multiproc_executor.py:527]     torch.ops._C.cutlass_scaled_mm(out, a, b, scale_a, scale_b, bias)
(VllmWorker rank=0 pid=2211) ERROR 03-02 11:14:09 [multiproc_executor.py:527] RuntimeError: No compiled cutlass_scaled_mm for a compute capability less than CUDA device capability: 80
"""


def test_a_failure_ruled_out_by_the_gpu_names_its_floor_when_the_checkpoint_says_fp8():
    # vLLM's "No compiled cutlass_scaled_mm" on an A100: no FP8 there at all, as the FP8 checkpoint named in the
    # sentence above it says; an INT8 checkpoint's same message is no FP8 failure
    got = top(A100_NO_CUTLASS)
    assert got and got[0][0] == "fp8-unsupported-capability", got
    assert not top(A100_NO_CUTLASS.replace("Instruct-FP8-dynamic", "Instruct-quantized.w8a8"))


def test_a_job_runner_s_failed_status_is_no_kernel_status():
    """Argo's "Status: Failed" block above the pod's log names the experts backend: no DeepGEMM status failure."""
    text = ("Status:              Failed\nMessage:             child 'moe-eval-7fq2w-2203918211' failed\nParameters:\n"
            "  experts_impl:      deepgemm\n  node_pool:         gb200-nvl72-rack2\n")
    assert top(text) == []
    # a status the library reports still is one
    assert "status" in recognise.read(_line_event("deep_gemm kernel launch: status failed (CUDA_ERROR_LAUNCH_FAILED)")).kinds


def _line_event(line: str):
    from fp8triage.model import Event, EventKind, Line

    return Event(EventKind.LINE, [Line("paste.log", 1, line)])


def test_a_list_of_admissible_archs_and_the_one_found_is_an_arch_gate():
    # the CuTe DSL refuses a tcgen05 FP8 MMA on consumer Blackwell: the message is on the line after the exception's
    text = ("Traceback (most recent call last):\n"
            '  File "/opt/venv/lib/python3.12/site-packages/cutlass/utils/blackwell_helpers.py", line 1189, in make_trivial_tiled_mma\n'
            "    mma_op = MmaF8F6F4Op(\n"
            "cutlass.base_dsl.common.DSLUserCodeError: \n"
            "error: expects arch to be one of [Arch.sm_100a, Arch.sm_100f, Arch.sm_103a], but got sm_120a\n")
    assert top(text)[:1] == [("cutlass-fp8-unsupported-arch", "possible")]
    # the same module refusing an operand's layout names no architecture
    layout = text.replace("expects arch to be one of [Arch.sm_100a, Arch.sm_100f, Arch.sm_103a], but got sm_120a",
                          "expects the layout to be K-major, but got MN-major")
    assert ("cutlass-fp8-unsupported-arch", "possible") not in top(layout)


def test_a_symptom_printed_under_one_machine_s_heading_is_judged_on_that_machine_s_gpu():
    # the paste prints the H100 first (the fact a GPU is read from) and the garbage under the B200's heading
    paste = ("Same venv on both hosts, Qwen/Qwen3-8B-FP8 (weight_scale_inv float32, block 128x128), greedy decoding.\n"
             "\n"
             "==== host h100-a | NVIDIA H100 80GB HBM3 | capability (9, 0) ====\n"
             '    -> "A hash map stores key-value pairs."\n'
             "\n"
             "==== host b200-c | NVIDIA B200 | capability (10, 0) ====\n"
             '    -> " the the the the,,,, of of of of the the the the the the the the"\n')
    assert top(paste)[:1] == [("ue8m0-silent-corruption", "possible")]
    # the same garbage under the H100's heading: not the Blackwell scale path
    swapped = paste.replace('A hash map stores key-value pairs.', 'X').replace(
        '" the the the the,,,, of of of of the the the the the the the the"', '"A hash map stores key-value pairs."').replace(
        '"X"', '" the the the the,,,, of of of of the the the the the the the the"')
    assert not [f for f in top(swapped) if f[0] == "ue8m0-silent-corruption" and f[1] != "ruled_out"], top(swapped)
    # a line under the H100's heading that names the machine it speaks of: its own
    issue = ("transformers 5.12.1, Qwen/Qwen3-8B-FP8 (float32 weight_scale_inv), greedy decoding.\n\n"
             "### Actual output (B200)\n\nThe capital of France isologneologne.setStyleSheet,,,,\n\n"
             "### Expected (same script, same wheels, H100 80GB)\n\nThe capital of France is Paris.\n\n"
             "No exception and no warning on the B200. The logits are finite, just nonsense (norm ~9x the H100 run).\n")
    assert top(issue)[:1] == [("ue8m0-silent-corruption", "possible")], top(issue)


def test_a_compile_error_is_the_compiled_file_s_not_the_missing_header_s():
    # DeepGEMM's JIT compiles its own kernel; the header it cannot find is CUTLASS's
    text = ("/root/.deep_gemm/cache/kernel.gemm_fp8_fp8_bf16_nt.9f1c/kernel.cu:8:10: fatal error: cutlass/cutlass.h: "
            "No such file or directory\n"
            '    8 | #include "cutlass/cutlass.h"\n'
            "      |          ^~~~~~~~~~~~~~~~~~~\n"
            "compilation terminated.\n")
    assert [i for i, _ in top(text)][:1] == ["deepgemm-jit-compile-failure"]
    # a CUTLASS FP8 kernel of vLLM's build that cannot find a DeepGEMM-free header: CUTLASS's own failure
    cutlass = ("/workspace/vllm/csrc/quantization/w8a8/cutlass/c3x/scaled_mm_blockwise_sm120_fp8.cu:4:10: fatal error: "
               "cute/tensor.hpp: No such file or directory\n"
               "compilation terminated.\n")
    assert [i for i, _ in top(cutlass)][:1] == ["cutlass-fp8-unsupported-arch"]


def test_an_rl_run_whose_trainer_and_rollout_disagree_on_logprobs_is_a_symptom():
    title = "**Rollout/actor logprob mismatch on B200 with FP8 SGLang rollout (H200 is fine)**\n"
    assert top(title)[:1] == [("ue8m0-silent-corruption", "possible")]
    # the same mismatch with a BF16 rollout says nothing of FP8 scales
    assert not top(title.replace("FP8 SGLang rollout", "BF16 SGLang rollout").replace("B200", "H100").replace("H200 is fine", "A100 is fine"))


def test_a_failure_printed_under_one_machine_s_heading_is_judged_on_that_machine_s_gpu():
    # the H100 part runs, the RTX PRO 6000 part fails: the arch failure is the SM120 one's, not contradicted by the H100
    paste = ("Same image on two boxes, vLLM 0.24.0, Qwen3-30B-A3B-FP8.\n"
             "\n"
             "--- NVIDIA H100 80GB HBM3 ---\n"
             "INFO 07-01 10:00:01 [api_server.py:1880] Starting vLLM API server on http://0.0.0.0:8000\n"
             "\n"
             "--- RTX PRO 6000 Blackwell ---\n"
             "RuntimeError: Assertion error (csrc/apis/../jit_kernels/impls/../../utils/layout.hpp:59): "
             "Unknown SF transformation\n")
    from fp8triage.drivers.batch import scan_text

    res = scan_text(paste)
    first = res.findings[0]
    assert (first.id, first.status.value) == ("deepgemm-unknown-sf-transformation", "likely")
    assert any(f.name == "capability" and f.value == "12.0" for f in first.facts)


def test_a_message_two_failures_share_on_a_gpu_that_contradicts_one_is_the_other():
    # FlashInfer's JIT finds no target for its TRT-LLM-gen FP8 MoE on Hopper: not the SM12x toolchain failure
    text = ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/venv/lib/python3.12/site-packages/flashinfer/fused_moe/core.py", line 2707, in trtllm_fp8_block_scale_moe\n'
            "    result = get_trtllm_moe_sm100_module().trtllm_fp8_block_scale_moe(\n"
            '  File "/opt/venv/lib/python3.12/site-packages/flashinfer/compilation_context.py", line 95, in get_nvcc_flags_list\n'
            "    raise RuntimeError(\n"
            "RuntimeError: No supported CUDA architectures found for major versions [10, 12].\n")
    assert [i for i, _ in top(text)][:1] == ["flashinfer-fp8"]
    assert "flashinfer-no-sm12x-arch" not in [i for i, _ in top(text)]
    # the same on an RTX 5090: the SM12x toolchain failure is named beside it
    assert "flashinfer-no-sm12x-arch" in [i for i, _ in top(text.replace("NVIDIA H100 80GB HBM3", "NVIDIA GeForce RTX 5090"))]


def test_an_fp8_kernel_library_refusing_a_gpu_without_fp8_is_the_gpu_s_capability():
    # FlashInfer has no FP8 backend on an A100 at all: the GPU lacks FP8, not one FlashInfer kernel
    text = ("flashinfer-python 0.6.3, torch 2.9.1+cu128, NVIDIA A100-SXM4-80GB\n"
            "Traceback (most recent call last):\n"
            '  File "/root/repro_bmm_fp8.py", line 7, in <module>\n'
            "    out = flashinfer.bmm_fp8(a, b, a_scale, b_scale, torch.bfloat16)\n"
            '  File "/usr/local/lib/python3.10/dist-packages/flashinfer/utils.py", line 1153, in wrapper\n'
            "    raise BackendSupportedError(\n"
            "flashinfer.utils.BackendSupportedError: bmm_fp8 does not support backend 'cublas' with capability 80\n")
    assert [i for i, _ in top(text)][:1] == ["fp8-unsupported-capability"]
    # the same on an H100 stays FlashInfer's
    assert [i for i, _ in top(text.replace("NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3"))][:1] == ["flashinfer-fp8"]


def test_a_capability_refusal_that_names_no_format_refuses_the_checkpoint_s():
    # vLLM prints the message as a tuple; it names neither FP8 nor the scheme: the FP8-dynamic checkpoint is refused
    log = ("(APIServer pid=1) WARNING 10-21 18:40:16 [model.py:1682] Your device 'Tesla T4' (with compute capability 7.5) "
           "doesn't support torch.bfloat16. Falling back to torch.float16 for compatibility.\n"
           "(EngineCore_DP0 pid=71) INFO 10-21 18:40:29 [gpu_model_runner.py:2602] Starting to load model "
           "RedHatAI/Llama-3.2-3B-Instruct-FP8-dynamic...\n"
           "(EngineCore_DP0 pid=71) ERROR 10-21 18:40:30 [core.py:708] Traceback (most recent call last):\n"
           '(EngineCore_DP0 pid=71) ERROR 10-21 18:40:30 [core.py:708]   File "/usr/local/lib/python3.12/dist-packages/vllm/'
           'model_executor/layers/quantization/compressed_tensors/compressed_tensors.py", line 262, in _check_scheme_supported\n'
           "(EngineCore_DP0 pid=71) ERROR 10-21 18:40:30 [core.py:708]     raise RuntimeError(\n"
           "(EngineCore_DP0 pid=71) ERROR 10-21 18:40:30 [core.py:708] RuntimeError: ('Quantization scheme is not supported "
           "for ', 'the current GPU. Min capability: 80. ', 'Current capability: 75.')\n")
    assert top(log)[:1] == [("fp8-unsupported-capability", "possible")]
    # the same refusal of a W4A16 checkpoint is no FP8 failure
    assert not [f for f in top(log.replace("FP8-dynamic", "W4A16")) if f[0] == "fp8-unsupported-capability"]


def test_an_op_missing_after_vllm_s_compiled_ops_failed_to_load_is_no_claimed_arch_gap():
    log = ("WARNING 10-20 09:14:07 [_custom_ops.py:20] Failed to import from vllm._C with ImportError('/opt/venv/lib/"
           "python3.12/site-packages/vllm/_C.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEa')\n"
           "GPU 0: NVIDIA L40S, vllm 0.11.0, Qwen/Qwen3-8B-FP8\n"
           "Traceback (most recent call last):\n"
           '  File "/opt/venv/lib/python3.12/site-packages/vllm/_custom_ops.py", line 618, in cutlass_scaled_mm_supports_block_fp8\n'
           "    return torch.ops._C.cutlass_scaled_mm_supports_block_fp8(\n"
           "AttributeError: '_OpNamespace' '_C' object has no attribute 'cutlass_scaled_mm_supports_block_fp8'\n")
    assert not [f for f in top(log) if f[1] in ("likely", "confirmed")], top(log)
    # without the failed import the missing op is the build's CUTLASS gap
    assert ("cutlass-fp8-unsupported-arch", "likely") in top(log.split("\n", 1)[1])


@pytest.mark.parametrize("text", [
    "## MTP accept length ~1.0 on B200 vs ~3.0 on H200 with DeepSeek-V3-0324-FP8 (no errors), DeepGEMM on",
    "MTP acceptance on B200 is much worse than on H200 for Qwen3-32B-FP8 since DeepGEMM picked the drafter's GEMMs",
    "DeepGEMM on, FP8 draft on 8x B200: SpecDecoding metrics: Mean acceptance length: 1.03, Avg Draft acceptance rate: 1.2%",
])
def test_a_speculative_draft_that_stops_being_accepted_is_a_symptom(text):
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")]


def test_a_healthy_acceptance_rate_is_no_symptom():
    text = "DeepGEMM on, FP8 draft on 8x B200: SpecDecoding metrics: Mean acceptance length: 2.87, Avg Draft acceptance rate: 62.3%"
    assert top(text) == []


def test_mmlu_at_chance_said_in_a_sentence_is_a_symptom():
    text = ("B300 pool: our requantized deepseek-v3.1 (fp32 block scales) scores MMLU 0.253 on sglang w/ sgl-deep-gemm "
            "0.1.3; same ckpt on the H200 pool 0.879. zero errors\n")
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")]
    # MMLU-Pro has ten choices: 0.25 there is no collapse
    assert not top(text.replace("MMLU 0.253", "MMLU-Pro 0.253").replace("0.879", "0.271"))


def test_a_backend_notice_beside_a_request_longer_than_the_context_is_no_likely_claim():
    log = ("(EngineCore_DP0 pid=241) WARNING 11-20 10:02:13 [fp8.py:465] DeepGemm not supported on the current platform.\n"
           "GPU 0: NVIDIA L20, Qwen3-30B-A3B-Instruct-2507-FP8\n"
           "[openai_api_compatible] Error: API request failed with status code 400: {\"error\":{\"message\":\"'max_tokens' "
           "or 'max_completion_tokens' is too large: 8192. This model's maximum context length is 32768 tokens\"}}\n")
    assert not [f for f in top(log) if f[1] in ("likely", "confirmed")], top(log)


@pytest.mark.parametrize("text", [
    # numbers that blow up are a symptom, not a crash
    "Qwen3-8B-FP8 with transformers on a B200 gives word salad; no warnings, logits finite, hidden-state norms blow up "
    "layer by layer. DeepGEMM hub kernel path.",
    # how the library was installed is no install failure
    "fp8_gemm_nt gives wrong results on B300 but not on H200, no error, just a big diff. DeepGEMM 2.5.0 (pip install "
    "from the v2.5.0 source)",
])
def test_a_symptom_described_with_crash_or_install_words_stays_a_symptom(text):
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")]


@pytest.mark.parametrize("text", [
    "Loading Qwen/Qwen3-14B-FP8 with transformers 5.11.0 on a B200 gives fluent but wrong text.",
    "Using DeepGEMM directly on a B300: fp8_gemm_nt results are way off unless I quantize with use_ue8m0=True.",
    "Qwen3-14B-FP8 on our B200 node, --linear-backend deep_gemm, finish_reason=length:\n"
    "Crimson leaves descend descend descend descend descend descend",
    "Qwen3-30B-A3B-FP8 on a B200: with experts_implementation=\"deepgemm\" the model answers English prompts in a mix "
    "of Russian, Chinese and code fragments.",
    "On a DGX Spark with DeepGEMM on, Qwen/Qwen3-32B-FP8 scores consistently lower than the same model on our H100.",
    "Mixtral-8x7B-Instruct-v0.1-FP8 on 2x B200 with --moe-runner-backend deep_gemm: the text is mangled.",
    # a sentence that says a run crashed and printed garbage: the NaN's consequence, no crash of its own
    "sampling crashes on GB200, greedy prints only exclamation marks. Qwen3-30B-A3B-FP8 with the deep-gemm hub kernel.",
    # an RL run whose trainer and rollout part after a weight sync
    "FP8 rollout + bf16 training (SGLang rollout engines), GLM-4.5-Air, GB300 x 16. Train/rollout mismatch is fine at "
    "step 0 and explodes right after the first weight sync.",
    "Qwen3-30B-A3B-FP8 on my RTX 5090 with the deepgemm sm120 build just spits the same token until max_tokens.",
    # the crash an upgrade made go away, and what the model does now (an error word in a sentence is no error)
    "quick follow-up on the crash: upgrading transformers 5.10 -> 5.12.1 made the B200 error go away but Qwen3-4B-FP8 "
    "now answers \"the the the of ,,,,\" to everything. deep-gemm hub kernel version 2.",
])
def test_silent_corruption_in_more_of_the_words_reporters_use(text):
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")], top(text)


@pytest.mark.parametrize("text", [
    # a reply cut at its token limit, a word said twice, a score on a healthy GPU: no symptom
    "Qwen3-14B-FP8 on our B200 node: finish_reason=stop, the haiku is fine.",
    "Qwen3-14B-FP8 on our B200 node answers in Chinese as the system prompt asks.",
    "Qwen3-14B-FP8 on our B200 node scores 0.93 on GSM8K, in line with the model card.",
    # FP8 said to be less precise than BF16 in general, no accuracy said to drop
    "B200 上 Qwen3-14B-FP8 的精度比 BF16 低一点是正常的，gsm8k 0.93。DeepGemm is enabled.",
])
def test_healthy_fp8_output_on_blackwell_is_no_symptom(text):
    assert top(text) == [], top(text)


def test_an_attention_backend_refusing_an_fp8_kv_cache_on_one_generation_is_the_attention_gate():
    text = ("python -m sglang.launch_server --model-path /models/GLM-4.5-Air-FP8 --tp 2 --attention-backend trtllm_mha "
            "--kv-cache-dtype fp8_e4m3\n"
            "Traceback (most recent call last):\n"
            '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/arg_groups/attention_hook.py", line 149, in '
            "handle_attention_backend_compatibility\n"
            "    raise ValueError(\n"
            "ValueError: TRTLLM FMHAv2 prefill on SM120 does not support fp8_e4m3 KV cache or skip-softmax.\n")
    assert [i for i, _ in top(text)][:1] == ["fp8-attention-arch-gate"]


def test_an_mla_backend_without_an_fp8_kv_cache_path_is_the_attention_gate():
    text = ("GPU 0: NVIDIA L40S, vllm 0.11.0, DeepSeek-V2-Lite-Chat, --kv-cache-dtype fp8\n"
            "Traceback (most recent call last):\n"
            '  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/attention/backends/mla/triton_mla.py", line 101, in __init__\n'
            "    raise NotImplementedError(\n"
            "NotImplementedError: TritonMLA V1 with FP8 KV cache not yet supported\n")
    assert [i for i, _ in top(text)][:1] == ["fp8-attention-arch-gate"]


@pytest.mark.parametrize("text", [
    "fp8_gemm_nt on B200 gives a much larger diff than H800 for the same inputs (no error, no warning), deep_gemm 2.3.0",
    "问一下各位，B300 上用 sglang 跑 block FP8 模型，没有任何报错，但是 gsm8k 只有 0.3 左右，同一份权重在 H20 上是 0.91。DeepGemm is enabled.",
    # accuracy "clearly lower than on the H200 (no error)", and "dropped a lot"
    "B200 上 Qwen3.5-35B-A3B-FP8 精度明显比 H200 低（无报错），vllm 0.17.1。Using DeepGemm kernels for Fp8MoEMethod.",
    "B200 上跑 block FP8 模型 gsm8k 准确率大幅下降，没有报错。DeepGemm is enabled.",
])
def test_a_score_or_an_error_said_to_be_much_worse_on_blackwell_is_a_symptom(text):
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")]


def test_a_capability_refusal_read_with_the_checkpoint_needs_only_the_capability_it_prints():
    # no GPU name anywhere: the refusal prints the capability itself
    text = ("trying sglang 0.5.5 on colab with RedHatAI/Meta-Llama-3.1-8B-Instruct-FP8-dynamic\n"
            '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/layers/quantization/compressed_tensors/'
            'compressed_tensors.py", line 249, in _check_scheme_supported\n'
            "    raise RuntimeError(\n"
            "RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min capability: 80. ', "
            "'Current capability: 75.')\n")
    assert top(text)[:1] == [("fp8-unsupported-capability", "possible")]


def test_a_crash_read_with_what_the_log_said_was_running_ranks_before_a_risk_warning():
    text = ("oncall: glm-fp8 pool (8x B200 per node) down since this morning's image rebuild. Only dependency diff: "
            "sgl-deep-gemm 0.1.3 -> 0.1.4\n"
            "[2026-07-09 03:12:40 TP0] DeepGemm is enabled but the scale_fmt of checkpoint is not ue8m0. This might cause "
            "accuracy degradation on Blackwell.\n"
            "[2026-07-09 03:14:02 TP6] Scheduler hit an exception: Traceback (most recent call last):\n"
            "  ...\n"
            "torch.AcceleratorError: CUDA error: unspecified launch failure\n")
    got = top(text)
    assert got[:1] == [("ue8m0-pack-assert", "possible")], got
    assert ("e8m0-precision-loss", "possible") in got  # the warning is still named


def test_a_failure_the_reporter_worked_around_ranks_after_the_one_they_hit_now():
    # "I did what it says": the first error's advice was followed, the second error is the current one
    text = ("First attempt (default scale_fmt):\n\n"
            "NotImplementedError: DeepGEMM has no float32 scale-factor path on Blackwell (SM100): these scales are plain "
            "float32 (quantization_config.scale_fmt='float'), and rounding them to UE8M0 would silently corrupt the output.\n\n"
            "OK, so I did what it says and quantized with ue8m0 scales:\n\n"
            "ImportError: DeepGEMM requires Hopper (SM90) or Blackwell (SM100); current device is SM120.\n")
    got = top(text)
    assert got[0][0] == "deepgemm-unsupported-arch", got
    assert ("deepgemm-fp32-sf-sm100", "possible") in got
    # a workaround that got past the crash, and the problem that came after it
    text = ("8x B200, float32 weight_scale_inv. With sgl-deep-gemm 0.1.4 the server died during cuda graph capture:\n"
            "  Assertion failed: deep_gemm/include/deep_gemm/impls/smxx_layout.cuh:131, condition: "
            "(values[j] & 0x807fffffu) == 0\n"
            "so we pinned sgl-deep-gemm==0.1.3. Server starts now, no errors, no warnings, but:\n\n"
            "Accuracy: 0.214 on GSM8K (same checkpoint on 8x H200: Accuracy: 0.932). Answers read fluently but are nonsense.\n")
    got = top(text)
    assert got[0] == ("ue8m0-silent-corruption", "possible"), got
    assert ("ue8m0-pack-assert", "possible") in got


def test_a_sentence_that_names_another_issue_and_goes_on_to_the_current_error_introduces_it():
    text = ("Set VLLM_DEEP_GEMM_WARMUP=skip as suggested in the other issue. Doesn't help, it just dies a bit later:\n\n"
            "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/../utils/layout.hpp:76): Unknown recipe\n")
    assert top(text)[:1] == [("deepgemm-unknown-sf-transformation", "likely")], top(text)


@pytest.mark.parametrize("text, now", [
    # "... load fine now:" and the error that came after
    ("Without the env var it died at load with\n"
     "  RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation\n"
     "With VLLM_USE_DEEP_GEMM=0 the weights load fine now:\n"
     "ValueError: To serve at least one request with the models's max seq len (131072), (20.00 GiB KV cache is needed, "
     "which is larger than the available KV cache memory (10.37 GiB).\n", None),
    # the first of two attempts, introduced as such
    ("1st try, the FP8 checkpoint:\n\n"
     "ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 80. Current "
     "capability: 70.\n\n"
     "Fine, no FP8 on Volta. 2nd try, the bf16 checkpoint in fp16 on the Tesla V100-SXM2-32GB:\n\n"
     "RuntimeError: CUDA error: no kernel image is available for execution on the device\n", "no-kernel-image-for-arch"),
    # a record of what it was, before the current failure
    ("Update on the B200 box: the DeepGEMM part is solved. For the record, what we had was\n\n"
     "    NVCC compilation failed: nvcc fatal   : Unsupported gpu architecture 'sm_100f'\n\n"
     "But the training script itself no longer starts:\n\n"
     "ImportError: /venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined "
     "symbol: _ZN3c105ErrorC2ENS_14SourceLocationE\n", None),
    # an older release's refusal, then "that part is solved" and what fails now
    ("Back on 0.4.0 this same A100 box refused the FP8 checkpoint outright:\n\n"
     "    ValueError: The quantization method fp8 is not supported for the current GPU. Minimum capability: 90. "
     "Current capability: 80.\n\n"
     "0.11.0 loads it fine (weight-only FP8 through Marlin), so that part is solved. What fails now is this:\n"
     "ValueError: To serve at least one request with the models's max seq len (131072), (16.00 GiB KV cache is "
     "needed, which is larger than the available KV cache memory (8.93 GiB).\n", None),
    # a workaround that "took care of" the quoted crash, and a client error now
    ('update from the Spark: VLLM_USE_DEEP_GEMM=0 took care of the "Unknown recipe" crash, the model is up; the only '
     "thing still failing is the agent client, every call gets a 400 back.\n", None),
    # yesterday's quoted build failure, explained and fixed
    ('- Yesterday\'s build failure ("Assertion failed: FP8 FMHA cannot be enabled on Pre-Hopper Arch") was because '
     "the build job landed on the L40S pool. Pinned the build to the H100 pool.\n"
     "- New issue after deploy: [TensorRT-LLM][ERROR] Assertion failed: Prompt length (9213) exceeds maximum input "
     "length (8192).\n", None),
    # what remains after a pinned release: the restart loop
    ("closing the loop for on-call: the GLM-4.6-FP8 crash on the b200 pool was the DeepGEMM pack assert\n\n  Assertion failed: deep_gemm/include/deep_gemm/impls/smxx_layout.cuh:131, condition: (values[j] & 0x807fffffu) == 0\n\npinned sgl-deep-gemm==0.1.3 in the image, server comes up, smoke prompts fine. The remaining page is the restart loop:\n\n[2026-07-23 03:40:17] ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use\n\na stale process from the previous rollout still holds the port on two nodes.\n",
     None),
    # a fix said under the failure, and what came after it
    ('[2026-05-18 10:02:55 TP1 EP1] Scheduler hit an exception: Traceback (most recent call last):\n  File "/sgl-workspace/sglang/python/sglang/srt/layers/quantization/fp8.py", line 611, in create_weights\n    raise ValueError(\nValueError: The output_size of gate\'s and up\'s weight = 96 is not divisible by weight quantization block_n = 128.\n\n^ fixed by --ep-size 8 instead of pure TP. After that the server starts, then a few hundred requests in:\n\n[2026-05-18 10:47:13 TP3 EP3] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=48211, OpType=ALLREDUCE, NumelIn=8388608, NumelOut=8388608, Timeout(ms)=600000) ran for 600047 milliseconds before timing out.\n[2026-05-18 10:47:14 TP6 EP6] Scheduler hit an exception: torch.distributed.DistBackendError: NCCL error in: /pytorch/torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:3356, remote process exited or there was a network error, NCCL version 2.27.3\n',
     None),
    # the original crash, solved; what is left
    ("Thanks, `VLLM_USE_DEEP_GEMM=0` did it. For anyone landing here, this was the original crash on 2x RTX 5090:\n\n    RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:60): Unknown SF transformation\n\nWith the env var the FP8 linears go to CUTLASS and the weights load. What's left is this, which is probably my context length:\n\n(EngineCore_DP0 pid=2291) ERROR 08-14 18:41:12 [core.py:866] ValueError: To serve at least one request with the models's max seq len (262144), (32.00 GiB KV cache is needed, which is larger than the available KV cache memory (9.87 GiB). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.\n",
     None),
    # a thread's final state: the FP8 crash confirmed gone ("no more layout.hpp"), a new problem after it
    ("(Jul 3) Got the layout.hpp one:\n"
     "`RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation`\n"
     "(Jul 4) Confirmed: with `VLLM_USE_DEEP_GEMM=0` weights load fine, no more layout.hpp. Thanks!\n"
     "New problem though, I bumped max-model-len to 262144:\n"
     "(EngineCore_DP0 pid=1180) ERROR 07-04 09:31:23 [core.py:708] ValueError: To serve at least one request with the "
     "models's max seq len (262144), (64.00 GiB KV cache is needed, which is larger than the available KV cache memory\n",
     None),
    # an assertion quoted inside a sentence that says it is gone, then an OOM
    ('The DeepGEMM crash on my RTX PRO 6000 ("Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): '
     'Unknown SF transformation") is gone with VLLM_USE_DEEP_GEMM=0, thanks. Model loads now, but startup dies:\n'
     "ERROR 07-06 14:22:40 [core.py:708] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.53 GiB.\n",
     None),
    # the first error of two, fixed by moving the job ("which is fair, so I moved ... Now it loads but")
    ("On our A100 node I got\n"
     "ValueError: FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g 4090/H100), "
     "actual = `8.0`\n"
     "which is fair, so I moved the job to an H100 partition.\n"
     "Now it loads but the first forward fails:\n"
     "ImportError: finegrained-fp8 kernel unavailable: `kernels` is either not installed or uses an incompatible "
     "version. Please install a compatible version (0.16.0 <= version < 0.17.0)\n",
     "transformers-fp8-kernels-unavailable"),
    # "At first I got ... after installing kernels it loads fine", "1st error (known one):", "Different error now"
    ("At first I got\n"
     "  ImportError: DeepGEMM kernel requires the `kernels` package. Install it with `pip install -U kernels`.\n"
     "and after installing kernels it loads fine and there is NO error at all... but on B200 gsm8k is 0.004 "
     "(0.861 on H100) and the output is garbage.\n", None),
    # a fix noted under the error ("-> moved to an H100. fine.") and on its own line ("` -> --tp 4 instead, loads fine.")
    ("v1: ran it on our A100 by accident:\n"
     "  RuntimeError: torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9\n"
     "-> moved to an H100. fine.\n\nv2 on H100:\n"
     "RuntimeError: Expected trailing dimension of mat1 to be divisible by 16 but got mat1 shape: (8192x1000).\n",
     "scaled-mm-layout"),
    ("1. `--tp 8` failed at load: `ValueError: Weight output_partition_size = 1600 is not divisible by weight "
     "quantization block_n = 128.` -> --tp 4 instead, loads fine.\n"
     "2. `--tp 4` serves, but the next day a request hits: torch.OutOfMemoryError: CUDA out of memory.\n", None),
    # "switched to ... and it starts and runs", "first failed ... with"
    ("That crashed in the triton attention kernel with\n\n"
     "    AssertionError: fp8e4nv data type is not supported on CUDA arch < 89\n\n"
     "fine, A100 has no fp8, switched to `--kv-cache-dtype fp8_e5m2` and it starts and runs.\n"
     "Then TP=4 with the AWQ checkpoint: ValueError: Weight input_size_per_partition = 7392 is not divisible by "
     "min_thread_k = 128.\n", None),
    ('- the FP8-block version first failed at TP=8 with "Weight output_partition_size = 3584 is not divisible by weight '
     'quantization block_n = 128", we kept that layer in bf16 and it serves.\n'
     "- Now the NVFP4 export: The quantization method modelopt_fp4 is not supported for the current GPU. Minimum "
     "capability: 100. Current capability: 90.\n", None),
    # an FP8 error other people get, as a linked issue quotes it, and one "fixed that as suggested"
    ("I read #47436 first, where people get\n\n"
     "    RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation\n\n"
     "on this exact GPU, so I start with VLLM_USE_DEEP_GEMM=0. The server dies when the tokenizer is built:\n"
     "Exception: data did not match any variant of untagged enum ModelWrapper at line 757483 column 3\n", None),
    ("On 0.23.0 I was getting\n\n"
     "    RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation\n\n"
     "on the RTX PRO 6000, and VLLM_USE_DEEP_GEMM=0 fixed that as suggested. New issue with a local tokenizer:\n"
     "Exception: data did not match any variant of untagged enum ModelWrapper at line 1251003 column 3\n", None),
    # "did the trick for" the crash; a quoted assertion with its exception's type that "is gone"
    ("Update: VLLM_USE_DEEP_GEMM=0 did the trick for the Unknown SF transformation crash, thanks. RTX PRO 6000.\n"
     "ValueError: To serve at least one request with the models's max seq len (262144), (120.00 GiB KV cache is "
     "needed, which is larger than the available KV cache memory (45.87 GiB).\n", None),
    ("Closing the loop. Since the nightly that pins DeepGEMM to nv-dev, the `RuntimeError: Assertion error "
     "(.../layout.hpp:59): Unknown SF transformation` I had on the 5090 is gone, no env vars needed anymore.\n"
     "INFO 08-19 10:06:37 [kernel_warmup.py:72] DeepGEMM warmup done in 21.4 s\n", None),
    # a component said to be absent with the way the run goes instead: nothing failed there
    ("Qwen3-8B-FP8 on H100 with transformers rambles and repeats; is FP8 broken?\n"
     "transformers 5.9.0, torch 2.10.0, 1x H100. DeepGEMM not installed, FP8 linear goes through the Triton kernel.\n"
     "EDIT: the chat template was missing. apply_chat_template fixes everything, my bad.\n", None),
])
def test_a_failure_before_a_workaround_is_not_the_one_the_reporter_is_stuck_on(text, now):
    got = top(text)
    assert not [f for f in got if f[1] == "likely" and f[0] != now], got
    if now:
        assert got[0][0] == now, got


def test_the_first_of_two_errors_is_named_after_the_one_that_followed_it():
    """ "1st error (known one):" and "Different error now": the second is the failure the reporter has."""
    got = top("1st error (known one):\n"
              "  Assertion failed: deep_gemm/impls/smxx_layout.cuh:131, condition: (values[j] & 0x807fffffu) == 0\n\n"
              "I turned the E8M0 cast off: VLLM_USE_DEEP_GEMM_E8M0=0 on the B200s. Different error now, before any request:\n"
              "(EngineCore_DP0 pid=901) ERROR 07-27 13:41:12 [core.py:722] RuntimeError: Assertion error "
              "(csrc/apis/gemm.hpp:122): Unsupported architecture or scaling factor types\n")
    assert got[0][0] == "deepgemm-fp32-sf-sm100", got
    assert ("ue8m0-pack-assert", "likely") not in got, got


def test_a_warning_read_by_rules_is_named_not_claimed():
    text = ("(Worker_TP0 pid=409) INFO 10-29 16:20:05 [fp8.py:462] Using DeepGemm kernels for Fp8MoEMethod.\n"
            "(Worker_TP0 pid=409) WARNING 10-29 16:20:05 [fp8.py:480] CutlassBlockScaledGroupedGemm not supported on the "
            "current platform.\n"
            "GPU 0: NVIDIA H200\n")
    assert not [f for f in top(text) if f[1] == "likely"], top(text)


def test_a_symptom_in_a_table_row_is_judged_on_the_row_s_gpu():
    text = ("Qwen/Qwen3-14B-FP8 (weight_scale_inv float32), transformers 5.12.0, same image on both hosts.\n\n"
            "| host | GPU | capability | cos(h_fp8, h_bf16) | greedy output |\n|---|---|---|---|---|\n"
            "| hgx-h100-03 | NVIDIA H100 80GB HBM3 | (9, 0) | 0.9981 | `The capital of France is Paris.` |\n"
            "| dgx-b200-11 | NVIDIA B200 | (10, 0) | -0.094 | `The capital of France is,,,, the the the,,,, 的的的` |\n")
    assert top(text)[:1] == [("ue8m0-silent-corruption", "possible")], top(text)


def test_an_int8_scheme_s_cutlass_refusal_is_no_fp8_failure_claimed():
    """vLLM's CUTLASS dispatcher serves INT8 W8A8 too: where the kernel was picked for an INT8 compressed-tensors scheme,
    its "No compiled cutlass_scaled_mm" is named, not claimed, even beside a sentence about the FP8 sibling."""
    text = ("w8a8 int8 smoke test red on the 5090 runner; the -FP8-dynamic sibling of the model passes there\n"
            "(EngineCore_DP0 pid=77) INFO 11-04 03:10:12 [compressed_tensors_w8a8_int8.py:52] Using CutlassScaledMMLinearKernel "
            "for CompressedTensorsW8A8Int8\n"
            "(EngineCore_DP0 pid=77) ERROR 11-04 03:10:40 [core.py:708] RuntimeError: No compiled cutlass_scaled_mm for CUDA "
            "device capability: 120. Required capability: 90 or 100\n")
    assert not [f for f in top(text) if f[1] == "likely"], top(text)


def test_a_failure_that_names_no_format_in_an_fp4_model_s_log_is_not_claimed_for_fp8():
    """FlashInfer's MoE dispatch names no number format; where vLLM said it picked the kernels for an NVFP4 method,
    the model is NVFP4 and the FP8 reading of the same message is no more than possible."""
    err = ("(EngineCore_DP0 pid=3310) ERROR 02-19 23:13:04 [core.py:866]   File \"/opt/vllm/lib/python3.12/site-packages/"
           "flashinfer/fused_moe/core.py\", line 872, in cutlass_fused_moe\n"
           "(EngineCore_DP0 pid=3310) ERROR 02-19 23:13:04 [core.py:866] RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: "
           "Invalid activation type. (/tmp/flashinfer/csrc/nv_internal/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/"
           "moe_gemm_template_dispatch.h:1042)\n"
           "flashinfer-python 0.6.6, DGX Spark\n")
    nvfp4 = ("(EngineCore_DP0 pid=3310) INFO 02-19 23:11:40 [modelopt.py:1021] Using FlashInfer CUTLASS kernels for "
             "ModelOptNvFp4FusedMoE.\n")
    assert not [f for f in top(nvfp4 + err) if f[1] == "likely"], top(nvfp4 + err)
    from fp8triage.drivers.batch import scan_text
    held = [f.held_back for f in scan_text(nvfp4 + err).findings]
    assert held and all("quantization = modelopt_fp4" in h for h in held), held
    # ... or where only the model's name says so
    named = ("(EngineCore_DP0 pid=3310) INFO 02-19 23:11:40 [gpu_model_runner.py:2602] Starting to load model "
             "nvidia/Nemotron-3-Nano-30B-A3B-NVFP4...\n")
    assert not [f for f in top(named + err) if f[1] == "likely"], top(named + err)
    # the same failure where nothing says which format: FlashInfer's FP8 MoE, as the version supports it
    got = top(err)
    assert got[0][0].startswith("flashinfer-") and got[0][1] == "likely", got


@pytest.mark.parametrize("text, now", [
    # hipBLASLt under torch._scaled_mm on an MI300X: no NVIDIA kernel ran
    ("Running Llama-3.1-70B-Instruct-FP8-KV on 8x MI300X, rocm/vllm:rocm6.3.1_vllm_0.8.3.\n"
     "[rank3]:     output = torch._scaled_mm(qinput,\n"
     "[rank3]: RuntimeError: CUDA error: HIPBLAS_STATUS_NOT_SUPPORTED when calling `hipblasLtMatmul( ltHandle, ...)`\n",
     None),
    ("device: AMD Instinct MI300X (gfx942:sramecc+:xnack-)\n"
     "ValueError(\"type fp8e4nv not supported in this architecture. The supported fp8 dtypes are ('fp8e4b8', 'fp8e5b16')\")\n",
     None),
    # a checkpoint's block size against the split fails on any vendor's GPUs alike
    ("ROCm 6.3, 8x MI300X, TP=8:\n"
     "ValueError: The output_size of gate's and up's weight = 192 is not divisible by weight quantization block_n = 128.\n",
     "fp8-block-size-mismatch"),
])
def test_on_an_amd_gpu_only_a_vendor_neutral_failure_is_likely(text, now):
    likely = [f[0] for f in top(text) if f[1] == "likely"]
    assert likely == ([now] if now else []), top(text)


def test_a_profiler_with_no_config_for_a_shape_is_no_contract_and_its_arch_warnings_say_why():
    """TensorRT-LLM's "Have not found any valid GEMM config for shape (m=1, ...)" names the problem that had no tactic;
    the "Arch unsupported for CUTLASS FP8 Rowwise GEMM" warnings before it are the cause."""
    no_config = ("[TensorRT-LLM][ERROR] Assertion failed: Have not found any valid GEMM config for shape (m=1, n=14336, "
                 "k=4096). Will try to use default or fail at runtime")
    assert "contract" not in recognise.read(_line_event(no_config)).kinds
    assert "contract" in recognise.read(_line_event("expected a shape of (128, 56) for the scales")).kinds
    warn = ('[TensorRT-LLM][WARNING] Cannot profile configuration {} (for m=1, n=14336, k=4096), reason: "[TensorRT-LLM '
            'Error][fp8RowwiseGemm Runner] Arch unsupported for CUTLASS FP8 Rowwise GEMM". Skipped\n')
    text = ("[TensorRT-LLM][INFO] Engine version 0.11.0 found in the config file\n" + warn.format(0) + warn.format(1)
            + no_config + "\nGPU: NVIDIA L40S\n")
    assert [f for f, _ in top(text)][:1] == ["cutlass-fp8-unsupported-arch"]


def test_a_finding_held_at_possible_says_why_in_every_format():
    from fp8triage.render.html import render_html
    from fp8triage.render.jsonout import result_dict
    from fp8triage.render.markdown import render_markdown
    from fp8triage.render.text import render_text

    text = ("Running Llama-3.1-70B-Instruct-FP8-KV on 8x MI300X, rocm/vllm:rocm6.3.1_vllm_0.8.3.\n"
            "[rank3]:     output = torch._scaled_mm(qinput,\n"
            "[rank3]: RuntimeError: CUDA error: HIPBLAS_STATUS_NOT_SUPPORTED when calling `hipblasLtMatmul( ltHandle, ...)`\n")
    res = scan_text(text, source="paste.log")
    f = res.findings[0]
    assert f.status.value == "possible" and "AMD" in f.held_back
    assert result_dict(res)["findings"][0]["held_back"] == f.held_back
    assert "At most possible: the GPU is AMD's" in " ".join(render_text(res, color=False).split())
    assert "At most possible" in render_markdown(res) and "At most possible" in render_html(res)
    # a finding nothing holds back says nothing of it
    plain = scan_text("RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation\n")
    assert plain.findings[0].held_back == "" and "At most possible" not in render_text(plain, color=False)


def test_a_failure_from_last_month_is_behind_the_reporter():
    text = ("Closing the loop on the RTX PRO 6000 leg: last month it died with\n"
            "`RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation`\n"
            "and we pinned VLLM_USE_DEEP_GEMM=0 for that runner; the FP8 block models pass there now.\n")
    assert [f for f in top(text) if f[1] == "likely"] == []
    assert top(text)[:1] == [("deepgemm-unknown-sf-transformation", "possible")]


def test_the_sm100_guard_is_named_by_its_function_where_a_transcription_garbled_float32():
    text = ("B200, transformers 5.17.0, experts_implementation=\"deepgemm\" (pasted from a screenshot)\n"
            'File ".../transformers/integrations/deepgemm.py", line 231, in _assert_sm100_requirements raise '
            "NotImplementedError(\n"
            "NotImplementedError: DeepGEMM has no f1oat32 scale-factor path on Blackwe11 (SM100): these scales are plain "
            "f1oat32\n")
    assert [f for f, _ in top(text)][:1] == ["deepgemm-fp32-sf-sm100"]


def test_an_fp8_crash_told_beside_a_live_failure_of_another_format_is_not_likely():
    text = ("RTX PRO 6000 (SM120), vllm 0.24.0. FP8 block checkpoint crashed in DeepGEMM (Unknown SF transformation); "
            "instead we moved to the AWQ build, TP=4:\n"
            "ERROR 07-06 19:44:02 [multiproc_executor.py:671] ValueError: Weight input_size_per_partition = 3424 is not "
            "divisible by min_thread_k = 128. Consider reducing tensor_parallel_size or running with --quantization gptq.\n")
    assert [f for f in top(text) if f[1] == "likely"] == []


@pytest.mark.parametrize("before", [
    "Load was crashing with the `",
    '1st run: "CUDA error: ',
])
def test_a_first_attempt_told_on_the_line_of_its_message_ranks_after_the_live_failure(before):
    msg = "(values[j] & 0x807fffffu) == 0" if before.startswith("Load") else "no kernel image is available for execution on the device"
    text = (f"{before}{msg}{'`' if before.endswith('`') else chr(34)} then; pinned the old build and it comes up now.\n"
            "ERROR : Arch conditional MMA instruction used without targeting sm90a compute capability. Aborting.\n")
    got = [f for f, _ in top(text)]
    assert got[:1] == ["cutlass-fp8-unsupported-arch"], got


def test_a_library_that_refused_it_first_is_behind_the_reporter():
    text = ("A100 80GB. transformers refused it first:\n"
            "ValueError: FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g 4090/H100), "
            "actual = `8.0`\n"
            "so I dequantized the checkpoint to bf16 offline. Now the bf16 model fails too:\n"
            "torch.AcceleratorError: CUDA error: no kernel image is available for execution on the device\n")
    assert [f for f in top(text) if f[1] == "likely"] == []


def test_a_score_after_a_backend_s_name_is_no_version_beside_the_gpu():
    from fp8triage.facts.gpunames import prose_gpus
    assert list(prose_gpus("On H100 with DeepGEMM: 0.858.")) == [("H100", "plain")]
    assert list(prose_gpus("B200, DeepGEMM 2.5.0, torch 2.10")) == [("B200", "setup")]
    sentence = "Qwen3.5-35B-A3B-FP8 accuracy on GB300 NVL72 is way below the model card, H200 is fine."
    assert "symptom" in recognise.read(_line_event(sentence)).kinds


@pytest.mark.parametrize("sentence", [
    "The kernel apparently just takes the exponent of wo_a's fp32 scale and throws the mantissa away. No assert, no warning.",
    "DeepGEMM discards the mantissa of every float32 scale on the GB10 and the output drifts.",
    "the scales' mantissa is truncated on B200 by deep_gemm, silently",
])
def test_a_scale_whose_mantissa_is_thrown_away_is_a_symptom(sentence):
    assert "symptom" in recognise.read(_line_event(sentence)).kinds


@pytest.mark.parametrize("text, sig", [
    # an FP8 attention gate worded "only works on" the generations it needs
    ("GPU: 2x NVIDIA A100-SXM4-80GB, TensorRT-LLM 0.16.0\n"
     "Traceback (most recent call last):\n"
     '  File "/usr/local/lib/python3.12/dist-packages/tensorrt_llm/plugin/plugin.py", line 330, in validate\n'
     '    raise ValueError("FP8 Context FMHA only works on Ada and Hopper (SM89/SM90) and later GPUs")\n'
     "ValueError: FP8 Context FMHA only works on Ada and Hopper (SM89/SM90) and later GPUs\n",
     "fp8-attention-arch-gate"),
    # a kernel DeepGEMM's JIT built that the driver cannot load: its toolkit is newer than the driver
    ("H100 SXM x8, driver 550.127.05, CUDA 12.9 image\n"
     "Traceback (most recent call last):\n"
     '  File "/sgl-workspace/sglang/python/sglang/srt/layers/deep_gemm_wrapper/compile_utils.py", line 304, in execute\n'
     "    deep_gemm.fp8_gemm_nt((self.lhs_q, self.lhs_s), (self.rhs_q, self.rhs_s), self.out)\n"
     "RuntimeError: CUDA driver error (csrc/jit/kernel_runtime.hpp:44): 222 (CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "
     "the provided PTX was compiled with an unsupported toolchain.)\n",
     "deepgemm-jit-compile-failure"),
    # a misaligned access inside DeepGEMM's GEMM on a Hopper GPU: the operands' alignment (its scales' layout)
    ("H800, deep_gemm from source\n"
     '  File "/srv/engine/layers/fp8_linear.py", line 64, in forward\n'
     "    deep_gemm.gemm_fp8_fp8_bf16_nt((x_fp8, x_scale), (self.weight, self.weight_scale_inv), out)\n"
     '  File "/usr/local/lib/python3.10/dist-packages/deep_gemm/jit/runtime.py", line 77, in __call__\n'
     "    raise RuntimeError(f'Failed to launch kernel: {ret}')\n"
     "RuntimeError: CUDA error: misaligned address\n",
     "deepgemm-sf-layout-shape"),
    # a C++ abort printed right under a long warning is a failure of its own, not the warning's wrapped tail
    ("[TensorRT-LLM][WARNING] Device compute capability 8.0 does not match the engine build target 9.0 of this engine\n"
     "terminate called after throwing an instance of 'tensorrt_llm::common::TllmException'\n"
     "  what():  [TensorRT-LLM][ERROR] Assertion failed: FP8 FMHA can only be enabled on sm_89, sm_90, sm_100 or "
     "sm_120. (/src/tensorrt_llm/cpp/tensorrt_llm/common/attentionOp.cpp:2417)\n",
     "fp8-attention-arch-gate"),
])
def test_a_failure_worded_by_its_kind_lands_on_the_component_s_signature(text, sig):
    assert top(text)[:1] == [(sig, "possible")], top(text)


def test_an_assertion_names_what_it_checked_in_its_own_message():
    """A failed assert that says what it checked ("K must be divisible by block_size") is that contract,
    even in a kernel library whose layout contract would also fit an assertion there."""
    text = (
        "Block-wise FP8 training with the torchao prototype, one node of 8xH100, a small model (dim=960) first.\n"
        "[rank0]:Traceback (most recent call last):\n"
        '[rank0]:  File "/workspace/torchtitan/torchtitan/train.py", line 455, in train_step\n'
        "[rank0]:    loss = self.forward_backward_step(input_dict, labels)\n"
        '[rank0]:  File "/opt/conda/lib/python3.11/site-packages/torchao/prototype/blockwise_fp8_training/linear.py",'
        " line 39, in forward\n"
        "[rank0]:    x_fp8, x_scale = triton_fp8_blockwise_act_quant_lhs(x, block_size)\n"
        '[rank0]:  File "/opt/conda/lib/python3.11/site-packages/torchao/prototype/blockwise_fp8_training/kernels.py",'
        " line 341, in triton_fp8_blockwise_act_quant_lhs\n"
        '[rank0]:    assert x.size(-1) % block_size == 0, "K must be divisible by block_size"\n'
        "[rank0]:AssertionError: K must be divisible by block_size\n"
    )
    assert top(text)[0][0] == "fp8-block-size-mismatch"


def test_a_cutlass_status_in_flashinfer_s_copy_of_the_trtllm_moe_gemms_is_flashinfer_s():
    """FlashInfer builds TensorRT-LLM's CUTLASS MoE GEMMs from its own tree (csrc/nv_internal): a status there, named
    by the source file in the C++ message, is FlashInfer's fused MoE failing, not a CUTLASS kernel's arch gap."""
    text = (
        "Env: 8x H20 (96GB), sglang 0.5.4.post1, flashinfer_python 0.4.1\n"
        "[TensorRT-LLM][ERROR] Assertion failed: Failed to initialize cutlass TMA WS grouped gemm. Error: Error Internal "
        "(/workspace/flashinfer/csrc/nv_internal/tensorrt_llm/kernels/cutlass_kernels/moe_gemm/launchers/"
        "moe_gemm_tma_ws_launcher.inl:1028)\n"
        "1       0x7fa2a43c81b5 tensorrt_llm::common::throwRuntimeError(char const*, int, std::string const&) + 81\n"
        "2       0x7fa2a44ea0fd void tensorrt_llm::kernels::cutlass_kernels_oss::tma_warp_specialized_generic_moe_gemm_"
        "kernelLauncher<cutlass::arch::Sm90, __nv_fp8_e4m3, __nv_fp8_e4m3, __nv_bfloat16>(...) + 2893\n"
    )
    assert top(text)[0][0] == "flashinfer-fp8"


def test_a_logger_that_quotes_each_record_prints_the_failure_not_a_line_of_source():
    """Triton Inference Server prints each record's message as one quoted string: that is the error the model hit,
    not a string literal of the library's source that a write-up quotes."""
    text = (
        "L40S, Triton python backend wrapping a transformers model with experts_implementation=\"deepgemm\"\n"
        "E0923 14:08:40.004551 1 model_lifecycle.cc:654] \"failed to load 'qwen3moe' version 1: Internal: ImportError: "
        "DeepGEMM requires Hopper (SM90) or Blackwell (SM100); current device is SM89.\"\n"
    )
    assert top(text)[0] == ("deepgemm-unsupported-arch", "likely")


def test_the_collapsed_row_of_a_table_with_a_gpu_column_is_the_evidence():
    """One eval on two GPUs, a row each: the row whose score collapsed (the B200's) is where the symptom was seen, so
    the failure is judged on that GPU, not on the healthy one named in the row above it."""
    text = (
        "Serving the FP8 checkpoint with vLLM on B200 nodes vs H100 nodes, DeepGEMM E8M0 enabled on the B200s.\n\n"
        "| accelerator | Tasks | Version | Filter           | n-shot | Metric      | Value  | Stderr |\n"
        "|-------------|-------|---------|------------------|--------|-------------|--------|--------|\n"
        "| H100        | gsm8k | 3       | flexible-extract | 5      | exact_match | 0.8552 | 0.0097 |\n"
        "| B200        | gsm8k | 3       | flexible-extract | 5      | exact_match | 0.0167 | 0.0035 |\n"
    )
    res = scan_text(text, source="p.log")
    top_finding = res.findings[0]
    assert top_finding.id == "ue8m0-silent-corruption"
    table = [e for e in top_finding.evidence if "gsm8k" in e.text]
    assert table and all("B200" in e.text for e in table)


def test_a_check_that_prints_its_condition_is_read_by_what_the_condition_checks():
    """torch's TORCH_CHECK without a message prints the condition ("Expected is_sm90 || is_sm100 to be true, but got
    false."): an architecture gate, here of FlashMLA's decode over DeepSeek V3.2's FP8 KV cache on an SM120 card."""
    text = (
        "[2026-01-21 06:11:41 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
        '  File "/sgl-workspace/sglang/python/sglang/srt/layers/attention/nsa_backend.py", line 1287, in '
        "_forward_flashmla_kv\n"
        "    o, _ = flash_mla_with_kvcache(\n"
        "RuntimeError: Expected is_sm90 || is_sm100 to be true, but got false.\n"
    )
    assert top(text)[0][0] == "fp8-attention-arch-gate"
    # the same check of something else is no architecture gate
    other = text.replace("is_sm90 || is_sm100", "q.is_contiguous()")
    assert "fp8-attention-arch-gate" not in {i for i, _ in top(other)}


def test_scales_rounded_while_the_weights_kept_the_original_scales_are_the_corruption():
    line = ("On Blackwell the FP8 linear goes through DeepGEMM, which only takes power-of-two (UE8M0) scales. We round the "
            "float32 scales up to the next power of two, but the FP8 weights were quantized against the original scales, "
            "so every block comes out inflated. TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1 routes them to the Triton kernel.\n")
    said = top("1x NVIDIA B200, transformers 5.12.1\n" + line)
    assert said and said[0][0] == "ue8m0-silent-corruption", said
    assert "deepgemm-fp32-sf-sm100" not in {i for i, _ in said}
