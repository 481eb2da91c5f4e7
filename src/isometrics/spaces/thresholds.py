"""Choosing operating points: the best threshold for a metric and metric-versus-threshold
curves (constrained operating points are in :mod:`.constraints`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .._core.constraints import ARRAY, POS_LABEL, InBody, validate_params
from .._core.count_table import CountTable, table_from_scores
from .._core.docstrings import fill_doc
from .._core.html import html_table, summarised
from .._typing import ArrayLike, FloatArray
from ..metrics._arguments import parse_metric_argument
from ..metrics.registry import Metric
from ._terms import CHUNK, _Candidates, best_positions, metric_values, scores_of
from .curves import _reduce_keeping_read_only

__all__ = [
    "BestThreshold",
    "best_threshold",
    "MetricCurve",
    "metric_curve",
    "OperatingPoint",
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
        rows = [
            ("threshold", self.threshold),
            (self.metric.label, self.value),
            ("precision", self.precision),
            ("recall", self.recall),
            ("TP", self.tp),
            ("FP", self.fp),
            ("FN", self.fn),
            ("TN", self.tn),
            ("tied thresholds", self.n_ties),
        ]
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
    """The metric at every operating point, vectorised; NaN where undefined (see :func:`._terms.metric_values`)."""
    view = op.normalised  # powers and products of counts: in units that cannot overflow
    return metric_values(view.tp, view.fp, view.n_positives, view.n_negatives, metric)


def _tied_best(op: CountTable, metric: Metric, values: FloatArray, allowed: np.ndarray | None = None) -> np.ndarray:
    """Indices of the operating points where ``metric`` is best, increasing (thresholds decreasing).

    Only points where ``allowed`` (boolean mask) is true compete, when given; at least one must.
    Ties are resolved by :func:`._terms.best_positions` (exactly with integer counts).
    """
    score = scores_of(metric, values)
    if allowed is not None:
        score[~allowed] = -np.inf
    return best_positions(score, op.tp, op.fp, op.n_positives, op.n_negatives, metric)


#: Tables up to this many points keep the metric's values in their cache after a best-threshold
#: search, as a metric curve does; larger ones are searched run by run only (each run's values
#: computed while its counts are in the cache), which is faster than one pass over the table.
_CACHED_POINTS = 1 << 16


def _best_candidates(op: CountTable, metric: Metric) -> _Candidates:
    """The points that may be best, found run by run (no array as long as the table but the table's;
    the metric's values are read from the cache when a metric curve left them there)."""
    view = op.normalised
    candidates = _Candidates(metric)
    cached = op.peek(("metric", metric.spec))  # metric values are cached under ("metric", spec)
    if cached is None and op.n_points <= _CACHED_POINTS:  # small enough to keep for a later metric curve
        cached = _cached_metric_values(op, metric)
    for k in range(0, op.n_points, CHUNK):
        values = (
            cached[k : k + CHUNK]
            if cached is not None
            else metric_values(
                view.tp[k : k + CHUNK], view.fp[k : k + CHUNK], view.n_positives, view.n_negatives, metric
            )
        )
        candidates.add(
            np.arange(k, k + len(values)),
            op.thresholds[k : k + CHUNK],
            op.tp[k : k + CHUNK],
            op.fp[k : k + CHUNK],
            scores_of(metric, values),
            values,
        )
    return candidates


def _best_from_candidates(candidates: _Candidates, n_positives: float, n_negatives: float) -> BestThreshold:
    """The best point among the candidates (ties to the highest threshold), counts in the caller's units."""
    c = candidates
    tied = best_positions(c.score, c.tp, c.fp, n_positives, n_negatives, c.metric)
    i = int(tied[0])  # ties go to the highest threshold
    tp, fp = float(c.tp[i]), float(c.fp[i])
    return BestThreshold(
        metric=c.metric,
        threshold=float(c.thresholds[i]),
        value=float(c.value[i]),
        precision=tp / (tp + fp) if tp + fp > 0 else float("nan"),
        recall=tp / n_positives,
        tp=tp,
        fp=fp,
        fn=n_positives - tp,
        tn=n_negatives - fp,
        index=int(c.index[i]),
        n_ties=len(tied),
        tied_thresholds=tuple(float(t) for t in c.thresholds[tied]),
    )


def best_key(metric: Metric) -> tuple[str, str]:
    """The cache key of ``metric``'s best threshold on a count table (:func:`._best_threshold`, the one pass)."""
    return ("best", metric.spec)


def _best_threshold(op: CountTable, metric: str | Metric) -> BestThreshold:
    metric = parse_metric_argument(metric)
    op.require_both_classes("best_threshold")
    return op.cached(
        best_key(metric), lambda: _best_from_candidates(_best_candidates(op, metric), op.n_positives, op.n_negatives)
    )


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "metric": InBody("a metric name or a Metric", invalid=["no-such-metric"]),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
    }
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
        ``"cost(fp=1, fn=5)"``, ``"mcc"``, ``"kappa"``, ``"net_benefit@0.2"``; see
        :func:`parse_metric`.
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
        (:class:`InvalidParameterError`); if the metric is undefined at every threshold
        (MCC or markedness of scores with one distinct value); and for the bad inputs listed in
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
    ``top_left``, ``cost`` and the whole-matrix metrics (``mcc`` through its square with
    its sign, ``accuracy``, ``balanced_accuracy``, ``kappa``, ``npv``, ``specificity``,
    ``markedness``, ``net_benefit``). Otherwise (weights that are not integers, irrational
    exponents) values within a relative ``1e-12`` of the best are ties (absolute for
    ``youden`` and ``top_left``, whose values are differences of rates).

    Points where the metric is undefined (0/0: precision with nothing predicted
    positive, MCC and markedness with nothing or everything predicted positive, NPV
    with everything) are never best; scikit-learn's ``matthews_corrcoef`` gives 0 there
    (its ``zero_division`` substitute), which this function does not invent.

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
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    return _best_threshold(op, metric)


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

    NaN marks a point where the metric is undefined (0/0): ``values[0]`` (threshold
    ``inf``, nothing predicted positive) for metrics that need precision there and for
    MCC and markedness; ``values[-1]`` (everything predicted positive) for NPV, MCC and
    markedness. Every other value is defined.
    """

    values: FloatArray
    thresholds: FloatArray

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce_keeping_read_only(self)


def _metric_curve(op: CountTable, metric: str | Metric) -> MetricCurve:
    metric = parse_metric_argument(metric)
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

    return op.cached(("metric", metric.spec), compute)


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "metric": InBody("a metric name or a Metric", invalid=["no-such-metric"]),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
    }
)
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
        Any metric of :func:`parse_metric`, e.g. ``"f2"``, ``"g(beta=2, rho=-3)"``,
        ``"mcc"`` or ``"net_benefit@0.2"``.
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    MetricCurve
        ``(values, thresholds)`` in the orientation of the other curves (thresholds
        decreasing, ``inf`` first). NaN only where the metric is 0/0: at the ``inf``
        point for metrics that need precision there, and for MCC and markedness; at
        the last point (everything predicted positive) for NPV, MCC and markedness (the
        ``zero_division=np.nan`` convention).

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
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    return _metric_curve(op, metric)
