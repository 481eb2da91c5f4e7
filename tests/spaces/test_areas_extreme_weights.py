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
