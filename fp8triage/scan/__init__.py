"""Reading logs: sources, the prefilter and line selectors, normalisation and redaction, event assembly,
fingerprints, all-core scanning and follow mode."""
