"""Drift variants of a log sample: the same failure as another release, terminal, logger or person
would show it. Used by tests/e2e/test_drift.py and tools/accuracy_report.py.

Each variant is a pure function ``str -> str`` so that a failing case can be reproduced by hand:

- ``cut``: the last non-blank line cut at 60 % of its length (a paste that ends mid-line);
- ``wrap``: every line longer than 100 columns folded at column 100, mid-word (a terminal or ``fold``);
- ``k8s``: every line as a Kubernetes/Docker JSON line (``{"log": ..., "stream": ..., "time": ...}``);
- ``prefix``: worker prefixes of another stack (vLLM's become SGLang's, anything else gets vLLM's);
- ``versions``: every three-part version's last part and every source line number changed (``0.26.1`` ->
  ``0.26.2``, ``layout.hpp:59`` -> ``layout.hpp:62``): another patch release of the same code. (Minor and
  major parts are kept: a signature's conditions legitimately change their verdict across them.)
- ``quote``: every line as a Markdown block quote (``> ...``): a log quoted in a reply of an issue thread;
- ``syslog``: every line behind a syslog / journalctl prefix (``Dec  3 06:00:00 host vllm[4242]: ``).
"""
from __future__ import annotations

import json
import re

WRAP = 100
CUT = 0.6

_VLLM_PREFIX = re.compile(r"^\((?:VllmWorker|EngineCore|RayWorkerWrapper|Worker|APIServer)[^)]*\)\s*")
_OTHER_PREFIX = re.compile(r"^(?:\[rank\d+\]:\s*|\[\d+,\d+\]<std(?:out|err)>:\s*|\[[^\]]*\bTP\d+\]\s*)")
_VERSION = re.compile(r"(?<![\w.])(\d+)\.(\d+)\.(\d+)(?![\w.]*\d)")
_SRC_LINE = re.compile(r"(\.(?:hpp|cuh|cu|cpp|h|py)):(\d+)")


def cut(text: str) -> str:
    lines = text.split("\n")
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].strip():
            keep = max(1, int(len(lines[i]) * CUT))
            lines[i] = lines[i][:keep]
            return "\n".join(lines[: i + 1]) + "\n"
    return text


def wrap(text: str) -> str:
    out = []
    for line in text.split("\n"):
        while len(line) > WRAP:
            out.append(line[:WRAP])
            line = line[WRAP:]
        out.append(line)
    return "\n".join(out)


def k8s(text: str) -> str:
    lines = text.rstrip("\n").split("\n")
    return "".join(
        json.dumps({"log": ln + "\n", "stream": "stderr", "time": f"2026-12-03T06:{i // 60 % 60:02d}:{i % 60:02d}.000000000Z"}) + "\n"
        for i, ln in enumerate(lines)
    )


def prefix(text: str) -> str:
    out = []
    for ln in text.split("\n"):
        if not ln.strip():
            out.append(ln)
            continue
        if _VLLM_PREFIX.match(ln):
            out.append("[2026-12-03 06:00:00 TP3] " + _VLLM_PREFIX.sub("", ln, count=1))
        else:
            out.append("(VllmWorker rank=3 pid=4242) " + _OTHER_PREFIX.sub("", ln, count=1))
    return "\n".join(out)


def versions(text: str) -> str:
    text = _VERSION.sub(lambda m: f"{m.group(1)}.{m.group(2)}.{int(m.group(3)) + 1}", text)
    return _SRC_LINE.sub(lambda m: f"{m.group(1)}:{int(m.group(2)) + 3}", text)


def quote(text: str) -> str:
    return "\n".join("> " + ln for ln in text.split("\n"))


def syslog(text: str) -> str:
    return "\n".join(f"Dec  3 06:00:{i % 60:02d} gpu-node-7 vllm[4242]: {ln}" if ln.strip() else ln
                     for i, ln in enumerate(text.split("\n")))


VARIANTS = {"cut": cut, "wrap": wrap, "k8s": k8s, "prefix": prefix, "versions": versions, "quote": quote,
            "syslog": syslog}
