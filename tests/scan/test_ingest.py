"""Ingest: every input format reaches the same findings, line numbers survive, bad input is one sentence."""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from fp8triage.common.source import IngestError, Source
from fp8triage.scan.ingest import expand_inputs, _read_chunks
from fp8triage.drivers.batch import scan_paths, scan_text

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "vllm-rtx5090-unknown-sf.log"

CRASH = (
    "INFO 08-11 09:14:21 [cuda.py:398] Device 0: NVIDIA GeForce RTX 5090, compute capability 12.0\n"
    "Traceback (most recent call last):\n"
    '  File "/usr/lib/python3/dist-packages/vllm/utils/deep_gemm.py", line 494, in transform_sf_into_required_layout\n'
    "    return _impl(sf)\n"
    "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation\n"
)
ASSERT_LINE = 5


def _top(result):
    assert result.findings, "expected a finding"
    f = result.findings[0]
    return f.id, f.evidence[0].lineno


def test_plain_text_file(tmp_path):
    p = tmp_path / "server.log"
    p.write_text(CRASH)
    r = scan_paths([str(p)])
    assert _top(r) == ("deepgemm-unknown-sf-transformation", ASSERT_LINE)
    assert r.findings[0].evidence[0].source == str(p)
    assert r.inputs[0].lines == 5 and r.inputs[0].format == "text"


def test_gzip_detected_by_content_not_name(tmp_path):
    p = tmp_path / "server.log.1"  # no .gz suffix
    p.write_bytes(gzip.compress(CRASH.encode()))
    r = scan_paths([str(p)])
    assert _top(r) == ("deepgemm-unknown-sf-transformation", ASSERT_LINE)
    assert r.inputs[0].format.startswith("gzip")


def test_truncated_gzip_keeps_readable_part(tmp_path):
    body = (CRASH + "INFO filler line\n" * 20000).encode()
    data = gzip.compress(body)
    p = tmp_path / "cut.log.gz"
    p.write_bytes(data[: len(data) // 2])
    r = scan_paths([str(p)])
    assert _top(r)[0] == "deepgemm-unknown-sf-transformation"
    assert any("truncated" in w or "corrupt" in w for w in r.warnings)


def test_k8s_json_lines(tmp_path):
    p = tmp_path / "pod.log"
    with p.open("w") as fh:
        for line in CRASH.splitlines():
            fh.write(json.dumps({"log": line + "\n", "stream": "stderr", "time": "2026-08-11T09:14:21.1Z"}) + "\n")
    r = scan_paths([str(p)])
    assert _top(r) == ("deepgemm-unknown-sf-transformation", ASSERT_LINE)
    assert r.inputs[0].format == "jsonl"
    assert r.findings[0].evidence[0].text.startswith("RuntimeError: Assertion error")


def test_kubectl_prefix_ansi_and_crlf():
    text = "".join(f"[pod/vllm-0/vllm] \x1b[31m{ln}\x1b[0m\r\n" for ln in CRASH.splitlines())
    r = scan_text(text)
    f = r.findings[0]
    assert f.id == "deepgemm-unknown-sf-transformation"
    assert "\x1b" not in f.evidence[0].text and "\r" not in f.evidence[0].text
    assert f.workers == ["pod/vllm-0"]


def test_a_log_quoted_in_an_issue_reply_keeps_its_structure():
    from fp8triage.scan.normalise import LineFormat, normalise

    line = normalise(b"> > (VllmWorker rank=2 pid=7) ERROR 08-11 09:14:21 [core.py:1]   File \"x.py\", line 3",
                     "t", 1, LineFormat())
    assert (line.worker, line.level, line.text) == ("VllmWorker rank=2", "ERROR", '  File "x.py", line 3')
    r = scan_text("".join(f"> {ln}\n" for ln in CRASH.splitlines()))
    assert _top(r) == ("deepgemm-unknown-sf-transformation", ASSERT_LINE)
    assert not r.findings[0].evidence[0].text.startswith(">")


@pytest.mark.parametrize("raw,level,text", [
    (b"E1203 09:00:00.123456  4242 core.cc:12] Assertion failed: x", "ERROR", "Assertion failed: x"),
    (b"W1203 09:00:00.123456  4242 core.cc:12] slow path", "WARNING", "slow path"),
    (b"2025-08-01 09:00:00.123 | ERROR    | sglang.srt:run:12 - Scheduler hit an exception", "ERROR",
     "Scheduler hit an exception"),
    (b"[TensorRT-LLM][ERROR] Assertion failed: fp8", "ERROR", "Assertion failed: fp8"),
    (b"Dec  3 06:00:00 gpu-node-7 vllm[4242]: RuntimeError: boom", None, "RuntimeError: boom"),
    (b"2025-08-01T09:00:00+0000 gpu-node-7 python3[9]: RuntimeError: boom", None, "RuntimeError: boom"),
])
def test_other_loggers_headers_are_read(raw, level, text):
    from fp8triage.scan.normalise import LineFormat, normalise

    line = normalise(raw, "t", 1, LineFormat())
    assert (line.level, line.text) == (level, text)


def test_a_worker_prefix_inside_its_parent_process_prefix_names_the_worker():
    # a device assert of one worker, then that worker's traceback, all behind the engine core's prefix too:
    # the assert is that worker's, the traceback another event of the same worker, read on its own
    lines = [
        "(EngineCore_DP0 pid=5120) (Worker_TP1 pid=5188) /ws/DeepGEMM/deep_gemm/include/deep_gemm/impls/"
        "smxx_layout.cuh:131: void deep_gemm::pack_fp32_into_ue8m0<128, 128, 4>(float *, unsigned int *, unsigned int, "
        "unsigned int): block: [0,0,0], thread: [3,0,0] Assertion `(value & 0x807fffffu) == 0` failed.",
        "(EngineCore_DP0 pid=5120) (Worker_TP0 pid=5187) INFO 03-02 14:01:12 [gpu_model_runner.py:2890] Graph capturing finished",
        "(EngineCore_DP0 pid=5120) (Worker_TP1 pid=5188) ERROR 03-02 14:01:13 [multiproc_executor.py:703] Traceback (most recent call last):",
        '(EngineCore_DP0 pid=5120) (Worker_TP1 pid=5188) ERROR 03-02 14:01:13 [multiproc_executor.py:703]   File '
        '"/x/vllm/utils/deep_gemm.py", line 494, in transform_sf_into_required_layout',
        "(EngineCore_DP0 pid=5120) (Worker_TP1 pid=5188) ERROR 03-02 14:01:13 [multiproc_executor.py:703]     return "
        "_transform_sf_into_required_layout_impl(",
        "(EngineCore_DP0 pid=5120) (Worker_TP1 pid=5188) ERROR 03-02 14:01:13 [multiproc_executor.py:703] RuntimeError: "
        "CUDA driver error (/ws/DeepGEMM/csrc/apis/../jit/kernel_runtime.hpp:136): 719 (CUDA_ERROR_LAUNCH_FAILED, "
        "unspecified launch failure)",
    ]
    from fp8triage.scan.normalise import LineFormat, normalise

    line = normalise(lines[2].encode(), "t", 3, LineFormat())
    assert (line.worker, line.level, line.text) == ("EngineCore_DP0 Worker_TP1", "ERROR", "Traceback (most recent call last):")
    r = scan_text("\n".join(lines) + "\n", source="paste.log")
    assert r.findings[0].id == "ue8m0-pack-assert"
    assert sorted(r.findings[0].workers) == ["EngineCore_DP0 Worker_TP1"]


def test_invalid_utf8_and_nul_bytes_survive():
    data = b"\xff\xfe garbage \x00\x00 bytes\n" + CRASH.encode() + b"\x80\x81\n"
    r = scan_text(data)
    assert _top(r) == ("deepgemm-unknown-sf-transformation", ASSERT_LINE + 1)


def test_directory_is_searched(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "worker.log").write_text(CRASH)
    (tmp_path / ".hidden.log").write_text(CRASH)
    sources = expand_inputs([str(tmp_path)])
    assert [s.name for s in sources] == [str(tmp_path / "a" / "worker.log")]
    assert _top(scan_paths([str(tmp_path)]))[0] == "deepgemm-unknown-sf-transformation"


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda d: str(d / "missing.log"), "no such file or directory"),
        (lambda d: str(d), "holds no log files"),
    ],
)
def test_bad_input_is_one_clear_error(tmp_path, make, message):
    with pytest.raises(IngestError, match=message):
        expand_inputs([make(tmp_path)])


def test_chunks_end_at_newlines_and_cut_long_lines():
    data = (b"a" * 100 + b"\n") * 50 + b"x" * 3000 + b"\nlast"
    src = Source("mem", None, len(data), data=data)
    chunks = list(_read_chunks(src, chunk_size=256))
    assert all(c.endswith(b"\n") for c in chunks[:-1])
    assert b"".join(chunks) == data  # nothing lost at this size


@pytest.mark.slow
def test_line_numbers_survive_chunk_boundaries(monkeypatch):
    import fp8triage.scan.ingest as ingest

    filler = "INFO 08-11 09:14:21 [engine.py:1] Avg prompt throughput: 0.0 tokens/s\n" * 3000
    text = filler + CRASH + filler
    expected = filler.count("\n") + ASSERT_LINE
    monkeypatch.setattr(ingest, "CHUNK", 4096)
    r = scan_text(text)
    assert _top(r) == ("deepgemm-unknown-sf-transformation", expected)


# -- binary input (issue 16, item 7) ----------------------------------------------------------------

def test_binary_file_is_skipped_with_one_warning_and_does_not_fail_ci(tmp_path):
    """An executable among the logs: one warning naming it, no unknown errors made of replacement
    characters, the real log still read. Alone it is no clean bill of health: exit 5, not 0."""
    import json as _json

    from click.testing import CliRunner

    from fp8triage.cli import cli

    elf = tmp_path / "ls"
    elf.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 200 + b"\nError: \xff\xfe\n" * 50)
    r = CliRunner().invoke(cli, ["scan", str(elf), "--no-history"], catch_exceptions=False)
    assert r.exit_code == 5, r.output
    assert "No known FP8 failure" not in r.output
    assert f"warning: {elf}: an ELF executable or library, not a text log; skipped" in r.output
    assert "UNKNOWN ERRORS" not in r.output and "\ufffd" not in r.output
    log = tmp_path / "server.log"
    log.write_bytes(EXAMPLE.read_bytes())
    r = CliRunner().invoke(cli, ["scan", str(elf), str(log), "--format", "json", "--no-history"], catch_exceptions=False)
    doc = _json.loads(r.output)
    assert r.exit_code == 3 and doc["findings"][0]["source"] == str(log)
    assert [w for w in doc["warnings"] if "not a text log" in w] == [f"{elf}: an ELF executable or library, not a text log; skipped"]
    assert doc["inputs"][0]["format"] == "binary" and not doc["unknown_errors"]


def test_random_bytes_are_binary_but_logs_with_some_garbage_are_text():
    import random

    from fp8triage.scan.binary import binary_kind

    rnd = random.Random(5)
    assert binary_kind(bytes(rnd.randrange(256) for _ in range(20_000))) == "binary data"
    log = EXAMPLE.read_bytes()
    assert binary_kind(log) is None
    assert binary_kind(b"\x00\xff\xfe junk \x00\n" * 20 + log) is None  # NUL bytes and invalid UTF-8 in a log
    assert binary_kind("ログ: エラー ✓\n".encode() * 100) is None  # UTF-8 text
    assert binary_kind(b"\x1b[31mERROR\x1b[0m failed\n" * 100) is None  # ANSI colours
    assert binary_kind(b"GIF87a\n" + log) is None  # a file signature alone, in front of text, is a log line
    assert binary_kind(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00") == "a PNG image"


# -- dirty logs, skipped inputs, archives, pipes (issue 24, items 1-3) ------------------------------

def _cli(*args, stdin=None):
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--no-history", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)


def _crash_line(text: bytes) -> int:
    return next(i for i, ln in enumerate(text.split(b"\n"), 1) if b"Unknown SF transformation" in ln)


@pytest.mark.parametrize("pad", [300_000, 3 * 1024 * 1024])
def test_nul_padded_head_is_read_like_grep(tmp_path, pad):
    """logrotate's copytruncate leaves NUL bytes in front of the text (here more than the binary
    check's 64 KiB head, and more than a 2 MiB read): the DeepGEMM crash is still found, at its
    line number in the file."""
    log = tmp_path / "server.log"
    log.write_bytes(b"\x00" * pad + EXAMPLE.read_bytes())
    r = scan_paths([str(log)])
    assert _top(r) == ("deepgemm-unknown-sf-transformation", _crash_line(EXAMPLE.read_bytes()))
    assert r.warnings == []  # not "binary data", not "a line is longer than ..." (the padding has no newline)
    assert r.inputs[0].format == "text" and r.inputs[0].lines == EXAMPLE.read_bytes().count(b"\n")
    # the first line after the padding is read too: a traceback that starts there is whole
    log.write_bytes(b"\x00" * pad + CRASH.split("\n", 1)[1].encode())
    r = scan_paths([str(log)])
    assert _top(r) == ("deepgemm-unknown-sf-transformation", ASSERT_LINE - 1)
    assert r.findings[0].evidence[0].text.startswith("RuntimeError") and r.unknown == []


def test_binary_garbage_in_the_middle_is_read_around(tmp_path):
    """A few KB of binary garbage in the middle of a small log (a crashed writer): the text before
    and after it is read, the garbage lines make no unknown errors, line numbers stay the file's."""
    import random

    rnd = random.Random(7)
    lines = EXAMPLE.read_bytes().split(b"\n")
    data = b"\n".join(lines[:20]) + b"\n" + bytes(rnd.randrange(256) for _ in range(16_000)) + b"\n" + b"\n".join(lines[20:])
    log = tmp_path / "server.log"
    log.write_bytes(data)
    r = scan_paths([str(log)])
    assert _top(r) == ("deepgemm-unknown-sf-transformation", _crash_line(data))
    assert not any("\ufffd" in u.headline for u in r.unknown)
    assert not any("skipped" in w for w in r.warnings)
    p = _cli(str(log))
    assert p.returncode == 3 and "binary data" not in p.stdout


def test_utf16_log_is_read():
    """NUL bytes between the characters (a log written as UTF-16): read as its text."""
    r = scan_text(EXAMPLE.read_text().encode("utf-16-le"))
    assert r.findings and r.findings[0].id == "deepgemm-unknown-sf-transformation"


def test_nul_padding_reads_the_same_prefiltered_and_exhaustive(tmp_path):
    from fp8triage.drivers.batch import scan_paths as sp

    log = tmp_path / "server.log"
    log.write_bytes(b"\x00" * 5000 + EXAMPLE.read_bytes()[:3000] + b"\x00\x01\x02" * 900 + EXAMPLE.read_bytes()[3000:])
    a, b = sp([str(log)]), sp([str(log)], exhaustive=True)
    assert [(f.id, f.evidence[0].lineno) for f in a.findings] == [(f.id, f.evidence[0].lineno) for f in b.findings]
    assert [u.fingerprint for u in a.unknown] == [u.fingerprint for u in b.unknown]


@pytest.mark.parametrize("what", ["empty", "elf", "random", "zip-without-logs"])
def test_skipped_input_is_never_a_clean_bill_of_health(tmp_path, what):
    """Every input skipped or unreadable: not "No known FP8 failure" with exit 0, but exit 5 and
    a one-line reason (the warning naming the input)."""
    import random
    import zipfile

    f = tmp_path / "input"
    if what == "empty":
        f.write_bytes(b"")
        reason = "empty"
    elif what == "elf":
        f.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 200)
        reason = "an ELF executable"
    elif what == "random":
        rnd = random.Random(11)
        f.write_bytes(bytes(rnd.randrange(256) for _ in range(100_000)))
        reason = "no text line"
    else:
        with zipfile.ZipFile(f, "w") as zf:
            zf.writestr("screenshot.png", b"\x89PNG\r\n\x1a\n" + bytes(300))
        reason = "no log"
    p = _cli(str(f))
    assert p.returncode == 5, p.stdout + p.stderr
    assert "No known FP8 failure" not in p.stdout
    assert "warning:" in p.stdout and reason in p.stdout
    assert p.stdout.strip().splitlines()[-1].startswith("exit 5: nothing could be read")
    assert "Traceback" not in p.stderr
    doc = json.loads(_cli(str(f), "--format", "json").stdout)
    assert doc["exit_code"] == 5 and doc["inputs"][0]["format"] in ("empty", "binary", "skipped")
    # one readable log beside it: judged on that log as always
    ok = tmp_path / "ok.log"
    ok.write_text("INFO 12-01 10:00:00 [api_server.py:1] Started server process\n")
    assert _cli(str(f), str(ok)).returncode == 0


def test_empty_stdin_exits_5():
    p = _cli("-", stdin="")
    assert p.returncode == 5 and "<stdin>: empty" in p.stdout


def _bundle(tmp_path, kind: str) -> Path:
    import io
    import tarfile
    import zipfile

    members = [("pods/vllm-0/server.log", EXAMPLE.read_bytes()),
               ("pods/vllm-1/server.log.gz", gzip.compress(b"INFO 12-01 10:00:00 [api_server.py:1] ok\n")),
               ("../../etc/evil.log", b"INFO fine\n"),
               ("pods/vllm-0/core.bin", b"\x7fELF" + bytes(500)),
               ("README.md", b"# not a log\n")]
    if kind == "zip":
        path = tmp_path / "bundle.zip"
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in members:
                zf.writestr(name, data)
        return path
    path = tmp_path / ("bundle.tar" if kind == "tar" else "bundle.tgz")
    with tarfile.open(path, "w" if kind == "tar" else "w:gz") as tf:
        for name, data in members:
            ti = tarfile.TarInfo(name)
            ti.size = len(data)
            tf.addfile(ti, io.BytesIO(data))
        link = tarfile.TarInfo("pods/passwd.log")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tf.addfile(link)
    return path


@pytest.mark.parametrize("kind", ["tar", "tar.gz", "zip"])
def test_support_bundle_members_are_sources_of_their_own(tmp_path, kind):
    """A .tar, .tar.gz or .zip support bundle: each log member is read as its own source (named
    ARCHIVE:MEMBER), nothing is written to disk, links and non-log members are left out."""
    bundle = _bundle(tmp_path, kind)
    r = scan_paths([str(bundle)])
    names = [i.source for i in r.inputs]
    assert names == [f"{bundle}:pods/vllm-0/server.log", f"{bundle}:pods/vllm-1/server.log.gz",
                     f"{bundle}:../../etc/evil.log"]
    assert _top(r) == ("deepgemm-unknown-sf-transformation", _crash_line(EXAMPLE.read_bytes()))
    assert r.findings[0].source == f"{bundle}:pods/vllm-0/server.log"
    assert r.inputs[1].format == "gzip+text"
    assert not (tmp_path.parent / "etc").exists() and sorted(p.name for p in tmp_path.iterdir()) == [bundle.name]
    p = _cli(str(bundle))
    assert p.returncode == 3 and "deepgemm-unknown-sf-transformation" in p.stdout
    # in a directory too
    p = _cli(str(tmp_path))
    assert p.returncode == 3 and f"{bundle}:pods/vllm-0/server.log" in p.stdout


def test_zip_bomb_member_is_skipped(tmp_path):
    import zipfile

    bomb = tmp_path / "bundle.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("huge.log", b"\n" * (64 << 20))
        zf.writestr("server.log", EXAMPLE.read_bytes())
    r = scan_paths([str(bomb)])
    assert [i.source for i in r.inputs] == [f"{bomb}:server.log"]
    assert any("huge.log" in w and "zip bomb" in w for w in r.warnings)


def test_process_substitution_and_fifo_are_read_as_streams(tmp_path):
    """`scan <(cmd)` and a named pipe: read like '-', not refused as "not a regular file"."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root))
    p = subprocess.run(["bash", "-c", f'"{sys.executable}" -m fp8triage scan --no-history <(cat "{EXAMPLE}")'],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 3, p.stderr
    assert "deepgemm-unknown-sf-transformation" in p.stdout and "not a regular file" not in p.stderr
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    proc = subprocess.Popen([sys.executable, "-m", "fp8triage", "scan", "--no-history", "--jobs", "2", str(fifo)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    with open(fifo, "wb") as w:  # blocks until the scan opens it
        w.write(EXAMPLE.read_bytes())
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 3, err
    assert f"{fifo}:" in out  # evidence names the pipe with its line numbers


def test_dirty_lines_are_read_the_same_whichever_span_they_come_in():
    """A line is cleaned on its own: the whole span, its lines one by one, with or without the
    text-line count, give the same bytes and the same line count (follow mode's blocks and a
    parallel scan's ranges read what the batch scan reads)."""
    import random

    from fp8triage.scan.binary import clean_span

    rnd = random.Random(5)
    parts = []
    for _ in range(300):
        k = rnd.randrange(4)
        if k == 0:
            parts.append(bytes(rnd.randrange(256) for _ in range(rnd.randrange(1, 80))).replace(b"\n", b""))
        elif k == 1:
            parts.append(b"\x00" * rnd.randrange(1, 50) + b"INFO text after padding")
        else:
            parts.append("ERROR ünïcode line \u2588".encode() + (b"\xff" if k == 3 else b""))
    data = b"\n".join(parts) + b"\n"
    whole, text = clean_span(data)
    assert clean_span(data, count=False)[0] == whole
    by_line = b"\n".join(clean_span(p)[0] for p in parts) + b"\n"
    assert by_line == whole and whole.count(b"\n") == data.count(b"\n")
    assert b"\x00" not in whole and text > 0  # (a stray 0xFF in a text line stays: it decodes as U+FFFD)


def test_truncated_tar_gz_bundle_reads_what_it_holds(tmp_path):
    """A support bundle cut off in transfer: the logs before the break are read (the member the
    break falls in up to the break), and the warnings say so."""
    import io
    import tarfile

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name in ("a/server.log", "b/server.log"):
            ti = tarfile.TarInfo(name)
            ti.size = len(EXAMPLE.read_bytes())
            tf.addfile(ti, io.BytesIO(EXAMPLE.read_bytes()))
    data = buf.getvalue()
    bundle = tmp_path / "bundle.tgz"
    bundle.write_bytes(data[: int(len(data) * 0.75)])
    r = scan_paths([str(bundle)])
    assert r.findings and r.findings[0].id == "deepgemm-unknown-sf-transformation"
    assert any("breaks off" in w for w in r.warnings) and any("truncated" in w for w in r.warnings)
    p = _cli(str(bundle))
    assert p.returncode == 3 and "Traceback" not in p.stderr
