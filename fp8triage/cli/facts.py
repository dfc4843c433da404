"""`fp8triage facts`: the fact vocabulary."""
from __future__ import annotations

import click

from ..render.formats import formats, render_as


@click.command("facts")
@click.option("--format", "fmt", type=click.Choice(formats("facts")), default="text", show_default=True,
              help="Output format.")
def facts(fmt: str) -> None:
    """List the fact names that signature conditions and --fact use, with their kind and meaning.

    Names are case-insensitive on the command line and the aliases shown are accepted
    (e.g. --fact cc=12.0 is --fact capability=12.0).
    """
    from ..facts.vocabulary import FACTS

    click.echo(render_as("facts", list(FACTS.values()), fmt), nl=False)
