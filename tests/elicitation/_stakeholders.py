"""Simulated stakeholders for the engine's tests, written on ``isometrics.g_beta_rho`` alone.

They do not share the engine's likelihood (issue 21, item 1): noise may be logistic or probit on
the difference of G, local answers come from the first-order model (``0.05 (dG/dR - dG/dP)`` by
central differences) or from the pairwise comparison with another delta, and a share of answers
may be lapses (random).
"""

import math
from statistics import NormalDist

import numpy as np

from isometrics import g_beta_rho
from isometrics.elicitation import LocalQuestion

PHI = NormalDist().cdf


class Stakeholder:
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

    def true_loss(self, result):
        p, r, _ = result.transcript.curve
        best = max(self.value(a, b) for a, b in zip(p, r))
        return best - self.value(result.decision.precision, result.decision.recall)


def binormal_curve(mu, prevalence=0.1, n=200):
    """Precision and recall of the binormal model (positives N(mu, 1), negatives N(0, 1))."""
    t = np.linspace(-4.0, mu + 4.0, n)
    tpr = np.array([1 - PHI(x - mu) for x in t])
    fpr = np.array([1 - PHI(x) for x in t])
    return prevalence * tpr / (prevalence * tpr + (1 - prevalence) * fpr), tpr


def stratified_truths(n, seed):
    """n truths ``(beta, rho)`` spread evenly over the acceptance ranges (ln beta ~ U(ln 0.2, ln 5),
    rho ~ U(-8, -0.5)): stratified quantiles, ln beta's in a seeded random order. A median of few draws
    then stands for the distribution (the benchmark draws 50 at random)."""
    u = (np.arange(n) + 0.5) / n
    v = np.random.default_rng(seed).permutation(u)
    return [(math.exp(math.log(0.2) + math.log(25) * b), -8 + 7.5 * r) for b, r in zip(v, u)]
