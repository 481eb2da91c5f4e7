"""Bounds the user types (a minimum precision, a maximum rate, a budget), compared as meant.

A bound such as ``min_precision=0.9`` means nine in ten. The double ``0.9`` is
0.90000000000000002..., and a precision of exactly 9/10 computed as ``9 / 10`` or from the
counts as ``9 * (1 - 0.9) >= 0.9 * 1`` can land a few units in the last place on the wrong
side of it; weighted counts (cumulative sums of weights such as 0.1) carry rounding of
their own. An exact comparison would then skip the operating point the user asked for.

So every user-given bound of the package is compared here, with one stated tolerance: a
value within a relative :data:`BOUND_RTOL` of the bound counts as meeting it
(``value >= bound * (1 - BOUND_RTOL)`` for a lower bound). Two operating points whose
rates differ by less than that cannot be told apart by a bound; with integer counts this
takes more than about a million samples.
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from .._typing import ArrayLike

__all__ = [
    "BOUND_RTOL",
    "BOUND_NOTE",
    "BUDGET_NOTE",
    "bound_slack",
    "loosest",
    "loosest_grid",
    "meets_bound",
    "near_bound",
    "fmt_bound",
]

#: Relative tolerance of every bound comparison: far above the rounding of a rate computed
#: from counts (a few units of 2**-53), far below any difference a user could mean.
BOUND_RTOL = 1e-12

#: The docstring note of every function that takes a bound (through ``fill_doc``).
BOUND_NOTE = (
    "A bound is compared as the decimal number typed: a rate within a relative "
    "``1e-12`` of it counts as meeting it, so that rates that equal the bound as fractions "
    "of the counts (9/10 for ``0.9``, ``2/3``, the highest precision reached) are never "
    "lost to rounding (of the double ``0.9``, of ``tp/(tp+fp)`` or of weighted sums)."
)

#: The docstring note of every function that cuts the ranking at a budget or a rate.
BUDGET_NOTE = (
    "A budget (or a rate times the total weight) within a relative ``1e-12`` of the "
    "weight flagged at an operating point is taken as that point, so that a budget that "
    "equals it as typed (``k=0.3`` with weights 0.1, ``rate=0.28`` of 25 samples) is "
    "neither refused as splitting a tie nor split by a rounding residue."
)


def bound_slack(bound: float) -> float:
    """The absolute tolerance at ``bound``: ``BOUND_RTOL * |bound|`` (0 at a bound of 0)."""
    return BOUND_RTOL * abs(float(bound))


def loosest(bound: float, side: Literal["min", "max"]) -> float:
    """The most lenient value still accepted: ``bound - slack`` for a minimum, ``+ slack`` for a maximum."""
    return float(bound) - bound_slack(bound) if side == "min" else float(bound) + bound_slack(bound)


def loosest_grid(bounds: ArrayLike, side: Literal["min", "max"]) -> np.ndarray:
    """:func:`loosest` of each of an array of bounds (a grid of recalls read from a curve), float64."""
    b = np.asarray(bounds, dtype=np.float64)
    slack = BOUND_RTOL * np.abs(b)
    return b - slack if side == "min" else b + slack


def meets_bound(values: ArrayLike, bound: float, side: Literal["min", "max"]) -> np.ndarray:
    """Whether each value meets ``bound`` from ``side`` ("min": ``>=``, "max": ``<=``), within the tolerance.

    NaN never meets a bound. Returns a boolean array of the shape of ``values``.
    """
    v = np.asarray(values, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return v >= loosest(bound, "min") if side == "min" else v <= loosest(bound, "max")


def near_bound(values: ArrayLike, bound: float) -> np.ndarray:
    """Whether each value lies within the tolerance of ``bound`` on either side (boolean array)."""
    v = np.asarray(values, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return np.abs(v - float(bound)) <= bound_slack(bound)


def fmt_bound(value: float) -> str:
    """A bound or a rate with every digit needed to tell it from its neighbours (``repr`` of the double)."""
    return repr(float(value))
