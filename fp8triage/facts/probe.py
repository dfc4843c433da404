"""Facts about the machine fp8triage runs on (origin "live").

Each source is tried on its own and degrades to fewer facts, never to an error:
nvidia-smi (GPU names, compute capability, driver, the driver's CUDA version), nvcc,
installed package versions (importlib.metadata, no imports), the Python version, the
environment variables that change FP8 dispatch (secret-looking values redacted), and,
only when asked (``use_torch=True``), torch itself, imported lazily.

``probe()`` returns a ``Probe`` that also records what was looked for and not found
(``absent``): a package that is not installed, or a dispatch variable that is not set,
is knowledge about *this* machine that preflight can use.
"""
from __future__ import annotations

import os
import platform
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Mapping

from ..common import gpus
from .vocabulary import DISPATCH_ENV_VARS, implied_facts, normalise_capability
from ..model import Fact
from ..common.redact import redact_env_value

TIMEOUT_S = 5.0

# fact name -> distribution names to try, most common first
PACKAGES: dict[str, tuple[str, ...]] = {
    "torch": ("torch",),
    "triton": ("triton", "pytorch-triton"),
    "transformers": ("transformers",),
    "kernels": ("kernels",),
    "vllm": ("vllm",),
    "sglang": ("sglang",),
    "deep_gemm": ("deep-gemm", "deep_gemm", "deepgemm"),
    "sgl_deep_gemm": ("sgl-deep-gemm", "sgl_deep_gemm"),
    "flashinfer": ("flashinfer-python", "flashinfer"),
    "compressed_tensors": ("compressed-tensors",),
    "tensorrt_llm": ("tensorrt-llm", "tensorrt_llm"),
}

@dataclass
class Probe:
    facts: list[Fact]
    absent: list[str] = field(default_factory=list)  # fact names looked for on this machine and not found
    notes: list[str] = field(default_factory=list)  # why a source gave nothing ("nvidia-smi not found")

    def to_dict(self) -> dict:
        return {"facts": [f.to_dict() for f in self.facts], "absent": self.absent, "notes": self.notes}


Runner = Callable[[list[str]], "str | None"]


def run_command(argv: list[str], timeout: float = TIMEOUT_S) -> str | None:
    """stdout of a command, or None if it is missing, fails, or runs past the timeout."""
    exe = shutil.which(argv[0]) if os.sep not in argv[0] else (argv[0] if os.access(argv[0], os.X_OK) else None)
    if exe is None:
        return None
    import subprocess  # here: a scan imports this module for its tables, and runs no command

    try:
        proc = subprocess.run(
            [exe, *argv[1:]], capture_output=True, text=True, timeout=timeout, errors="replace",
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if proc.returncode != 0:
        return None
    return proc.stdout


def probe(
    use_torch: bool = False,
    run: Runner = run_command,
    environ: Mapping[str, str] | None = None,
    version_of: Callable[[str], str | None] | None = None,
) -> Probe:
    """Collect live facts. ``run``, ``environ`` and ``version_of`` are seams for tests."""
    env = os.environ if environ is None else environ
    vers = version_of or _dist_version
    out = Probe([])
    if use_torch:
        _torch_facts(out)
    _nvidia_smi_facts(out, run)
    _nvcc_facts(out, run, env)
    _package_facts(out, vers)
    out.facts.append(Fact("python", platform.python_version(), "platform.python_version()", "live"))
    out.facts.append(Fact("os", f"{platform.system()} {platform.release()}".strip(), "platform", "live"))
    _env_facts(out, env)
    out.facts.extend(derive_capabilities(out.facts))
    return out


def live_facts(use_torch: bool = False) -> list[Fact]:
    """The facts of this machine (origin "live", derived capability origin "derived")."""
    return probe(use_torch=use_torch).facts


# --- nvidia-smi -----------------------------------------------------------------------------

_SMI_QUERY = ["nvidia-smi", "--query-gpu=name,compute_cap,driver_version", "--format=csv,noheader"]
_SMI_CUDA = re.compile(r"CUDA Version:\s*([0-9][0-9.]*)")
_SMI_DRIVER = re.compile(r"Driver Version:\s*([0-9][0-9.]*)")


def _nvidia_smi_facts(out: Probe, run: Runner) -> None:
    text = run(_SMI_QUERY)
    if text is None:
        out.notes.append("nvidia-smi not found or failed: no GPU facts from it")
        return
    rows = [[c.strip() for c in ln.split(",")] for ln in text.splitlines() if ln.strip()]
    rows = [r for r in rows if len(r) >= 3]
    if rows:
        names = [r[0] for r in rows]
        src = "nvidia-smi --query-gpu"
        distinct = sorted(set(names))
        gpu_src = src if len(distinct) == 1 else f"{src} (GPU 0 of {len(rows)}; also {', '.join(distinct[1:])})"
        out.facts.append(Fact("gpu", names[0], gpu_src, "live"))
        out.facts.append(Fact("gpu_count", str(len(rows)), src, "live"))
        cc = normalise_capability(rows[0][1])
        if cc:
            out.facts.append(Fact("capability", cc, f"{src} compute_cap (GPU 0)", "live"))
        if re.fullmatch(r"\d+(\.\d+)+", rows[0][2]):
            out.facts.append(Fact("driver", rows[0][2], src, "live"))
    header = run(["nvidia-smi"])
    if header:
        m = _SMI_CUDA.search(header)
        if m:
            out.facts.append(Fact("cuda", m.group(1), "nvidia-smi header (highest CUDA the driver supports)", "live"))
        if not rows:
            m = _SMI_DRIVER.search(header)
            if m:
                out.facts.append(Fact("driver", m.group(1), "nvidia-smi header", "live"))


# --- nvcc -----------------------------------------------------------------------------------

_NVCC = re.compile(r"release\s+([0-9.]+)(?:,\s*V([0-9.]+))?")


def _nvcc_facts(out: Probe, run: Runner, env: Mapping[str, str]) -> None:
    cands = ["nvcc"]
    for var in ("CUDA_HOME", "CUDA_PATH"):
        if env.get(var):
            cands.append(str(Path(env[var]) / "bin" / "nvcc"))
    cands.append("/usr/local/cuda/bin/nvcc")
    for exe in cands:
        text = run([exe, "--version"])
        if not text:
            continue
        m = _NVCC.search(text)
        if m:
            out.facts.append(Fact("nvcc", m.group(2) or m.group(1), f"{exe} --version", "live"))
            return
    out.notes.append("nvcc not found (on PATH, $CUDA_HOME/bin or /usr/local/cuda/bin)")


# --- packages -------------------------------------------------------------------------------


def _dist_version(name: str) -> str | None:
    import importlib.metadata as md  # ~20 ms: only when packages are probed

    try:
        return md.version(name)
    except md.PackageNotFoundError:
        return None
    except Exception:  # a broken installation's metadata must not stop the probe
        return None


def _package_facts(out: Probe, version_of: Callable[[str], str | None]) -> None:
    known = {f.name for f in out.facts}  # torch.__version__ (env --torch) already gave torch's
    for fact, dists in PACKAGES.items():
        if fact in known:
            continue
        for dist in dists:
            v = version_of(dist)
            if v:
                out.facts.append(Fact(fact, v, f"importlib.metadata: {dist}", "live"))
                if fact == "deep_gemm":
                    out.facts.append(Fact("deepgemm_source", "pip", f"importlib.metadata: {dist} is installed", "live"))
                break
        else:
            out.absent.append(fact)
    if "deep_gemm" in out.absent and "vllm" not in out.absent:
        where = _vendored_deep_gemm()
        if where:
            out.facts.append(Fact("deepgemm_source", "vendored", f"vLLM ships a copy at {where}", "live"))


def _vendored_deep_gemm() -> str | None:
    """Path of vLLM's vendored DeepGEMM, found from vLLM's installed files (vLLM is not imported)."""
    import importlib.metadata as md

    try:
        dist = md.distribution("vllm")
    except Exception:
        return None
    for rel in ("vllm/third_party/deep_gemm", "vllm/third_party/deep_gemm/__init__.py"):
        try:
            p = Path(str(dist.locate_file(rel)))
        except Exception:
            return None
        if p.exists():
            return str(p if p.is_dir() else p.parent)
    return None


# --- environment variables ------------------------------------------------------------------


def _env_facts(out: Probe, env: Mapping[str, str]) -> None:
    for var in DISPATCH_ENV_VARS:
        if var in env:
            out.facts.append(Fact(var, redact_env_value(var, env[var]), "environment", "live"))
        else:
            out.absent.append(var)


# --- torch (only when asked) ----------------------------------------------------------------


def _torch_facts(out: Probe) -> None:
    try:
        import torch  # noqa: PLC0415 - lazily, only for `env --torch` / use_torch=True
    except Exception as e:  # ImportError, or a broken CUDA install raising at import
        out.notes.append(f"torch could not be imported ({type(e).__name__}); no facts from it")
        return
    try:
        out.facts.append(Fact("torch", str(torch.__version__), "torch.__version__", "live"))
        cuda = getattr(torch.version, "cuda", None)
        if cuda:
            out.facts.append(Fact("cuda", str(cuda), "torch.version.cuda", "live"))
        if not torch.cuda.is_available():
            out.notes.append("torch sees no CUDA device")
            return
        n = torch.cuda.device_count()
        out.facts.append(Fact("gpu", torch.cuda.get_device_name(0), "torch.cuda.get_device_name(0)", "live"))
        out.facts.append(Fact("gpu_count", str(n), "torch.cuda.device_count()", "live"))
        major, minor = torch.cuda.get_device_capability(0)
        out.facts.append(Fact("capability", f"{major}.{minor}", "torch.cuda.get_device_capability(0)", "live"))
    except Exception as e:
        out.notes.append(f"torch.cuda query failed ({type(e).__name__}: {e})")


# --- derived --------------------------------------------------------------------------------


def derive_capabilities(facts: Iterable[Fact]) -> list[Fact]:
    """Capability facts derived from GPU names where no source of the same origin gave one.

    A capability derived from a live GPU name gets origin "derived"; one derived from a GPU
    named on the command line, in a log or in a dump keeps that origin, so that
    ``--fact gpu="NVIDIA B200"`` outranks the live probe's capability just as the name does.
    Also the facts another fact implies (``vocabulary.implied_facts``: a weight block size means
    block granularity), so every path that derives capabilities derives those too.
    """
    facts = list(facts)
    have_cc = {f.origin for f in facts if f.name == "capability"}
    derived: list[Fact] = []
    for f in facts:
        if f.name != "gpu":
            continue
        origin = "derived" if f.origin == "live" else f.origin
        if f.origin in have_cc or origin in have_cc:
            continue
        hit = gpus.capability_for(f.value)
        if hit is None:
            continue
        cc, arch = hit
        have_cc.add(origin)
        derived.append(Fact("capability", cc, f"derived ({arch}) from GPU name {f.value!r} at {f.source}", origin))
    return derived + implied_facts(facts + derived)
