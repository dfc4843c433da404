"""fp8triage: triage FP8 model-server failures from logs, facts and local GPU reproductions."""

__version__ = "0.1.0"
