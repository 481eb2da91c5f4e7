"""The resampling engine: a bootstrap replicate is a vector of multinomial counts on the
already-sorted samples, aggregated per tie group and cumulated, never a second sort.

Each replicate's operating points are exactly those of the explicitly resampled data (groups
drawn zero times are dropped, as zero-weight samples are). Also the jackknife and the fast
path for the areas.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

import numpy as np

from .._typing import FloatArray
from ..spaces.operating_points import OperatingPoints
from ._inputs import _progress
from ._replicates import FAST_AREAS, PositiveSteps, RowCells, RowCounts, RowSteps


def _tie_groups(scores: FloatArray, n_groups: int) -> np.ndarray:
    """0-based tie group (in decreasing score order) of each score, there being ``n_groups`` distinct
    scores: the runs of equal values in an unstable ascending ``argsort``, numbered from the top.

    The same indices as searching each score among the distinct ones, ten times faster at 10^6
    scores: a vectorised sort streams through memory, while 10^6 binary searches of a 10^6-long
    table miss the cache at every step.
    """
    if not len(scores):
        return np.zeros(0, dtype=np.intp)
    order = np.argsort(scores)
    ascending = scores[order]
    run = np.empty(len(scores), dtype=np.intp)
    run[0] = n_groups - 1
    np.subtract(n_groups - 1, np.cumsum(ascending[1:] != ascending[:-1]), out=run[1:])
    group = np.empty(len(scores), dtype=np.intp)
    group[order] = run
    return group


class Resampler:
    """Draws bootstrap replicates as counts and turns them into operating points, no sort.

    Unweighted data are resampled in "sorted space": the positives (and the negatives)
    are numbered in decreasing score order, group ``g`` holding positives
    ``tp[g-1] .. tp[g]-1``; drawing positions uniformly is drawing samples uniformly,
    and cumulative draw counts at the group ends are the replicate's true and false
    positives. With few tie groups the counts of each (group, class) cell are drawn
    directly, a multinomial over the cells, which has the same distribution as drawing
    the samples (it is their aggregate). Weighted data, and paired comparisons (which
    must draw the same samples for every scorer), draw per sample (:meth:`row_counts`: how
    many times each row is drawn, multinomial(n; 1/n, ..., 1/n), drawn block by block) and
    go through each sample's tie group with one ``bincount``. ``op``: the operating points
    of these scores when the caller already has them (no second sort).

    Seeds: a seeded generator gives the same replicates from one release to the next unless
    the draw changes; the per-row draw changed after 0.1.0 (block draws instead of
    ``np.bincount(rng.integers(0, n, n))``): the same distribution, other rows for a seed.

    ``frequency=True``: the (integer) weights are frequencies, each row standing for
    that many identical samples, and the units resampled are those samples, not the
    rows: the replicate is a multinomial count per row (or per (group, class) cell, their
    aggregate) of the ``W = sum(w)`` samples with probabilities ``w / W`` (per class when
    stratified), each drawn sample weighing 1. This is exactly the bootstrap of the data
    expanded to one row per sample, in O(rows) per replicate whatever ``W``.

    Parameters
    ----------
    is_pos : ndarray of bool of shape (n_samples,)
        The validated labels.
    scores : ndarray of float64 of shape (n_samples,)
        The validated scores.
    weights : ndarray of float64 of shape (n_samples,) or None
        The validated weights, or ``None``.
    stratified : bool
        Whether each class is resampled on its own (its size kept).
    per_sample : bool, default=False
        Draw per sample even without weights (paired comparisons, the jackknife).
    op : OperatingPoints, optional
        The operating points of these scores when the caller has them (no second sort).
    frequency : bool, default=False
        Whether the weights are frequencies (see above).
    """

    def __init__(
        self,
        is_pos: np.ndarray,
        scores: FloatArray,
        weights: FloatArray | None,
        stratified: bool,
        *,
        per_sample: bool = False,
        op: OperatingPoints | None = None,
        frequency: bool = False,
    ):
        self.op = OperatingPoints.from_validated(is_pos, scores, weights, True) if op is None else op
        self.stratified = stratified
        self.frequency = frequency and weights is not None
        # Paired comparisons need the same samples for every scorer: draw per sample.
        # Frequencies are drawn per (group, class) cell like unweighted data, or per row.
        self.weighted = (weights is not None and not self.frequency) or per_sample
        self.units: FloatArray | None = None  # per row: how many samples it stands for (frequencies)
        self._reduced: tuple[np.ndarray, np.ndarray] | None = None  # see _steps
        if self.weighted:
            weights = np.ones(len(scores)) if weights is None else weights
            keep = weights > 0
            self.is_pos, self.weights = is_pos[keep], weights[keep]
            if self.frequency:  # a drawn sample weighs 1; the rows' frequencies set the draw
                self.units, self.weights = self.weights, np.ones(int(keep.sum()))
            self.scores = scores if keep.all() else scores[keep]  # the rows kept (group: their tie groups)
            self.unit_weights = bool(np.all(self.weights == 1.0))
            self.pos_index = np.flatnonzero(self.is_pos)
            self.neg_index = np.flatnonzero(~self.is_pos)
            # the one per-row draw (see counts): every row, or each class's rows when stratified
            self.rows: tuple[RowCounts, ...] = (
                (RowCounts(len(self.pos_index)), RowCounts(len(self.neg_index)))
                if self.stratified
                else (RowCounts(len(self.is_pos)),)
            )
        else:
            self.P, self.N = int(self.op.n_positives), int(self.op.n_negatives)
            self.tp_end = self.op.tp[1:].astype(np.int64)  # positives up to the end of each group
            self.fp_end = self.op.fp[1:].astype(np.int64)
            # Few tie groups: draw how many samples of each (group, class) cell the replicate
            # holds, a multinomial over the cells, in O(groups) instead of O(samples).
            # Frequencies always: a cell holds the summed frequencies of its rows.
            self.cells = self.frequency or self.op.n_points - 1 <= (self.P + self.N) // 4
            if self.cells:
                self.pos_cells, self.neg_cells = self.op.dtp, self.op.dfp

    def counts(self, rng: np.random.Generator) -> tuple[Any, Any]:
        """One replicate's draws: (positives, negatives) as whatever :meth:`build` takes (per-row
        draws: each row's count, float64 whole numbers, ready to weigh with; frequencies: int64)."""
        if self.weighted:
            n = len(self.is_pos)
            if self.units is not None:  # frequencies: draw the samples the rows stand for
                if not self.stratified:
                    total = int(self.units.sum())
                    return rng.multinomial(total, self.units / total), None
                counts = np.zeros(n, dtype=np.int64)
                for index in (self.pos_index, self.neg_index):
                    units = self.units[index]
                    total = int(units.sum())
                    counts[index] = rng.multinomial(total, units / total)
                return counts, None
            return self.row_counts(rng, np.float64), None
        if self.cells:
            n = self.P + self.N
            if self.stratified:
                return (
                    rng.multinomial(self.P, self.pos_cells / self.P),
                    rng.multinomial(self.N, self.neg_cells / self.N),
                )
            both = rng.multinomial(n, np.concatenate([self.pos_cells, self.neg_cells]) / n)
            G = len(self.pos_cells)
            return both[:G], both[G:]
        if self.stratified:
            k_pos, k_neg = self.P, self.N
        else:
            k_pos = int(rng.binomial(self.P + self.N, self.P / (self.P + self.N)))
            k_neg = self.P + self.N - k_pos
        return rng.integers(0, self.P, k_pos), rng.integers(0, self.N, k_neg)

    @cached_property
    def group(self) -> np.ndarray:
        """Per-sample draws: each kept row's 0-based tie group, in decreasing score (an ``argsort``,
        taken when first asked: a fixed threshold's counts need none)."""
        return _tie_groups(self.scores, self.op.n_points - 1)

    @cached_property
    def cell(self) -> np.ndarray:
        """Each kept row's (group, class) cell, ``2 g`` for positives and ``2 g + 1`` for negatives:
        one ``bincount`` a replicate."""
        return 2 * self.group + (~self.is_pos)

    def row_counts(self, rng: np.random.Generator, dtype: type = np.int64) -> np.ndarray:
        """One replicate drawn per row (per-sample resamplers, without frequencies): how many times
        each row is drawn, shape (n_rows,), of ``dtype`` (int64, or float64: whole numbers; a narrower
        integer type where no count can overflow it, int64 otherwise: :meth:`RowCounts.draw`).

        The rows are drawn uniformly with replacement, as many as there are (each class's rows
        among themselves when stratified): the counts are multinomial(n; 1/n, ..., 1/n) (per class),
        drawn block by block (:class:`RowCounts`). The one home of this draw: paired comparisons,
        the groups' replicates and :func:`~isometrics.decide`'s summary on a comparison's replicates
        all draw through it, so the same generator state gives the same rows everywhere.
        """
        if not self.stratified:
            return self.rows[0].draw(len(self.is_pos), rng, dtype)
        counts: np.ndarray = np.empty(len(self.is_pos), dtype=dtype)
        for index, rows in zip((self.pos_index, self.neg_index), self.rows):
            part = rows.draw(len(index), rng, dtype)
            if part.dtype != counts.dtype:  # a narrow draw widened: so does the replicate
                counts = counts.astype(part.dtype)
            counts[index] = part
        return counts

    def point_counts(self, index: int) -> Callable[[np.random.Generator], tuple[float, float, float, float] | None]:
        """A function of the generator: one replicate's ``(tp, fp, fn, tn)`` at the operating point
        ``index`` of :attr:`op`, or ``None`` when it lacks a class; :meth:`counter` of :meth:`counts`.

        Rows drawn per row with unit weights (no frequencies): the same replicate from the same
        generator state, the draws summed by (class, flagged) cell as they are drawn
        (:meth:`RowCounts.draw_cells`), without the counts per row; the same numbers.
        """
        if not (self.weighted and self.unit_weights and self.units is None):
            count = self.counter(index)
            return lambda rng: count(self.counts(rng))
        flagged = self.scores >= self.op.thresholds[index] if index > 0 else np.zeros(len(self.scores), bool)
        if not self.stratified:
            # each row's cell: 0 tp, 1 fp, 2 fn, 3 tn
            cell = (2 * ~flagged + ~self.is_pos).astype(np.uint8)
            rows, n = self.rows[0], len(self.is_pos)

            def unstratified(rng: np.random.Generator) -> tuple[float, float, float, float] | None:
                tp, fp, fn, tn = (float(c) for c in rows.draw_cells(n, rng, cell, 4))
                return None if tp + fn == 0 or fp + tn == 0 else (tp, fp, fn, tn)

            return unstratified
        # each class's rows among themselves, positives first (as row_counts): 0 flagged, 1 not
        cells = [(~flagged[index_]).astype(np.uint8) for index_ in (self.pos_index, self.neg_index)]

        def stratified(rng: np.random.Generator) -> tuple[float, float, float, float] | None:
            tp, fn = self.rows[0].draw_cells(len(cells[0]), rng, cells[0], 2)
            fp, tn = self.rows[1].draw_cells(len(cells[1]), rng, cells[1], 2)
            return None if tp + fn == 0 or fp + tn == 0 else (float(tp), float(fp), float(fn), float(tn))

        return stratified

    def _steps(self) -> tuple[np.ndarray, np.ndarray]:
        """The operating points a reduced replicate keeps (indices into :attr:`op`) and each row's
        (segment, class) cell in them: point ``i`` is kept unless the tie groups on both sides of
        it, ``i`` and ``i + 1``, hold no positive of the data (nor of any replicate, which draws
        among them)."""
        if self._reduced is None:
            G = self.op.n_points - 1
            positive = self.op.dtp > 0  # per tie group
            keep = np.zeros(G + 1, dtype=bool)
            keep[0] = keep[G] = True
            keep[1:] |= positive  # after a group with positives
            keep[:-1] |= positive  # before one
            kept = np.flatnonzero(keep)
            segment = np.searchsorted(kept, self.group + 1)  # a row counts from the first kept point after its group
            self._reduced = kept, 2 * segment + (~self.is_pos)
        return self._reduced

    def build(self, draws: tuple[Any, Any], *, compact: bool = False, reduced: bool = False) -> OperatingPoints | None:
        """The replicate's operating points (``None`` if it lacks a class).

        Tie groups drawn zero times repeat the previous operating point; they change no
        area and no metric value, only which thresholds exist. ``compact=True`` drops
        them, so that the thresholds are exactly those of the resampled data (needed when
        the statistic is a threshold).

        ``reduced=True`` (per-sample draws only): also leave out the points inside runs of
        tie groups without positives, keeping each run's two ends: the left-out points lie on
        a horizontal stretch of the ROC curve (a vertical one of the PR and PRG curves), so
        the areas are unchanged and no metric that grows with precision is best there.
        Values of AUROC, average precision, AUPRG and of such metrics at their best
        threshold are those of the full table (to rounding), from about twice as many points
        as positives instead of one per tie group.
        """
        if reduced and self.weighted and not compact:
            kept, cell = self._steps()
            counts = draws[0]
            w = counts if self.unit_weights else counts * self.weights
            cells = np.bincount(cell, weights=w, minlength=2 * len(kept))  # segment 0 (point 0) holds no row
            tp_kept: FloatArray = np.cumsum(cells[0::2])
            fp_kept: FloatArray = np.cumsum(cells[1::2])
            return self._finish(self.op.thresholds[kept], tp_kept, fp_kept, False)
        G = self.op.n_points - 1
        tp, fp = np.empty(G + 1), np.empty(G + 1)
        tp[0] = fp[0] = 0.0
        if self.weighted:
            counts = draws[0]
            w = counts if self.unit_weights else counts * self.weights
            cells = np.bincount(self.cell, weights=w, minlength=2 * G)  # the rows of each cell, in row order
            np.cumsum(cells[0::2], out=tp[1:])
            np.cumsum(cells[1::2], out=fp[1:])
        elif self.cells:
            np.cumsum(draws[0], out=tp[1:])
            np.cumsum(draws[1], out=fp[1:])
        else:
            _cumulative_at(draws[0], self.P, self.tp_end, tp[1:])
            _cumulative_at(draws[1], self.N, self.fp_end, fp[1:])
        return self._finish(self.op.thresholds, tp, fp, compact)

    def _finish(self, thresholds: FloatArray, tp: FloatArray, fp: FloatArray, compact: bool) -> OperatingPoints | None:
        """The operating points of a replicate's cumulative counts (None when it lacks a class)."""
        if tp[-1] == 0 or fp[-1] == 0:
            return None
        if compact:
            drawn = np.r_[True, (np.diff(tp) + np.diff(fp)) > 0]
            if not drawn.all():
                thresholds, tp, fp = thresholds[drawn], tp[drawn], fp[drawn]
        else:
            # Undrawn groups before the first drawn one would be points predicting nothing
            # (precision 0/0): drop them. Later undrawn groups repeat their predecessor.
            first = min(int(np.searchsorted(tp, 0.0, side="right")), int(np.searchsorted(fp, 0.0, side="right")))
            if first > 1:
                keep = np.r_[0, first : len(tp)]
                thresholds, tp, fp = thresholds[keep], tp[keep], fp[keep]
        return OperatingPoints(thresholds=thresholds, tp=tp, fp=fp, pos_label=True)

    def counter(self, index: int) -> Callable[[tuple[Any, Any]], tuple[float, float, float, float] | None]:
        """A function of one replicate's draws: its ``(tp, fp, fn, tn)`` at the operating point
        ``index`` of :attr:`op` (flag the tie groups before it), or ``None`` when it lacks a class.

        The counts :meth:`build` would give at that threshold, from four sums of the draws
        instead of the whole table: unweighted draws (positions or cells) give exactly the
        same numbers; weighted draws give the same sums, added in another order.
        """
        if self.weighted and self.unit_weights:
            # rows in the groups before the operating point: scored at least its threshold, a score of
            # the data (point 0, at +inf, flags none); no tie groups needed
            flagged = self.scores >= self.op.thresholds[index] if index > 0 else np.zeros(len(self.scores), bool)
            positives, true_pos = np.flatnonzero(self.is_pos), np.flatnonzero(self.is_pos & flagged)
            neg_flagged, neg_rest = np.flatnonzero(~self.is_pos & flagged), np.flatnonzero(~self.is_pos & ~flagged)
            short, flagged_side = (neg_flagged, True) if len(neg_flagged) <= len(neg_rest) else (neg_rest, False)

            def unit(draws: tuple[Any, Any]) -> tuple[float, float, float, float] | None:
                # every row weighs 1: the sums of whole counts over three sets of rows, exact in any order
                counts = draws[0]
                p, tp, total = float(counts[positives].sum()), float(counts[true_pos].sum()), float(counts.sum())
                n = total - p
                fp = float(counts[short].sum()) if flagged_side else n - float(counts[short].sum())
                return None if p == 0 or n == 0 else (tp, fp, p - tp, n - fp)

            return unit
        if self.weighted:
            flagged = self.group < index  # rows in the groups before the operating point
            masks = np.stack([self.is_pos & flagged, ~self.is_pos & flagged, self.is_pos, ~self.is_pos])
            weights = masks * self.weights

            def weighted(draws: tuple[Any, Any]) -> tuple[float, float, float, float] | None:
                # einsum, not BLAS: a threaded product wakes workers that spin on every replicate
                tp, fp, p, n = (
                    float(x) for x in np.einsum("kn,n->k", weights, draws[0], dtype=np.float64, casting="unsafe")
                )
                return None if p == 0 or n == 0 else (tp, fp, p - tp, n - fp)

            return weighted
        if self.cells:

            def cells(draws: tuple[Any, Any]) -> tuple[float, float, float, float] | None:
                pos, neg = draws
                p, n = float(pos.sum()), float(neg.sum())
                tp, fp = float(pos[:index].sum()), float(neg[:index].sum())
                return None if p == 0 or n == 0 else (tp, fp, p - tp, n - fp)

            return cells
        pos_end, neg_end = int(self.op.tp[index]), int(self.op.fp[index])  # positions flagged: below these

        def positions(draws: tuple[Any, Any]) -> tuple[float, float, float, float] | None:
            pos, neg = draws
            p, n = float(len(pos)), float(len(neg))
            tp, fp = float(np.count_nonzero(pos < pos_end)), float(np.count_nonzero(neg < neg_end))
            return None if p == 0 or n == 0 else (tp, fp, p - tp, n - fp)

        return positions


def _cumulative_at(positions: np.ndarray, size: int, ends: np.ndarray, out: FloatArray) -> None:
    """Draws at positions below each group end: the replicate's cumulative counts, into ``out``."""
    if size == 0:
        out[...] = 0.0
        return
    cumulative = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(positions, minlength=size), out=cumulative[1:])
    out[...] = cumulative[ends]


def _replicates(
    resamplers: list[Resampler],
    stat: Callable[[OperatingPoints], FloatArray],
    width: int,
    n_resamples: int,
    rng: np.random.Generator,
    progress: bool,
    description: str,
    compact: bool = False,
    reduced: bool = False,
) -> tuple[FloatArray, int]:
    """``width`` statistics of every scorer on the same replicates (paired draws); ``reduced``: the
    statistics are areas and metrics that grow with precision (see :meth:`Resampler.build`).

    Returns an array of shape (n_valid, n_scorers, width) and the number of replicates
    dropped because they drew a single class.
    """
    out = np.empty((n_resamples, len(resamplers), width))
    valid = np.ones(n_resamples, dtype=bool)
    bar = _progress(n_resamples, description) if progress else None
    for b in range(n_resamples):
        draws = resamplers[0].counts(rng)  # one draw of samples, shared by every scorer
        for k, resampler in enumerate(resamplers):
            op = resampler.build(draws, compact=compact, reduced=reduced)
            if op is None:
                valid[b] = False
                break
            out[b, k] = stat(op)
        if bar is not None:
            bar.update(bar.task_ids[0], advance=1)
    if bar is not None:
        bar.stop()
    return out[valid], int(n_resamples - valid.sum())


def replicates_at_point(
    resampler: Resampler,
    index: int,
    stats: list[Callable[[tuple[float, float, float, float]], float]],
    n_resamples: int,
    rng: np.random.Generator,
) -> tuple[FloatArray, int]:
    """Draw statistics of the counts at one operating point on each replicate, without building tables.

    The draws of :func:`_replicates`, the same values, read at one point only.

    Parameters
    ----------
    resampler : Resampler
        The resampler of the scorer's data.
    index : int
        The operating point, an index of ``resampler.op``.
    stats : list of callable
        Each maps the replicate's counts ``(tp, fp, fn, tn)`` there to a float.
    n_resamples : int
        Number of replicates.
    rng : numpy.random.Generator
        The source of the replicates.

    Returns
    -------
    values : ndarray of float64 of shape (n_valid, len(stats))
        The statistics of each replicate that drew both classes.
    n_dropped : int
        The replicates dropped because they drew a single class.
    """
    count = resampler.point_counts(index)
    out = np.empty((n_resamples, len(stats)))
    valid = np.ones(n_resamples, dtype=bool)
    for b in range(n_resamples):
        counts = count(rng)
        if counts is None:
            valid[b] = False
        else:
            out[b] = [f(counts) for f in stats]
    return out[valid], int(n_resamples - valid.sum())


def _jackknife(
    resamplers: list[Resampler],
    value: Callable[[list[OperatingPoints]], float],
    rng: np.random.Generator,
    n_blocks: int = 50,
) -> FloatArray:
    """Delete-a-block jackknife values (for the BCa acceleration) of ``value`` on every
    scorer, the same block left out of each: per-sample resamplers built with the block's
    counts removed, so no sort again.

    The units are the rows, split into ``n_blocks`` blocks; with frequencies, the samples
    the rows stand for, each assigned to a block at random (a multinomial per row), so a
    block removes part of a row's frequency.
    """
    first = resamplers[0]
    n = len(first.is_pos)
    if first.units is None:
        removed = []
        for block in np.array_split(rng.permutation(n), min(n_blocks, n)):
            counts = np.zeros(n, dtype=np.int64)
            counts[block] = 1
            removed.append(counts)
        units = np.ones(n, dtype=np.int64)
    else:
        units = first.units.astype(np.int64)
        blocks = int(min(n_blocks, units.sum()))
        removed = list(rng.multinomial(units, np.full(blocks, 1.0 / blocks)).T)
    values = []
    for block_counts in removed:
        ops = [r.build((units - block_counts, None)) for r in resamplers]
        if any(op is None for op in ops):
            continue
        values.append(value(ops))  # type: ignore[arg-type]
    return np.array(values)


def _fast_replicates(
    resampler: Resampler, names: list[str], n_resamples: int, rng: np.random.Generator, progress: bool
) -> tuple[FloatArray, int] | None:
    """The areas ``names`` of ``n_resamples`` replicates of unweighted scores drawn by position
    (neither weights nor few tie groups), read from the steps of the positives (see
    :class:`PositiveSteps`); the values (n_valid, len(names)) and the number dropped.

    ``None`` when this does not apply: weights, few tie groups (drawn per cell), names that are
    not all areas of ``FAST_AREAS``, or AUPRG where a positive is tied.
    """
    if resampler.weighted or resampler.cells or not all(name in FAST_AREAS for name in names):
        return None
    steps = PositiveSteps(resampler.op.dtp, resampler.op.dfp, resampler.stratified)
    if "auprg" in names and not steps.untied:
        return None
    columns = [FAST_AREAS.index(name) for name in names]
    out = np.empty((n_resamples, len(columns)))
    valid = np.ones(n_resamples, dtype=bool)
    bar = _progress(n_resamples, "bootstrap areas") if progress else None
    for b in range(n_resamples):
        copies, segments, _ = steps.draw(rng)
        areas = steps.areas(copies, segments, columns)
        if areas is None:
            valid[b] = False
        else:
            out[b] = areas
        if bar is not None:
            bar.update(bar.task_ids[0], advance=1)
    if bar is not None:
        bar.stop()
    return out[valid], int(n_resamples - valid.sum())


def _paired_step_replicates(
    resamplers: list[Resampler], names: list[str], n_resamples: int, rng: np.random.Generator, progress: bool
) -> tuple[FloatArray, int] | None:
    """The areas ``names`` of every scorer on the same replicates, as :func:`_replicates` draws them
    (one draw of rows shared by the scorers), read from the steps of the positives (see
    :class:`RowSteps`) instead of each replicate's operating points: the same values (to
    rounding: AUROC is the correctly rounded ratio of two exact integer sums). The rows' integer
    counts are summed by every scorer's cells in one pass (:class:`RowCells`).

    ``None`` when this does not apply: names that are not all areas of ``FAST_AREAS``, weights
    other than 1 (or frequencies), or AUPRG where a scorer has ties.
    """
    first = resamplers[0]
    if not all(name in FAST_AREAS for name in names) or not all(
        r.weighted and r.unit_weights and r.units is None for r in resamplers
    ):
        return None
    steps = [RowSteps(r.group, r.is_pos, r.op.dtp) for r in resamplers]
    if "auprg" in names and not all(s.untied for s in steps):
        return None
    columns = [FAST_AREAS.index(name) for name in names]
    cells = RowCells(steps, len(first.is_pos))
    out = np.empty((n_resamples, len(resamplers), len(columns)))
    valid = np.ones(n_resamples, dtype=bool)
    bar = _progress(n_resamples, f"bootstrap {', '.join(names)}") if progress else None
    for b in range(n_resamples):
        counts = first.row_counts(rng, cells.dtype)  # one draw of rows (integer counts), shared by every scorer
        for k, (step, drawn) in enumerate(zip(steps, cells.cells(counts))):
            areas = step.cell_areas(drawn, columns)
            if areas is None:
                valid[b] = False
                break
            out[b, k] = areas
        if bar is not None:
            bar.update(bar.task_ids[0], advance=1)
    if bar is not None:
        bar.stop()
    return out[valid], int(n_resamples - valid.sum())


def _first(fn: Callable[[OperatingPoints], float]) -> Callable[[list[OperatingPoints]], float]:
    return lambda ops: fn(ops[0])


def _many(stats: list[Callable[[OperatingPoints], float]]) -> Callable[[OperatingPoints], FloatArray]:
    return lambda op: np.array([f(op) for f in stats])
