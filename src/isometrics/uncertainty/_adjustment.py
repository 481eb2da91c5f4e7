"""The multiple-testing policy of a comparison, as arithmetic: the adjustments and how one is
checked, adjusted p-values, the compatible unadjusted level, the percentile interval as order
statistics, the bootstrap p-value and a row's decision.

References
----------
.. [1] S. Holm, "A Simple Sequentially Rejective Multiple Test Procedure", Scandinavian
   Journal of Statistics 6(2), 65-70, 1979.
.. [2] F. Bretz, T. Hothorn and P. Westfall, *Multiple Comparisons Using R*, CRC Press,
   2010, sections 2.1.3 (compatible simultaneous confidence intervals) and 4.1 (Holm).
.. [3] A. C. Davison and D. V. Hinkley, *Bootstrap Methods and their Application*,
   Cambridge University Press, 1997, section 5.2 (the percentile interval as order
   statistics ``(B + 1) alpha``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._typing import FloatArray
from ..exceptions import InvalidParameterError
from .multiple_testing import holm_adjust

#: The adjustments of p-values over the pairs of one statistic.
ADJUSTMENTS = ("holm", "bonferroni", "none")
#: The three decisions of a row.
A_BETTER, B_BETTER, NO_DIFFERENCE = "a better", "b better", "no detectable difference"
_ADJUSTED_NAME = {"holm": "Holm", "bonferroni": "Bonferroni"}
#: Slack for the floating-point comparison ``p <= alpha`` (``1 - 0.95`` is not 0.05 in binary).
_SLACK = 1e-9


def check_adjustment(adjustment: Any, caller: str | None = None) -> str:
    """Check an ``adjustment`` argument: one of :data:`ADJUSTMENTS` for a family of comparisons.

    Parameters
    ----------
    adjustment : Any
        The argument as given: ``"holm"``, ``"bonferroni"`` or ``"none"``.
    caller : str or None, default=None
        The name messages start with (``Checked`` passes one); the declared function's by default.

    Returns
    -------
    str
        The adjustment.

    Raises
    ------
    InvalidParameterError
        If it is not one of :data:`ADJUSTMENTS`.
    """
    if not isinstance(adjustment, str) or adjustment not in ADJUSTMENTS:
        raise InvalidParameterError(
            f"{current_caller(caller)}: `adjustment` must be one of {', '.join(map(repr, ADJUSTMENTS))}; got {adjustment!r}."
        )
    return adjustment


def _adjust(p_values: list[float], adjustment: str) -> list[float]:
    """The p-values of one family, adjusted."""
    if adjustment == "holm":
        return [float(p) for p in holm_adjust(p_values)]
    if adjustment == "bonferroni":
        return [min(1.0, len(p_values) * p) for p in p_values]
    return [float(p) for p in p_values]


def _adjusted_alpha(alpha: float, p: float, p_adjusted: float) -> float:
    """``alpha * p / p_adjusted``: the unadjusted level at which the raw test rejects exactly
    when the adjusted one does (Bretz, Hothorn & Westfall 2010, compatible intervals)."""
    return alpha if p_adjusted <= 0 or p <= 0 or p_adjusted == p else alpha * p / p_adjusted


def _order_interval(sorted_diff: FloatArray, alpha: float) -> tuple[float, float]:
    """The percentile interval as order statistics ``(d_(j), d_(B+1-j))``, ``j = floor((B + 1) alpha / 2)``
    (Davison & Hinkley 1997, 5.2): it excludes 0 exactly when ``2 (1 + k) / (B + 1) <= alpha``, the
    p-value of :func:`_p_value`. Infinite when ``j = 0`` (too few replicates for that level)."""
    n = len(sorted_diff)
    j = math.floor((n + 1) * alpha / 2 + _SLACK)
    if j < 1:
        return -math.inf, math.inf
    return float(sorted_diff[j - 1]), float(sorted_diff[n - j])


def _p_value(diff: FloatArray) -> tuple[float, int]:
    """Two-sided bootstrap p-value of "no difference", ``2 (1 + k) / (B + 1)`` at most 1, and
    the side of 0 where most replicates lie (+1, -1, or 0 when balanced)."""
    below, above = int(np.count_nonzero(diff <= 0)), int(np.count_nonzero(diff >= 0))
    extreme = min(below, above)
    side = (below < above) - (above < below)
    return float(min(1.0, 2 * (1 + extreme) / (len(diff) + 1))), side


def _decision(p_adjusted: float, alpha: float, side: float, greater_is_better: bool) -> str:
    if p_adjusted > alpha * (1 + _SLACK) or side == 0:
        return NO_DIFFERENCE
    return A_BETTER if (side > 0) == greater_is_better else B_BETTER
