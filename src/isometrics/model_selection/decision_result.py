"""What a decision hands over: :class:`Decision`, one operating rule and one estimate of what it does.

The rates every decision reports (alert rate, precision, recall, specificity, F1) as functions of
the confusion counts, the counts per 1,000 cases, and the two kinds of estimate (in sample,
cross-fitted) live here with the result class; :mod:`.decisions` computes them (:func:`decide`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .._core.html import html_table
from ..uncertainty.intervals import BootstrapResult

__all__ = ["CROSS_FITTED", "IN_SAMPLE", "PER_1000", "Decision"]

#: The rates every decision reports, by name, as functions of the counts (tp, fp, fn, tn).
_RATES: dict[str, Callable[[float, float, float, float], float]] = {
    "alert_rate": lambda tp, fp, fn, tn: (tp + fp) / (tp + fp + fn + tn),
    "precision": lambda tp, fp, fn, tn: tp / (tp + fp) if tp + fp > 0 else math.nan,
    "recall": lambda tp, fp, fn, tn: tp / (tp + fn),
    "specificity": lambda tp, fp, fn, tn: tn / (tn + fp),
    "f1": lambda tp, fp, fn, tn: 2 * tp / (2 * tp + fp + fn),
}

#: The counts per 1,000 cases that get intervals with the rates, by name, as the index of the count in (tp, fp, fn, tn).
PER_1000 = {"tp_per_1000": 0, "fp_per_1000": 1, "fn_per_1000": 2, "tn_per_1000": 3}

IN_SAMPLE = "in-sample"
CROSS_FITTED = "cross-fitted"


def _clean(v: float) -> Any:
    """A JSON number: NaN as ``None``, an infinity as ``"inf"``/``"-inf"``."""
    if math.isnan(v):
        return None
    return ("inf" if v > 0 else "-inf") if math.isinf(v) else float(v)


@dataclass(frozen=True, repr=False)
class Decision:
    """One operating rule and one estimate of what it does.

    Attributes
    ----------
    rule : str
        The rule in words: ``"score >= 0.5"``, ``"top 100"`` or ``"best f1"``.
    estimate : {"in-sample", "cross-fitted"}
        How the counts were obtained: on the data the rule is reported on, or pooled
        over held-out folds, each predicted with a threshold chosen on the other folds.
    optimistic : bool
        True when the threshold was chosen on the same data its counts come from (the
        in-sample estimate of a best-metric rule): those counts are biased upwards.
    threshold : float
        Predict positive iff ``y_score >= threshold`` (``inf``: nothing). For a top-k
        rule, the score of the k-th row; for a best-metric rule, the best threshold on
        all the data (the one to deploy).
    k : float or None
        The budget of a top-k rule (weight, when weighted); None otherwise.
    tp, fp, fn, tn : float
        Weighted confusion counts (expected counts when a top-k budget splits a tie;
        averaged over repeats when cross-fitted).
    values : dict of str to float
        Each requested metric's value from the counts, by its spec.
    intervals : dict of str to BootstrapResult
        Percentile bootstrap intervals (one set of paired replicates) of
        ``"alert_rate"``, ``"precision"``, ``"recall"``, ``"specificity"``, ``"f1"``,
        the counts per 1,000 cases (``"tp_per_1000"``, ``"fp_per_1000"``,
        ``"fn_per_1000"``, ``"tn_per_1000"``) and each metric's spec, at the fixed rule;
        empty unless requested. A statistic undefined on the data (precision when
        nothing is flagged) has none.
    n_splits : int or None
        Folds of a cross-fitted estimate; None otherwise.
    n_repeats : int or None
        Repeats of the fold assignment of a cross-fitted estimate; None otherwise.
    tie_fraction : float
        Share of the tied group at ``threshold`` that a top-k rule flags (1.0 otherwise).
    """

    rule: str
    estimate: str
    optimistic: bool
    threshold: float
    k: float | None
    tp: float
    fp: float
    fn: float
    tn: float
    values: dict[str, float] = field(default_factory=dict)
    intervals: dict[str, BootstrapResult] = field(default_factory=dict)
    n_splits: int | None = None
    n_repeats: int | None = None
    tie_fraction: float = 1.0

    @property
    def total(self) -> float:
        """Total weight, ``tp + fp + fn + tn``."""
        return self.tp + self.fp + self.fn + self.tn

    @property
    def alert_rate(self) -> float:
        """Share of the total weight flagged, in [0, 1]."""
        return _RATES["alert_rate"](self.tp, self.fp, self.fn, self.tn)

    @property
    def precision(self) -> float:
        """``tp / (tp + fp)`` in [0, 1]; NaN when nothing is flagged (undefined)."""
        return _RATES["precision"](self.tp, self.fp, self.fn, self.tn)

    @property
    def recall(self) -> float:
        """``tp / (tp + fn)`` in [0, 1]."""
        return _RATES["recall"](self.tp, self.fp, self.fn, self.tn)

    @property
    def specificity(self) -> float:
        """``tn / (tn + fp)`` in [0, 1]."""
        return _RATES["specificity"](self.tp, self.fp, self.fn, self.tn)

    @property
    def f1(self) -> float:
        """``2 tp / (2 tp + fp + fn)`` in [0, 1]."""
        return _RATES["f1"](self.tp, self.fp, self.fn, self.tn)

    @property
    def per_1000(self) -> dict[str, float]:
        """The counts per 1,000 cases (of total weight): ``{"tp", "fp", "fn", "tn"}``."""
        scale = 1000.0 / self.total
        return {"tp": self.tp * scale, "fp": self.fp * scale, "fn": self.fn * scale, "tn": self.tn * scale}

    @property
    def label(self) -> str:
        """How to read the estimate, in words."""
        if self.estimate == CROSS_FITTED:
            repeats = f", {self.n_repeats} repeats" if self.n_repeats and self.n_repeats > 1 else ""
            return f"cross-fitted ({self.n_splits} folds{repeats})"
        return "chosen on these data: optimistic" if self.optimistic else "fixed rule, on these data"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the rule, the estimate, the rates, counts per 1,000 and intervals.

        NaN (undefined) becomes ``None`` and an infinite threshold ``"inf"``.
        """
        rates = {name: _clean(getattr(self, name)) for name in _RATES}
        return {
            "rule": self.rule,
            "estimate": self.estimate,
            "label": self.label,
            "optimistic": self.optimistic,
            "threshold": _clean(self.threshold),
            "k": self.k,
            **rates,
            "metrics": {spec: _clean(v) for spec, v in self.values.items()},
            "counts": {"tp": self.tp, "fp": self.fp, "fn": self.fn, "tn": self.tn},
            "per_1000": self.per_1000,
            "tie_fraction": self.tie_fraction,
            "n_splits": self.n_splits,
            "n_repeats": self.n_repeats,
            "intervals": {
                name: {
                    "low": _clean(r.confidence_interval[0]),
                    "high": _clean(r.confidence_interval[1]),
                    "confidence_level": r.confidence_level,
                    "method": r.method,
                    "n_resamples": len(r.bootstrap_distribution),
                    "n_dropped": r.n_dropped,
                    "n_undefined": r.n_undefined,
                }
                for name, r in self.intervals.items()
            },
        }

    def __repr__(self) -> str:
        return (
            f"Decision(rule={self.rule!r}, estimate={self.estimate!r}, threshold={self.threshold:.6g}, "
            f"alert_rate={self.alert_rate:.4g}, precision={self.precision:.4g}, recall={self.recall:.4g})"
        )

    def _repr_html_(self) -> str:
        rows: list[tuple[str, Any]] = [("rule", self.rule), ("estimate", self.label), ("threshold", self.threshold)]
        rows += [(name.replace("_", " "), getattr(self, name)) for name in _RATES]
        rows += [(f"{name} per 1,000", v) for name, v in self.per_1000.items()]
        rows += list(self.values.items())
        return html_table(("", "value"), rows, caption="isometrics decision")
