"""decide's bootstrap at a fixed threshold reads each replicate's counts as four sums of its draws
(issue 25, item 5), no table per replicate: the same draws, the same counts (hand-checked here by
redrawing the replicates from the seed and counting the flagged rows directly)."""

import numpy as np
import pytest

import isometrics as im
from isometrics.uncertainty.resampling import Resampler


def _per_1000(tp, fp, fn, tn):
    total = tp + fp + fn + tn
    return [1000.0 * c / total for c in (tp, fp, fn, tn)]


def _check(d, hand):
    hand = np.array(hand)
    for k, name in enumerate(("tp_per_1000", "fp_per_1000", "fn_per_1000", "tn_per_1000")):
        np.testing.assert_allclose(d.intervals[name].bootstrap_distribution, hand[:, k], rtol=1e-12)
        np.testing.assert_allclose(
            d.intervals[name].confidence_interval, np.quantile(hand[:, k], [0.025, 0.975]), rtol=1e-12
        )


def test_untied_unweighted_counts_are_those_of_the_drawn_rows():
    """Untied scores, no weights: a replicate draws how many positives (binomial), then positives and
    negatives by their rank in decreasing score order; those ranked above the threshold are flagged."""
    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.3
    s = rng.normal(size=500) + y
    t, B = 0.4, 80
    (d,) = im.decide(y, s, threshold=t, n_resamples=B, rng=9)
    pos, neg = np.sort(s[y])[::-1], np.sort(s[~y])[::-1]
    P, N = len(pos), len(neg)
    gen = np.random.default_rng(9)
    hand = []
    for _ in range(B):
        k = int(gen.binomial(P + N, P / (P + N)))
        drawn_pos, drawn_neg = pos[gen.integers(0, P, k)], neg[gen.integers(0, N, P + N - k)]
        tp, fp = np.sum(drawn_pos >= t), np.sum(drawn_neg >= t)
        hand.append(_per_1000(tp, fp, k - tp, P + N - k - fp))
    _check(d, hand)


def test_tied_scores_draw_cells_and_their_counts_are_the_flagged_cells():
    """Few tie groups: a replicate draws how many samples of each (group, class) cell, groups in
    decreasing score order; the groups scored >= the threshold are flagged."""
    rng = np.random.default_rng(4)
    y = rng.random(600) < 0.25
    s = np.round(rng.normal(size=600) + y, 0)
    t, B = 1.0, 60
    (d,) = im.decide(y, s, threshold=t, n_resamples=B, rng=5)
    groups = np.unique(s)[::-1]
    cells = np.concatenate([[np.sum(y & (s == g)) for g in groups], [np.sum(~y & (s == g)) for g in groups]])
    G, n = len(groups), len(y)
    gen = np.random.default_rng(5)
    hand = []
    for _ in range(B):
        both = gen.multinomial(n, cells / n)
        flagged = groups >= t
        tp, fp = both[:G][flagged].sum(), both[G:][flagged].sum()
        hand.append(_per_1000(tp, fp, both[:G].sum() - tp, both[G:].sum() - fp))
    _check(d, hand)


def test_weighted_counts_are_the_weights_of_the_drawn_rows():
    """Sampling weights: a replicate draws n rows with replacement, each carrying its weight."""
    rng = np.random.default_rng(6)
    y = rng.random(300) < 0.4
    s = rng.normal(size=300) + y
    w = rng.uniform(0.5, 2.0, size=300)
    t, B = 0.2, 50
    (d,) = im.decide(y, s, threshold=t, n_resamples=B, rng=1, sample_weight=w, weight_kind="sampling")
    gen = np.random.default_rng(1)
    hand = []
    for _ in range(B):
        rows = gen.integers(0, len(y), len(y))
        wr, yr, flagged = w[rows], y[rows], s[rows] >= t
        tp, fp = wr[yr & flagged].sum(), wr[~yr & flagged].sum()
        hand.append(_per_1000(tp, fp, wr[yr].sum() - tp, wr[~yr].sum() - fp))
    _check(d, hand)


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"sample_weight": np.arange(200) % 3 + 1.0, "weight_kind": "frequency"},
        {"sample_weight": np.arange(200) % 3 + 0.5, "weight_kind": "sampling"},
    ],
)
def test_a_fixed_threshold_builds_no_table_per_replicate(options, monkeypatch):
    rng = np.random.default_rng(7)
    y = rng.random(200) < 0.3
    s = np.round(rng.normal(size=200) + y, 1)
    (before,) = im.decide(y, s, threshold=0.3, metrics=["f2"], n_resamples=40, rng=2, **options)

    def refuse(*args, **kwargs):
        raise AssertionError("a replicate's table was built")

    monkeypatch.setattr(Resampler, "build", refuse)
    (after,) = im.decide(y, s, threshold=0.3, metrics=["f2"], n_resamples=40, rng=2, **options)
    assert set(after.intervals) == set(before.intervals)
    for name, r in after.intervals.items():
        np.testing.assert_allclose(r.bootstrap_distribution, before.intervals[name].bootstrap_distribution, rtol=1e-12)
