"""Golden files for the HTML and Markdown reports.

The rendered reports of fixed results (tests/render/test_report_fixtures.py) must equal
tests/golden/report-*.{html,md} byte for byte. After an intended change to the templates or the
renderers, regenerate them and review the diff:

    FP8TRIAGE_UPDATE_GOLDEN=1 python -m pytest tests/render/test_report_golden.py
    git diff tests/golden/
"""
from __future__ import annotations

import difflib
import os

import pytest
from test_report_fixtures import GOLDEN, empty_result, sample_result, unknown_only_result

from fp8triage.render.html import render_html
from fp8triage.render.markdown import render_markdown

UPDATE = os.environ.get("FP8TRIAGE_UPDATE_GOLDEN") == "1"

CASES = {
    "report-sample.html": lambda: render_html(sample_result()),
    "report-sample-verbose.html": lambda: render_html(sample_result(), verbose=True),
    "report-empty.html": lambda: render_html(empty_result()),
    "report-sample.md": lambda: render_markdown(sample_result()),
    "report-sample-verbose.md": lambda: render_markdown(sample_result(), verbose=True),
    "report-empty.md": lambda: render_markdown(empty_result()),
    "report-unknown-only.md": lambda: render_markdown(unknown_only_result()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    got = CASES[name]()
    path = GOLDEN / name
    if UPDATE:
        path.write_text(got, encoding="utf-8", newline="")
        return
    assert path.exists(), f"{path} is missing; create it with FP8TRIAGE_UPDATE_GOLDEN=1 and review it"
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), f"golden/{name}", "rendered"))[:120])
        pytest.fail(f"rendered report differs from golden/{name} (regenerate with FP8TRIAGE_UPDATE_GOLDEN=1 if intended):\n{diff}")


def test_rendering_is_deterministic():
    assert render_html(sample_result()) == render_html(sample_result())
    assert render_markdown(sample_result(), verbose=True) == render_markdown(sample_result(), verbose=True)
