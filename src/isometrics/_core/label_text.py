"""A label typed as text (the CLI's ``--pos-label``) converted to the label column's type: one rule
for the three scale paths (columns in memory, DuckDB out of core, Dask partitions)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..exceptions import IsometricsError
from .labels import label_set

__all__ = ["label_from_text"]

_TRUE, _FALSE = {"true", "1"}, {"false", "0"}


def _kind(kind: Any) -> str | None:
    """The numpy kind letter of a numpy dtype or a pyarrow type (duck-typed), or None if unknown."""
    if kind is None:
        return None
    to_numpy = getattr(kind, "to_pandas_dtype", None)  # a pyarrow DataType, without importing pyarrow
    try:
        return str(np.dtype(to_numpy() if to_numpy is not None else kind).kind)
    except (TypeError, ValueError, NotImplementedError):
        return "O"  # a type numpy does not hold (dictionary, decimal...): the text as is


def _boolean(text: str) -> bool:
    low = text.strip().lower()
    if low not in _TRUE | _FALSE:
        raise ValueError(text)
    return low in _TRUE


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        number = float(text)  # "1.0" or "1e3" name a whole number too
        if not number.is_integer():
            raise ValueError(text) from None
        return int(number)


def _guess(text: str) -> Any:
    """A label of unknown type: a whole number, else a number, else true/false, else the text."""
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            continue
    low = text.strip().lower()
    return low == "true" if low in {"true", "false"} else text


def _as_text(text: str, present: np.ndarray | None) -> Any:
    """The text as is; with the labels known and the text not among them, the one label whose
    ``str`` is the text (an object column holding numbers or booleans)."""
    if present is None or np.any(present == text):
        return text
    spelled = [v for v in present.tolist() if str(v) == text]
    return spelled[0] if len(spelled) == 1 else text


def label_from_text(
    text: str, kind: Any = None, labels: Any = None, *, column: str, option: str = "--pos-label"
) -> Any:
    """The label that ``text`` names, in the type of the label column.

    The rule, by the column's type:

    - boolean: ``true``/``1`` is True and ``false``/``0`` is False, any case, blanks around
      ignored; any other text is an error;
    - integer: the whole number written (``"1"``, ``" 1"``, also ``"1.0"`` or ``"1e3"``), as ``int``;
      a number with a fraction or a word is an error;
    - floating point: the number written, as ``float`` (``"1"`` is 1.0); a word is an error;
    - any other type (strings, objects): the text as is, not stripped; when ``labels`` are given
      and the text is not one of them, the one label whose ``str`` is the text;
    - unknown (``kind`` None and no ``labels``, as for a CSV file read by DuckDB, which infers the
      type): a whole number, else a number, else ``true``/``false`` (any case) as a boolean,
      else the text as is.

    So the text ``1`` names the integer label 1, the float label 1.0, the boolean True and the
    string ``"1"``, each in its column. When ``labels`` are given the label must be one of them;
    when only the type is known (a Parquet schema), the evaluation checks it against the data.

    Parameters
    ----------
    text : str
        The label as typed.
    kind : numpy dtype, pyarrow DataType or None, default=None
        The label column's type; None takes it from ``labels``, or guesses it without them.
    labels : array-like of shape (n_samples,) or None, default=None
        The label column (or its distinct values), when read.
    column : str
        The label column's name, for messages.
    option : str, default="--pos-label"
        The option the text came from, for messages.

    Returns
    -------
    bool, int, float, str or object
        The label, equal to one of ``labels`` when they are given.

    Raises
    ------
    IsometricsError
        If the text is not a value of the column's type, or, with ``labels``, names none of them
        (the message lists the labels present, at most ten).
    """
    present = None if labels is None else label_set(np.asarray(labels))
    letter = _kind(kind if kind is not None or present is None else present.dtype)
    try:
        if letter == "b":
            value: Any = _boolean(text)
        elif letter in {"i", "u"}:
            value = _integer(text)
        elif letter == "f":
            value = float(text)
        elif letter is None:
            value = _guess(text)
        else:
            value = _as_text(text, present)
        found = present is None or bool(np.any(present == value))
    except (ValueError, OverflowError):
        found = False
    if not found:
        parts = [] if kind is None else [f"a column of {kind}"]
        if present is not None:
            parts.append("values: " + ", ".join(str(v) for v in present[:10].tolist()))
        where = f" ({'; '.join(parts)})" if parts else ""
        fix = "pass one of them" if present is not None else "pass one of its values"
        raise IsometricsError(f"{option} {text!r} is not a value of label column {column!r}{where}; {fix}.")
    return value
