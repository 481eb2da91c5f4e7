"""Issue 24, item 6: the engine computes each hypothesis' own terms once and the posterior's summaries once
per answer, and gives the same doubles as the plain formulas (``docs/elicitation.md``, section 3) written
out here. benchmarks/check_elicitation_identical.py compares a whole version's outputs with another's."""

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


def test_sessions_on_one_box_and_curve_share_its_terms():
    """The grid, its hypothesis terms and the curve's G are computed once per box and curve (read-only)."""
    a, b = im.elicitation.Elicitation(local_budget=0), im.elicitation.Elicitation(local_budget=0)
    ja, jb = a._joint, b._joint
    assert ja._grid is jb._grid and ja._fine is jb._fine and ja.curve_g is jb.curve_g and ja.lb is jb.lb
    assert not ja.curve_g.flags.writeable and not ja.lb.flags.writeable and not ja.lb_fine.flags.writeable
    c = im.elicitation.Elicitation(local_budget=0, beta_range=(0.1, 20.0))
    assert c._joint._grid is not ja._grid and not np.array_equal(c._joint.curve_g, ja.curve_g)


@pytest.mark.parametrize("lam", [50.0, math.inf])
def test_an_answer_weighs_the_grid_with_its_cell_centres_margins(lam):
    """A noisy answer's grid margins are read from its cell-sample margins (the grid points are the cells'
    centres): the same doubles as the margins computed on the grid, for both kinds of answer."""
    from isometrics.elicitation.pairwise import PairwiseQuestion, answer_margin

    for box in [(0.05, 20.0), (0.005, 200.0), (0.1, 20.0)]:
        j = im.elicitation.Elicitation(local_budget=0, pairwise_lambda=lam, beta_range=box)._joint
        rng = np.random.default_rng(1)
        for a in list(rng.uniform(1e-6, 1.0, (20, 4))) + [np.array([1.0, 1.0, 0.5, 0.5])]:
            for kind, q in (
                ("pairwise", PairwiseQuestion((a[0], a[1]), (a[2], a[3]))),
                ("local", im.elicitation.LocalQuestion(a[0], a[1])),
            ):
                fine = answer_margin(kind, q, q.options[1], j.lb_fine, j.rho_fine, j._fine)
                grid = answer_margin(kind, q, q.options[1], j.lb, j.rho, j._grid)
                assert fine[1::2, 1::2].ravel().tobytes() == grid.tobytes()
        before = j.log_w.copy()
        q = PairwiseQuestion((0.9, 0.3), (0.4, 0.8))
        j.apply_pairwise(q, "b")
        margin = answer_margin("pairwise", q, "b", j.lb, j.rho, j._grid)
        expected = before if math.isinf(lam) else before + K.log_likelihood(margin, lam)
        assert j.log_w.tobytes() == expected.tobytes()


@pytest.mark.parametrize("rho", [-2.5, -1.0, 0.0, 0.7, 3.0])
def test_the_level_bisection_gives_log_gs_doubles(rho):
    """The level candidates' bisection reads G with the recalls' terms computed once: log_g's doubles."""
    from isometrics.elicitation.pairwise import _log_g_at_recalls

    r = np.array([0.1, 0.3, 0.5, 0.9, 1.0])
    for lb in (-2.0, 0.0, 0.4, 2.9):
        h = K.Hypotheses(np.full(len(r), lb), np.full(len(r), rho)).take(np.arange(len(r)))
        g = _log_g_at_recalls(h, r)
        for p in (np.full(len(r), 1e-3), np.linspace(0.05, 1.0, len(r)), np.full(len(r), 0.5)):
            assert g(p).tobytes() == h.log_g(p, r).tobytes()


@pytest.mark.parametrize("lam", [50.0, math.inf])
def test_the_fixed_pool_row_by_row_is_pair_likelihoods_transposed(lam):
    from isometrics.elicitation.pairwise import candidate_pairs, candidate_points

    lb, rho = K.pairwise_grid()
    p, r = candidate_points(np.array([0.9, 0.7, 0.5, 0.3]), np.array([0.2, 0.5, 0.7, 0.95]))
    i, j = candidate_pairs(p, r)
    h = K.Hypotheses(lb, rho)
    s, e = K.pair_likelihoods(h, p, r, i, j, lam)
    s_t, e_t = K.pair_likelihood_rows(np.ascontiguousarray(K.g_values(lb, rho, p, r, h).T), i, j, lam)
    assert s_t.flags.c_contiguous and s_t.tobytes() == np.ascontiguousarray(s.T).tobytes()
    assert e_t.tobytes() == np.ascontiguousarray(e.T).tobytes()


def test_a_replayed_session_computes_no_information_gain_twice(monkeypatch):
    """The gains are kept by the answers they follow: engine_trace and replay of a session reuse them, and
    their questions and estimates are those of the session (the gains are read-only)."""
    from isometrics.elicitation import pairwise

    calls = []
    monkeypatch.setattr(pairwise, "_GAINS", type(pairwise._GAINS)())  # none kept from other tests
    inner = pairwise.JointPosterior._information_gain
    monkeypatch.setattr(pairwise.JointPosterior, "_information_gain", lambda self: calls.append(1) or inner(self))
    s = im.elicitation.Elicitation(local_budget=2, pairwise_budget=4, tolerance=1e-9, beta_range=(0.05, 19.0))
    result = s.run(im.elicitation.SimulatedStakeholder(2.0, -2.0, pairwise_lambda=50.0, local_lambda=50.0, rng=3))
    n = len(calls)
    assert n == 4  # the 4 pairwise questions (then the budget stops the session)
    trace = im.elicitation.engine_trace(result.transcript)
    again = im.elicitation.replay(result.transcript)
    assert len(calls) == n
    assert [t["asked"] for t in trace] == [step.question.to_dict() for step in result.transcript.steps] + [None]
    assert again.to_dict() == result.to_dict()
    gain, pairs = s._joint.information_gain()  # after the last answer: not asked before
    assert len(calls) == n + 1 and s._joint.information_gain()[0] is gain
    assert not gain.flags.writeable and not any(p.flags.writeable for p in pairs)
    other = im.elicitation.Elicitation(local_budget=2, pairwise_budget=4, tolerance=1e-9, beta_range=(0.05, 19.0))
    first, second = result.transcript.steps[:2]
    other.record(first.question, "precision" if first.answer == "recall" else "recall")
    other.record(second.question, second.answer)
    other.next_question()
    assert len(calls) == n + 2  # other answers: computed again


def test_the_local_phase_computes_a_questions_margins_once():
    s = im.elicitation.Elicitation(local_budget=3)
    q = s.next_question()
    local = s._local
    m = local._margin(q)
    assert local._margin(q) is m and not m.flags.writeable
    s.answer("recall")
    assert local._margin(s.next_question()) is not m
