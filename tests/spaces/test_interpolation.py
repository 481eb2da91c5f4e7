"""Davis & Goadrich interpolation: the published table, closed form vs quadrature, ordering of estimators."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import isometrics as im

pytestmark = pytest.mark.filterwarnings("ignore::isometrics.exceptions.DegenerateDataWarning")


def test_davis_goadrich_table():
    # Davis & Goadrich (ICML 2006), table 2: A = (TP 5, FP 5), B = (TP 10, FP 30), 20 positives.
    pts = im.spaces.interpolate_pr_points(5, 5, 10, 30, n_positives=20)
    np.testing.assert_array_equal(pts.tp, [5, 6, 7, 8, 9, 10])
    np.testing.assert_array_equal(pts.fp, [5, 10, 15, 20, 25, 30])
    np.testing.assert_allclose(pts.recall, [0.25, 0.30, 0.35, 0.40, 0.45, 0.50])
    assert list(np.round(pts.precision, 3)) == [0.500, 0.375, 0.318, 0.286, 0.265, 0.250]


def test_hand_derived_areas():
    # y = [0, 0, 1, 1], s = [.1, .4, .35, .8]: points (FP, TP) (0,0) (0,1) (1,1) (1,2) (2,2), P = 2.
    # Interpolated: 1/2 (flat from the origin) + integral over the step (1,1)->(1,2) of (1+x)/(2+x) dx/2
    #             = 1/2 + (1 - ln(3/2))/2.
    # Achievable (hull (0,0) (0,1) (1,2) (2,2)): 1/2 + [s=1, b=2, a=-1/2] (0.5/2 + (1/8) ln 3).
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    assert im.spaces.auc_pr_interpolated(y, s) == pytest.approx(0.5 + (1 - math.log(1.5)) / 2, rel=1e-14)
    assert im.spaces.auc_pr_achievable(y, s) == pytest.approx(0.5 + 0.25 + math.log(3) / 8, rel=1e-14)


@st.composite
def data(draw):
    n = draw(st.integers(2, 40))
    y = draw(hnp.arrays(np.int8, n, elements=st.integers(0, 1)))
    y[0], y[1] = 1, 0
    s = draw(hnp.arrays(np.float64, n, elements=st.integers(0, 8).map(float)))
    w = draw(hnp.arrays(np.float64, n, elements=st.integers(1, 3).map(float)))
    return y, s, w


def _quadrature(op, indices=None):
    """Midpoint rule over each segment's count interpolation (independent of the closed form)."""
    tp, fp = (op.tp, op.fp) if indices is None else (op.tp[indices], op.fp[indices])
    total = 0.0
    for (t0, f0), (t1, f1) in zip(zip(tp[:-1], fp[:-1]), zip(tp[1:], fp[1:])):
        if t1 <= t0:
            continue
        u = (np.arange(20000) + 0.5) / 20000
        t, f = t0 + u * (t1 - t0), f0 + u * (f1 - f0)
        total += np.mean(t / (t + f)) * (t1 - t0) / op.n_positives
    return total


@given(data())
def test_closed_form_equals_quadrature(d):
    y, s, w = d
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    assert op.auc_pr_interpolated() == pytest.approx(_quadrature(op), rel=1e-6)
    assert op.auc_pr_achievable() == pytest.approx(_quadrature(op, op.roc_convex_hull().indices), rel=1e-6)


@given(data())
def test_estimators_are_ordered(d):
    y, s, w = d
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    # the hull's mixtures reach at least what the curve's own mixtures reach
    assert op.auc_pr_interpolated() <= op.auc_pr_achievable() + 1e-12
    assert 0 <= op.auc_pr_interpolated() <= 1


@given(st.integers(0, 30), st.integers(0, 30), st.integers(1, 30), st.integers(0, 30))
def test_linear_interpolation_is_optimistic_where_precision_falls(tp_a, fp_a, d_tp, d_fp):
    pts = im.spaces.interpolate_pr_points(tp_a, fp_a, tp_a + d_tp, fp_a + d_fp, n_positives=100, step=d_tp / 50)
    if tp_a + fp_a == 0:
        return
    chord = np.interp(pts.recall, pts.recall[[0, -1]], pts.precision[[0, -1]])
    if pts.precision[-1] < pts.precision[0]:
        assert np.all(pts.precision <= chord + 1e-12)
    elif pts.precision[-1] > pts.precision[0]:
        assert np.all(pts.precision >= chord - 1e-12)


def test_interpolate_rejects_bad_order():
    with pytest.raises(im.InvalidParameterError, match="need tp_b > tp_a"):
        im.spaces.interpolate_pr_points(5, 5, 5, 30, n_positives=20)
