

def test_the_settled_prefilter_drops_only_the_stack_class():
    """After the stack is settled a line whose only hit is a stack's name is no hit; other classes stay."""
    from fp8triage.scan.prefilter import ALERT, LITERAL, REGEX, STACK, Prefilter

    pf = Prefilter([("vLLM", LITERAL, STACK), ("Error", LITERAL, ALERT), (r"\bvllm/", REGEX, STACK | ALERT)])
    lean = pf.settled()
    assert lean is pf.settled() and lean is not pf
    text = b"vLLM API server\nRuntimeError: x\n  File \"/x/vllm/y.py\"\n"
    assert lean.hits(text, engine="re") == ([16, 32], {16: ALERT, 32: ALERT})
    assert pf.hits(text, engine="re")[1] == {0: STACK, 16: ALERT, 32: STACK | ALERT}
    plain = Prefilter([("Error", LITERAL, ALERT)])
    assert plain.settled() is plain


def test_an_expression_anchored_at_a_line_start_is_found_at_every_line_start_by_both_engines():
    """Hyperscan reads a multi-line "^" expression as the newline before the line or the span's start: the lines it
    finds are those Python ``re`` finds, the span's first line and a line in its middle alike."""
    import pytest

    from fp8triage.common import hsdb
    from fp8triage.scan.prefilter import CUE, LITERAL, REGEX, Prefilter, _anchored_line

    if not hsdb.available():
        pytest.skip("Hyperscan is not installed")
    rx = r"^[ \t]{4,}(?:H100|B200)[ \t]{2,}(?:H100|B200)"
    assert _anchored_line(rx) and not _anchored_line(r"^a|b") and not _anchored_line("^")
    pf = Prefilter([(rx, REGEX, CUE), ("Error", LITERAL, CUE)])
    head = b"        H100    B200\n"
    text = head + b"gsm8k   0.93    0.41\nx\n" + head + b"RuntimeError: y\n"
    body = b"noise line\n" * 7000  # a span big enough for Hyperscan (``prefilter.SMALL``)
    for buf in (text + body, body + text, text * 2 + body):
        assert pf.hits(buf) == pf.hits(buf, engine="re")
    start = len(body)
    buf = body + text
    assert pf.hits(buf, start, len(buf)) == pf.hits(buf, start, len(buf), engine="re")
    assert pf.hits(buf, start, len(buf))[0][:1] == [start]
