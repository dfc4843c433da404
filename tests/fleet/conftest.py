"""Fixtures for the fleet tests: a real S3 API (moto's server, on a loopback port) and a local
Ray cluster of 2 worker CPUs, each started once per test session; a small generated fleet of
pod logs. Both services are this session's own processes and are stopped by it."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from .fleetkit import BUCKET, HEAD, ROOT, free_port, session_of, wait_port  # noqa: F401 - ROOT: bench on sys.path

FLEET = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """The fleet tests start an S3 server and a Ray cluster: `make check` leaves them to `make test`."""
    for item in items:
        if FLEET in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def fleet_dir(tmp_path_factory) -> Path:
    """12 pod logs (3 affected: pod-001, pod-002, pod-009; every fifth one gzip-compressed)."""
    from gen_fleet import generate

    out = tmp_path_factory.mktemp("fleet") / "pods"
    m = generate(out, pods=12, size=48 * 1024, affected=3, seed=1)
    assert m["affected"] == ["pod-001", "pod-002", "pod-009"]
    return out


@pytest.fixture(scope="session")
def s3(fleet_dir):
    """moto's S3 server on 127.0.0.1; the fleet uploaded under s3://fleet-logs/prod/. Yields
    the environment a client (this process, a CLI subprocess, a Ray worker) needs."""
    import logging

    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "us-east-1",
           "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}"}
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        import boto3

        client = boto3.client("s3")
        client.create_bucket(Bucket=BUCKET)
        for p in sorted(fleet_dir.rglob("*")):
            if p.is_file():
                client.upload_file(str(p), BUCKET, f"prod/{p.relative_to(fleet_dir).as_posix()}")
        yield env
    finally:
        server.stop()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="session")
def ray_address(s3):
    """A Ray head with 2 CPUs on 127.0.0.1 (its workers read the S3 server above); this test
    process is connected to it as a driver. Yields HOST:PORT."""
    ray_bin = Path(sys.executable).parent / "ray"
    port = free_port()
    tmp = tempfile.mkdtemp(prefix="fp8t-ray-", dir="/tmp")  # short: Ray's socket paths are limited
    env = {**os.environ, **s3, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    proc = subprocess.Popen(
        [str(ray_bin), "start", "--head", "--block", "--num-cpus", "2", "--port", str(port),
         "--node-ip-address", "127.0.0.1", "--include-dashboard", "false", "--disable-usage-stats",
         "--temp-dir", tmp],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    HEAD["pid"] = proc.pid  # every process of this cluster is in its session
    saved = os.environ.get("RAY_AUTH_MODE")
    os.environ["RAY_AUTH_MODE"] = "disabled"
    address = f"127.0.0.1:{port}"
    try:
        wait_port(port)
        import ray

        from fp8triage.drivers.rayscan import connect

        connect(address)
        yield address
        ray.shutdown()
    finally:
        # `ray start --block` takes over 10 s to stop its processes: give it 2, then end every
        # process of its session (this cluster's and nothing else)
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=2)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
        for pid in [int(p) for p in os.listdir("/proc") if p.isdigit()]:
            if session_of(pid) == proc.pid:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        proc.wait(timeout=10)
        shutil.rmtree(tmp, ignore_errors=True)
        if saved is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = saved
