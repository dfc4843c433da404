"""Three-valued conditions: PEP 440 versions, capability sets and ranges, defaults, any_of/all_of."""
from __future__ import annotations

import pytest

from fp8triage.judge.conditions import ConditionError, validate_condition, combine, evaluate
from fp8triage.facts.vocabulary import FactError, normalise_capability, parse_cli_fact, resolve
from fp8triage.model import Fact, Truth


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


def test_bad_conditions_are_rejected():
    with pytest.raises(ConditionError, match="unknown fact"):
        validate_condition({"fact": "gpu_colour", "equals": "green"})
    with pytest.raises(ConditionError, match="PEP 440"):
        validate_condition({"fact": "vllm", "version": "newer than 0.2"})


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
