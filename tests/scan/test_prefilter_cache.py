"""The compiled Hyperscan database is cached on disk (issue 13: start-up): a second scan loads
it instead of compiling, a damaged cache file is compiled again, and the results are the same."""
from __future__ import annotations

import pytest

from fp8triage.scan import prefilter
from fp8triage.scan.prefilter import ALERT, EVIDENCE, LITERAL, LITERAL_TAILED, WARN, Prefilter

pytest.importorskip("hyperscan")

RULES = [("Error", LITERAL, ALERT), ("Unknown SF transformation", LITERAL, EVIDENCE),
         ("WARNING", LITERAL_TAILED, WARN)]
BUF = (b"(a) INFO fine\n(b) RuntimeError: Unknown SF transformation\nWARNING cut\n tail\n") * 3


def test_second_prefilter_loads_the_cached_database(tmp_path, monkeypatch):
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(prefilter, "SMALL", 0)
    import hyperscan

    loaded = []
    real_load = hyperscan.loadb
    monkeypatch.setattr(hyperscan, "loadb", lambda data, mode: loaded.append(len(data)) or real_load(data, mode))
    first = Prefilter(RULES).hits(BUF)
    assert not loaded and list((tmp_path / "prefilter").glob("hs-*.db"))
    second = Prefilter(RULES).hits(BUF)
    assert len(loaded) == 1  # loaded from the cache, not compiled
    assert second == first and len(first[0]) == 6


def test_a_damaged_cache_file_is_compiled_again(tmp_path, monkeypatch):
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(prefilter, "SMALL", 0)
    want = Prefilter(RULES).hits(BUF)
    (cached,) = (tmp_path / "prefilter").glob("hs-*.db")
    cached.write_bytes(b"not a database")
    assert Prefilter(RULES).hits(BUF) == want
    assert cached.read_bytes() != b"not a database"  # rewritten


def test_other_rules_get_their_own_database(tmp_path, monkeypatch):
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(prefilter, "SMALL", 0)
    Prefilter(RULES).hits(BUF)
    got = Prefilter(RULES[:2]).hits(BUF)
    assert len(list((tmp_path / "prefilter").glob("hs-*.db"))) == 2
    assert len(got[0]) == 3  # no WARNING rule: only the Error/anchor lines


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(blocker))  # a file where the folder should be
    monkeypatch.setattr(prefilter, "SMALL", 0)
    assert len(Prefilter(RULES).hits(BUF)[0]) == 6


def test_a_small_span_uses_the_cached_database_and_reads_like_re(tmp_path, monkeypatch):
    """Below SMALL bytes Hyperscan is not compiled for one span, but a database cached by an
    earlier run is loaded (Python ``re`` with hundreds of alternated anchors reads ~1 MB/s)."""
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    small = Prefilter(RULES)
    got = small.hits(BUF)
    assert small._hs is None  # noqa: SLF001 (nothing cached yet, too small to compile: re)
    monkeypatch.setattr(prefilter, "SMALL", 0)
    Prefilter(RULES).hits(BUF)  # a large scan compiles and caches it
    monkeypatch.setattr(prefilter, "SMALL", 1 << 40)
    monkeypatch.setattr(prefilter, "CACHED_MIN", 0)
    again = Prefilter(RULES)
    assert again.hits(BUF) == got
    assert again._hs is not None  # noqa: SLF001 (loaded from the cache)
    assert again.hits(BUF, engine="re") == got


def test_an_unreadable_cache_directory_is_no_error_for_a_small_span(tmp_path, monkeypatch):
    """A small span asks whether a compiled database is cached; a cache directory that cannot be
    searched must not break the scan (the span is read with `re`, as if nothing were cached)."""
    import os

    if os.geteuid() == 0:
        # root reads any directory: make the check itself fail instead
        from pathlib import Path

        real = Path.is_file
        monkeypatch.setattr(Path, "is_file", lambda self: (_ for _ in ()).throw(PermissionError(13, "denied"))
                            if "prefilter" in str(self) else real(self))
    else:
        (tmp_path / "prefilter").mkdir()
        (tmp_path / "prefilter").chmod(0)
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(prefilter, "CACHED_MIN", 0)
    pf = Prefilter(RULES)
    assert pf.hits(BUF) == pf.hits(BUF, engine="re")
    assert pf._hs is None  # noqa: SLF001
