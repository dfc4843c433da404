"""`fp8triage signatures`: list, show, search, validate, test and scaffold failure signatures."""
from __future__ import annotations

import shlex
import sys
import time
from pathlib import Path

import click

from .options import handle_errors
from ..render.formats import formats, render_as

SIG_DIR = click.Path(exists=True, file_okay=False, path_type=Path)


def _load(sig_dir: Path | None):
    from ..authoring import sigtools

    return sigtools.load(sig_dir)


def dir_option(f):
    return click.option(
        "--dir", "sig_dir", type=SIG_DIR, default=None,
        help="A signature directory to use instead of the bundled catalogue (its samples in DIR/samples).",
    )(f)


@click.group("signatures", context_settings={"help_option_names": ["-h", "--help"]})
def signatures():
    """List, show, search, validate, test and scaffold failure signatures."""


@signatures.command("list")
@dir_option
@click.option("--format", "fmt", type=click.Choice(formats("signatures-list")), default="text", show_default=True)
@handle_errors
def list_cmd(sig_dir, fmt):
    """List every signature: id, severity, priority and title."""
    from ..authoring import sigtools

    rows = sigtools.summary_rows(_load(sig_dir))
    click.echo(render_as("signatures-list", rows, fmt), nl=False)
    if fmt != "json":
        click.echo(f"{len(rows)} signatures", err=True)


@signatures.command("show")
@click.argument("sig_id", metavar="ID")
@dir_option
@click.option("--format", "fmt", type=click.Choice(formats("signatures-show")), default="text", show_default=True)
@handle_errors
def show_cmd(sig_id, sig_dir, fmt):
    """Show one signature: summary, cause, fix, conditions, remedies, known problems,
    references and an excerpt of a real sample."""
    from ..authoring import sigtools

    info = sigtools.show(_load(sig_dir), sig_id, sig_dir)
    click.echo(render_as("signatures-show", info, fmt), nl=False)


@signatures.command("search")
@click.argument("text", nargs=-1, required=True)
@dir_option
@click.option("-n", "--limit", type=int, default=20, show_default=True)
@click.option("--format", "fmt", type=click.Choice(formats("signatures-search")), default="text", show_default=True)
@handle_errors
def search_cmd(text, sig_dir, limit, fmt):
    """Full-text search over the catalogue (ids, titles, causes, fixes, error texts, remedies).

    The catalogue is indexed once per catalogue version into a SQLite database in the cache
    directory ($FP8TRIAGE_CACHE_DIR, else $XDG_CACHE_HOME/fp8triage or ~/.cache/fp8triage)."""
    from ..authoring import sigtools

    rows = sigtools.search(" ".join(text), sig_dir, limit)
    if not rows and fmt != "json":  # JSON says so with an empty list
        click.echo(f"no signature mentions {' '.join(text)!r}", err=True)
        sys.exit(1)
    click.echo(render_as("signatures-search", rows, fmt), nl=False)


@signatures.command("validate")
@click.argument("sig_dir", required=False, type=SIG_DIR, metavar="[DIR]")
@click.option("--no-samples", is_flag=True, help="Do not require a match and a near-miss sample per signature.")
@handle_errors
def validate_cmd(sig_dir, no_samples):
    """Check signature files against the schema and their samples (default: the bundled catalogue).

    Each problem names the file, the key and what to write. Also checks that every match sample
    contains one of its signature's anchors, on the lines its primary pattern matches."""
    from ..authoring import sigtools

    problems = sigtools.validate(sig_dir, require_samples=not no_samples)
    if problems:
        for p in problems:
            click.echo(str(p), err=True)
        raise click.ClickException(f"{len(problems)} problem(s) in {sig_dir or sigtools.builtin_dir()}")
    n = len(sigtools.load(sig_dir).signatures)
    click.echo(f"{n} signatures valid", err=True)


@signatures.command("test")
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path), metavar="[PATH]")
@click.option("--id", "ids", multiple=True, help="Only this signature's samples (repeatable).")
@click.option("--no-cross", is_flag=True, help="Skip the catalogue-wide second-claimant check.")
@click.option("-v", "--verbose", is_flag=True, help="Print passing samples too.")
@handle_errors
def test_cmd(path, ids, no_cross, verbose):
    """Run every sample through the real scan pipeline (the harness CI uses).

    PATH is a signature directory (default: the bundled catalogue) or one signature file
    (tests only its samples). A match sample must make its signature the top finding (or the
    one right after the broader failure it refines); a near-miss must not produce it; and no
    other signature may claim a match sample with status likely (unless the sample's own
    signature outranks it by priority, or one of the two refines the other). A match sample
    with a pin (NAME.expect.json beside it) must also give the pinned status, evidence lines
    and condition facts; FP8TRIAGE_BLESS=1 rewrites the pins from this run (review the diff)."""
    from ..authoring import sigtools

    sig_dir = None
    if path is not None:
        if path.is_file():
            if path.suffix != ".toml":
                raise click.BadParameter("give a signature directory or a .toml signature file", param_hint="PATH")
            sig_dir, ids = path.parent, (path.stem,)
        else:
            sig_dir = path
    if sig_dir is not None and sig_dir.resolve() == sigtools.builtin_dir().resolve():
        sig_dir = None
    started = time.perf_counter()
    results = sigtools.test_samples(sig_dir, ids or None, cross=not no_cross)
    failed = [r for r in results if not r.ok]
    for r in results:
        if r.ok and not verbose:
            continue
        mark = "ok  " if r.ok else "FAIL"
        click.echo(f"{mark} [{r.check}] {r.name}: expected {r.expected}; got {_got(r.got)}"
                   + (f" — {r.detail}" if r.detail else ""))
    samples = len({r.sample.path for r in results})
    msg = f"{samples} samples, {len(results)} checks, {len(failed)} failed ({time.perf_counter() - started:.1f}s)"
    if not results:
        raise click.ClickException("no samples found; add samples/ID/match/*.log and samples/ID/near-miss/*.log")
    if failed:
        raise click.ClickException(msg)
    click.echo(msg, err=True)


def _got(got) -> str:
    return ", ".join(f"{i} ({s})" for i, s in got[:4]) or "no finding"


@signatures.command("new")
@click.argument("sig_id", metavar="ID")
@click.option("--dir", "sig_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to write it, created if missing (default: the user catalogue, signatures/ in the data "
                   "directory, which every scan loads).")
@click.option("--anchor", default="", help="Literal error text the evidence contains (seeds anchors and the regex).")
@click.option("--from-fingerprint", "fingerprint", metavar="FP", help="Start from an unknown error group in the history "
              "database (`fp8triage history --status unknown` lists them): its message becomes the pattern, its lines a match sample.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False), envvar="FP8TRIAGE_DB", help="History database for --from-fingerprint.")
@handle_errors
def new_cmd(sig_id, sig_dir, anchor, fingerprint=None, db_path=None):
    """Scaffold ID.toml (valid against the schema) and its sample folders, as a draft.

    The default folder is the user catalogue: signatures/ in the data directory
    ($FP8TRIAGE_DATA_DIR, else $XDG_DATA_HOME/fp8triage, else ~/.local/share/fp8triage), which
    every scan loads after the bundled catalogue. The file starts with `draft = true`: scans do
    not use it until that line is deleted; `signatures validate DIR` lists what is still missing."""
    from .. import paths
    from ..authoring import sigtools

    if fingerprint:
        from .history import scaffold_from_history

        made = scaffold_from_history(sig_id, fingerprint, sig_dir, db_path, anchor)
    else:
        made = sigtools.scaffold(sig_id, sig_dir, anchor)
    for p in made:
        click.echo(str(p))
    where = f" {shlex.quote(str(sig_dir if sig_dir is not None else paths.user_signatures_dir()))}"
    click.echo(f"a draft (scans do not use it yet): fill in the TODOs, add samples, run fp8triage signatures "
               f"validate{where} && fp8triage signatures test{where}, then delete the line `draft = true`", err=True)
