"""Confusion counts of hard predictions, per class (one-vs-rest) and as a matrix."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._typing import ArrayLike, FloatArray
from ..exceptions import DegenerateDataWarning, InvalidParameterError, IsometricsError, UndefinedMetricWarning
from .arrays import python_scalar
from .caller import current_caller, takes_caller
from .constraints import ARRAY, Options, user_stacklevel, validate_params
from .html import summarised
from .labels import format_labels
from .validation import (
    as_1d,
    as_sample_weight,
    as_target,
    check_consistent_length,
    check_labels,
    check_option,
    check_sample_weight,
    label_set,
)

__all__ = ["ClassCounts", "class_counts", "confusion_matrix"]


@summarised()
@dataclass(frozen=True)
class ClassCounts:
    """One-vs-rest weighted confusion counts of each class.

    Attributes
    ----------
    labels : ndarray of shape (n_classes,)
        The classes, in the order of the count arrays.
    tp, fp, fn, tn : ndarray of shape (n_classes,), float64
        For class ``k``: samples of class k predicted k; of another class predicted k;
        of class k predicted another; of another class predicted another.
    """

    labels: np.ndarray
    tp: FloatArray
    fp: FloatArray
    fn: FloatArray
    tn: FloatArray

    @property
    def support(self) -> FloatArray:
        """Weighted number of samples of each class, ``tp + fn``."""
        return self.tp + self.fn


def _encode(
    y_true: np.ndarray, y_pred: np.ndarray, labels: ArrayLike | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Codes of y_true and y_pred in the sorted union of labels; that union; the selected labels.

    ``labels`` (the public parameter, as given) is checked here, once for every caller.
    """
    caller = current_caller()
    labels = _check_labels_param(labels, y_true)
    try:
        present = label_set(np.concatenate([y_true, y_pred]))
    except TypeError as exc:
        raise IsometricsError(f"{caller}: y_true and y_pred mix label types; use one type for both.") from exc
    t_code = np.searchsorted(present, y_true)
    p_code = np.searchsorted(present, y_pred)
    if labels is None:
        return t_code, p_code, present, present
    return t_code, p_code, present, labels


def _locate(present: np.ndarray, selected: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of each selected label among the (sorted) present ones, and whether it is present.

    Absent labels get a valid placeholder index; callers zero their counts with ``found``.
    """
    idx = np.minimum(np.searchsorted(present, selected), len(present) - 1)
    return idx, present[idx] == selected


@takes_caller
def check_label_pair(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    sample_weight: ArrayLike | None,
    caller: str | None = None,
    *,
    multilabel: bool = False,
) -> tuple[np.ndarray, np.ndarray, FloatArray | None]:
    """Check the ``y_true, y_pred, sample_weight`` of a label metric: the one validation they all share.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of one kind (:func:`check_labels`: no continuous values, NaN, bytes,
        complex numbers or per-sample sequences; numbers or strings in both), of one
        length; with ``multilabel=True`` also multilabel indicator matrices of one shape.
    sample_weight : array-like of shape (n_samples,) or None
        Non-negative sample weights, or ``None``.
    caller : str
        The public function named in any message.
    multilabel : bool, default=False
        Whether indicator matrices are accepted (otherwise they are refused, naming the
        functions that take them).

    Returns
    -------
    yt, yp : ndarray
        The labels as 1-D arrays, or the indicator matrices as bool arrays
        (:func:`as_target`).
    weights : ndarray of float64 of shape (n_samples,) or None
        The checked weights (``None`` when none were given).

    Raises
    ------
    IsometricsError
        If the arrays are empty, differ in length or shape, mix label types or hold what
        is not a class label, or if the weights are invalid (a ``ValueError``, as the
        public label metrics document).
    """
    caller = current_caller(caller)
    yt = as_target(y_true, name="y_true")
    yp = as_target(y_pred, name="y_pred")
    w = as_sample_weight(sample_weight)
    if yt.ndim == 2 or yp.ndim == 2:
        _check_indicator_pair(yt, yp, multilabel)
    check_consistent_length(y_true=yt, y_pred=yp, sample_weight=w)
    if yt.ndim == 1:
        yt = check_labels(yt, name="y_true")
        yp = check_labels(yp, name="y_pred")
    if yt.dtype.kind in "OUS" and yp.dtype.kind in "biuf" or yp.dtype.kind in "OUS" and yt.dtype.kind in "biuf":
        raise IsometricsError(
            f"{caller}: y_true holds {yt.dtype} labels and y_pred {yp.dtype} labels; use the same label type for both."
        )
    weights = check_sample_weight(w, len(yt))
    return yt, yp, weights


def _check_indicator_pair(yt: np.ndarray, yp: np.ndarray, multilabel: bool) -> None:
    caller = current_caller()
    if yt.ndim != yp.ndim:
        matrix, vector = ("y_true", "y_pred") if yt.ndim == 2 else ("y_pred", "y_true")
        raise IsometricsError(
            f"{caller}: {matrix} is a multilabel indicator matrix (2-D) but {vector} holds one label per sample "
            "(1-D); pass both in one format."
        )
    if yt.shape[1] != yp.shape[1]:
        raise IsometricsError(
            f"{caller}: y_true and y_pred are multilabel indicator matrices with different numbers of labels "
            f"(columns: {yt.shape[1]} and {yp.shape[1]}); pass one column per label in both."
        )
    if not multilabel:
        raise IsometricsError(
            f"{caller}: y_true and y_pred are multilabel indicator matrices (shape {yt.shape}), which {caller} "
            "does not take: it needs one label per sample. For each label's 2 x 2 counts use class_counts; for "
            "per-label scores precision_recall_fscore_support(..., average=None)."
        )


def _multilabel_counts(yt: np.ndarray, yp: np.ndarray, w: FloatArray | None, labels: ArrayLike | None) -> ClassCounts:
    """Per-label counts of multilabel indicator matrices: label ``k`` is column ``k``."""
    columns = _check_label_columns(labels, yt.shape[1])
    t, p = yt[:, columns], yp[:, columns]
    weights = np.ones(len(yt)) if w is None else w
    tp = weights @ (t & p)
    pred = weights @ p
    true = weights @ t
    fp, fn = pred - tp, true - tp
    return ClassCounts(labels=columns, tp=tp, fp=fp, fn=fn, tn=float(weights.sum()) - tp - fp - fn)


def _check_label_columns(labels: ArrayLike | None, n_labels: int) -> np.ndarray:
    """The ``labels`` parameter for multilabel targets: column indices in [0, n_labels)."""
    caller = current_caller()
    if labels is None:
        return np.arange(n_labels)
    arr = as_1d(labels, name="labels", shape="(n_labels,)")
    if arr.size == 0:
        raise InvalidParameterError(
            f"{caller}: `labels` is empty; pass at least one label column, or labels=None for every column."
        )
    if arr.dtype.kind not in "iub" and not (arr.dtype.kind == "f" and np.all(arr == np.trunc(arr))):
        raise InvalidParameterError(
            f"{caller}: for multilabel targets `labels` are column indices (integers); got {format_labels(arr)}."
        )
    columns = arr.astype(np.intp)
    bad = (columns < 0) | (columns >= n_labels)
    if bad.any():
        raise InvalidParameterError(
            f"{caller}: for multilabel targets `labels` are column indices in [0, {n_labels}); got "
            f"{python_scalar(arr[np.flatnonzero(bad)[0]])!r}. Pass indices of columns of y_true."
        )
    return columns


@takes_caller
def multilabel_sample_counts(
    yt: np.ndarray, yp: np.ndarray, labels: ArrayLike | None, caller: str | None = None
) -> ClassCounts:
    """Count each sample's labels of multilabel indicator matrices (``average="samples"``), unweighted.

    Parameters
    ----------
    yt, yp : ndarray of bool of shape (n_samples, n_labels)
        Indicator matrices as :func:`check_label_pair` returns them.
    labels : array-like of int or None
        The label columns to count (``None``: every column).
    caller : str
        The public function named in any message.

    Returns
    -------
    ClassCounts
        Entry ``i`` of ``tp, fp, fn, tn`` counts the labels of sample ``i``; its
        ``labels`` are the sample indices. The averages over samples apply the weights.

    Raises
    ------
    InvalidParameterError
        If ``labels`` is empty or holds what is not a column index in [0, n_labels).
    """
    columns = _check_label_columns(labels, yt.shape[1])
    t, p = yt[:, columns], yp[:, columns]
    tp = (t & p).sum(axis=1).astype(np.float64)
    fp = p.sum(axis=1) - tp
    fn = t.sum(axis=1) - tp
    return ClassCounts(labels=np.arange(len(yt)), tp=tp, fp=fp, fn=fn, tn=len(columns) - tp - fp - fn)


def _check_labels_param(labels: ArrayLike | None, y_true: np.ndarray) -> np.ndarray | None:
    """The ``labels`` parameter of the label metrics: ``None`` or a non-empty 1-D array of labels.

    The labels must be of the kind of ``y_true`` (numbers or strings); they may name
    classes absent from the data.
    """
    caller = current_caller()
    if labels is None:
        return None
    arr = as_1d(labels, name="labels", shape="(n_labels,)")
    if arr.size == 0:
        raise InvalidParameterError(
            f"{caller}: `labels` is empty; pass at least one class, or labels=None for every class present."
        )
    arr = check_labels(arr, name="labels")
    text, number = "OUS", "biuf"
    if arr.dtype.kind in text and y_true.dtype.kind in number or arr.dtype.kind in number and y_true.dtype.kind in text:
        raise InvalidParameterError(
            f"{caller}: `labels` holds {arr.dtype} values but y_true holds {y_true.dtype} labels; "
            "name the classes with values of the labels' own type."
        )
    return arr


@validate_params({"y_true": ARRAY, "y_pred": ARRAY, "labels": [ARRAY, None], "sample_weight": [ARRAY, None]})
def class_counts(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
) -> ClassCounts:
    """Weighted one-vs-rest confusion counts of every class (or of every label of multilabel data).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix of 0 and 1 (one column per label;
        SciPy sparse matrices are accepted).
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Predicted labels, in the format of ``y_true``.
    labels : array-like of shape (n_labels,), default=None
        Classes to count, in this order; may include classes absent from the data.
        ``None``: the sorted union of the labels in ``y_true`` and ``y_pred``. For
        multilabel data: column indices in [0, n_labels) (``None``: every column).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.

    Returns
    -------
    ClassCounts
        Per-class ``tp, fp, fn, tn`` arrays of shape (n_labels,), in ``labels`` order.

    Raises
    ------
    ValueError
        If the inputs are empty or differ in length, mix label types, or hold what is
        not a class label: continuous values (floats that are not whole numbers, such
        as probabilities: threshold them first, see :func:`isometrics.best_threshold`),
        NaN, bytes, complex numbers, missing values or one sequence per sample; if
        ``labels`` is empty; or if the weights are invalid (negative, non-finite,
        complex or all zero). For 2-D input: if a matrix holds values other than 0 and
        1, if the two matrices differ in their number of columns, if only one is 2-D,
        or if ``labels`` holds what is not a column index.

    Examples
    --------
    >>> from isometrics import class_counts
    >>> c = class_counts([0, 1, 2, 2], [0, 2, 2, 1])
    >>> c.tp, c.fp, c.fn
    (array([1., 0., 1.]), array([0., 1., 1.]), array([0., 1., 1.]))
    """
    yt, yp, w = check_label_pair(y_true, y_pred, sample_weight, multilabel=True)
    return class_counts_of_pair(yt, yp, w, labels)


@takes_caller
def class_counts_of_pair(
    yt: np.ndarray, yp: np.ndarray, w: FloatArray | None, labels: ArrayLike | None, caller: str | None = None
) -> ClassCounts:
    """Count each class one-vs-rest in labels already checked: :func:`class_counts` after validation.

    Parameters
    ----------
    yt, yp : ndarray of shape (n_samples,) or (n_samples, n_labels)
        Labels or indicator matrices as :func:`check_label_pair` returns them.
    w : ndarray of float64 of shape (n_samples,) or None
        Checked sample weights, or ``None`` for unit weights.
    labels : array-like or None
        The public ``labels`` parameter as given: the classes to count, in this order
        (``None``: the sorted union of the labels present), or column indices for
        indicator matrices. It is checked here.
    caller : str
        The public function named in any message.

    Returns
    -------
    ClassCounts
        Weighted ``tp, fp, fn, tn`` of each class (float64, shape (n_labels,)), in
        ``labels`` order; a class absent from the data counts 0 except ``tn``.

    Raises
    ------
    InvalidParameterError
        If ``labels`` is empty or of another kind than the labels (column indices out of
        range for indicator matrices).
    IsometricsError
        If ``yt`` and ``yp`` mix label types.
    """
    if yt.ndim == 2:
        return _multilabel_counts(yt, yp, w, labels)
    t_code, p_code, present, selected = _encode(yt, yp, labels)
    k = len(present)
    correct = t_code == p_code
    weights = np.ones(len(yt)) if w is None else w
    tp_all = np.bincount(t_code[correct], weights=weights[correct], minlength=k)
    pred_all = np.bincount(p_code, weights=weights, minlength=k)
    true_all = np.bincount(t_code, weights=weights, minlength=k)
    total = float(weights.sum())
    idx, found = _locate(present, selected)
    tp = np.where(found, tp_all[idx], 0.0)
    pred = np.where(found, pred_all[idx], 0.0)
    true = np.where(found, true_all[idx], 0.0)
    fp, fn = pred - tp, true - tp
    tn = total - tp - fp - fn
    return ClassCounts(labels=np.asarray(selected), tp=tp, fp=fp, fn=fn, tn=tn)


@validate_params(
    {
        "y_true": ARRAY,
        "y_pred": ARRAY,
        "labels": [ARRAY, None],
        "sample_weight": [ARRAY, None],
        "normalize": Options("true", "pred", "all", None),
    }
)
def confusion_matrix(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    normalize: str | None = None,
) -> np.ndarray:
    """Weighted confusion matrix: rows are true classes, columns predicted classes.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels.
    y_pred : array-like of shape (n_samples,)
        Predicted labels.
    labels : array-like of shape (n_labels,), default=None
        Classes indexing rows and columns, in this order. ``None``: the sorted union of
        the labels in ``y_true`` and ``y_pred``. Samples of other classes are ignored.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.
    normalize : {"true", "pred", "all"} or None, default=None
        Divide each row by its sum (``"true"``: rows are the recalls of each class),
        each column by its sum (``"pred"``: columns are the precisions), or the whole
        matrix by its sum (``"all"``). ``None``: the weighted counts.

    Returns
    -------
    ndarray of shape (n_labels, n_labels), int64 or float64
        ``C[i, j]`` is the weight of samples of class ``labels[i]`` predicted as ``labels[j]``
        (a share in [0, 1] when normalized). int64 counts when ``sample_weight`` is
        ``None`` or of an integer or bool dtype and ``normalize`` is ``None``; float64
        otherwise (as scikit-learn).

    Raises
    ------
    ValueError
        As :func:`class_counts`; if no class of ``labels`` is present in ``y_true``
        (as scikit-learn); if ``normalize`` is not one of the values above; or if
        ``y_true`` and ``y_pred`` are multilabel indicator matrices (2-D), whose
        confusion is one 2 x 2 table per label: see :func:`class_counts`.

    Warns
    -----
    UndefinedMetricWarning
        When ``normalize`` divides a row (``"true"``) or column (``"pred"``) whose sum
        is 0: a class with no true (predicted) samples among ``labels``. Its shares are
        set to 0, as scikit-learn sets them, silently.
    DegenerateDataWarning
        When the matrix is 1 x 1 (one class in ``y_true`` and ``y_pred`` and no
        ``labels``): pass ``labels`` to get every class's row and column
        (scikit-learn warns also when ``labels`` names one class).

    Notes
    -----
    Same values, dtypes and errors as scikit-learn's ``confusion_matrix``: integer
    counts when the weights are integers or absent, bytes labels refused with a
    ``TypeError``. One difference: a row or column of zeros divided by ``normalize``
    warns (scikit-learn sets its shares to 0 silently).

    Examples
    --------
    >>> from isometrics import confusion_matrix
    >>> confusion_matrix([0, 1, 1], [0, 0, 1])
    array([[1, 0],
           [1, 1]])
    >>> confusion_matrix([0, 1, 1], [0, 0, 1], sample_weight=[0.5, 1.0, 2.0])
    array([[0.5, 0. ],
           [1. , 2. ]])
    """
    if normalize is not None:
        check_option(normalize, "normalize", ("true", "pred", "all", None))
    yt, yp, w = check_label_pair(y_true, y_pred, sample_weight)
    selected = _check_labels_param(labels, yt)
    if selected is not None:
        _, found = _locate(label_set(yt), selected)
        if not found.any():  # as scikit-learn: a matrix of zeros would only hide the mistake
            raise InvalidParameterError(
                f"{current_caller()}: none of `labels` {format_labels(selected)} is a class of y_true "
                f"{format_labels(label_set(yt))}; name at least one class present in y_true."
            )
    if normalize is None and _integer_weights(sample_weight):  # integer counts, as scikit-learn's
        matrix = confusion_matrix_of_pair(yt, yp, _integer_counts(sample_weight, w), selected, dtype=np.int64)
    else:
        matrix = confusion_matrix_of_pair(yt, yp, w, selected)
    if matrix.shape == (1, 1) and selected is None:  # one class asked for by name is meant
        warnings.warn(
            f"{current_caller()}: a single label was found in y_true and y_pred, so the matrix is 1 x 1; pass "
            "labels=[...] with every class to get each class's row and column.",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(2),
        )
    return matrix if normalize is None else _normalized(matrix, normalize)


def _integer_weights(sample_weight: ArrayLike | None) -> bool:
    """Whether the weights, as given, are absent or of an integer or bool dtype (scikit-learn's integer counts)."""
    if sample_weight is None:
        return True
    dtype = getattr(sample_weight, "dtype", None)
    try:
        kind = np.dtype(dtype).kind if dtype is not None else np.asarray(sample_weight).dtype.kind
    except TypeError:  # a dtype NumPy does not know (e.g. pandas' nullable Int64)
        kind = np.asarray(sample_weight).dtype.kind
    return kind in "biu"


def _integer_counts(sample_weight: ArrayLike | None, w: FloatArray | None) -> np.ndarray | None:
    """The integer weights as int64 (``None`` when absent), counted exactly as scikit-learn counts them.

    Their sum wraps around past ``2**63 - 1`` as scikit-learn's does; that is warned.
    """
    if sample_weight is None:
        return None
    weights = np.asarray(sample_weight).ravel().astype(np.int64)
    if w is not None and float(np.sum(w)) > np.iinfo(np.int64).max:
        warnings.warn(
            "confusion_matrix: the integer sample weights sum to more than 2**63 - 1, so int64 counts "
            "may overflow (as scikit-learn's do); pass float weights for float64 counts.",
            RuntimeWarning,
            stacklevel=user_stacklevel(4),
        )
    return weights


def _normalized(matrix: FloatArray, normalize: str) -> FloatArray:
    """Rows, columns or the whole matrix divided by their sums; 0 where the sum is 0 (with a warning)."""
    axis = {"true": 1, "pred": 0, "all": None}[normalize]
    total = matrix.sum(axis=axis, keepdims=axis is not None)
    empty = total == 0
    if np.any(empty):
        what = {
            "true": "rows (classes with no true samples)",
            "pred": "columns (classes with no predicted samples)",
            "all": "the whole matrix (no samples)",
        }[normalize]
        warnings.warn(
            f"confusion_matrix: normalize={normalize!r} divides {what} whose sum is 0; their shares are set to 0.0.",
            UndefinedMetricWarning,
            stacklevel=user_stacklevel(3),
        )
    return matrix / np.where(empty, 1.0, total)


@takes_caller
def confusion_matrix_of_pair(
    yt: np.ndarray,
    yp: np.ndarray,
    w: np.ndarray | None,
    labels: Any,
    caller: str | None = None,
    dtype: Any = np.float64,
) -> np.ndarray:
    """Build the confusion matrix of labels already checked: :func:`confusion_matrix` after validation.

    Parameters
    ----------
    yt, yp : ndarray of shape (n_samples,)
        Labels as :func:`check_label_pair` returns them.
    w : ndarray of shape (n_samples,) or None
        Checked sample weights (int64 ones with ``dtype=np.int64``), or ``None`` for counts.
    labels : array-like or None
        The public ``labels`` parameter as given (checked here): the classes of the rows
        and columns, in this order; ``None``: the sorted union of the labels present.
    caller : str
        The public function named in any message.
    dtype : {np.float64, np.int64}, default=np.float64
        float64 sums of the weights, or exact int64 sums of integer weights (or counts).

    Returns
    -------
    ndarray of shape (n_labels, n_labels)
        Entry ``[i, j]`` is the weight of the samples of class ``labels[i]`` predicted as
        ``labels[j]`` (scikit-learn's orientation); rows and columns of absent classes are 0.

    Raises
    ------
    InvalidParameterError
        If ``labels`` is empty or of another kind than the labels.
    IsometricsError
        If ``yt`` and ``yp`` mix label types.
    """
    t_code, p_code, present, selected = _encode(yt, yp, labels)
    k = len(present)
    cells = t_code * k + p_code
    flat: np.ndarray
    if dtype == np.float64:
        flat = np.bincount(cells, weights=np.ones(len(yt)) if w is None else w, minlength=k * k)
    elif w is None:
        flat = np.bincount(cells, minlength=k * k).astype(np.int64, copy=False)
    else:
        flat = np.zeros(k * k, dtype=np.int64)
        np.add.at(flat, cells, w)
    full = flat.reshape(k, k)
    idx, found = _locate(present, selected)
    out = full[np.ix_(idx, idx)]
    out[~found, :] = 0.0
    out[:, ~found] = 0.0
    return out
