"""Responses at exactly 0 or 1 in the beta^3-IRT fit: censored at the data's resolution.

A response recorded as 0 says only that the Beta variable fell below the resolution ``c`` of
the data (an AUROC of 0 out of ``n_pos n_neg`` pairs, a probability that underflowed); one
recorded as 1, that it fell above ``1 - c``. Such a cell contributes ``log P(Y <= c) =
log I_c(alpha, beta)`` (or ``log P(Y >= 1 - c) = log I_c(beta, alpha)``) to the
log-likelihood, with ``I`` the regularised incomplete beta function, instead of a density at a
clipped value. SciPy has no derivative of ``I`` in its shape parameters: they are taken by
central differences in ``eta = (log alpha, log beta)`` (step 1e-4, so the gradient is good to
about 1e-9 and the curvature to 1e-5), on these cells only. Private helpers of
:mod:`.model` and :mod:`._newton`; every function trusts its inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import betainc, betaln

from .information import LOG_SHAPE_MAX, log_prob

#: Step of the central differences in ``log alpha`` and ``log beta``.
STEP = 1e-4


def log_lower_tail(eta_a: np.ndarray, eta_b: np.ndarray, log_c: np.ndarray, log1m_c: np.ndarray) -> np.ndarray:
    """``log I_c(alpha, beta)`` for ``alpha = exp(eta_a)``, ``beta = exp(eta_b)``.

    SciPy's ``betainc`` where it is above 1e-280; below (it underflows) the first term of its
    series, ``alpha log c + beta log(1 - c) - log alpha - log B(alpha, beta)``, whose relative
    error ``(alpha + beta) c / (alpha + 1)`` is negligible there (``c^alpha < 1e-280`` needs
    ``alpha`` in the hundreds for any ``c <= 1e-3``).
    """
    alpha = np.exp(np.clip(eta_a, -LOG_SHAPE_MAX, LOG_SHAPE_MAX))
    beta = np.exp(np.clip(eta_b, -LOG_SHAPE_MAX, LOG_SHAPE_MAX))
    series = alpha * log_c + beta * log1m_c - np.log(alpha) - betaln(alpha, beta)
    value = betainc(alpha, beta, np.exp(log_c))
    with np.errstate(divide="ignore"):
        out = np.log(value)
    small = ~(value > 1e-280)
    out[small] = series[small]
    return np.asarray(out)


def tail_terms(
    eta_a: np.ndarray, eta_b: np.ndarray, log_c: np.ndarray, log1m_c: np.ndarray, upper: np.ndarray, curvature: bool
) -> tuple[Any, ...]:
    """Per censored cell: ``l``, ``dl/d eta`` (two arrays) and, with ``curvature``, ``-d^2 l / d eta^2``.

    ``upper`` marks the cells at 1 (``log I_c(beta, alpha)``: the roles of the shapes swap).
    Returns ``(l, g_a, g_b)`` or ``(l, g_a, g_b, p_aa, p_ab, p_bb)``.
    """
    x = np.where(upper, eta_b, eta_a)  # the shape of the tail's own side
    y = np.where(upper, eta_a, eta_b)
    h = STEP

    def f(dx: float, dy: float) -> np.ndarray:
        return log_lower_tail(x + dx, y + dy, log_c, log1m_c)

    f0, fxp, fxm, fyp, fym = f(0, 0), f(h, 0), f(-h, 0), f(0, h), f(0, -h)
    gx, gy = (fxp - fxm) / (2 * h), (fyp - fym) / (2 * h)
    g_a, g_b = np.where(upper, gy, gx), np.where(upper, gx, gy)
    if not curvature:
        return f0, g_a, g_b
    pxx = -(fxp - 2 * f0 + fxm) / h**2
    pyy = -(fyp - 2 * f0 + fym) / h**2
    pxy = -(f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / (4 * h**2)
    return f0, g_a, g_b, np.where(upper, pyy, pxx), pxy, np.where(upper, pxx, pyy)


def censored_terms(t: np.ndarray, d: np.ndarray, a: np.ndarray, cells: Any, curvature: bool) -> tuple[Any, ...]:
    """``(r, c, a_j, u, v, terms)`` of the censored cells at logits ``t``, ``d`` and discriminations ``a``.

    ``u = log theta - log delta`` and ``v = log(1 - theta) - log(1 - delta)`` per cell (so that
    ``eta = a_j (u, v)``), ``terms`` as :func:`tail_terms` returns them.
    """
    r, c = cells.c_rows, cells.c_cols
    lt, lt1 = log_prob(t)
    ld, ld1 = log_prob(d)
    aj = a[c]
    u = lt[r] - ld[c]
    v = lt1[r] - ld1[c]
    return r, c, aj, u, v, tail_terms(aj * u, aj * v, cells.c_log, cells.c_log1m, cells.c_upper, curvature)
