"""The count table decodes NumPy's in-place sort in place (issue 26, item 2): no second key-sized buffer.

The keys are made one slot longer, sorted in place, and decoded into thresholds where they lie, so
building the table of n unweighted continuous scores allocates the keys, tp and fp (3 x 8 bytes a
sample) and not a fourth 8-byte array; the values are checked against counts by hand.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from isometrics import OperatingPoints
from isometrics._core import sorting


@pytest.mark.parametrize("tie", [False, True])
def test_numpy_sorted_keys_are_decoded_in_place(tie):
    n = 400_000
    rng = np.random.default_rng(5)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    if tie:  # one tie, in a late run: the labels of the runs before come back from the counts
        s[-3] = s[1]
    saved = list(sorting._chosen)
    try:
        sorting.choose_sort("numpy")
        OperatingPoints.from_scores(y[:60_000], s[:60_000])  # what is allocated once per process
        tracemalloc.start()
        op = OperatingPoints.from_scores(y, s)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    finally:
        sorting._chosen[:] = saved
    if not tie:  # keys, tp and fp (24 bytes a sample) and the labels: 28.1; a new buffer for the scores: 36.1
        assert peak < 32 * n, peak / n
    order = np.argsort(-s, kind="stable")
    values, first = np.unique(-s[order], return_index=True)
    ends = np.r_[first[1:], n] - 1
    np.testing.assert_array_equal(op.thresholds[1:], -values)
    np.testing.assert_array_equal(op.tp[1:], np.cumsum(y[order])[ends])
    np.testing.assert_array_equal(op.fp[1:], np.cumsum(~y[order])[ends])
