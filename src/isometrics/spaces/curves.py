"""ROC, precision-recall and Precision-Recall-Gain curves: views of the operating points.

The curve objects (:class:`RocCurve`, :class:`PrecisionRecallCurve`, :class:`PrgCurve`,
as :class:`~isometrics.OperatingPoints` returns them) come in one orientation: element
``i`` is operating point ``i``, thresholds decrease, and the first point (threshold
``+inf``) predicts nothing positive. Every array of a curve has the same length.

The functions named as scikit-learn's (:func:`roc_curve`, :func:`precision_recall_curve`)
return what scikit-learn's return: for the PR curve, its increasing thresholds, one fewer
than the points, and NaN with an ``UndefinedMetricWarning`` where y_true has one class.
"""

from __future__ import annotations

import warnings
from typing import Any, NamedTuple

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, Boolean, user_stacklevel, validate_params
from .._core.count_table import CountTable, Quantity, table_from_scores
from .._core.docstrings import fill_doc
from .._core.html import summarised
from .._typing import ArrayLike, FloatArray
from ..exceptions import UndefinedMetricWarning
from ..metrics.gain import gain_transform

__all__ = [
    "PR",
    "PRECISION",
    "PRG",
    "ROC",
    "TPR",
    "RocCurve",
    "PrecisionRecallCurve",
    "PrgCurve",
    "roc_curve",
    "precision_recall_curve",
    "prg_curve",
]


@summarised()
class RocCurve(NamedTuple):
    """ROC curve: ``(fpr, tpr, thresholds)``, arrays of shape (n_points,), thresholds decreasing.

    Unpacks like scikit-learn's ``roc_curve``: ``fpr, tpr, thresholds = roc_curve(...)``.
    """

    fpr: FloatArray
    tpr: FloatArray
    thresholds: FloatArray

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce_keeping_read_only(self)


@summarised()
class PrecisionRecallCurve(NamedTuple):
    """PR curve: ``(precision, recall, thresholds)``, shape (n_points,), thresholds decreasing."""

    precision: FloatArray
    recall: FloatArray
    thresholds: FloatArray

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce_keeping_read_only(self)


@summarised()
class PrgCurve(NamedTuple):
    """PRG curve: ``(precision_gain, recall_gain, thresholds)``, shape (n_points,), thresholds decreasing.

    Negative gains (precision or recall below the prevalence) are kept; ``in_unit_square``
    marks the points that PRG plots usually show.
    """

    precision_gain: FloatArray
    recall_gain: FloatArray
    thresholds: FloatArray

    @property
    def in_unit_square(self) -> np.ndarray:
        """Boolean mask of the points with both gains in [0, 1]."""
        return (self.precision_gain >= 0) & (self.recall_gain >= 0)

    def __reduce__(self) -> tuple[Any, ...]:
        return _reduce_keeping_read_only(self)


def _reduce_keeping_read_only(curve: tuple[Any, ...]) -> tuple[Any, ...]:
    """``__reduce__`` of a NamedTuple of arrays: arrays read-only before pickling are read-only after."""
    read_only = tuple(isinstance(v, np.ndarray) and not v.flags.writeable for v in curve)
    return (_rebuild_read_only, (type(curve), tuple(curve), read_only))


def _rebuild_read_only(cls: Any, values: tuple[Any, ...], read_only: tuple[bool, ...]) -> Any:
    for value, frozen in zip(values, read_only):
        if frozen:
            value.flags.writeable = False
    return cls(*values)


def polyline_at(x: FloatArray, xp: FloatArray, fp: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Evaluate a curve given as points in curve order at ``x``, at both ends of a vertical run.

    Parameters
    ----------
    x : ndarray of float64
        Where to evaluate, within ``[xp[0], xp[-1]]``.
    xp : ndarray of float64 of shape (n_points,)
        The points' abscissae, non-decreasing (equal values form a vertical run).
    fp : ndarray of float64 of shape (n_points,)
        The points' ordinates.

    Returns
    -------
    first, last : ndarray of float64
        Where ``x`` equals one of ``xp``, the values at the first and at the last point of
        that run; elsewhere both are the linear interpolation from the last point of the
        run before ``x`` to the first point of the run after it, as the curve runs.
    """
    starts = np.r_[True, np.diff(xp) > 0]
    ends = np.r_[np.diff(xp) > 0, True]
    u, first, last = xp[starts], fp[starts], fp[ends]
    j = np.clip(np.searchsorted(u, x, side="left"), 0, len(u) - 1)
    exact = u[j] == x
    prev = np.maximum(j - 1, 0)
    width = np.where(exact, 1.0, u[j] - u[prev])
    inside = last[prev] + (x - u[prev]) * (first[j] - last[prev]) / width
    return np.where(exact, first[j], inside), np.where(exact, last[j], inside)


def _tpr(op: CountTable) -> FloatArray:
    """True positive rate = recall, shared by the ROC and PR curves (computed once)."""
    return op.get(TPR)


def _frozen(values: FloatArray) -> FloatArray:
    values.flags.writeable = False  # cached and shared between curves: read-only
    return values


def _roc_curve(op: CountTable) -> RocCurve:
    op.require_both_classes("roc_curve")
    return RocCurve(_frozen(op.fp / op.n_negatives), _tpr(op), op.thresholds)


def _precision(op: CountTable) -> FloatArray:
    tp, fp = op.tp, op.fp
    precision = np.empty(len(tp))
    for a in range(0, len(tp), _RUN):  # both steps of a run while it is in the cache
        run = precision[a : a + _RUN]
        np.add(tp[a : a + _RUN], fp[a : a + _RUN], out=run)  # > 0 after point 0 (zero-weight samples are gone)
        if a == 0:
            run[0] = 1.0  # avoid 0/0 at point 0 ...
        np.divide(tp[a : a + _RUN], run, out=run)
    precision[0] = 1.0  # ... where nothing is predicted positive: precision 1 by convention
    return precision


#: Points per run of the curves' element-wise steps: a run's temporaries stay in the cache.
_RUN = 1 << 16


def _precision_recall_curve(op: CountTable) -> PrecisionRecallCurve:
    op.require_both_classes("precision_recall_curve")
    return PrecisionRecallCurve(op.get(PRECISION), _tpr(op), op.thresholds)


def _prg_curve(op: CountTable) -> PrgCurve:
    op.require_both_classes("prg_curve")
    pr = op.get(PR)
    pi = op.prevalence
    return PrgCurve(_frozen(gain_transform(pr.precision, pi)), _frozen(gain_transform(pr.recall, pi)), op.thresholds)


#: Recall (= TPR) and precision at every point of the table they are asked of, shared by the curves.
TPR = Quantity(
    "tpr",
    lambda op: _frozen(op.tp / op.n_positives),
    counts="own",
    kind="part",
    needs_both_classes=False,
    public=False,
    method=False,
)
PRECISION = Quantity(
    "precision",
    lambda op: _frozen(_precision(op)),
    counts="own",
    kind="part",
    needs_both_classes=False,
    public=False,
    method=False,
)
ROC = Quantity("roc_curve", _roc_curve, counts="rates", kind="curve")
PR = Quantity("precision_recall_curve", _precision_recall_curve, kind="curve")
PRG = Quantity("prg_curve", _prg_curve, kind="curve")


def _roc_corners(tp: FloatArray, fp: FloatArray) -> np.ndarray:
    """Points to keep: the first two, the last, and those where the count step changes.

    Point ``i`` in between lies inside a straight run when the step into it (in TP and
    in FP) equals the step out of it; such points add nothing to the curve.
    """
    keep = np.ones(len(tp), dtype=bool)
    if len(tp) > 3:
        keep[2:-1] = (np.diff(tp, 2)[1:] != 0) | (np.diff(fp, 2)[1:] != 0)
    return keep


def _thinned(curve: tuple[FloatArray, ...], keep: np.ndarray) -> list[FloatArray]:
    return [values[keep] for values in curve]


def _rate_or_nan(counts: FloatArray, total: float, what: str) -> FloatArray:
    """``counts / total``; NaN at every point, with a warning, when the class is absent (scikit-learn's rule)."""
    if total > 0:
        return counts / total
    rate = "true positive rate" if what == "positive" else "false positive rate"
    warnings.warn(
        f"{current_caller()}: y_true has no {what} samples (with positive weight), so the {rate} is undefined "
        "and set to NaN at every threshold, as scikit-learn sets it; pass samples of both classes.",
        UndefinedMetricWarning,
        stacklevel=user_stacklevel(3),
    )
    return np.full(len(counts), np.nan)


def _threshold_dtype(y_score: ArrayLike) -> np.dtype:
    """The dtype of the scores as given (scikit-learn's PR thresholds keep it); float64 if not numeric."""
    try:
        dtype = np.dtype(y_score.dtype) if hasattr(y_score, "dtype") else np.asarray(y_score).dtype
    except (TypeError, ValueError):
        return np.dtype(np.float64)
    return dtype if dtype.kind in "biuf" else np.dtype(np.float64)


def _sklearn_pr(op: CountTable, drop_intermediate: bool, dtype: np.dtype) -> tuple[FloatArray, FloatArray, np.ndarray]:
    """scikit-learn's PR arrays from the operating points: increasing thresholds, the ``(1, 0)`` point last."""
    view = op.normalised
    tp, fp, thresholds = view.tp[1:], view.fp[1:], view.thresholds[1:]  # no threshold-inf point
    if drop_intermediate and len(tp) > 2:  # first and last point of each run of equal TP
        step = np.diff(tp) != 0
        keep = np.r_[True, step[:-1] | step[1:], True]
        tp, fp, thresholds = tp[keep], fp[keep], thresholds[keep]
    precision = tp / (tp + fp)  # > 0: zero-weight samples carry no threshold
    if view.n_positives > 0:
        recall = tp / view.n_positives
    else:
        warnings.warn(
            "precision_recall_curve: y_true has no positive samples (with positive weight), so recall is "
            "undefined; it is set to 1 at every threshold, as scikit-learn sets it.",
            UndefinedMetricWarning,
            stacklevel=user_stacklevel(3),
        )
        recall = np.ones(len(tp))
    return np.r_[precision[::-1], 1.0], np.r_[recall[::-1], 0.0], thresholds[::-1].astype(dtype)


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
        "drop_intermediate": Boolean(),
    }
)
@fill_doc
def roc_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    drop_intermediate: bool = True,
) -> RocCurve:
    r"""Receiver operating characteristic at every distinct threshold, as scikit-learn's ``roc_curve``.

    .. math::

        \mathrm{fpr}_i = FP_i / N, \qquad \mathrm{tpr}_i = TP_i / P

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s
    drop_intermediate : bool, default=True
        Drop the points that lie inside a straight run of equal count steps (the step
        into the point equals the step out of it in both TP and FP), as scikit-learn's
        ``drop_intermediate=True`` (its default) does. The curve and its area are
        unchanged. ``False`` keeps every distinct threshold.

    Returns
    -------
    RocCurve
        Named tuple ``(fpr, tpr, thresholds)`` of float64 arrays of shape (n_points,):
        false and true positive rates in [0, 1], non-decreasing, at thresholds in
        decreasing order; ``thresholds[0] = inf`` with ``fpr[0] = tpr[0] = 0``, and the
        last point has ``fpr = tpr = 1``. Point ``i`` predicts positive every sample
        with ``y_score >= thresholds[i]``. When ``y_true`` has no negative (positive)
        samples, every ``fpr`` (``tpr``) is NaN.

    Raises
    ------
    ValueError
        For the bad inputs listed in :meth:`OperatingPoints.from_scores`.
    TypeError
        If the labels are bytes (the error is also a ``ValueError``).

    Warns
    -----
    UndefinedMetricWarning
        When ``y_true`` has one class: the rate of the absent class is NaN.

    See Also
    --------
    OperatingPoints.roc_curve : The same curve at every operating point; one class is an error.
    auroc, precision_recall_curve, prg_curve

    Notes
    -----
    Same values, order, orientation and dtypes as scikit-learn's ``roc_curve``, with and
    without ``drop_intermediate``, including NaN rates with an ``UndefinedMetricWarning``
    for a single class in ``y_true`` and a ``TypeError`` for bytes labels; ``pos_label``
    is inferred as scikit-learn infers it (1 for labels in {0, 1}, {-1, 1} or
    {False, True}), other labels need it. isometrics' own curve,
    ``OperatingPoints.from_scores(...).roc_curve()``, has the same orientation, keeps
    every distinct threshold and refuses a single class.

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters
       27(8):861-874, 2006.

    Examples
    --------
    >>> from isometrics import roc_curve
    >>> fpr, tpr, thresholds = roc_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr, tpr
    (array([0. , 0. , 0.5, 0.5, 1. ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    """
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    if op.n_positives > 0 and op.n_negatives > 0:
        curve = op.get(ROC)
    else:
        view = op.normalised
        curve = RocCurve(
            _rate_or_nan(view.fp, view.n_negatives, "negative"),
            _rate_or_nan(view.tp, view.n_positives, "positive"),
            op.thresholds,
        )
    if not drop_intermediate:
        return curve
    return RocCurve(*_thinned(curve, _roc_corners(op.tp, op.fp)))


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
        "drop_intermediate": Boolean(),
    }
)
@fill_doc
def precision_recall_curve(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    drop_intermediate: bool = False,
) -> tuple[FloatArray, FloatArray, np.ndarray]:
    r"""Precision and recall at every distinct threshold, as scikit-learn's ``precision_recall_curve``.

    .. math::

        \mathrm{precision}_i = TP_i / (TP_i + FP_i), \qquad \mathrm{recall}_i = TP_i / P

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s
    drop_intermediate : bool, default=False
        Keep, of each run of thresholds with the same true positive count (a vertical
        segment: same recall), only its first and last, as scikit-learn's
        ``drop_intermediate=True`` does. The step areas are unchanged.

    Returns
    -------
    precision : ndarray of shape (n_thresholds + 1,), float64
        Precision at each threshold in ``thresholds`` order, then 1.0 (the point where
        nothing is predicted positive, scikit-learn's convention for the undefined 0/0).
    recall : ndarray of shape (n_thresholds + 1,), float64
        Recall in [0, 1], non-increasing, ending at 0.0.
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, **increasing**, in the dtype of ``y_score`` (float64 when
        it is not numeric); point ``i`` predicts positive every sample with
        ``y_score >= thresholds[i]``.

    Raises
    ------
    ValueError
        For the bad inputs listed in :meth:`OperatingPoints.from_scores`.
    TypeError
        If the labels are bytes (the error is also a ``ValueError``).

    Warns
    -----
    UndefinedMetricWarning
        When ``y_true`` has no positive samples: recall is set to 1 at every threshold.

    See Also
    --------
    OperatingPoints.precision_recall_curve : The curve in isometrics' orientation.
    average_precision, roc_curve, prg_curve

    Notes
    -----
    Same values, order, orientation and dtypes as scikit-learn's
    ``precision_recall_curve``, with and without ``drop_intermediate``: thresholds
    increase, ``precision`` and ``recall`` have one more element than ``thresholds``
    and end at the point ``(precision=1, recall=0)``, which has no threshold. With no
    positive sample, recall is 1 at every threshold and a warning is issued (scikit-learn
    warns with a ``UserWarning``; ``UndefinedMetricWarning`` is one); bytes labels raise
    a ``TypeError``; ``pos_label`` is inferred as :func:`roc_curve` infers it.

    isometrics' own orientation is that of every curve object:
    ``OperatingPoints.from_scores(y_true, y_score).precision_recall_curve()`` returns a
    :class:`PrecisionRecallCurve` whose three arrays have the same length, thresholds
    **decreasing** from ``inf`` (the ``(precision=1, recall=0)`` point comes first and
    carries the threshold ``inf``), like the ROC and PRG curves; it refuses a single
    class. The two hold the same points in opposite orders::

        precision, recall, thresholds = precision_recall_curve(y, s)   # scikit-learn's order
        curve = OperatingPoints.from_scores(y, s).precision_recall_curve()
        curve.precision == precision[::-1]; curve.thresholds[1:] == thresholds[::-1]

    References
    ----------
    .. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
       Curves", ICML 2006.

    Examples
    --------
    >>> from isometrics import OperatingPoints, precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision.round(4), recall, thresholds
    (array([0.5   , 0.6667, 0.5   , 1.    , 1.    ]), array([1. , 1. , 0.5, 0.5, 0. ]), array([0.1 , 0.35, 0.4 , 0.8 ]))
    >>> OperatingPoints.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).precision_recall_curve().thresholds
    array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
    """
    op = table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=CountTable,
    )
    return _sklearn_pr(op, drop_intermediate, _threshold_dtype(y_score))


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def prg_curve(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> PrgCurve:
    r"""Precision-Recall-Gain curve (Flach & Kull 2015) at every distinct threshold.

    With prevalence :math:`\pi = P/(P+N)`, the gain transform
    :math:`g(x) = (x - \pi)/((1-\pi)\,x)` maps :math:`\pi` to 0 and 1 to 1:

    .. math::

        \mathrm{precision\gain_transform} = g(\mathrm{precision}) = 1 - \frac{P}{N}\frac{FP}{TP},
        \qquad
        \mathrm{recall\gain_transform} = g(\mathrm{recall}) = 1 - \frac{P}{N}\frac{FN}{TP}

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    PrgCurve
        Named tuple ``(precision_gain, recall_gain, thresholds)`` of float64 arrays of
        shape (n_points,), thresholds decreasing. Gains lie in [-inf, 1]; 1 is perfect,
        0 is the level of the always-positive classifier, negative values mean
        precision (recall) below the prevalence. Recall gain is non-decreasing.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    auprg, precision_recall_curve

    Notes
    -----
    The curve is the gain transform of :func:`precision_recall_curve`, point by point,
    with :math:`g(0) = -\infty`. Points with no true positive therefore have
    ``recall_gain = -inf`` (and ``precision_gain = -inf`` if they have a false
    positive; the first point has ``precision_gain = 1``, the gain of the PR curve's
    conventional precision 1). Negative gains are kept, not dropped: plots usually show
    the unit square, and :func:`auprg` integrates from recall gain 0, where it inserts
    the crossing point. The last point is the always-positive classifier, at
    ``(recall_gain, precision_gain) = (1, 0)``.

    References
    ----------
    .. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
       NeurIPS 2015.

    Examples
    --------
    >>> from isometrics import prg_curve
    >>> pg, rg, t = prg_curve([1, 1, 0, 0, 1, 0], [.8, .8, .6, .4, .4, .2])
    >>> rg, pg.round(4)
    (array([-inf,  0.5,  0.5,  1. ,  1. ]), array([1.    , 1.    , 0.5   , 0.3333, 0.    ]))
    """
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable).get(
        PRG
    )
