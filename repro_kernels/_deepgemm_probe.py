"""Call the installed DeepGEMM (``deep_gemm``) in a child process, one case after another.

DeepGEMM is a compiled extension: a build that does not match this torch can fail at import
(undefined symbol) or crash the process at its first call that takes a tensor (SIGSEGV). So the
kernels that use it never import it themselves; they call :func:`run_cases`, which sends the cases to
a child process running this script,

    python _deepgemm_probe.py --serve [CASE...]     (the runner's form: CASEs first, then batches on stdin)
    python _deepgemm_probe.py CASE [CASE...]        (one batch, then exit: for a shell)

The child prints one JSON line when a case starts and one when it ends. The parent side reads those
lines, names the case during which the child died and the signal, and starts a new child for the
cases that are left. One child serves every kernel of a process: a warm worker that runs both
DeepGEMM kernels starts it with :func:`prestart` while it imports torch itself (the kernel declares
``PRESTART = ("_deepgemm_probe:prestart",)``), so the child's torch import, CUDA context and
``import deep_gemm`` overlap the worker's own start instead of following it. Cases:

  import                 import deep_gemm; version, file, the torch it runs against
  sfa_f32_1x128          transform_sf_into_required_layout, float32 activation SFs, recipe (1, 128, 128)
                         (on SM90 this launches DeepGEMM's JIT transpose kernel)
  sfb_f32_128x128        the same for float32 weight SFs (128x128 blocks; a layout check on SM90)
  sfa_ue8m0_int32        packed UE8M0 (int32, 4 exponents per word) activation SFs, recipe (1, 1, 128)
  sfa_f32_gran_k32       float32 activation SFs with K granularity 32 (the MXFP8 recipe (1, 1, 32))
  gemm_f32               fp8_gemm_nt with float32 block scales (1x128 activations, 128x128 weights)
  gemm_rounded           the same with the scales rounded up to powers of two, data NOT requantized
  gemm_requant           the data requantized against power-of-two scales (the fix)

This module imports only the standard library (the worker imports it before torch).
"""
from __future__ import annotations

import collections
import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import threading
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


def _run_batch(cases, state) -> bool:
    """Run the cases in this child; False after a failed ``import deep_gemm`` (nothing more can run)."""
    C, torch = state["C"], state["C"].torch
    for name in cases:
        _emit({"case": name, "phase": "start"})
        t = time.perf_counter()
        try:
            if state["dg"] is None:
                import deep_gemm

                state["dg"] = deep_gemm
            dg = state["dg"]
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
            return False
    return True


def child(cases, serve: bool = False) -> None:
    """Run ``cases``; with ``serve``, then one batch per stdin line (a JSON list of case names) until EOF."""
    t0 = time.perf_counter()
    _emit({"case": "_start", "pid": os.getpid()})
    sys.path.insert(0, HERE)
    import _common as C  # noqa: E402  (imports torch)

    if DEV == "cuda" and C.torch is not None and C.torch.cuda.is_available():
        C.torch.zeros(1, device="cuda")  # the CUDA context, before the first case asks for it
    _emit({"case": "_ready", "seconds": round(time.perf_counter() - t0, 3)})
    state = {"C": C, "dg": None}
    if not _run_batch(cases, state) or not serve:
        return
    for line in sys.stdin:
        try:
            batch = json.loads(line)
        except ValueError:
            continue
        if isinstance(batch, list) and not _run_batch([str(c) for c in batch], state):
            return


# ── parent side ──────────────────────────────────────────────────────────────────────────────────


def _signal_name(rc: int) -> str:
    try:
        return signal.Signals(-rc).name
    except ValueError:
        return f"signal {-rc}"


class Probe:
    """One child process serving case batches; its results stay readable after it died."""

    def __init__(self, python: str | None = None, warm=()):
        self.proc = subprocess.Popen([python or sys.executable, os.path.abspath(__file__), "--serve", *warm],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, errors="replace")
        # same process group as the caller: a runner that kills a hung kernel kills this child too
        self.events: queue.Queue = queue.Queue()
        self.stderr: collections.deque = collections.deque(maxlen=40)
        self.done: dict = {}  # case -> its end line (the warm-up import arrives before anyone asks)
        self.current: str | None = None
        self.ready_s: float | None = None
        self.t0 = time.perf_counter()
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            self.events.put(line)
        self.events.put(None)

    def _read_err(self) -> None:
        for line in self.proc.stderr:  # type: ignore[union-attr]
            self.stderr.append(line.rstrip("\n")[:300])

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _take(self, line) -> None:
        try:
            obj = json.loads(line)
        except ValueError:
            return
        if not isinstance(obj, dict):
            return
        if obj.get("case") == "_ready":
            self.ready_s = obj.get("seconds")
        elif obj.get("phase") == "start":
            self.current = obj.get("case")
        elif obj.get("phase") == "end":
            self.done[obj.get("case")] = obj
            self.current = None

    def run(self, cases, deadline: float) -> tuple[dict, str]:
        """The cases' results and ``ok``, ``died``, ``import-error`` or ``timeout``. ``import`` is answered
        from the warm-up when the child already did it; every other case runs again."""
        want = list(cases)
        for c in want:
            if c != "import":
                self.done.pop(c, None)
        send = [c for c in want if c not in self.done]
        if send:
            try:
                self.proc.stdin.write(json.dumps(send) + "\n")  # type: ignore[union-attr]
                self.proc.stdin.flush()  # type: ignore[union-attr]
            except (BrokenPipeError, OSError):
                pass  # it died: the EOF below says so
        state = "ok"
        while not all(c in self.done for c in want):
            if any(r.get("import_error") for r in self.done.values()):
                state = "import-error"  # the child stops after a failed import; say which import failed
                want += [c for c, r in self.done.items() if r.get("import_error") and c not in want]
                break
            try:
                line = self.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                state = "timeout"
                self.kill()
                break
            if line is None:
                state = "died"
                self.proc.wait()
                break
            self._take(line)
        return {c: self.done[c] for c in want if c in self.done}, state

    def kill(self) -> None:
        try:
            self.proc.kill()
            self.proc.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass

    def close(self) -> None:
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.kill()


_SHARED: Probe | None = None  # this process's child, kept for the next kernel that calls run_cases


def prestart(device: str = "auto") -> dict:
    """Start this process's DeepGEMM child now (it imports torch, creates the CUDA context and imports
    deep_gemm), so that a kernel that calls :func:`run_cases` later finds it warm. Does nothing where
    deep_gemm is not installed or the device is the CPU. Called by a warm worker before its own torch import."""
    global _SHARED
    if device == "cpu" and DEV == "cuda":
        return {"started": False, "why": "device cpu"}
    if importlib.util.find_spec("deep_gemm") is None:
        return {"started": False, "why": "deep_gemm is not installed"}
    if _SHARED is None or not _SHARED.alive():
        _SHARED = Probe(warm=("import",))
    return {"started": True, "pid": _SHARED.proc.pid}


def run_cases(cases, timeout: float = 240.0, python: str | None = None) -> dict:
    """Run the cases in the child (this process's warm one, else a new one); returns {case: result}
    plus ``_children`` (how many children served the call) and ``_warm`` (whether the first was warm).

    A case during which the child died gets ``{"ok": False, "crashed": "SIGSEGV", ...}``; a new child
    runs the cases after it. A child that runs past ``timeout`` is killed and its current case gets
    ``timed_out``. The last child stays up for the next call.
    """
    global _SHARED
    todo = list(cases)
    results: dict = {}
    children = 0
    warm = _SHARED is not None and _SHARED.alive() and python in (None, sys.executable)
    deadline = time.monotonic() + timeout
    while todo:
        if not (children == 0 and warm):  # a new child: the first call here, or the last one died
            if _SHARED is not None:
                _SHARED.close()
            _SHARED = Probe(python)
        children += 1
        probe = _SHARED
        got, state = probe.run(todo, deadline)
        results.update(got)
        if state in ("ok", "import-error"):
            break
        victim = probe.current or next(c for c in todo if c not in results)
        tail = list(probe.stderr)[-6:]
        if state == "timeout":
            results[victim] = {"case": victim, "ok": False, "timed_out": True,
                               "error": f"no result within {timeout:g} s", "stderr_tail": tail}
            break
        rc = probe.proc.returncode
        if rc is not None and rc < 0:
            results[victim] = {"case": victim, "ok": False, "crashed": _signal_name(rc),
                               "error": f"the process died with {_signal_name(rc)} during this call",
                               "stderr_tail": tail}
        else:
            results[victim] = {"case": victim, "ok": False,
                               "error": f"the child exited with status {rc} during this call", "stderr_tail": tail}
        todo = [c for c in todo if c not in results]
    results["_children"] = children
    results["_warm"] = warm
    return results


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        child(sys.argv[2:], serve=True)
    else:
        child(sys.argv[1:])
