"""`fp8triage remedy ID`: the remedy actions of a signature for the current facts, for runbooks."""
from __future__ import annotations

import sys

import click

from .options import fact_options, handle_errors
from ..render.formats import formats, render_as

FORMATS = formats("remedy")


@click.command("remedy")
@click.argument("sig_id", metavar="ID")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="sh", show_default=True,
              help="sh: lines to eval (export VAR=value; other actions as comments); json: the actions "
                   "(fp8triage/schemas/remedy.schema.json); text: for people.")
@click.option("--all", "show_all", is_flag=True, help="Also list remedies whose conditions fail (as comments in sh).")
@fact_options
@handle_errors
def remedy(sig_id, fmt, show_all, fact_args, model_dir, env_files, facts_from, signature_dirs):
    """Print the remedy actions of signature ID for the current facts.

    Only remedies whose conditions hold or cannot be decided from the facts are printed, best
    first (those that hold before those that may fit). Facts come from --fact, --model,
    --env-file and, with --facts-from live|all, this machine. In sh format, environment
    variables are exported; every other action (install, config, code, notes) is a comment.
    When some remedy is known to fit, those that only may fit are comments too.

    \b
    Examples:
      eval "$(fp8triage remedy deepgemm-unknown-sf-transformation --fact stack=vllm)"
      fp8triage remedy deepgemm-unknown-sf-transformation --format json

    \b
    Exit codes: 0 remedies printed, 1 unknown ID or bad input, 2 usage error,
                5 no remedy fits the facts (nothing to apply).
    """
    from ..catalogue.loader import load_catalogue
    from ..facts.sources import gather
    from ..facts.vocabulary import resolve
    from ..judge.matcher import build_remedies

    cat = load_catalogue(signature_dirs)
    sig = cat.get(sig_id)
    if sig is None:
        from ..authoring.sigtools import did_you_mean

        raise click.ClickException(f"no signature with id {sig_id!r}{did_you_mean(sig_id, cat.ids)}")
    chosen, _conflicts = resolve(gather(fact_args, model_dir, env_files, facts_from).all, facts_from)
    remedies = build_remedies(sig, chosen)
    fitting = [r for r in remedies if r.applies.value != "fails"]
    # one already in force is listed (as a comment in sh) so that the reader knows it was tried
    shown = remedies if show_all else [r for r in remedies if r.applies.value != "fails" or r.in_force]
    from ..render.remedy import RemedyDoc

    click.echo(render_as("remedy", RemedyDoc(sig, shown, chosen), fmt), nl=False)
    sys.exit(0 if fitting else NO_REMEDY)


NO_REMEDY = 5  # documented in docs/json-contract.md

