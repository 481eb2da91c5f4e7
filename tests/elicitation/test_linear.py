"""Linear metrics (Hiranandani et al., AISTATS 2019; ALGORITHMS.md 5.1): the synthetic setting."""

import math

import numpy as np
import pytest
from scipy import integrate

import isometrics as im
from isometrics.elicitation import LinearStakeholder, synthetic_boundary


def test_boundary_matches_numerical_integration():
    """TP and TN of 1[eta >= delta] with X ~ U[-1, 1], eta = 1/(1 + e^(a x)), by scipy quad."""
    a = 5.0
    boundary = synthetic_boundary(a)
    eta = lambda x: 1 / (1 + math.exp(a * x))  # noqa: E731
    for theta in (0.2, 0.7, 1.1, 1.5):
        delta = math.sin(theta) / (math.sin(theta) + math.cos(theta))
        cut = min(1, max(-1, math.log((1 - delta) / delta) / a))
        tp = integrate.quad(eta, -1, cut)[0] / 2
        tn = integrate.quad(lambda x: 1 - eta(x), cut, 1)[0] / 2
        assert boundary(theta) == pytest.approx((tp, tn), abs=1e-12)


@pytest.mark.parametrize("eps", [0.1, 0.01, 0.001])
def test_theta_within_eps_after_4_ceil_log2_queries(eps):
    rng = np.random.default_rng(5)
    a = 5.0
    zone = math.atan(math.exp(-a))
    bound = 4 * math.ceil(math.log2(math.pi / (2 * eps)))
    for _ in range(20):
        theta = rng.uniform(zone + 0.01, math.pi / 2 - zone - 0.01)
        res = im.elicitation.elicit_linear_metric(LinearStakeholder(theta), synthetic_boundary(a), epsilon=eps)
        assert abs(res.theta - theta) <= eps
        assert res.n_queries <= bound
        assert res.interval[0] <= theta <= res.interval[1]
        assert res.identifiable


def test_unidentifiable_zone_is_reported():
    """Near 0 every angle gives the classifier that flags everything: the zone is reported, about atan(e^-a)."""
    a = 2.0
    res = im.elicitation.elicit_linear_metric(LinearStakeholder(0.05), synthetic_boundary(a), epsilon=0.001)
    assert not res.identifiable
    (lo, hi), *_ = res.unidentifiable
    # 1[eta >= delta] flags everything once delta <= min eta = 1/(1 + e^a), i.e. tan(theta) <= e^(-a)
    assert lo == 0.0 and hi == pytest.approx(math.atan(math.exp(-a)), abs=1e-9)


def test_metric_is_the_equivalent_cost():
    res = im.elicitation.elicit_linear_metric(LinearStakeholder(1.0), synthetic_boundary(5.0), epsilon=0.001)
    assert res.metric.spec.startswith("cost(")
    assert res.m11 == pytest.approx(math.cos(1.0), abs=1e-3) and res.m00 == pytest.approx(math.sin(1.0), abs=1e-3)
    with pytest.raises(im.InvalidParameterError, match=r"^elicit_linear_metric: `epsilon` must be a real number"):
        im.elicitation.elicit_linear_metric(LinearStakeholder(1.0), synthetic_boundary(5.0), epsilon=0)
