"""Level curves span their whole domain: end points on the edges of the square, every point on the level.

The level set of a metric that grows with precision and with recall is one monotone curve; a
monotone sequence of points on the level that starts on the top or left edge and ends on the
right or bottom edge (or, in ROC space, at FPR 1) is therefore all of it within the square.
"""

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import isometrics as im

INF = math.inf
_beta = st.one_of(st.sampled_from([0.5, 1.0, 2.0, 3.0]), st.floats(0.02, 50.0))
_rho = st.one_of(st.sampled_from([-INF, INF, -1.0, 0.0, -2.0, -1e25, 1e25, -300.0, 300.0]), st.floats(-30.0, 30.0))
_gamma = st.one_of(st.sampled_from([0.0, INF, 1.0]), st.floats(0.01, 100.0))
_phi = st.one_of(st.sampled_from([-INF, INF, 0.0, -1.0, 1.0, 1e25]), st.floats(-20.0, 20.0))
_metric = st.one_of(
    st.builds(lambda b, r: f"g(beta={b!r}, rho={r!r})", _beta, _rho),
    st.builds(lambda g, f: f"power(gamma={g!r}, phi={f!r})", _gamma, _phi),
    st.builds(lambda b: f"fbeta(beta={b!r})", st.one_of(st.sampled_from([0.0, INF]), _beta)),
    st.builds(lambda g: f"arithmetic(gamma={g!r})", _gamma),
    st.builds(lambda g: f"geometric(gamma={g!r})", _gamma),
    st.sampled_from(["min", "max", "precision", "recall", "f1"]),
)
_level = st.one_of(st.just(1.0), st.floats(0.01, 1.0))


def _check(metric, value, curve, space, prevalence):
    x, y = curve.x, curve.y
    assert np.all((x >= 0) & (x <= 1) & (y >= 0) & (y <= 1))
    # monotone: recall never falls, precision never rises
    assert np.all(np.diff(curve.recall) >= 0) and np.all(np.diff(curve.precision) <= 0)
    # every point on the level
    values = metric.from_precision_recall(curve.precision, curve.recall)
    np.testing.assert_allclose(values, value, rtol=1e-9, atol=1e-300)
    # the ends on the edges: in PR and PRG, top or left edge, then right or bottom edge; in ROC the
    # curve starts on the left edge (FPR 0) and ends on the top (TPR 1) or the right edge (FPR 1)
    if space == "roc":
        assert x[0] == 0.0 and (y[-1] == 1.0 or x[-1] == 1.0), (x[[0, -1]], y[[0, -1]])
    else:
        assert y[0] == 1.0 or x[0] == 0.0, (x[0], y[0])
        assert x[-1] == 1.0 or y[-1] == 0.0, (x[-1], y[-1])


@given(_metric, _level, st.integers(2, 40))
def test_pr_level_curves_span_the_square(spec, value, n_points):
    metric = im.parse_metric(spec)
    curve = im.level_curve(metric, value, n_points=n_points)
    assert len(curve.x) == n_points
    _check(metric, value, curve, "pr", None)


@given(_metric, _level, st.sampled_from(["roc", "prg"]), st.floats(0.01, 0.99), st.integers(2, 40))
def test_roc_and_prg_level_curves_span_their_squares(spec, value, space, prevalence, n_points):
    metric = im.parse_metric(spec)
    curve = im.level_curve(metric, value, space=space, prevalence=prevalence, n_points=n_points)
    if space == "prg" and len(curve.x) == 0:
        # empty only when the level lies below the PRG square: M(pi, pi) = pi > value for a mean
        assert float(metric.from_precision_recall(prevalence, prevalence)) > value
        return
    assert len(curve.x) == n_points
    _check(metric, value, curve, space, prevalence)
