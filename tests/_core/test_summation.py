"""Aligned block sums: the same double however the terms are cut (the contract the in-memory
engine, the out-of-core sweep and the Dask backend rely on for identical areas)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isometrics._core.summation import BLOCK, BlockSum, aligned_sum


def _terms(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # Magnitudes spread over 24 decades so that the order of addition changes the rounding.
    return rng.random(n) * 10.0 ** rng.integers(-12, 12, n)


def test_row_reduction_equals_reduction_of_the_row_alone():
    x = _terms(0, 5 * BLOCK)
    rows = np.add.reduce(x.reshape(5, BLOCK), axis=1)
    alone = [np.add.reduce(x[i * BLOCK : (i + 1) * BLOCK].copy()) for i in range(5)]
    assert rows.tolist() == [float(v) for v in alone]


def test_the_order_of_addition_matters_for_these_terms():
    # The test below could not fail if every order gave the same double.
    x = _terms(1, 3 * BLOCK + 17)
    assert float(np.sum(x)) != float(np.sum(x[::-1])) or float(np.sum(x)) != math.fsum(x)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(0, 4 * BLOCK + 3), cuts=st.lists(st.floats(0, 1), max_size=8))
def test_any_cutting_into_batches_gives_the_same_double(seed, n, cuts):
    x = _terms(seed, n)
    whole = aligned_sum(x)
    points = sorted({int(c * n) for c in cuts} | {0, n})
    acc = BlockSum()
    for a, b in zip(points[:-1], points[1:]):
        acc.add(x[a:b])
    assert acc.total() == whole
    assert acc.position == n


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 4 * BLOCK + 3), cuts=st.lists(st.floats(0, 1), max_size=6))
def test_ranges_summed_apart_and_merged_in_order_give_the_same_double(seed, n, cuts):
    # As Dask workers do: each range starts at an arbitrary global position.
    x = _terms(seed, n)
    points = sorted({int(c * n) for c in cuts} | {0, n})
    parts = []
    for a, b in zip(points[:-1], points[1:]):
        part = BlockSum(start=a)
        part.add(x[a:b])
        parts.append(part)
    first = parts[0]
    for part in parts[1:]:
        first.merge(part)
    assert first.total() == aligned_sum(x)


def test_the_sum_is_accurate():
    x = _terms(2, 10 * BLOCK + 5)
    exact = math.fsum(x)
    assert abs(aligned_sum(x) - exact) <= 1e-15 * x.size * exact


def test_short_input_is_the_plain_pairwise_sum():
    x = _terms(3, 1000)
    assert aligned_sum(x) == float(np.add.reduce(x))
    assert aligned_sum(np.empty(0)) == 0.0


def test_merge_out_of_order_is_refused():
    a, b = BlockSum(0), BlockSum(10)
    a.add(np.ones(5))
    with pytest.raises(ValueError, match="merge ranges in order"):
        a.merge(b)
    with pytest.raises(ValueError, match="start must be >= 0"):
        BlockSum(-1)
