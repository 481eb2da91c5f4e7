"""One set of paired replicates for the report (issue 25, item 5): each model's intervals read
from the comparison's replicates (``ModelComparison.intervals``) are the percentile intervals of
that model's values on the very rows each replicate drew, and the report's JSON carries them."""

import json

import numpy as np
import polars as pl
import pytest
from _cli import run_in_process as run  # what the report command writes, not the process: in this process
from sklearn.metrics import average_precision_score, roc_auc_score

from isometrics import evaluate_scores
from isometrics.uncertainty import BootstrapResult, compare_scores


def _data(n=240, seed=5):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    scores = {
        "a": np.round(rng.normal(size=n) + 1.5 * y, 2),
        "b": rng.normal(size=n) + 0.7 * y,
        "c": np.round(rng.normal(size=n) + y, 1),
    }
    return y, scores


def test_each_models_interval_is_the_percentile_of_its_values_on_the_paired_draws():
    """Hand check: redraw the rows the comparison drew (a paired replicate draws n row indices with
    replacement from the Generator seeded by ``rng``), score every model on them with scikit-learn,
    and take the percentiles: the intervals are those."""
    y, scores = _data()
    B = 60
    comparison = compare_scores(y, scores, metrics=["f1"], n_resamples=B, rng=11)
    gen = np.random.default_rng(11)
    by_hand = {name: {"auroc": [], "average_precision": []} for name in scores}
    for _ in range(B):
        rows = gen.integers(0, len(y), len(y))
        if y[rows].min() == y[rows].max():
            continue  # a replicate with one class is dropped (none at this size)
        for name, s in scores.items():
            by_hand[name]["auroc"].append(roc_auc_score(y[rows], s[rows]))
            by_hand[name]["average_precision"].append(average_precision_score(y[rows], s[rows]))
    for name in scores:
        intervals = comparison.intervals(name)
        assert list(intervals) == ["auroc", "average_precision", "auprg", "f1"]
        for statistic, values in by_hand[name].items():
            r = intervals[statistic]
            assert isinstance(r, BootstrapResult) and r.method == "percentile" and r.confidence_level == 0.95
            np.testing.assert_allclose(r.bootstrap_distribution, values, rtol=1e-12)
            np.testing.assert_allclose(r.confidence_interval, np.quantile(values, [0.025, 0.975]), rtol=1e-12)
            estimate = (
                roc_auc_score(y, scores[name]) if statistic == "auroc" else average_precision_score(y, scores[name])
            )
            assert r.estimate == pytest.approx(estimate, rel=1e-12)
            assert r.standard_error == pytest.approx(np.std(values, ddof=1), rel=1e-12)
            assert (r.n_dropped, r.n_undefined) == (0, 0)


def test_the_models_replicates_are_the_columns_the_differences_were_taken_from():
    y, scores = _data()
    comparison = compare_scores(y, scores, metrics=["f2"], n_resamples=40, rng=2)
    for row in comparison.rows:
        a = comparison.intervals(row.a)[row.statistic].bootstrap_distribution
        b = comparison.intervals(row.b)[row.statistic].bootstrap_distribution
        np.testing.assert_array_equal(row.bootstrap.bootstrap_distribution, a - b)
    assert comparison.n_dropped == 0 and comparison.distributions["auroc"].shape == (40, 3)
    with pytest.raises(KeyError, match="no model named 'z'"):
        comparison.intervals("z")


def test_evaluate_scores_with_n_resamples_still_draws_its_own_bootstrap():
    y, scores = _data()
    results = evaluate_scores(y, scores, metrics=["f1"], n_resamples=30, rng=4)
    assert set(results["a"].intervals) == {"auroc", "average_precision", "auprg", "f1"}
    assert len(results["a"].intervals["auroc"].bootstrap_distribution) == 30


def test_the_reports_intervals_come_from_the_comparisons_replicates(tmp_path):
    """``isometrics report --ci``: each model's intervals in the JSON are those of the paired comparison
    drawn with the same seed (one set of replicates), not of a second bootstrap."""
    y, scores = _data(n=400, seed=8)
    pl.DataFrame({"y": y, **scores}).write_csv(tmp_path / "s.csv")
    res = run(
        "report",
        tmp_path / "s.csv",
        "--label",
        "y",
        "--score",
        "a",
        "--score",
        "b",
        "--score",
        "c",
        "--metric",
        "f2",
        "--ci",
        "--n-resamples",
        "50",
        "--seed",
        "3",
        "-o",
        tmp_path / "r.html",
        "--json",
        tmp_path / "r.json",
    )
    assert res.returncode == 0, res.stderr
    doc = json.loads((tmp_path / "r.json").read_text())
    comparison = compare_scores(y, scores, metrics=["f2"], n_resamples=50, rng=3)
    for result in doc["results"]:
        expected = comparison.intervals(result["score"])
        shown = result["confidence_intervals"]
        assert list(shown) == ["auroc", "average_precision", "auprg", "fbeta(beta=2)"]
        for statistic, r in expected.items():
            assert (shown[statistic]["low"], shown[statistic]["high"]) == pytest.approx(
                r.confidence_interval, rel=1e-12
            )
            assert shown[statistic]["n_resamples"] == 50 and shown[statistic]["method"] == "percentile"
