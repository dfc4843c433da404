"""Coverage of the mined message inventory (signatures/messages/*.jsonl, tools/mine_messages.py).

Every message the libraries can print that the inventory maps to a signature must, with its
placeholders filled with realistic values and inside the line the library really prints it in
(``RuntimeError: ...``, a logger prefix, a TensorRT-LLM assertion), be named by that signature as the top
finding, and no other signature may produce a finding for it. The bare sentence, without that context,
must be named by the same signature or by none (some signatures deliberately need the exception type: the
same sentence is quoted inside fallback warnings). Messages judged unrelated must not get a likely or
confirmed finding from any signature, bare or in context.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from packaging.version import InvalidVersion, Version

from fp8triage.authoring.samples import leading_at
from fp8triage.catalogue.loader import load_catalogue
from fp8triage.model import Status
from fp8triage.drivers.batch import scan_text

ROOT = Path(__file__).resolve().parents[2]
INVENTORY = ROOT / "signatures" / "messages"
# the libraries docs/inventory.md reports; each must have a checked-in inventory
LIBRARIES = ("deepgemm", "flashinfer", "fbgemm", "cutlass", "vllm", "sglang", "sgl-kernel", "sgl-deep-gemm",
             "transformers", "compressed-tensors", "torch")


def _records() -> list[dict]:
    out = []
    for path in sorted(INVENTORY.glob("*.jsonl")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            rec = json.loads(line)
            rec["_where"] = f"{path.name}:{n}"
            out.append(rec)
    return out


RECORDS = _records()

# Sample values by placeholder name (first matching rule); chosen to be what a real log carries.
VALUES = [
    (r"^(?:major|cc_major|arch_major|device_major|sm_major)$", "12"),
    (r"^(?:minor|cc_minor|sm_minor)$", "0"),
    (r"(?i)capab|^cc$|^sm$|sm_version|arch$|^arch_|compute_cap|device_arch", "120"),
    (r"(?i)dtype|type$", "torch.float32"),
    (r"(?i)block_size|block_shape|weight_block", "[128, 128]"),
    (r"(?i)shape|sizes?$|tuple", "(7168, 2048)"),
    (r"(?i)version", "2.6.0"),
    (r"(?i)method|quant|scheme|name|backend|impl|format|fmt|mode|layer|prefix|key", "fp8"),
    (r"(?i)^(?:e|err|error|exc|reason|msg|message)$", "Assertion error (csrc/apis/gemm.hpp:42): n % 128 == 0"),
    (r"(?i)src_path|kernel_path", "/root/.deep_gemm/cache/kernel.gemm_fp8_fp8_bf16_nt.4f3a/kernel.cu"),
    (r"(?i)path|dir|home|file", "/usr/local/cuda"),
]


def sample_value(name: str, rec: dict, before: str = "") -> str:
    if re.search(r"requires $", before) and name in ("arch", "arch_name"):
        return "Hopper (SM90) or Blackwell (SM100)"
    if re.search(r"(?i)current capability: $", before):
        return "75"           # the check fires only below the minimum
    if re.search(r"(?i)(?:min(?:imum)?|required) capability: $", before) or re.search(r"(?i)^min_cap", name):
        return "89"
    if (re.search(r"(?i)capability:? $", before) or re.search(r"SM ?$|sm_$", before)) and not re.search(
            r"major|minor", name):
        return "120"
    if re.search(r"(?i)major_versions", name):
        return "[9, 10]"
    if name == "file":
        loc = rec["location"].rsplit(":", 1)[0]
        return loc if "/" in loc else f"csrc/{loc}"
    if name == "line":
        tail = rec["location"].rsplit(":", 1)
        return tail[1] if len(tail) == 2 and tail[1].isdigit() else "42"
    for rx, value in VALUES:
        if re.search(rx, name):
            return value
    return "128"


def render(rec: dict) -> str:
    tmpl = rec["template"]
    return re.sub(r"\{(\w*)\}", lambda m: sample_value(m.group(1), rec, tmpl[:m.start()]), tmpl)


def contexts(rec: dict) -> list[str]:
    """The bare message and the line the library prints it in."""
    msg = render(rec)
    loc = rec["location"]
    base = Path(loc.rsplit(":", 1)[0]).name
    line = sample_value("line", rec)
    compiled = bool(re.search(r"\.(?:so[.\d]*|cu|cuh|cpp|cc|h|hpp)(?::\d+)?$", loc))
    if "tensorrt_llm" in loc and compiled:
        ctx = f"RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: {msg} (/src/tensorrt_llm/cpp/{base}:{line})"
    elif rec.get("exception") and re.fullmatch(r"[A-Za-z_][\w.]*", rec["exception"]):
        ctx = f"{rec['exception'].rsplit('.', 1)[-1]}: {msg}"
    elif rec["kind"] == "warning":
        ctx = f"WARNING 12-03 06:48:31 [{base}:{line}] {msg}"
    elif compiled:
        ctx = f"RuntimeError: {msg}"
    else:
        ctx = f"ERROR 12-03 06:48:31 [{base}:{line}] {msg}"
    return [msg] if ctx == msg else [msg, ctx]


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


def _show(rec: dict, text: str, detail: str) -> str:
    return f"{rec['_where']} [{rec['library']} {rec['location']}] {detail}\n      {text[:220]!r}"


def judge(rec: dict, cat) -> list[str]:
    """What is wrong with how the catalogue treats this message (empty: it is covered / stays clean)."""
    problems = []
    texts = contexts(rec)
    for text in texts:
        findings = scan_text(text + "\n", catalogue=cat).findings
        if rec.get("signature"):
            sig = rec["signature"]
            # the broader failure a case refines is named first, the case right after it (Signature.refines)
            own = cat.get(sig)
            families = {fid for fid, _ in own.refines} if own is not None else set()
            ids = {f.id for f in findings} - families
            got = [(f.id, f.status.value) for f in findings]
            top = findings[leading_at(cat, sig, got)] if findings else None
            if top is None and len(texts) == 2 and text == texts[0]:
                continue          # the bare sentence may need its exception type; never a wrong finding
            if top is None or top.id != sig or top.status is Status.RULED_OUT:
                shown = f"{top.id} ({top.status.value})" if top else "no finding"
                problems.append(_show(rec, text, f"expected {sig}, got {shown}"))
            elif len(ids) > 1:
                problems.append(_show(rec, text, f"{sig} and also {sorted(ids - {sig})}"))
        else:
            strong = [f for f in findings if f.status in (Status.LIKELY, Status.CONFIRMED)]
            if strong:
                problems.append(_show(rec, text, f"judged unrelated ({rec.get('unrelated')}) but "
                                                 f"{strong[0].id} is {strong[0].status.value}"))
    return problems


_JUDGED: dict[int, list[str]] = {}


def judged(cat) -> dict[int, list[str]]:
    """Every record judged once per session (the per-library tests and the docs table share it)."""
    if not _JUDGED:
        for i, rec in enumerate(RECORDS):
            _JUDGED[i] = judge(rec, cat)
    return _JUDGED


def test_inventory_exists_for_every_library():
    have = {p.stem for p in INVENTORY.glob("*.jsonl")}
    missing = [lib for lib in LIBRARIES if lib not in have]
    assert not missing, f"no inventory for {missing}: run python tools/mine_messages.py {' '.join(missing)}"
    counts = {lib: sum(1 for r in RECORDS if r["library"] == lib) for lib in LIBRARIES}
    assert all(counts.values()), f"empty inventories: {counts}"


def test_every_message_is_judged(cat):
    bad = []
    for rec in RECORDS:
        if bool(rec.get("signature")) == bool(rec.get("unrelated")):
            bad.append(f"{rec['_where']}: needs exactly one of signature/unrelated: {rec['template'][:120]}")
        elif rec.get("signature") and rec["signature"] not in cat.ids:
            bad.append(f"{rec['_where']}: unknown signature {rec['signature']}")
        for key in ("library", "versions", "location", "kind", "template"):
            if not rec.get(key):
                bad.append(f"{rec['_where']}: missing {key}")
        if rec.get("kind") not in ("error", "assert", "warning"):
            bad.append(f"{rec['_where']}: kind {rec.get('kind')!r}")
    assert not bad, "\n".join(bad[:40])


@pytest.mark.slow
@pytest.mark.parametrize("library", LIBRARIES)
def test_mapped_messages_are_named_by_their_signature(library, cat):
    res = judged(cat)
    failures = [p for i, rec in enumerate(RECORDS) if rec["library"] == library and rec.get("signature") for p in res[i]]
    assert not failures, f"{len(failures)} inventory messages not covered:\n" + "\n".join(failures[:60])


@pytest.mark.slow
@pytest.mark.parametrize("library", LIBRARIES)
def test_unrelated_messages_get_no_likely_finding(library, cat):
    res = judged(cat)
    failures = [p for i, rec in enumerate(RECORDS) if rec["library"] == library and rec.get("unrelated") for p in res[i]]
    assert not failures, f"{len(failures)} unrelated messages get a finding:\n" + "\n".join(failures[:60])


def test_a_wrong_judgement_is_caught(cat):
    """The harness fails when a message is mapped to the wrong signature or a catalogued message is
    called unrelated (so the coverage tests above can fail)."""
    rec = {"library": "deepgemm", "location": "csrc/apis/layout.hpp:46", "kind": "assert", "exception": "RuntimeError",
           "template": "Assertion error ({file}:{line}): Unknown SF transformation", "_where": "synthetic"}
    assert judge(dict(rec, signature="deepgemm-unknown-sf-transformation"), cat) == []
    assert judge(dict(rec, signature="ue8m0-pack-assert"), cat)
    assert judge(dict(rec, unrelated="wrongly judged"), cat)


# ---------------------------------------------------------------- the coverage table in docs/inventory.md
DOC = ROOT / "docs" / "inventory.md"
BEGIN, END = "<!-- coverage:begin (generated: python tests/catalogue/test_inventory_coverage.py --write-docs) -->", "<!-- coverage:end -->"


def _version_key(v: str):
    """Branches first (by name), then releases oldest to newest, then history-only messages."""
    if v == "history only":
        return (2, (), v)
    try:
        return (1, Version(v.lstrip("v")).release, v)
    except InvalidVersion:
        return (0, (), v)


def coverage_table(cat) -> str:
    res = judged(cat)
    rows = ["| library | versions mined | messages | → signature | named by it | unrelated | unrelated, no likely finding |",
            "|---|---|---:|---:|---:|---:|---:|"]
    vrows = ["| library | version | messages | → signature | named by it |", "|---|---|---:|---:|---:|"]
    for lib in LIBRARIES:
        idx = [i for i, r in enumerate(RECORDS) if r["library"] == lib]
        mapped = [i for i in idx if RECORDS[i].get("signature")]
        unrel = [i for i in idx if RECORDS[i].get("unrelated")]
        versions: dict[str, list[int]] = {}
        for i in idx:
            for v in RECORDS[i]["versions"]:
                versions.setdefault("history only" if v.startswith("history:") else v, []).append(i)
        versions = dict(sorted(versions.items(), key=lambda kv: _version_key(kv[0])))
        named = sum(1 for i in mapped if not res[i])
        rows.append(f"| {lib} | {', '.join(v for v in versions if v != 'history only')} | {len(idx)} | {len(mapped)} | "
                    f"{named} | {len(unrel)} | {sum(1 for i in unrel if not res[i])} |")
        for v, ids in versions.items():
            m = [i for i in ids if RECORDS[i].get("signature")]
            vrows.append(f"| {lib} | {v} | {len(ids)} | {len(m)} | {sum(1 for i in m if not res[i])} |")
    total = len(RECORDS)
    tm = sum(1 for r in RECORDS if r.get("signature"))
    rows.append(f"| **all** | | **{total}** | **{tm}** | **{sum(1 for i, r in enumerate(RECORDS) if r.get('signature') and not res[i])}** "
                f"| **{total - tm}** | **{sum(1 for i, r in enumerate(RECORDS) if r.get('unrelated') and not res[i])}** |")
    return "\n".join([BEGIN, "", *rows, "", "Per version (a message counts for every version whose source holds it):", "",
                      *vrows, "", END])


@pytest.mark.slow  # 16 s: every inventory message of every library scanned again (make test runs it)
def test_docs_report_current_coverage(cat):
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text, f"{DOC} lacks the coverage markers"
    current = text[text.index(BEGIN):text.index(END) + len(END)]
    assert current == coverage_table(cat), "docs/inventory.md coverage is stale: run python tests/catalogue/test_inventory_coverage.py --write-docs"


def test_render_fills_every_placeholder():
    rec = {"library": "deepgemm", "location": "csrc/apis/layout.hpp:59", "kind": "assert", "exception": "RuntimeError",
           "template": "Assertion error ({file}:{line}): Unknown SF transformation on SM{major}{minor}, {}"}
    texts = contexts(rec)
    assert texts[1] == ("RuntimeError: Assertion error (csrc/apis/layout.hpp:59): "
                        "Unknown SF transformation on SM120, 128")
    assert not any("{" in t for t in texts)


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--write-docs"]:
        sys.exit("usage: python tests/catalogue/test_inventory_coverage.py --write-docs")
    text = DOC.read_text(encoding="utf-8")
    table = coverage_table(load_catalogue())
    DOC.write_text(text[:text.index(BEGIN)] + table + text[text.index(END) + len(END):], encoding="utf-8")
    print(f"wrote the coverage table of {DOC}")
