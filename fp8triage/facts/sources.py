"""Every fact source a run names, gathered in one call: ``--fact``, the checkpoint (``--model``),
environment dumps (``--env-file``) and, when asked, the live probe of this machine.

Precedence between them is ``vocabulary.resolve``'s job; this module only reads them."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..errors import TriageError
from ..model import Fact


class FactSourceError(TriageError):
    """A named fact source cannot be used (an unreadable or unrecognised environment dump)."""


@dataclass
class Gathered:
    cli: list[Fact] = field(default_factory=list)  # --fact: beat every other source
    other: list[Fact] = field(default_factory=list)  # checkpoint, env dumps, live probe
    notes: list[str] = field(default_factory=list)  # problems that did not stop the run (checkpoint)

    @property
    def all(self) -> list[Fact]:
        return self.cli + self.other


def gather(fact_args: Iterable[str] = (), model_dir: str | None = None, env_files: Iterable[str] = (),
           facts_from: str = "log") -> Gathered:
    """Read the named sources. Raises FactError (a malformed ``NAME=VALUE``), CheckpointError or
    FactSourceError, each with one sentence naming the input at fault."""
    from .vocabulary import parse_cli_fact

    out = Gathered(cli=[parse_cli_fact(a) for a in fact_args])
    if model_dir:
        from .checkpoint import checkpoint_facts

        info = checkpoint_facts(model_dir)
        out.other.extend(info.facts)
        out.notes.extend(f"checkpoint: {p}" for p in info.problems)
    for ef in env_files:
        from .envdump import parse_env_dump

        try:
            text = Path(ef).read_text(encoding="utf-8", errors="replace")
        except OSError as e:
            raise FactSourceError(f"{ef}: cannot be read ({e.strerror or e})") from None
        got = parse_env_dump(text, ef)
        if not got:
            raise FactSourceError(
                f"{ef}: no environment dump recognised (expected torch/vLLM collect_env, `transformers env` or nvidia-smi output)"
            )
        out.other.extend(got)
    if facts_from in ("live", "all"):
        from .probe import live_facts

        out.other.extend(live_facts())
    return out
