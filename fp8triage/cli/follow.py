"""`fp8triage scan --follow`: print each notice from fp8triage.drivers.follow as it comes, then a summary."""
from __future__ import annotations

import signal
import sys
import uuid

import click

from .exitcodes import exit_code
from ..common.redact import redact
from ..render.follow import FollowSummary
from ..render.formats import Options, formats, render_as


def _raise_interrupt(_signum, _frame):
    raise KeyboardInterrupt


def run_follow(target: str, prepared, *, prefer: str, fmt: str, fail_on: str, db_path, no_history: bool,
               poll: float = 0.1, idle: float = 1.0) -> int:
    """Follow ``target`` with the catalogue and facts of ``prepared`` (``api.prepare``) until end of
    input or Ctrl-C (SIGINT/SIGTERM); returns the exit code."""
    from ..api import follow

    if fmt not in formats("follow"):
        raise click.UsageError(f"--follow prints text or JSON lines (--format {'|'.join(formats('follow'))})")
    if target != "-":
        import os

        if os.path.isdir(target):
            raise click.UsageError(f"--follow takes one file or '-', not a directory ({target})")
        if not os.path.exists(target):
            click.echo(f"fp8triage: {target} does not exist yet; waiting for it (Ctrl-C to stop)", err=True)
    name = "<stdin>" if target == "-" else target
    fl, notices = follow(target, prepared, facts_from=prefer, poll=poll, idle=idle)
    run_id = uuid.uuid4().hex
    options = Options(run_id=run_id, source=name)

    def show(n) -> str:
        return render_as("follow", n, fmt, options)

    old = signal.signal(signal.SIGTERM, _raise_interrupt)
    # Ctrl-C stops following even where the launcher ignored SIGINT (a background job of a non-interactive shell, a
    # test runner's worker): a process that inherits SIG_IGN would otherwise follow until killed
    old_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    interrupted = False
    try:
        for n in notices:
            _emit(fmt, show(n))
    except KeyboardInterrupt:
        interrupted = True
        try:
            for n in fl.finish():
                _emit(fmt, show(n))
        except KeyboardInterrupt:
            pass
    finally:
        signal.signal(signal.SIGTERM, old)
        signal.signal(signal.SIGINT, old_int)
    result = fl.result()
    result.meta["run_id"] = run_id
    for w in result.warnings:  # binary input, no text line: said once, on stderr (stdout is the notice stream)
        click.echo(f"fp8triage: warning: {redact(w)}", err=True)
    code = exit_code([f.status.value for f in result.findings], len(result.unknown), fail_on, result.nothing_read)
    if not no_history:
        from .history import record_or_warn

        record_or_warn(result, code, db_path, mode="follow")
    summary = FollowSummary(result, int(code), interrupted, fl.lines_total, run_id=run_id, source=name)
    _emit(fmt, render_as("follow-summary", summary, fmt))
    return int(code)


def _emit(fmt: str, text: str) -> None:
    """Print one record whole: SIGINT/SIGTERM wait until it is written and flushed (an interrupt
    in the middle of a flush would leave half a JSON line in the stream, the rest after the summary)."""
    block = getattr(signal, "pthread_sigmask", None)
    old = block(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM}) if block else None
    try:
        click.echo(redact(text) if fmt not in ("json", "jsonl") else text, nl=False)
        sys.stdout.flush()
    finally:
        if block:
            block(signal.SIG_SETMASK, old)

