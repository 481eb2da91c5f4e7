"""The count kernels: each quantity of a confusion table computed once, from counts.

``*_from_counts(tp, fp, fn, tn)`` (F-beta, precision, recall, specificity, NPV, fall-out,
balanced accuracy, MCC) take weighted counts, scalars or arrays broadcast together, and
return float64 with NaN exactly where the quantity is 0/0; :func:`fill_undefined` is the one
place where a ``zero_division`` value (and its warning) replaces that NaN. The label
metrics (``classification``, ``accuracy``, ``class_report``) and the threshold metrics (the
:class:`~isometrics.Metric` objects of ``registry``, the curves and best thresholds of
``spaces``) both call these kernels, so a quantity has one formula.

Also here, the functions behind the family's :class:`~isometrics.Metric` objects, without
the objects: the weights of F-beta, the power means of precision and recall at any
parameter in double range, Youden's J and the closeness to the top-left corner from counts,
the other metrics of the whole confusion matrix (kappa, markedness, accuracy, net
benefit), and the exact keys (rational arithmetic on integer counts) that decide ties
between operating points.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from .._core.constraints import user_stacklevel
from .._typing import ArrayLike, FloatArray
from ..exceptions import UndefinedMetricWarning
from ._log_means import _log_power_mean_fixed, _log_power_mean_scalar

__all__ = [
    "ExactKey",
    "balanced_accuracy_from_counts",
    "fall_out_from_counts",
    "fbeta_from_counts",
    "fill_undefined",
    "mcc_from_counts",
    "npv_from_counts",
    "precision_from_counts",
    "recall_from_counts",
    "specificity_from_counts",
]

#: ``key(tp, fp, n_positives, n_negatives) -> (num, den)`` on integer counts (object
#: arrays of Python ints for ``tp`` and ``fp``): the metric's value is an increasing
#: function of ``num / den``, computed exactly; ``den > 0`` where the metric is defined,
#: 0 where it is not (no predicted positive for metrics that need precision).
ExactKey = Callable[[Any, Any, int, int], tuple[Any, Any]]


# ---------------------------------------------------------------------------- count kernels
def _divide(numerator: Any, denominator: Any) -> FloatArray:
    """``numerator / denominator`` as float64, NaN where both are 0, without a NumPy warning."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(numerator, denominator, dtype=np.float64)


def fill_undefined(
    values: FloatArray, *, zero_division: Any, message: str | Callable[[], str], stacklevel: int = 4
) -> FloatArray:
    """``values`` with NaN (a kernel's 0/0) replaced by ``zero_division``: the one place it is applied.

    ``zero_division`` is ``"warn"`` (0.0 and an :class:`~isometrics.UndefinedMetricWarning`
    with ``message``, or ``message()`` when it is a callable), or the number that replaces
    the undefined values (``np.nan`` keeps them).
    """
    values = np.asarray(values, dtype=np.float64)
    undefined = np.isnan(values)
    if not undefined.any():
        return values
    if isinstance(zero_division, str):
        warnings.warn(
            message() if callable(message) else message, UndefinedMetricWarning, stacklevel=user_stacklevel(stacklevel)
        )
        fill = 0.0
    else:
        fill = float(zero_division)
    return np.where(undefined, fill, values)


def fbeta_from_counts(
    tp: ArrayLike, fp: ArrayLike, fn: ArrayLike | None, beta: float, *, positives: ArrayLike | None = None
) -> FloatArray:
    r"""F-beta from counts, :math:`TP / (w (TP + FP) + (1 - w)(TP + FN))`, :math:`w = 1/(1 + \beta^2)`.

    Equal to :math:`(1+\beta^2) TP / ((1+\beta^2) TP + \beta^2 FN + FP)`; the weights
    (:func:`_fbeta_weights`) make it overflow-free for every ``beta`` in [0, inf] and every
    count in double range. ``beta = 0`` is precision, ``inf`` recall. 0 where ``TP = 0``
    and the denominator is positive (in exact arithmetic: also where a weight times a
    tiny count underflows); NaN where it is 0/0 (no true positive, no false positive
    unless ``beta = inf``, no false negative unless ``beta = 0``). ``positives`` is
    ``TP + FN`` (computed from ``fn`` when not given): a count table that stores the
    total of the positives passes it, and ``fn`` may then be None.
    """
    w_pred, w_true = _fbeta_weights(beta)
    tp = np.asarray(tp, dtype=np.float64)
    if positives is None:
        if fn is None:
            raise TypeError("fbeta_from_counts needs `fn` or `positives`.")
        positives = np.add(tp, fn)
    total_pos = np.asarray(positives, dtype=np.float64)
    pos = w_true * total_pos
    den = np.asarray(np.add(tp, fp, dtype=np.float64))
    # In place where the shapes allow (the threshold sweep calls this on long arrays).
    in_place = den.ndim > 0 and den.shape == np.broadcast_shapes(den.shape, np.shape(pos))
    den = np.multiply(den, w_pred, out=den if in_place else None)
    den = np.add(den, pos, out=den if in_place else None)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.asarray(np.divide(tp, den, out=den if in_place and den.shape == tp.shape else None))
    undefined = np.isnan(value)
    if undefined.any():
        # The denominator is 0 only where TP = 0; it is 0 in exact arithmetic (F-beta is 0/0)
        # only where the counts that the weights count are 0 too, not where a weight
        # times a tiny count underflowed: F-beta is 0 there.
        exact_zero = (math.isinf(beta) | (np.add(tp, fp) == 0)) & ((beta == 0) | (total_pos == 0))
        value = np.where(undefined & ~exact_zero, 0.0, value)
    return value


def fbeta_denominator_terms(beta: float, positives: float) -> tuple[float, float]:
    """``(w_p, w_r P)`` of F-beta's count form ``TP / (w_p (TP + FP) + w_r P)``, as :func:`fbeta_from_counts`
    computes them (``P``: the positives' total, a scalar)."""
    w_pred, w_true = _fbeta_weights(beta)
    return w_pred, w_true * np.float64(positives)


def fbeta_from_predicted(
    tp: FloatArray, predicted: FloatArray, w_pred: float, pos: float, *, out: FloatArray
) -> FloatArray:
    """F-beta from ``TP`` and ``TP + FP`` (``predicted``), written into ``out``: :func:`fbeta_from_counts`'
    operations in its order (the same doubles) for a caller that holds ``TP + FP`` already (the threshold
    sweep's precision); ``w_pred, pos`` from :func:`fbeta_denominator_terms`. No 0/0 where ``pos > 0``."""
    np.multiply(predicted, w_pred, out=out)
    np.add(out, pos, out=out)
    return np.divide(tp, out, out=out)


def precision_from_counts(tp: Any, fp: Any, fn: Any, tn: Any) -> FloatArray:
    """Precision (positive predictive value), ``TP / (TP + FP)``; NaN with no predicted positive."""
    return _divide(tp, np.add(tp, fp))


def recall_from_counts(tp: Any, fp: Any, fn: Any, tn: Any, *, positives: Any = None) -> FloatArray:
    """Recall (true positive rate), ``TP / (TP + FN)``; NaN with no positive.

    ``positives`` is ``TP + FN``, computed when not given: a count table that stores the
    total of the positives passes it (``fn`` may then be None).
    """
    return _divide(tp, np.add(tp, fn) if positives is None else positives)


def specificity_from_counts(tp: Any, fp: Any, fn: Any, tn: Any) -> FloatArray:
    """Specificity (true negative rate), ``TN / (FP + TN)``; NaN with no negative."""
    return _divide(tn, np.add(fp, tn))


def fall_out_from_counts(tp: Any, fp: Any, fn: Any, tn: Any) -> FloatArray:
    """Fall-out (false positive rate), ``FP / (FP + TN)``; NaN with no negative."""
    return _divide(fp, np.add(fp, tn))


def npv_from_counts(tp: Any, fp: Any, fn: Any, tn: Any) -> FloatArray:
    """Negative predictive value, ``TN / (TN + FN)``; NaN with no predicted negative."""
    return _divide(tn, np.add(tn, fn))


def balanced_accuracy_from_counts(tp: Any, fp: Any, fn: Any, tn: Any) -> FloatArray:
    """The mean of the recalls of the two classes, ``(TPR + TNR) / 2``; NaN where a class has no sample."""
    return 0.5 * (recall_from_counts(tp, fp, fn, tn) + specificity_from_counts(tp, fp, fn, tn))


def mcc_from_counts(
    tp: ArrayLike, fp: ArrayLike, fn: ArrayLike, tn: ArrayLike, *, axis: int | None = None
) -> FloatArray:
    r"""Matthews' correlation coefficient from counts: binary, or multiclass (Gorodkin's R_K).

    With ``axis=None``, elementwise: :math:`(TP\,TN - FP\,FN) / (\sqrt{(TP+FN)(FP+TN)}
    \sqrt{(TP+FP)(FN+TN)})`. With ``axis``, the counts along it are the one-vs-rest counts
    of the K classes, and the result is R_K, :math:`\sum_k (TP_k TN_k - FP_k FN_k) /
    (\sqrt{\sum_k t_k (n - t_k)} \sqrt{\sum_k p_k (n - p_k)})` with :math:`t_k` and
    :math:`p_k` the true and predicted totals of class k: Gorodkin's
    :math:`(c\,s - \sum_k p_k t_k)/\sqrt{(s^2 - \sum_k p_k^2)(s^2 - \sum_k t_k^2)}`
    with each difference written as a sum of one-vs-rest terms. The sums are taken as
    means (the same ratio), so for K = 2 it is the binary MCC bit for bit. The counts of
    each table are first scaled by a power of two (exact) that brings the largest near
    :math:`2^{509}`, so no product overflows, and none underflows unless the counts span
    more than about 300 orders of magnitude. NaN where
    it is 0/0 (one class in the truth or in the predictions).
    """
    counts = np.broadcast_arrays(*(np.asarray(c, dtype=np.float64) for c in (tp, fp, fn, tn)))
    largest = np.maximum(np.maximum(counts[0], counts[1]), np.maximum(counts[2], counts[3]))
    if axis is not None:
        largest = np.max(largest, axis=axis, keepdims=True)
    # Scale each table by a power of two (exact) that brings its largest count into
    # [2**508, 2**509): a product of two sums of counts is then below 2**1020, and products
    # of small counts keep their precision. Where nothing over- or underflowed unscaled,
    # the result is the unscaled one bit for bit.
    exponent = np.frexp(largest)[1]
    a, b, c, d = (np.ldexp(x, np.where(largest > 0, 509 - exponent, 0)) for x in counts)  # tp, fp, fn, tn
    cross, actual, predicted = _cross(a, b, c, d), (a + c) * (b + d), (a + b) * (c + d)
    if axis is not None:  # means, not sums (the same ratio): K = 2 is then the binary MCC bit for bit
        cross, actual, predicted = cross.mean(axis=axis), actual.mean(axis=axis), predicted.mean(axis=axis)
    # Two square roots of two sums each: no product of four counts.
    return _divide(cross, np.sqrt(actual) * np.sqrt(predicted))


# ---------------------------------------------------------------------------- power-mean kernels
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
    """``(1 / (1 + beta**2), beta**2 / (1 + beta**2))`` for beta in [0, inf], without overflow.

    F-beta is ``TP / (w_p (TP + FP) + w_r (TP + FN))`` with these weights of the predicted
    and the actual positives; unlike ``(1 + beta**2) TP / (...)`` it cannot overflow for
    any beta or any count in double range.
    """
    if beta == math.inf:
        return 0.0, 1.0
    if beta == 0:
        return 1.0, 0.0
    if 1e-150 <= beta <= 1e150:  # beta**2 in [1e-300, 1e300]: one rounding each
        b2 = beta * beta
        return 1.0 / (1.0 + b2), b2 / (1.0 + b2)
    log_b2 = 2.0 * math.log(beta)
    return math.exp(-_softplus_scalar(log_b2)), math.exp(-_softplus_scalar(-log_b2))


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
    return recall_from_counts(tp, fp, fn, tn), fall_out_from_counts(tp, fp, fn, tn)


def _youden(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    tpr, fpr = _rates(tp, fp, fn, tn)
    return tpr - fpr


def _top_left(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    fpr, fnr = fall_out_from_counts(tp, fp, fn, tn), fn / (tp + fn)
    return 1.0 - np.hypot(fpr, fnr) / math.sqrt(2.0)


# ---------------------------------------------------------------------------- whole-matrix metrics
# Each takes the four counts (broadcast) and returns NaN (0/0) where the metric is undefined;
# the exact keys below take (tp, fp, P, N) with TN = N - FP, FN = P - TP.
def _cross(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    """``TP TN - FP FN``, the numerator shared by MCC, markedness, informedness and kappa."""
    return tp * tn - fp * fn


def _accuracy(tp: FloatArray, fp: FloatArray, fn: FloatArray, tn: FloatArray) -> FloatArray:
    return (tp + tn) / ((tp + fn) + (fp + tn))


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
