"""docs/signatures.md is generated from the signature files and must not go stale."""
from __future__ import annotations

from fp8triage.authoring import sigtools


def test_docs_match_signature_files(catalogue, root):
    committed = (root / "docs" / "signatures.md").read_text(encoding="utf-8")
    assert committed == sigtools.render_docs(catalogue), (
        "docs/signatures.md is stale: run  python -m fp8triage.authoring.sigtools --write-docs"
    )


def test_docs_have_the_same_sections_for_every_signature(catalogue):
    text = sigtools.render_docs(catalogue)
    for s in catalogue.signatures:
        entry = text.split(f"\n## {s.id}\n", 1)[1].split("\n## ", 1)[0]
        for section in ("### What it is", "### Cause", "### Fix", "### Evidence", "### Conditions",
                        "### Remedies", "### Known problems", "### References"):
            assert section in entry, f"{s.id}: missing {section}"


def test_write_docs_check_mode(tmp_path, monkeypatch):
    target = tmp_path / "signatures.md"
    monkeypatch.setattr(sigtools, "docs_path", lambda: target)
    assert sigtools._main(["--check-docs"]) == 1  # absent: stale
    assert sigtools._main(["--write-docs"]) == 0
    assert sigtools._main(["--check-docs"]) == 0
