"""fp32-sf-guard: does the installed transformers guard the SM100 float32-scale DeepGEMM path?

On SM100 DeepGEMM consumes only UE8M0 scales; a float32-scale checkpoint reaching it gets its scales
rounded without requantization (transformers#47030: silently wrong output). Newer transformers raise
in ``_assert_sm100_requirements`` and skip DeepGEMM up front in ``fp8_linear``.

This kernel calls the library's own code, never a copy of it, with the GPU capability faked by
monkeypatching ``torch.cuda.get_device_capability`` (transformers re-queries it on every eager call):
  1. the guard ``transformers.integrations.deepgemm._assert_sm100_requirements`` at (10, 0), (12, 0) and
     (9, 0), with float32 and UE8M0 scales (the latter two are controls that must not raise);
  2. the dense dispatcher ``finegrained_fp8.fp8_linear`` and ``deepgemm_fp8_fp4_linear`` at (10, 0), with
     DeepGEMM reported loadable and the kernel loader replaced by a sentinel, so nothing is downloaded
     or launched: which backend would a float32-scale weight reach?
  3. on older releases without the guard, ``_coerce_sf_for_kernel``: does it round silently?
  4. when it is vulnerable and the library has ``deepgemm_fp8_fp4_linear``: that function itself, with SM100
     faked and DeepGEMM replaced by a stand-in that multiplies the FP8 operands with exactly the scales
     the library hands it (what an SM100 DeepGEMM computes from them), on this machine's GPU when there
     is one. The library's own code quantizes nothing again; the error it causes against the float32-scale
     product is ``metrics.rounding_path`` (the seed's mechanism, driven by the library's code).
Result (metrics.guard): ``protected`` (it raises / falls back), ``vulnerable`` (it would round
silently), or ``not-applicable`` (this transformers has no DeepGEMM path at all). ``metrics.transformers``
is the version judged.
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import inspect
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach the network, whatever the library tries
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")

import _common as C  # noqa: E402
from _common import torch  # noqa: E402

ID = "fp32-sf-guard"
HEAVY = True  # imports transformers (several seconds): the runner starts it first
GROUP = ("transformers", 1)  # after triton-fp32-block-scales, on its worker: transformers is imported there
PRELOAD = ("transformers.integrations.deepgemm", "transformers.integrations.finegrained_fp8")


class _ReachedKernelLoad(Exception):
    """Raised by the sentinel loader: the dispatch got as far as loading DeepGEMM."""


class _ReachedTriton(Exception):
    """Raised by the sentinel Triton fallback."""


@contextlib.contextmanager
def fake_capability(cap):
    real = torch.cuda.get_device_capability
    torch.cuda.get_device_capability = lambda device=None: cap  # type: ignore[assignment]
    try:
        yield
    finally:
        torch.cuda.get_device_capability = real  # type: ignore[assignment]


@contextlib.contextmanager
def patched(module, **attrs):
    saved = {k: getattr(module, k) for k in attrs if hasattr(module, k)}
    for k, v in attrs.items():
        setattr(module, k, v)
    try:
        yield
    finally:
        for k in attrs:
            if k in saved:
                setattr(module, k, saved[k])
            else:
                delattr(module, k)


def _call_guard(guard, cap, weight, scale) -> dict:
    with fake_capability(cap):
        try:
            guard(weight, scale)
        except NotImplementedError as e:
            return {"raised": True, "message": str(e)}
    return {"raised": False, "message": ""}


def _raise(exc):
    def f(*a, **k):
        raise exc

    return f


def _tf_version(mod) -> str:
    """The version of the transformers actually imported (its __version__; metadata could name another copy)."""
    v = getattr(mod, "__version__", None)
    if v:
        return str(v)
    try:
        return importlib.metadata.version("transformers")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


class _StandInDeepGEMM:
    """What ``deepgemm_fp8_fp4_linear`` loads as its kernel: quantizes activations per 1x128 block as
    DeepGEMM's ``per_token_cast_to_fp8`` does, and multiplies with exactly the scales it is given."""

    def __init__(self):
        self.seen: dict = {}

    def per_token_cast_to_fp8(self, x, use_ue8m0=False, gran_k=128, use_packed_ue8m0=False, **kw):
        if use_packed_ue8m0 or gran_k != C.BLOCK:
            raise NotImplementedError("the stand-in covers the float32-scale FP8 recipe only")
        return C.quantize_blocks(x.float(), 1, gran_k, pow2=use_ue8m0)

    def fp8_fp4_matmul(self, a, b, out, recipe=None, **kw):
        (qa, sa), (qw, sw) = a, b
        self.seen = {"act_sf": sa.detach().float().contiguous(), "weight_sf": sw.detach().float().contiguous()}
        out.copy_(C.emulated_block_gemm(qa, self.seen["act_sf"], qw, self.seen["weight_sf"]).to(out.dtype))

    fp8_gemm_nt = fp8_fp4_matmul


def _drive_rounding(dg, ctx: C.Ctx) -> dict:
    """Run the library's deepgemm_fp8_fp4_linear with SM100 faked; the error its scale handling causes."""
    linear = getattr(dg, "deepgemm_fp8_fp4_linear", None)
    if linear is None:
        return {"driven": False, "note": "this transformers has no deepgemm_fp8_fp4_linear"}
    dev = ctx.device
    x = ctx.randn(64, 512, seed=31)
    w = ctx.randn(256, 512, seed=32, scale=512 ** -0.5)
    qw, sw = C.quant_weight(w)  # float32 block scales, as in a DeepSeek-V3-style checkpoint
    stand_in = _StandInDeepGEMM()
    loaders = {n: (lambda *a, **k: stand_in) for n in ("load_deepgemm_kernel", "_load_deepgemm_kernel") if hasattr(dg, n)}
    is_sm100 = getattr(dg, "_is_sm100", None)
    clear = getattr(is_sm100, "cache_clear", lambda: None)
    try:
        clear()
        with fake_capability((10, 0)), patched(dg, **loaders):
            out = linear(x.to(torch.bfloat16), qw, sw, block_size=(128, 128))
    except Exception as e:  # noqa: BLE001 - report why the path could not be driven here
        return {"driven": False, "note": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
    finally:
        clear()
    if not stand_in.seen:
        return {"driven": False, "note": "deepgemm_fp8_fp4_linear returned without calling the kernel"}
    exact = C.exact_matmul(x.to(torch.bfloat16).float(), w)
    qa, sa = C.quant_act(x.to(torch.bfloat16).float())
    fp32 = C.compare(C.emulated_block_gemm(qa, sa, qw, sw), exact)
    got = C.compare(out.float(), exact)
    ratio_w = (stand_in.seen["weight_sf"] / sw).flatten()
    ratio_a = (stand_in.seen["act_sf"] / sa).flatten()
    return {"driven": True, "device": dev, "shape": {"M": 64, "K": 512, "N": 256},
            "weight_scales_rounded": bool((ratio_w != 1).any().item()),
            "act_scales_rounded": bool((ratio_a != 1).any().item()),
            "weight_scale_gain_mean": ratio_w.mean().item(), "act_scale_gain_mean": ratio_a.mean().item(),
            "library_path_vs_exact": got, "float32_scales_vs_exact": fp32}


def body(ctx: C.Ctx) -> dict:
    base = {"machine_independent": True, "real_path": True,
            "scope_note": "library dispatch logic with a faked capability; the same on every machine"}
    try:
        tf = importlib.import_module("transformers")
    except ImportError as e:
        return {"verdict": "skipped", "reason": f"transformers is not importable here ({e})",
                "metrics": {"guard": "unknown"}, **base}
    try:
        dg = importlib.import_module("transformers.integrations.deepgemm")
    except ImportError as e:
        return {"verdict": "not-applicable",
                "reason": f"transformers {_tf_version(tf)} has no DeepGEMM integration ({e}); there is no SM100 "
                          "float32-scale path to guard",
                "metrics": {"guard": "not-applicable", "transformers": _tf_version(tf)}, **base}
    except Exception as e:  # noqa: BLE001 - e.g. 5.12.1 with a newer `kernels`: ValueError at import
        text = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return {"verdict": "error",
                "reason": f"transformers {_tf_version(tf)}'s DeepGEMM integration fails to import here "
                          f"({type(e).__name__}: {text}), so its guard could not be judged",
                "metrics": {"guard": "unknown", "transformers": _tf_version(tf)}, **base}

    dev = "cpu"  # the guard only looks at dtypes and the (faked) capability; no kernel runs
    weight = torch.randn(256, 256, generator=ctx.generator(3)).clamp(-4, 4).to(torch.float8_e4m3fn).to(dev)
    scale32 = (torch.rand(2, 2, generator=ctx.generator(4)) * 0.01 + 0.003).float()  # non-powers of two
    version = _tf_version(tf)
    metrics: dict = {"transformers": version, "transformers_module": dg.__name__,
                     "transformers_file": getattr(tf, "__file__", None), "checks": {}}
    guard = getattr(dg, "_assert_sm100_requirements", None)

    if guard is not None:
        checks = metrics["checks"]
        checks["sm100_float32"] = _call_guard(guard, (10, 0), weight, scale32)
        checks["sm120_float32"] = _call_guard(guard, (12, 0), weight, scale32)
        checks["sm90_float32"] = _call_guard(guard, (9, 0), weight, scale32)
        if hasattr(torch, "float8_e8m0fnu"):
            scale_e8 = C.ceil_pow2(scale32).to(torch.float8_e8m0fnu)
            checks["sm100_ue8m0"] = _call_guard(guard, (10, 0), weight, scale_e8)
        controls_ok = not checks["sm90_float32"]["raised"] and not checks.get("sm100_ue8m0", {}).get("raised", False)
        metrics["controls_ok"] = controls_ok
        # Dense dispatch: which backend does a float32-scale FP8 weight reach on SM100?
        metrics["dense_dispatch"] = _dense_dispatch(dg, weight, scale32)
        guarded = checks["sm100_float32"]["raised"] and "float32 scale-factor path" in checks["sm100_float32"]["message"]
        dispatch_ok = metrics["dense_dispatch"].get("route") in ("triton", "declined", None)
        if not controls_ok:
            return {"verdict": "error", "reason": "the guard raised for a supported combination (SM90 float32 or "
                    "SM100 UE8M0); its behaviour is not what this check understands",
                    "metrics": {**metrics, "guard": "unknown"}, **base}
        if guarded and dispatch_ok:
            metrics["guard"] = "protected"
            msg = checks["sm100_float32"]["message"].split(":")[0]
            return {"verdict": "not-reproduced",
                    "reason": f"transformers {version} is protected: with SM100 faked, float32 scales raise NotImplementedError ('{msg}') and "
                              f"the FP8 linear routes to {metrics['dense_dispatch'].get('route')}",
                    "metrics": metrics, **base}
        metrics["guard"] = "vulnerable"
        metrics["rounding_path"] = _drive_rounding(dg, ctx)
        return {"verdict": "reproduced",
                "reason": f"transformers {version} is vulnerable: with SM100 faked, float32 scales pass the guard"
                          + ("" if dispatch_ok else " and the FP8 linear reaches the DeepGEMM kernel loader")
                          + _rounding_note(metrics["rounding_path"]),
                "metrics": metrics, **base}

    coerce = getattr(dg, "_coerce_sf_for_kernel", None)
    if coerce is not None:
        params = inspect.signature(coerce).parameters
        getattr(getattr(dg, "_is_sm100", None), "cache_clear", lambda: None)()  # cached per device in 5.12
        with fake_capability((10, 0)):
            try:
                out = coerce(scale32, True) if "is_sm100" in params else coerce(scale32)
            except NotImplementedError as e:
                metrics.update(guard="protected", coerce={"raised": True, "message": str(e)})
                return {"verdict": "not-reproduced",
                        "reason": f"transformers {version} is protected: the SF coercion refuses float32 scales on SM100",
                        "metrics": metrics, **base}
        changed = not torch.equal(out.float().reshape(-1)[: scale32.numel()], scale32.reshape(-1))
        metrics["coerce"] = {"raised": False, "scales_changed": changed,
                             "max_change_ratio": (out.float().reshape(-1)[:4] / scale32.reshape(-1)).max().item()}
        if changed:
            metrics["guard"] = "vulnerable"
            metrics["rounding_path"] = _drive_rounding(dg, ctx)
            return {"verdict": "reproduced",
                    "reason": f"transformers {version} is vulnerable: no _assert_sm100_requirements here, and "
                              "_coerce_sf_for_kernel silently rounds float32 scales on SM100 without requantizing "
                              "the weights" + _rounding_note(metrics["rounding_path"]),
                    "metrics": metrics, **base}
        metrics["guard"] = "protected"
        return {"verdict": "not-reproduced",
                "reason": f"transformers {version}: the SF coercion leaves float32 scales unchanged on SM100",
                "metrics": metrics, **base}

    metrics["guard"] = "not-applicable"
    return {"verdict": "not-applicable",
            "reason": f"transformers {version}: its DeepGEMM integration has neither the SM100 guard nor the SF coercion",
            "metrics": metrics, **base}


def _rounding_note(rp: dict) -> str:
    if not rp.get("driven"):
        return ""
    got, ref = rp["library_path_vs_exact"], rp["float32_scales_vs_exact"]
    return (f"; driven through its own deepgemm_fp8_fp4_linear ({rp['device']}), the rounded scales give relative "
            f"error {got['rel_err']:.2f} and output norm x{got['norm_ratio']:.2f} (float32 scales: {ref['rel_err']:.3f})")


def _dense_dispatch(dg, weight, scale32) -> dict:
    """Run the library's FP8 linear dispatch with SM100 faked and the kernels replaced by sentinels."""
    try:
        fg = importlib.import_module("transformers.integrations.finegrained_fp8")
    except ImportError:
        try:
            fg = importlib.import_module("transformers.integrations.finegrained")
        except ImportError as e:
            return {"route": None, "note": f"no finegrained FP8 dispatcher ({e})"}
    fp8_linear = getattr(fg, "fp8_linear", None)
    if fp8_linear is None:
        return {"route": None, "note": "no fp8_linear in this transformers"}
    x = torch.randn(4, weight.shape[1], generator=torch.Generator().manual_seed(5)).to(torch.bfloat16)
    attrs_fg = {"is_deepgemm_loadable": lambda *a, **k: True}
    triton_names = [n for n in ("finegrained_fp8_linear", "triton_fp8_linear") if hasattr(fg, n)]
    for n in triton_names:
        attrs_fg[n] = _raise(_ReachedTriton())
    attrs_dg = {n: _raise(_ReachedKernelLoad()) for n in ("load_deepgemm_kernel", "_load_deepgemm_kernel") if hasattr(dg, n)}
    env_before = os.environ.pop("TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR", None)
    try:
        with fake_capability((10, 0)), patched(fg, **attrs_fg), patched(dg, **attrs_dg):
            try:
                fp8_linear(x, weight, scale32, block_size=[128, 128])
            except _ReachedTriton:
                return {"route": "triton", "note": "fp8_linear sent the float32-scale weight to the Triton fallback"}
            except _ReachedKernelLoad:
                return {"route": "deepgemm", "note": "fp8_linear reached the DeepGEMM kernel loader with float32 scales"}
            except (NotImplementedError, ValueError) as e:
                return {"route": "declined", "note": f"{type(e).__name__}: {e}"}
    finally:
        if env_before is not None:
            os.environ["TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR"] = env_before
    return {"route": "unknown", "note": "fp8_linear returned without reaching either backend"}


if __name__ == "__main__":
    C.main(ID, body, __file__)
