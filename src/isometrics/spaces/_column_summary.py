"""What the one-call evaluation keeps of one score column's operating points.

:func:`summarise_column` computes the class totals, the three areas and each metric's best point
of an :class:`~isometrics.spaces.operating_points.OperatingPoints` and, for a lean evaluation,
the display subset of its points (every hull vertex, each best point, evenly spaced points),
emptying the cache around each computation so that one derived array is alive at a time. Used by
:func:`isometrics.evaluation.evaluate_scores`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

import numpy as np

from .._core.arrays import whole_total
from ..metrics.registry import Metric
from .areas import AUPRG, AUROC, AVERAGE_PRECISION
from .hull import ROC_HULL
from .operating_points import OperatingPoints
from .thresholds import BestThreshold

__all__ = ["ColumnSummary", "summarise_column"]


class ColumnSummary(NamedTuple):
    """What a result keeps of one column's operating points: totals, areas, best points, the points."""

    n_positives: float
    n_negatives: float
    prevalence: float
    auroc: float
    average_precision: float
    auprg: float
    best: tuple[BestThreshold, ...]
    operating_points: OperatingPoints


def summarise_column(op: OperatingPoints, metrics: list[Metric], lean: bool, weights: Any) -> ColumnSummary:
    """Summarise one score column's operating points as the one-call evaluation keeps them.

    The totals, the three areas and each metric's best point of ``op``, and the operating points
    the result keeps (``lean``: a display subset, with the cache emptied around each computation).

    Parameters
    ----------
    op : OperatingPoints
        The operating points of one score column (built by the caller, inputs already checked).
    metrics : list of Metric
        The parsed metrics whose best thresholds are found, in order.
    lean : bool
        Keep a display subset (every ROC and PRG hull vertex, each best point and up to 10,000
        evenly spaced points) instead of ``op``, emptying its cache around each computation.
    weights : array-like of float or None
        The sample weights the table was built with (``None``: unweighted); the class totals
        are ``int`` when every weight is a whole number, as :func:`whole_total` decides.

    Returns
    -------
    ColumnSummary
        The class totals, prevalence, AUROC, average precision, AUPRG, best thresholds (one per
        metric) and the operating points kept.

    Raises
    ------
    IsometricsError
        Whatever :meth:`OperatingPoints.best_threshold` raises for one of ``metrics``.
    """
    # One pass over the points for the three areas and every best threshold: no curve is kept,
    # only the pass's per-run buffers (lean: the cache emptied before and after).
    ((auroc, ap, auprg, *bests),) = _each(op, lean, partial(op.compute, AUROC, AVERAGE_PRECISION, AUPRG, best=metrics))
    best = tuple(bests)
    return ColumnSummary(
        whole_total(op.n_positives, weights),
        whole_total(op.n_negatives, weights),
        op.prevalence,
        auroc,
        ap,
        auprg,
        best,
        _display_points(op, best) if lean else op,
    )


def _each(op: OperatingPoints, lean: bool, *computations: Callable[[], Any]) -> list[Any]:
    """The computations' values; ``lean``: the cache of ``op`` emptied before and after each, so that
    one derived array (curve, hull, metric) is alive at a time besides the counts."""
    values = []
    for compute in [*computations, lambda: None]:  # the cache is emptied after the last one too
        if lean:
            op.clear_cache()
        values.append(compute())
    return values[:-1]


#: Operating points evenly spaced in threshold order that a display subset keeps (besides hull vertices and bests).
_DISPLAY_POINTS = 10_000


def _display_points(op: OperatingPoints, best: tuple[BestThreshold, ...]) -> OperatingPoints:
    """The operating points a display needs: every ROC and PRG hull vertex, each best point and up to
    _DISPLAY_POINTS evenly spaced ones (the report's thinning rule, before the report thins again)."""
    n = op.n_points
    if n <= _DISPLAY_POINTS:
        return op
    ((roc, prg),) = _each(op, True, partial(_hull_indices, op))
    keep = [np.linspace(0, n - 1, _DISPLAY_POINTS).astype(np.intp), roc, prg, np.array([b.index for b in best])]
    idx = np.unique(np.concatenate([np.asarray(k, dtype=np.intp) for k in keep]))
    return OperatingPoints.from_arrays(op.thresholds[idx], op.tp[idx], op.fp[idx], op.pos_label)


def _hull_indices(op: OperatingPoints) -> tuple[np.ndarray, np.ndarray]:
    """The vertices of the ROC and PRG hulls, the ROC hull found once (the PRG hull is read from it):
    the cache is emptied between the two but for the ROC hull's vertices."""
    roc = op.roc_convex_hull()
    op.clear_cache()
    op.cached(ROC_HULL, lambda: roc)
    return roc.indices, op.prg_convex_hull().indices
