"""Projected Newton for the beta^3-IRT MAP fit, with the Hessian solved through its Schur complement.

The negative log posterior of :mod:`.model` has a Hessian of arrow shape: the respondents'
block is diagonal (one ``logit theta`` each), the items' block is 2 x 2 block-diagonal
(``logit delta``, ``a`` per item), and the coupling is one 1 x 2 entry per observed cell. A
Newton step therefore eliminates the items (2 x 2 inverses) and solves one dense
``n_respondents x n_respondents`` system (the Schur complement, by Cholesky), at the cost of
two ``n x m`` by ``m x n`` products: far cheaper than the evaluations of the likelihood, and
the step is exact where L-BFGS needs a hundred or more evaluations to learn the curvature of
the weakly identified directions (the location and scale the priors pin).

Globalisation: the exact Hessian where it is positive definite, else the expected (Fisher)
information plus the priors' curvature (always positive definite); a backtracking Armijo
line search on the objective; bounds handled by projection, the variables at a bound whose
gradient points outward held fixed (Bertsekas' projected Newton). Every function here trusts
its inputs (they come from :func:`.model.fit_beta3`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from scipy.linalg import LinAlgError, cho_factor, cho_solve
from scipy.special import betaln, digamma, expit

from ._censored import censored_terms
from .information import LOG_SHAPE_MAX, log_prob, trigamma

#: Items per block when the Schur complement is accumulated (bounds the temporaries).
ITEM_BLOCK = 4096


@dataclasses.dataclass(frozen=True)
class NewtonResult:
    """Where the projected Newton iteration stopped."""

    x: np.ndarray
    fun: float
    success: bool
    nit: int
    nfev: int
    message: str


def _shapes(t: np.ndarray, d: np.ndarray, a: np.ndarray, r: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per-cell ``u = log theta - log delta``, ``v = log(1-theta) - log(1-delta)``, alpha, beta."""
    lt, lt1 = log_prob(t)
    ld, ld1 = log_prob(d)
    aj = a[c]
    u = lt[r] - ld[c]
    v = lt1[r] - ld1[c]
    alpha = np.exp(np.clip(aj * u, -LOG_SHAPE_MAX, LOG_SHAPE_MAX))
    beta = np.exp(np.clip(aj * v, -LOG_SHAPE_MAX, LOG_SHAPE_MAX))
    return aj, u, v, alpha, beta


def log_density_sum(alpha: np.ndarray, beta: np.ndarray, lp: np.ndarray, lq: np.ndarray) -> float:
    """``sum((alpha - 1) log p + (beta - 1) log(1 - p) - log B(alpha, beta))`` over the cells.

    Elementwise products and ``np.sum``, not dot products: a BLAS ``ddot`` may start threads, which
    on a loaded machine costs far more than the sum itself.
    """
    cell = alpha * lp
    cell += beta * lq
    cell -= lp
    cell -= lq
    cell -= betaln(alpha, beta)
    return float(np.sum(cell))


def objective(params: np.ndarray, cells: Any, prior_sd: float) -> float:
    """The negative log posterior alone (no gradient): one ``betaln`` per cell."""
    n, m = cells.n_rows, cells.n_cols
    t, d, a = params[:n], params[n : n + m], params[n + m :]
    value = 0.0
    for r, c, lp, lq in cells.chunks():
        _aj, _u, _v, alpha, beta = _shapes(t, d, a, r, c)
        value -= log_density_sum(alpha, beta, lp, lq)
    if cells.c_rows.size:
        value -= float(np.sum(censored_terms(t, d, a, cells, curvature=False)[-1][0]))
    lt, lt1 = log_prob(t)
    ld, ld1 = log_prob(d)
    value -= float(np.sum(lt + lt1) + np.sum(ld + ld1))
    return value + float(np.sum((a - 1.0) ** 2)) / (2.0 * prior_sd**2)


@dataclasses.dataclass
class _System:
    """Gradient and Hessian in arrow form: diagonal ``h_t``, item blocks, dense cross terms."""

    g_t: np.ndarray
    g_d: np.ndarray
    g_a: np.ndarray
    h_t: np.ndarray
    h_dd: np.ndarray
    h_da: np.ndarray
    h_aa: np.ndarray
    b_td: np.ndarray  # (n, m): d^2 / d logit theta_i d logit delta_j (0 for a missing cell)
    b_ta: np.ndarray  # (n, m): d^2 / d logit theta_i d a_j

    @property
    def gradient(self) -> np.ndarray:
        return np.concatenate([self.g_t, self.g_d, self.g_a])


def _cell_blocks(t: np.ndarray, d: np.ndarray, a: np.ndarray, cells: Any, expected: bool) -> Any:
    """Per block of cells: indices, ``a_j``, ``u``, ``v``, ``g = d loglik / d eta`` and ``P = -d^2 loglik / d eta^2``.

    The observed cells in chunks (the Beta density: ``P`` in closed form, its expected value with
    ``expected``), then the censored ones (the tail probability: ``P`` by central differences,
    made positive semi-definite with ``expected``).
    """
    for r, c, lp, lq in cells.chunks():
        aj, u, v, alpha, beta = _shapes(t, d, a, r, c)
        s = alpha + beta
        ps = digamma(s)
        ga = alpha * (lp - digamma(alpha) + ps)  # d loglik / d log alpha
        gb = beta * (lq - digamma(beta) + ps)  # d loglik / d log beta
        ts = trigamma(s)
        p_ab = -(alpha * beta) * ts
        p_aa = alpha * alpha * (trigamma(alpha) - ts)
        p_bb = beta * beta * (trigamma(beta) - ts)
        if not expected:
            p_aa -= ga
            p_bb -= gb
        yield r, c, aj, u, v, ga, gb, *_psd(p_aa, p_ab, p_bb, expected)
    if cells.c_rows.size:
        r, c, aj, u, v, (_ell, ga, gb, p_aa, p_ab, p_bb) = censored_terms(t, d, a, cells, curvature=True)
        yield r, c, aj, u, v, ga, gb, *_psd(p_aa, p_ab, p_bb, expected)


def _psd(p_aa: np.ndarray, p_ab: np.ndarray, p_bb: np.ndarray, expected: bool) -> tuple[np.ndarray, ...]:
    """With ``expected``, each cell's 2 x 2 block made positive semi-definite (in place).

    The expected information is, in exact arithmetic; ``psi1(alpha) - psi1(s)`` cancels where one
    shape dwarfs the other and the rounding can leave a block indefinite; the censored cells'
    curvature (differences of a tail probability) need not be.
    """
    if expected:
        np.maximum(p_aa, 0.0, out=p_aa)
        np.maximum(p_bb, 0.0, out=p_bb)
        bound = np.sqrt(p_aa * p_bb)
        np.clip(p_ab, -bound, bound, out=p_ab)
    return p_aa, p_ab, p_bb


def system(params: np.ndarray, cells: Any, prior_sd: float, expected: bool) -> _System:
    """Gradient and (exact, or expected with ``expected=True``) Hessian of the negative log posterior.

    Per cell, with ``eta = (log alpha, log beta)`` and ``g = d loglik / d eta``, the Hessian of
    ``-loglik`` in ``eta`` is ``P = [[alpha^2 (psi1(alpha) - psi1(s)) - g_a, -alpha beta psi1(s)],
    [., beta^2 (psi1(beta) - psi1(s)) - g_b]]`` (``s = alpha + beta``; the expected version drops
    ``g``), carried to the parameters by the chain rule ``J' P J - g . d^2 eta``.
    """
    n, m = cells.n_rows, cells.n_cols
    t, d, a = params[:n], params[n : n + m], params[n + m :]
    th, de = expit(t), expit(d)
    th1, de1 = expit(-t), expit(-d)
    g_t, g_d, g_a = np.zeros(n), np.zeros(m), np.zeros(m)
    h_t, h_dd, h_da, h_aa = np.zeros(n), np.zeros(m), np.zeros(m), np.zeros(m)
    b_td, b_ta = np.zeros((n, m)), np.zeros((n, m))
    for r, c, aj, u, v, ga, gb, p_aa, p_ab, p_bb in _cell_blocks(t, d, a, cells, expected):
        thr, th1r, dec, de1c = th[r], th1[r], de[c], de1[c]
        # d eta / d (logit theta, logit delta, a): (x1, y1) rows of J
        xt, yt = aj * th1r, -aj * thr
        xd, yd = -aj * de1c, aj * dec
        g_t -= np.bincount(r, weights=ga * xt + gb * yt, minlength=n)
        g_d -= np.bincount(c, weights=ga * xd + gb * yd, minlength=m)
        g_a -= np.bincount(c, weights=ga * u + gb * v, minlength=m)

        # quad reads this iteration's weights and is called within it (B023 does not apply)
        def quad(x1: np.ndarray, y1: np.ndarray, x2: np.ndarray, y2: np.ndarray) -> np.ndarray:
            return np.asarray(x1 * x2 * p_aa + y1 * y2 * p_bb + (x1 * y2 + y1 * x2) * p_ab)  # noqa: B023

        w_tt, w_dd = quad(xt, yt, xt, yt), quad(xd, yd, xd, yd)
        w_da, w_aa = quad(xd, yd, u, v), quad(u, v, u, v)
        w_td, w_ta = quad(xt, yt, xd, yd), quad(xt, yt, u, v)
        if not expected:
            gsum = ga + gb
            w_tt += aj * thr * th1r * gsum
            w_dd -= aj * dec * de1c * gsum
            w_ta -= ga * th1r - gb * thr
            w_da -= gb * dec - ga * de1c
        h_t += np.bincount(r, weights=w_tt, minlength=n)
        h_dd += np.bincount(c, weights=w_dd, minlength=m)
        h_da += np.bincount(c, weights=w_da, minlength=m)
        h_aa += np.bincount(c, weights=w_aa, minlength=m)
        b_td[r, c] = w_td
        b_ta[r, c] = w_ta
    # priors: -log prior = -(log theta + log(1 - theta)) per logit, (a - 1)^2 / (2 sd^2)
    g_t += th - th1
    g_d += de - de1
    g_a += (a - 1.0) / prior_sd**2
    h_t += 2.0 * th * th1
    h_dd += 2.0 * de * de1
    h_aa += 1.0 / prior_sd**2
    return _System(g_t, g_d, g_a, h_t, h_dd, h_da, h_aa, b_td, b_ta)


def _direction(sy: _System) -> np.ndarray | None:
    """Newton direction ``-H^{-1} g`` through a Schur complement; None if H is not positive definite.

    The smaller side is eliminated: the items (2 x 2 blocks; an ``n x n`` system in the
    respondents) when ``n <= 2 m``, else the respondents (diagonal; a ``2m x 2m`` system).
    """
    det = sy.h_dd * sy.h_aa - sy.h_da**2
    if not (np.all(sy.h_dd > 0.0) and np.all(det > 0.0) and np.all(sy.h_t > 0.0)):
        return None
    n, m = sy.b_td.shape
    try:
        step = _eliminate_items(sy, det) if n <= 2 * m else _eliminate_respondents(sy)
    except LinAlgError:
        return None
    return step if np.all(np.isfinite(step)) else None


def _eliminate_items(sy: _System, det: np.ndarray) -> np.ndarray:
    w_dd, w_da, w_aa = sy.h_aa / det, -sy.h_da / det, sy.h_dd / det  # inverse of each item block
    m = sy.b_td.shape[1]
    schur = np.diag(sy.h_t)
    rhs = -sy.g_t
    for start in range(0, m, ITEM_BLOCK):
        sl = slice(start, start + ITEM_BLOCK)
        btd, bta = sy.b_td[:, sl], sy.b_ta[:, sl]
        left_d = btd * w_dd[sl] + bta * w_da[sl]  # B D^-1, the delta column
        left_a = btd * w_da[sl] + bta * w_aa[sl]  # B D^-1, the a column
        schur -= left_d @ btd.T + left_a @ bta.T
        rhs = rhs + left_d @ sy.g_d[sl] + left_a @ sy.g_a[sl]
    step_t = cho_solve(cho_factor(schur, lower=True, check_finite=False), rhs, check_finite=False)
    e = sy.g_d + sy.b_td.T @ step_t
    f = sy.g_a + sy.b_ta.T @ step_t
    return np.concatenate([step_t, -(w_dd * e + w_da * f), -(w_da * e + w_aa * f)])


def _eliminate_respondents(sy: _System) -> np.ndarray:
    m = sy.b_td.shape[1]
    cross = np.concatenate([sy.b_td, sy.b_ta], axis=1)  # (n, 2m)
    scaled = cross / sy.h_t[:, None]
    schur = -(cross.T @ scaled)
    idx = np.arange(m)
    schur[idx, idx] += sy.h_dd
    schur[m + idx, m + idx] += sy.h_aa
    schur[idx, m + idx] += sy.h_da
    schur[m + idx, idx] += sy.h_da
    rhs = -np.concatenate([sy.g_d, sy.g_a]) + scaled.T @ sy.g_t
    step_items = cho_solve(cho_factor(schur, lower=True, check_finite=False), rhs, check_finite=False)
    step_t = -(sy.g_t + cross @ step_items) / sy.h_t
    return np.concatenate([step_t, step_items])


def _hold(sy: _System, fixed: np.ndarray) -> None:
    """Take the variables in ``fixed`` out of the Newton system (their step becomes 0)."""
    n, m = sy.b_td.shape
    ft, fd, fa = fixed[:n], fixed[n : n + m], fixed[n + m :]
    sy.g_t[ft], sy.h_t[ft] = 0.0, 1.0
    sy.b_td[ft, :], sy.b_ta[ft, :] = 0.0, 0.0
    sy.g_d[fd], sy.h_dd[fd], sy.h_da[fd] = 0.0, 1.0, 0.0
    sy.g_a[fa], sy.h_aa[fa], sy.h_da[fa] = 0.0, 1.0, 0.0
    sy.b_td[:, fd], sy.b_ta[:, fa] = 0.0, 0.0


def _damped_direction(sy: _System, pg: np.ndarray) -> np.ndarray:
    """Levenberg-Marquardt: the direction of the expected Hessian plus ``mu I``, ``mu`` raised tenfold until it solves.

    Only where rounding has left the expected information plus the priors' curvature not
    positive definite (the per-cell blocks are clamped to be, so this is rare); the steepest
    descent ``-pg`` if no ``mu`` up to ``1e8`` times the largest diagonal entry solves.
    """
    top = float(max(np.max(np.abs(sy.h_t)), np.max(np.abs(sy.h_dd)), np.max(np.abs(sy.h_aa)), 1.0))
    for k in range(-8, 9):
        mu = top * 10.0**k
        damped = dataclasses.replace(sy, h_t=sy.h_t + mu, h_dd=sy.h_dd + mu, h_aa=sy.h_aa + mu)
        step = _direction(damped)
        if step is not None and float(pg @ step) < 0.0:
            return step
    return -pg


def _line_search(
    x: np.ndarray,
    fx: float,
    step: np.ndarray,
    pg: np.ndarray,
    cells: Any,
    lower: np.ndarray,
    upper: np.ndarray,
    prior_sd: float,
    max_step: float,
) -> tuple[Any, float, int]:
    """Backtracking (Armijo) along ``step`` capped to ``max_step`` a coordinate: the point, its value, evaluations."""
    size = min(1.0, max_step / float(np.max(np.abs(step))))
    evals = 0
    while size >= 1e-12:
        trial = np.clip(x + size * step, lower, upper)
        ft = objective(trial, cells, prior_sd)
        evals += 1
        if np.isfinite(ft) and ft <= fx + 1e-4 * float(pg @ (trial - x)):
            return trial, ft, evals
        size *= 0.5
    return None, fx, evals


def minimize_newton(
    params: np.ndarray,
    cells: Any,
    lower: np.ndarray,
    upper: np.ndarray,
    prior_sd: float,
    max_iter: int,
    gtol: float = 1e-10,
    dtol: float = 1e-12,
    max_step: float = 1.0,
) -> NewtonResult:
    """Minimise the negative log posterior from ``params`` within ``[lower, upper]`` by projected Newton.

    Each iteration takes the exact Newton direction where the Hessian is positive definite,
    else the Fisher-scoring one, caps it to ``max_step`` in every coordinate, and halves it until
    the Armijo condition holds. Converged when the Newton decrement ``-g' step`` (twice the
    decrease the quadratic model predicts, in nats; invariant to rescaling the parameters) is
    at most ``dtol * (1 + |f|)`` or the largest projected gradient at most ``gtol * (1 + |f|)``;
    when the line search cannot decrease ``f`` below its rounding (converged if the predicted
    decrease is within a thousand times the rounding of ``f``); not converged after ``max_iter``
    iterations or when the line search fails further away. The decrement stops the iteration
    where the gradient stalls at the rounding noise of its sum over the cells (a few 1e-5 on
    ``1e4`` cells of log responses near -700) while the steps no longer move ``f``.
    """
    x = np.clip(params, lower, upper)
    fx = objective(x, cells, prior_sd)
    nfev = 1
    for it in range(1, max_iter + 1):
        scale = 1.0 + abs(fx)
        for expected in (False, True):
            sy = system(x, cells, prior_sd, expected)
            g = sy.gradient
            # projected gradient: zero where a bound blocks the descent direction
            fixed = ((x <= lower) & (g > 0.0)) | ((x >= upper) & (g < 0.0))
            pg = np.where(fixed, 0.0, g)
            if np.max(np.abs(pg)) <= gtol * scale:
                return NewtonResult(x, fx, True, it - 1, nfev, "projected gradient below tolerance")
            _hold(sy, fixed)
            step = _direction(sy)
            if step is not None and float(pg @ step) < 0.0:
                break
        else:
            step = _damped_direction(sy, pg)
        decrement = -float(pg @ step)
        if decrement <= dtol * scale:
            return NewtonResult(x, fx, True, it - 1, nfev, "Newton decrement below tolerance")
        trial, ft, evals = _line_search(x, fx, step, pg, cells, lower, upper, prior_sd, max_step)
        if trial is None and np.any(step != -pg):
            # the quadratic model misleads here (a near-singular direction): fall back to steepest descent
            trial, ft, more = _line_search(x, fx, -pg, pg, cells, lower, upper, prior_sd, max_step)
            evals += more
        nfev += evals
        if trial is None:
            # converged if the predicted decrease is already near the rounding of f
            done = decrement <= 1e-13 * scale
            return NewtonResult(
                x, fx, done, it, nfev, "no decrease left at float precision" if done else "line search failed"
            )
        x, fx = trial, ft
    return NewtonResult(x, fx, False, max_iter, nfev, "maximum number of iterations reached")


def marginal_variances(sy: _System) -> np.ndarray | None:
    """Diagonal of the inverse of the full Hessian (the joint Laplace covariance), without forming it.

    With the Hessian ``[[A, B], [B', D]]`` (``A`` diagonal in the respondents, ``D`` 2 x 2
    block-diagonal in the items, ``B`` the coupling), the smaller side is eliminated as in
    :func:`_direction`: eliminating the items, the respondents' block of the inverse is
    ``S^{-1}`` with ``S = A - B D^{-1} B'`` and the items' diagonal is that of
    ``D^{-1} + (B D^{-1})' S^{-1} (B D^{-1})``; eliminating the respondents, symmetrically. None
    if the Hessian is not positive definite.
    """
    det = sy.h_dd * sy.h_aa - sy.h_da**2
    if not (np.all(sy.h_dd > 0.0) and np.all(det > 0.0) and np.all(sy.h_t > 0.0)):
        return None
    n, m = sy.b_td.shape
    try:
        if n <= 2 * m:
            w_dd, w_da, w_aa = sy.h_aa / det, -sy.h_da / det, sy.h_dd / det
            left_d = sy.b_td * w_dd + sy.b_ta * w_da
            left_a = sy.b_td * w_da + sy.b_ta * w_aa
            schur = np.diag(sy.h_t) - left_d @ sy.b_td.T - left_a @ sy.b_ta.T
            factor = cho_factor(schur, lower=True, check_finite=False)
            inv = cho_solve(factor, np.eye(n), check_finite=False)
            var_d = w_dd + np.sum((inv @ left_d) * left_d, axis=0)
            var_a = w_aa + np.sum((inv @ left_a) * left_a, axis=0)
            out = np.concatenate([np.diag(inv), var_d, var_a])
        else:
            cross = np.concatenate([sy.b_td, sy.b_ta], axis=1)
            scaled = cross / sy.h_t[:, None]
            schur = -(cross.T @ scaled)
            idx = np.arange(m)
            schur[idx, idx] += sy.h_dd
            schur[m + idx, m + idx] += sy.h_aa
            schur[idx, m + idx] += sy.h_da
            schur[m + idx, idx] += sy.h_da
            factor = cho_factor(schur, lower=True, check_finite=False)
            inv = cho_solve(factor, np.eye(2 * m), check_finite=False)
            var_t = 1.0 / sy.h_t + np.sum((scaled @ inv) * scaled, axis=1)
            out = np.concatenate([var_t, np.diag(inv)])
    except LinAlgError:
        return None
    return out if np.all(np.isfinite(out)) and np.all(out > 0.0) else None
