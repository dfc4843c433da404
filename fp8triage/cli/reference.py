"""docs/cli.md, generated from every command's own --help (so the reference cannot go stale).

    python -m fp8triage.cli.reference --write   # regenerate docs/cli.md
    python -m fp8triage.cli.reference --check   # exit 1 when docs/cli.md differs (the test suite runs this)
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

HEADER = ("# Command-line reference\n\nGenerated from each command's `--help` by "
          "`python -m fp8triage.cli.reference --write`; do not edit by hand.\n")


def _walk(cmd: click.Command, path: list[str], parent: click.Context | None):
    settings = {**cmd.context_settings, "terminal_width": 100, "max_content_width": 100}
    ctx = click.Context(cmd, info_name=path[-1], parent=parent, **settings)
    yield path, cmd.get_help(ctx)
    if isinstance(cmd, click.Group):
        for name in cmd.list_commands(ctx):
            sub = cmd.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _walk(sub, path + [name], ctx)


def render_reference() -> str:
    from . import cli

    parts = [HEADER]
    for path, text in _walk(cli, ["fp8triage"], None):
        title = " ".join(path)
        parts.append(f"\n## `{title}`\n\n```text\n{text.rstrip()}\n```\n")
    return "".join(parts)


def reference_path() -> Path:
    return Path(__file__).resolve().parents[2] / "docs" / "cli.md"


def main(argv: list[str]) -> int:
    if argv == ["--write"]:
        reference_path().write_text(render_reference(), encoding="utf-8")
        return 0
    if argv == ["--check"]:
        path = reference_path()
        same = path.is_file() and path.read_text(encoding="utf-8") == render_reference()
        print(f"{path.name} is up to date" if same else f"{path.name} is stale; run python -m fp8triage.cli.reference --write")
        return 0 if same else 1
    print("usage: python -m fp8triage.cli.reference --write | --check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
