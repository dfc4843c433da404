"""Three-valued conditions: PEP 440 versions, capability sets and ranges, defaults, any_of/all_of."""
from __future__ import annotations

import pytest

from fp8triage.catalogue.conditions import AnyOf, ConditionError, FactCondition, parse_condition
from fp8triage.judge.conditions import combine, evaluate as _evaluate
from fp8triage.facts.vocabulary import FactError, normalise_capability, parse_cli_fact, resolve
from fp8triage.model import Fact, Truth


def evaluate(raw, facts, absent=frozenset()):
    return _evaluate(parse_condition(raw), facts, absent)


def F(**kw):
    return {k: Fact(k, v, "test", "cli") for k, v in kw.items()}


@pytest.mark.parametrize(
    "cond, facts, expected",
    [
        ({"fact": "transformers", "version": "<=5.12.1"}, F(transformers="5.12.1"), Truth.HOLDS),
        ({"fact": "transformers", "version": "<=5.12.1"}, F(transformers="5.13.0"), Truth.FAILS),
        ({"fact": "vllm", "version": ">=0.24.0"}, F(vllm="0.26.1rc1.dev608+g99a10304d"), Truth.HOLDS),
        ({"fact": "capability", "capability": ">=10.0,<11.0"}, F(capability="10.3"), Truth.HOLDS),
        ({"fact": "capability", "capability": ">=10.0,<11.0"}, F(capability="12.0"), Truth.FAILS),
        ({"fact": "capability", "in": ["12.0", "12.1"]}, F(capability="sm_120"), Truth.HOLDS),
        ({"fact": "capability", "in": ["12.0"]}, {}, Truth.UNKNOWN),
        ({"fact": "VLLM_USE_DEEP_GEMM", "not_in": ["0"], "default": "1"}, {}, Truth.HOLDS),
        ({"fact": "VLLM_USE_DEEP_GEMM", "not_in": ["0"], "default": "1"}, F(VLLM_USE_DEEP_GEMM="0"), Truth.FAILS),
        ({"any_of": [{"fact": "capability", "capability": "<10.0"}, {"fact": "capability", "capability": ">=11.0"}]},
         F(capability="10.0"), Truth.FAILS),
        ({"all_of": [{"fact": "transformers", "version": "<=5.12.1"}, {"fact": "moe", "equals": "true"}]},
         F(transformers="5.12.1"), Truth.UNKNOWN),
    ],
)
def test_evaluate(cond, facts, expected):
    assert evaluate(cond, facts).truth is expected


def test_combine_names_deciding_and_contradicting_facts():
    rs = [evaluate({"fact": "capability", "capability": ">=10.0"}, {}),
          evaluate({"fact": "scale_dtype", "in": ["float32"]}, F(scale_dtype="float32"))]
    truth, decide, contra = combine(rs)
    assert truth is Truth.UNKNOWN and decide == ["capability"]
    rs.append(evaluate({"fact": "transformers", "version": "<=5.12.1"}, F(transformers="5.17.0")))
    truth, _, contra = combine(rs)
    assert truth is Truth.FAILS and "transformers = 5.17.0" in contra[0]


def test_a_precondition_rules_out_when_it_fails_and_is_no_evidence_otherwise():
    from fp8triage.judge.verdict import _facts_support, status_of
    from fp8triage.model import Status

    pre = {"fact": "capability", "capability": ">=8.9", "role": "precondition"}
    assert status_of([evaluate(pre, F(capability="8.0"))])[0] is Status.RULED_OUT  # an A100: not this failure
    assert status_of([evaluate(pre, {})])[0] is Status.LIKELY  # no GPU known: the message decides, as before
    assert not _facts_support([evaluate(pre, F(capability="9.0"))])  # an H100 says nothing of a layout
    assert _facts_support([evaluate({**pre, "role": "support"}, F(capability="9.0"))])


def test_bad_conditions_are_rejected():
    with pytest.raises(ConditionError, match="unknown fact"):
        parse_condition({"fact": "gpu_colour", "equals": "green"})
    with pytest.raises(ConditionError, match="PEP 440"):
        parse_condition({"fact": "vllm", "version": "newer than 0.2"})
    with pytest.raises(ConditionError, match="does not compile"):
        parse_condition({"fact": "gpu", "regex": "B(200"})
    with pytest.raises(ConditionError, match="has no test; write exactly one of equals, in"):
        parse_condition({"fact": "gpu"})
    with pytest.raises(ConditionError, match="has in, version; write exactly one of"):
        parse_condition({"fact": "vllm", "in": ["0.24.0"], "version": ">=0.24"})
    with pytest.raises(ConditionError, match="unknown fact"):  # inside any_of too
        parse_condition({"any_of": [{"fact": "gpu", "equals": "x"}, {"fact": "gpu_colour", "equals": "green"}]})


def test_a_condition_is_parsed_once_into_a_typed_value():
    c = parse_condition({"fact": "capability", "capability": ">=10.0,<11.0", "role": "support", "why": "SM100 only"})
    assert isinstance(c, FactCondition) and c.test == "capability" and c.role == "support"
    assert c.spec.contains("10.3") and c.expect == "capability >=10.0,<11.0"
    a = parse_condition({"any_of": [{"fact": "capability", "in": ["12.0"]}, {"fact": "gpu", "regex": "RTX 50"}]})
    assert isinstance(a, AnyOf) and a.expect == "(capability in {12.0}) or (gpu ~ /RTX 50/)"
    assert a.fact_names() == ("capability", "gpu")
    with pytest.raises(AttributeError):
        c.fact = "gpu"  # frozen


def test_a_fact_known_to_be_absent_is_judged_not_unknown():
    """Preflight's closed world (the live probe did not find the package) goes through the same
    evaluation as a scan: a version test on it fails, present = false holds, a default applies."""
    gone = frozenset({"flashinfer", "VLLM_USE_DEEP_GEMM"})
    r = evaluate({"fact": "flashinfer", "version": ">=0.2"}, {}, gone)
    assert r.truth is Truth.FAILS and r.source == "live probe: not installed on this machine"
    assert evaluate({"fact": "flashinfer", "present": False}, {}, gone).truth is Truth.HOLDS
    assert evaluate({"fact": "flashinfer", "version": ">=0.2"}, {}).truth is Truth.UNKNOWN
    r = evaluate({"fact": "VLLM_USE_DEEP_GEMM", "not_in": ["0"], "default": "1"}, {}, gone)
    assert r.truth is Truth.HOLDS and r.value == "1"
    any_of = {"any_of": [{"fact": "flashinfer", "version": ">=0.2"}, {"fact": "capability", "in": ["12.0"]}]}
    assert evaluate(any_of, F(capability="12.0"), gone).truth is Truth.HOLDS
    assert evaluate(any_of, F(capability="9.0"), gone).truth is Truth.FAILS


def test_capability_spellings():
    for s in ("12.0", "sm_120", "SM120", "sm120a", "(12, 0)", "120", "12"):
        assert normalise_capability(s) == "12.0", s


def test_cli_fact_parsing():
    assert parse_cli_fact("gpu=NVIDIA B200") == Fact("gpu", "NVIDIA B200", "--fact", "cli")
    assert parse_cli_fact("cc=sm_100").value == "10.0"
    with pytest.raises(FactError, match="name=value"):
        parse_cli_fact("capability")
    with pytest.raises(FactError, match="not a known fact"):
        parse_cli_fact("colour=blue")


def test_precedence_and_conflicts():
    facts = [Fact("capability", "9.0", "nvidia-smi", "live"), Fact("capability", "12.0", "log x:3", "log")]
    chosen, conflicts = resolve(facts, "log")
    assert chosen["capability"].value == "12.0" and conflicts and conflicts[0]["name"] == "capability"
    chosen, _ = resolve(facts, "live")
    assert chosen["capability"].value == "9.0"
    chosen, _ = resolve(facts + [Fact("capability", "10.0", "--fact", "cli")], "live")
    assert chosen["capability"].value == "10.0"
    same, conflicts = resolve([Fact("torch", "2.11.0", "log", "log"), Fact("torch", "2.11.0+cu130", "p", "live")], "all")
    assert conflicts == []
