#!/usr/bin/env python3
"""Scan speed benchmark: fp8triage scan against grep -E and ripgrep on the same log (issue 8).

    python bench/run.py --size 1G            # generate (or reuse) bench/out/realistic-1G-s1.log
    python bench/run.py --file server.log    # any log
    python bench/run.py --size 4G --runs 1 --tools fp8triage   # memory on a 4 GB log

Every tool runs as a subprocess, as a user would run it, several times, interleaved (so a
background load hits all tools alike), with the file in the page cache (it is read once
first). Printed per tool: median and best wall time, MB/s, the ratio of median wall times
against ``grep -E`` with the same patterns, user+sys CPU time, and peak RSS (GNU ``time``).

What grep and rg get (``bench/out/patterns-*.txt``, written on every run):

* ``grep-all``: ``grep -E -c -f patterns-all.txt``: every pattern fp8triage's prefilter
  searches for: the signatures' evidence anchors, the generic error anchors, the log-fact and
  environment-dump anchors, the log-fact patterns and the traceback structure anchors
  (``File "``), as ERE: literals escaped, case-insensitive anchors as ``[xX]`` classes,
  ``(?:`` as ``(``, ``[^\\n]*`` as ``.*``. This is the same search; the ratio is taken
  against it.
* ``grep-evidence``: ``grep -E -c -f patterns-evidence.txt``: only the signatures'
  ``evidence.anchors`` (what a person would grep for), for reference.
* ``rg``: ``rg -c -f patterns-all.txt`` when ripgrep is installed.

``-c`` makes grep and rg print one number; their output goes to a temporary file, not
/dev/null (GNU grep stops at the first match when its output is /dev/null, even with ``-c``). fp8triage writes its JSON report to a file and
skips the history database (``--no-history``). The start-up times (``--help``, a scan of a
100-line log) are the median of 10 runs each.
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
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
OUT = HERE / "out"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

import gen_log  # noqa: E402


def _ere(lit: str) -> str:
    return "".join("\\" + c if c in ".[]()*+?{}|^$\\" else c for c in lit)


def _ere_ci(lit: str) -> str:
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else _ere(c) for c in lit)


def export_patterns(out_dir: Path) -> dict[str, Path]:
    """Write the prefilter's patterns as ERE files for grep -E / rg -f."""
    from fp8triage.catalogue import load_catalogue
    from fp8triage.pipeline import Scanner

    cat = load_catalogue()
    pf = Scanner(cat).prefilter
    every = ([_ere(a) for a in pf.anchors] + [_ere_ci(a) for a in pf.anchors_ci]
             + [p.replace("(?:", "(").replace("[^\\n]*", ".*") for p in pf.patterns]
             + [_ere(a) for a in pf.structural])
    evidence = sorted({(_ere_ci(a) if s.anchors_ignore_case else _ere(a)) for s in cat.signatures for a in s.anchors})
    paths = {"all": out_dir / "patterns-all.txt", "evidence": out_dir / "patterns-evidence.txt"}
    paths["all"].write_text("\n".join(every) + "\n")
    paths["evidence"].write_text("\n".join(evidence) + "\n")
    return paths


def run_once(cmd: list[str]) -> dict:
    # stdout to a real file: GNU grep stops at the first match when its output is /dev/null
    with tempfile.TemporaryFile() as out:
        return _run(cmd, out)


GNU_TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def _run(cmd: list[str], stdout) -> dict:
    """Wall time (this process's clock), CPU time (os.wait4) and peak RSS. On Linux a child's
    ru_maxrss includes the size of the process that forked it (this Python), so the peak RSS
    comes from GNU time (a small C program) running the command, where installed."""
    with tempfile.NamedTemporaryFile("r") as tf:
        full = [GNU_TIME, "-f", "%M", "-o", tf.name, *cmd] if GNU_TIME else cmd
        t0 = time.perf_counter()
        p = subprocess.Popen(full, stdout=stdout, stderr=subprocess.PIPE)
        _pid, status, ru = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        err = p.stderr.read().decode(errors="replace") if p.stderr else ""
        if p.stderr:
            p.stderr.close()
        rss_kb = ru.ru_maxrss
        if GNU_TIME:
            lines = [ln for ln in tf.read().splitlines() if ln.strip().isdigit()]
            if lines:
                rss_kb = int(lines[-1])
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": rss_kb / 1024, "rc": p.returncode,
            "stderr": err[-500:]}


def fp8triage_cmd() -> list[str]:
    return [sys.executable, "-m", "fp8triage"]


def ensure_log(args) -> tuple[Path, dict | None]:
    if args.file:
        p = Path(args.file)
        man = Path(str(p) + ".manifest.json")
        return p, json.loads(man.read_text()) if man.exists() else None
    OUT.mkdir(exist_ok=True)
    label = args.size_label.upper()
    p = OUT / f"realistic-{label}-s{args.seed}.log"
    man = Path(str(p) + ".manifest.json")
    if p.exists() and man.exists():
        m = json.loads(man.read_text())
        if m.get("size") == args.size and m.get("seed") == args.seed and m.get("style") == args.style \
                and m.get("bytes") == p.stat().st_size:
            return p, m
    print(f"generating {p} ({label}, seed {args.seed}) ...", file=sys.stderr)
    m = gen_log.generate(p, args.size, seed=args.seed, style=args.style, plants=args.plants)
    return p, m


def warm(path: Path) -> None:
    with open(path, "rb") as fh:
        while fh.read(16 << 20):
            pass


def startup(n: int = 10) -> dict:
    with tempfile.TemporaryDirectory() as d:
        small = Path(d) / "small.log"
        gen_log.generate(small, 14_000, seed=5, style="vllm", plants=0)
        lines = small.read_text().splitlines()[:100]
        small.write_text("\n".join(lines) + "\n")
        out = {}
        for name, cmd in (("help", fp8triage_cmd() + ["--help"]),
                          ("scan_100_lines", fp8triage_cmd() + ["scan", str(small), "--no-history"])):
            walls = [run_once(cmd)["wall"] for _ in range(n)]
            out[name] = {"median_s": round(statistics.median(walls), 3), "min_s": round(min(walls), 3)}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="fp8triage scan vs grep -E vs rg on one log.")
    ap.add_argument("--size", default="1G", help="size of the generated log (default 1G)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--style", default="mixed", choices=["mixed", "vllm", "sglang", "transformers"])
    ap.add_argument("--plants", type=int, default=6)
    ap.add_argument("--file", help="benchmark this log instead of a generated one")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tools", default="fp8triage,grep-all,grep-evidence,rg",
                    help="comma-separated subset of fp8triage,grep-all,grep-evidence,rg")
    ap.add_argument("--no-startup", action="store_true", help="skip the start-up measurements")
    ap.add_argument("--json", type=Path, help="also write the results here (default bench/out/results-<time>.json)")
    args = ap.parse_args(argv)
    args.size_label = args.size
    args.size = gen_log.parse_size(args.size)

    log, manifest = ensure_log(args)
    size_mb = log.stat().st_size / 1e6
    OUT.mkdir(exist_ok=True)
    pats = export_patterns(OUT)
    report = OUT / "bench-report.json"
    tools: dict[str, list[str]] = {
        "fp8triage": fp8triage_cmd() + ["scan", str(log), "--format", "json", "-o", str(report), "--no-history"],
        "grep-all": ["grep", "-E", "-c", "-f", str(pats["all"]), str(log)],
        "grep-evidence": ["grep", "-E", "-c", "-f", str(pats["evidence"]), str(log)],
    }
    rg = shutil.which("rg")
    if rg:
        tools["rg"] = [rg, "-c", "-f", str(pats["all"]), str(log)]
    wanted = [t for t in args.tools.split(",") if t]
    missing = [t for t in wanted if t not in tools]
    if missing:
        print(f"not available: {', '.join(missing)} (ripgrep: apt-get install ripgrep)", file=sys.stderr)
    wanted = [t for t in wanted if t in tools]

    warm(log)
    runs: dict[str, list[dict]] = {t: [] for t in wanted}
    for r in range(args.runs):
        for t in wanted:
            res = run_once(tools[t])
            if t == "fp8triage" and res["rc"] not in (0, 3, 4):
                print(f"fp8triage failed (exit {res['rc']}): {res['stderr']}", file=sys.stderr)
                return 1
            runs[t].append(res)
            print(f"run {r + 1}/{args.runs} {t:14s} {res['wall']:7.2f} s  {res['rss_mb']:7.1f} MB", file=sys.stderr)

    found = None
    if "fp8triage" in wanted and report.exists():
        data = json.loads(report.read_text())
        ids = {f["id"] for f in data.get("findings", [])} | {f["id"] for f in data.get("ruled_out", [])}
        found = {"findings": [(f["id"], f["status"]) for f in data.get("findings", [])],
                 "prefilter": data.get("meta", {}).get("prefilter")}
        if manifest:
            planted = [p["signature"] for p in manifest["planted"]]
            found["planted"] = planted
            found["planted_missed"] = [s for s in planted if s not in ids]

    summary = {}
    base = statistics.median(x["wall"] for x in runs["grep-all"]) if "grep-all" in runs else None
    for t, rs in runs.items():
        walls = [x["wall"] for x in rs]
        med = statistics.median(walls)
        summary[t] = {
            "median_s": round(med, 3), "min_s": round(min(walls), 3), "mb_per_s": round(size_mb / med, 1),
            "ratio_vs_grep_all": round(med / base, 3) if base else None,
            "cpu_s": round(statistics.median(x["cpu"] for x in rs), 3),
            "peak_rss_mb": round(max(x["rss_mb"] for x in rs), 1),
        }

    print(f"\n{log} ({size_mb:.0f} MB, {manifest['lines'] if manifest else '?'} lines), {args.runs} runs each, "
          f"page cache warm; {os.cpu_count()} CPUs, {platform.machine()}, Python {platform.python_version()}")
    print(f"{'tool':14s} {'median s':>9s} {'best s':>7s} {'MB/s':>7s} {'vs grep -E':>10s} {'cpu s':>7s} {'peak RSS':>9s}")
    for t, s in summary.items():
        ratio = f"{s['ratio_vs_grep_all']:.2f}" if s["ratio_vs_grep_all"] is not None else "-"
        print(f"{t:14s} {s['median_s']:9.2f} {s['min_s']:7.2f} {s['mb_per_s']:7.0f} {ratio:>10s} {s['cpu_s']:7.2f} "
              f"{s['peak_rss_mb']:7.1f} MB")
    if not rg:
        print("rg: not installed, not measured")
    if found:
        print(f"fp8triage findings: {', '.join(f'{i} ({s})' for i, s in found['findings'])}")
        if "planted" in found:
            print(f"planted: {len(found['planted'])}, missed: {found['planted_missed'] or 'none'}")

    result = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"), "host": platform.node(),
              "cpus": os.cpu_count(), "machine": platform.machine(), "python": platform.python_version(),
              "file": str(log), "bytes": log.stat().st_size, "runs": args.runs, "summary": summary, "fp8triage": found,
              "commands": {t: tools[t] for t in wanted}}
    if not args.no_startup:
        result["startup"] = startup()
        for k, v in result["startup"].items():
            print(f"start-up {k}: median {v['median_s']:.3f} s (best {v['min_s']:.3f} s)")
    out = args.json or OUT / f"results-{datetime.now().strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
