"""Findings as a stream (--format jsonl, also with --follow) and `history import` across hosts
(issue 17)."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import jsonschema
from fleetkit import ROOT, cli
from referencing import Registry, Resource

SCHEMAS = ROOT / "fp8triage" / "schemas"
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"


def _validator(kind: str):
    reg = Registry()
    for p in SCHEMAS.glob("*.schema.json"):
        d = json.loads(p.read_text())
        reg = reg.with_resource(d["$id"], Resource.from_contents(d))
    schema = json.loads((SCHEMAS / f"{kind}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema, registry=reg)


def test_scan_jsonl_is_one_valid_record_per_line(fleet_dir):
    r = cli(["scan", str(fleet_dir), "--format", "jsonl", "--no-history"])
    assert r.returncode == 3, r.stderr
    lines = r.stdout.splitlines()
    recs = [json.loads(x) for x in lines]
    v = _validator("stream")
    for rec in recs:
        v.validate(rec)
    assert [x["event"] for x in recs].count("summary") == 1 and recs[-1]["event"] == "summary"
    found = [x for x in recs if x["event"] == "finding"]
    assert sorted(x["label"] for x in found) == ["pod-001", "pod-002", "pod-009"]
    assert {x["finding"]["id"] for x in found} == {"deepgemm-unknown-sf-transformation"}
    assert len({x["run_id"] for x in recs}) == 1
    s = recs[-1]
    assert s["complete"] is True and s["exit_code"] == 3 and s["sources"] == 12
    assert len(s["findings"]) == 3 and s["unknown_errors"] == len([x for x in recs if x["event"] == "unknown"])


def test_follow_jsonl_flushes_each_finding_as_it_happens(tmp_path):
    """A growing log: the finding's record arrives while the server is still writing, before
    any summary; the stream ends with a summary on SIGTERM."""
    log = tmp_path / "server.log"
    log.write_text("")
    proc = subprocess.Popen([sys.executable, "-m", "fp8triage", "scan", "--follow", str(log), "--format", "jsonl",
                             "--no-history"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        with open(log, "a") as fh:
            fh.write(EXAMPLE.read_text())
            fh.flush()
        first = json.loads(proc.stdout.readline())
        assert first["event"] == "finding"
        assert first["finding"]["id"] == "deepgemm-unknown-sf-transformation"
        assert first["source"] == str(log) and first["label"] == "server"
        _validator("stream").validate(first)
    finally:
        proc.send_signal(signal.SIGTERM)
        # the rest through the same file object: communicate() would skip what readline() buffered
        out = proc.stdout.read()
        err = proc.stderr.read()
        proc.wait(timeout=60)
    recs = [json.loads(x) for x in out.split("\n") if x]
    for rec in recs:
        _validator("stream").validate(rec)
    assert recs[-1]["event"] == "summary" and recs[-1]["interrupted"] is True
    assert recs[-1]["run_id"] == first["run_id"]
    assert proc.returncode == 3, err


def _result(tmp_path, name: str, host: str, log) -> str:
    r = cli(["scan", str(log), "--format", "json", "--no-history"])
    doc = json.loads(r.stdout)
    doc["meta"]["host"] = host  # as if scanned there
    p = tmp_path / name
    p.write_text(json.dumps(doc))
    return str(p)


def test_history_import_merges_hosts_once_per_run(tmp_path, fleet_dir):
    db = str(tmp_path / "fleet.db")
    a = _result(tmp_path, "a.json", "node-a", fleet_dir / "pod-001" / "server.log")
    b = _result(tmp_path, "b.json", "node-b", fleet_dir / "pod-002" / "server.log")
    c = tmp_path / "c.jsonl"
    c.write_text(cli(["scan", str(fleet_dir / "pod-003" / "server.log"), "--format", "jsonl", "--no-history"]).stdout)
    r = cli(["history", "import", "--db", db, a, b, str(c), "--format", "json"])
    assert r.returncode == 0, r.stderr
    rep = json.loads(r.stdout)
    assert [x["host"] for x in rep["imported"]] == ["node-a", "node-b", os.uname().nodename]
    again = cli(["history", "import", "--db", db, a, b, str(c)])
    assert again.returncode == 0
    assert again.stdout.strip().splitlines()[-1] == "0 imported, 3 already there, 0 failed"
    h = json.loads(cli(["history", "--db", db, "--format", "json"]).stdout)
    assert h["runs"]["total"] == 3
    (f,) = h["findings"]
    assert f["signature_id"] == "deepgemm-unknown-sf-transformation"
    assert (f["runs"], f["hosts"]) == (2, 2)


def test_history_import_names_bad_files_and_keeps_the_good_ones(tmp_path, fleet_dir):
    db = str(tmp_path / "h.db")
    good = _result(tmp_path, "good.json", "node-a", fleet_dir / "pod-001" / "server.log")
    notjson = tmp_path / "server.log"
    notjson.write_text("INFO hello\n")
    broken = tmp_path / "broken.json"
    doc = json.loads(open(good).read())
    doc["findings"][0].pop("status")
    doc["meta"]["run_id"] = "0" * 32
    broken.write_text(json.dumps(doc))
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(cli(["scan", str(EXAMPLE), "--format", "jsonl", "--no-history"]).stdout.splitlines(True)[:-1]))
    r = cli(["history", "import", "--db", db, good, str(notjson), str(broken), str(cut), str(tmp_path / "nope.json")])
    assert r.returncode == 1
    assert r.stdout.strip().splitlines()[-1] == "1 imported, 0 already there, 4 failed"
    err = r.stderr.strip().splitlines()
    assert err == [
        f"fp8triage: {notjson}: it is not a scan result (fp8triage scan --format json or jsonl)",
        f"fp8triage: {broken}: not a valid scan result at findings/0 ('status' is a required property)",
        f"fp8triage: {cut}: the stream has no summary record (it was cut before its end); nothing was imported",
        f"fp8triage: {tmp_path / 'nope.json'}: no such file",
    ]
    assert json.loads(cli(["history", "--db", db, "--format", "json"]).stdout)["runs"]["total"] == 1


def test_time_of_an_imported_run_is_its_own(tmp_path, fleet_dir):
    db = str(tmp_path / "h.db")
    old = tmp_path / "old.json"
    doc = json.loads(_result_text(fleet_dir))
    doc["meta"]["time"] = "2026-01-05T10:00:00+00:00"
    old.write_text(json.dumps(doc))
    assert cli(["history", "import", "--db", db, str(old)]).returncode == 0
    h = json.loads(cli(["history", "--db", db, "--format", "json", "--since", "2026-06-01"]).stdout)
    assert h["findings"] == []  # the run is from January
    h = json.loads(cli(["history", "--db", db, "--format", "json"]).stdout)
    assert h["findings"][0]["first_seen"] == "2026-01-05T10:00:00+00:00"


def _result_text(fleet_dir) -> str:
    return cli(["scan", str(fleet_dir / "pod-009" / "server.log.gz"), "--format", "json", "--no-history"]).stdout


def test_fleet_view_in_markdown_and_html(fleet_dir, tmp_path):
    md = cli(["scan", str(fleet_dir), "--format", "markdown", "--no-history"]).stdout
    assert "## Fleet: 3 of 12 sources (pods/hosts) affected" in md
    assert "| `gpu` | `NVIDIA GeForce RTX 5090 (3)` | `NVIDIA H100 (9)` |" in md
    out = tmp_path / "r.html"
    r = cli(["scan", str(fleet_dir), "--format", "html", "-o", str(out), "--no-history"])
    assert r.returncode == 3
    html = out.read_text()
    assert '<section id="fleet"' in html and "3 of 12 sources" in html
    assert html.count('<td class="mono">pod-0') == 3  # the affected pods' table
    assert "<svg" in html[html.index('<section id="fleet"'):html.index('<section id="unknown"')]


def test_one_machine_has_no_fleet_view(fleet_dir):
    r = cli(["scan", str(fleet_dir), "--one-machine", "--format", "json", "--no-history"])
    assert "fleet" not in json.loads(r.stdout)


def test_fleet_json_matches_the_scan_schema(fleet_dir):
    r = cli(["scan", str(fleet_dir), "--format", "json", "--no-history"])
    doc = json.loads(r.stdout)
    _validator("scan").validate(doc)
    fl = doc["fleet"]
    assert [s["label"] for s in fl["sources"] if s["findings"]] == ["pod-001", "pod-002", "pod-009"]
    # the generator dates pod N's log N minutes after pod 0's: the timeline follows the pods
    (f,) = fl["findings"]
    assert [p["affected"] for p in f["timeline"]] == [1, 2, 3]
    assert f["first_time"] == f["timeline"][0]["time"] < f["last_time"] == f["timeline"][-1]["time"]
