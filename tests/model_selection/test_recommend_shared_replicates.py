"""The summary's intervals at the chosen threshold rest on the comparison's paired replicates (issue 25):
the same rows, replicate by replicate, as every comparison and model interval of the report, so the
page and the JSON give one answer. Checked by a property no independent draw satisfies (in each
replicate, F2 at the fixed threshold is at most the best F2 there) and by recomputing each replicate
by hand (the rows it drew, as weights) with scikit-learn."""

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

import isometrics as im
from isometrics.model_selection import decisions, recommend
from isometrics.spaces.operating_points import OperatingPoints
from isometrics.uncertainty.resampling import Resampler

F2 = "fbeta(beta=2)"


@pytest.fixture(scope="module")
def setting():
    rng = np.random.default_rng(3)
    n = 1500
    y = (rng.random(n) < 0.08).astype(int)
    scores = {"a": np.round(rng.normal(size=n) + 1.8 * y, 2), "b": rng.normal(size=n) + 1.2 * y}
    comparison = im.uncertainty.compare_scores(y, scores, metrics=["f2"], n_resamples=200, rng=11)
    shared = recommend(y, scores, metric="f2", comparison=comparison, n_resamples=200, rng=5, cv=None)
    own = recommend(y, scores, metric="f2", n_resamples=200, rng=5, cv=None)
    return y, scores, comparison, shared, own


def test_in_every_replicate_the_fixed_threshold_scores_at_most_the_replicates_best(setting):
    _, _, comparison, shared, own = setting
    assert shared.shared_replicates and not own.shared_replicates
    best = comparison.distributions[F2][:, comparison.names.index(shared.model)]  # re-optimised per replicate
    fixed = shared.in_sample.intervals[F2].bootstrap_distribution
    assert len(fixed) == len(best) == 200
    assert np.all(fixed <= best + 1e-12)
    # replicates of their own break it (the premise that makes the line above a test of pairing)
    assert np.mean(own.in_sample.intervals[F2].bootstrap_distribution <= best + 1e-12) < 0.9


def test_each_replicate_is_the_rows_the_comparison_drew(setting):
    """Replay the comparison's draws (each replicate draws n rows uniformly with replacement; under 4,096
    rows the block draw is ``np.bincount(gen.integers(0, n, n))`` itself, see test_row_counts.py): its AUROC
    under scikit-learn with those rows as weights is the comparison's, and the summary's counts per
    1,000 at the threshold are those rows' counts."""
    y, scores, comparison, shared, _ = setting
    n, model, t = len(y), shared.model, shared.threshold
    gen = comparison.replicate_generator()
    flagged = scores[model] >= t
    j = comparison.names.index(model)
    tp = shared.in_sample.intervals["tp_per_1000"].bootstrap_distribution
    fp = shared.in_sample.intervals["fp_per_1000"].bootstrap_distribution
    for b in range(comparison.n_resamples):
        w = np.bincount(gen.integers(0, n, n), minlength=n)
        assert roc_auc_score(y, scores[model], sample_weight=w) == pytest.approx(
            comparison.distributions["auroc"][b, j], rel=1e-12
        )
        assert tp[b] == pytest.approx(1000 * w[flagged & (y == 1)].sum() / n, rel=1e-12)
        assert fp[b] == pytest.approx(1000 * w[flagged & (y == 0)].sum() / n, rel=1e-12)


def test_the_estimates_are_unchanged_and_the_note_and_json_say_so(setting):
    _, _, _, shared, own = setting
    assert shared.in_sample.per_1000 == own.in_sample.per_1000 and shared.threshold == own.threshold
    for key, r in shared.in_sample.intervals.items():
        assert r.estimate == own.in_sample.intervals[key].estimate
    assert "those of the paired comparisons" in shared.intervals_note()
    assert shared.to_dict()["shared_replicates"] is True and own.to_dict()["shared_replicates"] is False


def test_replicates_of_their_own_when_the_comparison_differs(setting):
    """Another number of replicates, another level, or a comparison without the metric: own draws."""
    y, scores, comparison, _, _ = setting
    assert not recommend(
        y, scores, metric="f2", comparison=comparison, n_resamples=100, rng=5, cv=None
    ).shared_replicates
    assert not recommend(
        y, scores, metric="f2", comparison=comparison, n_resamples=200, confidence_level=0.9, rng=5, cv=None
    ).shared_replicates
    assert not recommend(
        y, scores, metric="f1", comparison=comparison, n_resamples=200, rng=5, cv=None
    ).shared_replicates


def test_the_replicate_generator_leaves_the_comparison_as_it_was(setting):
    _, _, comparison, _, _ = setting
    first = comparison.replicate_generator().integers(0, 10**9, 5)
    assert np.array_equal(first, comparison.replicate_generator().integers(0, 10**9, 5))


@pytest.mark.parametrize("weight_kind", ["sampling", "frequency"])
def test_weighted_data_share_the_replicates_too(weight_kind):
    """Weighted rows (drawn per sample, as the comparison draws them, not by the shortcut of
    unweighted data): the same property, replicate by replicate."""
    rng = np.random.default_rng(8)
    n = 800
    y = (rng.random(n) < 0.15).astype(int)
    scores = {"a": np.round(rng.normal(size=n) + 1.6 * y, 2), "b": rng.normal(size=n) + 1.0 * y}
    w = rng.integers(1, 4, n).astype(float)
    c = im.uncertainty.compare_scores(
        y, scores, metrics=["f2"], n_resamples=150, rng=2, sample_weight=w, weight_kind=weight_kind
    )
    r = recommend(
        y, scores, metric="f2", comparison=c, n_resamples=150, rng=5, cv=None, sample_weight=w, weight_kind=weight_kind
    )
    assert r.shared_replicates
    best = c.distributions[F2][:, c.names.index(r.model)]
    fixed = r.in_sample.intervals[F2].bootstrap_distribution
    assert len(fixed) == len(best) and np.all(fixed <= best + 1e-12)


def test_the_summary_is_the_comparisons_own_draw(setting):
    """Unweighted rows took a shortcut of their own once (a second home for the per-row draw); the
    summary's intervals are, bit for bit, those decide's intervals give on the comparison's per-sample
    resampler and generator (one draw, Resampler.row_counts: tests/uncertainty/test_row_counts.py)."""
    y, scores, comparison, shared, _ = setting
    s, is_pos = scores[shared.model].astype(float), y == 1
    op = OperatingPoints.from_validated(is_pos, s, None, True, caller="test")
    counts, index = decisions._threshold_counts(op, shared.threshold)
    per_sample = Resampler(is_pos, s, None, False, per_sample=True, op=op)
    generic = decisions._intervals(
        per_sample,
        is_pos,
        s,
        None,
        counts,
        [im.parse_metric("f2")],
        200,
        0.95,
        comparison.replicate_generator(),
        None,
        index,
    )
    assert generic.keys() == shared.in_sample.intervals.keys()
    for key, r in generic.items():
        assert np.array_equal(r.bootstrap_distribution, shared.in_sample.intervals[key].bootstrap_distribution)
        assert r.confidence_interval == shared.in_sample.intervals[key].confidence_interval
