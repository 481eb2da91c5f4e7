"""ROC, precision-recall and Precision-Recall-Gain curves: views of the operating points.

All three curves come in one orientation: element ``i`` is operating point ``i`` of
:class:`~isometrics.OperatingPoints`, thresholds decrease, and the first point
(threshold ``+inf``) predicts nothing positive. Every array of a curve has the same
length.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.count_table import CountTable, _from_scores
from .._core.docstrings import fill_doc
from .._core.html import summarised
from .._typing import ArrayLike, FloatArray
from ..metrics.gain import _gain

__all__ = ["RocCurve", "PrecisionRecallCurve", "PrgCurve", "roc_curve", "precision_recall_curve", "prg_curve"]


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


def _polyline_at(x: FloatArray, xp: FloatArray, fp: FloatArray) -> tuple[FloatArray, FloatArray]:
    """A curve given as points in curve order (``xp`` non-decreasing, vertical runs allowed), at ``x``.

    Returns the values at the first and at the last point of a vertical run where ``x``
    equals one of ``xp``; elsewhere both are the linear interpolation from the last point
    of the run before ``x`` to the first point of the run after it, as the curve runs.
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
    return op._cached("tpr", lambda: _frozen(op.tp / op.n_positives))


def _frozen(values: FloatArray) -> FloatArray:
    values.flags.writeable = False  # cached and shared between curves: read-only
    return values


def _roc_curve(op: CountTable) -> RocCurve:
    op.require_both_classes("roc_curve")
    return RocCurve(_frozen(op.fp / op.n_negatives), _tpr(op), op.thresholds)


def _precision(op: CountTable) -> FloatArray:
    predicted = op.tp + op.fp  # > 0 after point 0 (zero-weight samples are gone)
    predicted[0] = 1.0  # avoid 0/0 at point 0 ...
    precision = np.divide(op.tp, predicted, out=predicted)
    precision[0] = 1.0  # ... where nothing is predicted positive: precision 1 by convention
    return precision


def _precision_recall_curve(op: CountTable) -> PrecisionRecallCurve:
    op.require_both_classes("precision_recall_curve")
    return PrecisionRecallCurve(op._cached("precision", lambda: _frozen(_precision(op))), _tpr(op), op.thresholds)


def _prg_curve(op: CountTable) -> PrgCurve:
    op.require_both_classes("prg_curve")
    pr = op._derived("pr", _precision_recall_curve)
    pi = op.prevalence
    return PrgCurve(_frozen(_gain(pr.precision, pi)), _frozen(_gain(pr.recall, pi)), op.thresholds)


def _roc_corners(tp: FloatArray, fp: FloatArray) -> np.ndarray:
    """Points to keep: the first two, the last, and those where the count step changes.

    Point ``i`` in between lies inside a straight run when the step into it (in TP and
    in FP) equals the step out of it; such points add nothing to the curve.
    """
    keep = np.ones(len(tp), dtype=bool)
    if len(tp) > 3:
        keep[2:-1] = (np.diff(tp, 2)[1:] != 0) | (np.diff(fp, 2)[1:] != 0)
    return keep


def _vertical_ends(tp: FloatArray) -> np.ndarray:
    """Points to keep: the first two, the last, and the ends of each run of equal TP (equal recall)."""
    keep = np.ones(len(tp), dtype=bool)
    if len(tp) > 3:
        step = np.diff(tp) != 0
        keep[2:-1] = step[1:-1] | step[2:]
    return keep


def _thinned(curve: tuple[FloatArray, ...], keep: np.ndarray) -> list[FloatArray]:
    return [values[keep] for values in curve]


@fill_doc
def roc_curve(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None,
    drop_intermediate: bool = False,
) -> RocCurve:
    r"""Receiver operating characteristic at every distinct threshold.

    .. math::

        \mathrm{fpr}_i = FP_i / N, \qquad \mathrm{tpr}_i = TP_i / P

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s
    drop_intermediate : bool, default=False
        Drop the points that lie inside a straight run of equal count steps (the step
        into the point equals the step out of it in both TP and FP), as scikit-learn's
        ``drop_intermediate=True`` does. The curve and its area are unchanged.

    Returns
    -------
    RocCurve
        Named tuple ``(fpr, tpr, thresholds)`` of float64 arrays of shape (n_points,):
        false and true positive rates in [0, 1], non-decreasing, at thresholds in
        decreasing order; ``thresholds[0] = inf`` with ``fpr[0] = tpr[0] = 0``, and the
        last point has ``fpr = tpr = 1``. Point ``i`` predicts positive every sample
        with ``y_score >= thresholds[i]``.

    Raises
    ------
    ValueError
        If ``y_true`` has one class (the curve is undefined), and for the bad inputs
        listed in :meth:`OperatingPoints.from_scores`.

    See Also
    --------
    auroc, precision_recall_curve, prg_curve

    Notes
    -----
    Same values, order and orientation as scikit-learn's ``roc_curve``, with and without
    ``drop_intermediate``. Intentional differences: (1) the default keeps all distinct
    thresholds (``drop_intermediate=False``; scikit-learn's default is ``True``);
    (2) a single class in ``y_true`` is an error rather than NaN with a warning;
    (3) bytes labels are refused (decode them to ``str``); (4) ``pos_label`` is
    inferred only from {0, 1}, {-1, 1} and {False, True}, so other labels need it.

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
    op = _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                      caller="roc_curve", table=CountTable)
    curve = op._derived("roc", _roc_curve)
    if not drop_intermediate:
        return curve
    return RocCurve(*_thinned(curve, _roc_corners(op.tp, op.fp)))


@fill_doc
def precision_recall_curve(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None,
    drop_intermediate: bool = False,
) -> PrecisionRecallCurve:
    r"""Precision and recall at every distinct threshold.

    .. math::

        \mathrm{precision}_i = TP_i / (TP_i + FP_i), \qquad \mathrm{recall}_i = TP_i / P

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s
    drop_intermediate : bool, default=False
        Keep, of each run of points with the same true positive count (a vertical
        segment: same recall), only its first and last points, as scikit-learn's
        ``drop_intermediate=True`` does. The step areas are unchanged.

    Returns
    -------
    PrecisionRecallCurve
        Named tuple ``(precision, recall, thresholds)`` of float64 arrays of shape
        (n_points,), thresholds **decreasing** like the ROC and PRG curves. Precision in
        [0, 1]; recall in [0, 1], non-decreasing. Point 0 (threshold ``inf``, nothing
        predicted positive) has recall 0 and precision 1 by convention; the last point
        (everything positive) has recall 1 and precision equal to the prevalence.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    average_precision, roc_curve, prg_curve

    Notes
    -----
    Intentional differences from scikit-learn's ``precision_recall_curve``: (1) the
    orientation: thresholds decrease and every array has the same length, the
    ``(precision=1, recall=0)`` point carrying the threshold ``inf`` (scikit-learn
    returns increasing thresholds, one fewer than points, and appends that point last);
    (2) points after full recall is reached are kept (scikit-learn drops them). On the
    points both return, the values are equal, with and without ``drop_intermediate``.
    As :func:`roc_curve`, a single class is an error, bytes labels are refused and
    ``pos_label`` is inferred only from {0, 1}, {-1, 1} and {False, True}.

    Precision 1 at the first point is scikit-learn's convention for the undefined 0/0;
    the point is not an operating point any threshold realises on data, and areas do
    not depend on its precision.

    References
    ----------
    .. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
       Curves", ICML 2006.

    Examples
    --------
    >>> from isometrics import precision_recall_curve
    >>> precision, recall, thresholds = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> precision.round(4), recall
    (array([1.    , 1.    , 0.5   , 0.6667, 0.5   ]), array([0. , 0.5, 0.5, 1. , 1. ]))
    """
    op = _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                      caller="precision_recall_curve", table=CountTable)
    curve = op._derived("pr", _precision_recall_curve)
    if not drop_intermediate:
        return curve
    return PrecisionRecallCurve(*_thinned(curve, _vertical_ends(op.tp)))


@fill_doc
def prg_curve(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> PrgCurve:
    r"""Precision-Recall-Gain curve (Flach & Kull 2015) at every distinct threshold.

    With prevalence :math:`\pi = P/(P+N)`, the gain transform
    :math:`g(x) = (x - \pi)/((1-\pi)\,x)` maps :math:`\pi` to 0 and 1 to 1:

    .. math::

        \mathrm{precision\_gain} = g(\mathrm{precision}) = 1 - \frac{P}{N}\frac{FP}{TP},
        \qquad
        \mathrm{recall\_gain} = g(\mathrm{recall}) = 1 - \frac{P}{N}\frac{FN}{TP}

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
    return _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                        caller="prg_curve", table=CountTable)._derived("prg", _prg_curve)
