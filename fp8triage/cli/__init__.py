"""The command line. Commands live in one module each and are imported only when run,
so `fp8triage --help` and `fp8triage scan` stay fast."""
from __future__ import annotations

import importlib
import importlib.util

import click

from ..version import __version__

# command name -> "module:attribute" (relative to fp8triage.cli)
COMMANDS = {
    "scan": "scan:scan",
    "report": "report:report",
    "env": "env:env",
    "check": "check:check",
    "repro": "repro:repro",
    "signatures": "signatures:signatures",
    "history": "history:history",
    "remedy": "remedy:remedy",
    "facts": "facts:facts",
}

HELP = {
    "scan": "Find the root cause of FP8 failures in server logs.",
    "report": "Write a self-contained HTML or Markdown triage report.",
    "env": "Show this machine's facts (GPU, capability, packages, env vars) and where each came from.",
    "check": "Preflight: judge risks for this machine, stack and checkpoint before serving.",
    "repro": "Run bundled FP8 kernel reproductions on the local GPU (or in CPU emulation).",
    "signatures": "List, show, search, validate, test and scaffold failure signatures.",
    "history": "Show recurring findings and error groups from earlier runs.",
    "remedy": "Print the remedy actions for a signature, for the current facts.",
    "facts": "List the fact names that conditions and --fact use.",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx):
        return [n for n in COMMANDS if _available(n)]

    def get_command(self, ctx, name):
        target = COMMANDS.get(name)
        if target is None or not _available(name):
            return None
        mod, attr = target.split(":")
        return getattr(importlib.import_module(f"{__name__}.{mod}"), attr)

    def format_commands(self, ctx, formatter):
        rows = [(n, HELP.get(n, "")) for n in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _available(name: str) -> bool:
    mod = COMMANDS[name].split(":")[0]
    return importlib.util.find_spec(f"{__name__}.{mod}") is not None


CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(cls=LazyGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="fp8triage")
def cli():
    """Triage FP8 model-server failures.

    Reads server logs (files, directories, .gz, stdin), matches them against a catalogue of
    known FP8 GEMM failures (DeepGEMM, CUTLASS, cuBLAS, Triton, FlashInfer on transformers,
    vLLM and SGLang), names the root cause with its evidence and prints the remedy.

    \b
    Exit codes: 0 nothing found, 1 error, 2 usage error,
                3 known root cause found, 4 only unknown errors found.
    """


def main() -> None:
    cli(prog_name="fp8triage")
