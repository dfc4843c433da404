"""History database: recording, concurrency, failure modes, queries, scaffolding from a group."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from fp8triage.store import history
from fp8triage.cli import cli
from fp8triage.drivers.batch import scan_text

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"
UNKNOWN_LOG = """INFO 12-01 10:00:00 starting
Traceback (most recent call last):
  File "/usr/lib/python3/site-packages/foo/bar.py", line 12, in load
    x = y()
ValueError: weird fp8 blob 0x7f12ab at rank 3 has shape [128, 7168]
INFO 12-01 10:00:01 next
"""


def run(args, **kw):
    return CliRunner().invoke(cli, args, catch_exceptions=False, **kw)


def _env(db: Path | None = None) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if db is not None:
        env["FP8TRIAGE_DB"] = str(db)
    return env


def test_default_path_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("FP8TRIAGE_DB", raising=False)
    monkeypatch.delenv("FP8TRIAGE_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert history.resolve_path() == tmp_path / "xdg" / "fp8triage" / "history.db"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert history.resolve_path() == tmp_path / "home" / ".local" / "share" / "fp8triage" / "history.db"
    monkeypatch.setenv("FP8TRIAGE_DB", str(tmp_path / "env.db"))
    assert history.resolve_path() == tmp_path / "env.db"
    assert history.resolve_path(tmp_path / "flag.db") == tmp_path / "flag.db"


def test_record_and_query(tmp_path):
    db = tmp_path / "h.db"
    res = scan_text(EXAMPLE.read_text(), source="server.log")
    r1 = history.record_run(res, 3, path=db)
    r2 = history.record_run(scan_text(UNKNOWN_LOG, source="other.log"), 4, path=db)
    assert (r1, r2) == (1, 2)
    counts = history._table_counts(db)
    assert counts["runs"] == 2 and counts["findings"] == 1 and counts["facts"] >= 3
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    run_row = conn.execute("SELECT host, inputs, tool_version, catalogue_version, exit_code FROM runs WHERE id = 1").fetchone()
    assert json.loads(run_row[1]) == ["server.log"] and run_row[4] == 3 and run_row[2] and run_row[3]
    assert conn.execute("SELECT name FROM _sqlite_migrations").fetchall() == [("m001_initial",), ("m002_run_uid",)]
    q = history.query(db)
    assert q["runs"]["total"] == 2
    assert [f["signature_id"] for f in q["findings"]] == ["deepgemm-unknown-sf-transformation"]
    unknown = history.query(db, status="unknown")["groups"]
    assert len(unknown) == 1 and unknown[0]["signature_id"] is None
    assert unknown[0]["headline"].startswith("ValueError: weird fp8 blob")
    # a second sighting of the same group counts up and keeps first-seen
    history.record_run(scan_text(UNKNOWN_LOG, source="third.log"), 4, path=db)
    g = history.query(db, status="unknown")["groups"][0]
    assert g["runs"] == 2 and g["events"] == 2 and g["last_run"] == 3
    assert history.query(db, signature="no-such-signature") == {**history.query(db, signature="no-such-signature")}
    assert history.query(db, signature="no-such-signature")["groups"] == []


def test_since_filter(tmp_path):
    db = tmp_path / "h.db"
    history.record_run(scan_text(UNKNOWN_LOG, source="a.log"), 4, path=db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE runs SET time = '2020-01-01T00:00:00+00:00'")
    conn.commit()
    history.record_run(scan_text(EXAMPLE.read_text(), source="b.log"), 3, path=db)
    recent = history.query(db, since=history.parse_since("7d"))
    assert [f["signature_id"] for f in recent["findings"]] == ["deepgemm-unknown-sf-transformation"]
    assert all(g["signature_id"] for g in recent["groups"])
    old = history.query(db, since=history.parse_since("2019-12-31"))
    assert any(g["signature_id"] is None for g in old["groups"])
    with pytest.raises(history.HistoryError, match="neither a duration"):
        history.parse_since("yesterday-ish")


@pytest.mark.slow
def test_eight_concurrent_scans_lose_nothing(tmp_path):
    db = tmp_path / "shared.db"
    logs = []
    for i in range(8):
        p = tmp_path / f"host{i}.log"
        p.write_text(EXAMPLE.read_text() if i % 2 == 0 else UNKNOWN_LOG)
        logs.append(p)
    procs = [subprocess.Popen([sys.executable, "-m", "fp8triage", "scan", str(p), "--db", str(db)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(), text=True)
             for p in logs]
    codes, errs = [], []
    for p in procs:
        _, err = p.communicate(timeout=120)
        codes.append(p.returncode)
        errs.append(err)
    assert codes == [3, 4] * 4, errs
    assert not any("warning" in e for e in errs), errs
    conn = sqlite3.connect(db)
    inputs = sorted(json.loads(r[0])[0] for r in conn.execute("SELECT inputs FROM runs"))
    assert inputs == sorted(str(p) for p in logs)
    assert conn.execute("SELECT COUNT(*) FROM findings WHERE signature_id = 'deepgemm-unknown-sf-transformation'").fetchone()[0] == 4
    with_facts = {r[0] for r in conn.execute("SELECT DISTINCT run_id FROM facts")}
    example_runs = {r[0] for r in conn.execute("SELECT id FROM runs WHERE exit_code = 3")}
    assert len(example_runs) == 4 and with_facts == example_runs  # the unknown-only log names no facts
    g = history.query(db, status="unknown")["groups"]
    assert len(g) == 1 and g[0]["runs"] == 4
    f = history.query(db)["findings"][0]
    assert f["runs"] == 4


def test_corrupt_database_warns_and_still_reports(tmp_path):
    db = tmp_path / "bad.db"
    db.write_bytes(b"this is not sqlite at all\n" * 100)
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", str(EXAMPLE), "--db", str(db), "--format", "json"],
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode == 3
    assert json.loads(p.stdout)["findings"][0]["id"] == "deepgemm-unknown-sf-transformation"
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "warning" in lines[0] and "corrupt" in lines[0] and "Traceback" not in p.stderr


def test_unwritable_location_warns_and_still_reports(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", str(EXAMPLE), "--db", str(blocker / "h.db")],
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode == 3 and "ROOT CAUSE" in p.stdout
    assert len(p.stderr.strip().splitlines()) == 1 and "cannot be created" in p.stderr


def test_read_only_database_warns(tmp_path, monkeypatch):
    db = tmp_path / "ro.db"
    history.record_run(scan_text(UNKNOWN_LOG), 4, path=db)
    ro_uri = f"file:{db}?mode=ro"
    real_connect = sqlite3.connect
    monkeypatch.setattr(history.sqlite3, "connect", lambda *_a, **kw: real_connect(ro_uri, uri=True, **kw))
    with pytest.raises(history.HistoryError, match="read-only"):
        history.record_run(scan_text(UNKNOWN_LOG), 4, path=db)


def test_no_history_and_env_override(tmp_path):
    db = tmp_path / "env.db"
    r = run(["scan", str(EXAMPLE), "--no-history"], env={"FP8TRIAGE_DB": str(db)})
    assert r.exit_code == 3 and not db.exists()
    r = run(["scan", str(EXAMPLE)], env={"FP8TRIAGE_DB": str(db)})
    assert r.exit_code == 3 and history._table_counts(db)["runs"] == 1


def test_history_command_text_and_json(tmp_path):
    db = tmp_path / "h.db"
    history.record_run(scan_text(UNKNOWN_LOG, source="u.log"), 4, path=db)
    history.record_run(scan_text(EXAMPLE.read_text(), source="e.log"), 3, path=db)
    r = run(["history", "--db", str(db)])
    assert r.exit_code == 0
    assert "deepgemm-unknown-sf-transformation" in r.output and "UNKNOWN" in r.output
    assert "--from-fingerprint" in r.output
    r = run(["history", "--db", str(db), "--status", "unknown", "--format", "json"])
    doc = json.loads(r.output)
    assert doc["findings"] == [] and [g["status"] for g in doc["groups"]] == ["unknown"]
    r = run(["history", "--db", str(db), "--signature", "deepgemm-unknown-sf-transformation", "--since", "1h",
             "--format", "json"])
    doc = json.loads(r.output)
    assert doc["findings"][0]["runs"] == 1 and all(g["signature_id"] for g in doc["groups"])


def test_history_command_errors_are_one_sentence(tmp_path):
    r = CliRunner().invoke(cli, ["history", "--db", str(tmp_path / "missing.db")])
    assert r.exit_code == 1 and "does not exist yet" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(cli, ["history", "--db", str(tmp_path / "missing.db"), "--since", "soon"])
    assert r.exit_code == 1


def test_scan_stays_light(tmp_path):
    """Recording a run to a database at the current schema does not import sqlite-utils (numpy, plugins)."""
    db = tmp_path / "h.db"
    history.record_run(scan_text(UNKNOWN_LOG), 4, path=db)
    code = ("import sys, runpy; sys.argv = ['fp8triage', 'scan', %r, '--db', %r]\n"
            "try:\n    runpy.run_module('fp8triage', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "bad = [m for m in ('sqlite_utils', 'torch', 'numpy') if m in sys.modules]\n"
            "print('IMPORTED', bad)") % (str(EXAMPLE), str(db))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), timeout=120)
    assert "IMPORTED []" in p.stdout, p.stdout[-500:] + p.stderr[-2000:]
    assert history._table_counts(db)["runs"] == 2


def test_signature_from_fingerprint(tmp_path):
    db = tmp_path / "h.db"
    history.record_run(scan_text(UNKNOWN_LOG, source="u.log"), 4, path=db)
    fp = history.query(db, status="unknown")["groups"][0]["fingerprint"]
    sigs = tmp_path / "sigs"
    sigs.mkdir()
    r = run(["signatures", "new", "weird-fp8-blob", "--from-fingerprint", fp[:8], "--db", str(db), "--dir", str(sigs)])
    assert r.exit_code == 0, r.output
    toml = (sigs / "weird-fp8-blob.toml").read_text()
    assert "ValueError: weird fp8 blob" in toml and fp in toml
    sample = sigs / "samples" / "weird-fp8-blob" / "match" / f"history-{fp}.log"
    assert "weird fp8 blob 0x7f12ab" in sample.read_text()
    # the scaffolded signature claims the same error with other numbers, paths and ranks
    other = UNKNOWN_LOG.replace("0x7f12ab", "0x1").replace("rank 3", "rank 7").replace("[128, 7168]", "[64, 64]")
    other = other.replace("/usr/lib/python3/site-packages/foo", "/opt/venv/lib/python3.12/site-packages/foo")
    from fp8triage.catalogue.loader import load_catalogue

    # a draft until its author finishes it: never a finding
    assert not scan_text(other, catalogue=load_catalogue([sigs])).findings
    f = sigs / "weird-fp8-blob.toml"
    f.write_text(f.read_text().replace("draft = true\n", ""))
    cat = load_catalogue([sigs])
    res = scan_text(other, catalogue=cat)
    assert res.findings and res.findings[0].id == "weird-fp8-blob"
    assert not res.unknown
    # errors
    r = CliRunner().invoke(cli, ["signatures", "new", "x-y", "--from-fingerprint", "abcdef12", "--db", str(db), "--dir", str(sigs)])
    assert r.exit_code == 1 and "no error group with fingerprint" in r.output
    r = CliRunner().invoke(cli, ["signatures", "new", "x-y", "--from-fingerprint", "zz", "--db", str(db), "--dir", str(sigs)])
    assert r.exit_code == 1 and "is not a fingerprint" in r.output


def test_pattern_from_line_generalises_masked_tokens():
    import regex

    from fp8triage.authoring.scaffold import pattern_from_line

    d = pattern_from_line("RuntimeError: Assertion error (/ws/.deps/deepgemm/csrc/apis/layout.hpp:59): Unknown SF transformation")
    assert regex.search(d.pattern, "RuntimeError: Assertion error (/other/layout.hpp:60): Unknown SF transformation")
    assert not regex.search(d.pattern, "RuntimeError: Assertion error (/other/layout.hpp:60): Unknown recipe")
    assert d.anchor == "RuntimeError: Assertion error ("


def test_history_for_an_unknown_signature_id_is_an_error_not_silence(tmp_path):
    """issue 16, item 14: `history --signature nope` says that no signature has that id (exit 1)."""
    db = tmp_path / "h.db"
    history.record_run(scan_text(EXAMPLE.read_text(), source="server.log"), 3, path=db)
    r = CliRunner().invoke(cli, ["history", "--db", str(db), "--signature", "nope"])
    assert r.exit_code == 1 and "no signature is named 'nope'" in r.output
    r = run(["history", "--db", str(db), "--signature", "deepgemm-fp32-sf-sm100"])  # known, never seen
    assert r.exit_code == 0 and "(none: no recorded run found deepgemm-fp32-sf-sm100)" in r.output
    r = run(["history", "--db", str(db), "--signature", "deepgemm-unknown-sf-transformation"])
    assert r.exit_code == 0 and "deepgemm-unknown-sf-transformation  [likely" in r.output


DEEPGEMM_ENGINE_LOG = ROOT / "signatures" / "samples" / "deepgemm-unsupported-arch" / "match" / "vllm-h100-mqa-logits-arch-major.log"
OOM_ENGINE_LOG = """(EngineCore_DP0 pid=7001) INFO 11-03 08:00:00 [gpu_model_runner.py:2602] Starting to load model Qwen/Qwen3-32B-FP8...
(EngineCore_DP0 pid=7001) ERROR 11-03 08:02:00 [core.py:708] EngineCore failed to start.
(EngineCore_DP0 pid=7001) ERROR 11-03 08:02:00 [core.py:708] Traceback (most recent call last):
(EngineCore_DP0 pid=7001) ERROR 11-03 08:02:00 [core.py:708]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/worker/gpu_model_runner.py", line 2910, in profile_run
(EngineCore_DP0 pid=7001) ERROR 11-03 08:02:00 [core.py:708]     hidden_states = self._dummy_run(self.max_num_tokens)
(EngineCore_DP0 pid=7001) ERROR 11-03 08:02:00 [core.py:708] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.
"""


def test_a_group_keeps_the_label_it_was_explained_by(tmp_path):
    """issue 24, item 9: "EngineCore failed to start." seen under a DeepGEMM root cause does not become
    UNKNOWN (with a suggestion to write a signature for it) after an unrelated OOM scan."""
    db = tmp_path / "h.db"
    first = scan_text(DEEPGEMM_ENGINE_LOG.read_text(), source="deepgemm.log")
    assert first.findings[0].id == "deepgemm-unsupported-arch" and first.findings[0].consequences
    history.record_run(first, 3, path=db)
    later = scan_text(OOM_ENGINE_LOG, source="oom.log")
    assert any(u.headline == "EngineCore failed to start." for u in later.unknown)  # no root cause this time
    history.record_run(later, 4, path=db)
    groups = {g["headline"]: g for g in history.query(db)["groups"]}
    engine = groups["EngineCore failed to start."]
    assert (engine["signature_id"], engine["kind"], engine["status"], engine["runs"]) == (
        "deepgemm-unsupported-arch", "consequence", "likely", 2)
    assert "EngineCore failed to start." not in {g["headline"] for g in history.query(db, status="unknown")["groups"]}
    r = run(["history", "--db", str(db)])
    assert r.exit_code == 0
    out = r.output
    assert "follows from deepgemm-unsupported-arch" in out and "UNKNOWN  [unknown]\n    EngineCore" not in out
    engine_fp = engine["fingerprint"]
    assert f"--from-fingerprint {engine_fp}" not in out
    # only the OOM traceback is unknown, and it is what the suggestion names
    oom_fp = next(g["fingerprint"] for g in groups.values() if "OutOfMemoryError" in g["headline"])
    assert f"--from-fingerprint {oom_fp}" in out


def test_signature_from_fingerprint_is_a_draft_in_the_user_catalogue(tmp_path, monkeypatch):
    """issue 24, item 11: `signatures new --from-fingerprint` (which the scan output suggests) writes into
    the user catalogue, not the bundled one, and its TODO scaffold is not a ROOT CAUSE in the next scan;
    once filled in (and `draft = true` deleted) every scan uses it without --signatures."""
    from fp8triage import paths
    from fp8triage.authoring import sigtools

    monkeypatch.setenv("FP8TRIAGE_DATA_DIR", str(tmp_path / "data"))
    db = tmp_path / "h.db"
    log = tmp_path / "server.log"
    log.write_text(UNKNOWN_LOG)
    r = run(["scan", str(log), "--db", str(db)])
    assert r.exit_code == 4 and "--from-fingerprint" in r.output
    fp = history.query(db, status="unknown")["groups"][0]["fingerprint"]
    bundled = set(sigtools.builtin_dir().rglob("*"))
    r = run(["signatures", "new", "weird-fp8-blob", "--from-fingerprint", fp, "--db", str(db)])
    assert r.exit_code == 0, r.output
    user = tmp_path / "data" / "signatures"
    assert paths.user_signatures_dir() == user
    toml = user / "weird-fp8-blob.toml"
    assert toml.is_file() and (user / "samples" / "weird-fp8-blob" / "match" / f"history-{fp}.log").is_file()
    assert set(sigtools.builtin_dir().rglob("*")) == bundled  # nothing written into the bundled catalogue
    assert f"fp8triage signatures validate {user}" in r.stderr
    # the next scan: still unknown, not a likely ROOT CAUSE made of TODO text; a warning says why
    r = run(["scan", str(log), "--no-history"])
    assert r.exit_code == 4 and "ROOT CAUSE" not in r.output and "TODO" not in r.stdout
    assert "signature weird-fp8-blob is a draft" in r.output
    # validate says what is missing
    r = CliRunner().invoke(cli, ["signatures", "validate", str(user)])
    assert r.exit_code == 1
    assert f"{toml}: draft: is true" in r.stderr and f"{toml}: title: still holds the scaffold's TODO text" in r.stderr
    assert "no near-miss sample" in r.stderr
    # the author fills it in: a plain scan (no --signatures) now names it
    done = toml.read_text().replace("draft = true\n", "").replace("todo-remedy", "read-the-blob")
    toml.write_text(done.replace("TODO", "Weird FP8 blob explained"))
    near = user / "samples" / "weird-fp8-blob" / "near-miss"
    (near / "other-value-error.log").write_text("ValueError: another problem entirely\n")
    r = CliRunner().invoke(cli, ["signatures", "validate", str(user)])
    assert r.exit_code == 0, r.stderr
    r = run(["scan", str(log), "--no-history"])
    assert r.exit_code == 3 and "ROOT CAUSE  weird-fp8-blob" in r.output and "is a draft" not in r.output
