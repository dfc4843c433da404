"""deepgemm-sf-layout: does DeepGEMM have a scale-factor layout for this GPU and scale dtype?

DeepGEMM's ``transform_sf_into_required_layout`` (csrc/apis/layout.hpp, main 2.6.1, commit 54e2261)
handles, by (SF dtype, granularity MN, granularity K, arch):
  float32, (1, 128),            SM90 (or with disable_ue8m0_cast) -> float32, MN-major, TMA-aligned (a JIT transpose kernel)
  float32, (128, 128),          SM90 (or with disable_ue8m0_cast) -> float32, checked, unchanged
  float32, (1|128, 32|128),     SM100                             -> packed UE8M0 (float32 exponent only)
  int32 (packed UE8M0), (1, 32|128), SM100                        -> checked, unchanged
  anything else -> ``Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation``
So SM120/SM121 (RTX 50xx, RTX PRO 6000, GB10) and SM110 have no layout at all on DeepGEMM main, and on
SM90 packed UE8M0 scales and float32 scales with K granularity 32 (the MXFP8 recipe) have none. The
rows for SM90 were checked against the real library on an H200 (docs/gpu-validation.md); the K
granularity of the float32 rows comes from that check.

When ``deep_gemm`` is installed and a GPU is present, the kernel calls the real transform for each
case in a child process (repro_kernels/_deepgemm_probe.py), so a DeepGEMM build that does not match
this torch (an import error, or a crash at its first call) gives verdict ``error`` naming the
mismatch instead of taking the triage down. Otherwise it evaluates the table for this device (or,
with ``--device cpu``, for every architecture) and says that DeepGEMM was not executed.
"""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402
import _deepgemm_probe as P  # noqa: E402

ID = "deepgemm-sf-layout"
HEAVY = True  # starts a child process that imports DeepGEMM and may JIT-compile: the runner starts it first
GROUP = ("torch-only", 1)  # on the worker that runs ue8m0-scale-rounding, after it, with the same DeepGEMM child
PRESTART = ("_deepgemm_probe:prestart",)  # the DeepGEMM child starts before the worker imports torch
UNKNOWN = "Unknown SF transformation"
UNKNOWN_TEXT = f"Assertion error (csrc/apis/layout.hpp:60): {UNKNOWN}"
ARCHS = [(8, 9), (9, 0), (10, 0), (10, 3), (11, 0), (12, 0), (12, 1)]
# probe case -> (SF dtype, gran_mn, gran_k, what it is)
CASES = {
    "sfa_f32_1x128": ("float32", 1, 128, "float32 activation SFs, 1x128 blocks"),
    "sfb_f32_128x128": ("float32", 128, 128, "float32 weight SFs, 128x128 blocks"),
    "sfa_ue8m0_int32": ("int32", 1, 128, "packed UE8M0 (int32) activation SFs, 1x128"),
    "sfa_f32_gran_k32": ("float32", 1, 32, "float32 activation SFs, K granularity 32 (MXFP8 recipe)"),
}


def documented(cap: tuple[int, int], sf_dtype: str, gran_mn: int, gran_k: int = 128) -> dict:
    """The layout.hpp branch DeepGEMM main (2.6.1) takes for this case (no call is made)."""
    major = cap[0]
    if sf_dtype == "float32" and major == 9 and gran_k == 128 and gran_mn in (1, 128):
        return {"layout": "float32 MN-major TMA-aligned" if gran_mn == 1 else "float32, checked, unchanged",
                "error": None}
    if sf_dtype == "float32" and major == 10 and gran_k in (32, 128):
        return {"layout": "packed UE8M0 (float32 exponent only; non-power-of-two scales are wrong, "
                          "DeepGEMM >= 2.6.1 asserts)", "error": None}
    if sf_dtype in ("int32", "ue8m0-packed") and major == 10 and gran_mn == 1 and gran_k in (32, 128):
        return {"layout": "packed UE8M0 (checked, not transformed)", "error": None}
    return {"layout": None, "error": UNKNOWN_TEXT}


def _table_for(cap):
    return {f"{dt}/gran_mn={g}/gran_k={k}": documented(cap, dt, g, k)
            for dt, g, k in (("float32", 1, 128), ("float32", 128, 128), ("float32", 1, 32), ("int32", 1, 128))}


def _dg_version() -> str:
    for dist in ("deep_gemm", "deep-gemm", "sgl-deep-gemm"):
        try:
            return f"{dist} {importlib.metadata.version(dist)}"
        except importlib.metadata.PackageNotFoundError:
            continue
    return "deep_gemm (no package metadata: a source build)"


def static_cxx_runtime(package_dir: str | None) -> bool | None:
    """Whether DeepGEMM's extension carries its own copy of the C++ runtime (no libstdc++.so.6 dependency).

    Such a build (linked with a static libstdc++) keeps a second set of locale facets: its std::regex then
    crashes in a process whose locale comes from the shared libstdc++ (what DeepGEMM's JIT hit on the H200).
    None when the extension cannot be read.
    """
    import glob
    import mmap

    if not package_dir:
        return None
    for so in glob.glob(os.path.join(package_dir, "_C*.so")):
        try:
            with open(so, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
                return m.find(b"libstdc++.so.6") < 0
        except (OSError, ValueError):
            return None
    return None


def mismatch_reason(res: dict, torch_version: str, static_runtime: bool | None = None) -> str | None:
    """One sentence naming an import or ABI mismatch from the probe's results, or None."""
    imp = res.get("import", {})
    if imp.get("import_error"):
        kind = "ABI mismatch" if "undefined symbol" in imp.get("error", "") else "import mismatch"
        return (f"DeepGEMM is installed but does not load in this process ({kind} with torch {torch_version}): "
                f"{imp['error']}")
    for case, r in res.items():
        if isinstance(r, dict) and r.get("crashed"):
            what = CASES.get(case, (None, None, None, case))[3] if case in CASES else case
            if static_runtime:
                return (f"DeepGEMM crashed the process with {r['crashed']} in its first calls ({case}: {what}): its "
                        f"extension carries its own static copy of the C++ runtime (no libstdc++.so.6 dependency), an "
                        f"ABI mismatch with this process's shared libstdc++ (torch {torch_version}); rebuild it "
                        f"linked against the shared libstdc++")
            return (f"DeepGEMM crashed the process with {r['crashed']} in its first calls ({case}: {what}); its binary "
                    f"does not match this process (ABI mismatch with torch {torch_version} or the C++ runtime "
                    f"it was built against): rebuild DeepGEMM against this torch")
    return None


def body(ctx: C.Ctx) -> dict:
    if not ctx.is_cuda:
        tables = {f"SM{a}{b}": documented((a, b), "float32", 1)["error"] is None for a, b in ARCHS}
        missing = [k for k, ok in tables.items() if not ok]
        metrics = {"executed": False, "source": "documented table (DeepGEMM main 2.6.1 layout.hpp)",
                   "float32_sf_layout_by_arch": tables, "no_layout_on": missing,
                   "table_sm120": _table_for((12, 0))}
        metrics["table_predicts_sm120"] = "reproduced" if {"SM120", "SM121"} <= set(missing) else "not-reproduced"
        return {"verdict": "not-executed",
                "reason": f"no GPU, so DeepGEMM was not run: by DeepGEMM main's documented table, float32 scale "
                          f"factors have no layout on {', '.join(missing)} ('{UNKNOWN}')",
                "metrics": metrics, "real_path": False, "machine_independent": False,
                "scope_note": "no CUDA GPU here; the support table was evaluated, DeepGEMM was not run"}

    cap = ctx.capability()
    sm = ctx.sm()
    table = _table_for(cap)
    metrics: dict = {"capability": f"{cap[0]}.{cap[1]}", "table": table}
    if importlib.util.find_spec("deep_gemm") is None:
        metrics.update(executed=False, deep_gemm="not installed")
        f32 = documented(cap, "float32", 1)
        scope = f"DeepGEMM is not installed on this {sm} GPU; the documented support table was evaluated, not executed"
        metrics["table_predicts"] = "reproduced" if f32["error"] else "not-reproduced"
        if f32["error"]:
            return {"verdict": "not-executed",
                    "reason": f"DeepGEMM is not installed, so it was not run: by DeepGEMM main's documented table, {sm} "
                              f"has no layout for float32 scale factors ('{UNKNOWN}')",
                    "metrics": metrics, "real_path": False, "machine_independent": False, "scope_note": scope}
        return {"verdict": "not-executed",
                "reason": f"DeepGEMM is not installed, so it was not run: by DeepGEMM main's documented table, {sm} "
                          f"has a float32 SF layout ({f32['layout']})",
                "metrics": metrics, "real_path": False, "machine_independent": False, "scope_note": scope}

    metrics["deep_gemm"] = _dg_version()
    with ctx.gpu_timer():
        res = P.run_cases(["import", *CASES])
    metrics["children"] = res.pop("_children")
    metrics["warm_child"] = res.pop("_warm")
    imp = res.get("import", {})
    if imp.get("ok"):
        metrics["deep_gemm"] += f", version {imp.get('version')} at {os.path.dirname(imp.get('file') or '')}"
    calls = {}
    disagreements = []
    for case, (dt, g, k, what) in CASES.items():
        r = res.get(case)
        if r is None:
            continue
        doc = documented(cap, dt, g, k)
        call = {"what": what, "ok": bool(r.get("ok"))}
        if r.get("ok"):
            call.update(out_dtype=r.get("out_dtype"), out_shape=r.get("out_shape"), out_stride=r.get("out_stride"))
        else:
            call["error"] = r.get("error")
            for key in ("crashed", "timed_out", "stderr_tail"):
                if key in r:
                    call[key] = r[key]
        if not r.get("crashed") and not r.get("timed_out"):
            call["table_agrees"] = (doc["error"] is None) == bool(r.get("ok"))
            if not call["table_agrees"]:
                disagreements.append(case)
        calls[case] = call
    metrics.update(executed=True, calls=calls, table_disagreements=disagreements)
    torch_version = C.torch.__version__
    pkg = os.path.dirname(imp.get("file") or "") or None
    static = static_cxx_runtime(pkg) if any(isinstance(r, dict) and r.get("crashed") for r in res.values()) else None
    if static is not None:
        metrics["static_cxx_runtime"] = static
    bad = mismatch_reason(res, torch_version, static)
    scope = f"DeepGEMM's transform was executed on this {sm} GPU"
    if bad:
        return {"verdict": "error", "reason": bad, "metrics": metrics, "real_path": False,
                "machine_independent": False, "scope_note": scope}
    timed = [c for c, r in calls.items() if r.get("timed_out")]
    if timed:
        return {"verdict": "error", "reason": f"DeepGEMM did not answer within the probe's time for {', '.join(timed)}",
                "metrics": metrics, "real_path": False, "machine_independent": False, "scope_note": scope}
    refused = {c: r["error"] for c, r in calls.items() if not r["ok"]}
    f32_std = [c for c in ("sfa_f32_1x128", "sfb_f32_128x128") if c in refused]
    others = "; ".join(f"{CASES[c][3]}: '{refused[c]}'" for c in refused if c not in f32_std)
    if f32_std:
        return {"verdict": "reproduced",
                "reason": f"DeepGEMM has no float32 SF layout on this {sm} GPU: "
                          + "; ".join(f"{CASES[c][3]}: '{refused[c]}'" for c in f32_std),
                "metrics": metrics, "real_path": True, "machine_independent": False, "scope_note": scope}
    return {"verdict": "not-reproduced",
            "reason": f"DeepGEMM lays out float32 block SFs (1x128 and 128x128) on this {sm} GPU"
                      + (f"; it refuses {others}" if others else ""),
            "metrics": metrics, "real_path": True, "machine_independent": False, "scope_note": scope}


if __name__ == "__main__":
    C.main(ID, body, __file__)
