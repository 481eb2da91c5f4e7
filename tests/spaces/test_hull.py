"""Convex hulls: dominance, exactness against a naive monotone chain, the PRG mapping, mixtures."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import isometrics as im

pytestmark = pytest.mark.filterwarnings("ignore::isometrics.exceptions.DegenerateDataWarning")


def naive_upper_hull(points):
    """Andrew's monotone chain (upper part), written out with a Python loop; strict vertices."""
    hull = []
    for p in points:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) >= 0:  # not a right turn
                hull.pop()
            else:
                break
        hull.append(p)
    return hull


@st.composite
def tied_data(draw):
    n = draw(st.integers(2, 60))
    y = draw(hnp.arrays(np.int8, n, elements=st.integers(0, 1)))
    y[0], y[1] = 1, 0
    s = draw(hnp.arrays(np.float64, n, elements=st.integers(0, 12).map(float)))
    return y, s


@given(tied_data())
def test_roc_hull_equals_naive_monotone_chain_and_dominates(data):
    y, s = data
    op = im.OperatingPoints.from_scores(y, s)
    hull = op.roc_convex_hull()
    expected = naive_upper_hull(list(zip(op.fp.tolist(), op.tp.tolist())))
    np.testing.assert_array_equal(np.column_stack([op.fp[hull.indices], op.tp[hull.indices]]), np.array(expected))
    fpr, tpr, _ = op.roc_curve()
    assert np.all(tpr <= hull.tpr_at(fpr) + 1e-12)
    assert hull.fpr[0] == 0 and hull.tpr[0] == 0 and hull.fpr[-1] == 1 and hull.tpr[-1] == 1
    assert np.all(np.diff(hull.slopes) < 0)


def test_large_hull_matches_naive(rng):
    # large enough for the candidate filtering (> 4096 corners) to run
    n = 200_000
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(size=n) + y
    op = im.OperatingPoints.from_scores(y, s)
    hull = op.roc_convex_hull()
    expected = naive_upper_hull(list(zip(op.fp.tolist(), op.tp.tolist())))
    assert [(op.fp[i], op.tp[i]) for i in hull.indices] == expected


def test_prg_hull_of_the_25_label_example():
    # ALGORITHMS.md 1.8 [derived]: vertices (-6.70370, 1), (-0.38272, 0.80247), (0.40741, 0.70370),
    # (0.58974, 0.58974), (1, 0); slopes 0, -1/32, -1/8, -5/8, -23/16; F-calibrated 1, .9697, .8889, .6154, .4103.
    labels = [int(c) for c in "1 1 1 0 1 1 1 1 1 1 0 1 1 1 0 1 0 0 1 0 0 0 1 0 1".split()]
    hull = im.prg_convex_hull(labels, 1 - np.arange(1, 26) / 25)
    np.testing.assert_allclose(hull.recall_gain, [-6.70370, -0.38272, 0.40741, 0.58974, 1.0], atol=5e-6)
    np.testing.assert_allclose(hull.precision_gain, [1.0, 0.80247, 0.70370, 0.58974, 0.0], atol=5e-6)
    np.testing.assert_allclose(hull.slopes, [0, -1 / 32, -1 / 8, -5 / 8, -23 / 16], rtol=1e-12)
    np.testing.assert_allclose(hull.f_calibrated_scores, [1, 32 / 33, 8 / 9, 8 / 13, 16 / 39], rtol=1e-12)
    # F-optimality (ALGORITHMS.md 1.8): the F-beta-optimal point is the vertex whose slope interval holds -beta^2.
    for beta2, vertex in ((0.3, (0.40741, 0.70370)), (1.0, (0.58974, 0.58974)), (2.0, (1.0, 0.0))):
        best = im.best_threshold(labels, 1 - np.arange(1, 26) / 25, metric=f"fbeta(beta={np.sqrt(beta2)})")
        k = np.flatnonzero(hull.thresholds == best.threshold)
        assert len(k) == 1
        assert (hull.recall_gain[k[0]], hull.precision_gain[k[0]]) == pytest.approx(vertex, abs=5e-6)


@given(tied_data())
def test_prg_hull_is_the_upper_hull_of_prg_points(data):
    y, s = data
    op = im.OperatingPoints.from_scores(y, s)
    hull = op.prg_convex_hull()
    pg, rg, _ = op.prg_curve()
    finite = op.tp > 0
    # every PRG point with a true positive lies on or under the hull (a horizontal ray before the first vertex)
    top = np.r_[True, np.diff(hull.recall_gain) > 0]  # a vertical last segment: keep its top
    envelope = np.interp(rg[finite], hull.recall_gain[top], hull.precision_gain[top], left=hull.precision_gain[0])
    with np.errstate(invalid="ignore"):
        assert np.all(pg[finite] <= envelope + 1e-9)
    # and each vertex is an operating point's PRG image
    np.testing.assert_allclose(hull.recall_gain, rg[hull.indices], rtol=1e-12)
    np.testing.assert_allclose(hull.precision_gain, pg[hull.indices], rtol=1e-12, atol=1e-12)


@given(
    st.integers(1, 50),
    st.integers(0, 50),
    st.integers(1, 50),
    st.integers(0, 50),
    st.integers(60, 200),
    st.integers(60, 200),
    st.floats(0, 1),
)
def test_straight_roc_segments_are_straight_in_prg(tp_a, fp_a, dtp, dfp, P, N, lam):
    # A random mixture of two classifiers has the interpolated counts; its PRG image lies on the PRG segment.
    tp_b, fp_b = tp_a + dtp, fp_a + dfp
    if tp_b > P or fp_b > N:
        return

    def prg(tp, fp):
        return 1 - (P / N) * (P - tp) / tp, 1 - (P / N) * fp / tp

    a, b = np.array(prg(tp_a, fp_a)), np.array(prg(tp_b, fp_b))
    m = np.array(prg(tp_a + lam * dtp, fp_a + lam * dfp))
    cross = (b - a)[0] * (m - a)[1] - (b - a)[1] * (m - a)[0]
    assert abs(cross) <= 1e-9 * (1 + np.abs(b - a).max() * np.abs(m - a).max())


def test_randomized_classifier_lands_on_the_segment(rng):
    y = (rng.random(2000) < 0.3).astype(int)
    s = np.round(rng.normal(size=2000) + y, 1)
    op = im.OperatingPoints.from_scores(y, s)
    hull = op.roc_convex_hull()
    mix = hull.randomized(fpr=0.3)
    assert mix.tpr == pytest.approx(float(hull.tpr_at(0.3)), rel=1e-12)
    assert mix.threshold_high >= mix.threshold_low and 0 <= mix.probability <= 1
    # expected counts of the mixture, exactly: the vertices' counts mixed with the probability
    hi, lo = s >= mix.threshold_high, s >= mix.threshold_low
    fpr_exp = ((1 - mix.probability) * np.sum(hi & (y == 0)) + mix.probability * np.sum(lo & (y == 0))) / np.sum(y == 0)
    tpr_exp = ((1 - mix.probability) * np.sum(hi & (y == 1)) + mix.probability * np.sum(lo & (y == 1))) / np.sum(y == 1)
    assert (fpr_exp, tpr_exp) == pytest.approx((0.3, mix.tpr), rel=1e-12)
    # and by simulation
    preds = np.array([mix.predict(s, rng=seed) for seed in range(400)])
    assert np.mean(preds[:, y == 0]) == pytest.approx(0.3, abs=0.01)
    assert np.mean(preds[:, y == 1]) == pytest.approx(mix.tpr, abs=0.01)


def test_randomized_rejects_bad_rate():
    hull = im.roc_convex_hull([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(im.InvalidParameterError, match=r"`fpr` must be a real number >= 0 and <= 1"):
        hull.randomized(fpr=1.5)


# Constrained optima at the boundary values 0 and 1 of their constraint, hand-derived.
# A: y = [1, 0, 1, 1, 0, 0], s = [6, 5, 4, 3, 2, 1]; P = N = 3. ROC points (FPR, TPR): 6: (0, 1/3),
#    5: (1/3, 1/3), 4: (1/3, 2/3), 3: (1/3, 1), 2: (2/3, 1), 1: (1, 1). Hull: origin, (0, 1/3) at 6,
#    (1/3, 1) at 3, (1, 1) at 1; the first segment is vertical, the last horizontal.
# B: the reversed ranking y = [0, 0, 0, 1, 1], s = [5, 4, 3, 2, 1]; P = 2, N = 3. Hull: origin, (1, 1) at 1:
#    the first segment is the diagonal, of precision 2/5 (the prevalence) throughout.
# C: y = [1, 0, 1, 0], s = [3, 3, 2, 1]; P = N = 2. Points (1/2, 1/2) at 3, (1/2, 1) at 2, (1, 1) at 1.
#    Hull: origin, (1/2, 1) at 2 (precision 2/3), (1, 1) at 1.
_A = ([1, 0, 1, 1, 0, 0], [6, 5, 4, 3, 2, 1])
_B = ([0, 0, 0, 1, 1], [5, 4, 3, 2, 1])
_C = ([1, 0, 1, 0], [3, 3, 2, 1])


@pytest.mark.parametrize(
    "data, method, k, threshold, fpr, tpr, precision",
    [
        (_A, "min_fpr_at_tpr", 0, 6, 0, 1 / 3, 1),  # FPR 0 up to vertex (0, 1/3): ties go to the larger TPR
        (_A, "min_fpr_at_tpr", 1, 3, 1 / 3, 1, 3 / 4),
        (_A, "max_precision_at_recall", 0, 6, 0, 1 / 3, 1),
        (_A, "max_precision_at_recall", 1, 3, 1 / 3, 1, 3 / 4),
        (_A, "max_recall_at_precision", 0, 3, 1 / 3, 1, 3 / 4),  # recall 1 from (1/3, 1) on: the lowest FPR
        (_A, "max_recall_at_precision", 1, 6, 0, 1 / 3, 1),
        (_B, "min_fpr_at_tpr", 0, np.inf, 0, 0, 1),  # only the empty prediction has FPR 0
        (_B, "min_fpr_at_tpr", 1, 1, 1, 1, 2 / 5),
        (_B, "max_precision_at_recall", 0, 1, 1, 1, 2 / 5),  # the case: not the empty prediction
        (_B, "max_precision_at_recall", 1, 1, 1, 1, 2 / 5),
        (_B, "max_recall_at_precision", 0, 1, 1, 1, 2 / 5),
        (_C, "min_fpr_at_tpr", 0, np.inf, 0, 0, 1),
        (_C, "min_fpr_at_tpr", 1, 2, 1 / 2, 1, 2 / 3),
        (_C, "max_precision_at_recall", 0, 2, 1 / 2, 1, 2 / 3),  # a sloped first segment: its vertex
        (_C, "max_precision_at_recall", 1, 2, 1 / 2, 1, 2 / 3),
        (_C, "max_recall_at_precision", 0, 2, 1 / 2, 1, 2 / 3),
    ],
)
def test_hull_optima_at_the_boundaries_of_their_constraint(data, method, k, threshold, fpr, tpr, precision):
    point = getattr(im.roc_convex_hull(*data), method)(k)
    assert point.probability == 0 and point.threshold_high == threshold  # a vertex, no randomisation
    assert point.fpr == pytest.approx(fpr, abs=1e-15) and point.tpr == pytest.approx(tpr, abs=1e-15)
    assert point.precision == pytest.approx(precision, abs=1e-15)


@pytest.mark.parametrize("data", [_B, _C])
def test_hull_precision_one_is_unreachable_without_a_vertical_first_segment(data):
    with pytest.raises(im.IsometricsError, match="no point of the hull reaches precision >= 1"):
        im.roc_convex_hull(*data).max_recall_at_precision(1)


@given(tied_data(), st.sampled_from([0.0, 1.0]))
def test_hull_optima_at_the_boundaries_match_the_observed_ones(data, k):
    # at k = 0 and 1 the hull cannot do better than the best observed threshold by randomising:
    # the optima are vertices with the observed optimum's value
    y, s = data
    op = im.OperatingPoints.from_scores(y, s)
    hull = op.roc_convex_hull()
    assert hull.max_precision_at_recall(k).precision == pytest.approx(op.precision_at_recall(k).precision, rel=1e-12)
    assert hull.min_fpr_at_tpr(k).fpr == pytest.approx(op.specificity_at_sensitivity(k).fpr, abs=1e-12)
    if k == 0:
        assert hull.max_recall_at_precision(k).tpr == 1.0 == op.recall_at_precision(k).recall
