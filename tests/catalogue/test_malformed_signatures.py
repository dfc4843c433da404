"""Malformed signature files in a user directory (`scan --signatures DIR`).

Each kind of breakage must stop the scan with exit 1 and a message on stderr that names the file,
the key and what to write; a directory with one bad file among good ones must not be loaded with
the bad one silently dropped. tests/catalogue/test_catalogue.py covers the same loader through
`signatures validate`; these go through `scan`, which is what an on-call engineer runs.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fp8triage.catalogue.loader import CatalogueError, build_signature, load_catalogue, parse_file
from fp8triage.cli import cli

ROOT = Path(__file__).resolve().parents[2]

GOOD = '''id = "{id}"
title = "A planted user signature for robustness tests"
severity = "high"
summary = "A user signature used by tests/catalogue/test_malformed_signatures.py."
cause = "Something went wrong in a test."
fix = "Nothing to fix: this is a test."

[evidence]
anchors = ["Frobnication failed"]

[[evidence.patterns]]
name = "main"
regex = \'\'\'Frobnication failed: (?P<fact_capability>\\d+\\.\\d+)\'\'\'

[[conditions]]
fact = "capability"
capability = ">=9.0"

[[conditions]]
fact = "vllm"
version = ">=0.6"
role = "support"
'''

LOG = "INFO starting\nRuntimeError: Frobnication failed: 9.0\n"


def good(sig_id: str = "frob-failure") -> str:
    return GOOD.format(id=sig_id)


def write(d: Path, name: str, text: str | bytes) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    f = d / name
    f.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return f


def scan(sig_dir: Path, log: Path):
    return CliRunner().invoke(cli, ["scan", "--signatures", str(sig_dir), "--format", "json", str(log)])


@pytest.fixture
def log(tmp_path) -> Path:
    return write(tmp_path / "logs", "server.log", LOG)


def assert_one_clear_error(res, *needles: str) -> None:
    assert res.exit_code == 1, res.output
    err = res.stderr
    assert res.stdout == ""  # no half report
    assert "Traceback" not in err
    assert err.startswith("Error: the signature catalogue has ")
    for n in needles:
        assert n in err, (n, err)


def test_good_user_signature_is_used(tmp_path, log):
    write(tmp_path / "sigs", "frob-failure.toml", good())
    res = scan(tmp_path / "sigs", log)
    assert res.exit_code == 3, res.output
    assert '"id": "frob-failure"' in res.stdout


# (case, file name, text, key the message must name, words telling what to write)
CASES = [
    ("bad-toml", "frob-failure.toml", good().replace('severity = "high"', 'severity = high'),
     "", ["is not valid TOML", "line 3", "'''literal strings'''"]),
    ("bad-toml-regex-escape", "frob-failure.toml",
     good().replace("regex = '''Frobnication failed: (?P<fact_capability>\\d+\\.\\d+)'''",
                    'regex = "Frobnication failed: \\d+"'),
     "", ["is not valid TOML", "'''literal strings'''"]),
    ("unknown-top-key", "frob-failure.toml", 'colour = "red"\n' + good(),
     "(top level)", ["unknown key(s) colour", "allowed here:", "severity"]),
    ("unknown-condition-key", "frob-failure.toml", good() + 'colour = "red"\n',
     "conditions.1", ["unknown key(s) colour", "allowed here:", "version"]),
    ("unknown-pattern-key", "frob-failure.toml",
     good().replace('name = "main"', 'name = "main"\nflags = "i"'),
     "evidence.patterns.0", ["unknown key(s) flags", "ignore_case"]),
    ("bad-regex", "frob-failure.toml", good().replace("(?P<fact_capability>", "(?P<fact_capability"),
     "evidence.patterns.0.regex", ["does not compile", "fix the pattern"]),
    ("bad-version-specifier", "frob-failure.toml", good().replace('version = ">=0.6"', 'version = "=>0.6"'),
     "conditions.1", ["not a PEP 440 specifier", "write e.g."]),
    ("bad-capability-specifier", "frob-failure.toml", good().replace('capability = ">=9.0"', 'capability = "sm90+"'),
     "conditions.0", ["write e.g."]),
    ("bad-severity", "frob-failure.toml", good().replace('severity = "high"', 'severity = "urgent"'),
     "severity", ['write severity = "critical"']),
    ("missing-key", "frob-failure.toml", good().replace('fix = "Nothing to fix: this is a test."\n', ""),
     "(top level)", ["missing key(s) fix", "write"]),
    ("id-file-mismatch", "frob-failure.toml", good("frob-failed"),
     "id", ["'frob-failed'", "frob-failure.toml", "rename one so they agree"]),
    ("bad-id", "Frob_Failure.toml", good("Frob_Failure"),
     "id", ["kebab-case"]),
    ("no-anchors", "frob-failure.toml", good().replace('anchors = ["Frobnication failed"]', "anchors = []"),
     "evidence.anchors", ["write the literal text"]),
    ("not-utf8", "frob-failure.toml", good().encode("utf-8").replace(b"A planted", b"A \xff\xfe planted"),
     "", ["is not UTF-8 text", "save it as UTF-8"]),
    ("yaml-instead-of-toml", "frob-failure.yaml", "id: frob-failure\ntitle: x\n",
     "", ["is not read", "signatures are TOML", "frob-failure.toml"]),
]


@pytest.mark.parametrize("case,name,text,key,words", CASES, ids=[c[0] for c in CASES])
def test_malformed_user_signature_stops_scan_naming_file_key_and_fix(tmp_path, log, case, name, text, key, words):
    sigs = tmp_path / "sigs"
    bad = write(sigs, name, text)
    # a good signature beside it: the bad one must not be silently dropped while the good one loads
    write(sigs, "other-good.toml", good("other-good"))
    res = scan(sigs, log)
    assert_one_clear_error(res, str(bad), *words)
    line = next(ln for ln in res.stderr.splitlines() if str(bad) in ln)
    if key:
        assert f"{bad}: {key}: " in line, line
    assert "other-good.toml" not in res.stderr  # only the broken file is blamed
    # the same problem through the API: a CatalogueError whose Problem has file, key and message
    with pytest.raises(CatalogueError) as e:
        load_catalogue([sigs])
    probs = [p for p in e.value.problems if p.file == str(bad)]
    assert probs, e.value.problems
    if key:
        assert any(p.key == key for p in probs), probs
    assert all(p.message for p in probs)


def test_duplicate_id_with_a_bundled_signature(tmp_path, log):
    sigs = tmp_path / "sigs"
    dup = write(sigs, "deepgemm-unknown-sf-transformation.toml", good("deepgemm-unknown-sf-transformation"))
    res = scan(sigs, log)
    assert_one_clear_error(res, str(dup), "id: 'deepgemm-unknown-sf-transformation' is already defined in",
                           "ids must be unique")


def test_duplicate_id_across_two_user_directories(tmp_path, log):
    a = write(tmp_path / "a", "frob-failure.toml", good())
    b = write(tmp_path / "b", "frob-failure.toml", good())
    res = CliRunner().invoke(cli, ["scan", "--signatures", str(a.parent), "--signatures", str(b.parent), str(log)])
    assert_one_clear_error(res, str(b), f"is already defined in {a}")


def test_every_problem_in_a_directory_is_listed(tmp_path, log):
    sigs = tmp_path / "sigs"
    f1 = write(sigs, "one-bad.toml", good("one-bad").replace('severity = "high"', 'severity = "urgent"'))
    f2 = write(sigs, "two-bad.toml", "this is = = not toml")
    write(sigs, "fine-one.toml", good("fine-one"))
    res = scan(sigs, log)
    assert_one_clear_error(res, "has 2 problem(s)", str(f1), str(f2))


def test_missing_signature_directory(tmp_path, log):
    res = scan(tmp_path / "nope", log)
    assert_one_clear_error(res, str(tmp_path / "nope"), "is not a directory of signature files")


def test_unusable_user_directory_from_a_real_process(tmp_path, log):
    """The same, as an installed command would run: exit 1, no traceback, the file named."""
    sigs = tmp_path / "sigs"
    bad = write(sigs, "frob-failure.toml", good().replace("(?P<fact_capability>", "(?P<fact_capability"))
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--signatures", str(sigs), str(log)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=120,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert p.returncode == 1
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    assert f"{bad}: evidence.patterns.0.regex: does not compile" in p.stderr


# -- property: whatever a signature file holds, loading it gives a signature or Problems --------------

toml_scalars = st.one_of(st.text(max_size=30), st.integers(), st.booleans(), st.floats(allow_nan=False))
toml_values = st.recursive(toml_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["name", "regex", "fact", "kind", "x"]), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(["id", "title", "severity", "evidence", "conditions", "remedies", "priority",
                            "references", "repro", "stacks", "anchors", "unknown"]),
       value=toml_values)
@pytest.mark.slow
def test_any_value_for_any_key_gives_problems_not_a_crash(tmp_path, key, value):
    import tomllib

    data = tomllib.loads(good())
    data[key] = value
    sig, probs = build_signature(tmp_path / "frob-failure.toml", data)
    assert (sig is None) == bool(probs)
    for p in probs:
        assert p.file.endswith("frob-failure.toml") and p.message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pattern=st.text(alphabet=st.sampled_from(list("ab()[]{}*+?|\\^$.-,:<>=!P0123456789wsdp")), max_size=25))
def test_any_regex_text_gives_a_signature_or_a_regex_problem(tmp_path, pattern):
    import tomllib

    data = tomllib.loads(good())
    data["evidence"]["patterns"][0]["regex"] = pattern
    sig, probs = build_signature(tmp_path / "frob-failure.toml", data)
    if sig is None:
        assert probs and all(p.key.startswith("evidence.patterns.0") for p in probs), probs


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=st.binary(max_size=300))
def test_any_bytes_as_a_signature_file_give_problems_not_a_crash(tmp_path, raw):
    f = tmp_path / "frob-failure.toml"
    f.write_bytes(raw)
    data, probs = parse_file(f)
    if data is None:
        assert probs and probs[0].file == str(f)
    else:
        sig, probs = build_signature(f, data)
        assert sig is None and probs  # random bytes never make a complete signature
