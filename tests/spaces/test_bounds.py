"""Bounds mean what the user typed (issue 20, item 5).

``min_precision=0.9`` means nine in ten: a threshold whose precision is exactly 9/10 of its
counts meets it, although the double 0.9 is 0.90000000000000002... and ``9 / 10`` or
``9 * (1 - 0.9) >= 0.9 * 1`` round the other way; weighted counts (sums of 0.1) add rounding
of their own. Every bounded function (observed thresholds, the ROC hull's randomised
optima, budgets and rates) is checked here at bounds that are exact fractions of the
counts. The expected values are hand-derived from the counts, or exact rationals
(``fractions.Fraction``) of the counts, never the package's output.
"""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import isometrics as im
from isometrics._core.bounds import BOUND_RTOL, meets_bound


def groups(counts, weight=None):
    """Samples from groups of tied scores, highest first: ``counts`` is [(positives, negatives), ...]."""
    y, s = [], []
    for i, (a, b) in enumerate(counts):
        y += [1] * a + [0] * b
        s += [float(len(counts) - i)] * (a + b)
    w = None if weight is None else np.full(len(y), weight)
    return np.array(y), np.array(s), w


# ------------------------------------------------------------------ the case: 9 of 10
# Points (tp, fp) in score order: (1..5, 0), (5, 1), (6..9, 1), (9, 2..6), (10..12, 6), (12, 7..26).
# Precision >= 0.9 holds at (1..5, 0) and at (9, 1) (exactly 9/10); the best recall is 9/12.
NINE_TENTHS = [(1, 0)] * 5 + [(0, 1)] + [(1, 0)] * 4 + [(0, 1)] * 5 + [(1, 0)] * 3 + [(0, 20)]


def test_recall_at_precision_keeps_the_point_at_exactly_nine_tenths():
    y, s, _ = groups(NINE_TENTHS)
    p = im.recall_at_precision(y, s, min_precision=0.9)
    assert (p.tp, p.fp, p.recall) == (9.0, 1.0, 0.75)  # the original code returned 5/12
    assert im.OperatingPoints.from_scores(y, s).recall_at_precision(0.9).recall == 0.75


def test_hull_max_recall_at_precision_returns_the_vertex_at_nine_tenths():
    # Hull vertices (fp, tp): (0, 0), (0, 5), (1, 9), (6, 12), (26, 12); (1, 9) has precision 9/10.
    hull = im.roc_convex_hull(*groups(NINE_TENTHS)[:2])
    c = hull.max_recall_at_precision(0.9)
    assert c.probability == 0.0 and c.tpr == 0.75 and c.fpr == 1 / 26  # not a mixture short of the vertex


# ------------------------------------------------------------------ the bound equal to the highest precision
# The top group holds a positives and b negatives (precision a/(a+b), the highest); below it
# precision only falls. The best recall at that precision is the top group's: a / (a + 3).
HIGHEST = [
    (9, 1, None),
    (2, 3, None),
    (4, 1, None),
    (3, 7, None),
    (9, 1, 0.1),
    (2, 3, 0.1),
    (4, 1, 0.1),
    (9, 1, 0.3),
    (4, 1, 0.3),
    (3, 7, 0.3),
]


@pytest.mark.parametrize(("a", "b", "w"), HIGHEST)
def test_min_precision_equal_to_the_highest_precision_is_met(a, b, w):
    y, s, weights = groups([(a, b), (1, 5), (2, 30)], w)
    k = a / (a + b)
    p = im.recall_at_precision(y, s, min_precision=k, sample_weight=weights)
    assert p.recall == pytest.approx(a / (a + 3), rel=1e-12)  # the original code raised
    c = im.roc_convex_hull(y, s, sample_weight=weights).max_recall_at_precision(k)
    assert c.probability == 0.0 and c.tpr == pytest.approx(a / (a + 3), rel=1e-12)


@pytest.mark.parametrize(
    ("a", "b", "w"), [(2, 1, None), (6, 1, None), (1, 2, None), (3, 7, 0.1), (2, 1, 0.1), (1, 2, 0.3)]
)
def test_hull_vertex_at_the_bound_is_not_mixed_with_a_rounding_residue(a, b, w):
    # 2/3, 6/7, 1/3: the original code met the bound but returned the vertex mixed with the
    # next one at probability ~1e-16.
    y, s, weights = groups([(a, b), (1, 5), (2, 30)], w)
    hull = im.roc_convex_hull(y, s, sample_weight=weights)
    c = hull.max_recall_at_precision(a / (a + b))
    assert c.probability == 0.0 and c.threshold_high == 3.0 and c.tpr == hull.tpr[1]


def test_unreachable_precision_message_gives_every_digit_the_counts_and_the_tolerance():
    y, s, _ = groups([(8, 1), (1, 5), (2, 30)])  # the highest precision is 8/9
    with pytest.raises(im.IsometricsError) as info:
        im.recall_at_precision(y, s, min_precision=0.9)
    message = str(info.value)
    assert "0.8888888888888888" in message and "tp=8, fp=1" in message and "1e-12" in message
    with pytest.raises(im.IsometricsError, match=r"0\.8888888888888888.*1e-12|1e-12.*0\.8888888888888888"):
        im.roc_convex_hull(y, s).max_recall_at_precision(0.9)


# ------------------------------------------------------------------ recall and sensitivity bounds
def test_min_recall_of_seven_in_twenty_five():
    # 0.28 * 25 = 7.000000000000001 in doubles. Points: (1..7, 0), (7, 1..3), (8, 4..6), ...
    # Recall >= 7/25 holds from (7, 0) on, which has precision 1 and specificity 1.
    y, s, _ = groups([(1, 0)] * 7 + [(0, 3), (1, 3), (17, 20)])
    p = im.precision_at_recall(y, s, min_recall=0.28)
    assert (p.tp, p.fp, p.precision) == (7.0, 0.0, 1.0)  # the original code: 8/11
    q = im.specificity_at_sensitivity(y, s, min_sensitivity=0.28)
    assert (q.tp, q.fp, q.specificity) == (7.0, 0.0, 1.0)


# Groups (positives, negatives) (3, 0), (2, 1), (3, 3), (2, 6), (0, 5): P = 10, N = 15; every
# group end is a hull vertex, at recalls 3/10, 5/10, 8/10, 1 and FPR 0, 1/15, 4/15, 10/15, 1.
STAIRS = [(3, 0), (2, 1), (3, 3), (2, 6), (0, 5)]


@pytest.mark.parametrize(
    ("w", "bound", "fp"), [(0.7, 0.3, 0), (0.7, 0.5, 1), (0.7, 0.8, 4), (0.1, 0.5, 1), (0.3, 0.5, 1)]
)
def test_recall_bounds_at_weighted_counts(w, bound, fp):
    y, s, weights = groups(STAIRS, w)
    p = im.precision_at_recall(y, s, min_recall=bound, sample_weight=weights)
    q = im.specificity_at_sensitivity(y, s, min_sensitivity=bound, sample_weight=weights)
    hull = im.roc_convex_hull(y, s, sample_weight=weights)
    c = hull.min_fpr_at_tpr(bound)
    for point in (p, q):
        assert point.recall == pytest.approx(bound, rel=1e-12) and point.fp == pytest.approx(fp * w, rel=1e-12)
    assert c.probability == 0.0 and c.tpr == pytest.approx(bound, rel=1e-12)


def test_hull_max_precision_at_recall_of_the_first_vertex():
    # With weights 0.7 the first vertex's recall is 2.1 / 7 = 0.29999999999999993: min_recall=0.3
    # is its recall as typed, so the optimum is that vertex (precision 1), not a point past it.
    y, s, weights = groups(STAIRS, 0.7)
    c = im.roc_convex_hull(y, s, sample_weight=weights).max_precision_at_recall(0.3)
    assert c.probability == 0.0 and c.precision == 1.0 and c.fpr == 0.0


def test_min_recall_of_one_seventh_with_weights():
    # P = 7 samples of weight 0.7: the double 1/7 times the weighted P exceeds the first
    # positive's weight. Points: (1, 0), (1, 1), (7, 10); recall >= 1/7 from (1, 0): precision 1.
    y, s, w = groups([(1, 0), (0, 1), (6, 9)], 0.7)
    p = im.precision_at_recall(y, s, min_recall=1 / 7, sample_weight=w)
    assert p.precision == 1.0 and p.recall == pytest.approx(1 / 7, rel=1e-12)  # the original code: 7/17
    q = im.specificity_at_sensitivity(y, s, min_sensitivity=1 / 7, sample_weight=w)
    assert q.specificity == 1.0


@pytest.mark.parametrize(("w", "fpr"), [(0.3, 1 / 15), (0.3, 4 / 15), (0.7, 1 / 15), (0.7, 4 / 15)])
def test_hull_randomized_at_a_vertex_fpr(w, fpr):
    y, s, weights = groups(STAIRS, w)
    c = im.roc_convex_hull(y, s, sample_weight=weights).randomized(fpr=fpr)
    assert c.probability == 0.0 and c.fpr == pytest.approx(fpr, rel=1e-12)


# ------------------------------------------------------------------ budgets and rates
def test_rate_of_seven_in_twenty_five_does_not_split_the_tie():
    # 0.28 * 25 = 7.000000000000001: the cut is after the top group of 7 (4 positives).
    op = im.OperatingPoints.from_scores(*groups([(4, 3), (0, 18)])[:2])
    cut = op.at_rate(0.28, ties="raise")  # the original code refused: "ends inside a tie"
    assert (cut.threshold, cut.tp, cut.fp, cut.tie_fraction) == (2.0, 4.0, 3.0, 1.0)


@pytest.mark.parametrize("w", [0.1, 0.3])
def test_top_k_equal_to_a_group_weight(w):
    # The top group is 3 positives of weight w: a budget of 3 w flags exactly that group.
    y, s, weights = groups(STAIRS, w)
    k = [0.3, 0.9][[0.1, 0.3].index(w)]
    assert im.spaces.precision_at_k(y, s, k=k, sample_weight=weights, ties="raise") == 1.0
    assert im.spaces.recall_at_k(y, s, k=k, sample_weight=weights, ties="raise") == pytest.approx(0.3, rel=1e-12)
    cut = im.OperatingPoints.from_scores(y, s, sample_weight=weights).at_top_k(k)
    assert cut.threshold == 5.0 and cut.tie_fraction == 1.0 and cut.n_tied == 0.0
    cut = im.OperatingPoints.from_scores(y, s, sample_weight=weights).at_rate(0.12)  # 0.12 * 25 = 3 samples
    assert cut.threshold == 5.0 and cut.tie_fraction == 1.0 and cut.n_tied == 0.0


# ------------------------------------------------------------------ the shared comparison
def test_meets_bound_tolerance_is_relative_and_exact_at_zero():
    assert meets_bound(0.9 * (1 - 0.5 * BOUND_RTOL), 0.9, "min") and not meets_bound(
        0.9 * (1 - 2 * BOUND_RTOL), 0.9, "min"
    )
    assert meets_bound(0.3 * (1 + 0.5 * BOUND_RTOL), 0.3, "max") and not meets_bound(
        0.3 * (1 + 2 * BOUND_RTOL), 0.3, "max"
    )
    assert meets_bound(0.0, 0.0, "max") and not meets_bound(1e-300, 0.0, "max") and not meets_bound(np.nan, 0.0, "min")


# ------------------------------------------------------------------ property: an achieved value is always met
_GROUP = st.tuples(st.integers(0, 6), st.integers(0, 6)).filter(lambda g: g != (0, 0))
_TABLES = st.tuples(
    st.lists(_GROUP, min_size=1, max_size=10), st.sampled_from([None, 0.1, 0.3, 0.7]), st.integers(0, 10_000)
)


def _exact(counts):
    """Exact cumulative (tp, fp) at each group end, as Fractions of the sample counts."""
    tp, fp, out = 0, 0, []
    for a, b in counts:
        tp, fp = tp + a, fp + b
        out.append((Fraction(tp), Fraction(fp)))
    return out


def _table(data):
    counts, w, pick = data
    P, N = sum(a for a, _ in counts), sum(b for _, b in counts)
    if P == 0 or N == 0:
        counts = [*counts, (1 - min(P, 1), 1 - min(N, 1))]
        P, N = max(P, 1), max(N, 1)
    return counts, w, pick, P, N


@given(_TABLES)
@pytest.mark.filterwarnings("ignore:y_score has a single distinct value")
def test_property_observed_bounds_equal_to_an_achieved_value_are_met(data):
    counts, w, pick, P, N = _table(data)
    y, s, weights = groups(counts, w)
    points = _exact(counts)
    tp_j, fp_j = points[pick % len(points)]
    # recall_at_precision at the precision of point j: the best recall among points at least as precise.
    p_j = tp_j / (tp_j + fp_j)
    best_tp = max(tp for tp, fp in points if tp / (tp + fp) >= p_j)
    r = im.recall_at_precision(y, s, min_precision=float(p_j), sample_weight=weights)
    assert r.recall == pytest.approx(float(best_tp / P), rel=1e-12)
    # precision_at_recall at the recall of point j: the best precision among points with at least its recall.
    if tp_j > 0:
        best_precision = max(tp / (tp + fp) for tp, fp in points if tp >= tp_j)
        q = im.precision_at_recall(y, s, min_recall=float(tp_j / P), sample_weight=weights)
        assert q.precision == pytest.approx(float(best_precision), rel=1e-12)
    # specificity_at_sensitivity: the fewest false positives among points with at least its recall
    # (the point predicting nothing competes: it is the answer at sensitivity 0).
    fewest = min([fp for tp, fp in points if tp >= tp_j] + ([Fraction(0)] if tp_j == 0 else []))
    t = im.specificity_at_sensitivity(y, s, min_sensitivity=float(tp_j / P), sample_weight=weights)
    assert t.specificity == pytest.approx(float(1 - fewest / N), rel=1e-12, abs=1e-15)


@given(_TABLES)
@pytest.mark.filterwarnings("ignore:y_score has a single distinct value")
def test_property_hull_bounds_at_a_vertex_are_met(data):
    counts, w, pick, P, N = _table(data)
    y, s, weights = groups(counts, w)
    hull = im.roc_convex_hull(y, s, sample_weight=weights)
    points = _exact(counts)
    j = 1 + pick % (len(hull.indices) - 1)  # a vertex other than the origin
    tp_j, fp_j = points[hull.indices[j] - 1]  # operating point i is the end of group i - 1
    # Every operating point lies on or under the hull, so at a vertex's own rate the hull's
    # optimum is the best operating point, reached at a vertex: no mixture.
    # min_fpr_at_tpr at the vertex's recall: the fewest false positives at that recall or more.
    c = hull.min_fpr_at_tpr(float(tp_j / P))
    fewest = min(fp for tp, fp in points if tp >= tp_j)
    assert c.probability == 0.0 and c.fpr == pytest.approx(float(fewest / N), rel=1e-12, abs=0.0)
    # max_recall_at_precision at the vertex's precision: the most true positives at that precision or more.
    c = hull.max_recall_at_precision(float(tp_j / (tp_j + fp_j)))
    most = max(tp for tp, fp in points if tp / (tp + fp) >= tp_j / (tp_j + fp_j))
    assert c.probability == 0.0 and c.tpr == pytest.approx(float(most / P), rel=1e-12)


# ------------------------------------------------------------------ recall grids read from a curve
def _step_precision(counts, r):
    """Precision of the first point (group end) whose recall is at least ``r`` (a Fraction), exactly."""
    P = sum(a for a, _ in counts)
    return next(tp / (tp + fp) for tp, fp in _exact(counts) if tp / P >= r)


def _class_groups(labels, score, k):
    """(members of class k, others) per group of tied ``score``, highest first."""
    return [
        (int(np.sum((labels == k) & (score == v))), int(np.sum((labels != k) & (score == v))))
        for v in np.unique(score)[::-1]
    ]


def test_macro_pr_curve_reads_a_recall_of_seven_tenths_at_the_grid_value():
    # linspace(0, 1, 101)[70] is 0.7000000000000001. Class 0 has groups (7, 1), (1, 11), (2, 20):
    # it reaches recall exactly 7/10 at precision 7/8, then 8/20. The other samples alternate
    # between classes 1 and 2, scored at random.
    member = np.array([1] * 7 + [0] + [1] + [0] * 11 + [1] * 2 + [0] * 20, dtype=bool)
    labels = np.where(member, 0, 1 + np.arange(len(member)) % 2)
    rng = np.random.default_rng(0)
    scores = np.column_stack([np.repeat([3.0, 2.0, 1.0], [8, 12, 22]), rng.random(42), rng.random(42)])
    macro = im.one_vs_rest(labels, scores).macro_precision_recall_curve(n_points=101)
    expected = [_step_precision(_class_groups(labels, scores[:, k], k), Fraction(7, 10)) for k in range(3)]
    assert expected[0] == Fraction(7, 8)
    assert macro.precision[70] == pytest.approx(float(sum(expected) / 3), rel=1e-12)


def test_pr_band_reads_a_recall_of_three_tenths_with_weights():
    # Weights 0.7: the first group's recall is 2.1 / 7 = 0.29999999999999993, which is 3/10 as meant.
    y, s, w = groups(STAIRS, 0.7)
    band = im.uncertainty.bootstrap_curve_band(
        y, s, curve="pr", grid=[0.3, 0.5], n_resamples=20, rng=0, sample_weight=w, weight_kind="sampling"
    )
    assert band.estimate[0] == 1.0 and band.estimate[1] == pytest.approx(5 / 6, rel=1e-12)
