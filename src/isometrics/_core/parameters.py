"""Checks of scalar parameters: real numbers and integers in a range, options, random
generators and ``zero_division``.

Messages follow the template *what, where, value, fix*.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..exceptions import InvalidParameterError
from .caller import current_caller

__all__ = [
    "check_real",
    "check_integer",
    "check_option",
    "check_rng",
    "check_zero_division",
]


def check_real(
    value: Any,
    name: str,
    *,
    caller: str | None = None,
    low: float = -math.inf,
    high: float = math.inf,
    low_inclusive: bool = True,
    high_inclusive: bool = True,
    allow_inf: bool = False,
) -> float:
    """Return ``value`` as a float, checking that it is a real number in the given range."""
    caller = current_caller(caller)
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise InvalidParameterError(f"{caller}: `{name}` must be a real number; got {value!r}.")
    v = float(value)
    if math.isnan(v) or (math.isinf(v) and not allow_inf):
        raise InvalidParameterError(f"{caller}: `{name}` must be a finite real number; got {value!r}.")
    ok_low = v >= low if low_inclusive else v > low
    ok_high = v <= high if high_inclusive else v < high
    if not (ok_low and ok_high):
        lo = f"{'>=' if low_inclusive else '>'} {low:g}" if low > -math.inf else ""
        hi = f"{'<=' if high_inclusive else '<'} {high:g}" if high < math.inf else ""
        rng = " and ".join(p for p in (lo, hi) if p)
        raise InvalidParameterError(f"{caller}: `{name}` must be a real number {rng}; got {value!r}.")
    return v


def check_integer(
    value: Any,
    name: str,
    *,
    caller: str | None = None,
    low: int | None = None,
    high: int | None = None,
) -> int:
    """Return ``value`` as a Python ``int``, checking that it is an integer in ``[low, high]``.

    Accepts Python and NumPy integers and integral floats (``1000.0``); rejects bools,
    strings, ``None``, NaN and non-integral numbers (``2.7`` is never truncated).
    """
    caller = current_caller(caller)
    if isinstance(value, (bool, np.bool_)):
        raise InvalidParameterError(f"{caller}: `{name}` must be an integer; got {value!r}.")
    if isinstance(value, (numbers.Integral, np.integer)):
        v = int(value)
    elif isinstance(value, (numbers.Real, np.floating)) and math.isfinite(float(value)) and float(value).is_integer():
        v = int(float(value))
    else:
        raise InvalidParameterError(
            f"{caller}: `{name}` must be an integer; got {value!r}"
            + (
                " (a count is never rounded: pass a whole number)."
                if isinstance(value, (numbers.Real, np.floating)) and not isinstance(value, bool) and value == value
                else "."
            )
        )
    if (low is not None and v < low) or (high is not None and v > high):
        lo = f">= {low}" if low is not None else ""
        hi = f"<= {high}" if high is not None else ""
        raise InvalidParameterError(
            f"{caller}: `{name}` must be an integer {' and '.join(p for p in (lo, hi) if p)}; got {value!r}."
        )
    return v


def check_option(value: Any, name: str, options: Iterable[Any], *, caller: str | None = None) -> Any:
    """Return ``value`` if it is one of ``options``; else raise listing them."""
    caller = current_caller(caller)
    opts = list(options)
    if value not in opts:
        raise InvalidParameterError(
            f"{caller}: `{name}` must be one of {', '.join(repr(o) for o in opts)}; got {value!r}."
        )
    return value


def check_rng(rng: Any, *, caller: str | None = None, name: str = "rng") -> np.random.Generator:
    """``rng`` as a NumPy Generator: ``None`` (fresh entropy), a seed (int or sequence of ints), a
    ``SeedSequence``, a ``BitGenerator`` or a ``Generator``, as :func:`numpy.random.default_rng` takes."""
    caller = current_caller(caller)
    try:
        return np.random.default_rng(rng)
    except (TypeError, ValueError) as exc:
        raise InvalidParameterError(
            f"{caller}: `{name}` must be None, an integer seed or a numpy.random.Generator; got {rng!r} ({exc})."
        ) from exc


def check_zero_division(zero_division: Any, *, caller: str | None = None) -> Any:
    """``zero_division`` is ``"warn"``, 0.0, 1.0 or ``np.nan``."""
    caller = current_caller(caller)
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return zero_division
    elif isinstance(zero_division, numbers.Real) and not isinstance(zero_division, bool):
        z = float(zero_division)
        if z in (0.0, 1.0) or math.isnan(z):
            return z
    raise InvalidParameterError(f"{caller}: `zero_division` must be 'warn', 0.0, 1.0 or np.nan; got {zero_division!r}.")
