"""Issue 24, item 6: the engine computes each hypothesis' own terms once and the posterior's summaries once
per answer, and gives the same doubles as the plain formulas (``docs/elicitation.md``, section 3) written
out here. tests/elicitation/_engine_snapshot.py compares a whole version's outputs with another's."""

import math

import numpy as np
import pytest

import isometrics as im
from isometrics.elicitation import _kernel as K


def _log_g(log_beta, rho, precision, recall):
    """log G as the specification writes it, over the whole grid, one point at a time."""
    lp, lr = np.log(precision), np.log(recall)
    e = rho + 1.0
    x = rho * log_beta
    w, wc = 1.0 / (1.0 + np.exp(-x)), 1.0 / (1.0 + np.exp(x))
    with np.errstate(divide="ignore", invalid="ignore"):
        general = np.log1p(w * np.expm1(e * lp) + wc * np.expm1(e * lr)) / e
    out = np.where(e == 0.0, w * lp + wc * lr, general)
    beta = np.exp(log_beta)
    return np.where(rho == 0.0, np.log((beta * precision + recall) / (1.0 + beta)), out)


def _local_g_margin(log_beta, rho, precision, recall):
    lp, lr = math.log(precision), math.log(recall)
    x = rho * log_beta
    base = -rho * _log_g(log_beta, rho, precision, recall)
    general = np.exp(base + K.log_sigmoid(-x) + rho * lr) - np.exp(base + K.log_sigmoid(x) + rho * lp)
    beta = np.exp(log_beta)
    return K.LOCAL_DELTA * np.where(rho == 0.0, (1.0 - beta) / (1.0 + beta), general)


POINTS = [(0.9, 0.3), (1.0, 1.0), (0.001, 0.999), (0.5, 0.5), (1e-9, 0.7)]


@pytest.mark.parametrize("box", [(0.05, 20.0), (0.1, 20.0)])
def test_the_kernel_gives_the_plain_formulas_doubles(box):
    lb, rho = K.pairwise_grid(box)
    assert (rho == 0.0).any() and (rho == -1.0).any()  # both special rows are on the grid
    grid = K.Hypotheses(lb, rho, (K.N_LOG_BETA, K.N_RHO))
    fine = np.meshgrid(*(K.cell_samples(a) for a in K.pairwise_axes(box)), indexing="ij")
    for p, r in POINTS:
        assert np.array_equal(K.log_g(lb, rho, p, r), _log_g(lb, rho, p, r))
        assert np.array_equal(grid.log_g(p, r), _log_g(lb, rho, p, r))
        assert np.array_equal(grid.local_g_margin(p, r), _local_g_margin(lb, rho, p, r))
        assert np.array_equal(K.local_g_margin(*fine, p, r), _local_g_margin(*fine, p, r))
    ps, rs = np.array([p for p, _ in POINTS] * 2), np.array([r for _, r in POINTS] + [r for _, r in POINTS[::-1]])
    g = K.g_values(lb, rho, ps, rs)
    for j, (p, r) in enumerate(zip(ps, rs)):
        assert np.array_equal(g[:, j], np.exp(_log_g(lb, rho, float(p), float(r))))


@pytest.mark.parametrize("lam", [50.0, math.inf])
def test_pair_likelihoods_are_those_of_the_whole_matrix_laid_out_alike(lam):
    """Block by block, the same doubles as likelihood_entropy(g[:, i] - g[:, j]), and in the same memory
    order (a product with them sums in an order that depends on it)."""
    lb, rho = K.pairwise_grid()
    keep = np.flatnonzero(np.arange(len(lb)) % 3 != 1)
    p, r = np.array([0.9, 0.7, 0.5, 0.3, 0.62]), np.array([0.2, 0.45, 0.7, 0.95, 0.5])
    i, j = np.triu_indices(len(p), k=1)
    g = K.g_values(lb[keep], rho[keep], p, r)
    s_ref, h_ref = K.likelihood_entropy(g[:, i] - g[:, j], lam)
    s, h = K.pair_likelihoods(K.Hypotheses(lb, rho, (K.N_LOG_BETA, K.N_RHO)).take(keep), p, r, i, j, lam)
    assert np.array_equal(s, s_ref) and np.array_equal(h, h_ref)
    assert s_ref.flags.f_contiguous and s.flags.f_contiguous and h.flags.f_contiguous  # as g[:, i] lays it out
    w = np.random.default_rng(0).random(len(keep))
    assert np.array_equal(w @ s, w @ s_ref) and np.array_equal(w @ h, w @ h_ref)


def test_the_posterior_summaries_are_computed_once_per_answer():
    s = im.elicitation.Elicitation(local_budget=1, pairwise_budget=3)
    joint, local = s._joint, s._local
    w, m = joint.weights(), joint.estimate()
    assert joint.weights() is w and joint.estimate() is m and not w.flags.writeable
    assert local.weights() is local.weights()
    s.answer("recall")
    assert joint.weights() is not w and not np.array_equal(joint.weights(), w)
    assert joint.estimate() != m


def test_the_simulated_stakeholder_answers_with_g_beta_rhos_doubles():
    """Its answers to pairwise questions read G without checking the question's points again: the same
    doubles as g_beta_rho (which it also answers `value` with)."""
    rng = np.random.default_rng(0)
    for beta, rho in [(2.0, -3.0), (0.05, 0.0), (1.0, -1.0), (7.5, 2.5), (0.3, -1e6), (1.2, 1e6), (0.5, -0.0)]:
        s = im.elicitation.SimulatedStakeholder(beta, rho)
        for p, r in rng.uniform(1e-6, 1.0, size=(200, 2)).tolist() + [(1.0, 1.0), (1e-9, 1.0), (0.5, 1e-300)]:
            assert s._value_at((p, r)) == s.value(p, r) == im.g_beta_rho(p, r, beta=beta, rho=rho)
