"""`fp8triage env`: this machine's facts and where each came from."""
from __future__ import annotations

import click


@click.command("env")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
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
    from ..render.facts_text import render_env_json, render_env_text

    result = probe(use_torch=use_torch)
    click.echo(render_env_json(result) if fmt == "json" else render_env_text(result), nl=False)
