"""Fact precedence and conflicts (facts.resolve), and --fact parsing."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.cli import cli
from fp8triage.facts.vocabulary import FACTS, FactError, canonical_name, parse_cli_fact, resolve
from fp8triage.model import Fact

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vllm-rtx5090-unknown-sf.log"

ALL = [
    Fact("capability", "12.0", "--fact", "cli"),
    Fact("capability", "10.0", "checkpoint x", "checkpoint"),
    Fact("capability", "9.0", "dump:3", "env-dump"),
    Fact("capability", "8.9", "log a:1", "log"),
    Fact("capability", "8.0", "nvidia-smi", "live"),
    Fact("capability", "8.6", "derived from name", "derived"),
]


def winner(facts, prefer):
    chosen, _ = resolve(facts, prefer)
    return chosen["capability"].origin


@pytest.mark.parametrize(
    "prefer, order",
    [
        ("log", ["cli", "checkpoint", "env-dump", "log", "derived", "live"]),
        ("live", ["cli", "checkpoint", "live", "env-dump", "log", "derived"]),
        ("all", ["cli", "checkpoint", "env-dump", "log", "live", "derived"]),
    ],
)
def test_precedence_order(prefer, order):
    facts = list(ALL)
    for expected in order:
        assert winner(facts, prefer) == expected
        facts = [f for f in facts if f.origin != expected]


def test_conflict_is_shown_with_every_value_and_the_rule():
    chosen, conflicts = resolve(ALL[3:5], "log")
    assert chosen["capability"].value == "8.9"
    [c] = conflicts
    assert c["name"] == "capability"
    assert c["chosen"]["source"] == "log a:1"
    assert {v["value"] for v in c["values"]} == {"8.9", "8.0"}
    assert c["rule"].startswith("facts-from=log")


def test_same_release_is_not_a_conflict():
    facts = [Fact("vllm", "0.24.0", "log a:1", "log"), Fact("vllm", "0.24.0+cu130", "importlib", "live"),
             Fact("gpu", "NVIDIA H200", "a", "log"), Fact("gpu", "nvidia h200 ", "b", "live")]
    chosen, conflicts = resolve(facts, "all")
    assert conflicts == []
    assert chosen["vllm"].value == "0.24.0"


def test_first_fact_wins_within_one_origin():
    chosen, conflicts = resolve([Fact("gpu", "A", "first", "log"), Fact("gpu", "B", "second", "log")])
    assert chosen["gpu"].source == "first"
    assert len(conflicts) == 1


def test_unknown_precedence_mode_falls_back_to_log():
    assert winner(ALL[3:5], "bogus") == "log"


@pytest.mark.parametrize(
    "text, name, value",
    [
        ("gpu=NVIDIA B200", "gpu", "NVIDIA B200"),
        ("capability=sm_120", "capability", "12.0"),
        ("cc=(12, 1)", "capability", "12.1"),
        ("SM=100", "capability", "10.0"),
        ("compute_capability=9", "capability", "9.0"),
        ("deep-gemm=2.5.0", "deep_gemm", "2.5.0"),
        ("vllm=v0.24.0", "vllm", "0.24.0"),
        ("moe=yes", "moe", "true"),
        ("moe=0", "moe", "false"),
        ("DG_JIT_CACHE_DIR=/tmp/a=b", "DG_JIT_CACHE_DIR", "/tmp/a=b"),
        (" transformers = 5.12.1 ", "transformers", "5.12.1"),
    ],
)
def test_parse_cli_fact(text, name, value):
    f = parse_cli_fact(text)
    assert (f.name, f.value, f.origin, f.source) == (name, value, "cli", "--fact")


def test_parse_cli_fact_errors():
    with pytest.raises(FactError, match="name=value"):
        parse_cli_fact("capability")
    with pytest.raises(FactError, match="not a known fact") as e:
        parse_cli_fact("colour=blue")
    assert "capability" in str(e.value)  # lists the known names


def test_every_alias_resolves():
    for spec in FACTS.values():
        assert canonical_name(spec.name) == spec.name
        for a in spec.aliases:
            assert canonical_name(a.upper()) == spec.name


def test_check_shows_conflicts_and_cli_wins(tmp_path):
    r = CliRunner().invoke(cli, ["check", "--no-probe", "--fact", "capability=9.0", "--fact", "gpu=NVIDIA B200",
                                 "--env-file", str(_dump(tmp_path))])
    assert r.exit_code == 0, r.output
    assert any(ln.split()[:2] == ["capability", "9.0"] and "[cli]" in ln for ln in r.output.splitlines())
    assert "Conflicting facts" in r.output
    assert "capability: 9.0 from --fact [cli]" in r.output
    assert "12.0 from" in r.output  # the dump's capability is shown, not hidden
    assert "warning: gpu 'NVIDIA B200'" in r.output and "capability 10.0 part" in r.output


def _dump(tmp_path):
    p = tmp_path / "smi.csv"
    p.write_text("name, compute_cap, driver_version\nNVIDIA GeForce RTX 5090, 12.0, 575.51.03\n")
    return p


def test_facts_command_lists_vocabulary():
    r = CliRunner().invoke(cli, ["facts"])
    assert r.exit_code == 0
    for name in ("capability", "scale_dtype", "VLLM_USE_DEEP_GEMM", "transformers"):
        assert name in r.output
    import json

    doc = json.loads(CliRunner().invoke(cli, ["facts", "--format", "json"]).output)
    assert (doc["schema_version"], doc["kind"]) == ("1.0", "facts")
    assert {f["name"] for f in doc["facts"]} == set(FACTS)


def test_docs_list_every_fact():
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "facts.md").read_text()
    missing = [n for n in FACTS if f"| `{n}` |" not in doc]
    assert not missing, f"docs/facts.md lacks {missing}; regenerate its vocabulary table"


# -- fact values are validated by kind (issue 16, item 9) -------------------------------------------

@pytest.mark.parametrize("arg,words", [
    ("capability=banana", "a compute capability is major.minor"),
    ("capability=12.0+PTX", "a compute capability is major.minor"),
    ("vllm=notaversion", "vllm takes a version such as 0.24.0"),
    ("moe=maybe", "use true or false"),
    ("scale_fmt=e8m0", "scale_fmt is one of float, ue8m0"),
    ("stack=kserve", "stack is one of vllm, sglang"),
    ("gpu_count=two", "gpu_count takes a whole number"),
    # issue 24, item 12: an empty value is no value
    ("gpu=", "the value is empty; give one, e.g. --fact gpu='NVIDIA B200'"),
    ("model= ", "the value is empty"),
    ("weight_block_size=128", "a block size is N,K, e.g. 128,128"),
])
def test_bad_fact_values_are_one_clear_usage_error(arg, words):
    from click.testing import CliRunner

    from fp8triage.cli import cli

    r = CliRunner().invoke(cli, ["scan", str(EXAMPLE), "--no-history", "--fact", arg])
    assert r.exit_code == 2, r.output
    assert words in r.output and "Traceback" not in r.output
    assert "ROOT CAUSE" not in r.output  # nothing was judged with the bad value


@pytest.mark.parametrize("arg,value", [("capability=sm_120", "12.0"), ("capability=12", "12.0"), ("cc=(9, 0)", "9.0"),
                                       ("vllm=v0.24.0+cu130", "0.24.0+cu130"), ("moe=yes", "true"),
                                       ("gpu=NVIDIA B200", "NVIDIA B200"), ("VLLM_USE_DEEP_GEMM=0", "0"),
                                       ("CUDA_VISIBLE_DEVICES=", ""), ("weight_block_size=[128, 128]", "128,128")])
def test_good_fact_values_are_accepted_and_normalised(arg, value):
    assert parse_cli_fact(arg).value == value


def test_conflict_rule_says_when_the_first_value_of_one_origin_won():
    """issue 16, item 14: two log values cannot be told apart by origin order; the note says what decided."""
    facts = [Fact("capability", "12.0", "log a.log:1", "log"), Fact("capability", "9.0", "log a.log:7", "log")]
    chosen, conflicts = resolve(facts, "log")
    assert chosen["capability"].value == "12.0"
    assert conflicts[0]["rule"].endswith("; the first value seen wins within one origin")
    chosen, conflicts = resolve([facts[0], Fact("capability", "9.0", "--fact", "cli")], "log")
    assert chosen["capability"].value == "9.0" and "first value seen" not in conflicts[0]["rule"]


# -- issue 24, item 12 ----------------------------------------------------------------------------


def test_unknown_fact_name_suggests_the_closest():
    with pytest.raises(FactError, match=r"did you mean capability\? known facts"):
        parse_cli_fact("capabilty=12.0")


def test_a_weight_block_size_means_block_granularity():
    import json

    r = CliRunner().invoke(cli, ["check", "--no-probe", "--format", "json", "--fact", "weight_block_size=128,128",
                                 "--fact", "capability=12.0", "--fact", "stack=vllm", "--fact", "vllm=0.24.0"])
    doc = json.loads(r.output)
    gran = doc["facts"]["fp8_granularity"] if isinstance(doc["facts"], dict) else next(
        f for f in doc["facts"] if f["name"] == "fp8_granularity")
    assert gran["value"] == "block" and "weight_block_size=128,128" in gran["source"]
    risk = next(f for f in doc["findings"] if f["id"] == "preflight-sm120-vllm-deepgemm")
    assert risk["status"] == "likely"  # every deciding fact holds: block granularity is no longer unknown
