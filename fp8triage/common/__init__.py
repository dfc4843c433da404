"""Pieces every stage may use: redaction, log sources, the fingerprint masks, the GPU table. They
import nothing of fp8triage above ``errors`` and ``model``."""
