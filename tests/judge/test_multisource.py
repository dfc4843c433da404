"""Several logs in one scan: each log is one machine, judged on its own facts (issue 16, item 1)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.cli import cli
from fp8triage.drivers.batch import scan_paths

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


def _fleet_differs(tmp_path: Path, pods: dict[str, str]) -> tuple[dict, str]:
    d = tmp_path / "pods"
    d.mkdir(parents=True)
    for name, text in pods.items():
        (d / f"{name}.log").write_text(text)
    res = scan_paths([str(d)])
    (f,) = res.fleet["findings"]
    return {x["fact"]: x for x in f["differs"]}, run(["scan", str(d)]).output


def test_the_fleet_view_lists_only_facts_that_set_the_affected_sources_apart(tmp_path: Path):
    """issue 24, item 12: a fact whose values do not differ (known only on the affected pods, or with
    the affected pods' value on unaffected pods too) was listed as if it told them apart."""
    text = EXAMPLE.read_text()
    head = "".join(ln for ln in text.splitlines(keepends=True)[:18] if " ERROR " not in ln)
    same_gpu = head  # an unaffected pod on the same GPU and vLLM
    other = head.replace("0.24.0", "0.23.1").replace("NVIDIA GeForce RTX 5090", "NVIDIA H100").replace(
        "compute capability 12.0", "compute capability 9.0")
    silent = "INFO 08-11 09:14:02 starting\n"  # a pod whose log names no fact
    differs, out = _fleet_differs(tmp_path / "1", {"pod-a": text, "pod-b": text, "pod-c": same_gpu,
                                                   "pod-d": other, "pod-e": silent})
    # pod-c runs the affected GPU and version unaffected: neither sets the affected pods apart
    assert "gpu" not in differs and "vllm" not in differs, differs
    differs, out = _fleet_differs(tmp_path / "2", {"pod-a": text, "pod-b": text, "pod-e": silent})
    assert differs == {}  # nothing is known on the unaffected side: no difference shown
    assert "no fact read from the logs sets the affected sources apart" in out and "unaffected unknown" not in out
    # what does set them apart is still listed
    differs, out = _fleet_differs(tmp_path / "3", {"pod-a": text, "pod-b": text, "pod-d": other, "pod-e": silent})
    assert differs["gpu"]["affected"] == {"NVIDIA GeForce RTX 5090": 2}
    assert differs["gpu"]["unaffected"] == {"NVIDIA H100": 1, "unknown": 1}
    assert differs["vllm"]["affected"] == {"0.24.0": 2}
    assert "gpu: affected NVIDIA GeForce RTX 5090 (2); unaffected NVIDIA H100 (1), unknown (1)" in out
