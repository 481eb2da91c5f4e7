"""Bootstrap replicates of the areas at the cost of one counting pass: the draws binned straight
into the segments between consecutive positives, block by block so that every table a replicate
touches stays in cache, and AUROC, average precision and AUPRG read from the positives alone.

Used by :mod:`~isometrics.uncertainty.resampling` for untied, unweighted scores; the draws are
those of the bootstrap (the same multinomial distribution of the samples), taken in another order.
Also the one per-row draw (:class:`RowCounts`: how many times each row is drawn, block by block)
of paired comparisons, weighted data and the counts at a fixed threshold, and the paired
comparisons' cells of every scorer summed in one pass over a replicate's counts (:class:`RowCells`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._typing import FloatArray

#: Negatives per block of the draw, a power of two: a block's segment table (8 bytes a negative),
#: its draws and their segment counts fit in a core's L2 cache, so binning a draw is no trip to
#: main memory; and a uniform position in a full block is 14 bits of the generator's output.
_BLOCK_BITS = 14

#: Bit generators whose ``random_raw`` gives 64 random bits a call (MT19937 gives 32: it draws
#: through ``Generator.integers`` instead, as does any other).
_RAW64 = (np.random.PCG64, np.random.PCG64DXSM, np.random.Philox, np.random.SFC64)

#: Rows per block of a per-row count draw (:class:`RowCounts`), a power of two: a block's counts
#: (8 bytes a row) stay in the core's L1 or L2 cache while its draws are counted, and a uniform
#: position in a full block is 12 bits of the generator's output.
_ROW_BLOCK_BITS = 12

#: Rows a cell of a paired comparison may hold for its counts to be summed in uint16 (:class:`RowCells`):
#: exact while no row of the replicate is drawn more than 16 times (at 10^6 rows, the most any row is
#: drawn is about 10); a replicate drawing one more often is summed in int32.
_NARROW_ROWS = 1 << 12

#: The areas read from the positives alone, in the order :meth:`PositiveSteps.areas` computes them.
FAST_AREAS = ("auroc", "average_precision", "auprg")


class RowCounts:
    """How many times each of ``size`` items is drawn by ``k`` uniform draws with replacement: one
    replicate of a per-row (unweighted) bootstrap, the counts multinomial(k; 1/size, ..., 1/size).

    Drawn block by block, as :class:`PositiveSteps` draws its negatives: the items are split into
    consecutive blocks of ``2**12`` (the last one shorter); first how many draws fall in each
    block, a multinomial over the blocks with probabilities proportional to their sizes, then that
    many uniform positions in each block, counted with one ``bincount`` a block (its counts stay
    in cache). Drawing uniformly among ``size`` items is exactly drawing a block in proportion to
    its size and then uniformly within it, so the counts have the multinomial distribution of
    ``k`` uniform draws (up to the rounding of the blocks' probabilities to float64, as any
    ``Generator.multinomial``). A position in a full block is 12 uniform bits: the top 12 of a
    16-bit quarter of the generator's 64-bit output (in the platform's byte order), four
    positions a draw of the generator; a generator without 64-bit output (MT19937) draws them
    with ``Generator.integers``, as the last block always does. A replicate costs about ``k / 4``
    64-bit draws and one pass over the counts, against ``k`` bounded integers and a ``bincount``
    that misses the cache on each draw for ``np.bincount(rng.integers(0, size, k))``; the
    distribution is the same, the seeded draws differ.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        block = 1 << _ROW_BLOCK_BITS
        self.full, self.rest = size >> _ROW_BLOCK_BITS, size & (block - 1)
        sizes = np.r_[np.full(self.full, block), [self.rest] if self.rest else []].astype(np.int64)
        self.block_p = sizes / size if size else np.ones(0)

    def _positions(self, k: int, rng: np.random.Generator) -> tuple[list[int], np.ndarray, np.ndarray | None]:
        """The random part of a replicate: the draws per block, the positions drawn in the full blocks
        (block after block, uint16) and those in the last, shorter block (or ``None``)."""
        per_block = rng.multinomial(k, self.block_p).tolist()
        in_full = int(sum(per_block[: self.full]))
        if isinstance(rng.bit_generator, _RAW64):
            bits = rng.bit_generator.random_raw(-(-in_full // 4)).view(np.uint16)[:in_full]
            np.right_shift(bits, 16 - _ROW_BLOCK_BITS, out=bits)
        else:
            bits = rng.integers(0, 1 << _ROW_BLOCK_BITS, in_full, dtype=np.uint16)
        rest = rng.integers(0, self.rest, per_block[-1]) if self.rest else None
        return per_block, bits, rest

    def draw(self, k: int, rng: np.random.Generator, dtype: type = np.int64) -> np.ndarray:
        """One replicate: the counts of ``k`` draws, shape (size,), of ``dtype`` (int64, or float64
        for a caller that weighs with them: whole numbers, no second pass to convert them; or a
        narrower integer type such as uint16, kept while no block is drawn more often than it holds,
        so that no row's count can overflow it: int64 otherwise)."""
        if not self.size:
            return np.empty(0, dtype=dtype)
        block = 1 << _ROW_BLOCK_BITS
        per_block, bits, rest = self._positions(k, rng)
        kind = np.dtype(dtype)
        if kind.kind in "iu":  # a row's count is at most its block's draws: widen where those could overflow
            value_bits = 8 * kind.itemsize - (kind.kind == "i")
            if max(per_block) >> value_bits:
                dtype = np.int64
        counts: np.ndarray = np.empty(self.size, dtype=dtype)
        offset = 0
        for b, drawn in enumerate(per_block[: self.full]):
            counts[b * block : (b + 1) * block] = np.bincount(bits[offset : offset + drawn], minlength=block)
            offset += drawn
        if rest is not None:
            counts[self.full * block :] = np.bincount(rest, minlength=self.rest)
        return counts

    def draw_cells(self, k: int, rng: np.random.Generator, cell: np.ndarray, n_cells: int) -> list[int]:
        """The replicate :meth:`draw` gives from the same generator state, summed by cell: the draws of
        the items of each cell ``c`` (``cell``: each item's cell, uint8, shape (size,)), ``c`` in
        ``range(n_cells)``, without the counts per item: each drawn position's cell, looked up in the
        block's slice of ``cell`` (in cache), then counted."""
        if not self.size:
            return [0] * n_cells
        block = 1 << _ROW_BLOCK_BITS
        per_block, bits, rest = self._positions(k, rng)
        drawn_cells = np.empty(k, dtype=cell.dtype)
        offset = 0
        for b, drawn in enumerate(per_block[: self.full]):
            np.take(
                cell[b * block : (b + 1) * block],
                bits[offset : offset + drawn],
                out=drawn_cells[offset : offset + drawn],
                mode="clip",
            )
            offset += drawn
        if rest is not None:
            np.take(cell[self.full * block :], rest, out=drawn_cells[offset:], mode="clip")  # in range: no clipping
        out = [int(np.count_nonzero(drawn_cells == c)) for c in range(n_cells - 1)]
        return [*out, k - sum(out)]


class PositiveSteps:
    """Replicates of unweighted scores as draws per step of the positives and per segment between them.

    The positives' distinct scores are the steps ``q = 0 .. Q-1`` (decreasing). Ranked by
    decreasing score, positive ``a`` lies on step ``step[a]`` and negative ``j`` in segment
    ``segment[j]``: ``2 q + 1`` when tied with step ``q``, ``2 q`` when between steps ``q - 1``
    and ``q`` (``2 Q``: below them all); ``untied`` (no positive shares a score with another
    sample; negatives may tie among themselves): every positive is its own step and the
    segments are ``q`` alone. The replicate's areas need only how many draws land on each step
    and in each segment (:func:`step_areas`), never which samples.

    A replicate draws ``K_p`` positives and ``K_n`` negatives (``P`` and ``N`` when stratified,
    else ``K_p ~ Binomial(P + N, P / (P + N))``), each uniformly with replacement: the
    positives as ``K_p`` positions binned into ``P`` counts; the negatives block by block, the
    ``N`` negatives split into consecutive blocks of ``2**14`` (the last one shorter): first how
    many draws fall in each block, a multinomial over the blocks with probabilities proportional
    to their sizes, then that many uniform positions in each block, binned through the block's
    slice of the segment table. Drawing uniformly among ``N`` is exactly drawing the block in
    proportion to its size and then uniformly within it, so the counts have the distribution of
    ``K_n`` uniform draws (the multinomial of the bootstrap). A position in a full block is 14
    uniform bits: the top 14 of a 16-bit quarter of the generator's 64-bit output (in the
    platform's byte order; ``integers`` draws them for a generator without 64-bit output, and
    for the last block), four positions a draw of the generator. A replicate costs ``K_p``
    random integers, about ``K_n / 4`` 64-bit draws and, block by block, a lookup in the
    block's slice of the segment table (numbered from the block's first segment, 16-bit while
    it spans fewer than ``2**16`` segments: in L1 cache) and a count into the block's few
    segments, added to the replicate's; no array of one entry per drawn negative.
    """

    def __init__(self, dtp: FloatArray, dfp: FloatArray, stratified: bool) -> None:
        positives, negatives = dtp.astype(np.int64), dfp.astype(np.int64)  # per tie group, whole numbers
        has = positives > 0
        before = np.cumsum(has)  # steps up to and including each group
        self.P, self.N, self.Q = int(positives.sum()), int(negatives.sum()), int(before[-1])
        self.stratified = stratified
        self.untied = self.Q == self.P and not (has & (negatives > 0)).any()
        # positives per step, when a step holds several (summed from the positions' counts)
        self.step_starts = None if self.Q == self.P else np.r_[0, np.cumsum(positives[has])[:-1]]
        full, rest = self.N >> _BLOCK_BITS, self.N & ((1 << _BLOCK_BITS) - 1)
        edges = np.r_[np.arange(full + 1, dtype=np.int64) << _BLOCK_BITS, [self.N] if rest else []].astype(np.int64)
        self.full = full  # blocks of exactly 2**_BLOCK_BITS negatives, then one shorter
        self.sizes = np.diff(edges)
        self.block_p = self.sizes / self.N
        self.edges = edges
        group = np.repeat(np.arange(len(negatives)), negatives)  # each negative's tie group
        segment = before[group] if self.untied else np.where(has[group], 2 * before[group] - 1, 2 * before[group])
        self.n_segments = self.Q + 1 if self.untied else 2 * self.Q + 1
        # Each block's slice of the segment table, counted from the block's first segment: the
        # segments grow with the rank, so a block's draws fall in the few segments ``low[b] ..
        # low[b] + span[b] - 1`` (about Q / blocks of them): looked up in a table in L1 cache
        # (uint16 while a block spans fewer than 2**16 segments) and counted into a small array.
        self.low: list[int] = []
        self.span: list[int] = []
        self.table: list[np.ndarray] = []
        for lo, hi in zip(edges[:-1].tolist(), edges[1:].tolist()):
            first, last = int(segment[lo]), int(segment[hi - 1])
            self.low.append(first)
            self.span.append(last - first + 1)
            narrow = np.uint16 if last - first < 1 << 16 else np.intp
            self.table.append((segment[lo:hi] - first).astype(narrow))
        self._looked_up = {dt: np.empty(0, dtype=dt) for dt in (np.uint16, np.intp)}  # reused across replicates
        self._below = np.empty(self.n_segments, dtype=np.int64)

    def draw(
        self, rng: np.random.Generator, *, explicit: bool = False
    ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
        """One replicate: draws per step (shape (Q,)) and per segment (shape (n_segments,)), int64.

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
        if self.step_starts is not None:
            copies = np.add.reduceat(copies, self.step_starts)
        per_block = rng.multinomial(k_neg, self.block_p).tolist()
        negatives = []
        bits: np.ndarray | None = None
        if isinstance(rng.bit_generator, _RAW64) and self.full:
            in_full = int(sum(per_block[: self.full]))
            bits = rng.bit_generator.random_raw(-(-in_full // 4)).view(np.uint16)[:in_full]
            np.right_shift(bits, 16 - _BLOCK_BITS, out=bits)
        segments = np.zeros(self.n_segments, dtype=np.int64)
        most = max(per_block, default=0)
        offset = 0
        for b, drawn in enumerate(per_block):
            if drawn == 0:
                continue
            if bits is not None and b < self.full:
                where = bits[offset : offset + drawn]
                offset += drawn
            else:
                where = rng.integers(0, self.sizes[b], drawn)
            table = self.table[b]
            looked_up = self._looked_up[table.dtype.type]
            if len(looked_up) < most:
                looked_up = self._looked_up[table.dtype.type] = np.empty(most, dtype=table.dtype)
            # each draw's segment in the block (in range: no clipping), counted into the block's segments
            local = table.take(where, out=looked_up[:drawn], mode="clip")
            low, span = self.low[b], self.span[b]
            segments[low : low + span] += np.bincount(local, minlength=span)
            if explicit:
                negatives.append(where + self.edges[b])
        resample = (positives, np.concatenate([np.zeros(0, dtype=np.int64), *negatives])) if explicit else None
        return copies, segments, resample

    def areas(self, copies: np.ndarray, segments: np.ndarray, columns: list[int]) -> FloatArray | None:
        """The areas ``FAST_AREAS[c]`` for ``c`` in ``columns`` of one replicate (``None`` when it lacks a class),
        from :meth:`draw`'s counts: see :func:`step_areas`."""
        if self.untied:  # below[q]: drawn negatives scored above step q (into a buffer kept across replicates)
            below = np.cumsum(segments, out=self._below)
            return step_areas(copies, below[:-1], None, int(copies.sum()), int(below[-1]), columns)
        below = np.cumsum(segments)  # below[2 q]: drawn negatives scored above step q
        k_pos, k_neg = int(copies.sum()), int(below[-1])
        return step_areas(copies, below[0:-1:2], segments[1::2], k_pos, k_neg, columns)


def step_areas(
    copies: np.ndarray, above: np.ndarray, tied: np.ndarray | None, k_pos: float, k_neg: float, columns: list[int]
) -> FloatArray | None:
    """AUROC, average precision and AUPRG (``FAST_AREAS[c]`` for ``c`` in ``columns``) of a replicate,
    from the steps of its positives; ``None`` when it lacks a class.

    The positives' distinct scores ``q = 0 .. Q-1`` (decreasing) are the steps: ``copies[q]``
    (``c_q``) positives drawn there, ``above[q]`` (``F_q``) drawn negatives scored above it,
    ``tied[q]`` (``d_q``, ``None``: none) drawn negatives tied with it; ``T_q`` the drawn
    positives up to and including step ``q``, ``K_p`` and ``K_n`` the class totals. Integer
    counts, held as int64 or as float64 (exact below 2**53):

    - AUROC = sum_q c_q (2 K_n - 2 F_q - d_q) / (2 K_p K_n), a tie counting one half; the sum
      is of integers, exact, so the area is the correctly rounded ratio;
    - AP = sum_q c_q T_q / (T_q + F_q + d_q) / K_p (precision at the step, the recall growing
      by ``c_q / K_p``), as scikit-learn's ``average_precision_score``;
    - AUPRG (untied only) = (K_p/K_n) sum_q [-1/t + f/(2 t^2)] from max(t_0, pi) to t_1, with
      t_1 = T_q/K_p, t_0 = (T_q - c_q)/K_p, f = F_q/K_n, pi = K_p/(K_p + K_n): the closed form
      of Flach & Kull's (NeurIPS 2015) area written as an integral along the ROC curve, whose
      runs of negatives add nothing.

    A step drawn zero times adds nothing: the same numbers as the replicate's operating points
    (which drop such steps), in O(Q) work.
    """
    if k_pos == 0 or k_neg == 0:
        return None
    out = np.empty(len(columns))
    upto = np.cumsum(copies) if any(columns) else copies  # T_q (AUROC alone needs none)
    for k, column in enumerate(columns):
        if column == 0:
            if copies.dtype.kind == above.dtype.kind == "i" and tied is None:  # int64: exact while K_p K_n < 2**63
                out[k] = int(k_pos * k_neg - int(np.dot(copies, above))) / (k_pos * k_neg)
            elif tied is None and 2.0 * float(k_pos) * float(k_neg) < 2.0**53:
                # float64 whole numbers, every sum exact: the same correctly rounded ratio, one pass
                pairs = float(k_pos) * float(k_neg)
                out[k] = (pairs - _dot(copies, above)) / pairs
            else:
                twice = 2.0 * float(k_neg) - 2.0 * above if tied is None else 2.0 * float(k_neg) - 2.0 * above - tied
                out[k] = _dot(copies, twice) / (2.0 * float(k_pos) * float(k_neg))
        elif column == 1:  # a step before the first drawn positive has T_q = c_q = 0: its 0 / 0 is skipped
            reached = above + upto if tied is None else above + tied + upto  # predicted positive at step q
            first = int(np.searchsorted(upto, 0, side="right"))  # T_q = 0 before it (T_q grows): no 0 / 0
            np.maximum(reached[:first], 1, out=reached[:first])
            precision = np.divide(upto, reached, out=reached) if reached.dtype.kind == "f" else upto / reached
            out[k] = _dot(copies, precision) / float(k_pos)
        else:
            if tied is not None:
                raise ValueError("step_areas: AUPRG is read from untied steps only")
            drawn = np.flatnonzero(copies)
            out[k] = _auprg(
                copies[drawn].astype(np.float64),
                above[drawn].astype(np.float64),
                upto[drawn].astype(np.float64),
                float(k_pos),
                float(k_neg),
            )
    return out


def _dot(a: np.ndarray, b: FloatArray) -> float:
    """``a . b`` in float64 without BLAS: a threaded BLAS dot of ~10^5 elements wakes worker
    threads that then spin, burning more CPU than the product takes, once per replicate."""
    return float(np.einsum("i,i->", a, b, dtype=np.float64, casting="unsafe"))


def _auprg(c: FloatArray, above: FloatArray, upto: FloatArray, k_pos: float, k_neg: float) -> float:
    """AUPRG of a replicate from its drawn positives (see :func:`step_areas`)."""
    pi = k_pos / (k_pos + k_neg)
    t1 = upto / k_pos
    t0 = np.maximum((upto - c) / k_pos, pi)
    f = above / k_neg
    part = t1 > pi
    t0, t1, f = t0[part], t1[part], f[part]
    integral = (1.0 / t0 - 1.0 / t1) + 0.5 * f * (1.0 / (t1 * t1) - 1.0 / (t0 * t0))
    return (k_pos / k_neg) * float(np.sum(integral))


class RowSteps:
    """One scorer's steps for draws counted per row, as paired comparisons draw them (the same rows
    for every scorer): each positive row's step, each negative row's segment, and the areas of a
    replicate from two weighted counts instead of its operating points.

    ``group``: each row's tie group (0-based, decreasing score) under this scorer; ``is_pos``:
    each row's class; ``dtp``: the positives of each group. The groups holding positives are
    the steps ``q = 0 .. Q-1``; a negative row lies in segment ``2 q + 1`` when tied with step
    ``q`` and in segment ``2 q`` when between steps ``q - 1`` and ``q`` (``2 Q``: below them
    all). ``untied``: no two positives share a score and no negative a positive's: the segments
    are then ``q`` alone and AUPRG is read too.
    """

    def __init__(self, group: np.ndarray, is_pos: np.ndarray, dtp: FloatArray) -> None:
        has = dtp > 0
        before = np.cumsum(has)  # steps up to and including each group
        self.Q = int(before[-1])
        g = before[group]
        tied = has[group]
        self.untied = self.Q == int(np.count_nonzero(is_pos)) and not (tied & ~is_pos).any()
        # each row's bin of one bincount: its step (positives), or Q + its segment (negatives)
        segment = g if self.untied else np.where(tied, 2 * g - 1, 2 * g)
        self.cell = np.where(is_pos, g - 1, self.Q + segment)
        self.n_segments = self.Q + 1 if self.untied else 2 * self.Q + 1

    def areas(self, counts: FloatArray, columns: list[int]) -> FloatArray | None:
        """The areas ``FAST_AREAS[c]``, ``c`` in ``columns``, of a replicate drawing each row ``counts``
        times (float64, whole numbers, in the rows' order); ``None`` when it lacks a class. See
        :func:`step_areas`."""
        return self.cell_areas(np.bincount(self.cell, weights=counts, minlength=self.Q + self.n_segments), columns)

    def cell_areas(self, cells: np.ndarray, columns: list[int]) -> FloatArray | None:
        """:meth:`areas` from the replicate's draws summed by cell, shape (Q + n_segments,): float64
        whole numbers (overwritten), or integers as :class:`RowCells` gives them (converted to float64:
        the same numbers)."""
        if cells.dtype != np.float64:  # converted first: a cumulated sum that casts as it goes is 2-3x slower
            cells = cells.astype(np.float64)
        copies, segments = cells[: self.Q], cells[self.Q :]
        if self.untied:  # the segments are needed only cumulated: in place
            below = np.cumsum(segments, out=segments)
            return step_areas(copies, below[:-1], None, float(copies.sum()), float(below[-1]), columns)
        below = np.cumsum(segments)
        k_pos, k_neg = float(copies.sum()), float(below[-1])
        return step_areas(copies, below[0:-1:2], segments[1::2], k_pos, k_neg, columns)


class RowCells:
    """The draws of every scorer's cells (:attr:`RowSteps.cell`) in one pass over a replicate's row
    counts: one sparse matrix with a column per row and a 1 in each scorer's cell of that row, each
    scorer's cells after the previous scorer's, times the integer counts.

    Each row's count is read once for every scorer (against one weighted ``bincount`` a scorer over
    float64 counts) and the sums are of integers, exact in any order: the numbers the ``bincount``
    gives, as integers. The counts and the sums are uint16 (:attr:`dtype`) while no cell holds
    ``2**12`` rows or more: a replicate whose largest count ``m`` keeps every cell's sum within
    ``rows * m <= 2**16 - 1`` is summed in 2 bytes a count and a cell (the product streams half
    the memory and its cells stay in cache: 1.8x faster at 10^6 rows and two scorers), any other
    in int32 (int64 when the rows and cells number ``2**31`` or more), as every replicate is where
    a cell holds more rows.
    """

    def __init__(self, steps: list[RowSteps], n_rows: int) -> None:
        self.edges = np.r_[0, np.cumsum([s.Q + s.n_segments for s in steps])].astype(np.int64)
        wide = max(n_rows, int(self.edges[-1])) * len(steps) >= 1 << 31
        self.wide = np.int64 if wide else np.int32  # the counts' and the sums' type beyond uint16
        #: the most rows in one cell of any scorer: a uint16 sum is exact while this times the largest count fits
        self.most_rows = max((int(np.bincount(s.cell).max()) for s in steps if len(s.cell)), default=0)
        self.dtype: type = np.uint16 if self.most_rows < _NARROW_ROWS else self.wide  # the counts to draw
        index = np.int64 if wide else np.int32
        k = len(steps)
        cell = np.empty(k * n_rows, dtype=index)  # row r's entries at k r .. k r + k - 1
        for j, (s, low) in enumerate(zip(steps, self.edges[:-1].tolist())):
            np.add(s.cell, low, out=cell[j::k], casting="unsafe")
        self._pattern = (cell, np.arange(0, k * n_rows + 1, k, dtype=index), (int(self.edges[-1]), n_rows))
        self._matrices: dict[type, Any] = {}
        self._matrix(self.dtype)  # the one every replicate but a rare one reads

    def _matrix(self, dtype: type) -> Any:
        """The matrix of ones of ``dtype`` (built once, when first needed)."""
        if dtype not in self._matrices:
            cell, starts, shape = self._pattern
            # Imported here, not with the module: scipy.sparse takes 0.2 s to import (its array-API layer
            # loads numpy.testing), and every command of the command line imports this module, while only
            # a paired comparison builds a RowCells (tests/test_architecture.py lists this exception).
            import scipy.sparse

            self._matrices[dtype] = scipy.sparse.csc_array((np.ones(len(cell), dtype=dtype), cell, starts), shape=shape)
        return self._matrices[dtype]

    def cells(self, counts: np.ndarray) -> list[np.ndarray]:
        """Each scorer's draws by cell of a replicate drawing each row ``counts`` times (integers, in
        the rows' order: of :attr:`dtype` as drawn, or any other): integers (uint16, int32 or int64),
        views of one array, as :meth:`RowSteps.cell_areas` reads them."""
        if counts.dtype == np.uint16 and self.most_rows * int(counts.max(initial=0)) <= np.iinfo(np.uint16).max:
            total = self._matrix(np.uint16) @ counts
        else:
            total = self._matrix(self.wide) @ counts.astype(self.wide, copy=False)
        return [total[lo:hi] for lo, hi in zip(self.edges[:-1].tolist(), self.edges[1:].tolist())]
