"""Shared plumbing for the repro kernels: argument parsing, device choice, FP8 block quantization,
error metrics, timing and the one JSON object each kernel prints.

Every kernel is a script run in its own subprocess (``python <file> --device auto|cuda|cpu --json``).
It calls :func:`main` with its id and a body function; the body returns a dict with ``verdict``,
``reason`` and ``metrics`` (and optionally ``real_path``, ``machine_independent``, ``scope_note``);
:func:`main` adds the device, versions, timings and the re-run command, and prints one JSON object.
Anything the body raises becomes verdict ``error`` with the exception text, so a kernel never dies
without a result unless the process itself crashes (the runner handles that case).

torch is imported here, never by the fp8triage package itself.
"""
from __future__ import annotations

import time

_T0 = time.perf_counter()

import argparse  # noqa: E402
import importlib.metadata  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import shlex  # noqa: E402
import sys  # noqa: E402
import traceback  # noqa: E402
from typing import Any, Callable  # noqa: E402

try:  # the kernels must be able to say "no torch" in their JSON instead of crashing
    import torch
except ImportError:  # pragma: no cover - exercised only where torch is absent
    torch = None  # type: ignore[assignment]

VERDICTS = ("reproduced", "not-reproduced", "not-executed", "not-applicable", "skipped", "error")
# "mechanism": reproduced = the failure mechanism was shown; "remedy-check": reproduced = the remedy
# computed the right answer (such a result never confirms a cause)
KINDS = {"triton-fp32-block-scales": "remedy-check", "per-tensor-fp8": "remedy-check",
         "grouped-mm-experts": "remedy-check"}
FP8_MAX = 448.0  # largest finite float8_e4m3fn value
BLOCK = 128  # DeepSeek-style block size: 1x128 activations, 128x128 weights


# ── result plumbing ────────────────────────────────────────────────────────────────────────────────


def _versions() -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for dist in ("torch", "triton", "transformers", "kernels"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            out[dist] = None
    if torch is not None:
        out["torch"] = torch.__version__  # with the local build tag (+cu130, +cpu)
        out["cuda"] = torch.version.cuda
    out["python"] = platform.python_version()
    return out


class Ctx:
    """What a kernel body gets: the chosen device, a seeded generator and a GPU timer."""

    def __init__(self, kid: str, requested: str, device: str):
        self.id = kid
        self.requested = requested
        self.device = device  # "cuda" or "cpu"
        self.mode = "cuda" if device == "cuda" else "cpu-emulation"
        self._gpu_ms = 0.0
        self._events: list[tuple[Any, Any]] = []

    @property
    def is_cuda(self) -> bool:
        return self.device == "cuda"

    def capability(self) -> tuple[int, int] | None:
        if self.is_cuda:
            return tuple(torch.cuda.get_device_capability())  # type: ignore[return-value]
        return None

    def generator(self, seed: int) -> "torch.Generator":
        g = torch.Generator(device="cpu")
        g.manual_seed(seed)
        return g

    def randn(self, *shape: int, seed: int, scale: float = 1.0) -> "torch.Tensor":
        """Deterministic normal data, drawn on the CPU so every device sees the same numbers."""
        t = torch.randn(*shape, generator=self.generator(seed), dtype=torch.float32) * scale
        return t.to(self.device)

    def gpu_timer(self):
        """Context manager adding the region's GPU time (CUDA events) to ``gpu_s``."""
        ctx = self

        class _T:
            def __enter__(self_inner):
                if ctx.is_cuda:
                    self_inner.a = torch.cuda.Event(enable_timing=True)
                    self_inner.b = torch.cuda.Event(enable_timing=True)
                    self_inner.a.record()
                return self_inner

            def __exit__(self_inner, *exc):
                if ctx.is_cuda and exc[0] is None:
                    self_inner.b.record()
                    ctx._events.append((self_inner.a, self_inner.b))
                return False

        return _T()

    def gpu_seconds(self) -> float | None:
        if not self.is_cuda or not self._events:  # null: no GPU work was timed
            return None
        try:
            torch.cuda.synchronize()
            return round(sum(a.elapsed_time(b) for a, b in self._events) / 1000.0, 6)
        except Exception:  # a sticky CUDA error: the timings are lost, the verdict is not
            return None

    def sm(self) -> str:
        cap = self.capability()
        return f"SM{cap[0]}{cap[1]}" if cap else "no GPU"


def _device_info(device: str) -> tuple[str, str | None]:
    if torch is not None and device == "cuda":
        try:
            cap = torch.cuda.get_device_capability()
            return torch.cuda.get_device_name(), f"{cap[0]}.{cap[1]}"
        except Exception as e:  # pragma: no cover
            return f"cuda (unreadable: {e})", None
    return f"cpu ({platform.machine() or 'unknown'})", None


def _command(script: str, requested: str) -> str:
    return shlex.join([sys.executable, os.path.abspath(script), "--device", requested, "--json"])


def _emit(res: dict[str, Any], as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(res, sort_keys=False, default=_jsonable) + "\n")
    else:
        sys.stdout.write(f"{res['id']}: {res['verdict']} ({res['mode']}) - {res['reason']}\n")
        for k, v in res["metrics"].items():
            sys.stdout.write(f"  {k}: {v}\n")
    sys.stdout.flush()


def _jsonable(x: Any) -> Any:
    if torch is not None and isinstance(x, torch.Tensor):
        return x.tolist()
    return str(x)


def clean(x: Any) -> Any:
    """Metrics as plain JSON: floats rounded to 6 significant digits, NaN/inf as strings."""
    if isinstance(x, dict):
        return {str(k): clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [clean(v) for v in x]
    if torch is not None and isinstance(x, torch.Tensor):
        return clean(x.tolist() if x.numel() != 1 else x.item())
    if isinstance(x, float):
        if math.isnan(x) or math.isinf(x):
            return str(x)
        return float(f"{x:.6g}")
    return x


def main(kid: str, body: Callable[[Ctx], dict[str, Any]], script: str) -> None:
    ap = argparse.ArgumentParser(description=f"fp8triage repro kernel {kid}")
    ap.add_argument("--device", choices=("auto", "cuda", "cpu"), default="auto")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    # a warm worker (fp8triage/confirm/repro_worker.py) runs many kernels in one process and says when this one began
    t0 = float(os.environ.get("FP8TRIAGE_KERNEL_T0") or _T0)

    res: dict[str, Any] = {
        "id": kid,
        "verdict": "error",
        "reason": "",
        "metrics": {},
        "device": None,
        "capability": None,
        "versions": _versions(),
        "wall_s": None,
        "gpu_s": None,
        "command": _command(script, args.device),
        "mode": "cpu-emulation",
        "real_path": False,
        "machine_independent": False,
        "scope_note": "",
        "kind": KINDS.get(kid, "mechanism"),
    }
    if torch is None:
        res.update(verdict="skipped", reason="torch is not installed; install fp8triage[repro] to run repro kernels")
        res["device"], res["capability"] = _device_info("cpu")
        res["wall_s"] = round(time.perf_counter() - t0, 4)
        _emit(res, args.json)
        return

    device = args.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        res.update(verdict="skipped", reason="--device cuda was asked for, but torch sees no CUDA device")
        res["device"], res["capability"] = _device_info("cpu")
        res["wall_s"] = round(time.perf_counter() - t0, 4)
        _emit(res, args.json)
        return

    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    ctx = Ctx(kid, args.device, device)
    res["mode"] = ctx.mode
    res["device"], res["capability"] = _device_info(device)
    try:
        out = body(ctx)
        verdict = out.get("verdict")
        if verdict not in VERDICTS:
            raise ValueError(f"kernel returned an unknown verdict {verdict!r}")
        res["verdict"] = verdict
        res["reason"] = str(out.get("reason", ""))
        res["metrics"] = clean(out.get("metrics", {}))
        for key in ("real_path", "machine_independent"):
            res[key] = bool(out.get(key, False))
        res["scope_note"] = str(out.get("scope_note", ""))
    except Exception as e:  # the kernel's own failure: report it, never die silently
        res["verdict"] = "error"
        res["reason"] = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}".strip()
        res["metrics"] = {"traceback_tail": traceback.format_exc().strip().splitlines()[-6:]}
    res["gpu_s"] = ctx.gpu_seconds()
    res["wall_s"] = round(time.perf_counter() - t0, 4)
    _emit(res, args.json)


# ── FP8 block quantization (my own formulation of the DeepSeek 1x128 / 128x128 recipe) ─────────────


def ceil_pow2(s: "torch.Tensor") -> "torch.Tensor":
    """Round positive float32 values up to the next power of two by clearing the mantissa with a carry.

    Exact in the bit pattern: a value that already is a power of two is unchanged; anything else moves
    to the next exponent. This is what rounding a float32 scale to UE8M0 does.
    """
    bits = s.contiguous().view(torch.int32)
    mant = (1 << 23) - 1
    return ((bits + mant) & ~mant).view(torch.float32)


def _amax_blocks(x: "torch.Tensor", rows: int, cols: int) -> "torch.Tensor":
    m, k = x.shape
    assert m % rows == 0 and k % cols == 0, f"shape {tuple(x.shape)} is not a multiple of ({rows}, {cols})"
    blk = x.abs().reshape(m // rows, rows, k // cols, cols)
    return blk.amax(dim=(1, 3)).clamp_min(1e-6)


def expand_scale(s: "torch.Tensor", rows: int, cols: int) -> "torch.Tensor":
    """(M/rows, K/cols) block scales → one scale per element (M, K)."""
    return s.repeat_interleave(rows, dim=0).repeat_interleave(cols, dim=1)


def quantize_blocks(x: "torch.Tensor", rows: int, cols: int, pow2: bool = False):
    """Quantize ``x`` to float8_e4m3fn with one float32 scale per (rows x cols) block.

    Returns (q, s) with ``x ≈ q.float() * s`` blockwise. With ``pow2`` the scale is rounded up to a
    power of two *before* the data is divided by it (the requantize fix).
    """
    s = _amax_blocks(x.float(), rows, cols) / FP8_MAX
    if pow2:
        s = ceil_pow2(s)
    q = (x.float() / expand_scale(s, rows, cols)).clamp(-FP8_MAX, FP8_MAX).to(torch.float8_e4m3fn)
    return q, s.float()


def randn_cpu(*shape: int, seed: int, scale: float = 1.0) -> "torch.Tensor":
    """Seeded normal data on the CPU (callers move it): the same numbers on every machine."""
    g = torch.Generator(device="cpu")
    g.manual_seed(seed)
    return torch.randn(*shape, generator=g, dtype=torch.float32) * scale


def dequantize_blocks(q: "torch.Tensor", s: "torch.Tensor", rows: int, cols: int) -> "torch.Tensor":
    return q.float() * expand_scale(s, rows, cols)


def quant_act(x, pow2=False):
    return quantize_blocks(x, 1, BLOCK, pow2)


def quant_weight(w, pow2=False):
    return quantize_blocks(w, BLOCK, BLOCK, pow2)


def emulated_block_gemm(qa, sa, qw, sw) -> "torch.Tensor":
    """y = dequant(a) @ dequant(w).T in float32: what a correct block-scaled FP8 GEMM computes."""
    return dequantize_blocks(qa, sa, 1, BLOCK) @ dequantize_blocks(qw, sw, BLOCK, BLOCK).t()


# ── metrics ───────────────────────────────────────────────────────────────────────────────────────


def compare(out: "torch.Tensor", ref: "torch.Tensor") -> dict[str, float]:
    """Relative Frobenius error, cosine similarity and norm ratio of ``out`` against ``ref`` (float64)."""
    o = out.detach().double().flatten()
    r = ref.detach().double().flatten()
    rn = r.norm().item()
    on = o.norm().item()
    return {
        "rel_err": (o - r).norm().item() / rn if rn else float("inf"),
        "cosine": (o @ r).item() / (on * rn) if on and rn else 0.0,
        "norm_ratio": on / rn if rn else float("inf"),
        "finite": bool(torch.isfinite(o).all().item()),
    }


def exact_matmul(a: "torch.Tensor", w: "torch.Tensor") -> "torch.Tensor":
    """a @ w.T in float64: the reference every FP8 result is compared with."""
    return a.double() @ w.double().t()


# ── torch._scaled_mm helpers ──────────────────────────────────────────────────────────────────────


def scaled_mm_blockwise(qa, sa, qw, sw, layout_cache: dict | None = None):
    """DeepSeek-style blockwise ``torch._scaled_mm`` (SM90): activation scale (M, K/128) column-major,
    weight scale (K/128, N/128). Tries the weight-scale strides that torch versions have accepted and
    records the one that worked in ``layout_cache['weight_scale_layout']``.
    """
    a_scale = sa.t().contiguous().t()  # (M, K/128), column-major
    candidates = [
        ("(K/128, N/128) from sw.t() (column-major)", sw.t()),
        ("(K/128, N/128) contiguous (row-major)", sw.t().contiguous()),
    ]
    if layout_cache is not None and "weight_scale_layout" in layout_cache:
        candidates = [c for c in candidates if c[0] == layout_cache["weight_scale_layout"]]
    errors = []
    for name, b_scale in candidates:
        try:
            out = torch._scaled_mm(qa, qw.t(), scale_a=a_scale, scale_b=b_scale, out_dtype=torch.bfloat16)
        except RuntimeError as e:
            errors.append(f"{name}: {str(e).splitlines()[0]}")
            continue
        if layout_cache is not None:
            layout_cache["weight_scale_layout"] = name
        return out
    raise RuntimeError("blockwise torch._scaled_mm rejected every scale layout: " + "; ".join(errors))


def blockwise_scaled_mm_supported(ctx: Ctx) -> tuple[bool, str]:
    """Whether this device has torch's cuBLAS DeepSeek-style blockwise FP8 path (SM90 only)."""
    cap = ctx.capability()
    if cap is None:
        return False, "no CUDA device"
    if cap != (9, 0):
        return False, f"torch's blockwise (1x128, 128x128) _scaled_mm is SM90-only; this GPU is SM{cap[0]}{cap[1]}"
    return True, "SM90"


def triton_available() -> tuple[bool, str]:
    try:
        import triton  # noqa: F401
        import triton.language  # noqa: F401
    except Exception as e:  # ImportError, or a broken install
        return False, f"triton cannot be imported ({type(e).__name__}: {e})"
    return True, ""
