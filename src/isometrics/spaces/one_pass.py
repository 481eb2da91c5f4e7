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

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from .._core.count_table import UNIT_STEPS, CountTable, Quantity
from .._core.summation import BlockSum
from .._typing import FloatArray
from ..metrics.gain import gain_transform
from ..metrics.kernels import fbeta_denominator_terms, fbeta_from_predicted
from ..metrics.registry import Metric
from ._terms import (
    _TINY,
    CHUNK,
    EXACT_WINDOW,
    _Candidates,
    _window,
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
    return _best_threshold(op, metric)


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


class _PerPoint:
    """One value per operating point: a curve's array (``whole``, kept) or a buffer of one run, reused
    run after run (an area needs it, no curve keeps it); ``fill``: computed here (not read from the cache)."""

    __slots__ = ("values", "whole", "fill")

    def __init__(self, values: FloatArray, whole: bool, fill: bool = True) -> None:
        self.values, self.whole, self.fill = values, whole, fill

    def run(self, a: int, e: int) -> FloatArray:
        return self.values[a:e] if self.whole else self.values[: e - a]


def _per_point(op: CountTable, part: Quantity | None, kept: bool, needed: bool, size: int) -> _PerPoint | None:
    """The array of ``part`` (cached, or new and kept when a curve is wanted), a run buffer, or ``None``."""
    cached = None if part is None else op.peek(part)
    if cached is not None:
        return _PerPoint(cached, True, fill=False)
    if kept:
        return _PerPoint(np.empty(op.n_points), True)
    return _PerPoint(np.empty(size), False) if needed else None


def _sweep(op: CountTable, fused: list[Quantity], metrics: list[Metric]) -> None:
    """Compute ``fused`` and the best thresholds of ``metrics`` in one walk over ``op``, caching each."""
    tp, fp, thresholds = op.tp, op.fp, op.thresholds
    n = op.n_points
    P, N = op.n_positives, op.n_negatives
    want = set(fused)
    size = min(n, CHUNK + 1)
    # Recall and precision: a curve's arrays when a curve is wanted, else run buffers when an area
    # reads them (AP the precision, AUPRG the gains of both); the gains likewise.
    gains_kept, gains_needed = PRG in want, AUPRG in want
    prg = op.peek(PRG)  # a PRG curve asked before: AUPRG reads its gains (the same doubles)
    if prg is not None:
        gains_needed = False
    tpr = _per_point(op, TPR, bool(want & {TPR, ROC, PR, PRG}), gains_needed, size)
    precision = _per_point(
        op, PRECISION, bool(want & {PRECISION, PR, PRG}), gains_needed or AVERAGE_PRECISION in want, size
    )
    fpr = _per_point(op, None, ROC in want, False, size)
    gains = [_per_point(op, None, gains_kept, gains_needed, size) for _ in range(2)]  # precision, recall
    if prg is not None and AUPRG in want:
        gains = [_PerPoint(prg.precision_gain, True, fill=False), _PerPoint(prg.recall_gain, True, fill=False)]
    pi = op.prevalence if gains_kept or gains_needed else 0.0
    sums = {q: BlockSum(0) for q in _AREAS if q in want}
    candidates = [_Candidates(m) for m in metrics]
    cached_values = [op.peek(("metric", m.spec)) for m in metrics]
    fbeta = [None if v is not None else _fbeta_weights_of(m, P) for m, v in zip(metrics, cached_values)]
    predicted = np.empty(size)
    predicted_ready = False  # whether `predicted` holds the run's TP + FP (the precision computes it)
    terms, steps = np.empty(size), np.empty(size)  # every area's terms in turn, summed before the next
    # AUROC of unit steps (each step one sample of weight 1): its sum is the exact integer 2 (sum of TP before
    # each negative step) = 2 (sum of TP at every point but the last) - P (P - 1), from one reduction per run.
    unit_auroc = AUROC in sums and _unit_steps(op)
    if unit_auroc:
        del sums[AUROC]
    tp_total = 0
    for a in range(0, n, CHUNK):
        b = min(a + CHUNK, n)
        e = min(b + 1, n)  # the run's points and the first of the next: the steps out of the run's points
        tp_r, fp_r = tp[a:e], fp[a:e]
        if tpr is not None and tpr.fill:
            np.divide(tp_r, P, out=tpr.run(a, e))
        if fpr is not None:
            np.divide(fp_r, N, out=fpr.run(a, e))
        predicted_ready = False
        if precision is not None and precision.fill:
            run, out = predicted[: e - a], precision.run(a, e)
            np.add(tp_r, fp_r, out=run)  # > 0 after point 0 (zero-weight samples are gone)
            if a == 0:
                run[0] = 1.0  # avoid 0/0 at point 0 ...
            np.divide(tp_r, run, out=out)
            if a == 0:
                out[0] = 1.0  # ... where nothing is predicted positive: precision 1 by convention
                run[0] = tp_r[0] + fp_r[0]  # TP + FP again, for F-beta below
            predicted_ready = True
        precision_gain, recall_gain = gains
        if precision_gain is not None and recall_gain is not None and precision_gain.fill:
            assert precision is not None and tpr is not None
            gain_transform(precision.run(a, e), pi, out=precision_gain.run(a, e))
            gain_transform(tpr.run(a, e), pi, out=recall_gain.run(a, e))
        if e - a > 1:
            out, scratch = terms[: e - a - 1], steps[: e - a - 1]
            for q, acc in sums.items():
                if q is AUROC:
                    acc.add(auroc_terms(tp_r, fp_r, P, N, out=out, scratch=scratch))
                elif q is AVERAGE_PRECISION:
                    assert precision is not None
                    acc.add(ap_terms(tp_r, fp_r, P, N, precision.run(a, e), out=out))
                elif q is AUPRG:
                    aligned = [g.run(a, e) for g in reversed(gains) if g is not None]  # recall, precision gain
                    acc.add(auprg_terms(tp_r, fp_r, P, N, *aligned, out=out, scratch=scratch))
                else:
                    acc.add(interpolated_pr_terms(tp_r, fp_r, P, N))
        if unit_auroc:
            tp_total += int(np.add.reduce(tp[a:b]))  # an exact integer below 2**53 (_unit_steps)
        for c, cached, weights in zip(candidates, cached_values, fbeta):
            if cached is not None:
                values = cached[a:b]
            elif weights is not None:  # F-beta from the run's TP + FP (fbeta_from_counts' operations)
                if _fbeta_below_window(c, float(tp[b - 1]), float(fp[a]), *weights):
                    continue  # no point of the run can be a candidate: add_values would change nothing
                if not predicted_ready:
                    np.add(tp[a:b], fp[a:b], out=predicted[: b - a])
                    predicted_ready = True
                values = fbeta_from_predicted(tp[a:b], predicted[: b - a], *weights, out=steps[: b - a])
            else:
                values = metric_values(tp[a:b], fp[a:b], P, N, c.metric)
            c.add_values(a, thresholds[a:b], tp[a:b], fp[a:b], values)
    kept = [None if v is None or not (v.whole and v.fill) else v.values for v in (tpr, precision, fpr, *gains)]
    _keep(op, want, *kept)
    for q, acc in sums.items():
        op.cached(q, _given(area_from_sum(_AREAS[q], acc.total(), P, N)))
    if unit_auroc:  # the same exact integer as the aligned sum of auroc_terms: the same double
        op.cached(AUROC, _given(area_from_sum("auroc", float(2 * (tp_total - int(P)) - int(P) * (int(P) - 1)), P, N)))
    for m, c in zip(metrics, candidates):
        op.cached(best_key(m), _given(_best_from_candidates(c, P, N)))


def _unit_steps(op: CountTable) -> bool:
    """Whether every step of ``op`` adds one sample of weight 1 (:data:`~isometrics._core.count_table.UNIT_STEPS`,
    left by the construction) and every partial sum of its AUROC and of its TP is an integer below ``2**53``."""
    if not op.peek(UNIT_STEPS):
        return False
    P, N = op.n_positives, op.n_negatives
    return (op.n_points - 1) * P < _EXACT and 2.0 * P * N < _EXACT


#: Integers below this are exact in float64, and so is every sum of them that stays below it.
_EXACT = 2.0**53


def _fbeta_weights_of(metric: Metric, P: float) -> tuple[float, float] | None:
    """``(w_pred, w_true P)`` of an F-beta metric (``beta > 0``) where its denominator is positive at every
    point (``w_true P > 0``): the sweep computes it from the run's ``TP + FP``; else ``None``."""
    beta = metric._count_beta
    if metric._counts is not None or beta is None or not beta > 0:
        return None
    w_pred, pos = fbeta_denominator_terms(beta, P)
    return (w_pred, pos) if pos > 0 else None


def _fbeta_below_window(c: _Candidates, last_tp: float, first_fp: float, w_pred: float, pos: float) -> bool:
    """Whether every F-beta value of a run lies below the window of ``c``'s running best, from a bound.

    F-beta rises with TP and falls with FP, so no point of a run (TP at most its last point's, FP at
    least its first point's) exceeds ``last_tp / (w_pred (last_tp + first_fp) + w_true P)``; three
    roundings on each side move a value and the bound by less than ``1e-12`` relative. Below the
    window, :meth:`_Candidates.add_values` would keep no point and leave the running best as it is.
    """
    if not (c.metric.greater_is_better and c.top > -np.inf):
        return False
    bound = last_tp / (w_pred * (last_tp + first_fp) + pos)
    return bound * (1.0 + 1e-12) < _window(c.top, c.metric, EXACT_WINDOW)


def _given(value: Any) -> Callable[[], Any]:
    """``value`` as the computation ``CountTable.cached`` stores (it is already computed)."""
    return lambda: value


def _keep(
    op: CountTable,
    want: set[Quantity],
    tpr: FloatArray | None,
    precision: FloatArray | None,
    fpr: FloatArray | None,
    precision_gain: FloatArray | None,
    recall_gain: FloatArray | None,
) -> None:
    """Cache the curves and their shared parts as ``op.get`` would have (the PRG curve reads the PR curve,
    which it caches; the ROC and PR curves share the recall), every array read-only."""
    for values in (tpr, precision, fpr, precision_gain, recall_gain):
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
    if precision_gain is not None and recall_gain is not None:
        op.cached(PRG, lambda: PrgCurve(precision_gain, recall_gain, op.thresholds))
