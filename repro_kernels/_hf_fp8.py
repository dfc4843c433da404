"""The remedy checks through transformers' own FP8 code path, on a tiny block-FP8 checkpoint built here.

A tiny Mixtral-style model (2 layers, 8 experts of which 2 per token, hidden 256) is initialised from a
seed, saved as a bf16 checkpoint in a temporary folder and loaded back with
``FineGrainedFP8Config(weight_block_size=(128, 128))``, so transformers itself quantizes every linear
and expert weight to float8_e4m3fn with float32 128x128 block scales and swaps in its ``FP8Linear`` and
``FP8Experts`` modules. The forward pass then runs the library's dispatch (``fp8_linear``, the experts
implementation) and the hub kernel ``kernels-community/finegrained-fp8`` that it loads through the
``kernels`` package (offline: from the local cache or a ``LOCAL_KERNELS`` override).

Each check counts the calls into the hub kernel's entry points (and into transformers' DeepGEMM
linear), compares the FP8 model's logits with the bf16 model's, and contrasts them with the same
FP8 model after its float32 scales were rounded up to powers of two without requantizing (the
mechanism the remedies avoid). Everything here needs CUDA; :func:`available` says why not otherwise.
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import importlib.util
import os
import tempfile

import _common as C
from _common import torch

KERNEL_REPO = "kernels-community/finegrained-fp8"


def available() -> tuple[bool, str]:
    """Whether transformers' FP8 path and the finegrained-fp8 hub kernel can run here; else why not."""
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
    return True, ""


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


def _tiny_checkpoint(folder: str, seed: int):
    from transformers import MixtralConfig, MixtralForCausalLM

    cfg = MixtralConfig(vocab_size=512, hidden_size=256, intermediate_size=256, num_hidden_layers=2,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=64, num_local_experts=8,
                        num_experts_per_tok=2, max_position_embeddings=256, initializer_range=256 ** -0.5,
                        tie_word_embeddings=False)
    torch.manual_seed(seed)
    model = MixtralForCausalLM(cfg).to(torch.bfloat16)
    model.save_pretrained(folder)
    return model


def _round_scales_in_place(model) -> int:
    """Round every float32 block scale of the FP8 modules up to a power of two, data kept (the bug)."""
    n = 0
    for name, p in model.named_parameters():
        if name.endswith("scale_inv") and p.dtype == torch.float32:
            with torch.no_grad():
                p.copy_(C.ceil_pow2(p.data))
            n += 1
    return n


def run(remedy: str, seed: int = 0) -> dict:
    """Run one remedy through the library. ``remedy``: ``disable-deepgemm-linear`` or ``grouped-mm``."""
    from transformers import FineGrainedFP8Config, MixtralForCausalLM

    fg = importlib.import_module("transformers.integrations.finegrained_fp8")
    env_before = os.environ.get("TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR")
    if remedy == "disable-deepgemm-linear":
        os.environ["TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR"] = "1"
    ids = torch.randint(0, 512, (2, 48), generator=torch.Generator().manual_seed(seed + 1)).cuda()
    try:
        with tempfile.TemporaryDirectory(prefix="fp8triage-ckpt-") as folder:
            ref_model = _tiny_checkpoint(folder, seed).cuda().eval()
            with torch.no_grad():
                ref = ref_model(ids).logits.float()
            del ref_model
            model = MixtralForCausalLM.from_pretrained(
                folder, quantization_config=FineGrainedFP8Config(weight_block_size=(128, 128)),
                dtype=torch.bfloat16, device_map="cuda").eval()
        fp8_modules = sorted({type(m).__name__ for m in model.modules() if type(m).__name__.startswith("FP8")})
        if remedy == "grouped-mm":
            model.set_experts_implementation("grouped_mm")
        impl = getattr(model.config, "_experts_implementation", None)
        with _counting(fg) as counts, torch.no_grad():
            out = model(ids).logits.float()
            calls = dict(counts)
            _round_scales_in_place(model)
            bad = model(ids).logits.float()
    finally:
        if env_before is None:
            os.environ.pop("TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR", None)
        else:
            os.environ["TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR"] = env_before
    return {"remedy": remedy, "versions": _versions(), "fp8_modules": fp8_modules, "experts_implementation": impl,
            "kernel_calls": calls, "tokens": int(ids.numel()),
            "fp8_vs_bf16_logits": C.compare(out, ref), "rounded_scales_vs_bf16_logits": C.compare(bad, ref)}


def judge(r: dict, entry: str) -> tuple[bool, str]:
    """Whether the remedy ran through the hub kernel's ``entry`` and computed the right answer."""
    ok_err = r["fp8_vs_bf16_logits"]["rel_err"]
    bad_err = r["rounded_scales_vs_bf16_logits"]["rel_err"]
    used = r["kernel_calls"].get(entry, 0) > 0 and r["kernel_calls"].get("deepgemm_linear", 0) == 0
    works = (used and ok_err < 0.15 and r["fp8_vs_bf16_logits"]["cosine"] > 0.99 and bad_err > 3 * ok_err)
    detail = (f"{entry} called {r['kernel_calls'].get(entry, 0)} times, DeepGEMM linear "
              f"{r['kernel_calls'].get('deepgemm_linear', 0)}; logits vs the bf16 model: rel err {ok_err:.3f}, "
              f"cosine {r['fp8_vs_bf16_logits']['cosine']:.4f}; with the scales rounded without requantizing: "
              f"{bad_err:.3f}")
    return works, detail
