"""Areas under the ROC, PR and PRG curves, computed from the operating points."""

from __future__ import annotations

from typing import Any

from .._core.constraints import ARRAY, POS_LABEL, validate_params
from .._core.count_table import CountTable, Quantity, table_from_scores
from .._core.docstrings import fill_doc
from .._typing import ArrayLike
from ._terms import _gain_ready, table_area
from .curves import PRECISION, PRG

__all__ = ["AUPRG", "AUROC", "AVERAGE_PRECISION", "auroc", "average_precision", "auprg"]


def _auroc(op: CountTable) -> float:
    op.require_both_classes("auroc")
    # Trapezoids: sum_i dFP_i (TP_{i-1} + TP_i) / (2 P N), summed by aligned blocks (the sweep's terms).
    return table_area(op, "auroc")


def _average_precision(op: CountTable) -> float:
    op.require_both_classes("average_precision")
    precision = op.peek(PRECISION)  # left by a PR curve: the same values, not computed again
    return table_area(op, "average_precision", *(() if precision is None else (precision,)))


def _auprg(op: CountTable) -> float:
    op.require_both_classes("auprg")
    _gain_ready(op.n_positives, op.n_negatives)
    prg = op.peek(PRG)  # left by a PRG curve (of this very table): the same gains
    return table_area(op, "auprg", *(() if prg is None else (prg.recall_gain, prg.precision_gain)))


#: The three areas, each with its per-segment terms in the sweep (:data:`._terms.AREAS`).
AUROC = Quantity("auroc", _auroc, counts="rates", terms="auroc")
AVERAGE_PRECISION = Quantity("average_precision", _average_precision, terms="average_precision")
AUPRG = Quantity("auprg", _auprg, terms="auprg")


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def auroc(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> float:
    r"""Area under the ROC curve.

    .. math::

        \mathrm{AUROC} = \frac{1}{PN}\sum_i (FP_i - FP_{i-1})\,\frac{TP_i + TP_{i-1}}{2}

    the trapezoid rule over :func:`roc_curve`, which equals the probability that a random
    positive scores above a random negative, ties counting one half (Mann-Whitney U / PN).

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    float
        In [0, 1]; higher is better; 0.5 is a random ranking.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    roc_curve

    Notes
    -----
    Equals scikit-learn's ``roc_auc_score`` for binary input; a single class raises
    instead of returning NaN.

    References
    ----------
    .. [1] J. A. Hanley and B. J. McNeil, "The meaning and use of the area under a
       receiver operating characteristic (ROC) curve", Radiology 143:29-36, 1982.

    Examples
    --------
    >>> from isometrics import auroc
    >>> auroc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    """
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable).get(
        AUROC
    )


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def average_precision(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> float:
    r"""Average precision: the step-wise area under the precision-recall curve.

    .. math::

        \mathrm{AP} = \sum_i (R_i - R_{i-1})\, P_i

    over the operating points in decreasing threshold order: every positive in a tie
    group receives the precision at the end of the group.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    float
        In [0, 1]; higher is better; a random ranking scores about the prevalence.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    precision_recall_curve, auprg

    Notes
    -----
    Equals scikit-learn's ``average_precision_score``. It is *not* the trapezoidal
    area ``auc(recall, precision)``: linear interpolation between PR points is
    optimistic (Davis & Goadrich 2006), and the two differ in general.

    References
    ----------
    .. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
       Curves", ICML 2006.
    .. [2] K. Boyd, K. H. Eng and C. D. Page, "Area Under the Precision-Recall Curve:
       Point Estimates and Confidence Intervals", ECML PKDD 2013.

    Examples
    --------
    >>> from isometrics import average_precision
    >>> round(average_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable).get(
        AVERAGE_PRECISION
    )


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def auprg(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> float:
    r"""Area under the Precision-Recall-Gain curve (Flach & Kull 2015).

    The trapezoid rule over :func:`prg_curve` in (recall gain, precision gain) from
    recall gain 0 to 1, with the point where the curve crosses recall gain 0 inserted
    (found by interpolating counts on the ROC segment that contains it, which is exact
    since straight ROC segments are straight in PRG space). Area below precision gain 0
    counts as negative.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    float
        At most 1 (perfect ranking); about 0 for a random ranking; can be negative for a
        ranking worse than random. Higher is better.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    prg_curve, average_precision

    Notes
    -----
    If operating points are chosen with recall gain uniform on [0, 1], the expected
    F1 gain is ``AUPRG/2 + 1/4``: AUPRG is an expected F1 score on the harmonic scale.

    References
    ----------
    .. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
       NeurIPS 2015 (the curve, its crossing points and its area).

    Examples
    --------
    >>> from isometrics import auprg
    >>> round(auprg([1, 1, 0, 0, 1, 0], [.8, .8, .6, .4, .4, .2]), 7)
    0.7083333
    """
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable).get(
        AUPRG
    )
