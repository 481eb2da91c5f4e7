"""Bootstrap interval arithmetic: quantiles that keep infinities, the standard error, the
percentile, basic and BCa intervals, and the replicates on which a statistic is defined.

References
----------
.. [1] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*, 1993 (BCa).
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import user_stacklevel
from .._typing import FloatArray
from ..exceptions import IsometricsError, UndefinedMetricWarning
from ._inputs import _NORMAL


def _quantiles(values: FloatArray, q: Any) -> FloatArray:
    """``np.quantile``'s linear interpolation, except that a neighbouring order statistic
    that is infinite gives that infinity (NumPy gives NaN, from ``inf - inf``)."""
    q = np.asarray(q, dtype=np.float64)
    if np.isfinite(values).all():
        return np.asarray(np.quantile(values, q))
    lower = np.quantile(values, q, method="lower")
    higher = np.quantile(values, q, method="higher")
    with np.errstate(invalid="ignore"):
        linear = np.quantile(values, q)
    out = np.where(lower == -np.inf, -np.inf, np.where(higher == np.inf, np.inf, linear))
    return np.asarray(np.where(lower == higher, lower, out))


def _standard_error(values: FloatArray) -> float:
    return float(np.std(values, ddof=1)) if np.isfinite(values).all() else math.inf


def _interval(
    estimate: float,
    dist: FloatArray,
    level: float,
    method: str,
    jackknife: FloatArray | None,
    name: str,
    *,
    caller: str | None = None,
) -> tuple[float, float]:
    """The interval of ``dist``; messages name ``caller`` when given (a method), else the declared function."""
    alpha = (1 - level) / 2
    if method == "percentile":
        low, high = _quantiles(dist, [alpha, 1 - alpha])
    elif method == "basic":
        q_low, q_high = _quantiles(dist, [alpha, 1 - alpha])
        with np.errstate(invalid="ignore"):
            low, high = 2 * estimate - q_high, 2 * estimate - q_low
    else:  # BCa (Efron 1987)
        below = float(np.count_nonzero(dist < estimate) + 0.5 * np.count_nonzero(dist == estimate)) / len(dist)
        below = min(max(below, 1 / (2 * len(dist))), 1 - 1 / (2 * len(dist)))
        z0 = _NORMAL.inv_cdf(below)
        assert jackknife is not None
        jackknife = jackknife[~np.isnan(jackknife)]  # blocks whose removal leaves the statistic undefined
        if not np.isfinite(jackknife).all():
            raise IsometricsError(
                f"{current_caller(caller)}: method='bca' needs the statistic finite on every jackknife sample, "
                f"but {name} is infinite on some (nothing predicted positive was best); "
                "use method='percentile'."
            )
        d = jackknife.mean() - jackknife if len(jackknife) else jackknife
        denom = 6.0 * float(np.sum(d * d)) ** 1.5
        a = float(np.sum(d**3)) / denom if denom > 0 else 0.0
        quantiles = []
        for z_alpha in (_NORMAL.inv_cdf(alpha), _NORMAL.inv_cdf(1 - alpha)):
            shifted = z0 + (z0 + z_alpha) / (1 - a * (z0 + z_alpha))
            quantiles.append(_NORMAL.cdf(shifted))
        low, high = _quantiles(dist, quantiles)
    if math.isnan(low) or math.isnan(high):
        raise IsometricsError(
            f"{current_caller(caller)}: the {method} interval of {name} is undefined: the estimate and the "
            "bootstrap distribution are infinite (nothing predicted positive was best); "
            "use method='percentile'."
        )
    return float(low), float(high)


def _defined(
    values: FloatArray, name: str, n_resamples: int, stacklevel: int, *, caller: str | None = None
) -> tuple[FloatArray, int]:
    """The replicate values where the statistic is defined, and how many were not (with a
    warning: the interval is then conditional on the statistic being defined). Messages name
    ``caller`` when given (a method), else the declared function."""
    undefined = np.isnan(values)
    n_undefined = int(undefined.sum())
    if n_undefined:
        values = values[~undefined]
        if len(values) < 2:
            raise IsometricsError(
                f"{current_caller(caller)}: {name} is undefined (0/0) on {n_undefined} of the {n_resamples} replicates, leaving "
                f"{len(values)}; it is too rarely defined for an interval (e.g. a threshold that almost no sample "
                "reaches): choose another threshold or statistic."
            )
        warnings.warn(
            f"{current_caller(caller)}: {name} is undefined (0/0) on {n_undefined} of the {n_resamples} replicates (e.g. nothing "
            "predicted positive at the threshold); they are left out of the interval (n_undefined), which is "
            "therefore conditional on the statistic being defined.",
            UndefinedMetricWarning,
            stacklevel=user_stacklevel(stacklevel),
        )
    return values, n_undefined
