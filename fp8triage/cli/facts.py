"""`fp8triage facts`: the fact vocabulary."""
from __future__ import annotations

import click


@click.command("facts")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="Output format.")
def facts(fmt: str) -> None:
    """List the fact names that signature conditions and --fact use, with their kind and meaning.

    Names are case-insensitive on the command line and the aliases shown are accepted
    (e.g. --fact cc=12.0 is --fact capability=12.0).
    """
    from ..facts.vocabulary import FACTS
    from ..render.facts_text import render_fact_specs_json, render_fact_specs_text

    specs = list(FACTS.values())
    click.echo(render_fact_specs_json(specs) if fmt == "json" else render_fact_specs_text(specs), nl=False)
