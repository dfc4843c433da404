"""The bench's generators (bench/mixes.py, bench/gen_log.py) imported by path for the tests that scan
their logs: bench/ is not a package."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def bench_module(name: str):
    """``bench/<name>.py`` as a module, loaded once per process."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def planted_to_find(cat, path: Path, manifest: dict) -> tuple[list[dict], set[str]]:
    """The plants of a generated log that a scan must find, and the signatures it found or ruled out. A plant
    whose signature the log's machine contradicts is left out: an A100's FP8 gate planted into an H100 log is
    not that failure there, and the facts rightly name another signature for it."""
    from fp8triage.drivers.batch import scan_paths
    from fp8triage.judge.verdict import evaluate_conditions
    from fp8triage.model import Truth

    res = scan_paths([str(path)], catalogue=cat)
    facts: dict = {}
    for f in res.facts:
        facts.setdefault(f.name, f)
    want = [p for p in manifest["planted"] if not p["signature"].startswith("preflight-")
            and not any(r.truth is Truth.FAILS for r in evaluate_conditions(cat.get(p["signature"]), facts))]
    return want, {f.id for f in res.findings} | {f.id for f in res.ruled_out}
