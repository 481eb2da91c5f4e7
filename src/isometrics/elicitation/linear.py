r"""Linear performance metrics (LPM) from pairwise comparisons: Hiranandani et al., AISTATS 2019.

A linear metric :math:`\phi(C) = m_{11} TP + m_{00} TN` with :math:`m = (\cos\theta, \sin\theta)`,
:math:`\theta \in [0, \pi/2]`, is elicited on the upper boundary of the achievable confusion
matrices: its point :math:`\bar C_\theta` is the Bayes-optimal classifier
:math:`1[\eta(x) \ge m_{00}/(m_{11} + m_{00})]`, and :math:`\theta \mapsto \phi^*(\bar C_\theta)` is
unimodal with its maximum at the stakeholder's :math:`\theta^*`. Each round compares boundary
points at the quarter points of the current interval and halves it (the paper's
Algorithm 1). The fourth comparison of a round is redundant (both answers lead to the
same half) and is not asked: three queries per round.

Where :math:`\eta` never reaches 0 or 1, every :math:`\theta` near 0 (or :math:`\pi/2`) yields the
same classifier (everything positive, or nothing): there the metric is not identifiable,
and the result reports the zone instead of a false precision.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import InBody, Interval, Real, validate_params
from .._core.html import summarised
from .._core.validation import check_real
from ..exceptions import InvalidParameterError
from ..metrics.registry import Metric, parse_metric

Boundary = Callable[[float], tuple[float, float]]


@validate_params({"a": Interval(Real, 0, None, closed="right")})
def synthetic_boundary(a: float) -> Boundary:
    r"""The boundary of the paper's synthetic setting: :math:`X \sim U[-1, 1]`, :math:`\eta(x) = 1/(1 + e^{a x})`.

    Parameters
    ----------
    a : float
        Steepness of :math:`\eta`, > 0 (the positive share is 1/2).

    Returns
    -------
    callable
        ``theta -> (TP, TN)``, population shares of the Bayes-optimal classifier for the
        linear metric of angle ``theta`` (integrals of :math:`\eta` in closed form).

    Raises
    ------
    InvalidParameterError
        If ``a`` is not a finite number > 0.

    Examples
    --------
    >>> from isometrics.elicitation.linear import synthetic_boundary
    >>> tp, tn = synthetic_boundary(5.0)(0.7853981633974483)   # theta = pi/4: threshold 1/2
    >>> round(tp, 6) == round(tn, 6)
    True
    """
    a = check_real(a, "a", low=0.0, low_inclusive=False)

    def softplus(z: float) -> float:
        return max(z, 0.0) + math.log1p(math.exp(-abs(z)))

    def area_eta(x: float) -> float:  # integral of eta from -1 to x
        return (x + 1.0) - (softplus(a * x) - softplus(-a)) / a

    def area_not_eta(x: float) -> float:  # integral of 1 - eta from x to 1
        return (softplus(a) - softplus(a * x)) / a

    def boundary(theta: float) -> tuple[float, float]:
        s, c = math.sin(theta), math.cos(theta)
        delta = s / (s + c)
        if delta <= 0.0:
            x = 1.0
        elif delta >= 1.0:
            x = -1.0
        else:
            x = min(1.0, max(-1.0, math.log((1.0 - delta) / delta) / a))
        return area_eta(x) / 2.0, area_not_eta(x) / 2.0

    return boundary


def _check_pair(value: Any, name: str) -> tuple[float, float]:
    """A confusion point ``(TP, TN)`` of two finite real numbers, or InvalidParameterError naming it."""
    ok = (
        isinstance(value, (tuple, list, np.ndarray))
        and len(value) == 2
        and all(
            isinstance(v, (numbers.Real, np.floating, np.integer))
            and not isinstance(v, (bool, np.bool_))
            and math.isfinite(float(v))
            for v in value
        )
    )
    if not ok:
        raise InvalidParameterError(
            f"LinearStakeholder: `{name}` must be a confusion point (TP, TN) of two finite "
            f"real numbers; got {value!r}; pass e.g. (0.4, 0.3)."
        )
    return float(value[0]), float(value[1])


class LinearStakeholder:
    """An oracle with a linear metric of angle ``theta``: prefers the confusion point of larger
    :math:`\\cos\\theta\\,TP + \\sin\\theta\\,TN`.

    Parameters
    ----------
    theta : float
        The true angle, in [0, pi/2].

    Examples
    --------
    >>> from isometrics.elicitation.linear import LinearStakeholder
    >>> LinearStakeholder(0.3)((0.4, 0.3), (0.3, 0.4))
    True
    """

    @validate_params({"theta": InBody("an angle in [0, pi/2]")}, name="LinearStakeholder")
    def __init__(self, theta: float) -> None:
        self.theta = check_real(theta, "theta", low=0.0, high=math.pi / 2)

    def __call__(self, first: tuple[float, float], second: tuple[float, float]) -> bool:
        """Whether ``first`` (TP, TN) is strictly preferred to ``second``."""
        first, second = (_check_pair(v, name) for v, name in ((first, "first"), (second, "second")))
        c, s = math.cos(self.theta), math.sin(self.theta)
        return c * first[0] + s * first[1] > c * second[0] + s * second[1]


@summarised()
@dataclass(frozen=True)
class LinearMetricResult:
    """A linear metric elicited by comparisons of boundary classifiers.

    Attributes
    ----------
    theta : float
        The estimate, the middle of the final interval, in [0, pi/2].
    interval : tuple of float
        The final interval, of width at most ``epsilon``; it holds the true angle.
    m11, m00 : float
        The metric's weights ``cos(theta)`` on TP and ``sin(theta)`` on TN.
    n_queries : int
        Comparisons asked.
    unidentifiable : tuple of tuple of float
        Zones of angles near 0 and pi/2 that all give the same classifier as the end of
        the range (empty when none); an estimate inside one is known only to lie in it.
    identifiable : bool
        Whether the estimate lies outside those zones.
    metric : Metric
        The equivalent expected cost ``cost(fp=m00, fn=m11)`` (4 significant digits).
    """

    theta: float
    interval: tuple[float, float]
    m11: float
    m00: float
    n_queries: int
    unidentifiable: tuple[tuple[float, float], ...]
    identifiable: bool
    metric: Metric


def _zone(boundary: Boundary, end: float, other: float) -> float | None:
    """The far edge of the angles from ``end`` towards ``other`` with the same boundary point as ``end``."""
    ref = boundary(end)
    same = lambda t: all(abs(x - y) <= 1e-12 for x, y in zip(boundary(t), ref))  # noqa: E731
    step = (other - end) * 1e-6
    if not same(end + step):
        return None
    lo, hi = end + step, other
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if same(mid) else (lo, mid)
    return lo


def _checked_boundary(boundary: Boundary) -> Boundary:
    """``boundary`` refusing any point that is not two finite shares (TP, TN) in [0, 1]."""

    def checked(theta: float) -> tuple[float, float]:
        point = boundary(theta)
        try:
            tp, tn = point
            ok = all(
                not isinstance(v, (bool, np.bool_))
                and isinstance(v, (numbers.Real, np.floating, np.integer))
                and 0.0 <= float(v) <= 1.0
                for v in (tp, tn)
            )  # NaN fails the comparison
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise InvalidParameterError(
                f"{current_caller()}: `boundary` must return (TP, TN), two population shares in [0, 1]; "
                f"got {point!r} at theta = {theta:.6g}; fix the boundary function."
            )
        return float(tp), float(tn)

    return checked


def _checked_compare(
    compare: Callable[[tuple[float, float], tuple[float, float]], bool],
) -> Callable[[tuple[float, float], tuple[float, float]], bool]:
    """``compare`` refusing any answer that is not True or False (a "B" is never read as True)."""

    def checked(first: tuple[float, float], second: tuple[float, float]) -> bool:
        answer = compare(first, second)
        if not isinstance(answer, (bool, np.bool_)):
            raise InvalidParameterError(
                f"{current_caller()}: `compare` must return True (the first classifier is strictly "
                f"preferred) or False; got {answer!r} for {first!r} against {second!r}; "
                "return a bool."
            )
        return bool(answer)

    return checked


@validate_params(
    {
        "compare": InBody("a callable comparing two points"),
        "boundary": InBody("a boundary"),
        "epsilon": InBody("a tolerance in (0, 1)"),
    }
)
def elicit_linear_metric(
    compare: Callable[[tuple[float, float], tuple[float, float]], bool], boundary: Boundary, *, epsilon: float = 0.01
) -> LinearMetricResult:
    r"""Elicit a linear metric :math:`\cos\theta\,TP + \sin\theta\,TN` by pairwise comparisons.

    Parameters
    ----------
    compare : callable
        ``compare(C1, C2)`` is True when the stakeholder strictly prefers the classifier
        with confusion point ``C1 = (TP, TN)`` to ``C2`` (e.g. :class:`LinearStakeholder`).
    boundary : callable
        ``theta -> (TP, TN)``, the Bayes-optimal classifier for the metric of angle theta
        (e.g. :func:`synthetic_boundary`, or thresholds of an estimated eta on data).
    epsilon : float, default=0.01
        Width of the final interval of theta, in (0, pi/2).

    Returns
    -------
    LinearMetricResult
        The angle, its interval, the weights, the queries asked and the zones where the
        metric is not identifiable.

    Raises
    ------
    InvalidParameterError
        If ``epsilon`` is out of range, ``compare`` returns anything but True or False,
        or ``boundary`` returns anything but two shares (TP, TN) in [0, 1].

    Notes
    -----
    ``ceil(log2(pi / (2 epsilon)))`` rounds of three comparisons each: at most
    ``3 ceil(log2(pi / (2 epsilon)))`` queries (the paper counts four per round).

    References
    ----------
    .. [1] G. Hiranandani, S. Boodaghians, R. Mehta and O. Koyejo, "Performance Metric
       Elicitation from Pairwise Classifier Comparisons", AISTATS 2019 (arXiv:1806.01827).

    Examples
    --------
    >>> from isometrics.elicitation import elicit_linear_metric
    >>> from isometrics.elicitation.linear import LinearStakeholder, synthetic_boundary
    >>> res = elicit_linear_metric(LinearStakeholder(0.6), synthetic_boundary(5.0), epsilon=0.01)
    >>> abs(res.theta - 0.6) <= 0.01, res.n_queries
    (True, 23)
    """
    eps = check_real(epsilon, "epsilon", low=0.0, high=math.pi / 2, low_inclusive=False, high_inclusive=False)
    if not callable(compare) or not callable(boundary):
        raise InvalidParameterError(
            f"{current_caller()}: `compare` and `boundary` must be callables; got "
            f"{type(compare).__name__} and {type(boundary).__name__}."
        )
    boundary = _checked_boundary(boundary)
    compare = _checked_compare(compare)
    lo, hi = 0.0, math.pi / 2
    n = 0
    for _ in range(math.ceil(math.log2((math.pi / 2) / eps))):
        c, d, e = (3 * lo + hi) / 4, (lo + hi) / 2, (lo + 3 * hi) / 4
        ca, cc, cd, ce = boundary(lo), boundary(c), boundary(d), boundary(e)
        n += 1
        if compare(ca, cc):  # the maximum lies left of c
            hi = d
            continue
        n += 1
        if compare(cc, cd):
            hi = d
            continue
        n += 1
        if compare(cd, ce):
            lo, hi = c, e
        else:  # the fourth comparison (e against b) leads to lo = d either way
            lo = d
    theta = (lo + hi) / 2
    zones = tuple(
        z
        for z in ((0.0, _zone(boundary, 0.0, math.pi / 2)), (_zone(boundary, math.pi / 2, 0.0), math.pi / 2))
        if None not in z
    )
    zones_f = tuple((float(a), float(b)) for a, b in zones)  # type: ignore[arg-type]
    identifiable = all(not a <= theta <= b for a, b in zones_f)
    m11, m00 = math.cos(theta), math.sin(theta)
    metric = parse_metric(f"cost(fp={float(f'{m00:.4g}')!r}, fn={float(f'{m11:.4g}')!r})")
    return LinearMetricResult(theta, (lo, hi), m11, m00, n, zones_f, identifiable, metric)
