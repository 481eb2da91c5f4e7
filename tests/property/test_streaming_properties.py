"""Properties of the streaming accumulator (issue 14, section 3), for any data, bins and batches.

The reference is the exact engine on all the samples at once (``isometrics.auroc``,
``average_precision``, ``auprg``: one sort of every sample, ties grouped), which shares no code
path with the binned bounds.
"""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import isometrics as im
from isometrics.scale import BinnedCountTable

AREAS = {"auroc": im.auroc, "average_precision": im.average_precision, "auprg": im.auprg}


@st.composite
def streams(draw, weighted=None):
    n = draw(st.integers(2, 80))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    pool = draw(st.sampled_from(["ties", "grid", "continuous", "wide"]))
    if pool == "ties":
        s = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), dtype=float) / 6
    elif pool == "grid":
        s = np.array(draw(st.lists(st.integers(-50, 150), min_size=n, max_size=n)), dtype=float) / 100
    else:
        scale = 1.0 if pool == "continuous" else 1e3
        s = np.array(
            draw(st.lists(st.floats(-scale, scale, allow_nan=False, allow_subnormal=False), min_size=n, max_size=n))
        )
    kind = draw(st.sampled_from(["none", "integer", "real"])) if weighted is None else weighted
    w = None
    if kind == "integer":
        w = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), dtype=float)
    elif kind == "real":
        # zeros and an ordinary dynamic range: weight ratios near float64's range make precision gain undefined
        w = np.array(draw(st.lists(st.one_of(st.just(0.0), st.floats(0.01, 10.0)), min_size=n, max_size=n)))
    positive = np.ones(n, bool) if w is None else w > 0
    assume((y[positive] == 1).any() and (y[positive] == 0).any())
    cuts = sorted(draw(st.lists(st.integers(1, n - 1), max_size=4, unique=True)))
    return y, s, w, cuts


def _settings(draw_bins, strategy, s):
    if strategy == "edges":
        return dict(bins=np.unique(np.quantile(s, np.linspace(0.1, 0.9, draw_bins))))
    return dict(bins=draw_bins, strategy=strategy)


def _feed(acc, y, s, w, cuts):
    for part in np.split(np.arange(len(y)), cuts):
        acc.update(y[part], s[part], None if w is None else w[part])
    return acc


# a stream of one repeated score is a valid draw: the exact area warns that it does not rank (tested elsewhere)
@pytest.mark.filterwarnings("ignore:y_score has a single distinct value:isometrics.exceptions.DegenerateDataWarning")
@given(streams(), st.integers(2, 12), st.sampled_from(["quantile", "uniform", "edges"]))
def test_exact_value_always_inside_the_interval(data, n_bins, strategy):
    y, s, w, cuts = data
    result = _feed(BinnedCountTable(**_settings(n_bins, strategy, s)), y, s, w, cuts).compute()
    for name, f in AREAS.items():
        bounds = getattr(result, name)
        exact = f(y, s, sample_weight=w)
        assert bounds.lower <= bounds.estimate <= bounds.upper
        assert bounds.lower <= exact <= bounds.upper, (name, bounds, exact, result.exact)


@given(streams(weighted="integer"), st.integers(0, 5), st.sampled_from(["quantile", "uniform"]))
def test_exact_when_the_distinct_scores_fit(data, spare, strategy):
    y, s, w, cuts = data
    kept = w > 0
    n_distinct = len(np.unique(s[kept]))
    assume(n_distinct >= 2)
    result = _feed(BinnedCountTable(n_distinct + spare, strategy=strategy), y, s, w, cuts).compute()
    assert result.exact
    for name, f in AREAS.items():
        bounds = getattr(result, name)
        assert bounds.lower == bounds.upper == bounds.estimate == f(y, s, sample_weight=w), name


@given(streams(weighted="integer"), st.integers(2, 12), st.sampled_from(["uniform", "edges"]), st.integers(2, 4))
def test_merged_split_streams_equal_one_stream(data, n_bins, strategy, k):
    y, s, w, cuts = data
    settings = _settings(n_bins, strategy, s)
    whole = _feed(BinnedCountTable(**settings), y, s, w, cuts).compute()
    parts = [BinnedCountTable(**settings) for _ in range(k)]
    for j, part in enumerate(parts):
        rows = np.arange(j, len(y), k)
        if len(rows):
            part.update(y[rows], s[rows], w[rows])
    merged = parts[0].merge(*parts[1:]).compute()
    assert merged.exact == whole.exact
    for name in AREAS:
        a, b = getattr(merged, name), getattr(whole, name)
        assert (a.lower, a.upper) == (b.lower, b.upper), name
        assert a.estimate == pytest.approx(b.estimate, abs=1e-12)
    assert merged.n_positives == whole.n_positives and merged.n_negatives == whole.n_negatives


@given(streams(), st.integers(2, 12), st.sampled_from(["uniform", "edges"]), st.randoms(use_true_random=False))
def test_order_of_samples_does_not_matter(data, n_bins, strategy, random):
    y, s, w, cuts = data
    settings = _settings(n_bins, strategy, s)
    perm = np.array(random.sample(range(len(y)), len(y)))
    a = _feed(BinnedCountTable(**settings), y, s, w, cuts).compute()
    b = _feed(BinnedCountTable(**settings), y[perm], s[perm], None if w is None else w[perm], cuts).compute()
    for name in AREAS:
        for end in ("lower", "upper", "estimate"):
            assert getattr(getattr(a, name), end) == pytest.approx(getattr(getattr(b, name), end), abs=1e-9)
