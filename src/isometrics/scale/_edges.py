"""The fast path of :class:`~isometrics.scale.streaming.BinnedCountTable`: bins found by a lookup
table, and data-adapted edges from one sort of packed keys.

Two costs used to dominate a binned accumulator: a sort of every batch (NumPy's sort of floats,
per class, to count the samples between edges) and, at the first overflow, a stable argsort of
up to 2**18 scores for the quantile edges. Here a batch is counted without any sort
(:class:`EdgeIndex`: one arithmetic cell per score, one table lookup, one comparison, then
``np.bincount``), and the quantile edges come from one sort of 64-bit keys that carry each
score and its class (:func:`sample_edges`), with the sort measured fastest on this machine
(:func:`isometrics._core.sorting.choose_sort`).

Functions of validated data (finite float64 scores, boolean labels, positive weights or
``None``) that return a *new* state and never change the one given; the exact count table,
the merge and the slow reference of the edges stay in :mod:`._binning`.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._core.sorting import choose_sort
from .._typing import FloatArray
from ._binning import QUANTILE_SAMPLE, Bins, State, _exact, quantile_edges

__all__ = ["EdgeIndex", "sample_edges", "absorb"]

#: Cells of the lookup table per bin: with quantile or uniform edges most cells hold no edge.
_CELLS_PER_BIN = 8

_MASK = np.int64(2**63 - 1)

#: From this many samples the keys go to the sort chosen by measurement (the engine's rule);
#: below, NumPy's sort.
_CHOSEN_MIN = 50_000


class EdgeIndex:
    """The bin of every score among fixed interior ``edges``, exactly ``np.searchsorted(edges, s, "right")``.

    A score's *cell* is ``f(s) = floor(clip((s - edges[0]) * scale, 0, M - 1))``, computed in
    float64 by the same NumPy operations for the scores and for the edges. ``f`` is
    non-decreasing (rounding, clipping and flooring are monotone), so an edge ``e`` with
    ``f(e) < f(s)`` is ``<= s`` and one with ``f(e) > f(s)`` is ``> s``: only the edges that
    share the score's cell need a comparison. The table holds, per cell, the number of edges
    in the cells below and the cell's edge (``+inf`` if none): one lookup and one comparison
    give the bin. The scores of the rare cells holding several edges (``M = 8`` cells per
    bin, then 64 if some cell holds several) get a binary search. Nothing is rounded away:
    the result is the binary search's, whatever the edges (a span too wide for float64
    arithmetic falls back to the binary search).
    """

    def __init__(self, edges: FloatArray) -> None:
        self.edges = edges
        self._table: np.ndarray | None = None
        if len(edges) < 2:
            return
        span = float(edges[-1]) - float(edges[0])  # Python floats: inf past float64, no warning
        bounded = np.append(edges, np.inf)  # the edge after the last: none
        for cells in (_CELLS_PER_BIN * (len(edges) + 1), 8 * _CELLS_PER_BIN * (len(edges) + 1)):
            scale = cells / span if span > 0 else np.inf
            if not (np.isfinite(span) and np.isfinite(scale) and scale > 0):
                return  # binary search only
            self._low, self._scale, self._top = float(edges[0]), scale, float(cells - 1)
            where = self._cell(edges)
            per_cell = np.bincount(where, minlength=cells)
            below = np.searchsorted(where, np.arange(cells), side="left")  # edges in the cells below
            self._table = 2 * below  # in the units of a key (2 * bin + class)
            self._cell_edge = np.where(per_cell > 0, bounded[below], np.inf)
            self._crowded = per_cell > 1
            self._any_crowded = bool(self._crowded.any())
            if not self._any_crowded:
                break

    def _cell(self, scores: FloatArray) -> np.ndarray:
        with np.errstate(over="ignore"):  # far outside the edges: +-inf, clipped to the outer cells
            position = np.subtract(scores, self._low)
            np.multiply(position, self._scale, out=position)
        np.clip(position, 0.0, self._top, out=position)
        return position.astype(np.intp)

    def keys(self, scores: FloatArray, is_pos: np.ndarray) -> np.ndarray:
        """``2 * bin + is_pos`` for each score: shape (n,), dtype intp."""
        flags = is_pos.view(np.uint8)
        if self._table is None:
            key = np.searchsorted(self.edges, scores, side="right")
            np.multiply(key, 2, out=key)
            return np.add(key, flags, out=key)
        cell = self._cell(scores)
        above = np.greater_equal(scores, np.take(self._cell_edge, cell)).view(np.uint8)
        np.left_shift(above, 1, out=above)
        np.bitwise_or(above, flags, out=above)
        key = np.take(self._table, cell)
        np.add(key, above, out=key)
        if self._any_crowded:
            crowded = np.flatnonzero(np.take(self._crowded, cell))
            if len(crowded):
                key[crowded] = 2 * np.searchsorted(self.edges, scores[crowded], side="right") + flags[crowded]
        return key

    def index(self, scores: FloatArray) -> np.ndarray:
        """Bin of each score, in ``[0, len(edges)]``: shape (n,), dtype intp."""
        key = self.keys(scores, np.zeros(len(scores), dtype=bool))
        return np.right_shift(key, 1, out=key)


def count_bins(
    index: EdgeIndex,
    scores: FloatArray,
    is_pos: np.ndarray,
    weights: FloatArray | None,
    points: tuple[FloatArray, FloatArray, FloatArray] | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Per bin: weight of positives, of negatives, and their weighted score sums, from a batch
    (and from ``points``, an exact table's distinct scores with their class weights, first)."""
    k = len(index.edges) + 1
    pos, neg, pos_sum, neg_sum = np.zeros(k), np.zeros(k), np.zeros(k), np.zeros(k)
    if points is not None and len(points[0]):
        v, p, n = points
        where = np.searchsorted(index.edges, v, side="right")
        pos += np.bincount(where, weights=p, minlength=k)
        neg += np.bincount(where, weights=n, minlength=k)
        pos_sum += np.bincount(where, weights=v * p, minlength=k)
        neg_sum += np.bincount(where, weights=v * n, minlength=k)
    if len(scores):
        key = index.keys(scores, is_pos)  # slot 2b + 1: positives of bin b
        counts = np.bincount(key, weights=weights, minlength=2 * k).astype(np.float64, copy=False)
        sums = np.bincount(key, weights=scores if weights is None else scores * weights, minlength=2 * k)
        pos, neg = pos + counts[1::2], neg + counts[0::2]
        pos_sum, neg_sum = pos_sum + sums[1::2], neg_sum + sums[0::2]
    return pos, neg, pos_sum, neg_sum


def _keys(scores: FloatArray, is_pos: np.ndarray | None, signed: bool) -> np.ndarray:
    """64-bit keys in the order of the scores, the class in the lowest bit (0 when ``is_pos`` is None).

    Unsigned (every score >= 0): the score's bits shifted left by one, exact. Signed: the
    order-preserving integer of the bits with its lowest bit replaced by the class, so two
    scores one unit in the last place apart may tie.
    """
    bits = scores.view(np.int64)
    if signed:
        keys = np.right_shift(bits, 63)
        np.bitwise_and(keys, _MASK, out=keys)
        np.bitwise_xor(keys, bits, out=keys)
        np.bitwise_and(keys, np.int64(-2), out=keys)
    else:
        keys = np.left_shift(bits.view(np.uint64), np.uint64(1))
    if is_pos is not None:
        np.bitwise_or(keys, is_pos.view(np.uint8), out=keys, casting="unsafe")
    return keys


def _scores(keys: np.ndarray, signed: bool) -> FloatArray:
    """The scores of keys (their lowest bit cleared): the inverse of :func:`_keys`."""
    if signed:
        order = np.bitwise_and(keys, np.int64(-2))
        mask = np.right_shift(order, 63)
        np.bitwise_and(mask, _MASK, out=mask)
        return np.bitwise_xor(order, mask).view(np.float64)
    return np.right_shift(keys, np.uint64(1)).view(np.float64)


def sample_edges(
    points: tuple[FloatArray, FloatArray, FloatArray],
    scores: FloatArray,
    is_pos: np.ndarray,
    weight: float,
    n_bins: int,
) -> FloatArray:
    """Interior edges at the quantiles of ``points`` and an unweighted sample, each class weighing half.

    The quantiles of :func:`._binning.quantile_edges` (a sample's mass: half its share of all
    the weight plus half its share of its class's weight), where every sample of ``scores``
    weighs ``weight`` and ``points`` (distinct scores with each class's weight) weigh
    theirs, found by one sort of 64-bit keys (the score, the class in the lowest bit) with
    the sort of :func:`~isometrics._core.sorting.choose_sort`, instead of a stable argsort.
    Tied scores are ordered by class (negatives first) and the points come before the
    samples equal to them. The edges are scores of the data when every score is >= 0, else
    at most one unit in the last place below one.
    """
    values, point_pos, point_neg = points
    signed = bool(len(scores) and float(scores.min()) < 0) or bool(len(values) and float(values[0]) < 0)
    keys = _keys(scores, is_pos, signed)
    if len(keys) >= _CHOSEN_MIN:
        keys = np.ascontiguousarray(choose_sort().sort(keys)[::-1])  # decreasing, reversed
    else:
        keys.sort()
    positive = (keys & 1).astype(bool)
    n_pos = int(np.count_nonzero(positive))
    total_p = float(point_pos.sum()) + weight * n_pos
    total_n = float(point_neg.sum()) + weight * (len(keys) - n_pos)
    mass_pos = 0.5 / (total_p + total_n) + (0.25 / total_p if total_p > 0 else 0.0)
    mass_neg = 0.5 / (total_p + total_n) + (0.25 / total_n if total_n > 0 else 0.0)
    mass = np.where(positive, weight * mass_pos, weight * mass_neg)
    if len(values):  # the exact table's distinct scores, before the samples equal to them
        point_keys = _keys(values, None, signed)
        at = np.searchsorted(keys, point_keys, side="left")
        keys = np.insert(keys, at, point_keys)
        mass = np.insert(mass, at, point_pos * mass_pos + point_neg * mass_neg)
    cumulative = np.cumsum(mass)
    cumulative /= cumulative[-1]
    cuts = np.searchsorted(cumulative, np.arange(1, n_bins) / n_bins, side="right")
    edges = np.unique(_scores(keys[cuts[cuts < len(keys)]], signed))
    return edges[edges > _scores(keys[:1], signed)[0]]  # an edge at the lowest score would leave the first bin empty


def absorb(
    state: State, scores: FloatArray, is_pos: np.ndarray, weights: FloatArray | None, bins: Bins, cache: list[EdgeIndex]
) -> State:
    """The state with a validated batch added (zero weights already dropped); the same counts as
    :func:`._binning.absorb` for the same edges. ``cache`` holds the :class:`EdgeIndex` of the
    edges last used (reused while they are the same array)."""
    if not len(scores):
        return state
    if weights is not None and state.whole and not (weights == np.trunc(weights)).all():
        state = replace(state, whole=False)
    low, high = min(state.low, float(scores.min())), max(state.high, float(scores.max()))
    points = None
    if state.edges is not None:
        edges = state.edges
    else:
        exact = _exact(state, scores, is_pos, weights, bins.n_bins)
        if exact is not None:
            return exact
        assert state.values is not None
        points = (state.values, state.pos, state.neg)
        edges = bins.edges if bins.edges is not None else _first_edges(points, scores, is_pos, weights, bins.n_bins)
    if not cache or cache[0].edges is not edges:
        cache[:] = [EdgeIndex(edges)]
    pos, neg, pos_sum, neg_sum = count_bins(cache[0], scores, is_pos, weights, points)
    if state.edges is not None:
        assert state.pos_sum is not None and state.neg_sum is not None
        pos, neg, pos_sum, neg_sum = state.pos + pos, state.neg + neg, state.pos_sum + pos_sum, state.neg_sum + neg_sum
    return State(
        values=None,
        edges=edges,
        pos=pos,
        neg=neg,
        pos_sum=pos_sum,
        neg_sum=neg_sum,
        low=low,
        high=high,
        whole=state.whole,
    )


def _first_edges(
    points: tuple[FloatArray, FloatArray, FloatArray],
    scores: FloatArray,
    is_pos: np.ndarray,
    weights: FloatArray | None,
    n_bins: int,
) -> FloatArray:
    """Quantile edges at the first overflow: the points and an evenly spaced subsample of the batch."""
    step = max(1, len(scores) // QUANTILE_SAMPLE)
    sample, sample_pos = scores[::step], is_pos[::step]
    if weights is None:
        return sample_edges(points, np.ascontiguousarray(sample), np.ascontiguousarray(sample_pos), float(step), n_bins)
    sample_w = weights[::step] * step
    v, p, n = points
    return quantile_edges(
        np.concatenate([v, sample]),
        np.concatenate([p, np.where(sample_pos, sample_w, 0.0)]),
        np.concatenate([n, np.where(sample_pos, 0.0, sample_w)]),
        n_bins,
    )
