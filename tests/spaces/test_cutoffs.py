"""Cutoffs users choose (a threshold, the top k, a rate), precision@k and recall@k, gains, lift
and decision curves (issue 13 item 3).

References: explicit predictions ``y_score >= t`` counted by scikit-learn's confusion matrix,
and for the top k an average over every order of the samples (all permutations: ties broken
every possible way), never the engine's counts.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import isometrics as im


def _counts(y, pred, w=None):
    tn, fp, fn, tp = skm.confusion_matrix(y, pred, labels=[0, 1], sample_weight=w).ravel()
    return float(tp), float(fp), float(fn), float(tn)


def _brute_top_k(y, s, k):
    """Mean (TP, FP) of the top k over every order of the samples that sorts the scores decreasingly."""
    tps = []
    for order in itertools.permutations(range(len(y))):
        ranked = sorted(order, key=lambda i: -s[i])  # stable: ties broken by the permutation
        tps.append(sum(y[i] for i in ranked[:k]))
    tp = sum(tps) / len(tps)
    return tp, k - tp


@st.composite
def _small(draw, max_n=6):
    n = draw(st.integers(2, max_n))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    assume(0 < sum(y) < n)
    s = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return np.array(y), np.array(s, dtype=float)


@settings(max_examples=60)
@given(_small(), st.data())
def test_top_k_is_the_mean_over_every_order_of_the_ties(data, draw):
    y, s = data
    k = draw.draw(st.integers(1, len(y)))
    tp, fp = _brute_top_k(list(y), list(s), k)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", im.DegenerateDataWarning)
        cut = im.OperatingPoints.from_scores(y, s).at_top_k(k)
        assert im.spaces.precision_at_k(y, s, k=k) == pytest.approx(tp / k, rel=1e-12)
        assert im.spaces.recall_at_k(y, s, k=k) == pytest.approx(tp / y.sum(), rel=1e-12)
    assert (cut.tp, cut.fp) == (pytest.approx(tp, rel=1e-12, abs=1e-12), pytest.approx(fp, rel=1e-12, abs=1e-12))
    assert cut.fn == pytest.approx(y.sum() - tp) and cut.tn == pytest.approx(len(y) - y.sum() - fp)
    above = np.sum(s > cut.threshold)
    assert cut.n_tied == (0.0 if above + np.sum(s == cut.threshold) == k else np.sum(s == cut.threshold))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", im.DegenerateDataWarning)
        if cut.n_tied:
            assert cut.tie_fraction == pytest.approx((k - above) / cut.n_tied)
            with pytest.raises(im.IsometricsError, match="ends inside a tie"):
                im.spaces.precision_at_k(y, s, k=k, ties="raise")
        else:
            assert im.spaces.precision_at_k(y, s, k=k, ties="raise") == pytest.approx(tp / k, rel=1e-12)


def test_top_k_without_ties_against_a_sort(rng):
    y = (rng.random(500) < 0.2).astype(int)
    s = rng.normal(size=500) + y
    order = np.argsort(-s)
    for k in (1, 7, 50, 499, 500):
        assert im.spaces.precision_at_k(y, s, k=k) == pytest.approx(y[order[:k]].mean(), rel=1e-15)
        assert im.spaces.recall_at_k(y, s, k=k) == pytest.approx(y[order[:k]].sum() / y.sum(), rel=1e-15)


def test_integer_weights_are_repeated_samples_and_rate_is_k_over_n(rng):
    y = (rng.random(60) < 0.4).astype(int)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=60) + y, 1)
    w = rng.integers(1, 4, size=60)
    op_w = im.OperatingPoints.from_scores(y, s, sample_weight=w.astype(float))
    op_r = im.OperatingPoints.from_scores(np.repeat(y, w), np.repeat(s, w))
    n = w.sum()
    for k in (1, 5, 17, 40, n):
        a, b = op_w.at_top_k(k), op_r.at_top_k(k)
        assert (a.tp, a.fp, a.threshold) == (pytest.approx(b.tp), pytest.approx(b.fp), b.threshold)
        c = op_w.at_rate(k / n)
        assert (c.tp, c.fp) == (pytest.approx(a.tp, rel=1e-12), pytest.approx(a.fp, rel=1e-12))


@pytest.mark.parametrize("weighted", [False, True])
def test_at_threshold_against_explicit_predictions(rng, weighted):
    y = (rng.random(80) < 0.35).astype(int)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=80) + y, 1)
    w = rng.random(80) + 0.05 if weighted else None
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    for t in [np.inf, -np.inf, 0.0, 0.05, 0.5, 1.234, s[3], s.max(), s.min(), s.max() + 1]:
        cut = op.at_threshold(t)
        pred = (s >= t).astype(int)
        assert (cut.tp, cut.fp, cut.fn, cut.tn) == pytest.approx(_counts(y, pred, w), rel=1e-12, abs=1e-12)
        assert cut.threshold == t and cut.tie_fraction == 1.0 and cut.n_tied == 0.0
        if 0 < pred.sum() < len(pred):
            assert cut.value("mcc") == pytest.approx(skm.matthews_corrcoef(y, pred, sample_weight=w), rel=1e-9)
            assert cut.value("kappa") == pytest.approx(
                skm.cohen_kappa_score(y, pred, sample_weight=w), rel=1e-9, abs=1e-12
            )
            assert cut.precision == pytest.approx(skm.precision_score(y, pred, sample_weight=w), rel=1e-12)
        assert cut.value("f2") == pytest.approx(
            skm.fbeta_score(y, pred, beta=2, sample_weight=w, zero_division=0), rel=1e-12, abs=1e-15
        )
        assert cut.recall == pytest.approx(skm.recall_score(y, pred, sample_weight=w), rel=1e-12, abs=1e-15)


def test_cutoff_results_are_compact_and_json_ready():
    op = im.OperatingPoints.from_scores([0, 1, 1, 0, 1], [0.9, 0.5, 0.5, 0.5, 0.2])
    cut = op.at_top_k(3)
    text = repr(cut)
    assert text.startswith("Cutoff(threshold=0.5, flagged=3 (60.00%)") and "tie split 0.667 of 3" in text
    d = cut.to_dict()
    assert d["tie_fraction"] == pytest.approx(2 / 3) and set(d) >= {"mcc", "kappa", "npv", "f1", "precision"}
    assert op.at_threshold(np.inf).to_dict()["precision"] is None  # undefined, never a silent number
    assert "<table>" in cut._repr_html_() and len(repr(im.spaces.gains_curve([0, 1] * 500, np.arange(1000.0)))) < 400


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda op: op.at_top_k(0), r"OperatingPoints.at_top_k: `k` must be a real number > 0; got 0"),
        (lambda op: op.at_top_k(7), r"`k` = 7 exceeds the 6 samples"),
        (lambda op: op.at_top_k(2, ties="random"), r"`ties` must be one of 'interpolate', 'raise'; got 'random'"),
        (lambda op: op.at_rate(1.5), r"`rate` must be a real number >= 0 and <= 1; got 1.5"),
        (lambda op: op.at_threshold(float("nan")), r"`threshold` must be a finite real number; got nan"),
        (lambda op: op.at_threshold("0.5"), r"`threshold` must be a real number"),
        (lambda op: op.decision_curve([0.2, 1.0]), r"`threshold_probability` must lie in \(0, 1\).*got 1.0 at index 1"),
    ],
)
def test_errors_name_the_function_and_the_parameter(call, match):
    op = im.OperatingPoints.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9])
    with pytest.raises(ValueError, match=match):
        call(op)


def test_one_class_is_refused():
    with pytest.raises(im.IsometricsError, match="precision_at_k is undefined when y_true has one class"):
        im.spaces.precision_at_k([1, 1, 1], [0.2, 0.3, 0.4], k=1)


@pytest.mark.parametrize("weighted", [False, True])
def test_gains_and_lift_against_explicit_predictions(rng, weighted):
    y = (rng.random(120) < 0.3).astype(int)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=120) + y, 1)
    w = rng.random(120) + 0.1 if weighted else None
    wt = np.ones(120) if w is None else w
    rate, gain, thresholds = im.spaces.gains_curve(y, s, sample_weight=w)
    lift = im.spaces.lift_curve(y, s, sample_weight=w)
    assert rate[0] == gain[0] == 0 and thresholds[0] == np.inf and rate[-1] == pytest.approx(1.0)
    for i, t in enumerate(thresholds[1:], start=1):
        flag = s >= t
        assert rate[i] == pytest.approx(wt[flag].sum() / wt.sum(), rel=1e-12)
        assert gain[i] == pytest.approx(wt[flag & (y == 1)].sum() / wt[y == 1].sum(), rel=1e-12)
        precision = skm.precision_score(y, flag, sample_weight=w)
        assert lift.lift[i - 1] == pytest.approx(precision / (wt[y == 1].sum() / wt.sum()), rel=1e-12)
    np.testing.assert_array_equal(lift.rate, rate[1:])
    # recall@k is the gains curve read at rate k/n, straight segments across ties included
    if w is None:
        for k in (3, 10, 60, 119):
            assert np.interp(k / 120, rate, gain) == pytest.approx(im.spaces.recall_at_k(y, s, k=k), rel=1e-12)


def test_decision_curve_by_hand_and_against_the_net_benefit_metric(rng):
    # y = [0, 0, 1, 1, 0, 1], s = [0.1, 0.4, 0.35, 0.8, 0.3, 0.9]; n = 6, prevalence 1/2.
    # pt = 0.25 (odds 1/3): flag s >= 0.25: TP 3, FP 2: NB = 3/6 - (2/6)(1/3) = 7/18; treat all 1/2 - 1/6 = 1/3.
    # pt = 0.85 (odds 17/3): flag 0.9 only: NB = 1/6; treat all 1/2 - (1/2)(17/3) = -7/3.
    dc = im.spaces.decision_curve(
        [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], threshold_probability=[0.25, 0.85]
    )
    np.testing.assert_allclose(dc.net_benefit, [7 / 18, 1 / 6], rtol=1e-14)
    np.testing.assert_allclose(dc.treat_all, [1 / 3, -7 / 3], rtol=1e-14)
    assert list(dc.treat_none) == [0.0, 0.0] and repr(dc).startswith("DecisionCurve(threshold_probability=")
    y = (rng.random(300) < 0.3).astype(int)
    p = np.clip(np.round(rng.random(300) * 0.6 + 0.3 * y, 2), 0.01, 0.99)
    w = rng.random(300) + 0.5
    dc = im.spaces.decision_curve(y, p, sample_weight=w)
    assert len(dc.net_benefit) == 99 and dc.threshold_probability[0] == pytest.approx(0.01)
    op = im.OperatingPoints.from_scores(y, p, sample_weight=w)
    for pt, nb in zip(dc.threshold_probability[::7], dc.net_benefit[::7]):
        assert nb == pytest.approx(op.at_threshold(pt).value(f"net_benefit(pt={float(pt)!r})"), rel=1e-12, abs=1e-15)
    best = im.best_threshold(y, p, metric="net_benefit@0.2", sample_weight=w)
    assert best.value >= dc.net_benefit[19] - 1e-15  # the best threshold beats thresholding at pt itself
    assert math.isclose(dc.treat_all[19], np.average(y, weights=w) - (1 - np.average(y, weights=w)) / 4)
