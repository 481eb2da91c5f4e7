"""Local questions for beta (issue 11, section 1; ALGORITHMS.md 5.2 a)."""

import math

import numpy as np
import pytest

import isometrics as im
from isometrics.elicitation import LocalQuestion
from isometrics.elicitation.local import local_margin

INF = math.inf


def _truths(n, seed):
    """True (beta, rho) as in ALGORITHMS.md 5.2: ln beta ~ U(ln 0.2, ln 5), rho ~ U(-8, -0.5)."""
    rng = np.random.default_rng(seed)
    return [(math.exp(rng.uniform(math.log(0.2), math.log(5))), rng.uniform(-8, -0.5)) for _ in range(n)]


def _local_phase(session, stakeholder):
    while (q := session.next_question()) is not None and q.kind == "local":
        session.answer(stakeholder(q))
    return session


def test_reference_001_stakeholder_one_answer_gives_beta_above_0_4():
    """001: at precision 0.90 and recall 0.36 she worried more about recall, so beta > 0.36/0.90 = 0.4."""
    q = LocalQuestion(precision=0.90, recall=0.36)
    assert q.meaning("recall") == "beta > R/P = 0.4"
    session = im.elicitation.Elicitation(local_lambda=INF)
    session.record(q, "recall")
    low, _ = session.result().local_interval
    assert low > 0.4
    # every F-like stakeholder (rho < 0) with beta above 0.4 gives that answer, and none below
    for rho in (-8.0, -2.0, -0.5):
        assert im.elicitation.SimulatedStakeholder(0.41, rho)(q) == "recall"
        assert im.elicitation.SimulatedStakeholder(0.39, rho)(q) == "precision"


def test_noiseless_beta_within_2_percent_in_at_most_12_questions():
    for beta, rho in _truths(12, seed=1):
        s = _local_phase(im.elicitation.Elicitation(local_lambda=INF), im.elicitation.SimulatedStakeholder(beta, rho))
        assert s.n_local <= 12
        assert abs(s.result().local_beta / beta - 1) <= 0.02


def test_the_sign_of_rho_matters():
    """With rho > 0 the same answers mean the opposite: read with the right sign, beta is found."""
    beta, rho = 3.0, 1.5
    right = _local_phase(
        im.elicitation.Elicitation(local_lambda=INF, rho_sign="positive"),
        im.elicitation.SimulatedStakeholder(beta, rho),
    )
    assert abs(right.result().local_beta / beta - 1) <= 0.02
    wrong = _local_phase(im.elicitation.Elicitation(local_lambda=INF), im.elicitation.SimulatedStakeholder(beta, rho))
    assert abs(wrong.result().local_beta / beta - 1) > 0.5


def test_margin_agrees_with_the_level_curve_slope():
    """Hand derivation: recall is preferred exactly where -dP/dR > 1, i.e. -S = (R/(beta P))**rho... > 1."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        beta, rho = math.exp(rng.uniform(-2, 2)), float(rng.choice([-1, 1]) * rng.uniform(0.2, 6))
        p, r = rng.uniform(0.05, 1, 2)
        slope = im.spaces.level_curve_slope(f"g(beta={beta!r}, rho={rho!r})", p, r)
        t = float(local_margin(np.array([math.log(beta)]), np.array([rho]), r / p, "recall")[0])
        assert (t > 0) == (-slope > 1)


def test_rho_zero_says_only_whether_beta_is_below_1():
    s = im.elicitation.Elicitation(local_lambda=INF, rho_sign="zero")
    q = s.next_question()
    assert q.ratio == pytest.approx(1.0)
    s.answer("recall")
    assert s.next_question().kind == "pairwise"  # one local answer tells all it can
    result = s.result()
    assert any("only says whether beta < 1" in n for n in result.notes)
    assert result.local_interval[1] <= 1.0
    # the stipulated (beta P + R)/(1 + beta): recall wins for beta < 1 at every point
    assert im.elicitation.SimulatedStakeholder(0.5, 0.0)(LocalQuestion(0.2, 0.9)) == "recall"
    assert im.elicitation.SimulatedStakeholder(2.0, 0.0)(LocalQuestion(0.9, 0.2)) == "precision"


def test_contradictions_are_reported_not_absorbed():
    s = im.elicitation.Elicitation(local_lambda=INF)
    s.record(LocalQuestion(0.4, 0.8), "recall")  # beta > 2
    s.record(LocalQuestion(0.8, 0.8), "precision")  # beta < 1: contradicts
    (c,) = s.result().contradictions
    assert c.step == 1 and c.earlier == (0,)
    assert "contradicts" in c.message


def test_noisy_answers_probabilistic_bisection_converges():
    """lambda_local = 20: the posterior median stays close (plain bisection would not)."""
    errors = []
    for k, (beta, rho) in enumerate(_truths(10, seed=5)):
        s = im.elicitation.Elicitation(local_budget=12)
        _local_phase(s, im.elicitation.SimulatedStakeholder(beta, rho, local_lambda=20.0, rng=k))
        errors.append(abs(math.log(s.result().local_beta / beta)))
    assert np.median(errors) <= 0.15


def test_local_answers_never_fix_rho():
    """After the local phase the session goes on with pairwise questions; F-beta is never assumed."""
    s = _local_phase(im.elicitation.Elicitation(local_lambda=INF), im.elicitation.SimulatedStakeholder(0.7, -3.0))
    assert s.next_question().kind == "pairwise"
    result = s.result()
    assert any("No pairwise question" in n for n in result.notes)
    assert result.rho_range[1] - result.rho_range[0] > 1  # rho still open
