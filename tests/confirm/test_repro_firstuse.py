"""First use of the remedy checks (docs/gpu-validation.md, "First use"): the hub kernel's autotuners try
one entry of their own configuration lists, the tiny checkpoint is built once and kept, and the scales
rounded for the contrast are put back. CPU only: a stand-in hub package with real ``triton.autotune``
kernels (decorated, never launched) and a stand-in checkpoint builder."""
from __future__ import annotations

import importlib
import importlib.util
import re
import sys
import textwrap
import types

import pytest

from fp8triage.confirm import repro as R

HAVE_TORCH = importlib.util.find_spec("torch") is not None
HAVE_TRITON = importlib.util.find_spec("triton") is not None
pytestmark = pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
needs_triton = pytest.mark.skipif(not HAVE_TRITON, reason="triton is not installed")

HUB = textwrap.dedent('''
    import triton
    import triton.language as tl

    # as the hub kernel's get_accelerator_autotuning_configs(): 4 num_warps x 3 num_stages
    @triton.autotune(configs=[triton.Config({}, num_warps=w, num_stages=s) for w in (2, 4, 8, 16) for s in (2, 3, 4)],
                     key=["N", "K"])
    @triton.jit
    def block_kernel(A, N, K, BLOCK_SIZE_M: tl.constexpr):
        pass

    # a list without Triton's default launch: its first entry is kept
    @triton.autotune(configs=[triton.Config({"BLOCK_SIZE_N": bn}, num_warps=8, num_stages=2) for bn in (128, 64)],
                     key=["N"])
    @triton.jit
    def tiled_kernel(A, N, BLOCK_SIZE_N: tl.constexpr):
        pass

    @triton.autotune(configs=[triton.Config({}, num_warps=4, num_stages=3)], key=["N"])
    @triton.jit
    def single_kernel(A, N):
        pass

    def matmul_2d(*args):
        return None
''')


@pytest.fixture
def H(monkeypatch, tmp_path):
    """The remedy checks' helper module, freshly imported, with its cache in a temporary folder."""
    monkeypatch.syspath_prepend(str(R.discover()["grouped-mm-experts"].parent))
    monkeypatch.setenv("TRITON_CACHE_AUTOTUNING", "1")  # set by the module at import; restored afterwards
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FP8TRIAGE_HUB_AUTOTUNE", raising=False)
    for name in ("_hf_fp8", "_common"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    mod = importlib.import_module("_hf_fp8")
    yield mod
    for name in ("_hf_fp8", "_common"):
        sys.modules.pop(name, None)


@pytest.fixture
def hub(monkeypatch, tmp_path):
    """A stand-in for the loaded hub kernel: a package whose ``matmul`` module holds triton.autotune kernels."""
    name = "hubk_" + re.sub(r"\W", "_", tmp_path.name)
    (tmp_path / name).mkdir()
    (tmp_path / name / "__init__.py").write_text("from . import matmul\n")
    (tmp_path / name / "matmul.py").write_text(HUB)
    monkeypatch.syspath_prepend(str(tmp_path))
    pkg = importlib.import_module(name)
    yield pkg
    for m in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        sys.modules.pop(m, None)


def _kernel(pkg):
    return types.SimpleNamespace(matmul=pkg.matmul.matmul_2d)  # what transformers' loader hands back


@needs_triton
def test_each_hub_autotuner_keeps_one_entry_of_its_own_list(H, hub):
    """A machine whose Triton cache is empty compiles one kernel per specialization, not one per
    configuration: each autotuner of the hub package keeps one of its own entries (Triton's default
    launch, 4 warps and 3 stages, where the list has it; else its first); one with a single entry is left
    alone; the result says what was kept and out of how many."""
    m = hub.matmul
    before = {n: list(getattr(m, n).configs) for n in ("block_kernel", "tiled_kernel", "single_kernel")}
    info = H.restrict_autotune(H.hub_autotuners(_kernel(hub)))
    assert m.block_kernel.configs == [c for c in before["block_kernel"] if (c.num_warps, c.num_stages) == (4, 3)]
    assert m.block_kernel.configs[0] in before["block_kernel"]
    assert m.tiled_kernel.configs == before["tiled_kernel"][:1]
    assert m.single_kernel.configs == before["single_kernel"]
    assert info["mode"] == "one-config"
    assert set(info["kernels"]) == {"matmul.block_kernel", "matmul.tiled_kernel"}
    assert info["kernels"]["matmul.block_kernel"]["of"] == 12
    assert "num_warps: 4" in info["kernels"]["matmul.block_kernel"]["kept"]


@needs_triton
def test_full_autotuning_on_request(H, hub, monkeypatch):
    """FP8TRIAGE_HUB_AUTOTUNE=full leaves the library's whole search as it is."""
    monkeypatch.setenv("FP8TRIAGE_HUB_AUTOTUNE", "full")
    info = H.restrict_autotune(H.hub_autotuners(_kernel(hub)))
    assert len(hub.matmul.block_kernel.configs) == 12 and len(hub.matmul.tiled_kernel.configs) == 2
    assert info == {"mode": "full"}


@needs_triton
def test_a_launch_that_fails_here_gives_the_remedy_check_the_whole_list_back(H, hub, monkeypatch):
    """Where the kept launch does not run on this GPU (say, too little shared memory), the remedy check
    runs again with the library's whole lists instead of falling back or failing, says why, and the
    lists stay whole for the rest of the process."""
    H.restrict_autotune(H.hub_autotuners(_kernel(hub)))
    seen = []

    def fake_run(remedy, seed=0):
        n = len(hub.matmul.block_kernel.configs)
        seen.append(n)
        if n == 1:
            raise RuntimeError("out of resource: shared memory, Required: 262144, Hardware limit: 232448")
        return {"remedy": remedy, "versions": {"transformers": "5.17.0", "kernels": "0.16.2"},
                "kernel_calls": {"matmul_2d": 8, "deepgemm_linear": 0},
                "linear_vs_fp32_reference": {"calls": 8, "max_rel_err": 0.027, "min_cosine": 0.9997, "all_finite": True},
                "rounded_scales_vs_fp8_logits": {"rel_err": 1.04}, "autotune": H.autotune_info()}

    monkeypatch.setattr(H, "available", lambda: (True, ""))
    monkeypatch.setattr(H, "run", fake_run)
    metrics: dict = {}
    res = H.remedy_check(H.C.Ctx("triton-fp32-block-scales", "cpu", "cpu"), metrics, "disable-deepgemm-linear",
                         "matmul_2d", "TRANSFORMERS_DISABLE_DEEPGEMM_LINEAR=1")
    assert seen == [1, 12]
    assert res["verdict"] == "reproduced" and metrics["library_path"]["ran"] is True
    at = metrics["library_path"]["autotune"]
    assert at["mode"] == "full" and at["one_config_failed"].startswith("RuntimeError: out of resource")
    assert H.restrict_autotune(H.hub_autotuners(_kernel(hub)))["mode"] == "full"
    assert len(hub.matmul.block_kernel.configs) == 12


def test_the_tiny_checkpoint_is_built_once_and_kept(H, tmp_path):
    """The two remedy lanes and later runs load the checkpoint the first one built; no half-built
    folder is ever visible under the final name, and no scratch folder is left behind."""
    builds = []

    def build(folder):
        builds.append(folder)
        with open(f"{folder}/config.json", "w") as f:
            f.write("{}")

    with H.cached_checkpoint("tiny-x", build) as (first, reused1):
        assert not reused1 and (tmp_path / "cache" / "repro-checkpoints" / "tiny-x" / "config.json").is_file()
    with H.cached_checkpoint("tiny-x", build) as (second, reused2):
        assert reused2 and second == first
    assert len(builds) == 1 and builds[0] != first  # built in a scratch folder, then renamed into place
    assert sorted(p.name for p in (tmp_path / "cache" / "repro-checkpoints").iterdir()) == ["tiny-x"]


def test_two_processes_building_at_once_keep_one_copy(H, tmp_path):
    """Another process's copy that lands first is used; this one's scratch folder goes."""
    final = tmp_path / "cache" / "repro-checkpoints" / "tiny-y"

    def build(folder):
        with open(f"{folder}/config.json", "w") as f:
            f.write('{"mine": true}')
        final.mkdir(parents=True)  # the other process renames its copy into place meanwhile
        (final / "config.json").write_text('{"theirs": true}')

    with H.cached_checkpoint("tiny-y", build) as (folder, reused):
        assert folder == str(final) and not reused
        assert (final / "config.json").read_text() == '{"theirs": true}'
    assert sorted(p.name for p in final.parent.iterdir()) == ["tiny-y"]


def test_without_a_writable_cache_the_checkpoint_is_temporary(H, tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(blocker))
    with H.cached_checkpoint("tiny-z", lambda f: open(f"{f}/config.json", "w").close()) as (folder, reused):
        assert not reused and folder.startswith(H.tempfile.gettempdir())
        kept = folder
    assert not __import__("os").path.exists(kept)


def test_the_rounded_contrast_leaves_the_model_as_it_was(H):
    """The informational contrast rounds the float32 block scales in place; they are put back, so a
    second remedy check on the same loaded model sees the scales transformers computed."""
    import torch

    model = torch.nn.Module()
    model.proj = torch.nn.Module()
    model.proj.weight_scale_inv = torch.nn.Parameter(torch.tensor([[0.3, 0.7], [1.2, 0.0123]]), requires_grad=False)
    model.proj.bias = torch.nn.Parameter(torch.tensor([0.3, 0.7]), requires_grad=False)
    original = model.proj.weight_scale_inv.detach().clone()
    saved = H._round_scales_in_place(model)
    assert list(saved) == ["proj.weight_scale_inv"]
    assert torch.equal(model.proj.weight_scale_inv, H.C.ceil_pow2(original))
    assert torch.equal(model.proj.bias, torch.tensor([0.3, 0.7]))
    H._restore_scales(model, saved)
    assert torch.equal(model.proj.weight_scale_inv, original)
