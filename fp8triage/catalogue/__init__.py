"""The signature catalogue: loading and validation, the typed conditions and remedies, the
recognition data, regex safety (authoring tools are in ``authoring/``)."""
