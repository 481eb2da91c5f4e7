"""Closed-form Fisher and KL information of a beta^3-IRT item (ALGORITHMS.md 6.3).

The references are independent: Monte Carlo of the squared score (the score by central
differences of scipy.stats.beta.logpdf), and numerical integration of the KL divergence.
"""

import mpmath
import numpy as np
import pytest
from scipy import integrate
from scipy.stats import beta as beta_dist

from isometrics.irt.information import (
    beta_kl,
    beta_shapes,
    expected_response,
    fisher_information,
    kl_information,
    trigamma,
)


def _score(p, theta, delta, a, h=1e-6):
    up = beta_dist.logpdf(p, *beta_shapes(theta + h, delta, a))
    down = beta_dist.logpdf(p, *beta_shapes(theta - h, delta, a))
    return (up - down) / (2 * h)


@pytest.mark.parametrize("theta, delta, a, published", [(0.7, 0.4, 1.5, 36.9765), (0.3, 0.6, 0.8, 11.9557)])
def test_fisher_information_equals_monte_carlo(theta, delta, a, published):
    rng = np.random.default_rng(0)
    p = rng.beta(*beta_shapes(theta, delta, a), size=200_000)
    s2 = _score(p, theta, delta, a) ** 2
    mc, mc_se = s2.mean(), s2.std() / np.sqrt(s2.size)
    closed = fisher_information(theta, delta, a)
    assert abs(closed - mc) < 4 * mc_se
    assert closed == pytest.approx(published, abs=1e-3)  # the derived values of ALGORITHMS.md 6.3


def test_fisher_information_is_variance_of_score_not_its_mean():
    """The score has mean zero (a sanity check of the Monte Carlo reference)."""
    rng = np.random.default_rng(1)
    p = rng.beta(*beta_shapes(0.6, 0.5, 1.2), size=100_000)
    s = _score(p, 0.6, 0.5, 1.2)
    assert abs(s.mean()) < 4 * s.std() / np.sqrt(s.size)


def test_fisher_information_vectorises_and_is_sign_symmetric_in_a_squared():
    grid = np.linspace(0.05, 0.95, 7)
    info = fisher_information(grid, 0.4, 1.5)
    assert info.shape == (7,) and np.all(info > 0)
    np.testing.assert_allclose(info, [fisher_information(t, 0.4, 1.5) for t in grid])


def test_beta_kl_equals_numerical_integration():
    a1, b1, a2, b2 = 2.0, 3.5, 1.4, 4.0
    f, g = beta_dist(a1, b1), beta_dist(a2, b2)
    numeric = integrate.quad(lambda x: f.pdf(x) * (f.logpdf(x) - g.logpdf(x)), 0, 1)[0]
    assert beta_kl(a1, b1, a2, b2) == pytest.approx(numeric, rel=1e-7)
    assert beta_kl(a1, b1, a1, b1) == pytest.approx(0.0, abs=1e-12)


def test_kl_information_for_a_small_step_is_the_fisher_information():
    """KL(f_t || f_{t+h}) ~ h^2 I / 2 on the logit scale: both steps sum to h^2 I_logit."""
    theta, delta, a, h = 0.6, 0.45, 1.3, 1e-3
    i_logit = fisher_information(theta, delta, a) * (theta * (1 - theta)) ** 2
    assert kl_information(theta, delta, a, step=h) == pytest.approx(h**2 * i_logit, rel=1e-3)


def test_expected_response_is_the_beta_mean():
    theta, delta, a = np.array([0.2, 0.5, 0.9]), 0.35, -0.7
    alpha, beta = beta_shapes(theta, delta, a)
    np.testing.assert_allclose(expected_response(theta, delta, a), beta_dist.mean(alpha, beta))


def test_trigamma_equals_mpmath_across_the_range():
    """The fit's trigamma (recurrence + asymptotic series) against mpmath's psi(1, x) at 50 digits."""
    x = np.concatenate([np.logspace(-8, 10, 181), [0.5, 1.0, 2.0, 6.999, 7.0, 7.001, 13.5]])
    with mpmath.workdps(50):
        expected = np.array([float(mpmath.psi(1, mpmath.mpf(float(v)))) for v in x])
    np.testing.assert_allclose(trigamma(x), expected, rtol=1e-13)
    assert trigamma(1.0) == pytest.approx(np.pi**2 / 6, rel=1e-14)
    assert trigamma(np.array([[0.5]])).shape == (1, 1)
