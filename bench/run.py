#!/usr/bin/env python3
"""Scan speed benchmark: fp8triage scan against grep -E and ripgrep, per log mix (issue 13).

    python bench/run.py --size 1G                    # every mix of bench/mixes.py at 1 GB
    python bench/run.py --size 1G --mixes startup,k8s --runs 5
    python bench/run.py --file server.log            # any log
    python bench/run.py --startup-only               # python -c pass, --help, a 13- and a 100-line scan (and the
                                                     # 13-line one with no caches), median of 10 (--startup-runs)
    python bench/run.py --size 50M --tools fp8triage-follow,grep-follow,grep   # the stream path

Every tool runs as a subprocess, as a user would run it, several times, interleaved (a
background load hits all tools alike), with the file in the page cache (read once first).
Per mix and tool: median and best wall time, MB/s, the ratio of median wall times against
``grep -E`` with the on-call patterns, user+sys CPU time, cores used (CPU time / wall time)
and peak memory of the whole process tree (the parent and its workers: the sum of their
proportional set sizes, sampled every 20 ms from /proc, so copy-on-write pages a forked
worker shares with the parent count once), taken in one extra run per tool: the timed runs
are not sampled (the sampling takes a good part of a core, which slowed the tools that use
every core by about 6 %). The machine's load average (``/proc/loadavg``) is recorded before each
mix: on a shared machine, read the figures with it.

Tools:

* ``fp8triage``: ``fp8triage scan LOG --format json -o FILE --no-history`` (all cores: the
  default ``--jobs 0`` splits a big file into byte ranges);
* ``fp8triage-1core``: the same with ``--jobs 1`` (the MB/s of one core);
* ``grep``: ``grep -E -c`` with ``ONCALL``, 30 alternated error patterns, what an on-call
  engineer would type; the ratio is taken against it;
* ``rg``: ``rg -c`` with the same pattern (ripgrep, where installed).
* ``fp8triage-follow`` and ``grep-follow`` (not in the default ``--tools``): the stream path,
  the log on standard input as ``kubectl logs -f`` would give it: ``fp8triage scan --follow -``
  (a notice per finding as its event completes) against ``grep --line-buffered -E`` with the
  same pattern (each matching line as it comes).

``-c`` makes grep and rg print one number; their output goes to a temporary file, not
/dev/null (GNU grep stops at the first match when its output is /dev/null, even with ``-c``).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "out"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import gen_log  # noqa: E402
import mixes  # noqa: E402

# What an on-call engineer greps a model-server log for: 30 alternated patterns.
ONCALL = [
    r"Traceback \(most recent call last\)", "ERROR", "CRITICAL", "FATAL", "Error", "Exception", "AssertionError",
    "Assertion .* failed", "CUDA error", "CUDA_ERROR", "out of memory", "illegal memory access",
    "no kernel image is available", "device-side assert", "NCCL error", "Segmentation fault", "core dumped",
    "terminate called", r"what\(\):", "Unknown SF transformation", "DeepGEMM", "deep_gemm", "fp8", "FP8", "failed",
    "Failed", "EngineDeadError", "died", "Killed", "undefined symbol",
]


def run_once(cmd: list[str], stdin: Path | None = None, memory: bool = False, env: dict | None = None) -> dict:
    # stdout to a real file: GNU grep stops at the first match when its output is /dev/null
    with tempfile.TemporaryFile() as out:
        if stdin is None:
            return _run(cmd, out, memory=memory, env=env)
        with open(stdin, "rb") as inp:
            return _run(cmd, out, inp, memory=memory, env=env)


def _tree_rss_kb(pid: int) -> int:
    """Memory of ``pid`` and all its descendants, in KiB (Linux /proc): the proportional set
    size (Pss: a page shared by n processes, e.g. a forked worker's copy-on-write pages,
    counts 1/n in each), so the sum is the memory the tree holds; VmRSS where Pss is not
    available."""
    total, todo, seen = 0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            try:
                with open(f"/proc/{p}/smaps_rollup") as fh:
                    total += next(int(ln.split()[1]) for ln in fh if ln.startswith("Pss:"))
            except (OSError, StopIteration):
                with open(f"/proc/{p}/status") as fh:
                    total += next(int(ln.split()[1]) for ln in fh if ln.startswith("VmRSS:"))
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(x) for x in fh.read().split())
        except (OSError, ValueError, StopIteration):
            continue
    return total


def _run(cmd: list[str], stdout, stdin=None, memory: bool = False, env: dict | None = None) -> dict:
    """Wall time and CPU time of the process and its waited-for children (os.wait4); with
    ``memory``, also the peak of the process tree's summed Pss, sampled every 20 ms (reading
    ``smaps_rollup`` of every process of the tree 50 times a second takes a good part of a
    core: a timed run does not sample, so the sampler cannot slow a tool that uses every core)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, stdin=stdin, env=env)
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss_kb(p.pid))
            done.wait(0.02)

    th = threading.Thread(target=sample, daemon=True)
    if memory:
        th.start()
    _pid, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    done.set()
    if memory:
        th.join()
    err = p.stderr.read().decode(errors="replace") if p.stderr else ""
    if p.stderr:
        p.stderr.close()
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": peak[0] / 1024,
            "rc": os.waitstatus_to_exitcode(status), "stderr": err[-500:]}


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def fp8triage_cmd() -> list[str]:
    return [sys.executable, "-m", "fp8triage"]


def ensure_mix(mix: str, size: int, label: str, seed: int) -> tuple[Path, dict]:
    OUT.mkdir(exist_ok=True)
    p = OUT / f"{mix}-{label}-s{seed}.log"
    man = Path(str(p) + ".manifest.json")
    if p.exists() and man.exists():
        m = json.loads(man.read_text())
        if m.get("size") == size and m.get("seed") == seed and m.get("bytes") == p.stat().st_size:
            return p, m
    print(f"generating {p} ...", file=sys.stderr)
    return p, mixes.generate(p, size, mix, seed=seed)


def warm(path: Path) -> None:
    with open(path, "rb") as fh:
        while fh.read(16 << 20):
            pass


# A user pasting one traceback: 10 server lines and the three lines of a DeepGEMM failure.
TRACEBACK = ["Traceback (most recent call last):", '  File "x.py", line 1, in <module>',
             "RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation"]


def startup_env() -> dict:
    """The environment of the start-up runs: bytecode cached as an installed package has it
    (``pip install`` compiles every module; a checkout run with PYTHONDONTWRITEBYTECODE=1
    compiles ~60 modules from source on every start, about 0.15 s more), written under bench/out/
    rather than into the checkout."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(OUT / "pycache")
    return env


def startup(n: int = 10) -> dict:
    """Start-up against a trivial process in the same run: ``python -c pass``, ``--help`` and
    scans of a 13-line and a 100-line log, ``n`` runs each, interleaved (a background load hits
    all alike), after one untimed run each (bytecode, the catalogue's validation marker and the
    compiled-pattern cache in place, as after any first run); and the 13-line scan as the first
    run on a machine (an empty cache directory each time)."""
    with tempfile.TemporaryDirectory() as d:
        small = Path(d) / "small.log"
        gen_log.generate(small, 14_000, seed=5, style="vllm", plants=0)
        lines = small.read_text().splitlines()
        small.write_text("\n".join(lines[:100]) + "\n")
        tiny = Path(d) / "tiny.log"
        tiny.write_text("\n".join(lines[:10] + TRACEBACK) + "\n")
        cmds = {"python -c pass": [sys.executable, "-c", "pass"],
                "fp8triage --help": fp8triage_cmd() + ["--help"],
                "scan, 13 lines": fp8triage_cmd() + ["scan", str(tiny), "--no-history"],
                "scan, 100 lines": fp8triage_cmd() + ["scan", str(small), "--no-history"]}
        # the first run on a machine: no cache directory yet (catalogue validation, compiled
        # patterns, recognition data); a new empty one for every run
        cmds["scan, 13 lines, first run"] = cmds["scan, 13 lines"]
        env = startup_env()
        for cmd in cmds.values():
            run_once(cmd, env=env)
        walls: dict[str, list[float]] = {k: [] for k in cmds}
        load_before = loadavg()
        for i in range(n):
            for k, cmd in cmds.items():
                run_env = env
                if k.endswith("first run"):
                    run_env = dict(env, FP8TRIAGE_CACHE_DIR=str(Path(d) / f"cache-{i}"))
                walls[k].append(run_once(cmd, env=run_env)["wall"])
    base = statistics.median(walls["python -c pass"])
    out = {}
    for k, w in walls.items():
        med = statistics.median(w)
        out[k] = {"median_s": round(med, 3), "min_s": round(min(w), 3), "ratio_vs_python": round(med / base, 1),
                  "over_python_s": round(med - base, 3), "command": cmds[k]}
    return {"runs": n, "load_before": load_before, "load_after": loadavg(), "commands": out}


def print_startup(r: dict) -> None:
    print(f"\nstart-up (median of {r['runs']}, interleaved; load average before {r['load_before']}, "
          f"after {r['load_after']})")
    print(f"  {'command':26s} {'median s':>9s} {'best s':>7s} {'x python':>9s} {'+ s':>7s}")
    for k, v in r["commands"].items():
        print(f"  {k:26s} {v['median_s']:9.3f} {v['min_s']:7.3f} {v['ratio_vs_python']:9.1f} {v['over_python_s']:7.3f}")


def bench_file(log: Path, manifest: dict | None, runs: int, wanted: list[str]) -> dict:
    size_mb = log.stat().st_size / 1e6
    report = OUT / "bench-report.json"
    tools: dict[str, list[str]] = {
        "fp8triage": fp8triage_cmd() + ["scan", str(log), "--format", "json", "-o", str(report), "--no-history"],
        "fp8triage-1core": fp8triage_cmd() + ["scan", str(log), "--format", "json", "-o", str(report),
                                              "--no-history", "--jobs", "1"],
        "grep": ["grep", "-E", "-c", "|".join(ONCALL), str(log)],
    }
    rg = shutil.which("rg")
    if rg:
        tools["rg"] = [rg, "-c", "|".join(ONCALL), str(log)]
    # the stream (``--follow``) path, the log on standard input as from ``kubectl logs -f``:
    # against grep printing each matching line as it comes
    stdin_of = {"fp8triage-follow": log, "grep-follow": log}
    tools["fp8triage-follow"] = fp8triage_cmd() + ["scan", "--follow", "-", "--no-history"]
    tools["grep-follow"] = ["grep", "--line-buffered", "-E", "|".join(ONCALL)]
    wanted = [t for t in wanted if t in tools]
    warm(log)
    load_before = loadavg()
    res: dict[str, list[dict]] = {t: [] for t in wanted}
    for r in range(runs):
        for t in wanted:
            x = run_once(tools[t], stdin_of.get(t))
            if t.startswith("fp8triage") and x["rc"] not in (0, 3, 4):
                raise SystemExit(f"fp8triage failed (exit {x['rc']}): {x['stderr']}")
            res[t].append(x)
            print(f"  run {r + 1}/{runs} {t:16s} {x['wall']:7.2f} s", file=sys.stderr)
    peak: dict[str, float] = {}
    for t in wanted:  # one more run each, for memory only (see _run)
        x = run_once(tools[t], stdin_of.get(t), memory=True)
        peak[t] = x["rss_mb"]
        print(f"  memory run {t:16s} {x['rss_mb']:7.1f} MB", file=sys.stderr)
    base = statistics.median(x["wall"] for x in res["grep"]) if "grep" in res else None
    summary = {}
    for t, rs in res.items():
        med = statistics.median(x["wall"] for x in rs)
        cpu = statistics.median(x["cpu"] for x in rs)
        summary[t] = {"median_s": round(med, 3), "min_s": round(min(x["wall"] for x in rs), 3),
                      "mb_per_s": round(size_mb / med, 1), "ratio_vs_grep": round(med / base, 3) if base else None,
                      "cpu_s": round(cpu, 3), "cores_used": round(cpu / med, 2),
                      "peak_rss_mb": round(peak[t], 1)}
    found = None
    if report.exists() and any(t.startswith("fp8triage") for t in wanted):
        data = json.loads(report.read_text())
        ids = {f["id"] for f in data.get("findings", [])} | {f["id"] for f in data.get("ruled_out", [])}
        found = {"findings": [f["id"] for f in data.get("findings", [])]}
        if manifest:
            missed = [p["signature"] for p in manifest["planted"]
                      if p["signature"] not in ids and not p["signature"].startswith("preflight-")]
            # a plant the log's machine contradicts (an A100's FP8 gate planted into an H100 log) is another
            # signature's failure there, as the tests judge it (tests/benchmods.planted_to_find)
            other = [sid for sid in missed if _contradicted(sid, data.get("facts", []))]
            found["planted_missed"] = [sid for sid in missed if sid not in other]
            found["planted_other_machine"] = other
    return {"file": str(log), "bytes": log.stat().st_size, "lines": (manifest or {}).get("lines"),
            "load_before": load_before, "load_after": loadavg(), "summary": summary, "fp8triage": found,
            "commands": {t: tools[t] for t in wanted}}


_CATALOGUE = None  # loaded once, for the first plant a run misses


def _contradicted(sig_id: str, facts: list[dict]) -> bool:
    """Whether the report's facts (the log's machine) contradict a planted signature's conditions."""
    try:
        from fp8triage.catalogue.loader import load_catalogue
        from fp8triage.judge.verdict import evaluate_conditions
        from fp8triage.model import Fact, Truth
    except ImportError:  # run outside the project's environment: every miss is reported as one
        return False
    global _CATALOGUE
    if _CATALOGUE is None:
        _CATALOGUE = load_catalogue()
    sig = _CATALOGUE.get(sig_id)
    known: dict = {}
    for f in facts:
        known.setdefault(f["name"], Fact(f["name"], f["value"], f.get("source", ""), f.get("origin", "log")))
    return sig is not None and any(r.truth is Truth.FAILS for r in evaluate_conditions(sig, known))


def print_result(name: str, r: dict) -> None:
    print(f"\n{name}: {r['file']} ({r['bytes'] / 1e6:.0f} MB), load average before {r['load_before']}, "
          f"after {r['load_after']}")
    print(f"  {'tool':16s} {'median s':>9s} {'best s':>7s} {'MB/s':>7s} {'vs grep':>8s} {'cores':>6s} {'peak RSS':>9s}")
    for t, s in r["summary"].items():
        ratio = f"{s['ratio_vs_grep']:.2f}" if s["ratio_vs_grep"] is not None else "-"
        print(f"  {t:16s} {s['median_s']:9.2f} {s['min_s']:7.2f} {s['mb_per_s']:7.0f} {ratio:>8s} "
              f"{s['cores_used']:6.2f} {s['peak_rss_mb']:7.1f} MB")
    if r["fp8triage"] and r["fp8triage"].get("planted_missed"):
        print(f"  planted failures missed: {r['fp8triage']['planted_missed']}")
    if r["fp8triage"] and r["fp8triage"].get("planted_other_machine"):
        print(f"  planted, judged as another failure on this log's machine: {r['fp8triage']['planted_other_machine']}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="fp8triage scan vs grep -E vs rg, per log mix.")
    ap.add_argument("--size", default="1G", help="size of each generated mix (default 1G)")
    ap.add_argument("--mixes", default="all", help=f"comma-separated subset of {','.join(mixes.MIXES)} (default all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--file", help="benchmark this log instead of the mixes")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--tools", default="fp8triage,fp8triage-1core,grep,rg")
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up measurements")
    ap.add_argument("--startup-only", action="store_true")
    ap.add_argument("--startup-runs", type=int, default=10, help="runs of each start-up command (default 10)")
    ap.add_argument("--keep", action="store_true", help="keep the generated logs (default: delete each after its run)")
    ap.add_argument("--json", type=Path, help="also write the results here (default bench/out/results-<time>.json)")
    args = ap.parse_args(argv)
    OUT.mkdir(exist_ok=True)
    wanted = [t for t in args.tools.split(",") if t]
    if "rg" in wanted and not shutil.which("rg"):
        print("rg: not installed, not measured (apt-get install ripgrep)", file=sys.stderr)
    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "host": platform.node(),
              "cpus": os.cpu_count(), "machine": platform.machine(), "python": platform.python_version(),
              "grep": subprocess.run(["grep", "--version"], capture_output=True, text=True).stdout.splitlines()[0],
              "runs": args.runs, "mixes": {}}
    if not args.startup_only:
        if args.file:
            r = bench_file(Path(args.file), None, args.runs, wanted)
            result["mixes"]["file"] = r
            print_result("file", r)
        else:
            names = list(mixes.MIXES) if args.mixes == "all" else args.mixes.split(",")
            size = gen_log.parse_size(args.size)
            for name in names:
                log, man = ensure_mix(name, size, args.size.upper(), args.seed)
                r = bench_file(log, man, args.runs, wanted)
                result["mixes"][name] = r
                print_result(name, r)
                if not args.keep:
                    log.unlink()
    if not args.no_startup:
        result["startup"] = startup(args.startup_runs)
        print_startup(result["startup"])
    out = args.json or OUT / f"results-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
