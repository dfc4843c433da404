"""`make test` never writes into the user's own history database or caches (issue 16, item 2).

conftest.py points FP8TRIAGE_DATA_DIR and XDG_CACHE_HOME at a temporary directory for the whole
session; these tests show that the tool honours it, and that a scan run the way the tests run it
(in process, or in a child with a copy of the environment) writes nothing into the home directory."""
from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from fp8triage.store import history
from fp8triage.cli import cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"


def test_data_dir_variable_places_the_history_database(monkeypatch, tmp_path):
    monkeypatch.delenv("FP8TRIAGE_DB", raising=False)
    monkeypatch.setenv("FP8TRIAGE_DATA_DIR", str(tmp_path / "d"))
    assert history.resolve_path() == tmp_path / "d" / "history.db"
    monkeypatch.setenv("FP8TRIAGE_DB", str(tmp_path / "x.db"))
    assert history.resolve_path() == tmp_path / "x.db"  # the database path still beats the directory


def test_the_session_points_history_and_caches_away_from_home(isolated_user_dirs):
    db = history.resolve_path()
    assert isolated_user_dirs in db.parents and Path.home() not in db.parents
    assert isolated_user_dirs in Path(os.environ["XDG_CACHE_HOME"]).parents


def test_scans_as_the_tests_run_them_write_nothing_into_home(isolated_user_dirs, tmp_path):
    db = history.resolve_path()
    before = _runs(db)
    r = CliRunner().invoke(cli, ["scan", str(EXAMPLE)], catch_exceptions=False)
    assert r.exit_code == 3
    # a child with a copy of the test environment and a home of its own: nothing lands in that home
    home = tmp_path / "home"
    home.mkdir()
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(home))
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", str(EXAMPLE)], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 3, p.stderr
    assert _runs(db) == before + 2
    assert list(home.rglob("*")) == []


def _runs(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        return conn.execute("select count(*) from runs").fetchone()[0]


def test_one_cache_folder_honours_fp8triage_cache_dir(tmp_path, monkeypatch):
    """The search index and the schema-validation markers share one cache folder (paths.cache_dir)."""
    from fp8triage import paths
    from fp8triage.authoring import sigtools
    from fp8triage.catalogue import loader

    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path / "c"))
    assert paths.cache_dir() == tmp_path / "c"
    assert loader._validated_marker("abc").parent == tmp_path / "c"
    assert sigtools.index_path("v1").parent == tmp_path / "c"
    monkeypatch.delenv("FP8TRIAGE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert loader._validated_marker("abc").parent == sigtools.index_path("v1").parent == tmp_path / "x" / "fp8triage"


def test_the_session_moves_home_and_every_xdg_directory(isolated_user_dirs):
    """HOME and the XDG directories of every process a test starts point into the session's
    temporary directory: what other programs write there (Chromium's crash reports in
    ~/.config/chromium, rustup's ~/.rustup/settings.toml) never reaches the user's home."""
    assert Path(os.environ["HOME"]) == Path.home() == isolated_user_dirs / "home"
    for var in ("XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"):
        assert isolated_user_dirs in Path(os.environ[var]).parents, var
    p = subprocess.run([sys.executable, "-c", "import os, pathlib; print(pathlib.Path.home()); "
                        "print(os.environ['XDG_CONFIG_HOME'])"], capture_output=True, text=True, timeout=60)
    home, config = p.stdout.split()
    assert Path(home) == isolated_user_dirs / "home" and isolated_user_dirs in Path(config).parents
