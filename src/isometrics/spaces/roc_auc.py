"""``roc_auc_score``: scikit-learn's AUROC entry point, for binary, multilabel and multiclass targets.

Binary and multilabel targets are areas of one-vs-rest count tables; multiclass targets
are averaged one-vs-rest or one-vs-one (Hand & Till 2001). Every area is the trapezoid
area of :func:`~isometrics.auroc`, computed from a :class:`~isometrics._core.count_table.CountTable`
of each binary problem; partial areas use McClish's standardisation.
"""

from __future__ import annotations

import itertools
import warnings
from typing import Any

import numpy as np

from .._core.arrays import python_scalar
from .._core.caller import current_caller
from .._core.constraints import ARRAY, Interval, Options, Real, user_stacklevel, validate_params
from .._core.count_table import CountTable
from .._core.labels import format_labels
from .._core.validation import (
    as_1d,
    as_array,
    as_sample_weight,
    as_target,
    check_consistent_length,
    check_labels,
    check_option,
    check_real,
    check_sample_weight,
    check_scores,
    label_set,
)
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError, IsometricsError, UndefinedMetricWarning
from .areas import AUROC
from .curves import ROC, polyline_at

__all__ = ["roc_auc_score"]


class _NotImplementedParameterError(InvalidParameterError, NotImplementedError):
    """An option scikit-learn does not implement either: its ``NotImplementedError`` and our ``InvalidParameterError``."""


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "average": Options("micro", "macro", "weighted", "samples", None),
        "sample_weight": [ARRAY, None],
        "max_fpr": [Interval(Real, 0, 1), None],
        "multi_class": Options("raise", "ovr", "ovo"),
        "labels": [ARRAY, None],
    }
)
def roc_auc_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    average: str | None = "macro",
    sample_weight: ArrayLike | None = None,
    max_fpr: float | None = None,
    multi_class: str = "raise",
    labels: ArrayLike | None = None,
) -> Any:
    r"""Area under the ROC curve of binary, multilabel or multiclass scores (scikit-learn's signature).

    .. math::

        \mathrm{AUC}_{ovo} = \frac{1}{c(c-1)} \sum_{j \ne k} \mathrm{AUC}(j \mid k)

    for one-vs-one (Hand & Till), where :math:`\mathrm{AUC}(j \mid k)` is the area of
    class :math:`j` against class :math:`k`, on the samples of these two classes, ranked
    by the scores of :math:`j`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels: binary or multiclass (one label per sample), or a multilabel
        indicator matrix of 0 and 1 (SciPy sparse accepted). A column vector is raveled.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        Scores, higher meaning more likely the class; finite. Binary: the scores of the
        greater label (as scikit-learn). Multilabel: one column per label. Multiclass:
        one column per class in the order of ``labels`` (or of the sorted labels),
        probabilities that sum to 1 in each row.
    average : {"micro", "macro", "weighted", "samples"} or None, default="macro"
        How per-class areas are combined (ignored for binary targets). ``"macro"``:
        their mean; ``"weighted"``: weighted by each class's (weighted) support, or
        for one-vs-one by the (weighted) share of samples of the pair of classes
        (Hand & Till's prevalence weighting); ``"micro"`` (one-vs-rest and multilabel):
        the area of all (sample, class) pairs pooled; ``"samples"`` (multilabel): the
        area over the labels of each sample, averaged with the sample weights;
        ``None``: the per-class areas (one-vs-rest and multilabel).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.
    max_fpr : float in (0, 1] or None, default=None
        Binary and multilabel targets: return the standardised partial area over
        false positive rates in [0, max_fpr] (McClish), 0.5 for a random ranking and 1
        for a perfect one. ``None`` or 1: the whole area.
    multi_class : {"raise", "ovr", "ovo"}, default="raise"
        Multiclass targets only: one class against the rest (``"ovr"``) or every pair
        of classes (``"ovo"``, Hand & Till). ``"raise"`` refuses multiclass targets,
        as scikit-learn's default does.
    labels : array-like of shape (n_classes,), default=None
        Multiclass targets only: the classes of the score columns, sorted, each once,
        holding every label of ``y_true``. ``None``: the sorted labels of ``y_true``.

    Returns
    -------
    float or ndarray of shape (n_classes,), float64
        In [0, 1]; higher is better; 0.5 is a random ranking. An array of per-class
        (per-label) areas, in column order, when ``average=None``.

    Raises
    ------
    ValueError
        If multiclass scores are not 2-D with one column per class, or their rows do
        not sum to 1; if ``multi_class="raise"`` with a multiclass target, ``average``
        does not apply to it (``"samples"``, or ``"micro"`` with one-vs-one), or
        ``max_fpr`` is given for a multiclass target; if ``labels`` is not sorted,
        repeats a class, misses a label of ``y_true`` or does not match the columns; if
        ``max_fpr`` is not in (0, 1]; and for the bad inputs of :func:`auroc`.
    NotImplementedError
        If ``average=None`` with ``multi_class="ovo"``, as scikit-learn; the error is
        also an :class:`~isometrics.exceptions.InvalidParameterError`.

    Warns
    -----
    UndefinedMetricWarning
        When a binary problem has one class (``y_true`` for binary targets; a column of
        a multilabel target, a row with ``average="samples"``, a class of a multiclass
        target for one-vs-rest): its area is NaN, and so is an average that includes it.

    See Also
    --------
    auroc, roc_curve, one_vs_rest

    Notes
    -----
    Same values as scikit-learn's ``roc_auc_score``, including NaN with an
    ``UndefinedMetricWarning`` for a binary problem with one class and
    ``NotImplementedError`` for ``average=None`` with one-vs-one. Labels may be numbers
    or strings (lists, NumPy arrays of any string or object dtype, pandas Series); bytes
    labels raise a ``TypeError``, as in scikit-learn. One difference: one-vs-one areas
    take ``sample_weight`` (each pair's areas and, with ``average="weighted"``, its
    weighted share of samples), where scikit-learn refuses weights. As scikit-learn,
    binary targets take the greater label as the positive class (there is no
    ``pos_label``).

    References
    ----------
    .. [1] D. J. Hand and R. J. Till, "A Simple Generalisation of the Area Under the ROC
       Curve for Multiple Class Classification Problems", Machine Learning
       45(2):171-186, 2001.
    .. [2] D. K. McClish, "Analyzing a portion of the ROC curve", Medical Decision
       Making 9(3):190-195, 1989.

    Examples
    --------
    >>> from isometrics import roc_auc_score
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> y = [0, 1, 2, 2, 1]
    >>> p = [[.6, .3, .1], [.3, .4, .3], [.2, .3, .5], [.5, .2, .3], [.2, .2, .6]]
    >>> round(roc_auc_score(y, p, multi_class="ovo"), 4), round(roc_auc_score(y, p, multi_class="ovr"), 4)
    (0.75, 0.7222)
    """
    check_option(average, "average", ("micro", "macro", "weighted", "samples", None))
    check_option(multi_class, "multi_class", ("raise", "ovr", "ovo"))
    if max_fpr is not None:
        max_fpr = check_real(max_fpr, "max_fpr", low=0.0, high=1.0)
        if max_fpr == 0:
            raise InvalidParameterError(
                f"{current_caller()}: `max_fpr` must be in (0, 1]; got 0. Pass None for the whole area."
            )
    y = as_target(y_true, name="y_true")
    scores = _as_scores(y_score)
    w = as_sample_weight(sample_weight)
    check_consistent_length(y_true=y, y_score=scores, sample_weight=w)
    weights = check_sample_weight(w, len(y))
    if y.ndim == 2:
        return _multilabel(y, scores, weights, average, max_fpr)
    y = check_labels(y, name="y_true")
    present = label_set(y)
    if len(present) > 2 or scores.ndim == 2 and scores.shape[1] > 2:
        return _multiclass(y, present, scores, weights, average, max_fpr, multi_class, labels)
    if scores.ndim == 2:
        raise IsometricsError(
            f"{current_caller()}: y_true is binary but y_score has shape {scores.shape}; pass the scores of the positive "
            "(greater) class, e.g. y_score[:, 1] of predict_proba."
        )
    pos = present[-1]
    return _area(y == pos, scores, weights, max_fpr, f"(positive class {python_scalar(pos)!r}, the greater label)")


def _as_scores(y_score: ArrayLike) -> FloatArray:
    arr = as_array(y_score, name="y_score", shape="(n_samples,) or (n_samples, n_classes)")
    if arr.ndim == 2 and arr.shape[1] > 1:
        return np.column_stack([check_scores(arr[:, k], name=f"y_score[:, {k}]") for k in range(arr.shape[1])])
    return check_scores(arr)


def _area(
    is_pos: np.ndarray, scores: FloatArray, weights: FloatArray | None, max_fpr: float | None, what: str
) -> float:
    """AUROC (or McClish's standardised partial AUROC) of one binary problem; NaN, warned, with one class."""
    for positive in (True, False):
        members = is_pos if positive else ~is_pos
        if not (members.any() if weights is None else (weights[members] > 0).any()):
            warnings.warn(
                f"{current_caller()}: the area is undefined for {what}: it has no {'positive' if positive else 'negative'} "
                "samples with positive weight, so it is NaN (as scikit-learn returns); pass samples of both classes.",
                UndefinedMetricWarning,
                stacklevel=user_stacklevel(3),
            )
            return float("nan")
    op = CountTable.from_validated(is_pos, scores, weights, True)
    if max_fpr is None or max_fpr == 1:
        return op.get(AUROC)
    return _mcclish(op, max_fpr)


def _mcclish(op: CountTable, max_fpr: float) -> float:
    """Partial area over FPR in [0, max_fpr], standardised to 0.5 (chance) .. 1 (perfect) (McClish 1989)."""
    fpr, tpr, _ = op.get(ROC)
    stop = int(np.searchsorted(fpr, max_fpr, side="left"))
    at, _ = polyline_at(np.array([max_fpr]), fpr, tpr)
    x, y = np.r_[fpr[:stop], max_fpr], np.r_[tpr[:stop], at]
    partial = float(np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0))
    low, high = 0.5 * max_fpr**2, max_fpr  # the chance (diagonal) and the perfect partial areas
    return 0.5 * (1.0 + (partial - low) / (high - low))


def _combine(areas: FloatArray, weights: FloatArray | None, average: str | None) -> Any:
    if average is None:
        return areas
    if average == "weighted" and weights is not None:
        return float(np.average(areas, weights=weights))
    return float(np.mean(areas))


def _multilabel(
    y: np.ndarray, scores: FloatArray, weights: FloatArray | None, average: str | None, max_fpr: float | None
) -> Any:
    if scores.ndim != 2 or scores.shape[1] != y.shape[1]:
        raise IsometricsError(
            f"{current_caller()}: y_true is a multilabel indicator matrix of shape {y.shape} but y_score has shape "
            f"{scores.shape}; pass one score column per label."
        )
    if average == "micro":
        flat_w = None if weights is None else np.repeat(weights, y.shape[1])
        return _area(y.ravel(), scores.ravel(), flat_w, max_fpr, "the pooled (micro) labels")
    if average == "samples":
        areas = np.array(
            [_area(y[i], scores[i], None, max_fpr, f"sample {i} (average='samples')") for i in range(len(y))]
        )
        return float(np.average(areas, weights=weights))
    areas = np.array([_area(y[:, k], scores[:, k], weights, max_fpr, f"label column {k}") for k in range(y.shape[1])])
    support = (y.sum(axis=0) if weights is None else weights @ y).astype(np.float64)
    return _combine(areas, support, average)


def _multiclass(
    y: np.ndarray,
    present: np.ndarray,
    scores: FloatArray,
    weights: FloatArray | None,
    average: str | None,
    max_fpr: float | None,
    multi_class: str,
    labels: ArrayLike | None,
) -> Any:
    if multi_class == "raise":
        raise InvalidParameterError(
            f"{current_caller()}: y_true has {len(present)} classes {format_labels(present)}; pass multi_class='ovr' (each "
            "class against the rest) or 'ovo' (every pair of classes, Hand & Till) for a multiclass area."
        )
    if max_fpr is not None and max_fpr != 1:
        raise InvalidParameterError(
            f"{current_caller()}: the partial area (max_fpr={max_fpr!r}) is defined for binary and multilabel targets, not "
            "multiclass ones; pass max_fpr=None."
        )
    allowed = ("micro", "macro", "weighted", None) if multi_class == "ovr" else ("macro", "weighted")
    if average is None and multi_class == "ovo":
        raise _NotImplementedParameterError(
            f"{current_caller()}: average=None (one area per class) is not implemented for multi_class='ovo', whose areas "
            "belong to pairs of classes (nor is it in scikit-learn); pass average='macro' or 'weighted', or "
            "multi_class='ovr' for per-class areas."
        )
    if average not in allowed:
        raise InvalidParameterError(
            f"{current_caller()}: average={average!r} does not apply to multiclass multi_class={multi_class!r}; pass one "
            f"of {list(allowed)}."
        )
    if scores.ndim != 2:
        raise IsometricsError(
            f"{current_caller()}: y_true has {len(present)} classes but y_score is 1-D; pass one score column per class "
            "(n_samples, n_classes), e.g. predict_proba's output."
        )
    classes = _check_classes(labels, present, scores.shape[1])
    if not np.allclose(scores.sum(axis=1), 1.0):
        raise IsometricsError(
            f"{current_caller()}: multiclass scores must be probabilities whose rows sum to 1 (row sums range from "
            f"{scores.sum(axis=1).min():.6g} to {scores.sum(axis=1).max():.6g}); pass predict_proba's output."
        )
    code = np.searchsorted(classes, y)
    if multi_class == "ovo":
        return _one_vs_one(code, scores, weights, classes, average)
    indicator = code[:, None] == np.arange(len(classes))[None, :]
    if average == "micro":
        flat_w = None if weights is None else np.repeat(weights, len(classes))
        return _area(indicator.ravel(), scores.ravel(), flat_w, None, "the pooled (micro) classes")
    areas = np.array(
        [
            _area(indicator[:, k], scores[:, k], weights, None, f"class {python_scalar(classes[k])!r}")
            for k in range(len(classes))
        ]
    )
    support = (indicator.sum(axis=0) if weights is None else weights @ indicator).astype(np.float64)
    return _combine(areas, support, average)


def _one_vs_one(
    code: np.ndarray, scores: FloatArray, weights: FloatArray | None, classes: np.ndarray, average: str | None
) -> float:
    """Hand & Till's M: the mean over pairs of present classes of (AUC(j|k) + AUC(k|j)) / 2."""
    w = np.ones(len(code)) if weights is None else weights
    pairs = list(itertools.combinations(np.unique(code), 2))
    areas, shares = np.empty(len(pairs)), np.empty(len(pairs))
    for i, (j, k) in enumerate(pairs):
        in_pair = (code == j) | (code == k)
        is_j = code[in_pair] == j
        wp = None if weights is None else w[in_pair]
        name = f"the pair of classes {python_scalar(classes[j])!r} and {python_scalar(classes[k])!r}"
        a_jk = _area(is_j, scores[in_pair, j], wp, None, name)
        a_kj = _area(~is_j, scores[in_pair, k], wp, None, name)
        areas[i] = (a_jk + a_kj) / 2.0
        shares[i] = w[in_pair].sum() / w.sum()
    return float(np.average(areas, weights=shares if average == "weighted" else None))


def _check_classes(labels: ArrayLike | None, present: np.ndarray, n_columns: int) -> np.ndarray:
    if labels is None:
        if len(present) != n_columns:
            raise IsometricsError(
                f"{current_caller()}: y_true has {len(present)} classes {format_labels(present)} but y_score has {n_columns} "
                "columns; pass labels=[...] naming the class of each column."
            )
        return present
    classes = check_labels(as_1d(labels, name="labels", shape="(n_classes,)"), name="labels")
    if len(np.unique(classes)) != len(classes):
        raise InvalidParameterError(
            f"{current_caller()}: `labels` {format_labels(classes)} repeats a class; name each once."
        )
    if not np.array_equal(np.sort(classes), classes):
        raise InvalidParameterError(
            f"{current_caller()}: `labels` {format_labels(classes)} must be ordered (sorted), as the score columns are; pass "
            "the classes in sorted order with the columns in that order."
        )
    if len(classes) != n_columns:
        raise InvalidParameterError(
            f"{current_caller()}: `labels` names {len(classes)} classes but y_score has {n_columns} columns; name the class "
            "of each column."
        )
    missing = np.setdiff1d(present, classes)
    if len(missing):
        raise InvalidParameterError(
            f"{current_caller()}: y_true holds labels {format_labels(missing)} that are not in `labels` {format_labels(classes)}; "
            "list every class of y_true."
        )
    return classes
