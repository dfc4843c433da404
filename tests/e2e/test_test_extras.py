"""`make test` on a fresh machine skips nothing but the `gpu` marker (issue 16, item 15): every
optional module that a test skips without is declared where `make install-test` installs it, and
is installed here."""
from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# import name -> distribution name, where they differ
DIST = {"markdown_it": "markdown-it-py", "jinja2": "jinja2"}
# installed by the Makefile's install-test line rather than the extras (the CPU torch build)
MAKEFILE_ONLY = {"torch", "numpy"}


def _optional_modules() -> set[str]:
    mods: set[str] = set()
    for p in (ROOT / "tests").rglob("test_*.py"):
        if p.name == Path(__file__).name:
            continue
        for line in p.read_text().splitlines():
            mods |= set(re.findall(r"importorskip\(\s*[\"']([\w.]+)[\"']", line))
            if "skip" in line:  # @pytest.mark.skipif(... find_spec("x") is None ...)
                mods |= set(re.findall(r"find_spec\(\s*[\"']([\w.]+)[\"']\s*\)", line))
    return {m.split(".")[0] for m in mods}


def _declared() -> set[str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    reqs = meta["dependencies"] + meta["optional-dependencies"]["test"]
    return {re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0].lower() for r in reqs}


def test_the_modules_tests_skip_without_are_declared_and_installed():
    mods = _optional_modules()
    assert {"markdown_it", "triton", "torch"} <= mods  # the scan above finds them
    declared = _declared()
    make = (ROOT / "Makefile").read_text()
    for m in sorted(mods):
        if m in MAKEFILE_ONLY:
            assert re.search(rf"install-test.*\n(?:.*\n)*?.*pip install .*{m}", make), m
        else:
            assert DIST.get(m, m).lower() in declared, f"{m} is not in the test extras of pyproject.toml"
        assert importlib.util.find_spec(m) is not None, f"{m} is not installed: `make install-test` should install it"
