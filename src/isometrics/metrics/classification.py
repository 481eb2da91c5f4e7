"""Per-class ratio metrics of hard predictions (binary and multiclass) and PRFS, from one
counts -> metric path.

Every score here goes ``y_true, y_pred -> ClassCounts -> count kernel -> zero division ->
average``, with the kernels of ``kernels`` that the threshold metrics use too. F-beta is
computed from counts, ``(1+b^2) TP / ((1+b^2) TP + b^2 FN + FP)``, not from precision
and recall, so it is defined where precision is not. Names, signatures and results
follow scikit-learn; documented differences are listed in each function's Notes.
Metrics of the whole confusion matrix (accuracy, balanced accuracy, MCC) are in
``accuracy``.
"""

from __future__ import annotations

from typing import Any

from .._core.confusion import ClassCounts
from .._core.constraints import InBody, validate_params
from .._core.docstrings import fill_doc
from .._core.validation import check_real
from .._typing import ArrayLike, FloatArray
from ._label_counts import BETA, LABEL_METRIC, _finish, _pooled, _prepare, _ratio_score, _silent, _why
from .averaging import resolve
from .kernels import (
    fall_out_from_counts,
    fbeta_from_counts,
    npv_from_counts,
    precision_from_counts,
    recall_from_counts,
    specificity_from_counts,
)

__all__ = [
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "fbeta_score",
    "f1_score",
    "specificity_score",
    "negative_predictive_value_score",
    "false_positive_rate_score",
]


def _fscore(c: ClassCounts, beta: float, zero_division: Any, warn: bool, average: str | None = None) -> FloatArray:
    zd = zero_division if warn else _silent(zero_division)
    return resolve(
        fbeta_from_counts(c.tp, c.fp, c.fn, beta),
        zero_division=zd,
        what="F-score",
        why=_why("labels with no true nor predicted samples", average),
    )


@validate_params(LABEL_METRIC | {"beta": BETA, "warn_for": InBody("a tuple of 'precision', 'recall' and 'f-score'")})
@fill_doc
def precision_recall_fscore_support(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float = 1.0,
    labels: ArrayLike | None = None,
    pos_label: Any = 1,
    average: str | None = None,
    warn_for: tuple[str, ...] = ("precision", "recall", "f-score"),
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> tuple[Any, Any, Any, Any]:
    r"""Precision, recall, F-beta and support of each class, or their average.

    .. math::

        P = \frac{TP}{TP+FP},\quad R = \frac{TP}{TP+FN},\quad
        F_\beta = \frac{(1+\beta^2)\,TP}{(1+\beta^2)\,TP + \beta^2 FN + FP}

    Parameters
    ----------
    %(data)s
    beta : float, default=1.0
        Recall/precision trade-off in [0, inf]: ``beta > 1`` weights recall more.
    %(labels)s
    %(pos_label)s
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default=None
        As in :func:`precision_score`; the default here is ``None`` (per class), like
        scikit-learn's.
    warn_for : tuple of str, default=("precision", "recall", "f-score")
        Which undefined quantities warn when ``zero_division="warn"``.
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    precision, recall, fbeta_score : float or ndarray of shape (n_labels,)
        Each in [0, 1], higher is better.
    support : ndarray of shape (n_labels,) or None
        Weighted number of true samples of each class when ``average=None``, else None.

    Raises
    ------
    %(raises)s

    Notes
    -----
    Same signature and results as scikit-learn's function of the same name, for binary,
    multiclass and multilabel (indicator matrix) targets. When no selected class has a
    true sample, ``average="weighted"`` has no weights: it returns the plain mean of the
    per-class values, as scikit-learn does (with a warning under ``zero_division="warn"``).

    References
    ----------
    .. [1] C. J. van Rijsbergen, *Information Retrieval*, 2nd ed., 1979.

    Examples
    --------
    >>> from isometrics import precision_recall_fscore_support
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1, 1], [0, 1, 0, 1])
    >>> p, r, s
    (array([0.5, 1. ]), array([1.        , 0.66666667]), array([1., 3.]))
    """
    beta = check_real(beta, "beta", low=0.0, allow_inf=True)
    counts, average, sw = _prepare(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    c = _pooled(counts) if average == "micro" else counts
    zd = zero_division
    precision = resolve(
        precision_from_counts(c.tp, c.fp, c.fn, c.tn),
        zero_division=zd if "precision" in warn_for else _silent(zd),
        what="Precision",
        why=_why("labels with no predicted samples", average),
    )
    recall = resolve(
        recall_from_counts(c.tp, c.fp, c.fn, c.tn),
        zero_division=zd if "recall" in warn_for else _silent(zd),
        what="Recall",
        why=_why("labels with no true samples", average),
    )
    fscore = _fscore(c, beta, zd, "f-score" in warn_for, average)
    if average == "micro":
        return float(precision[0]), float(recall[0]), float(fscore[0]), None
    if average is None:
        return precision, recall, fscore, counts.support
    return (
        _finish(precision, counts, average, zd, sw),
        _finish(recall, counts, average, zd, sw),
        _finish(fscore, counts, average, zd, sw),
        None,
    )


@validate_params(LABEL_METRIC)
@fill_doc
def precision_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Precision, :math:`TP / (TP + FP)`: the share of predicted positives that are positive.

    Parameters
    ----------
    %(data)s
    %(labels)s
    %(pos_label)s
    %(average)s
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    %(returns)s

    Raises
    ------
    %(raises)s

    Notes
    -----
    Same results as scikit-learn's ``precision_score`` for binary, multiclass and multilabel
    targets.

    Examples
    --------
    >>> from isometrics import precision_score
    >>> precision_score([0, 1, 1, 1], [1, 1, 0, 1])
    0.6666666666666666
    """
    return _ratio_score(
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
        precision_from_counts,
        "Precision",
        "labels with no predicted samples",
    )


@validate_params(LABEL_METRIC)
@fill_doc
def recall_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Recall (sensitivity, true positive rate), :math:`TP / (TP + FN)`.

    Parameters
    ----------
    %(data)s
    %(labels)s
    %(pos_label)s
    %(average)s
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    %(returns)s

    Raises
    ------
    %(raises)s

    Notes
    -----
    Same results as scikit-learn's ``recall_score`` for binary, multiclass and multilabel
    targets.

    Examples
    --------
    >>> from isometrics import recall_score
    >>> recall_score([0, 1, 1, 1], [1, 1, 0, 1])
    0.6666666666666666
    """
    return _ratio_score(
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
        recall_from_counts,
        "Recall",
        "labels with no true samples",
    )


@validate_params(LABEL_METRIC)
@fill_doc
def specificity_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Specificity (true negative rate), :math:`TN / (TN + FP)`, one class against the rest.

    Parameters
    ----------
    %(data)s
    %(labels)s
    %(pos_label)s
    %(average)s
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    %(returns)s

    Raises
    ------
    %(raises)s

    Examples
    --------
    >>> from isometrics import specificity_score
    >>> specificity_score([0, 0, 1, 1], [0, 1, 1, 1])
    0.5
    """
    return _ratio_score(
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
        specificity_from_counts,
        "Specificity",
        "labels with no negative samples",
    )


@validate_params(LABEL_METRIC)
@fill_doc
def negative_predictive_value_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:
    r"""Negative predictive value, :math:`TN / (TN + FN)`: the share of predicted negatives that are negative.

    Parameters
    ----------
    %(data)s
    %(labels)s
    %(pos_label)s
    %(average)s
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    %(returns)s

    Raises
    ------
    %(raises)s

    Examples
    --------
    >>> from isometrics import negative_predictive_value_score
    >>> negative_predictive_value_score([0, 0, 1, 1], [0, 0, 0, 1])
    0.6666666666666666
    """
    return _ratio_score(
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
        npv_from_counts,
        "Negative predictive value",
        "labels with no predicted negative samples",
    )


@validate_params(LABEL_METRIC)
@fill_doc
def false_positive_rate_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:
    r"""False positive rate (fall-out), :math:`FP / (FP + TN)` = 1 - specificity. Lower is better.

    Parameters
    ----------
    %(data)s
    %(labels)s
    %(pos_label)s
    %(average)s
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    float or ndarray of shape (n_labels,), float64
        In [0, 1], **lower** is better; per class when ``average=None``.

    Raises
    ------
    %(raises)s

    Examples
    --------
    >>> from isometrics import false_positive_rate_score
    >>> false_positive_rate_score([0, 0, 1, 1], [0, 1, 1, 1])
    0.5
    """
    return _ratio_score(
        y_true,
        y_pred,
        labels,
        pos_label,
        average,
        sample_weight,
        zero_division,
        fall_out_from_counts,
        "False positive rate",
        "labels with no negative samples",
    )


@validate_params(LABEL_METRIC | {"beta": BETA})
@fill_doc
def fbeta_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    beta: float,
    labels: ArrayLike | None = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:
    r"""F-beta from counts, :math:`(1+\beta^2)TP / ((1+\beta^2)TP + \beta^2 FN + FP)`.

    The weighted harmonic mean of precision and recall, written on counts so that it
    is defined (0) when nothing is predicted positive but positives exist.

    Parameters
    ----------
    %(data)s
    beta : float
        Recall/precision trade-off in [0, inf]: ``beta > 1`` weights recall more
        (``beta`` is the recall/precision ratio at which a point of either is worth
        the same). ``beta=0`` is precision, ``inf`` recall.
    %(labels)s
    %(pos_label)s
    %(average)s
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    %(returns)s

    Raises
    ------
    %(raises)s
    InvalidParameterError
        If ``beta`` is negative or NaN.

    Notes
    -----
    Same results as scikit-learn's ``fbeta_score``. It equals accuracy on a modified
    confusion matrix in which true negatives are replaced by true positives and the
    positive row is scaled by :math:`\beta^2`: its accuracy is
    :math:`(1+\beta^2) TP / ((1+\beta^2) TP + \beta^2 FN + FP)`, van Rijsbergen's F-beta.

    References
    ----------
    .. [1] C. J. van Rijsbergen, *Information Retrieval*, 2nd ed., 1979.

    Examples
    --------
    >>> from isometrics import fbeta_score
    >>> round(fbeta_score([0, 1, 1, 1], [1, 1, 0, 1], beta=2), 6)
    0.666667
    """
    return _fbeta_score(y_true, y_pred, beta, labels, pos_label, average, sample_weight, zero_division)


def _fbeta_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    beta: Any,
    labels: ArrayLike | None,
    pos_label: Any,
    average: str | None,
    sample_weight: ArrayLike | None,
    zero_division: Any,
) -> Any:
    beta = check_real(beta, "beta", low=0.0, allow_inf=True)
    counts, average, sw = _prepare(
        y_true,
        y_pred,
        labels=labels,
        pos_label=pos_label,
        average=average,
        sample_weight=sample_weight,
        zero_division=zero_division,
    )
    if average == "micro":
        return float(_fscore(_pooled(counts), beta, zero_division, True)[0])
    return _finish(_fscore(counts, beta, zero_division, True, average), counts, average, zero_division, sw)


@validate_params(LABEL_METRIC)
@fill_doc
def f1_score(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    pos_label: Any = 1,
    average: str | None = "binary",
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> Any:
    r"""F1 from counts, :math:`2TP / (2TP + FN + FP)`; :func:`fbeta_score` with ``beta=1``.

    Parameters
    ----------
    %(data)s
    %(labels)s
    %(pos_label)s
    %(average)s
    %(sample_weight)s
    %(zero_division)s

    Returns
    -------
    %(returns)s

    Raises
    ------
    %(raises)s

    Examples
    --------
    >>> from isometrics import f1_score
    >>> f1_score([0, 1, 1, 1], [1, 1, 0, 1])
    0.6666666666666666
    """
    return _fbeta_score(y_true, y_pred, 1.0, labels, pos_label, average, sample_weight, zero_division)
