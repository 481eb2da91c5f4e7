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


def local_g_margin(log_beta: FloatArray, rho: FloatArray, precision: float, recall: float) -> FloatArray:
    """``LOCAL_DELTA (dG/dR - dG/dP)`` at (P, R): the margin, in units of G, of the answer *recall*.

    With ``e = rho + 1`` and the weights ``w, w'`` of :func:`log_g`, ``dG/dP = G^(-rho) w P^rho`` and
    ``dG/dR = G^(-rho) w' R^rho``; at rho = 0 (stipulated) ``(1 - beta) / (1 + beta)``. Its sign is
    exactly that of ``ln(R/P) - ln beta`` times ``sign(rho)`` (recall means beta > R/P when rho < 0).
    """
    lp, lr = math.log(precision), math.log(recall)
    x = rho * log_beta
    lw, lwc = log_sigmoid(x), log_sigmoid(-x)
    base = -rho * log_g(log_beta, rho, precision, recall)
    general = np.exp(base + lwc + rho * lr) - np.exp(base + lw + rho * lp)
    beta = np.exp(log_beta)
    return LOCAL_DELTA * np.where(rho == 0.0, (1.0 - beta) / (1.0 + beta), general)


def log_g(log_beta: FloatArray, rho: FloatArray, precision: Any, recall: Any) -> FloatArray:
    """log G(beta, rho) at one point (precision, recall > 0), for arrays of hypotheses.

    ``rho = 0`` is the stipulated ``(beta P + R)/(1 + beta)``; ``rho = -1`` the weighted
    geometric mean; elsewhere, with ``e = rho + 1``, ``w = 1/(1 + exp(-rho ln beta))`` and
    ``w' = 1/(1 + exp(rho ln beta))`` (= 1 - w, formed without cancellation),
    ``log G = log1p(w expm1(e ln P) + w' expm1(e ln R)) / e``.
    """
    lp, lr = np.log(precision), np.log(recall)
    e = rho + 1.0
    x = rho * log_beta
    w, wc = 1.0 / (1.0 + np.exp(-x)), 1.0 / (1.0 + np.exp(x))  # w and 1 - w, each without cancellation
    with np.errstate(divide="ignore", invalid="ignore"):
        general = np.log1p(w * np.expm1(e * lp) + wc * np.expm1(e * lr)) / e
    out = np.where(e == 0.0, w * lp + wc * lr, general)
    beta = np.exp(log_beta)
    return np.where(rho == 0.0, np.log((beta * precision + recall) / (1.0 + beta)), out)


def g_values(log_beta: FloatArray, rho: FloatArray, precision: FloatArray, recall: FloatArray) -> FloatArray:
    """G(beta, rho) of every hypothesis (rows) at every point (columns)."""
    out = np.empty((len(log_beta), len(precision)), dtype=np.float64)
    for j, (p, r) in enumerate(zip(precision, recall)):
        out[:, j] = np.exp(log_g(log_beta, rho, float(p), float(r)))
    return out


def log_sigmoid(x: FloatArray) -> FloatArray:
    """log(1 / (1 + exp(-x))), without overflow."""
    return -(np.maximum(-x, 0.0) + np.log1p(np.exp(-np.abs(x))))


def likelihood(margin: FloatArray, lam: float) -> FloatArray:
    """P(answer | hypothesis) for the signed margins: logistic ``sigma(lam * margin)``,
    or for ``lam = inf`` 1 / 0.5 / 0 as the margin is > TIE, within TIE of 0, < -TIE."""
    if math.isinf(lam):
        return np.where(margin > TIE, 1.0, np.where(margin < -TIE, 0.0, 0.5))
    return np.exp(log_sigmoid(lam * margin))


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
    w = np.exp(log_weights - top)
    return w / float(np.sum(w))


def binary_entropy(p: FloatArray) -> FloatArray:
    """-p ln p - (1 - p) ln(1 - p), 0 at p = 0 and p = 1 (nats)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -(p * np.log(p) + (1.0 - p) * np.log1p(-p))
    return np.where((p <= 0.0) | (p >= 1.0), 0.0, h)


def first_best(scores: FloatArray) -> int:
    """Index of the first score within TIE of the largest."""
    return int(np.flatnonzero(scores >= float(np.max(scores)) - TIE)[0])
