r"""Level curves ("isometrics") of any metric of the family, in PR, ROC and PRG space.

A level curve of a metric :math:`M(P, R)` is the set of (recall, precision) points where
it takes one value; plotting code only draws these arrays. In PR space the precision on
the curve is found for each recall by bisection (every metric of the family increases
with precision), so the same code serves F-beta, G(beta, rho), power means, min and max.
ROC and PRG level curves are the images of the PR curve for a given prevalence:
:math:`\mathrm{FPR} = \frac{\pi}{1-\pi}\,\mathrm{TPR}\,\frac{1-P}{P}` and the gain transform.

References
----------
.. [1] G. Gandenberger, "Evaluating Classification Models, Part 3: F-beta and Other
   Weighted Pythagorean Means of Precision and Recall" and "Part 4: Weighted Power Means
   of Precision and Recall", blog posts, November and December 2019 (level curves, the
   break-even line R/P = beta, tangent slopes).
.. [2] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
   NeurIPS 2015 (iso-F-beta lines are straight in PRG space).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import NUMBERS, InBody, Integral, Interval, Real, validate_params
from .._core.html import summarised
from .._core.validation import check_broadcast, check_integer, check_real, check_unit_interval
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError
from ..metrics._arguments import parse_metric_argument
from ..metrics.gain import gain_transform
from ..metrics.registry import Metric

__all__ = ["LevelCurve", "level_curve", "break_even_line", "level_curve_slope"]


@summarised()
class LevelCurve(NamedTuple):
    """Points of one level curve, in the requested space (arrays of equal length).

    ``x`` and ``y`` are the plot's axes: (recall, precision) in PR space, (FPR, TPR) in
    ROC space, (recall gain, precision gain) in PRG space. ``recall`` and ``precision``
    give the same points in PR coordinates.
    """

    x: FloatArray
    y: FloatArray
    recall: FloatArray
    precision: FloatArray


def _bisect(f: Callable[[float], float], lo: float, hi: float, value: float, *, first: bool) -> float:
    """Where a non-decreasing ``f`` on ``[lo, hi]`` (``0 <= lo <= hi``) crosses ``value``, to the last bit.

    ``first=True``: the smallest ``x`` with ``f(x) >= value`` (``hi`` if none);
    ``first=False``: the largest ``x`` with ``f(x) <= value`` (``lo`` if none). Bisects the
    bit patterns of the doubles, which are ordered like their values when non-negative:
    at most 64 steps, and exact next to 0 as next to 1.
    """
    a = int(np.float64(lo).view(np.int64))
    b = int(np.float64(hi).view(np.int64))

    def x(bits: int) -> float:
        return float(np.int64(bits).view(np.float64))

    if first:
        if f(lo) >= value or f(hi) < value:
            return lo if f(lo) >= value else hi
        while b - a > 1:  # f(x(a)) < value <= f(x(b))
            mid = (a + b) // 2
            if f(x(mid)) >= value:
                b = mid
            else:
                a = mid
        return x(b)
    if f(hi) <= value or f(lo) > value:
        return hi if f(hi) <= value else lo
    while b - a > 1:  # f(x(a)) <= value < f(x(b))
        mid = (a + b) // 2
        if f(x(mid)) > value:
            b = mid
        else:
            a = mid
    return x(a)


def _kernel(metric: Metric) -> Callable[[ArrayLike, ArrayLike], FloatArray]:
    """The metric's precision-recall kernel on float64 arrays: the values of
    :meth:`Metric.from_precision_recall`, bit for bit, without its input validation (the
    bisections call it thousands of times on scalars the caller made; ``level_curve`` has
    checked that the metric has a kernel)."""
    pr = metric._pr
    assert pr is not None

    def kernel(p: ArrayLike, r: ArrayLike) -> FloatArray:
        return np.asarray(pr(np.asarray(p, dtype=np.float64), np.asarray(r, dtype=np.float64)), dtype=np.float64)

    return kernel


def _on_ray(metric: Metric, u: FloatArray, value: float) -> tuple[FloatArray, FloatArray]:
    """The level-curve point in the direction (recall, precision) = (1 - u, u), for u in [0, 1].

    Every precision-recall metric of the family is homogeneous of degree 1
    (``M(tP, tR) = t M(P, R)``), so along each ray from the origin it meets the level once,
    at ``t = value / M(u, 1 - u)``: no search, and the level holds to the metric's accuracy.
    """
    with np.errstate(divide="ignore", invalid="ignore"):  # u = 0 or 1 may have M = 0: only at end points,
        t = value / _kernel(metric)(u, 1.0 - u)  # which the callers set from their edges
        return np.minimum(t * (1.0 - u), 1.0), np.minimum(t * u, 1.0)


class _Ends(NamedTuple):
    u_start: float
    u_end: float
    start: tuple[float, float]  # (recall, precision)
    end: tuple[float, float]


def _ends(metric: Metric, value: float, low: float) -> _Ends | None:
    """End points of the level curve in the square ``[low, 1]**2`` of (recall, precision).

    The start is the point of the level set with the smallest recall (on the top edge, or
    on the left edge where ``M(1, low) >= value``), the end the one with the largest recall
    (on the right edge, or on the bottom edge where ``M(low, 1) > value``); each solved on
    its edge by bisection to the last bit. None when the level lies below the square.
    """
    kernel = _kernel(metric)

    def m(p: float, r: float) -> float:
        return float(kernel(p, r))

    if m(low, low) > value:
        return None
    if m(1.0, low) >= value:
        start = (low, _bisect(lambda p: m(p, low), low, 1.0, value, first=False))
    else:
        start = (_bisect(lambda r: m(1.0, r), low, 1.0, value, first=True), 1.0)
    if m(low, 1.0) <= value:
        end = (1.0, _bisect(lambda p: m(p, 1.0), low, 1.0, value, first=True))
    else:
        end = (_bisect(lambda r: m(low, r), low, 1.0, value, first=False), low)
    return _Ends(start[1] / (start[0] + start[1]), end[1] / (end[0] + end[1]), start, end)


def _roc_fpr(odds: float, recall: FloatArray, precision: FloatArray) -> FloatArray:
    """FPR ``odds R (1 - P) / P`` of PR points, ``inf`` wherever it exceeds 1 (outside the ROC square).

    The quotient is formed only where it is at most 1 (``odds R (1 - P) <= P``), so a
    precision near 0 (a tiny one, where the level of a metric with a huge beta meets it)
    cannot overflow; ``odds R (1 - P)`` itself is at most ``odds``, finite. A NaN point (the
    corner of a ray where the metric is 0/0) stays NaN, as the quotient gives it.
    """
    numerator = odds * recall * (1.0 - precision)
    inside = (precision > 0) & (numerator <= precision)
    out = np.where(np.isnan(numerator) | np.isnan(precision), math.nan, math.inf)
    return np.divide(numerator, precision, out=out, where=inside)


def _roc_end(metric: Metric, value: float, ends: _Ends, odds: float) -> tuple[_Ends, bool]:
    """Cut the curve where it leaves the ROC square through FPR = 1 (``odds`` = pi / (1 - pi)).

    Along the curve FPR = odds R (1 - P) / P grows with recall; where the end point's FPR
    exceeds 1, the crossing is found by bisection in the ray parameter. Returns the new
    ends and whether the curve was cut.
    """

    def fpr(u: float) -> float:
        r, p = _on_ray(metric, np.array([u]), value)
        return float(_roc_fpr(odds, r, p)[0])

    r_end, p_end = ends.end
    if _roc_fpr(odds, np.array([r_end]), np.array([p_end]))[0] <= 1.0:
        return ends, False
    u_cut = _bisect(lambda u: -fpr(u), ends.u_end, ends.u_start, -1.0, first=True)
    r, p = _on_ray(metric, np.array([u_cut]), value)
    return ends._replace(u_end=u_cut, end=(float(r[0]), float(p[0]))), True


def _sample(metric: Metric, value: float, ends: _Ends, n_points: int) -> tuple[FloatArray, FloatArray]:
    """``n_points`` points from the start to the end, evenly spaced in the ray parameter, with the
    metric's corner (min/max-like metrics) on the curve when it lies inside."""
    u = np.linspace(ends.u_start, ends.u_end, n_points)
    if metric._corner is not None and n_points > 2:
        u_corner = 1.0 / (1.0 + metric._corner)  # where R/P = corner
        if min(ends.u_start, ends.u_end) < u_corner < max(ends.u_start, ends.u_end):
            k = int(np.argmin(np.abs(u - u_corner)))
            if 0 < k < n_points - 1:
                u[k] = u_corner
    recall, precision = _on_ray(metric, u, value)
    recall[0], precision[0] = ends.start
    recall[-1], precision[-1] = ends.end
    # along straight edges (min/max-like metrics) rounding could make the order wobble by an ulp
    return np.maximum.accumulate(recall), np.minimum.accumulate(precision)


@validate_params(
    {
        "metric": InBody("a metric name or a Metric", invalid=["no-such-metric"]),
        "value": Interval(Real, 0, 1, closed="right"),
        "space": InBody("'pr', 'roc' or 'prg'", invalid=["det"]),
        "prevalence": [Interval(Real, 0, 1, closed="neither"), None],
        "n_points": Interval(Integral, 2, None),
    }
)
def level_curve(
    metric: str | Metric,
    value: float,
    *,
    space: str = "pr",
    prevalence: float | None = None,
    n_points: int = 200,
) -> LevelCurve:
    r"""The level curve ``metric = value``, as points in PR, ROC or PRG space.

    Parameters
    ----------
    metric : str or Metric
        A metric of precision and recall (see :func:`parse_metric`), e.g. ``"f2"`` or
        ``"g(beta=2, rho=-3)"``.
    value : float
        The level, in (0, 1].
    space : {"pr", "roc", "prg"}, default="pr"
        Where to express the curve.
    prevalence : float, default=None
        Share of positives in (0, 1); required for ROC and PRG space.
    n_points : int, default=200
        Points along the curve (>= 2), its two end points included.

    Returns
    -------
    LevelCurve
        ``x, y`` in the space's axes and the same points as ``recall, precision``,
        ordered by increasing recall. The curve spans its whole domain in the space's
        unit square: its first point is the level set's point of smallest recall (on
        the top or the left edge of the PR square), its last point the one of largest
        recall (on the right or the bottom edge; in ROC space, where the false positive
        rate reaches 1 if it does), both exactly on the edges. In PRG space the square
        is recall and precision at least the prevalence (gains in [0, 1]), and the
        curve is empty when the level lies below it. Length ``n_points``, or 0 when
        empty.

    Raises
    ------
    InvalidParameterError
        If the metric is not a precision-recall metric, ``value`` is not in (0, 1],
        ``space`` is unknown, ``prevalence`` is missing or not in (0, 1), or
        ``n_points`` is not an integer >= 2.

    See Also
    --------
    break_even_line, level_curve_slope

    Notes
    -----
    Every metric of the family is homogeneous of degree 1, so the ray from the origin
    in the direction :math:`(1 - u, u)` meets the level ``v`` at
    :math:`t = v / M(u, 1 - u)`. The end points are found on the square's edges by
    bisection to the last bit, and the points in between are spaced evenly in
    :math:`u`: steep and flat stretches of the curve are sampled alike. In ROC space
    the curve is cut where it reaches FPR = 1.

    F-beta's level curves are straight lines of slope :math:`-\beta^2` in PRG space; the
    weighted arithmetic mean's are straight in PR space.

    Examples
    --------
    >>> from isometrics import level_curve
    >>> curve = level_curve("f1", 0.5, n_points=3)
    >>> curve.recall.round(4), curve.precision.round(4)
    (array([0.3333, 0.5   , 1.    ]), array([1.    , 0.5   , 0.3333]))
    """
    m = parse_metric_argument(metric)
    if m._pr is None:
        raise InvalidParameterError(
            f"{current_caller()}: {m.spec} is not a metric of precision and recall; its level curves are not defined in PR space."
        )
    v = check_real(value, "value", low=0.0, high=1.0, low_inclusive=False)
    if space not in ("pr", "roc", "prg"):
        raise InvalidParameterError(f"{current_caller()}: `space` must be 'pr', 'roc' or 'prg'; got {space!r}.")
    n_points = check_integer(n_points, "n_points", low=2)
    pi = None
    if space != "pr":
        if prevalence is None:
            raise InvalidParameterError(
                f"{current_caller()}: space={space!r} needs the prevalence (share of positives)."
            )
        pi = check_real(prevalence, "prevalence", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    ends = _ends(m, v, pi if space == "prg" and pi is not None else 0.0)
    if ends is None:  # the level lies below the PRG square
        empty = np.zeros(0)
        return LevelCurve(empty, empty.copy(), empty.copy(), empty.copy())
    if space == "pr":
        recall, precision = _sample(m, v, ends, n_points)
        return LevelCurve(recall, precision, recall, precision)
    assert pi is not None
    if space == "roc":
        odds = pi / (1 - pi)
        ends, cut = _roc_end(m, v, ends, odds)
        recall, precision = _sample(m, v, ends, n_points)
        fpr = np.minimum(_roc_fpr(odds, recall, precision), 1.0)
        if cut:
            fpr[-1] = 1.0  # the crossing of the right edge
        return LevelCurve(fpr, recall, recall, precision)
    recall, precision = _sample(m, v, ends, n_points)
    recall, precision = np.maximum(recall, pi), np.maximum(precision, pi)
    gains = []
    for coordinate in (recall, precision):  # the square's edges exactly, whatever the rounding of the gain
        gain = gain_transform(coordinate, pi)
        gain[coordinate == pi], gain[coordinate == 1.0] = 0.0, 1.0
        gains.append(gain)
    return LevelCurve(gains[0], gains[1], recall, precision)


@validate_params({"beta": Interval(Real, 0, None, closed="right"), "n_points": Interval(Integral, 2, None)})
def break_even_line(beta: float, *, n_points: int = 2) -> LevelCurve:
    """The break-even line ``recall / precision = beta`` in PR space (within the unit square).

    On it a point of precision and a point of recall are worth the same for every
    G(beta, rho) with ``rho != 0``: level curves cross it with slope -1. Above it (more
    precision than ``recall / beta``) a point of recall is worth more; below it, a point
    of precision.

    Parameters
    ----------
    beta : float
        The break-even ratio, > 0.
    n_points : int, default=2
        Points along the line (>= 2).

    Returns
    -------
    LevelCurve
        ``x = recall``, ``y = precision = recall / beta``, from the origin to the edge
        of the unit square.

    Raises
    ------
    InvalidParameterError
        If ``beta`` is not > 0 or ``n_points`` is not an integer >= 2.

    References
    ----------
    .. [1] G. Gandenberger, "Evaluating Classification Models, Part 3: F-beta and Other
       Weighted Pythagorean Means of Precision and Recall", blog post, 26 November 2019
       (the black line of the level-curve plots).

    Examples
    --------
    >>> from isometrics.spaces import break_even_line
    >>> line = break_even_line(2.0)
    >>> line.recall, line.precision
    (array([0., 1.]), array([0. , 0.5]))
    """
    b = check_real(beta, "beta", low=0.0, low_inclusive=False)
    n_points = check_integer(n_points, "n_points", low=2)
    end = min(1.0, b)  # recall at the square's edge: precision 1 or recall 1
    recall = np.linspace(0.0, end, n_points)
    precision = recall / b
    return LevelCurve(recall, precision, recall, precision)


@validate_params(
    {
        "metric": InBody("a metric of precision and recall", invalid=["no-such-metric"]),
        "precision": NUMBERS,
        "recall": NUMBERS,
    }
)
def level_curve_slope(metric: str | Metric, precision: ArrayLike, recall: ArrayLike) -> FloatArray:
    r"""Slope ``d precision / d recall`` of the metric's level curve through (recall, precision).

    For a weighted power mean :math:`W_{\gamma,\varphi}` it is
    :math:`-\gamma^{-1} (R/P)^{\varphi - 1}`, so for :math:`G_{\beta,\rho}`
    :math:`-(R/(\beta P))^{\rho}`: -1 on the break-even line. Its negative
    reciprocal is how many points of recall one point of precision is worth there.
    Other metrics are differentiated numerically (central differences).

    Parameters
    ----------
    metric : str or Metric
        A metric of precision and recall.
    precision, recall : float or array-like
        Points in (0, 1], broadcast.

    Returns
    -------
    ndarray of float64
        Slopes, <= 0 (level curves fall: more recall compensates less precision).

    Raises
    ------
    InvalidParameterError
        If the metric is not a precision-recall metric, a point is not a number in
        (0, 1], or ``precision`` and ``recall`` do not broadcast together.

    Examples
    --------
    >>> from isometrics.spaces import level_curve_slope
    >>> float(level_curve_slope("g(beta=2, rho=-3)", 0.4, 0.8))   # on R/P = beta
    -1.0
    """
    m = parse_metric_argument(metric)
    if m._pr is None:
        raise InvalidParameterError(f"level_curve_slope: {m.spec} is not a metric of precision and recall.")
    p = check_unit_interval(precision, "precision", low_open=True)
    r = check_unit_interval(recall, "recall", low_open=True)
    check_broadcast("level_curve_slope", precision=p, recall=r)
    if m.log_gamma is not None and m.phi is not None and math.isfinite(m.phi) and math.isfinite(m.log_gamma):
        with np.errstate(over="ignore"):
            return np.asarray(-np.exp(-m.log_gamma + (m.phi - 1.0) * (np.log(r) - np.log(p))), dtype=np.float64)
    return _numeric_slope(m, p, r)


def _numeric_slope(m: Metric, p: FloatArray, r: FloatArray) -> FloatArray:
    h = 1e-6
    p, r = np.broadcast_arrays(p, r)
    dp = m.from_precision_recall(np.minimum(p + h, 1), r) - m.from_precision_recall(np.maximum(p - h, 0), r)
    dp /= np.minimum(p + h, 1) - np.maximum(p - h, 0)
    dr = m.from_precision_recall(p, np.minimum(r + h, 1)) - m.from_precision_recall(p, np.maximum(r - h, 0))
    dr /= np.minimum(r + h, 1) - np.maximum(r - h, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return -dr / dp
