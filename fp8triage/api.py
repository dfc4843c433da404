"""The Python API: what `fp8triage scan`, `report`, `check` and `scan --follow` do, as library calls.

``triage`` reads the fact sources, loads the catalogue, scans, confirms on request, orders the
findings and redacts what the sources added; the commands differ only in defaults and in how they
print. ``follow`` is the same for a growing file or a pipe. Bad input raises a
``fp8triage.errors.TriageError`` whose message is one sentence. See docs/api.md.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from .catalogue.loader import Catalogue
from .model import Fact, ScanResult

if TYPE_CHECKING:
    from .judge.preflight import CheckResult

__all__ = ["Prepared", "prepare", "triage", "check", "follow"]


@dataclass
class Prepared:
    """What every run needs before it reads a log: the catalogue and the facts of its sources."""

    catalogue: Catalogue
    cli_facts: list[Fact]
    other_facts: list[Fact]
    notes: list[str]  # problems with the fact sources that did not stop the run

    @property
    def facts(self) -> list[Fact]:
        return self.cli_facts + self.other_facts


def prepare(*, facts: Iterable[str] = (), model: str | None = None, env_files: Iterable[str] = (),
            facts_from: str = "log", signatures: Iterable[str] = (), catalogue: Catalogue | None = None) -> Prepared:
    """Load the catalogue (bundled plus ``signatures`` folders, unless ``catalogue`` is given) and
    gather the facts: ``facts`` as ``NAME=VALUE`` strings (like ``--fact``), a checkpoint folder,
    environment dumps and, with ``facts_from`` "live" or "all", this machine's probe."""
    from .facts.sources import gather
    from .catalogue.loader import load_catalogue

    got = gather(facts, model, env_files, facts_from)
    cat = catalogue if catalogue is not None else load_catalogue(list(signatures))
    notes = list(got.notes)
    for d in cat.drafts:  # a scaffold not filled in yet is never matched: say so, once per run
        notes.append(f"signature {d.id} is a draft (draft = true in {d.path}) and was not used; "
                     f"`fp8triage signatures validate {d.path.parent}` says what is missing")
    return Prepared(cat, got.cli, got.other, notes)


def triage(
    inputs: Sequence[str],
    *,
    facts: Iterable[str] = (),
    model: str | None = None,
    env_files: Iterable[str] = (),
    facts_from: str = "log",
    signatures: Iterable[str] = (),
    catalogue: Catalogue | None = None,
    exhaustive: bool = False,
    jobs: int = 1,
    one_machine: bool = False,
    confirm: bool = False,
    device: str = "auto",
    repro_timeout: float = 120.0,
    progress: Callable[[int], None] | None = None,
    prepared: Prepared | None = None,
    ray: str | None = None,
) -> ScanResult:
    """Triage the logs ``inputs`` (files, directories, ``.gz``, or "-" for standard input).

    Returns the ``ScanResult``: findings most probable first, unknown error groups, the facts in
    force and their conflicts, the inputs and the warnings. ``confirm`` runs the repro kernels the
    findings name (needs torch) and re-orders the findings by their new status. ``jobs`` > 1 (0:
    one per CPU) scans big inputs in worker processes; the result is the same. ``ray`` (an address,
    "auto", or "local" to start Ray here) scans on a Ray cluster instead (drivers/rayscan.py); the
    result is the same again. ``inputs`` may also be object-storage URLs (s3://, gs://, file://)."""
    from .drivers.batch import scan_paths
    from .common.redact import redact

    p = prepared or prepare(facts=facts, model=model, env_files=env_files, facts_from=facts_from,
                            signatures=signatures, catalogue=catalogue)
    if ray is not None:
        from .drivers.rayscan import scan_paths_ray

        result = scan_paths_ray(list(inputs), address=ray, catalogue=p.catalogue, cli_facts=p.cli_facts,
                                extra_facts=p.other_facts, prefer=facts_from, exhaustive=exhaustive,
                                progress=progress, one_machine=one_machine, cpus=jobs or None)
    else:
        result = scan_paths(list(inputs), catalogue=p.catalogue, cli_facts=p.cli_facts, extra_facts=p.other_facts,
                            prefer=facts_from, exhaustive=exhaustive, progress=progress, jobs=jobs,
                            one_machine=one_machine)
    result.warnings.extend(redact(n) for n in p.notes)
    if confirm:
        from .confirm.repro import confirm_findings

        confirm_findings(result.findings, device=device, timeout=repro_timeout)
        result.findings.sort(key=lambda f: f.status.rank)
    return result


def check(*, facts: Iterable[str] = (), model: str | None = None, env_files: Iterable[str] = (),
          facts_from: str | None = None, probe: bool = True, use_torch: bool = False,
          signatures: Iterable[str] = (), catalogue: Catalogue | None = None,
          include_ruled_out: bool = False) -> CheckResult:
    """Preflight (what `fp8triage check` does): judge every signature that facts alone decide for
    this machine (``probe``; ``use_torch`` lets the probe import torch), the given ``facts``
    (``NAME=VALUE``), environment dumps and a checkpoint folder (``model``). ``facts_from``: "live"
    (the probe beats dumps; the default without ``env_files``), "dump" (the default with them) or
    "all"; ``facts`` and the checkpoint always win. Returns the risks (``CheckResult``)."""
    from .catalogue.loader import load_catalogue
    from .facts.sources import gather
    from .judge.preflight import preflight

    mode = facts_from or ("dump" if env_files else "live")
    got = gather(facts, None, env_files, "log")
    info = None
    if model:
        from .facts.checkpoint import checkpoint_facts

        info = checkpoint_facts(model)
    found = None
    if probe:
        from .facts.probe import probe as run_probe

        found = run_probe(use_torch=use_torch)
    cat = catalogue if catalogue is not None else load_catalogue(list(signatures))
    return preflight(cat, got.cli, got.other, checkpoint=info, probe=found, facts_from=mode,
                     include_ruled_out=include_ruled_out)


def follow(target: str, prepared: Prepared, *, facts_from: str = "log", poll: float = 0.1, idle: float = 1.0,
           stop: Callable[[], bool] = lambda: False):
    """Follow one growing file (or "-") with the catalogue and facts of ``prepared``.

    Returns ``(follower, notices)``: iterate ``notices`` for each finding, unknown error and
    consequence as soon as it is complete; ``follower.finish()`` flushes what is held at the end
    and ``follower.result()`` is the ``ScanResult`` so far."""
    from .drivers.follow import Follower, follow as _follow

    name = "<stdin>" if target == "-" else target
    fl = Follower(prepared.catalogue, name, prepared.facts, facts_from, idle)
    notices: Iterator = _follow(prepared.catalogue, target, poll=poll, idle=idle, stop=stop, follower=fl)
    return fl, notices
