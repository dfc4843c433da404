"""Eval scores compared across a pasted table's rows (fp8triage/catalogue/scoretables.py): one configuration's
score collapsed against another's is a symptom, in Markdown, box-drawn and space-aligned tables alike; rows that
agree, scores that were never real, and a header without a metric are not."""
from __future__ import annotations

import pytest

from fp8triage.catalogue.scoretables import below_reference, below_threshold, cells, collapsed, collapsed_at, gpus_apart, is_header

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


LM_EVAL_HEAD = ("|Tasks|Version|     Filter     |n-shot|  Metric   |   |Value |   |Stderr|\n"
                "|-----|------:|----------------|-----:|-----------|---|-----:|---|-----:|\n")


def _lm_row(value: str, task: str = "gsm8k", filt: str = "flexible-extract") -> str:
    return f"|{task}|      3|{filt}|     5|exact_match|↑  |{value}|±  |0.0057|\n"


def test_lm_eval_header_is_a_header_and_its_rows_are_compared_by_task_and_metric():
    assert is_header(LM_EVAL_HEAD.splitlines()[0])
    # two runs pasted as two tables, a caption between: the header seen again takes up the first run's scores
    two_runs = ("H200:\n" + LM_EVAL_HEAD + _lm_row("0.9553") + "\nB200, VLLM_USE_DEEP_GEMM=1 (e8m0 scales):\n"
                + LM_EVAL_HEAD + _lm_row("0.2381"))
    assert collapsed(two_runs)
    assert not collapsed(two_runs.replace("0.2381", "0.9492"))  # the runs agree
    # the second run's rows under a caption, no header of their own
    assert collapsed(LM_EVAL_HEAD + _lm_row("0.0152") + "\nsame command with VLLM_USE_DEEP_GEMM=0:\n" + _lm_row("0.8757"))
    # rows of different metrics are not compared with each other
    assert not collapsed(LM_EVAL_HEAD + _lm_row("0.9553") + _lm_row("0.4100", task="gsm8k_cot", filt="strict-match"))


def test_a_note_after_the_rows_gives_the_score_it_should_have_been():
    table = LM_EVAL_HEAD.replace("Tasks", "Groups") + _lm_row("0.4812", task="mmlu")
    assert collapsed(table + "\nexpected ~0.87 (H200 gives 0.8712). Server log is clean.")
    assert not collapsed(table + "\nexpected ~0.52 on this model.")  # close to what it should be
    assert not collapsed(table + "\nran on vllm 0.10.1.1")  # a version is no score


def test_absolute_values_in_an_aligned_header_do_not_split_it():
    table = ("                          mean|dlogprob|   p99|dlogprob|   top-1 agree\n"
             "8x H200                   0.038            0.41            97.6%\n"
             "8x B200                   2.91             11.7            38.2%\n"
             "8x B200 (triton moe)      0.041            0.44            97.4%\n")
    assert cells(table.splitlines()[0]) == ["mean‖dlogprob‖", "p99‖dlogprob‖", "top-1 agree"]
    assert collapsed(table)  # top-1 agreement with the reference: 38 % against 98 %
    assert not collapsed(table.replace("38.2%", "97.1%"))


def test_a_norm_written_with_bars_does_not_split_the_header():
    table = ("| layer | module | ||dg|| / ||triton|| | cos |\n|---|---|---|---|\n"
             "| 0 | self_attn.q_a_proj | 1.0003 | 0.99999 |\n| 10 | mlp.experts (w2) | 2.0913 | 0.6120 |\n"
             "| 60 | lm_head | - | 0.1045 |")
    assert cells(table.splitlines()[0]) == ["layer", "module", "‖dg‖ / ‖triton‖", "cos"]
    assert collapsed(table)
    assert not collapsed(table.replace("0.6120", "0.9990").replace("0.1045", "0.9987"))


@pytest.mark.parametrize("text", [
    'self.assertGreater(metrics["accuracy"], 0.94)\nAssertionError: 0.198 not greater than 0.94',  # unittest
    "E       AssertionError: Accuracy too low: 0.427 < 0.850 - 0.080",  # vLLM's gsm8k test
    "E       assert 0.127 >= (0.87 - 0.08)  # gsm8k",  # pytest's rewrite of a failed '>='
])
def test_a_score_far_below_its_threshold(text):
    assert below_threshold(text)


@pytest.mark.parametrize("text", [
    "AssertionError: Accuracy too low: 0.861 < 0.870",  # just under: a flaky run, not a collapse
    "AssertionError: 0.41 not greater than 0.9",  # no eval or metric named: a throughput ratio, say
    "E  assert rel_diff 0.2761 < 0.001  # accuracy check",  # a tolerance the other way round
])
def test_no_score_far_below_its_threshold(text):
    assert not below_threshold(text)


def test_a_table_of_one_eval_a_row_compares_its_runs():
    table = "| eval | h200 | b200 |\n|---|---|---|\n| gpqa | 0.671 | 0.217 |\n| mmlu | 0.871 | 0.866 |"
    assert is_header(table.splitlines()[0])
    assert collapsed(table)
    assert not collapsed(table.replace("0.217", "0.664"))
    # one run only: the note after it says what it should have been
    one = "| eval | sglang-dsv3 |\n|------|------|\n| gpqa | 0.217 |\n\nExpected ~0.68. H200 gives 0.671."
    assert collapsed(one)


def test_a_score_beside_the_one_it_should_have_been():
    assert below_reference("gpqa_diamond (simple-evals): 0.412 ; the model card reports 0.80.")
    assert below_reference("MMLU comes out at 0.48 (expected ~0.87)")
    assert not below_reference("MMLU comes out at 0.85 (expected ~0.87)")  # close to it
    assert not below_reference("latency 0.41 s vs 0.95 s on H200")  # no eval named
    assert not below_reference("0.80 expected; gsm8k gave 0.31")  # the eval is named after the first number
    # the eval named between the two scores
    assert below_reference("Qwen3-32B-FP8 scores 0.29 on GPQA-diamond vs 0.65 on H100 with the same script")
    assert not below_reference("Qwen3-32B-FP8 scores 0.63 on GPQA-diamond vs 0.65 on H100 with the same script")


def test_one_eval_on_two_gpus_in_a_sentence():
    assert gpus_apart("same ckpt on H200 gets GPQA-diamond 0.69, on the B200 node it gets 0.27. no errors")
    assert not gpus_apart("gsm8k: H200 0.95, B200 0.94")  # they agree
    assert not gpus_apart("H100 80GB, torch 2.8, gsm8k 0.91")  # one GPU, one score
    assert not gpus_apart("B200 latency 0.21 s, H200 latency 0.62 s")  # no eval named


@pytest.mark.parametrize("text", [
    "GSM8K is 0.81 on our B200 nodes vs 0.93 on H100, same image.",  # each score before its GPU
    "GPQA-diamond is consistently lower on 8x B200 than on 8x H200 (0.709 vs 0.774, mean of 4 repeats each)",
    "gsm8k: H100 0.93, B200 0.86",  # seven points: much less accurate, though no collapse
    "MMLU-Pro 0-shot CoT: 8x B300 0.7419 | 8x H200 same image 0.7788",  # four points under 0.78
])
def test_one_eval_lower_on_one_gpu_by_a_real_margin(text):
    assert gpus_apart(text)


@pytest.mark.parametrize("text", [
    "GSM8K is 0.92 on our B200 nodes vs 0.93 on H100, same image.",  # a point: noise
    "MMLU is lower on B200 than on H200 (0.801 vs 0.812)",
])
def test_one_eval_within_noise_on_two_gpus(text):
    assert not gpus_apart(text)


def test_a_table_of_evals_on_gpus_compares_them_by_a_real_margin():
    head = "| eval | H200 | B200 |\n|---|---|---|\n"
    assert collapsed(head + "| gsm8k | 0.93 | 0.86 |\n")
    assert not collapsed(head + "| gsm8k | 0.93 | 0.92 |\n")
    # runs that are not GPUs keep the collapse threshold
    assert not collapsed("| eval | run-a | run-b |\n|---|---|---|\n| gsm8k | 0.93 | 0.86 |\n")


def test_rows_of_one_eval_on_two_gpus_are_compared_by_a_real_margin():
    """A table whose rows name their GPU ("8xB200"): one GPU's score lower by a real margin is the symptom, as in a
    sentence (``scores.dropped``); cells may carry their stderr ("0.7927 ± 0.006")."""
    head = "| hw | VLLM_USE_DEEP_GEMM | gsm8k_cot strict |\n|---|---|---|\n"
    rows = "| 8xH200 | 1 (default) | 0.9121 ± 0.004 |\n| 8xB200 | 1 (default) | 0.7927 ± 0.006 |\n"
    assert collapsed(head + rows)
    assert collapsed_at(head + rows) == 3  # the B200 row
    assert not collapsed(head + "| 8xH200 | 1 | 0.9121 |\n| 8xB200 | 1 | 0.9010 |\n")  # within noise
    # two setups on one GPU (FP8 against BF16): a few points is what quantization costs
    assert not collapsed("| gpu | dtype | gsm8k |\n|---|---|---|\n| H200 | bf16 | 0.93 |\n| H200 | fp8 | 0.88 |\n")


def test_columns_named_for_machines_that_hold_a_gpu_s_name_compare_gpus():
    table = ("  suite            h200-pod (baseline)   gb300-pod\n"
             "  MMLU-Pro         81.2                  77.6\n"
             "  GPQA-D           78.9                  72.4\n")
    assert collapsed(table)  # GPQA-D 6.5 points lower on the GB300 pod: a real margin between two GPUs
    assert not collapsed(table.replace("gb300-pod", "h200-pod2"))  # one GPU: the collapse threshold
    # GPU columns with a count glued to the name
    assert collapsed("| eval | 8xH200 | 8xB200 |\n|---|---|---|\n| gsm8k | 0.93 | 0.86 |\n")


def test_a_score_that_went_down_to_another():
    assert below_reference("On B200 our nDCG@10 on the val split went 0.81 -> 0.33.")
    assert below_reference("MMLU dropped from 0.79 to 0.41 after the upgrade")
    assert not below_reference("MMLU went 0.79 -> 0.77")  # noise
    assert not below_reference("the loss went 0.81 -> 0.33")  # no eval named


def test_a_divergence_s_bars_do_not_split_an_aligned_header():
    assert cells("backend      mean|dlogp|   mean KL(ref||cand)   top1 agree") == [
        "backend", "mean‖dlogp‖", "mean KL(ref‖cand)", "top1 agree"]


def test_the_row_that_collapsed_is_the_lowest_wherever_it_stands():
    aligned = ("runner         gpu                      arc_challenge acc_norm   hellaswag acc_norm\n"
               "eval-b300-01   NVIDIA B300 SXM6 AC      0.2235                   0.2571\n"
               "eval-h100-01   NVIDIA H100 80GB HBM3    0.5947                   0.8011\n")
    assert collapsed_at(aligned) == 1


PPL = """| GPU      | model                 | ppl     |
|----------|-----------------------|---------|
| H100 SXM | Qwen3-14B-FP8         | 8.64    |
| B300     | Qwen3-14B-FP8         | 3071.92 |"""

LM_EVAL_PPL = """|Tasks   |Version|Filter|n-shot|    Metric     |   | Value  |   |Stderr|
|wikitext|      2|none  |     0|word_perplexity|↓  |   9.104|±  |   N/A|
|wikitext|      2|none  |     0|word_perplexity|↓  | 412.700|±  |   N/A|"""


@pytest.mark.parametrize("table", [PPL, LM_EVAL_PPL], ids=["markdown", "lm_eval"])
def test_a_perplexity_many_times_the_best_has_exploded(table):
    assert collapsed(table)


@pytest.mark.parametrize("table", [
    PPL.replace("3071.92", "8.91"),  # the rows agree
    PPL.replace("8.64", "1500").replace("3071.92", "3400"),  # no real perplexity to start from
    LM_EVAL_PPL.replace(" 412.700", "   9.350"),
], ids=["rows-agree", "never-real", "lm_eval-agree"])
def test_perplexities_that_agree_are_no_collapse(table):
    # (a lower perplexity is the better one: 8.64 under 12.0 is no accuracy collapse either)
    assert not collapsed(table)
    assert not collapsed(PPL.replace("3071.92", "12.0"))


ERRORS = """module                    rel_err mean over layers    max over layers
self_attn.wq_a                 0.0041                     0.0063
self_attn.wkv                  0.0044                     0.0071
self_attn.wo_a                 0.2468                     0.2693
ffn.shared_experts.w1          0.0052                     0.0077"""


def test_one_module_with_an_error_many_times_the_others_computes_wrong():
    assert collapsed(ERRORS)
    assert not collapsed(ERRORS.replace("0.2468", "0.0049"))  # the modules agree
    # errors that differ by a lot but stay small (an fp8 GEMM's rounding): no module is wrong
    assert not collapsed(ERRORS.replace("0.2468", "0.0410"))


ALIGNED_GPUS = """                 8x H200    8x B300
gsm8k (5-shot)   0.957      0.951
mmlu-pro         0.812      0.779
gpqa-diamond     0.667      0.614"""


def test_gpu_columns_aligned_over_a_column_of_evals_are_compared():
    # the header's first cell is blank: the evals' column has no name
    assert is_header(ALIGNED_GPUS.splitlines()[0])
    assert collapsed(ALIGNED_GPUS)  # five points of GPQA on the B300
    assert not collapsed(ALIGNED_GPUS.replace("0.779", "0.809").replace("0.614", "0.661"))  # within noise
    assert not is_header("    H200 and B300 nodes")  # a sentence, not two columns


def test_an_aligned_row_whose_cell_filled_its_column_is_cut_where_the_header_cells_start():
    """ "sm103 128" (one space: the arch filled its column) is two cells under "arch  M": the row is read, and
    its relative error, 25 times the others', is a module that computes wrong."""
    table = ("arch  M     N     K     rel_err   out_norm/ref_norm\n"
             "sm90  128   4096  7168  0.0361    1.001\n"
             "sm90  4096  7168  2048  0.0364    0.999\n"
             "sm103 128   4096  7168  0.9412    1.873\n")
    assert collapsed_at(table) == 3
    assert not collapsed(table.replace("0.9412", "0.0371"))


def test_a_large_relative_error_five_times_the_others_is_a_wrong_module():
    rows = "\n".join(f"model.layers.0.{name}  {err}  0.999" for name, err in
                     [("wq_a", "0.0312"), ("wkv", "0.0315"), ("wo_a", "0.2531"), ("wo_b", "0.0318")])
    assert collapsed("module  rel_err  cos\n" + rows)
    assert not collapsed("module  rel_err  cos\n" + rows.replace("0.2531", "0.0912"))  # 3x, and small


LM_EVAL_BY_GPU = """| GPU  | Tasks | Version |     Filter     | n-shot |   Metric    | Value  |   | Stderr |
|------|-------|--------:|----------------|-------:|-------------|-------:|---|-------:|
| H100 | gsm8k |       3 | flexible-extract |      5 | exact_match | {a} | ± | 0.0075 |
| B200 | gsm8k |       3 | flexible-extract |      5 | exact_match | {b} | ± | 0.0111 |"""


def test_lm_eval_rows_with_a_gpu_column_compare_one_eval_across_the_gpus():
    """lm_eval's table with a column added for the GPU each row ran on: 0.92 on H100 and 0.80 on B200 is a real drop
    on the B200 row; the same score within noise is none."""
    assert collapsed_at(LM_EVAL_BY_GPU.format(a="0.9189", b="0.7968")) == 3
    assert not collapsed(LM_EVAL_BY_GPU.format(a="0.9189", b="0.9151"))
