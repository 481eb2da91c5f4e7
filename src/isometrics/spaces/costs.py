r"""Cost-based decisions: expected cost of predictions and the decision rule that minimises it.

A cost matrix ``C`` has one row per true class and one column per predicted class;
``C[i, j]`` is the cost of predicting class ``j`` for a sample of class ``i`` (the
diagonal is usually 0). For binary scores, the threshold minimising the expected cost on
data is :func:`isometrics.best_threshold` with ``metric="cost(fp=..., fn=...)"``.

References
----------
.. [1] J. Hernandez-Orallo, P. Flach and C. Ferri, "A Unified View of Performance Metrics:
   Translating Threshold Choice into Expected Classification Loss", JMLR 13, 2012.
.. [2] C. Elkan, "The Foundations of Cost-Sensitive Learning", IJCAI 2001.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.confusion import check_label_pair, confusion_matrix_of_pair
from .._core.constraints import ARRAY, InBody, Interval, Real, validate_params
from .._core.validation import as_1d, check_real, check_real_array
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError

__all__ = ["expected_cost", "cost_sensitive_predict", "bayes_threshold"]


def _cost_matrix(cost_matrix: ArrayLike, n_classes: int | None) -> FloatArray:
    c = check_real_array(cost_matrix, "cost_matrix", shape="(n_classes, n_classes)")
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise InvalidParameterError(
            f"{current_caller()}: `cost_matrix` must be square (true class x predicted class); got shape {c.shape}."
        )
    if n_classes is not None and c.shape[0] != n_classes:
        raise InvalidParameterError(
            f"{current_caller()}: `cost_matrix` is {c.shape[0]}x{c.shape[0]} but there are "
            f"{n_classes} classes; give one row and one column per class."
        )
    if not np.isfinite(c).all():
        raise InvalidParameterError(f"{current_caller()}: `cost_matrix` must hold finite numbers; got {c.tolist()!r}.")
    return c


@validate_params(
    {
        "y_true": ARRAY,
        "y_pred": ARRAY,
        "cost_matrix": InBody("an array of shape (n_classes, n_classes)"),
        "labels": [ARRAY, None],
        "sample_weight": [ARRAY, None],
    }
)
def expected_cost(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    cost_matrix: ArrayLike,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> float:
    r"""Average misclassification cost per sample, :math:`\sum_{ij} M_{ij} C_{ij} / \sum_{ij} M_{ij}`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    cost_matrix : array-like of shape (n_classes, n_classes)
        ``cost_matrix[i, j]``: cost of predicting ``labels[j]`` for a sample of ``labels[i]``.
    labels : array-like of shape (n_classes,), default=None
        Order of the classes in ``cost_matrix``. ``None``: the sorted union of the labels
        in ``y_true`` and ``y_pred``.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.

    Returns
    -------
    float
        Average cost per (weighted) sample, in the cost matrix's unit; lower is better.

    Raises
    ------
    InvalidParameterError
        If ``cost_matrix`` is not a square array of numbers, does not match the number
        of classes, or holds non-finite values.
    ValueError
        For the bad inputs of :func:`isometrics.confusion_matrix`.

    Examples
    --------
    >>> from isometrics.spaces import expected_cost
    >>> expected_cost([0, 0, 1, 1], [0, 1, 0, 1], cost_matrix=[[0, 1], [5, 0]])
    1.5
    """
    yt, yp, w = check_label_pair(y_true, y_pred, sample_weight)
    matrix = confusion_matrix_of_pair(yt, yp, w, labels)  # checks `labels` (counts._check_labels_param)
    c = _cost_matrix(cost_matrix, matrix.shape[0])
    matrix = np.ldexp(matrix, -np.frexp(matrix.sum())[1])  # exact: costs times weights cannot overflow
    return float((matrix * c).sum() / matrix.sum())


@validate_params(
    {"y_proba": ARRAY, "cost_matrix": InBody("an array of shape (n_classes, n_classes)"), "classes": [ARRAY, None]}
)
def cost_sensitive_predict(y_proba: ArrayLike, *, cost_matrix: ArrayLike, classes: ArrayLike | None = None) -> Any:
    r"""The Bayes decision for each sample: the class with the least expected cost.

    .. math::

        \hat y = \arg\min_j \sum_i p_i\, C_{ij}

    Parameters
    ----------
    y_proba : array-like of shape (n_samples, n_classes)
        Class probabilities (rows sum to 1, e.g. ``predict_proba`` output, ideally
        calibrated).
    cost_matrix : array-like of shape (n_classes, n_classes)
        ``cost_matrix[i, j]``: cost of predicting class ``j`` when the truth is class ``i``.
    classes : array-like of shape (n_classes,), default=None
        Labels of the columns of ``y_proba``; ``None`` returns column indices.

    Returns
    -------
    ndarray of shape (n_samples,)
        The chosen class of each sample (labels from ``classes``, or indices).

    Raises
    ------
    InvalidParameterError
        If ``y_proba`` is not a 2-D array of numbers in [0, 1]; if ``cost_matrix`` is
        not a square array of finite numbers with one row per column of ``y_proba``;
        if ``classes`` does not give one label per column.

    Notes
    -----
    With two classes and costs ``C = [[0, c_fp], [c_fn, 0]]`` this predicts positive
    exactly when ``p >= c_fp / (c_fp + c_fn)`` (:func:`bayes_threshold`; ties go to
    the positive class).

    References
    ----------
    .. [1] C. Elkan, "The Foundations of Cost-Sensitive Learning", IJCAI 2001.

    Examples
    --------
    >>> from isometrics.spaces import cost_sensitive_predict
    >>> cost_sensitive_predict([[0.9, 0.1], [0.7, 0.3]], cost_matrix=[[0, 1], [5, 0]])
    array([0, 1])
    """
    p = check_real_array(y_proba, "y_proba", shape="(n_samples, n_classes)")
    if p.ndim != 2 or not np.all((p >= 0) & (p <= 1)):
        raise InvalidParameterError(
            f"{current_caller()}: `y_proba` must be a 2-D array of probabilities in [0, 1]; got shape {p.shape}."
        )
    c = _cost_matrix(cost_matrix, p.shape[1])
    expected = p @ c  # expected[n, j] = sum_i p[n, i] C[i, j]
    # ties: the later class (for two classes, the positive one, as in bayes_threshold)
    choice = expected.shape[1] - 1 - np.argmin(expected[:, ::-1], axis=1)
    if classes is None:
        return choice
    labels = as_1d(classes, name="classes", shape="(n_classes,)")
    if len(labels) != p.shape[1]:
        raise InvalidParameterError(
            f"{current_caller()}: `classes` has {len(labels)} labels for the {p.shape[1]} columns of "
            "y_proba; give one label per column."
        )
    return labels[choice]


@validate_params({"cost_fp": Interval(Real, 0, None), "cost_fn": Interval(Real, 0, None)})
def bayes_threshold(*, cost_fp: float, cost_fn: float) -> float:
    r"""The probability threshold that minimises expected cost for calibrated scores.

    Predict positive when :math:`p \ge c_{FP} / (c_{FP} + c_{FN})`.

    Parameters
    ----------
    cost_fp, cost_fn : float
        Costs of a false positive and of a false negative (>= 0, not both 0).

    Returns
    -------
    float
        Threshold in [0, 1] on calibrated probabilities.

    Raises
    ------
    InvalidParameterError
        If a cost is negative or not finite, or both are 0.

    References
    ----------
    .. [1] C. Elkan, "The Foundations of Cost-Sensitive Learning", IJCAI 2001.

    Examples
    --------
    >>> from isometrics.spaces import bayes_threshold
    >>> bayes_threshold(cost_fp=1, cost_fn=5)
    0.16666666666666666
    """
    fp = check_real(cost_fp, "cost_fp", low=0.0)
    fn = check_real(cost_fn, "cost_fn", low=0.0)
    if fp + fn == 0:
        raise InvalidParameterError("bayes_threshold: `cost_fp` and `cost_fn` cannot both be 0.")
    return fp / (fp + fn)
