"""Where the public corpus is: beside the checkout (../shared/corpus), as CI and every machine lay
it out, or inside a copy that carries it (shared/corpus). A module of its own, so that tests and
tools import it by a name no other conftest.py shadows."""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS_CANDIDATES = [ROOT.parent / "shared" / "corpus", ROOT / "shared" / "corpus"]


def corpus_dir() -> Path | None:
    for c in CORPUS_CANDIDATES:
        if (c / "cases").is_dir():
            return c
    return None


# the one reason every corpus test gives where the corpus is missing (README.md lists those tests)
MISSING = "needs the public corpus: ../shared/corpus is not beside this checkout (CI has it)"


def skip_without_corpus() -> None:
    """Skip the calling test with ``MISSING``; under CI (``CI`` set) fail instead, so that CI
    cannot pass without running the corpus tests."""
    import os

    import pytest

    if os.environ.get("CI"):
        pytest.fail(MISSING + "; CI must run the corpus tests")
    pytest.skip(MISSING)
