"""`fp8triage scan`: the main job."""
from __future__ import annotations

import sys

import click

from .exitcodes import FAIL_ON, Exit, exit_code
from .options import fact_options, handle_errors, jobs_option, stop_on_signals, use_color, write_output
from ..render.formats import formats

FORMATS = formats("scan")


@click.command("scan")
@click.argument("logs", nargs=-1, metavar="[LOG...|-]")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True, help="Output format.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="Write the report here instead of stdout.")
@fact_options
@click.option("--confirm", is_flag=True, help="Run the repro kernels that the findings name on this machine's GPU "
              "(or in CPU emulation) and mark reproduced findings as confirmed. Needs torch.")
@click.option("--device", type=click.Choice(["auto", "cuda", "cpu"]), default="auto", show_default=True,
              help="Where --confirm runs the repros.")
@click.option("--repro-timeout", type=float, default=120.0, show_default=True, help="Seconds per repro for --confirm.")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default="unknown", show_default=True,
              help="What makes the exit code non-zero: likely (confirmed or likely findings), possible (also possible "
                   "findings), unknown (also errors no signature knows), never.")
@click.option("-v", "--verbose", is_flag=True, help="Also show ruled-out findings, all facts and remedies that do not apply.")
@click.option("--color/--no-color", default=None, help="Colour the text output (default: only on a terminal; NO_COLOR is honoured).")
@click.option("--no-prefilter", "exhaustive", is_flag=True,
              help="Decode and assemble every line instead of only the neighbourhood of anchor hits (slow; for checking).")
@click.option("--follow", is_flag=True, help="Follow one growing file (survives rotation and truncation), a named pipe, or '-' (a pipe, "
              "e.g. kubectl logs -f): print each finding as soon as its event is complete (text, or one JSON object per "
              "line with --format json); Ctrl-C ends with a summary and the exit code.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="FP8TRIAGE_DB",
              help="History database to record this run in (default: $FP8TRIAGE_DB, else history.db in $FP8TRIAGE_DATA_DIR, else in $XDG_DATA_HOME/fp8triage).")
@click.option("--no-history", is_flag=True, help="Do not record this run in the history database.")
@click.option("--one-machine", is_flag=True,
              help="The logs all come from one machine: pool the facts read from them. By default each log "
                   "(file, or standard input) is one machine, judged on its own facts; --fact, --model, "
                   "--env-file and live facts apply to every log.")
@jobs_option
@click.option("--ray", "ray_address", is_flag=False, flag_value="local", default=None, metavar="[ADDRESS]",
              help="Scan on a Ray cluster: one task per file or object, and per 64 MiB range of a big one; the result "
                   "is the local scan's. ADDRESS: HOST:PORT, ray://HOST:PORT or auto (the cluster this machine "
                   "belongs to); without one, Ray starts on this machine. Needs the fleet extra.")
@handle_errors
@stop_on_signals
def scan(logs, fmt, output, fact_args, model_dir, env_files, facts_from, signature_dirs, confirm, device,
         repro_timeout, fail_on, verbose, color, exhaustive, follow=False, db_path=None, no_history=False, one_machine=False, jobs=1,
         ray_address=None):
    """Find the root cause of FP8 failures in server logs.

    LOG can be a file, a directory (searched for *.log, *.txt, *.gz, ...), a .gz file, a
    .tar, .tar.gz or .zip support bundle (each log in it is a log of its own), a named pipe or
    a process substitution (<(kubectl logs pod)), or "-" for standard input (also the default
    when input is piped). NUL padding and binary garbage inside a log are read around; a file
    with no text line is skipped with a warning. Plain text, Docker/k8s JSON
    lines (and structured loggers' records with the traceback in a field of its own),
    tab-separated log exports with a header row, `kubectl logs --prefix`, stern's "pod
    container" prefixes, docker compose prefixes, pastes indented as a whole, lines a
    terminal wrapped and ANSI colours are understood.

    LOG can also be a URL of an object or a prefix in object storage (s3://, gs://, file://;
    the fleet extra): every log object under a prefix is one machine, labelled by its pod or
    host folder.

    \b
    Examples:
      kubectl logs vllm-0 | fp8triage scan -
      fp8triage scan server.log other.log.gz --format json
      fp8triage scan server.log --fact gpu="NVIDIA B200" --model ./Qwen3-4B-FP8
      fp8triage scan --ray auto s3://logs/vllm-prod/ --format html -o fleet.html
      fp8triage scan --format jsonl s3://logs/vllm-prod/

    \b
    Exit codes: 0 nothing found, 1 error, 2 usage error,
                3 known root cause found, 4 only unknown errors found,
                5 nothing could be read (every input was skipped: binary,
                empty, an archive without logs),
                130 interrupted (Ctrl-C), 143/129 stopped by SIGTERM/SIGHUP.
    """
    from ..api import prepare

    if ray_address is not None and ray_address != "local":
        from ..drivers.rayscan import is_address

        if not is_address(ray_address):  # `--ray s3://b/p/`: the option took a log as its value
            logs, ray_address = (ray_address, *logs), "local"
    if not logs:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.UsageError("give a log file, a directory, or '-' to read standard input")
        logs = ("-",)
    prepared = prepare(facts=fact_args, model=model_dir, env_files=env_files, facts_from=facts_from,
                       signatures=signature_dirs)
    if follow:
        from .follow import run_follow

        if len(logs) != 1:
            raise click.UsageError("--follow takes exactly one file, or '-' for standard input")
        if ray_address is not None:
            raise click.UsageError("--follow reads one stream on this machine; it does not go together with --ray")
        sys.exit(run_follow(logs[0], prepared, prefer=facts_from, fmt=fmt, fail_on=fail_on, db_path=db_path,
                            no_history=no_history))
    from .progress import triage_with_progress

    result = triage_with_progress(logs, prepared=prepared, facts_from=facts_from, exhaustive=exhaustive, jobs=jobs,
                                  one_machine=one_machine, confirm=confirm, device=device,
                                  repro_timeout=repro_timeout, ray=ray_address)
    code = exit_code([f.status.value for f in result.findings], len(result.unknown), fail_on, result.nothing_read)
    write_output(output, render(result, fmt, code, verbose, use_color(color) and not output, fail_on))
    if output:
        top = result.findings[0].id if result.findings else "no known root cause"
        click.echo(f"fp8triage: {top}; report written to {output}", err=True)
    if not no_history:
        from .history import record_or_warn

        record_or_warn(result, code, db_path)
    sys.exit(int(code))


def render(result, fmt: str, code: Exit, verbose: bool, color: bool, fail_on: str = "unknown") -> str:
    """The scan report in ``fmt`` through the one format registry (``render.formats``)."""
    import shutil

    from ..render.formats import Options, render as render_format

    width = min(160, max(60, shutil.get_terminal_size((100, 24)).columns - 1))
    return render_format(result, fmt, Options(verbose=verbose, color=color, width=width, exit_code=int(code),
                                              exit_note=_exit_note(code, result, fail_on)))


def _exit_note(code: Exit, result=None, fail_on: str = "unknown") -> str:
    """The closing line: the exit code, and when it is 0 although something was found, why."""
    if code is Exit.KNOWN:
        return "exit 3: known root cause found"
    if code is Exit.UNKNOWN_ONLY:
        return "exit 4: only errors that no signature knows"
    if code is Exit.NOTHING_READ:
        return "exit 5: nothing could be read (every input was skipped); not a clean bill of health"
    if code is not Exit.OK:
        return f"exit {int(code)}"
    found = []
    if result is not None:
        statuses: dict[str, int] = {}
        for f in result.findings:
            statuses[f.status.value] = statuses.get(f.status.value, 0) + 1
        found = [f"{n} {s} finding{'s' if n != 1 else ''}" for s, n in statuses.items()]
        if result.unknown:
            n = len(result.unknown)
            found.append(f"{n} unknown error group{'s' if n != 1 else ''}")
    if not found:
        return "exit 0: nothing found"
    why = ("--fail-on never: the exit code is always 0" if fail_on == "never"
           else f"--fail-on {fail_on} does not count {'them' if len(found) > 1 or not found[0].startswith('1 ') else 'it'}")
    return f"exit 0: found {', '.join(found)}; {why}"
