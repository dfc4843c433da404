"""deepgemm-sf-layout: does DeepGEMM have a scale-factor layout for this GPU and scale dtype?

DeepGEMM's ``transform_sf_into_required_layout`` (csrc/apis/layout.hpp, main 2.6.1) handles:
  float32 SFs, granularity (1,128) or (128,128), on arch 9 (or with disable_ue8m0_cast)  -> TMA-aligned float32
  float32 SFs, granularity (1|128, 32|128), on arch 10                                     -> packed UE8M0 (mantissa dropped)
  int32 (packed UE8M0) SFs, granularity (1, 32|128), on arch 10                            -> layout check only
  anything else                                                                           -> "Unknown SF transformation"
so SM120/SM121 (RTX 50xx, RTX PRO 6000, GB10) and SM110 have no layout on DeepGEMM main, and packed
UE8M0 SFs have none on SM90.

If ``deep_gemm`` is importable and a GPU is present, this kernel calls its transform on small tensors
(float32 SFs, recipe 1x128 for activations and 128x128 for weights) and reports the assertion text.
Otherwise it evaluates the support table above for this device (or, with ``--device cpu``, for every
architecture) and says that DeepGEMM was not executed.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402
from _common import torch  # noqa: E402

ID = "deepgemm-sf-layout"
UNKNOWN = "Unknown SF transformation"
ARCHS = [(8, 9), (9, 0), (10, 0), (10, 3), (11, 0), (12, 0), (12, 1)]


def documented(cap: tuple[int, int], sf_dtype: str, gran_mn: int) -> dict:
    """The layout.hpp branch DeepGEMM main (2.6.1) takes: documented behaviour, not executed."""
    major = cap[0]
    if sf_dtype == "float32" and major == 9:
        return {"layout": "float32 MN-major TMA-aligned" if gran_mn == 1 else "float32 (sm90 sfb check)", "error": None}
    if sf_dtype == "float32" and major == 10:
        return {"layout": "packed UE8M0 (float32 exponent only; non-power-of-two scales are wrong, "
                          "DeepGEMM >= 2.6.1 asserts)", "error": None}
    if sf_dtype == "ue8m0-packed" and major == 10 and gran_mn == 1:
        return {"layout": "packed UE8M0 (checked, not transformed)", "error": None}
    return {"layout": None, "error": f"Assertion error (csrc/apis/layout.hpp): {UNKNOWN}"}


def _table_for(cap):
    return {
        f"{dt}/gran_mn={g}": documented(cap, dt, g)
        for dt in ("float32", "ue8m0-packed")
        for g in (1, 128)
    }


def _run_deep_gemm(dg) -> dict:
    """Call deep_gemm's own transform on small float32 SFs (activation 1x128 and weight 128x128)."""
    fn = getattr(dg, "transform_sf_into_required_layout", None)
    if fn is None:
        return {"executed": False, "note": "deep_gemm has no transform_sf_into_required_layout"}
    mn, k = 256, 512
    out = {"executed": True, "calls": {}}
    cases = {
        "sfa_float32_1x128": (torch.rand(mn, k // 128, device="cuda") + 0.5, (1, 128), True),
        "sfb_float32_128x128": (torch.rand(mn // 128, k // 128, device="cuda") + 0.5, (128, 128), False),
    }
    for name, (sf, gran, is_sfa) in cases.items():
        try:
            try:
                r = fn(sf, mn, k, (1, 128, 128), None, is_sfa, False)
            except TypeError:  # older signatures
                r = fn(sf=sf, mn=mn, k=k, recipe=(1, gran[0], gran[1]), num_groups=None, is_sfa=is_sfa)
            torch.cuda.synchronize()
            out["calls"][name] = {"ok": True, "dtype": str(r.dtype), "shape": list(r.shape)}
        except Exception as e:  # RuntimeError: Assertion error (...layout.hpp:NN): Unknown SF transformation
            out["calls"][name] = {"ok": False, "error": f"{type(e).__name__}: {str(e).splitlines()[0]}"}
    return out


def body(ctx: C.Ctx) -> dict:
    if not ctx.is_cuda:
        tables = {f"SM{a}{b}": _table_for((a, b))["float32/gran_mn=1"]["error"] is None for a, b in ARCHS}
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
    try:
        import deep_gemm as dg  # noqa: F401
    except Exception as e:
        dg = None
        metrics["deep_gemm"] = f"not importable ({type(e).__name__}: {e})"
    if dg is not None:
        metrics["deep_gemm"] = getattr(dg, "__version__", "unknown version")
        with ctx.gpu_timer():
            run = _run_deep_gemm(dg)
        metrics.update(run)
        if run.get("executed"):
            bad = {k: v["error"] for k, v in run["calls"].items() if not v["ok"]}
            if bad:
                return {"verdict": "reproduced",
                        "reason": f"DeepGEMM {metrics['deep_gemm']} has no float32 SF layout on this {sm} GPU: "
                                  + "; ".join(f"{k}: {v}" for k, v in bad.items()),
                        "metrics": metrics, "real_path": True, "machine_independent": False,
                        "scope_note": f"DeepGEMM's transform was executed on this {sm} GPU"}
            return {"verdict": "not-reproduced",
                    "reason": f"DeepGEMM {metrics['deep_gemm']} laid out float32 SFs on this {sm} GPU without error",
                    "metrics": metrics, "real_path": True, "machine_independent": False,
                    "scope_note": f"DeepGEMM's transform was executed on this {sm} GPU"}
    metrics["executed"] = False
    f32 = table["float32/gran_mn=1"]
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


if __name__ == "__main__":
    C.main(ID, body, __file__)
