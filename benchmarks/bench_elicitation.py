"""The acceptance figures of issue 11, section 3, on 50 simulated stakeholders (ALGORITHMS.md 5.2).

Run: ``PYTHONPATH=src python benchmarks/bench_elicitation.py [n_draws]``. Prints, for true
(beta, rho) with ln beta ~ U(ln 0.2, ln 5) and rho ~ U(-8, -0.5) (seeded):

- local questions, noiseless: questions asked and the largest relative error of beta;
- pairwise, noiseless: whether the truth stayed feasible, the median feasible area after 12;
- pairwise, lambda = 50: the posterior mode's median errors after 25 questions;
- the stopping rule, lambda = 50: questions to stop and the share of draws whose chosen point
  loses at most 0.005 of the true G's best;
- tangency on smooth frontiers and the LPM search (errors).

The tests (tests/elicitation/) check the same bounds on fewer draws.
"""

from __future__ import annotations

import math
import sys
import time

import numpy as np

from isometrics.elicitation import Elicitation, SimulatedStakeholder
from isometrics.elicitation.linear import LinearStakeholder, elicit_linear_metric, synthetic_boundary
from isometrics.elicitation.tangency import tangency_estimate

INF = math.inf


def draws(n: int, seed: int = 2019) -> list[tuple[float, float]]:
    rng = np.random.default_rng(seed)
    return [(math.exp(rng.uniform(math.log(0.2), math.log(5))), rng.uniform(-8, -0.5)) for _ in range(n)]


def loss(result, truth: SimulatedStakeholder) -> float:
    p, r, _ = result.transcript.curve
    return truth.best_on(np.asarray(p), np.asarray(r)) - truth.value(result.decision.precision,
                                                                      result.decision.recall)


def main(n: int = 50) -> None:
    truths = draws(n)
    t0 = time.perf_counter()
    errors, asked = [], []
    for beta, rho in truths:
        s = Elicitation(local_lambda=INF, pairwise_lambda=INF, local_budget=12, pairwise_budget=1)
        stake = SimulatedStakeholder(beta, rho)
        while (q := s.next_question()) is not None and q.kind == "local":
            s.answer(stake(q))
        errors.append(abs(s.result().local_beta / beta - 1))
        asked.append(s.n_local)
    print(f"local, noiseless: median {np.median(asked):g} questions (max {max(asked)}); beta error max "
          f"{max(errors):.2%}, median {np.median(errors):.2%}")

    areas, stayed = [], True
    for beta, rho in truths:
        s = Elicitation(local_budget=0, pairwise_budget=12, tolerance=1e-9, pairwise_lambda=INF)
        stake = SimulatedStakeholder(beta, rho)
        while (q := s.next_question()) is not None:
            s.answer(stake(q))
            stayed &= all(
                (stake.value(*st.question.a) > stake.value(*st.question.b)) == (st.answer == "a")
                for st in s.transcript.steps) and not s.result().contradictions
        areas.append(s.result().feasible_fraction)
    print(f"pairwise, noiseless: truth always feasible: {stayed}; median feasible area after 12 questions "
          f"2^{math.log2(np.median(areas)):.1f} of the start (bound 2^-8)")

    e_lb, e_rho = [], []
    for k, (beta, rho) in enumerate(truths):
        s = Elicitation(local_budget=0, pairwise_budget=25, tolerance=1e-9, pairwise_lambda=50.0)
        r = s.run(SimulatedStakeholder(beta, rho, pairwise_lambda=50.0, rng=k))
        e_lb.append(abs(math.log(r.mode_beta / beta)))
        e_rho.append(abs(r.mode_rho - rho))
    print(f"pairwise, lambda = 50, 25 questions: posterior mode median error {np.median(e_lb):.3f} in ln beta "
          f"(bound 0.05), {np.median(e_rho):.2f} in rho (bound 0.5); rho error by true rho: "
          + ", ".join(f"{lo:g}..{lo + 2.5:g}: {np.median([e for e, (_, t) in zip(e_rho, truths) if lo <= t < lo + 2.5]):.2f}"
                      for lo in (-8.0, -5.5, -3.0)))

    losses, n_q, fired = [], [], []
    for k, (beta, rho) in enumerate(truths):
        s = Elicitation(local_budget=0, pairwise_budget=40, pairwise_lambda=50.0)
        stake = SimulatedStakeholder(beta, rho, pairwise_lambda=50.0, rng=1000 + k)
        r = s.run(stake)
        losses.append(loss(r, stake))
        n_q.append(s.n_pairwise)
        fired.append(r.stop_reason.startswith("decision stable"))
    ok = np.mean(np.asarray(losses) <= 0.005)
    ok_fired = np.mean([x <= 0.005 for x, f in zip(losses, fired) if f]) if any(fired) else float("nan")
    print(f"stopping rule, lambda = 50 (budget 40): fired in {sum(fired)}/{n} draws, median {np.median(n_q):g} "
          f"questions (max {max(n_q)}); chosen point within 0.005 of the true best in {ok_fired:.0%} of the draws "
          f"where it fired (bound 95 %), {ok:.0%} of all; worst loss {max(losses):.4f}")

    losses, n_q = [], []
    for k, (beta, rho) in enumerate(truths):
        s = Elicitation()
        stake = SimulatedStakeholder(beta, rho, pairwise_lambda=50.0, local_lambda=20.0, rng=2000 + k)
        r = s.run(stake)
        losses.append(loss(r, stake))
        n_q.append(len(r.transcript.steps))
    ok = np.mean(np.asarray(losses) <= 0.005)
    print(f"whole workflow (local then pairwise, noisy answers, defaults): median {np.median(n_q):g} questions; "
          f"chosen point within 0.005 of the true best in {ok:.0%} of draws")

    worst = 0.0
    for beta, rho in truths:
        est = tangency_estimate(*_tangency_points(beta, rho))
        worst = max(worst, abs(est.beta / beta - 1), abs(est.rho - rho))
    print(f"tangency, exact points on two smooth frontiers: worst error {worst:.1e} (bound 1e-8)")

    rng = np.random.default_rng(7)
    eps, worst_theta, queries = 0.01, 0.0, 0
    for _ in range(n):
        a = 5.0
        boundary = synthetic_boundary(a)
        zone = math.atan(math.exp(-a))
        theta = rng.uniform(zone + 0.02, math.pi / 2 - zone - 0.02)
        res = elicit_linear_metric(LinearStakeholder(theta), boundary, epsilon=eps)
        worst_theta = max(worst_theta, abs(res.theta - theta))
        queries = max(queries, res.n_queries)
    print(f"LPM, eps = {eps}: worst |theta - theta*| {worst_theta:.4f} with at most {queries} queries "
          f"(bound 4 ceil(log2(pi/(2 eps))) = {4 * math.ceil(math.log2(math.pi / (2 * eps)))})")
    print(f"[{time.perf_counter() - t0:.0f} s]")


def favourite_on_frontier(beta: float, rho: float, a: float, b: float, q: float) -> tuple[float, float, float]:
    """G(beta, rho)'s favourite point on the frontier (P/a)^q + (R/b)^q = 1 and the frontier's slope there.

    The frontier's slope is dP/dR = -(a/b)^q (R/P)^(q-1); the level curve's is -(R/(beta P))^rho;
    equal where ln(R/P) (q - 1 - rho) = -rho ln(beta) - q ln(a/b) (hand derivation).
    """
    m = math.exp((-rho * math.log(beta) - q * math.log(a / b)) / (q - 1 - rho))
    p = (a ** -q + (m / b) ** q) ** (-1 / q)
    return p, m * p, -((a / b) ** q) * m ** (q - 1)


def _tangency_points(beta: float, rho: float):
    pts, slopes = [], []
    for a, b, q in ((1.0, 0.8, 2.0), (0.7, 1.0, 3.0)):
        p, r, s = favourite_on_frontier(beta, rho, a, b, q)
        pts.append((p, r))
        slopes.append(s)
    return pts, slopes


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
