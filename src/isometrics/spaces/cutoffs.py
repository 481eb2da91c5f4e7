"""The operating point at a cut the user chooses: a threshold, a budget of the top k samples,
or a rate of predicted positives; precision@k and recall@k.

Every cut is read from the count table (no second sort). A threshold selects an observed
operating point. A budget of k samples (or a rate) may end inside a group of tied scores:
then the group is split and the counts are the expected counts under a random order of the
tied samples (``ties="interpolate"``), or the call is refused (``ties="raise"``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from .._core.bounds import loosest, meets_bound
from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, InBody, Options, in_body, validate_params
from .._core.count_table import CountTable, Quantity, table_from_scores
from .._core.docstrings import fill_doc
from .._core.html import html_table
from .._core.validation import check_option, check_real
from .._typing import ArrayLike
from ..exceptions import IsometricsError
from ..metrics._arguments import parse_metric_argument
from ..metrics.registry import Metric

__all__ = ["FLAGGED", "Cutoff", "precision_at_k", "recall_at_k"]

TIES = ("interpolate", "raise")

#: The metrics of :meth:`Cutoff.to_dict`, by their specs.
_SUMMARY = ("f1", "specificity", "npv", "accuracy", "balanced_accuracy", "mcc", "kappa", "markedness", "informedness")


@dataclass(frozen=True)
class Cutoff:
    """The confusion counts at one cut of the ranking, and every metric there.

    Attributes
    ----------
    threshold : float
        Predict positive when ``y_score >= threshold`` (``inf``: nothing). When a budget
        splits a group of tied scores, the tied score (a share ``tie_fraction`` of the
        group is flagged).
    tp, fp, fn, tn : float
        Weighted confusion counts; expected counts under a random order of the tie when
        the cut splits one.
    tie_fraction : float
        Share in [0, 1] of the tied group at ``threshold`` that is flagged; 1.0 when the
        cut falls between distinct scores.
    n_tied : float
        Weight of that tied group when the cut splits it, else 0.0.
    """

    threshold: float
    tp: float
    fp: float
    fn: float
    tn: float
    tie_fraction: float = 1.0
    n_tied: float = 0.0

    @property
    def flagged(self) -> float:
        """Weight predicted positive, ``tp + fp``."""
        return self.tp + self.fp

    @property
    def rate(self) -> float:
        """Share of the total weight predicted positive, in [0, 1]."""
        return self.flagged / (self.flagged + self.fn + self.tn)

    @property
    def precision(self) -> float:
        """``tp / (tp + fp)`` in [0, 1]; NaN when nothing is predicted positive (undefined)."""
        return self.tp / self.flagged if self.flagged > 0 else math.nan

    @property
    def recall(self) -> float:
        """``tp / (tp + fn)``, the true positive rate, in [0, 1]."""
        return self.tp / (self.tp + self.fn)

    @validate_params(in_body("metric"), name="Cutoff.value")
    def value(self, metric: str | Metric) -> float:
        """Any metric of :func:`isometrics.parse_metric` at this cut (NaN where it is 0/0).

        Raises
        ------
        InvalidParameterError
            If ``metric`` cannot be parsed.
        """
        m = parse_metric_argument(metric)
        return float(m.from_counts(self.tp, self.fp, self.fn, self.tn))

    def to_dict(self) -> dict[str, Any]:
        """Counts, rate, precision, recall and the common whole-matrix metrics (NaN as ``None``)."""

        def clean(v: float) -> Any:
            return None if math.isnan(v) else ("inf" if math.isinf(v) else float(v))

        out = {
            "threshold": clean(self.threshold),
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "tn": self.tn,
            "flagged": self.flagged,
            "rate": clean(self.rate),
            "tie_fraction": self.tie_fraction,
            "n_tied": self.n_tied,
            "precision": clean(self.precision),
            "recall": clean(self.recall),
        }
        return {**out, **{spec: clean(self.value(spec)) for spec in _SUMMARY}}

    def __repr__(self) -> str:
        tie = f", tie split {self.tie_fraction:.3g} of {self.n_tied:g}" if self.n_tied else ""
        return (
            f"Cutoff(threshold={self.threshold:.6g}, flagged={self.flagged:g} ({self.rate:.2%}), "
            f"tp={self.tp:g}, fp={self.fp:g}, fn={self.fn:g}, tn={self.tn:g}, precision={self.precision:.4g}, "
            f"recall={self.recall:.4g}{tie})"
        )

    def _repr_html_(self) -> str:
        d = self.to_dict()
        rows = [(k, np.nan if v is None else v) for k, v in d.items() if k != "threshold"]
        return html_table(("", "value"), [("threshold", self.threshold), *rows], caption="cutoff")


def cut_at_threshold(op: CountTable, threshold: float) -> Cutoff:
    """Cut the ranking at a threshold: the operating point predicting ``score >= threshold`` positive.

    Parameters
    ----------
    op : CountTable
        The operating points (count table) to cut.
    threshold : float
        The threshold, any real number or ``inf`` (checked here).

    Returns
    -------
    Cutoff
        The counts at the last threshold of ``op`` at or above ``threshold``.

    Raises
    ------
    InvalidParameterError
        If ``threshold`` is not a real number.
    IsometricsError
        If the operating points have one class.
    """
    t = check_real(threshold, "threshold", allow_inf=True)
    op.require_both_classes(current_caller())
    i = int(np.searchsorted(-op.thresholds, -t, side="right")) - 1  # the last threshold >= t (thresholds[0] = inf)
    tp, fp = float(op.tp[i]), float(op.fp[i])
    return Cutoff(threshold=t, tp=tp, fp=fp, fn=op.n_positives - tp, tn=op.n_negatives - fp)


#: The weight flagged at each point, ``tp + fp``, in the units of the table asked.
FLAGGED = Quantity(
    "flagged", lambda op: op.tp + op.fp, counts="own", kind="part", needs_both_classes=False, public=False, method=False
)


def _at_flagged(op: CountTable, k: float, ties: str, what: str) -> Cutoff:
    """The cut flagging weight ``k`` (validated, in [0, P + N]) from the top of the ranking."""
    flagged = op.get(FLAGGED)  # strictly increasing: zero weights make no point
    # The first point flagging at least k as typed; one within the tolerance of k is the cut (_core.bounds).
    j = min(int(np.searchsorted(flagged, loosest(k, "min"), side="left")), op.n_points - 1)
    P, N = op.n_positives, op.n_negatives
    if meets_bound(flagged[j], k, "max") or j == 0:  # the cut falls on an operating point
        tp, fp = float(op.tp[j]), float(op.fp[j])
        return Cutoff(threshold=float(op.thresholds[j]), tp=tp, fp=fp, fn=P - tp, tn=N - fp)
    group = float(flagged[j] - flagged[j - 1])
    fraction = (k - float(flagged[j - 1])) / group
    if ties == "raise":
        raise IsometricsError(
            f"{current_caller()}: {what} ends inside a tie: a weight of {group:g} shares the score {op.thresholds[j]:.6g} and "
            f"only {k - flagged[j - 1]:g} of it fits; pass ties='interpolate' for the expected counts under a random "
            f"order of the tie, or a budget of {flagged[j - 1]:g} or {flagged[j]:g}."
        )
    tp = float(op.tp[j - 1]) + fraction * float(op.tp[j] - op.tp[j - 1])
    fp = float(op.fp[j - 1]) + fraction * float(op.fp[j] - op.fp[j - 1])
    return Cutoff(
        threshold=float(op.thresholds[j]), tp=tp, fp=fp, fn=P - tp, tn=N - fp, tie_fraction=fraction, n_tied=group
    )


def cut_at_top_k(op: CountTable, k: float, ties: str) -> Cutoff:
    """Cut the ranking after the ``k`` highest-scored samples (a budget of weight ``k``).

    Parameters
    ----------
    op : CountTable
        The operating points (count table) to cut.
    k : float
        The budget, in (0, total weight] (checked here).
    ties : {"interpolate", "raise"}
        When the cut ends inside a group of tied scores: flag the needed share of the
        group and return the expected counts under a random order of it, or refuse.

    Returns
    -------
    Cutoff
        The (expected) counts when flagging weight ``k`` from the top.

    Raises
    ------
    InvalidParameterError
        If ``k`` or ``ties`` is not valid.
    IsometricsError
        If ``k`` exceeds the total weight, the operating points have one class, or
        ``ties="raise"`` and the budget splits a tie.
    """
    check_option(ties, "ties", TIES)
    op.require_both_classes(current_caller())
    total = op.n_positives + op.n_negatives
    budget = check_real(k, "k", low=0.0, low_inclusive=False)
    if budget > total:
        raise IsometricsError(
            f"{current_caller()}: `k` = {k!r} exceeds the {total:g} samples (total weight) scored; "
            f"pass k <= {total:g}, or use at_rate for a share."
        )
    return _at_flagged(op, budget, ties, f"the top k = {budget:g}")


def cut_at_rate(op: CountTable, rate: float, ties: str) -> Cutoff:
    """Cut the ranking after the top share ``rate`` of the total weight.

    Parameters
    ----------
    op : CountTable
        The operating points (count table) to cut.
    rate : float
        The share of the weight predicted positive, in [0, 1] (checked here).
    ties : {"interpolate", "raise"}
        When the cut ends inside a group of tied scores: flag the needed share of the
        group and return the expected counts under a random order of it, or refuse.

    Returns
    -------
    Cutoff
        The (expected) counts, in the units of ``op`` (computed on its normalised table,
        so a total weight that overflows is no obstacle).

    Raises
    ------
    InvalidParameterError
        If ``rate`` or ``ties`` is not valid.
    IsometricsError
        If the operating points have one class, or ``ties="raise"`` and the cut splits a tie.
    """
    check_option(ties, "ties", TIES)
    r = check_real(rate, "rate", low=0.0, high=1.0)
    op.require_both_classes(current_caller())
    view = op.normalised  # P + N may overflow in the caller's units
    cut = _at_flagged(view, r * (view.n_positives + view.n_negatives), ties, f"the rate {r:g}")
    if view is op:
        return cut
    scale = op.n_positives / view.n_positives  # a power of two: exact
    return Cutoff(
        threshold=cut.threshold,
        tp=cut.tp * scale,
        fp=cut.fp * scale,
        fn=cut.fn * scale,
        tn=cut.tn * scale,
        tie_fraction=cut.tie_fraction,
        n_tied=cut.n_tied * scale,
    )


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "k": InBody("a number of samples or a share of the weight, > 0 (checked after the data)", invalid=[0, -1]),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
        "ties": Options(*TIES),
    }
)
@fill_doc
def precision_at_k(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    ties: Literal["interpolate", "raise"] = "interpolate",
) -> float:
    r"""Precision of the ``k`` highest-scored samples ("we can call 500 customers").

    .. math::

        \mathrm{precision@}k = TP_k / k

    Parameters
    ----------
    %(binary_data)s
    k : int or float
        The budget: how many of the highest-scored samples are flagged, > 0 and at most
        the number of samples. With ``sample_weight`` it counts weight (a row of weight 3
        is 3 samples), so it is not invariant to rescaling the weights.
    %(binary_weight)s
    %(binary_pos_label)s
    ties : {"interpolate", "raise"}, default="interpolate"
        When the top ``k`` end inside a group of tied scores: ``"interpolate"`` flags the
        needed share of the group and returns the expected counts under a random order
        of the tied samples; ``"raise"`` refuses.

    Returns
    -------
    float
        In [0, 1]; higher is better. With a tie split at the k-th score, the expected
        precision over the random orders of the tie (exact: ``k`` is fixed).

    Raises
    ------
    ValueError
        If ``y_true`` has one class, ``k`` is not in (0, number of samples], ``ties``
        is not an option, or ``ties="raise"`` and the top ``k`` split a tie; and for the
        bad inputs listed in :meth:`OperatingPoints.from_scores`.

    See Also
    --------
    recall_at_k, OperatingPoints.at_top_k

    Notes
    -----
    %(budget_note)s

    Examples
    --------
    >>> from isometrics.spaces import precision_at_k
    >>> precision_at_k([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], k=3)
    0.6666666666666666
    >>> precision_at_k([0, 1, 1, 0], [0.2, 0.5, 0.5, 0.5], k=2)  # 2 of the 3 tied at 0.5: 2/3 positive
    0.6666666666666666
    """
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    cut = cut_at_top_k(op, k, ties)
    return cut.tp / cut.flagged


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "k": InBody("a number of samples or a share of the weight, > 0 (checked after the data)", invalid=[0, -1]),
        "sample_weight": [ARRAY, None],
        "pos_label": POS_LABEL,
        "ties": Options(*TIES),
    }
)
@fill_doc
def recall_at_k(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: float,
    sample_weight: ArrayLike | None = None,
    pos_label: Any = None,
    ties: Literal["interpolate", "raise"] = "interpolate",
) -> float:
    r"""Recall of the ``k`` highest-scored samples: the share of the positives they hold.

    .. math::

        \mathrm{recall@}k = TP_k / P

    Parameters
    ----------
    %(binary_data)s
    k : int or float
        The budget: how many of the highest-scored samples are flagged, > 0 and at most
        the number of samples. With ``sample_weight`` it counts weight (a row of weight 3
        is 3 samples), so it is not invariant to rescaling the weights.
    %(binary_weight)s
    %(binary_pos_label)s
    ties : {"interpolate", "raise"}, default="interpolate"
        When the top ``k`` end inside a group of tied scores: ``"interpolate"`` flags the
        needed share of the group and returns the expected counts under a random order
        of the tied samples; ``"raise"`` refuses.

    Returns
    -------
    float
        In [0, 1]; higher is better (expected value under a random order of a split tie).

    Raises
    ------
    ValueError
        As :func:`precision_at_k`.

    See Also
    --------
    precision_at_k, OperatingPoints.at_top_k

    Notes
    -----
    %(budget_note)s

    Examples
    --------
    >>> from isometrics.spaces import recall_at_k
    >>> recall_at_k([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], k=3)
    0.6666666666666666
    """
    op = table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable)
    cut = cut_at_top_k(op, k, ties)
    return cut.tp / op.n_positives
