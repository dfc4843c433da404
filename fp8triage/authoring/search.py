"""Full-text search over the catalogue (``fp8triage signatures search``): a SQLite FTS index built
with sqlite-utils once per catalogue version in the cache directory, then plain SQLite queries."""
from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from pathlib import Path

import regex

from .. import paths
from ..catalogue.conditions import FactCondition
from ..catalogue.loader import Catalogue, Signature, signature_files
from ..common.gpus import search_names
from ..model import Fact
from .samples import SigToolsError, builtin_dir, load


# -- search (SQLite FTS via sqlite-utils) -----------------------------------------------------

def _index_rows(cat: Catalogue) -> list[dict]:
    rows = []
    for s in cat.signatures:
        d = s.data
        rows.append({
            "id": s.id,
            "title": s.title,
            "severity": s.severity,
            "summary": s.summary,
            "cause": s.cause,
            "fix": s.fix,
            "known_problems": d.get("known_problems", ""),
            "evidence": "\n".join([*s.anchors, *(p.source for p in s.patterns)]),
            "remedies": "\n".join(f"{r.title} {r.action.short()}" for r in s.remedies),
            "refs": "\n".join(f"{r['ref']} {r.get('title', '')}" for r in s.references),
            "tags": " ".join(d.get("tags", []) + s.stacks),
            "terms": search_terms(s),
        })
    return rows


FTS_COLUMNS = ("id", "title", "summary", "cause", "fix", "known_problems", "evidence", "remedies", "refs", "tags", "terms")
TERMS_COLUMN = FTS_COLUMNS.index("terms")
INDEX_FORMAT = 3  # bump when the index's columns change (the cache file name carries it)

# a word made of letters then digits ("RTX5090", "SM120", "sm_120", "B200"), or split by a space,
# "_" or "-" ("RTX 5090"): both the joined and the split form are indexed
_MODEL_NUMBER = regex.compile(r"\b([A-Z]{1,4}|(?i:sm|compute))[ _-]?(\d{2,5}[A-Za-z]?)\b")


def search_terms(s: Signature) -> str:
    """Extra words for the search index: model numbers in joined and split form, and the GPU names
    of every capability the signature's capability conditions accept."""
    from ..judge.conditions import evaluate
    from ..model import Truth

    text = " ".join([s.title, s.summary, s.cause, s.fix, *(f"{r['ref']} {r.get('title', '')}" for r in s.references)])
    words: list[str] = []
    for m in _MODEL_NUMBER.finditer(text):
        words += [m.group(1) + m.group(2), f"{m.group(1)} {m.group(2)}"]
    caps = [c for c in s.conditions if isinstance(c, FactCondition) and c.fact == "capability"]
    for cc, names in search_names().items():
        facts = {"capability": Fact("capability", cc, "search", "cli")}
        if caps and all(evaluate(c, facts).truth is Truth.HOLDS for c in caps):
            words.append(f"{names} {cc}")
    return "\n".join(dict.fromkeys(words))


def catalogue_digest(sig_dir: Path | None = None) -> str:
    """The catalogue version (as ``load_catalogue`` computes it) from the files alone, without
    parsing or validating them: the search cache is keyed by it."""
    d = Path(sig_dir) if sig_dir is not None else builtin_dir()
    digest = hashlib.sha256()
    for f in signature_files([d]):
        digest.update(f.name.encode() + b"\0" + f.read_bytes())
    return digest.hexdigest()[:12]


def index_path(version: str) -> Path:
    return paths.cache_dir() / f"catalogue-{version}-i{INDEX_FORMAT}.db"


def build_index(cat: Catalogue, path: Path | None = None) -> Path:
    """Build (once per catalogue version) the SQLite FTS index with sqlite-utils; written to a
    temp file and renamed, so concurrent runs never see a half-built index."""
    import sqlite_utils

    path = path or index_path(cat.version)
    if path.exists():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        db = sqlite_utils.Database(tmp)
        db["signatures"].insert_all(_index_rows(cat), pk="id")
        db["signatures"].enable_fts(list(FTS_COLUMNS))
        db.conn.commit()
        db.close()
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def search(text: str, sig_dir: Path | None = None, limit: int = 20, cat: Catalogue | None = None) -> list[dict]:
    """Full-text search over the catalogue: [{id, title, severity, snippet}], best first.

    The index is built on first use for a catalogue version; later searches only hash the
    signature files and query SQLite (no schema validation, no sqlite-utils import)."""
    words = regex.findall(r"[\w.]+", text)
    if not words:
        return []
    version = cat.version if cat is not None else catalogue_digest(sig_dir)
    path = index_path(version)
    if not path.exists():
        build_index(cat or load(sig_dir), path)
    # every word must occur (as a word or a word prefix: "transform" finds "transformation")
    query = " ".join('"' + w.replace('"', "") + '"*' for w in words)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = conn.execute(
            "select s.id, s.title, s.severity, snippet(signatures_fts, -1, '[', ']', '…', 12), "
            f"snippet(signatures_fts, {TERMS_COLUMN}, '[', ']', '…', 12), snippet(signatures_fts, 2, '[', ']', '…', 12) "
            "from signatures_fts join signatures s on s.rowid = signatures_fts.rowid "
            "where signatures_fts match ? order by bm25(signatures_fts, 10.0, 5.0, 3.0, 1.0, 1.0, 1.0, 4.0, 1.0, 2.0, 2.0, 1.0) limit ?",
            [query, limit],
        ).fetchall()
    except sqlite3.OperationalError as e:
        raise SigToolsError(f"cannot search for {text!r}: {e}") from None
    finally:
        conn.close()
    # the extra search words are no snippet to show: the summary stands in for them
    return [{"id": r[0], "title": r[1], "severity": r[2], "snippet": " ".join((r[5] if r[3] == r[4] else r[3]).split())}
            for r in rows]
