"""What the client decides between the passes: the two classes, the range cuts, the ranges' offsets.

Everything here works on small summaries (a few hundred numbers per partition), never on the
data: on the client, except :func:`column_offsets`, a task that the ranges' sweeps wait for (so
the client does not wait for the ranges' sizes).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.labels import format_labels, is_standard_encoding
from .._core.validation import check_labels_present, check_pos_label, infer_pos_label, label_set
from .._typing import FloatArray
from ..exceptions import IsometricsError
from ._partitions import ColumnCounts, PartitionTable

__all__ = [
    "RANGE_POINTS",
    "Classes",
    "Offsets",
    "resolve_classes",
    "class_totals",
    "check_both_totals",
    "default_ranges",
    "range_cuts",
    "offsets",
    "column_offsets",
]

#: Distinct scores per score range when ``n_ranges`` is not given: fewer make more tasks than the
#: work needs (a range's merge and sweep take a few milliseconds per 10^5 points).
RANGE_POINTS = 1 << 18


@dataclass(frozen=True)
class Classes:
    """The positive class and, for each partition, whether its table counts the other class as ``tp``."""

    pos_label: Any
    labels: tuple[Any, ...]
    flips: tuple[bool, ...]


def resolve_classes(summaries: Sequence[PartitionTable], pos_label: Any, *, label: str) -> Classes:
    """The two classes of the whole data set from each partition's, in partition order.

    Raises
    ------
    IsometricsError
        When the partitions together hold a third class (named with the partition and
        row where it first appears), labels of mixed types, or ``pos_label`` is not a
        label (or cannot be inferred).
    """
    check_pos_label(pos_label)
    seen: dict[Any, str] = {}
    for part in summaries:
        for value, row, index in zip(part.labels, part.first_rows, part.first_index):
            if value in seen:
                continue
            if len(seen) == 2:
                raise IsometricsError(
                    f"{current_caller()}: label column {label!r} has a third class {value!r} (besides "
                    f"{', '.join(repr(v) for v in seen)}) {part.locator.row(row, index)}; this is a binary "
                    "evaluation: binarise the labels (one class against the rest) or drop the rows of other classes."
                )
            seen[value] = part.locator.row(row, index)
    if not seen:
        raise IsometricsError(
            f"{current_caller()}: the input is empty (0 rows in every partition); pass at least one sample of each class."
        )
    try:
        # As objects first: np.array would turn 0 and "1" into the strings "0" and "1" without a word.
        label_set(np.array(list(seen), dtype=object))
        labels = label_set(np.array(list(seen)))
    except (IsometricsError, TypeError):
        kinds = ", ".join(f"{v!r} ({type(v).__name__}, first {where})" for v, where in seen.items())
        raise IsometricsError(
            f"{current_caller()}: label column {label!r} mixes label types: {kinds}; use one type for all labels."
        ) from None
    if pos_label is None:
        pos_label = infer_pos_label(labels)
    elif len(labels) == 2 or not is_standard_encoding(labels, pos_label):
        check_labels_present(labels, pos_label)
    flips = tuple(bool(part.labels) and not bool(part.labels[-1] == pos_label) for part in summaries)
    return Classes(pos_label, tuple(v.item() if isinstance(v, np.generic) else v for v in labels), flips)


def default_ranges(columns: Sequence[ColumnCounts]) -> int:
    """The score ranges of one column when ``n_ranges`` is not given: one per :data:`RANGE_POINTS`
    distinct scores (counted in each partition: an upper bound), at most one per partition, at least 1."""
    points = sum(c.n_points for c in columns)
    return max(1, min(len(columns), -(-points // RANGE_POINTS)))


def range_cuts(columns: Sequence[ColumnCounts], n_ranges: int) -> FloatArray:
    """Decreasing scores cutting the score axis into ``n_ranges`` ranges of about equal numbers of points.

    ``columns`` are one score column's counts in each partition (summaries: their samples
    and sizes). Each partition's sample stands for its distinct scores (a sample score for
    ``n_points / len(sample)`` of them); the cuts are weighted quantiles of the pooled
    samples. A cut is a score value and a range holds the scores from its lower cut
    (included) to its upper cut (excluded), so no score value is split between two
    ranges. Fewer cuts are returned when the samples have fewer distinct values.
    """
    samples = [p.sample for p in columns if len(p.sample)]
    if n_ranges <= 1 or not samples:
        return np.empty(0)
    scores = np.concatenate(samples)
    weights = np.concatenate([np.full(len(p.sample), p.n_points / len(p.sample)) for p in columns if len(p.sample)])
    order = np.argsort(-scores, kind="stable")
    scores, cumulative = scores[order], np.cumsum(weights[order])
    targets = cumulative[-1] * np.arange(1, n_ranges) / n_ranges
    cuts = scores[np.minimum(np.searchsorted(cumulative, targets, side="left") + 1, len(scores) - 1)]
    cuts = np.unique(cuts)[::-1]  # strictly decreasing
    return cuts[cuts < scores[0]]  # a cut at the largest score would leave range 0 empty


@dataclass(frozen=True)
class Offsets:
    """Where each score range starts in the whole curve: the prefix sums of the ranges' sizes and totals.

    ``start[k]`` is the global index (in decreasing score order, the ``+inf`` point being
    0) of range ``k``'s first operating point; ``tp_before[k]`` and ``fp_before[k]`` the
    weighted positives and negatives of every score above range ``k``. ``n_positives``
    and ``n_negatives`` are the class totals.
    """

    start: tuple[int, ...]
    tp_before: tuple[float, ...]
    fp_before: tuple[float, ...]
    n_positives: float
    n_negatives: float
    n_points: int


def offsets(sizes: Sequence[tuple[int, float, float]]) -> Offsets:
    """The prefix sums over the ranges' ``(n_points, positives, negatives)``, in range order.

    The positives and negatives are added one range after the other, as the in-memory
    engine accumulates them (exact with integer weights).
    """
    start, tp_before, fp_before = [], [], []
    index, tp, fp = 1, 0.0, 0.0
    for n, p, q in sizes:
        start.append(index)
        tp_before.append(tp)
        fp_before.append(fp)
        index += n
        tp += p
        fp += q
    return Offsets(tuple(start), tuple(tp_before), tuple(fp_before), tp, fp, index)


def class_totals(summaries: Sequence[PartitionTable], classes: Classes) -> tuple[float, float]:
    """The weight of the positive and of the negative class over the partitions, in partition order.

    Only to tell whether each class has positive weight (the results' totals are the score
    ranges', :func:`offsets`): a sum of weights >= 0 is > 0 exactly when one of them is.
    """
    positives, negatives = 0.0, 0.0
    for part, flip in zip(summaries, classes.flips):
        a, other = part.totals
        positives, negatives = (positives + other, negatives + a) if flip else (positives + a, negatives + other)
    return positives, negatives


def check_both_totals(n_positives: float, n_negatives: float, classes: Classes) -> None:
    """Raise unless each class has positive weight in the whole data set."""
    for name, total in (("positive", n_positives), ("negative", n_negatives)):
        if not total > 0:
            raise IsometricsError(
                f"{current_caller()}: the labels have one class (no {name} samples with positive weight; pos_label="
                f"{classes.pos_label!r}, labels found: {format_labels(classes.labels)}); ROC, PR and PRG analysis "
                "needs both classes: check the label column and pos_label."
            )


def column_offsets(sizes: Sequence[Sequence[tuple[int, float, float]]], counts: Sequence[int]) -> tuple[Offsets, ...]:
    """The :func:`offsets` of several columns (a task): ``sizes[r][j]`` is the size of range ``r`` of the
    ``j``-th column, which has ``counts[j]`` ranges."""
    return tuple(offsets([s[j] for s in sizes[:k]]) for j, k in enumerate(counts))
