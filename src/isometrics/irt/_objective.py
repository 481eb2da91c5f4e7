"""The objective of the beta^3-IRT MAP fit for L-BFGS-B (value and gradient), and its starting values.

Private helpers of :func:`.model.fit_beta3` (the Newton phase has its own evaluations in
:mod:`._newton`); every function trusts its inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import digamma, expit

from ._censored import censored_terms
from ._newton import log_density_sum as _log_density_sum
from .information import LOG_SHAPE_MAX, log_prob

#: Bounds of the logits of ability and difficulty in the fit (probabilities 4.5e-5 .. 1 - 4.5e-5).
LOGIT_BOUND = 10.0
#: Standard deviation of the N(1, sigma0**2) prior of the discriminations.
SIGMA0 = 1.0


def _exp_clipped(log_shape: np.ndarray) -> np.ndarray:
    """``exp`` of a log shape clipped to +-LOG_SHAPE_MAX, in place."""
    np.clip(log_shape, -LOG_SHAPE_MAX, LOG_SHAPE_MAX, out=log_shape)
    return np.exp(log_shape, out=log_shape)


def negative_log_posterior(params: np.ndarray, cells: Any) -> tuple[float, np.ndarray]:
    """Negative log posterior of ``(logit theta, logit delta, a)`` and its gradient.

    The priors are Beta(1, 1) on ``theta`` and ``delta`` (carried to the logit scale with
    their Jacobian ``theta (1 - theta)``) and N(1, SIGMA0**2) on ``a``.
    """
    n, m = cells.n_rows, cells.n_cols
    t, d, a = params[:n], params[n : n + m], params[n + m :]
    lt, lt1 = log_prob(t)
    ld, ld1 = log_prob(d)
    th, de = expit(t), expit(d)
    value = 0.0
    g_t, g_d, g_a = np.zeros(n), np.zeros(m), np.zeros(m)
    for r, c, lp, lq in cells.chunks():
        aj = a[c]
        u = lt[r]
        u -= ld[c]
        v = lt1[r]
        v -= ld1[c]
        alpha, beta = _exp_clipped(aj * u), _exp_clipped(aj * v)
        value -= _log_density_sum(alpha, beta, lp, lq)
        ps = digamma(alpha + beta)
        ga = lp - digamma(alpha)  # then alpha * (...): d loglik / d log alpha
        ga += ps
        ga *= alpha
        gb = lq - digamma(beta)  # d loglik / d log beta
        gb += ps
        gb *= beta
        g_a -= np.bincount(c, weights=ga * u + gb * v, minlength=m)
        gs = ga + gb
        w = gs * th[r]  # d loglik / d logit theta = a (ga (1 - theta) - gb theta)
        np.subtract(ga, w, out=w)
        w *= aj
        g_t -= np.bincount(r, weights=w, minlength=n)
        w = gs * de[c]  # d loglik / d logit delta = a (gb delta - ga (1 - delta))
        w -= ga
        w *= aj
        g_d -= np.bincount(c, weights=w, minlength=m)
    if cells.c_rows.size:  # the responses at 0 or 1, censored
        r, c, aj, u, v, (ell, ga, gb) = censored_terms(t, d, a, cells, curvature=False)
        value -= float(np.sum(ell))
        gs = ga + gb
        g_a -= np.bincount(c, weights=ga * u + gb * v, minlength=m)
        g_t -= np.bincount(r, weights=aj * (ga - gs * th[r]), minlength=n)
        g_d -= np.bincount(c, weights=aj * (gs * de[c] - ga), minlength=m)
    # priors: -log prior = -(lt + lt1) for each logit, (a - 1)^2 / (2 sigma0^2) for a
    value -= float(np.sum(lt + lt1) + np.sum(ld + ld1))
    value += float(np.sum((a - 1.0) ** 2)) / (2.0 * SIGMA0**2)
    g_t -= 1.0 - 2.0 * th
    g_d -= 1.0 - 2.0 * de
    g_a += (a - 1.0) / SIGMA0**2
    return value, np.concatenate([g_t, g_d, g_a])


def _start(x: np.ndarray, eps: float, rng: np.random.Generator | None) -> np.ndarray:
    """Data-driven start: abilities from row means, signs from item-total correlations (as beta^4-IRT)."""
    start_eps = max(eps, 1e-6)  # the starting values only: logits of clipped means
    p = np.clip(x, start_eps, 1.0 - start_eps)
    row = np.nanmean(p, axis=1)
    col = np.nanmean(p, axis=0)
    t0 = np.log(row) - np.log1p(-row)
    t0 = t0 - np.mean(t0)
    centred = p - col
    centred[np.isnan(centred)] = 0.0
    score = row - row.mean()
    sign = np.where(centred.T @ score < 0.0, -1.0, 1.0)
    lc = np.log(col) - np.log1p(-col)
    d0 = np.mean(t0) - sign * lc
    params = np.concatenate([t0, d0, sign])
    if rng is not None:
        params = params + rng.normal(scale=1e-3, size=params.size)
    bound = LOGIT_BOUND - 1e-6
    params[: x.shape[0] + x.shape[1]] = np.clip(params[: x.shape[0] + x.shape[1]], -bound, bound)
    return params
