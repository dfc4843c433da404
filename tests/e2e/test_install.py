"""Install: a non-editable `pip install <repo>` into a fresh virtual environment, then the installed
command run from another directory on the bundled examples. A data folder or package file missing
from the wheel (signatures/, templates/, repro_kernels/, examples/, schemas) fails here.

Needs network access to PyPI for the dependencies (CI has it). Marked slow: about a minute.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    base = tmp_path_factory.mktemp("install")
    vdir = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(vdir)], check=True, timeout=300)
    py = vdir / "bin" / "python"
    env = clean_env()
    p = subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "--no-input", str(ROOT)], capture_output=True, text=True, env=env, cwd=base, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    return vdir


def clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["NO_COLOR"] = "1"
    return env


def run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv / "bin" / "fp8triage"), *args], capture_output=True, text=True,
                          env=clean_env(), cwd=cwd, timeout=300)


def installed_package(venv: Path) -> Path:
    p = subprocess.run([str(venv / "bin" / "python"), "-c", "import fp8triage, sys; print(fp8triage.__file__)"],
                       capture_output=True, text=True, env=clean_env(), cwd="/", timeout=60)
    assert p.returncode == 0, p.stderr
    return Path(p.stdout.strip()).parent


def test_installed_not_editable_and_carries_its_data(venv):
    pkg = installed_package(venv)
    assert str(pkg).startswith(str(venv)), pkg  # the wheel's copy, not this checkout
    for folder in ("signatures", "templates", "repro_kernels", "examples"):
        inst = pkg / "_data" / folder
        assert inst.is_dir(), f"{folder}/ is missing from the wheel"
        src_files = {p.relative_to(ROOT / folder) for p in (ROOT / folder).rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts}
        inst_files = {p.relative_to(inst) for p in inst.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
        missing = src_files - inst_files
        assert not missing, f"{folder}/: {sorted(map(str, missing))[:5]} not installed"
    for schema in (ROOT / "fp8triage" / "schemas").glob("*.json"):
        assert (pkg / "schemas" / schema.name).is_file(), schema.name


def test_scan_from_another_directory_on_a_bundled_example(venv, tmp_path):
    pkg = installed_package(venv)
    examples = sorted((pkg / "_data" / "examples").glob("*.log"))
    assert examples
    elsewhere = tmp_path / "somewhere" / "else"
    elsewhere.mkdir(parents=True)
    for ex in examples:
        p = run(venv, "scan", "--format", "json", str(ex), cwd=elsewhere)
        assert p.returncode in (0, 3, 4), p.stderr
        assert "Traceback" not in p.stderr
        doc = json.loads(p.stdout)
        assert doc["meta"]["signatures"] >= 20  # the bundled catalogue was found
        assert doc["inputs"][0]["lines"] > 0
    # the example the Makefile uses names its root cause
    p = run(venv, "scan", str(pkg / "_data" / "examples" / "vllm-rtx5090-unknown-sf.log"), cwd=elsewhere)
    assert p.returncode == 3, p.stdout + p.stderr
    assert "deepgemm-unknown-sf-transformation" in p.stdout


def test_installed_command_uses_templates_kernels_and_signatures(venv, tmp_path):
    pkg = installed_package(venv)
    ex = pkg / "_data" / "examples" / "vllm-rtx5090-unknown-sf.log"
    for fmt in ("html", "markdown"):
        p = run(venv, "scan", "--format", fmt, "-o", str(tmp_path / f"r.{fmt}"), str(ex), cwd=tmp_path)
        assert p.returncode == 3, p.stderr
        assert (tmp_path / f"r.{fmt}").stat().st_size > 1000
    p = run(venv, "repro", "--list", cwd=tmp_path)
    assert p.returncode == 0 and len(p.stdout.split()) >= 8, p.stdout + p.stderr
    p = run(venv, "signatures", "list", cwd=tmp_path)
    assert p.returncode == 0 and "deepgemm-unknown-sf-transformation" in p.stdout, p.stderr
    p = subprocess.run([str(venv / "bin" / "python"), "-m", "fp8triage", "--version"], capture_output=True,
                       text=True, env=clean_env(), cwd=tmp_path, timeout=60)
    assert p.returncode == 0 and "fp8triage" in p.stdout
