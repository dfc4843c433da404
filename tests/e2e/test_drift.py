"""Drift: every signature sample, shown as another release, terminal, logger or paste would show it,
must keep its verdict (tests/drift.py has the variants; docs/accuracy.md records the figures)."""
from __future__ import annotations

import sys

import pytest

import drift
from fp8triage.authoring import sigtools
from fp8triage.authoring.samples import leads

SAMPLES = sigtools.find_samples()
CUT_FLOOR = 0.75  # share of match samples whose signature survives the last line cut at 60 %
STRICT = [v for v in drift.VARIANTS if v != "cut"]


def _id(s) -> str:
    return f"{s.sig_id}/{s.kind}/{s.path.name}"


@pytest.fixture(scope="module")
def cat():
    return sigtools.load()


def _verdict(sample, text, cat):
    res = sigtools._scan(text, str(sample.path), cat, sample.facts())
    return [(f.id, f.status.value) for f in res.findings]


@pytest.mark.parametrize("variant", STRICT)
@pytest.mark.parametrize("sample", SAMPLES, ids=_id)
def test_variant_keeps_the_verdict(sample, variant, cat):
    got = _verdict(sample, drift.VARIANTS[variant](sample.text()), cat)
    if sample.kind == "match":
        assert leads(cat, sample.sig_id, got), f"{variant}: expected {sample.sig_id} first, got {got[:3]}"
    else:
        assert not any(i == sample.sig_id for i, _ in got), f"{variant}: near-miss now gives {sample.sig_id}: {got[:3]}"


def test_cut_lines_keep_most_verdicts_and_claim_no_near_miss(cat):
    kept, total, claimed = 0, 0, []
    for s in SAMPLES:
        got = _verdict(s, drift.cut(s.text()), cat)
        if s.kind == "match":
            total += 1
            kept += leads(cat, s.sig_id, got)
        elif any(i == s.sig_id and st in ("likely", "confirmed") for i, st in got):
            claimed.append(f"{_id(s)}: {got[:2]}")
    assert not claimed, "a cut near-miss became a likely finding of its signature:\n" + "\n".join(claimed)
    assert kept / total >= CUT_FLOOR, f"only {kept}/{total} match samples keep their signature when cut"


def test_variants_do_what_they_say():
    text = "INFO start\n(VllmWorker rank=0 pid=1) RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation\n"
    cut = drift.cut(text).rstrip("\n").split("\n")
    assert cut[0] == "INFO start" and len(cut[1]) == int(len(text.split("\n")[1]) * 0.6)
    wrapped = drift.wrap("x" * 250)
    assert [len(x) for x in wrapped.split("\n")] == [100, 100, 50]
    assert drift.prefix(text).split("\n")[1].startswith("[2026-12-03 06:00:00 TP3] RuntimeError")
    assert "layout.hpp:62" in drift.versions(text) and "0.26.2" in drift.versions("vllm 0.26.1")
    assert '"log": "INFO start\\n"' in drift.k8s(text)


@pytest.mark.slow
def test_accuracy_doc_is_current(root):
    from corpuspath import corpus_dir, skip_without_corpus

    if corpus_dir() is None:
        skip_without_corpus()  # the page's tables are the corpus's figures
    sys.path.insert(0, str(root / "tools"))
    import accuracy_report

    assert accuracy_report.main(["--check"]) == 0, "docs/accuracy.md is stale: run  python tools/accuracy_report.py"
