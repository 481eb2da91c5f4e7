"""What runs on the workers: one partition read and validated, its count table, its pieces by score range.

Every function here is a task of the graph :func:`isometrics.dask.evaluate_dask` builds. They
take and return plain data (NumPy arrays, :class:`~isometrics._core.count_table.CountTable`,
small dataclasses), so that the scheduler can move, keep and recompute them; none keeps state
between calls, so a task lost with a worker is simply run again and gives the same result.

A partition is either a pandas frame (a partition of a Dask DataFrame) or a slice of row groups
of one Parquet file (:class:`ParquetPiece`). Bad values are reported with where they are: the
partition, the row within it and its index label, or the file and its row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.count_table import CountTable
from .._core.validation import check_labels, check_scores, label_set
from .._typing import FloatArray
from ..exceptions import IsometricsError

__all__ = ["Locator", "ParquetPiece", "PartitionTable", "partition_table", "split_by_range", "merge_range"]

#: Distinct scores of each partition sent to the client to place the range cuts.
SAMPLE_SIZE = 512


@dataclass(frozen=True)
class Locator:
    """Where a partition comes from, to name the row of a bad value.

    ``number`` is the partition's position (0-based) among ``n_partitions``; for a
    Parquet input, ``file`` and the file row of the partition's first row.
    """

    number: int
    n_partitions: int
    file: str | None = None
    first_row: int = 0

    def where(self) -> str:
        """Words naming the partition."""
        if self.file is not None:
            return f"in file {self.file!r} (partition {self.number} of {self.n_partitions}, from file row {self.first_row})"
        return f"in partition {self.number} of {self.n_partitions}"

    def row(self, position: int, index: Any = None) -> str:
        """Words naming row ``position`` of the partition (``index``: its index label, if any)."""
        if self.file is not None:
            return (
                f"in file {self.file!r}, row {self.first_row + position} "
                f"(partition {self.number} of {self.n_partitions})"
            )
        label = "" if index is None else f", index {_plain(index)!r}"
        return f"in partition {self.number} of {self.n_partitions}, row {position} of that partition{label}"


@dataclass(frozen=True)
class ParquetPiece:
    """Row groups ``row_groups`` of the Parquet file ``file``, read as one partition."""

    file: str
    row_groups: tuple[int, ...]


@dataclass(frozen=True)
class PartitionTable:
    """One partition's count table and what the client needs to plan the ranges.

    ``counts`` are the table's sufficient statistics: the distinct scores (decreasing)
    and, at each, the weight of the samples labelled ``labels[-1]`` and of the others;
    ``None`` when the partition holds no sample of positive weight. ``labels`` are the partition's
    distinct labels (at most two, sorted) and ``first_rows`` the partition row where
    each first appears. ``sample`` holds evenly spaced distinct scores (decreasing),
    each standing for ``n_points / len(sample)`` points.
    """

    locator: Locator
    n_rows: int
    labels: tuple[Any, ...]
    first_rows: tuple[int, ...]
    first_index: tuple[Any, ...]
    counts: tuple[FloatArray, FloatArray, FloatArray] | None
    sample: FloatArray
    n_points: int = 0  # distinct scores of positive weight in the partition

    def summary(self) -> PartitionTable:
        """The same without the counts (what travels to the client)."""
        return PartitionTable(
            self.locator, self.n_rows, self.labels, self.first_rows, self.first_index, None, self.sample, self.n_points
        )


def _plain(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _read(part: Any, columns: list[str]) -> tuple[list[np.ndarray], list[np.ndarray | None], Any]:
    """The columns of a partition as NumPy arrays, their missing-value masks, and the row index (or None)."""
    if isinstance(part, ParquetPiece):
        import pyarrow.parquet as pq

        table = pq.ParquetFile(part.file).read_row_groups(list(part.row_groups), columns=columns)
        arrays, missing = [], []
        for name in columns:
            column = table.column(name)
            missing.append(column.is_null().to_numpy(zero_copy_only=False) if column.null_count else None)
            arrays.append(column.to_numpy())
        return arrays, missing, None
    arrays, missing = [], []
    for k, name in enumerate(columns):
        series = part[name]
        # NaN in a float score or weight column is reported as a bad value (below), not as missing
        na = series.isna().to_numpy() if k == 0 or series.dtype.kind != "f" else np.zeros(0, dtype=bool)
        missing.append(na if na.any() else None)
        dtype = getattr(series.dtype, "numpy_dtype", None)  # pandas' masked (nullable) types
        if dtype is not None and missing[-1] is None:
            arrays.append(series.to_numpy(dtype=dtype))
        elif str(series.dtype) == "category":
            arrays.append(np.asarray(series.astype(series.cat.categories.dtype)))
        else:
            arrays.append(series.to_numpy())
    return arrays, missing, part.index


def _index_at(index: Any, position: int) -> Any:
    return None if index is None else index[position]


def _located(exc: IsometricsError, loc: Locator) -> IsometricsError:
    """A core checker's message, told which partition it is about (its indices count the partition's rows)."""
    return IsometricsError(f"{str(exc).rstrip('.')} ({loc.where()}; an index counts the rows of that partition).")


def partition_table(
    part: Any, loc: Locator, *, label: str, score: str, weight: str | None, caller: str
) -> PartitionTable:
    """Read, validate and count one partition (a task).

    Raises
    ------
    IsometricsError
        For a missing label, score or weight, a NaN or infinite score, a negative or
        non-finite weight, more than two labels in the partition, or values of the wrong
        type; the message names the column and where the first bad row is.
    """
    columns = [label, score] + ([weight] if weight is not None else [])
    arrays, missing, index = _read(part, columns)
    y, s = arrays[0], arrays[1]
    n = len(y)
    for name, what, mask in zip(columns, ("label", "score", "weight"), missing):
        if mask is not None:
            first = int(np.flatnonzero(mask)[0])
            raise IsometricsError(
                f"{caller}: {what} column {name!r} has {int(mask.sum())} missing value(s), the first "
                f"{loc.row(first, _index_at(index, first))}; drop or fill those rows before evaluating."
            )
    if s.dtype.kind == "f":
        bad = ~np.isfinite(s)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            kind = "NaN" if np.isnan(s[first]) else "infinite"
            raise IsometricsError(
                f"{caller}: score column {score!r} has {int(bad.sum())} NaN or infinite value(s), the first "
                f"({kind}) {loc.row(first, _index_at(index, first))}; drop or impute them before evaluating."
            )
    try:
        s = check_scores(s, caller=caller, name=f"score column {score!r}")
        y = check_labels(np.asarray(y), name=f"label column {label!r}", caller=caller)
    except IsometricsError as exc:
        raise _located(exc, loc) from None
    w = None
    if weight is not None:
        w = np.asarray(arrays[2])
        if w.dtype.kind not in "biuf":
            raise IsometricsError(f"{caller}: weight column {weight!r} must be numeric; got {w.dtype} ({loc.where()}).")
        w = w.astype(np.float64, copy=False)
        bad = ~np.isfinite(w) | (w < 0)
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            raise IsometricsError(
                f"{caller}: weight column {weight!r} has {int(bad.sum())} negative or non-finite value(s), the "
                f"first ({float(w[first])!r}) {loc.row(first, _index_at(index, first))}; weights must be finite "
                "numbers >= 0."
            )
    try:
        labels = label_set(y) if n else np.array([])
    except IsometricsError as exc:
        raise _located(exc, loc) from None
    firsts = [int(np.argmax(y == v)) for v in labels]
    first_index = tuple(_plain(_index_at(index, r)) for r in firsts)
    if len(labels) > 2:
        order = np.argsort(firsts, kind="stable")
        third = int(order[2])
        row = firsts[third]
        seen = ", ".join(repr(_plain(labels[k])) for k in order[:2])
        raise IsometricsError(
            f"{caller}: label column {label!r} has a third class {_plain(labels[third])!r} (besides {seen}) "
            f"{loc.row(row, _index_at(index, row))}; this is a binary evaluation: binarise the labels "
            "(one class against the rest) or drop the rows of other classes."
        )
    counts = None
    sample = np.empty(0)
    if n and (w is None or (w > 0).any()):
        a = labels[-1]
        # the engine's sort and grouping (as in memory), kept as per-score counts only
        counts = CountTable.from_validated(
            np.asarray(y == a, dtype=np.bool_), s, w, _plain(a), caller=caller
        ).group_counts()
        m = len(counts[0])
        sample = counts[0][np.unique(np.linspace(0, m - 1, min(SAMPLE_SIZE, m)).astype(np.intp))]
    return PartitionTable(
        loc,
        n,
        tuple(_plain(v) for v in labels),
        tuple(firsts),
        first_index,
        counts,
        sample,
        0 if counts is None else len(counts[0]),
    )


def split_by_range(part: PartitionTable, cuts: FloatArray, flip: bool) -> tuple[tuple[FloatArray, ...], ...]:
    """The partition's ``(scores, positives, negatives)`` cut into ``len(cuts) + 1`` score ranges (a task).

    Range 0 holds the scores ``>= cuts[0]``, range ``k`` those in ``[cuts[k], cuts[k - 1])``,
    the last those ``< cuts[-1]`` (``cuts`` decreasing): equal scores always fall in the
    same range. ``flip`` says that the partition's ``tp`` column counts the negative class.
    """
    empty = (np.empty(0), np.empty(0), np.empty(0))
    if part.counts is None:
        return tuple(empty for _ in range(len(cuts) + 1))
    scores, a, other = part.counts
    pos, neg = (other, a) if flip else (a, other)
    bounds = np.concatenate(([0], np.searchsorted(-scores, -cuts, side="right"), [len(scores)]))
    return tuple((scores[i:j], pos[i:j], neg[i:j]) for i, j in zip(bounds[:-1], bounds[1:]))


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
