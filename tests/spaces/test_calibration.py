"""Calibration: isotonic = scikit-learn's PAV, monotone maps, F-calibration optimality, reliability and ECE."""

import numpy as np
import pytest
from _data import random_binary
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn.calibration import calibration_curve
from sklearn.isotonic import IsotonicRegression

import isometrics as im

pytestmark = pytest.mark.filterwarnings("ignore::isometrics.exceptions.DegenerateDataWarning")


@st.composite
def data(draw):
    n = draw(st.integers(2, 60))
    y = draw(hnp.arrays(np.int8, n, elements=st.integers(0, 1)))
    y[0], y[1] = 1, 0
    s = draw(hnp.arrays(np.float64, n, elements=st.integers(0, 15).map(lambda v: v / 15)))
    w = draw(hnp.arrays(np.float64, n, elements=st.integers(1, 4).map(float)))
    return y, s, w


@given(data())
def test_isotonic_equals_sklearn_pav_on_training_scores(d):
    y, s, w = d
    ours = im.spaces.isotonic_calibrator(y, s, sample_weight=w)(s)
    theirs = IsotonicRegression(increasing=True).fit(s, y, sample_weight=w).predict(s)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


@given(data(), st.lists(st.floats(-1, 2), min_size=1, max_size=30))
def test_calibrated_scores_are_monotone_in_the_scores(d, new):
    y, s, w = d
    new = np.sort(np.array(new))
    for calibrator in (
        im.spaces.isotonic_calibrator(y, s, sample_weight=w),
        im.spaces.f_calibrator(y, s, sample_weight=w),
    ):
        values = calibrator(new)
        assert np.all(np.diff(values) >= 0)
        assert np.all((values >= 0) & (values <= 1))


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_f_calibrated_threshold_gives_the_optimal_fbeta(rng, beta):
    y, s, _ = random_binary(rng, 2000, prevalence=0.2)
    calibrated = im.spaces.f_calibrator(y, s)(s)
    pred = (calibrated >= 1 / (1 + beta**2)).astype(int)
    best = im.best_threshold(y, s, metric=f"fbeta(beta={beta})")
    assert im.fbeta_score(y, pred, beta=beta) == pytest.approx(best.value, rel=1e-12)


def test_f_calibrated_scores_of_the_25_label_example():
    # ALGORITHMS.md 1.8 [derived]: segment scores 1, .9697, .8889, .6154, .4103
    labels = [int(c) for c in "1 1 1 0 1 1 1 1 1 1 0 1 1 1 0 1 0 0 1 0 0 0 1 0 1".split()]
    scores = 1 - np.arange(1, 26) / 25
    values = np.unique(np.round(im.spaces.f_calibrator(labels, scores)(scores), 4))
    assert list(values[::-1]) == [1.0, 0.9697, 0.8889, 0.6154, 0.4103]


def test_reliability_curve_matches_sklearn_and_ece_by_hand(rng):
    y = (rng.random(3000) < 0.3).astype(int)
    p = np.clip(0.3 + 0.4 * (y - 0.3) + rng.normal(scale=0.2, size=3000), 0, 1)
    for strategy in ("uniform", "quantile"):
        ours = im.spaces.reliability_curve(y, p, n_bins=8, strategy=strategy)
        frac, mean = calibration_curve(y, p, n_bins=8, strategy=strategy)
        np.testing.assert_allclose(ours.fraction_positive, frac, rtol=1e-12)
        np.testing.assert_allclose(ours.mean_predicted, mean, rtol=1e-12)
    # ECE by hand on a tiny example: bins [0, .5): p .1, .3 with y 0, 0 -> gap .2 ; [.5, 1]: .6, .8 with 1, 1 -> gap .3
    assert im.spaces.expected_calibration_error([0, 0, 1, 1], [0.1, 0.3, 0.6, 0.8], n_bins=2) == pytest.approx(0.25)


def test_isotonic_calibration_makes_ece_small_on_its_own_data(rng):
    y, s, _ = random_binary(rng, 5000, ties=False, prevalence=0.3)
    calibrated = im.spaces.isotonic_calibrator(y, s)(s)
    assert im.spaces.expected_calibration_error(y, calibrated, n_bins=10, strategy="quantile") < 0.02


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: im.spaces.reliability_curve([0, 1], [0.5, 1.5]), r"y_prob must be probabilities in \[0, 1\]"),
        (lambda: im.spaces.reliability_curve([0, 1], [0.5, 0.6], strategy="x"), r"`strategy` must be one of"),
        (lambda: im.spaces.reliability_curve([0, 1], [0.5, 0.6], n_bins=0), r"`n_bins` must be an integer >= 1"),
        (lambda: im.spaces.isotonic_calibrator([0, 1], [0.5, 0.6])([np.nan]), r"contains 1 NaN value"),
    ],
)
def test_calibration_errors(call, match):
    with pytest.raises(im.IsometricsError, match=match):
        call()
