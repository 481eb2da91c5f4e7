"""Curves thinned to a display resolution while the count table streams past.

The rule, with its guarantee. Each operating point falls in a cell of a grid of side
``1 / resolution`` in each of three spaces: ROC (FPR, TPR), PR (recall, precision) and PRG
(recall gain, precision gain; values below 0 share cell -1 of their axis, as do values
above 1 cell ``resolution``). A *run* is a maximal stretch of consecutive points whose cells
agree in all three spaces. The first and the last point of every run are kept, plus every
vertex of the ROC convex hull (whose image is the PRG hull) and each best point. The kept
points do not depend on how the points were cut into batches: a batch's last point waits
for the next batch to tell whether it ends a run.

Guarantee: the points of a run lie in one cell, and so does the straight segment drawn
between its first and last point; between runs the drawn segment is the exact one. So in
each of the three spaces (inside the unit square for PRG) the polyline through the kept
points and the exact one are within ``1 / resolution`` of each other in each coordinate:
every point of either lies within that distance, per coordinate, of a point of the other.
Kept points are exact operating points. FPR, TPR and recall gain only grow along the curve,
so they start at most ``3 (resolution + 2)`` runs; precision can go up and down, so the
number of runs it starts is bounded by the data, not by the resolution (in practice a few
times the resolution, near the top of the ranking where precision is noisy).
"""

from __future__ import annotations

import numpy as np

from .._core.count_table import CountTable
from .._typing import FloatArray
from ..spaces.hull import upper_hull_indices

__all__: list[str] = []

#: Points per block whose corner cells are compared before the cells of its points are computed:
#: a block whose corners differ is cut into blocks of the next size, then into its points.
_BLOCKS = (64, 8)


class StreamingDisplay:
    """The display subset of one score column's operating points, built batch by batch.

    Feed it consecutive points in score order (:meth:`update`: their global indices start at
    ``start``; thresholds and cumulative counts), then read :meth:`points` (adding the best
    points). Memory: the kept points and the hull vertices.
    """

    def __init__(self, n_positives: float, n_negatives: float, resolution: int, *, exact: bool = False) -> None:
        self.P, self.N, self.res = float(n_positives), float(n_negatives), int(resolution)
        # whole counts whose sums are exact: every cell is then monotone in tp and in fp (see _changes)
        self.exact = bool(exact)
        self.prevalence = self.P / (self.P + self.N)
        # point 0: threshold +inf, no sample predicted positive
        origin = (np.array([0]), np.array([np.inf]), np.zeros(1), np.zeros(1))
        self._kept: list[tuple[np.ndarray, FloatArray, FloatArray, FloatArray]] = [origin]
        self._hull = origin
        self._last_cells = [float(c[0]) for c in self._coordinates(np.zeros(1), np.zeros(1))]
        # the last point seen, kept only if the next point starts a new run (or no point follows)
        self._pending: tuple[np.ndarray, FloatArray, FloatArray, FloatArray] | None = None

    def _coordinates(self, tp: FloatArray, fp: FloatArray) -> list[FloatArray]:
        """Each point's cell along FPR, TPR, precision, recall gain and precision gain: ``floor(value *
        resolution)``, values below 0 in cell -1 (floats; NaN only at the origin, which has no prediction)."""
        res = self.res
        tpr = tp / self.P
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = tp / (tp + fp)
            c = self.prevalence / (1.0 - self.prevalence)
            recall_gain = 1.0 - c * (1.0 - tpr) / tpr  # (x - pi) / ((1 - pi) x), x = recall
            precision_gain = 1.0 - c * (1.0 - precision) / precision
            out = []
            for values in (fp / self.N, tpr, precision, recall_gain, precision_gain):
                values *= res
                np.clip(values, -1.0, res, out=values)
                out.append(np.floor(values, out=values))
        return out

    def _runs(self, tp: FloatArray, fp: FloatArray) -> np.ndarray:
        """Whether each of these consecutive points starts a new run: a cell differs from the point
        before's (the first point's from the last point of the previous batch)."""
        changed = np.zeros(len(tp), dtype=bool)
        last = []
        for k, cells in enumerate(self._coordinates(tp, fp)):
            changed[1:] |= cells[1:] != cells[:-1]
            before = self._last_cells[k]
            changed[0] |= not (cells[0] == before or (np.isnan(cells[0]) and np.isnan(before)))
            last.append(cells[-1])
        self._last_cells = last
        return changed

    def _changes(self, tp: FloatArray, fp: FloatArray) -> np.ndarray:
        """:meth:`_runs` of the batch, evaluated only where a cell may change.

        With whole counts summed exactly (``exact``), ``tp + fp`` is exact, so every coordinate
        is a correctly rounded monotone function of ``tp`` and of ``fp`` (FPR, TPR and the recall
        gain of one of them; precision and its gain rise with ``tp`` and fall with ``fp``), and
        so are the product by the resolution, the clip and the floor. Over a block of
        consecutive points (``tp`` and ``fp`` non-decreasing) each cell then lies between its
        values at the two corners ``(tp_first, fp_last)`` and ``(tp_last, fp_first)``: where
        they agree in all five coordinates, every point of the block shares their cells. The
        cells are computed at the first and last point of each such block; a block whose
        corners differ (or hold a NaN) is cut into the finer blocks of :data:`_BLOCKS` and
        tested again, and at the last level each of its points is computed. Two consecutive
        computed points with points between them then lie in one uniform block, so comparing
        the computed points gives the same flags as computing every cell, for about 9 % of the
        points at 10^7 (more near the top of the ranking, where precision is noisy).
        """
        n = len(tp)
        if not self.exact or n < 4 * _BLOCKS[0]:
            return self._runs(tp, fp)
        needed = np.zeros(n, dtype=bool)
        first = np.arange(0, n, _BLOCKS[0])
        for size, finer in zip(_BLOCKS, (*_BLOCKS[1:], 1)):
            last = np.minimum(first + (size - 1), n - 1)
            needed[first] = True
            needed[last] = True
            low = self._coordinates(tp[first], fp[last])
            high = self._coordinates(tp[last], fp[first])
            mixed = np.zeros(len(first), dtype=bool)
            for a, b in zip(low, high):
                mixed |= a != b  # NaN != NaN: a block with a NaN cell is computed point by point
            # the blocks where a cell may change, cut into finer blocks (the last level: their points)
            first = (first[mixed][:, None] + np.arange(0, size, finer)).ravel()
            first = first[first < n]
        needed[first] = True
        where = np.flatnonzero(needed)
        changed = np.zeros(n, dtype=bool)
        changed[where] = self._runs(tp[where], fp[where])
        return changed

    def update(self, start: int, thresholds: FloatArray, tp: FloatArray, fp: FloatArray) -> None:
        """Points ``start .. start + len(tp) - 1`` (global indices in score order; point 0 is +inf)."""
        if len(tp) == 0:
            return
        changed = self._changes(tp, fp)
        if self._pending is not None and changed[0]:  # the previous batch's last point ended a run
            self._kept.append(self._pending)
        keep = changed.copy()
        keep[:-1] |= changed[1:]  # the last point of a run (the one before a change)
        index = np.arange(start, start + len(tp))
        # the batch's last point, unless it starts a run (kept already): whether it ends one shows next
        self._pending = None if keep[-1] else (index[-1:], thresholds[-1:].copy(), tp[-1:].copy(), fp[-1:].copy())
        self._kept.append((index[keep], thresholds[keep].copy(), tp[keep].copy(), fp[keep].copy()))
        # the hull of everything so far is the hull of (the previous hull + this batch)
        h_idx, h_t, h_tp, h_fp = (np.concatenate([a, b]) for a, b in zip(self._hull, (index, thresholds, tp, fp)))
        table = CountTable(thresholds=h_t, tp=h_tp, fp=h_fp)
        vertices = upper_hull_indices(table.normalised)
        self._hull = (h_idx[vertices], h_t[vertices], h_tp[vertices], h_fp[vertices])

    def points(self, extra: list[tuple[int, float, float, float]]) -> tuple[FloatArray, FloatArray, FloatArray]:
        """Thresholds, tp and fp of the kept points, hull vertices and ``extra`` points
        ``(index, threshold, tp, fp)``, in score order, each once."""
        parts = [*self._kept, self._hull]
        if self._pending is not None:  # the very last point ends the last run
            parts.append(self._pending)
        if extra:
            parts.append(tuple(np.array(column) for column in zip(*extra)))  # type: ignore[arg-type]
        index = np.concatenate([p[0] for p in parts]).astype(np.int64)
        order = np.unique(index, return_index=True)[1]
        return tuple(
            np.concatenate([p[k] for p in parts]).astype(np.float64)[order]  # type: ignore[return-value]
            for k in (1, 2, 3)
        )
