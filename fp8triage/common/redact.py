"""Masking secrets before anything is stored, rendered or printed.

Ordered, named data: each rule is (name, pattern, replacement). ``redact`` is applied to every
log line when it is normalised (``fp8triage.scan.normalise.normalise``), to every fact value and
source (``fp8triage.facts.vocabulary.resolve`` and ``parse_cli_fact``), and to the scan report before it
is written, so nothing downstream (facts, fingerprints, evidence, history, reports) ever holds
the secret.

Speed: a line that contains none of the literal ``_TRIGGERS`` is returned unchanged without
running a regex (the scan path normalises only the neighbourhood of anchor hits, but follow
mode normalises every line).
"""
from __future__ import annotations

import regex

from . import rxcache

MASK = "<redacted>"

# Names of variables and keyword arguments that hold secrets: they end in one of these words.
# Upper case (environment variables: HF_TOKEN, AWS_SECRET_ACCESS_KEY, WANDB_API_KEY, DB_PASSWORD)
# and lower case (hf_token=..., api_key=..., password=...). "TOKENIZERS_PARALLELISM" and
# "max_num_batched_tokens" do not end in one, so they are left alone.
_UPPER_NAME = r"[A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIALS?|PAT)"
_LOWER_NAME = r"[a-z0-9_]*(?:token|secret|password|passwd|api_key|apikey|access_key|secret_key|private_key|credentials?)"

RULES: list[tuple[str, regex.Pattern, str]] = [
    ("private-key-block", rxcache.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"),
     MASK),
    ("hf-token", rxcache.compile(r"\bhf_[A-Za-z0-9]{20,}\b"), MASK),
    ("openai-key", rxcache.compile(r"\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-)?[A-Za-z0-9_-]{20,}"), MASK),
    ("github-token", rxcache.compile(r"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}\b"), MASK),
    # an access key id next to its secret (credentials files, "id:secret" strings)
    ("aws-key-pair", rxcache.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}([\s:=,;|]+['\"]?)[A-Za-z0-9/+=]{40}(?![A-Za-z0-9/+=])"),
     MASK + r"\1" + MASK),
    ("aws-access-key", rxcache.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b"), MASK),
    ("aws-secret", rxcache.compile(r"(?i)(aws_?secret_?access_?key['\"]?\s*[=:]\s*['\"]?)[A-Za-z0-9/+=]{40}"), r"\1" + MASK),
    ("slack-token", rxcache.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b"), MASK),
    ("jwt", rxcache.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), MASK),
    ("bearer", rxcache.compile(r"(?i)\b(bearer|token|basic)(\s+)(?!<redacted>)[A-Za-z0-9._~+/=-]{16,}"), r"\1\2" + MASK),
    ("url-password", rxcache.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@]+):(?!<redacted>@)[^\s@/]+@"), r"\1:" + MASK + "@"),
    ("url-token-param", rxcache.compile(r"(?i)([?&](?:token|access_token|api_key|apikey|key|sig|signature|password|x-amz-signature|x-amz-credential|x-amz-security-token)=)[^\s&#'\"]{6,}"),
     r"\1" + MASK),
    (
        "secret-env",
        rxcache.compile(
            r"(?<![A-Za-z0-9_])(" + _UPPER_NAME + r")(['\"]?\s*[=:]\s*['\"]?)(?!<redacted>)[^\s'\",;]{4,}"
        ),
        r"\1\2" + MASK,
    ),
    (
        "secret-kwarg",
        rxcache.compile(
            r"(?<![A-Za-z0-9_])(" + _LOWER_NAME + r")(['\"]?\s*[=:]\s*['\"]?)(?!<redacted>)(?!\d{1,7}\b)(?!None\b|null\b|True\b|False\b)[^\s'\",;)]{4,}"
        ),
        r"\1\2" + MASK,
    ),
]

# Cheap literal checks, so clean lines skip the regexes. Every rule above needs one of these.
_TRIGGERS = ("hf_", "sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat", "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "xox", "eyJ",
             "earer", "EARER", "asic", "token=", "token:", "token ", "token\t", "token'", 'token"', "Token", "TOKEN",
             "://", "ECRET", "ecret", "ASSW", "assw", "KEY", "key",
             "Key", "REDENTIAL", "redential", "PAT", "PRIVATE")


def has_trigger(text: str) -> bool:
    return any(t in text for t in _TRIGGERS)


# text -> its redacted form, for the short texts that logs repeat (a traceback's frames in
# every worker's copy of it); cleared when full
_MEMO: dict[str, str] = {}
_MEMO_SIZE = 4096
_MEMO_TEXT = 512  # longer texts are not kept


def redact(text: str) -> str:
    """``text`` with every secret replaced by ``<redacted>``."""
    if not text:
        return text
    done = _MEMO.get(text)
    if done is not None:
        return done
    done = text
    if any(t in text for t in _TRIGGERS):
        for _name, rx, repl in RULES:
            done = rx.sub(repl, done)
    if len(text) <= _MEMO_TEXT:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        _MEMO[text] = done
    return done


def redact_env_value(name: str, value: str) -> str:
    """The value of environment variable ``name``: all of it when the name is secret-looking."""
    if regex.fullmatch(_UPPER_NAME, name.upper()) and value:
        return MASK
    return redact(value)


def redact_fact(fact):
    """A Fact with value and source redacted (the same object when nothing changed)."""
    from dataclasses import replace

    if fact.name.upper() == fact.name and regex.fullmatch(_UPPER_NAME, fact.name) and fact.value:
        value = MASK
    else:
        value = redact(fact.value)
    source = redact(fact.source)
    if value is fact.value and source is fact.source:
        return fact
    return replace(fact, value=value, source=source)


def redact_obj(obj):
    """``obj`` (JSON-like: dicts, lists, strings) with every string redacted."""
    if isinstance(obj, str):
        return redact(obj)
    if isinstance(obj, dict):
        return {redact_obj(k) if isinstance(k, str) else k: redact_obj(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [redact_obj(v) for v in obj]
    return obj


def redact_report(text: str, fmt: str) -> str:
    """A rendered report, checked once more just before it is written (defence in depth: the
    lines and facts in it were redacted already). JSON is redacted value by value so it stays
    valid; HTML is left as rendered (its data was redacted before autoescaping)."""
    if not has_trigger(text):
        return text
    if fmt == "json":
        import json

        try:
            data = json.loads(text)
        except ValueError:
            return redact(text)
        clean = redact_obj(data)
        if clean == data:
            return text
        return json.dumps(clean, indent=2, ensure_ascii=True) + "\n"
    if fmt == "jsonl":  # one JSON object per line: each is redacted as JSON, and stays one line
        import json

        out = []
        for line in text.splitlines():
            try:
                data = json.loads(line)
            except ValueError:
                out.append(redact(line))
                continue
            clean = redact_obj(data)
            out.append(line if clean == data else json.dumps(clean, ensure_ascii=True))
        return "".join(ln + "\n" for ln in out)
    if fmt == "html":
        return text
    return redact(text)
