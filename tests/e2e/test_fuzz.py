"""Property and fuzz tests over ingest, normalisation, event assembly, fingerprinting and matching.

Hostile input must never be the second thing that breaks: no crash, bounded memory, one clear
sentence (exit 1) where the input is unusable, and results for the readable part.

The big cases (50 MB single line, 100k-frame traceback, deep exception chains, 10k files) run the
real CLI in a subprocess and read its peak memory with ``resource.getrusage``; they are marked
``slow`` but take seconds each and run in CI. docs/reliability.md records the counts and numbers.
"""
from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
import textwrap
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from fp8triage.scan import events as E
from fp8triage.common.masks import mask
from fp8triage.scan.fingerprint import fingerprint
from fp8triage.common.source import Source
from fp8triage.scan.ingest import MAX_LINE, _read_chunks
from fp8triage.judge.claims import Group
from fp8triage.judge.matcher import claim
from fp8triage.model import EventKind, Line
from fp8triage.scan.normalise import LineFormat, decode, detect_format, normalise
from fp8triage.catalogue.loader import load_catalogue
from fp8triage.drivers.batch import scan_text as _scan_text
from fp8triage.render.jsonout import render_json
from fp8triage.scan.binary import HEAD, binary_kind
from fp8triage.render.text import render_text

pytestmark = pytest.mark.slow  # the whole module: `make check` leaves it to `make test`

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "vllm-rtx5090-unknown-sf.log").read_bytes()
KNOWN = "deepgemm-unknown-sf-transformation"
@lru_cache(maxsize=1)
def _cat():
    return load_catalogue()


def scan_text(data, **kw):
    return _scan_text(data, catalogue=_cat(), **kw)


FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=1)
def schema_validator():
    import jsonschema

    schema = json.loads((ROOT / "fp8triage" / "schemas" / "scan.schema.json").read_text())
    return jsonschema.Draft202012Validator(schema)


def check_result(result) -> dict:
    """Every result renders to valid, schema-valid JSON and to text without control characters."""
    doc = json.loads(render_json(result, exit_code=0))
    errors = list(schema_validator().iter_errors(doc))
    assert not errors, errors[0].message
    text = render_text(result, color=False, verbose=True)
    assert not any(ord(c) < 32 and c not in "\n\t" or 0x7F <= ord(c) <= 0x9F for c in text)
    return doc


# -- strategies ------------------------------------------------------------------------------------

LOG_PIECES = [
    b"Traceback (most recent call last):",
    b'  File "/usr/lib/python3.12/site-packages/vllm/worker.py", line 42, in load_model',
    b"    self.model = loader.load()",
    b"    ^^^^^^^^^^^^",
    b"RuntimeError: CUDA error: an illegal memory access was encountered",
    b"ValueError: bad value 0x7ffd1234",
    b"",
    b"During handling of the above exception, another exception occurred:",
    b"The above exception was the direct cause of the following exception:",
    b"Assertion error (csrc/layout.hpp:60): Unknown SF transformation",
    b"terminate called after throwing an instance of 'c10::Error'",
    b"  what():  CUDA error: device-side assert triggered",
    b"(VllmWorker rank=3 pid=123) ERROR 04-27 23:40:50 [multiproc_executor.py:962] WorkerProc failed to start.",
    b"[rank1]: RuntimeError: NCCL error",
    b"[1,0]<stderr>: Segmentation fault (core dumped)",
    b"WARNING 01-01 00:00:00 [fp8.py:1] FP8 is not supported on this GPU",
    b'{"log": "ERROR something failed\\n", "stream": "stderr"}',
    b"\x1b[31mERROR\x1b[0m colourful failure",
    b"\x1b]8;;http://evil.example/\x07click\x1b]8;;\x07 Error",
    b"INFO all good",
    b"...",
    b"E   AssertionError: assert 1 == 2",
    b"block: [0,0,0], thread: [1,0,0] Assertion `idx < size` failed.",
    b"Device 0: NVIDIA GeForce RTX 5090, compute capability 12.0",
    b"vLLM API server version 0.24.0",
]
log_lines = st.one_of(
    st.sampled_from(LOG_PIECES),
    st.binary(max_size=120).map(lambda b: b.replace(b"\n", b" ")),
    st.text(max_size=80).map(lambda t: t.replace("\n", " ").encode("utf-8", "surrogatepass")),
)
log_bytes = st.lists(log_lines, max_size=60).map(lambda ls: b"\n".join(ls))


# -- ingest ----------------------------------------------------------------------------------------

def chunks_of(data: bytes, chunk_size: int) -> list[bytes]:
    return list(_read_chunks(Source("<t>", None, len(data), data=data), chunk_size))


@FUZZ
@given(data=st.binary(max_size=4000), chunk_size=st.integers(min_value=1, max_value=600))
def test_chunks_reassemble_the_input_exactly(data, chunk_size):
    """Chunks are newline-aligned and concatenate to the input (no line is long enough to be cut)."""
    assume(not data.startswith(b"\x1f\x8b\x08"))  # that is gzip, decompressed
    chunks = chunks_of(data, chunk_size)
    assert b"".join(chunks) == data
    for c in chunks[:-1]:
        assert c.endswith(b"\n")


@settings(max_examples=30, deadline=None)
@given(n_lines=st.integers(0, 3), extra=st.integers(1, 200_000), newline=st.booleans())
def test_overlong_lines_are_cut_and_reported(n_lines, extra, newline):
    """MAX_LINE is a soft limit: a line is cut once it outgrows MAX_LINE with no newline in the
    buffered chunk, so no line that comes out is longer than MAX_LINE + one chunk, and memory
    stays bounded by that."""
    chunk = 64 * 1024
    long_len = MAX_LINE + chunk + extra
    data = b"before\n" * n_lines + b"x" * long_len + (b"\nafter\n" if newline else b"")
    src = Source("<t>", None, len(data), data=data)
    chunks = list(_read_chunks(src, chunk))
    lines = b"".join(chunks).split(b"\n")
    assert max(len(ln) for ln in lines) <= MAX_LINE + chunk
    assert lines[:n_lines] == [b"before"] * n_lines
    if newline:
        assert lines[-2:] == [b"after", b""]
    assert any("longer than" in w for w in src.warnings)


def _gz_with_failure() -> tuple[bytes, int]:
    rnd = random.Random(7)
    filler = b"".join(b"INFO 08-11 09:16:%02d [engine.py:1] step %d tokens %d\n" % (i % 60, i, rnd.randrange(10**6))
                      for i in range(20000))
    raw = EXAMPLE + filler
    comp = gzip.compress(raw, compresslevel=6)
    # a compressed offset well past the example: damage from there on may cost the 64 KiB of text
    # decoded just before it (ingest reads gzip in 64 KiB steps), never the example
    return comp, len(gzip.compress(EXAMPLE, compresslevel=6)) + 40_000


@settings(max_examples=60, deadline=None)
@given(frac=st.floats(min_value=0.0, max_value=1.0))
def test_truncated_gzip_after_a_known_failure_still_reports_it(frac):
    comp, safe = _gz_with_failure()
    cut = safe + int((len(comp) - 8 - safe) * frac)
    r = scan_text(comp[:cut])
    assert r.findings and r.findings[0].id == KNOWN
    assert any("compressed stream is truncated" in w for w in r.warnings)
    assert r.inputs[0].format.startswith("gzip")
    check_result(r)


@settings(max_examples=60, deadline=None)
@given(frac=st.floats(min_value=0.0, max_value=1.0), junk=st.binary(min_size=1, max_size=64))
def test_corrupt_gzip_after_a_known_failure_still_reports_it(frac, junk):
    comp, safe = _gz_with_failure()
    at = safe + int((len(comp) - 8 - safe - len(junk)) * frac)
    bad = comp[:at] + bytes(b ^ 0xA5 for b in junk) + comp[at + len(junk):]
    r = scan_text(bad)
    assert r.findings and r.findings[0].id == KNOWN
    # deflate notices most damage; damage it cannot notice still decodes to (wrong) bytes
    assert any("compressed stream is" in w for w in r.warnings) or r.inputs[0].bytes > len(EXAMPLE)
    check_result(r)


@FUZZ
@given(data=st.binary(max_size=200))
def test_any_bytes_after_a_gzip_magic_are_no_crash(data):
    r = scan_text(b"\x1f\x8b\x08" + data)
    check_result(r)
    assert r.inputs[0].format.startswith("gzip")


def test_empty_and_whitespace_inputs():
    for data in (b"", b"\n", b"\n\n\n", b"   ", b"\r\n", b"\x00"):
        r = scan_text(data)
        assert not r.findings and not r.unknown
        check_result(r)


# -- normalisation ---------------------------------------------------------------------------------

@FUZZ
@given(raw=st.binary(max_size=300))
def test_decoded_text_is_safe_to_print(raw):
    text = decode(raw.replace(b"\n", b""))
    assert "\x1b" not in text
    assert not any(ord(c) < 32 and c != "\t" for c in text)


@FUZZ
@given(raw=st.binary(max_size=300), jsonl=st.booleans(), compose=st.booleans())
def test_normalise_never_raises_and_keeps_position(raw, jsonl, compose):
    raw = raw.replace(b"\n", b"")
    ln = normalise(raw, "src.log", 17, LineFormat(jsonl=jsonl, compose=compose))
    assert ln.source == "src.log" and ln.lineno == 17
    assert "\x1b" not in ln.text and "\x00" not in ln.text


@FUZZ
@given(head=st.binary(max_size=2000))
def test_detect_format_never_raises(head):
    detect_format(head)


def test_deeply_nested_json_lines_are_text():
    deep = b'{"log": ' + b"[" * 200_000 + b"]" * 200_000 + b"}"
    r = scan_text(b'{"log": "INFO ok"}\n' * 10 + deep + b"\n" + b'{"log": "RuntimeError: boom"}\n')
    assert [u.headline for u in r.unknown] == ["RuntimeError: boom"]
    check_result(r)


# -- event assembly --------------------------------------------------------------------------------

@FUZZ
@given(pieces=st.lists(st.tuples(st.sampled_from(LOG_PIECES), st.sampled_from([None, "w1", "w2"]), st.booleans()),
                       max_size=200))
def test_assembler_emits_ordered_bounded_events(pieces):
    out = []
    asm = E.Assembler(out.append)
    fmt = LineFormat()
    for i, (raw, worker, notable) in enumerate(pieces, 1):
        ln = normalise(raw, "s", i, fmt)
        if worker and ln.worker is None:
            ln = Line(ln.source, ln.lineno, ln.text, worker, ln.level)
        asm.feed(ln, notable)
    asm.finish()
    seen = set()
    for ev in out:
        assert ev.lines and len(ev.lines) <= E.MAX_EVENT_LINES
        nums = [ln.lineno for ln in ev.lines]
        assert nums == sorted(nums)
        assert not (seen & set(nums))  # a line belongs to one event at most
        seen |= set(nums)
        # workers are never mixed; a line without a prefix may join another worker's event only as
        # the wrapped tail of its line before
        assert len({ln.worker for ln in ev.lines} - {None}) <= 1
        # the wrapped tail of its line before, or (SGLang) a line of a traceback whose header the worker logged
        assert all(i in ev.wrapped or ev.kind is EventKind.TRACEBACK
                   for i, ln in enumerate(ev.lines) if ln.worker is None and ev.workers)
        assert len(fingerprint(ev)) == 16


def test_hundred_thousand_frames_are_bounded():
    frames = "".join(f'  File "/srv/app/mod{i % 97}.py", line {i}, in f{i % 13}\n    call_{i}()\n' for i in range(100_000))
    text = "Traceback (most recent call last):\n" + frames + "RecursionError: maximum recursion depth exceeded\n"
    out = []
    asm = E.Assembler(out.append)
    for i, raw in enumerate(text.encode().split(b"\n"), 1):
        asm.feed(normalise(raw, "s", i, LineFormat()), True)
    asm.finish()
    (ev,) = [e for e in out if e.kind is EventKind.TRACEBACK]
    assert ev.exc_type == "RecursionError"
    assert len(ev.lines) <= E.MAX_EVENT_LINES and len(ev.frames) <= E.MAX_EVENT_LINES + 1
    assert ev.lines[0].lineno == 1 and ev.lines[-1].text.startswith("RecursionError")  # head and newest kept
    # the same through the whole pipeline, in both modes
    for exhaustive in (False, True):
        r = scan_text(text, exhaustive=exhaustive)
        assert any("RecursionError" in u.headline for u in r.unknown)
        check_result(r)


def test_deeply_chained_exceptions_are_bounded():
    block = ("Traceback (most recent call last):\n  File \"/a/b.py\", line {i}, in f\n    g()\n"
             "RuntimeError: step {i} failed\n\nThe above exception was the direct cause of the following exception:\n\n")
    text = "".join(block.format(i=i) for i in range(5000)) + "Traceback (most recent call last):\n" \
        '  File "/a/c.py", line 1, in main\n    run()\nValueError: the last one\n'
    out = []
    asm = E.Assembler(out.append)
    for i, raw in enumerate(text.encode().split(b"\n"), 1):
        asm.feed(normalise(raw, "s", i, LineFormat()), True)
    asm.finish()
    (ev,) = out
    assert ev.exc_type == "ValueError" and ev.message == "the last one"
    assert len(ev.chain) <= E.MAX_CHAIN + 1 and ev.chain[0] == "RuntimeError: step 0 failed"
    r = scan_text(text)
    assert r.unknown and r.unknown[0].headline.startswith("ValueError")
    check_result(r)


# -- fingerprints ----------------------------------------------------------------------------------

# one kind of volatile token per slot: the same failure with other numbers, addresses, IPs, paths
volatile = st.tuples(
    st.integers(0, 10**9).map(str),
    st.integers(0, 2**48).map(hex),
    st.tuples(*[st.integers(0, 255)] * 4).map(lambda t: ".".join(map(str, t))),
    st.lists(st.sampled_from(["usr", "lib", "srv", "home", "x1", "a-b"]), min_size=1, max_size=5).map(
        lambda p: "/" + "/".join(p) + "/layout.hpp"),
    st.integers(1, 9999).map(str),
)


@FUZZ
@given(a=volatile, b=volatile, rank_a=st.integers(0, 63), rank_b=st.integers(0, 63))
def test_fingerprint_ignores_volatile_tokens(a, b, rank_a, rank_b):
    tmpl = "RuntimeError: CUDA error {} at {} from {} in {}:{} on rank{}"

    def ev(vals, rank):
        text = tmpl.format(*vals, rank)
        return E.Event(kind=EventKind.ERROR, lines=[Line("s", 1, text)], exc_type="RuntimeError",
                       message=text.split(": ", 1)[1], frames=[("/x/site-packages/vllm/a.py", "f")])

    assert fingerprint(ev(a, rank_a)) == fingerprint(ev(b, rank_b))


@FUZZ
@given(text=st.text(max_size=2000))
@example(text="\x1f\\0")  # str.strip() takes \x1f, the masks' \s does not (found by hypothesis)
def test_mask_never_raises_and_is_idempotent(text):
    once = mask(text)
    assert mask(once) == once


def test_mask_is_linear_on_long_adversarial_text():
    import time

    for text in ("/a" * 200_000, "a" * 400_000, "0x" + "f" * 400_000, "1." * 200_000, "=/" * 200_000,
                 "deadbeef" * 50_000, " " * 400_000):
        t0 = time.perf_counter()
        mask(text)
        assert time.perf_counter() - t0 < 5, text[:10]


# -- matching and the whole pipeline ---------------------------------------------------------------

@FUZZ
@given(data=log_bytes)
def test_any_log_scans_to_a_valid_result(data):
    assume(not data.startswith(b"\x1f\x8b\x08"))
    for exhaustive in (False, True):
        r = scan_text(data, exhaustive=exhaustive)
        doc = check_result(r)
        if doc["inputs"][0]["format"] not in ("binary", "empty", "skipped"):  # not read: "nothing was read"
            assert doc["inputs"][0]["lines"] == data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


@FUZZ
@given(data=st.binary(max_size=3000))
def test_random_bytes_scan_to_a_valid_result(data):
    check_result(scan_text(data))


@FUZZ
@given(before=log_bytes, after=log_bytes)
def test_known_failure_survives_surrounding_garbage(before, after):
    """Hostile lines before and after a known failure never hide it (unless they make the whole input
    binary data, which is skipped with a warning: see test_binary_input_is_skipped_only_when_binary)."""
    data = before + b"\n" + EXAMPLE + b"\n" + after
    assume(binary_kind(data[:HEAD]) is None)
    assume(not data.startswith(b"\x1f\x8b\x08"))  # gzip's magic: read as a gzip stream, by design
    r = scan_text(data)
    assert KNOWN in [f.id for f in r.findings]
    check_result(r)


@FUZZ
@given(garbage=st.lists(st.binary(min_size=1, max_size=40).map(lambda b: b.replace(b"\n", b"")), min_size=1, max_size=30))
def test_invalid_utf8_and_nul_lines_between_events_keep_the_finding(garbage):
    lines = EXAMPLE.split(b"\n")
    # interleave garbage (invalid UTF-8, NUL bytes) between the INFO lines that precede the failure
    mixed = []
    for i, ln in enumerate(lines):
        mixed.append(ln)
        if i < 12:
            mixed.append(b"\x00\xff\xfe" + garbage[i % len(garbage)] + b"\x00")
    r = scan_text(b"\n".join(mixed))
    assert KNOWN in [f.id for f in r.findings]
    check_result(r)


@FUZZ
@given(texts=st.lists(st.text(max_size=300), min_size=1, max_size=10))
def test_claim_never_raises_on_any_event_text(texts, catalogue):
    groups = []
    for i, t in enumerate(texts):
        ev = E.Event(kind=EventKind.ERROR, lines=[Line("s", i + 1, x) for x in t.split("\n")], exc_type=None, message=t)
        ev.fingerprint = fingerprint(ev)
        groups.append(Group(ev.fingerprint, ev, order=i))
    claims = claim(catalogue, groups)
    assert not claims.warnings  # no bundled pattern runs out of time on short text


# -- big inputs, in a subprocess: peak memory and time ---------------------------------------------

RUN = textwrap.dedent("""
    import json, resource, subprocess, sys, time
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--format", "json", *sys.argv[1:]],
                       capture_output=True, text=True)
    took = time.perf_counter() - t0
    peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(json.dumps({"rc": p.returncode, "stdout": p.stdout, "stderr": p.stderr, "s": took, "peak_mb": peak_kb / 1024}))
""")


def run_cli_measured(*args: str, cwd: Path | None = None) -> dict:
    """Run `fp8triage scan --format json ARGS` in a child process; its peak RSS (ru_maxrss of the
    finished child, via a small parent so the test process's own memory is not counted)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, env=env,
                       cwd=cwd or ROOT, timeout=600)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    out["doc"] = json.loads(out["stdout"]) if out["stdout"].strip().startswith("{") else None
    return out


MEMORY_LIMIT_MB = 400  # the scan of a 50 MB file must stay far below the file size times a few


@pytest.mark.slow
def test_50mb_single_line_then_a_known_failure(tmp_path):
    f = tmp_path / "oneline.log"
    with open(f, "wb") as fh:
        fh.write(EXAMPLE[:2000])
        block = b"Error x " * (1 << 17)  # 1 MiB of anchors: every chunk has prefilter hits
        for _ in range(50):
            fh.write(block)
        fh.write(b"\n" + EXAMPLE)
    res = run_cli_measured(str(f))
    assert res["rc"] == 3, res["stderr"]
    doc = res["doc"]
    assert doc["findings"][0]["id"] == KNOWN
    assert any("longer than" in w for w in doc["warnings"])
    assert doc["inputs"][0]["bytes"] == f.stat().st_size
    assert res["peak_mb"] < MEMORY_LIMIT_MB, res["peak_mb"]
    assert res["s"] < 120


@pytest.mark.slow
def test_50mb_single_line_without_newline(tmp_path):
    f = tmp_path / "nonl.log"
    with open(f, "wb") as fh:
        for _ in range(50):
            fh.write(os.urandom(1 << 20).replace(b"\n", b"."))
    res = run_cli_measured(str(f))
    assert res["rc"] == 5, res["stderr"]  # random bytes: no text line in them, skipped (nothing could be read)
    assert res["doc"]["inputs"][0]["lines"] == 1
    assert res["peak_mb"] < MEMORY_LIMIT_MB, res["peak_mb"]


@pytest.mark.slow
def test_100k_frame_traceback_and_deep_chains_in_a_process(tmp_path):
    f = tmp_path / "deep.log"
    with open(f, "w") as fh:
        fh.write("Traceback (most recent call last):\n")
        for i in range(100_000):
            fh.write(f'  File "/srv/app/mod{i % 97}.py", line {i}, in f{i % 13}\n    raise error_{i}()\n')
        fh.write("RecursionError: maximum recursion depth exceeded\n")
        for i in range(20_000):
            fh.write(f'Traceback (most recent call last):\n  File "/a/b.py", line {i}, in f\n    g()\n'
                     f"RuntimeError: step {i} failed\n\nThe above exception was the direct cause of the following exception:\n\n")
        fh.write('Traceback (most recent call last):\n  File "/a/c.py", line 1, in main\nValueError: the last one\n')
    for extra in ([], ["--no-prefilter"]):
        res = run_cli_measured(str(f), *extra)
        assert res["rc"] == 4, res["stderr"]
        heads = [u["headline"] for u in res["doc"]["unknown_errors"]]
        assert any(h.startswith("RecursionError") for h in heads), heads
        assert any(h.startswith("ValueError: the last one") for h in heads), heads
        assert res["peak_mb"] < MEMORY_LIMIT_MB, (extra, res["peak_mb"])
        assert res["s"] < 180


@pytest.mark.slow
def test_directory_of_10k_small_files(tmp_path):
    d = tmp_path / "pods"
    for i in range(10_000):
        sub = d / f"node{i % 20}"
        sub.mkdir(parents=True, exist_ok=True)
        body = b"INFO ok\n" if i % 3 else b"INFO ok\nRuntimeError: worker %d lost its GPU\n" % i
        if i == 7777:
            body = EXAMPLE
        (sub / f"pod-{i}.log").write_bytes(body)
    res = run_cli_measured(str(d))
    assert res["rc"] == 3, res["stderr"]
    doc = res["doc"]
    assert len(doc["inputs"]) == 10_000
    assert doc["findings"][0]["id"] == KNOWN
    lost = [u for u in doc["unknown_errors"] if "lost its GPU" in u["headline"]]
    assert lost and lost[0]["count"] == len([i for i in range(10_000) if i % 3 == 0 and i != 7777])
    assert res["peak_mb"] < MEMORY_LIMIT_MB, res["peak_mb"]
    assert res["s"] < 180


# -- unusable input: one sentence, exit 1, never a traceback --------------------------------------

def run_cli(*args: str, stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "fp8triage", "scan", *args], input=stdin, capture_output=True,
                          env=env, cwd=cwd or ROOT, timeout=120)


def test_unusable_inputs_give_one_sentence_and_exit_1(tmp_path):
    (tmp_path / "empty-dir").mkdir()
    (tmp_path / "only-images").mkdir()
    (tmp_path / "only-images" / "x.png").write_bytes(b"\x89PNG")
    fifo_dir = tmp_path / "sock"
    fifo_dir.mkdir()
    import socket

    sock_path = fifo_dir / "s"
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(sock_path))
    try:
        cases = {
            "missing": ([str(tmp_path / "nope.log")], "no such file or directory"),
            "empty dir": ([str(tmp_path / "empty-dir")], "the directory holds no log files"),
            "no logs in dir": ([str(tmp_path / "only-images")], "the directory holds no log files"),
            "stdin twice": (["-", "-"], "standard input) was given more than once"),
            "socket": ([str(sock_path)], "not a regular file"),
        }
        for name, (args, words) in cases.items():
            p = run_cli(*args, stdin=b"")
            err = p.stderr.decode()
            assert p.returncode == 1, (name, err)
            assert p.stdout == b"", name
            assert "Traceback" not in err, name
            assert words in err, (name, err)
            assert err.count("\n") == 1 and err.startswith("Error: "), (name, err)  # one sentence
    finally:
        s.close()


@FUZZ
@given(before=log_bytes)
def test_binary_input_is_skipped_only_when_binary(before):
    """A text log after hostile lines is judged binary only when those lines are mostly non-text."""
    data = before + b"\n" + EXAMPLE
    if binary_kind(data[:HEAD]) is not None:
        head = data[:HEAD].decode("utf-8", "replace")
        bad = sum(1 for ch in head if ch == "\ufffd" or (ch < " " and ch not in "\t\n\r\x0c\x1b") or ch == "\x7f")
        assert bad > 0.05 * len(head) or data[:HEAD].count(b"\x00") > 0.01 * len(data[:HEAD])


def test_binary_garbage_on_stdin_is_scanned_not_an_error():
    """Random bytes on stdin: read to the end, no text line in them, so skipped: exit 5 (nothing
    could be read), not 0 (nothing found) and not a traceback."""
    rnd = random.Random(3)
    data = bytes(rnd.randrange(256) for _ in range(200_000))
    p = run_cli("--format", "json", "-", stdin=data)
    assert p.returncode == 5, p.stderr.decode()
    doc = json.loads(p.stdout)
    assert doc["inputs"][0]["source"] == "<stdin>" and doc["inputs"][0]["bytes"] == len(data)
    assert doc["inputs"][0]["format"] == "binary" and doc["exit_code"] == 5
    assert any("no text line" in w for w in doc["warnings"])
    assert "Traceback" not in p.stderr.decode()


def test_truncated_gzip_file_through_the_cli(tmp_path):
    comp, safe = _gz_with_failure()
    f = tmp_path / "server.log.gz"
    f.write_bytes(comp[: (safe + len(comp)) // 2])
    p = run_cli(str(f))
    out = p.stdout.decode()
    assert p.returncode == 3, p.stderr.decode()
    assert KNOWN in out and "compressed stream is truncated" in out
