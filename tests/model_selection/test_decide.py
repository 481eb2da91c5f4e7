"""decide(): a rule's counts against scikit-learn and hand derivations, the cross-fitted estimate
against a naive re-implementation, and its optimism correction on pure noise (issue 20, item 6)."""

import math

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, f1_score
from sklearn.model_selection import StratifiedKFold

import isometrics as im
from isometrics.exceptions import InvalidParameterError, IsometricsError

Y = np.array([0, 0, 1, 1, 0, 1, 0, 1, 0, 0])
S = np.array([0.1, 0.4, 0.35, 0.8, 0.3, 0.9, 0.6, 0.6, 0.2, 0.5])


@pytest.mark.parametrize("t", [0.05, 0.3, 0.35, 0.5, 0.6, 0.61, 0.9, 1.0])
def test_counts_at_a_threshold_are_sklearns_confusion_matrix(t):
    (d,) = im.decide(Y, S, threshold=t)
    tn, fp, fn, tp = confusion_matrix(Y, (S >= t).astype(int), labels=[0, 1]).ravel()
    assert (d.tp, d.fp, d.fn, d.tn) == (tp, fp, fn, tn)
    assert d.alert_rate == (tp + fp) / 10
    assert d.per_1000 == {"tp": tp * 100.0, "fp": fp * 100.0, "fn": fn * 100.0, "tn": tn * 100.0}
    assert d.recall == tp / 4 and d.specificity == tn / 6
    assert d.precision == (tp / (tp + fp) if tp + fp else pytest.approx(math.nan, nan_ok=True))
    assert d.estimate == "in-sample" and not d.optimistic and d.rule == f"score >= {t:g}"


def test_hand_derived_counts_at_threshold_half():
    # scores >= 0.5: 0.8 (pos), 0.9 (pos), 0.6 (neg), 0.6 (pos), 0.5 (neg) -> tp 3, fp 2, fn 1, tn 4
    (d,) = im.decide(Y, S, threshold=0.5, metrics=["mcc"])
    assert (d.tp, d.fp, d.fn, d.tn) == (3, 2, 1, 4)
    assert d.precision == 0.6 and d.recall == 0.75 and d.f1 == 6 / 9
    assert d.values["mcc"] == pytest.approx((3 * 4 - 2 * 1) / math.sqrt(5 * 4 * 5 * 6))


def test_top_k_splits_a_tie_into_expected_counts():
    # ranking: 0.9 (pos), 0.8 (pos), then 0.6 tied (one pos, one neg). The top 3 take the two
    # highest and half of the tie: expected tp = 2 + 0.5 * 1, fp = 0.5 * 1.
    (d,) = im.decide(Y, S, top_k=3)
    assert (d.tp, d.fp, d.fn, d.tn) == (2.5, 0.5, 1.5, 5.5)
    assert d.threshold == 0.6 and d.tie_fraction == 0.5 and d.k == 3.0 and d.rule == "top 3"
    assert d.precision == pytest.approx(2.5 / 3) and d.alert_rate == pytest.approx(0.3)
    # the same as precision@k
    assert d.precision == pytest.approx(im.spaces.precision_at_k(Y, S, k=3))
    # a budget that ends between distinct scores: no interpolation
    (d,) = im.decide(Y, S, top_k=4)
    assert (d.tp, d.fp, d.tie_fraction) == (3, 1, 1.0)


def _naive_cross_fitted(y, s, splitter, metric_of_counts):
    """StratifiedKFold loop, brute-force threshold search on the training folds, pooled held-out counts."""
    pooled = np.zeros(4)
    for train, test in splitter.split(np.zeros((len(y), 1)), y):
        candidates = np.r_[np.inf, np.unique(s[train])]
        values = []
        for t in candidates:
            flag = s[train] >= t
            tn, fp, fn, tp = confusion_matrix(y[train], flag.astype(int), labels=[0, 1]).ravel()
            values.append(metric_of_counts(tp, fp, fn, tn))
        values = np.array(values)
        best = candidates[np.flatnonzero(values == values.max())].max()  # ties: the highest threshold
        tn, fp, fn, tp = confusion_matrix(y[test], (s[test] >= best).astype(int), labels=[0, 1]).ravel()
        pooled += (tp, fp, fn, tn)
    return pooled


def test_cross_fitted_estimate_matches_a_naive_reimplementation():
    rng = np.random.default_rng(3)
    y = (rng.random(300) < 0.3).astype(int)
    s = np.round(rng.normal(size=300) + y, 2)
    splitter = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)

    def f1(tp, fp, fn, tn):
        return 2 * tp / (2 * tp + fp + fn)

    pooled = _naive_cross_fitted(y, s, splitter, f1)
    inside, cross = im.decide(y, s, metric="f1", cv=splitter, metrics=["recall"])
    assert (cross.tp, cross.fp, cross.fn, cross.tn) == tuple(pooled)
    assert cross.f1 == pytest.approx(f1(*pooled)) and cross.values["f1"] == pytest.approx(f1(*pooled))
    assert cross.precision == pytest.approx(pooled[0] / (pooled[0] + pooled[1]))
    assert cross.recall == pytest.approx(pooled[0] / (pooled[0] + pooled[2]))
    assert cross.alert_rate == pytest.approx((pooled[0] + pooled[1]) / 300)
    assert cross.estimate == "cross-fitted" and cross.n_splits == 5 and not cross.optimistic
    # the in-sample estimate is sklearn's F1 at the best threshold of all the data
    assert inside.optimistic and inside.estimate == "in-sample"
    assert inside.f1 == pytest.approx(f1_score(y, s >= inside.threshold))
    assert inside.f1 == pytest.approx(im.best_threshold(y, s, metric="f1").value)
    assert inside.threshold == cross.threshold


def test_repeats_average_the_pooled_counts():
    rng = np.random.default_rng(5)
    y = (rng.random(200) < 0.4).astype(int)
    s = rng.normal(size=200) + y
    _, cross = im.decide(y, s, metric="f1", cv=4, n_repeats=3, rng=1)
    assert cross.n_repeats == 3 and cross.total == pytest.approx(200)
    assert cross.tp + cross.fn == pytest.approx(y.sum())


def test_cross_fitted_f1_corrects_the_optimism_on_noise():
    """Pure-noise scores: the in-sample best F1 is optimistic; the cross-fitted one is close to the
    F1 of flagging at random (at best 2p / (1 + p), flagging everyone; p the prevalence)."""
    rng = np.random.default_rng(11)
    inside_values, cross_values, chance = [], [], []
    for _ in range(30):
        y = (rng.random(300) < 0.1).astype(int)
        s = rng.random(300)
        inside, cross = im.decide(y, s, metric="f1", cv=5, rng=rng)
        inside_values.append(inside.f1)
        cross_values.append(cross.f1)
        p = y.mean()
        chance.append(2 * p / (1 + p))
    gaps = np.array(inside_values) - np.array(cross_values)
    assert gaps.mean() > max(0.01, 3 * gaps.std(ddof=1) / np.sqrt(len(gaps)))  # optimistic, in expectation
    assert np.mean(inside_values) > np.mean(chance) + 0.01  # the in-sample value beats chance on noise
    assert abs(np.mean(cross_values) - np.mean(chance)) < 0.03  # the cross-fitted one does not


def test_intervals_at_a_fixed_rule_are_paired_percentile_intervals():
    rng = np.random.default_rng(0)
    y = rng.random(400) < 0.3
    s = rng.normal(size=400) + y
    (d,) = im.decide(y, s, threshold=0.5, metrics=["mcc"], n_resamples=300, rng=2)
    assert set(d.intervals) == {
        "alert_rate",
        "precision",
        "recall",
        "specificity",
        "f1",
        "mcc",
        "tp_per_1000",
        "fp_per_1000",
        "fn_per_1000",
        "tn_per_1000",
    }
    for name, r in d.intervals.items():
        low, high = r.confidence_interval
        value = (
            d.values["mcc"]
            if name == "mcc"
            else d.per_1000[name[:2]]
            if name.endswith("_per_1000")
            else getattr(d, name)
        )
        assert low <= value <= high
        assert r.method == "percentile" and len(r.bootstrap_distribution) == 300
    # the same interval as bootstrap() of the statistic at the threshold, from the same seed
    alone = im.uncertainty.bootstrap(
        y, s, statistic="metric", metric="precision", threshold=0.5, n_resamples=300, rng=2
    )
    assert d.intervals["precision"].confidence_interval == pytest.approx(alone.confidence_interval)


def test_to_dict_keys():
    (d,) = im.decide(Y, S, threshold=0.5, n_resamples=50, rng=0)
    out = d.to_dict()
    assert {
        "rule",
        "estimate",
        "label",
        "optimistic",
        "threshold",
        "k",
        "alert_rate",
        "precision",
        "recall",
        "specificity",
        "f1",
        "metrics",
        "counts",
        "per_1000",
        "intervals",
        "n_splits",
        "n_repeats",
    } <= set(out)
    assert set(out["per_1000"]) == {"tp", "fp", "fn", "tn"}
    assert set(out["intervals"]["precision"]) >= {"low", "high", "confidence_level", "method"}
    (nothing,) = im.decide(Y, S, threshold=2.0)
    assert nothing.to_dict()["precision"] is None  # undefined, not 0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(), "exactly one rule"),
        (dict(threshold=0.5, top_k=3), "exactly one rule"),
        (dict(threshold=0.5, metric="f1"), "exactly one rule"),
        (dict(threshold=float("nan")), "threshold"),
        (dict(top_k=-1), "`k`"),
        (dict(top_k=11), "exceeds"),
        (dict(metric="f1", n_resamples=100), "n_resamples"),
        (dict(metric="f1", cv=np.arange(10) % 2, n_repeats=2), "n_repeats"),
        (dict(metric="f1", n_repeats=0), "n_repeats"),
    ],
)
def test_bad_rules_are_refused(kwargs, match):
    with pytest.raises((InvalidParameterError, IsometricsError), match=match):
        im.decide(Y, S, **kwargs)


def test_cv_none_gives_the_in_sample_estimate_only():
    (inside,) = im.decide(Y, S, metric="f1", cv=None)
    assert inside.optimistic and inside.f1 == pytest.approx(im.best_threshold(Y, S, metric="f1").value)


def test_counts_per_1000_get_intervals_at_a_fixed_rule():
    """Each count per 1,000 is a mean of 1,000 x an indicator over the rows: its bootstrap interval
    has the binomial width 2 x 1.96 x 1000 x sqrt(p (1 - p) / n) (hand derivation), around the count."""
    rng = np.random.default_rng(4)
    y = rng.random(2000) < 0.2
    s = rng.normal(size=2000) + 1.5 * y
    (d,) = im.decide(y, s, threshold=0.8, n_resamples=2000, rng=1)
    flagged = s >= 0.8
    cells = {"tp": y & flagged, "fp": ~y & flagged, "fn": y & ~flagged, "tn": ~y & ~flagged}
    for key, cell in cells.items():
        p = cell.mean()
        low, high = d.intervals[f"{key}_per_1000"].confidence_interval
        assert d.per_1000[key] == pytest.approx(1000 * p)
        assert low < 1000 * p < high
        assert high - low == pytest.approx(2 * 1.96 * 1000 * np.sqrt(p * (1 - p) / len(y)), rel=0.12)
