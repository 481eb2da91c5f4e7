"""Baselines and prevalence shift: hand derivations from 002 and ERRATA, round trips, invariances."""

import numpy as np
import pytest
from _data import random_binary
from hypothesis import given
from hypothesis import strategies as st

import isometrics as im


def test_bayes_example_of_002():
    # recall 0.99, FPR 0.05, prevalence 0.01 -> 1/6; a second positive test (prior 1/6) -> about 0.80
    assert float(im.spaces.precision_at_prevalence(0.99, 0.05, prevalence=0.01)) == pytest.approx(1 / 6, rel=1e-12)
    after = im.spaces.repeated_test_precision(0.99, 0.05, prevalence=0.01, n_tests=2)
    assert after[0] == pytest.approx(1 / 6, rel=1e-12)
    assert after[1] == pytest.approx(0.99 / 6 / (0.99 / 6 + 0.05 * 5 / 6), rel=1e-12)
    assert round(after[1], 2) == 0.80


def test_always_positive_and_its_fbeta():
    ap = im.spaces.always_positive([0, 0, 0, 1], sample_weight=[1, 1, 1, 3])
    assert ap.precision == ap.prevalence == 0.5 and (ap.recall_gain, ap.precision_gain) == (1.0, 0.0)
    # F1 of always-positive = 2 pi / (1 + pi) (ALGORITHMS.md 1.1)
    assert im.spaces.always_positive_fbeta(0.1) == pytest.approx(2 * 0.1 / 1.1, rel=1e-15)
    with pytest.raises(im.IsometricsError, match="one class"):
        im.spaces.always_positive([1, 1])


@given(st.floats(0.01, 0.99), st.floats(0.2, 5.0))
def test_iso_fbeta_baseline_has_the_always_positive_fbeta(pi, beta):
    curve = im.spaces.iso_fbeta_baseline(pi, beta=beta, n_points=50)
    f0 = im.spaces.always_positive_fbeta(pi, beta=beta)
    np.testing.assert_allclose(im.fbeta(curve.precision, curve.recall, beta=beta), f0, rtol=1e-10)
    assert curve.precision[-1] == pytest.approx(pi, rel=1e-12) and curve.recall[-1] == 1.0
    assert curve.precision[0] == 1.0


@given(st.floats(0.2, 5.0))
def test_prg_baseline_is_the_iso_fbeta_gain_line_through_always_positive(beta):
    rg, pg = im.spaces.prg_fbeta_baseline(beta=beta)
    fg = (pg + beta**2 * rg) / (1 + beta**2)
    np.testing.assert_allclose(fg, beta**2 / (1 + beta**2), rtol=1e-12)  # the F-gain of (1, 0)
    assert rg[-1] == 1.0 and pg[-1] == 0.0 and np.all((pg >= 0) & (pg <= 1 + 1e-12))


def test_unachievable_precision_is_the_worst_ranking(rng):
    y = (rng.random(500) < 0.2).astype(int)
    op = im.OperatingPoints.from_scores(y, 1.0 - y)  # every negative ranked first
    precision, recall, _ = op.precision_recall_curve()
    bound = im.spaces.unachievable_precision(recall[1:], prevalence=op.prevalence)
    assert np.all(precision[1:] >= bound - 1e-12)
    assert precision[-1] == pytest.approx(bound[-1])


@pytest.mark.parametrize("weighted", [False, True])
def test_prevalence_shift_round_trip_and_roc_invariance(rng, weighted):
    y, s, w = random_binary(rng, 3000, weights=weighted, prevalence=0.3)
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    shifted = op.at_prevalence(0.02)
    assert shifted.prevalence == pytest.approx(0.02, rel=1e-12)
    assert shifted.auroc() == pytest.approx(op.auroc(), rel=1e-12)
    np.testing.assert_allclose(shifted.roc_curve().fpr, op.roc_curve().fpr, rtol=1e-12)
    # precision at the new prevalence = Bayes on the unchanged rates
    fpr, tpr, _ = op.roc_curve()
    expected = im.spaces.precision_at_prevalence(tpr, fpr, prevalence=0.02)
    np.testing.assert_allclose(shifted.precision_recall_curve().precision, expected, rtol=1e-10)
    back = shifted.at_prevalence(op.prevalence)
    np.testing.assert_allclose(back.fp, op.fp, rtol=1e-12)
    assert back.average_precision() == pytest.approx(op.average_precision(), rel=1e-10)
    assert back.best_threshold("f2").threshold == op.best_threshold("f2").threshold


def test_prevalence_shift_equals_reweighting_the_negatives(rng):
    y, s, _ = random_binary(rng, 1000, prevalence=0.3)
    op = im.OperatingPoints.from_scores(y, s)
    P, N = y.sum(), (1 - y).sum()
    target = 0.1
    w = np.where(y == 1, 1.0, P * (1 - target) / (N * target))
    reweighted = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    shifted = op.at_prevalence(target)
    np.testing.assert_allclose(shifted.fp, reweighted.fp, rtol=1e-12)
    assert shifted.auprg() == pytest.approx(reweighted.auprg(), rel=1e-10)


def test_gains_below_zero_are_kept_and_marked(rng):
    y, s, _ = random_binary(rng, 500, prevalence=0.2)
    pg, rg, thr = im.prg_curve(y, s)
    curve = im.prg_curve(y, s)
    assert len(pg) == len(thr)  # nothing dropped
    assert np.any(rg < 0) and np.any(~curve.in_unit_square)
    np.testing.assert_array_equal(curve.in_unit_square, (pg >= 0) & (rg >= 0))


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda: im.spaces.precision_at_prevalence(0.5, 0.5, prevalence=1.0),
            r"`prevalence` must be a real number > 0 and < 1",
        ),
        (lambda: im.spaces.precision_at_prevalence(1.5, 0.5, prevalence=0.5), r"must lie in \[0, 1\]"),
        (lambda: im.spaces.iso_fbeta_baseline(0.2, beta=0), r"`beta` must be a real number > 0"),
        (
            lambda: im.spaces.repeated_test_precision(0.9, 0.1, prevalence=0.1, n_tests=0),
            r"`n_tests` must be an integer >= 1",
        ),
        (lambda: im.OperatingPoints.from_scores([0, 1], [0.1, 0.2]).at_prevalence(0), r"`prevalence` must be"),
    ],
)
def test_bad_parameters(call, match):
    with pytest.raises(im.InvalidParameterError, match=match):
        call()


@given(st.floats(0.01, 0.99), st.floats(0.2, 5.0))
def test_always_positive_fbeta_is_fbeta_at_precision_pi_recall_one(pi, beta):
    # found by hypothesis: the formula once had beta^2 + pi in the denominator (right only for beta = 1)
    assert im.spaces.always_positive_fbeta(pi, beta=beta) == pytest.approx(
        float(im.fbeta(pi, 1.0, beta=beta)), rel=1e-12
    )
