"""Shared fixtures: the repo root, the public corpus (beside the repo in ../shared), the catalogue,
and the isolation of the user's data and cache directories (no test writes into them)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from corpuspath import corpus_dir, skip_without_corpus  # (relative to the checkout only, see corpuspath.py)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def catalogue():
    from fp8triage.catalogue.loader import load_catalogue

    return load_catalogue()


@pytest.fixture(scope="session")
def corpus() -> Path:
    c = corpus_dir()
    if c is None:
        skip_without_corpus()
    return c


# -- the user's own directories are never touched ------------------------------------------------

@pytest.fixture(scope="session", autouse=True)
def isolated_user_dirs(tmp_path_factory):
    """Every test (and every process a test starts with a copy of this environment) writes its
    history database and caches under a temporary directory, never into the user's own: HOME and
    the XDG directories point there too, so what other programs write (Chromium's crash reports
    in ~/.config/chromium, rustup's ~/.rustup/settings.toml, pip's cache) stays out of the real
    home (tests/e2e/test_user_dirs.py shows it). The user's pip configuration is still read
    (PIP_CONFIG_FILE): a package index or a wheel folder set there keeps working."""
    base = tmp_path_factory.mktemp("user-dirs")
    home = base / "home"
    home.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        pip_conf = _user_pip_config()
        if pip_conf is not None and "PIP_CONFIG_FILE" not in os.environ:
            mp.setenv("PIP_CONFIG_FILE", str(pip_conf))
        mp.setenv("HOME", str(home))
        mp.delenv("FP8TRIAGE_DB", raising=False)
        mp.setenv("FP8TRIAGE_DATA_DIR", str(base / "data"))
        mp.setenv("XDG_DATA_HOME", str(base / "xdg-data"))
        mp.setenv("XDG_CACHE_HOME", str(base / "xdg-cache"))
        mp.setenv("XDG_CONFIG_HOME", str(base / "xdg-config"))
        mp.setenv("XDG_STATE_HOME", str(base / "xdg-state"))
        mp.delenv("FP8TRIAGE_CACHE_DIR", raising=False)
        # a repro server the user keeps running (`fp8triage repro --serve`) is not asked by the tests
        mp.setenv("XDG_RUNTIME_DIR", str(base / "xdg-runtime"))
        mp.delenv("FP8TRIAGE_REPRO_SOCKET", raising=False)
        mp.delenv("FP8TRIAGE_REPRO_SERVER", raising=False)
        yield base


def _user_pip_config() -> Path | None:
    """The user's own pip configuration file, where pip looks for it."""
    home = Path.home()
    xdg = os.environ.get("XDG_CONFIG_HOME")
    for c in ([Path(xdg) / "pip" / "pip.conf"] if xdg else []) + [home / ".config" / "pip" / "pip.conf",
                                                                  home / ".pip" / "pip.conf"]:
        if c.is_file():
            return c
    return None


# -- running on several cores (`make test` runs `pytest -n 2`, with pytest-xdist) --------------------

@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Hand out whole test modules, so that each module's fixtures (a Chromium, the venv that
    test_install builds, the repro kernels' CPU runs) are set up once, and all of tests/fleet/ to
    one worker, so that the session's S3 server and Ray cluster start once. Only for xdist's
    default distribution (`--dist load`); another `--dist` given on the command line is kept."""
    if config.getoption("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ByModule(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return "tests/fleet/" if path.startswith("tests/fleet/") else path

    return ByModule(config, log)
