"""Evaluation beyond memory and beyond one machine.

Holds the streaming accumulator (``streaming``: :class:`BinnedCountTable`, counts in score
bins with guaranteed intervals for AUROC, AP and AUPRG; its counts in ``_binning``, its bounds
in ``_bounds``) and out-of-core evaluation (:mod:`~isometrics.scale.out_of_core`: DuckDB
groups and sorts files larger than memory and the score-ordered count table streams into
exact accumulators; private helpers in ``_sources`` for the files and DuckDB, ``_csv`` for CSV files read as the
in-memory reader reads them, ``_display``
for curves thinned to a display resolution), the one source interface of the scale paths (``batches``: columns in
memory, Arrow batches from DuckDB, Dask partitions, and the one check of their rows) and each file format's
particulars (``formats``). May import ``isometrics.evaluation`` and below,
never the presentation layers; duckdb is imported only when a file is evaluated. A new way
of evaluating at scale gets its own module here and its public names re-exported below.
"""

from .out_of_core import (
    OutOfCoreEvaluation,
    OutOfCoreResult,
    default_memory_limit,
    evaluate_out_of_core,
    parse_memory,
)
from .streaming import AreaBounds, BinnedCountTable, BinnedEvaluation

__all__ = [
    "AreaBounds",
    "BinnedCountTable",
    "BinnedEvaluation",
    "OutOfCoreEvaluation",
    "OutOfCoreResult",
    "default_memory_limit",
    "evaluate_out_of_core",
    "parse_memory",
]
