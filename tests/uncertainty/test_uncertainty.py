"""Uncertainty: fast DeLong against brute force, Boyd's intervals, the reweighting identity, coverage."""

import math
import re

import numpy as np
import pytest
from _naive import naive_delong
from sklearn import metrics as skm

import isometrics as im
from isometrics.uncertainty._replicates import PositiveSteps
from isometrics.uncertainty.average_precision import _boyd_interval
from isometrics.uncertainty.bands import _curve_on_grid
from isometrics.uncertainty.delong import _two_sided_p
from isometrics.uncertainty.intervals import _defined
from isometrics.uncertainty.resampling import Resampler


@pytest.mark.parametrize("ties", [True, False])
def test_fast_delong_equals_brute_force_placements(rng, ties):
    n = 120
    y = (rng.random(n) < 0.4).astype(int)
    y[0], y[1] = 1, 0
    scores = np.array([rng.normal(size=n) + y, rng.normal(size=n) + 0.5 * y, rng.normal(size=n)])
    if ties:
        scores = np.round(scores, 1)
    fast = im.uncertainty.delong(y, scores.T)
    auc, cov = naive_delong(y, scores)
    np.testing.assert_allclose(fast.auroc, auc, rtol=1e-12)
    np.testing.assert_allclose(fast.covariance, cov, rtol=1e-12, atol=1e-15)
    for k in range(3):
        assert fast.auroc[k] == pytest.approx(skm.roc_auc_score(y, scores[k]), rel=1e-12)


def test_delong_test_by_hand_from_the_covariance(rng):
    y = (rng.random(200) < 0.5).astype(int)
    a, b = rng.normal(size=200) + y, rng.normal(size=200) + 0.3 * y
    auc, cov = naive_delong(y, [a, b])
    se = math.sqrt(cov[0, 0] + cov[1, 1] - 2 * cov[0, 1])
    z = (auc[0] - auc[1]) / se
    test = im.uncertainty.delong_test(y, a, b)
    assert test.z == pytest.approx(z, rel=1e-10)
    assert test.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)), rel=1e-10)
    low, high = test.confidence_interval
    assert (high - low) / 2 == pytest.approx(1.959963984540054 * se, rel=1e-9)


def test_boyd_intervals_from_the_published_formulas():
    # ALGORITHMS.md 2.3 [derived from the formulas of Boyd et al. 2013]
    assert _boyd_interval(0.7, 50, "binomial", 0.95) == pytest.approx((0.572980, 0.827020), abs=1e-6)
    assert _boyd_interval(0.7, 50, "logit", 0.95) == pytest.approx((0.560315, 0.810330), abs=1e-6)
    assert _boyd_interval(0.95, 20, "binomial", 0.95) == pytest.approx((0.854483, 1.045517), abs=1e-6)
    assert _boyd_interval(0.95, 20, "logit", 0.95) == pytest.approx((0.717797, 0.993003), abs=1e-6)


def _explicit_indices(y, s, draws):
    """The samples that sorted-space draws stand for: the k-th positive (negative) by decreasing score."""
    pos = np.flatnonzero(y == 1)
    neg = np.flatnonzero(y == 0)
    pos = pos[np.argsort(-s[pos], kind="stable")]
    neg = neg[np.argsort(-s[neg], kind="stable")]
    return np.concatenate([pos[draws[0]], neg[draws[1]]])


@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("stratified", [False, True])
def test_reweighted_replicate_equals_the_explicitly_resampled_data(rng, ties, stratified):
    y = (rng.random(300) < 0.3).astype(int)
    s = rng.normal(size=300) + y
    if ties:
        s = np.round(s, 1)
    resampler = Resampler(y == 1, s, None, stratified)
    resampler.cells = False  # the sample-draw path (cell draws are tested below)
    for _ in range(5):
        draws = resampler.counts(rng)
        op = resampler.build(draws, compact=True)
        loose = resampler.build(draws)  # zero-draw groups kept: same values, more thresholds
        idx = _explicit_indices(y, s, draws)
        assert loose.auroc() == pytest.approx(op.auroc(), rel=1e-12)
        assert loose.auprg() == pytest.approx(op.auprg(), rel=1e-12)
        assert loose.best_threshold("f1").value == op.best_threshold("f1").value
        assert op.auroc() == pytest.approx(skm.roc_auc_score(y[idx], s[idx]), rel=1e-12)
        assert op.average_precision() == pytest.approx(skm.average_precision_score(y[idx], s[idx]), rel=1e-12)
        assert op.auprg() == pytest.approx(im.auprg(y[idx], s[idx]), rel=1e-12)
        fpr, tpr, thr = skm.roc_curve(y[idx], s[idx], drop_intermediate=False)
        np.testing.assert_array_equal(op.thresholds, thr)  # same thresholds: groups drawn zero times dropped


@pytest.mark.parametrize("stratified", [False, True])
def test_cell_draws_are_aggregates_of_sample_draws(rng, stratified):
    # with few tie groups the replicate draws (group, class) cell counts directly: same class
    # totals as sample draws, and the same mean counts (the multinomial's aggregate)
    y = (rng.random(2000) < 0.3).astype(int)
    s = np.round(rng.normal(size=2000) + y, 0)
    resampler = Resampler(y == 1, s, None, stratified)
    assert resampler.cells
    draws = [resampler.counts(rng) for _ in range(400)]
    pos = np.array([d[0] for d in draws])
    neg = np.array([d[1] for d in draws])
    if stratified:
        assert np.all(pos.sum(axis=1) == y.sum()) and np.all(neg.sum(axis=1) == (1 - y).sum())
    else:
        assert np.all(pos.sum(axis=1) + neg.sum(axis=1) == 2000)
    op = resampler.op
    np.testing.assert_allclose(pos.mean(axis=0), op.dtp, rtol=0.1, atol=1.5)
    np.testing.assert_allclose(neg.mean(axis=0), op.dfp, rtol=0.1, atol=1.5)
    # and each replicate is the operating points of a data set with those cell counts
    rep = resampler.build(draws[0], compact=True)
    tied = np.repeat(op.thresholds[1:], draws[0][0].astype(int))
    untied = np.repeat(op.thresholds[1:], draws[0][1].astype(int))
    yy = np.r_[np.ones(len(tied)), np.zeros(len(untied))]
    ss = np.r_[tied, untied]
    assert rep.auroc() == pytest.approx(skm.roc_auc_score(yy, ss), rel=1e-12)
    assert rep.average_precision() == pytest.approx(skm.average_precision_score(yy, ss), rel=1e-12)


def test_weighted_and_per_sample_replicates_equal_the_resampled_data(rng):
    y = (rng.random(300) < 0.3).astype(int)
    s = np.round(rng.normal(size=300) + y, 1)
    w = rng.random(300) * 2
    w[:10] = 0.0
    for weights, per_sample in ((w, False), (None, True)):
        resampler = Resampler(y == 1, s, weights, False, per_sample=per_sample)
        keep = np.ones(300, bool) if weights is None else w > 0
        y_k, s_k = y[keep], s[keep]
        w_k = np.ones(keep.sum()) if weights is None else w[keep]
        for _ in range(3):
            counts, _ = resampler.counts(rng)
            op = resampler.build((counts, None), compact=True)
            idx = np.repeat(np.arange(len(counts)), counts.astype(np.int64))  # per-row draws: float64 counts
            assert op.auroc() == pytest.approx(skm.roc_auc_score(y_k[idx], s_k[idx], sample_weight=w_k[idx]), rel=1e-12)
            assert op.average_precision() == pytest.approx(
                skm.average_precision_score(y_k[idx], s_k[idx], sample_weight=w_k[idx]), rel=1e-12
            )


def test_delong_interval_coverage_of_a_binormal_model():
    # negatives N(0, 1), positives N(mu, 1): true AUROC = Phi(mu / sqrt(2)); 400 trials of n = 150
    rng = np.random.default_rng(7)
    mu = 1.0
    true_auc = 0.5 * (1 + math.erf(mu / 2))
    covered = 0
    for _ in range(400):
        y = (rng.random(150) < 0.4).astype(int)
        s = rng.normal(size=150) + mu * y
        low, high = im.uncertainty.delong(y, s).confidence_interval(0.95)
        covered += low <= true_auc <= high
    assert 0.93 <= covered / 400 <= 0.97


def test_bootstrap_interval_coverage_of_a_binormal_model():
    rng = np.random.default_rng(11)
    mu = 1.0
    true_auc = 0.5 * (1 + math.erf(mu / 2))
    covered = 0
    for trial in range(400):
        y = (rng.random(150) < 0.4).astype(int)
        s = rng.normal(size=150) + mu * y
        low, high = im.uncertainty.bootstrap(
            y, s, statistic="auroc", n_resamples=200, stratified=True, rng=trial
        ).confidence_interval
        covered += low <= true_auc <= high
    assert 0.93 <= covered / 400 <= 0.97


def test_bootstrap_standard_error_is_close_to_delong(rng):
    # ALGORITHMS.md 3.3: stratified bootstrap SE of AUROC within ~5 % of DeLong's on ~100 rows
    y = (rng.random(120) < 0.5).astype(int)
    s = rng.normal(size=120) + y
    boot = im.uncertainty.bootstrap(y, s, n_resamples=4000, stratified=True, rng=3)
    assert boot.standard_error == pytest.approx(float(im.uncertainty.delong(y, s).standard_error[0]), rel=0.07)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(statistic="average_precision"),
        dict(statistic="auprg", method="bca"),
        dict(statistic="auc_pr_interpolated", method="basic"),
        dict(statistic="metric", metric="f1"),
        dict(statistic="metric", metric="f2", threshold=0.5),
        dict(statistic="best_threshold", metric="f1"),
    ],
)
def test_bootstrap_statistics_and_methods(rng, kwargs):
    y = (rng.random(400) < 0.3).astype(int)
    s = np.round(rng.normal(size=400) + y, 2)
    w = rng.random(400) + 0.5
    result = im.uncertainty.bootstrap(y, s, n_resamples=300, rng=5, sample_weight=w, **kwargs)
    low, high = result.confidence_interval
    assert low <= high and len(result.bootstrap_distribution) + result.n_dropped == 300
    assert result.standard_error > 0
    wide = im.uncertainty.bootstrap(
        y,
        s,
        n_resamples=300,
        rng=5,
        sample_weight=w,
        confidence_level=0.999999,
        **{k: v for k, v in kwargs.items() if k != "method"},
    )
    assert wide.confidence_interval[0] <= wide.estimate <= wide.confidence_interval[1]


def test_metric_at_fixed_threshold_is_the_label_metric(rng):
    y = (rng.random(300) < 0.3).astype(int)
    s = rng.normal(size=300) + y
    result = im.uncertainty.bootstrap(y, s, statistic="metric", metric="f2", threshold=0.7, n_resamples=20, rng=1)
    assert result.estimate == pytest.approx(skm.fbeta_score(y, (s >= 0.7).astype(int), beta=2), rel=1e-12)


def test_paired_comparison_keeps_the_pairing(rng):
    y = (rng.random(300) < 0.3).astype(int)
    a = rng.normal(size=300) + 1.5 * y
    with pytest.warns(im.exceptions.DegenerateDataWarning, match="zero variance"):  # DeLong's row of the AUROCs
        same = im.uncertainty.bootstrap_compare(y, {"a": a, "a again": a.copy()}, n_resamples=100, rng=2)
    assert np.all(same.row("auroc", "a", "a again").bootstrap.bootstrap_distribution == 0)
    b = rng.normal(size=300) + 0.2 * y
    diff = im.uncertainty.bootstrap_compare(y, np.column_stack([a, b]), statistics="f0.5", n_resamples=300, rng=2)
    result = diff.row("fbeta(beta=0.5)", "score_0", "score_1")
    assert result.confidence_interval[0] > 0 and result.p_value < 0.01 and result.decision == "a better"
    estimates = diff.estimates["fbeta(beta=0.5)"]
    assert result.estimate == pytest.approx(estimates["score_0"] - estimates["score_1"])


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda: im.uncertainty.bootstrap([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], statistic="gini"),
            r"`statistic` = 'gini' is not a metric: .* \(Or an area: 'auroc'",
        ),
        (lambda: im.uncertainty.bootstrap([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], statistic="metric"), r"needs `metric`"),
        (
            lambda: im.uncertainty.bootstrap([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], n_resamples=1),
            r"`n_resamples` must be an integer >= 2",
        ),
        (
            lambda: im.uncertainty.bootstrap([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], method="studentized"),
            r"`method` must be one of",
        ),
        (
            lambda: im.uncertainty.bootstrap([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], confidence_level=1.0),
            r"`confidence_level`",
        ),
        (lambda: im.uncertainty.bootstrap([1, 1], [0.1, 0.2]), r"one class"),
        (lambda: im.uncertainty.delong([0, 1, 1], [0.1, 0.2, 0.3]), r"at least 2 samples of each class"),
        (
            lambda: im.uncertainty.delong_test([1, 1, 0, 0], [1, 0, 2, 2], [1, 2, 0, 0]),
            r"AUROCs differ \(0 and 1\) but DeLong's "
            r"variance of their difference is 0",
        ),
        (lambda: im.uncertainty.bootstrap_compare([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4]), r"at least two score columns"),
        (lambda: im.uncertainty.average_precision_ci([0, 1, 0, 1], [0.1, 0.9, 0.2, 0.8]), r"needs 0 < AP < 1"),
    ],
)
def test_uncertainty_errors(call, match):
    with pytest.raises(im.IsometricsError, match=match):
        call()


def test_bootstrap_areas_share_replicates_with_single_statistics(rng):
    y = (rng.random(300) < 0.3).astype(int)
    s = rng.normal(size=300) + y
    many = im.uncertainty.bootstrap_areas(y, s, n_resamples=50, rng=4)
    one = im.uncertainty.bootstrap(y, s, statistic="average_precision", n_resamples=50, rng=4)
    np.testing.assert_allclose(many["average_precision"].bootstrap_distribution, one.bootstrap_distribution, rtol=1e-12)
    assert set(many) == {"auroc", "average_precision", "auprg"}


@pytest.mark.parametrize("curve", ["roc", "pr", "prg"])
def test_curve_bands(rng, curve):
    y = (rng.random(400) < 0.3).astype(int)
    s = np.round(rng.normal(size=400) + y, 1)
    band = im.uncertainty.bootstrap_curve_band(y, s, curve=curve, n_resamples=150, rng=2, confidence_level=0.9)
    assert band.x.shape == band.lower.shape == band.upper.shape == band.estimate.shape == (101,)
    assert np.all(band.lower <= band.upper + 1e-12)
    inside = np.mean((band.lower - 1e-12 <= band.estimate) & (band.estimate <= band.upper + 1e-12))
    assert inside > 0.9


def test_curve_on_grid_against_sklearn(rng):
    from _naive import polyline_value

    y = (rng.random(300) < 0.3).astype(int)
    s = np.round(rng.normal(size=300) + y, 1)
    op = im.OperatingPoints.from_scores(y, s)
    grid = np.linspace(0, 1, 41)
    fpr, tpr, _ = skm.roc_curve(y, s, drop_intermediate=False)
    expected = [polyline_value(x, fpr.tolist(), tpr.tolist()) for x in grid]
    np.testing.assert_allclose(_curve_on_grid(op, "roc", grid), expected, atol=1e-12)
    precision, recall, _ = skm.precision_recall_curve(y, s)
    precision, recall = precision[::-1], recall[::-1]  # recall increasing
    expected = precision[np.minimum(np.searchsorted(recall, grid, side="left"), len(recall) - 1)]
    np.testing.assert_allclose(_curve_on_grid(op, "pr", grid), expected, atol=1e-12)
    # PRG from the gains' definitions (ERRATA.md): precG = 1 - FPR/TPR, recG = 1 + pi/(1-pi) - (pi/(1-pi))/TPR
    pi = y.mean()
    has_tp = tpr > 0
    rg = 1 + pi / (1 - pi) - (pi / (1 - pi)) / tpr[has_tp]
    pg = 1 - fpr[has_tp] / tpr[has_tp]
    inside = grid[(grid >= rg.min()) & (grid <= rg.max())]
    expected = [polyline_value(x, rg.tolist(), pg.tolist()) for x in inside]
    np.testing.assert_allclose(_curve_on_grid(op, "prg", inside), expected, atol=1e-12)


def test_curve_on_grid_by_hand():
    # ROC (0,0) (0,.5) (.5,.5) (.5,1) (1,1): flat at .5 until FPR .5, where it rises to 1
    op = im.OperatingPoints.from_scores([1, 0, 1, 0], [4, 3, 2, 1])
    np.testing.assert_allclose(_curve_on_grid(op, "roc", np.array([0.0, 0.25, 0.5, 0.75])), [0.5, 0.5, 1.0, 1.0])


def test_band_errors():
    with pytest.raises(im.InvalidParameterError, match=r"`curve` must be one of"):
        im.uncertainty.bootstrap_curve_band([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], curve="det")
    with pytest.raises(im.InvalidParameterError, match=r"`grid` must be 1-D with values in \[0, 1\]"):
        im.uncertainty.bootstrap_curve_band([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], grid=[2.0])


@pytest.mark.parametrize("n", [2000, 70_000])  # one block of negatives; several
@pytest.mark.parametrize("stratified", [False, True])
@pytest.mark.parametrize("ties", [None, "negatives", "both"])
def test_fast_areas_equal_the_replicate_operating_points(rng, stratified, n, ties):
    # unweighted scores with many tie groups: the areas read from the steps of the positives (draws
    # binned into the segments between and beside them, block by block) equal the general path and
    # scikit-learn on the resample itself, rebuilt from the same random numbers
    y = (rng.random(n) < 0.2).astype(int)
    s = rng.normal(size=n) + y
    decimals = 3 if n == 2000 else 4  # many ties, yet more tie groups than a quarter of the samples
    if ties == "negatives":  # negatives tied among themselves only: still untied steps
        s[y == 0] = np.round(s[y == 0], decimals)
    elif ties == "both":
        s = np.round(s, decimals)
    resampler = Resampler(y == 1, s, None, stratified)
    assert not resampler.cells
    steps = PositiveSteps(resampler.op.dtp, resampler.op.dfp, stratified)
    assert steps.untied == (ties != "both") and len(steps.table) == (1 if n == 2000 else 4)
    for _ in range(3):
        copies, segments, draws = steps.draw(rng, explicit=True)
        fast = steps.areas(copies, segments, [0, 1, 2] if steps.untied else [0, 1])
        op = resampler.build(draws)
        np.testing.assert_allclose(fast, [op.auroc(), op.average_precision(), op.auprg()][: len(fast)], rtol=1e-10)
        idx = _explicit_indices(y, s, draws)
        assert len(idx) == n and (not stratified or y[idx].sum() == y.sum())
        assert fast[0] == pytest.approx(skm.roc_auc_score(y[idx], s[idx]), rel=1e-13)
        assert fast[1] == pytest.approx(skm.average_precision_score(y[idx], s[idx]), rel=1e-13)
        if steps.untied:
            assert fast[2] == pytest.approx(im.auprg(y[idx], s[idx]), rel=1e-12)
        np.testing.assert_array_equal(steps.areas(copies, segments, [1, 0]), fast[[1, 0]])


def test_bootstrap_areas_of_tied_positives_read_auprg_from_the_operating_points(rng):
    # AUPRG of tied positives is no sum over steps: those replicates take the general path
    y = (rng.random(400) < 0.3).astype(int)
    s = np.round(rng.normal(size=400) + y, 2)  # ~300 distinct scores of 400: drawn by position
    r = im.uncertainty.bootstrap_areas(y, s, n_resamples=30, rng=3)
    assert len(r["auprg"].bootstrap_distribution) == 30
    ap = im.uncertainty.bootstrap_areas(y, s, areas=("average_precision",), n_resamples=30, rng=3)
    assert np.isfinite(ap["average_precision"].bootstrap_distribution).all()


@pytest.mark.parametrize("bit_generator", [np.random.PCG64, np.random.MT19937])  # 64 raw bits a draw; 32
def test_block_draws_are_uniform_over_the_negatives(bit_generator):
    # the negatives drawn block by block (a multinomial over the blocks, then uniform positions in
    # each) are uniform draws: every negative is drawn K_n / N times on average, the blocks of
    # unequal size included, and the counts per position vary as Binomial(K_n, 1/N)
    # 10 positives above 40 000 negatives
    steps = PositiveSteps(np.r_[np.ones(10), np.zeros(40_000)], np.r_[np.zeros(10), np.ones(40_000)], True)
    assert len(steps.sizes) == 3 and steps.sizes.sum() == 40_000
    gen = np.random.Generator(bit_generator(3))
    totals = np.zeros(40_000)
    per_block = np.zeros(3)
    B = 200
    for _ in range(B):
        _, segments, (_, negatives) = steps.draw(gen, explicit=True)
        assert segments.sum() == 40_000 == len(negatives) and segments[-1] == 40_000
        counts = np.bincount(negatives, minlength=40_000)
        totals += counts
        per_block += np.add.reduceat(counts, steps.edges[:-1])
    mean = totals / B  # 1 per negative, standard error 1/sqrt(B) per position
    assert abs(mean.mean() - 1.0) < 1e-12
    np.testing.assert_allclose(per_block / B, steps.sizes, rtol=0.01)
    assert abs(mean.std() - np.sqrt((1 - 1 / 40_000) / B)) < 0.005


def test_bca_interval_is_close_to_scipys(rng):
    # scipy.stats.bootstrap's BCa (exact jackknife) on the same statistic; ours uses a 50-block
    # jackknife for the acceleration and its own replicates, so agreement is to Monte-Carlo error
    from scipy import stats

    y = (rng.random(200) < 0.4).astype(int)
    s = rng.normal(size=200) + 0.8 * y

    def auroc(a, b, axis=-1):  # Mann-Whitney on mid-ranks, vectorised over scipy's resamples (was roc_auc_score
        # called 2,200 times: 8 CPU seconds for the same interval to 1e-15)
        pos = a == 1
        n1 = pos.sum(axis=axis)
        return ((stats.rankdata(b, axis=axis) * pos).sum(axis=axis) - n1 * (n1 + 1) / 2) / (n1 * (a.shape[axis] - n1))

    assert auroc(y, s) == pytest.approx(skm.roc_auc_score(y, s), rel=1e-15)
    ours = im.uncertainty.bootstrap(y, s, statistic="auroc", method="bca", n_resamples=2000, rng=9).confidence_interval
    theirs = stats.bootstrap(
        (y, s), auroc, paired=True, vectorized=True, method="BCa", n_resamples=2000, rng=np.random.default_rng(9)
    ).confidence_interval
    assert ours == pytest.approx((theirs.low, theirs.high), abs=0.015)


# ---------------------------------------------------------------------------- issue 9
def _proba_data(rng, n=300):
    y = (rng.random(n) < 0.4).astype(int)
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y)))
    return y, p


@pytest.mark.parametrize(
    "call",
    [
        lambda y, proba: im.uncertainty.bootstrap(y, proba, n_resamples=20, rng=0),
        lambda y, proba: im.uncertainty.bootstrap_areas(y, proba, n_resamples=20, rng=0),
        lambda y, proba: im.uncertainty.bootstrap_curve_band(y, proba, n_resamples=20, rng=0),
        lambda y, proba: im.uncertainty.average_precision_ci(y, proba),
        lambda y, proba: im.uncertainty.delong_test(y, proba, proba[:, 1]),
        lambda y, proba: im.uncertainty.compare_scores(y, proba[:, 1], proba, n_resamples=20, rng=0),
        lambda y, proba: im.evaluate_scores(y, {"model": proba}, n_resamples=20, rng=0),
        lambda y, proba: im.uncertainty.delong(y, {"model": proba}),
        lambda y, proba: im.uncertainty.bootstrap_compare(y, {"a": proba[:, 1], "b": proba}, n_resamples=20, rng=0),
    ],
)
def test_predict_proba_output_is_refused_where_one_score_column_belongs(rng, call):
    # issue 9 item 1: bootstrap used column 0 of predict_proba output and reported 1 - AUROC
    y, p = _proba_data(rng)
    proba = np.c_[1 - p, p]
    with pytest.raises(
        im.IsometricsError,
        match=r"got an array of shape \(300, 2\); for predict_proba output pass "
        r"proba\[:, 1\]",
    ):
        call(y, proba)


@pytest.mark.parametrize(
    "call",
    [
        lambda y, proba: im.uncertainty.delong(y, proba),
        lambda y, proba: im.uncertainty.bootstrap_compare(y, proba, n_resamples=20, rng=0),
    ],
)
def test_predict_proba_output_is_not_two_scorers(rng, call):
    # a 2-D array is one column per scorer; two columns that sum to 1 are one model's probabilities
    y, p = _proba_data(rng)
    with pytest.raises(im.IsometricsError, match=r"sum to 1 in every row, as predict_proba output does"):
        call(y, np.c_[1 - p, p])
    other = rng.random(len(y))
    assert im.uncertainty.delong(y, np.c_[other, p]).auroc[1] == pytest.approx(skm.roc_auc_score(y, p), rel=1e-12)


def test_bootstrap_of_the_positive_column_is_the_auroc(rng):
    y, p = _proba_data(rng)
    assert im.uncertainty.bootstrap(y, p, n_resamples=20, rng=0).estimate == pytest.approx(
        skm.roc_auc_score(y, p), rel=1e-12
    )


def test_metric_at_a_threshold_above_every_score_raises(rng):
    # issue 9 item 4: precision at a threshold nothing reaches is 0/0; it returned NaN silently
    y = (rng.random(100) < 0.3).astype(int)
    s = rng.random(100)
    for call in (
        lambda: im.uncertainty.bootstrap(y, s, statistic="metric", metric="precision", threshold=2.0, n_resamples=20),
        lambda: im.uncertainty.bootstrap_compare(
            y, {"a": s, "b": s / 4}, statistics="precision", threshold=0.5, n_resamples=20
        ),
    ):
        with pytest.raises(
            im.IsometricsError,
            match=r"precision at threshold [\d.]+( of 'b')? is undefined \(0/0\) on the "
            r"data: no sample has a score >= [\d.]+ \(the highest is "
            r"[\d.]+\), so nothing is predicted positive",
        ):
            call()
    # metrics that stay defined with nothing predicted positive (recall 0, F1 0) are not refused
    assert (
        im.uncertainty.bootstrap(y, s, statistic="metric", metric="f1", threshold=2.0, n_resamples=20).estimate == 0.0
    )


def test_replicates_where_the_metric_is_undefined_are_counted_and_warned(rng):
    # precision at the highest score is 0/0 on every replicate that did not draw that one
    # sample: a share (1 - 1/n)^n ~ 1/e of them (binomial sd ~ 10 of 400)
    n = 60
    y = (rng.random(n) < 0.4).astype(int)
    s = rng.random(n)
    with pytest.warns(im.UndefinedMetricWarning, match=r"undefined \(0/0\) on \d+ of the 400 replicates"):
        result = im.uncertainty.bootstrap(
            y, s, statistic="metric", metric="precision", threshold=s.max(), n_resamples=400, rng=3
        )
    expected = 400 * (1 - 1 / n) ** n
    assert abs(result.n_undefined - expected) < 40
    assert result.n_undefined + len(result.bootstrap_distribution) + result.n_dropped == 400
    assert np.isfinite(result.bootstrap_distribution).all() and np.isfinite(result.confidence_interval).all()
    assert result.to_dict()["n_undefined"] == result.n_undefined
    with pytest.warns(im.UndefinedMetricWarning):
        paired = im.uncertainty.bootstrap_compare(
            y, {"a": s, "b": s[::-1].copy()}, statistics="precision", threshold=s.max(), n_resamples=100, rng=3
        )
    diff = paired.rows[0].bootstrap
    assert diff.n_undefined > 0 and np.isfinite(diff.confidence_interval).all()


def test_a_statistic_almost_never_defined_raises():
    values = np.array([np.nan, 0.5, np.nan, np.nan])
    with pytest.raises(
        im.IsometricsError,
        match=r"^bootstrap: x is undefined \(0/0\) on 3 of the 5 replicates, "
        r"leaving 1; it is too rarely defined for an interval",
    ):
        _defined(values, "x", 5, 2, caller="bootstrap")


def test_best_threshold_replicates_at_infinity_give_no_nan(rng):
    # Scores without signal and false positives 20 times dearer than misses: whenever the top
    # drawn sample is a negative, predicting nothing (threshold +inf) is best. np.quantile and
    # np.std give NaN next to +inf; the percentile interval reaches +inf instead.
    y = (rng.random(80) < 0.3).astype(int)
    s = rng.random(80)
    s[np.argmax(s)] += 1.0
    y[np.argmax(s)] = 0  # so +inf is best on the data too
    result = im.uncertainty.bootstrap(
        y, s, statistic="best_threshold", metric="cost(fp=20, fn=1)", n_resamples=200, rng=1
    )
    assert result.estimate == np.inf
    assert np.isinf(result.bootstrap_distribution).sum() > 50
    assert not np.isnan(result.confidence_interval).any()
    assert result.confidence_interval[1] == np.inf and result.standard_error == np.inf
    # reflecting the quantiles about an infinite estimate is undefined: said, not NaN
    with pytest.raises(
        im.IsometricsError,
        match=r"the basic interval of best threshold for cost\(fp=20, fn=1\) "
        r"is undefined.*use method='percentile'",
    ):
        im.uncertainty.bootstrap(
            y, s, statistic="best_threshold", metric="cost(fp=20, fn=1)", n_resamples=200, rng=1, method="basic"
        )


def test_prg_band_left_of_the_first_point_is_its_precision_gain():
    # Ties put every positive in the top group: the PRG curve's first point has recall gain 1.
    # Left of it the curve is the image of the ROC segment from (0, 0), where FP/TP and so the
    # precision gain 1 - (P/N) FP/TP are constant (Flach & Kull 2015): it was NaN on the grid.
    y = np.array([1] * 10 + [0] * 30)
    s = np.array([2.0] * 10 + [2.0] * 3 + [1.0] * 27)
    band = im.uncertainty.bootstrap_curve_band(y, s, curve="prg", grid=[0.0, 0.5, 0.99], n_resamples=50, rng=0)
    pg_first = 1 - (10 / 30) * (3 / 10)
    np.testing.assert_allclose(band.estimate, pg_first, rtol=1e-12)
    assert np.isfinite(band.lower).all() and np.isfinite(band.upper).all()


@pytest.mark.parametrize("bad", ["abc", None, float("nan"), 2.5, True, 1])
@pytest.mark.parametrize(
    "name, call",
    [
        ("bootstrap", lambda n: im.uncertainty.bootstrap([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], n_resamples=n)),
        (
            "bootstrap_areas",
            lambda n: im.uncertainty.bootstrap_areas([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], n_resamples=n),
        ),
        (
            "bootstrap_curve_band",
            lambda n: im.uncertainty.bootstrap_curve_band([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], n_resamples=n),
        ),
        (
            "bootstrap_compare",
            lambda n: im.uncertainty.bootstrap_compare(
                [0, 1, 0, 1], {"a": [0.1, 0.2, 0.3, 0.4], "b": [4, 1, 3, 2]}, n_resamples=n
            ),
        ),
        (
            "compare_scores",
            lambda n: im.uncertainty.compare_scores([0, 1, 0, 1], [0.1, 0.2, 0.3, 0.4], [4, 1, 3, 2], n_resamples=n),
        ),
        ("evaluate_scores", lambda n: im.evaluate_scores([0, 1, 0, 1], {"a": [0.1, 0.2, 0.3, 0.4]}, n_resamples=n)),
    ],
)
def test_n_resamples_must_be_an_integer_of_at_least_2(name, call, bad):
    # issue 9 item 6: "abc", None and NaN raised raw Python errors, 2.5 was truncated
    if name == "evaluate_scores" and bad is None:
        assert call(None)[0].intervals == {}  # None means "no intervals" there
        return
    with pytest.raises(im.InvalidParameterError, match=rf"^{name}: `n_resamples` must be an integer"):
        call(bad)


def test_n_resamples_accepts_integral_values():
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.05]
    assert len(im.uncertainty.bootstrap(y, s, n_resamples=np.int64(5), rng=0).bootstrap_distribution) <= 5
    assert len(im.uncertainty.bootstrap(y, s, n_resamples=5.0, rng=0).bootstrap_distribution) <= 5


def test_delong_p_value_in_the_far_tail_against_mpmath(rng):
    # issue 9 item 11: 2 * cdf(-|z|) cancels to 0 beyond |z| ~ 8.3 and loses digits from ~5.
    # abs=0: a p-value of 1e-33 must be right to its own digits. The tolerance is erfc's
    # conditioning at |z|/sqrt(2) (about z^2 eps; see tests/property).
    import mpmath

    n = 600
    y = (rng.random(n) < 0.5).astype(int)
    test = im.uncertainty.delong_test(y, rng.normal(size=n) + 1.5 * y, rng.normal(size=n) + 0.2 * y)
    assert abs(test.z) > 9
    with mpmath.workdps(50):
        exact = float(mpmath.erfc(abs(mpmath.mpf(test.z)) / mpmath.sqrt(2)))
        assert test.p_value == pytest.approx(exact, rel=1e-13, abs=0)
        for z in (-9.13, -5.0, 0.5, 12.0, 30.0):
            expected = float(2 * mpmath.ncdf(-abs(mpmath.mpf(z))))
            assert _two_sided_p(z) == pytest.approx(expected, rel=1e-14 + 4 * z * z * 2.3e-16, abs=0)
    assert _two_sided_p(-9.13) == pytest.approx(6.8e-20, rel=0.05, abs=0)


@pytest.mark.parametrize("second", [lambda s: s.copy(), lambda s: np.exp(3 * s) - 7])
def test_identical_or_monotone_equivalent_scorers_give_z_0_p_1(rng, second):
    # pROC's answer for a difference with zero variance: z = 0, p = 1 (and a warning), not an error
    y = (rng.random(200) < 0.4).astype(int)
    s = np.round(rng.normal(size=200) + y, 1)
    with pytest.warns(im.DegenerateDataWarning, match=r"zero variance"):
        test = im.uncertainty.delong_test(y, s, second(s))
    assert (test.z, test.p_value, test.difference) == (0.0, 1.0, 0.0)
    assert test.confidence_interval == (0.0, 0.0)
    with pytest.warns(im.DegenerateDataWarning):
        comparison = im.uncertainty.compare_scores(y, s, second(s), n_resamples=20, rng=0)
    assert comparison.delong[0].p_value == 1.0 and comparison.delong[0].decision == "no detectable difference"


def test_delong_intervals_are_low_high_tuples(rng):
    # issue 9 item 14: one convention, (low, high) floats; several scorers by name or all at once
    y = (rng.random(150) < 0.4).astype(int)
    a, b = rng.normal(size=150) + y, rng.normal(size=150) + 0.5 * y
    auc, cov = naive_delong(y, [a, b])
    z = 1.959963984540054
    one = im.uncertainty.delong(y, a).confidence_interval()
    assert isinstance(one, tuple) and len(one) == 2 and all(type(v) is float for v in one)
    assert one == pytest.approx((auc[0] - z * math.sqrt(cov[0, 0]), auc[0] + z * math.sqrt(cov[0, 0])), rel=1e-9)
    two = im.uncertainty.delong(y, {"a": a, "b": b})
    assert two.confidence_interval(scorer="b") == pytest.approx(
        (auc[1] - z * math.sqrt(cov[1, 1]), auc[1] + z * math.sqrt(cov[1, 1])), rel=1e-9
    )
    assert two.confidence_interval(scorer=0) == pytest.approx(one, rel=1e-12)
    assert two.confidence_intervals() == {
        "a": two.confidence_interval(scorer="a"),
        "b": two.confidence_interval(scorer="b"),
    }
    with pytest.raises(im.InvalidParameterError, match=r"there are 2 scorers \['a', 'b'\]; pass scorer="):
        two.confidence_interval()
    with pytest.raises(im.InvalidParameterError, match=r"`scorer` must be one of \['a', 'b'\]; got 'c'"):
        two.confidence_interval(scorer="c")
    for result in (im.uncertainty.bootstrap(y, a, n_resamples=20, rng=0), im.uncertainty.delong_test(y, a, b)):
        assert isinstance(result.confidence_interval, tuple) and len(result.confidence_interval) == 2
    assert isinstance(im.uncertainty.average_precision_ci(y, a), tuple)


def test_bootstrap_p_values_never_reach_0(rng):
    # the bootstrap p-value is (1 + k) / (B + 1)-based, not 1 - cdf: at least 2 / (B + 1)
    y = (rng.random(400) < 0.5).astype(int)
    result = im.uncertainty.bootstrap_compare(
        y, {"a": rng.normal(size=400) + 3 * y, "b": rng.normal(size=400)}, n_resamples=99, rng=0
    )
    assert result.row("auroc", "a", "b").p_value == pytest.approx(2 / 100)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda y, s: im.uncertainty.delong(y, s), "y_score"),
        (lambda y, s: im.uncertainty.delong(y, {"flat": s, "good": np.arange(len(y))}), "score column 'flat'"),
        (lambda y, s: im.uncertainty.delong_test(y, s, np.arange(len(y))), "y_score_a"),
    ],
)
def test_delong_warns_on_a_constant_score_as_auroc_does(call, name):
    """Issue 23, item 3: a constant score ranks nothing (AUROC 0.5, variance 0): the engine's warning."""
    y, s = np.array([0, 1, 0, 1, 1, 0]), np.zeros(6)
    with pytest.warns(im.DegenerateDataWarning, match="single distinct value") as auroc_record:
        im.auroc(y, s)
    with pytest.warns(im.DegenerateDataWarning, match=rf"^{re.escape(name)} has a single distinct value") as record:
        call(y, s)
    assert record[0].filename == __file__  # points at the caller's line
    assert str(auroc_record[0].message).split(" has ")[1] == str(record[0].message).split(" has ")[1]
