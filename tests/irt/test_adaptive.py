"""Adaptive testing on a beta^3-IRT bank (issue 12, section 2; ALGORITHMS.md 6.3).

The bank holds the true item parameters, so the errors measured are against the simulated
truth; the MAP ability is checked against a brute-force grid search of the same posterior.
"""

import pickle

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.stats import beta as beta_dist

import isometrics as im
from isometrics.irt.adaptive import ability_map
from isometrics.irt.information import beta_shapes


def true_bank(m=150, seed=0):
    rng = np.random.default_rng(seed)
    delta = rng.uniform(0.05, 0.95, m)
    a = np.abs(rng.normal(1.0, 0.5, m))  # ALGORITHMS.md 6.3 (positive: a bank of screened items)
    z = np.zeros(m)
    return im.irt.Beta3IRT(
        respondents=("r",),
        items=tuple(f"d{j}" for j in range(m)),
        ability=np.array([0.5]),
        ability_se=np.array([0.1]),
        difficulty=delta,
        difficulty_se=z,
        discrimination=a,
        discrimination_se=z,
        n_clipped=0,
        negative_discrimination=(),
        log_likelihood=0.0,
        n_observed=m,
        eps=1e-3,
        converged=True,
        n_iter=0,
    )


def responder(bank, theta, seed):
    alpha, beta = beta_shapes(theta, bank.difficulty, bank.discrimination)
    draws = np.random.default_rng(seed).beta(alpha, beta)
    return dict(zip(bank.items, draws))


@pytest.mark.parametrize("length", [4, 8])
def test_fisher_selection_beats_random_at_equal_length(length):
    """Mean absolute error of the ability over 40 simulated respondents, same responses for every rule.

    (With much larger discriminations, a ~ 1.7, many responses pile up at 0 or 1 and are clipped to
    [eps, 1 - eps], which throws away the information Fisher selection counts on; there the ordering
    can reverse. Data-set-level measures such as AUROC do not sit at the clipping bounds.)"""
    bank = true_bank()
    thetas = np.random.default_rng(5).uniform(0.1, 0.9, 40)
    errors = {"fisher": [], "kl": [], "random": []}
    for k, theta in enumerate(thetas):
        answers = responder(bank, theta, seed=100 + k)
        for selection in errors:
            test = im.irt.adaptive_test(bank, answers, selection=selection, max_items=length, rng=k)
            errors[selection].append(abs(test.ability - theta))
    mae = {k: np.mean(v) for k, v in errors.items()}
    assert mae["fisher"] < mae["random"], mae
    assert mae["kl"] < mae["random"], mae


def test_map_ability_equals_a_grid_search_of_the_posterior():
    bank = true_bank(m=12, seed=3)
    p = np.clip(np.random.default_rng(2).uniform(0.05, 0.95, 12), 1e-3, 1 - 1e-3)
    theta, se = ability_map(np.log(p), np.log1p(-p), bank.difficulty, bank.discrimination)
    grid = np.linspace(1e-4, 1 - 1e-4, 200_001)
    alpha, beta = beta_shapes(grid[:, None], bank.difficulty[None, :], bank.discrimination[None, :])
    # the prior: uniform on theta (its MAP on the logit scale carries the Jacobian theta (1 - theta))
    log_post = beta_dist.logpdf(p[None, :], alpha, beta).sum(axis=1) + np.log(grid * (1 - grid))
    assert theta == pytest.approx(grid[np.argmax(log_post)], abs=1e-4)
    # SE: the curvature of the log posterior in logit theta by finite differences
    t, h = np.log(theta / (1 - theta)), 1e-4
    tt = 1 / (1 + np.exp(-np.array([t - h, t, t + h])))
    al, be = beta_shapes(tt[:, None], bank.difficulty[None, :], bank.discrimination[None, :])
    lp = beta_dist.logpdf(p[None, :], al, be).sum(axis=1) + np.log(tt * (1 - tt))
    curvature = -(lp[0] - 2 * lp[1] + lp[2]) / h**2
    assert se == pytest.approx(theta * (1 - theta) / np.sqrt(curvature), rel=1e-3)


def test_trajectory_and_stopping_rules():
    bank = true_bank()
    answers = responder(bank, 0.7, seed=1)
    test = im.irt.adaptive_test(bank, answers, max_items=5)
    assert len(test.items) == len(set(test.items)) == test.trajectory.size == test.trajectory_se.size == 5
    assert test.stop_reason == "max_items" and test.ability == test.trajectory[-1]
    np.testing.assert_array_equal(test.responses, [answers[i] for i in test.items])
    assert test.trajectory_se[-1] < test.trajectory_se[0]
    target = im.irt.adaptive_test(bank, answers, max_items=100, se_target=0.05)
    assert target.stop_reason == "se_target" and target.ability_se <= 0.05
    assert np.all(target.trajectory_se[:-1] > 0.05)
    few = im.irt.adaptive_test(bank, answers.get, available=["d3", 4, "d5"], max_items=10)
    assert few.stop_reason == "exhausted" and set(few.items) == {"d3", "d4", "d5"}
    again = pickle.loads(pickle.dumps(test))
    assert again.items == test.items and len(repr(test)) < 1024
    assert test.to_dict()["steps"][0]["item"] == test.items[0]


def test_random_selection_is_seeded():
    bank = true_bank()
    answers = responder(bank, 0.4, seed=2)
    one = im.irt.adaptive_test(bank, answers, selection="random", rng=3, max_items=4)
    two = im.irt.adaptive_test(bank, answers, selection="random", rng=3, max_items=4)
    assert one.items == two.items


def test_bad_input_is_named():
    bank = true_bank(m=5)
    with pytest.raises(im.IsometricsError, match=r"^adaptive_test: `respond` has no response for item 'd"):
        im.irt.adaptive_test(bank, {"d0": 0.5}, selection="random", rng=0, max_items=5)
    with pytest.raises(
        im.IsometricsError,
        match=r"^adaptive_test: `respond` returned 1.5 for item 'd\d'; it must return a real number in \[0, 1\]",
    ):
        im.irt.adaptive_test(bank, lambda item: 1.5)
    with pytest.raises(im.IsometricsError, match=r"`respond` returned nan for item"):
        im.irt.adaptive_test(bank, lambda item: float("nan"))
    with pytest.raises(im.IsometricsError, match=r"^adaptive_test: unknown item 'nope'"):
        im.irt.adaptive_test(bank, lambda item: 0.5, available=["d1", "nope"])
    with pytest.raises(im.InvalidParameterError, match=r"^adaptive_test: `selection`"):
        im.irt.adaptive_test(bank, lambda item: 0.5, selection="maxinfo")
    with pytest.raises(TypeError, match=r"^adaptive_test: `bank` must be a Beta3IRT"):
        im.irt.adaptive_test({"items": []}, lambda item: 0.5)


def test_a_response_of_1_is_finite_with_a_bank_fitted_with_the_default_eps():
    """A bank fitted with eps=None carries an eps that can be below 2**-53 (half the smallest gap to 0 or 1); clipping a
    response of 1 to 1 - eps would give log(1 - 1) = -inf."""
    rng = np.random.default_rng(3)
    x = rng.uniform(0.05, 0.95, (8, 12))
    x[0, 0], x[1, 1] = 1e-300, 1.0
    bank = im.irt.fit_beta3(x)
    assert bank.eps < 2.0**-53 and 1.0 - bank.eps == 1.0
    test = im.irt.adaptive_test(bank, {i: 1.0 for i in bank.items}, max_items=3)
    assert np.all(np.isfinite(test.trajectory)) and np.all(np.isfinite(test.trajectory_se))


def test_a_bank_that_censored_its_responses_censors_the_new_ones_alike():
    """A bank fitted with the default reads a 1 as 'above 1 - resolution / 2': the adaptive ability is the MAP of
    the Beta log densities of the other responses plus log P(Y > 1 - c) (scipy.stats.beta.logsf) and the prior."""
    rng = np.random.default_rng(5)
    x = np.round(rng.uniform(0.05, 0.95, (10, 8)), 2)
    x[:3, 0] = 1.0
    bank = im.irt.fit_beta3(x)
    assert bank.resolution == 0.01 and bank.n_censored == 3
    answers = {bank.items[0]: 1.0, bank.items[1]: 0.62, bank.items[2]: 0.35}
    test = im.irt.adaptive_test(bank, answers, max_items=3, available=list(answers))
    alpha_beta = lambda t: beta_shapes(t, bank.difficulty[:3], bank.discrimination[:3])  # noqa: E731

    def negative_log_posterior(lt):
        t = 1 / (1 + np.exp(-lt))
        alpha, beta = alpha_beta(t)
        ll = beta_dist.logsf(1 - 0.005, alpha[0], beta[0]) + beta_dist.logpdf([0.62, 0.35], alpha[1:], beta[1:]).sum()
        return -(ll + np.log(t * (1 - t)))

    expected = minimize_scalar(negative_log_posterior, bounds=(-10, 10), method="bounded", options={"xatol": 1e-10})
    assert test.ability == pytest.approx(1 / (1 + np.exp(-expected.x)), abs=1e-6)
