"""Exit codes. Stable: runbooks branch on them (documented in README.md and docs/json-contract.md)."""
from __future__ import annotations

import enum


class Exit(enum.IntEnum):
    OK = 0  # nothing found at or above the --fail-on threshold
    ERROR = 1  # the run could not be done: unreadable input, bad signature file, ... (one sentence on stderr)
    USAGE = 2  # bad command line
    KNOWN = 3  # a known root cause was found (status at or above the threshold)
    UNKNOWN_ONLY = 4  # no known root cause, but errors that no signature knows
    NOTHING_READ = 5  # nothing found because nothing could be read: every input was skipped (binary, empty, an archive without logs)


# --fail-on thresholds, strictest first: what counts towards a non-zero exit
FAIL_ON = ("likely", "possible", "unknown", "never")
# the finding statuses each threshold counts (`unknown` also counts unknown error groups)
COUNTED = {
    "likely": frozenset({"confirmed", "likely"}),
    "possible": frozenset({"confirmed", "likely", "possible"}),
    "unknown": frozenset({"confirmed", "likely", "possible"}),
    "never": frozenset(),
}


def exit_code(statuses: list[str], unknown_groups: int, fail_on: str = "unknown", nothing_read: bool = False) -> Exit:
    """Exit code for a scan/check given the finding statuses and the number of unknown error groups.
    ``nothing_read``: every input was skipped, so "nothing found" is no clean bill of health."""
    if fail_on not in FAIL_ON:
        raise ValueError(f"fail_on must be one of {FAIL_ON}")
    if fail_on == "never":
        return Exit.OK
    if any(s in COUNTED[fail_on] for s in statuses):
        return Exit.KNOWN
    if fail_on == "unknown" and unknown_groups:
        return Exit.UNKNOWN_ONLY
    if nothing_read and not statuses and not unknown_groups:
        return Exit.NOTHING_READ
    return Exit.OK
