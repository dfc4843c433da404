"""`fp8triage report`: a self-contained HTML (or Markdown) triage report to share."""
from __future__ import annotations

import sys

import click

from .options import fact_options, handle_errors, jobs_option, stop_on_signals, write_output
from ..render.formats import formats

FORMATS = formats("report")
DEFAULT_OUTPUT = {"html": "triage.html", "markdown": "triage.md"}
_SUFFIX_FORMAT = {".html": "html", ".htm": "html", ".md": "markdown", ".markdown": "markdown"}


def infer_format(fmt: str | None, output: str | None) -> str:
    """--format if given, else from the output file's suffix, else HTML."""
    if fmt:
        return fmt
    if output and output != "-":
        for suffix, f in _SUFFIX_FORMAT.items():
            if output.lower().endswith(suffix):
                return f
    return "html"


@click.command("report")
@click.argument("logs", nargs=-1, metavar="[LOG...|-]")
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Where to write the report ('-' for standard output). Default: triage.html, or triage.md "
                   "with --format markdown. Written only when the report is complete.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="html (one self-contained file) or markdown (for tickets and chat). Default: from the "
                   "output file's suffix, else html.")
@fact_options
@click.option("--confirm", is_flag=True, help="Run the repro kernels that the findings name on this machine's GPU "
              "(or in CPU emulation) and put their results and charts in the report. Needs torch.")
@click.option("--device", type=click.Choice(["auto", "cuda", "cpu"]), default="auto", show_default=True,
              help="Where --confirm runs the repros.")
@click.option("--repro-timeout", type=float, default=120.0, show_default=True, help="Seconds per repro for --confirm.")
@click.option("-v", "--verbose", is_flag=True,
              help="Also show ruled-out findings, remedies that do not fit the facts and whole error samples.")
@click.option("--one-machine", is_flag=True,
              help="The logs all come from one machine: pool the facts read from them. By default each log "
                   "(file, or standard input) is one machine, judged on its own facts; --fact, --model, "
                   "--env-file and live facts apply to every log.")
@jobs_option
@handle_errors
@stop_on_signals
def report(logs, output, fmt, fact_args, model_dir, env_files, facts_from, signature_dirs, confirm, device,
           repro_timeout, verbose, one_machine=False, jobs=0):
    """Write a self-contained HTML or Markdown triage report.

    Runs the same scan as `fp8triage scan` and writes what it found for people: the verdict,
    each finding with its evidence lines, the facts that decide it, the remedies ready to paste,
    repro results with charts, errors no signature knows, the environment facts and the run's
    metadata. The HTML file has no external resources and loads nothing from the network; log
    text is escaped, never executed.

    \b
    Examples:
      fp8triage report server.log -o triage.html
      kubectl logs vllm-0 | fp8triage report - -o triage.md
      fp8triage report logs/ --fact gpu="NVIDIA B200" --confirm -o triage.html

    \b
    Exit codes: 0 report written, 1 error (unreadable input, bad signature file,
                unwritable output), 2 usage error.
    """
    from .progress import triage_with_progress
    from ..render.formats import Options, render_as

    if not logs:
        if sys.stdin is None or sys.stdin.isatty():
            raise click.UsageError("give a log file, a directory, or '-' to read standard input")
        logs = ("-",)
    fmt = infer_format(fmt, output)
    output = output or DEFAULT_OUTPUT[fmt]
    result = triage_with_progress(logs, facts=fact_args, model=model_dir, env_files=env_files, facts_from=facts_from,
                    signatures=signature_dirs, jobs=jobs, one_machine=one_machine, confirm=confirm, device=device,
                    repro_timeout=repro_timeout)
    text = render_as("report", result, fmt, Options(verbose=verbose))
    write_output(output, text)
    click.echo(summary(result, fmt, output, len(text.encode("utf-8"))), err=True)


def summary(result, fmt: str, output: str, size: int) -> str:
    """The one line for stderr: what was found and where the report went."""
    where = "standard output" if output == "-" else output
    kind = "HTML" if fmt == "html" else "Markdown"
    top = result.top
    if top is not None:
        found = f"{top.id} ({top.status.value}, {top.severity.value})"
        if len(result.findings) > 1:
            found += f" and {len(result.findings) - 1} more finding{'s' if len(result.findings) > 2 else ''}"
    elif result.unknown:
        found = "no known root cause"
    else:
        found = "nothing found"
    if result.unknown:
        found += f", {len(result.unknown)} unknown error group{'s' if len(result.unknown) != 1 else ''}"
    return f"fp8triage: {found}; {kind} report ({size / 1024:.1f} KiB) written to {where}"
