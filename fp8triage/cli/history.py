"""`fp8triage history`: recurring findings and error groups from earlier runs."""
from __future__ import annotations

import click

from .options import handle_errors
from ..common.envelope import envelope
from ..render.formats import formats, render_as


def db_option(f):
    return click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="FP8TRIAGE_DB",
                        help="History database (default: $FP8TRIAGE_DB, else history.db in $FP8TRIAGE_DATA_DIR, else in $XDG_DATA_HOME/fp8triage).")(f)


@click.group("history", invoke_without_command=True)
@click.option("--signature", "signature", metavar="ID", help="Only this signature's findings and groups.")
@click.option("--status", type=click.Choice(["confirmed", "likely", "possible", "ruled-out", "unknown"]),
              help="Only findings/groups with this status (unknown: error groups no signature knows).")
@click.option("--since", metavar="7d|DATE", help="Only runs since then: 30m, 12h, 7d, 2w, or a date such as 2026-11-30.")
@click.option("--limit", type=click.IntRange(1, 10_000), default=50, show_default=True, help="At most this many rows per table.")
@click.option("--format", "fmt", type=click.Choice(formats("history")), default="text", show_default=True, help="Output format.")
@db_option
@click.pass_context
@handle_errors
def history(ctx, signature, status, since, limit, fmt, db_path):
    """Show recurring findings and error groups from earlier runs.

    Every `fp8triage scan` records its run, findings, error groups (by fingerprint) and the
    facts it used in the history database, unless given --no-history. Groups are ordered by
    how many runs saw them; the fingerprint of an unknown group is what `fp8triage signatures
    new ID --from-fingerprint FP` scaffolds a signature from.

    `fp8triage history import RESULT.json...` merges the JSON results of scans on other hosts
    (each run once), so the counts of hosts and runs cover the whole fleet.

    \b
    Examples:
      fp8triage history --since 7d
      fp8triage history --status unknown --format json
      fp8triage history --signature deepgemm-unknown-sf-transformation
      fp8triage history import results/*.json
    """
    if ctx.invoked_subcommand is not None:
        return
    from ..store.history import parse_since, query

    since_iso = parse_since(since) if since else None
    data = query(db_path, signature=signature, status=status, since=since_iso, limit=limit)
    if signature and not data["findings"] and not data["groups"]:
        from ..catalogue.loader import load_catalogue

        if load_catalogue().get(signature) is None:
            raise click.ClickException(
                f"no signature is named {signature!r}, and no recorded run has it; `fp8triage signatures list` shows the ids")
    data = {**envelope("history"),
            "filters": {"signature": signature, "status": status, "since": since_iso}, **data}
    click.echo(render_as("history", data, fmt), nl=False)


def record_or_warn(result, code, db_path, mode: str = "scan") -> int | None:
    """Record a run; on any history problem print one warning line on stderr and go on."""
    from ..store.history import HistoryError, record_run

    try:
        return record_run(result, int(code), path=db_path, mode=mode)
    except HistoryError as e:
        click.echo(f"fp8triage: warning: {e}; the run was not recorded (--no-history skips history)", err=True)
    except Exception as e:  # noqa: BLE001 - history must never cost the user the report
        click.echo(f"fp8triage: warning: the run was not recorded in history ({type(e).__name__}: {e})", err=True)
    return None


def scaffold_from_history(sig_id, fingerprint, sig_dir, db_path, anchor: str = ""):
    """`signatures new ID --from-fingerprint FP`."""
    from ..authoring.scaffold import scaffold_from_fingerprint

    if anchor:
        raise click.UsageError("--anchor and --from-fingerprint do not go together: the anchor comes from the group")
    return scaffold_from_fingerprint(sig_id, fingerprint, sig_dir, db_path)


def _import_command():
    from .history_import import history_import

    return history_import


history.add_command(_import_command(), "import")
