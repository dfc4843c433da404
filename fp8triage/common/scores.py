"""Eval scores in a sentence: the GPU each was measured on, and whether one is really below another.

The catalogue's score tables (``catalogue/scoretables.py``) read a collapse or a drop from them; the log facts
(``facts/gpunames.py``) read which machine of a comparison failed ("MMLU-Pro 0.73 on H200 vs 0.59 on B300": the
B300). One rule for both, so that a drop the judge calls a symptom and the machine the facts call failing agree.
"""
from __future__ import annotations

import regex

from . import rxcache

RATIO = 0.6  # a score at most this share of the best score of its column
# one eval on two GPUs: a smaller loss is the symptom too ("much less accurate" on one generation), at most this share
# of the other GPU's score and at least DROP_POINTS below it (run-to-run noise is a point or two)
DROP_RATIO = 0.96
DROP_POINTS = 3

# a GPU's name, then its score (no number between them): "H200 gets GPQA-diamond 0.69", "B200 node it gets 0.27";
# or a score, then the GPU it was measured on: "0.81 on our B200 nodes vs 0.93 on H100"
SCORED_GPU_NAME = r"(?:G?[BH]\d{3}|H20|A100|L40S?|RTX[ ]?PRO[ ]?6000|RTX[ ]?50[6-9]0)"
_GPU_SCORE = rxcache.compile(r"\b(?P<gpu>" + SCORED_GPU_NAME + r")\b[^\n\d]{0,40}?(?<![\w.])(?P<s>0\.\d{2,4}|[1-9]\d(?:\.\d+)?)"
                             r"(?!\d|\.\d)", regex.I)
_SCORE_GPU = rxcache.compile(r"(?<![\w.])(?P<s>0\.\d{2,4}|[1-9]\d(?:\.\d+)?)(?!\d|\.\d)\s*%?\s+(?:on|with|for)\s+"
                             r"(?:(?:the|our|my|an?)\s+)?(?:\d{1,3}\s*[x×]\s*)?(?P<gpu>" + SCORED_GPU_NAME + r")\b", regex.I)


def scores_on_gpus(line: str) -> list[tuple[str, float, int]]:
    """(GPU name in upper case, score, offset of the name) for each score a sentence puts on a GPU. A score said
    on its GPU ("0.59 on B300") is that GPU's, not the next score of a GPU named before it ("H200 vs 0.59")."""
    after = list(_SCORE_GPU.finditer(line))
    gpus, scores = {m.start("gpu") for m in after}, {m.start("s") for m in after}
    before = [m for m in _GPU_SCORE.finditer(line) if m.start("gpu") not in gpus and m.start("s") not in scores]
    return [(m.group("gpu").upper(), float(m.group("s")), m.start("gpu")) for m in before + after]


def far_below(low: float, high: float, ratio: float = RATIO) -> bool:
    """Is ``low`` at most ``ratio`` of ``high``, a real score (0.3 or more on a 0-1 scale, 30 or more in percent),
    both on one scale?"""
    return (low <= 1) == (high <= 1) and high >= (0.3 if high <= 1 else 30) and low <= ratio * high


def dropped(low: float, high: float) -> bool:
    """Is ``low`` far below ``high`` (``far_below``), or lower by a real margin: one eval on two GPUs."""
    points = DROP_POINTS / 100 if high <= 1 else DROP_POINTS
    return far_below(low, high) or far_below(low, high, DROP_RATIO) and high - low >= points
