r"""Pairwise comparisons for (beta, rho): "which of these two models would you rather deploy?"

A posterior over a fixed (log beta, rho) grid (``_kernel.pairwise_grid``, uniform prior)
is weighted by each answer "A over B" with the logistic likelihood
:math:`\sigma(\lambda (G_{\beta,\rho}(A) - G_{\beta,\rho}(B)))` (``docs/elicitation.md``); with
:math:`\lambda = \infty` it is the indicator of the exact feasible region
:math:`\{(\beta, \rho): G(A) > G(B)\}`. The feasible region of the answers taken as
noiseless is kept beside the posterior whatever lambda is: an answer that would empty it is
a contradiction, reported and left out of the region.

The next pair maximises the expected information gain between the answer and (beta, rho)
among the candidate pairs (for noiseless answers: the split of the posterior closest to
half): a fixed 5 x 5 grid of synthetic points and up to 12 operating points of the user's
own curve, and, new at every question, pairs of points on the level curves of the current
estimate (so the questions never run out, and each cuts the posterior through its centre).
A pair where one point is at least as good in both precision and recall is never asked. The
session stops when the decision no longer depends on the remaining uncertainty: the point
the estimate picks on the user's curve loses more than ``tolerance`` of the true metric's
best with posterior probability at most 1 %, and the posterior is not at an edge of the box.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.html import summarised
from .._typing import FloatArray
from ..exceptions import InvalidParameterError
from . import _kernel as K
from .local import LocalQuestion, check_options, check_point, named

#: The synthetic candidate points: precision and recall in {0.1, 0.3, 0.5, 0.7, 0.9}.
SYNTHETIC_LEVELS = (0.1, 0.3, 0.5, 0.7, 0.9)
#: At most this many points of the user's curve are candidates.
N_CURVE_CANDIDATES = 12
#: At most this many Pareto points of the user's curve make the decision curve.
MAX_CURVE = 256
#: Hypotheses of normalised weight at most this are left out of the information-gain sums.
PRUNE = 1e-15
#: Mass of the plausible (highest posterior) region (the reported ranges and worst loss).
CREDIBLE_MASS = 0.95
#: The stopping rule: the pick may lose more than the tolerance with posterior probability at most this.
STOP_RISK = 0.01


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
        with named("PairwiseQuestion"):  # wherever it is built (a transcript read by replay too), as always
            check_options(self.options, ("a", "b"))
            for name in ("a", "b"):
                point = getattr(self, name)
                if isinstance(point, (str, bytes)) or not hasattr(point, "__len__") or len(point) != 2:
                    raise InvalidParameterError(
                        f"PairwiseQuestion: `{name}` must be a point (precision, recall); got "
                        f"{point!r}; pass e.g. PairwiseQuestion((0.9, 0.4), (0.6, 0.8))."
                    )
                object.__setattr__(self, name, check_point(point[0], point[1], f"{name}."))

    @property
    def text(self) -> str:
        """The question in plain words."""
        (pa, ra), (pb, rb) = self.a, self.b
        return (
            f"Model A: precision {pa:.1%}, recall {ra:.1%}. Model B: precision {pb:.1%}, recall {rb:.1%}. "
            "Which would you rather deploy?"
        )

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


#: The levels of G and the recalls of the level-curve candidates (section 7 of docs/elicitation.md).
LEVEL_VALUES = (0.2, 0.4, 0.6, 0.8)
LEVEL_RECALLS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
#: The information gains of this many posteriors are kept (``JointPosterior.information_gain``), each by
#: what it is a function of: the candidate points, the two lambdas, the box and the answers in order. A
#: session answered again from its transcript (``replay``, ``engine_trace``) computes none twice, nor do
#: sessions that start alike (the first pairwise question on a curve).
GAIN_MEMO = 256
_GAINS: OrderedDict[tuple[Any, ...], tuple[FloatArray, tuple[FloatArray, ...]]] = OrderedDict()
_GAINS_LOCK = threading.Lock()
#: Bisection steps that put a candidate on a level curve, and its lowest precision.
LEVEL_STEPS, LEVEL_P_MIN = 60, 1e-3
#: The level-curve candidates' precision is rounded to 1 / LEVEL_ROUND.
LEVEL_ROUND = 1e9
#: Sub-samples per side of a cell when the cell samples hold no point of the noiseless region.
REFINE = 8
#: Weight of a cell of the noiseless region none of whose samples agrees with every answer at once
#: (against 1 per sample that does): the region keeps it, the posterior nearly drops it.
EMPTY_CELL = 0.01
#: How far past the rho = RHO_MIN edge the decision is checked (mass there is at the edge only if it matters).
RHO_EDGE_STEP = 4.0


@functools.lru_cache(maxsize=4)
def _pair_matrices(
    cand_p: tuple[float, ...], cand_r: tuple[float, ...], lam: float, beta_range: tuple[float, float]
) -> tuple[FloatArray, FloatArray]:
    """For every fixed candidate pair (rows) and hypothesis (columns): P(answer "a") and its binary entropy
    (computed once per candidate set, lambda and box; read-only, shared by the sessions that use them)."""
    lb, rho = K.pairwise_grid(beta_range)
    p, r = np.asarray(cand_p), np.asarray(cand_r)
    i, j = candidate_pairs(p, r)
    g_t = np.ascontiguousarray(K.g_values(lb, rho, p, r, K.Hypotheses(lb, rho)).T)
    s_t, h_t = K.pair_likelihood_rows(g_t, i, j, lam)  # K.pair_likelihoods' doubles, row by row
    _read_only(s_t, h_t)
    return s_t, h_t


def _read_only(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.flags.writeable = False


@functools.lru_cache(maxsize=2)
def _grid_terms(beta_range: tuple[float, float]) -> tuple[Any, ...]:
    """The box's axes, grid and cell samples and the hypotheses' own terms of both (computed once per box;
    read-only, shared by the sessions on that box)."""
    lb_axis, rho_axis = K.pairwise_axes(beta_range)
    lb, rho = K.pairwise_grid(beta_range)
    lb_fine, rho_fine = np.meshgrid(K.cell_samples(lb_axis), K.cell_samples(rho_axis), indexing="ij")
    _read_only(lb_axis, rho_axis, lb, rho, lb_fine, rho_fine)
    grid = K.Hypotheses(lb, rho, (K.N_LOG_BETA, K.N_RHO))
    fine = K.Hypotheses(lb_fine, rho_fine)
    return lb_axis, rho_axis, lb, rho, lb_fine, rho_fine, grid, fine


@functools.lru_cache(maxsize=4)  # as _pair_matrices: the same sessions use both
def _curve_terms(curve_p: bytes, curve_r: bytes, beta_range: tuple[float, float]) -> tuple[FloatArray, ...]:
    """G of every grid hypothesis (rows) at every point of the decision curve (columns, its doubles' bytes),
    each hypothesis' best G and the first point within the tie tolerance of it (computed once per curve and
    box; read-only, shared)."""
    p, r = np.frombuffer(curve_p, dtype=np.float64), np.frombuffer(curve_r, dtype=np.float64)
    _, _, lb, rho, _, _, grid, _ = _grid_terms(beta_range)
    curve_g = K.g_values(lb, rho, p, r, grid)
    best = curve_g.max(axis=1)
    choice = np.argmax(curve_g >= best[:, None] - K.TIE, axis=1)
    _read_only(curve_g, best, choice)
    return curve_g, best, choice


def _log_g_at_recalls(h: K.Hypotheses, recall: FloatArray) -> Callable[[FloatArray], FloatArray]:
    """``precision -> h.log_g(precision, recall)`` for a flat set of one hypothesis repeated (the level
    candidates' bisection): the terms of the recalls computed once, then :func:`_kernel.log_g`'s operations
    on the precisions, in its order (the same doubles)."""
    w, wc, e = h.w, h.wc, h.e_c
    lr = np.log(recall)
    if h.any_zero:  # rho = 0 (then every hypothesis): the stipulated mean
        beta = h.beta_zero
        return lambda precision: np.log((beta * precision + recall) / (1.0 + beta))
    if h.any_pole:  # rho = -1: the weighted geometric mean
        tail = wc * lr
        return lambda precision: w * np.log(precision) + tail
    tail = wc * np.expm1(e * lr)

    def log_g(precision: FloatArray) -> FloatArray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.log1p(w * np.expm1(e * np.log(precision)) + tail) / e

    return log_g


def level_candidates(log_beta: float, rho: float) -> tuple[FloatArray, FloatArray, np.ndarray, np.ndarray]:
    """Points on the level curves ``G = LEVEL_VALUES`` of the estimate at ``LEVEL_RECALLS`` and their pairs.

    Each point's precision is found by ``LEVEL_STEPS`` bisections of ``[LEVEL_P_MIN, 1]`` (G rises
    with P); a recall whose level is out of reach is skipped. Pairs: two points of the same level
    (i < j), so the estimate is on the boundary of every pair's answer: each answer cuts the
    posterior through its centre, wherever it has shrunk to (the questions never run out).
    """
    levels = np.repeat(np.asarray(LEVEL_VALUES), len(LEVEL_RECALLS))
    r = np.tile(np.asarray(LEVEL_RECALLS), len(LEVEL_VALUES))
    groups = np.repeat(np.arange(len(LEVEL_VALUES)), len(LEVEL_RECALLS))
    h = K.Hypotheses(np.full(len(r), log_beta), np.full(len(r), rho))
    reach = (np.exp(h.log_g(1.0, r)) >= levels) & (np.exp(h.log_g(LEVEL_P_MIN, r)) < levels)
    levels, r, groups, h = levels[reach], r[reach], groups[reach], h.take(reach)
    g = _log_g_at_recalls(h, r)
    lo, hi = np.full(len(r), LEVEL_P_MIN), np.ones(len(r))
    for _ in range(LEVEL_STEPS):
        mid = (lo + hi) / 2.0
        up = np.exp(g(mid)) >= levels
        hi, lo = np.where(up, mid, hi), np.where(up, lo, mid)
    ps, rs = np.floor(hi * LEVEL_ROUND + 0.5) / LEVEL_ROUND, r  # 9 decimals: both engines write the same question
    i, j = np.triu_indices(len(groups), k=1)
    same = groups[i] == groups[j]
    return ps, rs, i[same], j[same]


def answer_margin(
    kind: str, question: Any, answer: str, lb: FloatArray, rho: FloatArray, hyp: K.Hypotheses | None = None
) -> FloatArray:
    """The margin of an answer (positive: the hypothesis agrees), in units of G, for hypotheses ``(lb, rho)``
    (``hyp``: their terms, if computed already)."""
    h = K.Hypotheses(lb, rho) if hyp is None else hyp
    if kind == "local":
        m = h.local_g_margin(question.precision, question.recall)
        return m if answer == "recall" else -m
    d = np.exp(h.log_g(*question.a)) - np.exp(h.log_g(*question.b))
    return d if answer == "a" else -d


class JointPosterior:
    """The posterior over the (log beta, rho) grid and the feasible region of the answers.

    Every answer, local or pairwise, has a margin in units of G (:func:`answer_margin`) and the
    logistic likelihood ``sigma(lambda margin)``. Each grid point stands for its cell; a cell
    stays in a region while one of its 3 x 3 samples (corners, edge midpoints, centre) agrees
    with each answer, so a (beta, rho) consistent with the answers never leaves it. Noiseless
    answers (lambda = inf) make the posterior uniform on their region; an answer that leaves no
    point consistent with them all (searched on the cell samples, then ``REFINE`` x ``REFINE``
    inside each cell) is a contradiction, reported with the answers it clashes with.

    Parameters
    ----------
    curve_p, curve_r : ndarray
        The decision curve (Pareto points of the user's model), by decreasing recall.
    pairwise_lambda, local_lambda : float
        Sharpness of the logistic likelihoods (``inf``: noiseless answers).
    beta_range : tuple of float, default=(0.05, 20)
        The box's beta range.
    """

    def __init__(
        self,
        curve_p: FloatArray,
        curve_r: FloatArray,
        pairwise_lambda: float,
        local_lambda: float,
        beta_range: tuple[float, float] = K.BETA_RANGE,
    ) -> None:
        box = tuple(beta_range)
        grid = _grid_terms(box)
        self.lb_axis, self.rho_axis, self.lb, self.rho, self.lb_fine, self.rho_fine = grid[:6]
        self._grid, self._fine = grid[6:]  # the hypotheses' own terms, for every answer and question
        self.lam, self.local_lam = pairwise_lambda, local_lambda
        self.log_w = np.zeros_like(self.lb)
        self.feasible = np.ones(self.lb.shape, dtype=bool)
        self.hard = np.ones(self.lb.shape, dtype=bool)
        self.fine_ok = np.ones(self.lb_fine.shape, dtype=bool)  # cell samples agreeing with every noiseless answer
        self.hard_w = np.zeros_like(self.lb)  # log weight of each cell from the noiseless answers
        self.hard_answers: list[tuple[int, str, Any, str]] = []  # (step, kind, question, answer)
        self.witness: tuple[float, float] | None = None
        self._weights: FloatArray | None = None  # weights() and estimate() until the next answer
        self._estimate: tuple[float, float] | None = None
        self._pick: int | None = None  # pick() until the next answer
        self._answers: tuple[tuple[str, Any, str], ...] = ()  # (kind, question, answer) of every answer weighed
        self.curve_p = np.asarray(curve_p, dtype=np.float64)
        self.curve_r = np.asarray(curve_r, dtype=np.float64)
        self.curve_g, self.best, self.choice = _curve_terms(self.curve_p.tobytes(), self.curve_r.tobytes(), box)
        self._loss: tuple[int, FloatArray] | None = None  # the last pick and best - G of it
        cp, cr = candidate_points(self.curve_p, self.curve_r)
        self.cand_p, self.cand_r = cp, cr
        self.pair_i, self.pair_j = candidate_pairs(cp, cr)
        self._key = (tuple(cp), tuple(cr), pairwise_lambda, box)
        self.last_clash: tuple[int, ...] = ()

    def weights(self) -> FloatArray:
        """Normalised posterior weights: the noisy answers' likelihoods at the cell centres times, for the
        noiseless answers, the cell's samples that agree with all of them (``EMPTY_CELL`` where none
        does), 0 outside their region: the noiseless posterior is about uniform on the exact region (read-only)."""
        if self._weights is None:
            w = K.normalise(np.where(self.hard, self.log_w + self.hard_w, -np.inf))
            w.flags.writeable = False
            self._weights = w
        return self._weights

    # ------------------------------------------------------------------ answers
    def _holds(self, lb: FloatArray, rho: FloatArray, extra: tuple[str, Any, str]) -> np.ndarray:
        """Whether each point agrees strictly (margin > TIE) with every noiseless answer and ``extra``
        (a point where two opposite answers tie is no witness: "a" then "b" on one pair contradict)."""
        ok = np.ones(lb.shape, dtype=bool)
        h = K.Hypotheses(lb, rho)
        for kind, q, a in [(k, q, a) for _, k, q, a in self.hard_answers] + [extra]:
            ok &= answer_margin(kind, q, a, lb, rho, h) > K.TIE
        return ok

    def _find_witness(self, cells: np.ndarray, extra: tuple[str, Any, str]) -> tuple[float, float] | None:
        """A point of ``cells`` agreeing with every noiseless answer and ``extra``: the first cell sample
        (cells in order, samples row by row), else the first of ``REFINE`` x ``REFINE`` inside a cell."""
        if self.witness is not None and self._holds(np.array([self.witness[0]]), np.array([self.witness[1]]), extra)[0]:
            return self.witness
        ci, cj = np.divmod(np.flatnonzero(cells), K.N_RHO)
        offs = np.arange(3)
        fi = (2 * ci[:, None, None] + offs[None, :, None]).repeat(3, axis=2).ravel()
        fj = (2 * cj[:, None, None] + offs[None, None, :]).repeat(3, axis=1).ravel()
        lb, rho = self.lb_fine[fi, fj], self.rho_fine[fi, fj]
        ok = np.flatnonzero(self._holds(lb, rho, extra))
        if len(ok):
            return float(lb[ok[0]]), float(rho[ok[0]])
        hl = (self.lb_axis[-1] - self.lb_axis[0]) / (K.N_LOG_BETA - 1)
        hr = (self.rho_axis[-1] - self.rho_axis[0]) / (K.N_RHO - 1)
        u = (np.arange(REFINE) + 0.5) / REFINE - 0.5
        lb = (self.lb_axis[ci][:, None, None] + hl * u[None, :, None]).repeat(REFINE, axis=2).ravel()
        rho = (self.rho_axis[cj][:, None, None] + hr * u[None, None, :]).repeat(REFINE, axis=1).ravel()
        ok = np.flatnonzero(self._holds(lb, rho, extra))
        return (float(lb[ok[0]]), float(rho[ok[0]])) if len(ok) else None

    def _clashes(self, extra: tuple[str, Any, str]) -> tuple[int, ...]:
        """The earlier noiseless answers that, each alone with ``extra``, leave no cell sample agreeing."""
        out = []
        lb, rho, h = self.lb_fine, self.rho_fine, self._fine
        new = answer_margin(*extra, lb, rho, h).ravel() > K.TIE
        for step, kind, q, a in self.hard_answers:
            if not np.any(new & (answer_margin(kind, q, a, lb, rho, h).ravel() > K.TIE)):
                out.append(step)
        return tuple(out)

    def apply(self, step: int, kind: str, question: Any, answer: str) -> bool:
        """Weigh by one answer; False (and the regions unchanged) if no hypothesis agrees with it and
        the earlier answers (``last_clash`` then names the answers it clashes with)."""
        lam = self.local_lam if kind == "local" else self.lam
        fine = answer_margin(kind, question, answer, self.lb_fine, self.rho_fine, self._fine)
        cell_ok = K.any_in_cell(fine >= -slack(lam)).ravel()
        inside = self.feasible & cell_ok
        accepted = bool(inside.any())
        self.last_clash = ()
        self._weights, self._estimate, self._pick = None, None, None
        self._answers += ((kind, question, answer),)
        if accepted and math.isinf(lam):
            witness = self._find_witness(self.hard & cell_ok, (kind, question, answer))
            accepted = witness is not None
            if accepted:
                self.witness = witness
                self.hard = self.hard & cell_ok
                self.hard_answers.append((step, kind, question, answer))
                self.fine_ok = self.fine_ok & (fine >= -K.TIE)
                self.hard_w = np.log(K.count_in_cell(self.fine_ok).ravel() + EMPTY_CELL)
        if accepted:
            self.feasible = inside
        else:
            self.last_clash = self._clashes((kind, question, answer))
        if not math.isinf(lam):
            # the grid points are the cell samples' centres, their margins the same doubles (elementwise)
            margin = fine[1::2, 1::2].ravel()
            self.log_w = self.log_w + K.log_likelihood(margin, lam)
        return accepted

    def apply_local(self, question: LocalQuestion, answer: str, step: int = -1) -> bool:
        """A local answer, with its meaning for every rho."""
        return self.apply(step, "local", question, answer)

    def apply_pairwise(self, question: PairwiseQuestion, answer: str, step: int = -1) -> bool:
        """A pairwise answer: margin ``G(chosen) - G(other)`` for every hypothesis."""
        return self.apply(step, "pairwise", question, answer)

    def contains(self, beta: float, rho: float) -> bool:
        """Whether (beta, rho) agrees with every accepted noiseless answer (the exact region)."""
        lb, rh = np.array([math.log(beta)]), np.array([float(rho)])
        ok = np.ones(1, dtype=bool)
        for _, kind, q, a in self.hard_answers:
            ok &= answer_margin(kind, q, a, lb, rh) >= -K.TIE
        return bool(ok[0])

    # ------------------------------------------------------------------ selection
    def information_gain(self) -> tuple[FloatArray, tuple[FloatArray, ...]]:
        """Expected information gain (nats) of every candidate pair under the current posterior, and the
        pairs' points ``(P_A, R_A, P_B, R_B)``: the fixed pool's pairs, then the level-curve pairs of the estimate
        (read-only; computed once for the same candidates, lambdas, box and answers: see ``GAIN_MEMO``)."""
        key = (self._key, self.local_lam, self._answers)
        with _GAINS_LOCK:
            hit = _GAINS.get(key)
            if hit is not None:
                _GAINS.move_to_end(key)
                return hit
        out = self._information_gain()
        _read_only(out[0], *out[1])
        with _GAINS_LOCK:
            _GAINS[key] = out
            while len(_GAINS) > GAIN_MEMO:
                _GAINS.popitem(last=False)
        return out

    def _information_gain(self) -> tuple[FloatArray, tuple[FloatArray, ...]]:
        w_all = self.weights()
        w_all = np.where(w_all > PRUNE, w_all, 0.0)  # the others add less than PRUNE * |grid| to any sum
        active = np.flatnonzero(w_all)
        w = w_all[active]
        lp, lr, li, lj = level_candidates(*self.estimate())
        s, h = K.pair_likelihoods(self._grid.take(active), lp, lr, li, lj, self.lam)
        s_t, h_t = _pair_matrices(*self._key)
        p_a = np.clip(np.concatenate([s_t @ w_all, w @ s]), 0.0, 1.0)
        hb = np.concatenate([h_t @ w_all, w @ h])
        pairs = (
            np.concatenate([self.cand_p[self.pair_i], lp[li]]),
            np.concatenate([self.cand_r[self.pair_i], lr[li]]),
            np.concatenate([self.cand_p[self.pair_j], lp[lj]]),
            np.concatenate([self.cand_r[self.pair_j], lr[lj]]),
        )
        return K.binary_entropy(p_a) - hb, pairs

    def next_question(self) -> PairwiseQuestion | None:
        """The pair of largest expected information gain (first within the tie tolerance), or
        ``None`` when no candidate pair can change the posterior."""
        gain, (ap, ar, bp, br) = self.information_gain()
        if not len(gain):
            return None
        k = K.first_best(gain)
        if gain[k] <= K.TIE:
            return None
        return PairwiseQuestion((float(ap[k]), float(ar[k])), (float(bp[k]), float(br[k])))

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

    def pick(self) -> int:
        """The decision curve's point that G at the posterior means prefers (first within the tie tolerance)."""
        if self._pick is None:
            lb, rho = self.estimate()
            n = len(self.curve_p)
            self._pick = K.first_best(np.exp(K.log_g(np.full(n, lb), np.full(n, rho), self.curve_p, self.curve_r)))
        return self._pick

    def risk(self, tolerance: float) -> float:
        """Posterior probability that :meth:`pick` loses more than ``tolerance`` against the true metric's best."""
        j = self.pick()
        if self._loss is None or self._loss[0] != j:
            self._loss = (j, self.best - self.curve_g[:, j])
        loss = self._loss[1]
        return float(np.sum(np.where(loss > tolerance, self.weights(), 0.0)))

    def stable(self, tolerance: float) -> bool:
        """Whether the pick loses more than ``tolerance`` with posterior probability at most ``STOP_RISK``."""
        return self.risk(tolerance) <= STOP_RISK + K.TIE

    def edges(self, tolerance: float) -> list[str]:
        """The edges of the box where the posterior has mass ``> 1 - CREDIBLE_MASS``: beta's two ends and rho's
        upper end (the outermost cells), rho's lower end (the cells of rho = RHO_MIN where, ``RHO_EDGE_STEP``
        past it, the pick loses more than ``tolerance``: below rho = -8 G changes little, so mass there
        often does not matter)."""
        w = self.weights().reshape(K.N_LOG_BETA, K.N_RHO)
        edge = 1.0 - CREDIBLE_MASS
        out = []
        if float(np.sum(w[0])) > edge:
            out.append(f"beta = {math.exp(self.lb_axis[0]):.3g} (its lower end)")
        if float(np.sum(w[-1])) > edge:
            out.append(f"beta = {math.exp(self.lb_axis[-1]):.3g} (its upper end)")
        if float(np.sum(w[:, -1])) > edge:
            out.append(f"rho = {self.rho_axis[-1]:g} (its upper end)")
        if float(np.sum(w[:, 0])) > edge:
            g = K.g_values(self.lb_axis, np.full(K.N_LOG_BETA, K.RHO_MIN - RHO_EDGE_STEP), self.curve_p, self.curve_r)
            loses = g.max(axis=1) - g[:, self.pick()] > tolerance
            if float(np.sum(np.where(loses, w[:, 0], 0.0))) > edge:
                out.append(f"rho = {K.RHO_MIN:g} (its lower end)")
        return out

    def estimate(self) -> tuple[float, float]:
        """Posterior means of log beta and rho."""
        if self._estimate is None:
            w = self.weights()
            self._estimate = float(w @ self.lb), float(w @ self.rho)
        return self._estimate

    def spread(self) -> tuple[float, float]:
        """Posterior standard deviations of log beta and rho."""
        w = self.weights()
        mlb, mrho = self.estimate()
        return (
            math.sqrt(max(float(w @ (self.lb - mlb) ** 2), 0.0)),
            math.sqrt(max(float(w @ (self.rho - mrho) ** 2), 0.0)),
        )

    def log_beta_quantile(self, q: float) -> float:
        """The ``q`` quantile of log beta's marginal, each cell's mass spread evenly over its width."""
        w = self.weights().reshape(K.N_LOG_BETA, K.N_RHO).sum(axis=1)
        c = np.cumsum(w)
        k = int(np.flatnonzero(c >= q - K.TIE)[0])
        h = (self.lb_axis[-1] - self.lb_axis[0]) / (K.N_LOG_BETA - 1)
        before = float(c[k] - w[k])
        frac = min(max((q - before) / float(w[k]), 0.0), 1.0) if w[k] > 0 else 0.5
        return float(self.lb_axis[k] - h / 2.0 + h * frac)

    def mode(self) -> tuple[float, float]:
        """The grid hypothesis of largest posterior weight (first within the tie tolerance)."""
        k = K.first_best(self.weights())
        return float(self.lb[k]), float(self.rho[k])

    def feasible_fraction(self) -> float:
        """Share of the grid's cells that hold a point consistent with every accepted answer taken as noiseless."""
        return float(self.feasible.mean())
