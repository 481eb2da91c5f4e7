"""The core: input validation and the counting engine.

Holds the shared input checkers (``validation``, which names them all; they live in
``arrays``, ``labels`` and ``parameters``), the count table built by one sort with
ties grouped (``count_table``: thresholds, cumulative weighted tp/fp, merge, the cache of
derived quantities), the declaration of a derived quantity (``quantity``: its cache key), the
confusion counts of hard predictions (``confusion``), the comparison of user-given bounds
with one stated tolerance (``bounds``) and small shared helpers (docstring templates, HTML
tables). May import only ``isometrics.exceptions`` and ``isometrics._typing``.
A new way to check an input, or to build or merge counts, goes here; anything that derives a
curve, an area or a metric from the counts does not.
"""
