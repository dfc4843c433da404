"""Errors that follow from an earlier root cause (co-occurrence rules).

When a finding exists, unknown error groups that match one of these patterns and first
appear after the finding's first evidence are attached to it as consequences ("3 later
errors follow from this") instead of being listed as separate problems.
"""
from __future__ import annotations

import regex

CASCADES: list[tuple[str, regex.Pattern]] = [
    ("engine-init-failed", regex.compile(r"Engine core initialization failed|EngineCore failed to start|Engine process failed to start|initialization failed due to an exception in a background process")),
    ("worker-died", regex.compile(r"WorkerProc (?:failed to start|hit an exception|died)|Worker proc \S+ died|worker .{0,40}died unexpectedly|Failed core proc", regex.I)),
    ("server-unhealthy", regex.compile(r"Server failed to become healthy|Application startup failed|Waiting for application startup.*failed")),
    ("cuda-graph-capture", regex.compile(r"Capture cuda graph failed")),
    ("nccl-abort", regex.compile(r"NCCL (?:error|WARN).{0,80}(?:abort|Abort|remote process exited)|ProcessGroupNCCL.{0,80}(?:abort|timeout|Timeout)", regex.I)),
    ("launch-failure", regex.compile(r"CUDA_ERROR_LAUNCH_FAILED|unspecified launch failure|CUDA error: an illegal memory access")),
    ("process-exit", regex.compile(r"exited with (?:exit )?code [1-9]|Process .{0,40} exited|SIGABRT|Aborted \(core dumped\)")),
    ("http-500", regex.compile(r"HTTP/1\.1\" 500|Internal Server Error")),
    ("worker-method-failed", regex.compile(r"Error executing method \w+")),
    ("incomplete-traceback", regex.compile(r"^File \"[^\"]*\", line <N>")),
    ("shutdown", regex.compile(r"RuntimeError: Engine core|EngineDeadError|AsyncEngineDeadError")),
]


def cascade_kind(text: str) -> str | None:
    for name, rx in CASCADES:
        if rx.search(text):
            return name
    return None
