"""Fingerprints are stable under masked changes and differ between different failures."""
from __future__ import annotations

from fp8triage.drivers.batch import scan_text


def _fp(text: str) -> str:
    r = scan_text(text)
    groups = [g for f in r.findings for g in f.fingerprints] + [u.fingerprint for u in r.unknown]
    assert len(groups) == 1, groups
    return groups[0]


BASE = (
    "(VllmWorker rank={rank} pid={pid}) ERROR {day} 09:15:05 [multiproc_executor.py:727] Traceback (most recent call last):\n"
    '(VllmWorker rank={rank} pid={pid}) ERROR {day} 09:15:05 [multiproc_executor.py:727]   File "{prefix}/vllm/utils/deep_gemm.py", line {ln}, in transform_sf_into_required_layout\n'
    "(VllmWorker rank={rank} pid={pid}) ERROR {day} 09:15:05 [multiproc_executor.py:727]     return impl(sf)\n"
    "(VllmWorker rank={rank} pid={pid}) ERROR {day} 09:15:05 [multiproc_executor.py:727] RuntimeError: Assertion error ({path}/csrc/apis/layout.hpp:{dg}): Unknown SF transformation\n"
)


def test_same_failure_other_host_day_worker_version_same_fingerprint():
    a = _fp(BASE.format(rank=0, pid=11, day="08-11", prefix="/usr/local/lib/python3.12/dist-packages", ln=494,
                        path="/workspace/.deps/deepgemm-src", dg=59))
    b = _fp(BASE.format(rank=3, pid=99871, day="09-30", prefix="/opt/venv/lib/python3.11/site-packages", ln=512,
                        path="/tmp/build/deepgemm-src", dg=60))
    assert a == b


def test_different_failures_differ():
    a = _fp("RuntimeError: Assertion error (csrc/apis/layout.hpp:60): Unknown SF transformation\n")
    b = _fp("RuntimeError: Assertion error (csrc/apis/hyperconnection.hpp:56): Unsupported architecture\n")
    c = _fp("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.12 GiB.\n")
    assert len({a, b, c}) == 3


def test_unknown_error_masking_groups_repeats():
    text = "".join(
        f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {i}.12 GiB. GPU {i} has a total capacity of 79.33 GiB\n"
        for i in range(5)
    )
    r = scan_text(text)
    assert len(r.unknown) == 1 and r.unknown[0].count == 5
    # the mask is for the fingerprint only: the group shows its first occurrence as it was written
    assert r.unknown[0].headline == ("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 0.12 GiB. "
                                     "GPU 0 has a total capacity of 79.33 GiB")


def test_an_unknown_group_shows_the_real_text_of_its_first_occurrence_redacted():
    """issue 24, item 12: the headline was shown masked ("GPU<N> has a total capacity of <N> GiB")."""
    from click.testing import CliRunner

    from fp8triage.cli import cli

    text = "".join(
        f"ValueError: weight shard {i} of layer 7 has shape [128, {i}] (url https://h/x?token=abcdef123456{i})\n"
        for i in range(3)
    )
    r = scan_text(text)
    assert len(r.unknown) == 1 and r.unknown[0].count == 3
    head = r.unknown[0].headline
    assert head.startswith("ValueError: weight shard 0 of layer 7 has shape [128, 0]") and "<N>" not in head
    assert "abcdef123456" not in head and "<redacted>" in head
    out = CliRunner().invoke(cli, ["scan", "-", "--no-history"], input=text).output
    assert "weight shard 0 of layer 7 has shape [128, 0]" in out and "<N>" not in out and "abcdef123456" not in out


def test_a_collapsed_score_row_is_not_grouped_with_the_healthy_row_before_it():
    from fp8triage.drivers.batch import scan_text

    head = "|Tasks|Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|\n"
    healthy = "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.8597|±  |0.0096|\n"
    collapsed = "|gsm8k|      3|flexible-extract|     5|exact_match|↑  |0.0000|±  |0.0000|\n"
    text = ("H100 x2:\n" + head + healthy + "\nB200 x2 (VLLM_USE_DEEP_GEMM=1):\n" + head + collapsed
            + "\nWith VLLM_USE_DEEP_GEMM=0 on the B200 it goes back to 0.86.\n")
    res = scan_text(text, source="p.log")
    assert [f.id for f in res.findings][:1] == ["ue8m0-silent-corruption"]
    assert any(e.text.strip() == collapsed.strip() for e in res.findings[0].evidence)


def test_the_same_eval_command_twice_is_not_one_group_when_only_the_second_collapsed():
    """Two runs of one benchmark command, told apart by the score printed under it: the collapsed run is
    the evidence, not grouped under the healthy one."""
    run = "  python3 benchmark/gsm8k/bench_sglang.py --num-questions 500 --port 30000\n  Accuracy: {acc}\n  Invalid: {inv}\n"
    text = ("Qwen3-235B-A22B-FP8 on 8x B200, only run B adds --moe-runner-backend deep_gemm\n\nrun A:\n"
            + run.format(acc="0.952", inv="0.000") + "\nrun B:\n" + run.format(acc="0.000", inv="0.994"))
    res = scan_text(text, source="ab.log")
    assert [f.id for f in res.findings][:1] == ["ue8m0-silent-corruption"]
    assert res.findings[0].evidence[0].lineno > 8  # run B's block, not run A's


# -- the memo of headline shapes (every digit read alike): the same ids as masking every headline -------------

def _event(kind, exc, message, frames=(("/x/vllm/worker/gpu_worker.py", "execute_model"),)):
    from fp8triage.model import Event, Line

    return Event(kind, [Line("log", 1, message)], exc_type=exc, message=message, frames=list(frames))


def _fresh(monkeypatch):
    from fp8triage.scan import fingerprint as fpmod

    monkeypatch.setattr(fpmod, "_MEMO", {})
    monkeypatch.setattr(fpmod, "_SHAPES", {})
    fpmod.reset_repeats()
    return fpmod


def _masked_every_time(fpmod, ev):
    return fpmod.hashlib.sha1(f"v{fpmod.ALGORITHM_VERSION}\n{fpmod.event_signature_text(ev)}".encode()).hexdigest()[:16]


# headlines whose digits the masks keep (a format's name, an arch, a hex address, a word with a digit in it) next to
# ones whose digits are all masked, each written with other digits of the same shape
SHAPED = [
    ("torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate {a}.00 MiB. GPU {g} has a total capacity of 79.19 GiB"),
    ("RuntimeError", "expected fp{g} weights, got fp{h}"),
    ("RuntimeError", "no kernel for sm_{a} on GPU {g}"),
    ("RuntimeError", "illegal address at {z}x{a} on rank {g}"),
    ("ValueError", "layer{g}.mlp has {a} rows"),
    ("TimeoutError", "RPC call to execute_model timed out after {a} s"),
]


def test_headlines_of_one_digit_shape_get_the_ids_that_masking_each_one_gives(monkeypatch):
    from fp8triage.model import EventKind

    fpmod = _fresh(monkeypatch)
    for exc, tpl in SHAPED:
        for a, g, h, z in [(1829, 1, 4, 0), (9875, 7, 8, 0), (4402, 4, 4, 1), (1000, 0, 9, 9), (2222, 2, 2, 0)]:
            ev = _event(EventKind.TRACEBACK, exc, tpl.format(a=a, g=g, h=h, z=z))
            assert fpmod.fingerprint(ev) == _masked_every_time(fpmod, ev), ev.headline


def test_an_oom_storm_is_masked_once_per_shape(monkeypatch):
    """OOM errors on every rank with other sizes and GPUs: one masked text per digit shape, not per error."""
    from fp8triage.model import EventKind

    fpmod = _fresh(monkeypatch)
    made = []
    real = fpmod._signature_parts
    monkeypatch.setattr(fpmod, "_signature_parts", lambda ev, raw: made.append(raw) or real(ev, raw))
    ids = {fpmod.fingerprint(_event(EventKind.TRACEBACK, "torch.OutOfMemoryError",
                                    f"CUDA out of memory. Tried to allocate {1000 + 7 * i}.00 MiB. GPU {i % 8} has "
                                    f"{100 + i % 900}.00 MiB free")) for i in range(600)}
    assert len(ids) == 1
    assert len(made) <= 20  # 600 errors, a handful of shapes (numbers of 3 or 4 digits; the exact memo stays off)


def test_a_kept_digit_is_never_taken_from_another_headline_of_its_shape(monkeypatch):
    from fp8triage.model import EventKind

    fpmod = _fresh(monkeypatch)
    fp8 = fpmod.fingerprint(_event(EventKind.TRACEBACK, "RuntimeError", "expected fp8 weights"))
    fp4 = fpmod.fingerprint(_event(EventKind.TRACEBACK, "RuntimeError", "expected fp4 weights"))
    hex_ = fpmod.fingerprint(_event(EventKind.ERROR, None, "bad pointer 0x1f"))
    other = fpmod.fingerprint(_event(EventKind.ERROR, None, "bad pointer 1x1f"))
    assert fp8 != fp4 and hex_ != other
