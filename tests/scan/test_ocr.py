"""A screenshot's OCR transcription is read as the screen showed it; a log a program wrote is never changed."""
from __future__ import annotations

from fp8triage.drivers.batch import scan_paths, scan_text
from fp8triage.scan import ocr

# a vLLM worker's traceback as an OCR engine read it off a phone photo of a terminal
TRANSCRIBED = (
    "photo of the DGX Spark terminal, ran it through OCR:\n"
    "(EngineCore_DP0 pid=5l3) ERR0R 06-29 22:l4:08 [core.py:866]   Fi1e \"/vllm/uti1s/deep_gemm.py\", 1ine 494, in tr\n"
    "(EngineCore_DP0 pid=5l3) ERR0R 06-29 22:l4:08 [core.py:866]     return _transform_sf_into_required_1ayout_impl(\n"
    "(EngineCore_DP0 pid=5l3) ERR0R 06-29 22:l4:08 [core.py:866] RuntimeError: Assertion err0r "
    "(/vllm/.deps/deepgemm-src/csrc/apis/1ayout.hpp:59): Unkn0wn SF transf0rmation\n"
    "nvidia-smi says \"NVIDIA GB10\".\n"
)

# a program's log with words whose digits are their own: number formats, targets, ranks, hashes, layer names
OWN_DIGITS = (
    "[2026-01-02 10:00:00 TP1] weight dtype=float8_e4m3fn scale dtype=float8_e8m0fnu arch=sm100a\n"
    "[2026-01-02 10:00:00 TP1] loaded conv1d layer0 rank1 mlp.fc1 cache a1b2c3d4e5f60718 sm_120 at 0x7f01aa3e10c6\n"
    "[2026-01-02 10:00:01 TP0] Model loading took 14.2 GiB; gsm8k accuracy 0.91; errors 0\n"
)


def test_a_transcribed_traceback_is_read_as_the_screen_showed_it():
    assert ocr.looks_transcribed(TRANSCRIBED.encode())
    res = scan_text(TRANSCRIBED, source="photo.txt")
    assert res.findings and res.findings[0].id == "deepgemm-unknown-sf-transformation"
    ev = res.findings[0].evidence[0]
    assert ev.lineno == 4 and "Unknown SF transformation" in ev.text
    assert any("screenshot's transcription (OCR)" in w for w in res.warnings)


def test_words_are_mended_in_place():
    data = TRANSCRIBED.encode()
    fixed, n = ocr.untranscribed(data)
    assert fixed.count(b"\n") == data.count(b"\n")
    assert b"pid=513) ERROR 06-29 22:14:08" in fixed and b'File "/vllm/utils/deep_gemm.py", line 494' in fixed
    assert b"required_layout_impl" in fixed and n >= 10


def test_a_log_whose_digits_are_its_own_is_not_changed():
    data = OWN_DIGITS.encode()
    assert not ocr.looks_transcribed(data)
    assert ocr.untranscribed(data)[0] == data  # (and were it read so, these words would stay)
    res = scan_text(OWN_DIGITS, source="server.log")
    assert not any("OCR" in w for w in res.warnings)


def test_letters_read_for_other_letters_are_mended_where_they_then_spell_a_known_word():
    fixed, _ = ocr.untranscribed(b"NotlmplementedError: No cornpi1ed cutlass_scaled_mm for capabi1ity: 12O\n"
                                 b"return kernel internal\n")
    assert fixed == (b"NotImplementedError: No compiled cutlass_scaled_mm for capability: 120\n"
                     b"return kernel internal\n")


def test_one_garbled_word_is_no_transcription():
    assert not ocr.looks_transcribed(b"RuntimeError: Fi1e not found\nall good otherwise\n")


def test_a_source_larger_than_a_paste_is_never_changed(tmp_path):
    p = tmp_path / "big.log"
    filler = b"INFO 01-02 10:00:00 [engine.py:1] step done\n" * (ocr.MAX_BYTES // 40)
    p.write_bytes(TRANSCRIBED.encode() + filler)
    assert not ocr.looks_transcribed(p.read_bytes())
    res = scan_paths([str(p)])
    assert not any("OCR" in w for w in res.warnings)
    assert not res.findings or res.findings[0].id != "deepgemm-unknown-sf-transformation"
