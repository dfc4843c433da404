"""Confirming a finding with the bundled FP8 kernel reproductions (torch only in the worker)."""
