"""Eval scores compared across the rows of a pasted table: one configuration's score collapsed against another's.

A report of silent corruption often shows it as a table and nothing else: one row per GPU or backend, one column
per eval, and one row far below the others (``| B200 | deepgemm | 0.327 |`` under ``| H200 | deepgemm | 0.951 |``).
No phrase says "dropped" and no cell is near zero, so the symptom is in the comparison. ``collapsed(text)`` reads
Markdown tables, box-drawn ones (``│``, ``┃``), and columns aligned with spaces (a DataFrame, with its index
column): under a header cell that names an eval or an accuracy metric, a score at most ``scores.RATIO`` of the best score
of its column, where the best is a real score (0.3 or more on a 0-1 scale, 30 or more in percent), is a collapse;
so is a four-choice eval's score (MMLU, GPQA) at 0.2 or less, below chance, in a table of one row. A perplexity
column reads the other way: a value ``PPL_RATIO`` times the best of its column (a real perplexity) has exploded;
so does a relative-error column (per module or per shape, against a reference): a value ``ERROR_RATIO`` times the
smallest of its column, and at least ``ERROR_REAL`` (or ``ERROR_LARGE_RATIO`` times, and at least ``ERROR_LARGE``), is a
module that computes wrong.

lm_eval prints one row per task, filter and metric, the score in its "Value" column: those rows are compared by
task, filter and metric. Two runs are often pasted as two tables under one header each, with a caption between
("B200, VLLM_USE_DEEP_GEMM=1:"): a header seen again takes up the scores read under it before. A short note
after a table's rows may state the score it should have been ("expected ~0.87 (H200 gives 0.8712)"): its scores
are read as one more row of every column. A table may also put one eval in each row, its runs in the columns
("| eval | h200 | b200 |"): a row's scores are compared with each other.

``below_threshold(text)`` reads a test that checked a score against its threshold: "0.198 not greater than 0.94"
(unittest), "Accuracy too low: 0.427 < 0.850" (a threshold is a floor below the real score, so a score at most
``BELOW_RATIO`` of it is far below), where an eval or a metric is named. ``below_reference`` and ``gpus_apart``
read a sentence: a score beside the one it should have been, one eval's scores on two GPUs.
"""
from __future__ import annotations

import regex

from ..common import rxcache
from ..common.scores import SCORED_GPU_NAME as _GPU_NAME, dropped as _dropped, far_below as _far_below, scores_on_gpus

# a column of eval scores: its header names an eval or an accuracy metric
METRIC = rxcache.compile(r"(?i)gsm8k|gpqa|mmlu|aime|math[_-]?500|humaneval|mbpp|livecodebench|c-?eval|cmmlu|ifeval"
                         r"|accuracy|\bacc(?:_norm)?\b|exact[_ ]match|\bstrict|\bflexible|pass@\d|\bscore\b"
                         r"|\bcos(?:ine)?(?:_?sim\w*)?\b"  # (a per-layer cosine against a reference: 1.0 is right)
                         r"|\bagree(?:ment)?\b"  # (top-1 agreement with a reference run: 100 % is right)
                         r"|\bppl\b|perplexity"
                         r"|ndcg|\bmrr\b|recall@\d|\bbleu\b|\brouge")  # (retrieval and generation metrics)
# a column where lower is better: a perplexity many times the best one of its column has exploded
PERPLEXITY = rxcache.compile(r"(?i)\bppl\b|perplexity")
# ... and a relative error against a reference, per module or per shape: one row many times the others, and large
ERROR = rxcache.compile(r"(?i)\brel(?:ative)?[_ ]?(?:err(?:or)?|diff)\b|\bcalc_diff\b")
ERROR_RATIO = 10.0  # a relative error at least this many times the smallest of its column
ERROR_REAL = 0.05  # ... and at least this large (5 %)
# ... or a large one (20 % or more: no FP8 GEMM is that far off a reference) at least this many times the smallest
ERROR_LARGE, ERROR_LARGE_RATIO = 0.2, 5.0
_PPL_NUMBER = rxcache.compile(r"(?i)^(\d+(?:\.\d+)?|inf|nan)$")
PPL_RATIO = 2.0  # a perplexity at least this many times the best one of its column
PPL_REAL = 1000.0  # ... where the best one is a real perplexity
_SEPARATOR = rxcache.compile(r"[|│┃]")
# a table's rule line, or the mark of rows left out ("...", "⋮"): no cells
RULE = rxcache.compile(r"^[\s|│┃┏┓┗┛┣┫┡┩╇┳┻╋╂┠┨━─═┼+:\-]*$|^\s*(?:\.{3}|…|⋮)\s*$")
_NUMBER = rxcache.compile(r"^[-+]?(\d{1,3}(?:\.\d+)?)\s*%?(?:\s*±\s*\d+(?:\.\d+)?\s*%?)?$")  # (with its stderr: "0.91 ± 0.004")
_ALIGNED = rxcache.compile(r"\s{2,}|\t")
# a norm written with bars in a header ("||dg|| / ||ref||"): its bars are not cell borders
_NORM = rxcache.compile(r"\|\|(?=\S)([^|\n]{1,30}?)(?<=\S)\|\|")
# ... nor are an absolute value's in an aligned header ("mean|dlogprob|   p99|dlogprob|   top-1 agree")
_ABS = rxcache.compile(r"(?<=\w)\|(\w+)\|(?=[ \t]{2,})")
# ... nor is a divergence's ("KL(ref||cand)")
_KL = rxcache.compile(r"(?<=\w)\|\|(?=\w)")
# lm_eval's columns: the metric a row reports, and its score
_LM_METRIC = rxcache.compile(r"(?i)^metric$")
_LM_VALUE = rxcache.compile(r"(?i)^value$")
# a score in a note after a table: 0.xx, or a percentage (not a version: "0.10.1")
_REFERENCE = rxcache.compile(r"(?<![\w.])(?:0\.\d{2,4}|[1-9]\d(?:\.\d+)?\s*%)(?!\d|\.\d)")
NOTE_MAX = 200  # a note after a table's rows: at most this long
_SCORE = r"(?:0?\.\d+|[1-9]\d?(?:\.\d+)?)"  # a score in a sentence: 0-1 or percent
# one GPU said to score lower than another, with the two scores in that order: "is consistently lower on 8x B200
# than on 8x H200 (0.709 vs 0.774)"
_LOWER_THAN = rxcache.compile(r"\b(?:lower|worse)\b[^\n]{0,20}?\bon\s+(?:the\s+)?(?:\d{1,3}\s*[x×]\s*)?(?P<a>" + _GPU_NAME
                              + r")\b[^\n]{0,30}?\bthan\b[^\n]{0,30}?\b(?P<b>" + _GPU_NAME + r")\b[^\n\d]{0,20}"
                              r"(?<![\w.])(?P<x>" + _SCORE + r")(?!\d|\.\d)\s*(?:vs\.?|versus|/|,|and)\s*(?P<y>" + _SCORE
                              + r")(?!\d|\.\d)", regex.I)
# a header of GPU columns aligned over a column of evals, its first cell blank ("        8x H200    8x B300"): a cue for
# the scan's prefilter (no eval word on it), lookaround-free for Hyperscan
GPU_HEADER = (r"^[ \t]{4,}(?:[0-9]{1,3}[ \t]*[x×][ \t]*)?(?:NVIDIA[ \t]+)?" + _GPU_NAME + r"[^\n]{0,12}?[ \t]{2,}"
              r"(?:[0-9]{1,3}[ \t]*[x×][ \t]*)?(?:NVIDIA[ \t]+)?" + _GPU_NAME)
_GPU_CELL = rxcache.compile(r"(?i)^(?:\d{1,3}\s*[x×]\s*)?(?:NVIDIA\s+)?(?P<gpu>" + _GPU_NAME + r")(?:\s+\w+)?$")
# a score, then the one it should have been: "0.412 ; the model card reports 0.80", "0.48 (expected ~0.87)"
_VERSUS = rxcache.compile(rf"(?<![\w.])(?P<x>{_SCORE})(?!\d|\.\d)[^\n\d]{{0,60}}?\b(?:expected|model card|card|reports?"
                          rf"|reported|baseline|reference|should be|vs\.?|versus|compared to|gets?|gives?|scores?)\b[^\n\d]{{0,30}}?"
                          rf"(?P<y>{_SCORE})(?!\d|\.\d)", regex.I)
# a score that went down to another: "went 0.81 -> 0.33", "dropped from 0.79 to 0.41"
_WENT = rxcache.compile(rf"\b(?:went|dropped|fell|drops?|falls?|goes)\s+(?:down\s+)?(?:from\s+)?(?<![\w.])(?P<x>{_SCORE})(?!\d|\.\d)"
                        rf"\s*%?\s*(?:->|→|to)\s*(?P<y>{_SCORE})(?!\d|\.\d)", regex.I)
# a header whose first cell heads a column of evals: each row is one eval, its cells the runs compared
_EVAL_COLUMN = rxcache.compile(r"(?i)^(?:evals?|tasks?|benchmarks?|datasets?|suites?)$")
# a column named for a machine that holds a GPU's name ("h200-pod (baseline)", "gb300-pod")
_GPU_IN_CELL = rxcache.compile(r"(?i)(?<![a-z0-9])(?P<gpu>" + _GPU_NAME + r")(?![0-9])")
# a score checked against its threshold: "0.198 not greater than 0.94" (unittest), "Accuracy too low: 0.127 < 0.870
# - 0.080", "assert 0.127 >= 0.79" (pytest's rewrite of a failed ">=")
_BELOW = rxcache.compile(rf"(?<![\w.])(?P<x>{_SCORE})\s*%?\s*(?:not greater than(?: or equal to)?|<=?)\s*\(?(?P<y>{_SCORE})(?![\d.])"
                         rf"|\bassert\s+(?P<x2>{_SCORE})\s*>=?\s*\(?(?P<y2>{_SCORE})(?![\d.])", regex.I)
BELOW_RATIO = 0.8  # a score checked against its threshold (a floor below the real score): at most this share of it
# a four-choice eval (chance is 0.25): a score at most CHANCE is a collapse on its own
FOUR_CHOICE = rxcache.compile(r"(?i)mmlu|gpqa")
CHANCE = 0.2
MAX_LINES = 40  # a table read for scores: its first lines


def cells(line: str) -> list[str] | None:
    """The cells of a table line (None: not a table line): split at "|", "│" or "┃" (two cells or more), else at
    runs of two spaces or a tab (three cells or more; two GPUs indented over a column of evals, with the blank
    first cell put back)."""
    if "|" in line and not line.lstrip().startswith("|"):  # (a Markdown table's line starts with its border)
        line = _KL.sub("‖", _ABS.sub(r"‖\1‖", line))
    if _SEPARATOR.search(line):
        got = [c.strip() for c in _SEPARATOR.split(_NORM.sub(r"‖\1‖", line.strip()))]
        if got and not got[0]:
            got = got[1:]
        if got and not got[-1]:
            got = got[:-1]
        return got if len(got) >= 2 else None
    got = [c for c in _ALIGNED.split(line.strip()) if c]
    if len(got) >= 2 and line[:4].isspace() and all(_GPU_CELL.match(c) for c in got):
        return ["", *got]  # GPU columns over a column of evals, aligned: its first header cell left blank
    return got if len(got) >= 3 else None


def _names_scores(got: list[str]) -> bool:
    """Does a header's cell name an eval or a metric, or is it lm_eval's ("Metric", "Value")?"""
    return any(METRIC.search(c) or ERROR.search(c) for c in got) or _lm_eval(got) is not None or _transposed(got)


def _transposed(header: list[str]) -> bool:
    """A header whose first cell heads a column of evals ("| eval | run-a | run-b |"), not lm_eval's (with a
    "Metric" cell), or whose other cells are GPUs (``_gpu_columns``)."""
    return bool(header) and (_EVAL_COLUMN.match(header[0]) is not None or not header[0] and _gpu_columns(header)) \
        and not any(_LM_METRIC.match(c) for c in header)


def _gpu_columns(header: list[str]) -> bool:
    """Does a header name a GPU in each cell after its first ("| eval | H200 | B200 |")?"""
    names = [_cell_gpu(c, inside=True) for c in header[1:]]
    return len(header) >= 3 and all(names) and len(set(names)) > 1


def _cell_gpu(cell: str, inside: bool = False) -> str | None:
    """The GPU a cell names, in upper case: all of the cell ("8xB200", "NVIDIA H100 SXM"), or with ``inside`` a
    machine named for one ("gb300-pod")."""
    m = _GPU_CELL.match(cell) or (_GPU_IN_CELL.search(cell) if inside else None)
    return m.group("gpu").upper().replace(" ", "") if m else None


def _lm_eval(header: list[str]) -> tuple[int, int] | None:
    """lm_eval's header: (the index of its "Metric" cell, of its "Value" cell)."""
    m = next((i for i, c in enumerate(header) if _LM_METRIC.match(c)), None)
    v = next((i for i, c in enumerate(header) if _LM_VALUE.match(c)), None)
    return None if m is None or v is None else (m, v)


def is_header(line: str) -> bool:
    """A table line of names only, one of them an eval or an accuracy metric (a line with a score is a row)."""
    got = cells(line)
    return got is not None and _names_scores(got) and not any(_NUMBER.match(c) for c in got)


def headed(texts: list[str]) -> bool:
    """Does a table's header start these lines, or follow the caption that starts them ("Numerics sweep on B300:")?"""
    return bool(texts) and (is_header(texts[0]) or len(texts) > 1 and texts[0].rstrip().endswith(":")
                            and cells(texts[0]) is None and is_header(texts[1]))


def is_note(line: str) -> bool:
    """May ``line`` be a caption or a note between or after a table's rows: short, and no table line?"""
    return len(line) <= NOTE_MAX and cells(line) is None


def below_threshold(text: str, around: str | None = None) -> bool:
    """Does ``text`` check an eval score against its threshold and find it far below (at most ``BELOW_RATIO`` of
    a real score)? Only where the text (or ``around`` it: the test's source line) names an eval or a metric
    ("accuracy", "gsm8k"): a tolerance checked the other way ("rel_diff 0.27 < 0.001") is not a score."""
    if not METRIC.search(text) and not (around and METRIC.search(around)):
        return False
    for m in _BELOW.finditer(text):
        x, y = float(m.group("x") or m.group("x2")), float(m.group("y") or m.group("y2"))
        if _far_below(x, y, BELOW_RATIO):
            return True
    return False


def below_reference(text: str) -> bool:
    """Does a sentence give an eval's score beside the score it should have been, far below it ("gpqa_diamond:
    0.412 ; the model card reports 0.80", "MMLU 0.48 (expected ~0.87)", "scores 0.29 on GPQA-diamond vs 0.65"), or
    say that it went from one to the other ("nDCG@10 on the val split went 0.81 -> 0.33")? The eval is named before
    the second score."""
    for line in text.splitlines():
        if not METRIC.search(line):
            continue
        for m in _WENT.finditer(line):
            if METRIC.search(line[:m.start()]) and _far_below(float(m.group("y")), float(m.group("x"))):
                return True
        for m in _VERSUS.finditer(line):
            x, y = float(m.group("x")), float(m.group("y"))
            if METRIC.search(line[:m.end("y")]) and _far_below(x, y):
                return True
    return False


def gpus_apart(text: str) -> bool:
    """Does a sentence that names an eval give one score on one GPU and a lower one on another ("on H200 it gets
    GPQA-diamond 0.69, on the B200 node 0.27", "GSM8K is 0.81 on our B200 nodes vs 0.93 on H100", "lower on 8x B200
    than on 8x H200 (0.709 vs 0.774)")? Lower by a real margin (``_dropped``), not by noise."""
    for line in text.splitlines():
        if not METRIC.search(line):
            continue
        seen = scores_on_gpus(line)
        for i, (gpu, x, _) in enumerate(seen):
            for other, y, _ in seen[i + 1:]:
                if other != gpu and _dropped(min(x, y), max(x, y)):
                    return True
        m = _LOWER_THAN.search(line)
        if m and m.group("a").upper() != m.group("b").upper() and _dropped(float(m.group("x")), float(m.group("y"))):
            return True
    return False


def states_score(line: str) -> bool:
    """Does a note state a score ("expected ~0.87", "H200 gives 87.1%")?"""
    return _REFERENCE.search(line) is not None


def _fraction(value: float) -> float:
    return value / 100 if value > 1 else value


class _Reader:
    """The tables of a text, line by line: each column's scores (by header), and the notes' scores."""

    def __init__(self) -> None:
        self.header: list[str] | None = None
        self.last: list[str] | None = None  # the header of the rows before a note (rows after it may go on)
        self.cols: dict = {}  # column key -> (the cell that names its eval, its scores, the line of each)
        self.tables: dict[tuple, dict] = {}  # a header seen before -> its columns
        self.refs: list[float] = []  # the scores notes after a table's rows state (0-1)
        self.task = ""  # lm_eval: the task of the rows that leave it blank
        self.on_gpus: dict = {}  # column key -> [(the GPU its row names, the row's score, its line)] (``_dropped``)
        self.line = -1  # the index of the line fed last
        self.header_line = ""  # the header as written (an aligned row is cut where its cells start)

    def feed(self, line: str) -> int | None:
        """The index of the row that collapsed, once the lines fed so far show one (else None)."""
        self.line += 1
        if not line.strip() or RULE.match(line):
            return None
        got = cells(line)
        if got is None:
            if self.cols and self.header is not None and len(line) <= NOTE_MAX:
                self.refs += [_fraction(float(m.group().rstrip("% "))) for m in _REFERENCE.finditer(line)]
            self.header, self.last = None, self.header or self.last
            return self._collapsed()
        numbers = any(_NUMBER.match(c) or _PPL_NUMBER.match(c) for c in got)
        if self.header is None and self.last is not None and len(got) == len(self.last) and numbers:
            self.header = self.last  # rows of the same table after a caption ("same command with X=0:")
        if self.header is None or not numbers:
            if _names_scores(got):
                self.header, self.header_line = got, line
                self.cols = self.tables.setdefault(tuple(got), {})
            return None
        if len(got) != len(self.header) and not _SEPARATOR.search(line):
            got = _under_header(self.header_line, line, len(self.header)) or got
        self._row(got)
        return self._collapsed()

    def _row(self, got: list[str]) -> None:
        header = self.header
        shift = len(got) - len(header)  # a DataFrame's index column makes one cell more
        if shift not in (0, 1):
            return
        lm = _lm_eval(header)
        if lm is None and _transposed(header) and METRIC.search(got[0]):  # one eval a row, its runs in the cells
            key = ("gpus" if _gpu_columns(header) else "eval", got[0])  # (GPUs compared: ``_dropped``)
            for c in got[1:]:
                m = _NUMBER.match(c)
                if m:
                    self._add(key, got[0], float(m.group(1)))
            return
        if lm is not None and shift == 0:  # lm_eval: the Value of a row whose metric is an accuracy
            # (a column added for the GPU each row ran on, "| GPU | Tasks | ... |": one eval on two GPUs, a row each)
            gpu_at, gpu = next(((i, g) for i, g in enumerate(map(_cell_gpu, got[:lm[0]])) if g), (None, None))
            named = [c for i, c in enumerate(got[:lm[0] + 1]) if i != gpu_at]
            self.task = named[0] or self.task
            metric = got[lm[0]]
            m = (_PPL_NUMBER if PERPLEXITY.search(metric) else _NUMBER).match(got[lm[1]])
            if m and METRIC.search(metric):
                key = (self.task, *named[1:])
                name = f"{self.task} {metric}" if PERPLEXITY.search(metric) else self.task
                self._add(key, name, float(m.group(1)))
                if gpu and not PERPLEXITY.search(metric):
                    self.on_gpus.setdefault((id(self.cols), key), []).append((gpu, float(m.group(1)), self.line))
            return
        gpu = _row_gpu(got)
        for i, name in enumerate(header):
            m = ((_PPL_NUMBER if PERPLEXITY.search(name) or ERROR.search(name) else _NUMBER).match(got[i + shift])
                 if METRIC.search(name) or ERROR.search(name) else None)
            if m:
                self._add(i, name, float(m.group(1)))
                if gpu and not PERPLEXITY.search(name) and not ERROR.search(name):
                    self.on_gpus.setdefault((id(self.cols), i), []).append((gpu, float(m.group(1)), self.line))

    def _add(self, key, name: str, value: float) -> None:
        _name, vals, lines = self.cols.setdefault(key, (name, [], []))
        vals.append(value)
        lines.append(self.line)

    def _collapsed(self) -> int | None:
        """The line of the row that collapsed (the lowest score; the largest error or perplexity), or None."""
        for rows in self.on_gpus.values():  # one eval on two GPUs, a row each: lower by a real margin on one
            low = next((at for g, x, at in rows for h, y, _ in rows if x < y and g != h and _dropped(x, y)), None)
            if low is not None:
                return low
        for key, (name, vals, at) in self.cols.items():
            if not vals:
                continue
            if ERROR.search(name):  # one module's error many times the others' (and large): that module is wrong
                top = max(vals)
                if len(vals) >= 3 and top >= ERROR_REAL and (top >= ERROR_RATIO * min(vals)
                                                             or top >= ERROR_LARGE and top >= ERROR_LARGE_RATIO * min(vals)):
                    return at[vals.index(max(vals))]
                continue
            if PERPLEXITY.search(name):  # lower is better: one many times the best has exploded
                if len(vals) >= 2 and min(vals) < PPL_REAL and max(vals) >= PPL_RATIO * min(vals):
                    return at[vals.index(max(vals))]
                continue
            refs = [r * 100 if max(vals) > 1 else r for r in self.refs]
            best = max(vals + refs)
            below = _dropped if isinstance(key, tuple) and key[0] == "gpus" else _far_below
            if len(vals) + len(refs) >= 2 and below(min(vals), best):
                return at[vals.index(min(vals))]
            if FOUR_CHOICE.search(name) and vals[-1] <= (CHANCE if vals[-1] <= 1 else 100 * CHANCE):
                return at[-1]  # a four-choice eval below chance needs no other row to compare with
        return None


def _under_header(header: str, line: str, n: int) -> list[str] | None:
    """The cells of an aligned row cut where the header's cells start: a cell that filled its column's width leaves
    one space before the next ("sm103 128   4096"), so splitting at two spaces merged them; None where that does not
    give ``n`` cells."""
    starts = [m.start() for m in _HEADER_CELL.finditer(header)]
    if len(starts) != n or len(line) <= starts[-1]:
        return None
    got = [line[a:b].strip() for a, b in zip(starts, [*starts[1:], len(line)])]
    return got if all(got) and all(line[a - 1:a] in ("", " ", "\t") for a in starts) else None


_HEADER_CELL = rxcache.compile(r"\S+(?: \S+)*")


def _row_gpu(got: list[str]) -> str | None:
    """The GPU a table's row names in a cell of its own ("| 8xB200 | 1 (default) | 0.79 |"), in upper case."""
    return next(filter(None, map(_cell_gpu, got)), None)


def row_gpu(line: str) -> str | None:
    """The GPU a table row names in a cell of its own (the machine its numbers were measured on), or None: not for a
    header ("| layer | H100 cos | B200 cos |" names columns) or a row that names two GPUs."""
    got = cells(line) if _SEPARATOR.search(line) else None
    if not got or not any(_NUMBER.match(c) or _PPL_NUMBER.match(c) for c in got):
        return None
    names = set(filter(None, map(_cell_gpu, got)))
    return names.pop() if len(names) == 1 else None


def collapsed(text: str) -> bool:
    """Does a table in ``text`` show one row's eval score collapsed against another row's (or against a score
    a note after it states)?"""
    return collapsed_at(text) is not None


def collapsed_at(text: str) -> int | None:
    """The index of the line of ``text`` whose row collapsed (``collapsed``), or None."""
    reader = _Reader()
    for line in text.splitlines()[:MAX_LINES]:
        at = reader.feed(line)
        if at is not None:
            return at
    return None
