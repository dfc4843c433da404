"""Eval scores compared across a pasted table's rows (fp8triage/catalogue/scoretables.py): one configuration's
score collapsed against another's is a symptom, in Markdown, box-drawn and space-aligned tables alike; rows that
agree, scores that were never real, and a header without a metric are not."""
from __future__ import annotations

import pytest

from fp8triage.catalogue.scoretables import cells, collapsed, is_header

MARKDOWN = """| GPU | backend | gsm8k strict-match |
|------|---------|--------------------|
| H200 | deepgemm | 0.951 |
| B200 | deepgemm | 0.327 |"""

BOXED = """┏━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ moe backend ┃ GPQA-diamond  ┃
┡━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ deep_gemm   │ 28.3          │
│ triton      │ 77.8          │
└─────────────┴───────────────┘"""

DATAFRAME = """      gpu  deep_gemm  gsm8k_5shot
0    H100       True       0.9371
1    B200       True       0.1145"""


@pytest.mark.parametrize("table", [MARKDOWN, BOXED, DATAFRAME], ids=["markdown", "box-drawn", "dataframe"])
def test_a_row_far_below_another_is_a_collapse(table):
    assert collapsed(table)


@pytest.mark.parametrize("table", [
    MARKDOWN.replace("0.327", "0.941"),  # the rows agree
    MARKDOWN.replace("0.951", "0.21").replace("0.327", "0.04"),  # no real score to fall from
    MARKDOWN.replace("gsm8k strict-match", "latency (s)"),  # no eval in the header
    MARKDOWN.splitlines()[0] + "\n" + MARKDOWN.splitlines()[2],  # one row: nothing to compare
], ids=["rows-agree", "never-real", "no-metric", "one-row"])
def test_no_collapse(table):
    assert not collapsed(table)


def test_headers_and_cells():
    assert is_header("| GPU | backend | gsm8k strict-match |")
    assert not is_header("|gsm8k| 3|flexible-extract| 5|exact_match|↑ |0.0341|± |0.0050|")  # lm_eval's row
    assert not is_header("INFO 08-01 09:00:00 [core.py:77] gsm8k done")  # not a table
    assert cells("a-03   8x H200   0.936") == ["a-03", "8x H200", "0.936"]
    assert cells("two words only") is None
