"""Evaluation by group (issue 25, item 7): each group's figures are the ungrouped engine's on that
group's rows, the decisions follow the adjusted p-values, and bad groups are refused in words."""

import json
import warnings

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import isometrics as im
from isometrics.exceptions import IsometricsError, UndefinedMetricWarning
from isometrics.uncertainty import _group_tables
from isometrics.uncertainty.groups import MAX_GROUPS, MIN_CLASS_ROWS
from isometrics.uncertainty.multiple_testing import holm_adjust


def _data(n=2400, seed=0, weights=False):
    rng = np.random.default_rng(seed)
    g = rng.choice(["north", "south", "east", "west"], n, p=[0.4, 0.3, 0.2, 0.1])
    y = (rng.random(n) < 0.25).astype(int)
    s = np.round(y * (1.0 + 0.8 * (g == "south")) + rng.normal(size=n), 1)  # ties on purpose
    w = rng.integers(0, 4, n).astype(float) if weights else None  # zeros included
    return y, s, g, w


@pytest.mark.parametrize("weighted", [False, True])
def test_each_group_is_the_ungrouped_engine_on_its_rows(weighted):
    y, s, g, w = _data(weights=weighted)
    r = im.evaluate_scores(y, {"m": s}, metrics=["f1", "f2"], sample_weight=w, groups=g)["m"]
    t = r.best[0].threshold
    for name in ("east", "north", "south", "west"):
        rows = g == name
        ww = None if w is None else w[rows]
        ref = im.evaluate_scores(y[rows], {"m": s[rows]}, metrics=["f1", "f2"], sample_weight=ww)["m"]
        got = r.groups[name]
        op = im.OperatingPoints.from_scores(y[rows], s[rows], sample_weight=ww)
        for field in ("thresholds", "tp", "fp"):  # the same table, exactly
            np.testing.assert_array_equal(getattr(got.operating_points, field), getattr(op, field))
        assert got.estimates["auroc"] == ref.auroc
        assert got.estimates["average_precision"] == ref.average_precision
        assert got.estimates["auprg"] == ref.auprg
        assert [b.threshold for b in got.best] == [b.threshold for b in ref.best]
        assert [b.value for b in got.best] == [b.value for b in ref.best]
        cut = op.at_threshold(t)
        assert got.estimates["precision"] == cut.precision
        assert got.estimates["recall"] == cut.recall
        assert got.estimates["alert_rate"] == cut.rate
        # and against scikit-learn, an independent implementation
        assert got.estimates["auroc"] == pytest.approx(roc_auc_score(y[rows], s[rows], sample_weight=ww), abs=1e-12)
        assert got.estimates["average_precision"] == pytest.approx(
            average_precision_score(y[rows], s[rows], sample_weight=ww), abs=1e-12
        )
        flagged = s[rows] >= t
        weights = np.ones(rows.sum()) if ww is None else ww
        assert got.estimates["alert_rate"] == pytest.approx(weights[flagged].sum() / weights.sum(), abs=1e-12)


def test_one_sort_then_a_stable_split():
    rng = np.random.default_rng(3)
    s = np.round(rng.normal(size=500), 1)
    codes = rng.integers(0, 7, 500)
    split = _group_tables.split_by_group(s, codes, 7)
    for g in range(7):
        rows = split.of(g)
        np.testing.assert_array_equal(rows, np.flatnonzero(codes == g)[np.argsort(-s[codes == g], kind="stable")])
        np.testing.assert_array_equal(
            split.rest(codes, g), np.flatnonzero(codes != g)[np.argsort(-s[codes != g], kind="stable")]
        )


def test_decisions_follow_the_adjusted_p_values():
    y, s, g, _ = _data(n=4000, seed=1)
    ge = im.evaluate_scores(y, {"m": s}, groups=g, n_resamples=300, rng=2)["m"].groups
    assert ge.differences, "every group has enough rows to be tested"
    alpha = 1 - ge.confidence_level
    for key in ("auroc", "average_precision", "auprg", "precision", "recall"):
        family = [d for d in ge.differences if d.statistic == key]
        assert [d.a for d in family] == ["east", "north", "south", "west"]
        assert {d.b for d in family} == {"the rest"} and all(d.n_tests == 4 for d in family)
        np.testing.assert_allclose([d.adjusted_p_value for d in family], holm_adjust([d.p_value for d in family]))
        for d in family:
            detected = d.adjusted_p_value <= alpha + 1e-12
            assert (d.winner is not None) == detected
            low, high = d.adjusted_interval
            assert (low > 0 or high < 0) == detected  # the compatible interval says the same
            assert d.sentence() in json.dumps(ge.to_dict())
    # south's curve is better by construction: the AUROC difference is found
    assert ge.difference("south", "auroc").winner == "south"
    # the same rows under Bonferroni: p-values n_tests times the raw ones, never below Holm's
    bonf = im.evaluate_scores(y, {"m": s}, groups=g, n_resamples=300, rng=2, adjustment="bonferroni")["m"].groups
    for d, h in zip(bonf.differences, ge.differences):
        assert d.p_value == h.p_value and d.adjusted_p_value == pytest.approx(min(1.0, 4 * d.p_value))
        assert d.adjusted_p_value >= h.adjusted_p_value - 1e-12
    assert "Holm" in ge.family() and "4 groups" in ge.family()


def test_intervals_cover_the_estimates_and_small_groups_say_so():
    y, s, g, _ = _data(n=1500, seed=4)
    g = g.astype(object)
    g[:12] = "tiny"
    y[:12] = [1, 1, 1] + [0] * 9  # 3 positives
    ge = im.evaluate_scores(y, {"m": s}, groups=g, n_resamples=100, rng=0)["m"].groups
    tiny = ge["tiny"]
    assert tiny.intervals == {} and "too few" in tiny.note and "3 positives" in tiny.note
    assert f"at least {MIN_CLASS_ROWS}" in tiny.note
    assert "tiny" not in {d.a for d in ge.differences}
    assert tiny.to_dict()["auroc"]["interval"] is None and tiny.to_dict()["note"] == tiny.note
    for row in ge.rows:
        if row.group != "tiny":
            for key, r in row.intervals.items():
                assert r.confidence_interval[0] <= row.estimates[key] <= r.confidence_interval[1] or key == "auprg"


def test_a_group_of_one_class_is_kept_with_words():
    y, s, g, _ = _data(n=800, seed=5)
    g = g.astype(object)
    only_neg = np.flatnonzero(y == 0)[:30]
    g[only_neg] = "negatives only"
    with pytest.warns(UndefinedMetricWarning, match="one class only"):
        ge = im.evaluate_scores(y, {"m": s}, groups=g, n_resamples=50, rng=0)["m"].groups
    row = ge["negatives only"]
    assert row.estimates["auroc"] is None and row.estimates["recall"] is None and row.best == ()
    assert row.estimates["alert_rate"] is not None and "no positives" in row.note
    json.dumps(ge.to_dict())
    assert "undefined" in repr(ge)


def test_bad_groups_are_refused_in_words():
    y, s, g, _ = _data(n=600)
    with pytest.raises(IsometricsError, match=r"2 missing values .*first at index 3.*'missing'"):
        gg = g.astype(object)
        gg[3] = None
        gg[7] = float("nan")
        im.evaluate_scores(y, {"m": s}, groups=gg)
    with pytest.raises(IsometricsError, match="missing values"):
        im.evaluate_scores(y, {"m": s}, groups=np.where(np.arange(600) == 5, np.nan, 1.0))
    many = np.arange(600) % 300
    big_y, big_s = np.tile(y, 20), np.tile(s, 20)
    with pytest.raises(IsometricsError, match=r"10,000 distinct values, more than the limit of 1,000 groups; merge"):
        im.evaluate_scores(big_y[:12000], {"m": big_s[:12000]}, groups=np.arange(12000) % 10_000)
    assert MAX_GROUPS == 1000
    with pytest.warns(UndefinedMetricWarning):  # 300 groups are fine (some of one class)
        im.evaluate_scores(y, {"m": s}, groups=many)
    with pytest.raises(im.InvalidParameterError, match=r"got the string 'region'.*df\['region'\]"):
        im.evaluate_scores(y, {"m": s}, groups="region")
    with pytest.raises(im.InvalidParameterError, match="`groups` has 5 values but y_true has 600"):
        im.evaluate_scores(y, {"m": s}, groups=g[:5])
    with pytest.raises(im.InvalidParameterError, match="`adjustment` must be one of"):
        im.evaluate_scores(y, {"m": s}, groups=g, adjustment="hochberg")


def test_the_inputs_are_not_mutated_and_the_result_is_compact():
    y, s, g, w = _data(n=500, weights=True)
    copies = [a.copy() for a in (y, s, g, w)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ev = im.evaluate_scores(y, {"m": s}, sample_weight=w, groups=g, group_name="region", n_resamples=20, rng=0)
    for a, b in zip((y, s, g, w), copies):
        np.testing.assert_array_equal(a, b)
    ge = ev["m"].groups
    assert isinstance(ge, im.uncertainty.GroupEvaluation) and ge.column == "region"
    assert len(repr(ge)) < 1000 and repr(ge).startswith("GroupEvaluation(score='m', by='region'")
    d = json.loads(json.dumps(ev.to_dict()))
    assert [row["group"] for row in d["m"]["groups"]["groups"]] == ["east", "north", "south", "west"]
    assert "groups" not in im.evaluate_scores(y, {"m": s})["m"].to_dict()


def test_a_statistic_undefined_in_a_group_is_not_tested_and_the_json_stays_finite():
    """A group scored far below the global threshold flags no row: its precision is undefined, so it
    gets no precision interval, no precision row in the tested family, and the JSON holds no NaN."""
    import json

    rng = np.random.default_rng(5)
    n = 1000
    g = np.where(np.arange(n) < 200, "low", "high")
    y = (rng.random(n) < 0.3).astype(int)
    s = 4 * y + rng.normal(size=n) - 20.0 * (g == "low")
    ge = im.evaluate_scores(y, {"m": s}, metrics=["f1"], groups=g, n_resamples=200, rng=0)["m"].groups
    assert ge["low"].estimates["precision"] is None  # the case: nothing flagged in that group
    assert all("precision" not in r.intervals for r in ge.rows if r.group == "low")
    assert all(not np.isnan(row.estimate) for row in ge.differences)
    json.dumps(ge.to_dict(), allow_nan=False)


def test_groups_need_a_metric():
    y = np.array([0, 1] * 20)
    s = np.linspace(0, 1, 40)
    with pytest.raises(im.InvalidParameterError, match="`metrics` is empty"):
        im.evaluate_scores(y, {"m": s}, metrics=[], groups=np.array(["a", "b"] * 20))
