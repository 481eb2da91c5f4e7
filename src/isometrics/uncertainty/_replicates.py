"""Bootstrap replicates of the areas at the cost of one counting pass: the draws binned straight
into the segments between consecutive positives, block by block so that every table a replicate
touches stays in cache, and AUROC, average precision and AUPRG read from the positives alone.

Used by :mod:`~isometrics.uncertainty.resampling` for untied, unweighted scores; the draws are
those of the bootstrap (the same multinomial distribution of the samples), taken in another order.
"""

from __future__ import annotations

import numpy as np

from .._typing import FloatArray

#: Negatives per block of the draw: a block's segment table (8 bytes a negative), its draws and
#: their segment counts fit in a core's L2 cache, so binning a draw is no trip to main memory.
_BLOCK = 1 << 14

#: The areas read from the positives alone, in the order :meth:`PositiveSteps.areas` computes them.
FAST_AREAS = ("auroc", "average_precision", "auprg")


class PositiveSteps:
    """Replicates of untied, unweighted scores as counts per positive and per segment between positives.

    The positives are ranked ``a = 0 .. P-1`` and the negatives ``j = 0 .. N-1`` by decreasing
    score; ``negatives_above[a]`` negatives score above positive ``a`` (non-decreasing). Negative
    ``j`` lies in segment ``s(j) = #{a : negatives_above[a] <= j}``, i.e. below positives
    ``0 .. s(j)-1`` and above the rest: the replicate's areas need only how many draws land on
    each positive and in each of the ``P + 1`` segments, never which negatives.

    A replicate draws ``K_p`` positives and ``K_n`` negatives (``P`` and ``N`` when stratified,
    else ``K_p ~ Binomial(P + N, P / (P + N))``), each uniformly with replacement: the
    positives as ``K_p`` positions binned into ``P`` counts; the negatives block by block, the
    ``N`` negatives split into consecutive blocks of about ``_BLOCK``: first how many draws fall
    in each block, a multinomial over the blocks with probabilities proportional to their sizes,
    then that many uniform positions in each block, binned through the block's slice of the
    segment table. Drawing uniformly among ``N`` is exactly drawing the block in proportion to
    its size and then uniformly within it, so the counts have the distribution of ``K_n``
    uniform draws (the multinomial of the bootstrap), at a cost of ``K_p + K_n`` random integers
    and one pass over each block's cache-resident tables.
    """

    def __init__(self, negatives_above: np.ndarray, n_negatives: int, stratified: bool) -> None:
        self.P, self.N = len(negatives_above), int(n_negatives)
        self.stratified = stratified
        self.negatives_above = negatives_above.astype(np.int64)
        blocks = max(1, -(-self.N // _BLOCK))
        edges = np.arange(blocks + 1, dtype=np.int64) * self.N // blocks
        self.sizes = np.diff(edges)
        self.block_p = self.sizes / self.N
        self.edges = edges
        # segment of each negative, block by block relative to the block's first segment
        segment = np.searchsorted(self.negatives_above, np.arange(self.N), side="right")
        self.first = [int(segment[lo]) for lo in edges[:-1]]
        self.local = [np.ascontiguousarray(segment[lo:hi] - first, dtype=np.intp)
                      for lo, hi, first in zip(edges[:-1], edges[1:], self.first)]
        self.width = [int(local[-1]) + 1 for local in self.local]

    def draw(self, rng: np.random.Generator, *, explicit: bool = False
             ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
        """One replicate: draws per positive (shape (P,)), draws per segment (shape (P + 1,)), int64.

        ``explicit=True`` also returns the drawn positions ``(positives, negatives)`` (ranks by
        decreasing score, with repeats) from the same random numbers: the resample itself, for
        checking a replicate against a direct computation on the resampled data.
        """
        if self.stratified:
            k_pos, k_neg = self.P, self.N
        else:
            k_pos = int(rng.binomial(self.P + self.N, self.P / (self.P + self.N)))
            k_neg = self.P + self.N - k_pos
        positives = rng.integers(0, self.P, k_pos)
        copies = np.bincount(positives, minlength=self.P)
        per_block = rng.multinomial(k_neg, self.block_p)
        segments = np.zeros(self.P + 1, dtype=np.int64)
        negatives = []
        for b, drawn in enumerate(per_block):
            if drawn == 0:
                continue
            where = rng.integers(0, self.sizes[b], int(drawn))
            first, width = self.first[b], self.width[b]
            segments[first:first + width] += np.bincount(self.local[b][where], minlength=width)
            if explicit:
                negatives.append(where + self.edges[b])
        resample = (positives, np.concatenate([np.zeros(0, dtype=np.int64), *negatives])) if explicit else None
        return copies, segments, resample

    def areas(self, copies: np.ndarray, segments: np.ndarray, columns: list[int]) -> FloatArray | None:
        """The areas ``FAST_AREAS[c]`` for ``c`` in ``columns`` of one replicate (``None`` when it lacks a class).

        With ``c_a`` copies of positive ``a`` drawn, ``F_a`` the drawn negatives scored above it
        (the segments ``0 .. a``) and ``T_a`` the drawn positives up to and including it
        (``K_p``, ``K_n`` the class totals):

        - AUROC = sum_a c_a (K_n - F_a) / (K_p K_n);
        - AP = sum_a c_a T_a / (T_a + F_a) / K_p;
        - AUPRG = (K_p/K_n) sum_a [-1/t + f/(2 t^2)] from max(t_0, pi) to t_1, with
          t_1 = T_a/K_p, t_0 = (T_a - c_a)/K_p, f = F_a/K_n, pi = K_p/(K_p + K_n): the
          closed form of Flach & Kull's (NeurIPS 2015) area written as an integral along the ROC
          curve, whose runs of negatives add nothing.

        The same numbers as building the replicate's operating points, in O(P) work.
        """
        below = np.cumsum(segments)  # below[a]: drawn negatives scored above positive a
        k_neg = int(below[-1])
        drawn = np.flatnonzero(copies)
        k_pos = int(copies.sum())
        if k_pos == 0 or k_neg == 0:
            return None
        c = copies[drawn].astype(np.float64)
        above = below[drawn].astype(np.float64)
        upto = np.cumsum(c)  # drawn positives up to each drawn positive, inclusive
        out = np.empty(len(columns))
        for k, column in enumerate(columns):
            if column == 0:
                out[k] = float(np.dot(c, k_neg - above)) / (k_pos * k_neg)
            elif column == 1:
                out[k] = float(np.dot(c, upto / (upto + above))) / k_pos
            else:
                out[k] = _auprg(c, above, upto, k_pos, k_neg)
        return out


def _auprg(c: FloatArray, above: FloatArray, upto: FloatArray, k_pos: int, k_neg: int) -> float:
    """AUPRG of a replicate from its drawn positives (see :meth:`PositiveSteps.areas`)."""
    pi = k_pos / (k_pos + k_neg)
    t1 = upto / k_pos
    t0 = np.maximum((upto - c) / k_pos, pi)
    f = above / k_neg
    part = t1 > pi
    t0, t1, f = t0[part], t1[part], f[part]
    integral = (1.0 / t0 - 1.0 / t1) + 0.5 * f * (1.0 / (t1 * t1) - 1.0 / (t0 * t0))
    return (k_pos / k_neg) * float(np.sum(integral))
