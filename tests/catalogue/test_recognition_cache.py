"""The recognition data is read from the cache directory once it was loaded (start-up): the same
vocabulary as a fresh load, and a changed file is read again, never an old copy."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fp8triage import paths
from fp8triage.catalogue import recognition as R

BUNDLED = paths.data_dir("signatures") / "recognition"


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "recognition"


def _same(a: R.Vocabulary, b: R.Vocabulary) -> None:
    assert R._to_data(a) == R._to_data(b)
    assert a.names == b.names and a.asserts == b.asserts and a.supersedes == b.supersedes
    for text in ("RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation",
                 "in cutlass_scaled_mm: no kernel image", "deep_gemm.fp8_gemm_nt failed with e4m3 scales"):
        tokens = set(R.TOKEN.findall(text))
        assert a.components_of(tokens) == b.components_of(tokens)
        assert a.names_fp8(text) == b.names_fp8(text)
        assert [k for k, _e, p in a.kinds if p is not None and p.search(text)] == \
               [k for k, _e, p in b.kinds if p is not None and p.search(text)]


def test_the_cached_vocabulary_is_the_loaded_one(cache):
    fresh = R.load_vocabulary(BUNDLED)
    first = R._load_cached(BUNDLED)  # loads, and writes the cache
    assert len(list(cache.glob("voc-*.json"))) == 1
    second = R._load_cached(BUNDLED)  # from the cache
    _same(first, fresh)
    _same(second, fresh)
    assert fresh.names and fresh.asserts and fresh.phrases and fresh.kinds and fresh.formats


def test_a_changed_file_is_read_again(cache, tmp_path):
    folder = tmp_path / "recognition"
    shutil.copytree(BUNDLED, folder)
    vocab = sorted((folder / "vocab").glob("*.jsonl"))[0]
    before = R._load_cached(folder)
    assert "fp8_gemm_brand_new_kernel" not in before.names
    with vocab.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"name": "fp8_gemm_brand_new_kernel", "type": "function"}) + "\n")
    after = R._load_cached(folder)
    assert after.names["fp8_gemm_brand_new_kernel"] == {vocab.stem}
    _same(after, R.load_vocabulary(folder))
    assert len(list(cache.glob("voc-*.json"))) == 2


def test_a_damaged_cache_is_loaded_again(cache):
    R._load_cached(BUNDLED)
    [f] = cache.glob("voc-*.json")
    f.write_text(f.read_text(encoding="utf-8")[:1000], encoding="utf-8")
    _same(R._load_cached(BUNDLED), R.load_vocabulary(BUNDLED))
    f.write_text(json.dumps({"names": []}), encoding="utf-8")
    _same(R._load_cached(BUNDLED), R.load_vocabulary(BUNDLED))
