"""JSON for runbooks. The contract is fp8triage/schemas/scan.schema.json (``SCHEMA_VERSION``)."""
from __future__ import annotations

import json
from typing import Any

from ..model import ScanResult

SCHEMA_VERSION = "1.1"


def result_dict(result: ScanResult, *, exit_code: int | None = None) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "kind": "scan",
        "meta": result.meta,
        "exit_code": exit_code,
        "findings": [f.to_dict() for f in result.findings],
        "ruled_out": [f.to_dict() for f in result.ruled_out],
        "unknown_errors": [u.to_dict() for u in result.unknown],
        "facts": [f.to_dict() for f in result.facts],
        "conflicts": result.conflicts,
        "inputs": [i.to_dict() for i in result.inputs],
        "warnings": result.warnings,
    }


def render_json(result: ScanResult, *, exit_code: int | None = None) -> str:
    # ensure_ascii keeps every control character escaped: a terminal never interprets them
    return json.dumps(result_dict(result, exit_code=exit_code), indent=2, ensure_ascii=True) + "\n"
