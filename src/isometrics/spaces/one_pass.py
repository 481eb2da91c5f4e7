"""One pass for all quantities: every curve, area and best threshold a caller asks for, in one sweep.

Asked one at a time, each quantity of a count table walks the whole table: the ROC curve reads
``tp`` and ``fp`` to write its rates, the PR curve reads them again for its precision, the PRG
curve reads the precision back for its gains, each area reads the table (and the curves) once
more, and so does each best-threshold search. At 10^7 points every such pass moves hundreds of
megabytes between memory and the processor. :func:`compute_together` takes the quantities
the caller names (the declared :class:`~isometrics._core.quantity.Quantity` objects of the
curves and areas, and the metrics whose best threshold is wanted) and walks the table once, in
runs of :data:`~._terms.CHUNK` points: each run's counts are read once, its rates, precision and
gains are written straight into the curves' arrays (when a curve was asked for) or into scratch
buffers reused run after run (when only an area needs them), and the area terms and the metric
values of the threshold search are computed from them while the run is in the cache.

Every value is the same double as the quantity computed alone (``op.get(AUROC)``,
``op.best_threshold("f1")``): the same element-wise operations, the same aligned block sums
(:class:`~isometrics._core.summation.BlockSum`, runs aligned to its blocks), the same candidate
search (:class:`~._terms._Candidates`, the same runs). The results are cached on the table under
their declarations, as :meth:`~isometrics._core.count_table.CountTable.get` caches them (best
thresholds under ``("best", spec)``), so a later ``op.roc_curve()`` costs nothing.

The pass runs when the table needs no rescaling (the class totals within ``2**±64``: every
unweighted table, most weighted ones) and both classes are present; otherwise each quantity is
computed on its own (their views of the counts differ), which gives the same values and raises
the same errors.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .._core.count_table import CountTable, Quantity
from .._core.summation import BlockSum
from .._typing import FloatArray
from ..metrics.gain import gain_transform
from ..metrics.registry import Metric
from ._terms import (
    _TINY,
    CHUNK,
    _Candidates,
    ap_terms,
    area_from_sum,
    auprg_terms,
    auroc_terms,
    interpolated_pr_terms,
    metric_values,
)
from .areas import AUPRG, AUROC, AVERAGE_PRECISION
from .curves import PR, PRECISION, PRG, ROC, TPR, PrecisionRecallCurve, PrgCurve, RocCurve
from .interpolation import AUC_PR_INTERPOLATED
from .thresholds import BestThreshold, _best_from_candidates, _best_threshold, best_key

__all__ = ["FUSED", "compute_together"]

#: The quantities the one pass computes (any other is computed on its own, after it).
FUSED: tuple[Quantity, ...] = (TPR, PRECISION, ROC, PR, PRG, AUROC, AVERAGE_PRECISION, AUPRG, AUC_PR_INTERPOLATED)

#: Each area of the pass: its name in the terms' table (:data:`._terms.AREAS`).
_AREAS = {
    AUROC: "auroc",
    AVERAGE_PRECISION: "average_precision",
    AUPRG: "auprg",
    AUC_PR_INTERPOLATED: "auc_pr_interpolated",
}


def compute_together(
    op: CountTable, quantities: Iterable[Quantity], metrics: Sequence[Metric] = ()
) -> tuple[list[Any], list[BestThreshold]]:
    """The values of ``quantities`` and the best threshold of each of ``metrics``, in one sweep where possible.

    Parameters
    ----------
    op : CountTable
        The count table (an :class:`~isometrics.OperatingPoints`).
    quantities : iterable of Quantity
        The declared quantities wanted, in the order their values are returned. Those of
        :data:`FUSED` not yet cached share one sweep; the others are read with ``op.get``.
    metrics : sequence of Metric
        Parsed metrics whose best threshold is wanted (found in the same sweep).

    Returns
    -------
    values : list
        ``op.get(q)`` for each quantity, in order.
    bests : list of BestThreshold
        The best threshold of each metric, in order.

    Raises
    ------
    IsometricsError
        What the quantities raise when computed alone (one class, a prevalence beyond float64's
        reach for the gains, a metric undefined at every threshold).
    """
    quantities = list(quantities)
    fused = [q for q in dict.fromkeys(quantities) if q in _FUSED_SET and op.peek(q) is None]
    searched = [m for m in dict.fromkeys(metrics) if op.peek(best_key(m)) is None]
    if (fused or searched) and _plain(op, fused):
        _sweep(op, fused, searched)
    return [op.get(q) for q in quantities], [_best(op, m) for m in metrics]


_FUSED_SET = frozenset(FUSED)


def _best(op: CountTable, metric: Metric) -> BestThreshold:
    """The best threshold of ``metric``, cached by the sweep or found on its own (the method's path)."""
    cached: BestThreshold | None = op.peek(best_key(metric))
    if cached is not None:
        return cached
    return _best_threshold(op, metric, "best_threshold")


def _plain(op: CountTable, fused: list[Quantity]) -> bool:
    """Whether one sweep of ``op``'s own counts gives every value: both classes, no rescaled view, and
    (for the gains) a prevalence whose gain transform and recall-gain crossing are defined."""
    P, N = op.n_positives, op.n_negatives
    if not (P > 0 and N > 0) or op.normalised is not op or op.rates is not op:
        return False
    if PRG in fused or AUPRG in fused:
        pi = op.prevalence
        if not (1.0 - pi > 0.0 and P * P / (P + N) >= _TINY):
            return False
    return True


def _sweep(op: CountTable, fused: list[Quantity], metrics: list[Metric]) -> None:
    """Compute ``fused`` and the best thresholds of ``metrics`` in one walk over ``op``, caching each."""
    tp, fp, thresholds = op.tp, op.fp, op.thresholds
    n = op.n_points
    P, N = op.n_positives, op.n_negatives
    want = set(fused)
    prg = PRG in want
    # The per-point arrays: a curve's (kept) or a scratch run (reused), read from the cache when there.
    tpr_kept = op.peek(TPR)
    precision_kept = op.peek(PRECISION)
    need_tpr = bool(want & {TPR, ROC, PR, PRG}) and tpr_kept is None
    need_precision = bool(want & {PRECISION, PR, PRG}) and precision_kept is None
    tpr = tpr_kept if tpr_kept is not None else np.empty(n) if need_tpr else None
    precision = precision_kept if precision_kept is not None else np.empty(n) if need_precision else None
    fpr = np.empty(n) if ROC in want else None
    gains = (np.empty(n), np.empty(n)) if prg else None
    pi = op.prevalence if (prg or AUPRG in want) else 0.0
    sums = {q: BlockSum(0) for q in _AREAS if q in want}
    candidates = [_Candidates(m) for m in metrics]
    cached_values = [op.peek(("metric", m.spec)) for m in metrics]
    size = min(n, CHUNK + 1)
    predicted = np.empty(size) if need_precision else None
    terms, steps = np.empty(size), np.empty(size)  # every area's terms in turn, summed before the next
    for a in range(0, n, CHUNK):
        b = min(a + CHUNK, n)
        e = min(b + 1, n)  # the run's points and the first of the next: the steps out of the run's points
        tp_r, fp_r = tp[a:e], fp[a:e]
        if need_tpr:
            np.divide(tp_r, P, out=tpr[a:e])
        if fpr is not None:
            np.divide(fp_r, N, out=fpr[a:e])
        if need_precision:
            run = predicted[: e - a]
            np.add(tp_r, fp_r, out=run)  # > 0 after point 0 (zero-weight samples are gone)
            if a == 0:
                run[0] = 1.0  # avoid 0/0 at point 0 ...
            np.divide(tp_r, run, out=precision[a:e])
            if a == 0:
                precision[0] = 1.0  # ... where nothing is predicted positive: precision 1 by convention
        if gains is not None:
            gain_transform(precision[a:e], pi, out=gains[0][a:e])
            gain_transform(tpr[a:e], pi, out=gains[1][a:e])
        if e - a > 1:
            out, scratch = terms[: e - a - 1], steps[: e - a - 1]
            for q, acc in sums.items():
                if q is AUROC:
                    acc.add(auroc_terms(tp_r, fp_r, P, N, out=out, scratch=scratch))
                elif q is AVERAGE_PRECISION:
                    if precision is None:
                        acc.add(ap_terms(tp_r, fp_r, P, N))
                    else:
                        acc.add(ap_terms(tp_r, fp_r, P, N, precision[a:e], out=out))
                elif q is AUPRG:
                    aligned = () if gains is None else (gains[1][a:e], gains[0][a:e])
                    acc.add(auprg_terms(tp_r, fp_r, P, N, *aligned, out=out, scratch=scratch))
                else:
                    acc.add(interpolated_pr_terms(tp_r, fp_r, P, N))
        for c, cached in zip(candidates, cached_values):
            values = cached[a:b] if cached is not None else metric_values(tp[a:b], fp[a:b], P, N, c.metric)
            c.add_values(a, thresholds[a:b], tp[a:b], fp[a:b], values)
    _keep(op, want, tpr if need_tpr else None, precision if need_precision else None, fpr, gains)
    for q, acc in sums.items():
        op.cached(q, lambda q=q, acc=acc: area_from_sum(_AREAS[q], acc.total(), P, N))
    for m, c in zip(metrics, candidates):
        op.cached(best_key(m), lambda c=c: _best_from_candidates(c, P, N))


def _keep(
    op: CountTable,
    want: set[Quantity],
    tpr: FloatArray | None,
    precision: FloatArray | None,
    fpr: FloatArray | None,
    gains: tuple[FloatArray, FloatArray] | None,
) -> None:
    """Cache the curves and their shared parts as ``op.get`` would have (the PRG curve reads the PR curve,
    which it caches; the ROC and PR curves share the recall), every array read-only."""
    for values in (tpr, precision, fpr, *(gains or ())):
        if values is not None:
            values.flags.writeable = False
    if tpr is not None:
        op.cached(TPR, lambda: tpr)
    if precision is not None:
        op.cached(PRECISION, lambda: precision)
    if fpr is not None:
        op.cached(ROC, lambda: RocCurve(fpr, op.get(TPR), op.thresholds))
    if want & {PR, PRG}:
        op.cached(PR, lambda: PrecisionRecallCurve(op.get(PRECISION), op.get(TPR), op.thresholds))
    if gains is not None:
        op.cached(PRG, lambda: PrgCurve(gains[0], gains[1], op.thresholds))
