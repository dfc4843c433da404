"""The JSON output contract (docs/json-contract.md): real output of scan, check, repro, remedy,
history and follow validated against the schema files in fp8triage/schemas/."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from referencing import Registry, Resource

from fp8triage.cli import cli

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = ROOT / "fp8triage" / "schemas"
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"
CONTRACT = ("scan", "check", "repro", "remedy", "follow")


def _registry() -> Registry:
    reg = Registry()
    for p in SCHEMAS.glob("*.schema.json"):
        doc = json.loads(p.read_text())
        reg = reg.with_resource(doc["$id"], Resource.from_contents(doc))
    return reg


def validate(kind: str, doc) -> None:
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema, registry=_registry()).validate(doc)


def run(args, **kw):
    return CliRunner().invoke(cli, args, catch_exceptions=False, **kw)


@pytest.mark.parametrize("kind", CONTRACT)
def test_schema_files_are_valid_and_versioned(kind):
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    props = schema["properties"]
    assert "schema_version" in props and props["kind"] == {"const": kind}
    assert kind in (ROOT / "docs" / "json-contract.md").read_text()


def test_scan_output_matches_schema(tmp_path):
    r = run(["scan", str(EXAMPLE), "--format", "json", "--no-history"])
    assert r.exit_code == 3
    doc = json.loads(r.output)
    validate("scan", doc)
    assert doc["findings"][0]["id"] == "deepgemm-unknown-sf-transformation"


def test_check_output_matches_schema():
    r = run(["check", "--no-probe", "--fact", "gpu=NVIDIA GeForce RTX 5090", "--fact", "stack=vllm",
             "--fact", "vllm=0.24.0", "--format", "json"])
    assert r.exit_code in (0, 3), r.output
    doc = json.loads(r.output)
    validate("check", doc)
    assert doc["findings"], "an SM120 vLLM stack has preflight risks"


def test_check_output_with_nothing_known_matches_schema():
    r = run(["check", "--no-probe", "--format", "json"])
    validate("check", json.loads(r.output))


def test_repro_skipped_result_matches_schema():
    from fp8triage.confirm import repro
    from fp8triage.render.repro import render_json

    res = repro._base("deepgemm-sf-layout", ["python", "k.py"], "cpu") | {"verdict": "skipped", "reason": "no torch"}
    doc = json.loads(render_json([res], device="cpu", wall_s=0.1))
    validate("repro", doc)


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="the repro kernels need torch")
def test_repro_output_matches_schema():
    r = run(["repro", "deepgemm-sf-layout", "--device", "cpu", "--format", "json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    validate("repro", doc)
    assert doc["results"][0]["verdict"] in ("reproduced", "not-reproduced", "not-executed", "not-applicable", "skipped")


def test_bad_repro_doc_is_rejected():
    from fp8triage.confirm import repro
    from fp8triage.render.repro import render_json

    res = repro._base("x", [], "cpu") | {"verdict": "maybe"}
    with pytest.raises(jsonschema.ValidationError):
        validate("repro", json.loads(render_json([res])))


@pytest.mark.parametrize("facts", [[], ["--fact", "stack=vllm"], ["--fact", "stack=sglang", "--fact", "capability=12.0"]])
def test_remedy_output_matches_schema(facts):
    r = run(["remedy", "deepgemm-unknown-sf-transformation", "--format", "json", *facts])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    validate("remedy", doc)
    assert [x["rank"] for x in doc["remedies"]] == list(range(1, len(doc["remedies"]) + 1))


def test_remedy_schema_rejects_missing_fields():
    r = run(["remedy", "deepgemm-unknown-sf-transformation", "--format", "json"])
    doc = json.loads(r.output)
    del doc["remedies"][0]["shell"]
    with pytest.raises(jsonschema.ValidationError):
        validate("remedy", doc)


def test_follow_json_lines_match_schema():
    r = run(["scan", "--follow", "-", "--format", "json", "--no-history"], input=EXAMPLE.read_bytes())
    assert r.exit_code == 3
    lines = [json.loads(ln) for ln in r.output.splitlines() if ln.strip()]
    for doc in lines:
        validate("follow", doc)
    assert lines[0]["event"] == "finding" and lines[-1]["event"] == "summary"


def test_history_json_is_versioned(tmp_path):
    db = tmp_path / "h.db"
    run(["scan", str(EXAMPLE), "--db", str(db)])
    doc = json.loads(run(["history", "--db", str(db), "--format", "json"]).output)
    assert doc["schema_version"].startswith("1.") and doc["kind"] == "history"



@pytest.mark.parametrize("args,kind", [
    (["scan", str(EXAMPLE), "--format", "json", "--no-history"], "scan"),
    (["check", "--format", "json", "--fact", "capability=12.0"], "check"),
    (["remedy", "deepgemm-unknown-sf-transformation", "--format", "json", "--fact", "stack=vllm"], "remedy"),
    (["history", "--format", "json"], "history"),
    (["env", "--format", "json"], "env"),
    (["facts", "--format", "json"], "facts"),
])
def test_every_json_document_opens_with_schema_version_and_kind(args, kind, tmp_path):
    """One envelope for all commands (issue 16, item 14): {"schema_version": "MAJOR.MINOR", "kind": COMMAND, ...}."""
    if kind == "history":
        run(["scan", str(EXAMPLE), "--db", str(tmp_path / "h.db")])
        args = args + ["--db", str(tmp_path / "h.db")]
    r = run(args)
    doc = json.loads(r.output)
    assert list(doc)[:2] == ["schema_version", "kind"], list(doc)[:3]
    assert doc["kind"] == kind and re.fullmatch(r"\d+\.\d+", doc["schema_version"])
    assert "schema" not in doc


def test_nothing_read_exit_5_matches_every_schema(tmp_path):
    """Every input skipped (here an empty log): exit 5 in the scan, follow and stream documents."""
    empty = tmp_path / "empty.log"
    empty.write_text("")
    r = run(["scan", str(empty), "--format", "json", "--no-history"])
    assert r.exit_code == 5
    doc = json.loads(r.output)
    validate("scan", doc)
    assert doc["exit_code"] == 5 and doc["inputs"][0]["format"] == "empty"
    r = run(["scan", "--follow", "-", "--format", "json", "--no-history"], input=b"")
    assert r.exit_code == 5
    summary = [json.loads(ln) for ln in r.output.splitlines() if ln.startswith("{")][-1]
    validate("follow", summary)
    assert summary["exit_code"] == 5
    r = run(["scan", str(empty), "--format", "jsonl", "--no-history"])
    assert r.exit_code == 5
    records = [json.loads(ln) for ln in r.output.splitlines() if ln.strip()]
    for rec in records:
        validate("stream", rec)
    assert records[-1]["exit_code"] == 5
