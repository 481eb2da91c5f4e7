r"""Baselines (always-positive, prevalence, iso-F-beta) and prevalence shift.

With prevalence :math:`\pi`, the always-positive classifier has recall 1 and precision
:math:`\pi`; a random ranking has precision :math:`\pi` at every recall. In PRG space
both sit on the axes, and the iso-F-beta line through always-positive is straight.
Precision depends on the prevalence and ROC rates do not:
:math:`\mathrm{precision} = \mathrm{TPR} / (\mathrm{TPR} + \mathrm{FPR}/r)` with
:math:`r = \pi/(1-\pi)`, which is how PR quantities move to another prevalence.

References
----------
.. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
   Curves", ICML 2006 (ROC to PR at a given prevalence).
.. [2] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
   NeurIPS 2015.
.. [3] K. Boyd, V. S. Costa, J. Davis and C. D. Page, "Unachievable Region in
   Precision-Recall Space and Its Effect on Empirical Evaluation", ICML 2012.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.constraints import ARRAY, NUMBERS, POS_LABEL, Integral, Interval, Real, validate_params
from .._core.docstrings import fill_doc
from .._core.html import summarised
from .._core.validation import (
    as_1d,
    check_binary_target,
    check_both_classes,
    check_broadcast,
    check_integer,
    check_real,
    check_sample_weight,
    check_unit_interval,
)
from .._typing import ArrayLike, FloatArray

__all__ = [
    "AlwaysPositive",
    "BaselineCurve",
    "always_positive",
    "always_positive_fbeta",
    "iso_fbeta_baseline",
    "prg_fbeta_baseline",
    "unachievable_precision",
    "precision_at_prevalence",
    "repeated_test_precision",
]


def _prevalence(value: Any, name: str = "prevalence") -> float:
    return check_real(value, name, low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)


def _beta(value: Any) -> float:
    return check_real(value, "beta", low=0.0, low_inclusive=False)


@summarised()
class AlwaysPositive(NamedTuple):
    """The classifier that predicts every sample positive, in every space.

    ``precision`` is the (weighted) prevalence, ``recall``, ``tpr`` and ``fpr`` are 1,
    and in PRG space it sits at ``(recall_gain, precision_gain) = (1, 0)``.
    """

    prevalence: float
    precision: float
    recall: float
    fpr: float
    tpr: float
    precision_gain: float
    recall_gain: float


@validate_params({"y_true": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def always_positive(
    y_true: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> AlwaysPositive:
    """The always-positive classifier of a data set, with its (weighted) prevalence.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    AlwaysPositive
        Its coordinates in ROC, PR and PRG space; ``precision = prevalence`` is also the
        precision of a random ranking at every recall (the PR baseline).

    Raises
    ------
    ValueError
        If ``y_true`` has one class or the weights are invalid (as in
        :meth:`OperatingPoints.from_scores`).

    See Also
    --------
    always_positive_fbeta, iso_fbeta_baseline

    Examples
    --------
    >>> from isometrics.spaces import always_positive
    >>> always_positive([0, 0, 0, 1]).precision
    0.25
    """
    y = as_1d(y_true, name="y_true")
    is_pos, pos_label = check_binary_target(y, pos_label=pos_label)
    w = check_sample_weight(sample_weight, len(y))
    check_both_classes(is_pos, w, pos_label=pos_label, needs="the baseline needs both classes.")
    if w is not None:
        w = w / w.max()  # only ratios matter; the sums below then cannot overflow
    positives = float(is_pos.sum()) if w is None else float(np.dot(w, is_pos))
    total = float(len(y)) if w is None else float(w.sum())
    pi = positives / total
    return AlwaysPositive(pi, pi, 1.0, 1.0, 1.0, 0.0, 1.0)


@validate_params(
    {"prevalence": Interval(Real, 0, 1, closed="neither"), "beta": Interval(Real, 0, None, closed="right")}
)
def always_positive_fbeta(prevalence: float, *, beta: float = 1.0) -> float:
    r"""F-beta of the always-positive classifier: :math:`(1+\beta^2)\pi/(\beta^2\pi + 1)`.

    Parameters
    ----------
    prevalence : float
        Share of positives, in (0, 1).
    beta : float, default=1.0
        F-beta's recall/precision trade-off, > 0.

    Returns
    -------
    float
        In (0, 1): the F-beta any useful classifier must beat.

    Raises
    ------
    InvalidParameterError
        If ``prevalence`` is not in (0, 1) or ``beta`` is not > 0.

    Examples
    --------
    >>> from isometrics.spaces import always_positive_fbeta
    >>> round(always_positive_fbeta(0.1), 6)   # 2 pi / (1 + pi)
    0.181818
    """
    pi, b2 = _prevalence(prevalence), _beta(beta) ** 2
    return (1 + b2) * pi / (b2 * pi + 1)


@summarised()
class BaselineCurve(NamedTuple):
    """Points of a baseline curve in PR space: ``(precision, recall)``, arrays of equal length."""

    precision: FloatArray
    recall: FloatArray


@validate_params(
    {
        "prevalence": Interval(Real, 0, 1, closed="neither"),
        "beta": Interval(Real, 0, None, closed="right"),
        "n_points": Interval(Integral, 2, None),
    }
)
def iso_fbeta_baseline(prevalence: float, *, beta: float = 1.0, n_points: int = 200) -> BaselineCurve:
    r"""The iso-F-beta curve through the always-positive point, in PR space.

    Points on it have the F-beta of always-positive; points below it are worse than
    predicting every sample positive (the region no classifier better than
    always-positive reaches under F-beta):

    .. math::

        \mathrm{precision}(R) = \left(\frac{1+\beta^2}{F_0} - \frac{\beta^2}{R}\right)^{-1},
        \qquad F_0 = \frac{(1+\beta^2)\pi}{\beta^2\pi + 1}

    Parameters
    ----------
    prevalence : float
        Share of positives, in (0, 1).
    beta : float, default=1.0
        F-beta's trade-off, > 0.
    n_points : int, default=200
        Number of points, spaced evenly in recall (>= 2).

    Returns
    -------
    BaselineCurve
        ``(precision, recall)`` from the recall where the curve reaches precision 1 up
        to recall 1 (precision = prevalence there).

    Raises
    ------
    InvalidParameterError
        If ``prevalence`` is not in (0, 1), ``beta`` not > 0, or ``n_points`` is not an integer >= 2.

    References
    ----------
    .. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
       NeurIPS 2015 (the always-positive classifier and its iso-F line).

    Examples
    --------
    >>> from isometrics.spaces import iso_fbeta_baseline
    >>> curve = iso_fbeta_baseline(0.25, n_points=3)
    >>> curve.recall.round(4), curve.precision.round(4)
    (array([0.25 , 0.625, 1.   ]), array([1.    , 0.2941, 0.25  ]))
    """
    pi, b2 = _prevalence(prevalence), _beta(beta) ** 2
    n_points = check_integer(n_points, "n_points", low=2)
    f0 = (1 + b2) * pi / (b2 * pi + 1)
    r_min = b2 * f0 / (1 + b2 - f0)  # where the curve reaches precision 1
    recall = np.linspace(r_min, 1.0, n_points)
    precision = 1.0 / ((1 + b2) / f0 - b2 / recall)
    precision[0] = 1.0
    return BaselineCurve(precision, recall)


@validate_params({"beta": Interval(Real, 0, None, closed="right")})
def prg_fbeta_baseline(*, beta: float = 1.0) -> tuple[FloatArray, FloatArray]:
    r"""The iso-F-beta line through always-positive in PRG space, within the unit square.

    F-beta gain is linear in the gains, :math:`(\mathrm{precG} + \beta^2\mathrm{recG})/(1+\beta^2)`,
    so its level through always-positive (1, 0) is the straight line
    :math:`\mathrm{precG} = \beta^2 (1 - \mathrm{recG})`; for ``beta = 1`` it is the
    descending diagonal. Points below it are worse than always-positive.

    Parameters
    ----------
    beta : float, default=1.0
        F-beta's trade-off, > 0.

    Returns
    -------
    recall_gain, precision_gain : ndarray of shape (2,)
        The segment's two ends, inside [0, 1] x [0, 1].

    Raises
    ------
    InvalidParameterError
        If ``beta`` is not > 0.

    References
    ----------
    .. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
       NeurIPS 2015.

    Examples
    --------
    >>> from isometrics.spaces import prg_fbeta_baseline
    >>> prg_fbeta_baseline(beta=1.0)
    (array([0., 1.]), array([1., 0.]))
    """
    b2 = _beta(beta) ** 2
    start = max(0.0, 1.0 - 1.0 / b2)
    recall_gain = np.array([start, 1.0])
    return recall_gain, b2 * (1.0 - recall_gain)


@validate_params({"recall": NUMBERS, "prevalence": Interval(Real, 0, 1, closed="neither")})
def unachievable_precision(recall: ArrayLike, *, prevalence: float) -> FloatArray:
    r"""The lowest precision any ranking reaches at a recall: :math:`\pi r / (\pi r + 1 - \pi)`.

    It is the PR curve of the worst ranking (every negative first); PR space below it
    is unachievable, which is why the minimum of AP and of the PR area is above 0.

    Parameters
    ----------
    recall : float or array-like
        Recall values in [0, 1].
    prevalence : float
        Share of positives, in (0, 1).

    Returns
    -------
    ndarray of float64
        Minimum precision at each recall, in [0, prevalence].

    Raises
    ------
    InvalidParameterError
        If ``prevalence`` is not in (0, 1) or a recall is not a number in [0, 1].

    Notes
    -----
    The PR curve is often said to be bounded below by the prevalence: that holds for
    rankings better than random only (a worse-than-random ranking goes below it); this is
    the bound for all rankings.

    References
    ----------
    .. [1] K. Boyd, V. S. Costa, J. Davis and C. D. Page, "Unachievable Region in
       Precision-Recall Space and Its Effect on Empirical Evaluation", ICML 2012.

    Examples
    --------
    >>> from isometrics.spaces import unachievable_precision
    >>> unachievable_precision([0.5, 1.0], prevalence=0.5)
    array([0.33333333, 0.5       ])
    """
    pi = _prevalence(prevalence)
    r = check_unit_interval(recall, "recall")
    return pi * r / (pi * r + 1.0 - pi)


@validate_params({"tpr": NUMBERS, "fpr": NUMBERS, "prevalence": Interval(Real, 0, 1, closed="neither")})
def precision_at_prevalence(tpr: ArrayLike, fpr: ArrayLike, *, prevalence: float) -> FloatArray:
    r"""Precision of a classifier with rates (TPR, FPR) at a given prevalence (Bayes' theorem).

    .. math::

        \mathrm{precision} = \frac{\pi\,\mathrm{TPR}}{\pi\,\mathrm{TPR} + (1-\pi)\,\mathrm{FPR}}
        = \frac{\mathrm{TPR}}{\mathrm{TPR} + \mathrm{FPR}/r}, \qquad r = \frac{\pi}{1-\pi}

    Parameters
    ----------
    tpr, fpr : float or array-like
        True and false positive rates in [0, 1] (broadcast).
    prevalence : float
        Share of positives in the population the classifier is deployed on, in (0, 1).

    Returns
    -------
    ndarray of float64
        Precision in [0, 1]; where ``tpr = fpr = 0`` (nothing predicted positive) it is
        1 by the PR-curve convention.

    Raises
    ------
    InvalidParameterError
        If ``prevalence`` is not in (0, 1), a rate is not a number in [0, 1], or
        ``tpr`` and ``fpr`` do not broadcast together.

    See Also
    --------
    OperatingPoints.at_prevalence : every curve and metric at another prevalence.

    References
    ----------
    .. [1] Bayes' theorem: recall 0.99, false positive rate 0.05 and prevalence 0.01 give
       precision 0.99 * 0.01 / (0.99 * 0.01 + 0.05 * 0.99) = 1/6.

    Examples
    --------
    >>> from isometrics.spaces import precision_at_prevalence
    >>> round(float(precision_at_prevalence(0.99, 0.05, prevalence=0.01)), 6)
    0.166667
    """
    pi = _prevalence(prevalence)
    t = check_unit_interval(tpr, "tpr")
    f = check_unit_interval(fpr, "fpr")
    check_broadcast(tpr=t, fpr=f)
    t, f = np.broadcast_arrays(t, f)
    num = pi * t
    den = num + (1.0 - pi) * f
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0)


@validate_params(
    {
        "tpr": Interval(Real, 0, 1),
        "fpr": Interval(Real, 0, 1),
        "prevalence": Interval(Real, 0, 1, closed="neither"),
        "n_tests": Interval(Integral, 1, None),
    }
)
def repeated_test_precision(tpr: float, fpr: float, *, prevalence: float, n_tests: int) -> FloatArray:
    """Precision after 1, 2, ..., ``n_tests`` independent positive results (Bayes, repeatedly).

    Each positive result updates the prior: the precision after test ``k`` is the
    prevalence used for test ``k + 1``.

    Parameters
    ----------
    tpr, fpr : float
        The test's true and false positive rates, in [0, 1].
    prevalence : float
        Prior share of positives, in (0, 1).
    n_tests : int
        Number of consecutive positive results (>= 1).

    Returns
    -------
    ndarray of shape (n_tests,), float64
        Probability of being positive after each positive result.

    Raises
    ------
    InvalidParameterError
        If a rate is outside [0, 1], ``prevalence`` outside (0, 1), or ``n_tests`` is not an integer >= 1.

    References
    ----------
    .. [1] Bayes' theorem, the posterior of one test the prior of the next: with recall
       0.99, false positive rate 0.05 and prevalence 0.01, 1/6 after one positive test,
       about 0.80 after two.

    Examples
    --------
    >>> from isometrics.spaces import repeated_test_precision
    >>> repeated_test_precision(0.99, 0.05, prevalence=0.01, n_tests=2).round(4)
    array([0.1667, 0.7984])
    """
    check_real(tpr, "tpr", low=0.0, high=1.0)
    check_real(fpr, "fpr", low=0.0, high=1.0)
    n_tests = check_integer(n_tests, "n_tests", low=1)
    prior = _prevalence(prevalence)
    out = np.empty(n_tests)
    for k in range(n_tests):
        prior = float(precision_at_prevalence(tpr, fpr, prevalence=prior))
        out[k] = prior
        if not 0 < prior < 1:
            out[k:] = prior
            break
    return out
