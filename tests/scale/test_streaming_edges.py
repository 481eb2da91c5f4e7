"""The streaming accumulator's fast path (issue 26, item 6): bins by a lookup table, quantile edges by a key sort.

References are independent of the fast path: NumPy's binary search (``np.searchsorted``) and a
brute-force count of the samples between two edges, the exact engine on all the data, and the
stable-argsort quantiles of ``_binning.quantile_edges`` (the edges the accumulator used before).
"""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import isometrics as im
from isometrics.scale import BinnedCountTable
from isometrics.scale._binning import quantile_edges
from isometrics.scale._edges import EdgeIndex, sample_edges


def brute_force_counts(edges, s, y):
    """Samples of each class with ``edges[b-1] <= s < edges[b]``, bin by bin (open outer bins)."""
    bounds = np.r_[-np.inf, edges, np.inf]
    pos = [np.count_nonzero((s >= lo) & (s < hi) & (y == 1)) for lo, hi in zip(bounds[:-1], bounds[1:])]
    neg = [np.count_nonzero((s >= lo) & (s < hi) & (y == 0)) for lo, hi in zip(bounds[:-1], bounds[1:])]
    return np.array(pos, dtype=float), np.array(neg, dtype=float)


def around(edges, extra):
    """Every edge, its finite neighbours one ulp away, and ``extra`` scores."""
    with np.errstate(over="ignore"):
        scores = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf), extra])
    return scores[np.isfinite(scores)]


EDGE_SETS = {
    "quantiles of a sigmoid": lambda rng: np.quantile(
        1 / (1 + np.exp(-rng.normal(size=5000))), np.arange(1, 200) / 200
    ),
    "heavy tail (crowded cells)": lambda rng: np.unique(np.exp(4 * rng.normal(size=500))),
    "uniform": lambda rng: np.linspace(-3, 3, 101),
    "one edge": lambda rng: np.array([0.25]),
    "two edges": lambda rng: np.array([-1e-300, 1e-300]),
    "subnormal span": lambda rng: np.array([5e-324, 1e-323, 1.5e-323, 1e-300]),
    "span past float64": lambda rng: np.array([-1.5e308, -1.0, 0.0, 1.0, 1.5e308]),
    "dense cluster and outliers": lambda rng: np.r_[-1e6, 0.5 + np.arange(300) * 1e-12, 1e6],
}


@pytest.mark.parametrize("name", sorted(EDGE_SETS))
def test_lookup_is_the_binary_search(name, rng):
    edges = EDGE_SETS[name](rng)
    index = EdgeIndex(edges)
    s = around(
        edges,
        np.r_[
            rng.normal(size=2000) * 10.0 ** rng.integers(-3, 4, 2000), -1e308, 1e308, 0.0, -0.0, rng.choice(edges, 100)
        ],
    )
    y = rng.integers(0, 2, len(s)).astype(bool)
    assert np.array_equal(index.index(s), np.searchsorted(edges, s, side="right"))
    assert np.array_equal(index.keys(s, y), 2 * np.searchsorted(edges, s, side="right") + y)


finite = st.floats(allow_nan=False, allow_infinity=False)


@given(st.lists(finite, min_size=1, max_size=60, unique=True), st.lists(finite, max_size=60))
def test_lookup_is_the_binary_search_for_any_edges(edges, extra):
    edges = np.unique(np.array(edges) + 0.0)  # -0.0 and 0.0 are one edge
    index = EdgeIndex(edges)
    s = around(edges, np.array(extra, dtype=float))
    assert np.array_equal(index.index(s), np.searchsorted(edges, s, side="right"))


@pytest.mark.parametrize("strategy", [None, "uniform"])
def test_bin_totals_equal_a_brute_force_count(strategy, rng):
    n = 60_000
    y = (rng.random(n) < 0.1).astype(int)
    s = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y))), 5)  # ties, some on the edges
    acc = BinnedCountTable(100, strategy=strategy)
    for part in np.array_split(np.arange(n), 7):
        acc.update(y[part], s[part])
    pos, neg = brute_force_counts(acc.edges, s, y)
    np.testing.assert_array_equal(acc._state.pos, pos)
    np.testing.assert_array_equal(acc._state.neg, neg)
    w = rng.integers(1, 4, n).astype(float)
    weighted = BinnedCountTable(100, strategy=strategy).update(y[:999], s[:999], w[:999]).update(y, s, w)
    bounds = np.r_[-np.inf, weighted.edges, np.inf]
    expected = [
        w[(s >= lo) & (s < hi) & (y == 1)].sum() + w[:999][(s[:999] >= lo) & (s[:999] < hi) & (y[:999] == 1)].sum()
        for lo, hi in zip(bounds[:-1], bounds[1:])
    ]
    np.testing.assert_array_equal(weighted._state.pos, expected)  # whole weights: exact sums


def test_binned_batches_are_counted_without_sorting(rng, monkeypatch):
    """The default (quantile) accumulator neither sorts a batch nor argsorts the edge sample: the slow
    sort of some CPUs (NumPy's AVX-512 sort on AMD EPYC) made it 3x slower than uniform bins."""
    n = 200_000
    y = (rng.random(n) < 0.1).astype(int)
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y)))

    def refuse(*args, **kwargs):
        raise AssertionError("a sort of the batch")

    monkeypatch.setattr(np, "sort", refuse)
    monkeypatch.setattr(np, "argsort", refuse)
    acc = BinnedCountTable(1000)
    for part in np.array_split(np.arange(n), 4):
        acc.update(y[part], s[part])
    monkeypatch.undo()
    assert not acc.exact
    result = acc.compute()
    for name, f in {"auroc": im.auroc, "average_precision": im.average_precision, "auprg": im.auprg}.items():
        assert getattr(result, name).contains(f(y, s))


def test_quantile_edges_are_the_stable_argsort_ones_on_non_negative_scores(rng):
    """Distinct non-negative scores: the key sort gives the edges of the stable argsort, bit for bit."""
    n = 80_000
    y = rng.random(n) < 0.15
    s = 1 / (1 + np.exp(-(rng.normal(size=n) + y)))
    values = np.unique(rng.random(40))
    pos, neg = rng.integers(0, 3, 40).astype(float), rng.integers(1, 3, 40).astype(float)
    reference = quantile_edges(
        np.r_[values, s], np.r_[pos, np.where(y, 3.0, 0.0)], np.r_[neg, np.where(y, 0.0, 3.0)], 500
    )
    np.testing.assert_array_equal(sample_edges((values, pos, neg), s, y, 3.0, 500), reference)


def test_quantile_edges_of_signed_scores_are_at_most_one_ulp_low(rng):
    n = 20_000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) * 50 + y
    reference = quantile_edges(s, np.where(y, 1.0, 0.0), np.where(y, 0.0, 1.0), 300)
    edges = sample_edges((np.empty(0), np.empty(0), np.empty(0)), s, y, 1.0, 300)
    assert len(edges) == len(reference)
    assert np.all((edges == reference) | (edges == np.nextafter(reference, -np.inf)))
