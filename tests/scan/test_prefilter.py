

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
