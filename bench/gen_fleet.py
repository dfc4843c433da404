#!/usr/bin/env python3
"""Generate a fleet of vLLM pod logs, a few of them with a planted FP8 failure.

    python bench/gen_fleet.py --pods 200 --size 512K --affected 7 --out bench/out/fleet

writes ``OUT/pod-000/server.log`` ... (every fifth pod's log gzip-compressed, as log shippers
often store them) and ``OUT.manifest.json`` beside the folder. Each pod starts like a vLLM 2-GPU server
(version, model, the GPUs it found) and then serves traffic (``gen_log.Body``'s vLLM lines:
access logs, engine stats, warnings, the odd client-disconnect traceback). Healthy pods run
on H100s with vLLM 0.23.1; the affected ones moved to RTX 5090s with vLLM 0.24.0 and die in
DeepGEMM ("Unknown SF transformation"), the failure of ``examples/vllm-rtx5090-unknown-sf.log``.
File modification times are one minute apart, in pod order, so a fleet view has a timeline.

Deterministic: the same arguments give the same bytes.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from gen_log import Body, parse_size  # noqa: E402

REPO = HERE.parent
EXAMPLE = REPO / "examples" / "vllm-rtx5090-unknown-sf.log"
HEAD_LINES = 16  # the example's start-up lines; the failure follows them
T0 = 1_764_000_000  # 2025-11-24, the first pod's log time


def _header(affected: bool) -> str:
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)[:HEAD_LINES]
    text = "".join(lines)
    if not affected:
        text = (text.replace("NVIDIA GeForce RTX 5090, compute capability 12.0", "NVIDIA H100 80GB HBM3, compute capability 9.0")
                .replace("0.24.0", "0.23.1"))
    return text


def _failure() -> str:
    return "".join(EXAMPLE.read_text(encoding="utf-8").splitlines(keepends=True)[HEAD_LINES:])


def generate(out: Path, pods: int = 200, size: int = 512 * 1024, affected: int = 7, seed: int = 1) -> dict:
    rng = random.Random(seed)
    hit = sorted(rng.sample(range(pods), min(affected, pods)))
    out.mkdir(parents=True, exist_ok=True)
    body = Body(random.Random(seed + 1), 2)
    manifest = {"pods": pods, "size": size, "seed": seed, "affected": [], "files": []}
    for i in range(pods):
        sick = i in hit
        parts = [_header(sick)]
        n = len(parts[0])
        clock = 3600 * 9 + i * 60
        while n < size:
            block = body.block("vllm", clock)
            parts.append(block)
            n += len(block)
            clock += 17
        if sick:
            parts.append(_failure())
        data = "".join(parts).encode("utf-8")
        name = f"pod-{i:03d}/server.log" + (".gz" if i % 5 == 4 else "")
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
        os.utime(path, (T0 + 60 * i, T0 + 60 * i))
        manifest["files"].append({"name": name, "bytes": len(data), "affected": sick})
        if sick:
            manifest["affected"].append(f"pod-{i:03d}")
    Path(str(out).rstrip("/") + ".manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pods", type=int, default=200)
    ap.add_argument("--size", type=parse_size, default=parse_size("512K"), help="bytes per pod log (about)")
    ap.add_argument("--affected", type=int, default=7, help="pods with the planted failure")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, required=True)
    a = ap.parse_args(argv)
    m = generate(a.out, a.pods, a.size, a.affected, a.seed)
    total = sum(f["bytes"] for f in m["files"])
    print(f"{a.pods} pod logs, {total / 2**20:.1f} MiB uncompressed; affected: {', '.join(m['affected'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
