"""`fp8triage check`: preflight risks for this machine (or the given facts) and a checkpoint."""
from __future__ import annotations

import sys

import click

from .exitcodes import exit_code
from .options import handle_errors
from ..render.formats import Options, formats, render_as

FAIL_ON = ("likely", "possible", "never")


class _FactsFrom(click.Choice):
    """live|dump|all. `log`, the name this choice had before (there is no log in a preflight), is
    still accepted and means dump."""

    def convert(self, value, param, ctx):
        return super().convert("dump" if value == "log" else value, param, ctx)


@click.command("check")
@click.option("--model", "model_dir", type=click.Path(),
              help="A model directory or Hugging Face cache snapshot: its quantization config and scale tensor "
                   "dtypes and shapes (safetensors headers only, no weights, no torch).")
@click.option("--fact", "fact_args", multiple=True, metavar="NAME=VALUE",
              help="A fact that overrides every other source, e.g. --fact gpu='NVIDIA B200' "
                   "--fact transformers=5.12.1 (`fp8triage facts` lists the names).")
@click.option("--env-file", "env_files", multiple=True, type=click.Path(dir_okay=False),
              help="An environment dump of the target machine (torch/vLLM collect_env, `transformers env`, "
                   "nvidia-smi output). Repeatable.")
@click.option("--facts-from", type=_FactsFrom(["live", "dump", "all"]), default=None,
              help="live: this machine's probe beats dumps (default without --env-file). dump: dumps beat the "
                   "probe (default with --env-file: the dump describes another machine). all: probe and dumps, "
                   "dumps win. --fact and the checkpoint always win.")
@click.option("--no-probe", is_flag=True, help="Do not probe this machine (judge only the given facts).")
@click.option("--torch", "use_torch", is_flag=True, help="Let the probe import torch (slower; CUDA version, capability).")
@click.option("--signatures", "signature_dirs", multiple=True, type=click.Path(file_okay=False),
              help="Also load signature files from this directory (repeatable).")
@click.option("--format", "fmt", type=click.Choice(formats("check")), default="text", show_default=True,
              help="Output format.")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default="likely", show_default=True,
              help="What makes the exit code 3: likely risks (every deciding fact holds), possible risks too "
                   "(some facts unknown), or never.")
@click.option("-v", "--verbose", is_flag=True, help="Also show ruled-out risks, supporting conditions and remedies that do not fit.")
@handle_errors
def check(model_dir, fact_args, env_files, facts_from, no_probe, use_torch, signature_dirs, fmt, fail_on, verbose):
    """Preflight: judge FP8 risks for this machine, stack and checkpoint before serving.

    Evaluates every signature that can be judged from facts alone (for example block-FP8 with
    float32 scales on a Blackwell GPU with an affected transformers and DeepGEMM enabled, a
    block-FP8 checkpoint on SM120 with a vLLM whose DeepGEMM lacks SM120, FP8 on a pre-Ada GPU)
    and reports each risk with the facts that decide it and the remedy. A checkpoint whose
    config.json and tensors disagree is a risk too.

    \b
    Examples:
      fp8triage check --model ./Qwen3-4B-FP8
      fp8triage check --model ./ckpt --fact gpu="NVIDIA B200" --fact transformers=5.12.1
      fp8triage check --env-file collect_env.txt --model ./ckpt --format json

    \b
    Exit codes: 0 no risk at the --fail-on level, 1 unreadable input (one sentence on stderr),
                2 usage error, 3 a risk was found.
    """
    from ..api import check as run_check
    result = run_check(facts=fact_args, model=model_dir, env_files=env_files, facts_from=facts_from,
                       probe=not no_probe, use_torch=use_torch, signatures=signature_dirs,
                       include_ruled_out=verbose or fmt == "json")
    code = exit_code([f.status.value for f in result.risks], 0, fail_on)
    click.echo(render_as("check", result, fmt, Options(verbose=verbose, exit_code=int(code))), nl=False)
    sys.exit(int(code))
