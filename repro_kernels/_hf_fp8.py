"""The remedy checks through transformers' own FP8 code path, on a tiny block-FP8 checkpoint built here.

A tiny Mixtral-style model (2 layers, 8 experts of which 2 per token, hidden 256) is initialised from a
seed, saved as a bf16 checkpoint in a temporary folder and loaded back with
``FineGrainedFP8Config(weight_block_size=(128, 128))``, so transformers itself quantizes every linear
and expert weight to float8_e4m3fn with float32 128x128 block scales and swaps in its ``FP8Linear`` and
``FP8Experts`` modules. The forward pass then runs the library's dispatch (``fp8_linear``, the experts
implementation) and the hub kernel ``kernels-community/finegrained-fp8`` that it loads through the
``kernels`` package (offline: from the local cache or a ``LOCAL_KERNELS`` override).

Each check counts the calls into the hub kernel's entry points (and into transformers' DeepGEMM
linear) and checks every FP8 module's output against a float32 reference computed from the same
input and the module's own FP8 weights and float32 block scales (forward hooks; for the experts with
the routing the module was given), so only the kernel's activation quantization separates them. For
information, the logits are also compared with those of the same FP8 model after its float32 scales
were rounded up to powers of two without requantizing (the mechanism the remedies avoid): routing
flips in a tiny random MoE make logits a noisy yardstick. (No bf16 forward is run: the module checks
are the verdict, and the bf16 model's logits only fed that informational figure, for 0.5 s on the
H200.) Everything here needs CUDA; :func:`available` says why not otherwise.

Before transformers is imported, :func:`hide_unused` makes the packages that transformers imports only
for features these checks never use look absent in this process (``UNUSED``: scikit-learn, which its
assisted-generation code imports and which drags in scipy, pandas and pyarrow; scipy and torchvision,
for the object-detection losses and image processing). The FP8 code path is unchanged by that; the
result names what was hidden (``hidden_packages``).

First use (docs/gpu-validation.md, "First use"): the hub kernel wraps its block-FP8 GEMMs in
``triton.autotune`` over 12 launch configurations (4 ``num_warps`` x 3 ``num_stages``) for each key
(N, K, BLOCK_SIZE_M), so on a machine whose Triton cache is empty the checks compiled and timed some
12 x 8 kernels (44 s of a 63 s suite on the H200). The checks need the right answer, not the fastest
launch, so :func:`restrict_autotune` leaves each of the hub kernel's autotuners one entry of its own
configuration list (Triton's default launch, 4 warps and 3 stages; the whole list again if that one
fails to run here, and always with ``FP8TRIAGE_HUB_AUTOTUNE=full``), and the forward passes use 16
tokens, so that every GEMM has at most 16 rows (an expert sees a token once) and each kernel compiles
for one M tile. The tiny checkpoint is kept in fp8triage's cache folder (:func:`cached_checkpoint`), so
the two remedy lanes and later runs load it instead of building it again.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.metadata
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time

import _common as C
from _common import torch

KERNEL_REPO = "kernels-community/finegrained-fp8"
MODULE_TOL = 0.1  # FP8 activation quantization gives ~0.03 per GEMM; a wrong scale or block gives ~1
BATCH, SEQ = 2, 8  # 16 tokens: every GEMM gets at most 16 rows, so each hub kernel compiles for one M tile
AUTOTUNE_ENV = "FP8TRIAGE_HUB_AUTOTUNE"  # "full": let the hub kernel's autotuners try their whole lists
DEFAULT_LAUNCH = (4, 3)  # num_warps, num_stages: triton.Config's own defaults, the entry kept
# the tiny model (MixtralConfig arguments); part of the cached checkpoint's name
TINY = dict(vocab_size=512, hidden_size=256, intermediate_size=256, num_hidden_layers=2, num_attention_heads=4,
            num_key_value_heads=2, head_dim=64, num_local_experts=8, num_experts_per_tok=2,
            max_position_embeddings=256, initializer_range=256 ** -0.5, tie_word_embeddings=False)
# the hub kernel autotunes with triton.autotune; keep the results in Triton's cache so a second run does
# not tune again (set before the kernel module is imported, which creates the autotuners)
os.environ.setdefault("TRITON_CACHE_AUTOTUNING", "1")


# Packages transformers imports only for what the remedy checks never do, when they are installed (each
# import is guarded by transformers' availability check): scikit-learn, for assisted generation's
# candidate generator (`from sklearn.metrics import roc_curve` when importing any model), pulls in scipy,
# pandas and pyarrow: 1.4 s of a 6.2 s start on the H200's image (-X importtime, docs/gpu-validation.md
# runs 7-8), the largest single item after torch itself; then scipy (0.3 s: `linear_sum_assignment` for
# the object-detection losses) and torchvision (0.14 s: image processing), both through modeling_utils.
UNUSED = ("sklearn", "scipy", "torchvision")


def hide_unused(device: str | None = None) -> list[str]:
    """Make the ``UNUSED`` packages look absent to transformers in this process, before it is imported.

    ``sys.modules[name] = None`` makes ``importlib.util.find_spec`` (transformers' availability check)
    report the package as not installed and an import of it fail; a package already imported here is
    left alone. Returns the names hidden now. (``device`` is there so that a worker can call this as a
    ``PRELOAD`` entry.)
    """
    hidden = []
    for name in UNUSED:
        if name not in sys.modules and importlib.util.find_spec(name) is not None:
            sys.modules[name] = None  # type: ignore[assignment]
            hidden.append(name)
    return hidden


def hidden_packages() -> list[str]:
    return [n for n in UNUSED if n in sys.modules and sys.modules[n] is None]


def available() -> tuple[bool, str]:
    """Whether transformers' FP8 path and the finegrained-fp8 hub kernel can run here; else why not."""
    hide_unused()
    for mod in ("transformers", "kernels"):
        if importlib.util.find_spec(mod) is None:
            return False, f"the {mod} package is not installed"
    try:
        fg = importlib.import_module("transformers.integrations.finegrained_fp8")
    except Exception as e:  # noqa: BLE001
        return False, f"transformers has no usable finegrained FP8 integration ({type(e).__name__}: {e})"
    loader = getattr(fg, "load_finegrained_fp8_kernel", None)
    if loader is None or not hasattr(fg, "fp8_linear"):
        return False, "this transformers has no hub-kernel FP8 path (load_finegrained_fp8_kernel / fp8_linear)"
    try:
        loader()
    except Exception as e:  # noqa: BLE001 - ImportError, FileNotFoundError offline, a kernel that does not build
        text = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return False, f"the {KERNEL_REPO} hub kernel could not be loaded ({type(e).__name__}: {text})"
    restrict_autotune(hub_autotuners(loader()))
    return True, ""


# ── the hub kernel's autotuning ─────────────────────────────────────────────────────────────────────
# id(autotuner) -> (name, autotuner, its whole configuration list), for those restricted in this process
_RESTRICTED: dict[int, tuple[str, object, list]] = {}
_KEEP_FULL: list[str] = []  # why the whole lists were given back in this process (then not restricted again)


def hub_autotuners(kernel) -> list[tuple[str, object]]:
    """``(module.name, autotuner)`` for every ``triton.autotune`` kernel of the loaded hub kernel package
    (found from the module of its ``matmul`` entry) that has more than one configuration to try."""
    try:
        from triton.runtime.autotuner import Autotuner
    except ImportError:
        return []
    fn = getattr(kernel, "matmul", None)
    pkg = (getattr(fn, "__module__", None) or "").split(".")[0]
    if not pkg:
        return []
    found: dict[int, tuple[str, object]] = {}
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == pkg or name.startswith(pkg + ".")):
            continue
        for attr, obj in list(vars(mod).items()):
            # plain triton.autotune only (the package's Bayesian tuner serves the MX and per-tensor paths)
            if type(obj) is Autotuner and len(obj.configs) > 1 and id(obj) not in found:
                found[id(obj)] = (f"{name.rsplit('.', 1)[-1]}.{attr}", obj)
    return sorted(found.values(), key=lambda x: x[0])


def pick_config(configs: list):
    """The entry kept: the list's own configuration with Triton's default launch (``DEFAULT_LAUNCH``) and no
    tile of its own, else the list's first."""
    for c in configs:
        if (getattr(c, "num_warps", None), getattr(c, "num_stages", None)) == DEFAULT_LAUNCH and not getattr(c, "kwargs", None):
            return c
    return configs[0]


def restrict_autotune(autotuners: list[tuple[str, object]]) -> dict:
    """Leave each autotuner one entry of its own configuration list (``pick_config``): it then launches
    that configuration without timing the others, and Triton compiles one kernel per specialization
    instead of one per configuration. Nothing changes with ``FP8TRIAGE_HUB_AUTOTUNE=full``. Returns
    :func:`autotune_info`."""
    if os.environ.get(AUTOTUNE_ENV, "").strip().lower() != "full" and not _KEEP_FULL:
        for name, at in autotuners:
            if id(at) not in _RESTRICTED:
                full = list(at.configs)  # type: ignore[attr-defined]
                _RESTRICTED[id(at)] = (name, at, full)
                at.configs = [pick_config(full)]  # type: ignore[attr-defined]
    return autotune_info()


def restore_autotune(why: str = "") -> None:
    """Give every restricted autotuner its whole configuration list back (for the rest of this process
    when ``why`` says why)."""
    if why:
        _KEEP_FULL.append(why)
    for _, at, full in _RESTRICTED.values():
        at.configs = full  # type: ignore[attr-defined]
    _RESTRICTED.clear()


def autotune_info() -> dict:
    """What the hub kernel's autotuners try in this process: ``one-config`` with, per kernel, the entry kept
    and the length of its list, or ``full``."""
    if not _RESTRICTED:
        return {"mode": "full", **({"one_config_failed": _KEEP_FULL[0]} if _KEEP_FULL else {})}
    return {"mode": "one-config",
            "kernels": {name: {"kept": str(at.configs[0]), "of": len(full)}  # type: ignore[attr-defined]
                        for name, at, full in sorted(_RESTRICTED.values(), key=lambda x: x[0])}}


def _chosen(fg) -> dict:
    """With the whole lists (``FP8TRIAGE_HUB_AUTOTUNE=full``): the configuration each autotuner chose per key."""
    if _RESTRICTED:
        return {}
    try:
        tuners = hub_autotuners(fg.load_finegrained_fp8_kernel())
    except Exception:  # noqa: BLE001 - informational only
        return {}
    return {"chosen": {name: {str(k): str(v) for k, v in getattr(at, "cache", {}).items()} for name, at in tuners
                       if getattr(at, "cache", None)}}


def _cache_root() -> str:
    """fp8triage's cache folder (as the runner's bytecode cache: ``FP8TRIAGE_CACHE_DIR``, else
    ``XDG_CACHE_HOME`` or ``~/.cache``, then ``fp8triage``)."""
    return os.environ.get("FP8TRIAGE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "fp8triage")


@contextlib.contextmanager
def cached_checkpoint(name: str, build):
    """A folder holding what ``build(folder)`` writes, kept as ``<cache>/repro-checkpoints/<name>``: built
    once (in a scratch folder renamed into place, so a reader never sees half of it and two processes
    building at once keep one), loaded by later calls and runs. Yields ``(folder, reused)``; where the
    cache cannot be written, the folder is a temporary one, removed afterwards."""
    final = os.path.join(_cache_root(), "repro-checkpoints", name)
    if os.path.isdir(final):
        yield final, True
        return
    try:
        os.makedirs(os.path.dirname(final), exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=f".{name}-", dir=os.path.dirname(final))
    except OSError:  # no writable cache: build it for this call only
        with tempfile.TemporaryDirectory(prefix="fp8triage-ckpt-") as folder:
            build(folder)
            yield folder, False
        return
    try:
        build(tmp)
        os.rename(tmp, final)
    except OSError:
        if not os.path.isdir(final):  # not another process's copy in place first: a real failure
            shutil.rmtree(tmp, ignore_errors=True)
            raise
    finally:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
    yield final, False


def _versions() -> dict:
    out = {}
    for dist in ("transformers", "kernels"):
        try:
            out[dist] = importlib.metadata.version(dist)
        except Exception:  # noqa: BLE001
            out[dist] = None
    return out


@contextlib.contextmanager
def _counting(fg):
    """Count calls into the hub kernel's entry points and into transformers' DeepGEMM linear."""
    counts = {"matmul_2d": 0, "matmul_batched": 0, "matmul_grouped": 0, "deepgemm_linear": 0}

    def wrap(name, fn):
        def f(*a, **k):
            counts[name] += 1
            return fn(*a, **k)
        return f

    kernel = fg.load_finegrained_fp8_kernel()
    saved_kernel = fg._FINEGRAINED_FP8
    fg._FINEGRAINED_FP8 = type(kernel)(matmul=wrap("matmul_2d", kernel.matmul),
                                       batched_matmul=wrap("matmul_batched", kernel.batched_matmul),
                                       grouped_matmul=wrap("matmul_grouped", kernel.grouped_matmul))
    saved_dg = getattr(fg, "deepgemm_fp8_fp4_linear", None)
    if saved_dg is not None:
        fg.deepgemm_fp8_fp4_linear = wrap("deepgemm_linear", saved_dg)
    try:
        yield counts
    finally:
        fg._FINEGRAINED_FP8 = saved_kernel
        if saved_dg is not None:
            fg.deepgemm_fp8_fp4_linear = saved_dg


def _tiny_checkpoint(folder: str, seed: int) -> None:
    """A seeded tiny Mixtral saved as a bf16 checkpoint in ``folder``."""
    from transformers import MixtralConfig, MixtralForCausalLM

    torch.manual_seed(seed)
    MixtralForCausalLM(MixtralConfig(**TINY)).to(torch.bfloat16).save_pretrained(folder)


def checkpoint_name(seed: int) -> str:
    """The cached checkpoint's name: the transformers and torch versions, and a digest of ``TINY`` and the seed."""
    v = _versions().get("transformers")
    digest = hashlib.sha256(json.dumps([TINY, seed, str(torch.__version__)], sort_keys=True).encode()).hexdigest()[:12]
    return f"tiny-mixtral-{v}-{digest}"


def _round_scales_in_place(model) -> dict:
    """Round every float32 block scale of the FP8 modules up to a power of two, data kept (the bug).
    Returns the scales as they were, for :func:`_restore_scales`."""
    saved = {}
    for name, p in model.named_parameters():
        if name.endswith("scale_inv") and p.dtype == torch.float32:
            with torch.no_grad():
                saved[name] = p.detach().clone()
                p.copy_(C.ceil_pow2(p.data))
    return saved


def _restore_scales(model, saved: dict) -> None:
    params = dict(model.named_parameters())
    with torch.no_grad():
        for name, value in saved.items():
            params[name].copy_(value)


# seed -> (the FP8 model loaded in this process, its experts implementation as loaded): where both remedy
# checks run in one process (a worker that serves both lanes, e.g. with --jobs 1), the second reuses it
_MODELS: dict[int, tuple[object, object]] = {}


def _fp8_model(seed: int, lap) -> tuple[object, object, bool, bool]:
    """(model, experts implementation as loaded, checkpoint reused, model reused): the tiny checkpoint
    loaded through ``FineGrainedFP8Config`` once per process."""
    if seed in _MODELS:
        model, impl = _MODELS[seed]
        lap("checkpoint_s")
        lap("fp8_load_s")
        return model, impl, True, True
    from transformers import FineGrainedFP8Config, MixtralForCausalLM

    with cached_checkpoint(checkpoint_name(seed), lambda f: _tiny_checkpoint(f, seed)) as (folder, reused):
        lap("checkpoint_s")
        model = MixtralForCausalLM.from_pretrained(
            folder, quantization_config=FineGrainedFP8Config(weight_block_size=(128, 128)),
            dtype=torch.bfloat16, device_map="cuda").eval()
        lap("fp8_load_s")
    _MODELS[seed] = (model, getattr(model.config, "_experts_implementation", None))
    return model, _MODELS[seed][1], reused, False


def _dq(q, s):
    return C.dequantize_blocks(q, s.float(), C.BLOCK, C.BLOCK)


def _linear_ref(mod, x):
    w = _dq(mod.weight, mod.weight_scale_inv)
    y = x.float().reshape(-1, x.shape[-1]) @ w.t()
    if getattr(mod, "bias", None) is not None:
        y = y + mod.bias.float()
    return y


def _experts_ref(mod, hs, idx, weights):
    """The experts' output in float32 from the module's own FP8 weights and scales, with the given routing."""
    x = hs.float().reshape(-1, hs.shape[-1])
    out = torch.zeros_like(x)
    gu_w, gu_s = (mod.gate_up_proj, mod.gate_up_proj_scale_inv) if mod.has_gate else (mod.up_proj, mod.up_proj_scale_inv)
    for e in range(gu_w.shape[0]):
        tok, kpos = (idx == e).nonzero(as_tuple=True)
        if tok.numel() == 0:
            continue
        h = x[tok] @ _dq(gu_w[e], gu_s[e]).t()
        h = mod._apply_gate(h) if mod.has_gate else mod.act_fn(h)
        d = h @ _dq(mod.down_proj[e], mod.down_proj_scale_inv[e]).t()
        out.index_add_(0, tok, d * weights[tok, kpos, None].float())
    return out


@contextlib.contextmanager
def _module_checks(model):
    """Forward hooks: each FP8Linear / FP8Experts output against its float32 reference (first pass only)."""
    found: dict = {"FP8Linear": [], "FP8Experts": []}
    state = {"on": True}

    def hook(mod, args, kwargs, output):
        if not state["on"]:
            return
        out = output[0] if isinstance(output, tuple) else output
        name = type(mod).__name__
        with torch.no_grad():
            if name == "FP8Linear":
                x = args[0] if args else kwargs["input"]
                if mod.weight.element_size() != 1 or mod.block_size is None:
                    return
                ref = _linear_ref(mod, x)
                got = out.float().reshape(ref.shape)
            else:
                names = ("hidden_states", "top_k_index", "top_k_weights")
                vals = list(args) + [kwargs[n] for n in names[len(args):]]
                ref = _experts_ref(mod, *vals[:3])
                got = out.float().reshape(ref.shape)
            found[name].append(C.compare(got, ref))

    handles = [m.register_forward_hook(hook, with_kwargs=True) for m in model.modules()
               if type(m).__name__ in found]
    try:
        yield found, state
    finally:
        for h in handles:
            h.remove()


def _summary(items: list) -> dict | None:
    if not items:
        return None
    return {"calls": len(items), "max_rel_err": max(i["rel_err"] for i in items),
            "min_cosine": min(i["cosine"] for i in items), "all_finite": all(i["finite"] for i in items)}


def run(remedy: str, seed: int = 0) -> dict:
    """Run one remedy through the library. ``remedy``: ``disable-deepgemm-linear`` or ``grouped-mm``.

    The FP8 model is loaded once per process (:func:`_fp8_model`): each check sets the experts
    implementation it needs (the one the model was loaded with for ``disable-deepgemm-linear``), and the
    scales rounded for the informational contrast are put back afterwards."""
    phase: dict = {}
    t = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal t
        now = time.perf_counter()
        phase[name] = round(now - t, 3)
        t = now

    fg = importlib.import_module("transformers.integrations.finegrained_fp8")
    env_before = os.environ.get("TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR")
    if remedy == "disable-deepgemm-linear":
        os.environ["TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR"] = "1"
    ids = torch.randint(0, TINY["vocab_size"], (BATCH, SEQ), generator=torch.Generator().manual_seed(seed + 1)).cuda()
    try:
        model, loaded_impl, reused, model_reused = _fp8_model(seed, lap)
        fp8_modules = sorted({type(m).__name__ for m in model.modules() if type(m).__name__.startswith("FP8")})
        want = "grouped_mm" if remedy == "grouped-mm" else loaded_impl
        if want is not None and getattr(model.config, "_experts_implementation", None) != want:
            model.set_experts_implementation(want)
        impl = getattr(model.config, "_experts_implementation", None)
        with _counting(fg) as counts, _module_checks(model) as (checks, state), torch.no_grad():
            out = model(ids).logits.float()
            calls = dict(counts)
            lap("fp8_forward_checked_s")
            state["on"] = False
            saved = _round_scales_in_place(model)
            try:
                bad = model(ids).logits.float()
            finally:
                _restore_scales(model, saved)
            lap("rounded_forward_s")
    finally:
        if env_before is None:
            os.environ.pop("TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR", None)
        else:
            os.environ["TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR"] = env_before
    return {"remedy": remedy, "versions": _versions(), "fp8_modules": fp8_modules, "experts_implementation": impl,
            "kernel_calls": calls, "tokens": int(ids.numel()), "phase_s": phase, "checkpoint_reused": reused,
            "model_reused": model_reused, "autotune": {**autotune_info(), **_chosen(fg)},
            "linear_vs_fp32_reference": _summary(checks["FP8Linear"]),
            "experts_vs_fp32_reference": _summary(checks["FP8Experts"]),
            "rounded_scales_vs_fp8_logits": C.compare(bad, out), "hidden_packages": hidden_packages()}


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {text}"


def judge(r: dict, entry: str) -> tuple[bool, str]:
    """Whether the remedy ran through the hub kernel's ``entry`` and every FP8 module computed the right answer."""
    calls = r["kernel_calls"]
    used = calls.get(entry, 0) > 0
    if entry == "matmul_2d":  # TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1: DeepGEMM's linear must not be tried
        used = used and calls.get("deepgemm_linear", 0) == 0
    mods = {k: r[k] for k in ("linear_vs_fp32_reference", "experts_vs_fp32_reference") if r.get(k)}
    needed = "experts_vs_fp32_reference" if entry == "matmul_grouped" else "linear_vs_fp32_reference"
    ok_mods = needed in mods and all(m["max_rel_err"] < MODULE_TOL and m["all_finite"] for m in mods.values())
    works = used and ok_mods
    parts = [f"{entry} called {calls.get(entry, 0)} times (DeepGEMM linear tried {calls.get('deepgemm_linear', 0)})"]
    for k, m in mods.items():
        parts.append(f"{'FP8Linear' if k.startswith('linear') else 'FP8Experts'} outputs vs float32 reference of "
                     f"the same FP8 weights: worst rel err {m['max_rel_err']:.3f} over {m['calls']} calls")
    parts.append(f"the same model with its scales rounded without requantizing: logits off by rel err "
                 f"{r['rounded_scales_vs_fp8_logits']['rel_err']:.3f}")
    return works, "; ".join(parts)


def remedy_check(ctx: C.Ctx, metrics: dict, remedy: str, entry: str, what: str) -> dict | None:
    """A remedy through transformers' own FP8 path and the finegrained-fp8 hub kernel, when both are
    here: ``remedy`` for ``run``, ``entry`` the hub kernel's function it must reach, ``what`` the
    remedy as the user writes it.

    Returns the repro result, or None (with ``metrics['library_path']`` saying why) so that the caller
    falls back to the project's own Triton kernel.
    """
    t = time.perf_counter()
    ok, why = available()
    metrics["library_load_s"] = round(time.perf_counter() - t, 3)  # imports and the hub kernel's load
    if not ok:
        metrics["library_path"] = {"ran": False, "why": why}
        return None
    try:
        with ctx.gpu_timer():
            try:
                r = run(remedy)
            except Exception as e:  # noqa: BLE001 - the launch kept may not fit this GPU: the whole list
                if not _RESTRICTED:
                    raise
                restore_autotune(_first_line(e))
                r = run(remedy)
    except Exception as e:  # noqa: BLE001 - the library path failed here: say so, fall back
        metrics["library_path"] = {"ran": False, "why": _first_line(e)}
        return None
    works, detail = judge(r, entry)
    v = r["versions"]
    metrics.update(path="library", library_path={"ran": True, **r},
                   backend=f"transformers {v['transformers']} FP8 path, hub kernel {KERNEL_REPO} "
                           f"({entry}) loaded by kernels {v['kernels']}, {ctx.sm()}")
    where = f"on this {ctx.sm()} GPU through transformers {v['transformers']} and the {KERNEL_REPO} hub kernel"
    return {"verdict": "reproduced" if works else "not-reproduced",
            "reason": (f"remedy works {where}: " if works else f"the remedy did not give the right answer {where}: ") + detail,
            "metrics": metrics, "real_path": True, "machine_independent": False,
            "scope_note": f"{what} run through the library's own code {where}, on a tiny block-FP8 checkpoint"}


def warm(device: str) -> dict:
    """For a worker's PRELOAD: load transformers' FP8 path and the hub kernel while the CUDA context is
    created, so that the remedy checks find them loaded (transformers keeps the kernel once loaded)."""
    if device == "cpu":
        return {"loaded": False, "why": "device cpu"}
    ok, why = available()
    return {"loaded": ok, **({"why": why} if why else {})}
