r"""Pairwise comparisons for (beta, rho): "which of these two models would you rather deploy?"

A posterior over a fixed (log beta, rho) grid (``_kernel.pairwise_grid``, uniform prior)
is weighted by each answer "A over B" with the logistic likelihood
:math:`\sigma(\lambda (G_{\beta,\rho}(A) - G_{\beta,\rho}(B)))` (ALGORITHMS.md 5.2 b); with
:math:`\lambda = \infty` it is the indicator of the exact feasible region
:math:`\{(\beta, \rho): G(A) > G(B)\}`. The feasible region of the answers taken as
noiseless is kept beside the posterior whatever lambda is: an answer that would empty it is
a contradiction, reported and left out of the region.

The next pair maximises the expected information gain between the answer and (beta, rho)
among the candidate pairs (for noiseless answers: the split of the posterior closest to
half). The candidates are a fixed 5 x 5 grid of synthetic points and up to 12 operating
points of the user's own curve; a pair where one point is at least as good in both
precision and recall is never asked. The session stops when the decision no longer
depends on the remaining uncertainty: every plausible (beta, rho) (the 95 % highest
posterior region) picks a point of the user's curve that loses at most ``tolerance`` of
every other plausible hypothesis's best.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.html import summarised
from .._typing import FloatArray
from ..exceptions import InvalidParameterError
from . import _kernel as K
from .local import LocalQuestion, check_point, local_margin

#: The synthetic candidate points: precision and recall in {0.1, 0.3, 0.5, 0.7, 0.9}.
SYNTHETIC_LEVELS = (0.1, 0.3, 0.5, 0.7, 0.9)
#: At most this many points of the user's curve are candidates.
N_CURVE_CANDIDATES = 12
#: At most this many Pareto points of the user's curve make the decision curve.
MAX_CURVE = 256
#: Hypotheses of normalised weight at most this are left out of the information-gain sums.
PRUNE = 1e-15
#: Mass of the plausible (highest posterior) region of the stopping rule.
CREDIBLE_MASS = 0.95


@summarised()
@dataclass(frozen=True)
class PairwiseQuestion:
    """A pairwise question: which of two models (operating points) the stakeholder would rather deploy.

    Attributes
    ----------
    a, b : tuple of float
        The two operating points, each ``(precision, recall)`` in (0, 1].
    options : tuple of str
        The answers accepted: ``("a", "b")``.
    """

    a: tuple[float, float]
    b: tuple[float, float]
    options: tuple[str, ...] = field(default=("a", "b"))

    kind = "pairwise"

    def __post_init__(self) -> None:
        for name in ("a", "b"):
            point = getattr(self, name)
            if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) != 2:
                raise InvalidParameterError(f"PairwiseQuestion: `{name}` must be a point (precision, recall); got "
                                            f"{point!r}; pass e.g. PairwiseQuestion((0.9, 0.4), (0.6, 0.8)).")
            object.__setattr__(self, name, check_point(point[0], point[1], "PairwiseQuestion", f"{name}."))

    @property
    def text(self) -> str:
        """The question in plain words."""
        (pa, ra), (pb, rb) = self.a, self.b
        return (f"Model A: precision {pa:.1%}, recall {ra:.1%}. Model B: precision {pb:.1%}, recall {rb:.1%}. "
                "Which would you rather deploy?")

    def to_dict(self) -> dict[str, Any]:
        """The question as JSON-ready data."""
        return {"kind": "pairwise", "a": list(self.a), "b": list(self.b)}


def pareto_front(precision: FloatArray, recall: FloatArray) -> np.ndarray:
    """Indices of the points no other point matches or beats in both precision and recall,
    by decreasing recall (the first of equal points is kept)."""
    order = np.lexsort((-precision, -recall))  # recall descending, then precision descending
    keep, best = [], -np.inf
    for i in order:
        if precision[i] > best:
            keep.append(int(i))
            best = precision[i]
    return np.asarray(keep, dtype=np.intp)


def spread_indices(n: int, m: int) -> list[int]:
    """``m`` indices spread over ``range(n)``, ends included: ``(k (n - 1) + (c - 1) // 2) // max(c - 1, 1)``
    for k < c = min(n, m), each index once, increasing (integer arithmetic, portable)."""
    c = min(n, m)
    return sorted({(k * (n - 1) + (c - 1) // 2) // max(c - 1, 1) for k in range(c)})


def candidate_points(curve_p: FloatArray, curve_r: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The candidate points: the synthetic grid (precision outer, recall inner), then the curve
    points ``spread_indices(n, 12)``."""
    lv = np.asarray(SYNTHETIC_LEVELS)
    p, r = np.repeat(lv, len(lv)), np.tile(lv, len(lv))
    n = len(curve_p)
    if n:
        idx = spread_indices(n, N_CURVE_CANDIDATES)
        p = np.concatenate([p, curve_p[idx]])
        r = np.concatenate([r, curve_r[idx]])
    return p, r


def candidate_pairs(p: FloatArray, r: FloatArray) -> tuple[np.ndarray, np.ndarray]:
    """Pairs (i < j, i outer) of candidates where neither point is at least as good in both."""
    i, j = np.triu_indices(len(p), k=1)
    ok = (p[i] - p[j]) * (r[i] - r[j]) < 0
    return i[ok], j[ok]


def slack(lam: float) -> float:
    """How far (in the answer's margin) a hypothesis may disagree and stay feasible: ``2 / lambda``
    (an answer the noise model itself makes wrong at most 12 % of the time there), ``TIE`` when noiseless."""
    return K.TIE if math.isinf(lam) else 2.0 / lam


@functools.lru_cache(maxsize=2)
def _pair_matrices(cand_p: tuple[float, ...], cand_r: tuple[float, ...], lam: float) -> tuple[FloatArray, FloatArray]:
    """For every candidate pair (rows) and hypothesis (columns): P(answer "a") and its binary entropy.

    Computed once per candidate set and lambda (read-only, shared by the sessions that use them).
    """
    lb, rho = K.pairwise_grid()
    p, r = np.asarray(cand_p), np.asarray(cand_r)
    i, j = candidate_pairs(p, r)
    g = K.g_values(lb, rho, p, r)
    s, h = K.likelihood_entropy(g[:, i] - g[:, j], lam)
    s_t, h_t = np.ascontiguousarray(s.T), np.ascontiguousarray(h.T)
    s_t.flags.writeable = False
    h_t.flags.writeable = False
    return s_t, h_t


class JointPosterior:
    """The posterior over the (log beta, rho) grid and the feasible region of the answers.

    Parameters
    ----------
    curve_p, curve_r : ndarray
        The decision curve (Pareto points of the user's model), by decreasing recall.
    pairwise_lambda, local_lambda : float
        Sharpness of the logistic likelihoods (``inf``: noiseless answers).
    """

    def __init__(self, curve_p: FloatArray, curve_r: FloatArray, pairwise_lambda: float,
                 local_lambda: float) -> None:
        self.lb, self.rho = K.pairwise_grid()
        self.lam, self.local_lam = pairwise_lambda, local_lambda
        self.log_w = np.zeros_like(self.lb)
        self.feasible = np.ones(self.lb.shape, dtype=bool)
        self.curve_g = K.g_values(self.lb, self.rho, curve_p, curve_r)
        self.best = self.curve_g.max(axis=1)
        self.choice = np.argmax(self.curve_g >= self.best[:, None] - K.TIE, axis=1)
        cp, cr = candidate_points(curve_p, curve_r)
        self.cand_p, self.cand_r = cp, cr
        self.pair_i, self.pair_j = candidate_pairs(cp, cr)
        self._key = (tuple(cp), tuple(cr), pairwise_lambda)

    def _matrices(self) -> tuple[FloatArray, FloatArray]:
        return _pair_matrices(*self._key)

    def weights(self) -> FloatArray:
        """Normalised posterior weights."""
        return K.normalise(self.log_w)

    # ------------------------------------------------------------------ answers
    def _apply(self, margin: FloatArray, lam: float) -> bool:
        """Weigh by one answer; False (and the region unchanged) if it empties the feasible region.

        The feasible region keeps the hypotheses within ``slack(lam)`` of agreeing with
        every accepted answer (exactly agreeing for noiseless answers).
        """
        consistent = margin >= -slack(lam)
        inside = self.feasible & consistent
        accepted = bool(inside.any())
        if accepted:
            self.feasible = inside
        if accepted or np.isfinite(lam):
            self.log_w = self.log_w + K.log_likelihood(margin, lam)
        return accepted

    def apply_local(self, question: LocalQuestion, answer: str) -> bool:
        """A local answer, with its meaning for every rho."""
        return self._apply(local_margin(self.lb, self.rho, question.ratio, answer), self.local_lam)

    def apply_pairwise(self, question: PairwiseQuestion, answer: str) -> bool:
        """A pairwise answer: margin ``G(chosen) - G(other)`` for every hypothesis."""
        ga = np.exp(K.log_g(self.lb, self.rho, *question.a))
        gb = np.exp(K.log_g(self.lb, self.rho, *question.b))
        return self._apply(ga - gb if answer == "a" else gb - ga, self.lam)

    # ------------------------------------------------------------------ selection
    def information_gain(self) -> FloatArray:
        """Expected information gain (nats) of every candidate pair under the current posterior."""
        s_t, h_t = self._matrices()  # pairs x hypotheses
        w = self.weights()
        w = np.where(w > PRUNE, w, 0.0)  # the others add less than PRUNE * |grid| to any sum
        p_a = np.clip(s_t @ w, 0.0, 1.0)
        return K.binary_entropy(p_a) - h_t @ w

    def next_question(self) -> PairwiseQuestion | None:
        """The pair of largest expected information gain (first within the tie tolerance), or
        ``None`` when no candidate pair can change the posterior."""
        if not len(self.pair_i):
            return None
        gain = self.information_gain()
        k = K.first_best(gain)
        if gain[k] <= K.TIE:
            return None
        i, j = int(self.pair_i[k]), int(self.pair_j[k])
        return PairwiseQuestion((float(self.cand_p[i]), float(self.cand_r[i])),
                                (float(self.cand_p[j]), float(self.cand_r[j])))

    # ------------------------------------------------------------------ summaries
    def plausible(self) -> np.ndarray:
        """Indices of the 95 % highest-posterior region (cells tied with the last one included)."""
        w = self.weights()
        order = np.argsort(-w, kind="stable")
        c = np.cumsum(w[order])
        last = int(np.flatnonzero(c >= CREDIBLE_MASS - K.TIE)[0])
        return np.sort(np.flatnonzero(w >= w[order[last]] * (1.0 - 1e-9)))

    def decision_losses(self, region: np.ndarray) -> dict[int, float]:
        """For each curve point chosen by some plausible hypothesis, its worst loss over the region."""
        chosen = np.unique(self.choice[region])
        best = self.best[region]
        return {int(j): float(np.max(best - self.curve_g[region, j])) for j in chosen}

    def loss_of(self, j: int, region: np.ndarray) -> float:
        """Worst loss of curve point ``j`` over the hypotheses of ``region``."""
        return float(np.max(self.best[region] - self.curve_g[region, j]))

    def stable(self, tolerance: float) -> bool:
        """Whether every plausible choice loses at most ``tolerance`` under every plausible hypothesis."""
        losses = self.decision_losses(self.plausible())
        return max(losses.values()) <= tolerance

    def estimate(self) -> tuple[float, float]:
        """Posterior means of log beta and rho."""
        w = self.weights()
        return float(w @ self.lb), float(w @ self.rho)

    def spread(self) -> tuple[float, float]:
        """Posterior standard deviations of log beta and rho."""
        w = self.weights()
        mlb, mrho = self.estimate()
        return (math.sqrt(max(float(w @ (self.lb - mlb) ** 2), 0.0)),
                math.sqrt(max(float(w @ (self.rho - mrho) ** 2), 0.0)))

    def mode(self) -> tuple[float, float]:
        """The grid hypothesis of largest posterior weight (first within the tie tolerance)."""
        k = K.first_best(self.weights())
        return float(self.lb[k]), float(self.rho[k])

    def feasible_fraction(self) -> float:
        """Share of the grid consistent with every accepted answer taken as noiseless."""
        return float(self.feasible.mean())
