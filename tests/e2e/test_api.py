"""The Python API (fp8triage.triage), the one output-format registry and the one schema-version table."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import fp8triage
from fp8triage.cli import cli
from fp8triage.errors import TriageError
from fp8triage.common.envelope import SCHEMA_VERSIONS
from fp8triage.render.formats import FORMATS, Options, render

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"
SECRET = "hf_" + "Q" * 30


def test_triage_gives_what_scan_prints():
    result = fp8triage.triage([str(EXAMPLE)])
    r = CliRunner().invoke(cli, ["scan", str(EXAMPLE), "--format", "json", "--no-history"])
    doc = json.loads(r.output)
    assert [(f.id, f.status.value) for f in result.findings] == [(f["id"], f["status"]) for f in doc["findings"]]
    assert result.top.id == "deepgemm-unknown-sf-transformation"
    assert [u.fingerprint for u in result.unknown] == [u["fingerprint"] for u in doc["unknown_errors"]]


def test_triage_facts_change_the_verdict():
    """A --fact given to the library rules the cause out exactly as on the command line."""
    result = fp8triage.triage([str(EXAMPLE)], facts=["capability=9.0"])
    assert "deepgemm-unknown-sf-transformation" not in [f.id for f in result.findings if f.status.value == "likely"]


def test_triage_bad_input_is_a_triage_error(tmp_path):
    with pytest.raises(TriageError, match="nope.log"):
        fp8triage.triage([str(tmp_path / "nope.log")])
    with pytest.raises(TriageError):
        fp8triage.triage([str(EXAMPLE)], facts=["no-equals-sign"])


def test_the_documented_example_runs(capsys):
    code = re.search(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), re.S).group(1)
    exec(compile(code, "docs/api.md", "exec"), {})
    out = capsys.readouterr().out
    assert out.startswith("deepgemm-unknown-sf-transformation likely critical\n")


def _checkpoint_with_secret_note(tmp_path: Path) -> Path:
    """A checkpoint whose index names a missing shard with a token in its name: the checkpoint
    note (a run warning) carries the secret unless the run redacts it."""
    d = tmp_path / "ckpt"
    d.mkdir()
    (d / "config.json").write_text(json.dumps({"quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}}))
    (d / "model.safetensors.index.json").write_text(json.dumps({"weight_map": {"w": f"{SECRET}.safetensors"}}))
    return d


@pytest.mark.parametrize("command", [["scan", "--format", "markdown", "--no-history"], ["report", "--format", "markdown", "-o", "-"]])
def test_scan_and_report_redact_the_notes_of_fact_sources(tmp_path, command):
    ckpt = _checkpoint_with_secret_note(tmp_path)
    r = CliRunner().invoke(cli, [*command, str(EXAMPLE), "--model", str(ckpt)])
    assert r.exit_code in (0, 3), r.output
    assert "shard(s) that are not in the directory" in r.output
    assert SECRET not in r.output


def test_render_masks_secrets_in_every_text_format():
    result = fp8triage.triage([str(EXAMPLE)])
    result.warnings.append(f"note with {SECRET}")
    for fmt in FORMATS:
        out = render(result, fmt, Options())
        if fmt != "html":  # html escapes and was redacted before rendering; its text is left as is
            assert SECRET not in out, fmt


def test_every_command_that_renders_a_scan_uses_the_registry():
    from fp8triage.cli import report, scan

    assert set(scan.FORMATS) == set(FORMATS)
    assert set(report.FORMATS) <= set(FORMATS)
    with pytest.raises(ValueError, match="unknown output format"):
        render(fp8triage.triage([str(EXAMPLE)]), "yaml")


def test_every_format_renders_the_example():
    result = fp8triage.triage([str(EXAMPLE)])
    outs = {fmt: render(result, fmt, Options(exit_code=3)) for fmt in FORMATS}
    assert json.loads(outs["json"])["findings"][0]["id"] == "deepgemm-unknown-sf-transformation"
    assert outs["html"].lstrip().lower().startswith("<!doctype html>")
    assert "deepgemm-unknown-sf-transformation" in outs["markdown"] and "ROOT CAUSE" in outs["text"]


def test_one_schema_version_table_matches_every_schema_file():
    schemas = ROOT / "fp8triage" / "schemas"
    for kind, version in SCHEMA_VERSIONS.items():
        path = schemas / f"{kind}.schema.json"
        if not path.exists():
            continue  # documented in docs/json-contract.md only
        pattern = json.loads(path.read_text())["properties"]["schema_version"]
        ok = re.fullmatch(pattern["pattern"], version) if "pattern" in pattern else pattern.get("const") == version
        assert ok, f"{kind}: {version} does not fit {path.name}"


def test_no_module_defines_its_own_schema_version():
    pkg = ROOT / "fp8triage"
    offenders = [str(p.relative_to(pkg)) for p in pkg.rglob("*.py") if p.name != "envelope.py"
                 and (re.search(r'"schema_version":\s*"', p.read_text()) or re.search(r'^\w*SCHEMA_VERSION\s*=\s*"', p.read_text(), re.M))]
    assert offenders == []


def test_check_is_the_preflight_that_the_command_prints():
    """`fp8triage.check` judges facts alone, as `fp8triage check` does, and the command prints the
    same risks (an A100 has no FP8 hardware: the pre-Ada risk)."""
    import json

    from click.testing import CliRunner

    import fp8triage
    from fp8triage.cli import cli

    facts = ["gpu=NVIDIA A100-SXM4-80GB", "quant_method=fp8"]
    result = fp8triage.check(facts=facts, probe=False)
    ids = [r.id for r in result.risks]
    assert "preflight-pre-ada-fp8-dequantized" in ids
    args = ["check", "--no-probe", "--format", "json"] + [a for f in facts for a in ("--fact", f)]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code in (0, 3), out.output
    shown = {r["id"] for r in json.loads(out.output)["findings"] if r["status"] != "ruled-out"}
    assert shown == {r.id for r in result.risks if r.status.value != "ruled-out"}


def test_the_public_names_are_listed_and_exist():
    import fp8triage
    from fp8triage import api

    assert set(fp8triage.__all__) == {"__version__", "triage", "check"}
    for name in fp8triage.__all__:
        assert getattr(fp8triage, name) is not None
    for name in api.__all__:
        assert hasattr(api, name)
    doc = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for name in api.__all__:
        assert name in doc, f"docs/api.md does not name {name}"
