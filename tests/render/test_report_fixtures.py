"""Fixed inputs for the report tests, built from the real data classes.

``sample_result()`` is a whole scan result with every part a report shows: a confirmed root cause
seen on 8 workers with a real ``ue8m0-scale-rounding`` repro result (CPU emulation output stored in
tests/golden/inputs/), a possible finding and a ruled-out one, unknown error groups, facts with a
conflict, warnings and fixed run metadata. Log text in it carries script, markup and Markdown
payloads, as untrusted logs can. It changes only when this file does, so golden files built from
it change only when the templates or renderers do.
"""
from __future__ import annotations

import json
from pathlib import Path

from fp8triage.model import (
    ConditionResult,
    Evidence,
    Fact,
    Finding,
    InputInfo,
    Line,
    Remedy,
    ScanResult,
    Severity,
    Status,
    Truth,
    UnknownGroup,
)

GOLDEN = Path(__file__).parents[1] / "golden"

SCRIPT_PAYLOAD = "<script>alert(1)</script>"
IMG_PAYLOAD = "<img src=x onerror=alert(1)>"
# markers that only appear if a payload executed or loaded something
MARK_SCRIPT = "<script>document.title='PWNED';document.documentElement.setAttribute('data-pwned','script')</script>"
MARK_IMG = "<img src=x onerror=\"document.documentElement.setAttribute('data-pwned','img')\">"
REMOTE_IMG = '<img src="http://fp8triage-test.invalid/pixel.png">'
MD_PAYLOAD = "[click](javascript:alert(1)) ![x](http://fp8triage-test.invalid/p.png) **bold** @here\n# heading\n```"

META = {
    "tool": "fp8triage",
    "version": "0.0.0-golden",
    "catalogue_version": "golden000000",
    "signatures": 33,
    "fingerprint_algorithm": 1,
    "time": "2026-01-01T00:00:00+00:00",
    "host": "golden-host",
    "facts_from": "log",
    "prefilter": "re",
    "elapsed_s": 0.123,
}

WORKERS = [f"VllmWorker rank={i}" for i in range(8)]


def repro_result() -> dict:
    res = json.loads((GOLDEN / "inputs" / "ue8m0-scale-rounding.json").read_text(encoding="utf-8"))
    res["purpose"] = "confirm"
    res["note"] = "mechanism shown in CPU emulation; the finding is confirmed because every condition holds"
    return res


def sample_result() -> ScanResult:
    log = "server.log"
    top = Finding(
        id="ue8m0-silent-corruption",
        title="Silently wrong FP8 output on Blackwell: float32 block scales rounded to UE8M0 without requantizing",
        severity=Severity.CRITICAL,
        status=Status.CONFIRMED,
        summary="The model serves finite, warning-free but wrong output because its float32 block scales "
                "were turned into powers of two without requantizing the FP8 weights.",
        cause="Blackwell DeepGEMM FP8 kernels consume only UE8M0 (power-of-two) scales. A checkpoint with "
              "float32 block scales must be requantized against power-of-two scales first;\nrounding the "
              "scales alone makes every block 1x-2x too large, and the error compounds through the layers.",
        evidence=[
            Evidence(log, 1412, "Using DeepGEMM kernels for Fp8LinearMethod (scale_fmt=float, use_ue8m0=True)",
                     span=(6, 22), workers=tuple(WORKERS), pattern="deepgemm-ue8m0"),
            Evidence(log, 2250, "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |    0|±  |     0|",
                     span=(0, 61), pattern="zero-accuracy-table"),
            Evidence(log, 2301, f"sample output: 'the the the' {SCRIPT_PAYLOAD} {IMG_PAYLOAD} {MARK_SCRIPT} {MARK_IMG} {REMOTE_IMG}",
                     span=(15, 28), pattern="garbage-output"),
        ],
        conditions=[
            ConditionResult("capability", "capability >=10.0", Truth.HOLDS, "10.0", "log server.log:88", "require",
                            "UE8M0-only scale paths exist on Blackwell"),
            ConditionResult("scale_dtype", "scale_dtype in {float32}", Truth.HOLDS, "float32",
                            "checkpoint config.json", "require"),
            ConditionResult("vllm", "vllm <0.10.1", Truth.HOLDS, "0.10.0", "log server.log:3", "require",
                            "requantization landed in vllm#22399"),
            ConditionResult("deep_gemm", "deep_gemm <2.6", Truth.UNKNOWN, None, None, "support"),
        ],
        facts=[],
        remedies=[
            Remedy("upgrade-vllm", "Upgrade vLLM to a release that requantizes weights to UE8M0",
                   {"kind": "install", "spec": "vllm>=0.10.1"}, "pip install 'vllm>=0.10.1'", Truth.HOLDS,
                   repro=()),
            Remedy("vllm-disable-deepgemm", "Turn DeepGEMM off in vLLM",
                   {"kind": "env", "name": "VLLM_USE_DEEP_GEMM", "value": "0"}, "export VLLM_USE_DEEP_GEMM=0",
                   Truth.HOLDS, repro=("triton-fp32-block-scales",)),
            Remedy("experts-grouped-mm", "Run the MoE experts with grouped_mm",
                   {"kind": "code", "language": "python", "code": "model.set_experts_implementation('grouped_mm')"},
                   "model.set_experts_implementation('grouped_mm')", Truth.UNKNOWN,
                   why="(fits if: stack in {transformers})"),
            Remedy("transformers-skip-deepgemm-linear", "Send transformers' FP8 linears to Triton",
                   {"kind": "env", "name": "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR", "value": "1"},
                   "export TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1", Truth.FAILS,
                   why="(fits if: stack in {transformers}; the stack is vllm)"),
        ],
        references=[
            {"ref": "vllm-project/vllm#22399", "url": "https://github.com/vllm-project/vllm/pull/22399"},
            {"ref": "huggingface/transformers#47030", "url": "https://github.com/huggingface/transformers/issues/47030"},
            {"ref": "not a link", "url": "javascript:alert(1)"},
            {"ref": "internal runbook"},
        ],
        repro=["ue8m0-scale-rounding"],
        count=8,
        workers=list(WORKERS),
        fingerprints=["5dcf61e8cb1cfa81"],
        consequences=[
            {"kind": "engine-dead", "fingerprint": "aa01", "headline": "EngineDeadError: EngineCore encountered an issue.",
             "count": 3, "source": log, "line": 2410},
            {"kind": "http-500", "fingerprint": "aa02", "headline": f"POST /v1/completions 500 {SCRIPT_PAYLOAD}",
             "count": 12, "source": "api.log", "line": 77},
        ],
        repro_results=[
            repro_result(),
            {"id": "triton-fp32-block-scales", "verdict": "skipped", "reason": "torch is not installed; install fp8triage[repro]",
             "metrics": {}, "device": None, "capability": None, "mode": "cpu-emulation", "purpose": "remedy",
             "remedy": "vllm-disable-deepgemm", "wall_s": 0.05,
             "command": "python repro_kernels/triton_fp32_block_scales.py --device auto --json"},
        ],
    )
    possible = Finding(
        id="deepgemm-sf-layout-shape",
        title="DeepGEMM scale-factor tensor has the wrong shape for its layout",
        severity=Severity.HIGH,
        status=Status.POSSIBLE,
        summary="DeepGEMM rejected the scale-factor tensor's shape while transforming it into its TMA layout.",
        cause="The scale tensor's shape does not match the block size the kernel was built for.",
        evidence=[
            Evidence(log, 2290, f"RuntimeError: Assertion error (csrc/layout.hpp:59): sf.size(-2) == ceil_div(mn, gran_mn) {SCRIPT_PAYLOAD} `x` ``` ```` |pipe| *star*",
                     span=(14, 59), workers=("VllmWorker rank=3",), pattern="sf-shape-assert"),
        ],
        conditions=[
            ConditionResult("weight_block_size", "weight_block_size in {128x128}", Truth.UNKNOWN, None, None, "require"),
        ],
        facts=[],
        remedies=[
            Remedy("match-block-size", "Serve with the block size the checkpoint was quantized with",
                   {"kind": "config", "key": "weight_block_size", "value": [128, 128]},
                   '"weight_block_size": [128, 128]', Truth.UNKNOWN),
        ],
        references=[{"ref": "deepseek-ai/DeepGEMM#372", "url": "https://github.com/deepseek-ai/DeepGEMM/issues/372"}],
        repro=["deepgemm-sf-layout"],
        count=1,
        workers=["VllmWorker rank=3"],
        decide=["weight_block_size"],
    )
    ruled = Finding(
        id="deepgemm-unsupported-arch",
        title="DeepGEMM does not support this GPU architecture",
        severity=Severity.HIGH,
        status=Status.RULED_OUT,
        summary="DeepGEMM was asked to run on a GPU it has no kernels for.",
        cause="DeepGEMM supports SM90 and SM100 only.",
        evidence=[Evidence(log, 1412, "Using DeepGEMM kernels for Fp8LinearMethod", span=(6, 14), pattern="deepgemm-used")],
        conditions=[ConditionResult("capability", "capability not in {9.0, 10.0}", Truth.FAILS, "10.0", "log server.log:88")],
        facts=[],
        remedies=[],
        references=[],
        repro=[],
        count=1,
        contradicted_by=["capability is 10.0 (log server.log:88), expected not in {9.0, 10.0}"],
    )
    unknown = [
        UnknownGroup(
            fingerprint="c0ffee0123456789",
            kind="traceback",
            headline=f"ValueError: bad token {IMG_PAYLOAD} <N>",
            sample=[
                Line(log, 3001, "Traceback (most recent call last):", "VllmWorker rank=0"),
                Line(log, 3002, '  File "/app/serve.py", line 12, in handle', "VllmWorker rank=0"),
                Line(log, 3003, f"ValueError: bad token {IMG_PAYLOAD} {MARK_IMG} {REMOTE_IMG}", "VllmWorker rank=0"),
                Line(log, 3004, MD_PAYLOAD.replace("\n", " "), "VllmWorker rank=0"),
                Line(log, 3005, "````` five backticks and a \u202egnp.exe bidi override", "VllmWorker rank=0"),
            ],
            count=8,
            workers=list(WORKERS),
            first=Line(log, 3001, "Traceback (most recent call last):"),
            last=Line(log, 3401, "Traceback (most recent call last):"),
        ),
        UnknownGroup(
            fingerprint="0123456789abcdef",
            kind="error",
            headline=MD_PAYLOAD,
            sample=[Line("api.log", 12, MD_PAYLOAD.split("\n")[0])],
            count=1,
            workers=[],
            first=Line("api.log", 12, ""),
            last=Line("api.log", 12, ""),
        ),
    ]
    facts = [
        Fact("VLLM_USE_DEEP_GEMM", "1", "--fact", "cli"),
        Fact("capability", "10.0", "log server.log:88", "log"),
        Fact("gpu", "NVIDIA B200", "log server.log:87", "log"),
        Fact("model", f"deepseek-ai/DeepSeek-V3 {SCRIPT_PAYLOAD}", "log server.log:2", "log"),
        Fact("scale_dtype", "float32", "checkpoint config.json", "checkpoint"),
        Fact("stack", "vllm", "log server.log:1 (12 line(s) name vllm)", "log"),
        Fact("vllm", "0.10.0", "log server.log:3", "log"),
    ]
    conflicts = [{
        "name": "capability",
        "chosen": {"value": "10.0", "source": "log server.log:88", "origin": "log"},
        "values": [
            {"value": "10.0", "source": "log server.log:88", "origin": "log"},
            {"value": "9.0", "source": "nvidia-smi", "origin": "live"},
        ],
        "rule": "the log's facts beat the live probe (the log may come from another machine)",
    }]
    inputs = [
        InputInfo(log, 1_482_113, 4_112, "text"),
        InputInfo("api.log.gz", 20_480, 390, "gzip+jsonl"),
    ]
    return ScanResult(
        findings=[top, possible],
        unknown=unknown,
        facts=facts,
        conflicts=conflicts,
        inputs=inputs,
        meta=dict(META),
        ruled_out=[ruled],
        warnings=[f"api.log.gz: 2 lines longer than 1 MiB were cut {SCRIPT_PAYLOAD}"],
    )


def empty_result() -> ScanResult:
    return ScanResult(findings=[], unknown=[], facts=[], conflicts=[],
                      inputs=[InputInfo("quiet.log", 120, 3, "text")], meta=dict(META))


def unknown_only_result() -> ScanResult:
    r = sample_result()
    return ScanResult(findings=[], unknown=r.unknown, facts=r.facts, conflicts=[], inputs=r.inputs, meta=dict(META))


def payload_log() -> str:
    """A real log (for the CLI and the browser) whose lines carry the payloads."""
    return "\n".join([
        "INFO 01-01 00:00:00 [__init__.py:239] Automatically detected platform cuda.",
        f"ERROR 01-01 00:00:01 [engine.py:10] RuntimeError: request failed {SCRIPT_PAYLOAD}",
        f"ERROR 01-01 00:00:02 [engine.py:11] ValueError: bad prompt {IMG_PAYLOAD}",
        f"ERROR 01-01 00:00:03 [engine.py:12] KeyError: {MARK_SCRIPT}",
        f"ERROR 01-01 00:00:04 [engine.py:13] TypeError: {MARK_IMG} {REMOTE_IMG}",
        "ERROR 01-01 00:00:05 [engine.py:14] OSError: [x](javascript:alert(1)) ```` fence",
        "",
    ])


def test_fixture_is_consistent():
    r = sample_result()
    assert r.top is not None and r.top.status is Status.CONFIRMED
    assert r.top.repro_results[0]["metrics"]["stack"]["b"]["cosine_by_layer"]
    for f in r.findings + r.ruled_out:
        for e in f.evidence:
            assert e.span is None or 0 <= e.span[0] < e.span[1] <= len(e.text)
