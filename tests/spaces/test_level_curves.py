"""Level curves: on-level by construction checked against the metric, PRG straightness, slopes."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import isometrics as im
from isometrics.plotting import LevelCurveDisplay

SPECS = [
    "f1",
    "f2",
    "f0.5",
    "g(beta=2, rho=-3)",
    "g(beta=0.5, rho=1)",
    "g(beta=2, rho=0)",
    "arithmetic(gamma=3)",
    "geometric(beta=2)",
    "power(gamma=2, phi=4)",
    "min",
    "max",
]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("value", [0.2, 0.5, 0.8])
def test_points_lie_on_the_level(spec, value):
    curve = im.level_curve(spec, value, n_points=100)
    assert len(curve.recall) > 0
    values = im.parse_metric(spec).from_precision_recall(curve.precision, curve.recall)
    np.testing.assert_allclose(values, value, rtol=1e-9, atol=1e-12)
    assert np.all(np.diff(curve.recall) >= 0) and np.all(np.diff(curve.precision) <= 0)


def test_f1_level_curve_by_hand():
    # F1 = 0.5: 1/P = 2/F - 1/R = 4 - 1/R: from P = 1 at R = 1/3 to P = 1/3 at R = 1, through P = R = 1/2
    curve = im.level_curve("f1", 0.5, n_points=3)
    np.testing.assert_allclose(curve.recall, [1 / 3, 0.5, 1.0], rtol=1e-15)
    np.testing.assert_allclose(curve.precision, [1.0, 0.5, 1 / 3], rtol=1e-15)


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_fbeta_level_curves_are_straight_with_slope_minus_beta_squared_in_prg(beta):
    curve = im.level_curve(f"fbeta(beta={beta})", 0.6, space="prg", prevalence=0.2, n_points=300)
    slopes = np.diff(curve.y) / np.diff(curve.x)
    np.testing.assert_allclose(slopes, -(beta**2), rtol=1e-6)


def test_roc_level_curve_matches_fbeta_in_roc_coordinates():
    # ERRATA.md: F_beta = (1+b^2) TPR / (TPR + FPR/r + b^2), r = Pos/Neg
    pi, beta = 0.1, 2.0
    curve = im.level_curve("f2", 0.3, space="roc", prevalence=pi)
    r = pi / (1 - pi)
    f = (1 + beta**2) * curve.y / (curve.y + curve.x / r + beta**2)
    np.testing.assert_allclose(f, 0.3, rtol=1e-9)
    assert np.all((curve.x >= 0) & (curve.x <= 1))


@given(st.floats(0.2, 5.0), st.floats(-8.0, 8.0).filter(lambda r: abs(r) > 1e-3), st.floats(0.05, 0.95))
def test_slope_is_minus_one_on_the_break_even_line(beta, rho, p):
    r = beta * p
    if r > 1:
        return
    assert float(im.spaces.level_curve_slope(f"g(beta={beta}, rho={rho})", p, r)) == pytest.approx(-1.0, rel=1e-9)


@pytest.mark.parametrize(
    "spec",
    [
        "f2",
        "g(beta=2, rho=-3)",
        "geometric(beta=2)",
        "arithmetic(gamma=3)",
        "g(beta=3, rho=0)",
        "power(gamma=0.5, phi=2.5)",
    ],
)
def test_analytic_slope_matches_the_level_curve(spec):
    curve = im.level_curve(spec, 0.5, n_points=2000)
    i = len(curve.recall) // 2
    numeric = (curve.precision[i + 1] - curve.precision[i - 1]) / (curve.recall[i + 1] - curve.recall[i - 1])
    analytic = float(im.spaces.level_curve_slope(spec, curve.precision[i], curve.recall[i]))
    assert analytic == pytest.approx(numeric, rel=1e-4)


def test_break_even_line_and_errors():
    line = im.spaces.break_even_line(0.5, n_points=3)
    np.testing.assert_allclose(line.precision, line.recall / 0.5)
    assert line.precision[-1] == 1.0
    with pytest.raises(im.InvalidParameterError, match="needs the prevalence"):
        im.level_curve("f1", 0.5, space="roc")
    with pytest.raises(im.InvalidParameterError, match="not a metric of precision and recall"):
        im.level_curve("youden", 0.5)
    with pytest.raises(im.InvalidParameterError, match=r"`value` must be a real number > 0"):
        im.level_curve("f1", 0.0)
    with pytest.raises(im.InvalidParameterError, match="`space` must be"):
        im.level_curve("f1", 0.5, space="det")


def test_level_curves_reach_the_edges_of_the_square():
    # F1 = 0.1 meets precision 1 at R = F / (2 - F) = 1/19 (F1 = 2PR/(P + R)) and recall 1 at P = 1/19;
    # the curve used to stop at the first sampled recall above 1/19 (precision 0.55)
    curve = im.level_curve("f1", 0.1)
    assert (curve.recall[0], curve.precision[0]) == (pytest.approx(1 / 19, rel=1e-15), 1.0)
    assert (curve.recall[-1], curve.precision[-1]) == (1.0, pytest.approx(1 / 19, rel=1e-15))
    # G(beta=3, rho=-6) = 0.5 is nearly vertical near recall 0.5: it used to stop at precision 0.5
    # although G(P=0.9, R=0.5) > 0.5, i.e. the level passes above (0.5, 0.9)
    g = im.parse_metric("g(beta=3, rho=-6)")
    assert float(g.from_precision_recall(0.9, 0.5)) > 0.5
    curve = im.level_curve(g, 0.5)
    assert curve.precision[0] == 1.0 and curve.recall[0] < 0.5
    assert np.interp(0.9, curve.precision[::-1], curve.recall[::-1]) < 0.5
    # the displays draw these curves
    assert LevelCurveDisplay.from_metric("f1", levels=[0.1]).curves[0].precision[0] == 1.0


@pytest.mark.parametrize(
    "spec, value, points",
    [
        # min(P, R) = 0.3: down the vertical R = 0.3 from P = 1 to the corner (0.3, 0.3), then along P = 0.3
        ("min", 0.3, [(0.3, 1.0), (0.3, 0.3), (1.0, 0.3)]),
        # max(P, R) = 1: the top and the right edges of the square, through the corner (1, 1)
        ("max", 1.0, [(0.0, 1.0), (1.0, 1.0), (1.0, 0.0)]),
        # G(2, -inf) = min(2P, R) = 0.3: R = 0.3 down to P = 0.15, then P = 0.15
        ("g(beta=2, rho=-inf)", 0.3, [(0.3, 1.0), (0.3, 0.15), (1.0, 0.15)]),
        # precision = 0.4 and recall = 0.4: straight across the square
        ("precision", 0.4, [(0.0, 0.4), (1.0, 0.4)]),
        ("recall", 0.4, [(0.4, 1.0), (0.4, 0.0)]),
    ],
)
def test_level_curves_with_corners_and_edges(spec, value, points):
    curve = im.level_curve(spec, value, n_points=101)
    drawn = np.c_[curve.recall, curve.precision]
    for point in points:  # every corner and end is a point of the curve
        assert np.min(np.abs(drawn - point).sum(axis=1)) < 1e-15, point
    np.testing.assert_allclose(drawn[[0, -1]], [points[0], points[-1]], rtol=1e-15, atol=0)


def test_roc_level_curve_of_a_huge_beta_without_overflow():
    """Issue 23, item 3: F-beta with beta = 1e200 is recall; its ROC level curve is TPR = 0.9, computed
    without a NumPy overflow warning (precisions near 0 where the curve leaves the square)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        curve = im.level_curve("fbeta(beta=1e200)", 0.9, space="roc", prevalence=0.3)
    np.testing.assert_allclose(curve.y, 0.9, rtol=1e-12)
    assert curve.x[0] == 0.0 and curve.x[-1] == 1.0 and (np.diff(curve.x) >= 0).all()
