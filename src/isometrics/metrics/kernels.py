"""The functions behind the family's :class:`~isometrics.Metric` objects, without the objects:
F-beta from counts and its weights, the power means of precision and recall at any
parameter in double range, Youden's J and the closeness to the top-left corner from counts,
the metrics of the whole confusion matrix (MCC, kappa, markedness, accuracy, balanced
accuracy, NPV, specificity, net benefit), and the exact keys (rational arithmetic on integer counts) that decide ties between
operating points.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from .._typing import ArrayLike, FloatArray
from .means import _log_power_mean_fixed, _log_power_mean_scalar

__all__ = ["ExactKey"]

#: ``key(tp, fp, n_positives, n_negatives) -> (num, den)`` on integer counts (object
#: arrays of Python ints for ``tp`` and ``fp``): the metric's value is an increasing
#: function of ``num / den``, computed exactly; ``den > 0`` where the metric is defined,
#: 0 where it is not (no predicted positive for metrics that need precision).
ExactKey = Callable[[Any, Any, int, int], tuple[Any, Any]]


# ---------------------------------------------------------------------------- kernels
#: Largest integer exponent for which ties between operating points are decided in exact
#: rational arithmetic (see :func:`isometrics.best_threshold`).
_EXACT_MAX_POWER = 64


def _fmt(x: float) -> str:
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:g}" if x == float(f"{x:g}") else repr(x)


def _softplus_scalar(x: float) -> float:
    """log(1 + exp(x)) without overflow."""
    return max(x, 0.0) + math.log1p(math.exp(-abs(x)))


def _fbeta_weights(beta: float) -> tuple[float, float]:
    """``(1 / (1 + beta**2), beta**2 / (1 + beta**2))`` for beta in (0, inf], without overflow.

    F-beta is ``TP / (w_p (TP + FP) + w_r (TP + FN))`` with these weights of the predicted
    and the actual positives; unlike ``(1 + beta**2) TP / (...)`` it cannot overflow for
    any beta or any count in double range.
    """
    if beta == math.inf:
        return 0.0, 1.0
    if 1e-150 <= beta <= 1e150:  # beta**2 in [1e-300, 1e300]: one rounding each
        b2 = beta * beta
        return 1.0 / (1.0 + b2), b2 / (1.0 + b2)
    log_b2 = 2.0 * math.log(beta)
    return math.exp(-_softplus_scalar(log_b2)), math.exp(-_softplus_scalar(-log_b2))


def _fbeta_from_counts(tp: FloatArray, fp: FloatArray, positives: ArrayLike, beta: float) -> FloatArray:
    """F-beta (beta > 0) from counts, 0 where there is no true positive (vectorised)."""
    w_pred, w_true = _fbeta_weights(beta)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = tp / (w_pred * (tp + fp) + w_true * np.asarray(positives, dtype=np.float64))
    return np.where(tp == 0, 0.0, value)


def _ratio(x: float | Fraction) -> tuple[int, int]:
    q = Fraction(x)
    return q.numerator, q.denominator


def _power_key(gamma: float | Fraction, phi: float) -> ExactKey | None:
    """The exact key of W(gamma, phi), or None when it has no rational form of small degree.

    With ``S = TP + FP`` (predicted positives), ``P`` the positives and ``gamma = a/b``,
    and positive constant factors dropped: ``W**k`` is ``TP**k (a P**k + b S**k) / S**k``
    for ``phi = k > 0`` and ``TP**k / (a S**k + b P**k)`` for ``phi = -k < 0``; the
    geometric mean's ``W**(a + b) = P**a R**b`` is ``TP**(a + b) / S**a``; min and max
    are ``TP / max(S, P)`` and ``TP / min(S, P)``.
    """
    if gamma == 0:
        return lambda tp, fp, pos, neg: (tp, pos)
    if gamma == math.inf:
        return lambda tp, fp, pos, neg: (tp, tp + fp)
    if phi == math.inf:
        return lambda tp, fp, pos, neg: (tp, np.minimum(tp + fp, pos))
    if phi == -math.inf:
        return lambda tp, fp, pos, neg: (tp, np.maximum(tp + fp, pos))
    a, b = _ratio(gamma)
    if phi == 0:
        if max(a, b) > _EXACT_MAX_POWER:
            return None
        # S = 0 only where TP = 0: the key is 0 there, any positive denominator will do.
        return lambda tp, fp, pos, neg: (tp ** (a + b), np.maximum(tp + fp, 1) ** a)
    if phi != int(phi) or abs(phi) > _EXACT_MAX_POWER:
        return None
    k = int(abs(phi))
    if phi > 0:
        return lambda tp, fp, pos, neg: (tp**k * (a * pos**k + b * (tp + fp) ** k), (tp + fp) ** k)
    return lambda tp, fp, pos, neg: (tp**k, a * (tp + fp) ** k + b * pos**k)


def _fbeta_key(beta: float) -> ExactKey:
    """F-beta with ``beta**2 = a/b``: ``(a + b) TP / (b S + a P)``, constant dropped."""
    if beta == 0:
        return lambda tp, fp, pos, neg: (tp, tp + fp)
    if beta == math.inf:
        return lambda tp, fp, pos, neg: (tp, pos)
    a, b = _ratio(Fraction(beta) ** 2)
    return lambda tp, fp, pos, neg: (tp, b * (tp + fp) + a * pos)


def _g_key(beta: float, rho: float) -> ExactKey | None:
    """G(beta, rho): a power mean for finite rho; for rho = -inf (+inf) proportional to
    ``min(P, R/beta)`` (``max``), that is ``TP / max(S, beta P)`` (``min``)."""
    a, b = _ratio(beta)
    if rho == 0:
        return _power_key(beta, 1.0)
    if rho == -math.inf:
        return lambda tp, fp, pos, neg: (tp * b, np.maximum((tp + fp) * b, pos * a))
    if rho == math.inf:
        return lambda tp, fp, pos, neg: (tp * b, np.minimum((tp + fp) * b, pos * a))
    if rho != int(rho) or abs(rho) > _EXACT_MAX_POWER:
        return None
    return _power_key(Fraction(beta) ** int(rho), rho + 1.0)


def _exp_inplace(values: FloatArray) -> FloatArray:
    return np.exp(values, out=values) if isinstance(values, np.ndarray) and values.ndim else np.exp(values)


def _pm(p: FloatArray, r: FloatArray, log_gamma: float, phi: float) -> FloatArray:
    if math.isinf(log_gamma):
        return np.broadcast_arrays(p if log_gamma > 0 else r, r)[0].astype(np.float64)
    with np.errstate(divide="ignore"):
        return _exp_inplace(_log_power_mean_scalar(np.log(p), np.log(r), log_gamma, phi))


def _power_pr(gamma: float, phi: float) -> Callable[[FloatArray, FloatArray], FloatArray]:
    """W(gamma, phi) of precision and recall arrays, for any parameters in double range
    (the kernel of :func:`isometrics.power_mean`: limits at huge ``|phi|``, exact values at
    a zero argument next to ``phi = 0``)."""
    with np.errstate(divide="ignore"):
        log_gamma = math.log(gamma) if gamma > 0 else -math.inf

    def pr(p: FloatArray, r: FloatArray) -> FloatArray:
        return _exp_inplace(_log_power_mean_fixed(p, r, log_gamma, phi, gamma))

    return pr


def _rates(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> tuple[FloatArray, FloatArray]:
    """True positive rate and false positive rate."""
    return tp / (tp + fn), fp / (fp + tn)


def _youden(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    tpr, fpr = _rates(tp, fp, fn, tn)
    return tpr - fpr


def _top_left(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    fpr, fnr = fp / (fp + tn), fn / (tp + fn)
    return 1.0 - np.hypot(fpr, fnr) / math.sqrt(2.0)


# ---------------------------------------------------------------------------- whole-matrix metrics
# Each takes the four counts (broadcast) and returns NaN (0/0) where the metric is undefined;
# the exact keys below take (tp, fp, P, N) with TN = N - FP, FN = P - TP.
def _cross(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    """``TP TN - FP FN``, the numerator shared by MCC, markedness, informedness and kappa."""
    return tp * tn - fp * fn


def _accuracy(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    return (tp + tn) / ((tp + fn) + (fp + tn))


def _balanced_accuracy(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    return 0.5 * (tp / (tp + fn) + tn / (fp + tn))


def _specificity(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    return tn / (fp + tn)


def _npv(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    return tn / (tn + fn)


def _mcc(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    # Two square roots of two products each: no product of four counts, so no overflow.
    return _cross(tp, fp, fn, tn) / (np.sqrt((tp + fn) * (fp + tn)) * np.sqrt((tp + fp) * (fn + tn)))


def _markedness(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    return _cross(tp, fp, fn, tn) / ((tp + fp) * (fn + tn))  # PPV + NPV - 1, without cancellation


def _kappa(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    return 2.0 * _cross(tp, fp, fn, tn) / ((tp + fp) * (fp + tn) + (tp + fn) * (fn + tn))


def _net_benefit(odds: float) -> Callable[[FloatArray, FloatArray, FloatArray, FloatArray], FloatArray]:
    """Net benefit at threshold odds ``pt / (1 - pt)``: ``TP/n - FP/n * odds``."""
    def net_benefit(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
        n = (tp + fn) + (fp + tn)
        return tp / n - (fp / n) * odds

    return net_benefit


def _cross_key(tp: Any, fp: Any, pos: Any, neg: Any) -> Any:
    """``TP TN - FP FN = TP N - FP P`` on integer counts."""
    return tp * neg - fp * pos


def _mcc_key(tp: Any, fp: Any, pos: Any, neg: Any) -> tuple[Any, Any]:
    """MCC squared with its sign, times ``P N``: ``x |x| / (S (n - S))``, ``S = TP + FP``."""
    x, s = _cross_key(tp, fp, pos, neg), tp + fp
    return x * abs(x), s * (pos + neg - s)


def _markedness_key(tp: Any, fp: Any, pos: Any, neg: Any) -> tuple[Any, Any]:
    s = tp + fp
    return _cross_key(tp, fp, pos, neg), s * (pos + neg - s)


def _kappa_key(tp: Any, fp: Any, pos: Any, neg: Any) -> tuple[Any, Any]:
    s = tp + fp
    return _cross_key(tp, fp, pos, neg), s * neg + pos * (pos + neg - s)


def _net_benefit_key(pt: float) -> ExactKey:
    """With ``pt = a/b``: ``n (b - a) NB = TP (b - a) - FP a``."""
    a, b = _ratio(pt)
    return lambda tp, fp, pos, neg: (tp * (b - a) - fp * a, 1)
