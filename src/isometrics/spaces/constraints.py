"""Operating points under a constraint: the best precision at a minimum recall, the best
recall at a minimum precision, the best specificity at a minimum sensitivity (observed
thresholds; the randomised ones over the ROC convex hull are in :mod:`.hull`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.bounds import BOUND_RTOL, fmt_bound, loosest, meets_bound
from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, Interval, Real, validate_params
from .._core.count_table import CountTable, table_from_scores
from .._core.docstrings import fill_doc
from .._core.validation import check_real
from .._typing import ArrayLike
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from .curves import PR
from .thresholds import OperatingPoint, _point, _tied_best

__all__ = ["precision_at_recall", "recall_at_precision", "specificity_at_sensitivity"]


def _fraction(value: Any, name: str) -> float:
    return check_real(value, name, low=0.0, high=1.0)


_PRECISION = parse_metric("precision")


def _precision_at_recall(op: CountTable, min_recall: float) -> OperatingPoint:
    k = _fraction(min_recall, "min_recall")
    op.require_both_classes(current_caller())
    pr = op.get(PR)
    allowed = meets_bound(pr.recall, k, "min")  # recall >= k as typed (see _core.bounds)
    allowed[0] = False  # the inf point predicts nothing: it has no precision
    tied = _tied_best(op, _PRECISION, pr.precision, allowed)
    return _point(op, int(tied[-1]))  # ties: the largest recall


def _recall_at_precision(op: CountTable, min_precision: float) -> OperatingPoint:
    k = _fraction(min_precision, "min_precision")
    op.require_both_classes(current_caller())
    precision = op.get(PR).precision
    allowed = meets_bound(precision, k, "min")  # precision >= k as typed (see _core.bounds)
    allowed[0] = False
    candidates = np.flatnonzero(allowed)
    if len(candidates) == 0:
        best = int(np.argmax(precision[1:])) + 1
        raise IsometricsError(
            f"{current_caller()}: no threshold reaches precision >= {fmt_bound(k)} (compared within a relative "
            f"{BOUND_RTOL:g}); the highest is {fmt_bound(precision[best])} (tp={op.tp[best]:g}, "
            f"fp={op.fp[best]:g}); lower min_precision."
        )
    top_tp = op.tp[candidates].max()
    i = int(candidates[op.tp[candidates] == top_tp][0])  # ties: fewest false positives
    return _point(op, i)


def _specificity_at_sensitivity(op: CountTable, min_sensitivity: float) -> OperatingPoint:
    k = _fraction(min_sensitivity, "min_sensitivity")
    op.require_both_classes(current_caller())
    recall = op.get(PR).recall  # non-decreasing
    first = int(np.searchsorted(recall, loosest(k, "min"), side="left"))  # TPR >= k from here on: fewest FP
    i = int(np.searchsorted(op.fp, op.fp[first], side="right")) - 1  # ties: the largest sensitivity
    return _point(op, i)


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "min_recall": Interval(Real, 0, 1),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
    }
)
@fill_doc
def precision_at_recall(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    min_recall: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> OperatingPoint:
    """The observed threshold with the best precision among those with recall >= ``min_recall``.

    Ties in precision go to the larger recall (compared exactly for integer counts, as
    in :func:`best_threshold`). The ``inf`` threshold, which predicts nothing and has
    no precision, never competes: ``min_recall=0`` gives the best precision of any
    threshold.
    %(constrained)s
    Examples
    --------
    >>> from isometrics import precision_at_recall
    >>> p = precision_at_recall([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_recall=0.9)
    >>> p.threshold, round(p.precision, 4), p.recall
    (0.35, 0.6667, 1.0)
    """
    op = table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=CountTable,
    )
    return _precision_at_recall(op, min_recall)


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "min_precision": Interval(Real, 0, 1),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
    }
)
@fill_doc
def recall_at_precision(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    min_precision: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> OperatingPoint:
    """The observed threshold with the best recall among those with precision >= ``min_precision``.

    Ties in recall go to the fewer false positives. ``min_precision=0`` admits every
    threshold but ``inf``; ``min_precision=1``, those without a false positive.
    %(constrained_rp)s
    Examples
    --------
    >>> from isometrics import recall_at_precision
    >>> p = recall_at_precision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_precision=0.6)
    >>> p.threshold, p.recall
    (0.35, 1.0)
    """
    op = table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=CountTable,
    )
    return _recall_at_precision(op, min_precision)


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "min_sensitivity": Interval(Real, 0, 1),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
    }
)
@fill_doc
def specificity_at_sensitivity(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    min_sensitivity: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> OperatingPoint:
    """The observed threshold with the best specificity among those with sensitivity >= ``min_sensitivity``.

    Sensitivity is recall (TPR); specificity is ``1 - FPR``. Ties in specificity go
    to the larger sensitivity; ``min_sensitivity=0`` admits the ``inf`` threshold
    (nothing predicted positive, specificity 1).
    %(constrained_ss)s
    Examples
    --------
    >>> from isometrics import specificity_at_sensitivity
    >>> p = specificity_at_sensitivity([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], min_sensitivity=0.5)
    >>> p.threshold, p.specificity
    (0.8, 1.0)
    """
    op = table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=CountTable,
    )
    return _specificity_at_sensitivity(op, min_sensitivity)
