"""docs/architecture.md has one paragraph per sub-package that names every module in it, and names
no module that is gone; the stage packages do not import the command line."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "fp8triage"
DOC = ROOT / "docs" / "architecture.md"


def _sections() -> dict[str, str]:
    """Folder (relative to fp8triage/, "" for the top) -> its section's text."""
    text = DOC.read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(r"^### `fp8triage/`.*?$|^### `(\w+)/`.*?$", text, re.M):
        end = text.find("\n### ", m.end())
        end = text.find("\n## ", m.end()) if end < 0 else end
        out[m.group(1) or ""] = text[m.end(): end if end > 0 else len(text)]
    return out


def _packages() -> list[Path]:
    return [PKG] + sorted(p for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def test_every_sub_package_has_a_paragraph():
    sections = _sections()
    folders = {"" if p == PKG else p.name for p in _packages()}
    assert folders == set(sections), f"packages {sorted(folders)} vs sections {sorted(sections)}"


def test_every_module_is_named_in_its_package_paragraph():
    sections = _sections()
    missing = []
    for pkg in _packages():
        body = sections["" if pkg == PKG else pkg.name]
        for mod in sorted(pkg.glob("*.py")):
            if mod.name == "__init__.py" and pkg != PKG and pkg.name != "cli":
                continue  # a package's docstring is its paragraph's first line
            if f"`{mod.name}`" not in body:
                missing.append(str(mod.relative_to(PKG)))
    assert missing == [], f"docs/architecture.md does not name: {missing}"


def test_no_paragraph_names_a_module_that_is_gone():
    gone = []
    for folder, body in _sections().items():
        base = PKG / folder
        for name in re.findall(r"`(\w+\.py)`", body):
            if not (base / name).exists():
                gone.append(f"{folder or 'fp8triage'}/{name}")
    assert gone == []


def test_only_the_cli_imports_click():
    offenders = [str(p.relative_to(PKG)) for p in PKG.rglob("*.py")
                 if "cli" not in p.relative_to(PKG).parts and re.search(r"^\s*(import click|from click)", p.read_text(), re.M)]
    assert offenders == []


def test_the_tests_mirror_the_package():
    """tests/<stage>/ holds the tests of fp8triage/<stage>/; the other folders are named here
    (cross-cutting tests, the fleet services, shared data), so a stray folder fails."""
    tests = ROOT / "tests"
    others = {"e2e", "fleet", "fixtures", "golden", "__pycache__"}
    stages = {p.name for p in _packages() if p != PKG}
    folders = {p.name for p in tests.iterdir() if p.is_dir() and not p.name.startswith(".")}
    assert folders - others <= stages, f"test folders with no fp8triage sub-package: {sorted(folders - others - stages)}"
    for folder in folders - others:
        assert list((tests / folder).glob("test_*.py")), f"tests/{folder}/ holds no tests"
