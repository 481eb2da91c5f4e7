"""Thresholds and decisions: ROC-space criteria, ties, metric curves, constrained points, hull optima, costs."""

import numpy as np
import pytest
from _data import random_binary
from sklearn import metrics as skm

import isometrics as im


def _brute(y, s, fn):
    """fn(tp, fp, fn, tn) at every distinct threshold, by explicit predictions."""
    out = {}
    for t in np.unique(s):
        pred = s >= t
        tp, fp = np.sum(pred & (y == 1)), np.sum(pred & (y == 0))
        out[t] = fn(tp, fp, np.sum(~pred & (y == 1)), np.sum(~pred & (y == 0)))
    return out


@pytest.mark.parametrize(
    "spec, fn, maximise",
    [
        ("youden", lambda tp, fp, fn, tn: tp / (tp + fn) - fp / (fp + tn), True),
        ("top_left", lambda tp, fp, fn, tn: -np.hypot(fp / (fp + tn), fn / (tp + fn)), True),
        ("cost(fp=1, fn=5)", lambda tp, fp, fn, tn: (fp + 5 * fn) / (tp + fp + fn + tn), False),
        (
            "cost(fp=2, fn=3, prevalence=0.1)",
            lambda tp, fp, fn, tn: 0.1 * fn / (tp + fn) * 3 + 0.9 * fp / (fp + tn) * 2,
            False,
        ),
    ],
)
def test_roc_space_criteria_pick_the_brute_force_optimum(rng, spec, fn, maximise):
    y, s, _ = random_binary(rng, 400, prevalence=0.3)
    best = im.best_threshold(y, s, metric=spec)
    values = _brute(y, s, fn)
    target = max(values.values()) if maximise else min(values.values())
    assert values[best.threshold] == pytest.approx(target, rel=1e-12, abs=1e-15)


def test_youden_is_informedness_and_tpr_minus_fpr_from_sklearn(rng):
    y, s, _ = random_binary(rng, 300)
    fpr, tpr, thr = skm.roc_curve(y, s, drop_intermediate=False)
    best = im.best_threshold(y, s, metric="informedness")
    assert best.value == pytest.approx(np.max(tpr - fpr), rel=1e-12)
    assert im.parse_metric("informedness").spec == "youden"


def test_ties_between_optimal_thresholds_are_reported():
    # y = [1, 0, 1, 0], s = [4, 3, 2, 1]: Youden's J at 4 is 0.5 - 0 = 0.5, and at 2 it is 1 - 0.5 = 0.5.
    best = im.best_threshold([1, 0, 1, 0], [4, 3, 2, 1], metric="youden")
    assert best.n_ties == 2 and best.tied_thresholds == (4.0, 2.0) and best.threshold == 4.0
    assert best.to_dict()["tied_thresholds"] == [4.0, 2.0]


# Exact ties, one hand-derived case per kind of metric (P, N: positives, negatives; thresholds
# listed with their (TP, FP)). Rounding made the computed values of several of these differ
# in the last digit, so one tie was missed or the lower threshold returned.
@pytest.mark.parametrize(
    "spec, y, s, tied",
    [
        # the case: P = N = 3; 0.8: (2, 0), J = 2/3; 0.35: (3, 1), J = 1 - 1/3; others 1/3 or 0
        ("youden", [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], (0.8, 0.35)),
        # P = 2, N = 6; distance^2 to (0, 1): 0.5: (1, 4), (4/6)^2 + (1/2)^2 = 25/36; 0.2: (2, 5), (5/6)^2 + 0 = 25/36;
        # 0.9: 1/36 + 1, 0.6: 4/36 + 1, 0.3: 25/36 + 1/4, 0.1: 1, inf: 1
        ("top_left", [0, 0, 0, 1, 1, 0, 0, 0], [0.9, 0.1, 0.5, 0.2, 0.5, 0.5, 0.3, 0.6], (0.5, 0.2)),
        # P = 1, N = 5; cost (5 FN + FP) / 6: inf: (0, 0), 5/6; 0.9: 6/6; 0.8: 7/6; 0.6: 9/6; 0.5: (1, 5), 5/6
        ("cost(fp=1, fn=5)", [1, 0, 0, 0, 0, 0], [0.5, 0.5, 0.8, 0.6, 0.6, 0.9], (np.inf, 0.5)),
        # P = 6, N = 3; (P + R)/2: 0.9: (1, 0) 7/12; 0.8: (3, 0) 3/4; 0.7: (4, 0) 5/6; 0.5: (4, 1) 11/15;
        # 0.4: (5, 2) 65/84; 0.2: (6, 3) (2/3 + 1)/2 = 5/6
        ("arithmetic(gamma=1)", [0, 1, 1, 1, 1, 0, 1, 1, 0], [0.4, 0.7, 0.2, 0.9, 0.8, 0.2, 0.8, 0.4, 0.5], (0.7, 0.2)),
        # P = 6, N = 2; (2P + R)/3: 0.7: (2, 0) 7/9; 0.6: (3, 1) 2/3; 0.5: (4, 1) 34/45; 0.4: (5, 1) 5/6;
        # 0.3: (5, 2) 95/126; 0.2: (6, 2) (3/2 + 1)/3 = 5/6
        ("g(beta=2, rho=0)", [1, 1, 0, 1, 0, 1, 1, 1], [0.7, 0.7, 0.3, 0.2, 0.6, 0.5, 0.6, 0.4], (0.4, 0.2)),
        # P = 2; F1 = 2 TP / (TP + FP + P): 8: (1, 0) 2/3; 5: (1, 1) 1/2; 4: (2, 2) 4/6
        ("f1", [1, 0, 1, 0], [8, 5, 4, 4], (8.0, 4.0)),
        # P = 2, gamma = 1/2: W^3 = P R^2; 8: (1, 0) 1/4; 7: (1, 1) 1/8; 5: (1, 3) 1/16; 4: (1, 4) 1/20; 1: (2, 6) 1/4
        ("geometric(gamma=0.5)", [1, 0, 0, 0, 0, 0, 0, 1], [8, 7, 5, 5, 4, 1, 1, 1], (8.0, 1.0)),
        # P = 2; min(P, R): 4: (0, 1) 0; 2: (1, 1) 1/2; 1: (2, 2) 1/2
        ("min", [0, 1, 1, 0], [4, 2, 1, 1], (2.0, 1.0)),
        # P = 2; max(P, R): 8: (1, 0) 1; 4: (2, 0) 1; 1: (2, 1) 1
        ("max", [1, 1, 0], [8, 4, 1], (8.0, 4.0, 1.0)),
        ("precision", [1, 1, 0], [7, 4, 1], (7.0, 4.0)),  # 7: (1, 0), 4: (2, 0): precision 1
        ("recall", [1, 1, 0], [7, 5, 3], (5.0, 3.0)),  # 5: (2, 0), 3: (2, 1): recall 1
    ],
)
def test_exact_ties_per_metric_kind(spec, y, s, tied):
    best = im.best_threshold(y, s, metric=spec)
    assert best.tied_thresholds == tied and best.n_ties == len(tied) and best.threshold == tied[0]


def test_near_ties_are_exact_with_integer_counts_and_within_the_tolerance_otherwise():
    # Youden's J at 3: (P - 1)/P; at 2: 1 - 1/N with N = P + 1: they differ by 1/(P N), about 1e-14,
    # below the tolerance: exact comparison tells them apart, halved (non-integer) counts tie them.
    P = 10**7
    N = P + 1
    exact = im.OperatingPoints.from_counts([3, 2, 1], [P - 1, 1, 0], [0, 1, N - 1]).best_threshold("youden")
    assert exact.tied_thresholds == (2.0,)
    halved = im.OperatingPoints.from_counts([3, 2, 1], [(P - 1) / 2, 0.5, 0], [0, 0.5, (N - 1) / 2])
    assert halved.best_threshold("youden").tied_thresholds == (3.0, 2.0)
    # the case with weights 0.1 (counts not integers): the exact tie is within the tolerance
    best = im.best_threshold(
        [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], metric="youden", sample_weight=np.full(6, 0.1)
    )
    assert best.tied_thresholds == (0.8, 0.35)


def test_metric_curve_matches_per_threshold_evaluation(rng):
    y, s, w = random_binary(rng, 300, weights=True)
    curve = im.metric_curve(y, s, metric="f2", sample_weight=w)
    for value, t in zip(curve.values[1:], curve.thresholds[1:]):
        pred = (s >= t).astype(int)
        assert value == pytest.approx(skm.fbeta_score(y, pred, beta=2, sample_weight=w), rel=1e-12)
    g = im.metric_curve(y, s, metric="g(beta=2, rho=-3)")
    assert g.values[0] == 0.0 and np.all(np.isfinite(g.values))  # F-like (rho < -1): 0 at the inf point
    assert np.isnan(im.metric_curve(y, s, metric="arithmetic(gamma=1)").values[0])


@pytest.mark.parametrize("weighted", [False, True])
def test_constrained_points_match_brute_force(rng, weighted):
    y, s, w = random_binary(rng, 500, weights=weighted)
    w_ = np.ones(len(y)) if w is None else w
    rows = []
    for t in np.unique(s):
        pred = s >= t
        tp, fp = np.sum(w_[pred & (y == 1)]), np.sum(w_[pred & (y == 0)])
        P, N = np.sum(w_[y == 1]), np.sum(w_[y == 0])
        if tp + fp > 0:
            rows.append((t, tp / (tp + fp), tp / P, 1 - fp / N))
    rows = np.array(rows)
    for k in (0.0, 0.2, 0.5, 0.9, 1.0):
        p = im.precision_at_recall(y, s, min_recall=k, sample_weight=w)
        assert p.precision == pytest.approx(rows[rows[:, 2] >= k, 1].max(), rel=1e-12)
        q = im.specificity_at_sensitivity(y, s, min_sensitivity=k, sample_weight=w)
        # predicting nothing (specificity 1, sensitivity 0) competes too
        assert q.specificity == pytest.approx(rows[rows[:, 2] >= k, 3].max() if k > 0 else 1.0, rel=1e-12)
    for k in (0.0, 0.3, 0.5):
        r = im.recall_at_precision(y, s, min_precision=k, sample_weight=w)
        assert r.recall == pytest.approx(rows[rows[:, 1] >= k, 2].max(), rel=1e-12)
    with pytest.raises(
        im.IsometricsError,
        match=r"no threshold reaches precision >= 0.9 \(compared within a relative 1e-12\); "
        r"the highest is 0.5 \(tp=1, fp=1\)",
    ):
        im.recall_at_precision([0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6], min_precision=0.9)


# Observed constrained optima at the boundary values 0 and 1 of their constraint, hand-derived.
# A: y = [1, 0, 1, 1, 0, 0], s = [6, 5, 4, 3, 2, 1]; P = N = 3; (TP, FP): 6: (1, 0), 5: (1, 1), 4: (2, 1),
#    3: (3, 1), 2: (3, 2), 1: (3, 3); precision 1, 1/2, 2/3, 3/4, 3/5, 1/2.
# B: the reversed ranking y = [0, 0, 0, 1, 1], s = [5, 4, 3, 2, 1]; precision 0, 0, 0, 1/4, 2/5.
# C: y = [1, 0, 1, 0], s = [3, 3, 2, 1]: 3: (1, 1), 2: (2, 1), 1: (2, 2); precision 1/2, 2/3, 1/2.
_A = ([1, 0, 1, 1, 0, 0], [6, 5, 4, 3, 2, 1])
_B = ([0, 0, 0, 1, 1], [5, 4, 3, 2, 1])
_C = ([1, 0, 1, 0], [3, 3, 2, 1])


@pytest.mark.parametrize(
    "data, function, k, threshold, precision, recall, specificity",
    [
        (_A, im.precision_at_recall, 0, 6, 1, 1 / 3, 1),
        (_A, im.precision_at_recall, 1, 3, 3 / 4, 1, 2 / 3),
        (_A, im.recall_at_precision, 0, 3, 3 / 4, 1, 2 / 3),  # recall 1 at 3, 2 and 1: the fewest FP
        (_A, im.recall_at_precision, 1, 6, 1, 1 / 3, 1),
        (_A, im.specificity_at_sensitivity, 0, 6, 1, 1 / 3, 1),  # FP = 0 at inf and at 6: the larger sensitivity
        (_A, im.specificity_at_sensitivity, 1, 3, 3 / 4, 1, 2 / 3),
        (_B, im.precision_at_recall, 0, 1, 2 / 5, 1, 0),
        (_B, im.precision_at_recall, 1, 1, 2 / 5, 1, 0),
        (_B, im.recall_at_precision, 0, 1, 2 / 5, 1, 0),
        (_B, im.specificity_at_sensitivity, 0, np.inf, np.nan, 0, 1),  # only predicting nothing has FP = 0
        (_B, im.specificity_at_sensitivity, 1, 1, 2 / 5, 1, 0),
        (_C, im.precision_at_recall, 0, 2, 2 / 3, 1, 1 / 2),
        (_C, im.recall_at_precision, 0, 2, 2 / 3, 1, 1 / 2),
        (_C, im.specificity_at_sensitivity, 0, np.inf, np.nan, 0, 1),
        (_C, im.specificity_at_sensitivity, 1, 2, 2 / 3, 1, 1 / 2),
    ],
)
def test_constrained_points_at_the_boundaries_of_their_constraint(
    data, function, k, threshold, precision, recall, specificity
):
    name = {
        im.precision_at_recall: "min_recall",
        im.recall_at_precision: "min_precision",
        im.specificity_at_sensitivity: "min_sensitivity",
    }[function]
    point = function(*data, **{name: k})
    assert point.threshold == threshold
    np.testing.assert_allclose(
        [point.precision, point.recall, point.specificity], [precision, recall, specificity], rtol=0, atol=1e-15
    )


@pytest.mark.parametrize("data", [_B, _C])
def test_precision_one_unreached(data):
    with pytest.raises(im.IsometricsError, match="no threshold reaches precision >= 1"):
        im.recall_at_precision(*data, min_precision=1)


def test_hull_optima_beat_or_match_observed_thresholds_and_meet_constraints(rng):
    y, s, _ = random_binary(rng, 800, prevalence=0.25)
    op = im.OperatingPoints.from_scores(y, s)
    hull = op.roc_convex_hull()
    for k in (0.3, 0.6, 0.85):
        mix = hull.max_recall_at_precision(k)
        assert mix.precision == pytest.approx(k, rel=1e-9) or mix.probability == 0
        assert mix.precision >= k - 1e-9
        assert mix.tpr >= op.recall_at_precision(k).recall - 1e-12
        mix = hull.max_precision_at_recall(k)
        assert mix.tpr >= k - 1e-12 and mix.precision >= op.precision_at_recall(k).precision - 1e-12
        mix = hull.min_fpr_at_tpr(k)
        assert mix.tpr == pytest.approx(k, rel=1e-12)
        assert mix.fpr <= op.specificity_at_sensitivity(k).fpr + 1e-12
        assert mix.tpr == pytest.approx(float(hull.tpr_at(mix.fpr)), abs=1e-12)  # on the hull


@pytest.mark.parametrize("spec", ["f1", "f0.5", "youden", "cost(fp=1, fn=4)", "precision"])
def test_linear_fractional_metrics_are_optimal_at_a_vertex(rng, spec):
    y, s, _ = random_binary(rng, 600, prevalence=0.2)
    op = im.OperatingPoints.from_scores(y, s)
    hull_best = op.roc_convex_hull().best_mixture(spec)
    observed = op.best_threshold(spec)
    assert hull_best.classifier.probability == 0.0
    assert hull_best.value == pytest.approx(observed.value, rel=1e-9)


def test_expected_cost_and_bayes_decisions(rng):
    # hand: predictions (0,1,0,1) for truth (0,0,1,1), C = [[0,1],[5,0]]: one FP (1) + one FN (5) over 4 samples
    assert im.spaces.expected_cost([0, 0, 1, 1], [0, 1, 0, 1], cost_matrix=[[0, 1], [5, 0]]) == 1.5
    p = rng.dirichlet(np.ones(3), size=200)
    c = rng.random((3, 3)) * 5
    np.fill_diagonal(c, 0)
    choice = im.spaces.cost_sensitive_predict(p, cost_matrix=c, classes=["a", "b", "c"])
    brute = np.array(["a", "b", "c"])[
        np.argmin([[sum(pi[i] * c[i, j] for i in range(3)) for j in range(3)] for pi in p], axis=1)
    ]
    np.testing.assert_array_equal(choice, brute)
    # binary: the Bayes rule is the threshold c_fp / (c_fp + c_fn)
    q = rng.random(500)
    rule = im.spaces.cost_sensitive_predict(np.column_stack([1 - q, q]), cost_matrix=[[0, 1], [4, 0]])
    np.testing.assert_array_equal(rule, (q >= im.spaces.bayes_threshold(cost_fp=1, cost_fn=4)).astype(int))


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: im.spaces.expected_cost([0, 1], [0, 1], cost_matrix=[[0, 1, 2], [1, 0, 2]]), "must be square"),
        (lambda: im.spaces.expected_cost([0, 1, 2], [0, 1, 2], cost_matrix=[[0, 1], [1, 0]]), "there are 3 classes"),
        (lambda: im.spaces.cost_sensitive_predict([0.5, 0.5], cost_matrix=[[0, 1], [1, 0]]), "must be a 2-D array"),
        (lambda: im.spaces.bayes_threshold(cost_fp=0, cost_fn=0), "cannot both be 0"),
        (lambda: im.parse_metric("cost(fp=-1, fn=2)"), "`fp` must be a number >= 0"),
        (lambda: im.parse_metric("cost(fp=1, fn=2, prevalence=1.5)"), r"`prevalence` must be in \(0, 1\)"),
        (lambda: im.parse_metric("youden").from_precision_recall(0.5, 0.5), "metric of ROC space"),
        (lambda: im.precision_at_recall([0, 1], [0.1, 0.2], min_recall=2), r"`min_recall` must be a real number"),
    ],
)
def test_decision_errors(call, match):
    with pytest.raises(im.InvalidParameterError, match=match):
        call()


@pytest.mark.parametrize(
    "spec",
    [
        "g(beta=2, rho=-3)",
        "g(beta=0.5, rho=1)",
        "g(beta=3, rho=-9)",
        "g(beta=2, rho=0)",
        "arithmetic(gamma=4)",
        "harmonic(gamma=3)",
        "power(gamma=2, phi=-5)",
        "g(beta=2, rho=-2.5)",
        "geometric(beta=2)",
    ],
)
@pytest.mark.parametrize("weighted", [False, True])
def test_metric_curves_agree_with_the_logarithmic_kernel(rng, spec, weighted):
    # metric curves may use plain arithmetic for small integer exponents: it must agree with
    # the log-domain evaluation (accurate to 1e-12, tested against mpmath) at every point
    y, s, w = random_binary(rng, 3000, weights=weighted)
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    precision, recall, _ = op.precision_recall_curve()
    curve = op.metric_curve(spec).values
    reference = im.parse_metric(spec).from_precision_recall(precision, recall)
    np.testing.assert_allclose(curve[1:], reference[1:], rtol=1e-13, atol=1e-300)
