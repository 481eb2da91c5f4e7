"""The reduction: each score range swept on its worker, the sweeps merged in range order, a display subset.

Each range's count table, shifted by its offsets, is one segment of the whole curve:
:class:`isometrics.spaces.sweep.Sweep` turns it into the range's share of every area (block
sums aligned to the global point index, partial blocks at its edges handed on) and its
best-threshold candidates. One task per range sweeps it, picks its display points and
writes its stretch of the curve (:func:`reduce_range`); neighbouring ranges are merged
on the workers, up to eight per task (a tree, always in range order), so the client receives one small
state, whatever the number of ranges; its result is the in-memory engine's, bit for bit.
A column of one range is all of that in one task (:func:`whole_column`).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from .._core.count_table import CountTable
from ..metrics.registry import Metric
from ..spaces.operating_points import OperatingPoints
from ..spaces.sweep import Sweep, SweepResult
from ._partitions import PartitionTable, column_piece, merge_range
from ._plan import Offsets, offsets

__all__ = [
    "AREAS",
    "Reduced",
    "range_size",
    "sweep_range",
    "merge_sweeps",
    "display_part",
    "write_curve_part",
    "reduce_range",
    "merge_reduced",
    "finish",
    "range_sizes",
    "reduce_ranges",
    "merge_all",
    "finish_all",
    "whole_column",
    "tree",
    "display_points",
]

#: The areas swept: those the evaluation reports, and the achievable PR area for the ROC hull's
#: vertices (which the display subset keeps).
AREAS = ("auroc", "average_precision", "auprg", "auc_pr_achievable")

#: Points per update of a range's sweep: its temporaries stay a few MiB (three times faster than
#: one update of millions of points).
SWEEP_CHUNK = 1 << 20

#: States merged by one task of the reduction tree: a state is small (block sums, a few partial
#: blocks, best candidates, hull vertices), so a wide tree costs few tasks and little transfer.
FAN_IN = 8

#: Operating points evenly spaced in threshold order kept for display (as in memory).
DISPLAY_POINTS = 10_000


def _shifted(table: CountTable, number: int, offs: Offsets) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Range ``number``'s thresholds and cumulative counts from the top of the whole curve."""
    return table.thresholds[1:], table.tp[1:] + offs.tp_before[number], table.fp[1:] + offs.fp_before[number]


def range_size(table: CountTable | None) -> tuple[int, float, float]:
    """A score range's ``(n_points, positives, negatives)``, what :func:`~._plan.offsets` adds up (a task)."""
    return (0, 0.0, 0.0) if table is None else (table.n_points - 1, table.n_positives, table.n_negatives)


def sweep_range(table: CountTable | None, number: int, offs: Offsets, metrics: Sequence[Metric]) -> Sweep:
    """The sweep state of score range ``number`` (a task): its areas' partial sums and best candidates."""
    state = Sweep(offs.n_positives, offs.n_negatives, metrics=metrics, areas=AREAS)
    if table is not None:
        thresholds, tp, fp = _shifted(table, number, offs)
        previous = (offs.tp_before[number], offs.fp_before[number])
        for i in range(0, len(thresholds), SWEEP_CHUNK):  # the result does not depend on the cutting
            state.update(
                thresholds[i : i + SWEEP_CHUNK],
                tp[i : i + SWEEP_CHUNK],
                fp[i : i + SWEEP_CHUNK],
                start=offs.start[number] + i,
                previous=previous if i == 0 else None,
            )
    return state


def merge_sweeps(*states: Sweep) -> Sweep:
    """The state of neighbouring ranges, each starting where the previous ends (a task).

    The first is copied: a task never changes its inputs (the scheduler may hand the same
    object to another task, or run this one again).
    """
    state = copy.deepcopy(states[0])
    for other in states[1:]:
        state.merge(other)
    return state


def display_part(table: CountTable | None, number: int, offs: Offsets) -> tuple[np.ndarray, ...]:
    """The points of range ``number`` among the evenly spaced ones of the whole curve (a task)."""
    if table is None:
        return np.empty(0), np.empty(0), np.empty(0)
    wanted = np.unique(np.linspace(0, offs.n_points - 1, DISPLAY_POINTS).astype(np.int64))
    first = offs.start[number]
    local = wanted[(wanted >= first) & (wanted < first + table.n_points - 1)] - first
    thresholds, tp, fp = _shifted(table, number, offs)
    return thresholds[local], tp[local], fp[local]


def write_curve_part(table: CountTable | None, number: int, offs: Offsets, directory: str) -> str:
    """Write score range ``number``'s stretch of the curve as ``part-<number>.parquet`` in ``directory``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    thresholds, tp, fp = (np.empty(0),) * 3
    if table is not None:
        thresholds, tp, fp = _shifted(table, number, offs)
    if number == 0:  # the curve starts at +inf, where nothing is predicted positive
        thresholds, tp, fp = np.r_[np.inf, thresholds], np.r_[0.0, tp], np.r_[0.0, fp]
    path = os.path.join(directory, f"part-{number:05d}.parquet")
    pq.write_table(pa.table({"threshold": thresholds, "tp": tp, "fp": fp}), path)
    return path


class Reduced(NamedTuple):
    """Consecutive score ranges reduced: their sweep and their display points, in range order."""

    sweep: Sweep
    parts: tuple[tuple[np.ndarray, ...], ...]


def reduce_range(
    table: CountTable | None, offs: Offsets, *, number: int, metrics: Sequence[Metric], directory: str | None
) -> Reduced:
    """Score range ``number`` swept, its display points picked and, into ``directory`` if given, its
    stretch of the curve written (a task)."""
    if directory is not None:
        write_curve_part(table, number, offs, directory)
    return Reduced(sweep_range(table, number, offs, metrics), (display_part(table, number, offs),))


def merge_reduced(*states: Reduced) -> Reduced:
    """Neighbouring reductions as one, each starting where the previous ends."""
    if len(states) == 1:
        return states[0]
    return Reduced(merge_sweeps(*(s.sweep for s in states)), sum((s.parts for s in states), ()))


def finish(state: Reduced) -> tuple[SweepResult, tuple[tuple[np.ndarray, ...], ...]]:
    """The areas and best thresholds of the whole curve and its display points (a task: the client
    receives these alone)."""
    return state.sweep.result(), state.parts


def whole_column(
    tables: Sequence[PartitionTable],
    *,
    column: int,
    flips: Sequence[bool],
    pos_label: Any,
    metrics: Sequence[Metric],
    directory: str | None,
) -> tuple[SweepResult, tuple[tuple[np.ndarray, ...], ...]]:
    """A score column of one range, from the partitions' tables to its result, in one task: the
    partitions' counts merged (:func:`~._partitions.merge_range`), swept and finished as
    :func:`reduce_range` and :func:`finish` do, its curve written into ``directory`` if given."""
    table = merge_range([column_piece(t, column, flip) for t, flip in zip(tables, flips)], pos_label)
    return finish(reduce_range(table, offsets([range_size(table)]), number=0, metrics=metrics, directory=directory))


def range_sizes(tables: Sequence[CountTable | None]) -> tuple[tuple[int, float, float], ...]:
    """:func:`range_size` of score range ``r`` of several columns (a task)."""
    return tuple(range_size(t) for t in tables)


def reduce_ranges(
    tables: Sequence[CountTable | None],
    offs: Sequence[Offsets],
    *,
    number: int,
    counts: Sequence[int],
    metrics: Sequence[Metric],
    directories: Sequence[str | None],
) -> tuple[Reduced | None, ...]:
    """:func:`reduce_range` of score range ``number`` of several columns (a task); ``None`` for a column of
    ``counts[j] <= number`` ranges (nothing swept, nothing written)."""
    return tuple(
        reduce_range(t, o, number=number, metrics=metrics, directory=d) if number < k else None
        for t, o, k, d in zip(tables, offs, counts, directories)
    )


def merge_all(*states: Sequence[Reduced | None]) -> tuple[Reduced | None, ...]:
    """Neighbouring ranges' reductions merged column by column (a task); a column's ``None`` (no such
    range) changes nothing."""
    merged: list[Reduced | None] = []
    for column in zip(*states):
        present = [s for s in column if s is not None]
        merged.append(merge_reduced(*present) if present else None)
    return tuple(merged)


def finish_all(
    *states: Sequence[Reduced | None],
) -> tuple[tuple[SweepResult, tuple[tuple[np.ndarray, ...], ...]], ...]:
    """The last neighbouring ranges merged (:func:`merge_all`) and :func:`finish` column by column (a task:
    the client receives these alone)."""
    return tuple(finish(s) for s in merge_all(*states) if s is not None)


def tree(add: Callable[..., Any], states: list[Any], merge: Callable[..., Any], last: Callable[..., Any]) -> Any:
    """The key of ``last`` of the ranges' states, merged in range order by ``merge`` in a tree of
    :data:`FAN_IN` states per task (``add(func, *args)``: a task's key)."""
    while len(states) > FAN_IN:
        states = [
            add(merge, *states[i : i + FAN_IN]) if i + 1 < len(states) else states[i]
            for i in range(0, len(states), FAN_IN)
        ]
    return add(last, *states)


def display_points(parts: Sequence[tuple[np.ndarray, ...]], result: SweepResult, pos_label: Any) -> OperatingPoints:
    """The display subset: the evenly spaced points, the ROC hull's vertices and each best point, with the origin."""
    pieces = [
        (np.array([np.inf]), np.zeros(1), np.zeros(1)),
        *parts,
        (result.hull_thresholds, result.hull_tp, result.hull_fp),
        (
            np.array([b.threshold for b in result.best]),
            np.array([b.tp for b in result.best]),
            np.array([b.fp for b in result.best]),
        ),
    ]
    thresholds, tp, fp = (np.concatenate([np.asarray(p[k], dtype=np.float64) for p in pieces]) for k in range(3))
    _, keep = np.unique(-thresholds, return_index=True)  # one row per threshold, decreasing
    return OperatingPoints.from_arrays(thresholds[keep], tp[keep], fp[keep], pos_label)
