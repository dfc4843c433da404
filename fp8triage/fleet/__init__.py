"""Fleet triage: logs in object storage (``objstore``), scans on a Ray cluster (``rayscan``),
the fleet view of a many-source result (``view``) and merging results from many hosts into
one history database (``history_import``). Ray, fsspec and s3fs are the ``fleet`` extra."""
