"""`fp8triage repro [ID...]`: run the bundled FP8 repro kernels."""
from __future__ import annotations

import signal
import sys
import time

import click

from ..confirm import repro as R
from ..render.formats import Options, formats, render_as
from .options import handle_errors


@click.command("repro")
@click.argument("ids", nargs=-1, metavar="[ID]...")
@click.option("--device", type=click.Choice(R.DEVICES), default="auto", show_default=True,
              help="cuda: real FP8 kernels on the local GPU; cpu: emulation; auto: cuda when torch sees a GPU.")
@click.option("--format", "fmt", type=click.Choice(formats("repro")), default="text", show_default=True)
@click.option("--timeout", type=float, default=R.DEFAULT_TIMEOUT, show_default=True,
              help="Seconds each kernel may run before it is killed (verdict 'timeout').")
@click.option("--jobs", type=int, default=None,
              help="Worker processes at most (default: one per lane of kernels that share a worker, at most 6 and "
                   "the CPU count; with --isolate, kernels run at once).")
@click.option("--isolate", is_flag=True,
              help="Run every kernel in a fresh process instead of on warm worker processes (slower).")
@click.option("--kernel-dir", type=click.Path(file_okay=False), default=None, hidden=True,
              help="Run the kernels of another folder (tests).")
@click.option("--list", "list_only", is_flag=True, help="List the repro ids and exit.")
@click.option("--serve", is_flag=True,
              help="Keep started workers for later runs of this user (repro, scan --confirm) instead of running: "
                   "each run takes them and fresh ones are started in their place; stops when idle.")
@click.option("--idle", type=float, default=15.0, show_default=True, metavar="MINUTES",
              help="With --serve: stop after this many minutes without a run.")
@click.option("--stop", is_flag=True, help="Stop the repro server of this user.")
@click.option("-v", "--verbose", is_flag=True, help="Show the kernels' stderr tails.")
@handle_errors
def repro(ids, device, fmt, timeout, jobs, isolate, kernel_dir, list_only, serve, idle, stop, verbose):
    """Run FP8 kernel reproductions on the local GPU (or in CPU emulation).

    Repros run on warm worker processes (torch and the CUDA context loaded once per worker; a
    worker whose kernel crashes or hangs is replaced), each with a timeout, and report a verdict (reproduced,
    not-reproduced, not-executed, not-applicable, skipped, error, timeout), its metrics, the device and versions,
    and the command that re-runs it. With no ID, every repro runs.

    \b
    Exit codes: 0 all repros ran (whatever their verdicts), 1 bad input or torch missing.
    """
    from ..confirm import served

    if stop:
        click.echo("fp8triage repro: server stopped" if served.stop() else "fp8triage repro: no server is running",
                   err=True)
        return
    known = R.discover(kernel_dir)
    if serve:
        _serve(device, idle, kernel_dir)
        return
    if list_only:
        click.echo("\n".join(known))
        return
    todo = R.resolve_ids(ids, known)
    if timeout <= 0:
        raise R.ReproError("the timeout must be a positive number of seconds.")
    if jobs is not None and jobs < 1:
        raise R.ReproError("--jobs must be at least 1.")
    if not R.torch_available():
        click.echo(f"fp8triage repro: {R.NO_TORCH}", err=True)
        sys.exit(1)
    t0 = time.perf_counter()
    results = R.run_repros(todo, device=device, timeout=timeout, directory=kernel_dir, jobs=jobs, isolate=isolate)
    wall = round(time.perf_counter() - t0, 3)
    click.echo(render_as("repro", results, fmt, Options(verbose=verbose, device=device, wall_s=wall)), nl=False)


def _serve(device: str, idle: float, kernel_dir) -> None:
    """Start every lane's worker, then answer runs until idle (Ctrl-C or `fp8triage repro --stop` ends it)."""
    if idle <= 0:
        raise R.ReproError("--idle must be a positive number of minutes.")
    if not R.torch_available():
        click.echo(f"fp8triage repro: {R.NO_TORCH}", err=True)
        sys.exit(1)
    from ..confirm import server

    srv = server.Server(device, idle * 60, kernel_dir, log=lambda m: click.echo(f"fp8triage repro: {m}", err=True))
    srv.listen()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        took = srv.start_workers()
        click.echo(f"fp8triage repro: {len(srv.plan)} workers ready in {took:.1f} s; serving {srv.path} until idle "
                   f"for {idle:g} min (stop: fp8triage repro --stop)", err=True)
        srv.serve()
    except KeyboardInterrupt:
        pass
    finally:
        srv.close()
