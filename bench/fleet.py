#!/usr/bin/env python3
"""Fleet bench: a fleet of generated pod logs in a local S3 (moto's server), scanned by one
local process and by a local Ray cluster of 2 worker CPUs; grep -E over the same logs on
disk as the floor (it reads the bytes and finds the failure line, nothing more).

    python bench/fleet.py --pods 200 --size 1M --out bench/out/fleet-bench.json

Needs the fleet and test extras (ray, s3fs, moto[server]). Every scan is a separate process
(the CLI, as a user runs it); its peak memory is the process's maximum resident set size. On
Ray, each worker reports its own peak (``meta.executor.workers``). Wall times are medians of
``--repeat`` runs. The Ray figure includes connecting the driver to the running cluster,
not starting the cluster.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gen_fleet import generate  # noqa: E402
from gen_log import parse_size  # noqa: E402

BIN = Path(sys.executable).parent
BUCKET = "fleet-bench"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(port: int) -> None:
    for _ in range(600):
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"nothing listens on {port}")


def _peak_child(cmd: list[str], env: dict) -> tuple[float, int, subprocess.CompletedProcess]:
    """Run under a tiny wrapper that reports the child's own peak RSS (RUSAGE_CHILDREN is a
    maximum over every child this process ever had)."""
    wrap = ("import resource,subprocess,sys,time,json;t=time.perf_counter();"
            "p=subprocess.run(sys.argv[1:],capture_output=True,text=True);w=time.perf_counter()-t;"
            "sys.stderr.write(p.stderr);sys.stdout.write(p.stdout);"
            "open(__import__('os').environ['BENCH_STATS'],'w').write(json.dumps({'wall':w,'rc':p.returncode,"
            "'rss':resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss*1024}))")
    stats = tempfile.mktemp(prefix="fleet-bench-")
    p = subprocess.run([sys.executable, "-c", wrap, *cmd], env={**env, "BENCH_STATS": stats}, capture_output=True, text=True)
    s = json.loads(Path(stats).read_text())
    os.unlink(stats)
    if s["rc"] not in (0, 3, 4):
        raise SystemExit(f"{' '.join(cmd)} failed ({s['rc']}): {p.stderr[-2000:]}")
    return s["wall"], s["rss"], p


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pods", type=int, default=200)
    ap.add_argument("--size", type=parse_size, default=parse_size("1M"))
    ap.add_argument("--affected", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", type=Path, default=HERE / "out" / "fleet-bench.json")
    a = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="fleet-bench-"))
    procs: list[subprocess.Popen] = []
    try:
        pods = work / "pods"
        t = time.perf_counter()
        m = generate(pods, a.pods, a.size, a.affected)
        total = sum(f["bytes"] for f in m["files"])
        stored = sum(p.stat().st_size for p in pods.rglob("*") if p.is_file())
        print(f"generated {a.pods} pod logs, {total / 2**20:.0f} MiB ({stored / 2**20:.0f} MiB stored) "
              f"in {time.perf_counter() - t:.1f} s; affected {len(m['affected'])}", flush=True)

        s3port = _port()
        env = {**os.environ, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench",
               "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": f"http://127.0.0.1:{s3port}",
               "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
        procs.append(subprocess.Popen([str(BIN / "moto_server"), "-H", "127.0.0.1", "-p", str(s3port)], env=env,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        _wait(s3port)
        import boto3

        c = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], aws_access_key_id="bench",
                         aws_secret_access_key="bench", region_name="us-east-1")
        c.create_bucket(Bucket=BUCKET)
        for p in sorted(pods.rglob("*")):
            if p.is_file():
                c.upload_file(str(p), BUCKET, f"prod/{p.relative_to(pods).as_posix()}")
        url = f"s3://{BUCKET}/prod/"

        rayport = _port()
        tmp = tempfile.mkdtemp(prefix="fp8t-ray-", dir="/tmp")
        procs.append(subprocess.Popen(
            [str(BIN / "ray"), "start", "--head", "--block", "--num-cpus", "2", "--port", str(rayport),
             "--node-ip-address", "127.0.0.1", "--include-dashboard", "false", "--disable-usage-stats", "--temp-dir", tmp],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        _wait(rayport)
        time.sleep(2)

        scan = [str(BIN / "fp8triage"), "scan", url, "--format", "json", "--no-history", "-j", "1"]
        rows = {}
        results = {}
        for name, cmd in (("local (1 process)", scan),
                          ("ray (2 workers)", scan + ["--ray", f"127.0.0.1:{rayport}"])):
            runs = []
            for _ in range(a.repeat):
                wall, rss, p = _peak_child(cmd, env)
                runs.append((wall, rss))
                results[name] = json.loads(p.stdout)
            wall = statistics.median(w for w, _ in runs)
            rows[name] = {"wall_s": round(wall, 2), "MiB_per_s": round(total / 2**20 / wall, 1),
                          "driver_peak_rss_MiB": round(max(r for _, r in runs) / 2**20)}
            ex = results[name]["meta"].get("executor")
            if ex:
                rows[name]["workers"] = {w: {"tasks": v["tasks"], "busy_s": v["seconds"],
                                             "peak_rss_MiB": round(v["peak_rss"] / 2**20)}
                                         for w, v in ex["workers"].items()}
            print(name, json.dumps(rows[name]), flush=True)
        a_doc, b_doc = (dict(results[k]) for k in rows)
        a_doc.pop("meta"), b_doc.pop("meta")
        same = a_doc == b_doc
        fleet = results["local (1 process)"].get("fleet") or {"findings": []}
        found = sorted(s["label"] for f in fleet["findings"] for s in f["sources"])

        # the floor: grep -E for the failure line over the same logs on local disk
        plain = [str(p) for p in sorted(pods.rglob("*.log"))]
        gz = [str(p) for p in sorted(pods.rglob("*.gz"))]
        walls = []
        for _ in range(a.repeat):
            t = time.perf_counter()
            subprocess.run(["grep", "-E", "-l", "Unknown SF transformation", *plain], capture_output=True)
            subprocess.run(["zgrep", "-E", "-l", "Unknown SF transformation", *gz], capture_output=True)
            walls.append(time.perf_counter() - t)
        rows["grep -E / zgrep on local disk (floor)"] = {"wall_s": round(statistics.median(walls), 2),
                                                         "MiB_per_s": round(total / 2**20 / statistics.median(walls), 1)}
        out = {"machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.python_version()}",
               "pods": a.pods, "bytes": total, "stored_bytes": stored, "affected": m["affected"],
               "found_on": found, "ray_equals_local": same, "rows": rows}
        a.out.parent.mkdir(parents=True, exist_ok=True)
        a.out.write_text(json.dumps(out, indent=1) + "\n")
        print(json.dumps(out, indent=1))
        return 0 if same and found == m["affected"] else 1
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
