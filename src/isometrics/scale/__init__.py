"""Evaluation beyond memory and beyond one machine (issue 14).

Holds the streaming accumulator (``streaming``: :class:`BinnedCountTable`, counts in score
bins with guaranteed intervals for AUROC, AP and AUPRG; its counts in ``_binning``, its bounds
in ``_bounds``); out-of-core evaluation and the Dask backend will join it, each building count
tables and merging them with the core's exact merge. May import ``isometrics.evaluation`` and
below, never the presentation layers. A new way of evaluating at scale gets its own module
here and its public names re-exported below.
"""

from .streaming import AreaBounds, BinnedCountTable, BinnedEvaluation

__all__ = ["AreaBounds", "BinnedCountTable", "BinnedEvaluation"]
