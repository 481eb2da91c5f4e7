"""Choosing the operating point that maximises a metric."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ._docstrings import fill_doc
from ._typing import ArrayLike
from .exceptions import IsometricsError
from .metrics import Metric, parse_metric
from .operating_points import OperatingPoints

__all__ = ["BestThreshold", "best_threshold"]


@dataclass(frozen=True)
class BestThreshold:
    """The operating point at which a metric is largest.

    Attributes
    ----------
    metric : Metric
        The metric maximised.
    threshold : float
        Predict positive when ``y_score >= threshold``; ``inf`` means predict nothing positive.
    value : float
        The metric's value there, in [0, 1].
    precision, recall : float
        Precision and recall there, in [0, 1]. Precision is NaN only at the
        ``inf`` threshold, where it is undefined (no predicted positive).
    tp, fp, fn, tn : float
        Weighted confusion counts there.
    index : int
        Index of the operating point (into :class:`OperatingPoints` arrays).
    n_ties : int
        Number of operating points reaching the same value; the one with the highest
        threshold is returned.
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
        }


def _metric_at_points(op: OperatingPoints, metric: Metric) -> np.ndarray:
    """The metric at every operating point, vectorised; NaN where undefined.

    Uses ``tp + fn = P`` (constant along a curve) to save passes: F-beta is
    ``(1+b^2) TP / (TP + FP + b^2 P)``; other metrics reuse the cached PR curve.
    """
    P = op.n_positives
    if metric._count_beta is not None and not np.isinf(metric._count_beta) and metric._count_beta > 0:
        b2 = metric._count_beta ** 2
        values = np.add(op.tp, op.fp)
        values += b2 * P
        np.divide(op.tp, values, out=values)
        values *= 1.0 + b2
        return values
    precision, recall, _ = op.precision_recall_curve()
    values = metric.from_precision_recall(precision, recall)
    if metric.needs_precision:
        values = np.array(values, dtype=np.float64, copy=True)
        values[0] = np.nan  # no predicted positive: precision is undefined there
    return values


def _best_threshold(op: OperatingPoints, metric: str | Metric) -> BestThreshold:
    metric = parse_metric(metric)
    op.require_both_classes("best_threshold")
    values = _metric_at_points(op, metric)
    i = int(np.argmax(values))
    if np.isnan(values[i]):  # argmax stops at NaN: skip the undefined points
        defined = ~np.isnan(values)
        if not defined.any():  # pragma: no cover - every metric is defined at the last point
            raise IsometricsError(f"best_threshold: {metric.spec} is undefined at every threshold.")
        values = np.where(defined, values, -np.inf)
        i = int(np.argmax(values))
    best = values[i]
    n_ties = int(np.count_nonzero(values == best))
    tp, fp = float(op.tp[i]), float(op.fp[i])
    P, N = op.n_positives, op.n_negatives
    return BestThreshold(
        metric=metric,
        threshold=float(op.thresholds[i]),
        value=float(best),
        precision=tp / (tp + fp) if tp + fp > 0 else float("nan"),
        recall=tp / P,
        tp=tp,
        fp=fp,
        fn=P - tp,
        tn=N - fp,
        index=i,
        n_ties=n_ties,
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
    best. Points where the metric is undefined (precision-dependent metrics with no
    predicted positive) are skipped.

    Parameters
    ----------
    %(binary_data)s
    metric : str or Metric
        What to maximise, e.g. ``"f1"``, ``"f0.5"``, ``"g(beta=2, rho=-3)"``; see
        :func:`parse_metric`.
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    BestThreshold
        Threshold (predict positive iff ``y_score >= threshold``), the metric's value,
        precision, recall and counts there. Ties go to the highest threshold, and
        ``n_ties`` says how many points tie.

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
    op = OperatingPoints.from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    return op.best_threshold(metric)
