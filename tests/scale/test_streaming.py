"""The streaming accumulator (issue 14, section 3): exactness, guaranteed intervals, merging, bad batches.

References are independent of the accumulator: the exact engine on all the data at once
(``isometrics.auroc`` and friends, one sort of every sample), brute-force pair counts
(tests/_naive.py), and hand-built data whose within-bin order is known.
"""

import pickle

import numpy as np
import pytest
from _naive import naive_auroc, naive_average_precision

import isometrics as im
from isometrics.scale import AreaBounds, BinnedCountTable, BinnedEvaluation

AREAS = {"auroc": im.auroc, "average_precision": im.average_precision, "auprg": im.auprg}


def exact_areas(y, s, w=None):
    return {name: f(y, s, sample_weight=w) for name, f in AREAS.items()}


def feed(acc, y, s, w=None, batches=5):
    for part in np.array_split(np.arange(len(y)), batches):
        acc.update(y[part], s[part], None if w is None else w[part])
    return acc


@pytest.fixture
def continuous(rng):
    y = (rng.random(20_000) < 0.3).astype(int)
    s = 1.0 / (1.0 + np.exp(-(rng.normal(size=20_000) + 1.2 * y)))
    return y, s


# ---------------------------------------------------------------------------- exact while the scores fit
def test_exact_when_distinct_scores_fit_the_bins(rng):
    y = rng.integers(0, 2, 3000)
    s = np.round(rng.normal(size=3000) + y, 1)  # about 70 distinct scores
    w = rng.integers(1, 5, 3000).astype(float)
    result = feed(BinnedCountTable(len(np.unique(s))), y, s, w).compute()
    assert result.exact and result.n_bins == len(np.unique(s))
    for name, value in exact_areas(y, s, w).items():
        bounds = getattr(result, name)
        assert bounds.lower == bounds.upper == bounds.estimate == value  # whole-number weights: bit for bit
    assert result.auroc.estimate == pytest.approx(naive_auroc(y, s, w), abs=1e-12)
    assert result.average_precision.estimate == pytest.approx(naive_average_precision(y, s, w), abs=1e-12)
    best = im.best_threshold(y, s, metric="f2", sample_weight=w)
    assert result.best_threshold("f2").threshold == best.threshold
    assert result.best_threshold("f2").value == best.value


def test_one_more_distinct_score_than_bins_turns_binned(rng):
    s = np.arange(11) / 10.0
    y = np.r_[0, 1].repeat(6)[:11]
    acc = BinnedCountTable(10).update(y, s)
    assert not acc.exact and not acc.compute().exact


# ---------------------------------------------------------------------------- the guarantee
@pytest.mark.parametrize(
    "make",
    [
        lambda: BinnedCountTable(64),
        lambda: BinnedCountTable(64, strategy="uniform"),
        lambda: BinnedCountTable([0.2, 0.5, 0.51, 0.9]),
    ],
)
def test_exact_value_inside_interval(make, continuous, rng):
    y, s = continuous
    w = rng.exponential(size=len(y))
    for weights in (None, w):
        result = feed(make(), y, s, weights).compute()
        assert not result.exact
        for name, value in exact_areas(y, s, weights).items():
            bounds = getattr(result, name)
            assert bounds.lower <= bounds.estimate <= bounds.upper
            assert bounds.contains(value), (name, bounds, value)


def test_auroc_interval_is_the_within_bin_pairs(continuous):
    """Width of the AUROC interval: the (positive, negative) pairs inside a bin, counted by brute force."""
    y, s = continuous
    edges = np.linspace(0.05, 0.95, 19)
    bounds = BinnedCountTable(edges).update(y, s).compute().auroc
    b = np.searchsorted(edges, s, side="right")
    pairs = sum(np.sum((b == k) & (y == 1)) * np.sum((b == k) & (y == 0)) for k in range(20))
    assert bounds.width == pytest.approx(pairs / (y.sum() * (1 - y).sum()), abs=3e-9)


def _bins_with_known_order(positives_first, tied):
    """Ten bins [k/10, (k+1)/10); inside each, every positive above (or below) every negative."""
    rng = np.random.default_rng(4)
    y, s = [], []
    for k in range(10):
        n_pos, n_neg = rng.integers(1, 6, 2)
        top, bottom = (k + 0.9) / 10, (k + 0.1) / 10
        pos = np.full(n_pos, top if positives_first else bottom)
        if not tied:
            pos = pos + (np.arange(n_pos) * 0.01 / 10 * (1 if positives_first else -1))
        neg = np.linspace(k / 10 + 0.03, k / 10 + 0.07, n_neg)
        y += [1] * n_pos + [0] * n_neg
        s += list(pos) + list(neg)
    return np.array(y), np.array(s)


def test_bounds_are_reached_by_the_extreme_orders():
    edges = np.arange(1, 10) / 10
    y, s = _bins_with_known_order(positives_first=True, tied=True)
    result = BinnedCountTable(edges).update(y, s).compute()
    exact = exact_areas(y, s)
    for name in ("auroc", "average_precision", "auprg"):  # positives first, tied: every upper bound reached
        assert getattr(result, name).upper == pytest.approx(exact[name], abs=1e-8)
    y, s = _bins_with_known_order(positives_first=False, tied=False)
    result = BinnedCountTable(edges).update(y, s).compute()
    exact = exact_areas(y, s)
    for name in ("auroc", "auprg"):  # negatives first: the lower bounds reached
        assert getattr(result, name).lower == pytest.approx(exact[name], abs=1e-8)
    # AP: positives last, one by one, is the right sum of an increasing function: just above the integral
    assert 0 < exact["average_precision"] - result.average_precision.lower < 0.05


def test_estimate_beats_the_midpoint_of_a_threshold_grid(continuous):
    y, s = continuous
    exact = exact_areas(y, s)
    result = BinnedCountTable(100, strategy="uniform").update(y, s).compute()
    grid = result.operating_points  # each bin one tie group: what a 100-threshold grid computes
    midpoint = {"auroc": grid.auroc(), "average_precision": grid.average_precision(), "auprg": grid.auprg()}
    for name, value in exact.items():
        assert abs(getattr(result, name).estimate - value) < abs(midpoint[name] - value) / 3, name


def test_best_threshold_is_exact_at_the_bin_edges(continuous):
    y, s = continuous
    edges = np.linspace(0.1, 0.9, 33)
    best = BinnedCountTable(edges).update(y, s).compute().best_threshold("f1")
    assert best.threshold in set(edges) | {s.min()}
    predicted = s >= best.threshold
    tp, fp = np.sum(predicted & (y == 1)), np.sum(predicted & (y == 0))
    assert best.value == pytest.approx(2 * tp / (2 * tp + fp + (y.sum() - tp)), rel=1e-12)
    f1 = [2 * np.sum((s >= e) & (y == 1)) / (np.sum(s >= e) + y.sum()) for e in edges]
    assert best.value == pytest.approx(max(max(f1), best.value), rel=1e-12)


# ---------------------------------------------------------------------------- merging and order
def _same(a, b):
    """Counts and bounds bit for bit (whole-number weights); estimates, which use sums of scores, to rounding."""
    a, b = a.to_dict(), b.to_dict()
    for name in AREAS:
        assert (a[name]["lower"], a[name]["upper"]) == (b[name]["lower"], b[name]["upper"]), name
        assert a[name]["estimate"] == pytest.approx(b[name]["estimate"], abs=1e-13)
    return all(a[k] == b[k] for k in a if k not in AREAS)


def test_merged_split_streams_equal_one_stream(continuous, rng):
    y, s = continuous
    w = rng.integers(1, 4, len(y)).astype(float)
    for make in (lambda: BinnedCountTable(50, strategy="uniform"), lambda: BinnedCountTable(np.linspace(0, 1, 30))):
        whole = feed(make(), y, s, w, batches=7).compute()
        parts = [feed(make(), y[k::3], s[k::3], w[k::3]) for k in range(3)]
        merged = parts[0].merge(parts[1], parts[2]).compute()
        assert _same(merged, whole)
    # exact accumulators, and an exact one into a binned one
    small = np.round(s, 2)
    whole = BinnedCountTable(200).update(y, small).compute()
    assert (
        BinnedCountTable(200)
        .update(y[:5000], small[:5000])
        .merge(BinnedCountTable(200).update(y[5000:], small[5000:]))
        .compute()
        .to_dict()
        == whole.to_dict()
    )
    binned = feed(BinnedCountTable(50, strategy="uniform"), y[5000:], s[5000:])
    assert _same(
        BinnedCountTable(50, strategy="uniform").update(y[:5000], small[:5000]).merge(binned).compute(),
        feed(
            BinnedCountTable(50, strategy="uniform"), np.r_[y[:5000], y[5000:]], np.r_[small[:5000], s[5000:]]
        ).compute(),
    )


def test_order_of_samples_and_batches_changes_nothing(continuous, rng):
    y, s = continuous
    for make in (lambda: BinnedCountTable(40, strategy="uniform"), lambda: BinnedCountTable(40)):
        one = make().update(y, s).compute()
        perm = rng.permutation(len(y))
        assert _same(make().update(y[perm], s[perm]).compute(), one)
        if make().strategy == "uniform":  # fixed bins: batches in any order
            assert _same(feed(make(), y[perm], s[perm], batches=9).compute(), one)


def test_merge_refuses_other_bins(continuous):
    y, s = continuous
    a = BinnedCountTable(20).update(y[:10_000], s[:10_000])
    b = BinnedCountTable(20).update(y[10_000:], s[10_000:] ** 2)
    before = a.compute().to_dict()
    with pytest.raises(im.InvalidParameterError, match="other bin edges.*bins=first.edges"):
        a.merge(b)
    assert a.compute().to_dict() == before
    with pytest.raises(im.InvalidParameterError, match="other bin edges"):
        a.merge(BinnedCountTable(30, strategy="uniform").update(y, s))
    with pytest.raises(im.InvalidParameterError, match="pos_label=0, this one with pos_label=None"):
        a.merge(BinnedCountTable(pos_label=0))
    # an exact accumulator with data-adapted bins takes the edges of a binned one
    adopted = BinnedCountTable(20).update(y[:3], s[:3]).merge(a)
    assert np.array_equal(adopted.edges, a.edges) and adopted.n_positives == a.n_positives + y[:3].sum()
    with pytest.raises(im.InvalidParameterError, match="not a BinnedCountTable"):
        a.merge(im.OperatingPoints.from_scores(y, s))
    shared = BinnedCountTable(a.edges).update(y[10_000:], s[10_000:])  # the fix the message gives
    merged = BinnedCountTable(a.edges).update(y[:10_000], s[:10_000]).merge(shared).compute()
    assert merged.auroc.contains(im.auroc(y, s))


# ---------------------------------------------------------------------------- bad batches (section 5)
GOOD = (np.array([0, 1, 1, 0, 1]), np.array([0.1, 0.8, 0.7, 0.4, 0.35]), np.array([1.0, 2.0, 1.0, 1.0, 1.0]))


@pytest.mark.parametrize(
    "bad, match",
    [
        (lambda y, s, w: (y, np.r_[s[:-1], np.nan], w), "y_score contains 1 NaN value"),
        (lambda y, s, w: (y, np.r_[s[:-1], np.inf], w), "y_score contains 1 infinite value"),
        (lambda y, s, w: (np.r_[y[:-1], 2], s, w), "3 classes across the batches"),
        (lambda y, s, w: (y, s, np.r_[w[:-1], -1.0]), "negative values"),
        (lambda y, s, w: (y[:-1], s, w), "different numbers of samples"),
        (lambda y, s, w: (y, s, w[:-1]), "different numbers of samples"),
        (lambda y, s, w: (y, s.astype(str), w), "must be numeric scores"),
        (lambda y, s, w: (y + 0.5, s, w), "continuous values"),
        (lambda y, s, w: (np.where(y == 1, "a", "b"), s, w), "mixes label types"),
    ],
)
@pytest.mark.parametrize("binned", [False, True])
def test_bad_batch_is_rejected_and_changes_nothing(bad, match, binned, continuous):
    y, s = continuous
    acc = BinnedCountTable(8 if binned else 1000).update(*GOOD).update(y, np.round(s, 2))
    assert acc.exact is not binned
    before = pickle.dumps(acc.__dict__)
    result = acc.compute().to_dict()
    with pytest.raises(im.IsometricsError, match=match):
        acc.update(*bad(*GOOD))
    assert pickle.dumps(acc.__dict__) == before
    assert acc.compute().to_dict() == result


def test_labels_across_batches():
    acc = BinnedCountTable(pos_label="yes").update(["no", "no"], [0.1, 0.2])  # the positive class may come later
    with pytest.raises(im.IsometricsError, match="one class so far .*no positive"):
        acc.compute()
    with pytest.raises(im.IsometricsError, match="pos_label='yes' is not a label"):
        acc.update(["maybe"], [0.5])
    acc.update(["yes"], [0.9])
    assert acc.compute().auroc.estimate == 1.0
    with pytest.raises(im.IsometricsError, match="cannot infer the positive class"):
        BinnedCountTable().update(["a", "b"], [0.1, 0.2])
    assert BinnedCountTable().update([-1, 1], [0.1, 0.2]).pos_label == 1
    with pytest.raises(im.IsometricsError, match="no samples yet"):
        BinnedCountTable().compute()
    empty = BinnedCountTable().update([], [])
    assert empty.n_positives == empty.n_negatives == 0


def test_zero_weights_are_no_samples(continuous):
    y, s = continuous
    w = np.ones(len(y))
    w[::2] = 0
    a = BinnedCountTable(30, strategy="uniform").update(y, s, w).compute().to_dict()
    assert a == BinnedCountTable(30, strategy="uniform").update(y[1::2], s[1::2]).compute().to_dict()


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(bins=1), "`bins` must be an integer >= 2"),
        (dict(bins=2.5), "`bins` must be an integer"),
        (dict(bins=[0.3, 0.2]), "strictly increasing"),
        (dict(bins=[0.1, np.inf]), "finite"),
        (dict(bins=[]), "at least one"),
        (dict(bins=[0.5], strategy="uniform"), "`strategy` applies to a number of bins"),
        (dict(strategy="log"), "`strategy` must be one of"),
        (dict(strategy="uniform", score_range=(1, 0)), "low < high"),
        (dict(strategy="uniform", score_range=(0, 1e-320)), "too narrow or too wide"),
        (dict(strategy="uniform", score_range=(-1e308, 1e308)), "too narrow or too wide"),
        (dict(pos_label=[1]), "`pos_label` must be one label"),
    ],
)
def test_bad_settings(kwargs, match):
    with pytest.raises(im.InvalidParameterError, match=match):
        BinnedCountTable(**kwargs)


def test_results_and_pickling(continuous):
    y, s = continuous
    acc = BinnedCountTable(16).update(y, s)
    copy = pickle.loads(pickle.dumps(acc))
    assert copy.compute().to_dict() == acc.compute().to_dict()
    result = acc.compute()
    assert isinstance(result, BinnedEvaluation) and isinstance(result.auroc, AreaBounds)
    assert pickle.loads(pickle.dumps(result)).to_dict() == result.to_dict()
    assert len(repr(result)) < 960 and "AreaBounds(lower=" in repr(result)
    assert "BinnedCountTable(n_bins=16" in repr(acc)
    acc.reset()
    assert acc.exact and acc.n_positives == 0


def test_sorting_and_searching_count_alike(continuous):
    """Unweighted and weighted (all weights 1) batches give the same counts, and those of a binary search."""
    y, s = continuous
    edges = np.r_[np.linspace(0.05, 0.95, 50), s[::997]]  # some edges equal to scores
    a = BinnedCountTable(np.unique(edges)).update(y, s)
    b = BinnedCountTable(np.unique(edges)).update(y, s, np.ones(len(y)))
    for name in ("pos", "neg"):
        np.testing.assert_array_equal(getattr(a._state, name), getattr(b._state, name))
    for name in ("pos_sum", "neg_sum"):
        np.testing.assert_allclose(getattr(a._state, name), getattr(b._state, name), rtol=1e-12)
    unique = np.unique(edges)
    expected = np.bincount(np.searchsorted(unique, s[y == 1], side="right"), minlength=len(unique) + 1)
    np.testing.assert_array_equal(a._state.pos, expected)


def test_uniform_bins_by_arithmetic_match_a_search_at_the_edges():
    """Equal-width bins are found by arithmetic, rounding included: a score on an edge, or one ulp either
    side of it, lands where a binary search among the stored edges puts it."""
    acc = BinnedCountTable(10, strategy="uniform", score_range=(-0.3, 0.7))
    edges = acc.edges
    s = np.concatenate([edges, np.nextafter(edges, -np.inf), np.nextafter(edges, np.inf), [-5.0, 5.0, -0.3, 0.7]])
    scores = np.r_[s, np.linspace(-1, 1, 20)]  # more distinct scores than bins: binned
    labels = np.r_[np.arange(len(s)) % 2, np.zeros(20, int)]
    acc.update(labels, scores)
    expected = np.bincount(np.searchsorted(edges, scores[labels == 1], side="right"), minlength=10)
    np.testing.assert_array_equal(acc._state.pos, expected)


def test_quantile_edges_of_a_large_first_batch_come_from_a_subsample(rng):
    """A first batch beyond 2**18 samples sets the edges from an evenly spaced subsample: still at most
    ``bins`` bins, roughly equal in mass, and the guarantee holds."""
    n = 300_000
    y = (rng.random(n) < 0.2).astype(int)
    s = rng.normal(size=n) + y
    acc = BinnedCountTable(100).update(y, s)
    assert len(acc.edges) <= 99
    share = np.bincount(np.searchsorted(acc.edges, s, side="right"), minlength=100) / n
    assert share.max() < 3 / 100
    result = acc.compute()
    for name, value in exact_areas(y, s).items():
        assert getattr(result, name).contains(value)
