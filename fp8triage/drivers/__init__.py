"""The drivers: they run the stages (scan, judge) over the inputs, in one process (``batch.py``), on
every core (``parallel.py``), as the input grows (``follow.py``) or on a Ray cluster
(``rayscan.py``). Nothing below them imports them."""
