"""Newline counts for line numbers (fp8triage/scan/newlines.py): NumPy and bytes.count give the same counts, for
any range, block boundary and tail."""
from __future__ import annotations

import random

import pytest

from fp8triage.scan import newlines


@pytest.fixture(params=["numpy", "bytes.count"])
def engine(request, monkeypatch):
    if request.param == "numpy":
        newlines.prepare()
        if not newlines._np:
            pytest.skip("NumPy is not installed")
    else:
        monkeypatch.setattr(newlines, "_np", False)
    return request.param


def test_counts_equal_bytes_count(engine):
    rnd = random.Random(7)
    buf = bytes(rnd.choice(b"ab \n\r\x00\xff") for _ in range(300_000))
    for a, b in [(0, len(buf)), (1, len(buf) - 1), (5, 5), (100, 100 + newlines.MIN), (3, 3 + newlines.MIN - 1),
                 (12345, 250_000)]:
        assert newlines.count(buf, a, b) == buf.count(b"\n", a, b)
        got = newlines.blocks(buf, a, b)
        want = [buf.count(b"\n", x, min(x + newlines.BLOCK, b)) for x in range(a, b, newlines.BLOCK)]
        assert got == want


def test_the_selector_numbers_lines_alike_with_either_engine(engine):
    from fp8triage.drivers.batch import scan_text

    body = "".join(f"(VllmWorker rank={i % 4} pid={100 + i % 4}) INFO step {i} ok\n" for i in range(40_000))
    tb = ("(VllmWorker rank=1 pid=101) ERROR Traceback (most recent call last):\n"
          '(VllmWorker rank=1 pid=101) ERROR   File "/x/vllm/model_executor/layers/quantization/fp8.py", line 9, in f\n'
          "(VllmWorker rank=1 pid=101) ERROR RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/"
          "layout.hpp:59): Unknown SF transformation\n")
    res = scan_text(body + tb + body)
    ev = res.findings[0].evidence[0]
    assert ev.lineno == 40_003
