"""JSON for runbooks. The contract is fp8triage/schemas/scan.schema.json (its version: ``envelope.SCHEMA_VERSIONS["scan"]``)."""
from __future__ import annotations

import json
from typing import Any

from ..model import ScanResult
from .clip import clip_raw
from ..common.envelope import envelope



def _clip_lines(doc: dict[str, Any]) -> dict[str, Any]:
    """Log lines longer than MAX_LINE_CHARS are clipped around their match, marked ``clipped`` with
    their full ``text_length`` (the span moves with the text)."""
    for key in ("findings", "ruled_out"):
        for f in doc[key]:
            for ev in f["evidence"]:
                text, span, cut = clip_raw(ev["text"], ev.get("span"))
                if cut:
                    ev.update(text=text, span=span, clipped=True, text_length=len(ev["text"]))
    for u in doc["unknown_errors"]:
        for ln in u["sample"]:
            text, _, cut = clip_raw(ln["text"])
            if cut:
                ln.update(text=text, clipped=True, text_length=len(ln["text"]))
    return doc


def result_dict(result: ScanResult, *, exit_code: int | None = None) -> dict[str, Any]:
    return _clip_lines({
        **envelope("scan"),
        "meta": result.meta,
        "exit_code": exit_code,
        "findings": [f.to_dict() for f in result.findings],
        "ruled_out": [f.to_dict() for f in result.ruled_out],
        "unknown_errors": [u.to_dict() for u in result.unknown],
        "facts": [f.to_dict() for f in result.facts],
        "conflicts": result.conflicts,
        "inputs": [i.to_dict() for i in result.inputs],
        "warnings": result.warnings,
        **({"fleet": result.fleet} if result.fleet is not None else {}),
    })


def render_json(result: ScanResult, *, exit_code: int | None = None) -> str:
    # ensure_ascii keeps every control character escaped: a terminal never interprets them
    return json.dumps(result_dict(result, exit_code=exit_code), indent=2, ensure_ascii=True) + "\n"
