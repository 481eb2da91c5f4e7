"""Laplace standard errors of the beta^3-IRT MAP fit: the joint curvature, or its block diagonal.

Private helpers of :func:`.model.fit_beta3`; every function trusts its inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import expit, logit, ndtri

from ._newton import marginal_variances, system
from .information import LOG_SHAPE_MAX, log_prob, trigamma


def block_laplace(params: np.ndarray, cells: Any, prior_sd: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Standard errors of logit theta, logit delta and a from block-diagonal expected information."""
    n, m = cells.n_rows, cells.n_cols
    t, d, a = params[:n], params[n : n + m], params[n + m :]
    lt, lt1 = log_prob(t)
    ld, ld1 = log_prob(d)
    th, de = expit(t), expit(d)
    h_t = 2.0 * th * (1.0 - th)
    h_dd = 2.0 * de * (1.0 - de)
    h_da = np.zeros(m)
    h_aa = np.full(m, 1.0 / prior_sd**2)
    for r, c, _lp, _lq in cells.chunks():
        aj = a[c]
        u = lt[r] - ld[c]
        v = lt1[r] - ld1[c]
        alpha = np.exp(np.clip(aj * u, -LOG_SHAPE_MAX, LOG_SHAPE_MAX))
        beta = np.exp(np.clip(aj * v, -LOG_SHAPE_MAX, LOG_SHAPE_MAX))
        ts = trigamma(alpha + beta)
        i_aa, i_bb, i_ab = trigamma(alpha) - ts, trigamma(beta) - ts, -ts

        # quad reads this iteration's weights and is called within it (B023 does not apply)
        def quad(x1: np.ndarray, y1: np.ndarray, x2: np.ndarray, y2: np.ndarray) -> np.ndarray:
            return np.asarray(x1 * x2 * i_aa + y1 * y2 * i_bb + (x1 * y2 + y1 * x2) * i_ab)  # noqa: B023

        ta, tb = alpha * aj * (1.0 - th[r]), -beta * aj * th[r]  # d(alpha, beta)/d logit theta
        da, db = -alpha * aj * (1.0 - de[c]), beta * aj * de[c]  # d(alpha, beta)/d logit delta
        aa, ab = alpha * u, beta * v  # d(alpha, beta)/d a
        h_t += np.bincount(r, weights=quad(ta, tb, ta, tb), minlength=n)
        h_dd += np.bincount(c, weights=quad(da, db, da, db), minlength=m)
        h_da += np.bincount(c, weights=quad(da, db, aa, ab), minlength=m)
        h_aa += np.bincount(c, weights=quad(aa, ab, aa, ab), minlength=m)
    det = h_dd * h_aa - h_da**2
    return np.sqrt(1.0 / h_t), np.sqrt(h_aa / det), np.sqrt(h_dd / det)


def joint_laplace(
    params: np.ndarray, cells: Any, prior_sd: float, max_schur: int, max_cells: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Standard errors of logit theta, logit delta and a: the diagonal of the inverse of the full Hessian.

    The exact Hessian of the negative log posterior at the MAP (the observed information plus
    the priors' curvature); the expected one where that is not positive definite; the
    block-diagonal expected information (:func:`block_laplace`) where the dense Schur complement
    would be too large (``max_schur``, ``max_cells``: the sizes the Newton phase takes on).
    """
    n, m = cells.n_rows, cells.n_cols
    if min(n, 2 * m) > max_schur or n * m > max_cells:
        return block_laplace(params, cells, prior_sd)
    for expected in (False, True):
        var = marginal_variances(system(params, cells, prior_sd, expected))
        if var is not None:
            sd = np.sqrt(var)
            return sd[:n], sd[n : n + m], sd[n + m :]
    # the expected information plus the priors is positive definite
    return block_laplace(params, cells, prior_sd)  # pragma: no cover


def wald_interval(ability: np.ndarray, se: np.ndarray, level: float = 0.95) -> np.ndarray:
    """Normal intervals of abilities in (0, 1), built on the logit scale and mapped back.

    Parameters
    ----------
    ability : ndarray of shape (n,)
        Abilities in (0, 1).
    se : ndarray of shape (n,)
        Their standard errors on the probability scale (delta method from the logit scale).
    level : float in (0, 1), default=0.95
        Coverage.

    Returns
    -------
    ndarray of shape (n, 2)
        Lower and upper bounds in (0, 1): ``expit(logit(theta) -+ z * se / (theta (1 - theta)))``
        with ``z`` the normal quantile; NaN where the ability or its SE is not finite.
    """
    theta = np.asarray(ability, dtype=float)
    half = ndtri(0.5 + level / 2) * np.asarray(se, dtype=float) / (theta * (1.0 - theta))
    centre = logit(theta)
    return np.column_stack([expit(centre - half), expit(centre + half)])
