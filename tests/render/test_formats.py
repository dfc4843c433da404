"""The one output registry (``render/formats.py``): every command's ``--format`` offers the formats
of its document kind, each command prints exactly what the registry renders for its document, and a
kind and format the registry does not hold is one clear sentence."""
from __future__ import annotations

import json
import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import fp8triage
from fp8triage.cli import cli
from fp8triage.errors import TriageError
from fp8triage.render.formats import FormatError, Options, formats, kinds, render, render_as

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "vllm-rtx5090-unknown-sf.log"
SIG = "deepgemm-unknown-sf-transformation"

# every command that has a --format option -> the document kind it prints
COMMAND_KINDS = {
    ("scan",): "scan",
    ("report",): "report",
    ("check",): "check",
    ("env",): "env",
    ("facts",): "facts",
    ("remedy",): "remedy",
    ("repro",): "repro",
    ("history",): "history",
    ("history", "import"): "history-import",
    ("signatures", "list"): "signatures-list",
    ("signatures", "show"): "signatures-show",
    ("signatures", "search"): "signatures-search",
}


@pytest.fixture(autouse=True)
def _own_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("FP8TRIAGE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FP8TRIAGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("FP8TRIAGE_DB", str(tmp_path / "history.db"))


def _commands(group: click.Group, path: tuple[str, ...] = ()):
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        yield (*path, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*path, name))


def _format_choices(cmd: click.Command) -> tuple[str, ...] | None:
    for p in cmd.params:
        if "--format" in getattr(p, "opts", ()):
            return tuple(p.type.choices)
    return None


def test_every_commands_format_choices_are_the_registrys():
    found = {path: _format_choices(cmd) for path, cmd in _commands(cli) if _format_choices(cmd) is not None}
    assert set(found) == set(COMMAND_KINDS), "a command with --format that the registry does not cover"
    for path, choices in found.items():
        assert choices == formats(COMMAND_KINDS[path]), path
    assert set(formats("follow")) <= set(formats("scan"))  # scan --follow takes a subset of scan's formats
    assert set(formats("follow-summary")) == set(formats("follow"))


def test_an_unknown_kind_or_format_is_one_sentence():
    with pytest.raises(FormatError) as e:
        render_as("check", object(), "html")
    assert str(e.value) == "unknown output format 'html' for check; one of text, json"
    assert isinstance(e.value, TriageError) and e.value.usage and isinstance(e.value, ValueError)
    with pytest.raises(FormatError, match=r"^unknown document kind 'yaml'; one of scan, report, .*signatures-search$"):
        render_as("yaml", None, "text")
    assert "\n" not in str(e.value)


def test_follow_with_a_format_of_no_follow_entry_says_so():
    r = CliRunner().invoke(cli, ["scan", "--follow", "-", "--format", "html", "--no-history"], input="x\n")
    assert r.exit_code == 2
    assert "--follow prints text or JSON lines (--format text|json|jsonl)" in r.output


def test_every_kind_is_printed_by_some_command():
    assert set(kinds()) == set(COMMAND_KINDS.values()) | {"follow", "follow-summary"}


# -- each entry: the command prints what the registry renders ----------------------------------------

def _run(args: list[str], **kw) -> str:
    r = CliRunner().invoke(cli, args, **kw)
    assert r.exit_code in (0, 3), r.output
    return r.stdout


@pytest.mark.parametrize("fmt", formats("report"))
def test_report_entry(fmt, tmp_path):
    result = fp8triage.triage([str(EXAMPLE)])
    assert render_as("report", result, fmt) == render(result, fmt)  # a report is a scan result, for people
    out = tmp_path / f"r.{fmt}"
    _run(["report", str(EXAMPLE), "--format", fmt, "-o", str(out)])
    same = re.compile(r"\d{4}-\d\d-\d\dT[\d:+]+|[0-9a-f]{32}|\b\d+\.\d+\b")
    assert same.sub("X", out.read_text()) == same.sub("X", render_as("report", result, fmt))


@pytest.mark.parametrize("fmt", formats("check"))
def test_check_entry(fmt):
    facts = ["gpu=NVIDIA A100"]
    result = fp8triage.check(facts=facts, probe=False, include_ruled_out=fmt == "json")
    out = _run(["check", "--no-probe", "--fact", facts[0], "--format", fmt])
    assert out == render_as("check", result, fmt, Options(exit_code=0))
    assert "pre-Ada" in out or "pre-ada" in out.lower()


@pytest.mark.parametrize("fmt", formats("env"))
def test_env_entry(fmt, monkeypatch):
    from fp8triage.facts import probe as P

    seen = P.probe(use_torch=False)
    monkeypatch.setattr(P, "probe", lambda use_torch=False: seen)
    assert _run(["env", "--format", fmt]) == render_as("env", seen, fmt)


@pytest.mark.parametrize("fmt", formats("facts"))
def test_facts_entry(fmt):
    from fp8triage.facts.vocabulary import FACTS

    out = _run(["facts", "--format", fmt])
    assert out == render_as("facts", list(FACTS.values()), fmt) and "capability" in out


@pytest.mark.parametrize("fmt", formats("remedy"))
def test_remedy_entry(fmt):
    from fp8triage.catalogue.loader import load_catalogue
    from fp8triage.facts.sources import gather
    from fp8triage.facts.vocabulary import resolve
    from fp8triage.judge.verdict import build_remedies
    from fp8triage.render.remedy import RemedyDoc

    sig = load_catalogue().get(SIG)
    chosen, _ = resolve(gather(["stack=vllm"], None, (), "log").all, "log")
    shown = [r for r in build_remedies(sig, chosen) if r.applies.value != "fails" or r.in_force]
    out = _run(["remedy", SIG, "--fact", "stack=vllm", "--format", fmt])
    assert out == render_as("remedy", RemedyDoc(sig, shown, chosen), fmt) and "VLLM_USE_DEEP_GEMM" in out


@pytest.mark.parametrize("fmt", formats("repro"))
def test_repro_entry(fmt, monkeypatch):
    from fp8triage.confirm import repro as R

    results = [{"id": "per-tensor-fp8", "verdict": "not-reproduced", "mode": "emulated", "device": "cpu",
                "wall_s": 0.5, "metrics": {"x": 1}, "command": "python per_tensor_fp8.py --device cpu --json"}]
    monkeypatch.setattr(R, "torch_available", lambda: True)
    monkeypatch.setattr(R, "run_repros", lambda *a, **kw: results)
    out = _run(["repro", "per-tensor-fp8", "--device", "cpu", "--format", fmt])
    wall = re.compile(r'"wall_s": [\d.e-]+,\n  "summary"|in [\d.]+ s\n$')  # the run's own wall time
    expect = render_as("repro", results, fmt, Options(device="cpu", wall_s=1.0))
    assert wall.sub("W", out) == wall.sub("W", expect)
    assert "not-reproduced" in out


@pytest.mark.parametrize("fmt", formats("history"))
def test_history_entry(fmt, tmp_path):
    from fp8triage.common.envelope import envelope
    from fp8triage.store.history import query

    db = str(tmp_path / "h.db")
    _run(["scan", str(EXAMPLE), "--db", db])
    data = {**envelope("history"), "filters": {"signature": None, "status": None, "since": None}, **query(db, limit=50)}
    out = _run(["history", "--db", db, "--format", fmt])
    assert out == render_as("history", data, fmt) and SIG in out


@pytest.mark.parametrize("fmt", formats("history-import"))
def test_history_import_entry(fmt, tmp_path):
    from fp8triage.store.history_import import import_results

    res = tmp_path / "run.json"
    res.write_text(_run(["scan", str(EXAMPLE), "--format", "json", "--no-history"]))
    rep = import_results([str(res)], tmp_path / "a.db")
    out = _run(["history", "import", str(res), "--db", str(tmp_path / "b.db"), "--format", fmt])
    assert out == render_as("history-import", rep, fmt)
    assert str(res) in out and (fmt == "json" or out.endswith("1 imported, 0 already there, 0 failed\n"))


@pytest.mark.parametrize("fmt", formats("signatures-list"))
def test_signatures_list_entry(fmt):
    from fp8triage.authoring import sigtools

    rows = sigtools.summary_rows(sigtools.load(None))
    out = _run(["signatures", "list", "--format", fmt])
    assert out == render_as("signatures-list", rows, fmt) and SIG in out


@pytest.mark.parametrize("fmt", formats("signatures-show"))
def test_signatures_show_entry(fmt):
    from fp8triage.authoring import sigtools

    info = sigtools.show(sigtools.load(None), SIG, None)
    out = _run(["signatures", "show", SIG, "--format", fmt])
    assert out == render_as("signatures-show", info, fmt) and out.endswith("\n") and SIG in out


@pytest.mark.parametrize("fmt", formats("signatures-search"))
def test_signatures_search_entry(fmt):
    from fp8triage.authoring import sigtools

    rows = sigtools.search("deepgemm", None, 20)
    out = _run(["signatures", "search", "deepgemm", "--format", fmt])
    assert out == render_as("signatures-search", rows, fmt) and SIG in out


@pytest.mark.parametrize("fmt", formats("follow"))
def test_follow_entries(fmt):
    """scan --follow prints each notice and then the summary through the registry."""
    from fp8triage.catalogue.loader import load_catalogue
    from fp8triage.drivers.follow import Follower
    from fp8triage.render.follow import FollowSummary

    fl = Follower(load_catalogue(), "<stdin>")
    notices = []
    for ln in EXAMPLE.read_text().splitlines():
        notices += fl.feed(ln.encode())
    notices += fl.finish()
    result = fl.result()
    o = Options(run_id="r" * 32, source="<stdin>")
    expect = "".join(render_as("follow", n, fmt, o) for n in notices)
    expect += render_as("follow-summary", FollowSummary(result, 3, False, len(EXAMPLE.read_text().splitlines()),
                                                        run_id=o.run_id, source=o.source), fmt)
    out = _run(["scan", "--follow", "-", "--format", fmt, "--no-history"], input=EXAMPLE.read_text())
    varying = re.compile(r'\[\d\d:\d\d:\d\d\]|"(time|run_id|host)": ?("[^"]*"|[\d.]+)')
    assert varying.sub("V", out) == varying.sub("V", expect)
    assert SIG in out and out.endswith("exit 3\n" if fmt == "text" else "}\n")
    if fmt != "text":  # one record a line: each notice, then the summary
        assert out.count("\n") == len(notices) + 1 and json.loads(out.splitlines()[-1])["event"] == "summary"


def test_a_finding_judged_on_one_part_of_a_comparison_says_that_gpu(tmp_path):
    log = tmp_path / "compare.log"
    log.write_text("transformers 5.12.1 on two boxes, Qwen/Qwen3-4B-FP8 (float32 block scales), greedy decoding:\n"
                   "--- H100 80GB HBM3 ---\n"
                   "The refund policy allows returns within 30 days.\n"
                   "--- B200 ---\n"
                   "refund refund the the the the policy policy of of of\n")
    out = _run(["scan", str(log)])
    head = out.split("ROOT CAUSE", 1)[1].splitlines()[1]
    assert "B200 (capability 10.0)" in head and "H100" not in head
