"""Evidence of several strengths (issue 12): the failure's message (strong) versus frames, source
locations, token sets and cut lines (weak), wrapped messages, and the order of several failures."""
from __future__ import annotations

import json

from click.testing import CliRunner

from fp8triage.cli import cli
from fp8triage.model import Fact
from fp8triage.drivers.batch import scan_text
from fp8triage.render.text import render_text

# a vLLM warm-up traceback whose exception line is missing (the paste ends in the frames)
FRAMES_ONLY = """\
Traceback (most recent call last):
  File "/usr/local/lib/python3.12/dist-packages/vllm/model_executor/warmup/deep_gemm_warmup.py", line 120, in _deepgemm_fp8_gemm_nt_warmup
    fp8_gemm_nt((a1q, a1q_scales), (w, ws), out)
  File "/usr/local/lib/python3.12/dist-packages/vllm/utils/deep_gemm.py", line 453, in fp8_gemm_nt
    return _fp8_gemm_nt_impl(*args, disable_ue8m0_cast=not use_ue8m0, **kwargs)
RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/../jit_kernels/im
"""

UNKNOWN_SF = "RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation\n"


def top(res):
    return (res.findings[0].id, res.findings[0].status.value, res.findings[0].strength) if res.findings else None


def test_frames_and_cut_location_alone_make_a_possible_finding_marked_weak():
    res = scan_text(FRAMES_ONLY, source="paste.log")
    sig, status, strength = top(res)
    assert sig == "deepgemm-unknown-sf-transformation" and status == "possible" and strength == "weak"
    kinds = {e.kind for e in res.findings[0].evidence}
    assert kinds & {"frame", "message"}
    text = render_text(res)
    assert "Weak evidence" in text and ("(frame)" in text or "(cut message)" in text)


def test_facts_that_support_it_make_the_weak_finding_likely():
    res = scan_text(FRAMES_ONLY, source="paste.log", cli_facts=[Fact("capability", "12.0", "--fact", "cli")])
    assert top(res)[:2] == ("deepgemm-unknown-sf-transformation", "likely")


def test_facts_choose_among_causes_that_share_the_frames():
    # the same DeepGEMM call frames on a GH200 are the illegal-address failure, not the SM12x layout gap
    res = scan_text(FRAMES_ONLY, source="paste.log", cli_facts=[Fact("gpu", "NVIDIA GH200 480GB", "--fact", "cli")])
    assert top(res)[0] == "deepgemm-illegal-address-gh200"


def test_the_message_beats_weak_evidence_of_another_signature():
    text = FRAMES_ONLY.rsplit("\n", 2)[0] + "\n" + UNKNOWN_SF
    res = scan_text(text, source="full.log")
    assert top(res) == ("deepgemm-unknown-sf-transformation", "likely", "strong")
    assert res.findings[0].evidence[0].kind == "message"


def test_a_message_wrapped_mid_word_by_a_terminal_is_the_same_message():
    line = "(VllmWorker rank=0 pid=7) ERROR 09-02 13:22:10 [multiproc_executor.py:546] " + UNKNOWN_SF.strip()
    wrapped = "\n".join(line[i:i + 100] for i in range(0, len(line), 100)) + "\n"
    res = scan_text(wrapped, source="wrapped.log")
    assert top(res)[0] == "deepgemm-unknown-sf-transformation" and top(res)[2] == "strong"
    # the evidence shows the whole logical line, not the first piece
    assert "Unknown SF transformation" in res.findings[0].evidence[0].text


def test_a_line_cut_inside_a_known_message_is_weak_evidence():
    res = scan_text("AssertionError: Device compute capability 8.9 or higher req\n", source="cut.log")
    assert top(res)[:3] == ("fp8-unsupported-capability", "possible", "weak")


def test_a_cut_inside_a_wildcard_is_no_evidence():
    # the undefined-symbol pattern needs "deep_gemm" somewhere before; a line without it is not "cut"
    text = "ImportError: /usr/lib/flash_attn_2_cuda.so: undefined symbol: _ZN3c104cuda9SetDeviceEi\n"
    res = scan_text(text, source="other.log")
    assert not any(f.id == "deepgemm-not-installed" for f in res.findings)


def test_an_oom_inside_fp8_frames_is_not_claimed_by_weak_evidence():
    text = FRAMES_ONLY.rsplit("\n", 2)[0] + "\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB\n"
    res = scan_text(text, source="oom.log")
    assert not res.findings
    assert res.unknown and "OutOfMemoryError" in res.unknown[0].headline


def test_a_failure_ranks_before_an_earlier_warning():
    text = (
        "[2026-06-30 14:02:19 TP0] DeepGemm is enabled but the scale_fmt of checkpoint is not ue8m0. "
        "This might cause accuracy degradation on Blackwell.\n"
        "[2026-06-30 14:02:40 TP0] Assertion failed: /usr/local/lib/python3.12/dist-packages/deep_gemm/include/"
        "deep_gemm/impls/smxx_layout.cuh:131, condition: (values[j] & 0x807fffffu) == 0\n"
    )
    res = scan_text(text, source="two.log")
    ids = [f.id for f in res.findings]
    assert ids[0] == "ue8m0-pack-assert"
    assert "e8m0-precision-loss" in ids


def test_json_names_the_kind_and_strength_of_each_evidence_line(tmp_path):
    log = tmp_path / "paste.log"
    log.write_text(FRAMES_ONLY)
    r = CliRunner().invoke(cli, ["scan", str(log), "--format", "json"])
    doc = json.loads(r.output)
    f = doc["findings"][0]
    assert f["evidence_strength"] == "weak"
    assert {e["strength"] for e in f["evidence"]} == {"weak"}
    assert {e["kind"] for e in f["evidence"]} <= {"frame", "message", "location", "tokens"}


def test_a_tokens_pattern_without_words_is_one_clear_error(tmp_path):
    d = tmp_path / "sigs"
    d.mkdir()
    (d / "my-sig.toml").write_text(
        'id = "my-sig"\ntitle = "A user signature"\nseverity = "low"\nsummary = "something happened here"\n'
        'cause = "a cause of some kind"\nfix = "a fix of some kind"\n[evidence]\nanchors = ["deep_gemm"]\n'
        '[[evidence.patterns]]\nname = "words"\nkind = "tokens"\n'
    )
    log = tmp_path / "x.log"
    log.write_text("RuntimeError: deep_gemm\n")
    r = CliRunner().invoke(cli, ["scan", "--signatures", str(d), str(log)])
    assert r.exit_code == 1
    assert "my-sig.toml" in r.output and "all" in r.output and "Traceback" not in r.output


def test_a_cut_message_finding_is_written_as_json(tmp_path):
    # a message cut mid-line is weak evidence of its signature; the JSON report must still be written
    log = tmp_path / "cut.log"
    log.write_text("RuntimeError: Unknown SF transfor\n")
    out = tmp_path / "r.json"
    res = CliRunner().invoke(cli, ["scan", str(log), "--format", "json", "-o", str(out), "--no-history"])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    doc = json.loads(out.read_text())
    ev = doc["findings"][0]["evidence"][0]
    assert doc["findings"][0]["id"] == "deepgemm-unknown-sf-transformation"
    assert ev["strength"] == "weak" and ev["kind"] == "message"


def test_a_command_line_flag_at_a_line_end_is_no_cut_message():
    # SGLang's message starts with the flag ("--moe-runner-backend deep_gemm on consumer Blackwell ..."); a
    # command line that ends with the flag and its value names no failure
    text = ("RuntimeError: DeepEP error: timeout (dispatch CPU)\n"
            "2 nodes x 8 H800, IB, --moe-a2a-backend deepep --moe-runner-backend deep_gemm\n")
    assert scan_text(text, source="p.log").findings == []
