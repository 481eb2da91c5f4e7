"""Multiclass and multilabel evaluation, one class against the rest.

Every class gets its own :class:`~isometrics.OperatingPoints` (the class against all
others); the micro average pools every (sample, class) pair into one binary problem.
Areas are averaged like scikit-learn's (macro: the plain mean over classes; weighted: by
support), and averaged curves are formed as documented on each method.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.bounds import loosest_grid
from .._core.caller import current_caller
from .._core.constraints import ARRAY, in_body, validate_params
from .._core.count_table import table_from_scores
from .._core.html import summarised
from .._core.validation import (
    as_1d,
    as_array,
    as_sample_weight,
    check_consistent_length,
    check_integer,
    check_labels,
    check_option,
    check_sample_weight,
    check_scores,
    frame_columns,
    label_set,
)
from .._typing import ArrayLike, FloatArray
from ..exceptions import IsometricsError
from ..metrics._arguments import parse_metric_argument
from ..metrics.registry import Metric
from .curves import PrecisionRecallCurve, RocCurve, polyline_at
from .operating_points import OperatingPoints
from .thresholds import BestThreshold

__all__ = ["OneVsRest", "one_vs_rest"]

_AVERAGES = ("macro", "weighted", "micro", None)


@summarised()
@dataclass(frozen=True, eq=False)
class OneVsRest:
    """One-vs-rest operating points of every class, and of the pooled (micro) problem.

    Attributes
    ----------
    classes : ndarray of shape (n_classes,)
        Class labels, in the order of the score columns.
    per_class : tuple of OperatingPoints
        Class ``k`` against the rest, scored by column ``k``.
    support : ndarray of shape (n_classes,), float64
        Weighted number of samples of each class.
    micro : OperatingPoints
        All (sample, class) pairs as one binary problem (the micro average).
    """

    classes: np.ndarray
    per_class: tuple[OperatingPoints, ...]
    support: FloatArray
    micro: OperatingPoints
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    def _average(self, name: str, per_class: FloatArray, average: str | None) -> Any:
        check_option(average, "average", _AVERAGES)
        if average is None:
            return per_class
        if average == "micro":
            return float(getattr(self.micro, name)())
        if average == "weighted":
            return float(np.average(per_class, weights=self.support))
        return float(np.mean(per_class))

    def _areas(self, name: str) -> FloatArray:
        return np.array([getattr(op, name)() for op in self.per_class])

    @validate_params(in_body("average"), name="OneVsRest.auroc")
    def auroc(self, *, average: str | None = "macro") -> Any:
        """AUROC per class (``average=None``) or averaged: ``"macro"``, ``"weighted"``, ``"micro"``.

        Returns a float in [0, 1], or an array of shape (n_classes,). Macro and weighted
        equal scikit-learn's ``roc_auc_score(..., multi_class="ovr")``.
        """
        return self._average("auroc", self._areas("auroc"), average)

    @validate_params(in_body("average"), name="OneVsRest.average_precision")
    def average_precision(self, *, average: str | None = "macro") -> Any:
        """Average precision per class or averaged (as :meth:`auroc`); equals scikit-learn's."""
        return self._average("average_precision", self._areas("average_precision"), average)

    @validate_params(in_body("average"), name="OneVsRest.auprg")
    def auprg(self, *, average: str | None = "macro") -> Any:
        """AUPRG per class or averaged (as :meth:`auroc`)."""
        return self._average("auprg", self._areas("auprg"), average)

    @validate_params(in_body("metric"), name="OneVsRest.best_thresholds")
    def best_thresholds(self, metric: str | Metric = "f1") -> tuple[BestThreshold, ...]:
        """The best threshold of each class's score column for ``metric``, in class order."""
        m = parse_metric_argument(metric)
        return tuple(op.best_threshold(m) for op in self.per_class)

    def macro_roc_curve(self) -> RocCurve:
        """Macro-averaged ROC curve: the mean of the classes' TPR at every FPR of any class.

        Each class's ROC curve is interpolated linearly in FPR (the TPR of the random
        mixture of its two neighbouring thresholds), evaluated on the union of all the
        classes' FPR values (at an FPR where a curve rises vertically, at both ends of the
        rise), and averaged over classes with equal weight. The mean of piecewise-linear
        curves is piecewise linear on that union, so the averaged curve is exact and its
        trapezoidal area equals the macro AUROC. Thresholds are not shared across
        classes, so ``thresholds`` is all NaN.
        """
        curves = [op.roc_curve() for op in self.per_class]
        grid = np.unique(np.concatenate([c.fpr for c in curves]))
        # at an FPR where some class's curve rises vertically, keep both ends of the rise
        ends = [polyline_at(grid, c.fpr, c.tpr) for c in curves]
        low = np.mean([e[0] for e in ends], axis=0)
        high = np.mean([e[1] for e in ends], axis=0)
        fpr = np.repeat(grid, 2)
        tpr = np.column_stack([low, high]).ravel()
        keep = np.r_[True, (np.diff(fpr) != 0) | (np.diff(tpr) != 0)]
        fpr, tpr = fpr[keep], tpr[keep]
        return RocCurve(fpr, tpr, np.full(len(fpr), np.nan))

    @validate_params(in_body("n_points"), name="OneVsRest.macro_precision_recall_curve")
    def macro_precision_recall_curve(self, *, n_points: int = 101) -> PrecisionRecallCurve:
        """Macro-averaged PR curve on a recall grid: the mean over classes of step precision.

        At each recall ``r`` of ``linspace(0, 1, n_points)`` a class contributes the
        precision of its first operating point (highest threshold) with recall >= ``r`` —
        the step convention of average precision — and classes are averaged with equal
        weight. Thresholds are not shared across classes, so ``thresholds`` is all NaN.
        A recall within a relative ``1e-12`` of ``r`` reaches it (``r`` is meant as the
        decimal: the grid's 0.7000000000000001 is 7/10).
        """
        n_points = check_integer(n_points, "n_points", low=2)
        grid = np.linspace(0.0, 1.0, n_points)
        values = []
        for op in self.per_class:
            precision, recall, _ = op.precision_recall_curve()
            first = np.searchsorted(recall, loosest_grid(grid, "min"), side="left")  # recall >= r as meant
            values.append(precision[np.minimum(first, len(recall) - 1)])
        return PrecisionRecallCurve(np.mean(values, axis=0), grid, np.full(len(grid), np.nan))


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "classes": [ARRAY, None], "sample_weight": [ARRAY, None]})
def one_vs_rest(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    classes: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> OneVsRest:
    """One-vs-rest operating points of a multiclass or multilabel scorer.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Class labels (multiclass), or a 0/1 indicator matrix (multilabel).
    y_score : array-like of shape (n_samples, n_classes)
        Scores of each class, e.g. ``predict_proba`` output; column ``k`` scores
        ``classes[k]``.
    classes : array-like of shape (n_classes,), default=None
        Labels of the score columns. ``None``: the sorted labels of ``y_true``
        (multiclass) or ``0 .. n_classes - 1`` (multilabel); but when ``y_score`` is a
        data frame (pandas, Polars, pyarrow Table) whose column names are the labels of
        ``y_true`` (compared as text), those labels in the frame's column order.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.

    Returns
    -------
    OneVsRest
        Per-class and micro-averaged operating points, with averaged areas, averaged
        curves and per-class best thresholds.

    Raises
    ------
    ValueError
        If ``y_score`` is not 2-D with one column per class, scores are not finite, a
        class has no positive or no negative sample, ``y_true`` holds what is not a
        class label (see :func:`isometrics.class_counts`), a label of ``y_true`` is
        missing from ``classes``, or the weights are invalid.

    See Also
    --------
    isometrics.metric_report

    Examples
    --------
    >>> from isometrics import one_vs_rest
    >>> ovr = one_vs_rest([0, 1, 2, 2], [[.8, .1, .1], [.2, .6, .2], [.1, .2, .7], [.3, .3, .4]])
    >>> ovr.auroc(average="macro"), ovr.auroc(average=None)
    (1.0, array([1., 1., 1.]))
    """
    name = current_caller()  # "one_vs_rest", or the declared function calling it
    scores = as_array(y_score, name="y_score")
    if scores.ndim != 2:
        raise IsometricsError(f"{name}: y_score must be 2-D (n_samples, n_classes); got shape {scores.shape}.")
    for k in range(scores.shape[1]):  # named messages here; the engine takes the columns as they are
        check_scores(scores[:, k], name=f"y_score[:, {k}]")
    y = as_array(y_true, name="y_true")
    n = len(scores)
    w = as_sample_weight(sample_weight)
    if y.ndim == 2:  # multilabel indicator matrix
        if y.shape != scores.shape:
            raise IsometricsError(
                f"{name}: the indicator matrix y_true has shape {y.shape} but y_score has "
                f"{scores.shape}; give one column per class in both."
            )
        if not np.isin(y, (0, 1)).all():
            raise IsometricsError(f"{name}: a 2-D y_true must be a 0/1 indicator matrix.")
        labels = np.arange(scores.shape[1]) if classes is None else as_1d(classes, name="classes", shape="(n_classes,)")
        indicator = y.astype(bool)
    else:
        y = check_labels(as_1d(y, name="y_true"), name="y_true")
        check_consistent_length(y_true=y, y_score=scores, sample_weight=w)
        labels = (
            _named_classes(y_score, label_set(y))
            if classes is None
            else as_1d(classes, name="classes", shape="(n_classes,)")
        )
        missing = np.setdiff1d(label_set(y), labels)
        if len(missing):
            raise IsometricsError(
                f"{name}: y_true has labels {missing.tolist()} that are not in classes "
                f"{labels.tolist()}; list every class, in the order of the score columns."
            )
        indicator = y[:, None] == labels[None, :]
    labels = np.asarray(labels)
    if len(labels) != scores.shape[1]:
        raise IsometricsError(
            f"{name}: y_score has {scores.shape[1]} columns but there are {len(labels)} "
            f"classes ({labels.tolist()}); give one score column per class."
        )
    weights = check_sample_weight(w, n)
    per_class = []
    for k in range(len(labels)):
        op = table_from_scores(
            indicator[:, k], scores[:, k], sample_weight=weights, pos_label=True, caller=name, table=OperatingPoints
        )
        if op.n_positives == 0 or op.n_negatives == 0:
            kind = "no sample of" if op.n_positives == 0 else "only samples of"
            raise IsometricsError(
                f"{name}: class {labels[k].item()!r} has {kind} it; one-vs-rest curves need "
                "both, so drop the class or add samples."
            )
        per_class.append(op)
    flat_weight = None if weights is None else np.repeat(weights, len(labels))
    micro = table_from_scores(
        indicator.ravel(),
        scores.ravel(),
        sample_weight=flat_weight,
        pos_label=True,
        caller=name,
        table=OperatingPoints,
    )
    support = np.array([op.n_positives for op in per_class])
    return OneVsRest(labels, tuple(per_class), support, micro)


def _named_classes(y_score: Any, labels: np.ndarray) -> np.ndarray:
    """The labels in the order of a data frame's columns when its columns are named by them; else ``labels``."""
    columns = frame_columns(y_score)
    by_text = {str(label): label for label in labels.tolist()}
    if columns is None or len(by_text) != len(labels) or sorted(columns) != sorted(by_text):
        return labels
    return np.array([by_text[name] for name in columns], dtype=labels.dtype)
