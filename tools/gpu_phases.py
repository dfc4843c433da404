#!/usr/bin/env python3
"""Where a repro worker's start-up time goes, phase by phase, on the GPU machine (docs/gpu-validation.md).

    python3 tools/gpu_phases.py [--alone 1] [--concurrent 4,8] > phases.json

Each measurement is a fresh interpreter (what the runner starts) that times, in order: importing torch,
creating the CUDA context, importing the transformers modules the remedy checks need, importing
``kernels``, loading the finegrained-fp8 hub kernel, and importing ``deep_gemm`` (each only where it is
installed). It runs alone (``--alone`` times; with ``--pycache DIR`` also with that bytecode folder, as
the runner uses on an image without bytecode), then N copies of the torch + CUDA context part at once
(``--concurrent``), to show what simultaneous worker starts cost each other; ``--concurrent-all N`` does
the same for the whole chain as the remedy lanes' workers run it (``alone_as_worker`` once alone: the
packages ``_hf_fp8.hide_unused`` hides, hidden). With ``--importtime FILE`` one more such chain runs
under ``python -X importtime`` (with the bytecode folder); its raw trace goes to FILE and the modules
that cost most go into the JSON (``importtime``). Prints one JSON object.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(os.path.dirname(HERE), "repro_kernels")

CHILD = r"""
import importlib, importlib.util, json, sys, time
t0 = time.perf_counter()
out = {}
def lap(name, fn):
    global t0
    try:
        fn()
        out[name] = round(time.perf_counter() - t0, 3)
    except Exception as e:
        out[name] = f"{type(e).__name__}: {str(e)[:200]}"
    t0 = time.perf_counter()
lap("import_torch_s", lambda: importlib.import_module("torch"))
import torch
def ctx():
    torch.zeros(1, device="cuda"); torch.cuda.synchronize()
lap("cuda_context_s", ctx)
if sys.argv[1] == "all":
    sys.path.insert(0, sys.argv[2])
    if importlib.util.find_spec("transformers") and len(sys.argv) > 3:  # as the remedy lanes' workers do
        import _hf_fp8
        out["hidden_from_transformers"] = _hf_fp8.hide_unused()
        t0 = time.perf_counter()
    if importlib.util.find_spec("transformers"):
        lap("import_transformers_fp8_s", lambda: importlib.import_module("transformers.integrations.finegrained_fp8"))
        lap("import_mixtral_s", lambda: importlib.import_module("transformers.models.mixtral.modeling_mixtral"))
    if importlib.util.find_spec("kernels"):
        lap("import_kernels_s", lambda: importlib.import_module("kernels"))
        def hub():
            import _hf_fp8
            ok, why = _hf_fp8.available()
            if not ok:
                raise RuntimeError(why)
        lap("load_hub_kernel_s", hub)
    if importlib.util.find_spec("deep_gemm"):
        lap("import_deep_gemm_s", lambda: importlib.import_module("deep_gemm"))
print(json.dumps(out))
"""


def child(what: str, pycache: str | None = None, importtime: bool = False, hide: bool = False) -> subprocess.Popen:
    env = dict(os.environ)
    if pycache:
        env["PYTHONPYCACHEPREFIX"] = pycache
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    flags = ["-X", "importtime"] if importtime else []
    extra = ["hide"] if hide else []  # hide what the remedy lanes' workers hide (_hf_fp8.hide_unused)
    return subprocess.Popen([sys.executable, *flags, "-c", CHILD, what, KERNELS, *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def import_costs(trace: str, top: int = 40) -> dict:
    """From a ``-X importtime`` trace: seconds of own time per top-level package, and the modules with
    the largest cumulative time (nesting depth kept, so that the chain that pulled each in is visible)."""
    own: dict[str, float] = {}
    rows = []
    for line in trace.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if not m:
            continue
        self_us, cum_us, depth, name = int(m[1]), int(m[2]), len(m[3]) // 2, m[4]
        own[name.split(".")[0]] = own.get(name.split(".")[0], 0.0) + self_us / 1e6
        rows.append((cum_us / 1e6, depth, name))
    rows.sort(reverse=True)
    return {"own_s_by_package": {k: round(v, 3) for k, v in sorted(own.items(), key=lambda kv: -kv[1])[:15]},
            "largest_cumulative": [[round(c, 3), d, n] for c, d, n in rows[:top]]}


def finish(p: subprocess.Popen, t: float) -> dict:
    out, err = p.communicate(timeout=300)
    try:
        res = json.loads(out.strip().splitlines()[-1])
    except (ValueError, IndexError):
        res = {"error": (err.strip().splitlines() or ["no output"])[-1][:300]}
    res["process_wall_s"] = round(time.perf_counter() - t, 3)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--concurrent", default="4,8", help="how many torch + CUDA-context starts at once")
    ap.add_argument("--alone", type=int, default=1, help="how many times to run every phase alone")
    ap.add_argument("--pycache", default=None,
                    help="also run the phases alone with this bytecode folder (PYTHONPYCACHEPREFIX), as the runner does")
    ap.add_argument("--concurrent-all", type=int, default=0, help="also run this many whole chains at once")
    ap.add_argument("--importtime", default=None, help="write a -X importtime trace of the whole chain here")
    args = ap.parse_args()
    doc: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count(), "alone": [], "concurrent": {}}
    t = time.perf_counter()
    doc["interpreter_start_s"] = finish(subprocess.Popen([sys.executable, "-c", "print('{}')"], stdout=subprocess.PIPE,
                                                         stderr=subprocess.PIPE, text=True), t)["process_wall_s"]
    for _ in range(args.alone):
        t = time.perf_counter()
        doc["alone"].append(finish(child("all"), t))
    if args.pycache:
        doc["alone_with_bytecode"] = []
        for _ in range(args.alone + 1):  # the first run may still be writing bytecode
            t = time.perf_counter()
            doc["alone_with_bytecode"].append(finish(child("all", args.pycache), t))
        doc["alone_as_worker"] = []  # with bytecode, and hiding what the remedy lanes' workers hide
        for _ in range(args.alone):
            t = time.perf_counter()
            doc["alone_as_worker"].append(finish(child("all", args.pycache, hide=True), t))
    for n in [int(x) for x in args.concurrent.split(",") if x.strip()]:
        t = time.perf_counter()
        procs = [child("torch") for _ in range(n)]
        runs = [finish(p, t) for p in procs]
        doc["concurrent"][str(n)] = {"wall_s": round(time.perf_counter() - t, 3), "runs": runs}
    if args.concurrent_all:
        t = time.perf_counter()
        procs = [child("all", args.pycache, hide=True) for _ in range(args.concurrent_all)]
        runs = [finish(p, t) for p in procs]
        doc["concurrent_all"] = {"n": args.concurrent_all, "wall_s": round(time.perf_counter() - t, 3), "runs": runs}
    if args.importtime:
        p = child("all", args.pycache, importtime=True, hide=True)
        out, err = p.communicate(timeout=300)
        with open(args.importtime, "w", encoding="utf-8") as f:
            f.write(err)
        doc["importtime"] = import_costs(err)
    print(json.dumps(doc, indent=1))


if __name__ == "__main__":
    main()
