"""The repository's docs describe the repository alone (issue 24, item 15).

No Markdown file of the checkout names a path outside it: no `../something` that leaves the
repository (the one exception is the optional public corpus beside a checkout, `../shared/corpus`,
which CI provides), and no absolute path of the machine a page was written on (a home or
workspace folder, or an absolute path to a file of this repository)."""
from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# folders that are not the repository's own docs: tool state, builds, the corpus copy some checkouts carry
SKIP = {".git", ".venv", "venv", "node_modules", "build", "dist", "shared", "__pycache__", ".hypothesis",
        ".pytest_cache", ".device-carry", "out"}
ALLOWED_UP = re.compile(r"^\.\./shared/corpus(?:/|$)")  # the optional public corpus beside a checkout
UP = re.compile(r"(?<![\w./-])((?:\.\./)+[\w.@+-]+(?:/[\w.@+-]+)*/?)")
LINK = re.compile(r"\]\(([^)\s]+)\)")
ABSOLUTE = re.compile(r"(?<![\w.~$/-])(/[\w.@+-]+(?:/[\w.@+-]+)+)")
# where a machine keeps a checkout or a user's files: such a path is the machine's, not the repository's
MACHINE_PREFIXES = ("/work/", "/home/", "/Users/", "/root/")
TOP_LEVEL = {p.name for p in ROOT.iterdir() if p.name not in SKIP and not p.name.startswith(".")}


def docs() -> list[Path]:
    out = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith(".")]
        out += [Path(folder) / f for f in files if f.endswith(".md")]
    return sorted(out)


def _inside(p: Path) -> bool:
    try:
        p.resolve().relative_to(ROOT)
        return True
    except ValueError:
        return False


def problems(doc: Path, text: str) -> list[str]:
    """The paths outside the repository that ``text`` (the content of ``doc``) names."""
    out = []
    links = {m.group(1).split("#", 1)[0] for m in LINK.finditer(text)}
    for m in UP.finditer(text):
        ref = m.group(1)
        if ref in links or any(link.endswith(ref) for link in links):
            if _inside(doc.parent / ref):  # a relative link is read from the page's folder
                continue
        elif (doc.parent / ref).exists() and _inside(doc.parent / ref):
            continue  # a path relative to the page that exists in the repository
        elif _inside(ROOT / ref):
            continue
        if ALLOWED_UP.match(ref) and not _inside(ROOT / ref):
            continue
        out.append(f"{ref} (outside the repository)")
    for m in ABSOLUTE.finditer(text):
        path = m.group(1)
        parts = path.strip("/").split("/")
        if path.startswith(MACHINE_PREFIXES):
            out.append(f"{path} (a folder of the machine the page was written on)")
            continue
        for i in range(1, len(parts)):
            if parts[i] in TOP_LEVEL and (ROOT / Path(*parts[i:])).is_file():
                out.append(f"{path} (this repository's {'/'.join(parts[i:])} by an absolute path)")
                break
    return out


def test_no_doc_names_a_path_outside_the_repository():
    found = {str(d.relative_to(ROOT)): problems(d, d.read_text(encoding="utf-8", errors="replace")) for d in docs()}
    found = {k: v for k, v in found.items() if v}
    assert not found, "docs name paths outside the repository:\n" + "\n".join(
        f"  {k}: {', '.join(v)}" for k, v in found.items())


def test_the_check_finds_what_it_is_for():
    doc = ROOT / "docs" / "architecture.md"
    assert problems(doc, "fp8triage follows the data flow of `../shared/design.md`.")
    assert problems(ROOT / "signatures" / "samples" / "README.md", "the facts in ../shared/domain.md")
    assert problems(doc, "`/opt/venv/bin/python3 /work/main/repro_kernels/ue8m0_scale_rounding.py`")
    assert problems(doc, "the checkout `/work/main`")
    assert problems(doc, "python3 /srv/ci/fp8triage/repro_kernels/ue8m0_scale_rounding.py")
    # what is fine: the corpus beside a checkout, links inside the repository, paths of a log excerpt
    assert not problems(doc, "the public corpus (`../shared/corpus/cases/NNN.log`, which CI provides)")
    assert not problems(doc, "see [the README](../README.md) and `tests/e2e/test_drift.py`")
    assert not problems(doc, 'File "/usr/local/lib/python3.12/dist-packages/vllm/utils/deep_gemm.py", line 494')
    assert not problems(doc, "python bench/mixes.py --out /tmp/k8s.log")
