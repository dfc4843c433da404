"""Masking secrets before anything is stored, rendered or printed.

Ordered, named data: each rule is (name, pattern, replacement). Applied to every log line
when it is normalised, so nothing downstream (facts, fingerprints, evidence, history) ever
holds the secret.
"""
from __future__ import annotations

import regex

MASK = "<redacted>"

RULES: list[tuple[str, regex.Pattern, str]] = [
    ("hf-token", regex.compile(r"\bhf_[A-Za-z0-9]{20,}\b"), MASK),
    ("openai-key", regex.compile(r"\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b"), MASK),
    ("github-token", regex.compile(r"\b(?:ghp|gho|ghu|ghs|ghr|github_pat)_[A-Za-z0-9_]{20,}\b"), MASK),
    ("aws-access-key", regex.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), MASK),
    ("slack-token", regex.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b"), MASK),
    ("bearer", regex.compile(r"(?i)\b(bearer|token)\s+[A-Za-z0-9._~+/=-]{16,}"), r"\1 " + MASK),
    ("url-password", regex.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@]+):[^\s@/]+@"), r"\1:" + MASK + "@"),
    (
        "secret-assignment",
        regex.compile(
            r"(?i)\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|AUTH)[A-Z0-9_]*)"
            r"(\s*[=:]\s*['\"]?)(?!<redacted>)[^\s'\",;]{4,}"
        ),
        r"\1\2" + MASK,
    ),
    ("aws-secret", regex.compile(r"(?i)(aws_secret_access_key\s*[=:]\s*)['\"]?[A-Za-z0-9/+=]{40}"), r"\1" + MASK),
]

# cheap literal checks so clean lines skip the regexes
_TRIGGERS = ("hf_", "sk-", "gh", "github_pat", "AKIA", "ASIA", "xox", "earer", "oken", "OKEN", "://",
             "ECRET", "ecret", "ASSW", "assw", "KEY", "key", "Key", "AUTH", "auth")


def redact(text: str) -> str:
    if not any(t in text for t in _TRIGGERS):
        return text
    for _name, rx, repl in RULES:
        text = rx.sub(repl, text)
    return text
