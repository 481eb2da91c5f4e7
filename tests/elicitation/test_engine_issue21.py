"""Issue 21, items 1-6: one likelihood, the edges of the box, contradictions, an exact noiseless
region, questions that never run out, exact bounds as numbers. The stakeholders (``_stakeholders``)
answer from models other than the engine's likelihood; the reference values are hand-derived."""

import math

import numpy as np
from _stakeholders import Stakeholder, binormal_curve, stratified_truths

import isometrics as im
from isometrics.elicitation import LocalQuestion, PairwiseQuestion
from isometrics.elicitation import _kernel as K

INF = math.inf


def test_one_recall_answer_is_an_exact_bound_as_a_number():
    """Reference 001: "recall" at (P, R) = (0.90, 0.36) means beta > R/P = 0.4 for every rho < 0."""
    q = LocalQuestion(precision=0.90, recall=0.36)
    assert q.bounds("recall") == (0.36 / 0.90, INF)
    assert q.bounds("precision") == (0.0, 0.36 / 0.90)
    assert q.bounds("recall", "positive") == (0.0, 0.36 / 0.90)
    for lam in (INF, 50.0):
        s = im.elicitation.Elicitation(local_lambda=lam)
        s.record(q, "recall")
        assert s.result().beta_bounds == (0.36 / 0.90, INF)
    s = im.elicitation.Elicitation(local_lambda=INF)
    s.record(q, "recall")
    s.record(LocalQuestion(precision=0.5, recall=0.4), "precision")
    assert s.result().beta_bounds == (0.36 / 0.90, 0.4 / 0.5)


def test_a_then_b_on_one_pair_is_a_contradiction_with_both_answers_named():
    """(0.9, 0.3) and (0.5, 0.7) tie exactly at beta = 1, rho = 0 ((P + R)/2 = 0.6): "a" then "b" leaves
    no (beta, rho) that prefers each strictly; the second answer is reported, naming the first."""
    s = im.elicitation.Elicitation(local_budget=0, local_lambda=INF, pairwise_lambda=INF)
    q = PairwiseQuestion((0.9, 0.3), (0.5, 0.7))
    s.record(q, "a")
    before = s.result().metric
    s.record(q, "b")
    result = s.result()
    assert len(result.contradictions) == 1
    clash = result.contradictions[0]
    assert clash.step == 1 and clash.earlier == (0,)
    assert "answer 2 (b) contradicts answer(s) 1" in clash.message and "noisy" in clash.message
    assert result.metric == before and result.metric.spec != "g(beta=1, rho=0)"  # the second answer is left out
    replayed = im.elicitation.replay(result.transcript)
    assert [c.earlier for c in replayed.contradictions] == [(0,)] and replayed.metric == before


def test_noiseless_region_keeps_the_truth_and_halves_with_every_answer():
    """Items 4 and 5: over noiseless sessions (stopping rule off) the grid cell holding the truth stays in
    the region after every answer; 12 pairwise answers are always asked and the median area is <= 2**-8."""
    areas, asked = [], []
    for k, (beta, rho) in enumerate(stratified_truths(6, seed=3)):
        stake = Stakeholder(beta, rho)
        s = im.elicitation.Elicitation(
            *binormal_curve(1.0 + k % 3),
            local_budget=0,
            pairwise_budget=12,
            tolerance=1e-9,
            local_lambda=INF,
            pairwise_lambda=INF,
        )
        lb_axis, rho_axis = K.pairwise_axes()
        cell = int(np.argmin(abs(lb_axis - math.log(beta)))) * K.N_RHO + int(np.argmin(abs(rho_axis - rho)))
        while (q := s.next_question()) is not None:
            s.answer(stake(q))
            assert s._joint.feasible[cell], (beta, rho, len(s.transcript.steps))
            assert s.contains(beta, rho)
        result = s.result()
        assert not result.contradictions
        asked.append(s.n_pairwise)
        areas.append(result.feasible_fraction)
    assert asked == [12] * len(asked)
    assert np.median(areas) <= 2.0**-8


def test_noiseless_local_answers_keep_the_truth_and_pin_beta():
    for beta, rho in stratified_truths(4, seed=5):
        stake = Stakeholder(beta, rho)
        s = im.elicitation.Elicitation(local_lambda=INF, pairwise_lambda=INF)
        while (q := s.next_question()) is not None and q.kind == "local":
            s.answer(stake(q))
            assert s.contains(beta, rho)
        low, high = s.result().beta_bounds
        assert s.n_local <= 12 and low < beta < high and high / low <= 1.04


def test_a_stakeholder_at_the_edge_of_the_box_gets_no_stable_decision():
    """Item 2: beta = 0.05 (the box's lower end), rho = -2, noisy answers: the session says the estimate
    sits at the edge and never reports a stable decision."""
    stake = Stakeholder(0.05, -2.0, noise="logistic", seed=5)
    result = im.elicitation.Elicitation().run(stake)
    assert not result.stop_reason.startswith("decision stable")
    said = result.stop_reason + " ".join(result.notes)
    assert "edge of the hypothesis box" in said and "beta = 0.05 (its lower end)" in said


def test_beta_range_widens_the_box():
    s = im.elicitation.Elicitation(beta_range=(0.005, 200), local_budget=0, pairwise_budget=2)
    lb = s._joint.lb_axis
    assert lb[0] == -math.log(200) and lb[-1] == math.log(200)
    result = s.run(Stakeholder(0.05, -2.0))
    assert im.elicitation.replay(result.transcript).metric == result.metric


def test_local_answers_weigh_rho_a_stakeholder_far_from_the_assumed_one():
    """Item 1: beta 0.368, rho -0.5, logistic noise (lambda 50), local answers as the pairwise comparison
    with delta 0.1 (another model than the engine's): where the stopping rule fires, the true loss is within
    the tolerance, and the claimed worst loss is not below the true one."""
    for seed in (1, 2):
        stake = Stakeholder(0.368, -0.5, noise="logistic", local="delta", seed=seed)
        result = im.elicitation.Elicitation(*binormal_curve(2.0)).run(stake)
        loss = stake.true_loss(result)
        if result.stop_reason.startswith("decision stable"):
            assert loss <= 0.005, (seed, loss, result)
        assert result.decision.max_loss >= loss - 1e-9


def test_a_wider_box_is_saved_and_loaded(tmp_path):
    s = im.elicitation.Elicitation(beta_range=(0.01, 50), local_budget=1, pairwise_budget=1)
    result = s.run(Stakeholder(0.05, -2.0))
    path = tmp_path / "answers.json"
    result.save(path)
    again = im.elicitation.replay(str(path))
    assert again.metric == result.metric and again.transcript.settings["beta_range"] == (0.01, 50.0)


def test_simulated_stakeholder_answers_from_other_models():
    """SimulatedStakeholder(noise="probit", lapse=0.05): P(a) = 0.05 / 2 + 0.95 Phi(lambda d / 1.702)."""
    from statistics import NormalDist

    q = PairwiseQuestion((0.5, 0.5), (0.52, 0.47))
    d = float(im.g_beta_rho(0.5, 0.5, beta=2.0, rho=-3.0) - im.g_beta_rho(0.52, 0.47, beta=2.0, rho=-3.0))
    expected = 0.025 + 0.95 * NormalDist().cdf(50.0 * d / 1.702)
    s = im.elicitation.SimulatedStakeholder(2.0, -3.0, pairwise_lambda=50.0, noise="probit", lapse=0.05, rng=0)
    share = np.mean([s(q) == "a" for _ in range(1500)])
    assert abs(share - expected) <= 3 * math.sqrt(expected * (1 - expected) / 1500)


def test_the_local_phase_stops_when_its_answers_stop_informing():
    """Issue 21, item 8: a noisy default session no longer spends all 12 local questions ending
    with near-identical ones; every local question asked is expected to tell at least
    LOCAL_MIN_INFORMATION, and the phase hands over to pairwise questions when that runs out."""
    from isometrics.elicitation.local import LOCAL_MIN_INFORMATION

    asked = []
    for seed, (beta, rho, noise) in enumerate(
        [(0.368, -0.5, "logistic"), (2.0, -2.0, "probit"), (1.0, -6.0, "logistic")]
    ):
        stake = Stakeholder(beta, rho, noise=noise, seed=seed)
        s = im.elicitation.Elicitation()
        local = []
        while (q := s.next_question()) is not None and isinstance(q, LocalQuestion):
            assert s._local.information() >= LOCAL_MIN_INFORMATION
            local.append(q)
            s.answer(stake(q))
        asked.append(len(local))
        assert q is not None  # the pairwise questions follow
        last = local[-3:]
        spread = max(
            max(x.precision for x in last) - min(x.precision for x in last),
            max(x.recall for x in last) - min(x.recall for x in last),
        )
        assert spread > 0.005, [(x.precision, x.recall) for x in last]
    assert sorted(asked)[1] < 12, asked  # most sessions hand over before the budget of 12
