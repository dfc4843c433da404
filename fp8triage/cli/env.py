"""`fp8triage env`: this machine's facts and where each came from."""
from __future__ import annotations

import click

from ..render.formats import formats, render_as


@click.command("env")
@click.option("--format", "fmt", type=click.Choice(formats("env")), default="text", show_default=True,
              help="Output format.")
@click.option("--torch", "use_torch", is_flag=True,
              help="Also import torch (slow) for its CUDA version, device name and capability.")
def env(fmt: str, use_torch: bool) -> None:
    """Show this machine's facts (GPU, compute capability, driver, CUDA, packages, dispatch
    environment variables) with the source of each.

    Works with fewer facts on a machine without a GPU, nvidia-smi or torch. torch is imported
    only with --torch. Secret-looking values are redacted.
    """
    from ..facts.probe import probe

    click.echo(render_as("env", probe(use_torch=use_torch), fmt), nl=False)
