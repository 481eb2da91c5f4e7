"""The engine's code paths (NumPy sort, Polars sort, hash grouping) agree with each other and with brute force."""

import numpy as np
import pytest
from _naive import naive_points
from sklearn import metrics as skm

import isometrics as im
from isometrics._core import sorting as opmod
from isometrics._core.count_table import CountTable


@pytest.fixture(params=["numpy-sort", "polars-sort", "hash-groups"])
def path(request, monkeypatch):
    if request.param == "numpy-sort":
        monkeypatch.setattr(opmod, "_POLARS_MIN_SAMPLES", 10**9)
        monkeypatch.setattr(opmod, "_mostly_tied", lambda s: False)
    elif request.param == "polars-sort":
        monkeypatch.setattr(opmod, "_POLARS_MIN_SAMPLES", 0)
        monkeypatch.setattr(opmod, "_mostly_tied", lambda s: False)
    else:
        monkeypatch.setattr(opmod, "_mostly_tied", lambda s: True)
    return request.param


@pytest.mark.parametrize("decimals", [0, 2, None])
@pytest.mark.parametrize("weighted", [False, True])
def test_every_path_matches_sklearn(path, rng, decimals, weighted):
    n = 5000
    y = (rng.random(n) < 0.2).astype(int)
    s = rng.normal(size=n) + y
    if decimals is not None:
        s = np.round(s, decimals)
    w = rng.random(n) * 2 if weighted else None
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    fpr, tpr, thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(op.thresholds, thr)
    np.testing.assert_allclose(op.fp / op.n_negatives, fpr, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(op.tp / op.n_positives, tpr, rtol=1e-12, atol=1e-15)


def test_every_path_matches_brute_force_on_small_tied_data(path):
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0, 0, 1])
    s = np.array([0.5, 0.5, -0.0, 0.0, 0.2, 0.9, 0.9, 0.0, 0.2, 0.5])
    w = np.array([1, 2, 0, 3, 1, 1, 2, 1, 0, 1.0])
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    thr, tp, fp = naive_points(y, s, w)
    np.testing.assert_array_equal(op.thresholds, thr)  # -0.0 and 0.0 are one threshold
    np.testing.assert_array_equal(op.tp, tp)
    np.testing.assert_array_equal(op.fp, fp)


@pytest.mark.filterwarnings("ignore::isometrics.exceptions.DegenerateDataWarning")
def test_large_groups_do_not_overflow_small_integer_labels(path):
    n = 1000
    y = np.ones(n, dtype=np.int8)
    y[:10] = 0
    s = np.zeros(n)
    op = im.OperatingPoints.from_scores(y, s)
    np.testing.assert_array_equal(op.tp, [0, 990])
    np.testing.assert_array_equal(op.fp, [0, 10])


def test_from_counts_and_group_counts_round_trip(rng):
    y = (rng.random(300) < 0.3).astype(int)
    s = np.round(rng.normal(size=300), 1)
    op = im.OperatingPoints.from_scores(y, s)
    again = im.OperatingPoints.from_counts(*op.group_counts())
    np.testing.assert_array_equal(again.thresholds, op.thresholds)
    np.testing.assert_array_equal(again.tp, op.tp)
    np.testing.assert_array_equal(again.fp, op.fp)


def test_merge_refuses_different_positive_labels():
    a = im.OperatingPoints.from_scores(["x", "y"], [0.1, 0.2], pos_label="x")
    b = im.OperatingPoints.from_scores(["x", "y"], [0.1, 0.2], pos_label="y")
    with pytest.raises(im.IsometricsError, match="different positive labels"):
        a.merge(b)


def test_from_counts_rejects_negative_counts():
    with pytest.raises(im.IsometricsError, match="must be >= 0"):
        im.OperatingPoints.from_counts([0.1, 0.2], [1, -1], [0, 1])


def test_first_point_predicts_nothing_and_last_everything(rng):
    y = (rng.random(100) < 0.3).astype(int)
    s = rng.normal(size=100)
    op = im.OperatingPoints.from_scores(y, s)
    assert op.thresholds[0] == np.inf and op.tp[0] == 0 and op.fp[0] == 0
    assert op.tp[-1] == y.sum() and op.fp[-1] == (1 - y).sum()
    assert np.all(np.diff(op.thresholds) < 0)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shift", ["nonnegative", "nonpositive", "mixed", "probabilities", "extremes"])
def test_packed_key_sort_for_every_sign_pattern(monkeypatch, rng, shift, weighted):
    monkeypatch.setattr(opmod, "_POLARS_MIN_SAMPLES", 0)
    monkeypatch.setattr(opmod, "_mostly_tied", lambda s: False)
    n = 3000
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(size=n), 3)
    s = {
        "nonnegative": np.abs(s),
        "nonpositive": -np.abs(s),
        "mixed": s,
        "extremes": s,
        "probabilities": 1 / (1 + np.exp(-s)),
    }[shift]  # |s| < 2: no scaling; others are scaled by 2**-k
    s[:5] = [0.0, -0.0, 0.0, -0.0, s[5]]
    if shift == "extremes":  # scaling would lose the denormals: the payload sort takes over
        s[5:10] = [np.finfo(float).max, -np.finfo(float).max, 5e-324, -5e-324, 1.0]
    w = rng.integers(0, 4, size=n).astype(float) if weighted else None  # integer weights: sums are exact
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    ref_fpr, ref_tpr, ref_thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(op.thresholds, ref_thr)
    np.testing.assert_array_equal(op.fp / op.n_negatives, ref_fpr)
    np.testing.assert_array_equal(op.tp / op.n_positives, ref_tpr)


@pytest.mark.parametrize(
    "scores",
    [
        np.int64(2**53) + np.arange(4),  # 0.625 on float64; the exact (and scikit-learn's) value is 0.75
        np.array([2**64 - 2, 2**64 - 1, 2**64 - 2, 2**64 - 1], dtype=np.uint64),
        np.array(["2024-01-01T00:00:00.000000001", "2024-01-01T00:00:00.000000002"] * 2, dtype="datetime64[ns]").astype(
            np.int64
        ),  # nanosecond timestamps as integers
    ],
)
def test_integers_beyond_float64_precision_are_rejected(scores):
    with pytest.raises(
        im.IsometricsError,
        match=r"y_score holds \d integers? that float64 cannot represent exactly "
        r"\(first at index \d: \d+;.*subtract a reference value",
    ):
        im.auroc([0, 1, 0, 1], scores)
    # the fix the message suggests restores the exact ranking, which scikit-learn also finds
    shifted = scores - scores.min()
    assert im.auroc([0, 1, 0, 1], shifted) == skm.roc_auc_score([0, 1, 0, 1], shifted)


def test_large_integers_exact_in_float64_are_accepted():
    scores = np.int64(2**60) + np.array([0, 256, 512, 768])  # multiples of the float64 spacing at 2**60
    assert im.auroc([0, 1, 0, 1], scores) == 0.75


@pytest.mark.parametrize(
    "scores",
    [
        np.array(["2024-01-01", "2024-01-02"], dtype="datetime64[D]"),
        np.array([1, 2], dtype="timedelta64[s]"),
        np.array([__import__("datetime").datetime(2024, 1, d) for d in (1, 2)], dtype=object),
    ],
)
def test_timestamps_are_not_scores(scores):
    with pytest.raises(im.IsometricsError, match=r"y_score holds timestamps or durations .* np.timedelta64\(1, 's'\)"):
        im.auroc([0, 1], scores)


def _tied_weighted(n, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n), 2)  # a few hundred distinct scores: heavily tied
    w = rng.random(n) * 3
    return y, s, w


def test_heavily_tied_weighted_counts_are_bit_reproducible():
    y, s, w = _tied_weighted(200_000)
    assert opmod._mostly_tied(s)  # the hash-grouping path, whose float sums were run-dependent
    runs = [im.OperatingPoints.from_scores(y, s, sample_weight=w) for _ in range(8)]
    for op in runs[1:]:
        np.testing.assert_array_equal(op.thresholds, runs[0].thresholds)
        np.testing.assert_array_equal(op.tp.view(np.uint64), runs[0].tp.view(np.uint64))
        np.testing.assert_array_equal(op.fp.view(np.uint64), runs[0].fp.view(np.uint64))
    # independent reference: sort-based grouping, per-class sums, cumulative from the top
    values, group = np.unique(s, return_inverse=True)
    pos = np.bincount(group, weights=np.where(y, w, 0.0), minlength=len(values))[::-1]
    neg = np.bincount(group, weights=np.where(y, 0.0, w), minlength=len(values))[::-1]
    np.testing.assert_array_equal(runs[0].thresholds[1:], values[::-1])
    np.testing.assert_allclose(runs[0].tp[1:], np.cumsum(pos), rtol=1e-12)
    np.testing.assert_allclose(runs[0].fp[1:], np.cumsum(neg), rtol=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("scores", ["tied", "wide"])  # "wide": no exact sort key, the arg-sort fallback
def test_every_path_is_bit_reproducible(path, weighted, scores):
    y, s, w = _tied_weighted(60_000, seed=4)
    if scores == "wide":
        s = s * np.where(np.arange(len(s)) % 2 == 0, 1e300, 1e-300)
    w = w if weighted else None
    runs = [im.OperatingPoints.from_scores(y, s, sample_weight=w) for _ in range(4)]
    for op in runs[1:]:
        for a, b in ((op.thresholds, runs[0].thresholds), (op.tp, runs[0].tp), (op.fp, runs[0].fp)):
            np.testing.assert_array_equal(a.view(np.uint64), b.view(np.uint64))


@pytest.mark.parametrize("zeros", [(0.0, -0.0), (-0.0, 0.0)])
def test_a_tie_group_of_signed_zeros_has_threshold_plus_zero(path, zeros):
    """-0.0 == 0.0, so they are one tie group; its threshold was its last sample in the sort's order, which
    Polars' multithreaded arg-sort changed from run to run (test_every_path_is_bit_reproducible failed once in
    ~700 thresholds on the sign bit). A group's threshold is +0.0 whatever the order of its samples."""
    n = 3000
    y = np.arange(n) % 3 == 0
    s = np.tile(np.r_[zeros, 0.25, 0.5, -0.75], n // 5)
    for weights in (None, np.linspace(0.5, 2.0, n)):
        op = im.OperatingPoints.from_scores(y, s, sample_weight=weights)
        zero = op.thresholds[op.thresholds == 0.0]
        assert len(zero) == 1 and not np.signbit(zero[0]), (path, zeros, weights is None)


def test_class_totals_beyond_float64_are_refused():
    with pytest.raises(
        im.IsometricsError,
        match=r"`sample_weight` sums to more than the largest float64 .* divide "
        r"every weight by the same constant",
    ):
        im.auroc([0, 1, 1], [0.1, 0.2, 0.3], sample_weight=[1.0, 1e308, 1e308])
    with pytest.raises(im.IsometricsError, match="sums to more than the largest float64"):
        im.OperatingPoints.from_counts([0.1, 0.2], [1e308, 1e308], [1.0, 1.0])


@pytest.mark.parametrize("scale", [1e-300, 1e-170, 1e160, 1e300])
def test_extreme_weight_scales_from_the_issue(scale):
    # issue 9 item 3: AUROC NaN (P*N out of range), AUPRG NaN or IndexError, OverflowError in a metric
    y = np.array([0, 0, 1, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.3, 0.9, 0.2, 0.6])
    w = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 1.0, 2.0, 2.0])
    assert im.auroc(y, s, sample_weight=w * scale) == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    assert im.auprg(y, s, sample_weight=w * scale) == pytest.approx(im.auprg(y, s, sample_weight=w), rel=1e-12)
    best = im.best_threshold(y, s, metric="g(beta=2, rho=-3)", sample_weight=w * scale)
    assert best.value == pytest.approx(
        im.best_threshold(y, s, metric="g(beta=2, rho=-3)", sample_weight=w).value, rel=1e-12
    )
    assert best.tp == pytest.approx(best.recall * w[y == 1].sum() * scale, rel=1e-12)  # counts in the caller's units


@pytest.mark.skipif(np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps, reason="long double is float64 here")
def test_long_doubles_that_merge_in_float64_are_rejected():
    close = np.array([1, 1], dtype=np.longdouble)
    close[1] += np.finfo(np.longdouble).eps  # distinct in long double, both 1.0 in float64
    with pytest.raises(im.IsometricsError, match="differ but round to the same float64"):
        im.auroc([0, 1], close)
    assert im.auroc([0, 1], np.exp(np.array([0.5, 0.7], dtype=np.longdouble))) == 1.0  # rounding keeps the order


def test_prg_with_negligible_negatives_raises_instead_of_dividing_by_zero():
    """Positive weights 1e17 against negative weights 1: the prevalence is 1 - 1e-17, which is 1.0
    in float64, and the gain transform divides by 1 - prevalence (ZeroDivisionError before)."""
    y, s, w = [1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], [1e17, 1.0, 1e17, 1.0]
    assert im.auroc(y, s, sample_weight=w) == 0.75  # ROC needs no gain: 3 of the 4 pairs ordered
    with pytest.raises(im.IsometricsError, match="precision-recall gain is undefined here"):
        im.auprg(y, s, sample_weight=w)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("shift", [0.0, 5.0])  # non-negative scores (unsigned keys) and scaled signed keys
def test_scores_handed_over_are_released_and_give_the_same_table(weighted, shift):
    # evaluate_scores hands each column over (a one-element list) so that it is freed once sorted.
    rng = np.random.default_rng(0)
    n = 60_000  # above the size where the keyed Polars sort takes over
    y = rng.random(n) < 0.2
    s = np.abs(rng.normal(size=n)) * 3 + shift if shift == 0 else rng.normal(size=n) * shift
    w = rng.random(n) if weighted else None
    kept = CountTable.from_validated(y, s, w, 1)
    box = [s.copy()]
    handed = CountTable.from_validated(y, box, w, 1)
    assert box == []
    for a, b in ((kept.thresholds, handed.thresholds), (kept.tp, handed.tp), (kept.fp, handed.fp)):
        assert np.array_equal(a, b)
    ref = im.OperatingPoints.from_counts(
        s, np.where(y, 1.0 if w is None else w, 0), np.where(y, 0, 1.0 if w is None else w)
    )
    assert (
        np.array_equal(ref.thresholds, kept.thresholds)
        and np.allclose(ref.tp, kept.tp)
        and np.allclose(ref.fp, kept.fp)
    )
