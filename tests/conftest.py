"""Shared fixtures: the repo root, the public corpus (beside the repo in ../shared), the catalogue,
and the isolation of the user's data and cache directories (no test writes into them)."""
from __future__ import annotations

from pathlib import Path

import pytest

from corpuspath import corpus_dir  # noqa: F401 (relative to the checkout only, see corpuspath.py)

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
        pytest.skip("the public corpus (../shared/corpus) is not beside this checkout")
    return c


# -- the user's own directories are never touched ------------------------------------------------

@pytest.fixture(scope="session", autouse=True)
def isolated_user_dirs(tmp_path_factory):
    """Every test (and every process a test starts with a copy of this environment) writes its
    history database and caches under a temporary directory, never into the user's own
    (tests/e2e/test_user_dirs.py shows it)."""
    base = tmp_path_factory.mktemp("user-dirs")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("FP8TRIAGE_DB", raising=False)
        mp.setenv("FP8TRIAGE_DATA_DIR", str(base / "data"))
        mp.setenv("XDG_DATA_HOME", str(base / "xdg-data"))
        mp.setenv("XDG_CACHE_HOME", str(base / "xdg-cache"))
        mp.delenv("FP8TRIAGE_CACHE_DIR", raising=False)
        yield base


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
