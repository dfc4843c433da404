"""Shared fixtures: the repo root, the public corpus (beside the repo in ../shared), the catalogue,
and the isolation of the user's data and cache directories (no test writes into them)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORPUS_CANDIDATES = [ROOT.parent / "shared" / "corpus", ROOT / "shared" / "corpus", Path("/work/shared/corpus")]


def corpus_dir() -> Path | None:
    for c in CORPUS_CANDIDATES:
        if (c / "cases").is_dir():
            return c
    return None


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def catalogue():
    from fp8triage.catalogue import load_catalogue

    return load_catalogue()


@pytest.fixture(scope="session")
def corpus() -> Path:
    c = corpus_dir()
    if c is None:
        pytest.skip("the public corpus (../shared/corpus) is not beside this checkout")
    return c


# -- the user's own directories are never touched ------------------------------------------------

# where fp8triage would write for the user running the tests, computed before any test changes
# the environment: the history database and the caches
USER_DIRS = {
    "data": (Path(os.environ["FP8TRIAGE_DATA_DIR"]).expanduser() if os.environ.get("FP8TRIAGE_DATA_DIR", "").strip()
             else Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "fp8triage"),
    "cache": Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "fp8triage",
}
if os.environ.get("FP8TRIAGE_DB", "").strip():
    USER_DIRS["db"] = Path(os.environ["FP8TRIAGE_DB"]).expanduser()


def _snapshot(path: Path) -> dict:
    if path.is_file():
        st = path.stat()
        return {str(path): (st.st_size, st.st_mtime_ns)}
    out = {}
    if path.is_dir():
        for p in sorted(path.rglob("*")):
            if p.is_file():
                st = p.stat()
                out[str(p)] = (st.st_size, st.st_mtime_ns)
    return out


@pytest.fixture(scope="session", autouse=True)
def isolated_user_dirs(tmp_path_factory):
    """Every test (and every process a test starts with a copy of this environment) writes its
    history database and caches under a temporary directory; the session fails if the user's own
    directories changed."""
    before = {k: _snapshot(p) for k, p in USER_DIRS.items()}
    base = tmp_path_factory.mktemp("user-dirs")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("FP8TRIAGE_DB", raising=False)
        mp.setenv("FP8TRIAGE_DATA_DIR", str(base / "data"))
        mp.setenv("XDG_DATA_HOME", str(base / "xdg-data"))
        mp.setenv("XDG_CACHE_HOME", str(base / "xdg-cache"))
        mp.delenv("FP8TRIAGE_CACHE_DIR", raising=False)
        yield base
    after = {k: _snapshot(p) for k, p in USER_DIRS.items()}
    changed = [k for k in USER_DIRS if before[k] != after[k]]
    assert not changed, f"the tests changed the user's own directories: {[str(USER_DIRS[k]) for k in changed]}"
