"""Event assembly: tracebacks (chained, headless, interleaved workers), C++ and device asserts."""
from __future__ import annotations

import json

import pytest

from fp8triage.scan.events import Assembler
from fp8triage.model import EventKind
from fp8triage.scan.normalise import LineFormat, detect_format, normalise
from fp8triage.drivers.batch import scan_text


def assemble(text: str, notable=lambda t: True):
    out = []
    asm = Assembler(out.append)
    for i, raw in enumerate(text.splitlines(), 1):
        line = normalise(raw.encode(), "t", i, LineFormat())
        asm.feed(line, notable(line.text))
    asm.finish()
    return out


CHAINED = """Traceback (most recent call last):
  File "/x/triton/language/semantic.py", line 759, in cast
    assert builder.options.allow_fp8e4nv, "fp8e4nv data type is not supported on CUDA arch < 89"
AssertionError: fp8e4nv data type is not supported on CUDA arch < 89

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/x/vllm/entrypoints/openai/rpc/server.py", line 115, in generate
    async for request_output in results_generator:
RuntimeError: fp8e4nv data type is not supported on CUDA arch < 89
INFO: next request
"""


def test_chained_traceback_is_one_event():
    evs = [e for e in assemble(CHAINED) if e.kind is EventKind.TRACEBACK]
    assert len(evs) == 1
    ev = evs[0]
    assert ev.exc_type == "RuntimeError"
    assert ev.chain == ["AssertionError: fp8e4nv data type is not supported on CUDA arch < 89"]
    assert [f for _, f in ev.frames] == ["cast", "generate"]
    assert ev.lines[-1].text.startswith("RuntimeError")


def test_during_handling_chain():
    text = CHAINED.replace("The above exception was the direct cause of the following exception:",
                           "During handling of the above exception, another exception occurred:")
    evs = [e for e in assemble(text) if e.kind is EventKind.TRACEBACK]
    assert len(evs) == 1 and len(evs[0].chain) == 1


def test_interleaved_workers_are_separated_and_grouped():
    tb = [
        "Traceback (most recent call last):",
        '  File "/usr/lib/vllm/utils/deep_gemm.py", line 494, in transform_sf_into_required_layout',
        "    return impl()",
        "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation",
    ]
    lines = []
    for a in tb:
        for r in range(4):
            lines.append(f"(VllmWorker rank={r} pid={100 + r}) ERROR 08-11 09:15:05 [multiproc_executor.py:727] {a}")
    r = scan_text("\n".join(lines) + "\n")
    f = r.findings[0]
    assert f.id == "deepgemm-unknown-sf-transformation"
    assert f.count == 4
    assert sorted(f.workers) == [f"VllmWorker rank={i}" for i in range(4)]
    assert len(f.fingerprints) == 1
    assert not r.unknown


def test_newer_vllm_worker_prefix_with_parallel_ranks():
    """vLLM >= 0.10 names workers "(VllmWorker TP4 pid=N)"; the prefix is a worker, not message text,
    so the same failure on two ranks is one finding seen on two workers."""
    lines = []
    for r in (0, 4):
        lines.append(f"(VllmWorker TP{r} pid={300 + r}) ERROR 09-02 08:16:39 [multiproc_executor.py:574] "
                     "RuntimeError: Assertion error (/workspace/csrc/apis/layout.hpp:46): Unknown SF transformation")
    r = scan_text("\n".join(lines) + "\n")
    f = r.findings[0]
    assert f.id == "deepgemm-unknown-sf-transformation"
    assert sorted(f.workers) == ["VllmWorker TP0", "VllmWorker TP4"]
    assert f.count == 2


def test_a_ray_serve_replica_prefix_is_a_worker_with_its_pid():
    """Ray Serve names a replica "(ServeReplica:app:deployment pid=N, ip=...)": a worker (each replica its own, by
    its pid), and the vLLM logger header after it is stripped as after any worker prefix."""
    lines = [f"(ServeReplica:llm:LLMServer pid={p}, ip=10.42.0.17) ERROR 09-14 08:02:13 [core.py:866] RuntimeError: "
             "Assertion error (/workspace/csrc/apis/layout.hpp:46): Unknown SF transformation" for p in (3318, 3320)]
    line = normalise(lines[0].encode(), "t", 1, LineFormat())
    assert line.worker == "ServeReplica:llm:LLMServer pid=3318 ip=10.42.0.17"
    assert line.level == "ERROR" and line.text.startswith("RuntimeError: Assertion error")
    f = scan_text("\n".join(lines) + "\n").findings[0]
    assert f.id == "deepgemm-unknown-sf-transformation" and f.count == 2 and len(f.workers) == 2


def test_headless_traceback_starts_at_a_frame():
    text = (
        '  File ".../vllm/utils/deep_gemm.py", line 453, in fp8_gemm_nt\n'
        "    return _fp8_gemm_nt_impl(*args)\n"
        "RuntimeError: Assertion error (.../utils/layout.hpp:76): Unknown recipe\n"
    )
    evs = assemble(text)
    assert len(evs) == 1 and evs[0].kind is EventKind.TRACEBACK and evs[0].frames[0][1] == "fp8_gemm_nt"


def test_cpp_assert_with_continuation_line():
    text = (
        "RuntimeError: Assertion error (deepgemm/csrc/.../utils/layout.hpp:57):\n"
        "    ab.scalar_type() == kPackedFP4 and arch_major == 10\n"
        "INFO 08-11 09:15:05 [x.py:1] something else\n"
    )
    evs = assemble(text)
    assert evs[0].kind is EventKind.CPP_ASSERT
    assert "kPackedFP4" in evs[0].text and len(evs[0].lines) == 2


def test_device_assert_lines():
    text = "../aten/src/ATen/native/cuda/Indexing.cu:1236: indexSelectSmallIndex: block: [40,0,0], thread: [0,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n"
    evs = assemble(text)
    assert evs[0].kind is EventKind.DEVICE_ASSERT


def test_plain_lines_without_anchor_start_no_event():
    assert assemble("INFO all good\nINFO still good\n", notable=lambda t: False) == []


def test_huge_traceback_is_bounded():
    frames = "".join(f'  File "/x/m{i}.py", line {i}, in f{i}\n    call()\n' for i in range(20000))
    evs = assemble("Traceback (most recent call last):\n" + frames + "RecursionError: maximum recursion depth exceeded\n")
    assert len(evs) == 1 and evs[0].exc_type == "RecursionError"
    assert len(evs[0].lines) <= 4000


def test_a_logger_record_after_frames_ends_a_traceback_whose_exception_line_is_missing():
    text = (
        '  File "/venv/lib/python3.10/site-packages/triton/language/semantic.py", line 759, in cast\n'
        '    assert builder.options.allow_fp8e4nv\n'
        '[2025-08-01 09:04:44] INFO:     127.0.0.1:46450 - "POST /v1/chat/completions HTTP/1.1" 200 OK\n'
    )
    evs = []
    asm = Assembler(evs.append)
    for i, raw in enumerate(text.splitlines(), 1):
        asm.feed(normalise(raw.encode(), "x", i, LineFormat()), True)
    asm.finish()
    tb = [e for e in evs if e.kind is EventKind.TRACEBACK][0]
    assert tb.lines[-1].lineno == 2 and "POST" not in tb.message  # the request log is not its exception


def test_sglang_main_process_lines_are_read_by_both_scans_alike():
    # "[timestamp] INFO ..." has no worker: the prefiltered scan must not skip it while an
    # unprefixed traceback is open (it ends the traceback in the exhaustive scan)
    text = (
        "\n".join(f"[2025-08-01 09:04:44 TP{i % 4}] Decode batch. #running-req: {i}, #token: 5449, token usage: 0.38" for i in range(30))
        + '\n  File "/venv/lib/python3.10/site-packages/triton/language/semantic.py", line 759, in cast\n'
        + '    assert builder.options.allow_fp8e4nv, "fp8e4nv data type is not supported on CUDA arch < 89"\n'
        + '[2025-08-01 09:04:45] INFO:     127.0.0.1:1 - "POST /generate HTTP/1.1" 200 OK\n'
        + "later unprefixed text\n"
    )
    fast, slow = scan_text(text, source="s.log"), scan_text(text, source="s.log", exhaustive=True)
    assert [(f.id, f.fingerprints) for f in fast.findings] == [(f.id, f.fingerprints) for f in slow.findings]
    assert [u.fingerprint for u in fast.unknown] == [u.fingerprint for u in slow.unknown]


SGLANG_TP = """[2026-08-14 09:02:33] server_args=ServerArgs(model_path='Qwen/Qwen3-32B-FP8', tp_size=2)
[2026-08-14 09:03:51 TP0] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/layers/quantization/fp8_utils.py", line 388, in cutlass_w8a8_block_fp8_linear_with_fallback
    output = fp8_blockwise_scaled_mm(
  File "/usr/local/lib/python3.12/dist-packages/sgl_kernel/gemm.py", line 48, in fp8_blockwise_scaled_mm
    return torch.ops.sgl_kernel.fp8_blockwise_scaled_mm.default(
RuntimeError: No implemented fp8_blockwise_scaled_mm for current compute capability: 120

[2026-08-14 09:03:51 TP1] Scheduler hit an exception: Traceback (most recent call last):
  File "/sgl-workspace/sglang/python/sglang/srt/layers/quantization/fp8_utils.py", line 388, in cutlass_w8a8_block_fp8_linear_with_fallback
    output = fp8_blockwise_scaled_mm(
  File "/usr/local/lib/python3.12/dist-packages/sgl_kernel/gemm.py", line 48, in fp8_blockwise_scaled_mm
    return torch.ops.sgl_kernel.fp8_blockwise_scaled_mm.default(
RuntimeError: No implemented fp8_blockwise_scaled_mm for current compute capability: 120

"""


def test_sglang_traceback_logged_under_a_worker_prefix_is_one_event_of_that_worker():
    # SGLang logs "Scheduler hit an exception: <traceback>" as one record: only its first line has
    # the "[... TP0]" prefix. The frames and the exception line are that worker's traceback, not a
    # second, worker-less one (the header alone was listed as an unknown error, the workers lost).
    for exhaustive in (False, True):
        res = scan_text(SGLANG_TP, source="sglang.log", exhaustive=exhaustive)
        assert [f.id for f in res.findings] == ["cutlass-fp8-unsupported-arch"]
        f = res.findings[0]
        assert f.count == 2 and sorted(f.workers) == ["TP0", "TP1"]
        assert sorted(w for ev in f.evidence for w in ev.workers) == ["TP0", "TP1"]
        assert not [u for u in res.unknown if "Traceback" in u.headline], res.unknown
    evs = [e for e in assemble(SGLANG_TP) if e.kind is EventKind.TRACEBACK]
    assert [(e.workers, e.exc_type, len(e.frames)) for e in evs] == [(["TP0"], "RuntimeError", 2), (["TP1"], "RuntimeError", 2)]


def test_sglang_samples_list_no_root_cause_traceback_as_unknown():
    # the project's own SGLang samples: their root-cause traceback is the finding, on its worker
    from fp8triage.authoring import sigtools

    samples = [s for s in sigtools.find_samples() if s.kind == "match" and "TP0] Scheduler hit" in s.text()]
    assert len(samples) >= 3
    for s in samples:
        res = scan_text(s.path.read_bytes(), source=str(s.path))
        assert res.findings and "TP0" in res.findings[0].workers, s.path
        assert not [u for u in res.unknown if "Traceback (most recent call last)" in u.headline], (s.path, res.unknown)


C10_ERROR = """terminate called after throwing an instance of 'c10::Error'
  what():  CUDA error: an illegal memory access was encountered
CUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.
Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.

Exception raised from c10_cuda_check_implementation at /pytorch/c10/cuda/CUDAException.cpp:44 (most recent call first):
frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x98 (0x7f2b1c6f0e88 in /x/torch/lib/libc10.so)
frame #1: deep_gemm::fp8_gemm_nt(...) + 0x3c0 (0x7f2a8c2120c0 in /x/deep_gemm/_C.cpython-312-x86_64-linux-gnu.so)
"""


def test_a_c10_error_keeps_its_cpp_backtrace_after_a_blank_line():
    # torch prints the C++ frames under the message after a blank line: they say which library failed
    evs = assemble(C10_ERROR)
    assert len(evs) == 1
    assert evs[0].kind is EventKind.CPP_ASSERT
    assert "deep_gemm::fp8_gemm_nt" in evs[0].text and evs[0].lines[-1].text.startswith("frame #1")


def test_a_python_exception_keeps_its_cpp_backtrace_after_a_blank_line():
    text = ("Traceback (most recent call last):\n"
            '  File "/x/vllm/model_executor/layers/quantization/utils/fp8_utils.py", line 211, in apply\n'
            "    out = fp8_gemm_nt(a, b, d)\n"
            "RuntimeError: CUDA error: an illegal memory access was encountered\n" + C10_ERROR.split("\n", 4)[4])
    evs = assemble(text)
    assert len(evs) == 1 and "deep_gemm::fp8_gemm_nt" in evs[0].text


def test_a_blank_line_then_another_line_still_ends_an_error():
    evs = assemble("RuntimeError: CUDA error: an illegal memory access was encountered\n\nServer shutting down\n",
                   notable=lambda t: "Error" in t)
    assert len(evs) == 1 and [ln.text for ln in evs[0].lines] == ["RuntimeError: CUDA error: an illegal memory access was encountered"]


def test_an_illegal_memory_access_is_read_with_the_frames_printed_after_it():
    # the failure line names no library; DeepGEMM's frames in the C++ backtrace below it do
    res = scan_text(C10_ERROR)
    assert not res.unknown
    assert res.findings and "deepgemm" in " ".join(e.pattern for f in res.findings for e in f.evidence)


def test_an_html_escaped_paste_is_read_as_the_log_it_was():
    # copied from a rendered page: quotes and arrows kept as HTML character references
    text = ('Traceback (most recent call last):\n'
            '  File &quot;/usr/lib/python3.12/site-packages/deep_gemm/__init__.py&quot;, line 12, in fp8_gemm_nt\n'
            "RuntimeError: Failed: Assertion error csrc/jit_kernels/impls/smxx_layout.hpp:136 &#39;mn % 4 == 0 and num_groups == 1&#39;\n")
    (ev,) = assemble(text)
    assert ev.kind is EventKind.TRACEBACK and ev.frames == [("/usr/lib/python3.12/site-packages/deep_gemm/__init__.py", "fp8_gemm_nt")]
    assert "'mn % 4 == 0 and num_groups == 1'" in ev.message
    res = scan_text(text)
    assert [(f.id, f.status.value) for f in res.findings][:1] == [("deepgemm-sf-layout-shape", "likely")]


def test_loki_and_cloud_logging_exports_are_unwrapped_like_docker_json():
    line = "RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation"
    for key in ("log", "line", "textPayload"):
        text = "".join(json.dumps({"ts": f"2026-01-22T09:14:0{i}Z", key: t}) + "\n"
                       for i, t in enumerate(["Loading weights", line]))
        res = scan_text(text)
        assert [f.id for f in res.findings][:1] == ["deepgemm-unknown-sf-transformation"], key


@pytest.mark.parametrize("record", [
    {"level": "ERROR", "msg": "WorkerProc hit an exception.", "exc_info": "TB"},  # python-json-logger
    {"lvl": "ERROR", "msg": "EngineCore failed to start.", "exc": "TB"},  # a logging config's own short keys
    {"level": "error", "message": "engine init failed", "exception": "TB"},  # structlog
    {"level": "error", "msg": "forward failed", "error": "TB"},  # zap, logrus
    {"log.level": "ERROR", "message": "Worker failed", "error.stack_trace": "TB"},  # Elastic ECS
    {"status": "error", "message": "forward failed", "error": {"kind": "RuntimeError", "stack": "TB"}},  # Datadog
    # Datadog's log explorer export, the record's fields under "attributes"; Google Cloud Logging's "jsonPayload"
    {"status": "error", "message": "EngineCore failed", "attributes": {"error": {"kind": "RuntimeError", "stack": "TB"}}},
    {"severity": "ERROR", "textPayload": "Worker failed", "jsonPayload": {"exception": "TB"}},
    {"level": "ERROR", "message": "warmup failed", "traceback": "TB-LINES"},  # an app's own: format_exc().splitlines()
])
def test_a_json_record_traceback_kept_in_a_field_of_its_own_is_read(record):
    tb = ('Traceback (most recent call last):\n  File "/opt/venv/lib/python3.12/site-packages/vllm/utils/deep_gemm.py", '
          "line 151, in fp8_gemm_nt\n    return _fp8_gemm_nt_impl(*args)\n"
          "RuntimeError: Assertion error (csrc/jit_kernels/impls/../../utils/layout.hpp:97): Unknown SF transformation")
    record = json.loads(json.dumps(record).replace('"TB"', json.dumps(tb)).replace('"TB-LINES"', json.dumps(tb.splitlines())))
    lines = [{"level": "INFO", "msg": "Using DeepGemm kernels for Fp8LinearMethod."}, record,
             {"level": "ERROR", "msg": "EngineCore failed to start."}]
    res = scan_text("".join(json.dumps(r) + "\n" for r in lines))
    assert [(f.id, f.status.value) for f in res.findings][:1] == [("deepgemm-unknown-sf-transformation", "likely")]


TRACEBACK = """Traceback (most recent call last):
  File "bench_gemm.py", line 57, in <module>
    deep_gemm.gemm_fp8_fp8_bf16_nt((x, x_s), (w, w_s), out)
  File "/usr/local/lib/python3.10/dist-packages/deep_gemm/jit_kernels/gemm.py", line 143, in gemm_fp8_fp8_bf16_nt
    assert rhs_scales.shape == ((n + 127) // 128, (k + 127) // 128)
AssertionError
"""


def test_a_paste_indented_as_a_whole_is_read_as_its_traceback():
    plain = scan_text(TRACEBACK)
    assert [f.id for f in plain.findings][:1] == ["deepgemm-sf-layout-shape"]
    for margin in ("    ", "\t", "  "):
        res = scan_text("".join(margin + ln + "\n" for ln in TRACEBACK.splitlines()))
        assert [(f.id, f.status) for f in res.findings] == [(f.id, f.status) for f in plain.findings], repr(margin)


def test_a_tab_separated_export_is_read_by_its_message_column():
    # CloudWatch Logs Insights: "@timestamp  @message  @logStream", one traceback line per row
    rows = ["@timestamp\t@message\t@logStream"]
    rows += [f"2025-08-14 03:12:{i:02d}.000\t{ln}\tecs/sglang/4f2a9c1e" for i, ln in enumerate(TRACEBACK.splitlines())]
    res = scan_text("\n".join(rows) + "\n")
    assert [f.id for f in res.findings][:1] == ["deepgemm-sf-layout-shape"]
    assert len(res.unknown) == 0  # one traceback, not a group per row


def test_a_rank_prefix_without_brackets_is_a_worker():
    tb = ("rank0: Traceback (most recent call last):\n"
          'rank0:   File "/workspace/fp8_linear.py", line 44, in forward\n'
          "rank0:     y = torch._scaled_mm(x_fp8, w_fp8.t(), scale_a=sx, scale_b=sw, out_dtype=torch.bfloat16)\n"
          "rank0: RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmul( ltHandle, "
          "computeDesc.descriptor(), &alpha_val, mat1_ptr, Adesc.descriptor(), mat2_ptr, Bdesc.descriptor())`\n")
    compose = "".join("trainer-1  | " + ln + "\n" for ln in tb.splitlines())
    for text in (tb, compose):
        res = scan_text(text)
        assert [f.id for f in res.findings][:1] == ["scaled-mm-layout"]



def test_stern_s_pod_and_container_prefix_keeps_a_traceback_whole():
    """stern (kubectl logs of many pods) writes "pod container " before each line, with no delimiter."""
    body = ('Traceback (most recent call last):\n'
            '  File "/usr/local/lib/python3.12/dist-packages/sglang/srt/layers/deep_gemm_wrapper/compile_utils.py", '
            'line 14, in <module>\n'
            '    import deep_gemm\n'
            '  File "/usr/local/lib/python3.12/dist-packages/deep_gemm/__init__.py", line 7, in <module>\n'
            '    from . import _C\n'
            'ImportError: libcudart.so.13: cannot open shared object file: No such file or directory\n')
    text = "".join("sgl-r1-decode-0 sglang " + ln + "\n" for ln in body.splitlines())
    res = scan_text(text)
    assert [f.id for f in res.findings][:1] == ["deepgemm-not-installed"]
    assert res.unknown == []
    # prose whose lines happen to start with two words is no stern output
    assert detect_format(b"re-ran it with the same flags\nstill-broken for me too\nsame here\n").stern is False


def test_an_exception_named_by_its_module_path_ends_the_frames():
    """Triton raises ``triton.runtime.errors.OutOfResources`` (no "Error" in its name): it is the exception line,
    not the wrapped tail of the source line above it, and a config that asks too much shared memory is no FP8 failure."""
    text = ("[2025-10-15 06:58:31 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
            '  File "/sgl-workspace/sglang/python/sglang/srt/layers/quantization/fp8_kernel.py", line 788, in w8a8_block_fp8_matmul\n'
            "    _w8a8_block_fp8_matmul[grid](\n"
            '  File "/usr/local/lib/python3.12/dist-packages/triton/compiler/compiler.py", line 421, in _init_handles\n'
            '    raise OutOfResources(self.metadata.shared, max_shared, "shared memory")\n'
            "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 147456, Hardware limit: 101376. "
            "Reducing block sizes or `num_stages` may help.\n"
            "setup: 2x L40S, I copied the tuned block_shape=[128, 128] configs of the H100 over the L40S ones\n")
    res = scan_text(text)
    assert [f.id for f in res.findings if f.status.value in ("likely", "confirmed")] == []
    assert [u.headline[:40] for u in res.unknown] == ["triton.runtime.errors.OutOfResources: ou"]


def test_a_runtime_s_bracketed_rank_without_the_colon_is_a_worker():
    """A custom runtime prints "[rank3] " before each line: the traceback under it is one event."""
    tb = ("[rank3] Traceback (most recent call last):\n"
          '[rank3]   File "/opt/venv/lib/python3.12/site-packages/flashinfer/fused_moe/core.py", line 1731, in '
          "trtllm_fp8_block_scale_moe\n"
          "[rank3]     return get_trtllm_moe_sm100_module().trtllm_fp8_block_scale_moe(\n"
          "[rank3] RuntimeError: the second dimension of weights must be a multiple of 128.\n")
    res = scan_text(tb)
    assert [f.id for f in res.findings][:1] == ["fp8-block-size-mismatch"]
    assert res.unknown == []

def test_slurm_task_labels_keep_each_task_s_traceback_whole():
    """``srun -l`` puts "N: " before each task's line: the frames under it stay one event per task, and the
    frame that names the integer quantization method is read with the message (a block-INT8 model: no FP8 claim)."""
    frames = ('Traceback (most recent call last):\n'
              '  File "/usr/local/lib/python3.10/dist-packages/sglang/srt/layers/quantization/blockwise_int8.py", line 283, in create_weights\n'
              '    raise ValueError(\n'
              "ValueError: The output_size of gate's and up's weight = 64 is not divisible by weight quantization block_n = 128.\n")
    labelled = "".join(f"{task}: {ln}\n" for task in (1, 0) for ln in frames.splitlines())
    res = scan_text(labelled)
    assert not any(f.status.value in ("likely", "confirmed") for f in res.findings)
    fp8 = labelled.replace("blockwise_int8.py", "fp8.py")
    assert [f.id for f in scan_text(fp8).findings][:1] == ["fp8-block-size-mismatch"]


IPYTHON_OLD = """---------------------------------------------------------------------------
ImportError                               Traceback (most recent call last)
/tmp/ipykernel_36/2818391021.py in <cell line: 0>()
----> 1 import deep_gemm
      2 print(deep_gemm.__version__)

/usr/local/lib/python3.11/dist-packages/deep_gemm/__init__.py in <module>
      4 # defaults
----> 5 from . import _C

ImportError: libcudart.so.13: cannot open shared object file: No such file or directory
"""

IPYTHON_NEW = """---------------------------------------------------------------------------
RuntimeError                              Traceback (most recent call last)
Cell In[7], line 3
      1 inputs = tok("hi", return_tensors="pt").to("cuda")
----> 3 out = model.generate(**inputs)

File /usr/local/lib/python3.12/site-packages/transformers/integrations/finegrained_fp8.py:412, in fp8_linear(x, w, s)
    410     return deep_gemm.fp8_gemm_nt(x, w, s)
--> 412 raise RuntimeError("boom")

RuntimeError: boom
"""


def test_notebook_tracebacks_are_read_with_their_frames():
    # IPython's header has no colon, its frames no quotes, its source lines an arrow: one traceback each
    for text, frames, exc in ((IPYTHON_OLD, ["2818391021.py", "__init__.py"], "ImportError"),
                              (IPYTHON_NEW, ["Cell In[7]", "finegrained_fp8.py"], "RuntimeError")):
        evs = [e for e in assemble(text) if e.is_error]
        assert len(evs) == 1 and evs[0].kind is EventKind.TRACEBACK and evs[0].exc_type == exc
        assert [p.rsplit("/", 1)[-1] for p, _ in evs[0].frames] == frames
    # the frames say which library failed: DeepGEMM's import, read as not installed
    got = scan_text(IPYTHON_OLD.encode(), source="nb.log").findings
    assert got and got[0].id == "deepgemm-not-installed"


def test_hosting_platform_prefixes_are_stripped_so_a_traceback_stays_whole():
    tb = ['Traceback (most recent call last):',
          '  File "/usr/local/lib/python3.12/site-packages/transformers/integrations/deepgemm.py", line 391, in fp8_linear',
          '    _assert_sm100_scales_are_ue8m0(weight_scale_inv)',
          'ValueError: DeepGEMM has no float32 scale-factor path on Blackwell (SM100)']
    for prefix in ("[modal] ta-01JCB7H2 | ", "2026-12-03 12:00:41.110 | replica-2 | ERROR | ",
                   "Nov 07 09:15:52 baseten-model-q7w2e1r  ERROR "):
        text = "\n".join(prefix + line for line in tb) + "\n"
        evs = [e for e in assemble(text) if e.is_error]
        assert len(evs) == 1 and evs[0].kind is EventKind.TRACEBACK and len(evs[0].frames) == 1, prefix
        assert evs[0].exc_type == "ValueError"
    # the level a platform prefix gives is the line's level: an INFO line starts no event
    line = normalise(b"2026-12-03 12:00:41.110 | replica-2 | INFO | Error budget: 3 of 10 retries used", "t", 1, LineFormat())
    assert line.level == "INFO" and line.text.startswith("Error budget")


def _wrapped(text: str, width: int) -> str:
    out = []
    for ln in text.splitlines():
        while len(ln) > width:
            out.append(ln[:width])
            ln = ln[width:]
        out.append(ln)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("text, sig", [
    # a decimal number cut after its point
    ("HyVideoSampler\n"
     "torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9, or ROCm MI300+\n",
     "fp8-unsupported-capability"),
    # a path cut after its dot, and an exception's type cut in two
    ("(Worker_TP2 pid=100746) ERROR 04-27 23:40:50 [multiproc_executor.py:962] RuntimeError: Assertion error "
     "(/workspace/.deps/deepgemm-src/csrc/apis/hyperconnection.hpp:56): Unsupported architecture\n",
     "deepgemm-unsupported-arch"),
    # an identifier cut in two: the component is the whole name's
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling `cublasLtMatmulAlgoGetHeuristic(...)`\n",
     "scaled-mm-layout"),
])
def test_a_paste_a_terminal_wrapped_at_80_columns_is_read_as_it_was_printed(text, sig):
    assert [f.id for f in scan_text(text).findings][:1] == [sig]
    assert [f.id for f in scan_text(_wrapped(text, 80)).findings][:1] == [sig]


def test_a_sentence_that_ends_is_not_joined_to_the_next_line():
    # a warning that ends its sentence, then a score line: two events, not one wrapped record
    text = ("[2025-11-02 09:14:21 TP0] DeepGemm is enabled but the scale_fmt of checkpoint is not ue8m0. "
            "This might cause accuracy degradation on Blackwell.\n"
            "gsm8k (5-shot) on 8x B200 with deep_gemm: 0.031, outputs are mostly garbage\n")
    assert [f.id for f in scan_text(text).findings][:1] == ["ue8m0-silent-corruption"]


def test_a_vllm_header_without_its_time_is_a_logger_header():
    text = ("(EngineCore_0 pid=220) ERROR [core.py:586] Traceback (most recent call last):\n"
            '(EngineCore_0 pid=220) ERROR [core.py:586]   File "/usr/local/lib/python3.12/dist-packages/vllm/'
            '_custom_ops.py", line 712, in cutlass_scaled_mm\n'
            "(EngineCore_0 pid=220) ERROR [core.py:586]     torch.ops._C.cutlass_scaled_mm(out, a, b, scale_a, scale_b, bias)\n"
            "(EngineCore_0 pid=220) ERROR [core.py:586] RuntimeError: Error Internal\n")
    line = normalise(text.splitlines()[3].encode(), "t", 4, LineFormat())
    assert (line.worker, line.level, line.text) == ("EngineCore_0", "ERROR", "RuntimeError: Error Internal")
    res = scan_text(text)
    assert [f.id for f in res.findings][:1] == ["cutlass-fp8-unsupported-arch"]
    assert len(res.unknown) == 0


def test_a_raised_message_that_advises_a_fallback_is_no_fallback_taken():
    # transformers' SM100 guard ends its NotImplementedError with "the FP8 linear falls back to Triton
    # automatically": kept in a JSON record's traceback list, it is still the exception the run died of
    guard = ("NotImplementedError: DeepGEMM has no float32 scale-factor path on Blackwell (SM100): these scales are plain "
             "float32 (quantization_config.scale_fmt='float'), and rounding them to UE8M0 would silently corrupt the output. "
             "Use a checkpoint quantized with scale_fmt='ue8m0', or a path that consumes float32 block scales directly "
             "\u2014 the FP8 linear falls back to Triton automatically; for experts use "
             "`model.set_experts_implementation('grouped_mm')`.")
    tb = ['  File "/opt/venv/lib/python3.12/site-packages/transformers/integrations/deepgemm.py", line 702, in '
          'deepgemm_fp8_fp4_experts_forward', "    _assert_sm100_requirements(self.gate_up_proj, self.gate_up_proj_scale_inv)",
          json.loads(json.dumps(guard))]
    lines = [{"level": "INFO", "message": "gpu=NVIDIA B200 cc=(10, 0) transformers 5.17.0"},
             {"level": "ERROR", "message": "warmup failed", "traceback": tb}]
    res = scan_text("".join(json.dumps(r) + "\n" for r in lines))
    assert [(f.id, f.status.value) for f in res.findings][:1] == [("deepgemm-fp32-sf-sm100", "likely")]
