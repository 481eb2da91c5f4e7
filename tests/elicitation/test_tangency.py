"""Tangency (ALGORITHMS.md 5.2 c): (beta, rho) in closed form from favourite points."""

import math

import numpy as np
import pytest

import isometrics as im
from isometrics.elicitation import hull_slope


def favourite(beta, rho, a, b, q):
    """G(beta, rho)'s favourite point on the frontier (P/a)^q + (R/b)^q = 1, and the frontier's slope.

    Hand derivation: the frontier's slope is dP/dR = -(a/b)^q (R/P)^(q-1), the level curve's
    -(R/(beta P))^rho (ERRATA); they agree where ln(R/P) (q - 1 - rho) = -rho ln beta - q ln(a/b).
    """
    m = math.exp((-rho * math.log(beta) - q * math.log(a / b)) / (q - 1 - rho))
    p = (a**-q + (m / b) ** q) ** (-1 / q)
    return p, m * p, -((a / b) ** q) * m ** (q - 1)


FRONTIERS = ((1.0, 0.8, 2.0), (0.7, 1.0, 3.0), (0.9, 0.9, 1.5))


def test_favourite_point_is_the_maximum_along_the_frontier():
    """The helper is right: G at the point is the largest on a dense grid of the frontier."""
    for beta, rho in [(0.5, -2.0), (3.0, -6.0), (1.2, -0.7)]:
        for a, b, q in FRONTIERS:
            p, r, _ = favourite(beta, rho, a, b, q)
            rr = np.linspace(1e-4, b * (1 - 1e-12), 20001)
            pp = a * (1 - (rr / b) ** q) ** (1 / q)
            assert im.g_beta_rho(p, r, beta=beta, rho=rho) >= im.g_beta_rho(pp, rr, beta=beta, rho=rho).max() - 1e-12


def test_exact_tangency_points_recover_beta_and_rho_to_1e_8():
    rng = np.random.default_rng(21)
    for _ in range(50):
        beta, rho = math.exp(rng.uniform(math.log(0.2), math.log(5))), rng.uniform(-8, -0.5)
        pts, slopes = zip(*[((p, r), s) for p, r, s in (favourite(beta, rho, *f) for f in FRONTIERS[:2])])
        est = im.elicitation.tangency_estimate(list(pts), list(slopes))
        assert abs(est.beta / beta - 1) <= 1e-8 and abs(est.rho - rho) <= 1e-8
        assert est.consistent and np.isfinite(est.condition_number) and est.condition_number >= 1
        assert est.metric == im.parse_metric(est.metric.spec)


def test_three_frontiers_are_checked_for_consistency():
    beta, rho = 1.7, -3.0
    pts, slopes = zip(*[((p, r), s) for p, r, s in (favourite(beta, rho, *f) for f in FRONTIERS)])
    est = im.elicitation.tangency_estimate(list(pts), list(slopes))
    assert est.consistent and np.max(np.abs(est.residuals)) < 1e-10
    bad = list(slopes)
    bad[2] *= 1.3  # a favourite point no single G explains
    est = im.elicitation.tangency_estimate(list(pts), bad)
    assert not est.consistent and np.max(np.abs(est.residuals)) > 0.01


def test_same_ratio_is_singular_and_bad_input_named():
    with pytest.raises(im.IsometricsError, match="same R/P"):
        im.elicitation.tangency_estimate([(0.5, 0.5), (0.8, 0.8)], [-1.5, -2.0])
    with pytest.raises(im.InvalidParameterError, match=r"^tangency_estimate: every slope dP/dR in `slopes` must be"):
        im.elicitation.tangency_estimate([(0.5, 0.5), (0.8, 0.4)], [-1.0, 0.5])
    with pytest.raises(im.InvalidParameterError, match=r"^tangency_estimate: `points` must have shape \(k, 2\)"):
        im.elicitation.tangency_estimate([(0.5, 0.5)], [-1.0])
    with pytest.raises(im.InvalidParameterError, match=r"^tangency_estimate: `slopes` must have one value per point"):
        im.elicitation.tangency_estimate([(0.5, 0.5), (0.8, 0.4)], [-1.0])


def test_hull_slope_brackets_the_pr_slope_between_the_edges():
    """Empirical curve: the PR slope at a hull vertex lies between the slopes of the segments to its
    neighbours (computed here by finite differences of precision along each ROC edge)."""
    rng = np.random.default_rng(2)
    y = (rng.random(400) < 0.3).astype(int)
    s = rng.normal(size=400) + 1.5 * y
    hull = im.roc_convex_hull(y, s)
    pi = y.mean()
    for k in range(1, len(hull.fpr) - 1):
        if hull.tpr[k] == 0 or not np.isfinite(hull.slopes[k - 1]) or hull.slopes[k] == 0:
            with pytest.raises(im.InvalidParameterError, match=r"^hull_slope: vertex"):
                hull_slope(hull, k)
            continue
        low, high, mid = hull_slope(hull, k)
        assert low <= mid <= high
        t, f = hull.tpr[k], hull.fpr[k]
        prec = lambda tt, ff: pi * tt / (pi * tt + (1 - pi) * ff)  # noqa: E731
        h = 1e-7
        for j in (k - 1, k):
            dt, df = hull.tpr[j + 1] - hull.tpr[j], hull.fpr[j + 1] - hull.fpr[j]
            num = (prec(t + h * dt, f + h * df) - prec(t, f)) / (h * dt)
            assert low - 1e-4 * abs(low) <= num <= high + 1e-4 * abs(high)
    with pytest.raises(im.InvalidParameterError, match=r"^hull_slope: `index` must be an inner vertex"):
        hull_slope(hull, 0)
