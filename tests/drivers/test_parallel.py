"""One scan path, four ways to feed it (issue 13): the prefiltered scan, the exhaustive reference
(``--no-prefilter``), follow mode (line by line) and the parallel scan of byte ranges give the
same result on the corpus, every signature sample and every bench mix; and signals stop every
worker of a parallel scan (issue 16 item 5)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fp8triage.drivers import parallel
from fp8triage.scan import ocr
from fp8triage.catalogue.loader import load_catalogue
from fp8triage.common.source import Source
from fp8triage.drivers.follow import Follower
from fp8triage.drivers.batch import scan_paths
from fp8triage.scan.scanner import Scanner

pytestmark = pytest.mark.slow  # the whole module: `make check` leaves it to `make test`

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "scan"))  # test_equivalence: the scan tests this file compares against
from corpuspath import corpus_dir, skip_without_corpus  # noqa: E402
from benchmods import bench_module, planted_to_find  # noqa: E402
from test_equivalence import _facts, summary  # noqa: E402

CORPUS = corpus_dir()
CASES = sorted((CORPUS / "cases").glob("*.log")) if CORPUS else []
SAMPLES = sorted((ROOT / "signatures" / "samples").glob("**/*.log"))
MIXES = ("startup", "warnings", "debug", "errors", "k8s", "sglang", "restart-loop", "crash-loop", "storm")


@pytest.fixture(scope="module")
def cat():
    return load_catalogue()


def _mixes():
    return bench_module("mixes")


class InlinePool:
    """multiprocessing's Pool, run in this process (the split/merge logic without forking)."""

    def __init__(self, n, initializer=None):
        parallel._WORKER = Scanner(parallel._PARENT.cat, exhaustive=parallel._PARENT.exhaustive,
                                   prefilter=parallel._PARENT.prefilter)

    def imap(self, fn, tasks):
        return (fn(t) for t in tasks)

    def close(self):
        pass

    def join(self):
        pass

    def terminate(self):
        pass


class InlineContext:
    Pool = InlinePool


def _batch(cat, path: Path, exhaustive=False, facts=()):
    return summary(scan_paths([str(path)], catalogue=cat, exhaustive=exhaustive, cli_facts=list(facts)))


def _split(cat, path: Path, monkeypatch, facts=(), parts=3, warm=2048):
    """The parallel scan with ``parts`` ranges per file, in process."""
    import multiprocessing

    monkeypatch.setattr(parallel, "SPLIT_MIN", 1)
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 1)
    monkeypatch.setattr(parallel, "WARM", warm)
    monkeypatch.setattr(multiprocessing, "get_context", lambda _kind: InlineContext())
    return summary(scan_paths([str(path)], catalogue=cat, jobs=parts, cli_facts=list(facts)))


def _follow(cat, path: Path, facts=(), blocks: bool = False):
    """Follow mode, a line at a time (``Follower.feed``), or in blocks of 1 to 60 lines as reads
    bring them (``Follower.feed_lines``: the batch selector on each block)."""
    import random

    fl = Follower(cat, str(path), facts, clock=lambda: 0.0)
    data = path.read_bytes()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    lines = [raw[:-1] if raw.endswith(b"\r") else raw for raw in lines]
    if blocks:
        rnd = random.Random(len(lines))
        i = 0
        while i < len(lines):
            n = rnd.randint(1, 60)
            fl.feed_lines(lines[i:i + n])
            i += n
    else:
        for raw in lines:
            fl.feed(raw)
    fl.finish()
    return summary(fl.result())


def _same(a: dict, b: dict, what: str, skip=()):
    for key in a:
        if key not in skip:
            assert a[key] == b[key], f"{what}: {key} differs"


def _check(cat, path, monkeypatch, facts=(), parts=3, warm=2048):
    ref = _batch(cat, path, exhaustive=True, facts=facts)
    _same(ref, _batch(cat, path, facts=facts), f"{path.name} prefiltered")
    if ocr.looks_transcribed(Path(path).read_bytes()):
        # a screenshot's transcription is read as the screen showed it by a scan of the whole source (scan/ocr.py):
        # a parallel scan splits only sources of 32 MB or more, and follow mode reads lines as they are written
        assert parallel.SPLIT_MIN > ocr.MAX_BYTES
        return
    _same(ref, _split(cat, path, monkeypatch, facts, parts, warm), f"{path.name} parallel")
    # follow mode reads lines as a stream: byte and line counts and long-line warnings are its own
    _same(ref, _follow(cat, path, facts), f"{path.name} follow", skip=("inputs", "warnings"))
    _same(ref, _follow(cat, path, facts, blocks=True), f"{path.name} follow in blocks", skip=("inputs", "warnings"))


@pytest.mark.parametrize("case", CASES or [None], ids=lambda p: p.name if p else "no-corpus")
def test_corpus_case_four_ways(cat, case, monkeypatch):
    if case is None:
        skip_without_corpus()
    _check(cat, case, monkeypatch)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: str(p.relative_to(ROOT / "signatures" / "samples")))
def test_signature_sample_four_ways(cat, sample, monkeypatch):
    _check(cat, sample, monkeypatch, _facts(sample))


@pytest.mark.parametrize("mix", MIXES)
def test_bench_mix_four_ways(cat, mix, tmp_path, monkeypatch):
    out = tmp_path / f"{mix}.log"
    man = _mixes().generate(out, 1_500_000, mix, seed=7, plants=3)
    _check(cat, out, monkeypatch, parts=5, warm=16 * 1024)
    want, ids = planted_to_find(cat, out, man)
    for p in want:
        assert p["signature"] in ids, f"{mix}: planted {p['signature']} not found"


def test_real_worker_processes_merge_exactly(cat, tmp_path, monkeypatch):
    """Forked workers, ranges handed over between them (a stale open event of a silent worker
    passes through ranges; others are re-scanned in the parent where the warm-up missed them)."""
    out = tmp_path / "errors.log"
    _mixes().generate(out, 3_000_000, "errors", seed=3, plants=4)
    ref = _batch(cat, out)
    monkeypatch.setattr(parallel, "SPLIT_MIN", 1)
    monkeypatch.setattr(parallel, "PARALLEL_MIN", 1)
    monkeypatch.setattr(parallel, "WARM", 4096)
    for jobs in (2, 4):
        assert summary(scan_paths([str(out)], catalogue=cat, jobs=jobs)) == ref


def _quiet_workers_log(path: Path, seed: int) -> None:
    """Workers whose error records are continued (the same header on the next record, as vLLM logs
    a multi-line message) near and far: around the expiry distance, with hits in between."""
    import random

    rnd = random.Random(seed)
    out = []
    for i in range(1500):
        r = rnd.random()
        w = rnd.randrange(6)
        if r < 0.05:
            out.append(f"(VllmWorker rank={w} pid={50 + w}) ERROR 08-11 09:14:00 [core.py:1] step {i} failed")
        elif r < 0.07:
            out.append(f"(VllmWorker rank={w} pid={50 + w}) ERROR 08-11 09:14:00 [core.py:1] RuntimeError: boom {i % 3}")
        elif r < 0.075:
            out.append("WARNING 08-11 09:14:00 [x.py:1] no worker prefix; and this warning is long enough to wrap")
        elif r < 0.08:
            out.append(f"(APIServer pid=1) ERROR 08-11 09:14:00 [api.py:1] request {i} Error")
        else:
            out.append(f"(APIServer pid=1) INFO 08-11 09:14:00 [api.py:1] request {i} done")
    path.write_text("\n".join(out) + "\n")


@pytest.mark.parametrize("seed,near,warm", [(1, 32 * 1024, 512), (2, 200, 64), (3, 1000, 64), (4, 200, 4096)])
def test_events_expire_alike_four_ways(cat, tmp_path, monkeypatch, seed, near, warm):
    from fp8triage.scan import events, selector

    monkeypatch.setattr(events, "QUIET_LINES", 40)  # expiries everywhere in 1,500 lines
    monkeypatch.setattr(selector, "NEAR", near)  # the near search, and the search to the expiry line
    path = tmp_path / "quiet.log"
    _quiet_workers_log(path, seed)
    # a small warm-up: events open where ranges meet are settled by the parent (handover)
    _check(cat, path, monkeypatch, parts=7, warm=warm)


def test_an_event_that_expired_inside_the_warm_up_needs_no_second_scan(cat, tmp_path, monkeypatch):
    """The warm-up before a range numbers its lines from below zero: an event that expired there is
    complete there too, so the two ranges agree and the parent does not scan the range again."""
    from fp8triage.scan import events, ranges

    monkeypatch.setattr(events, "QUIET_LINES", 40)
    lines = []
    for i in range(3000):
        if i % 500 == 200:  # a failure every 500 lines, some 300 lines before a range starts: in its warm-up
            lines.append(f"(VllmWorker rank={i % 7} pid=9) ERROR 08-11 09:14:00 [core.py:1] RuntimeError: boom {i}")
        else:
            lines.append(f"(APIServer pid=1) INFO 08-11 09:14:00 [api.py:1] request {i} done")
    path = tmp_path / "expired.log"
    path.write_text("\n".join(lines) + "\n")
    rescans = []
    real = ranges.pass_through

    def pass_through(*args):
        met = real(*args)
        rescans.append(met is None)
        return met

    monkeypatch.setattr(ranges, "pass_through", pass_through)
    ref = _batch(cat, path)
    assert _split(cat, path, monkeypatch, parts=6, warm=len(path.read_bytes()) // 8) == ref
    assert rescans and not any(rescans)


def test_an_event_expires_when_its_worker_is_quiet_long_enough(cat):
    from fp8triage.scan.events import QUIET_LINES

    def heads(gap: int) -> list[str]:
        lines = ["(VllmWorker rank=1 pid=5) ERROR 08-11 09:14:00 [core.py:1] first failure"]
        lines += [f"(APIServer pid=1) INFO 08-11 09:14:00 [api.py:1] request {i}" for i in range(gap)]
        lines += ["(VllmWorker rank=1 pid=5) ERROR 08-11 09:14:00 [core.py:1] second failure"]
        data = ("\n".join(lines) + "\n").encode()
        sc = Scanner(cat)
        sc.scan_source(Source("q.log", None, len(data), data=data))
        return sorted(g.event.message for g in sc.groups.values())

    # a record with the same header right after (or soon after) continues the message
    assert heads(10) == ["first failure second failure"]
    assert heads(QUIET_LINES - 1) == ["first failure second failure"]
    # the worker was quiet for QUIET_LINES lines: the first event was complete
    assert heads(QUIET_LINES) == ["first failure", "second failure"]


# -- signals (issue 16 item 5) ---------------------------------------------------------------------

def _children(pid: int) -> set[int]:
    out: set[int] = set()
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                out |= {int(x) for x in fh.read().split()}
    except OSError:
        pass
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(") ", 1)[1][:1] not in ("Z", "X")
    except OSError:
        return False


@pytest.fixture(scope="module")
def big_log(tmp_path_factory):
    """A log that keeps two workers busy for many seconds: every line an error record (each one
    an event to assemble and group; warnings no signature claims are skipped undecoded)."""
    block = "".join(f"(VllmWorker rank={i % 8} pid={100 + i % 8}) ERROR 08-11 09:14:{i % 60:02d} [x.py:{i}] "
                    f"request {i} failed; total_num_cumulative_preemption={i}\n" for i in range(2000))
    path = tmp_path_factory.mktemp("big") / "busy.log"
    data = block.encode() * (48 * 1024 * 1024 // len(block))
    path.write_bytes(data)
    return path


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs /proc (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_signal_stops_every_worker(big_log, tmp_path, sig):
    env = dict(os.environ, PYTHONPATH=str(ROOT), HOME=str(tmp_path), FP8TRIAGE_NO_PROGRESS="1")
    p = subprocess.Popen([sys.executable, "-m", "fp8triage", "scan", str(big_log), "-j", "2", "--no-history",
                          "--format", "json", "-o", str(tmp_path / "out.json")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            workers = {c for c in _children(p.pid) if _alive(c)}
            assert p.poll() is None, p.stderr.read().decode()
            time.sleep(0.05)
        assert len(workers) >= 2, "the parallel scan did not start its workers"
        time.sleep(0.5)
        p.send_signal(sig)
        rc = p.wait(timeout=10)  # promptly, not after the workers finish their ranges
        assert rc == 128 + sig, (rc, p.stderr.read().decode()[-2000:])
        time.sleep(0.5)
        assert not [w for w in workers if _alive(w)], "workers outlived the parent"
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        for w in _children(p.pid):
            try:
                os.kill(w, signal.SIGKILL)
            except OSError:
                pass


def test_a_groups_last_occurrence_is_the_one_that_starts_last_whatever_order_they_complete_in():
    # two workers' events of one fingerprint: the one that starts later may complete first (a parallel scan's ranges
    # complete them in yet another order); merged parts keep the later one too
    from fp8triage.judge.claims import Group
    from fp8triage.model import Event, EventKind, Line

    def ev(lineno, worker):
        return Event(EventKind.ERROR, [Line("big.log", lineno, "RuntimeError: boom", worker, "ERROR")],
                     exc_type="RuntimeError", message="boom")

    g = Group(fingerprint="f", event=ev(5, "w0"))
    g.add(ev(10681, "w15"))
    g.add(ev(10680, "w12"))
    assert g.last.lineno == g.parts["big.log"].last.lineno == 10681
    other = Group(fingerprint="f", event=ev(10679, "w3"))
    g.absorb(other)
    assert g.last.lineno == g.parts["big.log"].last.lineno == 10681


def test_a_ranges_line_numbers_move_everywhere_its_groups_hold_them():
    # a range counts its lines from its own start; moved to the file's numbers, each source's part of a group (its
    # first event and the line where it was seen last: what a finding and an unknown group print) moves too
    from fp8triage.judge.claims import Group
    from fp8triage.model import Event, EventKind, Line

    ev = Event(EventKind.ERROR, [Line("big.log", 630, "EngineCore failed to start.", "EngineCore_DP0", "ERROR")],
               exc_type=None, message="EngineCore failed to start.")
    g = Group(fingerprint="f", event=ev)
    state = {"groups": [g], "logfacts": {}, "dumps": [], "first_emit": {}, "workers_fed": {}}
    parallel.renumber(state, 13454)
    part = g.parts["big.log"]
    assert g.event.lines[0].lineno == part.event.lines[0].lineno == 14084
    assert part.last.lineno == 14084


def test_the_bench_tells_a_missed_plant_from_one_the_log_s_machine_judges_otherwise():
    """bench/run.py reports a planted failure it did not find as missed, unless the log's facts contradict the
    plant's signature (an A100's FP8 gate planted into an H100 log is another signature's failure there)."""
    run = bench_module("run")
    h100 = [{"name": "capability", "value": "9.0", "source": "log x:1", "origin": "log"}]
    t4 = [{"name": "capability", "value": "7.5", "source": "log x:1", "origin": "log"}]
    assert run._contradicted("fp8-unsupported-capability", h100)
    assert not run._contradicted("fp8-unsupported-capability", t4)
    assert not run._contradicted("fp8-unsupported-capability", [])
