"""Scans on a Ray cluster (issue 17): a local cluster of 2 worker CPUs, started once per session.
The result must equal the local scan's on the same inputs; a lost worker, an unreachable
cluster and a missing Ray each end with one sentence and no result."""
from __future__ import annotations

import json
import os
import signal
import threading
import time
from pathlib import Path

import pytest
from .fleetkit import BUCKET, HEAD, ROOT, cli, free_port, session_of

from fp8triage.catalogue.loader import load_catalogue
from fp8triage.drivers.rayscan import FleetError, scan_paths_ray
from fp8triage.drivers.batch import scan_paths
from fp8triage.render.jsonout import result_dict

pytestmark = pytest.mark.slow


def _comparable(result) -> dict:
    doc = result_dict(result)
    doc.pop("meta")  # run id, time, elapsed, executor
    return doc


def test_ray_scan_of_s3_equals_the_local_scan(ray_address, s3):
    url = f"s3://{BUCKET}/prod/"
    on_ray = scan_paths_ray([url], address=ray_address, catalogue=load_catalogue())
    here = scan_paths([url])
    assert _comparable(on_ray) == _comparable(here)
    ex = on_ray.meta["executor"]
    assert ex["kind"] == "ray" and ex["tasks"] == 12
    assert sum(w["tasks"] for w in ex["workers"].values()) == 12
    assert all(w["peak_rss"] > 0 for w in ex["workers"].values())
    assert {f.source.rsplit("/", 2)[-2] for f in on_ray.findings} == {"pod-001", "pod-002", "pod-009"}


def test_byte_ranges_on_ray_equal_the_sequential_scan(ray_address, tmp_path):
    """One big file cut into many byte ranges (tasks), with failures planted across the cuts;
    plus a second file and a gzip one: the merged result is the sequential scan's."""
    import gzip

    from gen_log import generate

    big = tmp_path / "big.log"
    generate(big, 3 * 1024 * 1024, seed=7, style="mixed", plants=12)
    small = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"
    gz = tmp_path / "other.log.gz"
    gz.write_bytes(gzip.compress(small.read_bytes()))
    paths = [str(big), str(small), str(gz)]
    cat = load_catalogue()
    on_ray = scan_paths_ray(paths, address=ray_address, catalogue=cat, split=256 * 1024, window=3)
    here = scan_paths(paths, catalogue=cat, jobs=1)
    assert on_ray.meta["executor"]["tasks"] >= 12  # 3 MiB in 256 KiB ranges, plus two files
    assert _comparable(on_ray) == _comparable(here)
    assert on_ray.findings  # the planted failures were found


def test_cli_ray_equals_local_and_accepts_the_address_or_a_path_after_ray(ray_address, s3):
    url = f"s3://{BUCKET}/prod/"
    env = {**s3, "RAY_AUTH_MODE": "disabled"}
    r1 = cli(["scan", "--ray", ray_address, url, "--format", "json", "--no-history"], env=env)
    assert r1.returncode == 3, r1.stderr
    r2 = cli(["scan", url, "--format", "json", "--no-history"], env=env)
    a, b = json.loads(r1.stdout), json.loads(r2.stdout)
    assert a["meta"]["executor"]["address"] == ray_address
    a.pop("meta"), b.pop("meta")
    assert a == b


def _kill_a_running_task(stop: threading.Event, killed: list) -> None:
    """SIGKILL the first worker of this session's Ray cluster found running a scan task (its title
    names the task; its session is the cluster's: never another cluster's worker on this machine)."""
    while not stop.is_set():
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                title = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if title.startswith(b"ray::run_task") and session_of(int(pid)) == HEAD["pid"]:
                os.kill(int(pid), signal.SIGKILL)
                killed.append(int(pid))
                return
        time.sleep(0.02)


def test_a_worker_that_dies_mid_task_fails_the_scan(ray_address, tmp_path):
    big = tmp_path / "big.log"
    # every line an error record (an event to assemble and group each): a range takes seconds, so
    # a task is still running when the killer looks (a chatty INFO log is scanned too fast for that)
    block = "".join(f"(VllmWorker rank={i % 8} pid={100 + i % 8}) ERROR 08-11 09:14:{i % 60:02d} [x.py:{i}] "
                    f"request {i} failed; total_num_cumulative_preemption={i}\n" for i in range(2000))
    big.write_bytes(block.encode() * (24 * 1024 * 1024 // len(block)))
    stop, killed = threading.Event(), []
    t = threading.Thread(target=_kill_a_running_task, args=(stop, killed), daemon=True)
    t.start()
    try:
        with pytest.raises(FleetError) as e:
            scan_paths_ray([str(big)], address=ray_address, catalogue=load_catalogue(), split=4 * 1024 * 1024)
    finally:
        stop.set()
        t.join()
    assert killed, "no Ray task was seen running"
    msg = str(e.value)
    assert msg.startswith("the Ray worker scanning bytes ") and " of " + str(big) in msg
    assert "died" in msg and msg.endswith("the scan is incomplete and no result was produced")
    # the cluster goes on: the next scan works
    again = scan_paths_ray([str(ROOT / "examples" / "vllm-rtx5090-unknown-sf.log")], address=ray_address,
                           catalogue=load_catalogue())
    assert again.findings[0].id == "deepgemm-unknown-sf-transformation"


def test_unreachable_cluster_is_one_sentence():
    dead = f"127.0.0.1:{free_port()}"
    r = cli(["scan", "--ray", dead, str(ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"), "--no-history"],
            env={"RAY_AUTH_MODE": "disabled"}, timeout=300)
    assert r.returncode == 1, r.stderr
    assert r.stdout == ""
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith(f"Error: cannot connect to the Ray cluster at {dead}")
    assert "Traceback" not in r.stderr


def test_without_ray_installed_the_cli_says_so():
    code = ("import sys; sys.modules['ray'] = None; sys.argv = ['fp8triage'] + sys.argv[1:]; "
            "from fp8triage.cli import main; main()")
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-c", code, "scan", "--ray", str(ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"),
                        "--no-history"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.strip() == "Error: --ray needs Ray, which is not installed (pip install 'fp8triage[fleet]')"


def test_ray_without_address_takes_the_next_argument_as_a_log(tmp_path):
    """`scan --ray LOG`: the option's optional value is a log, not an address; Ray starts here."""
    r = cli(["scan", "--ray", str(ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"), "--format", "json",
             "--no-history", "-j", "2"], env={"RAY_AUTH_MODE": "disabled"}, timeout=300)
    assert r.returncode == 3, r.stderr
    doc = json.loads(r.stdout)
    assert doc["meta"]["executor"]["address"] == "local" and doc["meta"]["executor"]["tasks"] == 1
    assert doc["findings"][0]["id"] == "deepgemm-unknown-sf-transformation"
