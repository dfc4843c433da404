"""Judging: conditions on facts, matching signatures to event groups, per-source judging, cascades and
the preflight check."""
