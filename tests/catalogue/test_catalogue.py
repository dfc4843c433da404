"""The signature catalogue: the bundled files validate, and a broken file is reported with
the file, the key and what to write (through `fp8triage signatures validate`)."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.authoring import sigtools
from fp8triage.catalogue.conditions import FactCondition
from fp8triage.catalogue.loader import CatalogueError, load_catalogue
from fp8triage.cli import cli

FIXED_IDS = [
    "deepgemm-unknown-sf-transformation", "deepgemm-fp32-sf-sm100", "ue8m0-silent-corruption", "ue8m0-pack-assert",
    "deepgemm-fp4-requires-sm100", "deepgemm-unsupported-arch", "deepgemm-not-installed", "deepgemm-jit-compile-failure",
    "deepgemm-api-mismatch", "deepgemm-sf-layout-shape", "deepgemm-e8m0-disabled-on-blackwell", "e8m0-precision-loss",
    "fp8-unsupported-capability", "no-kernel-image-for-arch", "scaled-mm-layout", "blockwise-scaled-mm-unsupported-arch",
    "fp8-block-size-mismatch", "cutlass-fp8-unsupported-arch", "arch-specific-instruction-unsupported", "flashinfer-fp8",
    "fp8-attention-arch-gate", "deepgemm-multi-device-context", "deepgemm-illegal-address-gh200",
    "compressed-tensors-scheme-unsupported", "fp8-quant-config-invalid", "deepgemm-declined-fallback",
    "transformers-fp8-kernels-unavailable",
]

GOOD = '''id = "{id}"
title = "A test signature for the validator"
severity = "high"
summary = "A test signature used by tests/catalogue/test_catalogue.py."
cause = "Something went wrong in a test."
fix = "Nothing to fix: this is a test."

[evidence]
anchors = ["Frobnication failed"]

[[evidence.patterns]]
name = "main"
regex = \'\'\'Frobnication failed: (?P<fact_capability>\\d+)\'\'\'

[[conditions]]
fact = "capability"
capability = ">=9.0"
'''


def write_sig(d: Path, sig_id: str, text: str | None = None, sample: str | None = "RuntimeError: Frobnication failed: 90\n",
              near: str | None = "RuntimeError: something else\n") -> Path:
    d.mkdir(parents=True, exist_ok=True)
    f = d / f"{sig_id}.toml"
    f.write_text(text if text is not None else GOOD.format(id=sig_id), encoding="utf-8")
    if sample is not None:
        (d / "samples" / sig_id / "match").mkdir(parents=True, exist_ok=True)
        (d / "samples" / sig_id / "match" / "one.log").write_text(sample, encoding="utf-8")
    if near is not None:
        (d / "samples" / sig_id / "near-miss").mkdir(parents=True, exist_ok=True)
        (d / "samples" / sig_id / "near-miss" / "one.log").write_text(near, encoding="utf-8")
    return f


def validate_cli(d: Path):
    return CliRunner().invoke(cli, ["signatures", "validate", str(d)])


# -- the bundled catalogue ------------------------------------------------------------------------

@pytest.mark.slow
def test_bundled_catalogue_validates():
    assert sigtools.validate() == []


@pytest.mark.slow
def test_validate_command_passes_on_bundled_catalogue():
    r = CliRunner().invoke(cli, ["signatures", "validate"])
    assert r.exit_code == 0, r.output
    assert "signatures valid" in r.output


def test_catalogue_size_and_fixed_ids(catalogue):
    assert len(catalogue.signatures) >= 30
    missing = [i for i in FIXED_IDS if catalogue.get(i) is None]
    assert not missing, f"fixed ids missing from the catalogue: {missing}"


def test_what_a_signature_refines_or_yields_to_is_another_signature_of_the_catalogue(catalogue):
    def targets(s):
        return [fid for fid, _ in s.refines] + list(s.yields_to) + ([s.data["ruled_out_to"]] if "ruled_out_to" in s.data else [])

    bad = [f"{s.id} -> {t}" for s in catalogue.signatures for t in targets(s) if t == s.id or catalogue.get(t) is None]
    assert bad == []
    # a broader failure is one a runbook keys on: it refines nothing itself
    assert not [s.id for s in catalogue.signatures for fid, _ in s.refines if catalogue.get(fid).refines]


def test_every_signature_has_remedies_and_references(catalogue):
    for s in catalogue.signatures:
        assert s.remedies, f"{s.id} has no remedies"
        assert s.references or s.id.startswith("preflight-"), f"{s.id} has no references"


def test_declined_fallback_is_informational(catalogue):
    assert catalogue.get("deepgemm-declined-fallback").severity == "info"


def test_generic_no_kernel_image_loses_to_specific_signatures(catalogue):
    generic = catalogue.get("no-kernel-image-for-arch").priority
    assert all(s.priority >= generic for s in catalogue.signatures), "no-kernel-image-for-arch must have the lowest priority"


STACK_ENV_PREFIX = {"VLLM_": "vllm", "SGLANG_": "sglang", "SGL_": "sglang", "TRANSFORMERS_": "transformers"}


def _when_stack(r) -> set[str]:
    out: set[str] = set()

    def walk(conds):
        for c in conds:
            if isinstance(c, FactCondition):
                if c.fact == "stack" and c.test in ("equals", "in"):
                    out.update(c.values)
            else:
                walk(c.items)

    walk(r.when)
    return out


def test_stack_env_remedies_are_gated_on_their_stack(catalogue):
    """An environment variable of one serving stack is offered only when that stack is in use
    (or the signature applies to that stack alone)."""
    bad = []
    for s in catalogue.signatures:
        for r in s.remedies:
            a = r.table
            if a["kind"] != "env":
                continue
            stack = next((st for p, st in STACK_ENV_PREFIX.items() if a["name"].startswith(p)), None)
            if stack is None:
                continue
            if stack not in _when_stack(r) and s.stacks != [stack]:
                bad.append(f"{s.id}:{r.id} sets {a['name']} without when stack = {stack}")
    assert not bad, "\n".join(bad)


def test_experts_remedies_only_for_moe(catalogue):
    bad = []
    for s in catalogue.signatures:
        for r in s.remedies:
            code = r.table.get("code", "")
            if "experts_implementation" in code:
                if not any(isinstance(c, FactCondition) and c.fact == "moe" and c.test == "equals" and c.values == ("true",)
                           for c in r.when):
                    bad.append(f"{s.id}:{r.id}")
    assert not bad, f"experts remedies without a moe = true condition: {bad}"


def test_search_digest_matches_loader_version(catalogue):
    assert sigtools.catalogue_digest() == catalogue.version


# -- broken files ----------------------------------------------------------------------------------

def test_good_tmp_signature_validates(tmp_path):
    write_sig(tmp_path, "frob-failure")
    assert sigtools.validate(tmp_path) == []
    r = validate_cli(tmp_path)
    assert r.exit_code == 0, r.output


def test_bad_severity_names_file_key_and_what_to_write(tmp_path):
    f = write_sig(tmp_path, "frob-failure", GOOD.format(id="frob-failure").replace('severity = "high"', 'severity = "urgent"'))
    r = validate_cli(tmp_path)
    assert r.exit_code == 1
    assert str(f) in r.output
    assert "severity" in r.output
    assert 'write severity = "critical"' in r.output


def test_missing_key_says_what_to_write(tmp_path):
    text = GOOD.format(id="frob-failure").replace('fix = "Nothing to fix: this is a test."\n', "")
    f = write_sig(tmp_path, "frob-failure", text)
    probs = sigtools.validate(tmp_path)
    assert len(probs) == 1
    p = probs[0]
    assert p.file == str(f) and p.key == "(top level)"
    assert "missing key(s) fix" in p.message and "write" in p.message


def test_unknown_key_lists_allowed_keys(tmp_path):
    write_sig(tmp_path, "frob-failure", GOOD.format(id="frob-failure") + 'colour = "red"\n')
    (p,) = sigtools.validate(tmp_path)
    assert "unknown key(s) colour" in p.message and "allowed here" in p.message


def test_bad_regex_is_reported(tmp_path):
    text = GOOD.format(id="frob-failure").replace("(?P<fact_capability>\\d+)", "(?P<fact_capability>\\d+")
    f = write_sig(tmp_path, "frob-failure", text)
    (p,) = sigtools.validate(tmp_path)
    assert p.file == str(f)
    assert p.key == "evidence.patterns.0.regex"
    assert "does not compile" in p.message


def test_bad_version_specifier_is_reported(tmp_path):
    text = GOOD.format(id="frob-failure").replace('capability = ">=9.0"', 'capability = "=>9.0"')
    write_sig(tmp_path, "frob-failure", text)
    (p,) = sigtools.validate(tmp_path)
    assert p.key == "conditions.0"
    assert "not a PEP 440 specifier" in p.message and "write e.g." in p.message


def test_unknown_fact_in_condition(tmp_path):
    write_sig(tmp_path, "frob-failure", GOOD.format(id="frob-failure").replace('fact = "capability"', 'fact = "gpu_colour"'))
    (p,) = sigtools.validate(tmp_path)
    assert "unknown fact 'gpu_colour'" in p.message


def test_id_must_match_file_name(tmp_path):
    write_sig(tmp_path, "frob-failure", GOOD.format(id="other-id"), sample=None, near=None)
    probs = sigtools.validate(tmp_path, require_samples=False)
    assert any(p.key == "id" and "rename" in p.message for p in probs)


def test_duplicate_ids_across_directories(tmp_path):
    write_sig(tmp_path / "a", "frob-failure")
    write_sig(tmp_path / "b", "frob-failure")
    with pytest.raises(CatalogueError) as e:
        load_catalogue([tmp_path / "a", tmp_path / "b"], builtin=False)
    assert any(p.key == "id" and "already defined" in p.message for p in e.value.problems)


def test_primary_pattern_without_anchors(tmp_path):
    write_sig(tmp_path, "frob-failure", GOOD.format(id="frob-failure").replace('anchors = ["Frobnication failed"]', "anchors = []"))
    (p,) = sigtools.validate(tmp_path)
    assert p.key == "evidence.anchors" and "write the literal text" in p.message


def test_match_sample_without_anchor_is_reported(tmp_path):
    write_sig(tmp_path, "frob-failure", sample="RuntimeError: frobnication FAILED\n")
    (p,) = sigtools.validate(tmp_path)
    assert p.key == "evidence.anchors" and "one.log" in p.file


def test_missing_samples_are_reported(tmp_path):
    write_sig(tmp_path, "frob-failure", near=None)
    (p,) = sigtools.validate(tmp_path)
    assert p.key == "samples" and "no near-miss sample" in p.message


def test_sample_folder_without_signature(tmp_path):
    write_sig(tmp_path, "frob-failure")
    (tmp_path / "samples" / "no-such-sig" / "match").mkdir(parents=True)
    (p,) = sigtools.validate(tmp_path)
    assert "names no signature" in p.message


def test_bad_facts_sidecar(tmp_path):
    write_sig(tmp_path, "frob-failure")
    (tmp_path / "samples" / "frob-failure" / "match" / "one.facts").write_text("colour=red\n")
    (p,) = sigtools.validate(tmp_path)
    assert "one.facts" in p.file and "not a known fact" in p.message


# -- new / show / search / list -------------------------------------------------------------------

def test_new_scaffolds_a_valid_signature(tmp_path):
    r = CliRunner().invoke(cli, ["signatures", "new", "frob-failure", "--dir", str(tmp_path), "--anchor", "Frobnication failed"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "frob-failure.toml").exists()
    assert (tmp_path / "samples" / "frob-failure" / "match").is_dir()
    # it loads (the schema holds) as a draft, kept out of matching; validate says it is not done
    # while it is a draft and the TODO text is in it
    from fp8triage.catalogue.loader import load_catalogue

    loaded = load_catalogue([tmp_path])
    assert loaded.get("frob-failure") is None and [d.id for d in loaded.drafts] == ["frob-failure"]
    todo = sigtools.validate(tmp_path, require_samples=False)
    assert todo and {p.message for p in todo if p.key != "draft"} == {"still holds the scaffold's TODO text; write the real content"}
    assert {"draft", "title", "summary", "remedies.0.id"} <= {p.key for p in todo}
    f = tmp_path / "frob-failure.toml"
    f.write_text(f.read_text().replace("todo-remedy", "check-frob").replace("TODO", "Frobnication explained"))
    assert [p.key for p in sigtools.validate(tmp_path, require_samples=False)] == ["draft"]
    f.write_text(f.read_text().replace("draft = true\n", ""))
    assert sigtools.validate(tmp_path, require_samples=False) == []
    assert load_catalogue([tmp_path]).get("frob-failure") is not None
    # and validate with samples required says what is missing
    probs = sigtools.validate(tmp_path)
    assert {p.message.split(";")[0] for p in probs} == {"no match sample", "no near-miss sample"}
    again = CliRunner().invoke(cli, ["signatures", "new", "frob-failure", "--dir", str(tmp_path)])
    assert again.exit_code == 1 and "already exists" in again.output


def test_new_creates_a_missing_dir_and_its_hint_checks_that_dir(tmp_path):
    d = tmp_path / "my" / "sigs"
    r = CliRunner().invoke(cli, ["signatures", "new", "frob-failure", "--dir", str(d), "--anchor", "Frob failed"])
    assert r.exit_code == 0, r.output
    assert (d / "frob-failure.toml").is_file()
    assert f"fp8triage signatures validate {d} && fp8triage signatures test {d}" in r.stderr
    assert "draft = true" in r.stderr
    f = tmp_path / "file"
    f.write_text("x")
    r = CliRunner().invoke(cli, ["signatures", "new", "frob-failure", "--dir", str(f)])
    assert r.exit_code != 0 and "Traceback" not in r.output


def test_new_rejects_bad_id(tmp_path):
    r = CliRunner().invoke(cli, ["signatures", "new", "Bad_ID", "--dir", str(tmp_path)])
    assert r.exit_code == 1 and "kebab-case" in r.output


def test_show_has_every_section():
    r = CliRunner().invoke(cli, ["signatures", "show", "ue8m0-pack-assert"])
    assert r.exit_code == 0, r.output
    for section in ("Summary", "Cause", "Fix", "Conditions", "Remedies", "Known problems", "References", "Sample (samples/ue8m0-pack-assert/match/corpus-005.log)"):
        assert section in r.output
    assert "0x807fffffu" in r.output  # the real sample's excerpt


def test_show_unknown_id_suggests():
    r = CliRunner().invoke(cli, ["signatures", "show", "deepgemm-unknown-arch"])
    assert r.exit_code == 1 and "did you mean" in r.output and "\nTraceback" not in r.output


@pytest.mark.parametrize("cmd", [["signatures", "show"], ["remedy"]])
def test_unknown_id_suggests_the_closest_ids_not_the_first_in_the_alphabet(cmd):
    """issue 24, item 12: a typo gets the id it is closest to; nothing close gets the list command."""
    r = CliRunner().invoke(cli, [*cmd, "ue8m0packassert"])
    assert r.exit_code == 1 and "did you mean ue8m0-pack-assert?" in r.output
    assert "arch-specific-instruction-unsupported" not in r.output
    r = CliRunner().invoke(cli, [*cmd, "zzzz"])
    assert r.exit_code == 1 and "did you mean" not in r.output and "signatures list" in r.output


def test_list_lists_every_signature(catalogue):
    r = CliRunner().invoke(cli, ["signatures", "list", "--format", "json"])
    assert r.exit_code == 0
    import json

    assert sorted(x["id"] for x in json.loads(r.stdout)) == sorted(catalogue.ids)


@pytest.mark.slow
def test_search_finds_sf_transformation_quickly(tmp_path, monkeypatch):
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    sigtools.search("warm up")  # builds the index once for this catalogue version
    t = time.perf_counter()
    rows = sigtools.search("SF transformation")
    elapsed = time.perf_counter() - t
    assert rows[0]["id"] == "deepgemm-unknown-sf-transformation"
    assert elapsed < 0.5, f"search took {elapsed:.2f}s"
    assert list(tmp_path.glob("catalogue-*.db"))


def test_search_cli(tmp_path, monkeypatch):
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    r = CliRunner().invoke(cli, ["signatures", "search", "0x807fffff"])
    assert r.exit_code == 0 and r.output.splitlines()[0].startswith("ue8m0-pack-assert")
    r = CliRunner().invoke(cli, ["signatures", "search", "zzzznotaword"])
    assert r.exit_code == 1


def test_search_index_follows_catalogue_changes(tmp_path, monkeypatch):
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path / "cache"))
    d = tmp_path / "sigs"
    write_sig(d, "frob-failure")
    assert [r["id"] for r in sigtools.search("Frobnication", d)] == ["frob-failure"]
    f = d / "frob-failure.toml"
    f.write_text(f.read_text().replace("Something went wrong in a test.", "Grommets exploded in a test."))
    assert [r["id"] for r in sigtools.search("grommets", d)] == ["frob-failure"]


# -- search words a user types for GPUs and model numbers (issue 16, item 13) ----------------------

@pytest.mark.parametrize("query", ["5090", "RTX 5090", "RTX5090", "2x RTX 5090", "rtx 5090"])
def test_search_finds_gpu_model_numbers(tmp_path, monkeypatch, query):
    """A reference names "2x RTX 5090"; a user types the number alone, with or without the brand, glued or not."""
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    ids = [r["id"] for r in sigtools.search(query)]
    assert "deepgemm-unknown-sf-transformation" in ids, (query, ids)


def test_search_by_gpu_name_finds_signatures_of_its_capability(tmp_path, monkeypatch):
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    ids = [r["id"] for r in sigtools.search("GB10")]  # SM121: no signature text needs to name it
    assert "deepgemm-unknown-sf-transformation" in ids
    hopper = [r["id"] for r in sigtools.search("H200")]
    assert "deepgemm-unknown-sf-transformation" not in hopper  # its capability condition excludes SM90
    rows = sigtools.search("5090")
    assert not any("5060" in r["snippet"] for r in rows)  # the added search words are not shown as a snippet


@pytest.mark.parametrize("gpu, cc", [("A16", "8.6"), ("V100", "7.0"), ("RTX 3060", "8.6"), ("L20", "8.9")])
def test_search_and_log_facts_share_one_gpu_table(tmp_path, monkeypatch, gpu, cc):
    """A GPU the log facts know (an A16 is SM86: no FP8 hardware) finds the signatures of its
    capability in a search too; the search had a table of its own that lacked these."""
    from fp8triage.common.gpus import capability_for

    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path))
    assert capability_for(f"NVIDIA {gpu}")[0] == cc
    ids = [r["id"] for r in sigtools.search(gpu)]
    if gpu == "L20":  # SM89: FP8 hardware, so not the pre-Ada signature
        assert "fp8-unsupported-capability" not in ids
    else:
        assert "fp8-unsupported-capability" in ids, (gpu, ids)


def test_show_numbers_remedies_in_order_not_by_rank():
    """issue 16, item 14: ranks (10, 10, 20, 40) are an ordering, not numbers to show."""
    r = CliRunner().invoke(cli, ["signatures", "show", "deepgemm-unknown-sf-transformation"])
    assert r.exit_code == 0
    block = r.output.split("\nRemedies\n", 1)[1].split("\n\n", 1)[0]
    numbers = [ln.split(".", 1)[0].strip() for ln in block.splitlines() if ln[:5].strip().rstrip(".").isdigit()]
    assert numbers == [str(i) for i in range(1, len(numbers) + 1)] and len(numbers) >= 3
