"""``fp8triage history import RESULT.json...``: merge scan results from many hosts into one
history database, so that ``fp8triage history`` answers fleet-wide questions ("on how many
hosts, since when").

Each file is the output of ``fp8triage scan --format json`` (scan.schema.json), or of
``--format jsonl`` (a stream: its finding and unknown records and its summary). A run is
stored with its own time, host and run id (``meta.run_id``; a stream's ``run_id``), and a
run id already in the database is skipped: importing the same files twice changes nothing.
A file that is not a scan result is reported by name and nothing of it is stored; the other
files are still imported.
"""
from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import TriageError
from .history import HistoryError, _reason, _retry, _write, connect, resolve_path
from ..model import (ConditionResult, Evidence, Fact, Finding, InputInfo, Line, ScanResult, Severity, Status, Truth,
                     UnknownGroup)

MAX_FILE = 512 * 1024 * 1024


class ImportProblem(TriageError):
    """One file cannot be imported. One sentence."""


@dataclass
class ImportReport:
    imported: list[dict[str, Any]] = field(default_factory=list)  # {"file", "run_id", "host", "id"}
    skipped: list[dict[str, Any]] = field(default_factory=list)  # already there
    failed: list[dict[str, str]] = field(default_factory=list)  # {"file", "error"}


def validate_doc(kind: str, doc: Any, where: str = "") -> None:
    """Validate against fp8triage/schemas/KIND.schema.json; ImportProblem names the first problem."""
    import jsonschema
    from referencing import Registry, Resource

    folder = Path(__file__).resolve().parent.parent / "schemas"
    reg = Registry()
    schema = None
    for f in folder.glob("*.schema.json"):
        d = json.loads(f.read_text())
        reg = reg.with_resource(d["$id"], Resource.from_contents(d))
        if f.name == f"{kind}.schema.json":
            schema = d
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema, registry=reg).iter_errors(doc))
    if err is not None:
        at = "/".join(str(x) for x in err.absolute_path) or "the top level"
        raise ImportProblem(f"{where + ': ' if where else ''}not a valid {kind} result at {at} ({err.message[:160]})")


def _finding(d: dict[str, Any]) -> Finding:
    return Finding(
        id=d["id"], title=d.get("title", ""), severity=Severity(d["severity"]), status=Status(d["status"]),
        summary=d.get("summary", ""), cause=d.get("cause", ""),
        evidence=[Evidence(e["source"], e["line"], e["text"], None, tuple(e.get("workers") or ()), e.get("pattern", ""),
                           e.get("kind", "message"), e.get("strength", "strong")) for e in d.get("evidence", [])],
        conditions=[ConditionResult(c["fact"], c["expect"], Truth(c["result"])) for c in d.get("conditions", [])],
        facts=[], remedies=[], references=[], repro=[], count=int(d.get("count") or 0),
        workers=list(d.get("workers") or []), fingerprints=list(d.get("fingerprints") or []),
        consequences=list(d.get("consequences") or []), from_facts_only=bool(d.get("from_facts_only")),
        source=d.get("source"),
    )


def _unknown(d: dict[str, Any]) -> UnknownGroup:
    sample = [Line(s["source"], s["line"], s["text"], s.get("worker")) for s in d.get("sample", [])]
    first = Line(d["first"]["source"], d["first"]["line"], "")
    last = Line(d["last"]["source"], d["last"]["line"], "")
    return UnknownGroup(d["fingerprint"], d["kind"], d["headline"], sample, int(d["count"]),
                        list(d.get("workers") or []), first, last)


def from_scan_json(doc: dict[str, Any]) -> tuple[ScanResult, int]:
    """A scan's JSON document → (ScanResult, exit code). Raises ImportProblem."""
    validate_doc("scan", doc)
    res = ScanResult(
        findings=[_finding(f) for f in doc["findings"]],
        unknown=[_unknown(u) for u in doc["unknown_errors"]],
        facts=[Fact(f["name"], f["value"], f["source"], f["origin"]) for f in doc["facts"]],
        conflicts=list(doc["conflicts"]),
        inputs=[InputInfo(i["source"], i["bytes"], i["lines"], i["format"]) for i in doc["inputs"]],
        meta=dict(doc["meta"]),
        ruled_out=[_finding(f) for f in doc["ruled_out"]],
        warnings=list(doc["warnings"]),
    )
    code = doc.get("exit_code")
    return res, int(code) if isinstance(code, int) else (3 if res.findings else 4 if res.unknown else 0)


def from_stream(lines: list[str]) -> tuple[ScanResult, int]:
    """A ``--format jsonl`` stream → (ScanResult, exit code). Raises ImportProblem."""
    recs = []
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        try:
            rec = json.loads(text)
        except ValueError:
            raise ImportProblem(f"line {n} is not JSON") from None
        validate_doc("stream", rec, where=f"line {n}")
        recs.append(rec)
    summary = [r for r in recs if r["event"] == "summary"]
    if not summary:
        raise ImportProblem("the stream has no summary record (it was cut before its end); nothing was imported")
    runs = {r["run_id"] for r in recs}
    if len(runs) != 1:
        raise ImportProblem(f"the stream holds {len(runs)} runs; import one run per file")
    s = summary[-1]
    first = recs[0]
    sources = list(dict.fromkeys(r["source"] for r in recs if r.get("source")))
    meta = {"tool": "fp8triage", "version": "", "catalogue_version": "", "fingerprint_algorithm": 0,
            "time": first["time"], "host": first["host"], "run_id": s["run_id"]}
    res = ScanResult(
        findings=[_finding(r["finding"]) for r in recs if r["event"] == "finding"],
        unknown=[_unknown(r["unknown"]) for r in recs if r["event"] == "unknown"],
        facts=[], conflicts=[],
        inputs=[InputInfo(src, 0, 0, "stream") for src in sources],
        meta=meta,
    )
    for key in ("version", "catalogue_version", "fingerprint_algorithm"):
        if s.get(key) is not None:
            meta[key] = s[key]
    return res, int(s["exit_code"])


def load(path: Path) -> tuple[ScanResult, int]:
    """Read one result file. Raises ImportProblem."""
    try:
        if path.stat().st_size > MAX_FILE:
            raise ImportProblem(f"it is larger than {MAX_FILE // 2**20} MiB; a scan result is far smaller")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ImportProblem("no such file") from None
    except IsADirectoryError:
        raise ImportProblem("it is a directory; give the result files") from None
    except UnicodeDecodeError:
        raise ImportProblem("it is not text (not a scan result)") from None
    except OSError as e:
        raise ImportProblem(f"it cannot be read ({e.strerror or e})") from None
    stripped = text.lstrip()
    if not stripped.startswith("{"):
        raise ImportProblem("it is not a scan result (fp8triage scan --format json or jsonl)")
    try:
        doc = json.loads(text)
    except ValueError:
        return from_stream(text.splitlines())
    if isinstance(doc, dict) and doc.get("kind") == "stream":
        return from_stream(text.splitlines())
    if not isinstance(doc, dict) or doc.get("kind") != "scan":
        raise ImportProblem("it is not a scan result (fp8triage scan --format json or jsonl)")
    return from_scan_json(doc)


def import_results(paths: list[str | os.PathLike], db: str | os.PathLike | None = None) -> ImportReport:
    """Import each file (see the module docstring). Raises HistoryError when the database
    cannot be used; a bad file is listed in ``failed`` and the others go on."""
    p = resolve_path(db)
    rep = ImportReport()
    loaded = []
    for f in paths:
        try:
            res, code = load(Path(f))
        except ImportProblem as e:
            rep.failed.append({"file": str(f), "error": str(e)})
            continue
        if not res.meta.get("run_id"):
            rep.failed.append({"file": str(f), "error": "it has no run id (written by an fp8triage without one); "
                                                       "nothing was imported from it"})
            continue
        loaded.append((str(f), res, code))
    if not loaded:
        return rep
    conn = connect(p)
    try:
        for name, res, code in loaded:
            uid = res.meta["run_id"]
            have = _retry(lambda: conn.execute("SELECT id FROM runs WHERE run_uid = ?", [uid]).fetchone())
            row = {"file": name, "run_id": uid, "host": res.meta.get("host")}
            if have is not None:
                rep.skipped.append({**row, "id": have[0]})
                continue
            mode = res.meta.get("mode") or "scan"
            rid = _retry(lambda: _write(conn, res, code, f"import:{mode}", when=res.meta.get("time")))
            rep.imported.append({**row, "id": rid})
    except sqlite3.Error as e:
        raise HistoryError(f"history database {p} cannot be written: {_reason(e)}") from None
    finally:
        conn.close()
    return rep
