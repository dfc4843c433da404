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


if __name__ == "__main__":
    main(sys.argv[1:])
