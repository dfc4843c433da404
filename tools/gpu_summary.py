"""Print the verdicts, times and backends of `fp8triage repro --format json` files (used by gpu_validate.sh)."""
from __future__ import annotations

import json
import sys
from pathlib import Path


def main(paths: list[str]) -> None:
    for p in paths:
        path = Path(p)
        if not path.is_file():
            continue
        try:
            doc = json.loads(path.read_text())
        except ValueError as e:
            print(f"{path.name}: not JSON ({e})")
            continue
        print(f"\n{path.name}: suite wall {doc.get('wall_s')} s, {doc.get('summary')}")
        for r in doc.get("results", []):
            m = r.get("metrics", {})
            extra = m.get("backend") or m.get("gemm_backend") or m.get("deep_gemm") or ""
            vers = r.get("versions", {})
            print(f"  {r['id']:<26} {r['verdict']:<15} {r.get('isolation', '-'):<8} wall {r.get('wall_s')} s "
                  f"real_path={r.get('real_path')} transformers={vers.get('transformers')}")
            print(f"    {r.get('reason', '')[:400]}")
            if extra:
                print(f"    backend: {str(extra)[:200]}")
            w = r.get("worker")
            if w:  # when the kernel was handed to its worker, and what that worker's start cost
                pre = w.get("preload") or {}
                mods = {k.rsplit(".", 1)[-1]: v for k, v in (pre.get("modules") or {}).items()}
                print(f"    worker {w.get('pid')} {'new' if w.get('fresh') else 'reused'}: kernel sent at "
                      f"{w.get('started_at_s')} s; worker ready after {w.get('ready_s')} s"
                      + (f" (torch {pre.get('torch_import_s')} s, CUDA context {pre.get('cuda_init_s')} s, "
                         f"modules {mods}, started {list(pre.get('started') or {})})" if pre else ""))
            lp = m.get("library_path") or {}
            if lp.get("phase_s") or m.get("library_load_s") is not None:
                at = lp.get("autotune") or {}
                print(f"    library load {m.get('library_load_s')} s, phases {lp.get('phase_s')}, "
                      f"checkpoint reused {lp.get('checkpoint_reused')}, tokens {lp.get('tokens')}, "
                      f"calls {lp.get('kernel_calls')}, experts {lp.get('experts_implementation')}")
                print(f"    hub autotune: {at.get('mode')} {at.get('kernels') or ''} {at.get('chosen') or ''} "
                      f"{at.get('one_config_failed') or ''}"[:600])
            dg = m.get("deepgemm") or {}
            if "children" in m or "children" in dg:
                print(f"    DeepGEMM children {m.get('children', dg.get('children'))}, "
                      f"warm child {m.get('warm_child', dg.get('warm_child'))}")
    print()


def phases(path: str) -> None:
    """One line per phase from tools/gpu_phases.py's JSON."""
    try:
        doc = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return
    print(f"phases ({path}): interpreter {doc.get('interpreter_start_s')} s")
    for key in ("alone", "alone_with_bytecode", "alone_as_worker"):
        for i, run in enumerate(doc.get(key, [])):
            print(f"  {key} #{i + 1}: {run}")
    for n, c in doc.get("concurrent", {}).items():
        walls = [r.get("process_wall_s") for r in c.get("runs", [])]
        torch_s = [r.get("import_torch_s") for r in c.get("runs", [])]
        ctx_s = [r.get("cuda_context_s") for r in c.get("runs", [])]
        print(f"  {n} at once: wall {c.get('wall_s')} s; torch {torch_s}; CUDA context {ctx_s}; each {walls}")
    if doc.get("concurrent_all"):
        c = doc["concurrent_all"]
        print(f"  {c.get('n')} whole chains at once: wall {c.get('wall_s')} s")
        for r in c.get("runs", []):
            print(f"    {r}")
    imp = doc.get("importtime")
    if imp:
        print(f"  -X importtime, own seconds by package: {imp.get('own_s_by_package')}")
        for cum, depth, name in imp.get("largest_cumulative", [])[:30]:
            print(f"    {cum:7.3f} s {'  ' * depth}{name}")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--phases"]:
        phases(args[1])
    else:
        main(args)
