"""The schema version of every JSON document fp8triage writes, in one table.

Each document opens with ``{"schema_version": "MAJOR.MINOR", "kind": KIND}``; its contract is
``fp8triage/schemas/KIND.schema.json`` where one exists (docs/json-contract.md). A MAJOR bump
breaks readers; a MINOR one only adds keys."""
from __future__ import annotations

SCHEMA_VERSIONS = {
    "scan": "1.5",  # 1.2: the optional `fleet` key; 1.3: a remedy's optional `in_force`, evidence kind `rule`, exit code 5 (nothing could be read); 1.4: a finding's `held_back`; 1.5: a condition's role `precondition`
    "follow": "1.3",  # 1.1: a remedy's optional `in_force`; exit code 5 (nothing could be read); 1.2: a finding's `held_back`; 1.3: a condition's role `precondition`
    "check": "2.2",  # 1 was the older envelope {"schema": "fp8triage.check/1"}; 2.1: a remedy's `in_force`; 2.2: a condition's role `precondition`
    "repro": "2.0",  # 1 was the older envelope {"schema": "fp8triage.repro/1"}
    "remedy": "1.1",  # 1.1: a remedy's optional `in_force`
    "history": "1.0",
    "env": "1.0",
    "facts": "1.0",
    "stream": "1.3",  # scan --format jsonl: one record per line; 1.1: exit code 5; 1.2: a finding's `held_back`; 1.3: a condition's role `precondition`
    "history-import": "1.0",
}


def envelope(kind: str) -> dict[str, str]:
    """The two keys every JSON document opens with."""
    return {"schema_version": SCHEMA_VERSIONS[kind], "kind": kind}
