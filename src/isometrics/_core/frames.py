"""Data frames and their columns as inputs and outputs, through narwhals (the one place).

Every library narwhals knows (pandas, Polars, pyarrow, Modin, cuDF, ...) is handled
alike: a column (a Series, a pyarrow ``ChunkedArray``, or any object of the Arrow C data
interface such as a pyarrow ``Array``) becomes a NumPy array and a null raises with its
count and first index; a data frame (``DataFrame``, pyarrow ``Table``) becomes its named
columns. None of those libraries is imported here: narwhals looks for them among the
modules already imported, so ``import isometrics`` imports none of them.
"""

from __future__ import annotations

from typing import Any, Literal

import narwhals.stable.v1 as nw
import numpy as np

from ..exceptions import IsometricsError
from .caller import current_caller, takes_caller

__all__ = ["column_to_numpy", "column_name", "frame_columns", "frame_to_numpy", "to_native_frame"]

#: Values that are no column or frame of any library: answered without asking narwhals, whose look-up
#: of the libraries costs 0.2-1.5 ms a call (the level curves and the elicitation engine call the
#: metrics with scalars thousands of times). narwhals passes each of them through unchanged.
_PLAIN = (np.ndarray, np.generic, float, int, bool, str, list, tuple, type(None))


def _raise_missing(mask: np.ndarray, *, name: str) -> None:
    caller = current_caller()
    n = int(mask.sum())
    first = int(np.flatnonzero(mask)[0])
    raise IsometricsError(
        f"{caller}: {name} contains {n} missing value{'s' if n != 1 else ''} (null / NA; first at index "
        f"{first}); drop or impute those rows before evaluating."
    )


def _series(values: Any) -> Any:
    """The narwhals Series of a column of any data-frame library, or None."""
    if isinstance(values, _PLAIN):
        return None
    series = nw.from_native(values, series_only=True, pass_through=True)
    if isinstance(series, nw.Series):
        return series
    if hasattr(values, "__arrow_c_array__") and not isinstance(values, np.ndarray):  # e.g. a pyarrow Array
        try:
            return nw.Series.from_arrow("", values, backend="pyarrow")
        except (ImportError, TypeError, ValueError):  # pragma: no cover - no pyarrow to read it with
            return None
    return None


def _missing(series: Any) -> np.ndarray:
    """Where a column is null; a NaN float is a number, not a null (reported as NaN later)."""
    missing = series.is_null()
    if series.dtype.is_float():
        missing = missing & ~series.is_nan().fill_null(False)
    return np.asarray(missing.to_numpy(), dtype=bool)


def _to_numpy(series: Any, *, name: str) -> np.ndarray:
    if series.null_count():
        missing = _missing(series)
        if missing.any():
            _raise_missing(missing, name=name)
    return np.asarray(series.to_numpy())


@takes_caller
def column_to_numpy(values: Any, *, name: str, caller: str | None = None) -> Any:
    """A column of a data-frame library as a NumPy array (nulls raise); anything else unchanged."""
    series = _series(values)
    return values if series is None else _to_numpy(series, name=name)


def column_name(values: Any) -> str | None:
    """The name of a named column (a pandas or Polars Series), as a string; None when unnamed."""
    series = _series(values)
    name = None if series is None else series.name
    return None if name is None or name == "" else str(name)


def frame_columns(values: Any) -> dict[str, Any] | None:
    """The columns of an eager data frame (pandas, Polars, pyarrow Table), by name; None if not a frame."""
    if isinstance(values, _PLAIN):
        return None
    frame = nw.from_native(values, eager_only=True, pass_through=True)
    if not isinstance(frame, nw.DataFrame):
        return None
    return {str(c): frame.get_column(c).to_native() for c in frame.columns}


@takes_caller
def frame_to_numpy(values: Any, *, name: str, caller: str | None = None) -> Any:
    """An eager data frame as a 2-D NumPy array, one column per frame column (a null raises,
    naming the column); anything else unchanged."""
    if isinstance(values, _PLAIN):
        return values
    frame = nw.from_native(values, eager_only=True, pass_through=True)
    if not isinstance(frame, nw.DataFrame):
        return values
    columns = [_to_numpy(frame.get_column(c), name=f"{name} (column {c!r})") for c in frame.columns]
    if not columns:
        return np.empty((len(frame), 0))
    return np.column_stack(columns)


def to_native_frame(columns: dict[str, Any], backend: Literal["pandas", "polars", "pyarrow"]) -> Any:
    """A data frame of ``backend`` (``"pandas"``, ``"polars"`` or ``"pyarrow"``) from equal-length columns."""
    return nw.from_dict(columns, backend=backend).to_native()
