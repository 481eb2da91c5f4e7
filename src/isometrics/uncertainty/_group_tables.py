"""Per-group count tables from one sort, and the paired bootstrap of each group and the rest.

The scores are sorted once (stable, decreasing); a stable split by group code (a counting sort on
small integer codes, which never compares scores) then gives every group's rows already in score
order, so each group's count table is its tie ends and two cumulative sums: exactly the table
:meth:`OperatingPoints.from_scores` builds from that group's rows alone. A replicate draws the rows
once for all groups (the resampler's per-sample draw), so a group and the rest share it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._typing import FloatArray
from ..spaces.operating_points import OperatingPoints
from .resampling import Resampler

#: The statistics of a group: the three areas, then precision, recall and alert rate at the chosen threshold.
STATISTICS = ("auroc", "average_precision", "auprg", "precision", "recall", "alert_rate")
LABELS = {
    "auroc": "AUROC",
    "average_precision": "average precision",
    "auprg": "AUPRG",
    "precision": "precision",
    "recall": "recall",
    "alert_rate": "alert rate",
}


@dataclass(frozen=True)
class SortedGroups:
    """The rows of each group in decreasing score order, from one sort and one stable split.

    ``rows[bounds[g]:bounds[g + 1]]`` are group ``g``'s row indices, in decreasing score order
    (ties in row order, as the engine's stable sort leaves them).
    """

    order: np.ndarray
    rows: np.ndarray
    bounds: np.ndarray

    def of(self, g: int) -> np.ndarray:
        """Group ``g``'s rows in decreasing score order."""
        return self.rows[self.bounds[g] : self.bounds[g + 1]]

    def rest(self, codes: np.ndarray, g: int) -> np.ndarray:
        """Every other group's rows, in decreasing score order."""
        return self.order[codes[self.order] != g]


def split_by_group(scores: FloatArray, codes: np.ndarray, n_groups: int) -> SortedGroups:
    """One stable descending sort of the scores, then a stable split by group code."""
    order = np.argsort(-scores, kind="stable")  # the one sort
    # A stable sort of small unsigned integers is NumPy's radix sort: a counting split that keeps
    # the score order inside each group.
    sorted_codes = codes[order].astype(np.uint16)
    split = np.argsort(sorted_codes, kind="stable")
    bounds = np.concatenate([[0], np.cumsum(np.bincount(sorted_codes, minlength=n_groups))])
    return SortedGroups(order, order[split], bounds)


def tie_index(sorted_scores: FloatArray) -> np.ndarray:
    """0-based tie group of each score of a decreasing sequence."""
    index = np.zeros(len(sorted_scores), dtype=np.intp)
    if len(sorted_scores) > 1:
        np.cumsum(sorted_scores[1:] != sorted_scores[:-1], out=index[1:])
    return index


def table(
    scores: FloatArray, is_pos: np.ndarray, weights: FloatArray | None, rows: np.ndarray, pos_label: Any
) -> OperatingPoints:
    """The count table of ``rows`` (given in decreasing score order), as the engine builds it."""
    if weights is not None:
        rows = rows[weights[rows] != 0]  # zero-weight rows make no threshold (the engine's rule)
    s, pos = scores[rows], is_pos[rows]
    ends = np.flatnonzero(np.append(s[1:] != s[:-1], True)) if len(s) else np.empty(0, dtype=np.intp)
    if weights is None:
        tp = np.cumsum(pos, dtype=np.float64)[ends]
        fp = ends + 1.0 - tp
    else:
        w = weights[rows]
        tp, fp = np.cumsum(np.where(pos, w, 0.0))[ends], np.cumsum(np.where(pos, 0.0, w))[ends]
    return OperatingPoints.from_arrays(
        np.concatenate([[np.inf], s[ends]]), np.concatenate([[0.0], tp]), np.concatenate([[0.0], fp]), pos_label
    )


def statistics(op: OperatingPoints, threshold: float) -> list[float]:
    """:data:`STATISTICS` of one table (NaN where undefined: one class, or nothing flagged)."""
    P, N = op.n_positives, op.n_negatives
    if P <= 0 or N <= 0:
        areas = [np.nan] * 3
    else:
        areas = [op.auroc(), op.average_precision(), op.auprg()]
    i = int(np.searchsorted(-op.thresholds, -threshold, side="right")) - 1
    tp, flagged = float(op.tp[i]), float(op.tp[i] + op.fp[i])
    precision = tp / flagged if flagged > 0 else np.nan
    recall = tp / P if P > 0 else np.nan
    rate = flagged / (P + N) if P + N > 0 else np.nan
    return [float(a) for a in areas] + [precision, recall, rate]


def replicates(
    resampler: Resampler,
    scores: FloatArray,
    codes: np.ndarray,
    n_groups: int,
    tested: list[int],
    threshold: float,
    pos_label: Any,
    n_resamples: int,
    rng: np.random.Generator,
) -> tuple[FloatArray, FloatArray]:
    """Bootstrap replicates of every group's statistics and of its rest's, on shared draws.

    The resampler holds the rows of positive weight (its ``is_pos``, ``weights`` and the
    global tie ``group`` of each); ``scores`` and ``codes`` are those rows' scores and group
    codes. Returns ``(groups, rests)``, each of shape (n_resamples, len(tested), 6): NaN
    where a statistic is undefined on a replicate.
    """
    is_pos, tie = resampler.is_pos, resampler.group
    sorted_groups = split_by_group(scores, codes, n_groups)
    local = []
    for g in tested:
        rows = sorted_groups.of(g)
        ties = tie_index(scores[rows])
        thresholds = np.concatenate([[np.inf], scores[rows][np.flatnonzero(np.append(np.diff(ties) != 0, True))]])
        local.append((rows, ties, thresholds))
    global_thresholds = resampler.op.thresholds
    n_ties = len(global_thresholds) - 1
    out = np.full((2, n_resamples, len(tested), len(STATISTICS)), np.nan)
    for b in range(n_resamples):
        counts = resampler.counts(rng)[0]
        e = resampler.weights * counts
        e_pos, e_neg = np.where(is_pos, e, 0.0), np.where(is_pos, 0.0, e)
        all_pos = np.bincount(tie, e_pos, minlength=n_ties)
        all_neg = np.bincount(tie, e_neg, minlength=n_ties)
        for j, (rows, ties, thresholds) in enumerate(local):
            k = len(thresholds) - 1
            g_pos, g_neg = np.bincount(ties, e_pos[rows], minlength=k), np.bincount(ties, e_neg[rows], minlength=k)
            out[0, b, j] = statistics(
                _counts(thresholds, g_pos.astype(np.float64), g_neg.astype(np.float64), pos_label), threshold
            )
            r_pos = all_pos - np.bincount(tie[rows], e_pos[rows], minlength=n_ties)
            r_neg = all_neg - np.bincount(tie[rows], e_neg[rows], minlength=n_ties)
            out[1, b, j] = statistics(
                _counts(global_thresholds, np.maximum(r_pos, 0.0), np.maximum(r_neg, 0.0), pos_label), threshold
            )
    return out[0], out[1]


def _counts(thresholds: FloatArray, positives: FloatArray, negatives: FloatArray, pos_label: Any) -> OperatingPoints:
    """A replicate's table: per-tie-group draws cumulated (groups drawn zero times repeat a point,
    which changes no area and no count at a threshold)."""
    return OperatingPoints.from_arrays(
        thresholds,
        np.concatenate([[0.0], np.cumsum(positives)]),
        np.concatenate([[0.0], np.cumsum(negatives)]),
        pos_label,
    )
