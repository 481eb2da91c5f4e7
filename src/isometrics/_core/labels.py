"""Checks of class labels: label arrays (no continuous values, bytes or missing values),
the positive label, the set of classes, the binary target and the presence of both classes.

Messages follow the template *what, where, value, fix*.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError, IsometricsError
from .arrays import as_1d, as_array, python_scalar
from .caller import current_caller, takes_caller
from .frames import _raise_missing

__all__ = [
    "check_labels",
    "check_pos_label",
    "label_set",
    "infer_pos_label",
    "check_labels_present",
    "check_binary_target",
    "check_both_classes",
    "as_target",
]


def format_labels(labels: Iterable[Any], limit: int = 6) -> str:
    """Write labels for a message: ``[0, 1, 'a']``, the first ``limit`` of them then ``...``.

    Parameters
    ----------
    labels : iterable
        The labels (NumPy scalars are written as the Python values they hold).
    limit : int, default=6
        How many labels to write before ``...``.

    Returns
    -------
    str
        The bracketed list of the labels' ``repr``.
    """
    items = [repr(python_scalar(v)) for v in labels]
    if len(items) > limit:
        items = items[:limit] + ["..."]
    return "[" + ", ".join(items) + "]"


_INT64_LIMIT = 2.0**63  # float labels at or beyond it are not whole numbers of any integer type


def _continuous_error(example: Any, *, name: str) -> IsometricsError:
    caller = current_caller()
    if name == "y_pred":
        fix = (
            "Pass predicted classes; to turn scores into classes, threshold them, e.g. at the threshold that "
            "isometrics.best_threshold(y_true, y_score, metric=...) returns: y_pred = y_score >= best.threshold "
            "(scores themselves go to score functions such as auroc or average_precision)"
        )
    else:
        fix = (
            "Pass classes (whole numbers, bools or strings); scores belong in y_score, or, thresholded "
            "(see isometrics.best_threshold), in y_pred"
        )
    return IsometricsError(
        f"{caller}: {name} holds continuous values (e.g. {python_scalar(example)!r}, not a whole number), not class labels. "
        f"{fix}."
    )


class _BytesLabelsError(IsometricsError, TypeError):
    """Labels that are bytes: a ``TypeError``, as scikit-learn raises, and an ``IsometricsError`` (``ValueError``)."""


def _bytes_error(example: Any, *, name: str) -> IsometricsError:
    caller = current_caller()
    return _BytesLabelsError(
        f"{caller}: {name} holds bytes (e.g. {python_scalar(example)!r}); bytes are not labels. Decode them to str "
        "first, e.g. np.char.decode(y, 'utf-8') or [b.decode() for b in y]."
    )


def _check_float_labels(y: np.ndarray, *, name: str) -> None:
    """Float labels must be finite whole numbers (scikit-learn's rule for 'continuous' targets)."""
    caller = current_caller()
    finite = np.isfinite(y)
    if not finite.all():
        first = int(np.flatnonzero(~finite)[0])
        what = "NaN" if np.isnan(y[first]) else "infinite"
        raise IsometricsError(
            f"{caller}: {name} contains {what} labels (first at index {first}); drop those rows or fix the labels."
        )
    whole = (y == np.trunc(y)) & (np.abs(y) < _INT64_LIMIT)
    if not whole.all():
        raise _continuous_error(y[np.flatnonzero(~whole)[0]], name=name)


def _check_object_labels(y: np.ndarray, *, name: str) -> np.ndarray:
    caller = current_caller()
    types = set(map(type, y))
    for t in types:
        if issubclass(t, (bytes, bytearray)):
            raise _bytes_error(next(v for v in y if isinstance(v, t)), name=name)
        if issubclass(t, (list, tuple, set, frozenset, dict, np.ndarray)):
            raise IsometricsError(
                f"{caller}: {name} holds sequences ({t.__name__}s such as "
                f"{next(v for v in y if isinstance(v, t))!r}), one per sample: the legacy multilabel format, "
                "which is not accepted. Pass one label per sample, or for multilabel data a 0/1 indicator "
                "matrix of shape (n_samples, n_classes) (scikit-learn's MultiLabelBinarizer builds one)."
            )
        if t is type(None):
            _raise_missing(np.array([v is None for v in y]), name=name)
        if issubclass(t, (float, np.floating)):
            nan = np.array([isinstance(v, t) and v != v for v in y])
            if nan.any():
                _raise_missing(nan, name=name)
    if all(issubclass(t, (numbers.Number, np.number, np.bool_)) for t in types) and types:
        numeric = np.array(y.tolist())  # numbers stored as objects: take their NumPy type
        if numeric.dtype != object:
            return check_labels(numeric, name=name)
    return y


@takes_caller
def check_labels(y: np.ndarray, *, name: str, caller: str | None = None) -> np.ndarray:
    """Check that a 1-D array holds class labels; return it (object arrays of numbers made numeric).

    Rejects what cannot be a class label, with the reason: continuous floats (values
    that are not whole numbers, scikit-learn's "continuous" target type), NaN or
    infinite floats, complex numbers, bytes, and sequences per sample (the legacy
    multilabel format). Missing values (``None``) are reported as such.
    """
    caller = current_caller(caller)
    kind = y.dtype.kind
    if kind == "f":
        _check_float_labels(y, name=name)
    elif kind == "c":
        raise IsometricsError(
            f"{caller}: {name} holds complex numbers (dtype {y.dtype}); labels are integers, bools or strings."
        )
    elif kind == "S":
        raise _bytes_error(y[0] if y.size else b"", name=name)
    elif kind == "O" and y.size:
        return _check_object_labels(y, name=name)
    return y


def check_pos_label(pos_label: Any, *, caller: str | None = None) -> None:
    """``pos_label`` is one label: not a sequence or an array, and not bytes (see :func:`check_labels`)."""
    caller = current_caller(caller)
    if isinstance(pos_label, (list, tuple, set, frozenset, dict)) or getattr(pos_label, "ndim", 0) > 0:
        raise InvalidParameterError(
            f"{caller}: `pos_label` must be one label (an int, float, bool or str); got {pos_label!r} "
            f"(type {type(pos_label).__name__})."
        )
    if isinstance(pos_label, (bytes, bytearray, np.bytes_)):
        raise InvalidParameterError(
            f"{caller}: `pos_label` is bytes ({pos_label!r}); bytes are not labels. Decode the labels and "
            f"pos_label to str first (pos_label={pos_label.decode(errors='replace')!r})."
        )


def label_set(y: np.ndarray) -> np.ndarray:
    """Sorted distinct labels of ``y`` without a full sort when the labels are small integers or bools."""
    if y.dtype == np.bool_:
        present = [v for v in (False, True) if (y == v).any()]
        return np.array(present, dtype=np.bool_)
    if np.issubdtype(y.dtype, np.integer) and y.size:
        lo, hi = int(y.min()), int(y.max())
        if hi - lo <= 1:  # the extremes are present by definition: no counting pass needed
            return np.array(sorted({lo, hi}), dtype=y.dtype)
        if hi - lo <= 1024:
            counts = np.bincount((y - lo).astype(np.intp, copy=False), minlength=hi - lo + 1)
            return (np.flatnonzero(counts) + lo).astype(y.dtype)
    if np.issubdtype(y.dtype, np.floating):
        if np.isnan(y).any():
            first = int(np.flatnonzero(np.isnan(y))[0])
            raise IsometricsError(
                f"y_true contains NaN labels (first at index {first}); drop those rows or fix the labels."
            )
        zero, one = (y == 0), (y == 1)
        if (zero | one).all():
            return np.array([v for v, m in ((0.0, zero), (1.0, one)) if m.any()])
    if y.dtype == object:
        try:
            return np.unique(y)
        except TypeError as exc:  # mixed types such as 1 and "a"
            kinds = sorted({type(v).__name__ for v in y[:1000]})
            raise IsometricsError(
                f"y_true mixes label types ({', '.join(kinds)}); use one type for all labels."
            ) from exc
    return np.unique(y)


def infer_pos_label(labels: np.ndarray, *, caller: str | None = None) -> Any:
    """Infer the positive class from {0, 1}, {-1, 1} or {False, True}; otherwise ask for it."""
    caller = current_caller(caller)
    values = {python_scalar(v) for v in labels}
    if labels.dtype == np.bool_:
        return True
    if np.issubdtype(labels.dtype, np.number):
        if values <= {0, 1} or values <= {-1, 1}:
            return labels.dtype.type(1).item()
    raise IsometricsError(
        f"{caller}: cannot infer the positive class from the labels {format_labels(labels)}; "
        "pass pos_label= (e.g. pos_label=" + repr(python_scalar(labels[-1])) + ")."
    )


def check_labels_present(labels: np.ndarray, pos_label: Any, *, caller: str | None = None) -> None:
    """Raise if ``pos_label`` is not one of ``labels``."""
    caller = current_caller(caller)
    if labels.size == 0 or not np.any(labels == pos_label):
        raise IsometricsError(
            f"{caller}: pos_label={pos_label!r} is not a label of y_true (labels: {format_labels(labels)}); "
            "pass one of them."
        )


@takes_caller
def check_binary_target(y_true: ArrayLike, *, pos_label: Any, caller: str | None = None) -> tuple[np.ndarray, Any]:
    """Return ``(is_positive, pos_label)`` for binary targets.

    ``is_positive`` is a boolean array of shape (n_samples,). Raises when there are more
    than two classes, when the positive class cannot be inferred, or when ``pos_label``
    is not a label of ``y_true``.
    """
    caller = current_caller(caller)
    check_pos_label(pos_label)
    y = check_labels(as_1d(y_true, name="y_true"), name="y_true")
    if y.size == 0:
        raise IsometricsError(
            f"{caller}: the input is empty (0 samples in y_true); pass at least one sample of each class."
        )
    labels = label_set(y)
    if len(labels) > 2:
        raise IsometricsError(
            f"{caller}: y_true has {len(labels)} classes {format_labels(labels)}, but this is a binary "
            "evaluation; binarise y_true (one class against the rest) before calling it."
        )
    if pos_label is None:
        pos_label = infer_pos_label(labels)
    elif len(labels) == 2 or not is_standard_encoding(labels, pos_label):
        check_labels_present(labels, pos_label)
    is_pos = y == pos_label if y.dtype != np.bool_ or pos_label is not True else y
    return np.asarray(is_pos, dtype=np.bool_), pos_label


def check_both_classes(
    is_pos: np.ndarray, weights: FloatArray | None, *, pos_label: Any, caller: str | None = None, needs: str
) -> None:
    """Raise unless each class has a sample of positive weight; ``needs`` ends the message (why both).

    Decided per sample, not from sums of weights: a sum rounds (1e20 + 1 == 1e20, so
    "positives == total" would see no negatives) and can overflow to infinity.
    """
    caller = current_caller(caller)
    for positive in (True, False):
        members = is_pos if positive else ~is_pos
        if not (members.any() if weights is None else (weights[members] > 0).any()):
            raise IsometricsError(
                f"{caller}: y_true has one class (no {'positive' if positive else 'negative'} samples with positive "
                f"weight, pos_label={pos_label!r}); {needs}"
            )


def is_standard_encoding(labels: np.ndarray, pos_label: Any) -> bool:
    """Say whether labels and a positive label lie in one standard binary encoding.

    A one-class ``y_true`` may name the absent class as positive only in the standard
    encodings {0, 1}, {-1, 1} and {False, True}, where the other class is known.

    Parameters
    ----------
    labels : ndarray
        The distinct labels present.
    pos_label : Any
        The positive label asked for.

    Returns
    -------
    bool
        Whether ``labels`` and ``pos_label`` together lie within {0, 1}, {-1, 1} or
        {False, True}.
    """
    values = {python_scalar(v) for v in labels} | {pos_label}
    return values <= {0, 1} or values <= {-1, 1} or values <= {False, True}


@takes_caller
def as_target(values: ArrayLike, *, name: str, caller: str | None = None) -> np.ndarray:
    """Labels of shape (n_samples,), or a multilabel indicator matrix of shape (n_samples, n_labels).

    A 2-D input with more than one column is a multilabel indicator matrix (scikit-learn's
    "multilabel-indicator" target): its values must be 0 and 1 (bools, integers or whole
    floats); it is returned as a bool array. SciPy sparse matrices are densified. A column
    vector (n, 1) is raveled; anything else is returned as :func:`as_1d` returns it, for the
    caller to check with :func:`check_labels` once the lengths are checked.
    """
    caller = current_caller(caller)
    if hasattr(values, "toarray") and hasattr(values, "nnz"):  # a SciPy sparse matrix or array
        values = values.toarray()
    arr = as_array(values, name=name)
    if arr.ndim != 2 or arr.shape[1] == 1:
        return as_1d(arr, name=name)
    if arr.dtype == np.bool_:
        return arr
    numeric = (
        arr.dtype.kind in "biuf"
        or arr.dtype == object
        and all(isinstance(v, (numbers.Real, np.bool_)) for v in arr.ravel()[:1000])
    )
    values01 = numeric and bool(np.isin(arr, (0, 1)).all())
    if not values01:
        example = next((v for v in arr.ravel() if not (numeric and v in (0, 1))), None)
        raise IsometricsError(
            f"{caller}: {name} has shape {arr.shape}, a matrix, but holds {python_scalar(example)!r}: a 2-D target must be a "
            "multilabel indicator matrix of 0 and 1 (one column per label; scikit-learn's MultiLabelBinarizer "
            "builds one). Multiclass-multioutput targets are not supported; evaluate each output column "
            "separately."
        )
    return arr.astype(np.bool_)
