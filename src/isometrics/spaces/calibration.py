r"""Calibration: isotonic calibration via the ROC convex hull, F-calibration via the PRG
hull, reliability curves and expected calibration error.

The slopes of the ROC convex hull are empirical likelihood ratios: a hull segment with
counts :math:`(\Delta TP, \Delta FP)` maps its scores to the probability
:math:`\Delta TP / (\Delta TP + \Delta FP)`, which is exactly the pool-adjacent-violators
(isotonic regression) fit. In PRG space a hull segment of slope :math:`s` maps its scores
to :math:`1/(1 - s)`; thresholding those at :math:`1/(1+\beta^2)` gives F-beta-optimal
decisions.

References
----------
.. [1] T. Fawcett and A. Niculescu-Mizil, "PAV and the ROC convex hull", Machine
   Learning 68(1):97-106, 2007.
.. [2] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
   NeurIPS 2015 (F-calibration).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, Integral, Interval, Options, validate_params
from .._core.count_table import CountTable, Quantity, table_from_scores
from .._core.docstrings import fill_doc
from .._core.html import summarised
from .._core.validation import (
    as_1d,
    as_sample_weight,
    check_binary_target,
    check_consistent_length,
    check_integer,
    check_option,
    check_sample_weight,
    check_scores,
)
from .._typing import ArrayLike, FloatArray
from ..exceptions import IsometricsError
from .hull import PRG_HULL, ROC_HULL

__all__ = [
    "F_CALIBRATOR",
    "ISOTONIC",
    "StepCalibrator",
    "isotonic_calibrator",
    "f_calibrator",
    "ReliabilityCurve",
    "reliability_curve",
    "expected_calibration_error",
]


@summarised()
@dataclass(frozen=True)
class StepCalibrator:
    """A monotone (non-decreasing) step map from scores to calibrated values.

    Call it on scores: ``calibrator(y_score)``. A score takes the value of the highest
    training score at or below it; scores below every training score take the lowest
    value.

    Attributes
    ----------
    thresholds : ndarray of shape (n_steps,), float64
        Training scores where the value may change, decreasing.
    values : ndarray of shape (n_steps,), float64
        Value for scores in ``[thresholds[i], thresholds[i-1])``, non-increasing with ``i``.
    """

    thresholds: FloatArray
    values: FloatArray

    @validate_params({"y_score": ARRAY}, name="StepCalibrator")
    def __call__(self, y_score: ArrayLike) -> FloatArray:
        """Calibrated values of ``y_score`` (array of shape (n_samples,), float64)."""
        s = check_scores(y_score)
        ascending = self.thresholds[::-1]
        # index of the largest training score <= s (ascending order), clipped to the lowest
        pos = np.searchsorted(ascending, s, side="right") - 1
        pos = np.clip(pos, 0, len(ascending) - 1)
        return self.values[::-1][pos]


def _per_group(op: CountTable, vertices: np.ndarray, segment_values: FloatArray) -> StepCalibrator:
    """Spread per-segment values over the tie groups each hull segment covers."""
    counts = np.diff(vertices)  # groups in each segment (vertex k-1, vertex k]
    values = np.repeat(segment_values, counts)
    return StepCalibrator(op.thresholds[1:].copy(), values)


def _isotonic(op: CountTable) -> StepCalibrator:
    op.require_both_classes("isotonic_calibrator")
    idx = op.get(ROC_HULL).indices
    d_tp, d_fp = np.diff(op.tp[idx]), np.diff(op.fp[idx])
    return _per_group(op, idx, d_tp / (d_tp + d_fp))


def _f_calibrator(op: CountTable) -> StepCalibrator:
    op.require_both_classes("f_calibrator")
    roc = op.get(ROC_HULL)
    prg = op.get(PRG_HULL)
    if not np.array_equal(prg.indices, roc.indices[1:]):  # pragma: no cover - the hull's 2nd vertex has TP > 0
        raise IsometricsError("f_calibrator: unexpected hull; please report this data set.")
    return _per_group(op, roc.indices, prg.f_calibrated_scores)


ISOTONIC = Quantity("isotonic_calibrator", _isotonic, kind="calibrator")
F_CALIBRATOR = Quantity("f_calibrator", _f_calibrator, kind="calibrator")


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def isotonic_calibrator(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> StepCalibrator:
    """Isotonic calibration of scores, fitted through the ROC convex hull.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    StepCalibrator
        Maps scores to probabilities of the positive class in [0, 1], non-decreasing in
        the score: each hull segment's ``dTP / (dTP + dFP)``.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    f_calibrator, roc_convex_hull

    Notes
    -----
    On the training scores it equals the pool-adjacent-violators fit (scikit-learn's
    ``IsotonicRegression``, tied scores averaged). Between training scores it is a step
    function (scikit-learn interpolates linearly).

    References
    ----------
    .. [1] T. Fawcett and A. Niculescu-Mizil, "PAV and the ROC convex hull", Machine
       Learning 68(1):97-106, 2007.

    Examples
    --------
    >>> from isometrics.spaces import isotonic_calibrator
    >>> calibrate = isotonic_calibrator([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    >>> calibrate([0.1, 0.2, 0.3, 0.4])
    array([0. , 0.5, 0.5, 1. ])
    """
    return table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=CountTable,
    ).get(ISOTONIC)


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def f_calibrator(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> StepCalibrator:
    r"""F-calibration of scores through the PRG convex hull (Flach & Kull 2015).

    Each PRG hull segment of slope :math:`s` maps its scores to :math:`1/(1-s)`; then,
    for any :math:`\beta`, predicting positive when the calibrated score is at least
    :math:`1/(1+\beta^2)` is F-beta-optimal among the hull's classifiers.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    StepCalibrator
        Maps scores to F-calibrated scores in [0, 1], non-decreasing in the score.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    prg_convex_hull, isotonic_calibrator

    References
    ----------
    .. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
       NeurIPS 2015.

    Examples
    --------
    >>> from isometrics.spaces import f_calibrator
    >>> calibrate = f_calibrator([1, 1, 0, 0, 1, 0], [.8, .8, .6, .4, .4, .2])
    >>> calibrate([.8, .6, .4, .2]).round(4)
    array([1.    , 0.4286, 0.4286, 0.    ])
    """
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable).get(
        F_CALIBRATOR
    )


@summarised()
class ReliabilityCurve(NamedTuple):
    """Reliability diagram data, one entry per non-empty bin (arrays of equal length).

    ``mean_predicted``: mean predicted probability in the bin; ``fraction_positive``:
    (weighted) share of positives; ``weight``: (weighted) number of samples.
    """

    mean_predicted: FloatArray
    fraction_positive: FloatArray
    weight: FloatArray


def _reliability_iv(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    sample_weight: ArrayLike | None,
    pos_label: Any,
    n_bins: int,
    strategy: str,
) -> tuple[np.ndarray, FloatArray, FloatArray, np.ndarray]:
    y = as_1d(y_true, name="y_true")
    p = as_1d(y_prob, name="y_prob")
    w = as_sample_weight(sample_weight)
    check_consistent_length(y_true=y, y_prob=p, sample_weight=w)
    is_pos, _ = check_binary_target(y, pos_label=pos_label)
    prob = check_scores(p, name="y_prob")
    if prob.min() < 0 or prob.max() > 1:
        raise IsometricsError(
            f"{current_caller()}: y_prob must be probabilities in [0, 1] (got values in "
            f"[{prob.min():g}, {prob.max():g}]); calibrate or transform the scores first."
        )
    weights = check_sample_weight(w, len(prob))
    check_option(strategy, "strategy", ("uniform", "quantile"))
    if strategy == "uniform":
        edges = np.linspace(0.0, 1.0, n_bins + 1)
    else:
        edges = np.quantile(prob, np.linspace(0.0, 1.0, n_bins + 1))
    bins = np.searchsorted(edges[1:-1], prob, side="left")  # (e_k, e_k+1], the first bin includes 0
    return bins, prob, (np.ones(len(prob)) if weights is None else weights), is_pos


@validate_params(
    {
        "y_true": ARRAY,
        "y_prob": ARRAY,
        "n_bins": Interval(Integral, 1, None),
        "strategy": Options("uniform", "quantile"),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
    }
)
def reliability_curve(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    n_bins: int = 10,
    strategy: str = "uniform",
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> ReliabilityCurve:
    """Observed frequency of positives against mean predicted probability, per bin.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    n_bins : int, default=10
        Number of bins (>= 1).
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width bins on [0, 1], or bins with equal numbers of samples.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).

    Returns
    -------
    ReliabilityCurve
        Per non-empty bin, in increasing probability: mean predicted probability,
        fraction of positives, and bin weight. A calibrated model lies on the diagonal.

    Raises
    ------
    ValueError
        If ``y_prob`` is outside [0, 1], NaN or infinite; for bad labels or weights; if
        ``n_bins`` is not an integer >= 1 (``InvalidParameterError``; ``1.5`` is not
        rounded) or ``strategy`` is unknown.

    See Also
    --------
    expected_calibration_error, isotonic_calibrator

    Notes
    -----
    Bins are closed on the right and the first includes 0, as in scikit-learn's
    ``calibration_curve``, whose values these equal when unweighted (it returns the
    fraction of positives first). Quantile edges that coincide (many equal
    probabilities) leave empty bins, which are omitted.

    Examples
    --------
    >>> from isometrics.spaces import reliability_curve
    >>> curve = reliability_curve([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.8], n_bins=2)
    >>> curve.mean_predicted, curve.fraction_positive
    (array([0.2, 0.7]), array([0., 1.]))
    """
    return _reliability_curve(y_true, y_prob, sample_weight, pos_label, n_bins, strategy)


def _reliability_curve(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    sample_weight: ArrayLike | None,
    pos_label: Any,
    n_bins: Any,
    strategy: str,
) -> ReliabilityCurve:
    n_bins = check_integer(n_bins, "n_bins", low=1)
    bins, prob, w, is_pos = _reliability_iv(y_true, y_prob, sample_weight, pos_label, n_bins, strategy)
    total = np.bincount(bins, weights=w, minlength=n_bins)
    pred = np.bincount(bins, weights=w * prob, minlength=n_bins)
    pos = np.bincount(bins, weights=w * is_pos, minlength=n_bins)
    keep = total > 0
    return ReliabilityCurve(pred[keep] / total[keep], pos[keep] / total[keep], total[keep].astype(np.float64))


@validate_params(
    {
        "y_true": ARRAY,
        "y_prob": ARRAY,
        "n_bins": Interval(Integral, 1, None),
        "strategy": Options("uniform", "quantile"),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
    }
)
def expected_calibration_error(
    y_true: ArrayLike,
    y_prob: ArrayLike,
    *,
    n_bins: int = 10,
    strategy: str = "uniform",
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> float:
    r"""Expected calibration error: the weighted mean gap between confidence and frequency.

    .. math::

        \mathrm{ECE} = \sum_b \frac{W_b}{W}\,\left| \bar y_b - \bar p_b \right|

    over the bins of :func:`reliability_curve`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class, in [0, 1].
    n_bins : int, default=10
        Number of bins (>= 1).
    strategy : {"uniform", "quantile"}, default="uniform"
        Equal-width or equal-count bins.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).

    Returns
    -------
    float
        In [0, 1]; 0 is perfectly calibrated (at this binning); lower is better.

    Raises
    ------
    ValueError
        As :func:`reliability_curve`.

    References
    ----------
    .. [1] M. P. Naeini, G. F. Cooper and M. Hauskrecht, "Obtaining Well Calibrated
       Probabilities Using Bayesian Binning", AAAI 2015.

    Examples
    --------
    >>> from isometrics.spaces import expected_calibration_error
    >>> round(expected_calibration_error([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.8], n_bins=2), 4)
    0.25
    """
    curve = _reliability_curve(y_true, y_prob, sample_weight, pos_label, n_bins, strategy)
    return float(np.sum(curve.weight * np.abs(curve.fraction_positive - curve.mean_predicted)) / curve.weight.sum())
