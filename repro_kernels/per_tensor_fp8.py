"""per-tensor-fp8 (remedy check): per-tensor scaled FP8 GEMM through ``torch._scaled_mm`` computes the
right answer on this GPU. One float32 scale for the whole activation and one for the whole weight:
no block scales, so no scale-factor layout, no UE8M0 rounding and no DeepGEMM (the route a per-tensor
FP8 checkpoint, or the Triton/CUTLASS per-tensor backends, take).

Verdict ``reproduced`` means the remedy worked: the result matches the dequantized reference to bf16
output rounding and the exact product to FP8 quantization error. With ``--device cpu`` torch's CPU
``_scaled_mm`` is used where this torch has one, else dequantize-and-multiply.
"""
from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _common as C  # noqa: E402
from _common import torch  # noqa: E402

ID = "per-tensor-fp8"
GROUP = ("torch-only", 3)  # a short kernel: on the worker of the other torch-only kernels
M, K, N = 256, 1024, 512


def quant_tensor(t):
    s = (t.abs().amax().clamp_min(1e-6) / C.FP8_MAX).float()
    q = (t / s).clamp(-C.FP8_MAX, C.FP8_MAX).to(torch.float8_e4m3fn)
    return q, s


def body(ctx: C.Ctx) -> dict:
    x = ctx.randn(M, K, seed=31)
    w = ctx.randn(N, K, seed=32, scale=K ** -0.5)
    qa, sa = quant_tensor(x)
    qw, sw = quant_tensor(w)
    exact = C.exact_matmul(x, w)
    dequant_ref = (qa.float() * sa) @ (qw.float() * sw).t()
    metrics: dict = {"shape": {"M": M, "K": K, "N": N}, "scale_a": sa.item(), "scale_b": sw.item()}
    if ctx.is_cuda and ctx.capability() < (8, 9):
        try:
            torch._scaled_mm(qa, qw.t(), scale_a=sa, scale_b=sw, out_dtype=torch.bfloat16)
            err = "no error raised"
        except Exception as e:
            err = f"{type(e).__name__}: {str(e).splitlines()[0]}"
        metrics["error"] = err
        return {"verdict": "not-applicable", "reason": f"this {ctx.sm()} GPU has no FP8 tensor cores: {err}",
                "metrics": metrics, "real_path": True}
    used = "torch._scaled_mm"
    try:
        if ctx.is_cuda:  # warm-up: cuBLASLt handle and heuristics stay out of gpu_s
            torch._scaled_mm(qa, qw.t(), scale_a=sa, scale_b=sw, out_dtype=torch.bfloat16)
        with ctx.gpu_timer():
            out = torch._scaled_mm(qa, qw.t(), scale_a=sa, scale_b=sw, out_dtype=torch.bfloat16)
    except Exception as e:
        if ctx.is_cuda:
            raise
        used = f"dequantize + float32 matmul (CPU _scaled_mm unavailable: {type(e).__name__})"
        out = dequant_ref.to(torch.bfloat16)
    metrics["backend"] = f"{used} per-tensor ({'CUDA ' + ctx.sm() if ctx.is_cuda else 'CPU'})"
    vs_dequant = C.compare(out.float(), dequant_ref)
    vs_exact = C.compare(out.float(), exact)
    metrics.update(vs_dequant_reference=vs_dequant, vs_exact=vs_exact)
    works = vs_exact["finite"] and vs_dequant["rel_err"] < 1e-2 and vs_exact["rel_err"] < 0.1 and vs_exact["cosine"] > 0.99
    where = f"on this {ctx.sm()} GPU" if ctx.is_cuda else "on the CPU"
    if works:
        verdict, reason = "reproduced", (
            f"remedy works {where}: per-tensor torch._scaled_mm gives relative error {vs_exact['rel_err']:.3f} vs the "
            f"exact product ({vs_dequant['rel_err']:.1e} vs the dequantized reference)")
    else:
        verdict, reason = "not-reproduced", (
            f"per-tensor FP8 GEMM was wrong {where}: rel err {vs_exact['rel_err']:.3g} vs exact, "
            f"{vs_dequant['rel_err']:.3g} vs the dequantized reference")
    return {"verdict": verdict, "reason": reason, "metrics": metrics, "real_path": ctx.is_cuda,
            "machine_independent": False,
            "scope_note": f"torch._scaled_mm ran {where}" if ctx.is_cuda else "no CUDA GPU here; checked with torch's CPU FP8 path"}


if __name__ == "__main__":
    C.main(ID, body, __file__)
