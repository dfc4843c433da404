"""The history database: every scan's run, findings, error groups and facts, in SQLite.

Where: ``--db PATH``, else ``$FP8TRIAGE_DB``, else ``history.db`` in the data directory:
``$FP8TRIAGE_DATA_DIR``, else ``$XDG_DATA_HOME/fp8triage`` (``~/.local/share/fp8triage``). Schema and queries: docs/history.md.

The schema is created and upgraded by sqlite-utils migrations (``sqlite_utils.migrations``;
with an older sqlite-utils that has none, the same ordered list is applied and recorded in a
``_migrations`` table). Recording a run is on the scan path, and importing sqlite-utils costs
about 0.2-0.3 s (it imports numpy and its plugins), so a run whose database is already at the
current schema is written through the standard ``sqlite3`` module; sqlite-utils is imported
only to create or upgrade the schema and by ``fp8triage history``.

Several processes may write at once: WAL journal, a busy timeout, each run written in one
``BEGIN IMMEDIATE`` transaction, and retries with jittered backoff when the lock is still
held. Every failure to open, read or write becomes a ``HistoryError`` with one sentence.
"""
from __future__ import annotations

import json
import os
import random
import re
import sqlite3
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

from ..errors import TriageError

ENV_VAR = "FP8TRIAGE_DB"
DATA_DIR_VAR = "FP8TRIAGE_DATA_DIR"
MIGRATION_SET = "fp8triage-history"
BUSY_TIMEOUT_MS = 10_000
RETRIES = 30
SAMPLE_LINES = 12
STATUSES = ("confirmed", "likely", "possible", "ruled-out", "unknown")


class HistoryError(TriageError):
    """The history database cannot be opened, read or written. One sentence."""


# -- where ---------------------------------------------------------------------------------------

def data_dir() -> Path:
    """fp8triage's data directory: ``$FP8TRIAGE_DATA_DIR``, else ``$XDG_DATA_HOME/fp8triage``,
    else ``~/.local/share/fp8triage`` (``fp8triage.paths.user_data_dir``)."""
    from ..paths import user_data_dir

    return user_data_dir()


def default_path() -> Path:
    return data_dir() / "history.db"


def resolve_path(db: str | os.PathLike | None = None) -> Path:
    """``--db`` beats ``$FP8TRIAGE_DB`` beats the XDG default."""
    if db:
        return Path(db).expanduser()
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return Path(env).expanduser()
    return default_path()


# -- schema (sqlite-utils migrations; applied in this order) ------------------------------------

def m001_initial(db) -> None:
    db["runs"].create(
        {"id": int, "time": str, "host": str, "mode": str, "inputs": str, "tool_version": str,
         "catalogue_version": str, "fingerprint_algorithm": int, "exit_code": int, "findings": int,
         "unknown_groups": int, "elapsed_s": float},
        pk="id",
    )
    db["runs"].create_index(["time"])
    db["findings"].create(
        {"id": int, "run_id": int, "signature_id": str, "title": str, "status": str, "severity": str,
         "count": int, "workers": str, "fingerprints": str, "from_facts_only": int},
        pk="id", foreign_keys=[("run_id", "runs", "id")],
    )
    db["findings"].create_index(["run_id"])
    db["findings"].create_index(["signature_id"])
    db["groups"].create(
        {"fingerprint": str, "algorithm": int, "kind": str, "headline": str, "signature_id": str,
         "count": int, "runs": int, "first_seen": str, "first_run": int, "last_seen": str, "last_run": int,
         "sample": str},
        pk=("fingerprint", "algorithm"),
    )
    db["groups"].create_index(["last_seen"])
    db["sightings"].create(
        {"id": int, "run_id": int, "fingerprint": str, "algorithm": int, "signature_id": str, "status": str,
         "count": int},
        pk="id", foreign_keys=[("run_id", "runs", "id")],
    )
    db["sightings"].create_index(["fingerprint", "algorithm"])
    db["sightings"].create_index(["run_id"])
    db["facts"].create(
        {"id": int, "run_id": int, "name": str, "value": str, "source": str, "origin": str},
        pk="id", foreign_keys=[("run_id", "runs", "id")],
    )
    db["facts"].create_index(["run_id"])


def m002_run_uid(db) -> None:
    """Each run's own id (``meta.run_id`` of its JSON result): ``history import`` merges a run once."""
    db["runs"].add_column("run_uid", str)
    db["runs"].create_index(["run_uid"], unique=True)


MIGRATIONS: tuple[Callable, ...] = (m001_initial, m002_run_uid)
MIGRATION_NAMES = tuple(m.__name__ for m in MIGRATIONS)


class _FallbackMigrations:
    """The subset of ``sqlite_utils.migrations.Migrations`` used here, for sqlite-utils < 4."""

    migrations_table = "_migrations"

    def __init__(self, name: str):
        self.name = name
        self._fns: list[Callable] = []

    def __call__(self, *, name: str | None = None):
        def inner(fn):
            self._fns.append(fn)
            return fn
        return inner

    def apply(self, db) -> None:
        db.execute(f"CREATE TABLE IF NOT EXISTS {self.migrations_table} "
                   "(migration_set TEXT, name TEXT, applied_at TEXT, PRIMARY KEY (migration_set, name))")
        done = {r[0] for r in db.execute(f"SELECT name FROM {self.migrations_table} WHERE migration_set = ?",
                                         [self.name]).fetchall()}
        for fn in self._fns:
            if fn.__name__ in done:
                continue
            fn(db)
            db.execute(f"INSERT INTO {self.migrations_table} VALUES (?, ?, ?)", [self.name, fn.__name__, _now()])


def _migrations():
    try:
        from sqlite_utils.migrations import Migrations
    except ImportError:  # sqlite-utils < 4
        Migrations = _FallbackMigrations
    ms = Migrations(MIGRATION_SET)
    for fn in MIGRATIONS:
        ms(name=fn.__name__)(fn)
    return ms


# -- connection ----------------------------------------------------------------------------------

def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _reason(e: BaseException) -> str:
    msg = str(e) or type(e).__name__
    if isinstance(e, sqlite3.DatabaseError) and "not a database" in msg:
        return "the file is not an SQLite database or is corrupt"
    if "malformed" in msg:
        return "the database is corrupt (malformed)"
    if "readonly" in msg or "read-only" in msg:
        return "it is read-only"
    if "unable to open" in msg:
        return "it cannot be opened"
    return msg


def _is_busy(e: BaseException) -> bool:
    return isinstance(e, sqlite3.OperationalError) and ("locked" in str(e) or "busy" in str(e))


def _retry(fn: Callable[[], Any]) -> Any:
    delay = 0.02
    for attempt in range(RETRIES):
        try:
            return fn()
        except sqlite3.OperationalError as e:
            if not _is_busy(e) or attempt == RETRIES - 1:
                raise
            time.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 1.6, 1.0)
    raise AssertionError("unreachable")


def _schema_current(conn: sqlite3.Connection) -> bool:
    for table in ("_sqlite_migrations", "_migrations"):
        try:
            rows = conn.execute(f"SELECT name FROM {table} WHERE migration_set = ?", [MIGRATION_SET]).fetchall()
        except sqlite3.OperationalError as e:
            if "no such table" in str(e):
                continue
            raise
        done = {r[0] for r in rows}
        if all(n in done for n in MIGRATION_NAMES):
            return True
    return False


def connect(path: str | os.PathLike | None = None, *, create: bool = True) -> sqlite3.Connection:
    """An open ``sqlite3`` connection to the history database at the current schema."""
    p = resolve_path(path)
    if not create and not p.exists():
        raise HistoryError(f"history database {p} does not exist yet (a scan creates it; --no-history skips it)")
    try:
        if create:
            p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise HistoryError(f"history database {p} cannot be created: its folder {p.parent} cannot be made "
                          f"({e.strerror or e})") from None
    try:
        conn = sqlite3.connect(str(p), timeout=BUSY_TIMEOUT_MS / 1000)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        if not _retry(lambda: _schema_current(conn)):
            if not create:
                raise HistoryError(f"history database {p} has an older or unknown schema; run a scan to upgrade it")
            _retry(lambda: _migrate(conn))
        mode = _retry(lambda: conn.execute("PRAGMA journal_mode").fetchone()[0])
        if str(mode).lower() != "wal" and create:
            _retry(lambda: conn.execute("PRAGMA journal_mode = wal").fetchone())
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
    except HistoryError:
        raise
    except (sqlite3.Error, OSError) as e:
        raise HistoryError(f"history database {p} cannot be used: {_reason(e)}") from None
    return conn


def _migrate(conn: sqlite3.Connection) -> None:
    """Create or upgrade the schema through sqlite-utils, one process at a time."""
    import sqlite_utils

    db = sqlite_utils.Database(conn)
    conn.execute("BEGIN IMMEDIATE")  # serialises concurrent first runs on a new file
    try:
        if not _schema_current(conn):
            _migrations().apply(db)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    if db.journal_mode != "wal":
        db.enable_wal()


# -- writing -------------------------------------------------------------------------------------

def record_run(result, exit_code: int, *, path: str | os.PathLike | None = None, mode: str = "scan") -> int:
    """Store one scan result; returns the run id. Raises HistoryError."""
    p = resolve_path(path)
    conn = connect(p)
    try:
        return _retry(lambda: _write(conn, result, int(exit_code), mode))
    except HistoryError:
        raise
    except sqlite3.Error as e:
        raise HistoryError(f"history database {p} cannot be written: {_reason(e)}") from None
    finally:
        conn.close()


def _group_rows(result) -> list[dict[str, Any]]:
    """One row per fingerprint seen in this run: the findings' and the unknown groups'."""
    from ..common.masks import mask

    rows: dict[str, dict[str, Any]] = {}
    for f in list(result.findings) + list(result.ruled_out):
        fps = list(f.fingerprints)
        for fp in fps:
            if fp in rows:
                continue
            ev = f.evidence[0] if f.evidence else None
            rows[fp] = {
                "fingerprint": fp, "kind": "finding", "signature_id": f.id, "status": f.status.value,
                "headline": mask(ev.text)[:300] if ev else f.title,
                # a finding with several fingerprints does not say how its events split among them
                "count": f.count if len(fps) == 1 else 1,
                "sample": [{"source": e.source, "line": e.lineno, "text": e.text} for e in f.evidence[:SAMPLE_LINES]],
            }
        for c in f.consequences:
            fp = c.get("fingerprint")
            if fp and fp not in rows:
                rows[fp] = {"fingerprint": fp, "kind": "consequence", "signature_id": f.id, "status": f.status.value,
                            "headline": mask(c.get("headline", ""))[:300], "count": int(c.get("count") or 1), "sample": []}
    for u in result.unknown:
        if u.fingerprint in rows:
            continue
        rows[u.fingerprint] = {
            # a group's headline across runs is the masked message (the report shows the real text)
            "fingerprint": u.fingerprint, "kind": u.kind, "signature_id": None, "status": "unknown",
            "headline": mask(u.headline)[:300], "count": u.count,
            "sample": [{"source": ln.source, "line": ln.lineno, "text": ln.text, "worker": ln.worker}
                       for ln in u.sample[-SAMPLE_LINES:]],
        }
    return list(rows.values())


def _write(conn: sqlite3.Connection, result, exit_code: int, mode: str, when: str | None = None) -> int:
    """Insert one run (``when``: its time, else now) in one transaction; returns its id."""
    from ..common.redact import redact

    meta = result.meta
    now = when or _now()
    algo = int(meta.get("fingerprint_algorithm") or 0)
    inputs = [redact(i.source) for i in result.inputs]
    conn.execute("BEGIN IMMEDIATE")
    try:
        cur = conn.execute(
            "INSERT INTO runs (time, host, mode, inputs, tool_version, catalogue_version, fingerprint_algorithm, "
            "exit_code, findings, unknown_groups, elapsed_s, run_uid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [now, meta.get("host"), mode, json.dumps(inputs), meta.get("version"), meta.get("catalogue_version"), algo,
             exit_code, len(result.findings), len(result.unknown), meta.get("elapsed_s"), meta.get("run_id")],
        )
        run_id = cur.lastrowid
        conn.executemany(
            "INSERT INTO findings (run_id, signature_id, title, status, severity, count, workers, fingerprints, "
            "from_facts_only) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [[run_id, f.id, f.title, f.status.value, f.severity.value, f.count, json.dumps(f.workers),
              json.dumps(f.fingerprints), int(f.from_facts_only)] for f in list(result.findings) + list(result.ruled_out)],
        )
        for g in _group_rows(result):
            sample = json.dumps([{**s, "text": redact(s["text"])} for s in g["sample"]])
            conn.execute(
                "INSERT INTO groups (fingerprint, algorithm, kind, headline, signature_id, count, runs, first_seen, "
                "first_run, last_seen, last_run, sample) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?) "
                "ON CONFLICT (fingerprint, algorithm) DO UPDATE SET count = count + excluded.count, runs = runs + 1, "
                # an imported run may be older than what is stored: first and last keep their order
                "first_run = CASE WHEN excluded.first_seen < first_seen THEN excluded.first_run ELSE first_run END, "
                "first_seen = MIN(first_seen, excluded.first_seen), "
                "last_run = CASE WHEN excluded.last_seen >= last_seen THEN excluded.last_run ELSE last_run END, "
                "last_seen = MAX(last_seen, excluded.last_seen), "
                # a group keeps the label it was explained by: a run that sees it without its root cause
                # (a consequence line under another failure) does not make it unknown again
                "signature_id = COALESCE(excluded.signature_id, signature_id), "
                "kind = CASE WHEN excluded.signature_id IS NULL AND signature_id IS NOT NULL THEN kind ELSE excluded.kind END, "
                "headline = CASE WHEN excluded.signature_id IS NULL AND signature_id IS NOT NULL THEN headline "
                "ELSE excluded.headline END, "
                "sample = CASE WHEN excluded.sample = '[]' THEN sample ELSE excluded.sample END",
                [g["fingerprint"], algo, g["kind"], redact(g["headline"]), g["signature_id"], g["count"], now, run_id,
                 now, run_id, sample],
            )
            conn.execute(
                "INSERT INTO sightings (run_id, fingerprint, algorithm, signature_id, status, count) VALUES (?, ?, ?, ?, ?, ?)",
                [run_id, g["fingerprint"], algo, g["signature_id"], g["status"], g["count"]],
            )
        conn.executemany(
            "INSERT INTO facts (run_id, name, value, source, origin) VALUES (?, ?, ?, ?, ?)",
            [[run_id, f.name, redact(f.value), redact(f.source), f.origin] for f in result.facts],
        )
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return run_id


# -- reading -------------------------------------------------------------------------------------

_SINCE = re.compile(r"^\s*(\d+)\s*([smhdw])\s*$")


def parse_since(text: str, now: datetime | None = None) -> str:
    """``7d``, ``12h``, ``30m``, ``2w``, ``45s``, or a date/time (``2026-11-30``, ISO 8601) → ISO UTC string."""
    now = now or datetime.now(timezone.utc)
    m = _SINCE.match(text)
    if m:
        n, unit = int(m.group(1)), m.group(2)
        delta = {"s": timedelta(seconds=n), "m": timedelta(minutes=n), "h": timedelta(hours=n),
                 "d": timedelta(days=n), "w": timedelta(weeks=n)}[unit]
        return (now - delta).isoformat(timespec="seconds")
    try:
        dt = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise HistoryError(f"--since {text!r} is neither a duration (7d, 12h, 30m, 2w) nor a date (2026-11-30)") from None
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.astimezone(timezone.utc).isoformat(timespec="seconds")


def _filters(signature: str | None, status: str | None, since: str | None, alias: str) -> tuple[str, list]:
    where, args = [], []
    if signature:
        where.append(f"{alias}.signature_id = ?")
        args.append(signature)
    if status:
        where.append(f"{alias}.status = ?")
        args.append(status)
    if since:
        where.append("r.time >= ?")
        args.append(since)
    return (" WHERE " + " AND ".join(where)) if where else "", args


def _rows(conn: sqlite3.Connection, sql: str, args: Iterable) -> list[dict[str, Any]]:
    cur = conn.execute(sql, list(args))
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


# whether a group (alias ``s``: a sighting of it) was ever explained by a signature
_EXPLAINED = ("{neg}EXISTS (SELECT 1 FROM sightings s3 WHERE s3.fingerprint = s.fingerprint "
              "AND s3.algorithm = s.algorithm AND s3.signature_id IS NOT NULL)")


def query(path: str | os.PathLike | None = None, *, signature: str | None = None, status: str | None = None,
          since: str | None = None, limit: int = 50) -> dict[str, Any]:
    """Recurring groups and findings matching the filters, most recurring first. Raises HistoryError."""
    p = resolve_path(path)
    conn = connect(p, create=False)
    try:
        where, args = _filters(signature, None if status == "unknown" else status, since, "s")
        if status == "unknown":  # groups no signature explains: never seen under one
            where = (where + " AND " if where else " WHERE ") + "s.status = 'unknown' AND " + _EXPLAINED.format(neg="NOT ")
        groups = _rows(conn, f"""
            SELECT s.fingerprint, s.algorithm, g.kind, g.headline,
                   COALESCE(g.signature_id, (SELECT s2.signature_id FROM sightings s2 WHERE s2.fingerprint = s.fingerprint
                    AND s2.algorithm = s.algorithm AND s2.signature_id IS NOT NULL ORDER BY s2.run_id DESC LIMIT 1))
                    AS signature_id,
                   -- the status of the latest sighting that explained it (a group keeps its label), else 'unknown'
                   COALESCE((SELECT s2.status FROM sightings s2 WHERE s2.fingerprint = s.fingerprint AND s2.algorithm = s.algorithm
                    AND s2.signature_id IS NOT NULL ORDER BY s2.run_id DESC LIMIT 1), 'unknown') AS status,
                   COUNT(DISTINCT s.run_id) AS runs, COUNT(DISTINCT r.host) AS hosts, SUM(s.count) AS events,
                   MIN(r.time) AS first_seen, MAX(r.time) AS last_seen, MAX(s.run_id) AS last_run,
                   g.runs AS runs_total, g.count AS events_total, g.first_seen AS first_seen_ever
            FROM sightings s JOIN runs r ON r.id = s.run_id
            JOIN groups g ON g.fingerprint = s.fingerprint AND g.algorithm = s.algorithm
            {where}
            GROUP BY s.fingerprint, s.algorithm
            ORDER BY runs DESC, events DESC, last_seen DESC LIMIT ?""", [*args, limit])
        where, args = _filters(signature, status, since, "f")
        findings = _rows(conn, f"""
            SELECT f.signature_id, f.title, f.severity,
                   (SELECT f2.status FROM findings f2 WHERE f2.signature_id = f.signature_id
                    ORDER BY f2.run_id DESC LIMIT 1) AS status,
                   COUNT(DISTINCT f.run_id) AS runs, COUNT(DISTINCT r.host) AS hosts, SUM(f.count) AS events,
                   MIN(r.time) AS first_seen, MAX(r.time) AS last_seen, MAX(f.run_id) AS last_run
            FROM findings f JOIN runs r ON r.id = f.run_id
            {where}
            GROUP BY f.signature_id
            ORDER BY runs DESC, last_seen DESC LIMIT ?""", [*args, limit])
        total = conn.execute("SELECT COUNT(*), MIN(time), MAX(time) FROM runs").fetchone()
    except sqlite3.Error as e:
        raise HistoryError(f"history database {p} cannot be read: {_reason(e)}") from None
    finally:
        conn.close()
    return {"db": str(p), "runs": {"total": total[0], "first": total[1], "last": total[2]},
            "groups": groups, "findings": findings}


def find_group(fingerprint: str, path: str | os.PathLike | None = None) -> dict[str, Any]:
    """The stored group whose fingerprint is ``fingerprint`` (or starts with it). Raises HistoryError."""
    p = resolve_path(path)
    fp = fingerprint.strip().lower()
    if not re.fullmatch(r"[0-9a-f]{4,64}", fp):
        raise HistoryError(f"{fingerprint!r} is not a fingerprint (4 to 64 hex digits, as `fp8triage history` lists them)")
    conn = connect(p, create=False)
    try:
        rows = _rows(conn, "SELECT * FROM groups WHERE fingerprint LIKE ? ORDER BY algorithm DESC, last_seen DESC",
                     [fp + "%"])
    except sqlite3.Error as e:
        raise HistoryError(f"history database {p} cannot be read: {_reason(e)}") from None
    finally:
        conn.close()
    if not rows:
        raise HistoryError(f"no error group with fingerprint {fingerprint} in {p} (`fp8triage history` lists them)")
    if len({r["fingerprint"] for r in rows}) > 1:
        raise HistoryError(f"fingerprint prefix {fingerprint} is ambiguous in {p}: "
                           + ", ".join(sorted({r['fingerprint'] for r in rows})[:5]))
    row = rows[0]
    row["sample"] = json.loads(row.get("sample") or "[]")
    return row


def _table_counts(path: str | os.PathLike | None = None) -> dict[str, int]:
    """Row counts per table (tests, `history --format json`)."""
    conn = connect(path, create=False)
    try:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("runs", "findings", "groups", "sightings", "facts")}
    finally:
        conn.close()
