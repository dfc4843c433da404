#!/usr/bin/env bash
# Runbook step: triage a model server's log, apply the remedy, branch on fp8triage's exit code.
#
#   docs/runbook-example.sh LOG [SERVER_COMMAND...]
#
# exit 0 from fp8triage: nothing found              -> report healthy, exit 0
# exit 3: a known root cause                        -> eval the remedy (environment variables) and
#                                                      restart SERVER_COMMAND with it, or print it
# exit 4: only errors that no signature knows       -> escalate with their fingerprints, exit 4
# exit 5: nothing could be read (every input was     -> say why (the warnings), exit 5: an empty or
#         skipped: binary, empty, no log in a bundle)    binary file is no clean bill of health
# exit 1/2: fp8triage could not run                 -> fail the step, exit 1
#
# FP8TRIAGE overrides the command (default: fp8triage, else python3 -m fp8triage).
# The exit codes and the JSON read here are the contract in docs/json-contract.md.
set -u

log=${1:?usage: runbook-example.sh LOG [SERVER_COMMAND...]}
shift
if [ -z "${FP8TRIAGE:-}" ]; then
  if command -v fp8triage >/dev/null 2>&1; then FP8TRIAGE=fp8triage; else FP8TRIAGE="python3 -m fp8triage"; fi
fi
PY=${PYTHON:-python3}

report=$(mktemp)
trap 'rm -f "$report"' EXIT

$FP8TRIAGE scan "$log" --format json >"$report"
code=$?

# one field of the scan JSON, read with Python (jq may not be installed)
field() {
  "$PY" -c 'import json, sys
doc = json.load(open(sys.argv[1]))
print(eval(sys.argv[2], {}, {"doc": doc}))' "$report" "$1"
}

case $code in
  0)
    echo "runbook: no known FP8 failure in $log"
    exit 0
    ;;
  3)
    id=$(field 'doc["findings"][0]["id"]')
    status=$(field 'doc["findings"][0]["status"]')
    # hand the facts the scan found (stack, GPU capability) to `remedy`, so it picks the remedies that fit
    mapfile -t facts < <(field '"\n".join("--fact=%s=%s" % (f["name"], f["value"]) for f in doc["facts"] if f["name"] in ("stack", "capability", "gpu", "vllm", "sglang", "transformers"))')
    echo "runbook: $id ($status)"
    remedy=$($FP8TRIAGE remedy "$id" "${facts[@]}" --format sh)
    rcode=$?
    if [ $rcode -eq 5 ]; then
      echo "runbook: no remedy fits; see: $FP8TRIAGE remedy $id --all"
      exit 3
    elif [ $rcode -ne 0 ]; then
      echo "runbook: fp8triage remedy failed (exit $rcode)" >&2
      exit 1
    fi
    printf '%s\n' "$remedy"
    eval "$remedy"
    if [ $# -gt 0 ]; then
      echo "runbook: restarting with the remedy applied: $*"
      exec "$@"
    fi
    exit 3
    ;;
  4)
    echo "runbook: errors that no signature knows; escalating. Fingerprints:"
    field '"\n".join("  %s %s" % (u["fingerprint"], u["headline"][:100]) for u in doc["unknown_errors"])'
    echo "runbook: to teach fp8triage one: fp8triage signatures new ID --from-fingerprint FP"
    exit 4
    ;;
  5)
    echo "runbook: nothing in $log could be read; not healthy, just unknown:" >&2
    field '"\n".join("  " + w for w in doc["warnings"])' >&2
    exit 5
    ;;
  *)
    echo "runbook: fp8triage could not triage $log (exit $code)" >&2
    exit 1
    ;;
esac
