"""bootstrap_compare's replicates are pinned to the seed (issue 26, item 3): however a paired replicate is
summed (uint16 or int32 counts, one sparse product for every scorer), each replicate of each model is,
bit for bit, the value the per-row draw written out here gives through one float64 weighted
``bincount`` a scorer (the sums before the one-pass product), for untied and tied scores, stratified or
not; weighted rows take the general path, on the same draw. A change of the draw or of any sum fails.
Each replicate's areas are also scikit-learn's on the resampled rows (weighted by how often each row is
drawn), to rounding: the reference does not rest on our sums alone."""

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import isometrics as im
from isometrics.uncertainty._replicates import RowSteps
from isometrics.uncertainty._statistic import resolve_statistic
from isometrics.uncertainty.resampling import Resampler

BLOCK = 4096  # rows a block of the per-row draw


def _spec_counts(n, gen):
    """The per-row draw as documented (RowCounts): the draws per block of 4,096 rows (a multinomial
    over the blocks, in proportion to their sizes), then each full block's positions as the top 12 bits
    of each 16-bit quarter of the generator's 64-bit output, the last, shorter block's by ``integers``."""
    full, rest = divmod(n, BLOCK)
    sizes = np.array([BLOCK] * full + ([rest] if rest else []))
    per_block = gen.multinomial(n, sizes / n)
    in_full = int(per_block[:full].sum())
    quarters = gen.bit_generator.random_raw(-(-in_full // 4)).view(np.uint16)[:in_full]
    rows = np.repeat(np.arange(full) * BLOCK, per_block[:full]) + (quarters >> 4)
    if rest:
        rows = np.r_[rows, full * BLOCK + gen.integers(0, rest, per_block[-1])]
    return np.bincount(rows, minlength=n).astype(np.float64)


def _replicate(y, gen, stratified):
    if not stratified:
        return _spec_counts(len(y), gen)
    counts = np.empty(len(y))
    for index in (np.flatnonzero(y), np.flatnonzero(~y)):
        counts[index] = _spec_counts(len(index), gen)
    return counts


@pytest.mark.parametrize("stratified", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paired_replicates_are_the_documented_draw_summed_in_float64(seed, stratified):
    rng = np.random.default_rng(40 + seed)
    n = 3 * BLOCK + 777
    y = rng.random(n) < 0.15
    s = rng.normal(size=n) + y
    scores = {"untied": s, "other": s + rng.normal(size=n), "tied": np.round(s, 1), "coarse": np.round(s, 0)}
    B = 5
    c = im.uncertainty.bootstrap_compare(
        y, scores, statistics=["auroc", "average_precision"], n_resamples=B, rng=seed, stratified=stratified
    )
    steps = [
        RowSteps(r.group, r.is_pos, r.op.dtp)
        for r in (Resampler(y, x, None, stratified, per_sample=True) for x in scores.values())
    ]
    gen = np.random.default_rng(seed)
    expected = np.empty((B, len(scores), 2))
    for b in range(B):
        counts = _replicate(y, gen, stratified)
        for j, step in enumerate(steps):
            expected[b, j] = step.cell_areas(
                np.bincount(step.cell, weights=counts, minlength=step.Q + step.n_segments), [0, 1]
            )
        for j, x in enumerate(scores.values()):  # and, independently, scikit-learn's on the resampled rows
            drawn = counts > 0
            kw = dict(sample_weight=counts[drawn])
            assert expected[b, j, 0] == pytest.approx(roc_auc_score(y[drawn], x[drawn], **kw), rel=1e-12)
            assert expected[b, j, 1] == pytest.approx(average_precision_score(y[drawn], x[drawn], **kw), rel=1e-12)
    assert np.array_equal(c.distributions["auroc"], expected[:, :, 0])
    assert np.array_equal(c.distributions["average_precision"], expected[:, :, 1])
    names = list(scores)
    for row in c.rows:  # each pair's bootstrap of the difference: the intervals and p-values read it
        k = 0 if row.statistic == "auroc" else 1
        diff = expected[:, names.index(row.a), k] - expected[:, names.index(row.b), k]
        assert np.array_equal(row.bootstrap.bootstrap_distribution, diff)


@pytest.mark.parametrize("stratified", [False, True])
def test_weighted_replicates_are_the_documented_draw(stratified):
    rng = np.random.default_rng(50)
    n = 2 * BLOCK + 300
    y = rng.random(n) < 0.2
    s = rng.normal(size=n) + y
    w = rng.integers(1, 4, n).astype(float)
    scores = {"a": s, "b": np.round(s + rng.normal(size=n), 1)}
    B = 4
    c = im.uncertainty.bootstrap_compare(
        y,
        scores,
        statistics=["auroc", "average_precision"],
        n_resamples=B,
        rng=3,
        stratified=stratified,
        sample_weight=w,
        weight_kind="sampling",
    )
    resamplers = [Resampler(y, x, w, stratified, per_sample=True) for x in scores.values()]
    fns = [resolve_statistic(name, None, None)[1] for name in ("auroc", "average_precision")]
    gen = np.random.default_rng(3)
    for b in range(B):
        counts = _replicate(y, gen, stratified)
        for j, r in enumerate(resamplers):
            op = r.build((counts, None), reduced=True)
            assert c.distributions["auroc"][b, j] == fns[0](op)
            assert c.distributions["average_precision"][b, j] == fns[1](op)
            drawn, x = counts > 0, scores[list(scores)[j]]  # scikit-learn's, independently: weights times draws
            kw = dict(sample_weight=(w * counts)[drawn])
            assert fns[0](op) == pytest.approx(roc_auc_score(y[drawn], x[drawn], **kw), rel=1e-12)
            assert fns[1](op) == pytest.approx(average_precision_score(y[drawn], x[drawn], **kw), rel=1e-12)
