"""Logs in object storage (issue 17): a real S3 API served by moto on a loopback port."""
from __future__ import annotations

import json
import time

from .fleetkit import BUCKET, cli, free_port

from fp8triage.drivers.batch import scan_paths


def _strip(doc: dict) -> dict:
    """A scan's JSON without what differs between two runs or two locations of the same logs."""
    doc = json.loads(json.dumps(doc))
    doc.pop("meta")
    return doc


def _relabel(text: str, prefix: str) -> str:
    return text.replace(prefix, "<fleet>/")


def test_s3_prefix_scans_like_the_same_files_on_disk(s3, fleet_dir):
    from fp8triage.render.jsonout import result_dict

    remote = scan_paths([f"s3://{BUCKET}/prod/"])
    local = scan_paths([str(fleet_dir)])
    assert [i.source for i in remote.inputs][:2] == [f"s3://{BUCKET}/prod/pod-000/server.log",
                                                     f"s3://{BUCKET}/prod/pod-001/server.log"]
    assert len(remote.inputs) == 12
    # gzip objects are detected by their bytes and streamed like the others
    assert remote.inputs[4].format == "gzip+text" and remote.inputs[4].source.endswith("pod-004/server.log.gz")
    a = _relabel(json.dumps(_strip(result_dict(remote))), f"s3://{BUCKET}/prod/")
    b = _relabel(json.dumps(_strip(result_dict(local))), str(fleet_dir) + "/")
    a, b = json.loads(a), json.loads(b)
    # the times differ (upload time vs file time); everything else is the same
    for d in (a, b):
        for s in d["fleet"]["sources"]:
            s.pop("time")
        for f in d["fleet"]["findings"]:
            f.pop("first_time"), f.pop("last_time"), f.pop("timeline")
            for s in f["sources"]:
                s.pop("time")
    assert a == b
    ids = {(f.id, f.source) for f in remote.findings}
    assert ids == {("deepgemm-unknown-sf-transformation", f"s3://{BUCKET}/prod/pod-{n}/server.log")
                   for n in ("001", "002")} | {("deepgemm-unknown-sf-transformation",
                                                f"s3://{BUCKET}/prod/pod-009/server.log.gz")}


def test_fleet_view_names_pods_and_the_facts_that_differ(s3):
    r = scan_paths([f"s3://{BUCKET}/prod/"])
    fl = r.fleet
    assert [s["label"] for s in fl["sources"]] == [f"pod-{i:03d}" for i in range(12)]
    (f,) = fl["findings"]
    assert f["id"] == "deepgemm-unknown-sf-transformation"
    assert (f["affected"], f["total"]) == (3, 12)
    assert [s["label"] for s in sorted(f["sources"], key=lambda s: s["label"])] == ["pod-001", "pod-002", "pod-009"]
    assert all(s["count"] == 2 for s in f["sources"])  # two tensor-parallel workers each
    differs = {d["fact"]: d for d in f["differs"]}
    assert differs["gpu"]["affected"] == {"NVIDIA GeForce RTX 5090": 3}
    assert differs["gpu"]["unaffected"] == {"NVIDIA H100": 9}
    assert differs["vllm"]["affected"] == {"0.24.0": 3} and differs["vllm"]["unaffected"] == {"0.23.1": 9}
    assert f["first_time"] and f["first_time"] <= f["last_time"]


def test_single_object_and_cli_text_output(s3):
    r = cli(["scan", f"s3://{BUCKET}/prod/pod-002/server.log", "--no-history", "--no-color"], env=s3)
    assert r.returncode == 3, r.stderr
    assert "deepgemm-unknown-sf-transformation" in r.stdout
    assert f"s3://{BUCKET}/prod/pod-002/server.log" in r.stdout
    assert "FLEET" not in r.stdout  # one source: no fleet view


def test_missing_prefix_is_one_sentence(s3):
    r = cli(["scan", f"s3://{BUCKET}/staging/", "--no-history"], env=s3)
    assert r.returncode == 1
    assert r.stdout == ""
    assert r.stderr.strip() == f"Error: s3://{BUCKET}/staging/: no such object or prefix"


def test_missing_bucket_is_one_sentence(s3):
    r = cli(["scan", "s3://no-such-bucket-here/prod/", "--no-history"], env=s3)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip() == "Error: s3://no-such-bucket-here/prod/: the bucket no-such-bucket-here does not exist"


def test_unreachable_endpoint_fails_fast_with_one_sentence(s3):
    dead = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    t = time.monotonic()
    r = cli(["scan", f"s3://{BUCKET}/prod/", "--no-history"], env={**s3, "AWS_ENDPOINT_URL": dead})
    took = time.monotonic() - t
    assert r.returncode == 1 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith(f"Error: s3://{BUCKET}/prod/: cannot be listed: the storage endpoint cannot be reached")
    assert "Traceback" not in r.stderr
    assert took < 60


def test_unknown_scheme_is_one_sentence():
    r = cli(["scan", "nosuchscheme://bucket/x", "--no-history"])
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("Error: nosuchscheme://bucket/x: unknown storage scheme nosuchscheme://")


def test_file_url_and_no_log_objects(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "image.png").write_bytes(b"\x89PNG")
    r = cli(["scan", f"file://{tmp_path}/a/", "--no-history"])
    assert r.returncode == 1
    assert "the prefix holds no log objects" in r.stderr
    (tmp_path / "a" / "server.log").write_text("INFO fine\nRuntimeError: boom\n")
    r = cli(["scan", f"file://{tmp_path}/a/", "--no-history", "--format", "json"])
    assert r.returncode == 4, r.stderr
    doc = json.loads(r.stdout)
    assert [i["source"] for i in doc["inputs"]] == [f"file://{tmp_path}/a/server.log"]
    assert doc["unknown_errors"][0]["headline"].startswith("RuntimeError")


def test_jobs_scan_objects_in_worker_processes_with_the_same_result(s3, monkeypatch):
    from fp8triage.render.jsonout import result_dict
    from fp8triage.drivers import parallel
    from fp8triage.scan.ingest import expand_inputs

    monkeypatch.setattr(parallel, "PARALLEL_MIN", 0)  # the fleet is small: scan it in 2 processes anyway
    url = f"s3://{BUCKET}/prod/"
    assert [t[0] for t in parallel.plan(expand_inputs([url]), 2)] \
        == ["file"] * 12
    one = result_dict(scan_paths([url], jobs=1))
    two = result_dict(scan_paths([url], jobs=2))
    one.pop("meta"), two.pop("meta")
    assert one == two
