"""What an elicitation session decides on, checked: the decision curve (the user's points, or the default
curve) and the box of beta. :class:`~isometrics.elicitation.session.Elicitation` reads them through here.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.validation import check_unit_interval
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError
from .pairwise import MAX_CURVE, pareto_front, spread_indices

__all__ = ["DEFAULT_CURVE_POINTS", "DEFAULT_CURVE_PREVALENCE", "DEFAULT_CURVE_SHIFT", "default_curve"]

#: The curve the decision is made on when the user gives none: a logistic ROC curve
#: (logit TPR = logit FPR + 3) at prevalence 0.2, at FPR = 10**(-3 + 3 k / 63), k = 0..63.
DEFAULT_CURVE_SHIFT, DEFAULT_CURVE_PREVALENCE, DEFAULT_CURVE_POINTS = 3.0, 0.2, 64


def default_curve() -> tuple[FloatArray, FloatArray]:
    """The precision and recall of the default decision curve (increasing false positive rate)."""
    k = np.arange(DEFAULT_CURVE_POINTS, dtype=np.float64)
    fpr = 10.0 ** ((-3.0 * (DEFAULT_CURVE_POINTS - 1 - k)) / (DEFAULT_CURVE_POINTS - 1))
    odds = math.exp(DEFAULT_CURVE_SHIFT)
    tpr = fpr * odds / (1.0 - fpr + fpr * odds)
    pi = DEFAULT_CURVE_PREVALENCE
    precision = pi * tpr / (pi * tpr + (1.0 - pi) * fpr)
    return precision, tpr


def _beta_range(beta_range: Any) -> tuple[float, float]:
    """The box's beta range as two floats ``0 < low < high`` (both finite)."""
    try:
        low, high = (float(v) for v in beta_range)
    except (TypeError, ValueError):
        raise InvalidParameterError(
            f"{current_caller()}: `beta_range` must be two numbers (low, high); got {beta_range!r}."
        ) from None
    if not (0.0 < low < high < math.inf):
        raise InvalidParameterError(
            f"{current_caller()}: `beta_range` must satisfy 0 < low < high (finite); got "
            f"{beta_range!r}; e.g. beta_range=(0.05, 20)."
        )
    return low, high


def _curve(
    precision: ArrayLike | None, recall: ArrayLike | None, thresholds: ArrayLike | None
) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """The decision curve: Pareto points with precision and recall > 0, by decreasing recall."""
    if (precision is None) != (recall is None):
        raise InvalidParameterError(
            f"{current_caller()}: pass both `precision` and `recall`, or neither (default curve)."
        )
    if precision is None or recall is None:
        if thresholds is not None:
            raise InvalidParameterError(
                f"{current_caller()}: `thresholds` belong to the points of `precision` and `recall`; "
                "pass those too, or drop `thresholds`."
            )
        p, r = default_curve()
        t = None
    else:
        p = check_unit_interval(precision, "precision").ravel()
        r = check_unit_interval(recall, "recall").ravel()
        if p.shape != r.shape:
            raise InvalidParameterError(
                f"{current_caller()}: `precision` and `recall` must have the same length; got {len(p)} and {len(r)}."
            )
        t = None if thresholds is None else np.asarray(thresholds, dtype=np.float64).ravel()
        if t is not None and np.isnan(t).any():
            raise InvalidParameterError(
                f"{current_caller()}: `thresholds` contains NaN (first at index "
                f"{int(np.flatnonzero(np.isnan(t))[0])}); pass the threshold of every point."
            )
        if t is not None and t.shape != p.shape:
            raise InvalidParameterError(
                f"{current_caller()}: `thresholds` must have one value per point; got {len(t)} for {len(p)} points."
            )
    ok = (p > 0) & (r > 0)
    if not ok.any():
        raise InvalidParameterError(
            f"{current_caller()}: no operating point has precision and recall > 0; the decision needs at least one."
        )
    idx = np.flatnonzero(ok)[pareto_front(p[ok], r[ok])]
    idx = idx[spread_indices(len(idx), MAX_CURVE)]  # at most MAX_CURVE points, ends included
    return (
        tuple(float(v) for v in p[idx]),
        tuple(float(v) for v in r[idx]),
        () if t is None else tuple(float(v) for v in t[idx]),
    )
