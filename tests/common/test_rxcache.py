"""The cache of compiled regex patterns (fp8triage/common/rxcache.py): a second run loads the
patterns instead of compiling them, gives the same report, and a stale, damaged or unwritable cache
changes nothing but the time."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import regex

from fp8triage.common import rxcache

REPO = Path(__file__).resolve().parents[2]

# a scan, recording the patterns the regex module's compiler parsed in the process
PROBE = r"""
import json, sys
import regex._main as m
compiled = []
orig = m._compile
def counting(pattern, *a, **k):
    compiled.append(pattern if isinstance(pattern, str) else repr(pattern))
    return orig(pattern, *a, **k)
m._compile = counting
from fp8triage.cli import cli
try:
    cli.main(sys.argv[1:], prog_name="fp8triage")
except SystemExit:
    pass
sys.stdout.flush()
print("\n@@COMPILED@@" + json.dumps(compiled), file=sys.stderr)
"""


def _log(tmp_path: Path) -> Path:
    log = tmp_path / "small.log"
    lines = [f"(APIServer pid=1) INFO 08-11 09:14:{i:02d} [loggers.py:123] Engine 000: Avg prompt throughput: "
             f"{i}.0 tokens/s" for i in range(10)]
    lines += ["Traceback (most recent call last):", '  File "x.py", line 1, in <module>',
              "RuntimeError: Assertion error (csrc/apis/layout.hpp:59): Unknown SF transformation"]
    log.write_text("\n".join(lines) + "\n")
    return log


def _scan(log: Path, cache: Path, **env) -> tuple[dict, list[str]]:
    """The JSON report of a scan in a new process with this cache directory, and the patterns
    that process compiled."""
    r = subprocess.run([sys.executable, "-c", PROBE, "scan", str(log), "--no-history", "--format", "json"],
                       capture_output=True, text=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), "HOME": str(cache.parent),
                            "FP8TRIAGE_CACHE_DIR": str(cache), **env})
    out, _, n = r.stderr.rpartition("@@COMPILED@@")
    assert _, r.stderr
    report = json.loads(r.stdout)
    for k in ("time", "elapsed_s", "run_id"):
        report["meta"].pop(k)
    return report, json.loads(n)


def _cache_files(cache: Path) -> list[Path]:
    return sorted((cache / "regex").glob("rx-*.bin"))


def test_a_second_scan_loads_the_patterns_instead_of_compiling_them(tmp_path):
    log, cache = _log(tmp_path), tmp_path / "cache"
    first, compiled_first = _scan(log, cache)
    assert len(compiled_first) > 100  # log facts, normalisation, events, masks, the catalogue's vocabulary
    assert len(_cache_files(cache)) == 1
    second, compiled_second = _scan(log, cache)
    # one pattern at most ("x", rxcache's own); any other was compiled with regex.compile, not
    # rxcache.compile, on the path of every scan
    assert len(compiled_second) <= 3, compiled_second
    assert second == first
    assert first["findings"][0]["id"] == "deepgemm-unknown-sf-transformation"


def test_a_damaged_cache_is_ignored_and_written_again(tmp_path):
    log, cache = _log(tmp_path), tmp_path / "cache"
    first, _ = _scan(log, cache)
    [f] = _cache_files(cache)
    data = bytearray(f.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one damaged byte in the middle of the compiled programs
    f.write_bytes(bytes(data))
    again, compiled = _scan(log, cache)
    assert again == first
    assert len(compiled) > 100  # nothing was taken from the damaged file
    _, compiled = _scan(log, cache)  # ... which the run before replaced with a good one
    assert len(compiled) <= 3
    f.write_bytes(b"not a cache")
    assert _scan(log, cache)[0] == first


def test_no_cache_when_turned_off_or_unwritable(tmp_path):
    log, cache = _log(tmp_path), tmp_path / "cache"
    first, _ = _scan(log, cache, FP8TRIAGE_NO_REGEX_CACHE="1")
    assert not (cache / "regex").exists()
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the cache directory should be")
    report, _ = _scan(log, blocked)
    assert report == first


@pytest.fixture()
def fresh(tmp_path, monkeypatch):
    """rxcache with an empty state and its own cache directory, as in a new process."""
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("FP8TRIAGE_NO_REGEX_CACHE", raising=False)

    def restart():
        for name, value in (("_store", None), ("_loaded", None), ("_added", False)):
            monkeypatch.setattr(rxcache, name, value)

    restart()
    return restart


CASES = [
    (r"(?P<name>rank\d+)\]:\s?(?P<rest>.*)", 0, "[rank3]: hello"),
    (r"unknown sf transformation", regex.IGNORECASE, "RuntimeError: Unknown SF Transformation"),
    (r"^(?:ERROR|WARN)\b.*$", regex.MULTILINE, "INFO a\nERROR b\nWARN c"),
    (r"(?<![\w/.-])torch(?:==|\s+)(?P<v>\d+(?:\.\d+)*)", 0, "pip: torch==2.13.0 torchvision==1"),
    (rb"CUDA error: (?P<what>[^\n]+)", 0, b"x CUDA error: an illegal memory access was encountered\n"),
    (r"(?i)\b(bearer|token)(\s+)[A-Za-z0-9._~+/=-]{16,}", 0, "Authorization: Bearer abcdefghijklmnopqrstuv"),
    (r"\p{Lu}{2,}\d*", 0, "ÄÖÜ12 and NCCL"),
]


def test_a_loaded_pattern_is_the_compiled_pattern(fresh):
    for pattern, flags, _text in CASES:
        rxcache.compile(pattern, flags)
    rxcache.save()
    fresh()  # a new process: the patterns come from the file
    for pattern, flags, text in CASES:
        loaded, compiled = rxcache.compile(pattern, flags), regex.compile(pattern, flags)
        assert (pattern, flags) in rxcache._loaded
        assert (loaded.pattern, loaded.flags, loaded.groupindex) == (compiled.pattern, compiled.flags, compiled.groupindex)
        assert [m.groupdict() or m.group() for m in loaded.finditer(text)] == \
               [m.groupdict() or m.group() for m in compiled.finditer(text)] != []


def test_the_cache_file_is_keyed_by_the_regex_and_python_versions(fresh, monkeypatch):
    here = rxcache.path()
    assert rxcache.path() == here
    with monkeypatch.context() as mp:
        mp.setattr(regex, "__version__", regex.__version__ + ".1")
        assert rxcache.path() != here
    with monkeypatch.context() as mp:
        mp.setattr(sys, "version", sys.version + " another build")
        assert rxcache.path() != here


def test_a_bad_pattern_raises_as_regex_does(fresh):
    with pytest.raises(regex.error):
        rxcache.compile(r"(unclosed")


def test_the_file_keeps_what_recent_runs_used_when_it_grows(fresh, monkeypatch):
    monkeypatch.setattr(rxcache, "_MAX", 3)
    for p in ("old-a", "old-b", "kept"):
        rxcache.compile(p)
    rxcache.save()
    fresh()
    rxcache.compile("kept")
    rxcache.compile("new-a")
    rxcache.save()  # 4 entries, over the limit: only this run's two are written
    fresh()
    rxcache._load()
    assert set(rxcache._loaded) == {("kept", 0), ("new-a", 0)}
