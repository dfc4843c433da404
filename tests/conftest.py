"""Shared fixtures: the repo root, the public corpus (beside the repo in ../shared), the catalogue."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# relative to the checkout only: CI and every machine put the corpus beside it (../shared/corpus);
# some copies of a checkout carry it inside (shared/corpus)
CORPUS_CANDIDATES = [ROOT.parent / "shared" / "corpus", ROOT / "shared" / "corpus"]


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
