"""Reading the responses of :func:`~isometrics.irt.model.fit_beta3`: a wide matrix or frame, or long form.

Private helpers of the public boundary: they return a float matrix (NaN = missing) and the
row and column names found in the input; validation of the values is the caller's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..exceptions import IsometricsError


def check_names(given: Any, default: Sequence[str] | None, n: int, what: str, caller: str) -> tuple[str, ...]:
    if given is None:
        names = tuple(default) if default is not None else tuple(str(k) for k in range(n))
    else:
        names = tuple(str(v) for v in given)
    if len(names) != n:
        raise IsometricsError(f"{caller}: `{what}` has {len(names)} names for {n} {what}; give one per "
                              f"{'row' if what == 'respondents' else 'column'}.")
    if len(set(names)) != n:
        raise IsometricsError(f"{caller}: `{what}` names must be unique; got duplicates.")
    return names


def _wide(responses: Any, caller: str) -> tuple[np.ndarray, list[str] | None, list[str] | None]:
    """The responses as a float matrix, with row and column names from a data frame."""
    rows: list[str] | None = None
    cols: list[str] | None = None
    if hasattr(responses, "columns") and hasattr(responses, "to_numpy"):
        cols = [str(c) for c in responses.columns]
        index = getattr(responses, "index", None)
        if index is not None and type(index).__name__ != "RangeIndex":
            rows = [str(v) for v in index]
        responses = responses.to_numpy()
    try:
        x = np.array(responses, dtype=float, order="C")
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{caller}: `responses` must be a 2-D array of real numbers or a data frame; "
                        f"got a {type(responses).__name__} that does not convert to one.") from exc
    if x.ndim != 2:
        raise IsometricsError(f"{caller}: `responses` must be 2-D (n_respondents, n_items); got shape {x.shape}.")
    return x, rows, cols


def _column(frame: Any, name: str, caller: str) -> np.ndarray:
    try:
        column = frame[name]
    except (KeyError, TypeError, IndexError, ValueError):
        column = None
    if column is None or isinstance(frame, np.ndarray):
        raise IsometricsError(f"{caller}: long-form `responses` has no column {name!r}; `long_form` names the "
                              "respondent, item and response columns.")
    values = column.to_numpy() if hasattr(column, "to_numpy") else column
    return np.asarray(values, dtype=object)


def as_matrix(responses: Any, long_form: Any, caller: str) -> tuple[np.ndarray, list[str] | None, list[str] | None]:
    """The responses as a float matrix (respondents x items) with the row and column names found."""
    if long_form is None:
        return _wide(responses, caller)
    if isinstance(long_form, str) or len(long_form) != 3:
        raise IsometricsError(f"{caller}: `long_form` must name 3 columns (respondent, item, response); got "
                              f"{long_form!r}.")
    who, what, value = (_column(responses, str(c), caller) for c in long_form)
    rows = list(dict.fromkeys(str(v) for v in who))
    cols = list(dict.fromkeys(str(v) for v in what))
    r_index = {n: k for k, n in enumerate(rows)}
    c_index = {n: k for k, n in enumerate(cols)}
    r = np.array([r_index[str(v)] for v in who], dtype=np.int64)
    c = np.array([c_index[str(v)] for v in what], dtype=np.int64)
    flat = r * len(cols) + c
    uniq, counts = np.unique(flat, return_counts=True)
    if np.any(counts > 1):
        k = int(uniq[np.argmax(counts > 1)])
        raise IsometricsError(f"{caller}: long-form `responses` gives respondent {rows[k // len(cols)]!r}, item "
                              f"{cols[k % len(cols)]!r} more than once; keep one row per pair.")
    try:
        v = np.array([np.nan if x is None else x for x in value], dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{caller}: the response column {long_form[2]!r} must hold real numbers.") from None
    x = np.full((len(rows), len(cols)), np.nan)
    x[r, c] = v
    return x, rows, cols
