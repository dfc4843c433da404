"""Call the installed DeepGEMM (``deep_gemm``) in a child process, one case after another.

DeepGEMM is a compiled extension: a build that does not match this torch can fail at import
(undefined symbol) or crash the process at its first call that takes a tensor (SIGSEGV). So the
kernels that use it never import it themselves; they run this script as a child,

    python _deepgemm_probe.py CASE [CASE...]

which prints one JSON line when a case starts and one when it ends. :func:`run_cases` (used by the
parent kernel) reads those lines, names the case during which the child died and the signal, and
starts a new child for the cases that are left. Cases:

  import                 import deep_gemm; version, file, the torch it runs against
  sfa_f32_1x128          transform_sf_into_required_layout, float32 activation SFs, recipe (1, 128, 128)
                         (on SM90 this launches DeepGEMM's JIT transpose kernel)
  sfb_f32_128x128        the same for float32 weight SFs (128x128 blocks; a layout check on SM90)
  sfa_ue8m0_int32        packed UE8M0 (int32, 4 exponents per word) activation SFs, recipe (1, 1, 128)
  sfa_f32_gran_k32       float32 activation SFs with K granularity 32 (the MXFP8 recipe (1, 1, 32))
  gemm_f32               fp8_gemm_nt with float32 block scales (1x128 activations, 128x128 weights)
  gemm_rounded           the same with the scales rounded up to powers of two, data NOT requantized
  gemm_requant           the data requantized against power-of-two scales (the fix)
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# where the probe's tensors live: the GPU (the real case); tests drive it on the CPU with a stand-in deep_gemm
DEV = os.environ.get("FP8TRIAGE_PROBE_DEVICE", "cuda")
LAYOUT_CASES = ("sfa_f32_1x128", "sfb_f32_128x128", "sfa_ue8m0_int32", "sfa_f32_gran_k32")
GEMM_CASES = ("gemm_f32", "gemm_rounded", "gemm_requant")
M, K, N = 256, 1024, 512


def _emit(obj) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0] if text else ''}".strip()


# ── child side ───────────────────────────────────────────────────────────────────────────────────


def _case_import(dg, C, torch):
    return {"version": getattr(dg, "__version__", None), "file": getattr(dg, "__file__", None),
            "torch": torch.__version__,
            "has": {n: hasattr(dg, n) for n in ("transform_sf_into_required_layout", "fp8_gemm_nt")}}


def _transform(dg, sf, mn, k, recipe, is_sfa):
    torch = sys.modules["torch"]
    out = dg.transform_sf_into_required_layout(sf, mn, k, recipe, None, is_sfa, False)
    if DEV == "cuda":
        torch.cuda.synchronize()
    return {"out_dtype": str(out.dtype).replace("torch.", ""), "out_shape": list(out.shape),
            "out_stride": list(out.stride()),
            "values_kept": bool(torch.equal(out.float().contiguous(), sf.float().contiguous()))
            if out.dtype == sf.dtype and out.shape == sf.shape else None}


def _case_layout(name, dg, C, torch):
    g = torch.Generator().manual_seed(7)
    mn, k = M, K
    if name == "sfa_f32_1x128":
        sf = (torch.rand(mn, k // 128, generator=g) + 0.5).to(DEV)
        return _transform(dg, sf, mn, k, (1, 128, 128), True)
    if name == "sfb_f32_128x128":
        sf = (torch.rand(mn // 128, k // 128, generator=g) + 0.5).to(DEV)
        return _transform(dg, sf, mn, k, (1, 128, 128), False)
    if name == "sfa_ue8m0_int32":
        # 4 UE8M0 exponent bytes per int32 word along K: (mn, ceil(k / 128 / 4)), MN-major as DeepGEMM wants
        words = (k // 128 + 3) // 4
        sf = torch.full((words, mn), 0x7F7F7F7F, dtype=torch.int32).to(DEV).t()
        return _transform(dg, sf, mn, k, (1, 1, 128), True)
    if name == "sfa_f32_gran_k32":
        sf = (torch.rand(mn, k // 32, generator=g) + 0.5).to(DEV)
        return _transform(dg, sf, mn, k, (1, 1, 32), True)
    raise KeyError(name)


def _gemm_fn(dg):
    fn = getattr(dg, "fp8_gemm_nt", None) or getattr(dg, "fp8_fp4_gemm_nt", None)
    if fn is None:
        raise AttributeError("this deep_gemm has neither fp8_gemm_nt nor fp8_fp4_gemm_nt")
    return fn


def _case_gemm(name, dg, C, torch):
    x = C.randn_cpu(M, K, seed=11).to(DEV)
    w = C.randn_cpu(N, K, seed=12, scale=K ** -0.5).to(DEV)
    if name == "gemm_requant":
        qa, sa = C.quant_act(x, pow2=True)
        qw, sw = C.quant_weight(w, pow2=True)
    else:
        qa, sa = C.quant_act(x)
        qw, sw = C.quant_weight(w)
        if name == "gemm_rounded":
            sa, sw = C.ceil_pow2(sa), C.ceil_pow2(sw)
    fn = _gemm_fn(dg)
    out = torch.full((M, N), float("nan"), dtype=torch.bfloat16, device="cuda")  # poisoned
    fn((qa, sa), (qw, sw), out)  # first call: JIT compile + launch
    torch.cuda.synchronize()
    t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    out.fill_(float("nan"))
    t0.record()
    fn((qa, sa), (qw, sw), out)
    t1.record()
    torch.cuda.synchronize()
    exact = C.exact_matmul(x, w)
    ref32 = C.emulated_block_gemm(qa, sa, qw, sw)  # float32 reference of the same operands and scales
    return {"shape": {"M": M, "K": K, "N": N}, "all_written": bool(torch.isfinite(out).all().item()),
            "vs_exact": C.clean(C.compare(out, exact)), "vs_fp32_reference": C.clean(C.compare(out, ref32)),
            "gpu_ms": round(t0.elapsed_time(t1), 4)}


def child(cases) -> None:
    _emit({"case": "_start", "pid": os.getpid()})
    sys.path.insert(0, HERE)
    import _common as C  # noqa: E402  (imports torch)
    torch = C.torch
    dg = None
    for name in cases:
        _emit({"case": name, "phase": "start"})
        t = time.perf_counter()
        try:
            if dg is None:
                import deep_gemm as dg  # noqa: F811
            if name == "import":
                out = _case_import(dg, C, torch)
            elif name in LAYOUT_CASES:
                out = _case_layout(name, dg, C, torch)
            elif name in GEMM_CASES:
                out = _case_gemm(name, dg, C, torch)
            else:
                raise KeyError(f"unknown case {name!r}")
            res = {"ok": True, **out}
        except ImportError as e:
            res = {"ok": False, "import_error": True, "error": _first_line(e)}
        except Exception as e:  # RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation
            res = {"ok": False, "error": _first_line(e)}
        res.update(case=name, phase="end", seconds=round(time.perf_counter() - t, 3))
        _emit(res)
        if res.get("import_error"):
            return


# ── parent side ──────────────────────────────────────────────────────────────────────────────────


def _signal_name(rc: int) -> str:
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


def run_cases(cases, timeout: float = 240.0, python: str | None = None) -> dict:
    """Run the cases in child processes; returns {case: result} plus ``_children`` (how many ran).

    A case during which the child died gets ``{"ok": False, "crashed": "SIGSEGV", ...}``; the child
    is restarted for the cases after it. A child that runs past ``timeout`` is killed and its
    current case gets ``timed_out``.
    """
    python = python or sys.executable
    todo = list(cases)
    results: dict = {}
    children = 0
    deadline = time.monotonic() + timeout
    while todo:
        children += 1
        cmd = [python, os.path.abspath(__file__), *todo]
        # same process group as the caller: a runner that kills a hung kernel kills this child too
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                text=True, errors="replace")
        try:
            out, err = proc.communicate(timeout=max(1.0, deadline - time.monotonic()))
            timed_out = False
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            timed_out = True
        current = None
        for line in out.splitlines():
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if not isinstance(obj, dict) or obj.get("case") == "_start":
                continue
            if obj.get("phase") == "start":
                current = obj["case"]
            elif obj.get("phase") == "end":
                results[obj["case"]] = obj
                current = None
        done = [c for c in todo if c in results]
        stderr_tail = [ln[:300] for ln in err.strip().splitlines()[-6:]]
        if current is None and len(done) == len(todo):
            break
        if results.get("import", {}).get("import_error") or any(r.get("import_error") for r in results.values()):
            break
        victim = current or next(c for c in todo if c not in results)
        if timed_out:
            results[victim] = {"case": victim, "ok": False, "timed_out": True,
                               "error": f"no result within {timeout:g} s", "stderr_tail": stderr_tail}
        elif proc.returncode < 0:
            results[victim] = {"case": victim, "ok": False, "crashed": _signal_name(proc.returncode),
                               "error": f"the process died with {_signal_name(proc.returncode)} during this call",
                               "stderr_tail": stderr_tail}
        else:
            results[victim] = {"case": victim, "ok": False,
                               "error": f"the child exited with status {proc.returncode} during this call",
                               "stderr_tail": stderr_tail}
        if timed_out:
            break
        todo = [c for c in todo if c not in results]
    results["_children"] = children
    return results


if __name__ == "__main__":
    child(sys.argv[1:])
