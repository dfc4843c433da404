"""Redaction: real-looking secrets in logs, env dumps and checkpoint paths never reach the history
database, JSON, HTML, Markdown, follow output or the terminal."""
from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from fp8triage.common.redact import MASK, redact

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = (ROOT / "examples" / "vllm-rtx5090-unknown-sf.log").read_text()
ENVDUMP = (ROOT / "tests" / "fixtures" / "envdumps" / "vllm-collect-env-b200.txt").read_text()

# Real-looking, not real. Each must vanish; the "keep" strings must survive.
SECRETS = {
    "hf": "hf_QmVyeVNlY3JldFRva2VuRm9yVGVzdHM1",
    "openai": "sk-proj-T3stK3yAbCdEfGhIjKlMnOpQrStUv",
    "aws_id": "AKIAQWERTYUIOPASDFGH",
    "aws_secret": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "bearer": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.c2lnbmF0dXJlX3ZhbHVl",
    "url_pw": "Hunter2Passw0rd",
    "wandb": "0123456789abcdef0123456789abcdef01234567",
    "db_pw": "s3cr3t-Db-Pa55",
    "gh": "ghp_ZxCvBnMaSdFgHjKlQwErTyUiOp1234567890",
}
LEAKS = list(SECRETS.values())

SECRET_LOG_LINES = f"""INFO 08-11 09:14:00 [__init__.py:1] HF_TOKEN={SECRETS['hf']} OPENAI_API_KEY={SECRETS['openai']}
INFO 08-11 09:14:00 [__init__.py:1] AWS_ACCESS_KEY_ID={SECRETS['aws_id']} AWS_SECRET_ACCESS_KEY={SECRETS['aws_secret']}
ERROR 08-11 09:14:01 [api_server.py:9] request failed: Authorization: Bearer {SECRETS['bearer']}
Traceback (most recent call last):
  File "/srv/app/loader.py", line 7, in load
    blob = fetch("https://alice:{SECRETS['url_pw']}@hub.example.com/m", token="{SECRETS['hf']}")
ValueError: cannot fetch https://alice:{SECRETS['url_pw']}@hub.example.com/m (WANDB_API_KEY={SECRETS['wandb']}, github {SECRETS['gh']})
INFO 08-11 09:14:02 [core.py:1] DB_PASSWORD: {SECRETS['db_pw']}
"""


@pytest.mark.parametrize(
    "text,keep",
    [
        (f"export HF_TOKEN={SECRETS['hf']}", "export HF_TOKEN="),
        (f"login(token='{SECRETS['hf']}')", "login(token="),
        (f"key {SECRETS['openai']} used", "used"),
        (f"{SECRETS['aws_id']}:{SECRETS['aws_secret']}", ""),
        (f"aws_secret_access_key = {SECRETS['aws_secret']}", "aws_secret_access_key = "),
        (f"Authorization: Bearer {SECRETS['bearer']}", "Authorization: Bearer "),
        (f"git clone https://bob:{SECRETS['url_pw']}@git.example.com/r.git", "https://bob:"),
        (f'{{"WANDB_API_KEY": "{SECRETS["wandb"]}"}}', '"WANDB_API_KEY": "'),
        (f"MY_SERVICE_SECRET={SECRETS['db_pw']}", "MY_SERVICE_SECRET="),
        (f"db password={SECRETS['db_pw']}", "password="),
        (f"https://bucket.s3.amazonaws.com/x?X-Amz-Signature={SECRETS['wandb']}&y=1", "&y=1"),
        (f"token {SECRETS['gh']}", "token "),
    ],
)
def test_secret_kinds_are_masked(text, keep):
    out = redact(text)
    assert MASK in out
    assert keep in out
    for s in LEAKS:
        assert s not in out


@pytest.mark.parametrize(
    "clean",
    [
        "TOKENIZERS_PARALLELISM=false",
        "max_num_batched_tokens=8192, max_tokens=4096, pad_token=None",
        "VLLM_USE_DEEP_GEMM=0 VLLM_USE_DEEP_GEMM_E8M0=1",
        "RuntimeError: Assertion error (/workspace/.deps/deepgemm-src/csrc/apis/layout.hpp:59): Unknown SF transformation",
        "Loading weights from https://huggingface.co/Qwen/Qwen3-4B-FP8/resolve/main/model.safetensors",
        "PATH=/usr/local/cuda/bin:/usr/bin",
        "kv cache key_cache shape [2, 16]",
        "skipping keys: ['lm_head.weight_scale']",
    ],
)
def test_clean_text_is_unchanged(clean):
    assert redact(clean) == clean


def test_idempotent():
    once = redact(SECRET_LOG_LINES)
    assert redact(once) == once


def _env():
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


@pytest.fixture
def scene(tmp_path):
    """A log with secrets, an env dump with secrets, a model folder whose path holds a token."""
    lines = EXAMPLE.splitlines(keepends=True)
    log = tmp_path / "server.log"
    log.write_text(lines[0] + SECRET_LOG_LINES + "".join(lines[1:]))
    env = tmp_path / "collect_env.txt"
    env.write_text(ENVDUMP + f"HF_TOKEN={SECRETS['hf']}\nAWS_SECRET_ACCESS_KEY={SECRETS['aws_secret']}\n"
                   f"VLLM_USE_DEEP_GEMM=1\nHTTPS_PROXY=http://proxy:{SECRETS['url_pw']}@10.0.0.1:3128\n")
    model = tmp_path / f"models--org--{SECRETS['hf']}" / "snap"
    model.mkdir(parents=True)
    (model / "config.json").write_text(json.dumps({
        "architectures": ["Qwen3ForCausalLM"],
        "_name_or_path": f"https://alice:{SECRETS['url_pw']}@hub.example.com/Qwen3-4B-FP8",
        "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128], "fmt": "e4m3"},
    }))
    return {"log": log, "env": env, "model": model, "db": tmp_path / "h.db", "tmp": tmp_path}


def _scan(scene, *extra):
    args = [sys.executable, "-m", "fp8triage", "scan", str(scene["log"]), "--env-file", str(scene["env"]),
            "--model", str(scene["model"]), "--db", str(scene["db"]), "-v", *extra]
    return subprocess.run(args, capture_output=True, text=True, env=_env(), timeout=120)


def _assert_clean(text: str, where: str):
    for name, s in SECRETS.items():
        assert s not in text, f"{name} secret reached {where}"


@pytest.mark.slow
def test_scan_outputs_and_history_hold_no_secret(scene):
    # the scan still works on the redacted lines
    p = _scan(scene, "--format", "json")
    assert p.returncode == 3, p.stderr
    doc = json.loads(p.stdout)
    assert doc["findings"][0]["id"] == "deepgemm-unknown-sf-transformation"
    assert any(u["headline"].startswith("ValueError: cannot fetch") for u in doc["unknown_errors"])
    assert MASK in p.stdout
    _assert_clean(p.stdout + p.stderr, "scan JSON")
    for fmt in ("text", "markdown", "html"):
        p = _scan(scene, "--format", fmt)
        assert p.returncode == 3, (fmt, p.stderr[-2000:])
        _assert_clean(p.stdout + p.stderr, f"scan {fmt} output")
    out = scene["tmp"] / "report.html"
    p = _scan(scene, "--format", "html", "-o", str(out))
    assert p.returncode == 3
    _assert_clean(out.read_text(), "HTML report file")
    # the database: every value of every table
    conn = sqlite3.connect(scene["db"])
    dump = "\n".join(conn.iterdump())
    assert "cannot fetch" in dump and MASK in dump
    _assert_clean(dump, "the history database")
    for args in (["history", "--db", str(scene["db"])], ["history", "--db", str(scene["db"]), "--format", "json"]):
        p = subprocess.run([sys.executable, "-m", "fp8triage", *args], capture_output=True, text=True, env=_env(), timeout=60)
        assert p.returncode == 0
        _assert_clean(p.stdout, "history output")


def test_html_renderer_gets_redacted_data(scene):
    pytest.importorskip("jinja2")
    from fp8triage.render import html

    from fp8triage.drivers.batch import scan_paths

    res = scan_paths([str(scene["log"])])
    _assert_clean(html.render_html(res, verbose=True), "render_html")


def test_follow_output_holds_no_secret(scene):
    for fmt in ("json", "text"):
        p = subprocess.run([sys.executable, "-m", "fp8triage", "scan", "--follow", "-", "--format", fmt, "--no-history",
                            "--env-file", str(scene["env"])], input=scene["log"].read_text(), capture_output=True,
                           text=True, env=_env(), timeout=120)
        assert p.returncode == 3, p.stderr
        _assert_clean(p.stdout + p.stderr, f"follow {fmt}")


def test_check_and_facts_hold_no_secret(scene):
    for fmt in ("text", "json"):
        p = subprocess.run([sys.executable, "-m", "fp8triage", "check", "--no-probe", "--model", str(scene["model"]),
                            "--env-file", str(scene["env"]), "--format", fmt], capture_output=True, text=True,
                           env=_env(), timeout=120)
        assert p.returncode in (0, 3), p.stderr
        _assert_clean(p.stdout + p.stderr, f"check {fmt}")


def test_cli_fact_values_are_redacted():
    from fp8triage.facts.vocabulary import parse_cli_fact

    f = parse_cli_fact(f"model=https://alice:{SECRETS['url_pw']}@hub.example.com/x")
    assert SECRETS["url_pw"] not in f.value and MASK in f.value


def test_checkpoint_path_is_redacted(scene):
    from fp8triage.facts.checkpoint import checkpoint_facts

    info = checkpoint_facts(scene["model"])
    _assert_clean(json.dumps(info.to_dict()), "checkpoint info")
    _assert_clean(str(info.path), "checkpoint path")
