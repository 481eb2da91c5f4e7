"""What runs on the workers: one partition read, validated and counted (every score column), its pieces by score range.

Every function here is a task of the graph :func:`isometrics.dask.evaluate_dask` builds. They
take and return plain data (NumPy arrays, :class:`~isometrics._core.count_table.CountTable`,
small dataclasses), so that the scheduler can move, keep and recompute them; none keeps state
between calls, so a task lost with a worker is simply run again and gives the same result.

A partition is either a pandas frame (a partition of a Dask DataFrame) or a slice of row groups
of one Parquet file (:class:`ParquetPiece`). Bad values are reported with where they are: the
partition, the row within it and its index label, or the file and its row.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .._core.caller import CALLER, current_caller
from .._core.count_table import CountTable
from .._typing import FloatArray
from ..scale.batches import Locator, RawBatch, arrow_arrays, check_batch

__all__ = [
    "ColumnCounts",
    "Locator",
    "ParquetPiece",
    "PartitionSource",
    "PartitionTable",
    "partition_table",
    "split_by_range",
    "column_piece",
    "merge_range",
    "merge_ranges",
]

#: Distinct scores of each partition sent to the client to place the range cuts.
SAMPLE_SIZE = 512


@dataclass(frozen=True)
class ParquetPiece:
    """Row groups ``row_groups`` of the Parquet file ``file``, read as one partition."""

    file: str
    row_groups: tuple[int, ...]


@dataclass(frozen=True)
class ColumnCounts:
    """One score column's count table in one partition, and what the client needs to cut its ranges.

    ``counts`` are the table's sufficient statistics: the distinct scores (decreasing) and, at
    each, the weight of the samples labelled with the partition's last label and of the others;
    ``None`` when the partition holds no sample of positive weight, and in a summary. ``sample``
    holds evenly spaced distinct scores (decreasing), each standing for ``n_points / len(sample)``
    points; ``n_points`` is the number of distinct scores of positive weight.
    """

    counts: tuple[FloatArray, FloatArray, FloatArray] | None
    sample: FloatArray
    n_points: int = 0


@dataclass(frozen=True)
class PartitionTable:
    """One partition read, validated and counted: every score column's counts, and its labels.

    ``labels`` are the partition's distinct labels (at most two, sorted), ``first_rows`` the
    partition row where each first appears and ``first_index`` its index label. ``totals``
    are the weight of the samples labelled ``labels[-1]`` and of the others (both 0 when no
    sample has positive weight); ``columns`` one :class:`ColumnCounts` per score column, in
    the order asked.
    """

    locator: Locator
    n_rows: int
    labels: tuple[Any, ...]
    first_rows: tuple[int, ...]
    first_index: tuple[Any, ...]
    totals: tuple[float, float]
    columns: tuple[ColumnCounts, ...]

    def summary(self) -> PartitionTable:
        """The same without the counts (what travels to the client)."""
        return replace(self, columns=tuple(ColumnCounts(None, c.sample, c.n_points) for c in self.columns))


class PartitionSource:
    """One partition as a :class:`~isometrics.scale.batches.BatchSource` of one batch: a pandas frame
    (a partition of a Dask DataFrame) or a :class:`ParquetPiece`, named in messages by ``loc``."""

    def __init__(self, part: Any, loc: Locator) -> None:
        self.part, self.loc = part, loc
        self.described = loc.where()

    def column_names(self) -> list[str]:
        """The partition's columns (a Parquet piece's from its file's schema)."""
        if isinstance(self.part, ParquetPiece):
            import pyarrow.parquet as pq

            return list(pq.read_schema(self.part.file).names)
        return [str(c) for c in self.part.columns]

    def raw_batches(self, columns: list[str]) -> Iterator[RawBatch]:
        """The partition's ``columns`` as one batch."""
        part = self.part
        if isinstance(part, ParquetPiece):
            import pyarrow.parquet as pq

            table = pq.ParquetFile(part.file).read_row_groups(list(part.row_groups), columns=columns)
            arrays, missing = arrow_arrays(table, columns)
            yield RawBatch(arrays, missing, None, self.loc)
            return
        arrays, missing = {}, {}
        for k, name in enumerate(columns):
            series = part[name]
            # NaN in a float score or weight column is reported as a bad value (by the check), not as missing
            na = series.isna().to_numpy() if k == 0 or series.dtype.kind != "f" else np.zeros(0, dtype=bool)
            missing[name] = na if na.any() else None
            dtype = getattr(series.dtype, "numpy_dtype", None)  # pandas' masked (nullable) types
            if dtype is not None and missing[name] is None:
                arrays[name] = series.to_numpy(dtype=dtype)
            elif str(series.dtype) == "category":
                arrays[name] = np.asarray(series.astype(series.cat.categories.dtype))
            else:
                arrays[name] = series.to_numpy()
        yield RawBatch(arrays, missing, part.index, self.loc)


def partition_table(
    part: Any, loc: Locator, *, label: str, scores: Sequence[str], weight: str | None, caller: str
) -> PartitionTable:
    """Read, validate and count one partition, every score column at once (a task): its rows
    checked by :func:`~isometrics.scale.batches.check_batch`, as every scale path's are.

    ``caller`` is the public function the messages name: a task runs on a worker, which does
    not see the client's context, so the name travels with it and is set here for the checkers.

    Raises
    ------
    IsometricsError
        For a missing label, score or weight, a NaN or infinite score, a negative or
        non-finite weight, more than two labels in the partition, or values of the wrong
        type; the message names the column and where the first bad row is.
    """
    token = CALLER.set(caller)
    try:
        return _partition_table(part, loc, label=label, scores=list(scores), weight=weight)
    finally:
        CALLER.reset(token)


def _partition_table(part: Any, loc: Locator, *, label: str, scores: list[str], weight: str | None) -> PartitionTable:
    columns = [label, *scores] + ([weight] if weight is not None else [])
    raw = next(PartitionSource(part, loc).raw_batches(columns))
    batch = check_batch(raw, label=label, scores=scores, weight=weight)
    y, w = batch.y_true, batch.sample_weight
    counted = bool(batch.n_rows) and (w is None or bool((w > 0).any()))
    is_a = np.asarray(y == batch.labels[-1], dtype=np.bool_) if counted else None
    tables: list[ColumnCounts] = []
    totals = (0.0, 0.0)
    for score in scores:
        if is_a is None:
            tables.append(ColumnCounts(None, np.empty(0)))
            continue
        # the engine's sort and grouping (as in memory), kept as per-score counts only
        table = CountTable.from_validated(is_a, batch.scores[score], w, batch.labels[-1], caller=current_caller())
        counts = table.group_counts()
        m = len(counts[0])
        sample = counts[0][np.unique(np.linspace(0, m - 1, min(SAMPLE_SIZE, m)).astype(np.intp))]
        tables.append(ColumnCounts(counts, sample, m))
        totals = (table.n_positives, table.n_negatives)  # the same for every column
    return PartitionTable(loc, batch.n_rows, batch.labels, batch.first_rows, batch.first_index, totals, tuple(tables))


def column_piece(part: PartitionTable, column: int, flip: bool) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Score column ``column``'s ``(scores, positives, negatives)`` in the partition, whole (one score range).

    ``flip`` says that the partition's first count column counts the negative class.
    """
    counts = part.columns[column].counts
    if counts is None:
        return np.empty(0), np.empty(0), np.empty(0)
    scores, a, other = counts
    return (scores, other, a) if flip else (scores, a, other)


def split_by_range(
    part: PartitionTable, cuts: Sequence[tuple[int, FloatArray]], flip: bool
) -> tuple[tuple[tuple[FloatArray, FloatArray, FloatArray], ...], ...]:
    """Score columns' ``(scores, positives, negatives)`` cut into score ranges (a task): ``out[r][j]``
    is range ``r`` of the ``j``-th column of ``cuts``.

    ``cuts`` pairs a column's number with its decreasing cuts; the column is cut into
    ``len(cuts) + 1`` ranges: range 0 holds the scores ``>= cuts[0]``, range ``k`` those in
    ``[cuts[k], cuts[k - 1])``, the last those ``< cuts[-1]``, so that equal scores always
    fall in the same range. A column of fewer ranges than another has empty pieces after its
    last. ``flip`` says that the partition's first count column counts the negative class.
    """
    columns: list[list[tuple[FloatArray, FloatArray, FloatArray]]] = []
    for column, edges in cuts:
        scores, pos, neg = column_piece(part, column, flip)
        bounds = np.concatenate(([0], np.searchsorted(-scores, -edges, side="right"), [len(scores)]))
        columns.append([(scores[i:j], pos[i:j], neg[i:j]) for i, j in zip(bounds[:-1], bounds[1:])])
    empty = (np.empty(0), np.empty(0), np.empty(0))
    n_ranges = max((len(pieces) for pieces in columns), default=0)
    return tuple(tuple(pieces[r] if r < len(pieces) else empty for pieces in columns) for r in range(n_ranges))


def merge_range(pieces: list[tuple[FloatArray, ...]], pos_label: Any) -> CountTable | None:
    """The count table of one score range from the pieces every partition holds of it (a task).

    Each piece is sorted by decreasing score with distinct scores of positive weight (a
    partition's table), so the merge is one stable sort of the concatenation (runs that
    are already sorted) and a sum of the counts of equal scores, in piece order: the
    grouping of :meth:`CountTable.from_counts`, without re-validating the engine's output.
    """
    pieces = [p for p in pieces if len(p[0])]
    if not pieces:
        return None
    scores, pos, neg = (np.concatenate([p[k] for p in pieces]) for k in range(3))
    if len(pieces) > 1:
        order = np.argsort(-scores, kind="stable")
        scores, pos, neg = scores[order], pos[order], neg[order]
        first = np.empty(len(scores), dtype=bool)
        first[0] = True
        np.not_equal(scores[1:], scores[:-1], out=first[1:])
        if not first.all():  # a score in several partitions: one point, counts added
            starts = np.flatnonzero(first)
            scores, pos, neg = scores[starts], np.add.reduceat(pos, starts), np.add.reduceat(neg, starts)
    thresholds, tp, fp = np.empty(len(scores) + 1), np.empty(len(scores) + 1), np.empty(len(scores) + 1)
    thresholds[0], tp[0], fp[0] = np.inf, 0.0, 0.0
    thresholds[1:] = scores
    np.cumsum(pos, out=tp[1:])
    np.cumsum(neg, out=fp[1:])
    return CountTable.from_arrays(thresholds, tp, fp, pos_label)


def merge_ranges(pieces: Sequence[Sequence[tuple[FloatArray, ...]]], pos_label: Any) -> tuple[CountTable | None, ...]:
    """Score range ``r`` of several columns from each partition's pieces of it (``pieces[p][j]``: partition
    ``p``'s piece of the ``j``-th column), merged column by column by :func:`merge_range` (a task)."""
    return tuple(merge_range([p[j] for p in pieces], pos_label) for j in range(len(pieces[0])))
