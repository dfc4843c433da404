"""docs/cli.md is generated from every command's --help; it must be current and complete."""
from __future__ import annotations

import click

from fp8triage.cli import cli
from fp8triage.cli import reference


def _commands():
    return [(" ".join(path), text) for path, text in reference._walk(cli, ["fp8triage"], None)]


def test_cli_reference_is_current():
    assert reference.reference_path().read_text(encoding="utf-8") == reference.render_reference(), (
        "docs/cli.md is stale: run  python -m fp8triage.cli.reference --write")


def test_every_command_is_documented_and_has_help():
    doc = reference.reference_path().read_text(encoding="utf-8")
    names = [name for name, _ in _commands()]
    assert {"fp8triage scan", "fp8triage report", "fp8triage signatures test", "fp8triage history"} <= set(names)
    for name, text in _commands():
        assert f"## `{name}`" in doc
        body = text.split("\n\n", 2)[1].strip() if "\n\n" in text else ""
        assert body and not body.startswith("Options:"), f"{name} has no help text"


def test_every_command_takes_h(capsys):
    for name, _ in _commands():
        args = name.split()[1:] + ["-h"]
        try:
            cli.main(args, prog_name="fp8triage", standalone_mode=False)
        except click.exceptions.Exit:
            pass
        assert "Usage: fp8triage" in capsys.readouterr().out, name


def test_check_mode_reports_a_stale_reference(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "cli.md"
    stale.write_text(reference.render_reference().replace("Find the root cause", "Find a cause"))
    monkeypatch.setattr(reference, "reference_path", lambda: stale)
    assert reference.main(["--check"]) == 1
    assert "stale" in capsys.readouterr().out
    assert reference.main(["--write"]) == 0 and reference.main(["--check"]) == 0
