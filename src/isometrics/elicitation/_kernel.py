"""The portable arithmetic of the question engine: grids, G in logs, the logistic likelihood.

Everything here is written so that a second implementation (the interactive page's
JavaScript) reproduces it to 1e-9 from ``docs/elicitation.md``: grids are built from
integers by one multiplication and one division per point, G is evaluated with one
formula (``log1p``/``expm1``), and every choice among near-equal values takes the first
in a documented order (``TIE``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._typing import FloatArray

#: Scores, weights or values closer than this are ties; the first in order wins.
TIE = 1e-12

#: Half-width of the log-beta range of every grid: beta in [1/20, 20].
LOG_BETA_MAX = math.log(20.0)

#: The rho range of the pairwise grid (rho = -1 and rho = 0 are grid points).
RHO_MIN, RHO_MAX = -8.0, 4.0

#: Grid sizes: local (log beta only) and pairwise (log beta x rho).
N_LOCAL = 2001
N_LOG_BETA = 161
N_RHO = 121


def grid(low: float, high: float, n: int) -> FloatArray:
    """``(low * (n - 1 - k) + high * k) / (n - 1)`` for k = 0..n-1 (exact ends, portable)."""
    k = np.arange(n, dtype=np.float64)
    return (low * (n - 1 - k) + high * k) / (n - 1)


#: The default beta range of the hypothesis box.
BETA_RANGE = (0.05, 20.0)

#: The gain ``delta`` of a local question: at (P, R), *recall* is the pairwise answer "(P, R + delta)
#: over (P + delta, R)", to first order ``delta (dG/dR - dG/dP)`` (one likelihood for every answer).
LOCAL_DELTA = 0.05


def log_beta_range(beta_range: tuple[float, float] = BETA_RANGE) -> tuple[float, float]:
    """``(ln low, ln high)``; a range symmetric in logs (``low * high == 1``) gives exactly ``(-ln high, ln high)``."""
    low, high = beta_range
    top = math.log(high)
    return (-top if low * high == 1.0 else math.log(low)), top


def local_grid(beta_range: tuple[float, float] = BETA_RANGE) -> FloatArray:
    """The log-beta grid of the local questions."""
    return grid(*log_beta_range(beta_range), N_LOCAL)


def pairwise_axes(beta_range: tuple[float, float] = BETA_RANGE) -> tuple[FloatArray, FloatArray]:
    """The log-beta axis (``N_LOG_BETA``) and the rho axis (``N_RHO``) of the pairwise grid."""
    return grid(*log_beta_range(beta_range), N_LOG_BETA), grid(RHO_MIN, RHO_MAX, N_RHO)


def pairwise_grid(beta_range: tuple[float, float] = BETA_RANGE) -> tuple[FloatArray, FloatArray]:
    """The hypotheses of the pairwise posterior, flattened: ``log_beta``, ``rho`` (rho varies fastest)."""
    lb, rho = pairwise_axes(beta_range)
    return np.repeat(lb, N_RHO), np.tile(rho, N_LOG_BETA)


def cell_samples(axis: FloatArray) -> FloatArray:
    """The sample points of the cells of a grid axis: cell k covers ``axis[k] -+ h/2`` and is sampled at
    ``2k`` (its lower end), ``2k + 1`` (its centre, the grid point itself) and ``2k + 2`` (its upper end)."""
    n = len(axis)
    h = (axis[-1] - axis[0]) / (n - 1)
    out = np.empty(2 * n + 1, dtype=np.float64)
    out[1::2] = axis
    out[0:-1:2] = axis - h / 2.0
    out[-1] = axis[-1] + h / 2.0
    return out


def any_in_cell(ok: np.ndarray) -> np.ndarray:
    """From a boolean ``(2 n + 1, 2 m + 1)`` array of the cell samples, whether each of the ``n x m`` cells
    has one sample where it is true (the 3 x 3 samples of a cell: its corners, edge midpoints and centre)."""
    rows = ok[0:-2:2] | ok[1:-1:2] | ok[2::2]
    return rows[:, 0:-2:2] | rows[:, 1:-1:2] | rows[:, 2::2]


def count_in_cell(ok: np.ndarray) -> np.ndarray:
    """Like :func:`any_in_cell`, the number (0 to 9) of each cell's samples where ``ok`` is true."""
    o = ok.astype(np.float64)
    rows = o[0:-2:2] + o[1:-1:2] + o[2::2]
    return rows[:, 0:-2:2] + rows[:, 1:-1:2] + rows[:, 2::2]


class Hypotheses:
    """The hypotheses' own terms of :func:`log_g` and :func:`local_g_margin`, computed once for arrays of
    hypotheses ``(log_beta, rho)`` and reused at every point (the same expressions as there, so the same
    doubles): ``e = rho + 1``, ``x = rho ln beta``, the weights ``w``, ``w'``, and where rho = 0 or e = 0.

    ``grid``: the 2-d shape of a flat grid (rho varying fastest). Where each column of a 2-d set holds one
    rho (a meshgrid), the terms of rho alone are kept once per column and broadcast (the same doubles).
    """

    def __init__(self, log_beta: Any, rho: Any, grid: tuple[int, int] | None = None) -> None:
        log_beta, rho = np.broadcast_arrays(np.asarray(log_beta, dtype=np.float64), np.asarray(rho, dtype=np.float64))
        self.out_shape = log_beta.shape
        if grid is not None:
            log_beta, rho = log_beta.reshape(grid), rho.reshape(grid)
        self.log_beta, self.rho, self.shape = log_beta, rho, log_beta.shape
        by_column = rho.ndim == 2 and len(rho) > 1 and bool(np.all(rho.view(np.int64) == rho[:1].view(np.int64)))
        self.rho_c = rho[:1] if by_column else rho  # rho, once per column where it can be
        self.e_c = self.rho_c + 1.0
        self.x = rho * log_beta
        self.w, self.wc = 1.0 / (1.0 + np.exp(-self.x)), 1.0 / (1.0 + np.exp(self.x))
        self._masks()
        self._local: tuple[FloatArray, ...] | None = None

    def _masks(self) -> None:
        # the stipulated rho = 0 and the geometric mean (e = 0), and beta where rho = 0
        self.zero = np.broadcast_to(self.rho_c == 0.0, self.shape)
        self.pole = np.broadcast_to(self.e_c == 0.0, self.shape)
        self.any_zero, self.any_pole = bool(self.zero.any()), bool(self.pole.any())
        self.beta_zero = np.exp(self.log_beta[self.zero])  # elementwise: the doubles of exp over the whole grid

    def take(self, index: Any) -> Hypotheses:
        """The flat set of the hypotheses ``index`` (of the flattened set), their terms taken, not recomputed."""
        out = object.__new__(Hypotheses)
        out.log_beta, out.rho = self.log_beta.ravel()[index], self.rho.ravel()[index]
        out.out_shape = out.shape = out.log_beta.shape
        out.rho_c, out.e_c = out.rho, out.rho + 1.0
        out.x, out.w, out.wc = self.x.ravel()[index], self.w.ravel()[index], self.wc.ravel()[index]
        out._masks()
        out._local = None
        return out

    def flat(self) -> Hypotheses:
        """These hypotheses as a flat set (themselves if they are one)."""
        return self if self.rho.ndim == 1 and self.e_c.shape == self.shape else self.take(slice(None))

    def log_g(self, precision: Any, recall: Any) -> FloatArray:
        """:func:`log_g` of these hypotheses at one point (or at points broadcast with them)."""
        out = self._log_g(precision, recall)
        return out.reshape(self.out_shape) if out.shape == self.shape else out

    def _log_g(self, precision: Any, recall: Any) -> FloatArray:
        lp, lr = np.log(precision), np.log(recall)
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.log1p(self.w * np.expm1(self.e_c * lp) + self.wc * np.expm1(self.e_c * lr)) / self.e_c
        if not isinstance(out, np.ndarray) or out.shape != self.shape:  # points of another shape: np.where
            out = np.where(self.pole, self.w * lp + self.wc * lr, out)
            beta = np.exp(self.log_beta)
            return np.where(self.zero, np.log((beta * precision + recall) / (1.0 + beta)), out)
        if self.any_pole:
            m = self.pole
            out[m] = self.w[m] * _at(lp, m) + self.wc[m] * _at(lr, m)
        if self.any_zero:
            m, beta = self.zero, self.beta_zero
            out[m] = np.log((beta * _at(precision, m) + _at(recall, m)) / (1.0 + beta))
        return out

    def local_g_margin(self, precision: float, recall: float) -> FloatArray:
        """:func:`local_g_margin` of these hypotheses (its operations in its order, in place)."""
        if self._local is None:
            beta = self.beta_zero
            self._local = (log_sigmoid(self.x), log_sigmoid(-self.x), -self.rho_c, (1.0 - beta) / (1.0 + beta))
        lw, lwc, neg_rho, at_zero = self._local
        lp, lr = math.log(precision), math.log(recall)
        base = self._log_g(precision, recall)
        np.multiply(neg_rho, base, out=base)  # base = -rho log G
        a = np.add(base, lwc)
        np.add(a, self.rho_c * lr, out=a)
        np.exp(a, out=a)  # exp(base + lwc + rho ln R)
        np.add(base, lw, out=base)
        np.add(base, self.rho_c * lp, out=base)
        np.exp(base, out=base)  # exp(base + lw + rho ln P)
        np.subtract(a, base, out=a)
        if self.any_zero:
            a[self.zero] = at_zero
        np.multiply(a, LOCAL_DELTA, out=a)
        return a.reshape(self.out_shape)


def _at(value: Any, mask: np.ndarray) -> Any:
    """``value`` where ``mask`` is true: a scalar as it is, an array broadcast to the mask's shape."""
    return np.broadcast_to(value, mask.shape)[mask] if np.ndim(value) else value


def local_g_margin(log_beta: FloatArray, rho: FloatArray, precision: float, recall: float) -> FloatArray:
    """``LOCAL_DELTA (dG/dR - dG/dP)`` at (P, R): the margin, in units of G, of the answer *recall*.

    With ``e = rho + 1`` and the weights ``w, w'`` of :func:`log_g`, ``dG/dP = G^(-rho) w P^rho`` and
    ``dG/dR = G^(-rho) w' R^rho``; at rho = 0 (stipulated) ``(1 - beta) / (1 + beta)``. Its sign is
    exactly that of ``ln(R/P) - ln beta`` times ``sign(rho)`` (recall means beta > R/P when rho < 0).
    """
    return Hypotheses(log_beta, rho).local_g_margin(precision, recall)


def log_g(log_beta: FloatArray, rho: FloatArray, precision: Any, recall: Any) -> FloatArray:
    """log G(beta, rho) at one point (precision, recall > 0), for arrays of hypotheses.

    ``rho = 0`` is the stipulated ``(beta P + R)/(1 + beta)``; ``rho = -1`` the weighted
    geometric mean; elsewhere, with ``e = rho + 1``, ``w = 1/(1 + exp(-rho ln beta))`` and
    ``w' = 1/(1 + exp(rho ln beta))`` (= 1 - w, formed without cancellation),
    ``log G = log1p(w expm1(e ln P) + w' expm1(e ln R)) / e``.
    """
    return Hypotheses(log_beta, rho).log_g(precision, recall)


#: Elements of one block of the (hypotheses x points) arrays: the temporaries stay in the cache.
BLOCK = 1 << 15


def _g_block(h: Hypotheses, rows: slice, lu: FloatArray, ip: np.ndarray, ir: np.ndarray, pr: tuple) -> FloatArray:
    """``exp(log_g)`` at every point (rows) of the hypotheses ``rows`` of a 1-d set (columns), with
    ``expm1(e ln x)`` once per distinct ``ln x`` (``lu``; the points' ``ln P`` and ``ln R`` are ``lu[ip]`` and
    ``lu[ir]``): elementwise the expressions of :func:`log_g`, so the same doubles."""
    e, w, wc = h.e_c[rows], h.w[rows], h.wc[rows]
    em = np.expm1(lu[:, None] * e)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log1p(w * em[ip] + wc * em[ir]) / e
    precision, recall = pr
    pole, zero = h.pole[rows], h.zero[rows]
    if pole.any():
        k = np.flatnonzero(pole)
        out[:, k] = w[k] * lu[ip][:, None] + wc[k] * lu[ir][:, None]
    if zero.any():
        k = np.flatnonzero(zero)
        beta = np.exp(h.log_beta[rows][k])
        out[:, k] = np.log((beta * precision[:, None] + recall[:, None]) / (1.0 + beta))
    return np.exp(out, out=out)


def _point_logs(precision: Any, recall: Any) -> tuple[FloatArray, np.ndarray, np.ndarray, tuple]:
    """The distinct ``ln P`` and ``ln R`` of the points (each ``np.log`` of the point's float, as :func:`log_g`
    takes it) and where each point's are among them."""
    p = np.array([float(v) for v in precision], dtype=np.float64)
    r = np.array([float(v) for v in recall], dtype=np.float64)
    logs = np.array([np.log(v) for v in np.concatenate([p, r]).tolist()], dtype=np.float64)
    lu, inv = np.unique(logs, return_inverse=True)
    return lu, inv[: len(p)], inv[len(p) :], (p, r)


def g_values(
    log_beta: FloatArray, rho: FloatArray, precision: FloatArray, recall: FloatArray, hyp: Hypotheses | None = None
) -> FloatArray:
    """G(beta, rho) of every hypothesis (rows) at every point (columns); ``hyp``: the hypotheses' terms if known."""
    h = (Hypotheses(log_beta, rho) if hyp is None else hyp).flat()
    lu, ip, ir, pr = _point_logs(precision, recall)
    n, m = h.shape[0], len(ip)
    out = np.empty((n, m), dtype=np.float64)
    step = max(1, BLOCK // max(m, len(lu), 1))
    for a in range(0, n, step):
        out[a : a + step] = _g_block(h, slice(a, a + step), lu, ip, ir, pr).T
    return out


def pair_likelihoods(
    h: Hypotheses, precision: FloatArray, recall: FloatArray, i: np.ndarray, j: np.ndarray, lam: float
) -> tuple[FloatArray, FloatArray]:
    """:func:`likelihood_entropy` of the margins ``G(point i) - G(point j)`` of every hypothesis (rows) and
    pair (columns), block by block of hypotheses: the same doubles as on the whole arrays, laid out as
    ``g[:, i] - g[:, j]`` lays them out (Fortran order), which a product with them depends on."""
    lu, ip, ir, pr = _point_logs(precision, recall)
    h = h.flat()
    n, m = h.shape[0], len(i)
    s_t, ent_t = np.empty((m, n), dtype=np.float64), np.empty((m, n), dtype=np.float64)
    step = max(1, BLOCK // max(m, len(lu), 1))
    for a in range(0, n, step):
        rows = slice(a, a + step)
        g = _g_block(h, rows, lu, ip, ir, pr)
        _likelihood_entropy_into(np.subtract(g[i], g[j]), lam, s_t[:, rows], ent_t[:, rows])
    return s_t.T, ent_t.T


def pair_likelihood_rows(g_t: FloatArray, i: np.ndarray, j: np.ndarray, lam: float) -> tuple[FloatArray, FloatArray]:
    """:func:`likelihood_entropy` of the margins ``g_t[i] - g_t[j]`` (``g_t``: G of every point (rows) and
    hypothesis (columns)), one row per pair, C order: the doubles of :func:`pair_likelihoods`, transposed,
    written a few pairs at a time in memory order (for the whole grid, where its column blocks would stride)."""
    m, n = len(i), g_t.shape[1]
    s_t, ent_t = np.empty((m, n), dtype=np.float64), np.empty((m, n), dtype=np.float64)
    step = max(1, BLOCK // max(n, 1))
    for a in range(0, m, step):
        rows = slice(a, a + step)
        _likelihood_entropy_into(np.subtract(g_t[i[rows]], g_t[j[rows]]), lam, s_t[rows], ent_t[rows])
    return s_t, ent_t


def _likelihood_entropy_into(margin: FloatArray, lam: float, s: FloatArray, ent: FloatArray) -> None:
    """:func:`likelihood_entropy` written into ``s`` and ``ent`` (``margin`` is overwritten)."""
    if math.isinf(lam):
        s[...] = likelihood(margin, lam)
        ent[...] = np.where(s == 0.5, math.log(2.0), 0.0)
        return
    z = np.multiply(margin, lam, out=margin)
    ls = _log_sigmoid_into(z, np.empty_like(z))
    np.exp(ls, out=s)
    t = np.subtract(1.0, s)
    np.multiply(t, z, out=t)
    np.subtract(t, ls, out=ent)


def _log_sigmoid_into(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    """:func:`log_sigmoid` of an array ``x`` written into ``out`` (another array): its operations in its order."""
    np.negative(x, out=out)
    np.maximum(out, 0.0, out=out)
    t = np.abs(x)
    np.negative(t, out=t)
    np.exp(t, out=t)
    np.log1p(t, out=t)
    np.add(out, t, out=out)
    return np.negative(out, out=out)


def log_sigmoid(x: FloatArray) -> FloatArray:
    """log(1 / (1 + exp(-x))), without overflow."""
    if np.ndim(x) == 0:
        return -(np.maximum(-x, 0.0) + np.log1p(np.exp(-np.abs(x))))
    x = np.asarray(x)
    return _log_sigmoid_into(x, np.empty_like(x, dtype=np.result_type(x, 0.0)))  # x's memory order


def likelihood(margin: FloatArray, lam: float) -> FloatArray:
    """P(answer | hypothesis) for the signed margins: logistic ``sigma(lam * margin)``,
    or for ``lam = inf`` 1 / 0.5 / 0 as the margin is > TIE, within TIE of 0, < -TIE."""
    if math.isinf(lam):
        return np.where(margin > TIE, 1.0, np.where(margin < -TIE, 0.0, 0.5))
    ls = log_sigmoid(lam * margin)
    return np.exp(ls, out=ls) if isinstance(ls, np.ndarray) else np.exp(ls)


def likelihood_entropy(margin: FloatArray, lam: float) -> tuple[FloatArray, FloatArray]:
    """:func:`likelihood` and its binary entropy, ``H = -ls + (1 - s) z`` with ``z = lam * margin``,
    ``ls = logsig(z)`` and ``s = exp(ls)`` (0 and 1 have entropy 0; 0.5 has ln 2)."""
    if math.isinf(lam):
        s = likelihood(margin, lam)
        return s, np.where(s == 0.5, math.log(2.0), 0.0)
    z = lam * margin
    ls = log_sigmoid(z)
    s = np.exp(ls)
    return s, (1.0 - s) * z - ls


def log_likelihood(margin: FloatArray, lam: float) -> FloatArray:
    """log of :func:`likelihood` (``-inf`` where it is 0)."""
    if math.isinf(lam):
        with np.errstate(divide="ignore"):
            return np.log(likelihood(margin, lam))
    return log_sigmoid(lam * margin)


def normalise(log_weights: FloatArray) -> FloatArray:
    """Weights ``exp(lw - max lw)`` divided by their sum (sequential sum in documented order)."""
    top = float(np.max(log_weights))
    w = np.subtract(log_weights, top)
    np.exp(w, out=w)
    return np.divide(w, float(np.sum(w)), out=w)


def binary_entropy(p: FloatArray) -> FloatArray:
    """-p ln p - (1 - p) ln(1 - p), 0 at p = 0 and p = 1 (nats)."""
    p = np.asarray(p, dtype=np.float64)
    if p.ndim == 0:
        with np.errstate(divide="ignore", invalid="ignore"):
            h = -(p * np.log(p) + (1.0 - p) * np.log1p(-p))
        return np.where((p <= 0.0) | (p >= 1.0), 0.0, h)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = np.log(p)
        np.multiply(p, h, out=h)  # p ln p
        t = np.negative(p)
        np.log1p(t, out=t)
        np.multiply(np.subtract(1.0, p), t, out=t)  # (1 - p) ln(1 - p)
        np.add(h, t, out=h)
        np.negative(h, out=h)
    h[(p <= 0.0) | (p >= 1.0)] = 0.0
    return h


def first_best(scores: FloatArray) -> int:
    """Index of the first score within TIE of the largest."""
    return int(np.flatnonzero(scores >= float(np.max(scores)) - TIE)[0])
