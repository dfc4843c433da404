"""Errors that follow from an earlier root cause (co-occurrence rules).

When a finding exists, unknown error groups that match one of these patterns and first
appear after the finding's first evidence are attached to it as consequences ("3 later
errors follow from this") instead of being listed as separate problems.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import regex

from ..common import rxcache
from ..common.masks import mask
from ..model import UnknownGroup

if TYPE_CHECKING:
    from .claims import Claims

CASCADES: list[tuple[str, regex.Pattern]] = [
    ("engine-init-failed", rxcache.compile(r"Engine core initialization failed|EngineCore failed to start|Engine process failed to start|initialization failed due to an exception in a background process")),
    ("worker-died", rxcache.compile(r"WorkerProc (?:failed to start|hit an exception|died)|Worker proc \S+ died|worker .{0,40}died unexpectedly|Failed core proc", regex.I)),
    ("server-unhealthy", rxcache.compile(r"Server failed to become healthy|Application startup failed|Waiting for application startup.*failed")),
    ("cuda-graph-capture", rxcache.compile(r"Capture cuda graph failed")),
    ("nccl-abort", rxcache.compile(r"NCCL (?:error|WARN).{0,80}(?:abort|Abort|remote process exited)|ProcessGroupNCCL.{0,80}(?:abort|timeout|Timeout)", regex.I)),
    ("launch-failure", rxcache.compile(r"CUDA_ERROR_LAUNCH_FAILED|unspecified launch failure|CUDA error: an illegal memory access")),
    ("process-exit", rxcache.compile(r"exited with (?:exit )?code [1-9]|Process .{0,40} exited|SIGABRT|Aborted \(core dumped\)")),
    ("http-500", rxcache.compile(r"HTTP/1\.1\" 500|Internal Server Error")),
    ("worker-method-failed", rxcache.compile(r"Error executing method \w+")),
    ("incomplete-traceback", rxcache.compile(r"^File \"[^\"]*\", line <N>")),
    ("shutdown", rxcache.compile(r"RuntimeError: Engine core|EngineDeadError|AsyncEngineDeadError")),
]


def cascade_kind(text: str) -> str | None:
    for name, rx in CASCADES:
        if rx.search(text):
            return name
    return None


CASCADE_LOOKBACK = 200  # lines: "WorkerProc failed to start." is printed just before its traceback


def consequence_kind(u: UnknownGroup) -> str | None:
    """The cascade kind of an unknown error group (``cascades.CASCADES``), read from its masked
    headline and sample lines, as batch and follow mode both see it."""
    return cascade_kind(mask(u.headline) + "\n" + "\n".join(ln.text for ln in u.sample))


def follows_from(u: UnknownGroup, first: dict[str, int]) -> bool:
    """Does unknown group ``u`` (of a cascade kind) follow from a finding whose first evidence
    line is ``first[source]`` in each source it was seen in? Yes when ``u`` is in another
    source (another pod's log) or, in the same source, its last occurrence is no more than
    CASCADE_LOOKBACK lines before that evidence (or after it)."""
    src = u.first.source
    return src not in first or u.last.lineno >= first[src] - CASCADE_LOOKBACK


def first_evidence_lines(hits) -> dict[str, int]:
    first: dict[str, int] = {}
    for h in hits:
        ln = h.group.event.lines[0]
        first[ln.source] = min(first.get(ln.source, ln.lineno), ln.lineno)
    return first


def attach_cascades(findings, unknown, claims: Claims):
    """Move unknown groups that follow from the top finding into its consequences
    (``consequence_kind`` and ``follows_from``; follow mode applies the same two rules)."""
    top = next((f for f in findings if not f.from_facts_only and f.severity.value != "info"), None)
    if top is None:
        return unknown
    hits = claims.primary.get(top.id, []) or claims.supporting.get(top.id, [])
    if not hits:
        return unknown
    first = first_evidence_lines(hits)
    keep = []
    for u in unknown:
        kind = consequence_kind(u)
        if kind and follows_from(u, first):
            top.consequences.append(consequence_entry(u, kind))
            continue
        keep.append(u)
    return keep


def consequence_entry(u: UnknownGroup, kind: str) -> dict:
    return {"kind": kind, "fingerprint": u.fingerprint, "headline": u.headline, "count": u.count,
            "source": u.first.source, "line": u.first.lineno}
