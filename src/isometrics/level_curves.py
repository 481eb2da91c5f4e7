r"""Level curves ("isometrics") of any metric of the family, in PR, ROC and PRG space.

A level curve of a metric :math:`M(P, R)` is the set of (recall, precision) points where
it takes one value; plotting code only draws these arrays. In PR space the precision on
the curve is found for each recall by bisection (every metric of the family increases
with precision), so the same code serves F-beta, G(beta, rho), power means, min and max.
ROC and PRG level curves are the images of the PR curve for a given prevalence:
:math:`\mathrm{FPR} = \frac{\pi}{1-\pi}\,\mathrm{TPR}\,\frac{1-P}{P}` and the gain transform.

References
----------
.. [1] ``shared/reference/001`` and ``000`` (level curves, the break-even line R/P = beta,
   tangent slopes), corrected by ``ERRATA.md``.
.. [2] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
   NeurIPS 2015 (iso-F-beta lines are straight in PRG space).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._typing import ArrayLike, FloatArray
from ._validation import check_integer, check_real
from .exceptions import InvalidParameterError
from .gain import _gain
from .metrics import Metric, parse_metric

__all__ = ["LevelCurve", "level_curve", "break_even_line", "level_curve_slope"]


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


def _precision_on_level(metric: Metric, recall: FloatArray, value: float) -> FloatArray:
    """Precision in [0, 1] with ``metric(P, R) == value`` for each recall; NaN where none exists."""
    lo, hi = np.zeros_like(recall), np.ones_like(recall)
    top = metric.from_precision_recall(hi, recall)
    bottom = metric.from_precision_recall(lo, recall)
    exists = (top >= value - 1e-15) & (bottom <= value + 1e-15)  # the level is crossed within [0, 1]
    for _ in range(64):  # bisection to double precision: the metric increases with precision
        mid = 0.5 * (lo + hi)
        above = metric.from_precision_recall(mid, recall) >= value
        hi = np.where(above, mid, hi)
        lo = np.where(above, lo, mid)
    return np.where(exists, hi, np.nan)


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
        Recall values tried, evenly spaced in (0, 1] (>= 2); points where no precision
        in [0, 1] reaches the level are left out.

    Returns
    -------
    LevelCurve
        ``x, y`` in the space's axes and the same points as ``recall, precision``,
        ordered by increasing recall. In PRG space only points with recall and
        precision at least the prevalence (gains in [0, 1]) are kept.

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
    F-beta's level curves are straight lines of slope :math:`-\beta^2` in PRG space; the
    weighted arithmetic mean's are straight in PR space.

    Examples
    --------
    >>> from isometrics import level_curve
    >>> curve = level_curve("f1", 0.5, n_points=3)
    >>> curve.recall.round(4), curve.precision.round(4)
    (array([0.3333, 0.6667, 1.    ]), array([1.    , 0.4   , 0.3333]))
    """
    caller = "level_curve"
    m = parse_metric(metric)
    if m._pr is None:
        raise InvalidParameterError(f"{caller}: {m.spec} is not a metric of precision and recall; "
                                    "its level curves are not defined in PR space.")
    v = check_real(value, "value", caller=caller, low=0.0, high=1.0, low_inclusive=False)
    if space not in ("pr", "roc", "prg"):
        raise InvalidParameterError(f"{caller}: `space` must be 'pr', 'roc' or 'prg'; got {space!r}.")
    n_points = check_integer(n_points, "n_points", caller=caller, low=2)
    pi = None
    if space != "pr":
        if prevalence is None:
            raise InvalidParameterError(f"{caller}: space={space!r} needs the prevalence (share of positives).")
        pi = check_real(prevalence, "prevalence", caller=caller, low=0.0, high=1.0, low_inclusive=False,
                        high_inclusive=False)
    recall = np.linspace(0.0, 1.0, n_points + 1)[1:]
    precision = _precision_on_level(m, recall, v)
    keep = ~np.isnan(precision)
    recall, precision = recall[keep], precision[keep]
    if space == "pr":
        return LevelCurve(recall, precision, recall, precision)
    assert pi is not None
    if space == "roc":
        with np.errstate(divide="ignore", invalid="ignore"):
            fpr = (pi / (1 - pi)) * recall * (1 - precision) / precision
        inside = fpr <= 1.0
        return LevelCurve(fpr[inside], recall[inside], recall[inside], precision[inside])
    inside = (recall >= pi) & (precision >= pi)
    recall, precision = recall[inside], precision[inside]
    return LevelCurve(_gain(recall, pi), _gain(precision, pi), recall, precision)


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
    .. [1] ``shared/reference/001`` (the black line of the level-curve plots).

    Examples
    --------
    >>> from isometrics import break_even_line
    >>> line = break_even_line(2.0)
    >>> line.recall, line.precision
    (array([0., 1.]), array([0. , 0.5]))
    """
    b = check_real(beta, "beta", caller="break_even_line", low=0.0, low_inclusive=False)
    n_points = check_integer(n_points, "n_points", caller="break_even_line", low=2)
    end = min(1.0, b)  # recall at the square's edge: precision 1 or recall 1
    recall = np.linspace(0.0, end, n_points)
    precision = recall / b
    return LevelCurve(recall, precision, recall, precision)


def level_curve_slope(metric: str | Metric, precision: ArrayLike, recall: ArrayLike) -> FloatArray:
    r"""Slope ``d precision / d recall`` of the metric's level curve through (recall, precision).

    For a weighted power mean :math:`W_{\gamma,\varphi}` it is
    :math:`-\gamma^{-1} (R/P)^{\varphi - 1}`, so for :math:`G_{\beta,\rho}`
    :math:`-(R/(\beta P))^{\rho}` (ERRATA.md): -1 on the break-even line. Its negative
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
        If the metric is not a precision-recall metric, or a point is outside (0, 1].

    Examples
    --------
    >>> from isometrics import level_curve_slope
    >>> float(level_curve_slope("g(beta=2, rho=-3)", 0.4, 0.8))   # on R/P = beta
    -1.0
    """
    m = parse_metric(metric)
    if m._pr is None:
        raise InvalidParameterError(f"level_curve_slope: {m.spec} is not a metric of precision and recall.")
    p = np.asarray(precision, dtype=np.float64)
    r = np.asarray(recall, dtype=np.float64)
    if not (np.all((p > 0) & (p <= 1)) and np.all((r > 0) & (r <= 1))):
        raise InvalidParameterError("level_curve_slope: precision and recall must lie in (0, 1].")
    if m.log_gamma is not None and m.phi is not None and math.isfinite(m.phi) and math.isfinite(m.log_gamma):
        with np.errstate(over="ignore"):
            return np.asarray(-np.exp(-m.log_gamma + (m.phi - 1.0) * (np.log(r) - np.log(p))), dtype=np.float64)
    return _numeric_slope(m, p, r)


def _numeric_slope(m: Metric, p: FloatArray, r: FloatArray) -> FloatArray:
    h = 1e-6
    p, r = np.broadcast_arrays(p, r)
    dp = (m.from_precision_recall(np.minimum(p + h, 1), r) - m.from_precision_recall(np.maximum(p - h, 0), r))
    dp /= np.minimum(p + h, 1) - np.maximum(p - h, 0)
    dr = (m.from_precision_recall(p, np.minimum(r + h, 1)) - m.from_precision_recall(p, np.maximum(r - h, 0)))
    dr /= np.minimum(r + h, 1) - np.maximum(r - h, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return -dr / dp

