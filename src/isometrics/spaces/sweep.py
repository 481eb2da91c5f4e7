"""Areas and best thresholds from a count table seen one segment at a time (the sweep).

The score-ordered count table (thresholds decreasing, cumulative weighted ``tp`` and ``fp``)
is cut into contiguous segments of operating points. A :class:`Sweep` takes them in order
(:meth:`Sweep.update`) and keeps, whatever the table's length:

* one :class:`~isometrics._core.summation.BlockSum` per area (AUROC, average precision,
  AUPRG, the count-interpolated PR area of :func:`~isometrics.spaces.auc_pr_interpolated`): the
  terms of :mod:`._terms`, numbered by their global position and summed by aligned blocks;
* the vertices of the ROC convex hull so far (for the achievable PR area);
* per metric, the points within a narrow window of the best value so far.

A state built elsewhere for the range that starts where this one ends (a Dask worker's
score range, a later batch of a file) is appended with :meth:`Sweep.merge`. However the
points were cut, :meth:`Sweep.result` gives the same doubles as the in-memory engine
(``OperatingPoints.auroc()``, ``best_threshold``...), which goes through the same term
functions and the same block sums. The ROC hull is decided by exact cross products for
integer counts (while ``P N`` stays below 2**53, every cross product is exact); with
other weights a near-collinear vertex may be decided differently, which moves the
achievable area by a rounding error at most.

Memory: a few arrays of one segment, the hull's vertices, the tied candidates, and one
float per 65,536 points per area.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import in_body, validate_params
from .._core.count_table import CountTable, normalising_exponent
from .._core.parameters import check_integer
from .._core.summation import BlockSum
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics._arguments import parse_metric_arguments
from ..metrics.registry import Metric
from ._terms import AREAS as _AREA_TERMS
from ._terms import CHUNK, _Candidates, _gain_ready, achievable_area, area_from_sum, metric_values, scores_of
from .hull import _upper_hull
from .thresholds import BestThreshold, _best_from_candidates

__all__ = ["AREAS", "Sweep", "SweepResult", "sweep_table"]

#: The areas a sweep can accumulate, by the name of their public function.
AREAS = tuple(_AREA_TERMS)

#: The areas summed term by term over the points (the achievable area is summed over the hull at the end).
_SUMMED = tuple(name for name in AREAS if name != "auc_pr_achievable")


@dataclass(frozen=True)
class SweepResult:
    """What a complete sweep reports.

    Attributes
    ----------
    n_positives, n_negatives : float
        Class totals (weighted), in the caller's units.
    n_points : int
        Operating points, the origin (threshold ``inf``) included.
    auroc, average_precision, auprg, auc_pr_interpolated, auc_pr_achievable : float
        The areas (see the public functions of the same names); NaN for an area the sweep
        was not asked for.
    best : tuple of BestThreshold
        The best threshold of each metric asked for, in their order (ties resolved as
        :func:`isometrics.best_threshold` resolves them).
    hull_thresholds, hull_tp, hull_fp : ndarray of shape (n_vertices,), float64
        The ROC convex hull's vertices (thresholds decreasing, counts in the caller's
        units); empty when ``auc_pr_achievable`` was not asked for.
    """

    n_positives: float
    n_negatives: float
    n_points: int
    auroc: float
    average_precision: float
    auprg: float
    auc_pr_interpolated: float
    auc_pr_achievable: float
    best: tuple[BestThreshold, ...]
    hull_thresholds: FloatArray
    hull_tp: FloatArray
    hull_fp: FloatArray


class Sweep:
    """Exact areas and best thresholds accumulated over consecutive segments of a count table.

    Parameters
    ----------
    n_positives, n_negatives : float
        The class totals ``P`` and ``N`` of the whole table (weighted, > 0, finite): every
        term needs them, so they are known before the sweep (a first pass, or the count
        table's group-by, gives them).
    metrics : sequence of str or Metric, default=()
        Metrics whose best threshold to track (see :func:`isometrics.parse_metric`).
    areas : iterable of str, default=AREAS
        Which of :data:`AREAS` to accumulate (all by default).

    Raises
    ------
    InvalidParameterError
        If a total is not a finite number > 0, a metric cannot be parsed, or an area is unknown.

    Notes
    -----
    Operating point 0 is the origin (threshold ``+inf``, ``tp = fp = 0``); segments hold
    points ``1, 2, ...`` and the origin is implied by the segment that starts at point 1.
    Counts are divided by the power of two of ``CountTable.normalised`` when the totals
    are extreme, as the in-memory engine does, so both see the same doubles.

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics import OperatingPoints
    >>> from isometrics.spaces.sweep import Sweep
    >>> op = OperatingPoints.from_scores([0, 0, 1, 1, 0, 1], [.1, .4, .35, .8, .7, .9])
    >>> s = Sweep(op.n_positives, op.n_negatives, metrics=["f1"])
    >>> s.update(op.thresholds[1:3], op.tp[1:3], op.fp[1:3])              # points 1, 2
    >>> s.update(op.thresholds[3:], op.tp[3:], op.fp[3:])                 # points 3, ...
    >>> r = s.result()
    >>> r.auroc == op.auroc(), r.best[0].threshold == op.best_threshold("f1").threshold
    (True, True)
    """

    @validate_params(in_body("n_positives", "n_negatives", "metrics", "areas"), name="Sweep")
    def __init__(
        self,
        n_positives: float,
        n_negatives: float,
        *,
        metrics: Sequence[str | Metric] = (),
        areas: Iterable[str] = AREAS,
    ) -> None:
        for name, total in (("n_positives", n_positives), ("n_negatives", n_negatives)):
            if (
                isinstance(total, bool)
                or not isinstance(total, (int, float, np.integer, np.floating))
                or not (math.isfinite(float(total)) and float(total) > 0)
            ):
                raise InvalidParameterError(
                    f"{current_caller()}: `{name}` must be a finite number > 0 (a class total); got {total!r}."
                )
        self.n_positives, self.n_negatives = float(n_positives), float(n_negatives)
        self.metrics = tuple(parse_metric_arguments(metrics))
        self.areas = tuple(areas)
        unknown = [a for a in self.areas if a not in AREAS]
        if unknown:
            raise InvalidParameterError(f"{current_caller()}: unknown area(s) {unknown}; choose among {list(AREAS)}.")
        self._exponent = normalising_exponent(self.n_positives, self.n_negatives)
        self._P, self._N = self._scaled(self.n_positives), self._scaled(self.n_negatives)
        if "auprg" in self.areas:
            _gain_ready(self._P, self._N)
        self.start: int | None = None  # global index of the first point seen
        self.stop: int | None = None  # one past the last point seen
        self._first: tuple[float, float] | None = None  # raw counts of the point before the first
        self._last: tuple[float, float] | None = None  # raw counts of the last point seen
        self._sums: dict[str, BlockSum] = {}
        self._candidates = [_Candidates(m) for m in self.metrics]
        # hull vertices so far: global index, threshold, normalised tp and fp
        self._hull = (np.empty(0, dtype=np.int64), np.empty(0), np.empty(0), np.empty(0))

    def _scaled(self, values: Any) -> Any:
        return values if self._exponent == 0 else np.ldexp(values, -self._exponent)

    @validate_params(in_body("thresholds", "tp", "fp", "start", "previous"), name="Sweep.update")
    def update(
        self,
        thresholds: ArrayLike,
        tp: ArrayLike,
        fp: ArrayLike,
        *,
        start: int | None = None,
        previous: tuple[float, float] | None = None,
    ) -> None:
        """Add one segment of consecutive operating points.

        Parameters
        ----------
        thresholds : array-like of shape (L,)
            The segment's thresholds, decreasing.
        tp, fp : array-like of shape (L,)
            Cumulative weighted true and false positives at those thresholds, counted from
            the top of the whole table (not from the segment's start), non-decreasing.
        start : int, optional
            Global index of the segment's first point (>= 1). On the first call it defaults
            to 1; later calls continue where the previous one ended (``start``, when given,
            must say so).
        previous : tuple of float, optional
            ``(tp, fp)`` of the point just before the segment: needed on the first call when
            ``start > 1``; the origin ``(0, 0)`` when ``start == 1``; the last point seen on
            later calls.

        Raises
        ------
        InvalidParameterError
            If the arrays differ in length or are not 1-D, counts decrease, or ``start`` and
            ``previous`` do not continue the points seen.
        """
        thr = np.asarray(thresholds, dtype=np.float64).ravel()
        tp_raw = np.asarray(tp, dtype=np.float64).ravel()
        fp_raw = np.asarray(fp, dtype=np.float64).ravel()
        if not (len(thr) == len(tp_raw) == len(fp_raw)):
            raise InvalidParameterError(
                f"{current_caller()}: thresholds, tp and fp must have one length; got {len(thr)}, {len(tp_raw)}, {len(fp_raw)}."
            )
        if self.stop is None:
            begin = 1 if start is None else int(start)
            if begin < 1:
                raise InvalidParameterError(
                    f"{current_caller()}: `start` is the global index of the segment's first point, "
                    f">= 1 (point 0 is the origin); got {start}."
                )
            if previous is None:
                if begin != 1:
                    raise InvalidParameterError(
                        f"{current_caller()}: a first segment starting at point {begin} needs "
                        "`previous=(tp, fp)`, the counts of the point before it."
                    )
                previous = (0.0, 0.0)
            before = (float(previous[0]), float(previous[1]))
            self.start, self.stop, self._first, self._last = begin, begin, before, before
            self._sums = {a: BlockSum(begin - 1) for a in self.areas if a in _SUMMED}
            if begin == 1:
                self._add_points(np.zeros(1, dtype=np.int64), np.array([np.inf]), np.zeros(1), np.zeros(1))
        else:
            if start is not None and int(start) != self.stop:
                raise InvalidParameterError(
                    f"{current_caller()}: this sweep has seen points up to {self.stop - 1}; the next "
                    f"segment starts at {self.stop}, not {start}."
                )
            if previous is not None and (float(previous[0]), float(previous[1])) != self._last:
                raise InvalidParameterError(
                    f"{current_caller()}: `previous` {previous} is not the last point seen {self._last}."
                )
        if len(thr) == 0:
            return
        assert self._last is not None and self.stop is not None
        ext_tp = np.concatenate(([self._last[0]], tp_raw))
        ext_fp = np.concatenate(([self._last[1]], fp_raw))
        if np.any(np.diff(ext_tp) < 0) or np.any(np.diff(ext_fp) < 0):
            raise InvalidParameterError(
                f"{current_caller()}: tp and fp must be cumulative counts, non-decreasing from the "
                "point before the segment on; sort the count table by decreasing score and "
                "accumulate it over the whole table."
            )
        ext_tp, ext_fp = self._scaled(ext_tp), self._scaled(ext_fp)
        for name, acc in self._sums.items():
            acc.add(_AREA_TERMS[name][0](ext_tp, ext_fp, self._P, self._N))
        index = np.arange(self.stop, self.stop + len(thr), dtype=np.int64)
        self._add_points(index, thr, tp_raw, fp_raw, ext_tp[1:], ext_fp[1:])
        self.stop += len(thr)
        self._last = (float(tp_raw[-1]), float(fp_raw[-1]))

    def _add_points(
        self,
        index: np.ndarray,
        thr: FloatArray,
        tp_raw: FloatArray,
        fp_raw: FloatArray,
        tp: FloatArray | None = None,
        fp: FloatArray | None = None,
    ) -> None:
        """Offer points to the best-threshold candidates and the hull (``tp``, ``fp``: normalised)."""
        tp = self._scaled(tp_raw) if tp is None else tp
        fp = self._scaled(fp_raw) if fp is None else fp
        for c in self._candidates:
            values = metric_values(tp, fp, self._P, self._N, c.metric)
            c.add(index, thr, tp_raw, fp_raw, scores_of(c.metric, values), values)
        if "auc_pr_achievable" in self.areas:
            self._hull_add(index, thr, tp, fp)

    def _hull_add(self, index: np.ndarray, thr: FloatArray, tp: FloatArray, fp: FloatArray) -> None:
        """The hull of the vertices so far and the new points' own hull (points under a partial
        hull are under the whole one, so they can go)."""
        own = _upper_hull(fp, tp)
        parts = [np.concatenate((old, new[own])) for old, new in zip(self._hull, (index, thr, tp, fp))]
        keep = _upper_hull(parts[3], parts[2])
        self._hull = (parts[0][keep], parts[1][keep], parts[2][keep], parts[3][keep])

    @validate_params(in_body("other"), name="Sweep.merge")
    def merge(self, other: Sweep) -> None:
        """Append the state of the range that starts where this one ends.

        Parameters
        ----------
        other : Sweep
            A sweep of the same totals, metrics and areas, whose first point follows this
            sweep's last (its ``previous`` was this sweep's last point). An empty sweep
            (no update) changes nothing.

        Raises
        ------
        InvalidParameterError
            If ``other`` is not a :class:`Sweep`, was set up differently, or does not start
            where this one ends.
        """
        if not isinstance(other, Sweep):
            raise InvalidParameterError(f"{current_caller()}: `other` is a {type(other).__name__}, not a Sweep.")
        if (other.n_positives, other.n_negatives, other.areas, [m.spec for m in other.metrics]) != (
            self.n_positives,
            self.n_negatives,
            self.areas,
            [m.spec for m in self.metrics],
        ):
            raise InvalidParameterError(
                f"{current_caller()}: the two sweeps have different totals, areas or metrics; build "
                "every range's Sweep with the same arguments."
            )
        if other.stop is None:
            return
        if self.stop is None:  # a copy: merging more into this sweep must not change `other`
            self.__setstate__(copy.deepcopy(other.__getstate__()))
            return
        if other.start != self.stop or other._first != self._last:
            raise InvalidParameterError(
                f"{current_caller()}: the other range starts at point {other.start} after counts {other._first}, but this one "
                f"ends before point {self.stop} with counts {self._last}; merge ranges in score order, each "
                "starting where the previous ended."
            )
        for name, acc in self._sums.items():
            acc.merge(other._sums[name])
        for mine, theirs in zip(self._candidates, other._candidates):
            mine.merge(theirs)
        if "auc_pr_achievable" in self.areas and len(other._hull[0]):
            self._hull_add(*other._hull)
        self.stop, self._last = other.stop, other._last

    def __getstate__(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _STATE}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name in _STATE:
            setattr(self, name, state[name])

    def result(self) -> SweepResult:
        """The areas and best thresholds of the whole table.

        Returns
        -------
        SweepResult

        Raises
        ------
        IsometricsError
            If the sweep has not seen every point, from point 1 to the last (whose counts
            are the totals); or a metric is undefined at every threshold.
        """
        if self.start != 1 or self._last != (self.n_positives, self.n_negatives):
            raise IsometricsError(
                f"Sweep.result: the sweep covers points {self.start} to {None if self.stop is None else self.stop - 1} "
                f"ending at counts {self._last}, not the whole table from point 1 to the totals "
                f"({self.n_positives}, {self.n_negatives}); update or merge the missing segments first."
            )
        P, N = self._P, self._N
        areas = {name: math.nan for name in AREAS}
        for name, acc in self._sums.items():
            areas[name] = area_from_sum(name, acc.total(), P, N)
        _, hull_thr, hull_tp, hull_fp = self._hull
        if "auc_pr_achievable" in self.areas:
            areas["auc_pr_achievable"] = achievable_area(hull_tp, hull_fp, P, N)
        best = tuple(_best_from_candidates(c, self.n_positives, self.n_negatives) for c in self._candidates)
        unscale = (lambda v: v) if self._exponent == 0 else (lambda v: np.ldexp(v, self._exponent))
        assert self.stop is not None
        return SweepResult(
            self.n_positives,
            self.n_negatives,
            self.stop,
            best=best,
            hull_thresholds=hull_thr,
            hull_tp=unscale(hull_tp),
            hull_fp=unscale(hull_fp),
            **areas,
        )

    def __repr__(self) -> str:
        span = "empty" if self.stop is None else f"points {self.start}..{self.stop - 1}"
        return (
            f"Sweep(n_positives={self.n_positives:g}, n_negatives={self.n_negatives:g}, {span}, "
            f"metrics={[m.spec for m in self.metrics]})"
        )


_STATE = (
    "n_positives",
    "n_negatives",
    "metrics",
    "areas",
    "_exponent",
    "_P",
    "_N",
    "start",
    "stop",
    "_first",
    "_last",
    "_sums",
    "_candidates",
    "_hull",
)


@validate_params(in_body("op", "metrics", "areas", "chunk"))
def sweep_table(
    op: CountTable, *, metrics: Sequence[str | Metric] = (), areas: Iterable[str] = AREAS, chunk: int = CHUNK
) -> SweepResult:
    """A whole count table swept in segments of ``chunk`` points (what the engine computes, in bounded memory).

    Parameters
    ----------
    op : OperatingPoints
        The table, with both classes.
    metrics, areas
        As for :class:`Sweep`.
    chunk : int, default=CHUNK
        Points per segment (>= 1); the result does not depend on it.

    Returns
    -------
    SweepResult

    Raises
    ------
    IsometricsError
        If the table has one class only.
    InvalidParameterError
        If ``chunk`` is not an integer >= 1.
    """
    op.require_both_classes("sweep_table")
    state = Sweep(op.n_positives, op.n_negatives, metrics=metrics, areas=areas)
    step = check_integer(chunk, "chunk", low=1)
    for k in range(1, op.n_points, step):
        state.update(op.thresholds[k : k + step], op.tp[k : k + step], op.fp[k : k + step])
    return state.result()
