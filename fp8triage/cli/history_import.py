"""`fp8triage history import`: merge scan results from many hosts into one history database."""
from __future__ import annotations

import click

from .options import handle_errors
from ..render.formats import formats, render_as


@click.command("import")
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False), metavar="RESULT.json...")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="FP8TRIAGE_DB",
              help="History database to merge into (default: $FP8TRIAGE_DB, else history.db in $FP8TRIAGE_DATA_DIR, "
                   "else in $XDG_DATA_HOME/fp8triage).")
@click.option("--format", "fmt", type=click.Choice(formats("history-import")), default="text", show_default=True,
              help="Output format of the import report.")
@handle_errors
def history_import(results, db_path, fmt):
    """Merge scan results from other hosts into the history database.

    Each RESULT is the output of `fp8triage scan --format json` (or `--format jsonl`) on some
    host. A run keeps its own time and host; a run already in the database (same run id) is
    skipped, so importing the same files again changes nothing. A file that is not a scan
    result is named with the reason, the others are still imported, and the exit code is 1.

    \b
    Examples:
      fp8triage history import results/*.json
      fp8triage history --since 7d       # then: runs and hosts across the fleet
    """
    from ..store.history_import import import_results

    rep = import_results(list(results), db_path)
    click.echo(render_as("history-import", rep, fmt), nl=False)
    for r in rep.failed:
        click.echo(f"fp8triage: {r['file']}: {r['error']}", err=True)
    if rep.failed:
        raise SystemExit(1)
