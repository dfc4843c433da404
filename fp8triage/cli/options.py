"""Options shared by several commands, and turning typed errors into one clear sentence."""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import click



def fact_options(f):
    """--fact, --model, --env-file, --facts-from, --signatures."""
    f = click.option("--signatures", "signature_dirs", multiple=True, type=click.Path(file_okay=False),
                     help="Also load signature files from this directory (repeatable).")(f)
    f = click.option("--facts-from", type=click.Choice(["log", "live", "all"]), default="log", show_default=True,
                     help="log: facts from the log, checkpoint, env dumps and --fact (this machine is not probed; "
                          "the log may come from elsewhere). live: also probe this machine, and its facts beat the log's. "
                          "all: probe this machine too, but the log's facts win.")(f)
    f = click.option("--env-file", "env_files", multiple=True, type=click.Path(dir_okay=False),
                     help="An environment dump (torch/vLLM collect_env, `transformers env`, nvidia-smi) to read facts from.")(f)
    f = click.option("--model", "model_dir", type=click.Path(),
                     help="A model directory or Hugging Face cache snapshot: read its quantization config and "
                          "scale tensor dtypes (safetensors headers only, no weights).")(f)
    f = click.option("--fact", "fact_args", multiple=True, metavar="NAME=VALUE",
                     help="A fact that overrides every other source, e.g. --fact capability=12.0 "
                          "--fact gpu='NVIDIA B200' (`fp8triage facts` lists the names).")(f)
    return f


def jobs_option(f):
    """-j/--jobs for the commands that scan."""
    return click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
                        help="Worker processes for big inputs (0: one per CPU; 1: none). A file of 32 MB or more is "
                             "split into byte ranges scanned at once; the result is the same as with one process.")(f)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP stopped a command (``stop_on_signals``); ``exit_code`` is 128 + the signal."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.exit_code = 128 + signum


def stop_on_signals(fn):
    """SIGTERM and SIGHUP stop the command the way Ctrl-C does: ``handle_errors`` prints
    "interrupted" and exits 128 + the signal (a parallel scan installs its own handlers, which
    stop its workers first, and restores these; follow mode closes with its summary)."""

    @functools.wraps(fn)
    def wrapper(*a, **kw):
        import signal
        import threading

        if threading.current_thread() is not threading.main_thread():
            return fn(*a, **kw)

        def stop(signum, _frame):
            raise Stopped(signum)

        old = {s: signal.signal(s, stop) for s in (signal.SIGTERM, signal.SIGHUP)}
        try:
            return fn(*a, **kw)
        finally:
            for s, h in old.items():
                signal.signal(s, h)

    return wrapper


def handle_errors(fn):
    """The one place where the core's typed errors (``fp8triage.errors.TriageError``) become one
    sentence on stderr: exit code 2 for a fault in the command line's own words, else 1."""

    @functools.wraps(fn)
    def wrapper(*a, **kw):
        from ..errors import TriageError

        try:
            return fn(*a, **kw)
        except TriageError as e:
            if e.usage:
                raise click.UsageError(e.message) from None
            raise click.ClickException(e.message) from None
        except BrokenPipeError:
            # the reader went away (| head): not an error of ours
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except KeyboardInterrupt as e:
            # Ctrl-C: 130; SIGTERM/SIGHUP: 128 + the signal (Stopped, or parallel.Interrupted)
            click.echo("interrupted", err=True)
            sys.exit(getattr(e, "exit_code", 130))

    return wrapper


def use_color(flag: bool | None, stream=None) -> bool:
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    stream = stream or sys.stdout
    return hasattr(stream, "isatty") and stream.isatty()


def write_output(path: str | None, text: str) -> None:
    """Write to --output (only at the end, so a failed run leaves no file) or stdout."""
    if path and path != "-":
        tmp = Path(path + ".tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, path)
        except OSError as e:
            raise click.ClickException(f"{path}: cannot be written ({e.strerror or e})") from None
    else:
        # color=True: the renderer already chose (--color/--no-color, NO_COLOR, TTY); click would
        # otherwise strip the colour codes of an explicit --color whenever stdout is not a terminal
        click.echo(text, nl=False, color=True)
