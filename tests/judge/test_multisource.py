"""Several logs in one scan: each log is one machine, judged on its own facts (issue 16, item 1)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.cli import cli
from fp8triage.pipeline import scan_paths

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"
GUARD = ROOT / "signatures" / "samples" / "deepgemm-fp32-sf-sm100" / "match" / "transformers-rtx5090-experts.log"
SIG = "deepgemm-fp32-sf-sm100"


def run(args):
    return CliRunner().invoke(cli, [*args, "--no-history"], catch_exceptions=False)


@pytest.fixture
def two_machines(tmp_path: Path) -> Path:
    """a.log: an RTX 5090 (capability 12.0); b.log: an H200 (9.0); the same transformers guard error."""
    d = tmp_path / "logs"
    d.mkdir()
    guard = GUARD.read_text()
    (d / "a.log").write_text("INFO: GPU 0: NVIDIA GeForce RTX 5090 (capability 12.0)\n" + guard)
    (d / "b.log").write_text("INFO: GPU 0: NVIDIA H200 (capability 9.0)\n" + guard)
    return d


def _by_source(result) -> dict[str, str]:
    return {f.source: f.status.value for f in result.findings if f.id == SIG}


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_log_gets_the_verdict_it_gets_alone(two_machines: Path, jobs: int):
    a, b = str(two_machines / "a.log"), str(two_machines / "b.log")
    alone_a = _by_source(scan_paths([a]))
    alone_b = _by_source(scan_paths([b]))
    assert alone_a == {a: "likely"} and alone_b == {b: "possible"}
    together = _by_source(scan_paths([str(two_machines)], jobs=jobs))
    assert together == {a: "likely", b: "possible"}


def test_a_log_is_judged_only_by_its_own_facts(two_machines: Path):
    b = str(two_machines / "b.log")
    res = scan_paths([str(two_machines)])
    fb = next(f for f in res.findings if f.source == b)
    cap = next(c for c in fb.conditions if c.fact == "capability")
    assert cap.value == "9.0" and "b.log:1" in cap.source
    for f in res.findings:
        for c in f.conditions:
            assert c.source is None or f.source in c.source, (f.source, c)


def test_cli_facts_apply_to_every_log(two_machines: Path):
    from fp8triage.facts.vocabulary import parse_cli_fact

    res = scan_paths([str(two_machines)], cli_facts=[parse_cli_fact("capability=9.0")])
    assert set(_by_source(res).values()) == {"possible"}


def test_one_machine_pools_the_facts(two_machines: Path):
    res = scan_paths([str(two_machines)], one_machine=True)
    found = [f for f in res.findings if f.id == SIG]
    assert len(found) == 1 and found[0].source is None and found[0].count == 2
    assert {e.source for e in found[0].evidence} == {str(two_machines / "a.log"), str(two_machines / "b.log")}
    assert found[0].status.value == "likely"  # the first log's capability 12.0 wins the pool


def test_two_copies_of_one_log_count_and_show_evidence_per_source(tmp_path: Path):
    d = tmp_path / "pods"
    d.mkdir()
    shutil.copy(EXAMPLE, d / "pod-0.log")
    shutil.copy(EXAMPLE, d / "pod-1.log")
    alone = scan_paths([str(EXAMPLE)]).findings[0]
    res = scan_paths([str(d)])
    tops = [f for f in res.findings if f.id == alone.id]
    assert sorted(f.source for f in tops) == [str(d / "pod-0.log"), str(d / "pod-1.log")]
    for f in tops:
        assert f.count == alone.count and f.workers == alone.workers
        assert f.evidence and {e.source for e in f.evidence} == {f.source}


def test_output_names_the_source_of_each_finding(two_machines: Path):
    r = run(["scan", str(two_machines)])
    assert r.exit_code == 3
    a, b = str(two_machines / "a.log"), str(two_machines / "b.log")
    assert f"  in {a}" in r.output and f"  in {b}" in r.output
    r = run(["scan", str(two_machines), "--format", "json"])
    doc = json.loads(r.output)
    assert {(f["source"], f["status"]) for f in doc["findings"] if f["id"] == SIG} == {(a, "likely"), (b, "possible")}


def test_one_log_output_does_not_add_a_source_line():
    r = run(["scan", str(EXAMPLE)])
    assert "\n  in " not in r.output
