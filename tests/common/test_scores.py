"""One eval's scores on two GPUs: which GPU each score is on, and when one is really below the other."""
from __future__ import annotations

from fp8triage.common.scores import dropped, scores_on_gpus


def test_each_score_is_read_with_its_gpu():
    got = scores_on_gpus("MMLU-Pro 0.73 on H200 vs 0.59 on B300, no errors on either.")
    assert sorted((g, x) for g, x, _ in got) == [("B300", 0.59), ("H200", 0.73)]
    assert scores_on_gpus("H200 gets GPQA-diamond 0.69")[0][:2] == ("H200", 0.69)


def test_a_drop_is_a_real_margin_not_noise():
    assert dropped(0.59, 0.73)  # 14 points
    assert dropped(0.8573, 0.9401)  # 8 points, 91 % of the other
    assert not dropped(0.93, 0.94)  # a point: run-to-run noise
    assert not dropped(0.10, 0.12)  # no real score to fall from
    assert dropped(59, 73) and not dropped(0.59, 73)  # percent and fractions are not compared
