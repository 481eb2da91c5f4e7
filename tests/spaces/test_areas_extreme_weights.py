"""AUPRG when the classes' total weights differ beyond float64's range: a clear error, never a NaN
or an IndexError (found by the streaming accumulator's property tests)."""

from __future__ import annotations

import numpy as np
import pytest

import isometrics as im
from isometrics.exceptions import IsometricsError


def test_recall_gain_zero_underflowing_is_an_error_not_a_nan():
    # Positives weigh 2e-300 in all, negatives 10: recall gain 0 sits at TP = P * prevalence ~ 4e-601.
    y, s, w = [1, 0, 1, 1, 0], [0.84, 0.44, 0.43, 0.03, 0.22], [1e-300, 0, 1e-300, 0, 10]
    with pytest.raises(IsometricsError, match="recall gain 0.*underflows"):
        im.auprg(y, s, sample_weight=w)
    # The other areas are defined and agree with the unweighted-by-class-scale data.
    assert im.auroc(y, s, sample_weight=w) == im.auroc(y, s, sample_weight=np.array(w) * [1e300, 1, 1e300, 1, 1])


def test_negatives_weighing_nothing_in_float64_is_an_error():
    y, s, w = [0, 1, 0, 1, 1], [1, 1 / 3, 1 / 3, 1, 1], [0, 3e-308, 1e-200, 0, 0.025]
    with pytest.raises(IsometricsError, match="rounds to 1 in float64"):
        im.auprg(y, s, sample_weight=w)


def test_a_wide_but_representable_ratio_still_gives_the_area():
    # Positives 1e-150 of the weight: recall gain 0 at TP ~ 1e-300 is still a normal double.
    y = np.array([1, 0, 1, 0, 0, 1])
    s = np.array([0.9, 0.8, 0.7, 0.3, 0.2, 0.1])
    w = np.where(y == 1, 1e-150, 1.0)
    got = im.auprg(y, s, sample_weight=w)
    # Hand derivation: with prevalence pi ~ 1e-150 every gain 1 - pi/x is 1 to double precision
    # for x > 0, so the PRG curve goes from the recall-gain-0 crossing (precision gain 1: no
    # negative above the first positive) straight to (1, 1), and every later step has width ~ 0:
    # the area is 1.
    assert got == pytest.approx(1.0, abs=1e-12)


# ---------------------------------------------------------------------------- issue 23, item 3
# Negatives weigh 1e-300 each, positives 1e300: both classes are present (each has positive weight),
# so the ROC quantities are defined; they do not change when each class is rescaled on its own.
_Y = np.array([0, 1, 0, 1])
_S = np.array([0.1, 0.4, 0.5, 0.8])
_W = np.where(_Y == 1, 1e300, 1e-300)


def test_classes_weighing_1e300_and_1e_minus_300_are_both_present():
    from sklearn.metrics import roc_auc_score, roc_curve

    # Hand derivation: positives at 0.4 and 0.8, negatives at 0.1 and 0.5, equal weights within each
    # class: 3 of the 4 positive-negative pairs are ordered right, AUROC 3/4; scikit-learn normalises each
    # class by its own total and agrees.
    assert im.auroc(_Y, _S, sample_weight=_W) == 0.75 == roc_auc_score(_Y, _S, sample_weight=_W)
    assert im.roc_auc_score(_Y, _S, sample_weight=_W) == 0.75
    assert im.OperatingPoints.from_scores(_Y, _S, sample_weight=_W).auroc() == 0.75
    for ours, theirs in zip(im.roc_curve(_Y, _S, sample_weight=_W), roc_curve(_Y, _S, sample_weight=_W)):
        np.testing.assert_array_equal(ours, theirs)
    hull = im.roc_convex_hull(_Y, _S, sample_weight=_W)
    np.testing.assert_array_equal(hull.fpr, [0, 0, 0.5, 1])
    np.testing.assert_array_equal(hull.tpr, [0, 0.5, 1, 1])


def test_quantities_that_need_one_unit_for_both_classes_say_so_not_one_class():
    # Precision mixes the classes: their totals (2e300, 2e-300) differ beyond float64's range, which is
    # the error, not "one class".
    for f in (im.average_precision, im.auprg):
        with pytest.raises(IsometricsError, match="differ by a factor beyond float64's range") as info:
            f(_Y, _S, sample_weight=_W)
        assert "one class" not in str(info.value)
