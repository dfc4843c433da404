"""`fp8triage remedy`: remedy actions for the current facts, as shell, JSON and text."""
from __future__ import annotations

import json
import os
import subprocess

import pytest
from click.testing import CliRunner

from fp8triage.cli import cli
from fp8triage.cli.remedy import FORMATS
from fp8triage.render.remedy import shell_line

SIG = "deepgemm-unknown-sf-transformation"


def run(*args):
    return CliRunner().invoke(cli, ["remedy", *args])


def test_sh_for_vllm_exports_only_what_fits():
    r = run(SIG, "--fact", "stack=vllm")
    assert r.exit_code == 0, r.output
    code = [ln for ln in r.output.splitlines() if not ln.startswith("#")]
    assert code == ["export VLLM_USE_DEEP_GEMM=0"]
    assert "SGLang" not in r.output  # its condition fails for vLLM: not listed without --all


def test_sh_is_valid_shell_and_sets_the_variable():
    r = run(SIG, "--fact", "stack=vllm")
    p = subprocess.run(["sh", "-c", r.output + '\necho "VLLM_USE_DEEP_GEMM=$VLLM_USE_DEEP_GEMM"'], capture_output=True,
                       text=True, env={k: v for k, v in os.environ.items() if k != "VLLM_USE_DEEP_GEMM"})
    assert p.returncode == 0 and p.stdout.strip() == "VLLM_USE_DEEP_GEMM=0", p.stderr


def test_unknown_facts_list_every_remedy_that_may_fit_best_first():
    r = run(SIG, "--format", "json")
    doc = json.loads(r.output)
    assert [x["applies"] for x in doc["remedies"]] == ["unknown"] * len(doc["remedies"])
    assert doc["remedies"][0]["id"] == "vllm-disable-deepgemm"
    assert "stack" in doc["undecided"]
    # nothing is known to fit, so each env remedy that may fit is exported
    sh = run(SIG).output
    assert "export VLLM_USE_DEEP_GEMM=0" in sh.splitlines()


def test_holding_remedies_come_first_and_json_names_facts():
    doc = json.loads(run(SIG, "--fact", "stack=sglang", "--fact", "capability=12.0", "--format", "json").output)
    assert doc["remedies"][0]["applies"] == "holds"
    assert doc["remedies"][0]["action"]["kind"] == "command"
    assert doc["remedies"][0]["shell"] is None
    assert {f["name"] for f in doc["facts"]} >= {"stack", "capability"}
    assert all(r["applies"] != "fails" for r in doc["remedies"])


def test_all_shows_failing_remedies_as_comments():
    r = run(SIG, "--fact", "stack=vllm", "--all")
    assert "[fails]" in r.output
    assert "# export TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1" in r.output


def test_unknown_id_is_one_sentence_naming_close_ids():
    r = run("deepgemm-unknown-sf-transfrmation")
    assert r.exit_code == 1
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and "did you mean deepgemm-unknown-sf-transformation" in lines[0]
    r = run("zzzz")
    assert r.exit_code == 1 and "signatures list" in r.output


def test_bad_fact_is_a_usage_error():
    r = run(SIG, "--fact", "nonsense")
    assert r.exit_code == 2 and "Traceback" not in r.output


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_renders(fmt):
    r = run(SIG, "--fact", "stack=vllm", "--format", fmt)
    assert r.exit_code == 0 and "VLLM_USE_DEEP_GEMM" in r.output


def test_shell_line_quotes_values():
    assert shell_line({"kind": "env", "name": "X", "value": "a b"}) == "export X='a b'"
    assert shell_line({"kind": "install", "spec": "vllm>=0.25"}) == "pip install 'vllm>=0.25'"
    assert shell_line({"kind": "note", "text": "x"}) is None


def test_no_remedy_fits_exits_5(tmp_path):
    sig_dir = tmp_path / "sigs"
    sig_dir.mkdir()
    (sig_dir / "only-sglang-fix.toml").write_text('''id = "only-sglang-fix"
title = "A failure only SGLang can fix"
severity = "high"
stacks = ["sglang"]
priority = 50
summary = "A test failure that only an SGLang setting can fix."
cause = "Written for the test suite: the only remedy applies to SGLang, so on vLLM nothing fits."
fix = "Set the SGLang flag; there is nothing to do on other stacks."
known_problems = "None, it is a test fixture."

[evidence]
anchors = ["only sglang fix here"]

[[evidence.patterns]]
name = "main"
regex = 'only sglang fix here'

[[remedies]]
id = "sglang-flag"
rank = 10
title = "Set the SGLang flag"
action = { kind = "env", name = "SGLANG_FLAG", value = "1" }
when = [ { fact = "stack", in = ["sglang"] } ]
''')
    r = run("only-sglang-fix", "--signatures", str(sig_dir), "--fact", "stack=vllm")
    assert r.exit_code == 5, r.output
    assert "no remedy fits" in r.output and "export" not in r.output
