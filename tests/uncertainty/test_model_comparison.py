"""Issue 20, items 1-2: one comparison result (raw and adjusted p, compatible intervals, decision,
sentence) and one vocabulary of statistics."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pytest

import isometrics as im


def _close_models(seed=39, n=600):
    """Three models of nearly equal quality: on seed 39, logreg - forest has a raw AUROC p-value
    below 0.05 and a Holm-adjusted one above it (the failure of issue 20, item 1)."""
    r = np.random.default_rng(seed)
    y = r.random(n) < 0.3
    base = r.normal(size=n)
    return y, {
        "logreg": base + 1.0 * y + r.normal(scale=0.6, size=n),
        "forest": base + 0.9 * y + r.normal(scale=0.6, size=n),
        "tree": base + 0.9 * y + r.normal(scale=0.6, size=n),
    }


def _holm_by_hand(p):
    """Holm (1979): the i-th smallest (from 0) times m - i, capped at 1, running maximum."""
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


def test_a_raw_p_below_005_with_holm_p_above_is_not_said_to_beat():
    y, scores = _close_models()
    c = im.uncertainty.bootstrap_compare(y, scores, statistics=["auroc"], n_resamples=399, rng=0)
    row = c.row("auroc", "logreg", "forest")
    assert row.p_value < 0.05 < row.adjusted_p_value
    assert row.decision == "no detectable difference" and row.winner is None
    assert row.sentence().startswith("no detectable difference between logreg and forest on AUROC")
    assert "beats" not in row.sentence() and "Holm-adjusted p = 0.12" in row.sentence()
    low, high = row.adjusted_interval
    assert low <= 0 <= high and not (row.confidence_interval[0] <= 0 <= row.confidence_interval[1])
    assert [r.adjusted_p_value for r in c.rows] == pytest.approx(_holm_by_hand([r.p_value for r in c.rows]))
    # the p-value by hand: 2 (1 + k) / (B + 1), k the replicates on the far side of 0
    d = row.bootstrap.bootstrap_distribution
    assert row.p_value == pytest.approx(2 * (1 + min((d <= 0).sum(), (d >= 0).sum())) / (len(d) + 1))
    none = im.uncertainty.bootstrap_compare(y, scores, statistics=["auroc"], n_resamples=399, rng=0, adjustment="none")
    assert none.row("auroc", "logreg", "forest").decision == "a better"
    assert none.row("auroc", "logreg", "forest").sentence().startswith("logreg beats forest on AUROC by ")


@pytest.mark.parametrize("seed", range(12))
def test_decision_is_no_difference_iff_the_adjusted_interval_covers_0(seed):
    """The compatible intervals (Bretz, Hothorn & Westfall 2010): for the percentile bootstrap (and
    DeLong's Wald interval) the adjusted interval excludes 0 exactly when the adjusted p <= alpha,
    and the raw interval exactly when the raw p <= alpha."""
    r = np.random.default_rng(seed)
    n = 120 + 20 * seed
    y = r.random(n) < 0.35
    base = r.normal(size=n)
    scores = {f"m{k}": base + (0.2 + 0.15 * k * r.random()) * y + r.normal(scale=0.8, size=n) for k in range(4)}
    adjustment = ("holm", "bonferroni", "none")[seed % 3]
    level = (0.95, 0.9, 0.8)[seed % 3]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = im.uncertainty.bootstrap_compare(
            y,
            scores,
            statistics=["auroc", "f1", "cost(fp=1, fn=3)"],
            n_resamples=99 + seed,
            confidence_level=level,
            adjustment=adjustment,
            rng=seed,
        )
    alpha = 1 - level
    assert len(c.rows) == 18 and len(c.delong) == 6
    for row in (*c.rows, *c.delong):
        low, high = row.adjusted_interval
        assert (row.decision == "no detectable difference") == (low <= 0 <= high), row
        assert (row.adjusted_p_value <= alpha) == (row.decision != "no detectable difference"), row
        raw_low, raw_high = row.confidence_interval
        assert (row.p_value <= alpha) == (not raw_low <= 0 <= raw_high), row
        assert low <= raw_low and raw_high <= high  # adjusting never narrows
        if row.winner is not None:  # the winner is on the side the interval lies
            sign = 1 if row.greater_is_better else -1
            assert (sign * low > 0) == (row.winner == row.a)


def test_the_bonferroni_interval_is_the_alpha_over_m_percentile_interval():
    y, scores = _close_models(seed=3)
    c = im.uncertainty.bootstrap_compare(
        y, scores, statistics=["auroc"], n_resamples=999, rng=1, adjustment="bonferroni"
    )
    for row in c.rows:
        if row.adjusted_p_value < 1:
            assert row.adjusted_level == pytest.approx(1 - 0.05 / 3)
        d = np.sort(row.bootstrap.bootstrap_distribution)
        j = math.floor((len(d) + 1) * (1 - row.adjusted_level) / 2 + 1e-9)  # Davison & Hinkley (1997), 5.2
        assert row.adjusted_interval == (d[j - 1], d[len(d) - j])
        j = math.floor((len(d) + 1) * 0.05 / 2 + 1e-9)
        assert row.confidence_interval == (d[j - 1], d[len(d) - j]) == row.bootstrap.confidence_interval


def test_lower_is_better_decides_for_the_lower_cost():
    r = np.random.default_rng(0)
    y = r.random(800) < 0.3
    scores = {"weak": r.normal(size=800) + 0.3 * y, "strong": r.normal(size=800) + 2.0 * y}
    c = im.uncertainty.bootstrap_compare(y, scores, statistics=["cost(fp=1, fn=5)", "auroc"], n_resamples=199, rng=0)
    cost = c.row("cost(fp=1, fn=5)", "weak", "strong")
    assert (cost.a, cost.b) == ("weak", "strong") and cost.estimate > 0  # the weak model costs more
    assert cost.decision == "b better" and cost.winner == "strong" and not cost.greater_is_better
    assert cost.sentence().startswith(f"strong beats weak on cost(FP=1, FN=5) (lower is better) by {cost.estimate:.4f}")
    assert c.row("auroc", "strong", "weak").winner == "strong"


def test_baseline_and_to_dict():
    y, scores = _close_models()
    c = im.uncertainty.compare_scores(y, scores, metrics=["f1"], baseline="tree", n_resamples=19, rng=0)
    assert c.pairs == (("logreg", "tree"), ("forest", "tree"))
    assert c.statistics == ("auroc", "average_precision", "auprg", "f1")
    payload = json.loads(json.dumps(c.to_dict(), allow_nan=False))  # strict JSON, infinite ends as null
    assert payload["adjustment"] == "holm" and "adjusted over its 2 pairs" in payload["family"]
    assert [row["sentence"] for row in payload["comparisons"]] == [r.sentence() for r in c.rows]
    # 19 replicates cannot reach the Holm level 0.05 / 2: the adjusted interval is unbounded, said so in JSON
    assert any(row["adjusted_low"] is None for row in payload["comparisons"])
    with pytest.raises(im.IsometricsError, match=r"`baseline` = 'knn' is not one of the models"):
        im.uncertainty.compare_scores(y, scores, baseline="knn", n_resamples=5)
    with pytest.raises(im.InvalidParameterError, match=r"`adjustment` must be one of 'holm', 'bonferroni', 'none'"):
        im.uncertainty.bootstrap_compare(y, scores, adjustment="fdr", n_resamples=5)


# ---------------------------------------------------------------------------- item 2: one vocabulary
def _vocabulary():
    """Every name of the metric registry, and parameterised specs as best_threshold takes them."""
    return [
        *im.METRIC_NAMES,
        "f0.5",
        "fbeta(beta=2)",
        "g(beta=2, rho=-3)",
        "net_benefit@0.2",
        "cost(fp=1, fn=4, prevalence=0.2)",
        im.parse_metric("f2"),
    ]


@pytest.mark.parametrize("spec", _vocabulary(), ids=str)
def test_every_metric_best_threshold_takes_is_a_statistic(spec):
    r = np.random.default_rng(1)
    y = r.random(300) < 0.4
    s, other = r.normal(size=300) + y, r.normal(size=300) + 0.5 * y
    try:
        metric = im.parse_metric(spec)
    except im.InvalidParameterError as exc:  # a name that needs its parameters: refused alike everywhere
        for call in (
            lambda: im.uncertainty.bootstrap(y, s, statistic=spec),
            lambda: im.best_threshold(y, s, metric=spec),
            lambda: im.uncertainty.bootstrap_compare(y, {"a": s, "b": other}, statistics=[spec]),
        ):
            with pytest.raises(im.InvalidParameterError, match="is not a metric: " + str(exc)[:20]):
                call()
        return
    best = im.best_threshold(y, s, metric=spec).value
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", im.UndefinedMetricWarning)
        one = im.uncertainty.bootstrap(y, s, statistic=spec, n_resamples=30, rng=2)
        old = im.uncertainty.bootstrap(y, s, statistic="metric", metric=spec, n_resamples=30, rng=2)
        c = im.uncertainty.bootstrap_compare(y, {"a": s, "b": other}, statistics=[spec], n_resamples=30, rng=2)
    assert one.estimate == pytest.approx(best, rel=1e-12, abs=1e-15)
    assert one.confidence_interval == old.confidence_interval and one.statistic == old.statistic
    assert c.statistics == (metric.spec,) and c.estimates[metric.spec]["a"] == pytest.approx(best, abs=1e-15)
    assert c.rows[0].greater_is_better == metric.greater_is_better


def test_a_fixed_threshold_and_areas_in_one_comparison():
    y, scores = _close_models()
    c = im.uncertainty.bootstrap_compare(
        y, scores, statistics=["auroc", "precision", "g(beta=2, rho=-3)"], threshold=0.5, n_resamples=19, rng=0
    )
    assert c.statistics == ("auroc", "precision at threshold 0.5", "g(beta=2, rho=-3) at threshold 0.5")
    logreg = np.asarray(scores["logreg"]) >= 0.5
    assert c.estimates["precision at threshold 0.5"]["logreg"] == pytest.approx(y[logreg].mean(), rel=1e-12)
    for bad, match in [
        ([], "non-empty sequence"),
        (["auroc", "auroc"], "names a statistic twice"),
        (["metric"], "name the metric itself"),
        (["gini"], r"`statistics\[0\]` = 'gini' is not a"),
    ]:
        with pytest.raises(im.InvalidParameterError, match=match):
            im.uncertainty.bootstrap_compare(y, scores, statistics=bad, n_resamples=5)
