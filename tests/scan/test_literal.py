"""Finding a quiet worker's next line: the Hyperscan literal search gives what bytes.find gives,
and a worker's name piece is not found inside a longer one ("rank=1" in "rank=12")."""
from __future__ import annotations

import random

import pytest

from fp8triage.scan import literal
from fp8triage.scan.selector import next_line_of


def _buffers():
    rnd = random.Random(7)
    words = [b"rank=1", b"rank=12", b"ip=10.0.0.2", b"ipx10a0b0c2", b"(VllmWorker", b"INFO", b"\n", b" ", b"x" * 50]
    for _ in range(40):
        yield b"".join(rnd.choice(words) for _ in range(rnd.randrange(1, 3000)))


@pytest.mark.parametrize("needle", [b"rank=1", b"ip=10.0.0.2", b"(VllmWorker", b"absent", b"\n"])
def test_find_gives_what_bytes_find_gives_on_every_range(needle):
    rnd = random.Random(len(needle))
    for buf in _buffers():
        for _ in range(20):
            a = rnd.randrange(0, len(buf) + 1)
            b = rnd.randrange(a, len(buf) + 1)
            assert literal.find(buf, needle, a, b) == buf.find(needle, a, b), (needle, a, b)
        # long ranges take the Hyperscan path where it is installed
        assert literal.find(buf, needle, 0, len(buf)) == buf.find(needle)


def test_find_without_hyperscan_uses_bytes_find(monkeypatch):
    monkeypatch.setattr(literal, "_hs", False)
    monkeypatch.setattr(literal, "_databases", {})
    buf = b"y" * 10_000 + b"rank=1 " + b"z" * 10_000
    assert literal.find(buf, b"rank=1", 0, len(buf)) == 10_000
    assert literal.find(buf, b"rank=1", 10_001, len(buf)) == -1


def test_a_match_that_crosses_the_end_of_the_range_is_not_found():
    buf = b"a" * 8000 + b"rank=1" + b"b" * 8000
    assert literal.find(buf, b"rank=1", 0, 8003) == -1
    assert literal.find(buf, b"rank=1", 0, 8006) == 8000
    assert literal.find(buf, b"rank=1", 8001, len(buf)) == -1


def _line(rank: int, text: str) -> bytes:
    return f"(VllmWorker rank={rank} pid={100 + rank}) ERROR 08-01 09:00:00 [x.py:1] {text}\n".encode()


@pytest.mark.parametrize("filler", [0, 200])  # a short range (bytes.find) and a long one (Hyperscan)
def test_the_next_line_of_rank_1_is_not_a_line_of_rank_12(filler):
    buf = (_line(1, "RuntimeError: boom")
           + b"".join(_line(12, f"rank=12 writes {i}") for i in range(filler))
           + _line(12, "other rank") + _line(11, "and another") + _line(1, "continued"))
    pos = buf.index(b"\n") + 1
    nxt = next_line_of(buf, "VllmWorker rank=1", pos, len(buf), {})
    assert buf[nxt:].startswith(b"(VllmWorker rank=1 ")
    assert nxt == buf.rindex(b"(VllmWorker rank=1 ")


def test_a_line_that_names_the_rank_later_on_is_still_a_candidate():
    # not its worker's line, but the piece is there whole: fed, and the assembler decides
    buf = _line(1, "start") + _line(12, "waiting for rank=1 to finish") + _line(1, "end")
    pos = buf.index(b"\n") + 1
    assert next_line_of(buf, "VllmWorker rank=1", pos, len(buf), {}) == pos


@pytest.mark.parametrize("at", [literal.HS_MIN - 7, literal.HS_MIN - 6, literal.HS_MIN - 3, literal.HS_MIN, literal.HS_MIN + 1])
def test_an_occurrence_where_the_first_window_ends_is_found(at):
    buf = b"x" * at + b"rank=1" + b"y" * 9000
    assert literal.find(buf, b"rank=1", 0, len(buf)) == at
