"""Repro kernels in CPU emulation, the subprocess runner, confirm_findings and the `repro` command.

Every bundled kernel runs once (module fixture, ``--device cpu``) and its verdict and metric ranges
are checked against what the mechanism must show. Planted kernels in a temporary folder check that a
crash, a hang, garbage output or a malformed result become ``error``/``timeout`` while the run
completes.
"""
from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.confirm import repro as R
from fp8triage.render.repro import render_text
from fp8triage.cli import cli
from fp8triage.model import Finding, Remedy, Severity, Status, Truth

pytestmark = pytest.mark.slow  # the whole module: `make check` leaves it to `make test`

HAVE_TORCH = importlib.util.find_spec("torch") is not None
needs_torch = pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed (pip install torch==2.13.0)")

EXPECTED_IDS = {
    "ue8m0-scale-rounding", "fp32-sf-guard", "deepgemm-sf-layout", "ue8m0-pack-nonpow2",
    "triton-fp32-block-scales", "per-tensor-fp8", "grouped-mm-experts", "fp8-capability",
}


@pytest.fixture(scope="module")
def cpu_results():
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    results = R.run_repros(device="cpu", timeout=180)
    return {r["id"]: r for r in results}


# ── discovery and the result contract ─────────────────────────────────────────────────────────────


def test_discovers_every_bundled_kernel():
    known = R.discover()
    assert set(known) == EXPECTED_IDS
    for rid, path in known.items():
        assert path.name == rid.replace("-", "_") + ".py"
    assert not any(k.startswith("_") for k in known)  # helper modules are not repros


@needs_torch
def test_every_result_follows_the_contract(cpu_results):
    assert set(cpu_results) == EXPECTED_IDS
    for rid, r in cpu_results.items():
        for key in R.RESULT_KEYS:
            assert key in r, (rid, key)
        assert r["verdict"] in ("reproduced", "not-reproduced", "not-executed", "not-applicable", "skipped"), (rid, r["reason"])
        assert r["mode"] == "cpu-emulation"
        assert r["capability"] is None
        assert r["gpu_s"] is None
        assert r["versions"]["torch"]
        assert 0 < r["wall_s"] < 120
        assert "--device cpu" in r["command"] and r["command"].endswith("--json")
        assert r["reason"]
        expected_kind = "remedy-check" if rid in ("triton-fp32-block-scales", "per-tensor-fp8", "grouped-mm-experts") else "mechanism"
        assert r["kind"] == expected_kind, rid


@needs_torch
def test_rerun_command_reproduces_the_same_result(cpu_results):
    import shlex
    import subprocess

    r = cpu_results["ue8m0-pack-nonpow2"]
    out = subprocess.run(shlex.split(r["command"]), capture_output=True, text=True, timeout=120)
    again = json.loads(out.stdout)
    assert again["verdict"] == r["verdict"]
    assert again["metrics"] == r["metrics"]  # deterministic


# ── the mechanisms, in emulation ──────────────────────────────────────────────────────────────────


@needs_torch
def test_ue8m0_scale_rounding_variants(cpu_results):
    r = cpu_results["ue8m0-scale-rounding"]
    m = r["metrics"]
    a, b, c = m["fp32_scales"], m["rounded_no_requant"], m["requantized_pow2"]
    assert r["verdict"] == "reproduced"
    # float32 block scales: plain FP8 quantization error
    assert 0.02 < a["rel_err"] < 0.06 and a["cosine"] > 0.998 and abs(a["norm_ratio"] - 1) < 0.01
    # rounded scales, data not requantized: output clearly too large, error of order 1
    assert 1.6 < b["norm_ratio"] < 3.0
    assert b["rel_err"] > 0.8
    # a single random GEMM keeps its direction (domain.md section 8: cosine ~0.985)
    assert 0.95 < b["cosine"] < 0.995
    # requantized against the rounded scales: as good as float32 scales
    assert abs(c["rel_err"] - a["rel_err"]) < 0.005
    assert abs(c["norm_ratio"] - 1) < 0.01
    # rounding scales up by a factor in [1, 2)
    g = m["scale_gain_from_rounding"]
    assert 1.0 <= g["act_mean"] < 2.0 and 1.0 <= g["weight_mean"] < 2.0 and g["weight_max"] < 2.0
    # through the stack the damage compounds while the other two variants stay close to the reference
    sb, sa, sc = m["stack"]["b"], m["stack"]["a"], m["stack"]["c"]
    assert sb["final"]["norm_ratio"] > 3.0
    assert sb["final"]["cosine"] < 0.6
    assert sb["cosine_by_layer"][-1] < sb["cosine_by_layer"][0]
    assert sa["final"]["cosine"] > 0.98 and sc["final"]["cosine"] > 0.98
    assert len(sb["cosine_by_layer"]) == m["stack"]["layers"]
    assert "emulated" in m["gemm_backend"]
    assert r["machine_independent"] is False and r["real_path"] is False


@needs_torch
def test_ue8m0_pack_nonpow2(cpu_results):
    r = cpu_results["ue8m0-pack-nonpow2"]
    m = r["metrics"]
    assert r["verdict"] == "reproduced"
    assert m["check_fails_fraction"] > 0.9
    assert 0.5 <= m["exponent_only"]["min_value_ratio"] < 0.6  # floor to a power of two: never below 1/2
    assert 0.3 < m["exponent_only"]["max_rel_err"] <= 0.5
    assert m["shift_or_pack"]["words_corrupted_fraction"] > 0.5
    assert m["after_ceil_to_pow2"] == {"check_passes": True, "pack_roundtrip_exact": True}
    assert m["controls"] == {"pow2_pass": True, "non_pow2_rejected": True}
    assert r["machine_independent"] is True


@needs_torch
def test_fp32_sf_guard(cpu_results):
    r = cpu_results["fp32-sf-guard"]
    if importlib.util.find_spec("transformers") is None:
        assert r["verdict"] == "skipped" and "transformers" in r["reason"]
        return
    m = r["metrics"]
    assert m["guard"] in ("protected", "vulnerable", "not-applicable")
    expected = {"protected": "not-reproduced", "vulnerable": "reproduced", "not-applicable": "not-applicable"}
    assert r["verdict"] == expected[m["guard"]]
    from importlib.metadata import version

    from packaging.version import Version

    if Version(version("transformers")) >= Version("5.17.0"):
        # 5.17.0 ships the guard (domain.md section 8): it must be found protected, through the library's code
        assert m["guard"] == "protected"
        assert m["checks"]["sm100_float32"]["raised"]
        assert "float32 scale-factor path" in m["checks"]["sm100_float32"]["message"]
        assert not m["checks"]["sm90_float32"]["raised"]  # control: Hopper consumes float32 scales
        assert m["checks"]["sm120_float32"]["raised"]  # is_sm100 is `major >= 10`
        assert m["dense_dispatch"]["route"] == "triton"


def test_fp32_sf_guard_vulnerable_with_an_unguarded_library(tmp_path):
    """Against a stand-in transformers whose SF coercion rounds silently, the kernel says vulnerable."""
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import os
    import subprocess

    pkg = tmp_path / "fake" / "transformers"
    (pkg / "integrations").mkdir(parents=True)
    (pkg / "__init__.py").write_text("__version__ = '0.0.1'\n")
    (pkg / "integrations" / "__init__.py").write_text("")
    # the #47030 generation: float32 SFs on SM100 are rounded up to powers of two, no guard
    (pkg / "integrations" / "deepgemm.py").write_text(textwrap.dedent("""
        import torch
        def _coerce_sf_for_kernel(sf, expected_mn=None):
            if sf.dtype == torch.float32 and torch.cuda.get_device_capability()[0] >= 10:
                return torch.exp2(torch.ceil(torch.log2(sf)))
            return sf
    """))
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "fake"))
    script = R.discover()["fp32-sf-guard"]
    out = subprocess.run([sys.executable, str(script), "--device", "cpu", "--json"], capture_output=True,
                         text=True, env=env, timeout=120)
    r = json.loads(out.stdout)
    assert r["verdict"] == "reproduced", r["reason"]
    assert r["metrics"]["guard"] == "vulnerable"
    assert r["metrics"]["coerce"]["scales_changed"] is True
    # and with no DeepGEMM integration at all: not applicable
    (pkg / "integrations" / "deepgemm.py").unlink()
    out = subprocess.run([sys.executable, str(script), "--device", "cpu", "--json"], capture_output=True,
                         text=True, env=env, timeout=120)
    r = json.loads(out.stdout)
    assert r["verdict"] == "not-applicable" and r["metrics"]["guard"] == "not-applicable"


def test_remedy_checks_hide_only_unused_packages_from_transformers(tmp_path):
    """The remedy lanes hide scikit-learn (and scipy, torchvision) from transformers (only its assisted
    generation imports scikit-learn, for 1.4 s on the H200): it then looks absent to find_spec and an
    import fails; one already imported stays, and a package not on the list stays visible."""
    if not HAVE_TORCH:
        pytest.skip("torch is not installed")
    import os
    import subprocess

    (tmp_path / "sklearn").mkdir()
    (tmp_path / "sklearn" / "__init__.py").write_text("LOADED = True\n")
    (tmp_path / "numpy_like_needed").mkdir()  # a package not on the list stays visible
    (tmp_path / "numpy_like_needed" / "__init__.py").write_text("")
    kdir = R.discover()["grouped-mm-experts"].parent
    probe = textwrap.dedent("""
        import importlib.util, json, sys
        pre = sys.argv[1] == "pre"
        if pre:
            import sklearn
        import _hf_fp8
        hidden = [n for n in _hf_fp8.hide_unused("cuda") if n == "sklearn"]  # scipy etc. may be installed too
        assert importlib.util.find_spec("numpy_like_needed") is not None
        try:
            import sklearn
            imported = True
        except ImportError:
            imported = False
        print(json.dumps({"hidden": hidden, "listed": _hf_fp8.hidden_packages(), "imported": imported,
                          "spec": importlib.util.find_spec("sklearn") is not None,
                          "again": _hf_fp8.hide_unused(),
                          "unused": list(_hf_fp8.UNUSED)}))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(kdir), str(tmp_path)]))
    got = {}
    for mode in ("fresh", "pre"):
        out = subprocess.run([sys.executable, "-c", probe, mode], capture_output=True, text=True, env=env, timeout=120)
        got[mode] = json.loads(out.stdout.strip().splitlines()[-1])
        assert set(got[mode].pop("unused")) == {"sklearn", "scipy", "torchvision"}
        got[mode]["listed"] = [n for n in got[mode]["listed"] if n == "sklearn"]
    assert got["fresh"] == {"hidden": ["sklearn"], "listed": ["sklearn"], "imported": False, "spec": False, "again": []}
    assert got["pre"] == {"hidden": [], "listed": [], "imported": True, "spec": True, "again": []}
    # the workers of the remedy lanes hide it before importing transformers
    for rid in ("grouped-mm-experts", "triton-fp32-block-scales"):
        preload = R._preload_hint(R.discover()[rid])
        assert preload[0] == "_hf_fp8:hide_unused" and any(p.startswith("transformers.") for p in preload[1:]), rid


@needs_torch
def test_deepgemm_sf_layout_table(cpu_results):
    r = cpu_results["deepgemm-sf-layout"]
    m = r["metrics"]
    assert m["executed"] is False
    # nothing ran, so nothing was reproduced: the verdict says so, the table's answer is in the metrics
    assert r["verdict"] == "not-executed" and "was not run" in r["reason"]
    assert m["table_predicts_sm120"] == "reproduced"
    by_arch = m["float32_sf_layout_by_arch"]
    assert by_arch["SM90"] and by_arch["SM100"]
    assert not by_arch["SM120"] and not by_arch["SM121"] and not by_arch["SM110"]
    assert "Unknown SF transformation" in m["table_sm120"]["float32/gran_mn=1/gran_k=128"]["error"]
    assert r["verdict"] == "not-executed"  # deep_gemm is not installed here: nothing ran
    assert r["real_path"] is False  # a table is not an execution: it can never confirm a finding


@needs_torch
@pytest.mark.parametrize("rid", ["triton-fp32-block-scales", "grouped-mm-experts", "per-tensor-fp8"])
def test_remedy_checks_compute_the_right_answer(cpu_results, rid):
    r = cpu_results[rid]
    m = r["metrics"]
    assert r["verdict"] == "reproduced", r["reason"]
    assert 0.02 < m["vs_exact"]["rel_err"] < 0.06
    assert m["vs_exact"]["cosine"] > 0.998
    ref_key = "vs_dequant_reference" if rid == "per-tensor-fp8" else "vs_fp32_dequant_reference"
    # the emulated kernels accumulate in float32 (1e-6); per-tensor rounds its output to bf16 (~2e-3)
    assert m[ref_key]["rel_err"] < (5e-3 if rid == "per-tensor-fp8" else 1e-5)


@needs_torch
def test_triton_remedy_contrasts_with_rounding(cpu_results):
    m = cpu_results["triton-fp32-block-scales"]["metrics"]
    assert m["contrast_rounded_no_requant_vs_exact"]["rel_err"] > 20 * m["vs_exact"]["rel_err"]


@needs_torch
def test_grouped_experts_routing_is_uneven_and_every_expert_checked(cpu_results):
    m = cpu_results["grouped-mm-experts"]["metrics"]
    counts = m["tokens_per_expert"]
    assert sum(counts) == m["tokens"] and len(set(counts)) > 1
    assert m["padded_rows"] % 64 == 0 and m["padded_rows"] >= m["tokens"]
    assert len(m["rel_err_by_expert"]) == sum(1 for c in counts if c) and max(m["rel_err_by_expert"]) < 0.06


@needs_torch
def test_fp8_capability_needs_a_gpu(cpu_results):
    r = cpu_results["fp8-capability"]
    assert r["verdict"] == "not-applicable"
    assert "float8_e4m3fn" in r["metrics"]["float8_dtypes"]


@needs_torch
def test_cuda_requested_without_gpu_is_skipped():
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU")
    [r] = R.run_repros(["per-tensor-fp8"], device="cuda", timeout=120)
    assert r["verdict"] == "skipped" and "CUDA" in r["reason"]


@pytest.mark.skipif(not HAVE_TORCH or importlib.util.find_spec("triton") is None, reason="needs torch and triton")
def test_triton_kernel_source_in_the_interpreter():
    """The project's Triton block-FP8 kernel (dense and grouped) run by Triton's CPU interpreter against the
    float32 dequantized reference; a wrong tile → expert map must be detected."""
    import os
    import subprocess

    code = textwrap.dedent("""
        import json, torch, _common as C, _triton_fp8 as T
        x = C.torch.randn(128, 256, generator=torch.Generator().manual_seed(1))
        w = C.torch.randn(256, 256, generator=torch.Generator().manual_seed(2)) * 256 ** -0.5
        qa, sa = C.quant_act(x); qw, sw = C.quant_weight(w)
        ref = C.emulated_block_gemm(qa, sa, qw, sw)
        dense = C.compare(T.block_fp8_gemm(qa, sa, qw, sw), ref)["rel_err"]
        qw2 = torch.stack([qw.view(torch.uint8)] * 2).view(torch.float8_e4m3fn)
        sw2 = torch.stack([sw, sw * 2])
        ref2 = ref.clone(); ref2[64:] *= 2
        grouped = C.compare(T.block_fp8_gemm(qa, sa, qw2, sw2, tile_group=torch.tensor([0, 1], dtype=torch.int32)), ref2)["rel_err"]
        swapped = C.compare(T.block_fp8_gemm(qa, sa, qw2, sw2, tile_group=torch.tensor([1, 0], dtype=torch.int32)), ref2)["rel_err"]
        a = x[:16, :64].to(torch.float8_e4m3fn); b = w[:32, :64].t().contiguous().to(torch.float8_e4m3fn)
        dot = C.compare(T.fp8_dot(a, b), a.float() @ b.float())["rel_err"]
        print(json.dumps({"dense": dense, "grouped": grouped, "swapped": swapped, "dot": dot}))
    """)
    env = dict(os.environ, TRITON_INTERPRET="1")
    out = subprocess.run([sys.executable, "-c", code], cwd=R.kernel_dir(), capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    r = json.loads(out.stdout.strip().splitlines()[-1])
    assert r["dense"] < 1e-5 and r["grouped"] < 1e-5 and r["dot"] < 1e-5
    assert r["swapped"] > 0.1


# ── planted kernels: crash, hang, garbage ─────────────────────────────────────────────────────────

PLANTS = {
    "crash_segv.py": "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n",
    "hang_forever.py": "import time\nwhile True:\n    time.sleep(0.1)\n",
    "garbage_out.py": "print('hello, not json')\nraise SystemExit(0)\n",
    "raise_error.py": "raise RuntimeError('CUDA error: an illegal memory access was encountered')\n",
    "bad_verdict.py": ("import json\nprint(json.dumps({'id': 'bad-verdict', 'verdict': 'maybe', 'reason': 'x', "
                       "'metrics': {}}))\n"),
    "good_one.py": ("import json, sys\nassert sys.argv[1:] == ['--device', 'cpu', '--json'], sys.argv\n"
                    "print('warming up')\n"
                    "print(json.dumps({'id': 'good-one', 'verdict': 'not-reproduced', 'reason': 'fine', "
                    "'metrics': {'x': 1}, 'mode': 'cpu-emulation'}))\n"),
    "_helper.py": "raise SystemExit('helpers must never run')\n",
}


@pytest.fixture
def planted(tmp_path):
    for name, code in PLANTS.items():
        (tmp_path / name).write_text(code)
    return tmp_path


def test_planted_kernels_give_error_or_timeout_and_the_run_completes(planted):
    t0 = time.perf_counter()
    results = R.run_repros(device="cpu", timeout=3, directory=planted, jobs=2)
    took = time.perf_counter() - t0
    by = {r["id"]: r for r in results}
    assert set(by) == {"crash-segv", "hang-forever", "garbage-out", "raise-error", "bad-verdict", "good-one"}
    assert by["crash-segv"]["verdict"] == "error" and "SIGSEGV" in by["crash-segv"]["reason"]
    assert by["hang-forever"]["verdict"] == "timeout" and "3 s" in by["hang-forever"]["reason"]
    assert by["garbage-out"]["verdict"] == "error" and "not a JSON result" in by["garbage-out"]["reason"]
    assert by["raise-error"]["verdict"] == "error"
    assert "status 1" in by["raise-error"]["reason"] and "illegal memory access" in by["raise-error"]["reason"]
    assert by["bad-verdict"]["verdict"] == "error" and "malformed" in by["bad-verdict"]["reason"]
    assert by["good-one"]["verdict"] == "not-reproduced" and by["good-one"]["metrics"] == {"x": 1}
    for r in results:
        assert r["command"].endswith("--device cpu --json")
    assert took < 20  # the hang was killed at its timeout, not waited for


def test_planted_via_cli_text_and_json(planted):
    runner = CliRunner()
    if not HAVE_TORCH:
        pytest.skip("the CLI refuses to run without torch")
    res = runner.invoke(cli, ["repro", "--device", "cpu", "--timeout", "2", "--kernel-dir", str(planted),
                              "hang-forever", "crash-segv", "good-one"])
    assert res.exit_code == 0, res.output
    assert "timeout" in res.output and "SIGSEGV" in res.output and "3 repros:" in res.output
    res = runner.invoke(cli, ["repro", "--device", "cpu", "--format", "json", "--kernel-dir", str(planted),
                              "good_one"])
    assert res.exit_code == 0
    doc = json.loads(res.output)
    assert (doc["schema_version"], doc["kind"]) == (R.SCHEMA_VERSION, "repro") and doc["summary"] == {"not-reproduced": 1}
    assert [r["id"] for r in doc["results"]] == ["good-one"]


# ── CLI input errors ──────────────────────────────────────────────────────────────────────────────


def test_cli_unknown_id_lists_the_known_ids():
    res = CliRunner().invoke(cli, ["repro", "no-such-repro"])
    assert res.exit_code == 1
    msg = res.stderr if hasattr(res, "stderr") else res.output
    assert "unknown repro id 'no-such-repro'" in msg
    for rid in EXPECTED_IDS:
        assert rid in msg
    assert "Traceback" not in msg and msg.count("\n") == 1


def test_cli_bad_timeout_and_list():
    res = CliRunner().invoke(cli, ["repro", "--timeout", "0", "per-tensor-fp8"])
    assert res.exit_code == 1 and "timeout" in res.output.lower()
    res = CliRunner().invoke(cli, ["repro", "--list"])
    assert res.exit_code == 0 and set(res.output.split()) == EXPECTED_IDS


def test_cli_without_torch_says_so_in_one_sentence(monkeypatch):
    monkeypatch.setattr(R, "torch_available", lambda python=None: False)
    res = CliRunner().invoke(cli, ["repro", "--device", "cpu"])
    assert res.exit_code == 1
    assert "torch is not installed" in res.output and res.output.strip().count("\n") == 0


def test_runner_rejects_bad_input(tmp_path):
    with pytest.raises(R.UnknownRepro, match="known ids: "):
        R.run_repros(["nope"], device="cpu")
    with pytest.raises(R.ReproError, match="device"):
        R.run_repros(device="tpu")
    with pytest.raises(R.ReproError, match="does not exist"):
        R.discover(tmp_path / "missing")


def test_runner_module_does_not_import_torch():
    import subprocess

    code = ("import sys; import fp8triage.confirm.repro, fp8triage.cli.repro; "
            "sys.exit(1 if 'torch' in sys.modules else 0)")
    assert subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2]).returncode == 0


# ── confirm_findings ──────────────────────────────────────────────────────────────────────────────


def _finding(fid, repro, remedy_repro=(), status=Status.LIKELY):
    rem = Remedy(id="r1", title="remedy", action={"kind": "env"}, snippet="X=1", applies=Truth.HOLDS,
                 repro=tuple(remedy_repro))
    return Finding(id=fid, title=fid, severity=Severity.CRITICAL, status=status, summary="", cause="",
                   evidence=[], conditions=[], facts=[], remedies=[rem], references=[], repro=list(repro))


def _plant_results(tmp_path, results: dict[str, dict]):
    """Kernels that print given results and count their runs in a file next to them."""
    for rid, res in results.items():
        body = {"id": rid, "reason": "planted", "metrics": {}, "mode": "cuda", "device": "NVIDIA H200",
                "capability": "9.0", **res}
        (tmp_path / (rid.replace("-", "_") + ".py")).write_text(
            "import json, pathlib\n"
            f"p = pathlib.Path({str(tmp_path / (rid + '.runs'))!r})\n"
            "p.write_text(p.read_text() + 'x' if p.exists() else 'x')\n"
            f"print(json.dumps({body!r}))\n")


def _runs(tmp_path, rid):
    p = tmp_path / (rid + ".runs")
    return len(p.read_text()) if p.exists() else 0


def test_confirm_upgrades_only_on_real_path_or_machine_independent(tmp_path, monkeypatch):
    monkeypatch.setattr(R, "torch_available", lambda python=None: True)
    _plant_results(tmp_path, {
        "real-mech": {"verdict": "reproduced", "real_path": True},
        "indep-mech": {"verdict": "reproduced", "machine_independent": True, "mode": "cpu-emulation",
                       "capability": None, "device": "cpu"},
        "emul-mech": {"verdict": "reproduced", "real_path": False, "machine_independent": False,
                      "scope_note": "this is an SM90 GPU (NVIDIA H200); the mechanism was shown in emulation"},
        "cpu-mech": {"verdict": "reproduced", "mode": "cpu-emulation", "capability": None, "device": "cpu"},
        "no-mech": {"verdict": "not-reproduced", "real_path": True},
        "fix-ok": {"verdict": "reproduced", "real_path": True, "kind": "remedy-check"},
    })
    f_real = _finding("a", ["real-mech"], ["fix-ok"])
    f_indep = _finding("b", ["indep-mech"], status=Status.POSSIBLE)
    f_emul = _finding("c", ["emul-mech"], ["fix-ok"])
    f_cpu = _finding("d", ["cpu-mech"])
    f_no = _finding("e", ["no-mech", "emul-mech"])
    f_ruled = _finding("f", ["real-mech"], status=Status.RULED_OUT)
    f_missing = _finding("g", ["not-bundled"])
    f_remedy_as_confirm = _finding("h", ["fix-ok"])  # a signature naming a remedy check as its confirmation
    findings = [f_real, f_indep, f_emul, f_cpu, f_no, f_ruled, f_missing, f_remedy_as_confirm]
    R.confirm_findings(findings, device="cuda", timeout=30, directory=tmp_path)

    assert f_real.status == Status.CONFIRMED
    assert f_indep.status == Status.CONFIRMED
    assert f_emul.status == Status.LIKELY
    assert f_cpu.status == Status.LIKELY
    assert f_no.status == Status.LIKELY
    assert f_ruled.status == Status.RULED_OUT
    assert f_missing.status == Status.LIKELY
    assert f_remedy_as_confirm.status == Status.LIKELY
    assert "checks a remedy" in f_remedy_as_confirm.repro_results[0]["note"]

    emul_note = f_emul.repro_results[0]["note"]
    assert "SM90" in emul_note and "emulation" in emul_note
    assert "no CUDA GPU" in f_cpu.repro_results[0]["note"] and "emulation" in f_cpu.repro_results[0]["note"]
    assert "did not reproduce" in f_no.repro_results[0]["note"]
    assert "ruled out" in f_ruled.repro_results[0]["note"]
    assert f_missing.repro_results[0]["verdict"] == "skipped" and "not-bundled" in f_missing.repro_results[0]["reason"]

    purposes = [(r["id"], r["purpose"]) for r in f_real.repro_results]
    assert purposes == [("real-mech", "confirm"), ("fix-ok", "remedy")]
    assert f_real.repro_results[1]["remedy"] == "r1" and "remedy checked on this GPU" in f_real.repro_results[1]["note"]
    # each distinct repro ran once although several findings name it
    assert _runs(tmp_path, "real-mech") == 1 and _runs(tmp_path, "emul-mech") == 1 and _runs(tmp_path, "fix-ok") == 1
    # results are copies: annotating one finding's result does not leak into another's
    assert f_ruled.repro_results[0]["note"] != f_real.repro_results[0]["note"]
    assert json.dumps(f_real.to_dict())  # still serialisable


def test_confirm_without_torch_skips_with_one_reason(tmp_path, monkeypatch):
    monkeypatch.setattr(R, "torch_available", lambda python=None: False)
    _plant_results(tmp_path, {"real-mech": {"verdict": "reproduced", "real_path": True}})
    f = _finding("a", ["real-mech"])
    R.confirm_findings([f], device="auto", timeout=10, directory=tmp_path)
    assert f.status == Status.LIKELY
    assert f.repro_results[0]["verdict"] == "skipped" and f.repro_results[0]["reason"] == R.NO_TORCH
    assert _runs(tmp_path, "real-mech") == 0


def test_confirm_survives_crashing_and_hanging_repros(planted, monkeypatch):
    monkeypatch.setattr(R, "torch_available", lambda python=None: True)
    f = _finding("a", ["crash-segv", "hang-forever"], ["garbage-out"])
    R.confirm_findings([f], device="cpu", timeout=2, directory=planted)
    assert f.status == Status.LIKELY
    verdicts = {r["id"]: r["verdict"] for r in f.repro_results}
    assert verdicts == {"crash-segv": "error", "hang-forever": "timeout", "garbage-out": "error"}
    assert all(r["note"] for r in f.repro_results)


@needs_torch
def test_confirm_with_real_cpu_kernels(cpu_results, monkeypatch):
    """The bundled kernels on this CPU machine: machine-independent packing confirms, the emulated
    rounding mechanism does not."""
    f_pack = _finding("deepgemm-nonpow2-assert", ["ue8m0-pack-nonpow2"])
    f_round = _finding("ue8m0-rounding-silent", ["ue8m0-scale-rounding"], ["triton-fp32-block-scales"])
    R.confirm_findings([f_pack, f_round], device="cpu", timeout=180)
    assert f_pack.status == Status.CONFIRMED
    assert f_round.status == Status.LIKELY
    assert "emulation" in f_round.repro_results[0]["note"]
    assert f_round.repro_results[1]["purpose"] == "remedy"
    assert "emulation" in f_round.repro_results[1]["note"]


def test_render_text_mentions_verdicts_and_rerun():
    results = [{"id": "x-y", "verdict": "timeout", "reason": "killed", "mode": "cuda", "device": "NVIDIA H200",
                "capability": "9.0", "wall_s": 3.0, "gpu_s": None, "command": "python x_y.py --device cuda --json",
                "stderr_tail": ["boom"]}]
    out = render_text(results, wall_s=3.2)
    assert "x-y" in out and "timeout" in out and "SM90" in out and "re-run: python x_y.py" in out
    assert "stderr: boom" in out and out.endswith("1 repro: 1 timeout in 3.2 s\n")


def test_confirm_checks_each_remedy_repro_once_and_only_for_remedies_that_fit(tmp_path, monkeypatch):
    """issue 16, item 11: three remedies naming one check give one result that names them; a remedy
    the facts rule out is not checked; the text shows one line per repro (no "None" for a missing mode)."""
    from fp8triage.render.text import _Style, render_finding

    monkeypatch.setattr(R, "torch_available", lambda python=None: True)
    _plant_results(tmp_path, {"mech": {"verdict": "reproduced", "real_path": True},
                              "fix-ok": {"verdict": "reproduced", "real_path": True, "kind": "remedy-check"},
                              "fix-other": {"verdict": "reproduced", "real_path": True, "kind": "remedy-check"}})
    rems = [Remedy(id=f"r{i}", title=f"remedy {i}", action={"kind": "env", "name": "X", "value": str(i)},
                   snippet=f"export X={i}", applies=a, repro=rp)
            for i, (a, rp) in enumerate([(Truth.HOLDS, ("fix-ok",)), (Truth.UNKNOWN, ("fix-ok",)),
                                         (Truth.HOLDS, ("fix-ok",)), (Truth.FAILS, ("fix-other",))], 1)]
    f = Finding(id="a", title="a", severity=Severity.CRITICAL, status=Status.LIKELY, summary="", cause="",
                evidence=[], conditions=[], facts=[], remedies=rems, references=[], repro=["mech"])
    R.confirm_findings([f], device="cuda", timeout=30, directory=tmp_path)
    assert [(r["id"], r["purpose"]) for r in f.repro_results] == [("mech", "confirm"), ("fix-ok", "remedy")]
    assert f.repro_results[1]["remedies"] == ["r1", "r2", "r3"]
    assert _runs(tmp_path, "fix-other") == 0  # its remedy does not fit: not run
    text = "\n".join(render_finding(f, _Style(False), verbose=False, top=True))
    block = text.split("Reproductions on this machine")[1]
    assert block.count("fix-ok") == 1 and "fix-ok (checks remedy 1, remedy 2, remedy 3, cuda): reproduced" in block
    assert "mech (confirms the cause, cuda): reproduced" in block

    monkeypatch.setattr(R, "torch_available", lambda python=None: False)
    f.repro_results = []
    R.confirm_findings([f], device="auto", timeout=30, directory=tmp_path)
    text = "\n".join(render_finding(f, _Style(False), verbose=False, top=True))
    assert "None" not in text and "mech (confirms the cause): skipped" in text
