"""The prefiltered scan and the exhaustive reference path agree (issue 8).

The prefiltered path decodes only the lines with an anchor hit and the lines an open event
pulls in after them; ``exhaustive=True`` decodes and assembles every line. Both must give the
same findings (ids, statuses, evidence lines, counts, workers), the same ruled-out findings,
the same unknown error groups (fingerprints, counts, first and last lines) and the same facts:
on the whole corpus, on every signature sample, and on generated logs with planted failures,
including planted failures that straddle chunk boundaries.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from fp8triage.scan import ingest
from fp8triage.catalogue.loader import load_catalogue
from fp8triage.common.source import Source
from fp8triage.scan.scanner import Scanner

pytestmark = pytest.mark.slow  # the whole module: `make check` leaves it to `make test`

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))
from corpuspath import corpus_dir, skip_without_corpus  # noqa: E402
from benchmods import bench_module, planted_to_find  # noqa: E402

_C = corpus_dir()
CORPUS = (_C / "cases") if _C else REPO / "shared" / "corpus" / "cases"  # (missing: an empty glob)
SAMPLES = sorted((REPO / "signatures" / "samples").glob("**/*.log"))


def _gen():
    return bench_module("gen_log")


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


def summary(result) -> dict:
    """What a user sees, minus timings."""

    def finding(f):
        return (
            f.id,
            f.status.value,
            [(e.source, e.lineno, e.text) for e in f.evidence],
            f.count,
            sorted(f.workers),
            sorted(f.fingerprints),
            [(x.name, x.value, x.source) for x in f.facts],
            [c.get("fingerprint") for c in f.consequences],
        )

    return {
        "findings": [finding(f) for f in result.findings],
        "ruled_out": [finding(f) for f in result.ruled_out],
        "unknown": [
            (u.fingerprint, u.kind, u.count, sorted(u.workers), u.first.lineno, u.last.lineno,
             [(ln.lineno, ln.text) for ln in u.sample])
            for u in result.unknown
        ],
        "facts": [(f.name, f.value, f.source) for f in result.facts],
        "inputs": [(i.source, i.bytes, i.lines) for i in result.inputs],
        "warnings": sorted(result.warnings),
    }


def scan(cat, path: Path, exhaustive: bool, facts=()):
    sc = Scanner(cat, exhaustive=exhaustive)
    sc.scan_source(Source(str(path), path, path.stat().st_size))
    return sc.result(list(facts))


def assert_same(cat, path: Path, facts=()):
    fast = summary(scan(cat, path, False, facts))
    slow = summary(scan(cat, path, True, facts))
    for key in slow:
        assert fast[key] == slow[key], f"{path}: {key} differs between the prefiltered and the exhaustive scan"
    return fast


def _facts(path: Path):
    side = path.with_suffix(".facts")
    if not side.exists():
        return []
    from fp8triage.facts.vocabulary import parse_cli_fact

    return [parse_cli_fact(ln.strip()) for ln in side.read_text().splitlines() if ln.strip() and not ln.startswith("#")]


@pytest.mark.parametrize("case", (sorted(CORPUS.glob("*.log")) if CORPUS.is_dir() else []) or [None],
                         ids=lambda p: p.name if p else "no-corpus")
def test_corpus_case(cat, case):
    if case is None:
        skip_without_corpus()
    assert_same(cat, case)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: str(p.relative_to(REPO / "signatures" / "samples")))
def test_signature_sample(cat, sample):
    assert_same(cat, sample, _facts(sample))


def test_examples(cat):
    for ex in sorted((REPO / "examples").glob("*.log")):
        assert_same(cat, ex)


@pytest.mark.slow
@pytest.mark.parametrize("style,seed", [("mixed", 11), ("vllm", 12), ("sglang", 13), ("transformers", 14)])
def test_generated_log(cat, tmp_path, style, seed):
    gen = _gen()
    out = tmp_path / f"gen-{style}.log"
    manifest = gen.generate(out, 5 * 1024 * 1024, seed=seed, style=style, plants=5)
    assert_same(cat, out)
    want, ids = planted_to_find(cat, out, manifest)
    for p in want:
        assert p["signature"] in ids, f"planted {p['signature']} ({p['sample']}) at line {p['line']} was not found"


@pytest.mark.slow
def test_chunk_boundaries(cat, tmp_path, monkeypatch):
    """Failures planted across chunk boundaries, with a small chunk size."""
    gen = _gen()
    chunk = 64 * 1024
    monkeypatch.setattr(ingest, "CHUNK", chunk)
    out = tmp_path / "boundaries.log"
    offsets = [chunk * k - 100 * k for k in range(1, 40, 3)]
    manifest = gen.generate(out, 3 * 1024 * 1024, seed=21, style="vllm", at_offsets=offsets)
    assert_same(cat, out)
    # (a plant that the log's machine contradicts is another signature's failure there: benchmods.planted_to_find)
    want, found = planted_to_find(cat, out, manifest)
    assert want
    for p in want:
        assert p["signature"] in found, f"planted {p['signature']} at line {p['line']} not found"


def test_jobs_merge_equals_sequential(cat, tmp_path):
    """--jobs: per-file scans in worker processes, merged in order, give the sequential result."""
    from fp8triage.scan.ingest import expand_inputs
    from fp8triage.drivers.batch import scan_sources

    files = []
    for i, p in enumerate(sorted(CORPUS.glob("*.log"))[:12] if CORPUS.is_dir() else SAMPLES[:12]):
        dst = tmp_path / f"{i:02d}-{p.name}"
        dst.write_bytes(p.read_bytes())
        files.append(str(dst))
    seq = scan_sources(expand_inputs(files), catalogue=cat)
    par = scan_sources(expand_inputs(files), catalogue=cat, jobs=2)
    assert summary(par) == summary(seq)


@pytest.mark.slow
def test_hyperscan_and_re_engines_agree(cat, tmp_path, monkeypatch):
    """The same hits whichever engine runs (small spans use `re`, large ones Hyperscan)."""
    from fp8triage.scan import prefilter

    if not prefilter._hyperscan_available():
        pytest.skip("hyperscan is not installed")
    gen = _gen()
    out = tmp_path / "engines.log"
    gen.generate(out, 3 * 1024 * 1024, seed=31, style="mixed", plants=4)
    data = out.read_bytes()
    pf = Scanner(cat).prefilter
    monkeypatch.setattr(prefilter, "SMALL", 0)
    hs = pf.hits(data)
    assert pf._hs is not None  # noqa: SLF001 (it was Hyperscan)
    rx = pf.hits(data, engine="re")
    assert hs == rx
    # and both agree with the one-line check the exhaustive path uses
    starts, flags = rx
    notable = {s for s in starts if flags[s] & prefilter.NOTABLE}
    pos = 0
    for line in data.split(b"\n"):
        assert bool(pf.classify(line) & prefilter.NOTABLE) == (pos in notable)
        pos += len(line) + 1


def test_has_gives_the_same_answer_with_either_engine(cat):
    """``Prefilter.has`` (is a signature's anchor in this event's text?) reads the Hyperscan
    database once it is loaded and the `re` alternations before: the same answer."""
    from fp8triage.scan.scanner import make_prefilter
    from fp8triage.scan.prefilter import EVIDENCE, STRUCTURAL

    texts = [b"RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation",
             b"no anchor here\nnor here", b"", b"first line\nDeepGEMM is not installed, falling back",
             b'  File "x.py", line 1, in <module>', "caf\u00e9 Unknown SF transformation".encode()]
    fresh = make_prefilter(cat)  # nothing loaded: `re`
    loaded = make_prefilter(cat)
    loaded.compile()
    for text in texts:
        for bits in (EVIDENCE, STRUCTURAL, EVIDENCE | STRUCTURAL):
            assert fresh.has(text, bits) == loaded.has(text, bits), (text, bits)
    assert loaded.has(texts[0], EVIDENCE) and not loaded.has(texts[1], EVIDENCE)
    assert loaded.has(texts[3], EVIDENCE) and loaded.has(texts[4], STRUCTURAL)
