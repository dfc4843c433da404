"""The warm worker processes of the repro runner, and the real-library plumbing that needs no GPU.

Workers: kernels share a process (torch and the CUDA context paid once), yet each kernel starts with the
environment, arguments and working directory it would have in a fresh process; a kernel that crashes
or hangs takes only its worker down, which is replaced for the kernels after it; ``isolate`` keeps the
fresh-process mode. DeepGEMM probe: a ``deep_gemm`` whose binary does not match (import error, crash at
its first call) is named as an import or ABI mismatch, driven here with stand-in packages on the CPU.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fp8triage.confirm import repro as R

pytestmark = pytest.mark.slow  # the whole module: `make check` leaves it to `make test`

HAVE_TORCH = importlib.util.find_spec("torch") is not None
KDIR = Path(R.discover()["deepgemm-sf-layout"]).parent

PID_KERNEL = textwrap.dedent("""
    import json, os, sys
    rid = os.path.basename(sys.argv[0])[:-3].replace('_', '-')
    leaked = os.environ.get('FP8TRIAGE_TEST_LEAK')
    os.environ['FP8TRIAGE_TEST_LEAK'] = rid        # must not reach the next kernel
    os.chdir('/')                                   # nor this
    print(json.dumps({'id': rid, 'verdict': 'not-reproduced', 'reason': 'ok', 'metrics': {
        'pid': os.getpid(), 'leaked': leaked, 'argv': sys.argv[1:]}}))
""")


@pytest.fixture
def kernels(tmp_path):
    for name in ("a_first.py", "b_second.py", "d_fourth.py"):
        (tmp_path / name).write_text(PID_KERNEL)
    (tmp_path / "c_crash.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    (tmp_path / "e_hang.py").write_text("import time\nwhile True:\n    time.sleep(0.1)\n")
    return tmp_path


def test_one_worker_runs_kernels_in_turn_and_is_replaced_after_a_crash(kernels):
    res = {r["id"]: r for r in R.run_repros(["a-first", "b-second", "c-crash", "d-fourth"], device="cpu",
                                            timeout=20, directory=kernels, jobs=1)}
    a, b, d = (res[k]["metrics"] for k in ("a-first", "b-second", "d-fourth"))
    assert all(r["isolation"] == "worker" for r in res.values())
    assert a["pid"] == b["pid"]  # the same warm worker
    assert res["c-crash"]["verdict"] == "error" and "SIGSEGV" in res["c-crash"]["reason"]
    assert d["pid"] != a["pid"]  # the crashed worker was replaced, and the kernel after it still ran
    assert res["d-fourth"]["verdict"] == "not-reproduced"
    # every kernel starts clean: no environment from the kernel before it, its own arguments
    assert a["leaked"] is None and b["leaked"] is None and d["leaked"] is None
    assert b["argv"] == ["--device", "cpu", "--json"]
    assert res["b-second"]["command"].endswith("b_second.py --device cpu --json")


def test_a_hung_kernel_times_out_and_the_next_one_gets_a_fresh_worker(kernels):
    res = {r["id"]: r for r in R.run_repros(["a-first", "e-hang", "b-second"], device="cpu", timeout=3,
                                            directory=kernels, jobs=1)}
    assert res["e-hang"]["verdict"] == "timeout" and "3 s" in res["e-hang"]["reason"]
    assert res["b-second"]["verdict"] == "not-reproduced"
    assert res["b-second"]["metrics"]["pid"] != res["a-first"]["metrics"]["pid"]


def test_isolate_runs_each_kernel_in_a_fresh_process(kernels):
    res = R.run_repros(["a-first", "b-second"], device="cpu", timeout=20, directory=kernels, jobs=1, isolate=True)
    assert [r["isolation"] for r in res] == ["process", "process"]
    assert res[0]["metrics"]["pid"] != res[1]["metrics"]["pid"]


def test_heavy_kernels_are_started_first(kernels):
    (kernels / "z_heavy.py").write_text("HEAVY = True\n" + PID_KERNEL)
    order = sorted(["a-first", "z-heavy"], key=lambda r: R._priority(R.discover(kernels)[r]))
    assert order == ["z-heavy", "a-first"]
    # results still come back in the order asked
    res = R.run_repros(["a-first", "z-heavy"], device="cpu", timeout=20, directory=kernels, jobs=1)
    assert [r["id"] for r in res] == ["a-first", "z-heavy"]


# ── the DeepGEMM probe with stand-in packages (no GPU needed) ─────────────────────────────────────


def _probe(tmp_path, init_py: str, cases):
    pkg = tmp_path / "fake" / "deep_gemm"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(textwrap.dedent(init_py))
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "fake"), FP8TRIAGE_PROBE_DEVICE="cpu")
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import _deepgemm_probe as P; "
            "print(json.dumps(P.run_cases(sys.argv[2:], timeout=60)))")
    out = subprocess.run([sys.executable, "-c", code, str(KDIR), *cases], capture_output=True, text=True,
                         env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not HAVE_TORCH, reason="the probe's child imports torch")
def test_probe_names_an_import_mismatch(tmp_path):
    res = _probe(tmp_path, """
        raise ImportError("/x/deep_gemm/_C.so: undefined symbol: _ZN3c104cuda19CUDAErrorLogCaptureE")
    """, ["import", "sfa_f32_1x128"])
    assert res["import"]["import_error"] and "undefined symbol" in res["import"]["error"]
    assert "sfa_f32_1x128" not in res  # nothing else is tried after a failed import
    sys.path.insert(0, str(KDIR))
    try:
        import deepgemm_sf_layout as L
    finally:
        sys.path.remove(str(KDIR))
    why = L.mismatch_reason(res, "2.11.0+cu130")
    assert "ABI mismatch" in why and "torch 2.11.0+cu130" in why and "undefined symbol" in why


@pytest.mark.skipif(not HAVE_TORCH, reason="the probe's child imports torch")
def test_probe_names_the_call_that_crashed_and_goes_on(tmp_path):
    res = _probe(tmp_path, """
        import os, signal
        __version__ = "9.9"
        def transform_sf_into_required_layout(sf, mn, k, recipe, num_groups=None, is_sfa=None, disable=False):
            if sf.dtype.is_floating_point and recipe == (1, 128, 128) and is_sfa:
                os.kill(os.getpid(), signal.SIGSEGV)     # what an ABI-mismatched build does
            if not sf.dtype.is_floating_point:
                raise RuntimeError("Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation")
            return sf
    """, ["import", "sfa_f32_1x128", "sfa_ue8m0_int32", "sfb_f32_128x128"])
    assert res["import"]["ok"] and res["import"]["version"] == "9.9"
    assert res["sfa_f32_1x128"]["crashed"] == "SIGSEGV"
    # a second child ran the cases after the crash
    assert res["_children"] == 2
    assert "Unknown SF transformation" in res["sfa_ue8m0_int32"]["error"]
    assert res["sfb_f32_128x128"]["ok"] and res["sfb_f32_128x128"]["values_kept"]
    sys.path.insert(0, str(KDIR))
    try:
        import deepgemm_sf_layout as L
    finally:
        sys.path.remove(str(KDIR))
    why = L.mismatch_reason(res, "2.11.0+cu130")
    assert "SIGSEGV" in why and "sfa_f32_1x128" in why and "ABI mismatch" in why


def test_documented_table_keys_the_k_granularity():
    sys.path.insert(0, str(KDIR))
    try:
        import deepgemm_sf_layout as L
    finally:
        sys.path.remove(str(KDIR))
    # checked against DeepGEMM 2.6.1 on an H200 (docs/gpu-validation.md)
    assert L.documented((9, 0), "float32", 1, 128)["error"] is None
    assert L.documented((9, 0), "float32", 128, 128)["error"] is None
    assert L.documented((9, 0), "float32", 1, 32)["error"] == L.UNKNOWN_TEXT
    assert L.documented((9, 0), "int32", 1, 128)["error"] == L.UNKNOWN_TEXT
    assert L.documented((10, 0), "float32", 1, 32)["error"] is None
    assert L.documented((12, 0), "float32", 1, 128)["error"] == L.UNKNOWN_TEXT
    assert "layout.hpp:60" in L.UNKNOWN_TEXT


# ── fp32-sf-guard drives an unguarded library's own rounding path ─────────────────────────────────


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
def test_guard_drives_the_unguarded_librarys_linear_and_reports_the_error(tmp_path):
    """A stand-in shaped like transformers 5.12.1: no guard, its DeepGEMM linear coerces float32 SFs by
    rounding them on SM100. The kernel must call that linear itself and measure the damage."""
    pkg = tmp_path / "fake" / "transformers"
    (pkg / "integrations").mkdir(parents=True)
    (pkg / "__init__.py").write_text("__version__ = '5.12.1-standin'\n")
    (pkg / "integrations" / "__init__.py").write_text("")
    (pkg / "integrations" / "deepgemm.py").write_text(textwrap.dedent("""
        import functools
        import torch

        def load_deepgemm_kernel(requires_sm100=False):
            raise ImportError("no DeepGEMM here")

        @functools.cache
        def _is_sm100(device):
            return torch.cuda.get_device_capability(device)[0] >= 10

        def _coerce_sf_for_kernel(sf, expected_mn=None):
            if sf.dtype == torch.float32 and _is_sm100(sf.device):
                bits = sf.contiguous().view(torch.int32)
                return ((bits + (1 << 23) - 1) & ~((1 << 23) - 1)).view(torch.float32)
            return sf

        def deepgemm_fp8_fp4_linear(input, weight, weight_scale_inv, bias=None, block_size=None,
                                    output_dtype=torch.bfloat16, activation_scale=None):
            dg = load_deepgemm_kernel()
            q, s = dg.per_token_cast_to_fp8(input.view(-1, input.shape[-1]), use_ue8m0=False, gran_k=128)
            out = torch.empty(q.shape[0], weight.shape[0], dtype=output_dtype, device=input.device)
            dg.fp8_fp4_matmul((q, _coerce_sf_for_kernel(s)), (weight, _coerce_sf_for_kernel(weight_scale_inv)), out)
            return out
    """))
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "fake"))
    script = R.discover()["fp32-sf-guard"]
    out = subprocess.run([sys.executable, str(script), "--device", "cpu", "--json"], capture_output=True,
                         text=True, env=env, timeout=120)
    r = json.loads(out.stdout)
    assert r["verdict"] == "reproduced", r["reason"]
    m = r["metrics"]
    assert m["transformers"] == "5.12.1-standin" and "transformers 5.12.1-standin" in r["reason"]
    rp = m["rounding_path"]
    assert rp["driven"] and rp["device"] == "cpu"
    assert rp["weight_scales_rounded"] and rp["act_scales_rounded"]
    assert 1.0 < rp["weight_scale_gain_mean"] < 2.0
    assert rp["library_path_vs_exact"]["rel_err"] > 10 * rp["float32_scales_vs_exact"]["rel_err"]
    assert "deepgemm_fp8_fp4_linear" in r["reason"]


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
def test_guard_names_the_version_when_its_integration_fails_at_import(tmp_path):
    """transformers 5.12.1 next to kernels 0.16 raises ValueError while importing its DeepGEMM integration
    (seen on the H200): the verdict is error with the version and the exception, not a crash."""
    pkg = tmp_path / "fake" / "transformers"
    (pkg / "integrations").mkdir(parents=True)
    (pkg / "__init__.py").write_text("__version__ = '5.12.1'\n")
    (pkg / "integrations" / "__init__.py").write_text("")
    (pkg / "integrations" / "deepgemm.py").write_text(
        "raise ValueError('Either a revision or a version must be specified.')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "fake"))
    out = subprocess.run([sys.executable, str(R.discover()["fp32-sf-guard"]), "--device", "cpu", "--json"],
                         capture_output=True, text=True, env=env, timeout=120)
    r = json.loads(out.stdout)
    assert r["verdict"] == "error"
    assert "transformers 5.12.1" in r["reason"] and "ValueError: Either a revision" in r["reason"]
    assert r["metrics"]["transformers"] == "5.12.1"


# ── lanes: kernels of one GROUP share a worker; PRELOAD functions run before the worker's torch import ──

GROUPED = textwrap.dedent("""
    import json, os, sys, time
    import _helper
    rid = os.path.basename(sys.argv[0])[:-3].replace('_', '-')
    print(json.dumps({'id': rid, 'verdict': 'not-reproduced', 'reason': 'ok', 'metrics': {
        'pid': os.getpid(), 'helper': _helper.STARTED, 't': time.time()}}))
""")


@pytest.fixture
def grouped(tmp_path):
    (tmp_path / "_helper.py").write_text(textwrap.dedent("""
        import os, sys
        STARTED = None
        def start(device):
            global STARTED
            STARTED = [os.getpid(), device, "torch" in sys.modules]
            return {"started": True}
        def loaded(device):
            return {"torch_imported": "torch" in sys.modules}
    """))
    for name, head in (("a_alone.py", ""), ("b_late.py", 'GROUP = ("pair", 1)\n'),
                       ("c_early.py", 'GROUP = ("pair", 0)  # runs first in its lane\nPRESTART = ("_helper:start",)\n'
                                      'PRELOAD = ("_helper:loaded", "json")\n'),
                       ("d_heavy.py", "HEAVY = True\n")):
        (tmp_path / name).write_text(head + GROUPED)
    return tmp_path


def test_lanes_group_kernels_in_rank_order_and_put_heavy_lanes_first(grouped):
    known = R.discover(grouped)
    plan = R.lanes(list(known), known)
    assert plan == [["d-heavy"], ["a-alone"], ["c-early", "b-late"]]
    # the lane that imports a large library (PRELOAD) starts at once, the others a moment later
    assert R._start_delays(plan, known) == [R.STAGGER_S, R.STAGGER_S, 0.0]
    assert R._start_delays(plan[:2], known) == [0.0, 0.0]  # no such lane: nobody waits


def test_a_group_runs_on_one_worker_that_called_its_preload_function_first(grouped):
    res = R.run_repros(["a-alone", "b-late", "c-early", "d-heavy"], device="cpu", timeout=30,
                       directory=grouped, jobs=3)
    assert [r["id"] for r in res] == ["a-alone", "b-late", "c-early", "d-heavy"]  # the order asked
    r = {x["id"]: x for x in res}
    early, late = r["c-early"], r["b-late"]
    assert early["metrics"]["pid"] == late["metrics"]["pid"] != r["a-alone"]["metrics"]["pid"]
    assert early["metrics"]["t"] < late["metrics"]["t"]  # rank 0 before rank 1
    # the worker called _helper.start(device) before importing torch, and the kernels see what it did
    assert early["metrics"]["helper"] == [early["metrics"]["pid"], "cpu", False]
    assert early["worker"]["fresh"] and not late["worker"]["fresh"]
    pre = early["worker"]["preload"]
    assert pre["started"]["_helper:start"]["result"] == {"started": True}
    # PRELOAD entries come after torch: a function is called, a module imported
    assert pre["modules"]["_helper:loaded"]["result"] == {"torch_imported": HAVE_TORCH}
    assert isinstance(pre["modules"]["json"], float)
    assert "_helper:start" not in (r["a-alone"]["worker"].get("preload") or {}).get("started", {})
    assert all(x["worker"]["ready_s"] >= 0 and x["worker"]["started_at_s"] >= 0 for x in res)
    # lanes without PRELOAD waited while the pair's worker started
    assert r["a-alone"]["worker"]["started_at_s"] >= R.STAGGER_S


def test_a_crash_in_a_group_leaves_the_rest_of_its_lane_to_a_fresh_worker(grouped):
    (grouped / "b_late.py").write_text('GROUP = ("pair", 1)\nimport os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n')
    (grouped / "e_last.py").write_text('GROUP = ("pair", 2)\nPRESTART = ("_helper:start",)\n' + GROUPED)
    r = {x["id"]: x for x in R.run_repros(["c-early", "b-late", "e-last"], device="cpu", timeout=30,
                                          directory=grouped, jobs=1)}
    assert r["b-late"]["verdict"] == "error" and "SIGSEGV" in r["b-late"]["reason"]
    assert r["e-last"]["verdict"] == "not-reproduced" and r["e-last"]["worker"]["fresh"]
    assert r["e-last"]["metrics"]["pid"] != r["c-early"]["metrics"]["pid"]
    # the new worker ran the preloads of the lane's remaining kernels
    assert r["e-last"]["metrics"]["helper"] == [r["e-last"]["metrics"]["pid"], "cpu", False]


# ── one DeepGEMM child per process, started early and shared by the kernels that call it ────────────

SHARED_PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import _deepgemm_probe as P
started = P.prestart("auto")
first = P.run_cases(["import", "sfb_f32_128x128"], timeout=60)
pid1 = P._SHARED.proc.pid
second = P.run_cases(["sfa_ue8m0_int32", "sfa_f32_1x128", "sfb_f32_128x128"], timeout=60)
pid2 = P._SHARED.proc.pid
third = P.run_cases(["sfb_f32_128x128"], timeout=60)
print(json.dumps({"started": started, "first": first, "second": second, "third": third,
                  "pid1": pid1, "pid2": pid2, "pid3": P._SHARED.proc.pid}))
"""


def _fake_deep_gemm(tmp_path, init_py: str) -> dict:
    pkg = tmp_path / "fake" / "deep_gemm"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(textwrap.dedent(init_py))
    return dict(os.environ, PYTHONPATH=str(tmp_path / "fake"), FP8TRIAGE_PROBE_DEVICE="cpu")


@pytest.mark.skipif(not HAVE_TORCH, reason="the probe's child imports torch")
def test_the_prestarted_child_serves_every_call_and_a_crash_gets_a_new_one(tmp_path):
    env = _fake_deep_gemm(tmp_path, """
        import os, signal
        __version__ = "9.9"
        def transform_sf_into_required_layout(sf, mn, k, recipe, num_groups=None, is_sfa=None, disable=False):
            if sf.dtype.is_floating_point and recipe == (1, 128, 128) and is_sfa:
                os.kill(os.getpid(), signal.SIGSEGV)
            if not sf.dtype.is_floating_point:
                raise RuntimeError("Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation")
            return sf
    """)
    out = subprocess.run([sys.executable, "-c", SHARED_PROBE, str(KDIR)], capture_output=True, text=True,
                         env=env, timeout=180)
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout.strip().splitlines()[-1])
    assert d["started"]["started"] is True
    first, second, third = d["first"], d["second"], d["third"]
    # the first call found the child warm: its import came from the warm-up, no new child
    assert first["_warm"] and first["_children"] == 1 and first["import"]["version"] == "9.9"
    assert first["sfb_f32_128x128"]["ok"]
    # the second call used the same child until it crashed, then a new one for the case after the crash
    assert second["_warm"] and second["_children"] == 2 and d["pid2"] != d["pid1"]
    assert "Unknown SF transformation" in second["sfa_ue8m0_int32"]["error"]
    assert second["sfa_f32_1x128"]["crashed"] == "SIGSEGV" and second["sfb_f32_128x128"]["ok"]
    # and that new child stays up for the next call
    assert third["_warm"] and third["_children"] == 1 and d["pid3"] == d["pid2"] and third["sfb_f32_128x128"]["ok"]


@pytest.mark.skipif(not HAVE_TORCH, reason="the probe's child imports torch")
def test_a_failed_warm_up_import_is_reported_to_the_kernel_that_asks(tmp_path):
    env = _fake_deep_gemm(tmp_path, 'raise ImportError("_C.so: undefined symbol: _ZN3c104cuda9SetDeviceEa")\n')
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import _deepgemm_probe as P; P.prestart('auto'); "
            "print(json.dumps(P.run_cases(['gemm_f32', 'gemm_rounded'], timeout=60)))")
    out = subprocess.run([sys.executable, "-c", code, str(KDIR)], capture_output=True, text=True, env=env, timeout=180)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["import"]["import_error"] and "undefined symbol" in res["import"]["error"]
    assert "gemm_f32" not in res and res["_children"] == 1  # nothing else was tried


@pytest.mark.skipif(not HAVE_TORCH, reason="the probe's child imports torch")
def test_a_hung_deepgemm_call_times_out_and_the_child_is_killed(tmp_path):
    env = _fake_deep_gemm(tmp_path, """
        import time
        def transform_sf_into_required_layout(*a, **k):
            time.sleep(600)
    """)
    code = ("import json, sys; sys.path.insert(0, sys.argv[1]); import _deepgemm_probe as P; "
            "r = P.run_cases(['import', 'sfa_f32_1x128', 'sfb_f32_128x128'], timeout=20); "
            "r['alive'] = P._SHARED.alive(); print(json.dumps(r))")
    out = subprocess.run([sys.executable, "-c", code, str(KDIR)], capture_output=True, text=True, env=env, timeout=180)
    assert out.returncode == 0, out.stderr
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["import"]["ok"] and res["sfa_f32_1x128"]["timed_out"] and "20 s" in res["sfa_f32_1x128"]["error"]
    assert "sfb_f32_128x128" not in res and res["alive"] is False


# ── bytecode: kernels on an image without it (PYTHONDONTWRITEBYTECODE=1, no .pyc) keep theirs in a cache ──


def test_bytecode_cache_only_where_torch_has_no_bytecode(tmp_path, monkeypatch):
    import importlib.machinery
    import importlib.util

    init = tmp_path / "torch" / "__init__.py"
    init.parent.mkdir()
    init.write_text("")
    spec = importlib.machinery.ModuleSpec("torch", None, origin=str(init))
    monkeypatch.setattr(R.importlib.util, "find_spec", lambda name: spec if name == "torch" else None)
    for var in ("PYTHONPYCACHEPREFIX", "FP8TRIAGE_REPRO_PYCACHE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path / "cache"))
    assert R.bytecode_cache() == str(tmp_path / "cache" / "pycache")  # no bytecode next to torch
    env = R._env()
    assert env["PYTHONPYCACHEPREFIX"] == str(tmp_path / "cache" / "pycache") and "PYTHONDONTWRITEBYTECODE" not in env
    monkeypatch.setenv("FP8TRIAGE_REPRO_PYCACHE", "off")
    assert R.bytecode_cache() is None and R._env()["PYTHONDONTWRITEBYTECODE"] == "1"
    monkeypatch.delenv("FP8TRIAGE_REPRO_PYCACHE")
    monkeypatch.setenv("PYTHONPYCACHEPREFIX", str(tmp_path / "mine"))  # the user's own setting wins
    assert R.bytecode_cache() is None and R._env()["PYTHONPYCACHEPREFIX"] == str(tmp_path / "mine")
    monkeypatch.delenv("PYTHONPYCACHEPREFIX")
    pyc = Path(importlib.util.cache_from_source(str(init)))
    pyc.parent.mkdir()
    pyc.write_bytes(b"")
    assert R.bytecode_cache() is None  # torch installed with bytecode, as pip does: leave it alone


def test_workers_write_bytecode_to_the_cache_and_never_next_to_the_kernels(grouped, tmp_path, monkeypatch):
    cache = tmp_path / "pyc"
    monkeypatch.setenv("FP8TRIAGE_REPRO_PYCACHE", str(cache))
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # what the image sets: overridden for the cache only
    res = R.run_repros(["a-alone"], device="cpu", timeout=30, directory=grouped)
    assert res[0]["verdict"] == "not-reproduced"
    assert list(cache.rglob("_helper*.pyc"))  # the kernel's helper module was compiled into the cache
    assert not (grouped / "__pycache__").exists()
