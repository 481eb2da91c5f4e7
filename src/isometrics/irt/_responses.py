"""Reading the responses of :func:`~isometrics.irt.model.fit_beta3`: a wide matrix or frame, or long form.

Private helpers of the public boundary: they return a float matrix (NaN = missing) and the
row and column names found in the input; validation of the values is the caller's.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping, Sequence, Set
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.validation import check_integer, check_option, check_real
from ..exceptions import InvalidParameterError, IsometricsError


def check_names(given: Any, default: Sequence[str] | None, n: int, what: str) -> tuple[str, ...]:
    if given is None:
        names = tuple(default) if default is not None else tuple(str(k) for k in range(n))
    else:
        names = tuple(str(v) for v in given)
    if len(names) != n:
        raise IsometricsError(
            f"{current_caller()}: `{what}` has {len(names)} names for {n} {what}; give one per "
            f"{'row' if what == 'respondents' else 'column'}."
        )
    if len(set(names)) != n:
        raise IsometricsError(f"{current_caller()}: `{what}` names must be unique; got duplicates.")
    return names


def is_real(value: Any) -> bool:
    """A real number, not a boolean: what a response cell may hold (NaN = missing)."""
    return isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_))


def _is_null(value: Any) -> bool:
    """A data frame's null (``pandas.NA``): a missing cell, as NaN."""
    return type(value).__name__ == "NAType"


def _where(index: tuple[int, ...], rows: list[str] | None, cols: list[str] | None) -> str:
    """A cell named as the caller knows it: a frame's column and row, or an array's indices."""
    if cols is not None and len(index) == 2:
        row = rows[index[0]] if rows is not None else index[0]
        return f"column {cols[index[1]]!r} (row {row!r})"
    return f"cell {list(index)}"


def _check_cells(values: np.ndarray, rows: list[str] | None, cols: list[str] | None) -> None:
    """Refuse what NumPy would turn into numbers by itself: booleans, complex numbers, strings, None."""
    fix = "responses must be real numbers in [0, 1], NaN for a missing cell"
    kind = values.dtype.kind
    if kind in "iuf":
        return
    if kind == "b":
        where = _where((0,) * values.ndim, rows, cols) if cols is None else f"column {cols[0]!r}"
        raise InvalidParameterError(f"{current_caller()}: `responses` holds booleans (first at {where}); {fix}.")
    if kind == "c":
        bad = np.argwhere(np.imag(values) != 0)
        first = tuple(int(v) for v in bad[0]) if len(bad) else (0,) * values.ndim
        raise InvalidParameterError(
            f"{current_caller()}: `responses` holds complex numbers (first at {_where(first, rows, cols)}: "
            f"{values[first].item()!r}); {fix}: pass the real part if that is what is meant."
        )
    for index, value in np.ndenumerate(values):
        if not (is_real(value) or _is_null(value)):
            shown = value.item() if isinstance(value, np.generic) else value
            what = "None" if value is None else f"{shown!r} (a {type(shown).__name__})"
            raise InvalidParameterError(
                f"{current_caller()}: `responses` {_where(index, rows, cols)} holds {what}; {fix}."
            )


def _ragged(responses: Any) -> str:
    """``row 0 has 2 cells, row 1 has 1`` when ``responses`` is a ragged sequence of rows, else ``""``."""
    try:
        lengths = [len(row) for row in responses]
    except TypeError:
        return ""
    first = next((k for k, n in enumerate(lengths) if n != lengths[0]), None)
    return "" if first is None else f"row 0 has {lengths[0]} cells, row {first} has {lengths[first]}"


def _wide(responses: Any) -> tuple[np.ndarray, list[str] | None, list[str] | None]:
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
                raise InvalidParameterError(
                    f"{current_caller()}: `responses` column {name!r} holds {dtypes[k]} values; every "
                    "column must hold real numbers in [0, 1] (NaN for a missing cell): convert or drop "
                    "that column."
                )
        if kinds and all(k is not None and k in "iuf" for k in kinds):  # pandas numbers; pd.NA -> NaN
            responses = responses.to_numpy(dtype=float, na_value=np.nan)
        else:
            responses = responses.to_numpy()
    if isinstance(responses, (str, bytes, Mapping, Set)) or responses is None:
        raise InvalidParameterError(
            f"{current_caller()}: `responses` must be a 2-D array of real numbers or a data frame; "
            f"got a {type(responses).__name__}; pass a matrix (respondents x items), a data "
            "frame, or long-form rows with `long_form`."
        )
    try:
        raw = np.asarray(responses)
    except (TypeError, ValueError) as exc:
        ragged = _ragged(responses)
        what = (
            f"rows have different lengths ({ragged})"
            if ragged
            else f"must be a 2-D array of real numbers or a data frame; got a {type(responses).__name__} that does "
            "not convert to one"
        )
        raise InvalidParameterError(
            f"{current_caller()}: `responses` {what}; give every respondent one cell per item, NaN where missing."
        ) from exc
    if not isinstance(responses, np.ndarray) and raw.ndim == 2:
        raw = np.asarray(responses, dtype=object)  # nested lists: a True or '0.6' among floats is seen as given
    if raw.ndim == 2:
        _check_cells(raw, rows, cols)
        if raw.dtype == object:  # pandas nulls (checked above): missing cells
            raw = np.array([[np.nan if _is_null(v) else v for v in row] for row in raw], dtype=float)
    try:
        x = np.array(raw, dtype=float, order="C")
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(
            f"{current_caller()}: `responses` must be a 2-D array of real numbers or a data frame; "
            f"got a {type(responses).__name__} that does not convert to one."
        ) from exc
    if x.ndim != 2:
        raise IsometricsError(
            f"{current_caller()}: `responses` must be 2-D (n_respondents, n_items); got shape {x.shape}."
        )
    return x, rows, cols


def _column(frame: Any, name: str) -> np.ndarray:
    try:
        column = frame[name]
    except (KeyError, TypeError, IndexError, ValueError):
        column = None
    if column is None or isinstance(frame, np.ndarray):
        raise IsometricsError(
            f"{current_caller()}: long-form `responses` has no column {name!r}; `long_form` names the "
            "respondent, item and response columns."
        )
    values = column.to_numpy() if hasattr(column, "to_numpy") else column
    return np.asarray(values, dtype=object)


def as_matrix(responses: Any, long_form: Any) -> tuple[np.ndarray, list[str] | None, list[str] | None]:
    """The responses as a float matrix (respondents x items) with the row and column names found."""
    if long_form is None:
        return _wide(responses)
    if isinstance(long_form, str) or len(long_form) != 3:
        raise IsometricsError(
            f"{current_caller()}: `long_form` must name 3 columns (respondent, item, response); got {long_form!r}."
        )
    who, what, value = (_column(responses, str(c)) for c in long_form)
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
        raise IsometricsError(
            f"{current_caller()}: long-form `responses` gives respondent {rows[k // len(cols)]!r}, item "
            f"{cols[k % len(cols)]!r} more than once; keep one row per pair."
        )
    for k, x in enumerate(value):
        if not (x is None or _is_null(x) or is_real(x)):  # None, pandas.NA: a missing response, a frame's null
            raise InvalidParameterError(
                f"{current_caller()}: the response column {long_form[2]!r} holds {x!r} (a {type(x).__name__}) at "
                f"row {k}; responses must be real numbers in [0, 1] (NaN or None for a missing cell)."
            )
    v = np.array([np.nan if x is None or _is_null(x) else x for x in value], dtype=float)
    x = np.full((len(rows), len(cols)), np.nan)
    x[r, c] = v
    return x, rows, cols


def validate_responses(
    responses: Any, respondents: Any, items: Any, eps: Any, max_iter: Any, missing: Any, long_form: Any
) -> tuple[np.ndarray, tuple[str, ...], tuple[str, ...], Any, int]:
    """The responses as a float matrix, the names, ``eps`` (None or a float) and ``max_iter``, validated."""
    x, rows, cols = as_matrix(responses, long_form)
    n, m = x.shape
    if n < 2 or m < 2:
        raise IsometricsError(
            f"{current_caller()}: `responses` needs at least 2 respondents and 2 items; got shape {x.shape}."
        )
    names_r = check_names(respondents, rows, n, "respondents")
    names_i = check_names(items, cols, m, "items")
    if eps is not None:
        eps = check_real(eps, "eps", low=0.0, high=0.5, low_inclusive=False, high_inclusive=False)
    max_iter = check_integer(max_iter, "max_iter", low=1)
    check_option(missing, "missing", ("allow", "raise"))
    nan = np.isnan(x)
    if np.isinf(x).any():
        i, j = np.argwhere(np.isinf(x))[0]
        raise IsometricsError(
            f"{current_caller()}: `responses` must be finite; respondent {names_r[i]!r}, item {names_i[j]!r} is {x[i, j]}."
        )
    if nan.any() and missing == "raise":
        i, j = np.argwhere(nan)[0]
        raise IsometricsError(
            f"{current_caller()}: `responses` has {int(nan.sum())} missing cell(s) (NaN), first at "
            f"respondent {names_r[i]!r}, item {names_i[j]!r}; pass missing='allow' to skip them."
        )
    bad = ~nan & ((x < 0.0) | (x > 1.0))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise IsometricsError(
            f"{current_caller()}: responses must lie in [0, 1]; respondent {names_r[i]!r}, item "
            f"{names_i[j]!r} is {x[i, j]}; rescale the measure to [0, 1] first."
        )
    for axis, names, what in ((1, names_r, "respondent"), (0, names_i, "item")):
        empty = np.flatnonzero(nan.all(axis=axis))
        if empty.size:
            raise IsometricsError(
                f"{current_caller()}: {what} {names[empty[0]]!r} has no observed response (the whole "
                f"{'row' if axis == 1 else 'column'} is missing); drop it."
            )
    return x, names_r, names_i, eps, max_iter


#: Cells evaluated at once, at least (blocks of 2**14 cells keep the two dozen temporaries of the
#: objective in the processor's cache: a fifth faster than blocks of 2**21 at 10^5 cells).
CHUNK = 1 << 14


_EMPTY = np.zeros(0)


@dataclasses.dataclass(frozen=True)
class _Cells:
    """The observed cells: respondent and item index, ``log p`` and ``log(1 - p)``; and the censored ones.

    ``c_rows``, ``c_cols``: the cells at 0 or 1 (``c_upper`` marks those at 1) when they are
    censored (see :mod:`._censored`); ``c_log``, ``c_log1m``: ``log c`` and ``log(1 - c)`` of
    their censoring point ``c``.
    """

    rows: np.ndarray
    cols: np.ndarray
    lp: np.ndarray
    lq: np.ndarray
    n_rows: int
    n_cols: int
    c_rows: np.ndarray = dataclasses.field(default_factory=lambda: _EMPTY.astype(np.int32))
    c_cols: np.ndarray = dataclasses.field(default_factory=lambda: _EMPTY.astype(np.int32))
    c_upper: np.ndarray = dataclasses.field(default_factory=lambda: _EMPTY.astype(bool))
    c_log: np.ndarray = dataclasses.field(default_factory=lambda: _EMPTY.copy())
    c_log1m: np.ndarray = dataclasses.field(default_factory=lambda: _EMPTY.copy())

    def chunks(self) -> Any:
        # blocks whose temporaries stay in the processor's cache, but well over n + m cells so that
        # the O(n + m) of each bincount stays small
        size = max(CHUNK, 4 * (self.n_rows + self.n_cols))
        for start in range(0, self.rows.size, size):
            sl = slice(start, start + size)
            yield self.rows[sl], self.cols[sl], self.lp[sl], self.lq[sl]


def data_eps(x: np.ndarray) -> float:
    """Half the smallest positive distance of an observed response to 0 or 1, at most 1e-3.

    The margin adaptive testing clips new responses to when the fit censored its responses at
    0 and 1 (``eps=None``); 1e-3 if every response is 0 or 1. At least the smallest normal
    float.
    """
    p = x[~np.isnan(x)]
    gaps = np.concatenate([p[p > 0.0], 1.0 - p[p < 1.0]])
    gaps = gaps[gaps > 0.0]
    return float(min(max(gaps.min() / 2.0, np.finfo(float).tiny), 1e-3)) if gaps.size else 1e-3


def data_resolution(x: np.ndarray) -> float:
    """The resolution of the recorded responses: ``10**-k`` if all are multiples of it (k = 1..9), else 0.

    0 stands for float precision: a 0 is a value that underflowed (below ``2**-1075``), a 1 one
    within ``2**-54`` of 1.
    """
    p = x[~np.isnan(x)]
    for k in range(1, 10):
        scaled = p * 10.0**k
        if np.all(np.abs(scaled - np.round(scaled)) <= 1e-6):
            return 10.0**-k
    return 0.0


def _cells(x: np.ndarray, eps: float | None, resolution: Any = None) -> tuple[_Cells, int]:
    """The cells; with ``eps``, responses clipped to ``[eps, 1 - eps]``, else those at 0 or 1 censored.

    ``resolution`` (float or one per column; with ``eps=None``): a 0 stands for a value below half
    of it, a 1 for one above 1 minus half of it; 0 for float precision (see :func:`data_resolution`).
    Returns the cells and the number of responses clipped (``eps``) or censored.
    """
    rows, cols = np.nonzero(~np.isnan(x))
    p = x[rows, cols]
    if eps is not None:
        low, high = p < eps, 1.0 - p < eps
        with np.errstate(divide="ignore"):
            lp, lq = np.log(p), np.log1p(-p)
        # log eps and log(1 - eps) directly: 1 - eps rounds to 1 for eps below 2**-53
        lp[low], lq[low] = np.log(eps), np.log1p(-eps)
        lp[high], lq[high] = np.log1p(-eps), np.log(eps)
        return _Cells(rows.astype(np.int32), cols.astype(np.int32), lp, lq, x.shape[0], x.shape[1]), int(
            np.count_nonzero(low | high)
        )
    edge = (p == 0.0) | (p == 1.0)
    inner = ~edge
    res = np.broadcast_to(np.asarray(0.0 if resolution is None else resolution, dtype=float), (x.shape[1],))
    half = res[cols[edge]] / 2.0
    upper = p[edge] == 1.0
    floor = np.where(upper, -54.0, -1075.0) * np.log(2.0)  # float precision near 1 and near 0
    log_c = np.where(half > 0.0, np.log(np.where(half > 0.0, half, 1.0)), floor)
    q = p[inner]
    return _Cells(
        rows[inner].astype(np.int32),
        cols[inner].astype(np.int32),
        np.log(q),
        np.log1p(-q),
        x.shape[0],
        x.shape[1],
        rows[edge].astype(np.int32),
        cols[edge].astype(np.int32),
        upper,
        log_c,
        np.log1p(-np.exp(log_c)),
    ), int(np.count_nonzero(edge))
