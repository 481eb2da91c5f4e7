"""Sums whose value does not depend on how the terms were split: aligned blocks, added exactly.

Every area of the engine is a sum over the operating points in score order. The in-memory
engine holds all the terms; the out-of-core sweep sees them in batches; a Dask worker sees
one score range. For the three to give the *same* double, the sum must not depend on where
the terms were cut. Here it does not:

* the terms are numbered by their global position ``0, 1, 2, ...`` in score order;
* they are cut into blocks of :data:`BLOCK` terms aligned to that numbering (block ``k``
  holds terms ``k * BLOCK`` to ``(k + 1) * BLOCK - 1``, the last block may be short), each
  block summed by NumPy's pairwise reduction of that block alone;
* the block sums are added with :func:`math.fsum`, which rounds their exact sum once, so
  their order does not matter either.

A batch or a partition that starts or ends inside a block hands that block's pieces on
(:class:`BlockSum` keeps them until the block is whole), so any cutting of the same terms
gives bit-identical results. Memory: one block of pending terms plus one float per block
(1,526 floats for 10^8 terms).
"""

from __future__ import annotations

import math

import numpy as np

from .._typing import FloatArray

__all__ = ["BLOCK", "BlockSum", "aligned_sum"]

#: Terms per block: 512 KiB of float64, small enough for the cache, large enough that the
#: Python-level work per block is negligible.
BLOCK = 65_536


def _block_sums(terms: FloatArray) -> FloatArray:
    """Pairwise sums of whole consecutive blocks of ``terms`` (``len(terms) % BLOCK == 0``)."""
    # A row reduction of a C-contiguous (k, BLOCK) array sums each row exactly as
    # np.add.reduce sums that row on its own (same pairwise blocking), which tests check.
    return np.add.reduce(np.ascontiguousarray(terms, dtype=np.float64).reshape(-1, BLOCK), axis=1)


class BlockSum:
    """An accumulator of terms given in order, in pieces of any size, summed by aligned blocks.

    Feed it the terms of consecutive positions with :meth:`add` (any number of terms per
    call), or the partial result of another range with :meth:`merge`, and read the sum with
    :meth:`total`. The result equals :func:`aligned_sum` of all terms at once, bit for bit,
    however the terms were split.

    Parameters
    ----------
    start : int, default 0
        Global position (in score order) of the first term this accumulator will see. A
        range that does not start at a block boundary keeps its leading partial block apart
        (``head``) so that a neighbour can complete it.
    """

    __slots__ = ("start", "position", "head", "_pending", "_sums", "_closed_head")

    def __init__(self, start: int = 0) -> None:
        if start < 0:
            raise ValueError(f"start must be >= 0, got {start}")
        self.start = int(start)
        self.position = int(start)
        # Terms of the leading block when start is not aligned: it may be shared with the
        # range before, so it is not summed here.
        self.head: FloatArray = np.empty(0)
        self._closed_head = start % BLOCK == 0
        self._pending: list[FloatArray] = []  # terms of the current (open) block
        self._sums: list[float] = []  # sums of the blocks closed so far

    def add(self, terms: FloatArray) -> None:
        """Append the terms of the next ``len(terms)`` positions."""
        terms = np.asarray(terms, dtype=np.float64).ravel()
        while terms.size:
            boundary = (self.position // BLOCK + 1) * BLOCK
            take = min(terms.size, boundary - self.position)
            if not self._closed_head:
                self.head = np.concatenate([self.head, terms[:take]])
                self.position += take
                terms = terms[take:]
                if self.position == boundary:
                    self._closed_head = True
                continue
            if not self._pending and take == BLOCK and terms.size >= BLOCK:
                # The fast path: as many whole blocks as the batch holds, in one reduction.
                whole = (terms.size // BLOCK) * BLOCK
                self._sums.extend(_block_sums(terms[:whole]).tolist())
                self.position += whole
                terms = terms[whole:]
                continue
            self._pending.append(terms[:take].copy())
            self.position += take
            terms = terms[take:]
            if self.position == boundary:
                self._close()

    def _close(self) -> None:
        block = np.concatenate(self._pending) if len(self._pending) > 1 else self._pending[0]
        self._sums.append(float(np.add.reduce(block)))
        self._pending = []

    @property
    def tail(self) -> FloatArray:
        """The terms of the trailing partial block (not summed: a neighbour may complete it)."""
        if not self._closed_head:
            return np.empty(0)
        return np.concatenate(self._pending) if self._pending else np.empty(0)

    def merge(self, other: BlockSum) -> None:
        """Append the range of ``other``, which must start where this one ends."""
        if other.start != self.position:
            raise ValueError(
                f"BlockSum.merge: the other range starts at {other.start}, this one ends at {self.position}; "
                "merge ranges in order, each starting where the previous ended"
            )
        self.add(other.head)
        if other._closed_head and other.position > other.start + other.head.size:
            # Whole blocks of the other range: its leading block (if any) was just completed
            # above, so this accumulator is now aligned.
            if self._pending:  # pragma: no cover - alignment guarantees this cannot happen
                raise AssertionError("BlockSum.merge: misaligned ranges")
            self._sums.extend(other._sums)
            self.position += BLOCK * len(other._sums)
            self.add(other.tail)

    def total(self) -> float:
        """The sum of every term added: whole blocks and the partial ones, added exactly."""
        parts = list(self._sums)
        if self.head.size:
            parts.append(float(np.add.reduce(self.head)))
        tail = self.tail
        if tail.size:
            parts.append(float(np.add.reduce(tail)))
        return math.fsum(parts)


def aligned_sum(terms: FloatArray, start: int = 0) -> float:
    """The sum of ``terms`` by blocks aligned to global positions, the blocks added exactly.

    Parameters
    ----------
    terms : ndarray of shape (n,), float64
        The terms of positions ``start`` to ``start + n - 1``.
    start : int, default 0
        Global position of the first term.

    Returns
    -------
    float
        The same double as a :class:`BlockSum` fed the same terms in any pieces.
    """
    acc = BlockSum(start)
    acc.add(terms)
    return acc.total()
