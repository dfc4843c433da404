"""Signature authoring: what `fp8triage signatures` does (the sample harness, validation, search,
show, the generated docs/signatures.md) and scaffolding a signature from an unknown error group.
It sits high in the order (it runs scans and reads the history); only the command line and
tools/ import it."""
