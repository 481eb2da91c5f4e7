"""Evaluation beyond memory and beyond one machine (issue 14).

Holds out-of-core evaluation (:mod:`~isometrics.scale.out_of_core`: DuckDB groups and sorts
files larger than memory and the score-ordered count table streams into exact
accumulators; private helpers in ``_sources`` for the files and DuckDB, ``_display`` for
curves thinned to a display resolution). Streaming accumulators and the Dask backend go
here too. May import ``isometrics.evaluation`` and below, never the presentation layers;
duckdb is imported only when a file is evaluated.
"""

from .out_of_core import (
    OutOfCoreEvaluation,
    OutOfCoreResult,
    default_memory_limit,
    evaluate_out_of_core,
    parse_memory,
)

__all__ = ["OutOfCoreEvaluation", "OutOfCoreResult", "default_memory_limit", "evaluate_out_of_core", "parse_memory"]
