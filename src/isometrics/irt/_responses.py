"""Reading the responses of :func:`~isometrics.irt.model.fit_beta3`: a wide matrix or frame, or long form.

Private helpers of the public boundary: they return a float matrix (NaN = missing) and the
row and column names found in the input; validation of the values is the caller's.
"""

from __future__ import annotations

import numbers
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


def _is_real(value: Any) -> bool:
    """A real number, not a boolean: what a response cell may hold (NaN = missing)."""
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _where(index: tuple[int, ...], rows: list[str] | None, cols: list[str] | None) -> str:
    """A cell named as the caller knows it: a frame's column and row, or an array's indices."""
    if cols is not None and len(index) == 2:
        row = rows[index[0]] if rows is not None else index[0]
        return f"column {cols[index[1]]!r} (row {row!r})"
    return f"cell {list(index)}"


def _check_cells(values: np.ndarray, rows: list[str] | None, cols: list[str] | None, caller: str) -> None:
    """Refuse what NumPy would turn into numbers by itself: booleans, complex numbers, strings, None."""
    fix = "responses must be real numbers in [0, 1], NaN for a missing cell"
    kind = values.dtype.kind
    if kind in "iuf":
        return
    if kind == "b":
        where = _where((0,) * values.ndim, rows, cols) if cols is None else f"column {cols[0]!r}"
        raise TypeError(f"{caller}: `responses` holds booleans (first at {where}); {fix}.")
    if kind == "c":
        bad = np.argwhere(np.imag(values) != 0)
        first = tuple(int(v) for v in bad[0]) if len(bad) else (0,) * values.ndim
        raise TypeError(f"{caller}: `responses` holds complex numbers (first at {_where(first, rows, cols)}: "
                        f"{values[first].item()!r}); {fix}: pass the real part if that is what is meant.")
    for index, value in np.ndenumerate(values):
        if not _is_real(value):
            shown = value.item() if isinstance(value, np.generic) else value
            what = "None" if value is None else f"{shown!r} (a {type(shown).__name__})"
            raise TypeError(f"{caller}: `responses` {_where(index, rows, cols)} holds {what}; {fix}.")


def _wide(responses: Any, caller: str) -> tuple[np.ndarray, list[str] | None, list[str] | None]:
    """The responses as a float matrix, with row and column names from a data frame."""
    rows: list[str] | None = None
    cols: list[str] | None = None
    if hasattr(responses, "columns") and hasattr(responses, "to_numpy"):
        cols = [str(c) for c in responses.columns]
        index = getattr(responses, "index", None)
        if index is not None and type(index).__name__ != "RangeIndex":
            rows = [str(v) for v in index]
        found = getattr(responses, "dtypes", None)  # pandas: numpy-like dtypes with a kind; polars: none
        dtypes: list[Any] = [] if found is None else list(found)
        kinds = [getattr(d, "kind", None) for d in dtypes]
        for k, (name, kind) in enumerate(zip(cols, kinds)):
            if kind is not None and kind not in "iufO":  # object columns are checked cell by cell below
                raise TypeError(f"{caller}: `responses` column {name!r} holds {dtypes[k]} values; every "
                                "column must hold real numbers in [0, 1] (NaN for a missing cell): convert or drop "
                                "that column.")
        if kinds and all(k is not None and k in "iuf" for k in kinds):  # pandas numbers; pd.NA -> NaN
            responses = responses.to_numpy(dtype=float, na_value=np.nan)
        else:
            responses = responses.to_numpy()
    try:
        raw = np.asarray(responses)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{caller}: `responses` must be a 2-D array of real numbers or a data frame; "
                        f"got a {type(responses).__name__} that does not convert to one.") from exc
    if not isinstance(responses, np.ndarray) and raw.ndim == 2:
        raw = np.asarray(responses, dtype=object)  # nested lists: a True or '0.6' among floats is seen as given
    if raw.ndim == 2:
        _check_cells(raw, rows, cols, caller)
    try:
        x = np.array(raw, dtype=float, order="C")
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
    for k, x in enumerate(value):
        if not (x is None or _is_real(x)):  # None: a missing response, as a data frame's null
            raise TypeError(f"{caller}: the response column {long_form[2]!r} holds {x!r} (a {type(x).__name__}) at "
                            f"row {k}; responses must be real numbers in [0, 1] (NaN or None for a missing cell).")
    v = np.array([np.nan if x is None else x for x in value], dtype=float)
    x = np.full((len(rows), len(cols)), np.nan)
    x[r, c] = v
    return x, rows, cols
