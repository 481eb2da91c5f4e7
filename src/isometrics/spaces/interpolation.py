r"""Precision-recall interpolation done right: interpolate counts, not precision.

Between two operating points A and B, the classifiers reachable by randomly mixing them
have counts on the straight ROC segment, ``FP = FP_A + (TP - TP_A) (FP_B - FP_A)/(TP_B - TP_A)``.
Their precision is *not* linear in recall; linear interpolation in PR space is
optimistic wherever precision falls along a segment. With recall :math:`r`, the interpolated precision is

.. math::

    \mathrm{prec}(r) = \frac{r}{a + b r}, \qquad b = 1 + s, \quad a = \frac{FP_A - s\,TP_A}{P},
    \quad s = \frac{FP_B - FP_A}{TP_B - TP_A}

whose integral has the closed form
:math:`\left[ r/b - (a/b^2) \ln(a + b r) \right]_{r_A}^{r_B}`.

References
----------
.. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
   Curves", ICML 2006.
.. [2] K. Boyd, K. H. Eng and C. D. Page, "Area Under the Precision-Recall Curve: Point
   Estimates and Confidence Intervals", ECML PKDD 2013 (the closed-form area).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, Interval, Real, validate_params
from .._core.count_table import CountTable, Quantity, table_from_scores
from .._core.docstrings import fill_doc
from .._core.html import summarised
from .._core.validation import check_real
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError
from ._terms import achievable_area, table_area
from .curves import PrecisionRecallCurve
from .hull import ROC_HULL

__all__ = [
    "ACHIEVABLE_PR",
    "AUC_PR_ACHIEVABLE",
    "AUC_PR_INTERPOLATED",
    "InterpolatedPoints",
    "interpolate_pr_points",
    "auc_pr_interpolated",
    "achievable_pr_curve",
    "auc_pr_achievable",
]


def _auc_pr_interpolated(op: CountTable) -> float:
    op.require_both_classes("auc_pr_interpolated")
    return table_area(op, "auc_pr_interpolated")


@summarised()
class InterpolatedPoints(NamedTuple):
    """Count-interpolated points between two operating points (arrays of equal length)."""

    tp: FloatArray
    fp: FloatArray
    recall: FloatArray
    precision: FloatArray


@validate_params(
    {
        "tp_a": Interval(Real, 0, None),
        "fp_a": Interval(Real, 0, None),
        "tp_b": Interval(Real, 0, None),
        "fp_b": Interval(Real, 0, None),
        "n_positives": Interval(Real, 0, None, closed="right"),
        "step": Interval(Real, 0, None, closed="right"),
    }
)
def interpolate_pr_points(
    tp_a: float, fp_a: float, tp_b: float, fp_b: float, *, n_positives: float, step: float = 1.0
) -> InterpolatedPoints:
    """Points between operating points A and B, interpolating counts (Davis & Goadrich).

    Parameters
    ----------
    tp_a, fp_a, tp_b, fp_b : float
        Counts of A and B, with ``tp_b > tp_a >= 0`` and ``fp_b >= fp_a >= 0``.
    n_positives : float
        Total positives ``P`` (> 0), for recall.
    step : float, default=1.0
        Increment of true positives between points (> 0).

    Returns
    -------
    InterpolatedPoints
        ``tp, fp, recall, precision`` at ``tp = tp_a, tp_a + step, ..., tp_b``.

    Raises
    ------
    InvalidParameterError
        If the counts are not ordered as above, or ``n_positives`` or ``step`` is not > 0.

    References
    ----------
    .. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
       Curves", ICML 2006, table 2.

    Examples
    --------
    >>> from isometrics.spaces import interpolate_pr_points
    >>> interpolate_pr_points(5, 5, 10, 30, n_positives=20).precision.round(3)
    array([0.5  , 0.375, 0.318, 0.286, 0.265, 0.25 ])
    """
    for name, v in (("tp_a", tp_a), ("fp_a", fp_a), ("tp_b", tp_b), ("fp_b", fp_b)):
        check_real(v, name, low=0.0)
    check_real(n_positives, "n_positives", low=0.0, low_inclusive=False)
    check_real(step, "step", low=0.0, low_inclusive=False)
    if not (tp_b > tp_a and fp_b >= fp_a):
        raise InvalidParameterError(
            f"{current_caller()}: need tp_b > tp_a and fp_b >= fp_a; got A=({tp_a}, {fp_a}), B=({tp_b}, {fp_b})."
        )
    tp = np.arange(tp_a, tp_b + step / 2, step, dtype=np.float64)
    fp = fp_a + (tp - tp_a) * (fp_b - fp_a) / (tp_b - tp_a)
    with np.errstate(invalid="ignore"):
        precision = np.where(tp + fp > 0, tp / (tp + fp), 1.0)
    return InterpolatedPoints(tp, fp, tp / n_positives, precision)


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def auc_pr_interpolated(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> float:
    r"""Area under the PR curve with correct (count) interpolation between operating points.

    Estimates the area under the PR curve that random mixtures of neighbouring
    thresholds achieve: between consecutive operating points, precision follows
    :math:`r/(a + b r)` (interpolated counts), integrated in closed form.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    float
        In [0, 1]; higher is better.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    average_precision : the step-wise sum, a different estimator.
    auc_pr_achievable : the same interpolation over the ROC convex hull.

    Notes
    -----
    How it differs from :func:`average_precision`: AP is a step sum that gives each
    step in recall (one positive, or one tie group) the precision at the *end* of the
    step; this integrates the precision of the random mixtures *along* each step. On a
    step that adds only positives precision rises along it, so that step counts less
    here than in AP; on a tie group mixing both classes the two can go either way. The
    difference is of order 1/P per step and grows where operating points are far apart
    (large tie groups, hull vertices). The trapezoid rule in PR space,
    ``auc(recall, precision)``, is a third estimator: precision along a count
    interpolation is a linear-fractional function of recall, convex where it falls (the
    usual case as recall grows, where linear interpolation is optimistic) and concave
    where it rises. From the origin (nothing predicted positive) the interpolated
    precision is flat at the first point's precision.

    References
    ----------
    .. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
       Curves", ICML 2006.
    .. [2] K. Boyd, K. H. Eng and C. D. Page, "Area Under the Precision-Recall Curve:
       Point Estimates and Confidence Intervals", ECML PKDD 2013.

    Examples
    --------
    >>> from isometrics.spaces import auc_pr_interpolated
    >>> round(auc_pr_interpolated([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.7973
    """
    return table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=CountTable,
    ).get(AUC_PR_INTERPOLATED)


def _achievable(op: CountTable) -> PrecisionRecallCurve:
    hull = op.get(ROC_HULL)
    tp, fp = op.tp[hull.indices], op.fp[hull.indices]
    with np.errstate(invalid="ignore"):
        precision = np.where(tp + fp > 0, tp / np.where(tp + fp > 0, tp + fp, 1.0), 1.0)
    return PrecisionRecallCurve(precision, tp / op.n_positives, hull.thresholds)


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def achievable_pr_curve(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> PrecisionRecallCurve:
    """The achievable PR curve: the ROC convex hull's vertices mapped to PR space.

    Between vertices, the achievable curve follows the count interpolation of
    :func:`interpolate_pr_points` (not a straight line); it dominates every PR point
    reachable by thresholds and their mixtures, but is not convex in PR space.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    PrecisionRecallCurve
        ``(precision, recall, thresholds)`` at the hull vertices, thresholds decreasing;
        the first vertex (nothing predicted positive) has precision 1 by convention.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    auc_pr_achievable, roc_convex_hull

    References
    ----------
    .. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
       Curves", ICML 2006 (section 4).

    Examples
    --------
    >>> from isometrics.spaces import achievable_pr_curve
    >>> achievable_pr_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).precision.round(4)
    array([1.    , 1.    , 0.6667, 0.5   ])
    """
    return table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=CountTable,
    ).get(ACHIEVABLE_PR)


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def auc_pr_achievable(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> float:
    """Area under the achievable PR curve (count interpolation over the ROC convex hull).

    Optimistic by construction: it credits the classifier with every mixture of its
    thresholds, including ones that skip concave parts of its ROC curve.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    float
        In [0, 1], at least :func:`auc_pr_interpolated`; higher is better.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    achievable_pr_curve, auc_pr_interpolated

    References
    ----------
    .. [1] K. Boyd, K. H. Eng and C. D. Page, "Area Under the Precision-Recall Curve:
       Point Estimates and Confidence Intervals", ECML PKDD 2013 ("interpolated convex").

    Examples
    --------
    >>> from isometrics.spaces import auc_pr_achievable
    >>> round(auc_pr_achievable([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8873
    """
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    return op.get(AUC_PR_ACHIEVABLE)


def _auc_pr_achievable(op: CountTable) -> float:
    op.require_both_classes("auc_pr_achievable")
    idx = op.get(ROC_HULL).indices
    return achievable_area(op.tp[idx], op.fp[idx], op.n_positives, op.n_negatives)


AUC_PR_INTERPOLATED = Quantity("auc_pr_interpolated", _auc_pr_interpolated, terms="auc_pr_interpolated")
ACHIEVABLE_PR = Quantity("achievable_pr_curve", _achievable, kind="curve")
#: Streams: the sweep keeps the ROC hull's vertices and sums these terms over them at the end.
AUC_PR_ACHIEVABLE = Quantity("auc_pr_achievable", _auc_pr_achievable, terms="auc_pr_achievable")
