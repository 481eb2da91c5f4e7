"""What flagging the top of a ranking gains: cumulative gains and lift curves, and the decision
curve (net benefit against the threshold probability, with the treat-all and treat-none
references).

All three are read from the count table (no second sort). Gains and lift are curves over the
share flagged: between two operating points they are joined by a straight segment for gains,
which is exactly the expected gain when a group of tied scores is flagged in random order.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, validate_params
from .._core.count_table import CountTable, Quantity, table_from_scores
from .._core.docstrings import fill_doc
from .._core.html import summarised
from .._core.validation import as_1d, check_real_array
from .._typing import ArrayLike, FloatArray
from ..exceptions import IsometricsError
from .curves import _reduce_keeping_read_only

__all__ = ["GAINS", "LIFT", "GainsCurve", "LiftCurve", "DecisionCurve", "gains_curve", "lift_curve", "decision_curve"]


@summarised()
class GainsCurve(NamedTuple):
    """Cumulative gains: ``(rate, gain, thresholds)``, shape (n_points,), thresholds decreasing.

    ``rate[i]`` is the share of the (weighted) samples with ``y_score >= thresholds[i]``
    and ``gain[i]`` the share of the positives among them (recall), both from 0 to 1.
    """

    rate: FloatArray
    gain: FloatArray
    thresholds: FloatArray

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce_keeping_read_only(self)


@summarised()
class LiftCurve(NamedTuple):
    """Lift: ``(rate, lift, thresholds)``, shape (n_points - 1,), thresholds decreasing.

    ``lift[i]`` is the precision of the flagged share ``rate[i]`` divided by the
    prevalence (1: no better than flagging at random). The ``inf`` threshold, which flags
    nothing and has no lift, is left out.
    """

    rate: FloatArray
    lift: FloatArray
    thresholds: FloatArray

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce_keeping_read_only(self)


@summarised()
class DecisionCurve(NamedTuple):
    """Decision curve: net benefit against the threshold probability, with its references.

    ``(threshold_probability, net_benefit, treat_all, treat_none)``, shape (n_thresholds,),
    threshold probabilities increasing as given.
    """

    threshold_probability: FloatArray
    net_benefit: FloatArray
    treat_all: FloatArray
    treat_none: FloatArray

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce_keeping_read_only(self)


def _frozen(*arrays: FloatArray) -> list[FloatArray]:
    out = []
    for a in arrays:
        a = np.array(a, dtype=np.float64)
        a.flags.writeable = False
        out.append(a)
    return out


def _gains_curve(op: CountTable) -> GainsCurve:
    rate, gain = _frozen((op.tp + op.fp) / (op.n_positives + op.n_negatives), op.tp / op.n_positives)
    return GainsCurve(rate, gain, op.thresholds)


def _lift_curve(op: CountTable) -> LiftCurve:
    total = op.n_positives + op.n_negatives
    flagged = (op.tp + op.fp)[1:]
    rate, lift = _frozen(flagged / total, (op.tp[1:] / flagged) * (total / op.n_positives))
    return LiftCurve(rate, lift, op.thresholds[1:])


#: Gains and lift (their public functions and methods check both classes first, naming themselves).
GAINS = Quantity("gains_curve", _gains_curve, kind="curve")
LIFT = Quantity("lift_curve", _lift_curve, kind="curve")


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def gains_curve(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> GainsCurve:
    r"""Cumulative gains: the share of the positives captured against the share flagged.

    .. math::

        \mathrm{rate}_i = (TP_i + FP_i) / (P + N), \qquad \mathrm{gain}_i = TP_i / P

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    GainsCurve
        Named tuple ``(rate, gain, thresholds)`` of float64 arrays of shape (n_points,),
        thresholds decreasing (``inf`` first, at rate 0 and gain 0), rate and gain
        non-decreasing to 1. Random flagging gains ``rate``; a perfect ranking
        ``min(rate / prevalence, 1)``.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    lift_curve, precision_at_k, OperatingPoints.at_rate

    Notes
    -----
    Joining the points by straight lines is exact, not a display choice: flagging part
    of a group of tied scores in random order gains, in expectation, the same share of
    that group's positives (see :meth:`OperatingPoints.at_rate`).

    References
    ----------
    .. [1] G. Piatetsky-Shapiro and S. Steingold, "Measuring Lift Quality in Database
       Marketing", SIGKDD Explorations 2(2):76-80, 2000.

    Examples
    --------
    >>> from isometrics.spaces import gains_curve
    >>> rate, gain, thresholds = gains_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> rate, gain
    (array([0.  , 0.25, 0.5 , 0.75, 1.  ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    """
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    op.require_both_classes("gains_curve")
    return op.get(GAINS)


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def lift_curve(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> LiftCurve:
    r"""Lift: the precision of the top share flagged, relative to the prevalence.

    .. math::

        \mathrm{lift}_i = \frac{TP_i / (TP_i + FP_i)}{P / (P + N)}
                        = \mathrm{gain}_i / \mathrm{rate}_i

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    LiftCurve
        Named tuple ``(rate, lift, thresholds)`` of float64 arrays of shape
        (n_points - 1,), thresholds decreasing (the ``inf`` point, which flags nothing,
        left out); lift in [0, 1 / prevalence], 1 at rate 1. Higher is better.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    gains_curve, precision_at_k

    References
    ----------
    .. [1] G. Piatetsky-Shapiro and S. Steingold, "Measuring Lift Quality in Database
       Marketing", SIGKDD Explorations 2(2):76-80, 2000.

    Examples
    --------
    >>> from isometrics.spaces import lift_curve
    >>> rate, lift, thresholds = lift_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> rate, lift.round(4)
    (array([0.25, 0.5 , 0.75, 1.  ]), array([2.    , 1.    , 1.3333, 1.    ]))
    """
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    op.require_both_classes("lift_curve")
    return op.get(LIFT)


def _decision_curve(op: CountTable, threshold_probability: Any) -> DecisionCurve:
    if threshold_probability is None:
        pt = np.linspace(0.01, 0.99, 99)
    else:
        pt = check_real_array(
            as_1d(threshold_probability, name="threshold_probability", shape="(n_thresholds,)"), "threshold_probability"
        )
        if len(pt) == 0:
            raise IsometricsError(
                f"{current_caller()}: `threshold_probability` is empty; pass at least one probability in "
                "(0, 1), or None for 0.01, 0.02, ..., 0.99."
            )
        bad = ~((pt > 0) & (pt < 1))
        if bad.any():
            k = int(np.argmax(bad))
            raise IsometricsError(
                f"{current_caller()}: `threshold_probability` must lie in (0, 1) (a probability at which "
                f"treating is worth it); got {float(pt[k])!r} at index {k}."
            )
    op.require_both_classes(current_caller())
    view = op.normalised
    n = view.n_positives + view.n_negatives
    i = np.searchsorted(-view.thresholds, -pt, side="right") - 1  # the last threshold >= pt: flag score >= pt
    odds = pt / (1.0 - pt)
    prevalence = view.n_positives / n
    net_benefit = view.tp[i] / n - (view.fp[i] / n) * odds
    treat_all = prevalence - (1.0 - prevalence) * odds
    return DecisionCurve(*_frozen(pt, net_benefit, treat_all, np.zeros_like(pt)))


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "threshold_probability": [ARRAY, None],
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
    }
)
@fill_doc
def decision_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    threshold_probability: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> DecisionCurve:
    r"""Decision curve: the net benefit of treating when ``y_score >= p_t``, for each ``p_t``.

    .. math::

        \mathrm{NB}(p_t) = \frac{TP}{n} - \frac{FP}{n} \frac{p_t}{1 - p_t}

    A clinician who would treat at a risk of :math:`p_t` values a false positive at
    :math:`p_t/(1-p_t)` true positives; the net benefit is the true positives per patient
    net of that cost. The references are treating everyone,
    :math:`\pi - (1 - \pi)\, p_t/(1-p_t)`, and treating no one, 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Predicted probabilities of the positive class (used as given: the curve is
        meaningful only for calibrated probabilities).
    threshold_probability : array-like of shape (n_thresholds,), default=None
        The threshold probabilities, each in (0, 1); default 0.01, 0.02, ..., 0.99.
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    DecisionCurve
        ``(threshold_probability, net_benefit, treat_all, treat_none)``, float64 arrays
        of shape (n_thresholds,), in the order given. Net benefit at most the prevalence;
        higher is better.

    Raises
    ------
    ValueError
        If a threshold probability is not in (0, 1), if ``y_true`` has one class, and
        for the bad inputs listed in :meth:`OperatingPoints.from_scores`.

    See Also
    --------
    best_threshold : with ``metric="net_benefit@0.2"``, the threshold of best net benefit.

    References
    ----------
    .. [1] A. J. Vickers and E. B. Elkin, "Decision curve analysis: a novel method for
       evaluating prediction models", Medical Decision Making 26(6):565-574, 2006.

    Examples
    --------
    >>> from isometrics.spaces import decision_curve
    >>> dc = decision_curve([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], threshold_probability=[0.2, 0.5])
    >>> dc.net_benefit.round(4), dc.treat_all.round(4)
    (array([0.4167, 0.3333]), array([0.375, 0.   ]))
    """
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    return _decision_curve(op, threshold_probability)
