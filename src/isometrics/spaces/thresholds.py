"""Choosing operating points: the best threshold for a metric, metric-versus-threshold
curves, constrained operating points, and optima over the ROC convex hull."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .._core.count_table import CountTable
from .._core.docstrings import fill_doc
from .._core.html import html_table, summarised
from .._core.validation import check_real
from .._typing import ArrayLike, FloatArray
from ..exceptions import IsometricsError
from ..metrics.kernels import _fbeta_weights
from ..metrics.registry import Metric, _parse_metric, parse_metric
from .curves import _from_scores, _precision_recall_curve, _reduce_keeping_read_only

__all__ = [
    "BestThreshold",
    "best_threshold",
    "MetricCurve",
    "metric_curve",
    "OperatingPoint",
    "precision_at_recall",
    "recall_at_precision",
    "specificity_at_sensitivity",
]


@summarised()
@dataclass(frozen=True)
class BestThreshold:
    """The operating point at which a metric is best (largest; smallest for a cost).

    Attributes
    ----------
    metric : Metric
        The metric optimised.
    threshold : float
        Predict positive when ``y_score >= threshold``; ``inf`` means predict nothing positive.
    value : float
        The metric's value there (in [0, 1] for the precision-recall family).
    precision, recall : float
        Precision and recall there, in [0, 1]. Precision is NaN only at the
        ``inf`` threshold, where it is undefined (no predicted positive).
    tp, fp, fn, tn : float
        Weighted confusion counts there.
    index : int
        Index of the operating point (into :class:`OperatingPoints` arrays).
    n_ties : int
        Number of operating points reaching the same value (compared exactly where the
        counts allow it; see :func:`best_threshold`); the one with the highest threshold
        is returned.
    tied_thresholds : tuple of float
        The thresholds of all those points, decreasing (ties are reported, not hidden).
    """

    metric: Metric
    threshold: float
    value: float
    precision: float
    recall: float
    tp: float
    fp: float
    fn: float
    tn: float
    index: int
    n_ties: int = 1
    tied_thresholds: tuple[float, ...] = ()

    def _headline(self) -> str:
        return f"{self.metric.label}={self.value:.6g} at threshold {self.threshold:.6g}"

    def _repr_html_(self) -> str:
        rows = [("threshold", self.threshold), (self.metric.label, self.value), ("precision", self.precision),
                ("recall", self.recall), ("TP", self.tp), ("FP", self.fp), ("FN", self.fn), ("TN", self.tn),
                ("tied thresholds", self.n_ties)]
        return html_table(("", "value"), rows, caption=f"best threshold for {self.metric.spec}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (NaN and inf become ``None`` and the string ``"inf"``)."""
        def clean(v: float) -> Any:
            if np.isnan(v):
                return None
            return "inf" if np.isinf(v) else float(v)

        return {
            "metric": self.metric.spec,
            "label": self.metric.label,
            "threshold": clean(self.threshold),
            "value": clean(self.value),
            "precision": clean(self.precision),
            "recall": clean(self.recall),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "n_ties": self.n_ties,
            "tied_thresholds": [clean(t) for t in self.tied_thresholds],
        }


def _metric_at_points(op: CountTable, metric: Metric) -> np.ndarray:
    """The metric at every operating point, vectorised; NaN where undefined.

    Uses ``tp + fn = P`` (constant along a curve) to save passes: F-beta is
    ``TP / (w (TP + FP) + (1 - w) P)`` with ``w = 1 / (1 + beta**2)``; other metrics
    reuse the cached PR curve.
    """
    op = op._normalised  # powers and products of counts: in units that cannot overflow
    if metric._counts is not None:
        return metric.from_counts(op.tp, op.fp, op.fn, op.tn)
    P = op.n_positives
    if metric._count_beta is not None and metric._count_beta > 0:
        w_pred, w_true = _fbeta_weights(metric._count_beta)
        values = np.add(op.tp, op.fp)
        values *= w_pred
        values += w_true * P
        with np.errstate(divide="ignore", invalid="ignore"):  # 0/0 where beta**2 P underflows
            np.divide(op.tp, values, out=values)
        values[: int(np.searchsorted(op.tp, 0.0, side="right"))] = 0.0  # no true positive: F-beta is 0
        return values
    precision, recall, _ = op._derived("pr", _precision_recall_curve)
    direct = _power_mean_direct(op, metric, precision, recall)
    values = metric.from_precision_recall(precision, recall) if direct is None else direct
    if metric.needs_precision:
        values = np.array(values, dtype=np.float64, copy=True)
        values[0] = np.nan  # no predicted positive: precision is undefined there
    return values


def _power_mean_direct(op: CountTable, metric: Metric, precision: FloatArray,
                       recall: FloatArray) -> FloatArray | None:
    """W(gamma, phi) over a curve by plain arithmetic when phi is a small integer.

    ``((gamma P**phi + R**phi) / (1 + gamma)) ** (1/phi)`` with powers by repeated
    multiplication has no cancellation (every term is positive) and is accurate to a few
    ulps, but may overflow or underflow; it is used only when every positive precision and
    recall is at least ``min TP / (P + N)`` (known from the counts in O(1)) and that bound
    keeps every term within 1e-290..1e290. Otherwise ``None``: the caller takes the
    logarithmic kernel of :mod:`isometrics.means`.
    """
    if metric._gamma_phi is None:
        return None
    gamma, phi = metric._gamma_phi
    k = abs(phi)
    if phi == 0 or k > 8 or k != int(k) or not 1e-100 <= gamma <= 1e100:
        return None
    first = int(np.searchsorted(op.tp, 0.0, side="right"))
    lower = op.tp[min(first, op.n_points - 1)] / (op.n_positives + op.n_negatives)
    if not lower ** k > 1e-180:
        return None
    # With S = TP + FP: P**phi = (S/TP)**k and R**phi = (N_pos/TP)**k for phi = -k, so
    # W = TP ((1 + gamma) / (gamma S**k + N_pos**k))**(1/k); for phi = k > 0,
    # W = TP ((gamma S**-k + N_pos**-k) / (1 + gamma))**(1/k). One array, in place.
    k = int(k)
    n_pos = op.n_positives
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        w = np.add(op.tp, op.fp)
        _power_inplace(w, k)
        if phi < 0:
            w *= gamma
            w += n_pos**k
            np.divide(1.0 + gamma, w, out=w)
        else:
            np.divide(gamma / (1.0 + gamma), w, out=w)
            w += n_pos ** (-k) / (1.0 + gamma)
        if k == 2:
            np.sqrt(w, out=w)
        elif k != 1:
            np.power(w, 1.0 / k, out=w)
        w *= op.tp
    return w


def _power_inplace(x: FloatArray, k: int) -> None:
    """x **= k for a small positive integer k, by squaring (exact up to rounding)."""
    if k == 1:
        return
    if k & (k - 1) == 0:  # 2, 4, 8: square in place
        while k > 1:
            np.multiply(x, x, out=x)
            k >>= 1
        return
    base = x.copy()
    x[...] = 1.0
    while k:
        if k & 1:
            x *= base
        k >>= 1
        if k:
            base *= base


#: Relative tolerance within which two metric values are ties when they cannot be compared
#: exactly (counts that are not integers, or a metric with no rational form); absolute for
#: Youden's J and top_left, whose values are differences of rates.
TIE_RTOL = 1e-12
#: Relative width of the window of float values searched for the exact optimum: far wider
#: than the evaluation error of any metric (a few ulps, 2e-13 for extreme exponents).
_EXACT_WINDOW = 1e-10
#: Integers below this are exact in float64.
_EXACT_COUNTS = 2.0**53


def _integer_counts(op: CountTable, idx: np.ndarray) -> bool:
    """Whether the counts at ``idx`` and the class totals are exact integers (below 2**53)."""
    P, N = op.n_positives, op.n_negatives
    if not (P + N < _EXACT_COUNTS and float(P).is_integer() and float(N).is_integer()):
        return False
    tp, fp = op.tp[idx], op.fp[idx]
    return bool(np.all(tp == np.floor(tp)) and np.all(fp == np.floor(fp)))


def _tied_best(op: CountTable, metric: Metric, values: FloatArray,
               allowed: np.ndarray | None = None) -> np.ndarray:
    """Indices of the operating points where ``metric`` is best, increasing (thresholds decreasing).

    Only points where ``allowed`` (boolean mask) is true compete, when given; at least one must.

    With integer counts and a metric with an exact rational form, the points whose float
    value is near the best are compared exactly, by cross-multiplying the integer
    numerators and denominators of the metric's key (Python integers, no rounding): ties
    are exact ties. Otherwise values within :data:`TIE_RTOL` of the best are ties.
    """
    score = np.array(values if metric.greater_is_better else -values, dtype=np.float64)
    score[np.isnan(score)] = -np.inf  # undefined points (no predicted positive) are never best
    if allowed is not None:
        score[~allowed] = -np.inf
    top = float(score.max())
    if top == -np.inf:  # pragma: no cover - every metric is defined at the last point
        raise IsometricsError(f"best_threshold: {metric.spec} is undefined at every threshold.")
    scale = max(abs(top), metric._abs_scale)
    if metric._exact is not None:
        candidates = np.flatnonzero(score >= top - _EXACT_WINDOW * scale)
        if _integer_counts(op, candidates):
            tp = op.tp[candidates].astype(np.int64).astype(object)
            fp = op.fp[candidates].astype(np.int64).astype(object)
            num, den = metric._exact(tp, fp, int(op.n_positives), int(op.n_negatives))
            num, den = np.broadcast_arrays(np.asarray(num, dtype=object), np.asarray(den, dtype=object))
            defined = den != 0
            best = int(np.argmax(score[candidates]))  # start from the float optimum
            while True:
                order = num * den[best] - num[best] * den  # sign of key - best key (denominators > 0)
                order[~defined] = -1
                better = np.flatnonzero(order > 0)
                if len(better) == 0:
                    return candidates[order == 0]
                best = int(better[np.argmax(score[candidates[better]])])
    return np.flatnonzero(score >= top - TIE_RTOL * scale)


def _best_threshold(op: CountTable, metric: str | Metric, caller: str) -> BestThreshold:
    metric = _parse_metric(metric, caller=caller)
    op.require_both_classes("best_threshold")
    values = _cached_metric_values(op, metric)
    tied = _tied_best(op, metric, values)
    i = int(tied[0])  # ties go to the highest threshold
    point = _point(op, i)
    return BestThreshold(
        metric=metric,
        threshold=point.threshold,
        value=float(values[i]),
        precision=point.precision,
        recall=point.recall,
        tp=point.tp,
        fp=point.fp,
        fn=point.fn,
        tn=point.tn,
        index=i,
        n_ties=len(tied),
        tied_thresholds=tuple(float(t) for t in op.thresholds[tied]),
    )


@fill_doc
def best_threshold(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    metric: str | Metric,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> BestThreshold:
    r"""The threshold that maximises a metric over all operating points.

    Evaluates the metric on the confusion counts of every distinct threshold at once
    (linear in the number of operating points after the one sort) and returns the
    best: the largest value, or the smallest for a cost. Points where the metric is
    undefined (precision-dependent metrics with no predicted positive) are skipped.

    Parameters
    ----------
    %(binary_data)s
    metric : str or Metric
        What to optimise, e.g. ``"f1"``, ``"f0.5"``, ``"g(beta=2, rho=-3)"``, ``"youden"``,
        ``"cost(fp=1, fn=5)"``; see :func:`parse_metric`.
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    BestThreshold
        Threshold (predict positive iff ``y_score >= threshold``), the metric's value,
        precision, recall and counts there. Ties go to the highest threshold;
        ``n_ties`` and ``tied_thresholds`` report all of them.

    Raises
    ------
    ValueError
        If ``y_true`` has one class; if ``metric`` cannot be parsed
        (:class:`InvalidParameterError`); and for the bad inputs listed in
        :meth:`OperatingPoints.from_scores`.

    See Also
    --------
    parse_metric, OperatingPoints.best_threshold

    Notes
    -----
    F-beta is evaluated in its count form
    :math:`(1+\beta^2)TP / ((1+\beta^2)TP + \beta^2 FN + FP)`, defined (as 0) where
    precision is not.

    Ties are decided exactly, not by the rounding of the computed values. With integer
    counts (no weights, or integer weights, totals below :math:`2^{53}`) the points near
    the best are compared in exact integer arithmetic for every metric with a rational
    form: F-beta, precision, recall, min, max, power means with an integer exponent up
    to 64 in absolute value (G(beta, rho) with an integer rho), geometric means with
    ``gamma = a/b``, ``a, b <= 64``, ``youden`` (through :math:`TP \cdot N - FP \cdot P`),
    ``top_left`` and ``cost``. Otherwise (weights that are not integers, irrational
    exponents) values within a relative ``1e-12`` of the best are ties (absolute for
    ``youden`` and ``top_left``, whose values are differences of rates).

    References
    ----------
    .. [1] Z. C. Lipton, C. Elkan and B. Naryanaswamy, "Optimal Thresholding of
       Classifiers to Maximize F1 Measure", ECML PKDD 2014.

    Examples
    --------
    >>> from isometrics import best_threshold
    >>> best = best_threshold([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], metric="f1")
    >>> best.threshold, round(best.value, 4), best.precision, best.recall
    (0.35, 0.8, 0.6666666666666666, 1.0)
    """
    op = _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                      caller="best_threshold", table=CountTable)
    return _best_threshold(op, metric, "best_threshold")


@summarised()
@dataclass(frozen=True)
class OperatingPoint:
    """One observed operating point: a threshold and its rates and counts.

    Attributes
    ----------
    threshold : float
        Predict positive when ``y_score >= threshold`` (``inf``: nothing positive).
    precision : float
        In [0, 1]; NaN only at the ``inf`` threshold (no predicted positive).
    recall, fpr, specificity : float
        True positive rate, false positive rate and ``1 - fpr``, in [0, 1].
    tp, fp, fn, tn : float
        Weighted confusion counts.
    index : int
        Index of the point among the operating points.
    """

    threshold: float
    precision: float
    recall: float
    fpr: float
    specificity: float
    tp: float
    fp: float
    fn: float
    tn: float
    index: int


def _point(op: CountTable, i: int) -> OperatingPoint:
    tp, fp = float(op.tp[i]), float(op.fp[i])
    P, N = op.n_positives, op.n_negatives
    return OperatingPoint(
        threshold=float(op.thresholds[i]),
        precision=tp / (tp + fp) if tp + fp > 0 else float("nan"),
        recall=tp / P,
        fpr=fp / N,
        specificity=1.0 - fp / N,
        tp=tp,
        fp=fp,
        fn=P - tp,
        tn=N - fp,
        index=i,
    )


@summarised()
class MetricCurve(NamedTuple):
    """A metric at every operating point: ``(values, thresholds)``, shape (n_points,), thresholds decreasing.

    ``values[0]`` (threshold ``inf``, nothing predicted positive) is NaN for metrics
    that need precision there; every other value is defined.
    """

    values: FloatArray
    thresholds: FloatArray

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce_keeping_read_only(self)


def _metric_curve(op: CountTable, metric: str | Metric, caller: str) -> MetricCurve:
    metric = _parse_metric(metric, caller=caller)
    op.require_both_classes("metric_curve")
    return MetricCurve(_cached_metric_values(op, metric), op.thresholds)


def _cached_metric_values(op: CountTable, metric: Metric) -> FloatArray:
    """The metric at every point, computed once per metric and kept read-only."""
    def compute() -> FloatArray:
        values = np.asarray(_metric_at_points(op, metric), dtype=np.float64)
        if not values.flags.owndata:
            values = values.copy()
        values.flags.writeable = False
        return values

    return op._cached(("metric", metric.spec), compute)


@fill_doc
def metric_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    metric: str | Metric,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> MetricCurve:
    """A metric versus the threshold, at every operating point at once (vectorised).

    Parameters
    ----------
    %(binary_data)s
    metric : str or Metric
        Any metric of :func:`parse_metric`, e.g. ``"f2"`` or ``"g(beta=2, rho=-3)"``.
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    MetricCurve
        ``(values, thresholds)`` in the orientation of the other curves (thresholds
        decreasing, ``inf`` first). NaN only at the ``inf`` point, for metrics that need
        precision there.

    Raises
    ------
    ValueError
        If ``y_true`` has one class or ``metric`` cannot be parsed, and for the bad
        inputs listed in :meth:`OperatingPoints.from_scores`.

    See Also
    --------
    best_threshold

    Examples
    --------
    >>> from isometrics import metric_curve
    >>> metric_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], metric="f1").values.round(4)
    array([0.    , 0.6667, 0.5   , 0.8   , 0.6667])
    """
    op = _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, caller="metric_curve", table=CountTable)
    return _metric_curve(op, metric, "metric_curve")


def _fraction(value: Any, name: str, caller: str) -> float:
    return check_real(value, name, caller=caller, low=0.0, high=1.0)


_PRECISION = parse_metric("precision")


def _precision_at_recall(op: CountTable, min_recall: float, caller: str) -> OperatingPoint:
    k = _fraction(min_recall, "min_recall", caller)
    op.require_both_classes(caller)
    allowed = op.tp >= k * op.n_positives  # recall >= k, exact at k = 0 and k = 1
    allowed[0] = False  # the inf point predicts nothing: it has no precision
    tied = _tied_best(op, _PRECISION, op._derived("pr", _precision_recall_curve).precision, allowed)
    return _point(op, int(tied[-1]))  # ties: the largest recall


def _recall_at_precision(op: CountTable, min_precision: float, caller: str) -> OperatingPoint:
    k = _fraction(min_precision, "min_precision", caller)
    op.require_both_classes(caller)
    allowed = op.tp * (1.0 - k) >= k * op.fp  # precision >= k, exact at k = 0 and k = 1
    allowed[0] = False
    candidates = np.flatnonzero(allowed)
    if len(candidates) == 0:
        precision = op._derived("pr", _precision_recall_curve).precision
        raise IsometricsError(
            f"{caller}: no threshold reaches precision >= {k:g} (the highest is "
            f"{precision[1:].max():.6g}); lower min_precision."
        )
    top_tp = op.tp[candidates].max()
    i = int(candidates[op.tp[candidates] == top_tp][0])  # ties: fewest false positives
    return _point(op, i)


def _specificity_at_sensitivity(op: CountTable, min_sensitivity: float, caller: str) -> OperatingPoint:
    k = _fraction(min_sensitivity, "min_sensitivity", caller)
    op.require_both_classes(caller)
    first = int(np.searchsorted(op.tp, k * op.n_positives, side="left"))  # TPR >= k from here on: fewest FP
    i = int(np.searchsorted(op.fp, op.fp[first], side="right")) - 1  # ties: the largest sensitivity
    return _point(op, i)


@fill_doc
def precision_at_recall(
    y_true: ArrayLike, y_score: ArrayLike, *, min_recall: float, sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> OperatingPoint:
    """The observed threshold with the best precision among those with recall >= ``min_recall``.

    Ties in precision go to the larger recall (compared exactly for integer counts, as
    in :func:`best_threshold`). The ``inf`` threshold, which predicts nothing and has
    no precision, never competes: ``min_recall=0`` gives the best precision of any
    threshold.
    %(constrained)s
    Examples
    --------
    >>> from isometrics import precision_at_recall
    >>> p = precision_at_recall([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_recall=0.9)
    >>> p.threshold, round(p.precision, 4), p.recall
    (0.35, 0.6667, 1.0)
    """
    op = _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                      caller="precision_at_recall", table=CountTable)
    return _precision_at_recall(op, min_recall, "precision_at_recall")


@fill_doc
def recall_at_precision(
    y_true: ArrayLike, y_score: ArrayLike, *, min_precision: float, sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> OperatingPoint:
    """The observed threshold with the best recall among those with precision >= ``min_precision``.

    Ties in recall go to the fewer false positives. The constraint is tested on the
    counts, ``TP (1 - k) >= k FP``, exactly at ``k = 0`` (every threshold but ``inf``)
    and ``k = 1`` (no false positive).
    %(constrained_rp)s
    Examples
    --------
    >>> from isometrics import recall_at_precision
    >>> p = recall_at_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_precision=0.6)
    >>> p.threshold, p.recall
    (0.35, 1.0)
    """
    op = _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                      caller="recall_at_precision", table=CountTable)
    return _recall_at_precision(op, min_precision, "recall_at_precision")


@fill_doc
def specificity_at_sensitivity(
    y_true: ArrayLike, y_score: ArrayLike, *, min_sensitivity: float, sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> OperatingPoint:
    """The observed threshold with the best specificity among those with sensitivity >= ``min_sensitivity``.

    Sensitivity is recall (TPR); specificity is ``1 - FPR``. Ties in specificity go
    to the larger sensitivity; ``min_sensitivity=0`` admits the ``inf`` threshold
    (nothing predicted positive, specificity 1).
    %(constrained_ss)s
    Examples
    --------
    >>> from isometrics import specificity_at_sensitivity
    >>> p = specificity_at_sensitivity([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_sensitivity=0.5)
    >>> p.threshold, p.specificity
    (0.8, 1.0)
    """
    op = _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                      caller="specificity_at_sensitivity", table=CountTable)
    return _specificity_at_sensitivity(op, min_sensitivity, "specificity_at_sensitivity")
