"""Repeated work is done once (issue 26): a restart loop, a crash loop and an error storm repeat the
same events and fact lines with new timestamps, pids and request ids. An event whose fingerprint
inputs were seen before is not masked again, and a fact line whose facts are all recorded costs a
lookup; the result is the one a full evaluation gives (groups, counts, first and last lines,
workers, facts, findings), prefiltered, exhaustive and split into byte ranges alike."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fp8triage.catalogue.loader import load_catalogue
from fp8triage.common.source import Source
from fp8triage.facts import logfacts
from fp8triage.scan import fingerprint as fpmod
from fp8triage.scan.scanner import Scanner

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "scan"))
from benchmods import bench_module  # noqa: E402
from test_equivalence import summary  # noqa: E402

LOOP_MIXES = ("restart-loop", "crash-loop", "storm")


def _mixes():
    return bench_module("mixes")


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    d = tmp_path_factory.mktemp("loops")
    out = {}
    for mix in LOOP_MIXES:
        p = d / f"{mix}.log"
        out[mix] = (p, _mixes().generate(p, 400_000, mix, seed=5, plants=3))
    return out


def _scan(cat, path: Path, exhaustive: bool = False):
    fpmod._MEMO.clear()
    fpmod._SHAPES.clear()
    sc = Scanner(cat, exhaustive=exhaustive)
    sc.scan_source(Source(str(path), path, path.stat().st_size))
    return sc.result()


def _full(monkeypatch):
    """Turn the repeat paths off: every event masked, every fact line read in full."""
    monkeypatch.setattr(fpmod, "_MEMO_HEADLINE", -1)
    monkeypatch.setattr(logfacts.LogFacts, "repeat", lambda self, text: False)


@pytest.mark.parametrize("mix", LOOP_MIXES)
def test_loop_mix_plants_are_found(cat, logs, mix):
    path, man = logs[mix]
    got = summary(_scan(cat, path))
    ids = {f[0] for f in got["findings"]} | {f[0] for f in got["ruled_out"]}
    assert man["planted"]
    for p in man["planted"]:
        assert p["signature"] in ids, f"{mix}: planted {p['signature']} at line {p['line']} not found"


def test_crash_loop_finds_its_own_failure_once_per_repeat(cat, logs):
    """The crash loop's DeepGEMM assertion is one finding, counted on every failing start-up,
    seen on both workers, from the first failing start-up to the last."""
    path, _man = logs["crash-loop"]
    res = _scan(cat, path)
    f = next(f for f in res.findings if f.id == "deepgemm-unknown-sf-transformation")
    text = path.read_text()
    starts = text.count("WorkerProc failed to start.") // 2  # two workers per failing start-up
    assert f.count >= starts > 5
    assert {"Worker_TP0", "Worker_TP1"} <= set(f.workers)


@pytest.mark.parametrize("mix", LOOP_MIXES)
def test_repeats_equal_a_full_evaluation(cat, logs, mix, monkeypatch):
    path, _man = logs[mix]
    cached = summary(_scan(cat, path))
    exhaustive = summary(_scan(cat, path, exhaustive=True))
    _full(monkeypatch)
    full = summary(_scan(cat, path))
    for key in full:
        assert cached[key] == full[key], f"{mix}: {key} differs between the repeat path and a full evaluation"
        assert exhaustive[key] == full[key], f"{mix}: {key} differs between the exhaustive scan and a full evaluation"


@pytest.mark.parametrize("mix", LOOP_MIXES)
def test_repeats_split_into_byte_ranges_equal_one_pass(cat, logs, mix, monkeypatch):
    """Each worker of a parallel scan has its own repeats: the merged result is the sequential one."""
    sys.path.insert(0, str(ROOT / "tests" / "drivers"))
    from test_parallel import _split

    path, _man = logs[mix]
    ref = summary(_scan(cat, path))
    fpmod._MEMO.clear()
    fpmod._SHAPES.clear()
    got = _split(cat, path, monkeypatch, parts=4, warm=8 * 1024)
    for key in ref:
        assert got[key] == ref[key], f"{mix}: {key} differs between byte ranges and one pass"


def test_a_repeated_event_is_masked_once(cat, logs, monkeypatch):
    """The crash loop's events repeat with new pids and times: each distinct event's masked text
    is made once, not once per occurrence."""
    path, _man = logs["crash-loop"]
    calls = []
    real = fpmod._signature_parts
    monkeypatch.setattr(fpmod, "_signature_parts", lambda ev, *a: calls.append(1) or real(ev, *a))
    res = _scan(cat, path)
    occurrences = sum(f.count for f in res.findings) + sum(u.count for u in res.unknown)
    assert occurrences > 40
    assert len(calls) * 3 < occurrences  # each occurrence masked: as many calls as occurrences, or more


def test_a_repeated_fact_line_costs_a_lookup(cat, logs, monkeypatch):
    """A restart loop writes the same fact lines (version, model, GPU) at every start-up, with new
    timestamps and pids: once their facts are recorded, a repeat records nothing again."""
    path, _man = logs["restart-loop"]
    added = []
    real = logfacts.LogFacts._add
    monkeypatch.setattr(logfacts.LogFacts, "_add", lambda self, *a, **k: added.append(a[:2]) or real(self, *a, **k))
    _scan(cat, path)
    restarts = path.read_text().count("vLLM API server version")
    assert restarts > 20
    # (the start-up's GPU line is read; which GPU wins depends on the failures planted: one may carry an nvidia-smi dump)
    assert any(name == "gpu" and "H100" in value for name, value in added)
    assert sum(name == "gpu" for name, _ in added) < restarts  # read again only while a fact is not yet recorded


@pytest.mark.parametrize("mix", ("restart-loop", "crash-loop"))
def test_spans_read_after_the_stack_is_settled_equal_every_line(cat, logs, mix, monkeypatch):
    """Once vLLM is named, later spans are read without the STACK class (the module paths on every frame
    are no hits): the result is still the one reading every line gives, and those spans did use it."""
    from fp8triage.scan import ingest
    from fp8triage.scan.prefilter import STACK, Prefilter

    path, _man = logs[mix]
    exhaustive = summary(_scan(cat, path, exhaustive=True))
    monkeypatch.setattr(ingest, "CHUNK", 16 * 1024)  # many spans: all but the first read with the stack settled
    used = []
    real = Prefilter.hits
    monkeypatch.setattr(Prefilter, "hits", lambda self, *a, **k: used.append(
        any(b & STACK for _e, _k, b in self.rules)) or real(self, *a, **k))
    got = summary(_scan(cat, path))
    assert used.count(False) > 10 and used[0] is True  # the first span names the stack
    for key in exhaustive:
        assert got[key] == exhaustive[key], f"{mix}: {key} differs with the settled prefilter"
