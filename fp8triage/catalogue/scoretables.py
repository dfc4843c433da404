"""Eval scores compared across the rows of a pasted table: one configuration's score collapsed against another's.

A report of silent corruption often shows it as a table and nothing else: one row per GPU or backend, one column
per eval, and one row far below the others (``| B200 | deepgemm | 0.327 |`` under ``| H200 | deepgemm | 0.951 |``).
No phrase says "dropped" and no cell is near zero, so the symptom is in the comparison. ``collapsed(text)`` reads
Markdown tables, box-drawn ones (``│``, ``┃``), and columns aligned with spaces (a DataFrame, with its index
column): under a header cell that names an eval or an accuracy metric, a score at most ``RATIO`` of the best score
of its column, where the best is a real score (0.3 or more on a 0-1 scale, 30 or more in percent), is a collapse;
so is a four-choice eval's score (MMLU, GPQA) at 0.2 or less, below chance, in a table of one row.
"""
from __future__ import annotations

from ..common import rxcache

# a column of eval scores: its header names an eval or an accuracy metric
METRIC = rxcache.compile(r"(?i)gsm8k|gpqa|mmlu|aime|math[_-]?500|humaneval|mbpp|livecodebench|c-?eval|cmmlu|ifeval"
                         r"|accuracy|\bacc(?:_norm)?\b|exact[_ ]match|\bstrict|\bflexible|pass@\d|\bscore\b"
                         r"|\bcos(?:ine)?_?sim")  # (a per-layer cosine against a reference: 1.0 is right)
_SEPARATOR = rxcache.compile(r"[|│┃]")
# a table's rule line, or the mark of rows left out ("...", "⋮"): no cells
RULE = rxcache.compile(r"^[\s|│┃┏┓┗┛┣┫┡┩╇┳┻╋╂┠┨━─═┼+:\-]*$|^\s*(?:\.{3}|…|⋮)\s*$")
_NUMBER = rxcache.compile(r"^[-+]?(\d{1,3}(?:\.\d+)?)\s*%?$")
_ALIGNED = rxcache.compile(r"\s{2,}|\t")
RATIO = 0.6  # a score at most this share of the best score of its column
# a four-choice eval (chance is 0.25): a score at most CHANCE is a collapse on its own
FOUR_CHOICE = rxcache.compile(r"(?i)mmlu|gpqa")
CHANCE = 0.2
MAX_LINES = 40  # a table read for scores: its first lines


def cells(line: str) -> list[str] | None:
    """The cells of a table line (None: not a table line): split at "|", "│" or "┃" (two cells or more), else at
    runs of two spaces or a tab (three cells or more)."""
    if _SEPARATOR.search(line):
        got = [c.strip() for c in _SEPARATOR.split(line.strip())]
        if got and not got[0]:
            got = got[1:]
        if got and not got[-1]:
            got = got[:-1]
        return got if len(got) >= 2 else None
    got = [c for c in _ALIGNED.split(line.strip()) if c]
    return got if len(got) >= 3 else None


def is_header(line: str) -> bool:
    """A table line of names only, one of them an eval or an accuracy metric (a line with a score is a row)."""
    got = cells(line)
    return got is not None and any(METRIC.search(c) for c in got) and not any(_NUMBER.match(c) for c in got)


def collapsed(text: str) -> bool:
    """Does a table in ``text`` show one row's eval score collapsed against another row's?"""
    header: list[str] | None = None
    cols: dict[int, list[float]] = {}
    for line in text.splitlines()[:MAX_LINES]:
        if not line.strip() or RULE.match(line):
            continue
        got = cells(line)
        if got is None:
            header, cols = None, {}
            continue
        if header is None or not any(_NUMBER.match(c) for c in got):
            if any(METRIC.search(c) for c in got):
                header, cols = got, {}
            continue
        shift = len(got) - len(header)  # a DataFrame's index column makes one cell more
        if shift not in (0, 1):
            continue
        for i, name in enumerate(header):
            m = _NUMBER.match(got[i + shift]) if METRIC.search(name) else None
            if m:
                cols.setdefault(i, []).append(float(m.group(1)))
        for i, vals in cols.items():
            best = max(vals)
            if len(vals) >= 2 and best >= (0.3 if best <= 1 else 30) and min(vals) <= RATIO * best:
                return True
            if FOUR_CHOICE.search(header[i]) and vals[-1] <= (CHANCE if vals[-1] <= 1 else 100 * CHANCE):
                return True  # a four-choice eval below chance needs no other row to compare with
    return False
