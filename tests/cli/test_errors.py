"""One error base class (fp8triage.errors.TriageError), turned into one sentence in one place."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

from click.testing import CliRunner

import fp8triage
from fp8triage.cli import cli
from fp8triage.errors import TriageError

PKG = Path(fp8triage.__file__).parent


def _modules():
    for m in pkgutil.walk_packages(fp8triage.__path__, "fp8triage."):
        if m.name.endswith("repro_worker"):  # run by path, standard library only
            continue
        yield importlib.import_module(m.name)


def test_every_error_class_of_the_package_is_a_triage_error():
    found = []
    for mod in _modules():
        for name, obj in vars(mod).items():
            if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == mod.__name__:
                found.append(obj)
                assert issubclass(obj, TriageError), f"{mod.__name__}.{name} does not derive from TriageError"
    assert len(found) >= 9  # ingest, catalogue, facts, conditions, checkpoint, history, repro, sigtools, scaffold


def test_only_the_one_translator_catches_typed_errors_in_the_cli():
    names = {c.__name__ for mod in _modules() for c in vars(mod).values()
             if inspect.isclass(c) and issubclass(c, TriageError)}
    offenders = []
    for path in sorted((PKG / "cli").glob("*.py")):
        for i, line in enumerate(path.read_text().splitlines(), 1):
            m = re.search(r"except\s*\(?([\w., ]+)", line)
            if m and any(n.strip().split(".")[-1] in names for n in m.group(1).split(",")):
                offenders.append(f"{path.name}:{i}: {line.strip()}")
    # history recording is the exception by design: a failure there is a warning, not an error
    offenders = [o for o in offenders if not o.startswith("history.py") or "HistoryError as e" not in o]
    allowed = {"options.py"}
    assert [o for o in offenders if o.split(":")[0] not in allowed] == []


def test_a_bad_fact_is_a_usage_error_in_one_sentence():
    r = CliRunner().invoke(cli, ["remedy", "ue8m0-pack-assert", "--fact", "nonsense"])
    assert r.exit_code == 2
    assert "Traceback" not in r.output and "Error:" in r.output


def test_a_missing_log_is_one_sentence_and_exit_1(tmp_path):
    r = CliRunner().invoke(cli, ["scan", str(tmp_path / "nope.log"), "--no-history"])
    assert r.exit_code == 1
    assert r.output.startswith("Error: ") and r.output.count("\n") == 1 and "nope.log" in r.output


def test_an_unreadable_checkpoint_is_one_sentence(tmp_path):
    r = CliRunner().invoke(cli, ["check", "--no-probe", "--model", str(tmp_path)])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert str(tmp_path) in r.output


def test_repro_bad_timeout_is_one_sentence():
    r = CliRunner().invoke(cli, ["repro", "--timeout", "0"])
    assert r.exit_code == 1
    assert "Error: the timeout must be a positive number of seconds." in r.output


def test_a_library_user_catches_the_base_class(tmp_path):
    from fp8triage.drivers.batch import scan_paths

    try:
        scan_paths([str(tmp_path / "missing.log")])
    except TriageError as e:
        assert "missing.log" in e.message
    else:
        raise AssertionError("no error for a missing log")
