"""fp8-capability: can this GPU run FP8 tensor-core GEMMs at all?

Checks the compute capability (FP8 e4m3 MMA needs SM89 or newer), then runs a tiny per-tensor
``torch._scaled_mm`` and a tiny Triton ``tl.dot`` on float8_e4m3fn operands, each compared with a
float32 matmul of the same FP8 values, and keeps the real error text when one fails (for example
"torch._scaled_mm is only supported on CUDA devices with compute capability >= 9.0 or 8.9" or
Triton's "fp8e4nv not supported in this architecture").

Verdict ``reproduced`` means the failure mechanism is present: this GPU cannot run FP8 GEMMs (pre-Ada
GPUs, signature RC-PRE-ADA). ``not-reproduced``: both FP8 paths ran and were right. With
``--device cpu`` there is no GPU to judge: ``not-applicable``, with torch's CPU float8 support recorded.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402
from _common import torch  # noqa: E402

ID = "fp8-capability"
GROUP = ("torch-only", 2)  # a short kernel: on the worker of the other torch-only kernels


def _err(e: Exception) -> str:
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"


def body(ctx: C.Ctx) -> dict:
    a32 = ctx.randn(16, 64, seed=51)
    b32 = ctx.randn(64, 32, seed=52)
    a = a32.clamp(-C.FP8_MAX, C.FP8_MAX).to(torch.float8_e4m3fn)
    b = b32.clamp(-C.FP8_MAX, C.FP8_MAX).to(torch.float8_e4m3fn)
    ref = a.float() @ b.float()
    metrics: dict = {"float8_dtypes": [n for n in ("float8_e4m3fn", "float8_e5m2", "float8_e8m0fnu") if hasattr(torch, n)]}
    if not ctx.is_cuda:
        try:
            out = torch._scaled_mm(a, b.t().contiguous().t(), scale_a=torch.tensor(1.0), scale_b=torch.tensor(1.0),
                                   out_dtype=torch.float32)
            metrics["cpu_scaled_mm_rel_err"] = C.compare(out, ref)["rel_err"]
        except Exception as e:
            metrics["cpu_scaled_mm"] = _err(e)
        return {"verdict": "not-applicable",
                "reason": "no CUDA GPU: whether a GPU runs FP8 GEMMs can only be judged on that GPU "
                          "(torch's CPU float8 types work here)",
                "metrics": metrics, "scope_note": "no CUDA GPU here"}

    cap = ctx.capability()
    metrics["capability"] = f"{cap[0]}.{cap[1]}"
    metrics["fp8_mma_by_capability"] = cap >= (8, 9)
    # 1) torch._scaled_mm, per-tensor scales
    one = torch.tensor(1.0, device="cuda")
    try:
        torch._scaled_mm(a, b.t().contiguous().t(), scale_a=one, scale_b=one, out_dtype=torch.float32)  # warm-up
        torch.cuda.synchronize()
        with ctx.gpu_timer():
            out = torch._scaled_mm(a, b.t().contiguous().t(), scale_a=one, scale_b=one, out_dtype=torch.float32)
        torch.cuda.synchronize()
        r = C.compare(out, ref)
        metrics["scaled_mm"] = {"ok": r["rel_err"] < 1e-3, "rel_err": r["rel_err"]}
    except Exception as e:
        metrics["scaled_mm"] = {"ok": False, "error": _err(e)}
    # 2) a Triton FP8 dot
    ok, why = C.triton_available()
    if not ok:
        metrics["triton_dot"] = {"ok": None, "error": why}
    else:
        try:
            import time

            import _triton_fp8 as TK

            t = time.perf_counter()
            TK.fp8_dot(a.contiguous(), b.contiguous())  # first call: compiles
            torch.cuda.synchronize()
            metrics["triton_first_call_s_incl_compile"] = time.perf_counter() - t
            with ctx.gpu_timer():
                out = TK.fp8_dot(a.contiguous(), b.contiguous())
            torch.cuda.synchronize()
            r = C.compare(out, ref)
            metrics["triton_dot"] = {"ok": r["rel_err"] < 1e-3, "rel_err": r["rel_err"]}
        except Exception as e:
            metrics["triton_dot"] = {"ok": False, "error": _err(e)}
    sm = ctx.sm()
    sm_ok = metrics["scaled_mm"]["ok"]
    tr_ok = metrics["triton_dot"]["ok"]
    failures = [f"{k}: {metrics[k].get('error', 'wrong result')}" for k in ("scaled_mm", "triton_dot")
                if metrics[k]["ok"] is False]
    scope = f"ran on this {sm} GPU"
    if sm_ok and tr_ok is not False:
        return {"verdict": "not-reproduced",
                "reason": f"this {sm} GPU runs FP8 tensor-core GEMMs: torch._scaled_mm rel err "
                          f"{metrics['scaled_mm']['rel_err']:.1e}"
                          + (f", Triton fp8 dot rel err {metrics['triton_dot']['rel_err']:.1e}" if tr_ok else
                             f" (Triton not checked: {metrics['triton_dot'].get('error')})"),
                "metrics": metrics, "real_path": True, "scope_note": scope}
    return {"verdict": "reproduced",
            "reason": f"this {sm} GPU cannot run FP8 GEMMs" + ("" if cap >= (8, 9) else " (FP8 MMA needs SM89+)")
                      + ": " + "; ".join(failures),
            "metrics": metrics, "real_path": True, "scope_note": scope}


if __name__ == "__main__":
    C.main(ID, body, __file__)
