"""The signature catalogue: loading and validation, regex safety, the sample harness, search, docs and
scaffolding."""
