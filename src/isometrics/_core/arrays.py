"""Checks of array inputs: conversion of array-likes and data-frame columns (through
``frames``; nulls raise), shapes and lengths, real and unit-interval arrays, scores and
sample weights.

Messages follow the template *what, where, value, fix*.
"""

from __future__ import annotations

import datetime
import numbers
from typing import Any

import numpy as np

from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError, IsometricsError
from .caller import current_caller, takes_caller
from .frames import column_to_numpy, frame_to_numpy

__all__ = [
    "as_array",
    "as_1d",
    "check_real_array",
    "check_unit_interval",
    "check_broadcast",
    "check_consistent_length",
    "check_scores",
    "check_sample_weight",
    "as_sample_weight",
    "whole_total",
]


def python_scalar(value: Any) -> Any:
    """Turn a NumPy scalar into the Python scalar it holds, for readable messages and JSON.

    Parameters
    ----------
    value : Any
        A NumPy scalar (``np.int64(3)``, ``np.str_("a")``) or anything else.

    Returns
    -------
    Any
        ``value.item()`` for a NumPy scalar (``3``, ``'a'``); any other value unchanged.
    """
    return value.item() if isinstance(value, np.generic) else value


def whole_total(total: float, weights: FloatArray | None) -> float | int:
    """A weighted count as an ``int`` when every weight is a whole number (or there are none), else as given.

    Such a count is an exact integer in float64 up to ``2**53``; reported as an ``int``
    it prints as one (``590``, not ``590.0``). The value is unchanged.
    """
    whole = weights is None or bool(np.all(weights == np.trunc(weights)))
    return int(total) if whole and abs(total) <= 2.0**53 else total


#: The shape most array arguments have, as messages write it.
_PER_SAMPLE = "(n_samples,)"


@takes_caller
def as_array(values: ArrayLike, *, name: str, caller: str | None = None, shape: str | None = _PER_SAMPLE) -> np.ndarray:
    """Convert any array-like (lists, NumPy, pandas, polars, pyarrow) to a NumPy array of any shape.

    Raises with the function and parameter named for ``None``, nulls in a column of a
    data-frame library (count and first index) and ragged nested sequences. ``shape``
    is the expected shape as the fix in a message writes it, e.g. ``"(n_classes,)"``
    (``None``: any shape).
    """
    caller = current_caller(caller)
    if values is None:
        raise IsometricsError(
            f"{caller}: `{name}` is None; pass an array-like" + (f" of shape {shape}." if shape else ".")
        )
    if not isinstance(values, np.ndarray):  # columns and frames of data-frame libraries
        values = frame_to_numpy(column_to_numpy(values, name=name), name=name)
    try:
        return np.asarray(values)
    except ValueError as exc:  # ragged nested sequences: NumPy's "inhomogeneous shape"
        fix = (
            "a flat sequence of shape (n_samples,), one value per sample"
            if shape == _PER_SAMPLE
            else f"an array of shape {shape}"
            if shape
            else "a number, or an array whose nested sequences all have the same length"
        )
        raise IsometricsError(
            f"{caller}: `{name}` is a ragged nested sequence (its elements have different lengths), not an "
            f"array; pass {fix}."
        ) from exc


@takes_caller
def as_1d(values: ArrayLike, *, name: str, caller: str | None = None, shape: str = _PER_SAMPLE) -> np.ndarray:
    """Convert to a 1-D array without copying when possible; reject other shapes (see :func:`as_array`).

    A column vector, shape (n, 1), is raveled, as scikit-learn's ``column_or_1d`` does.
    """
    caller = current_caller(caller)
    arr = as_array(values, name=name, shape=shape)
    if arr.ndim == 2 and arr.shape[1] == 1:
        return arr.ravel()
    if arr.ndim == 2 and arr.shape[0] == 1 and arr.size > 1:
        raise IsometricsError(
            f"{caller}: `{name}` has shape {arr.shape}, a row; pass a 1-D array of shape {shape} "
            "(use .ravel() if this row vector is what you meant)."
        )
    if arr.ndim != 1:
        raise IsometricsError(f"{caller}: `{name}` must be 1-D of shape {shape}; got an array of shape {arr.shape}.")
    return arr


@takes_caller
def check_real_array(values: Any, name: str, *, caller: str | None = None, shape: str | None = None) -> FloatArray:
    """Return a real number or an array-like of them (any shape) as a float64 array.

    For parameters and values that broadcast (precision, recall, ``beta``...): rejects
    ``None``, strings, complex numbers, ragged sequences and other non-numbers, naming
    the parameter. Range and shape checks are the caller's; ``shape`` is the expected
    shape as the fix in a message writes it (``None``: a number or any shape).
    """
    caller = current_caller(caller)
    wanted = "a real number or an array of real numbers" if shape is None else f"an array of shape {shape}"
    if values is None:
        raise InvalidParameterError(f"{caller}: `{name}` is None; pass {wanted}.")
    arr = as_array(values, name=name, shape=shape)
    if arr.dtype == object:
        bad = [v for v in arr.flat if not isinstance(v, (numbers.Real, np.bool_))]
        if not bad:
            arr = arr.astype(np.float64)
    else:
        bad = list(arr.flat[:1])
    if arr.dtype.kind not in "biuf":
        example = python_scalar(bad[0]) if bad else None
        what = f"{example!r} (type {type(example).__name__})" if bad else f"an empty array of {arr.dtype}"
        raise InvalidParameterError(
            f"{caller}: `{name}` must be a real number or an array of real numbers; got {what}; "
            + ("convert strings with float() first." if isinstance(example, str) else "pass real numbers.")
        )
    return np.asarray(arr, dtype=np.float64)


@takes_caller
def check_unit_interval(
    values: Any, name: str, *, caller: str | None = None, low_open: bool = False, hint: str = ""
) -> FloatArray:
    """:func:`check_real_array`, then every value in [0, 1] (in (0, 1] with ``low_open``); NaN is outside.

    For rates, fractions and probabilities given as a number or an array. The message
    counts the values outside and shows the first; ``hint`` is appended to it.
    """
    caller = current_caller(caller)
    arr = check_real_array(values, name)
    bad = ~(((arr > 0) if low_open else (arr >= 0)) & (arr <= 1))
    if bad.any():
        idx = np.flatnonzero(bad.ravel())
        raise InvalidParameterError(
            f"{caller}: `{name}` must lie in {'(0, 1]' if low_open else '[0, 1]'}; found {len(idx)} value(s) outside "
            f"it (first: {python_scalar(arr.ravel()[idx[0]])!r}).{hint}"
        )
    return arr


def check_broadcast(caller: str | None = None, **arrays: np.ndarray) -> tuple[int, ...]:
    """Return the broadcast shape of the named arrays, or raise naming them and their shapes."""
    caller = current_caller(caller)
    try:
        return np.broadcast_shapes(*(a.shape for a in arrays.values()))
    except ValueError as exc:
        detail = ", ".join(f"`{n}` has shape {a.shape}" for n, a in arrays.items())
        raise InvalidParameterError(
            f"{caller}: the array arguments do not broadcast together ({detail}); pass scalars or arrays of "
            "compatible shapes (e.g. equal shapes)."
        ) from exc


def check_consistent_length(caller: str | None = None, **arrays: np.ndarray | None) -> int:
    """Return the common length of the given arrays or raise naming the mismatch."""
    caller = current_caller(caller)
    lengths = {name: len(a) for name, a in arrays.items() if a is not None}
    if len(set(lengths.values())) > 1:
        detail = ", ".join(f"{name} has {n}" for name, n in lengths.items())
        raise IsometricsError(
            f"{caller}: inputs have different numbers of samples ({detail}); pass arrays of one length."
        )
    n = next(iter(lengths.values()))
    if n == 0:
        raise IsometricsError(
            f"{caller}: the input is empty (0 samples in {', '.join(lengths)}); pass at least one sample of each class."
        )
    return n


def _report_nonfinite(arr: np.ndarray, *, name: str, fix: str) -> None:
    caller = current_caller()
    finite = np.isfinite(arr)
    if finite.all():
        return
    nan = np.isnan(arr)
    n_nan = int(nan.sum())
    n_inf = int((~finite).sum()) - n_nan
    first = int(np.flatnonzero(~finite)[0])
    parts = []
    if n_nan:
        parts.append(f"{n_nan} NaN value{'s' if n_nan != 1 else ''}")
    if n_inf:
        parts.append(f"{n_inf} infinite value{'s' if n_inf != 1 else ''}")
    raise IsometricsError(f"{caller}: {name} contains {' and '.join(parts)} (first at index {first}); {fix}.")


@takes_caller
def check_scores(y_score: ArrayLike, *, caller: str | None = None, name: str = "y_score") -> FloatArray:
    """Return ``y_score`` as a 1-D float64 array; reject non-numeric, NaN and infinite scores.

    Scores are compared as float64. Integers are accepted when float64 holds them
    exactly (every integer up to ``2**53`` in magnitude, and larger ones that are
    multiples of a high enough power of two); otherwise casting would merge or reorder
    distinct scores, so they are rejected. Long doubles are accepted unless rounding
    them to float64 merges distinct scores. Timestamps and durations (``datetime64``,
    ``timedelta64``, ``datetime`` objects) are rejected: a threshold needs a number in
    a unit the caller chose.
    """
    caller = current_caller(caller)
    arr = as_1d(y_score, name=name)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.float64)
    if arr.dtype == object:
        objects = arr
        if arr.size and isinstance(arr[0], (datetime.date, datetime.timedelta)):
            _reject_time(arr.dtype, arr[0], name=name)
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            pass
        else:
            _check_exact_objects(objects, arr, name=name)
    if arr.dtype.kind in "mM":
        _reject_time(arr.dtype, arr[0] if arr.size else None, name=name)
    if not np.issubdtype(arr.dtype, np.number) or np.issubdtype(arr.dtype, np.complexfloating):
        example = f" (e.g. {python_scalar(arr[0])!r})" if arr.size else ""
        raise IsometricsError(
            f"{caller}: {name} must be numeric scores; got values of type {arr.dtype}{example}; "
            "convert them to numbers, or check that you passed the score column, not a label column."
        )
    if arr.dtype.kind in "iu" and arr.dtype.itemsize > 4:
        _check_exact_integers(arr, name=name)
    if arr.dtype.kind == "f" and arr.dtype.itemsize > 8:  # long double: rounding may merge distinct scores
        ordered = np.sort(arr[np.isfinite(arr)])
        with np.errstate(over="ignore"):
            rounded = ordered.astype(np.float64)
        merged = np.flatnonzero((ordered[1:] != ordered[:-1]) & (rounded[1:] == rounded[:-1]))
        if len(merged):
            a, b = ordered[merged[0]], ordered[merged[0] + 1]
            raise IsometricsError(
                f"{caller}: {name} holds {arr.dtype} scores that differ but round to the same float64 "
                f"(e.g. {str(a)} and {str(b)}), so their order would be lost; rescale them (e.g. subtract a reference "
                "value) or rank them first (scipy.stats.rankdata)."
            )
    arr = np.asarray(arr, dtype=np.float64)
    _report_nonfinite(arr, name=name, fix="drop or impute them before evaluating")
    return arr


#: Every integer of magnitude up to this is exact in float64.
_EXACT_INTEGERS = 2**53


def _inexact_integer_error(value: Any, index: int, count: int, *, name: str) -> IsometricsError:
    caller = current_caller()
    return IsometricsError(
        f"{caller}: {name} holds {count} integer{'s' if count != 1 else ''} that float64 cannot represent "
        f"exactly (first at index {index}: {value!r}; magnitudes beyond 2**53 need not be), so scores would "
        "merge or lose their order; subtract a reference value first (e.g. scores - scores.min()), rank them "
        "(scipy.stats.rankdata), or convert them to float yourself if rounding is acceptable."
    )


def _check_exact_integers(arr: np.ndarray, *, name: str) -> None:
    """Raise if a 64-bit integer array holds values that do not survive the cast to float64."""
    if not arr.size or (int(arr.min()) >= -_EXACT_INTEGERS and int(arr.max()) <= _EXACT_INTEGERS):
        return
    if arr.dtype.kind == "u":
        beyond = np.flatnonzero(arr > np.uint64(_EXACT_INTEGERS))
    else:
        beyond = np.flatnonzero((arr > _EXACT_INTEGERS) | (arr < -_EXACT_INTEGERS))
    if not len(beyond):
        return
    values = arr[beyond]
    cast = values.astype(np.float64)
    # The float nearest an int64 (uint64) can be 2**63 (2**64), one past the range: inexact.
    limit = 2.0**64 if arr.dtype.kind == "u" else 2.0**63
    inside = cast < limit
    exact = np.zeros(len(values), dtype=bool)
    exact[inside] = cast[inside].astype(arr.dtype) == values[inside]
    if exact.all():
        return
    first = int(np.flatnonzero(~exact)[0])
    raise _inexact_integer_error(python_scalar(values[first]), int(beyond[first]), int((~exact).sum()), name=name)


def _check_exact_objects(objects: np.ndarray, cast: np.ndarray, *, name: str) -> None:
    """Raise if Python integers in an object array changed value when cast to float64."""
    candidates = np.flatnonzero(np.abs(cast) >= _EXACT_INTEGERS)  # 2**53 + 1 casts to 2**53
    bad = [
        int(i)
        for i in candidates
        if isinstance(objects[i], (numbers.Integral, np.integer)) and int(objects[i]) != float(cast[i])
    ]
    if bad:
        raise _inexact_integer_error(python_scalar(objects[bad[0]]), bad[0], len(bad), name=name)


def _reject_time(dtype: np.dtype, example: Any, *, name: str) -> None:
    caller = current_caller()
    shown = f" (e.g. {str(example)!r})" if example is not None else ""
    raise IsometricsError(
        f"{caller}: {name} holds timestamps or durations of type {dtype}{shown}, which are not scores; "
        f"convert them to numbers in a unit you choose, e.g. (t - t.min()) / np.timedelta64(1, 's') "
        "for seconds since the earliest."
    )


@takes_caller
def as_sample_weight(sample_weight: ArrayLike | None, *, caller: str | None = None) -> np.ndarray | None:
    """The weights as a 1-D array (``None`` stays ``None``): the one shape check of ``sample_weight``.

    Weights must be 1-D, as scikit-learn's ``_check_sample_weight`` requires: a column
    vector of shape (n, 1) is refused here (not raveled as labels and scores are), with
    ``.ravel()`` as the fix, so every function taking ``sample_weight`` answers alike.
    """
    caller = current_caller(caller)
    if sample_weight is None:
        return None
    arr = as_array(sample_weight, name="sample_weight")
    if arr.ndim != 1:
        fix = (
            "pass sample_weight.ravel() (weights are one number per sample, as in scikit-learn)"
            if arr.ndim == 2 and 1 in arr.shape
            else "pass one number per sample"
        )
        raise IsometricsError(
            f"{caller}: `sample_weight` must be 1-D of shape {_PER_SAMPLE}, got an array of shape {arr.shape}; {fix}."
        )
    return arr


@takes_caller
def check_sample_weight(
    sample_weight: ArrayLike | None, n_samples: int, *, caller: str | None = None
) -> FloatArray | None:
    """Return weights as float64 (or ``None``); reject bad shape or length, non-real, negative, non-finite or
    all-zero weights."""
    caller = current_caller(caller)
    arr = as_sample_weight(sample_weight)
    if arr is None:
        return None
    if arr.dtype == object:
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            pass
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise IsometricsError(
            f"{caller}: sample_weight holds complex numbers (dtype {arr.dtype}); weights are real numbers >= 0: "
            "pass the real part (or the modulus) if that is what you meant."
        )
    if not np.issubdtype(arr.dtype, np.number) and arr.dtype != np.bool_:
        example = f" (e.g. {python_scalar(arr[0])!r})" if arr.size else ""
        raise IsometricsError(
            f"{caller}: sample_weight must be numeric; got values of type {arr.dtype}{example}; "
            "pass one real number >= 0 per sample."
        )
    arr = np.asarray(arr, dtype=np.float64)
    if len(arr) != n_samples:
        raise IsometricsError(
            f"{caller}: sample_weight has {len(arr)} entries but there are {n_samples} samples; "
            "pass one weight per sample."
        )
    _report_nonfinite(arr, name="sample_weight", fix="weights must be finite numbers >= 0")
    negative = arr < 0
    if negative.any():
        first = int(np.flatnonzero(negative)[0])
        raise IsometricsError(
            f"{caller}: sample_weight contains {int(negative.sum())} negative values "
            f"(first at index {first}: {arr[first]!r}); weights must be >= 0."
        )
    if not (arr > 0).any():
        raise IsometricsError(f"{caller}: every sample_weight is 0; at least one sample must have positive weight.")
    return arr
