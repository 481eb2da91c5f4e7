"""Invariances of the engine and identities of the curves (hypothesis), against brute force."""

import numpy as np
import pytest
from _naive import naive_auroc, naive_average_precision, naive_points
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import isometrics as im

# Constant scores are generated on purpose; their warning is tested in test_validation.py.
pytestmark = pytest.mark.filterwarnings("ignore::isometrics.exceptions.DegenerateDataWarning")


@st.composite
def binary_data(draw, min_size=2, max_size=40, weights=False):
    n = draw(st.integers(min_size, max_size))
    y = draw(hnp.arrays(np.int8, n, elements=st.integers(0, 1)))
    y[0], y[1] = 1, 0
    s = draw(hnp.arrays(np.float64, n, elements=st.sampled_from([-1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 2.5])))
    w = draw(hnp.arrays(np.int64, n, elements=st.integers(0, 3))) if weights else None
    if w is not None:
        w[0] = w[1] = 1
    return y, s, w


def _summary(op):
    return np.array(
        [
            op.auroc(),
            op.average_precision(),
            op.auprg(),
            op.best_threshold("f1").value,
            op.best_threshold("g(beta=2, rho=-3)").value,
        ]
    )


@given(binary_data(weights=True))
def test_counts_equal_brute_force(data):
    y, s, w = data
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    thr, tp, fp = naive_points(y, s, w)
    np.testing.assert_array_equal(op.thresholds, thr)
    np.testing.assert_array_equal(op.tp, tp)
    np.testing.assert_array_equal(op.fp, fp)
    assert op.auroc() == pytest.approx(naive_auroc(y, s, w), rel=1e-12)
    assert op.average_precision() == pytest.approx(naive_average_precision(y, s, w), rel=1e-12)


@given(binary_data(weights=True))
def test_integer_weights_equal_repetition(data):
    y, s, w = data
    weighted = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    repeated = im.OperatingPoints.from_scores(np.repeat(y, w), np.repeat(s, w))
    np.testing.assert_array_equal(weighted.thresholds, repeated.thresholds)
    np.testing.assert_allclose(_summary(weighted), _summary(repeated), rtol=1e-12)


@given(binary_data(weights=True), st.floats(-300, 300).map(lambda e: 10.0**e))
def test_zero_weight_is_removal_and_scaling_changes_nothing(data, scale):
    y, s, w = data
    kept = w > 0
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    removed = im.OperatingPoints.from_scores(y[kept], s[kept], sample_weight=w[kept])
    np.testing.assert_array_equal(op.thresholds, removed.thresholds)
    np.testing.assert_allclose(_summary(op), _summary(removed), rtol=1e-12)
    scaled = im.OperatingPoints.from_scores(y, s, sample_weight=w * scale)
    np.testing.assert_allclose(_summary(op), _summary(scaled), rtol=1e-9, atol=1e-12)


@given(binary_data(weights=True), st.integers(-1000, 1000))
def test_power_of_two_weight_scales_change_no_bit(data, k):
    """Scaling by 2**k is exact, and so is the engine's normalisation: identical results."""
    y, s, w = data
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    scaled = im.OperatingPoints.from_scores(y, s, sample_weight=np.ldexp(w.astype(float), k))
    np.testing.assert_array_equal(scaled.tp, np.ldexp(op.tp, k))
    np.testing.assert_array_equal(_summary(scaled), _summary(op))
    np.testing.assert_array_equal(scaled.prg_curve().precision_gain, op.prg_curve().precision_gain)
    np.testing.assert_array_equal(scaled.roc_convex_hull().indices, op.roc_convex_hull().indices)


@given(binary_data(), st.randoms(use_true_random=False))
def test_order_and_monotone_transform_invariance(data, random):
    y, s, _ = data
    op = im.OperatingPoints.from_scores(y, s)
    perm = np.array(random.sample(range(len(y)), len(y)))
    shuffled = im.OperatingPoints.from_scores(y[perm], s[perm])
    np.testing.assert_array_equal(_summary(op), _summary(shuffled))
    transformed = im.OperatingPoints.from_scores(y, np.exp(3 * s) - 7)
    np.testing.assert_allclose(_summary(op), _summary(transformed), rtol=1e-12)


@given(binary_data())
def test_string_labels_equal_integer_labels(data):
    y, s, _ = data
    names = np.where(y == 1, "spam", "ham")
    a = im.OperatingPoints.from_scores(y, s)
    b = im.OperatingPoints.from_scores(names, s, pos_label="spam")
    np.testing.assert_array_equal(_summary(a), _summary(b))


@given(binary_data())
def test_reversed_scores_give_one_minus_auroc(data):
    y, s, _ = data
    assert im.auroc(y, -s) == pytest.approx(1 - im.auroc(y, s), abs=1e-12)


@given(binary_data(weights=True))
def test_prg_gain_identities(data):
    y, s, w = data
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    pg, rg, _ = op.prg_curve()
    fpr, tpr, _ = op.roc_curve()
    pi = op.prevalence
    has_tp = tpr > 0
    np.testing.assert_allclose(pg[has_tp], 1 - fpr[has_tp] / tpr[has_tp], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(rg[has_tp], 1 + pi / (1 - pi) - (pi / (1 - pi)) / tpr[has_tp], rtol=1e-12, atol=1e-12)
    # the always-positive classifier sits at (1, 0)
    assert rg[-1] == pytest.approx(1.0) and pg[-1] == pytest.approx(0.0, abs=1e-12)


@given(binary_data())
def test_auprg_equals_exact_rational_computation(data):
    from _naive import exact_auprg

    y, s, _ = data
    assert im.auprg(y, s) == pytest.approx(float(exact_auprg(y.tolist(), s.tolist())), rel=1e-11, abs=1e-12)


@given(binary_data(weights=True), st.integers(1, 5))
def test_merge_of_chunks_equals_whole(data, n_chunks):
    y, s, w = data
    whole = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    bounds = np.linspace(0, len(y), n_chunks + 1).astype(int)
    chunks = [
        im.OperatingPoints.from_scores(y[a:b], s[a:b], sample_weight=w[a:b])
        for a, b in zip(bounds, bounds[1:])
        if b > a and w[a:b].sum() > 0
    ]
    merged = chunks[0].merge(*chunks[1:])
    np.testing.assert_array_equal(merged.thresholds, whole.thresholds)
    np.testing.assert_array_equal(merged.tp, whole.tp)
    np.testing.assert_array_equal(merged.fp, whole.fp)


@given(
    binary_data(),
    st.sampled_from(
        [
            "f1",
            "f2",
            "f0.5",
            "g(beta=2, rho=-3)",
            "arithmetic(gamma=2)",
            "geometric(beta=2)",
            "min",
            "max",
            "recall",
            "precision",
        ]
    ),
)
def test_best_threshold_is_the_maximum_over_thresholds(data, spec):
    y, s, _ = data
    best = im.best_threshold(y, s, metric=spec)
    metric = im.parse_metric(spec)
    values = []
    for t in np.unique(s):
        pred = s >= t
        tp, fp = np.sum(pred & (y == 1)), np.sum(pred & (y == 0))
        fn = np.sum(~pred & (y == 1))
        values.append(metric.from_counts(tp, fp, fn, 0))
    assert best.value == pytest.approx(np.nanmax(values), rel=1e-12)
    assert s[s >= best.threshold].size == best.tp + best.fp


def _exact_pairwise_auroc(y, s):
    """Mann-Whitney count on the integers themselves (NumPy compares int64/uint64 exactly)."""
    pos, neg = s[y == 1], s[y == 0]
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    return wins / (len(pos) * len(neg))


@st.composite
def large_integer_scores(draw, dtype):
    """Integers around 2**53, 2**62 and the dtype's ends, some of them exact in float64 and some not."""
    n = draw(st.integers(2, 12))
    if dtype == np.uint64:
        bases = [0, 2**53 - 8, 2**53, 2**62, 2**64 - 2**16]
    else:
        bases = [0, 2**53 - 8, 2**53, -(2**53) - 8, 2**62, -(2**63), 2**63 - 2**16]
    base = draw(st.sampled_from(bases))
    shift = draw(st.sampled_from([0, 1, 3, 11, 12]))
    offsets = draw(st.lists(st.integers(0, 15), min_size=n, max_size=n))
    s = np.array([base + (k << shift) for k in offsets], dtype=dtype)
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.int8)
    y[0], y[1] = 1, 0
    return y, s


@given(st.sampled_from([np.int64, np.uint64]).flatmap(large_integer_scores))
def test_integer_scores_are_ranked_exactly_or_rejected(data):
    y, s = data
    exact = all(int(float(v)) == int(v) for v in s.tolist())
    if exact:
        assert im.auroc(y, s) == pytest.approx(_exact_pairwise_auroc(y, s), rel=1e-12)
        op = im.OperatingPoints.from_scores(y, s)
        assert sorted({int(v) for v in s.tolist()}, reverse=True) == [int(t) for t in op.thresholds[1:]]
    else:
        with pytest.raises(im.IsometricsError, match="float64 cannot represent exactly"):
            im.auroc(y, s)
        with pytest.raises(im.IsometricsError, match="float64 cannot represent exactly"):
            im.auroc(y, s.astype(object))  # Python integers: the same check
