"""Bootstrap replicates read from the steps of the positives (issue 26, item 3): every replicate's
AUROC, average precision and AUPRG are those of the resampled data, rebuilt explicitly from the same
random numbers and scored by scikit-learn, for one scorer (draws binned by segment, block by block)
and for paired comparisons (draws counted per row, every scorer reading the same rows)."""

import tracemalloc

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import isometrics as im
from isometrics.uncertainty import resampling
from isometrics.uncertainty._replicates import PositiveSteps, RowCells, RowSteps, step_areas


def _data(n, seed=0):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(int)
    return y, rng.normal(size=n) + y


@pytest.mark.parametrize("stratified", [False, True])
def test_paired_replicates_equal_scikit_learn_on_the_rows_drawn(stratified):
    # untied, tied among positives, tied across the classes: each replicate's areas of each model
    # are scikit-learn's on the very rows drawn (the comparison's Generator, redrawn by hand)
    y, s = _data(3000)
    rng = np.random.default_rng(1)
    scores = {"untied": s, "tied": np.round(s + rng.normal(size=3000), 1), "coarse": np.round(s, 0)}
    B = 6
    c = im.uncertainty.bootstrap_compare(
        y, scores, statistics=["auroc", "average_precision"], n_resamples=B, rng=7, stratified=stratified
    )
    gen = np.random.default_rng(7)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    for b in range(B):
        if stratified:
            rows = np.concatenate([gen.choice(pos, len(pos)), gen.choice(neg, len(neg))])
        else:
            rows = gen.integers(0, len(y), len(y))
        for name, sc in scores.items():
            j = list(scores).index(name)
            assert c.distributions["auroc"][b, j] == pytest.approx(roc_auc_score(y[rows], sc[rows]), rel=1e-13)
            assert c.distributions["average_precision"][b, j] == pytest.approx(
                average_precision_score(y[rows], sc[rows]), rel=1e-13
            )


def test_paired_auprg_of_untied_scorers_is_read_from_the_steps(monkeypatch):
    y, s = _data(2000, seed=3)
    other = s + np.random.default_rng(4).normal(size=2000)
    called = []
    original = resampling._paired_step_replicates

    def spy(*args, **kwargs):
        called.append(result := original(*args, **kwargs))
        return result

    monkeypatch.setattr("isometrics.uncertainty.comparison._paired_step_replicates", spy)
    c = im.uncertainty.bootstrap_compare(y, {"a": s, "b": other}, statistics=["auroc", "auprg"], n_resamples=5, rng=2)
    assert called and called[0] is not None  # the step path ran
    gen = np.random.default_rng(2)
    for b in range(5):
        rows = gen.integers(0, len(y), len(y))
        for j, sc in enumerate((s, other)):
            assert c.distributions["auprg"][b, j] == pytest.approx(im.auprg(y[rows], sc[rows]), rel=1e-12)
    # a tied scorer has no AUPRG from the steps: the general path answers, with the same values
    called.clear()
    tied = np.round(other, 1)
    d = im.uncertainty.bootstrap_compare(y, {"a": s, "b": tied}, statistics=["auprg"], n_resamples=3, rng=2)
    assert called == [None]
    gen = np.random.default_rng(2)
    for b in range(3):
        rows = gen.integers(0, len(y), len(y))
        assert d.distributions["auprg"][b, 1] == pytest.approx(im.auprg(y[rows], tied[rows]), rel=1e-12)


def test_weighted_or_metric_comparisons_keep_the_general_path(monkeypatch):
    y, s = _data(500, seed=5)
    scores = {"a": s, "b": s[::-1].copy()}
    called = []
    original = resampling._paired_step_replicates
    monkeypatch.setattr(
        "isometrics.uncertainty.comparison._paired_step_replicates",
        lambda *a, **k: called.append(original(*a, **k)) or called[-1],
    )
    im.uncertainty.bootstrap_compare(y, scores, statistics=["auroc", "f1"], n_resamples=3, rng=0)
    im.uncertainty.bootstrap_compare(
        y, scores, n_resamples=3, rng=0, sample_weight=np.full(500, 2.0), weight_kind="sampling"
    )
    assert called == [None, None]


def test_step_areas_by_hand():
    # two positive steps: step 0 holds 2 positives with 1 negative above and 1 tied; step 1 holds
    # 1 positive with 3 negatives above (1 + 1 + 1 between), none tied; 1 negative below all
    copies, above, tied = np.array([2.0, 1.0]), np.array([1.0, 3.0]), np.array([1.0, 0.0])
    auroc, ap = step_areas(copies, above, tied, 3.0, 4.0, [0, 1])
    # pairs won: step 0: 2 positives x (4 - 1 - 1/2) = 5; step 1: 1 x (4 - 3) = 1; of 12
    assert auroc == 6 / 12
    # precision at step 0: 2 / (2 + 1 + 1); at step 1: 3 / (3 + 3)
    assert ap == pytest.approx((2 * 0.5 + 1 * 0.5) / 3, rel=1e-15)
    assert step_areas(copies, above, tied, 0.0, 4.0, [0]) is None
    y = np.array([0, 1, 1, 0, 0, 1, 0])
    s = np.array([9, 5, 5, 5, 4, 2, 1.0])
    assert auroc == roc_auc_score(y, s) and ap == pytest.approx(average_precision_score(y, s), rel=1e-15)
    op = im.OperatingPoints.from_scores(y, s)
    steps = RowSteps(np.array([0, 1, 1, 1, 2, 3, 4]), y == 1, op.dtp)
    assert not steps.untied and steps.Q == 2
    np.testing.assert_array_equal(steps.cell, [2 + 0, 0, 0, 2 + 1, 2 + 2, 1, 2 + 4])  # steps 0, 1; Q + segment
    np.testing.assert_array_equal(steps.areas(np.ones(7), [0, 1]), [auroc, ap])


@pytest.mark.parametrize("decimals", [None, 1])
def test_tie_groups_by_sort_equal_the_search_among_distinct_scores(decimals):
    rng = np.random.default_rng(8)
    s = rng.normal(size=5000)
    s[:3] = [0.0, -0.0, 0.0]  # equal values of either sign: one group
    if decimals is not None:
        s = np.round(s, decimals)
    op = im.OperatingPoints.from_scores(rng.random(5000) < 0.3, s)
    ascending = op.thresholds[:0:-1]
    by_search = len(ascending) - 1 - np.searchsorted(ascending, s)
    np.testing.assert_array_equal(resampling._tie_groups(s, op.n_points - 1), by_search)


def test_positive_steps_draw_keeps_no_array_per_drawn_negative():
    # a replicate's negatives are counted block by block into the block's few segments: the draw
    # holds the random bits (2 bytes a negative) and arrays per step, never one 8-byte segment
    # number per drawn negative (13 bytes a negative at peak when it did)
    rng = np.random.default_rng(9)
    y = rng.random(200_000) < 0.05  # few positives: the arrays per step are small beside the negatives
    s = rng.normal(size=200_000) + y
    resampler = resampling.Resampler(y, s, None, False)
    steps = PositiveSteps(resampler.op.dtp, resampler.op.dfp, False)
    steps.draw(rng)  # buffers kept across replicates are allocated by the first
    tracemalloc.start()
    try:
        steps.draw(rng)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * steps.N, peak / steps.N


def test_positive_steps_of_a_block_spanning_many_segments():
    # 70,000 positives interleaved with the first block's negatives: that block's draws fall in more
    # than 2**16 segments (its table is not 16-bit); every replicate's areas are scikit-learn's on
    # the resample rebuilt from the same random numbers
    n_pos, n_neg = 70_000, 20_000
    first = 1 << 14  # negatives in a full block
    s = np.r_[np.arange(n_pos) + 0.1, np.arange(first) * 4.25, -1.0 - np.arange(n_neg - first)]
    y = np.r_[np.ones(n_pos, int), np.zeros(n_neg, int)]
    resampler = resampling.Resampler(y == 1, s, None, False)
    steps = PositiveSteps(resampler.op.dtp, resampler.op.dfp, False)
    assert steps.untied and steps.span[0] > 1 << 16 and steps.table[0].dtype == np.intp
    order = np.argsort(-s, kind="stable")
    pos_rank, neg_rank = order[y[order] == 1], order[y[order] == 0]  # rows by decreasing score
    rng = np.random.default_rng(3)
    for _ in range(3):
        copies, segments, (pos, neg) = steps.draw(rng, explicit=True)
        rows = np.r_[pos_rank[pos], neg_rank[neg]]
        auroc, ap = steps.areas(copies, segments, [0, 1])
        assert auroc == pytest.approx(roc_auc_score(y[rows], s[rows]), rel=1e-13)
        assert ap == pytest.approx(average_precision_score(y[rows], s[rows]), rel=1e-13)


def test_row_cells_equal_each_scorers_weighted_count():
    # one pass over integer counts gives every scorer's cells: the numbers of one float64 weighted
    # bincount a scorer (untied, tied among positives, tied across the classes), exactly
    y, s = _data(5000, seed=11)
    rng = np.random.default_rng(12)
    columns = [s, np.round(s + rng.normal(size=5000), 1), np.round(s, 0)]
    resamplers = [resampling.Resampler(y == 1, c, None, False, per_sample=True) for c in columns]
    steps = [RowSteps(r.group, r.is_pos, r.op.dtp) for r in resamplers]
    cells = RowCells(steps, 5000)
    assert cells.dtype == np.uint16 and cells.wide == np.int32  # no cell of 4,096 rows or more
    for _ in range(3):
        counts = resamplers[0].row_counts(rng, cells.dtype)
        assert counts.dtype == np.uint16
        for step, drawn in zip(steps, cells.cells(counts)):
            expected = np.bincount(step.cell, weights=counts.astype(np.float64), minlength=step.Q + step.n_segments)
            assert drawn.dtype == np.uint16 and np.array_equal(drawn, expected)
            assert np.array_equal(step.cell_areas(drawn, [0, 1]), step.cell_areas(expected, [0, 1]))


def test_row_cells_sum_in_int32_where_uint16_could_overflow():
    # a row drawn 65,500 times in the largest cell: its uint16 sum would wrap, the cells are summed in
    # int32 (the same numbers as a float64 weighted bincount); a cell of 5,000 rows: int32 throughout
    y, s = _data(20_000, seed=14)
    for column, narrow in ((s, True), (np.round(s, 0), False)):
        r = resampling.Resampler(y == 1, column, None, False, per_sample=True)
        step = RowSteps(r.group, r.is_pos, r.op.dtp)
        cells = RowCells([step], 20_000)
        assert (cells.dtype == np.uint16) == narrow and cells.most_rows == np.bincount(step.cell).max()
        counts = r.row_counts(np.random.default_rng(15), cells.dtype)
        counts[np.argmax(np.bincount(step.cell)[step.cell])] = 65_500  # a row of the largest cell
        (drawn,) = cells.cells(counts)
        expected = np.bincount(step.cell, weights=counts.astype(np.float64), minlength=step.Q + step.n_segments)
        assert expected.max() > 65_535 and np.array_equal(drawn, expected)


def test_paired_replicate_keeps_no_float_count_per_row():
    # a paired replicate draws integer counts (2 bytes a row, uint16, beside 2 bytes of random bits) and
    # sums them by cell for every scorer at once: no float64 count per row (10.3 bytes a row at peak with
    # it, 6.3 with int32 counts; 4.3 measured)
    rng = np.random.default_rng(13)
    y = rng.random(300_000) < 0.02  # few positives: the cells are small beside the rows
    s = rng.normal(size=300_000) + y
    other = s + rng.normal(size=300_000)
    resamplers = [resampling.Resampler(y, c, None, False, per_sample=True) for c in (s, other)]
    steps = [RowSteps(r.group, r.is_pos, r.op.dtp) for r in resamplers]
    cells = RowCells(steps, 300_000)
    tracemalloc.start()
    try:
        counts = resamplers[0].row_counts(rng, cells.dtype)
        areas = [step.cell_areas(drawn, [0, 1]) for step, drawn in zip(steps, cells.cells(counts))]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5 * 300_000, peak / 300_000
    for step, area in zip(steps, areas):
        np.testing.assert_array_equal(area, step.areas(counts.astype(np.float64), [0, 1]))
