"""Evaluation by group: every area, the chosen threshold's precision, recall and alert rate, and the
threshold best within each group, each group against the rest under the model comparisons' policy.

The per-group tables come from one sort (:mod:`._group_tables`); the differences from the rest are
:class:`ComparisonRow` objects made by the same code, adjusted by the same policy (Holm by default)
and worded by the same sentences as :class:`ModelComparison`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import user_stacklevel
from .._core.html import LIMIT, clip, html_table
from .._typing import FloatArray
from ..exceptions import InvalidParameterError, IsometricsError, UndefinedMetricWarning
from ..metrics.registry import Metric
from ..spaces.operating_points import OperatingPoints
from ..spaces.thresholds import BestThreshold
from . import _group_tables as gt
from .intervals import BootstrapResult, _interval, _standard_error
from .model_comparison import _ADJUSTED_NAME, ComparisonRow, _bootstrap_rows, check_adjustment
from .resampling import Resampler

__all__ = ["GroupRow", "GroupEvaluation", "MAX_GROUPS", "MIN_CLASS_ROWS"]

#: The most distinct groups evaluated; more are refused (merge the rare ones first).
MAX_GROUPS = 1000
#: Rows of each class a group needs for an interval and a test against the rest.
MIN_CLASS_ROWS = 10
#: The name of the other side of each group's difference.
REST = "the rest"
#: The statistics tested against the rest (the alert rate has no better side: interval only).
TESTED = ("auroc", "average_precision", "auprg", "precision", "recall")


@dataclass(frozen=True)
class GroupRow:
    """One group's evaluation.

    Attributes
    ----------
    group : str
        The group's value, as text.
    n_samples : int
        Rows in the group (including zero-weight rows).
    n_positives, n_negatives : float
        Weighted class totals.
    estimates : dict of str to float or None
        ``"auroc"``, ``"average_precision"``, ``"auprg"`` and, at the chosen threshold,
        ``"precision"``, ``"recall"``, ``"alert_rate"`` (share of the group's weight flagged),
        each in [0, 1]; ``None`` where undefined (a group of one class has no area and, without
        positives, no recall; nothing flagged leaves precision undefined).
    best : tuple of BestThreshold
        The threshold best within the group for each metric (empty for a group of one class).
    intervals : dict of str to BootstrapResult
        Percentile intervals of the estimates (empty when none: see ``note``).
    note : str or None
        Why the group has no interval or no area, in words.
    operating_points : OperatingPoints
        The group's exact count table (for its curves).
    """

    group: str
    n_samples: int
    n_positives: float
    n_negatives: float
    estimates: dict[str, float | None]
    best: tuple[BestThreshold, ...]
    intervals: dict[str, BootstrapResult] = field(default_factory=dict)
    note: str | None = None
    operating_points: OperatingPoints | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the group's numbers (intervals as ``low``/``high``, or ``None``)."""

        def interval(key: str) -> dict[str, float] | None:
            r = self.intervals.get(key)
            return None if r is None else {"low": r.confidence_interval[0], "high": r.confidence_interval[1]}

        return {
            "group": self.group,
            "n_samples": self.n_samples,
            "n_positives": self.n_positives,
            "n_negatives": self.n_negatives,
            **{k: {"estimate": v, "interval": interval(k)} for k, v in self.estimates.items()},
            "best_thresholds": [b.to_dict() for b in self.best],
            "note": self.note,
        }


@dataclass(frozen=True)
class GroupEvaluation:
    """One score column evaluated by group: a row per group and each group against the rest.

    Attributes
    ----------
    score : str
        The score column.
    column : str
        The group column's name (``"group"`` when the groups were given as values only).
    metric : Metric
        The metric whose global best threshold is the chosen one.
    threshold : float
        The chosen threshold: the global best of ``metric``.
    rows : tuple of GroupRow
        One per group, in the groups' sorted order.
    differences : tuple of ComparisonRow
        Each tested group against the rest (``a`` the group, ``b`` ``"the rest"``, difference
        ``group - rest``) for AUROC, average precision, AUPRG and the chosen threshold's
        precision and recall; the p-values of one statistic are adjusted over its groups.
        Empty without resampling.
    confidence_level : float
        In (0, 1).
    adjustment : {"holm", "bonferroni", "none"}
        As in :class:`ModelComparison`.
    n_resamples : int or None
        Bootstrap replicates (``None``: no intervals).
    """

    score: str
    column: str
    metric: Metric
    threshold: float
    rows: tuple[GroupRow, ...]
    differences: tuple[ComparisonRow, ...]
    confidence_level: float
    adjustment: str
    n_resamples: int | None

    @property
    def groups(self) -> tuple[str, ...]:
        """The groups, in order."""
        return tuple(r.group for r in self.rows)

    def __getitem__(self, group: str) -> GroupRow:
        for r in self.rows:
            if r.group == group:
                return r
        raise KeyError(f"GroupEvaluation: no group {group!r}; the groups are {list(self.groups)}.")

    def difference(self, group: str, statistic: str) -> ComparisonRow:
        """The row of ``group`` against the rest on ``statistic`` (raises ``KeyError`` if untested)."""
        for r in self.differences:
            if r.a == group and r.statistic == statistic:
                return r
        raise KeyError(
            f"GroupEvaluation: {group!r} was not tested on {statistic!r} (too few rows of a class, "
            f"or no resampling); tested: {sorted({r.a for r in self.differences})}."
        )

    def family(self) -> str:
        """The multiple-testing policy in words (the one :meth:`ModelComparison.family` states)."""
        alpha = f"{1 - self.confidence_level:.2g}"
        tested = len({r.a for r in self.differences})
        if not self.differences:
            return "no group was tested against the rest (no resampling, or too few rows of a class)."
        if self.adjustment == "none" or tested <= 1:
            return (
                f"p-values unadjusted; a difference is detected when p <= {alpha}, exactly when its "
                f"{100 * self.confidence_level:g} % interval excludes 0."
            )
        name = _ADJUSTED_NAME[self.adjustment]
        return (
            f"{name}: the p-values of each statistic are adjusted over its {tested} groups (each against the "
            f"rest); a difference is detected when the adjusted p <= {alpha}, exactly when its {name}-adjusted "
            f"interval excludes 0."
        )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``score``, ``column``, ``metric``, ``threshold``, ``confidence_level``,
        ``adjustment``, ``family``, ``n_resamples``, ``groups`` (each :meth:`GroupRow.to_dict`) and
        ``differences`` (each :meth:`ComparisonRow.to_dict`)."""
        return {
            "score": self.score,
            "column": self.column,
            "metric": self.metric.spec,
            "threshold": _finite(self.threshold),
            "confidence_level": self.confidence_level,
            "adjustment": self.adjustment,
            "family": self.family(),
            "n_resamples": self.n_resamples,
            "groups": [r.to_dict() for r in self.rows],
            "differences": [d.to_dict() for d in self.differences],
        }

    def __repr__(self) -> str:
        shown = [
            f"{r.group!r}: n={r.n_samples}, auroc={_short(r.estimates['auroc'])}, "
            f"recall={_short(r.estimates['recall'])}"
            for r in self.rows[:6]
        ]
        more = f", ... ({len(self.rows)} groups)" if len(self.rows) > 6 else ""
        detected = sum(d.winner is not None for d in self.differences)
        return clip(
            f"GroupEvaluation(score={self.score!r}, by={self.column!r}, {self.metric.spec} threshold="
            f"{self.threshold:.4g}, {{{'; '.join(shown)}{more}}}, {detected} of {len(self.differences)} "
            f"differences detected)",
            LIMIT,
        )

    def _repr_html_(self) -> str:
        rows = [
            (
                r.group,
                r.n_samples,
                *[np.nan if r.estimates[k] is None else r.estimates[k] for k in gt.STATISTICS],
                r.note or "",
            )
            for r in self.rows
        ]
        return html_table(
            ("group", "n", *[gt.LABELS[k] for k in gt.STATISTICS], "note"),
            rows,
            caption=f"{self.score} by {self.column} at threshold {self.threshold:.6g}; {self.family()}",
        )


def _short(x: float | None) -> str:
    return "undefined" if x is None else f"{x:.4g}"


def _finite(x: float) -> float | str:
    return float(x) if math.isfinite(x) else ("inf" if x > 0 else "-inf")


# ---------------------------------------------------------------------------- validation
def check_groups(groups: Any, n_samples: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """Group codes (intp, shape (n_samples,)) and the groups' names, in sorted order.

    Raises on a string (a column name, not values), a length mismatch, a value that is
    missing (NaN or None) and more than :data:`MAX_GROUPS` distinct groups.
    """
    if isinstance(groups, str):
        raise InvalidParameterError(
            f"{current_caller()}: `groups` must be each sample's group (array-like of shape "
            f"(n_samples,)); got the string {groups!r}: pass the column's values, "
            f"e.g. df[{groups!r}]."
        )
    values = np.asarray(groups.to_numpy() if hasattr(groups, "to_numpy") else groups)
    if values.ndim != 1:
        raise InvalidParameterError(
            f"{current_caller()}: `groups` must be 1-D, one group per sample; got shape {values.shape}."
        )
    if len(values) != n_samples:
        raise InvalidParameterError(
            f"{current_caller()}: `groups` has {len(values)} values but y_true has {n_samples}; pass one group per sample."
        )
    if values.dtype.kind == "f":
        missing = np.isnan(values)
    elif values.dtype.kind == "O":
        missing = np.fromiter((v is None or (isinstance(v, float) and v != v) for v in values), bool, len(values))
    else:
        missing = np.zeros(len(values), dtype=bool)
    if missing.any():
        raise IsometricsError(
            f"{current_caller()}: `groups` has {int(missing.sum())} missing values (NaN or None; first at "
            f"index {int(np.argmax(missing))}); fill them with a group of their own (e.g. "
            "'missing') or drop those rows."
        )
    try:
        names, codes = np.unique(values, return_inverse=True)
    except TypeError:  # mixed types: compared as text
        names, codes = np.unique(values.astype(str), return_inverse=True)
    if len(names) > MAX_GROUPS:
        raise IsometricsError(
            f"{current_caller()}: `groups` has {len(names):,} distinct values, more than the limit of "
            f"{MAX_GROUPS:,} groups; merge the rare groups into one (e.g. 'other') or group by a "
            "coarser column."
        )
    return codes.astype(np.intp).ravel(), tuple(str(v) for v in names.tolist())


# ---------------------------------------------------------------------------- the evaluation
def evaluate_groups(
    op: OperatingPoints,
    is_pos: np.ndarray,
    scores: FloatArray,
    weights: FloatArray | None,
    codes: np.ndarray,
    names: Sequence[str],
    *,
    score: str,
    column: str,
    metrics: Sequence[Metric],
    threshold: float,
    n_resamples: int | None,
    level: float,
    rng: np.random.Generator,
    weight_kind: str | None,
    adjustment: str,
) -> GroupEvaluation:
    """Every group of one score column (inputs validated by the caller; ``op`` the column's table)."""
    adjustment = check_adjustment(adjustment)
    split = gt.split_by_group(scores, codes, len(names))
    tables = [gt.table(scores, is_pos, weights, split.of(g), op.pos_label) for g in range(len(names))]
    counts = [_class_rows(is_pos, weights, split.of(g)) for g in range(len(names))]
    notes = [_note(c, n_resamples) for c in counts]
    one_class = [name for name, t in zip(names, tables) if t.n_positives <= 0 or t.n_negatives <= 0]
    if one_class:
        warnings.warn(
            f"{current_caller()}: {len(one_class)} group(s) of score {score!r} hold one class only "
            f"({', '.join(map(repr, one_class[:5]))}{', ...' if len(one_class) > 5 else ''}): their areas "
            "and best thresholds are undefined (None), and they are not tested.",
            UndefinedMetricWarning,
            stacklevel=user_stacklevel(4),
        )
    tested = [g for g, note in enumerate(notes) if note is None] if len(names) > 1 else []
    estimates = [gt.statistics(t, threshold) for t in tables]
    per_group: dict[int, dict[str, BootstrapResult]] = {}
    differences: list[ComparisonRow] = []
    if n_resamples is not None and tested:
        resampler = Resampler(
            is_pos, scores, weights, False, per_sample=True, op=op, frequency=weight_kind == "frequency"
        )
        keep = slice(None) if weights is None else weights > 0
        rest_estimates = [
            gt.statistics(gt.table(scores, is_pos, weights, split.rest(codes, g), op.pos_label), threshold)
            for g in tested
        ]
        group_dist, rest_dist = gt.replicates(
            resampler, scores[keep], codes[keep], len(names), tested, threshold, op.pos_label, n_resamples, rng
        )
        for j, g in enumerate(tested):
            # a statistic undefined in the group (no row flagged: no precision) has no interval
            per_group[g] = {
                k: _result(f"{gt.LABELS[k]} of {names[g]}", estimates[g][s], group_dist[:, j, s], level, weight_kind)
                for s, k in enumerate(gt.STATISTICS)
                if not math.isnan(estimates[g][s])
            }
        for s, key in enumerate(gt.STATISTICS):
            if key not in TESTED:
                continue
            # only differences defined on the data are tested (and counted in the family): a group, or
            # its rest, with no row flagged at the threshold has no precision to compare
            defined = [(j, g) for j, g in enumerate(tested) if not math.isnan(estimates[g][s] - rest_estimates[j][s])]
            if not defined:
                continue
            results = [
                _result(
                    f"{gt.LABELS[key]}: {names[g]} - {REST}",
                    estimates[g][s] - rest_estimates[j][s],
                    group_dist[:, j, s] - rest_dist[:, j, s],
                    level,
                    weight_kind,
                )
                for j, g in defined
            ]
            differences += _bootstrap_rows(
                key, gt.LABELS[key], True, results, [(names[g], REST) for _, g in defined], level, adjustment, None
            )
    rows = tuple(
        GroupRow(
            group=names[g],
            n_samples=counts[g][2],
            n_positives=float(t.n_positives),
            n_negatives=float(t.n_negatives),
            estimates={k: (None if math.isnan(v) else v) for k, v in zip(gt.STATISTICS, estimates[g])},
            best=tuple(t.best_threshold(m) for m in metrics) if counts[g][0] and counts[g][1] else (),
            intervals=per_group.get(g, {}),
            note=notes[g],
            operating_points=t,
        )
        for g, t in enumerate(tables)
    )
    return GroupEvaluation(
        score=score,
        column=column,
        metric=metrics[0],
        threshold=threshold,
        rows=rows,
        differences=tuple(differences),
        confidence_level=level,
        adjustment=adjustment,
        n_resamples=n_resamples,
    )


def _class_rows(is_pos: np.ndarray, weights: FloatArray | None, rows: np.ndarray) -> tuple[int, int, int]:
    """(positive rows, negative rows, all rows) of a group, counting rows of positive weight."""
    kept = rows if weights is None else rows[weights[rows] > 0]
    pos = int(np.count_nonzero(is_pos[kept]))
    return pos, len(kept) - pos, len(rows)


def _note(counts: tuple[int, int, int], n_resamples: int | None) -> str | None:
    pos, neg, _ = counts
    if pos == 0 or neg == 0:
        which = "positives" if pos == 0 else "negatives"
        return f"no {which}: one class only, so no area, no best threshold and no interval"
    few = [f"{n} {what}" for n, what in ((pos, "positives"), (neg, "negatives")) if n < MIN_CLASS_ROWS]
    if few and n_resamples is not None:
        return (
            f"too few for an interval ({' and '.join(few)}; at least {MIN_CLASS_ROWS} of each class needed): "
            "estimates only, not tested against the rest"
        )
    return None


def _result(label: str, estimate: float, dist: FloatArray, level: float, weight_kind: str | None) -> BootstrapResult:
    """A percentile interval from the replicates where the statistic is defined."""
    defined = dist[~np.isnan(dist)]
    if len(defined) < 2 or math.isnan(estimate):
        return BootstrapResult(
            label,
            estimate,
            (math.nan, math.nan),
            level,
            "percentile",
            defined,
            math.nan,
            0,
            len(dist) - len(defined),
            weight_kind,
        )
    ci = _interval(estimate, defined, level, "percentile", None, label)
    return BootstrapResult(
        label,
        estimate,
        ci,
        level,
        "percentile",
        defined,
        _standard_error(defined),
        0,
        len(dist) - len(defined),
        weight_kind,
    )
