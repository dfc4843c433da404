"""The recognition vocabulary's alternations answer as ``regex`` does, with the Hyperscan pass on."""
from __future__ import annotations

from pathlib import Path

import pytest
import regex

from fp8triage.catalogue.recognition import load_vocabulary
from fp8triage.common import hsdb, phraseset
from fp8triage.common.phraseset import PhraseSet

from corpuspath import ROOT, corpus_dir

FOLDER = ROOT / "signatures" / "recognition"


def _texts() -> list[str]:
    """Every line of every sample and corpus case, each whole text, and lines that make the engines differ."""
    files = sorted((ROOT / "signatures" / "samples").rglob("*.log"))
    c = corpus_dir()
    if c is not None:
        files += sorted((c / "cases").glob("*.log"))
    out: list[str] = []
    for f in files:
        text = f.read_text(encoding="utf-8", errors="replace")
        out.append(text)
        out += text.splitlines()
    out += ["the output is garbage garbage garbage garbage garbage garbage",
            "it crashes\x1fon the 5090",  # an ASCII control character Python reads as space
            "ВЫВОД — МУСОР", "输出乱码乱码乱码乱码", "", "\n\n"]
    return out


@pytest.fixture(scope="module")
def fast_vocabulary(monkeypatch_module):
    if not hsdb.available():
        pytest.skip("Hyperscan is not installed here")
    monkeypatch_module.setattr(phraseset, "WARM", 0)
    voc = load_vocabulary(FOLDER)
    return voc


@pytest.fixture(scope="module")
def monkeypatch_module():
    mp = pytest.MonkeyPatch()
    yield mp
    mp.undo()


def test_every_alternation_answers_as_regex_does_on_every_line(fast_vocabulary):
    voc = fast_vocabulary
    alternations = [p for _, p in voc.phrases] + [p for _, _, p in voc.kinds if p is not None] + [p for _, p in voc.formats]
    texts = _texts()
    ruled_out = 0
    for text in texts:
        for alt in alternations:
            fast = alt.search(text) is not None
            assert fast == (alt.rx.search(text) is not None), (alt.phrases[:3], text[:200])
        ruled_out += voc.phraseset.candidates(text) is not None
    assert voc.phraseset._state == "ready"
    assert ruled_out > len(texts) // 2  # the fast path was taken, not skipped


def test_a_phrase_hyperscan_cannot_compile_is_still_searched(monkeypatch):
    if not hsdb.available():
        pytest.skip("Hyperscan is not installed here")
    monkeypatch.setattr(phraseset, "WARM", 0)
    ps = PhraseSet()
    han = ps.add([r"(?P<rep>\p{Han}{1,4})(?P=rep){3,}", r"\bgarbage\b"], regex.IGNORECASE | regex.MULTILINE)
    quote = ps.add([r"fixes it[\u2019']s output"], regex.IGNORECASE)
    assert han.search("GARBAGE out") and not han.search("fine")
    assert quote.search("this fixes it's output")
    assert ps.unruled  # the Unicode class and the \u escape were left to regex
    assert han.search("乱码乱码乱码乱码")  # not ASCII: regex reads it


def test_without_hyperscan_every_search_is_regexs(monkeypatch):
    monkeypatch.setattr(phraseset, "WARM", 0)
    monkeypatch.setattr(hsdb, "module", lambda: None)
    ps = PhraseSet()
    p = ps.add([r"\bnan\b", r"accuracy drop"], regex.IGNORECASE)
    assert p.search("loss is NaN") and not p.search("nanny")
    assert ps.candidates("loss is NaN") is None


def test_a_copy_of_a_vocabulary_builds_its_own_database():
    import pickle

    ps = PhraseSet()
    p = ps.add([r"\bnan\b"], regex.IGNORECASE)
    q = pickle.loads(pickle.dumps(p.owner))
    assert q.groups == ps.groups and q._db is None


def test_the_cache_of_what_hyperscan_compiles_is_reused(tmp_path: Path, monkeypatch):
    if not hsdb.available():
        pytest.skip("Hyperscan is not installed here")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path / "fp8triage"))
    monkeypatch.setattr(phraseset, "WARM", 0)
    ps = PhraseSet()
    p = ps.add([r"(?P<rep>\p{Han})(?P=rep)", r"\bnan\b"], regex.IGNORECASE)
    assert p.search("NaN") and not p.search("ok")
    masks = list(tmp_path.rglob("*.ok.json"))
    assert masks and masks[0].read_text() == "[false, true]"
