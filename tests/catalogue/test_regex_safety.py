"""Regex safety: every signature search has a time limit, and `signatures validate` rejects
patterns that backtrack catastrophically (fp8triage/catalogue/regexsafety.py).

A planted user signature with a catastrophic pattern shows both sides: validate rejects it
naming the file, the key and the reason; scan with it finishes in bounded time and says in the
result which pattern it skipped.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
import regex
from click.testing import CliRunner

from fp8triage.judge import patterns
from fp8triage.catalogue import regexsafety
from fp8triage.catalogue.loader import load_catalogue
from fp8triage.cli import cli
from fp8triage.drivers.batch import scan_paths

CATASTROPHIC = r"(\w+\s?)+$"  # nested quantifiers that can split a word run in exponentially many ways

SIG = '''id = "{id}"
title = "A planted signature with a catastrophic pattern"
severity = "high"
summary = "Planted by tests/catalogue/test_regex_safety.py."
cause = "A pattern whose repeated parts overlap."
fix = "Nothing to fix: this is a test."

[evidence]
anchors = ["planted FP8 failure"]

[[evidence.patterns]]
name = "runaway"
regex = \'\'\'{regex}\'\'\'
'''

# The line the catastrophic pattern chokes on: a long word run that never reaches the end of line
# cleanly (the '!' makes `$` fail after every way of splitting it).
BAD_LINE = "RuntimeError: planted FP8 failure " + "a" * 4000 + "!"


def plant(d: Path, sig_id: str = "planted-runaway", pattern: str = CATASTROPHIC, match_sample: str | None = None) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    f = d / f"{sig_id}.toml"
    f.write_text(SIG.format(id=sig_id, regex=pattern), encoding="utf-8")
    for kind, text in (("match", match_sample or "RuntimeError: planted FP8 failure in kernel\n"),
                       ("near-miss", "RuntimeError: something else\n")):
        (d / "samples" / sig_id / kind).mkdir(parents=True, exist_ok=True)
        (d / "samples" / sig_id / kind / "one.log").write_text(text, encoding="utf-8")
    return f


# -- the stress check ----------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("pattern", [r"(a+)+b", CATASTROPHIC, r"^(a|aa)+$", r"(?:x+x+)+y"])
def test_catastrophic_patterns_are_rejected(pattern):
    v = regexsafety.check_pattern(pattern)
    assert not v.ok
    assert "backtracks catastrophically" in v.reason and v.input_label in v.reason
    assert "possessive" in v.reason  # says what to write instead


@pytest.mark.parametrize("pattern", [
    r"Unknown SF transformation",
    r"Assertion error \((?P<file>[\w./-]+):(?P<line>\d+)\): (?P<msg>[^\n]*)",
    r"(?m)^\s*File \"[^\"]+\", line \d+",
    r"capability (?P<fact_capability>\d+\.\d+)",
    r"(?i)cutlass[^\n]{0,200}not supported",
    r"[\w\s]+$",  # the safe rewrite of the catastrophic pattern
    r"(?>\w+\s?)+$",  # atomic group
])
@pytest.mark.slow
def test_ordinary_patterns_pass(pattern):
    v = regexsafety.check_pattern(pattern)
    assert v.ok, v.reason


def test_stress_inputs_cover_repeats_generic_runs_and_samples():
    inputs = regexsafety.stress_inputs(r"Error: (?P<x>(?:\w+ )+)at (\d+)$", ["Error: bad thing at 12"])
    labels = [i.label for i in inputs]
    assert any("repetitions of 'a '" in lb for lb in labels)  # the repeated unit of (?:\w+ )+
    assert any("repetitions of '7'" in lb for lb in labels)  # the repeated unit of \d+
    assert any(lb.startswith("'Error: ") for lb in labels)  # with the literal prefix the pattern needs
    assert any("spaces" in lb for lb in labels) and any("punctuation" in lb for lb in labels)
    assert any("match sample 1 repeated" in lb for lb in labels)
    for i in inputs:
        assert len(i.text()) >= 1000 or "sample" in i.label
        assert len(i.text(10)) < len(i.text())  # templates scale, so growth can be measured


def test_stress_inputs_for_regex_only_syntax():
    # \p{..} and possessive quantifiers are not Python `re` syntax: the check still builds inputs
    inputs = regexsafety.stress_inputs(r"\p{Lu}++ failed")
    assert inputs
    assert regexsafety.check_pattern(r"\p{Lu}++ failed").ok


@pytest.mark.slow
def test_bundled_patterns_pass_the_stress_check(catalogue):
    t0 = time.perf_counter()
    bad = []
    n = 0
    for sig in catalogue.signatures:
        samples = regexsafety._match_samples(sig)
        for p in sig.patterns:
            if p.compiled is None:  # a tokens pattern: substring tests only
                continue
            n += 1
            v = regexsafety.check_pattern(p.compiled, samples)
            if not v.ok:
                bad.append(f"{sig.id}:{p.name}: {v.reason}")
    assert not bad, bad
    assert n > 30
    assert time.perf_counter() - t0 < 120


# -- validate rejects the planted pattern ------------------------------------------------------------

@pytest.mark.slow
def test_validate_rejects_planted_catastrophic_pattern_naming_file_key_and_reason(tmp_path):
    f = plant(tmp_path)
    t0 = time.perf_counter()
    res = CliRunner().invoke(cli, ["signatures", "validate", str(tmp_path)])
    took = time.perf_counter() - t0
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output
    assert f"{f}: evidence.patterns.0.regex: pattern 'runaway' backtracks catastrophically" in res.output
    assert "possessive quantifier" in res.output
    assert took < 60


def test_validate_accepts_the_rewritten_pattern(tmp_path):
    plant(tmp_path, pattern=r"planted FP8 failure [\w\s]+$")
    res = CliRunner().invoke(cli, ["signatures", "validate", str(tmp_path)])
    assert res.exit_code == 0, res.output


# -- scan with the planted pattern stays bounded and warns ---------------------------------------------

def test_matcher_passes_a_timeout_to_every_search(monkeypatch, catalogue):
    """Every pattern search in the matcher carries timeout=REGEX_TIMEOUT."""
    seen = []

    class Spy:
        def __init__(self, rx):
            self.rx = rx
            self.pattern = rx.pattern

        def search(self, text, *a, **kw):
            seen.append(kw.get("timeout"))
            return self.rx.search(text, *a, **kw)

    for sig in catalogue.signatures:
        for i, p in enumerate(sig.patterns):
            if p.compiled is not None:  # tokens patterns have no regex
                object.__setattr__(p, "_compiled", Spy(p.compiled))
    try:
        log = (Path(__file__).resolve().parents[2] / "examples" / "vllm-rtx5090-unknown-sf.log").read_text()
        from fp8triage.drivers.batch import scan_text

        scan_text(log, catalogue=catalogue)
    finally:
        for sig in catalogue.signatures:
            for p in sig.patterns:
                if isinstance(p.compiled, Spy):
                    object.__setattr__(p, "_compiled", p.compiled.rx)
    assert seen and all(t == patterns.REGEX_TIMEOUT for t in seen), set(seen)


@pytest.mark.slow
def test_scan_with_planted_pattern_is_bounded_and_warns(tmp_path):
    sigs = tmp_path / "sigs"
    plant(sigs)
    log = tmp_path / "server.log"
    # 300 events that each make the pattern run away: without the per-scan skip this would cost
    # 300 timeouts (minutes); with it, one timeout
    log.write_text("\n".join(f"INFO step {i}\n{BAD_LINE}{i}" for i in range(300)) + "\n")
    t0 = time.perf_counter()
    res = CliRunner().invoke(cli, ["scan", "--signatures", str(sigs), "--format", "json", str(log)])
    took = time.perf_counter() - t0
    assert res.exit_code in (3, 4), res.output
    doc = json.loads(res.stdout)
    warn = [w for w in doc["warnings"] if "planted-runaway" in w]
    assert len(warn) == 1, doc["warnings"]
    assert "'runaway' took longer than" in warn[0] and "skipped for the rest of this scan" in warn[0]
    assert doc["unknown_errors"] and doc["unknown_errors"][0]["count"] == 300  # the events are still reported
    # REGEX_TIMEOUT (1 s) once, plus the regex package's lateness in noticing it (about 3x), plus the scan
    assert took < 10 * patterns.REGEX_TIMEOUT + 15, took


@pytest.mark.slow
def test_text_output_shows_the_warning(tmp_path):
    sigs = tmp_path / "sigs"
    plant(sigs)
    log = tmp_path / "server.log"
    log.write_text(BAD_LINE + "\n")
    res = CliRunner().invoke(cli, ["scan", "--signatures", str(sigs), str(log)])
    assert "warning: signature planted-runaway: pattern 'runaway' took longer than" in res.stdout


@pytest.mark.slow
def test_a_timed_out_pattern_does_not_stop_other_signatures(tmp_path):
    sigs = tmp_path / "sigs"
    plant(sigs)
    example = (Path(__file__).resolve().parents[2] / "examples" / "vllm-rtx5090-unknown-sf.log").read_text()
    log = tmp_path / "server.log"
    log.write_text(BAD_LINE + "\n" + example)
    cat = load_catalogue([sigs])
    r = scan_paths([str(log)], catalogue=cat)
    assert r.findings and r.findings[0].id == "deepgemm-unknown-sf-transformation"
    assert any("planted-runaway" in w for w in r.warnings)


@pytest.mark.slow
def test_catastrophic_pattern_really_runs_away_without_a_timeout():
    """The planted input is adversarial for real (so the tests above cannot pass vacuously)."""
    rx = regex.compile(CATASTROPHIC, regex.MULTILINE)
    with pytest.raises(TimeoutError):
        rx.search(BAD_LINE, timeout=0.5)
    assert rx.search("RuntimeError: planted FP8 failure in kernel", timeout=0.5)
