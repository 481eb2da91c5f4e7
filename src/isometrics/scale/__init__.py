"""Evaluation beyond memory and beyond one machine (issue 14; empty for now).

Will hold out-of-core evaluation (an embedded engine streaming the score-ordered count
table into exact accumulators), streaming accumulators and the Dask backend; each builds
count tables and merges them with the core's exact merge. May import
``isometrics.evaluation`` and below, never the presentation layers.
"""
