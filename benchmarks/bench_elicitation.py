"""The acceptance figures of issues 11 and 21 on 50 simulated stakeholders (ALGORITHMS.md 5.2).

Run: ``PYTHONPATH=src python benchmarks/bench_elicitation.py [n_draws]``. True (beta, rho): ln beta ~
U(ln 0.2, ln 5), rho ~ U(-8, -0.5) (seeded); decision curves: binormal PR curves (positives
N(mu, 1), negatives N(0, 1), mu = 1, 2, 3 in turn, 10 % positives). Every engine option is at
its default unless a line says otherwise.

The stakeholders here do not share the engine's likelihood: they are written in this file on
``isometrics.g_beta_rho`` alone, and answer from four models in turn (issue 21, item 1):
logistic or probit noise on G(A) - G(B); local answers from the first-order model
(``0.05 (dG/dR - dG/dP)`` by central differences) or as the pairwise comparison with another
delta (``(P, R + 0.1)`` against ``(P + 0.1, R)``); and 5 % lapses (a random answer).

Printed: noiseless (truth inside the region after every answer; beta within 2 % after at most
12 local questions; the feasible area after 12 pairwise answers with the stopping rule off),
noisy (lambda 50: how often the stopping rule fires within 60 questions, the true loss of G at
the chosen threshold where it fires, coverage of the 95 % credible interval of log beta, the
median number of questions), the edge case and the contradiction of issue 21 (items 2, 3),
tangency and the LPM search.
"""

from __future__ import annotations

import math
import sys
import time
from statistics import NormalDist

import numpy as np

from isometrics import g_beta_rho
from isometrics.elicitation import Elicitation, LocalQuestion, PairwiseQuestion
from isometrics.elicitation.linear import LinearStakeholder, elicit_linear_metric, synthetic_boundary
from isometrics.elicitation.tangency import tangency_estimate

INF = math.inf
PHI = NormalDist().cdf


def draws(n: int, seed: int = 2019) -> list[tuple[float, float]]:
    rng = np.random.default_rng(seed)
    return [(math.exp(rng.uniform(math.log(0.2), math.log(5))), rng.uniform(-8, -0.5)) for _ in range(n)]


def binormal_curve(mu: float, prevalence: float = 0.1, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """Precision and recall of the binormal model (positives N(mu, 1), negatives N(0, 1)) at n thresholds."""
    t = np.linspace(-4.0, mu + 4.0, n)
    tpr = np.array([1 - PHI(x - mu) for x in t])
    fpr = np.array([1 - PHI(x) for x in t])
    return prevalence * tpr / (prevalence * tpr + (1 - prevalence) * fpr), tpr


class Stakeholder:
    """Answers from G(beta, rho) with its own noise model (not the engine's likelihood).

    noise: "none", "logistic" or "probit" (sharpness lam on the difference of G); local: "first-order"
    (0.05 (dG/dR - dG/dP), central differences) or "delta" (G(P, R + delta) - G(P + delta, R));
    lapse: the share of answers given at random.
    """

    def __init__(self, beta, rho, *, noise="none", lam=50.0, local="first-order", delta=0.1, lapse=0.0, seed=0):
        self.beta, self.rho, self.noise, self.lam = beta, rho, noise, lam
        self.local, self.delta, self.lapse = local, delta, lapse
        self.rng = np.random.default_rng(seed)

    def value(self, p, r):
        return float(g_beta_rho(p, r, beta=self.beta, rho=self.rho))

    def local_difference(self, p, r):
        if self.local == "delta":
            return self.value(p, min(r + self.delta, 1.0)) - self.value(min(p + self.delta, 1.0), r)
        h = 1e-6 * min(p, r)
        d_r = (self.value(p, r + h) - self.value(p, r - h)) / (2 * h)
        d_p = (self.value(p + h, r) - self.value(p - h, r)) / (2 * h)
        return 0.05 * (d_r - d_p)

    def _first(self, d):
        if self.lapse and self.rng.random() < self.lapse:
            return bool(self.rng.random() < 0.5)
        if self.noise == "none":
            return d > 0
        if self.noise == "logistic":
            return bool(self.rng.random() < 1 / (1 + math.exp(-max(min(self.lam * d, 700), -700))))
        return bool(self.rng.random() < PHI(self.lam * d / 1.702))

    def __call__(self, q):
        if isinstance(q, LocalQuestion):
            return "recall" if self._first(self.local_difference(q.precision, q.recall)) else "precision"
        return "a" if self._first(self.value(*q.a) - self.value(*q.b)) else "b"

    def agrees(self, kind, q, answer):
        """Whether a noiseless answer agrees with this G (the truth is inside its region)."""
        if kind == "local":
            return (self.local_difference(q.precision, q.recall) > 0) == (answer == "recall")
        return (self.value(*q.a) > self.value(*q.b)) == (answer == "a")


MODELS = [
    dict(noise="logistic", local="first-order"),
    dict(noise="probit", local="first-order"),
    dict(noise="logistic", local="delta", lapse=0.05),
    dict(noise="probit", local="delta", lapse=0.05),
]


def true_loss(result, stake) -> float:
    p, r, _ = result.transcript.curve
    best = max(stake.value(a, b) for a, b in zip(p, r))
    return best - stake.value(result.decision.precision, result.decision.recall)


def noiseless(truths) -> None:
    inside, errors, asked, areas = 0, [], [], []
    for k, (beta, rho) in enumerate(truths):
        stake = Stakeholder(beta, rho)
        s = Elicitation(*binormal_curve(1.0 + k % 3), local_lambda=INF, pairwise_lambda=INF)
        ok = True
        while (q := s.next_question()) is not None and q.kind == "local":
            s.answer(stake(q))
            ok &= s.contains(beta, rho)
        res = s.result()
        errors.append(abs(res.local_beta / beta - 1))
        asked.append(s.n_local)
        s = Elicitation(
            *binormal_curve(1.0 + k % 3),
            local_budget=0,
            pairwise_budget=12,
            tolerance=1e-9,
            local_lambda=INF,
            pairwise_lambda=INF,
        )
        while (q := s.next_question()) is not None:
            s.answer(stake(q))
            ok &= s.contains(beta, rho) and all(
                stake.agrees(st.question.kind, st.question, st.answer) for st in s.transcript.steps[-1:]
            )
        inside += ok and not s.result().contradictions
        areas.append(s.result().feasible_fraction)
    print(
        f"noiseless: truth inside the region after every answer in {inside}/{len(truths)}; local questions "
        f"median {np.median(asked):g} (max {max(asked)}), beta error max {max(errors):.2%} (bound 2 %); feasible "
        f"area after 12 pairwise answers, stopping rule off: median 2^{math.log2(np.median(areas)):.1f} "
        f"(bound 2^-8), worst 2^{math.log2(max(areas)):.1f}"
    )


def noisy(truths) -> None:
    fired, n_q, losses, covered, per_model = [], [], [], [], {}
    for k, (beta, rho) in enumerate(truths):
        model = MODELS[k % len(MODELS)]
        stake = Stakeholder(beta, rho, seed=1000 + k, **model)
        s = Elicitation(*binormal_curve(1.0 + k % 3))
        res = s.run(stake)
        n = len(res.transcript.steps)
        f = res.stop_reason.startswith("decision stable") and n <= 60
        fired.append(f)
        n_q.append(n)
        losses.append(true_loss(res, stake))
        lo, hi = res.beta_interval
        covered.append(lo <= beta <= hi)
        per_model.setdefault(k % len(MODELS), []).append((f, losses[-1], covered[-1]))
    fired_a = np.asarray(fired)
    good = np.asarray(losses)[fired_a] <= 0.005
    print(
        f"noisy (lambda 50, defaults): stopping rule fired within 60 questions in {fired_a.mean():.0%} (bound 90 %); "
        f"median {np.median(n_q):g} questions (max {max(n_q)}); where it fired, true loss <= 0.005 in "
        f"{good.mean() if len(good) else float('nan'):.0%} (bound 95 %), worst {max(np.asarray(losses)[fired_a], default=0):.4f}; "
        f"95 % interval of log beta covers the truth in {np.mean(covered):.0%} (bound 90 %)"
    )
    for m, rows in per_model.items():
        print(
            f"  model {MODELS[m]}: fired {np.mean([r[0] for r in rows]):.0%}, loss <= 0.005 "
            f"{np.mean([r[1] <= 0.005 for r in rows]):.0%}, covered {np.mean([r[2] for r in rows]):.0%}"
        )


def edge_and_contradiction() -> None:
    stake = Stakeholder(0.05, -2.0, noise="logistic", seed=5)
    res = Elicitation().run(stake)
    print(
        f"edge case (beta 0.05, rho -2): {res.metric.spec}, stop: {res.stop_reason}; true loss {true_loss(res, stake):.3f}"
    )
    s = Elicitation(local_budget=0, local_lambda=INF, pairwise_lambda=INF)
    q = PairwiseQuestion((0.9, 0.3), (0.5, 0.7))
    s.record(q, "a")
    s.record(q, "b")
    print(f"contradiction (a then b on one pair): {[c.message for c in s.result().contradictions]}")


def main(n: int = 50) -> None:
    truths = draws(n)
    t0 = time.perf_counter()
    noiseless(truths)
    print(f"[{time.perf_counter() - t0:.0f} s]")
    noisy(truths)
    print(f"[{time.perf_counter() - t0:.0f} s]")
    edge_and_contradiction()

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
    print(
        f"LPM, eps = {eps}: worst |theta - theta*| {worst_theta:.4f} with at most {queries} queries "
        f"(bound 4 ceil(log2(pi/(2 eps))) = {4 * math.ceil(math.log2(math.pi / (2 * eps)))})"
    )
    print(f"[{time.perf_counter() - t0:.0f} s]")


def favourite_on_frontier(beta: float, rho: float, a: float, b: float, q: float) -> tuple[float, float, float]:
    """G(beta, rho)'s favourite point on the frontier (P/a)^q + (R/b)^q = 1 and the frontier's slope there.

    The frontier's slope is dP/dR = -(a/b)^q (R/P)^(q-1); the level curve's is -(R/(beta P))^rho;
    equal where ln(R/P) (q - 1 - rho) = -rho ln(beta) - q ln(a/b) (hand derivation).
    """
    m = math.exp((-rho * math.log(beta) - q * math.log(a / b)) / (q - 1 - rho))
    p = (a**-q + (m / b) ** q) ** (-1 / q)
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
