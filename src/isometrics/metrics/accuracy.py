"""Metrics of the whole confusion matrix of hard predictions: accuracy, balanced accuracy
and Matthews' correlation coefficient.

Names, signatures and results follow scikit-learn; documented differences are listed in
each function's Notes.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._core.confusion import check_label_pair, confusion_matrix_of_pair
from .._core.constraints import ARRAY, ZERO_DIVISION, Boolean, user_stacklevel, validate_params
from .._core.docstrings import fill_doc
from .._core.validation import check_zero_division
from .._typing import ArrayLike, FloatArray
from ..exceptions import UndefinedMetricWarning
from .averaging import resolve
from .kernels import mcc_from_counts, recall_from_counts

__all__ = ["accuracy_score", "balanced_accuracy_score", "matthews_corrcoef"]


@validate_params({"y_true": ARRAY, "y_pred": ARRAY, "normalize": Boolean(), "sample_weight": [ARRAY, None]})
@fill_doc
def accuracy_score(
    y_true: ArrayLike, y_pred: ArrayLike, *, normalize: bool = True, sample_weight: ArrayLike | None = None
) -> float:
    r"""Accuracy: the (weighted) share of samples whose prediction equals the label.

    For multilabel data it is the subset accuracy: a sample counts as correct when its
    whole set of labels is predicted exactly.

    Parameters
    ----------
    %(data)s
    normalize : bool, default=True
        ``False`` returns the (weighted) number of correct predictions instead.
    %(sample_weight)s

    Returns
    -------
    float
        In [0, 1] (or a count when ``normalize=False``); higher is better.

    Raises
    ------
    ValueError
        As :func:`isometrics.class_counts`: empty inputs or inputs of different
        lengths, mixed label types, values that are not class labels (continuous
        values such as probabilities, NaN, bytes, complex numbers, one sequence per
        sample), or invalid weights; for multilabel data, matrices that hold values
        other than 0 and 1 or differ in their number of columns.

    Examples
    --------
    >>> from isometrics import accuracy_score
    >>> accuracy_score([0, 1, 2, 2], [0, 2, 2, 1])
    0.5
    """
    yt, yp, w = check_label_pair(y_true, y_pred, sample_weight, multilabel=True)
    correct = (yt == yp) if yt.ndim == 1 else (yt == yp).all(axis=1)  # multilabel: subset accuracy
    correct = correct.astype(np.float64)
    total = float(np.dot(correct, w)) if w is not None else float(correct.sum())
    if not normalize:
        return total
    return total / (float(w.sum()) if w is not None else len(yt))


@validate_params({"y_true": ARRAY, "y_pred": ARRAY, "sample_weight": [ARRAY, None], "adjusted": Boolean()})
@fill_doc
def balanced_accuracy_score(
    y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None, adjusted: bool = False
) -> float:
    r"""Balanced accuracy: the mean of the recalls of the classes present in ``y_true``.

    Parameters
    ----------
    %(data_1d)s
    %(sample_weight)s
    adjusted : bool, default=False
        Rescale so that chance scores 0 and perfect 1: :math:`(s - 1/K)/(1 - 1/K)`.

    Returns
    -------
    float
        In [0, 1] (adjusted: at most 1, may be negative); higher is better.

    Raises
    ------
    ValueError
        As :func:`accuracy_score`, and for multilabel indicator matrices (2-D), which
        it does not take (as scikit-learn).

    Warns
    -----
    UndefinedMetricWarning
        When ``y_pred`` holds classes absent from ``y_true`` (they are left out); and
        with ``adjusted=True`` when ``y_true`` has one class: chance is then 1 and the
        adjusted score is undefined; it is ``-inf`` (``nan`` for a perfect score).

    Notes
    -----
    Same results as scikit-learn's ``balanced_accuracy_score``, the one-class adjusted
    values included (scikit-learn computes ``(s - 1) / 0``); here they come with the
    warning above.

    Examples
    --------
    >>> from isometrics import balanced_accuracy_score
    >>> balanced_accuracy_score([0, 0, 0, 1], [0, 0, 1, 1])
    0.8333333333333333
    """
    yt, yp, w = check_label_pair(y_true, y_pred, sample_weight)
    matrix = confusion_matrix_of_pair(yt, yp, w, None)
    support = matrix.sum(axis=1)
    present = support > 0
    if not present.all():
        warnings.warn(
            "y_pred contains classes not in y_true; they are left out of the balanced accuracy.",
            UndefinedMetricWarning,
            stacklevel=user_stacklevel(2),
        )
    score = float(np.mean(recall_from_counts(np.diag(matrix), None, None, None, positives=support)[present]))
    if adjusted:
        n_classes = int(present.sum())
        if n_classes == 1:  # chance is 1: (score - 1) / 0, as scikit-learn computes it
            warnings.warn(
                "balanced_accuracy_score: adjusted=True is undefined when y_true has one class "
                f"(chance level is 1); returning {'nan' if score == 1 else '-inf'} as scikit-learn "
                "does. Use adjusted=False, or pass samples of at least two classes.",
                UndefinedMetricWarning,
                stacklevel=user_stacklevel(2),
            )
            return math.nan if score == 1 else -math.inf
        chance = 1.0 / n_classes
        score = (score - chance) / (1.0 - chance)
    return score


def _one_vs_rest(matrix: np.ndarray) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """``tp, fp, fn, tn`` of each class against the rest, from the confusion matrix.

    The false positives and negatives are sums of the off-diagonal cells, not differences
    of totals: MCC's numerator cancels, and a difference would carry the rounding of the
    totals into it.
    """
    off = np.where(np.eye(len(matrix), dtype=bool), 0.0, matrix)
    tp, fp, fn = np.diag(matrix).astype(np.float64), off.sum(axis=0), off.sum(axis=1)
    return tp, fp, fn, float(matrix.sum()) - tp - fp - fn


@validate_params({"y_true": ARRAY, "y_pred": ARRAY, "sample_weight": [ARRAY, None], "zero_division": ZERO_DIVISION})
@fill_doc
def matthews_corrcoef(
    y_true: ArrayLike, y_pred: ArrayLike, *, sample_weight: ArrayLike | None = None, zero_division: Any = "warn"
) -> float:
    r"""Matthews correlation coefficient (binary and multiclass, Gorodkin's R_K).

    .. math::

        \mathrm{MCC} = \frac{c\,s - \sum_k p_k t_k}
                            {\sqrt{(s^2 - \sum_k p_k^2)(s^2 - \sum_k t_k^2)}}

    with :math:`c` the correct predictions, :math:`s` the total, :math:`t_k` and
    :math:`p_k` the true and predicted totals of class :math:`k`.

    Parameters
    ----------
    %(data_1d)s
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    float
        In [-1, 1]; 1 perfect, 0 no better than chance; higher is better.

    Raises
    ------
    ValueError
        As :func:`accuracy_score`; for multilabel indicator matrices (2-D), which it
        does not take (as scikit-learn); or if ``zero_division`` is not an accepted value.

    Warns
    -----
    UndefinedMetricWarning
        With ``zero_division="warn"`` when the denominator is 0 (one class in
        ``y_true`` or in ``y_pred``); the result is then 0.0.

    Notes
    -----
    Same results as scikit-learn's ``matthews_corrcoef``, which returns 0.0 silently in
    the undefined case; here it warns, and ``zero_division`` chooses the value.

    References
    ----------
    .. [1] J. Gorodkin, "Comparing two K-category assignments by a K-category
       correlation coefficient", Computational Biology and Chemistry 28:367-374, 2004.

    Examples
    --------
    >>> from isometrics import matthews_corrcoef
    >>> round(matthews_corrcoef([1, 1, 1, -1], [1, -1, 1, 1]), 4)
    -0.3333
    """
    check_zero_division(zero_division)
    yt, yp, w = check_label_pair(y_true, y_pred, sample_weight)
    counts = _one_vs_rest(confusion_matrix_of_pair(yt, yp, w, None))
    value = resolve(
        mcc_from_counts(*counts, axis=0),
        zero_division=zero_division,
        what="Matthews correlation coefficient",
        why="data with one class in y_true or y_pred",
    )
    return float(value)
