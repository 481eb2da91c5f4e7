"""The full binary evaluation of one or more score columns: what ``isometrics evaluate`` reports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._docstrings import fill_doc
from ._typing import ArrayLike
from ._validation import (
    as_1d,
    check_binary_target,
    check_consistent_length,
    check_sample_weight,
    check_scores,
)
from .exceptions import IsometricsError
from .metrics import Metric, parse_metric
from .operating_points import OperatingPoints
from .thresholds import BestThreshold

__all__ = ["BinaryEvaluation", "evaluate_scores"]


@dataclass(frozen=True)
class BinaryEvaluation:
    """Summary of one scorer on one labelled data set.

    Attributes
    ----------
    name : str
        The score column's name.
    n_samples : int
        Rows evaluated (including zero-weight rows).
    n_positives, n_negatives : float
        Weighted class totals.
    prevalence : float
        Weighted share of positives, in [0, 1].
    auroc, average_precision, auprg : float
        Areas; see :func:`isometrics.auroc`, :func:`isometrics.average_precision`,
        :func:`isometrics.auprg`.
    best : tuple of BestThreshold
        The best operating point for each requested metric, in request order.
    operating_points : OperatingPoints
        The engine the numbers were derived from (for curves and plots).
    """

    name: str
    n_samples: int
    n_positives: float
    n_negatives: float
    prevalence: float
    auroc: float
    average_precision: float
    auprg: float
    best: tuple[BestThreshold, ...]
    operating_points: OperatingPoints

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every number (without the operating points)."""
        return {
            "score": self.name,
            "n_samples": self.n_samples,
            "n_positives": self.n_positives,
            "n_negatives": self.n_negatives,
            "prevalence": self.prevalence,
            "auroc": self.auroc,
            "average_precision": self.average_precision,
            "auprg": self.auprg,
            "best_thresholds": [b.to_dict() for b in self.best],
        }


@fill_doc
def evaluate_scores(
    y_true: ArrayLike,
    scores: Mapping[str, ArrayLike],
    *,
    metrics: Sequence[str | Metric] = ("f1",),
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
) -> list[BinaryEvaluation]:
    """Evaluate several score columns against one label column.

    For each scorer: prevalence, AUROC, average precision, AUPRG and, for each metric,
    the threshold that maximises it with the metric's value, precision and recall. Each
    scorer's operating points are built once and everything is derived from them.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    scores : mapping of str to array-like of shape (n_samples,)
        Score columns by name; higher means more likely positive.
    metrics : sequence of str or Metric, default=("f1",)
        Metrics whose best thresholds to report; see :func:`isometrics.parse_metric`.
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    list of BinaryEvaluation
        One per score column, in the mapping's order.

    Raises
    ------
    ValueError
        If ``scores`` is empty; if a metric cannot be parsed; if ``y_true`` has one
        class; and for the bad inputs listed in :meth:`OperatingPoints.from_scores`
        (the message names the offending score column). Everything is validated before
        anything is computed.

    Examples
    --------
    >>> from isometrics import evaluate_scores
    >>> [r] = evaluate_scores([0, 0, 1, 1], {"model": [0.1, 0.4, 0.35, 0.8]}, metrics=["f1"])
    >>> r.auroc, round(r.average_precision, 4), r.best[0].threshold
    (0.75, 0.8333, 0.35)
    """
    caller = "evaluate_scores"
    if not scores:
        raise IsometricsError(f"{caller}: no score columns given; pass at least one.")
    parsed = [parse_metric(m) for m in metrics]
    y = as_1d(y_true, name="y_true", caller=caller)
    columns = {name: as_1d(values, name=f"score column {name!r}", caller=caller) for name, values in scores.items()}
    w = None if sample_weight is None else as_1d(sample_weight, name="sample_weight", caller=caller)
    check_consistent_length(caller, y_true=y, sample_weight=w, **{f"score {k!r}": v for k, v in columns.items()})
    is_pos, pos_label = check_binary_target(y, pos_label=pos_label, caller=caller)
    weights = check_sample_weight(w, len(y), caller=caller)
    checked = {name: check_scores(v, caller=caller, name=f"score column {name!r}") for name, v in columns.items()}
    total_pos = float(is_pos.sum()) if weights is None else float(np.dot(weights, is_pos))
    total = float(len(y)) if weights is None else float(weights.sum())
    if total_pos == 0 or total_pos == total:
        missing = "positive" if total_pos == 0 else "negative"
        raise IsometricsError(
            f"{caller}: y_true has one class (no {missing} samples with positive weight, pos_label={pos_label!r}); "
            "ROC, PR and PRG analysis needs both classes: check the label column and --pos-label."
        )
    results = []
    for name, s in checked.items():
        op = OperatingPoints._from_validated(is_pos, s, weights, pos_label)
        op.warn_if_degenerate(f"score column {name!r}")
        results.append(
            BinaryEvaluation(
                name=name,
                n_samples=len(y),
                n_positives=op.n_positives,
                n_negatives=op.n_negatives,
                prevalence=op.prevalence,
                auroc=op.auroc(),
                average_precision=op.average_precision(),
                auprg=op.auprg(),
                best=tuple(op.best_threshold(m) for m in parsed),
                operating_points=op,
            )
        )
    return results
