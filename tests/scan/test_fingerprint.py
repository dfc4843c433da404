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
