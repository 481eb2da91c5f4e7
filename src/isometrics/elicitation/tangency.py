r"""Tangency: (beta, rho) in closed form from a stakeholder's favourite points on frontiers.

At the favourite point :math:`(P^*, R^*)` of a frontier whose slope there is
:math:`s = dP/dR < 0`, the level curve of :math:`G_{\beta,\rho}` touches the frontier:
:math:`\ln(-s) = \rho \ln(R^*/P^*) - \rho \ln\beta`, linear in :math:`(u, v) = (\rho, \rho\ln\beta)`
(the logarithm of the level-curve slope :math:`-(R/(\beta P))^\rho`). Two frontiers with
different :math:`R^*/P^*` give (u, v) by a 2 x 2 solve; more give least squares, whose
residuals check that one G explains every choice. An empirical curve has no slope:
:func:`hull_slope` reads it from the edges of the ROC convex hull (``isometrics.spaces.hull``)
around the favourite vertex.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import NUMBERS, InBody, validate_params
from .._core.html import summarised
from .._core.validation import check_real_array
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics.registry import Metric
from ..spaces.hull import RocHull
from .result import elicited_metric

#: Residuals (in ln(-slope)) above this make the favourite points inconsistent with one G.
CONSISTENCY_TOLERANCE = 1e-6


@summarised()
@dataclass(frozen=True)
class TangencyResult:
    """(beta, rho) from favourite points on frontiers.

    Attributes
    ----------
    beta, rho : float
        The estimate: ``rho = u``, ``beta = exp(v / u)``.
    condition_number : float
        2-norm condition number of the system's matrix ``[ln(R*/P*), -1]``; large when
        the favourite points have similar ``R*/P*`` (then beta and rho are poorly determined).
    residuals : ndarray of float64
        ``ln(-s) - (u ln(R*/P*) - v)`` per point (zeros for two points).
    consistent : bool
        Whether every residual is within ``CONSISTENCY_TOLERANCE`` (always True for two points).
    metric : Metric
        ``G(beta, rho)`` (4 significant digits).
    """

    beta: float
    rho: float
    condition_number: float
    residuals: FloatArray
    consistent: bool
    metric: Metric


@validate_params({"points": NUMBERS, "slopes": NUMBERS})
def tangency_estimate(points: Sequence[tuple[float, float]] | ArrayLike, slopes: ArrayLike) -> TangencyResult:
    r"""Estimate (beta, rho) of G from favourite points on two or more frontiers.

    .. math::

        \ln(-s_i) = \rho \ln(R_i/P_i) - \rho \ln\beta, \quad i = 1, \dots, k

    Parameters
    ----------
    points : array-like of shape (k, 2)
        The favourite point ``(precision, recall)`` on each frontier, each in (0, 1]; k >= 2.
    slopes : array-like of shape (k,)
        The frontier's slope ``dP/dR`` at each point, < 0.

    Returns
    -------
    TangencyResult
        The estimate, the system's condition number and the consistency check.

    Raises
    ------
    InvalidParameterError
        If the shapes are wrong, a point is outside (0, 1] or a slope is not negative.
    IsometricsError
        If the favourite points have the same ``R/P`` (the system is singular: use
        frontiers whose favourite points differ in R/P), or they give rho = 0, where
        beta is not identified from slopes (every slope is -1).

    Notes
    -----
    Exact to rounding when the points are exact tangency points of smooth frontiers with
    known slopes. Found by pairwise search along a curve, a favourite point is only known
    to about the square root of the answer resolution, since G is flat at its maximum.

    References
    ----------
    .. [1] G. Gandenberger, "Evaluating Classification Models, Part 4: Weighted Power
       Means of Precision and Recall", blog post, 2 December 2019 (level curves of G and
       their slopes); ``docs/elicitation.md``.

    Examples
    --------
    The slopes of G(beta=2, rho=-3)'s level curves at two points give back beta and rho:

    >>> import math
    >>> from isometrics.elicitation import tangency_estimate
    >>> beta, rho = 2.0, -3.0
    >>> pts = [(0.5, 0.5), (0.8, 0.4)]
    >>> slopes = [-(r / (beta * p)) ** rho for p, r in pts]
    >>> est = tangency_estimate(pts, slopes)
    >>> round(est.beta, 12), round(est.rho, 12)
    (2.0, -3.0)
    """
    pts = check_real_array(points, "points")
    s = check_real_array(slopes, "slopes")
    if pts.ndim != 2 or pts.shape[1] != 2 or pts.shape[0] < 2:
        raise InvalidParameterError(
            f"{current_caller()}: `points` must have shape (k, 2) with k >= 2 (precision, recall per "
            f"frontier); got shape {pts.shape}."
        )
    if s.shape != (pts.shape[0],):
        raise InvalidParameterError(
            f"{current_caller()}: `slopes` must have one value per point ({pts.shape[0]}); got shape {s.shape}."
        )
    if not np.all((pts > 0) & (pts <= 1)):
        raise InvalidParameterError(
            f"{current_caller()}: every precision and recall in `points` must lie in (0, 1]; got {pts.tolist()}."
        )
    if not np.all(s < 0) or not np.all(np.isfinite(s)):
        raise InvalidParameterError(
            f"{current_caller()}: every slope dP/dR in `slopes` must be finite and < 0; got {s.tolist()}."
        )
    x = np.log(pts[:, 1] / pts[:, 0])
    a = np.column_stack([x, -np.ones_like(x)])
    y = np.log(-s)
    cond = float(np.linalg.cond(a))
    if not math.isfinite(cond) or cond > 1e12:
        raise IsometricsError(
            f"{current_caller()}: the favourite points have the same R/P ({np.exp(x).tolist()}), so the "
            "slopes cannot separate beta from rho; use frontiers whose favourite points differ in "
            "R/P (two models, or one model at two prevalences)."
        )
    (u, v), *_ = np.linalg.lstsq(a, y, rcond=None)
    residuals = y - a @ np.array([u, v])
    if abs(u) < 1e-12:
        raise IsometricsError(
            f"{current_caller()}: the slopes give rho = 0 (every slope is -1 at its point); there G is the "
            "stipulated (beta P + R)/(1 + beta) whose level curves have slope -1/beta, not -1, so no "
            "G fits: check the slopes."
        )
    beta, rho = math.exp(v / u), float(u)
    return TangencyResult(
        beta, rho, cond, residuals, bool(np.all(np.abs(residuals) <= CONSISTENCY_TOLERANCE)), elicited_metric(beta, rho)
    )


@validate_params({"hull": InBody("a RocHull"), "index": InBody("a vertex index")})
def hull_slope(hull: RocHull, index: int) -> tuple[float, float, float]:
    r"""The precision-recall slope at a vertex of a ROC convex hull, from its two edges.

    A ROC edge of slope :math:`k = dTPR/dFPR` through the vertex (TPR, FPR) maps to the PR
    slope :math:`dP/dR = \pi(1-\pi)(FPR - TPR/k) / (\pi TPR + (1-\pi) FPR)^2` with
    :math:`\pi` the prevalence. The slope at the vertex lies between those of its two edges.

    Parameters
    ----------
    hull : RocHull
        The hull, e.g. ``roc_convex_hull(y_true, y_score)``.
    index : int
        The favourite vertex, strictly inside (not the first or the last vertex).

    Returns
    -------
    tuple of float
        ``(low, high, mid)``: the PR slopes of the steeper and the flatter edge, and their
        geometric-mean ``-sqrt(low * high)``, the slope taken for the estimate.

    Raises
    ------
    InvalidParameterError
        If ``hull`` is not a :class:`~isometrics.RocHull`; if ``index`` is not an inner vertex, the vertex has zero recall, or an edge
        beside it leaves the slope unbounded or non-negative (precision not falling).

    Examples
    --------
    >>> from isometrics import roc_convex_hull
    >>> from isometrics.elicitation.tangency import hull_slope
    >>> hull = roc_convex_hull([1, 1, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0], range(12, 0, -1))
    >>> hull.tpr, hull.slopes
    (array([0. , 0.4, 0.8, 1. , 1. ]), array([inf, 1.4, 0.7, 0. ]))
    >>> [round(v, 4) for v in hull_slope(hull, 2)]
    [-0.8333, -0.2778, -0.4811]
    """
    if not isinstance(hull, RocHull):
        raise InvalidParameterError(
            f"{current_caller()}: `hull` must be a RocHull; got {type(hull).__name__}; pass roc_convex_hull(y_true, y_score)."
        )
    n = len(hull.fpr)
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 < index < n - 1:
        raise InvalidParameterError(
            f"{current_caller()}: `index` must be an inner vertex, an integer in [1, {n - 2}]; got {index!r}."
        )
    tpr, fpr = float(hull.tpr[index]), float(hull.fpr[index])
    if tpr <= 0:
        raise InvalidParameterError(f"{current_caller()}: vertex {index} has recall 0, where precision has no slope.")
    pi = hull.n_positives / (hull.n_positives + hull.n_negatives)

    def pr_slope(k: float) -> float:
        inv = 0.0 if math.isinf(k) else 1.0 / k
        return pi * (1 - pi) * (fpr - tpr * inv) / (pi * tpr + (1 - pi) * fpr) ** 2

    edges = (float(hull.slopes[index - 1]), float(hull.slopes[index]))
    if 0.0 in edges:
        raise InvalidParameterError(
            f"{current_caller()}: vertex {index} ends the hull's rise (a flat ROC edge follows: "
            "precision falls at constant recall), so its PR slope is unbounded; pick "
            "an earlier vertex."
        )
    left, right = pr_slope(edges[0]), pr_slope(edges[1])
    low, high = min(left, right), max(left, right)
    if not high < 0:
        raise InvalidParameterError(
            f"{current_caller()}: vertex {index} is where precision stops falling with recall; pick "
            "a vertex where trading precision for recall is possible."
        )
    return low, high, -math.sqrt(low * high)
