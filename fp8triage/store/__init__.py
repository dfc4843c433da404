"""The run history (sqlite): recurring findings and error groups across runs."""
