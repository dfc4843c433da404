"""The mined component vocabularies (signatures/recognition/vocab/<component>.jsonl, written by
tools/mine_components.py): they parse, name only known components, keep every name in one component, carry
provenance, and hold the names a reader of an FP8 traceback would expect."""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RECOGNITION = ROOT / "signatures" / "recognition"
VOCAB = RECOGNITION / "vocab"
TYPES = {"function", "class", "kernel", "file", "env", "flag", "constant"}
SOURCE = re.compile(r"^[\w.-]+(?:@[\w./-]+|==[\w.+-]+):[\w./+-]+$")


def component_ids() -> set[str]:
    data = tomllib.loads((RECOGNITION / "components.toml").read_text())
    return {c["id"] for c in data["component"]}


def vocab_files() -> list[Path]:
    return sorted(VOCAB.glob("*.jsonl"))


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def names_of(cid: str) -> dict[str, dict]:
    return {r["name"]: r for r in load(VOCAB / f"{cid}.jsonl") if "name" in r}


def test_there_are_vocabularies():
    assert len(vocab_files()) >= 5


@pytest.mark.parametrize("path", vocab_files(), ids=lambda p: p.stem)
def test_vocab_file_parses_and_every_entry_has_provenance(path):
    assert path.stem in component_ids(), f"{path.name}: no component {path.stem!r} in components.toml"
    records = load(path)
    assert records, f"{path.name} is empty"
    for r in records:
        assert ("name" in r) != ("assert" in r), r
        if "name" in r:
            assert set(r) == {"name", "type", "sources"}, r
            assert r["type"] in TYPES, r
        else:
            assert set(r) == {"assert", "expr", "sources"}, r
            assert r["assert"].startswith("assert") and r["expr"], r
        assert 1 <= len(r["sources"]) <= 3, r
        for s in r["sources"]:
            assert SOURCE.match(s), f"{path.name}: provenance {s!r} is not <library>@<ref>:<path> or <library>==<version>:<path>"


@pytest.mark.parametrize("path", vocab_files(), ids=lambda p: p.stem)
def test_vocab_file_is_sorted_and_small(path):
    keys = [(r["name"].lower(), r["name"]) for r in load(path) if "name" in r]
    assert keys == sorted(keys)
    asserts = [r["assert"] for r in load(path) if "assert" in r]
    assert asserts == sorted(asserts)
    assert path.stat().st_size < 1_000_000


def test_vocabularies_together_stay_small():
    assert sum(p.stat().st_size for p in vocab_files()) < 3_000_000


def test_no_name_or_assert_is_in_two_components():
    seen: dict[str, str] = {}
    for path in vocab_files():
        for r in load(path):
            key = r.get("name") or r["assert"]
            assert seen.setdefault(key, path.stem) == path.stem, f"{key!r} is in {seen[key]} and {path.stem}"


def test_ambiguous_names_are_in_no_vocabulary():
    amb = [json.loads(line) for line in (RECOGNITION / "ambiguous.jsonl").read_text().splitlines()]
    dropped = {a["name"] for a in amb}
    for a in amb:
        assert len(a["components"]) >= 2, a
    for path in vocab_files():
        for r in load(path):
            assert (r.get("name") or r["assert"]) not in dropped, (path.stem, r)


@pytest.mark.parametrize("cid,name,typ", [
    ("deepgemm", "fp8_gemm_nt", "function"),
    ("deepgemm", "m_grouped_fp8_gemm_nt_contiguous", "function"),
    ("deepgemm", "DG_JIT_CACHE_DIR", "env"),
    ("deepgemm", "VLLM_USE_DEEP_GEMM", "env"),
    ("deepgemm", "sm90_fp8_gemm_1d2d_impl", "kernel"),
    ("flashinfer-fp8", "bmm_fp8", "function"),
    ("cutlass-fp8", "cutlass_scaled_mm", "function"),
    ("cutlass-fp8", "scaled_mm_entry.cu", "file"),
    ("fp8-quant-method", "Fp8LinearMethod", "class"),
    ("transformers-fp8", "FineGrainedFP8HfQuantizer", "class"),
])
def test_known_names_are_mined_into_their_component(cid, name, typ):
    names = names_of(cid)
    assert name in names, f"{name} is not in {cid}'s vocabulary"
    assert names[name]["type"] == typ


def test_fp4_names_do_not_land_in_an_fp8_component():
    """Format confusion: an FP4 kernel's name must not say an FP8 component failed."""
    fp8_components = [p.stem for p in vocab_files() if p.stem != "deepgemm-fp4"]
    for cid in fp8_components:
        for name in names_of(cid):
            assert not re.search(r"(?i)nvfp4|mxfp4|e2m1", name), f"{name} (FP4) is in {cid}"


def test_asserts_are_traceback_lines_with_their_expression():
    records = [r for p in vocab_files() for r in load(p) if "assert" in r]
    assert len(records) > 100
    for r in records:
        assert "\n" not in r["assert"] and r["assert"] == r["assert"].strip()
        first = r["assert"][len("assert"):].strip().split(",")[0].strip("( ")
        assert first[:10] in r["expr"] or r["expr"].startswith(first[:5]) or "(" in r["assert"], r
