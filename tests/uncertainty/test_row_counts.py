"""The one per-row draw of the bootstrap (issue 26, item 3): how many times each row is drawn when n
rows are drawn uniformly with replacement, block by block (:class:`RowCounts`). Its distribution is
multinomial(k; 1/n, ..., 1/n), checked by moments derived by hand and chi-square tests over many
draws, for a generator with 64-bit output (PCG64) and one without (MT19937); paired comparisons,
the groups' replicates and decide's summary on a comparison all draw through it."""

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import average_precision_score, roc_auc_score

import isometrics as im
from isometrics.model_selection import recommend
from isometrics.uncertainty._replicates import _ROW_BLOCK_BITS, RowCounts
from isometrics.uncertainty.resampling import Resampler

BLOCK = 1 << _ROW_BLOCK_BITS
SIZE = 2 * BLOCK + 1000  # two full blocks and a shorter one


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])  # 64 raw bits a draw; 32
def test_row_counts_are_multinomial(bit_generator):
    """k draws among SIZE rows, B replicates. By hand, for multinomial(k; 1/SIZE, ...): each count has
    mean k/SIZE and variance k (1/SIZE)(1 - 1/SIZE); two counts covary by -k/SIZE^2; a block of m rows
    holds Binomial(k, m/SIZE) draws; the totals over B replicates are multinomial(B k; 1/SIZE, ...),
    so their chi-square statistic against B k / SIZE is chi-square with SIZE - 1 degrees of freedom."""
    gen = np.random.Generator(bit_generator(12))
    rows = RowCounts(SIZE)
    B, k = 400, SIZE
    draws = np.array([rows.draw(k, gen) for _ in range(B)])
    assert draws.dtype == np.int64 and draws.shape == (B, SIZE)
    assert np.all(draws.sum(axis=1) == k) and draws.min() >= 0
    p = 1.0 / SIZE
    # per-row moments over all B * SIZE counts: mean exactly k/SIZE, variance k p (1 - p)
    assert draws.mean() == k * p
    variance = k * p * (1 - p)
    assert draws.var() == pytest.approx(variance, rel=0.01)  # ~3.3e6 counts: relative error ~ 1e-3
    # P(count = 0) = (1 - p)^k
    assert np.mean(draws == 0) == pytest.approx((1 - p) ** k, rel=0.01)
    # uniform over the rows: chi-square of the totals, SIZE - 1 degrees of freedom
    totals = draws.sum(axis=0)
    expected = B * k * p
    chi2 = float(np.sum((totals - expected) ** 2) / expected)
    assert 1e-4 < stats.chi2.sf(chi2, SIZE - 1) < 1 - 1e-4
    # uniform within the blocks: the totals per position in a block (the 12 bits drawn), over the full blocks
    within = totals[: 2 * BLOCK].reshape(2, BLOCK).sum(axis=0)
    expected_within = 2 * expected
    chi2_within = float(np.sum((within - expected_within) ** 2) / expected_within)
    assert 1e-4 < stats.chi2.sf(chi2_within, BLOCK - 1) < 1 - 1e-4
    # the multinomial over the blocks: each block's draws per replicate are Binomial(k, m / SIZE)
    per_block = np.add.reduceat(draws, [0, BLOCK, 2 * BLOCK], axis=1)
    for j, m in enumerate([BLOCK, BLOCK, 1000]):
        q = m / SIZE
        assert per_block[:, j].mean() == pytest.approx(k * q, abs=4 * np.sqrt(k * q * (1 - q) / B))
        assert per_block[:, j].var(ddof=1) == pytest.approx(k * q * (1 - q), rel=0.2)  # B = 400: s.e. ~ 7 %
    # negative covariance of two rows in different blocks, and of two in one block: -k p^2 each
    pairs = [(0, 1), (5, BLOCK + 7), (BLOCK - 1, 2 * BLOCK + 999)]
    cov = np.mean([np.cov(draws[:, a], draws[:, b])[0, 1] for a, b in pairs])
    assert abs(cov - (-k * p * p)) < 4 * variance / np.sqrt(3 * B)


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])
def test_fewer_draws_than_rows_and_other_sizes(bit_generator):
    gen = np.random.Generator(bit_generator(4))
    for size, k in [(1, 1), (1, 5), (BLOCK, BLOCK), (3 * BLOCK, 100), (BLOCK + 1, 3 * BLOCK)]:
        counts = RowCounts(size).draw(k, gen)
        assert counts.shape == (size,) and counts.sum() == k and counts.min() >= 0
    assert RowCounts(0).draw(0, gen).shape == (0,)
    assert RowCounts(SIZE).draw(SIZE, gen, np.float64).dtype == np.float64


def test_below_one_block_the_draw_is_the_classic_one():
    """Under 4,096 rows there is one block, which takes no random number: the counts are those of
    ``np.bincount(rng.integers(0, n, n))`` for the same seed (small data keep their replicates)."""
    for n in (7, 300, BLOCK - 1):
        assert np.array_equal(
            RowCounts(n).draw(n, np.random.default_rng(5)),
            np.bincount(np.random.default_rng(5).integers(0, n, n), minlength=n),
        )


def test_stratified_row_counts_keep_each_class():
    rng = np.random.default_rng(0)
    y = rng.random(SIZE) < 0.3
    s = rng.normal(size=SIZE)
    r = Resampler(y, s, None, True, per_sample=True)
    for _ in range(5):
        counts = r.row_counts(rng)
        assert counts[y].sum() == y.sum() and counts[~y].sum() == (~y).sum()


def _rows(counts):
    return np.repeat(np.arange(len(counts)), counts)


def test_paired_replicates_over_several_blocks_are_the_rows_drawn():
    """bootstrap_compare over 9,192 rows (three blocks): each replicate's areas are scikit-learn's on the
    rows the one per-row draw gives from the comparison's generator, replayed."""
    rng = np.random.default_rng(2)
    y = (rng.random(SIZE) < 0.2).astype(int)
    scores = {"a": rng.normal(size=SIZE) + y, "b": np.round(rng.normal(size=SIZE) + 0.5 * y, 1)}
    B = 4
    c = im.uncertainty.bootstrap_compare(y, scores, statistics=["auroc", "average_precision"], n_resamples=B, rng=7)
    gen, rows = np.random.default_rng(7), RowCounts(SIZE)
    for b in range(B):
        idx = _rows(rows.draw(SIZE, gen))
        for j, sc in enumerate(scores.values()):
            assert c.distributions["auroc"][b, j] == pytest.approx(roc_auc_score(y[idx], sc[idx]), rel=1e-13)
            assert c.distributions["average_precision"][b, j] == pytest.approx(
                average_precision_score(y[idx], sc[idx]), rel=1e-13
            )


def test_the_summary_reads_the_comparisons_rows_over_several_blocks():
    """recommend on a comparison of 9,192 rows: the summary's counts per 1,000 in each replicate are
    those of the rows the comparison drew (replayed through the one draw), and the fixed threshold never
    beats the replicate's best (pairing)."""
    rng = np.random.default_rng(3)
    y = (rng.random(SIZE) < 0.1).astype(int)
    scores = {"a": np.round(rng.normal(size=SIZE) + 1.8 * y, 2), "b": rng.normal(size=SIZE) + 1.2 * y}
    B = 30
    comparison = im.uncertainty.compare_scores(y, scores, metrics=["f2"], n_resamples=B, rng=11)
    shared = recommend(y, scores, metric="f2", comparison=comparison, n_resamples=B, rng=5, cv=None)
    assert shared.shared_replicates
    model, t = shared.model, shared.threshold
    flagged = scores[model] >= t
    tp = shared.in_sample.intervals["tp_per_1000"].bootstrap_distribution
    fp = shared.in_sample.intervals["fp_per_1000"].bootstrap_distribution
    gen, rows = comparison.replicate_generator(), RowCounts(SIZE)
    j = comparison.names.index(model)
    for b in range(B):
        w = rows.draw(SIZE, gen)
        assert roc_auc_score(y, scores[model], sample_weight=w) == pytest.approx(
            comparison.distributions["auroc"][b, j], rel=1e-12
        )
        assert tp[b] == 1000 * w[flagged & (y == 1)].sum() / SIZE
        assert fp[b] == 1000 * w[flagged & (y == 0)].sum() / SIZE
    best = comparison.distributions["fbeta(beta=2)"][:, j]
    assert np.all(shared.in_sample.intervals["fbeta(beta=2)"].bootstrap_distribution <= best + 1e-12)


def test_comparison_and_summary_draw_through_the_one_counter(monkeypatch):
    """One home for the per-row draw: the comparison's replicates and the summary's (on unweighted rows,
    which had a shortcut of their own) each take their random numbers from RowCounts once a replicate
    (the summary sums them by cell as they are drawn: test_a_thresholds_counts_drawn_by_cell_...)."""
    rng = np.random.default_rng(4)
    n = 600
    y = (rng.random(n) < 0.2).astype(int)
    scores = {"a": rng.normal(size=n) + y, "b": rng.normal(size=n) + 0.5 * y}
    calls = []
    original = RowCounts._positions

    def spy(self, *args, **kwargs):
        calls.append(self.size)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(RowCounts, "_positions", spy)
    comparison = im.uncertainty.compare_scores(y, scores, metrics=["f1"], n_resamples=20, rng=1)
    assert calls == [n] * 20
    for areas_only in (False, True):  # the general path and the steps of the positives
        calls.clear()
        statistics = ["auroc"] if areas_only else ["auroc", "f1"]
        im.uncertainty.bootstrap_compare(y, scores, statistics=statistics, n_resamples=9, rng=1)
        assert calls == [n] * 9
    calls.clear()
    r = recommend(y, scores, metric="f1", comparison=comparison, n_resamples=20, rng=5, cv=None)
    assert r.shared_replicates and calls == [n] * 20


@pytest.mark.parametrize("stratified", [False, True])
@pytest.mark.parametrize("weights", [None, "frequency"])
def test_the_counts_at_a_threshold_are_those_of_the_replicates_table(stratified, weights):
    """A fixed threshold's counts from three sums of the draws (unit weights: the rows scored at least
    the point's threshold, no tie groups) equal the replicate's table at that point, at every point."""
    rng = np.random.default_rng(9)
    n = 700
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + y, 1)  # ties within and across the classes
    w = None if weights is None else rng.integers(0, 3, n).astype(float)
    r = Resampler(y, s, w, stratified, per_sample=True, frequency=weights is not None)
    assert r.unit_weights
    kept = np.ones(n, bool) if w is None else w > 0
    distinct = np.unique(s[kept])[::-1]  # the tie groups' scores, decreasing: point i flags the first i
    for _ in range(3):
        draws = r.counts(rng)
        c, pos = draws[0], y[kept]
        for index in range(len(distinct) + 1):
            flagged = s[kept] >= distinct[index - 1] if index else np.zeros(kept.sum(), bool)
            tp, fp = c[pos & flagged].sum(), c[~pos & flagged].sum()
            assert r.counter(index)(draws) == (tp, fp, c[pos].sum() - tp, c[~pos].sum() - fp)


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])
@pytest.mark.parametrize("stratified", [False, True])
def test_a_thresholds_counts_drawn_by_cell_are_the_replicates_counts(bit_generator, stratified):
    """decide's counts at a fixed threshold are drawn summed by cell (no counts per row): from the same
    generator state, exactly the sums of the per-row replicate over each cell, at every point, over
    several blocks."""
    rng = np.random.default_rng(10)
    y = rng.random(SIZE) < 0.2
    s = np.round(rng.normal(size=SIZE) + y, 1)
    r = Resampler(y, s, None, stratified, per_sample=True)
    distinct = np.unique(s)[::-1]
    for index in [0, 1, len(distinct) // 2, len(distinct)]:
        flagged = s >= distinct[index - 1] if index else np.zeros(SIZE, bool)
        by_cell = r.point_counts(index)
        for seed in range(3):
            c = r.row_counts(np.random.Generator(bit_generator(seed)))
            tp, fp = c[y & flagged].sum(), c[~y & flagged].sum()
            assert by_cell(np.random.Generator(bit_generator(seed))) == (tp, fp, c[y].sum() - tp, c[~y].sum() - fp)


def test_a_narrow_count_widens_where_a_block_is_drawn_more_often_than_it_holds():
    """uint16 counts (a paired comparison's) while no block is drawn more than 65,535 times (no row can
    be): the same numbers as int64 counts from the same seed; int64 where a block is drawn more often."""
    for size, k, narrow in ((SIZE, SIZE, True), (5000, 200_000, False)):
        counts = RowCounts(size).draw(k, np.random.default_rng(3), np.uint16)
        assert (counts.dtype == np.uint16) == narrow
        assert np.array_equal(counts, RowCounts(size).draw(k, np.random.default_rng(3)))
    # stratified: a class whose draw widens widens the replicate (no count wraps into uint16)
    y = np.arange(SIZE) % 3 == 0
    r = Resampler(y, np.arange(SIZE, dtype=float), None, True, per_sample=True)
    narrow = r.row_counts(np.random.default_rng(4), np.uint16)
    assert narrow.dtype == np.uint16
    negatives = r.rows[1]
    negatives.draw = lambda k, rng, dtype: RowCounts.draw(negatives, k, rng, np.int64) + 70_000
    wide = r.row_counts(np.random.default_rng(4), np.uint16)
    assert wide.dtype == np.int64
    assert np.array_equal(wide[y], narrow[y]) and np.array_equal(wide[~y], narrow[~y].astype(np.int64) + 70_000)
