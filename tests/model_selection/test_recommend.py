"""recommend(): the decision a report opens with (issue 25, item 1), checked against scikit-learn."""

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, fbeta_score

import isometrics as im
from isometrics.model_selection import Recommendation, recommend


def _data(n=1500, seed=3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    scores = {
        "weak": np.round(rng.normal(size=n) + 0.8 * y, 2),
        "strong": np.round(rng.normal(size=n) + 2.0 * y, 2),
        "close": np.round(rng.normal(size=n) + 1.9 * y, 2),
    }
    return y, scores


def _sklearn_best(y, s, beta):
    """The best F-beta over every threshold, and its threshold: by brute force (every threshold flags
    ``s >= t``; the F-beta of counts by hand), the best one checked with scikit-learn's fbeta_score."""
    cands = np.unique(s)
    flagged = s[None, :] >= cands[:, None]
    tp = (flagged & (y == 1)).sum(axis=1)
    fp = (flagged & (y == 0)).sum(axis=1)
    fn = (y == 1).sum() - tp
    values = (1 + beta**2) * tp / ((1 + beta**2) * tp + beta**2 * fn + fp)
    k = int(np.argmax(values))
    assert values[k] == pytest.approx(fbeta_score(y, (s >= cands[k]).astype(int), beta=beta))
    return values[k], cands[k]


def test_the_best_model_its_threshold_and_counts_per_1000_are_sklearns():
    y, scores = _data()
    r = recommend(y, scores, metric="f2", cv=5, rng=0)
    best = {name: _sklearn_best(y, s, 2.0) for name, s in scores.items()}
    assert r.model == max(best, key=lambda n: best[n][0])
    assert r.values == pytest.approx({n: v for n, (v, _) in best.items()})
    assert r.threshold == best[r.model][1]
    tn, fp, fn, tp = confusion_matrix(y, (scores[r.model] >= r.threshold).astype(int)).ravel()
    counts = {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    assert r.in_sample.per_1000 == pytest.approx({k: 1000 * v / len(y) for k, v in counts.items()})
    assert r.in_sample.alert_rate == pytest.approx((tp + fp) / len(y))
    assert r.in_sample.optimistic and not r.in_sample.intervals
    # the cross-fitted estimate is decide()'s, the one Decision object
    assert r.cross_fitted == im.decide(y, scores[r.model], metric="f2", cv=5, rng=0)[1]
    assert r.cross_fitted.n_splits == 5 and sum(r.cross_fitted.per_1000.values()) == pytest.approx(1000)


def test_intervals_at_the_chosen_threshold_and_the_note_says_when_there_are_none():
    y, scores = _data()
    r = recommend(y, scores, metric="f1", n_resamples=300, rng=1)
    for key in ("tp", "fp", "fn", "tn"):
        low, high = r.in_sample.intervals[f"{key}_per_1000"].confidence_interval
        assert low <= r.in_sample.per_1000[key] <= high
    assert "300 replicates" in r.intervals_note()
    bare = recommend(y, scores, metric="f1", cv=None)
    assert bare.cross_fitted is None and "No intervals" in bare.intervals_note()
    assert "no honest estimate" in bare.caveat()


def test_verdicts_are_the_comparisons_own_sentences():
    y, scores = _data()
    comparison = im.uncertainty.compare_scores(y, scores, metrics=["f2"], n_resamples=200, rng=0)
    r = recommend(y, scores, metric="f2", comparison=comparison, cv=None)
    assert r.tested and len(r.comparisons) == 2
    for row in r.comparisons:
        assert r.model in (row.a, row.b) and row.sentence() in r.verdicts()
    level = [row for row in r.comparisons if row.winner != r.model]
    assert level, "strong and close differ by noise: the comparison must find no detectable difference"
    assert any("do not single out" in v for v in r.verdicts())
    d = r.to_dict()
    assert d["verdicts"] == r.verdicts() and d["model"] == r.model and d["in_sample"] == r.in_sample.to_dict()
    untested = recommend(y, scores, metric="f2", cv=None)
    assert not untested.tested and untested.verdicts()[0].startswith("Not tested")


def test_a_cost_is_minimised():
    y, scores = _data()
    r = recommend(y, scores, metric="cost(fp=1, fn=5)", cv=None)
    # by brute force: the least cost per sample over flagging s >= t at every t, or flagging nothing
    y = np.asarray(y)
    brute = {}
    for name, s in scores.items():
        costs = [((s >= t) & (y == 0)).sum() + 5 * ((s < t) & (y == 1)).sum() for t in np.unique(s)]
        brute[name] = min(costs + [5 * (y == 1).sum()]) / len(y)
    assert r.values == pytest.approx(brute, rel=1e-12)
    assert r.model == min(brute, key=brute.get)


def test_weights_are_read_at_any_scale():
    """Weights count relative importance: multiplying them all by 10^6 changes no choice and no count per 1,000."""
    y, scores = _data(600)
    w = np.random.default_rng(1).uniform(0.5, 2.0, len(y))
    a = recommend(y, scores, metric="f2", sample_weight=w, cv=None).to_dict()
    b = recommend(y, scores, metric="f2", sample_weight=1e6 * w, cv=None).to_dict()
    assert a["model"] == b["model"] and a["in_sample"]["threshold"] == b["in_sample"]["threshold"]
    assert a["in_sample"]["per_1000"] == pytest.approx(b["in_sample"]["per_1000"], rel=1e-12)
    assert a["values"] == pytest.approx(b["values"], rel=1e-12)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(scores={}), im.InvalidParameterError, "non-empty mapping"),
        (dict(comparison="x"), im.InvalidParameterError, "must be a ModelComparison"),
    ],
)
def test_bad_input(kwargs, error, match):
    y, scores = _data(300)
    args = dict(scores=scores, metric="f1", cv=None) | kwargs
    with pytest.raises(error, match=match):
        recommend(y, **args)


def test_a_comparison_of_other_data_is_refused():
    y, scores = _data()
    other = {n: s[::-1].copy() for n, s in scores.items()}
    comparison = im.uncertainty.compare_scores(y, other, metrics=["f1"], n_resamples=50, rng=0)
    with pytest.raises(ValueError, match="compare the same labels"):
        recommend(y, scores, metric="f1", comparison=comparison, cv=None)


def test_repr():
    y, scores = _data(300)
    assert isinstance(recommend(y, scores, metric="f1", cv=None), Recommendation)
    assert repr(recommend(y, scores, metric="f1", cv=None)).startswith("Recommendation(metric='f1'")


def test_the_cross_fitted_decision_is_decides_whether_or_not_intervals_are_drawn():
    """One answer: the summary's cross-fitted counts equal decide(..., rng=seed)'s (the CLI's decision
    table), with --ci (intervals drawn) as without."""
    y, scores = _data(400)
    best = recommend(y, scores, metric="f1", cv=5, rng=0).model
    reference = im.decide(y, scores[best], metric="f1", cv=5, rng=0)[1]
    for n_resamples in (None, 200):
        r = recommend(y, scores, metric="f1", cv=5, rng=0, n_resamples=n_resamples)
        assert r.cross_fitted.to_dict()["counts"] == reference.to_dict()["counts"]
