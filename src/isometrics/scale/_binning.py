"""The counts behind :class:`~isometrics.scale.streaming.BinnedCountTable`: exact table, bins, edges.

Functions of validated data (finite float64 scores, boolean labels, positive weights or
``None``) that return a *new* state and never change the one given, so that the accumulator
swaps states only once a batch has been absorbed whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from .._typing import FloatArray

__all__ = ["State", "Bins", "absorb", "combine", "quantile_edges", "bin_summary"]

#: Beyond this many samples, quantile edges come from an evenly spaced subsample of the batch.
QUANTILE_SAMPLE = 1 << 18


@dataclass(frozen=True)
class Bins:
    """How an accumulator bins once its distinct scores overflow: ``n_bins`` and the edges.

    ``edges`` are the interior edges (bin ``b`` holds ``edges[b-1] <= s < edges[b]``; the first
    and the last bin are open), fixed from the start (``"uniform"``, given edges) or ``None``
    until the first overflow picks them from the data (``"quantile"``). ``uniform`` holds
    ``(low, high)`` for equal-width bins, which are found by arithmetic instead of a search.
    """

    n_bins: int
    edges: FloatArray | None
    uniform: tuple[float, float] | None = None


@dataclass(frozen=True)
class State:
    """Exact (``values``: distinct scores, increasing; ``edges`` None) or binned (``edges``; ``values`` None).

    ``pos``/``neg``: each class's weight per value or bin; ``pos_sum``/``neg_sum``: each
    class's weighted score sum per bin (binned only: for the estimate); ``low``/``high``: the
    lowest and highest score seen; ``whole``: no weight so far had a fraction.
    """

    values: FloatArray | None = field(default_factory=lambda: np.empty(0))
    edges: FloatArray | None = None
    pos: FloatArray = field(default_factory=lambda: np.zeros(0))
    neg: FloatArray = field(default_factory=lambda: np.zeros(0))
    pos_sum: FloatArray | None = None
    neg_sum: FloatArray | None = None
    low: float = np.inf
    high: float = -np.inf
    whole: bool = True  # every weight so far a whole number (or none given): exact sums, bit for bit


def _counts(
    index: np.ndarray, is_pos: np.ndarray, weights: FloatArray | None, scores: FloatArray | None, size: int
) -> tuple[FloatArray, FloatArray, FloatArray | None, FloatArray | None]:
    """Per slot ``index``: weight of positives, of negatives, and (with ``scores``) their score sums."""
    key = index * 2 + is_pos
    counts = np.bincount(key, weights=weights, minlength=2 * size).astype(np.float64, copy=False)
    if scores is None:
        return counts[1::2], counts[0::2], None, None
    sums = np.asarray(
        np.bincount(key, weights=scores if weights is None else scores * weights, minlength=2 * size), dtype=np.float64
    )
    return counts[1::2], counts[0::2], sums[1::2], sums[0::2]


def _sorted_counts(
    scores: FloatArray, is_pos: np.ndarray, edges: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """Unweighted counts and score sums per bin through one sort per class (NumPy's sort of floats
    is several times faster than a binary search of every score among the edges)."""
    k = len(edges) + 1
    out = []
    for members in (is_pos, ~is_pos):
        v = np.sort(scores[members])
        bounds = np.searchsorted(v, edges, side="left")  # samples below each edge
        starts = np.concatenate(([0], bounds))
        counts = np.diff(np.concatenate((starts, [len(v)]))).astype(np.float64)
        sums = np.zeros(k)
        filled = counts > 0
        if filled.any():  # a segment of reduceat runs to the next start: empty bins have none
            sums[filled] = np.add.reduceat(v, starts[filled])
        out += [counts, sums]
    return out[0], out[2], out[1], out[3]


def bin_index(scores: FloatArray, bins: Bins, edges: FloatArray) -> np.ndarray:
    """Bin of each score: ``searchsorted(edges, scores, side="right")``, by arithmetic for uniform bins."""
    if bins.uniform is None:
        return np.searchsorted(edges, scores, side="right")
    low, high = bins.uniform
    k = len(edges) + 1
    position = (scores - low) * (k / (high - low))
    np.clip(position, 0, k - 1, out=position)
    index = position.astype(np.intp)
    # Rounding puts a score next to an edge at most one bin off: one step each way makes the
    # result the exact search's (monotone arithmetic, the edges as stored).
    bounded = np.concatenate(([-np.inf], edges, [np.inf]))
    index -= scores < bounded[index]
    index += scores >= bounded[index + 1]
    return index


def uniform_edges(low: float, high: float, n_bins: int) -> FloatArray:
    """Interior edges of ``n_bins`` equal-width bins on [low, high]."""
    return low + (high - low) * (np.arange(1, n_bins) / n_bins)


def quantile_edges(values: FloatArray, pos: FloatArray, neg: FloatArray, n_bins: int) -> FloatArray:
    """Interior edges at the quantiles of the scores, each class weighing half (at most ``n_bins - 1``).

    ``values`` (any order, repeats allowed) carry the weight ``pos`` of positives and ``neg`` of
    negatives. The mass of a sample is half its share of all the weight plus half its share of
    its class's weight, so that a rare class still gets bins where it lies. Edges are scores of
    the data (a score equal to an edge goes to the bin above); tied quantiles give one edge.
    """
    order = np.argsort(values, kind="stable")
    v, p, n = values[order], pos[order], neg[order]
    total_p, total_n = float(p.sum()), float(n.sum())
    mass = 0.5 * (p + n) / (total_p + total_n)
    if total_p > 0:
        mass = mass + 0.25 * p / total_p
    if total_n > 0:
        mass = mass + 0.25 * n / total_n
    cumulative = np.cumsum(mass)
    cumulative /= cumulative[-1]
    cuts = np.searchsorted(cumulative, np.arange(1, n_bins) / n_bins, side="right")
    edges = np.unique(v[cuts[cuts < len(v)]])
    return edges[edges > v[0]]  # an edge at the lowest score would leave the first bin empty


def _points(state: State) -> tuple[FloatArray, FloatArray, FloatArray]:
    """An exact state's distinct scores and class weights, as points to bin."""
    assert state.values is not None
    return state.values, state.pos, state.neg


def _binned(
    points: list[tuple[FloatArray, FloatArray, FloatArray]],
    batch: tuple | None,
    edges: FloatArray,
    bins: Bins,
    base: State | None,
    low: float,
    high: float,
    all_whole: bool,
) -> State:
    """A binned state with ``edges``: ``base``'s counts (same edges) plus the points and the batch."""
    k = len(edges) + 1
    pos, neg = np.zeros(k), np.zeros(k)
    pos_sum, neg_sum = np.zeros(k), np.zeros(k)
    if base is not None:
        assert base.pos_sum is not None and base.neg_sum is not None
        pos, neg, pos_sum, neg_sum = base.pos + 0, base.neg + 0, base.pos_sum + 0, base.neg_sum + 0
    for v, p, n in points:
        if len(v):
            index = bin_index(v, bins, edges)
            pos += np.bincount(index, weights=p, minlength=k)
            neg += np.bincount(index, weights=n, minlength=k)
            pos_sum += np.bincount(index, weights=v * p, minlength=k)
            neg_sum += np.bincount(index, weights=v * n, minlength=k)
    if batch is not None:
        scores, is_pos, weights = batch
        if weights is None and bins.uniform is None:
            dp, dn, sp, sn = _sorted_counts(scores, is_pos, edges)
        else:
            dp, dn, maybe_sp, maybe_sn = _counts(bin_index(scores, bins, edges), is_pos, weights, scores, k)
            assert maybe_sp is not None and maybe_sn is not None
            sp, sn = maybe_sp, maybe_sn
        pos, neg, pos_sum, neg_sum = pos + dp, neg + dn, pos_sum + sp, neg_sum + sn
    whole = (base is None or base.whole) and all_whole
    return State(
        values=None, edges=edges, pos=pos, neg=neg, pos_sum=pos_sum, neg_sum=neg_sum, low=low, high=high, whole=whole
    )


def _exact(
    state: State, scores: FloatArray, is_pos: np.ndarray, weights: FloatArray | None, capacity: int
) -> State | None:
    """The exact state with the batch added, or ``None`` if the distinct scores would exceed ``capacity``."""
    values = state.values
    assert values is not None
    if len(values):
        at = np.minimum(np.searchsorted(values, scores), len(values) - 1)
        unseen = scores[values[at] != scores]
    else:
        unseen = scores
    if len(unseen):
        probe = np.unique(unseen[: 2 * capacity + 2])  # enough to tell an overflow without sorting the batch
        if len(values) + len(probe) > capacity:
            return None
        fresh = probe if len(unseen) <= 2 * capacity + 2 else np.unique(unseen)
        if len(values) + len(fresh) > capacity:
            return None
        merged = np.union1d(values, fresh)
    else:
        merged = values
    pos, neg, _, _ = _counts(np.searchsorted(merged, scores), is_pos, weights, None, len(merged))
    old = np.searchsorted(merged, values)
    pos[old] += state.pos
    neg[old] += state.neg
    return State(
        values=merged,
        pos=pos,
        neg=neg,
        low=min(state.low, float(scores.min())),
        high=max(state.high, float(scores.max())),
        whole=state.whole,
    )


def absorb(state: State, scores: FloatArray, is_pos: np.ndarray, weights: FloatArray | None, bins: Bins) -> State:
    """The state with a validated batch added (zero weights already dropped)."""
    if not len(scores):
        return state
    if weights is not None and state.whole and not (weights == np.trunc(weights)).all():
        state = replace(state, whole=False)
    low, high = min(state.low, float(scores.min())), max(state.high, float(scores.max()))
    if state.edges is not None:
        return _binned([], (scores, is_pos, weights), state.edges, bins, state, low, high, state.whole)
    exact = _exact(state, scores, is_pos, weights, bins.n_bins)
    if exact is not None:
        return exact
    edges = bins.edges
    if edges is None:  # the first overflow: edges from what is known now
        step = max(1, len(scores) // QUANTILE_SAMPLE)
        sample, sample_pos = scores[::step], is_pos[::step]
        sample_w = np.full(len(sample), float(step)) if weights is None else weights[::step] * step
        v, p, n = _points(state)
        edges = quantile_edges(
            np.concatenate([v, sample]),
            np.concatenate([p, np.where(sample_pos, sample_w, 0.0)]),
            np.concatenate([n, np.where(sample_pos, 0.0, sample_w)]),
            bins.n_bins,
        )
    return _binned([_points(state)], (scores, is_pos, weights), edges, bins, None, low, high, state.whole)


def combine(a: State, b: State, bins: Bins) -> State:
    """The state of the union of two accumulators' data (binned ones must share their edges)."""
    low, high, whole = min(a.low, b.low), max(a.high, b.high), a.whole and b.whole
    if a.edges is not None and b.edges is not None:
        assert a.pos_sum is not None and b.pos_sum is not None and a.neg_sum is not None and b.neg_sum is not None
        return State(
            values=None,
            edges=a.edges,
            pos=a.pos + b.pos,
            neg=a.neg + b.neg,
            pos_sum=a.pos_sum + b.pos_sum,
            neg_sum=a.neg_sum + b.neg_sum,
            low=low,
            high=high,
            whole=whole,
        )
    if a.edges is not None or b.edges is not None:
        binned, exact = (a, b) if a.edges is not None else (b, a)
        assert binned.edges is not None
        return _binned([_points(exact)], None, binned.edges, bins, binned, low, high, whole)
    v = np.concatenate([_points(a)[0], _points(b)[0]])
    p = np.concatenate([a.pos, b.pos])
    n = np.concatenate([a.neg, b.neg])
    merged, inverse = np.unique(v, return_inverse=True)
    if len(merged) <= bins.n_bins:
        pos = np.asarray(np.bincount(inverse, weights=p, minlength=len(merged)), dtype=np.float64)
        neg = np.asarray(np.bincount(inverse, weights=n, minlength=len(merged)), dtype=np.float64)
        return State(values=merged, pos=pos, neg=neg, low=low, high=high, whole=whole)
    edges = bins.edges if bins.edges is not None else quantile_edges(v, p, n, bins.n_bins)
    return _binned([(v, p, n)], None, edges, bins, None, low, high, whole)


def bin_summary(state: State) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Binned state, bins in decreasing score order: (lower edges, positives, negatives, mean
    position of the positives and of the negatives inside their bin, in [0, 1]).

    The lowest bin's lower edge is the lowest score seen and the highest bin's upper edge the
    highest; a mean is 1/2 where its class is absent or the bin has no width.
    """
    assert state.edges is not None and state.pos_sum is not None and state.neg_sum is not None
    lower = np.concatenate(([state.low], state.edges))
    upper = np.concatenate((state.edges, [state.high]))
    width = upper - lower
    means = []
    for total, weighted in ((state.pos, state.pos_sum), (state.neg, state.neg_sum)):
        with np.errstate(divide="ignore", invalid="ignore"):
            position = (weighted / total - lower) / width
        means.append(np.clip(np.where((total > 0) & (width > 0) & np.isfinite(position), position, 0.5), 0.0, 1.0))
    return lower[::-1], state.pos[::-1], state.neg[::-1], means[0][::-1], means[1][::-1]
