"""What a streaming evaluation returns: :class:`BinnedEvaluation` (three areas as intervals and the bins'
operating points) and :class:`AreaBounds` (an interval that contains the exact area, with an estimate inside).

:class:`~isometrics.scale.streaming.BinnedCountTable` computes them (``compute``); ``streaming`` re-exports both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.arrays import whole_total
from .._core.caller import current_caller
from .._core.constraints import InBody, in_body, validate_params
from .._core.html import clip, summarised
from ..evaluation import BinaryEvaluation
from ..exceptions import InvalidParameterError
from ..metrics._arguments import parse_metric_argument, parse_metric_arguments
from ..metrics.registry import Metric
from ..spaces.operating_points import OperatingPoints
from ..spaces.thresholds import BestThreshold

__all__ = ["AreaBounds", "BinnedEvaluation"]


@summarised()
@dataclass(frozen=True)
class AreaBounds:
    """An area known to lie in ``[lower, upper]``, with an estimate inside.

    Attributes
    ----------
    lower, upper : float
        Guaranteed bounds: the exact value on the same data (what the exact engine,
        :class:`isometrics.OperatingPoints`, computes) lies in ``[lower, upper]``. Equal
        when the accumulator was exact and every weight a whole number (or none given).
    estimate : float
        A point estimate in ``[lower, upper]``: the exact value when exact; otherwise the
        area along the within-bin order modelled from each class's mean score in each bin.
    """

    lower: float
    upper: float
    estimate: float

    @property
    def width(self) -> float:
        """``upper - lower``: the largest possible error of any value in the interval, >= 0."""
        return self.upper - self.lower

    def contains(self, value: float) -> bool:
        """Whether ``lower <= value <= upper`` (False for NaN).

        Raises
        ------
        InvalidParameterError
            If ``value`` is not a real number.
        """
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise InvalidParameterError(
                f"AreaBounds.contains: `value` must be a real number; got "
                f"{clip(repr(value), 80)} ({type(value).__name__}); pass the area to test."
            )
        return bool(self.lower <= value <= self.upper)

    def to_dict(self) -> dict[str, float]:
        """``{"lower", "upper", "estimate"}``, plain floats."""
        return {"lower": self.lower, "upper": self.upper, "estimate": self.estimate}


@summarised("auroc", "average_precision", "auprg", "exact", "n_bins", "n_positives", "n_negatives", "pos_label")
@dataclass(frozen=True)
class BinnedEvaluation:
    """What a :class:`BinnedCountTable` knows: three areas as intervals and the bins' operating points.

    Attributes
    ----------
    auroc : AreaBounds
        Area under the ROC curve, in [0, 1].
    average_precision : AreaBounds
        Average precision (step-wise area under the PR curve), in [0, 1].
    auprg : AreaBounds
        Area under the Precision-Recall-Gain curve, at most 1 (can be negative).
    exact : bool
        Whether the counts are the exact count table (the scores took at most ``n_bins``
        distinct values): then ``lower == upper == estimate`` is the exact engine's value.
    n_bins : int
        Bins holding samples (distinct scores when exact).
    n_positives, n_negatives : float
        Total weight of each class.
    pos_label : object
        The positive class.
    operating_points : OperatingPoints
        The exact counts at the lower edge of every bin holding samples (predict positive
        when ``y_score >= threshold``; the lowest bin's threshold is the lowest score seen),
        so that its metrics and best thresholds are exact *at those thresholds*. Its areas
        treat each bin as one tie group (the midpoint of the AUROC interval).
    n_samples : int
        Rows seen (zero-weight rows included).
    weighted : bool
        Whether sample weights were given.
    """

    auroc: AreaBounds
    average_precision: AreaBounds
    auprg: AreaBounds
    exact: bool
    n_bins: int
    n_positives: float
    n_negatives: float
    pos_label: Any
    operating_points: OperatingPoints = field(repr=False)
    n_samples: int = field(default=0, compare=False)
    weighted: bool = field(default=False, compare=False)

    @validate_params({"metric": InBody("a metric spec")}, name="BinnedEvaluation.best_threshold")
    def best_threshold(self, metric: str | Metric = "f1") -> BestThreshold:
        """The best threshold among the bins' lower edges for ``metric``, with its exact value there.

        Parameters
        ----------
        metric : str or Metric, default="f1"
            Any metric spec of :func:`isometrics.parse_metric`.

        Returns
        -------
        BestThreshold
            Exact at the returned threshold; when the accumulator was exact, the exact
            engine's best threshold.

        Raises
        ------
        InvalidParameterError
            If ``metric`` is not a metric spec.
        """
        return self.operating_points.best_threshold(parse_metric_argument(metric))

    @validate_params(in_body("name", "metrics"), name="BinnedEvaluation.to_evaluation")
    def to_evaluation(self, name: str = "score", metrics: Sequence[str | Metric] = ("f1",)) -> BinaryEvaluation:
        """The same result as the other paths give: a :class:`isometrics.BinaryEvaluation`.

        Its areas are the estimates; unless every interval has width 0 (an exact table of
        whole-number weights: then they are the exact engine's values), it says
        ``exact=False`` and carries the intervals in ``bounds``. Its best thresholds are
        those among the bins' lower edges (see :meth:`best_threshold`).

        Parameters
        ----------
        name : str, default="score"
            The score column's name.
        metrics : sequence of str or Metric, default=("f1",)
            Metrics whose best thresholds to report; see :func:`isometrics.parse_metric`.

        Returns
        -------
        BinaryEvaluation
            With ``n_samples`` the rows seen and ``weight_kind`` ``"sampling"`` when weighted
            (as :func:`isometrics.evaluate_scores` reads weights without resampling), else ``None``.

        Raises
        ------
        InvalidParameterError
            If ``name`` is not a str or a metric cannot be parsed.
        """
        if not isinstance(name, str):
            raise InvalidParameterError(
                f"{current_caller()}: `name` must be the score column's name (a str); got {name!r}; pass a str."
            )
        parsed = parse_metric_arguments(metrics)
        bounds = {"auroc": self.auroc, "average_precision": self.average_precision, "auprg": self.auprg}
        exact = all(b.width == 0 for b in bounds.values())
        op = self.operating_points
        return BinaryEvaluation(
            name=name,
            n_samples=self.n_samples,
            n_positives=self.n_positives if self.weighted else whole_total(self.n_positives, None),
            n_negatives=self.n_negatives if self.weighted else whole_total(self.n_negatives, None),
            prevalence=op.prevalence,
            auroc=self.auroc.estimate,
            average_precision=self.average_precision.estimate,
            auprg=self.auprg.estimate,
            best=tuple(op.best_threshold(m) for m in parsed),
            operating_points=op,
            weight_kind="sampling" if self.weighted else None,
            exact=exact,
            bounds={} if exact else bounds,
        )

    def to_dict(self) -> dict[str, Any]:
        """The areas (each ``{"lower", "upper", "estimate"}``) and the counts, plain Python values."""
        return {
            "auroc": self.auroc.to_dict(),
            "average_precision": self.average_precision.to_dict(),
            "auprg": self.auprg.to_dict(),
            "exact": self.exact,
            "n_bins": self.n_bins,
            "n_positives": self.n_positives,
            "n_negatives": self.n_negatives,
            "pos_label": self.pos_label,
        }
