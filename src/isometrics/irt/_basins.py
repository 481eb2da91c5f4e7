"""Each item's other sign basin, tried once the joint fit has converged.

The beta^3-IRT posterior has, per item, two basins: ``a > 0`` and its mirror ``a < 0`` (with
``delta`` near ``1 - delta``). The start picks one per item from its correlation with the
respondents' mean response, and the fit stays in it. Near the ceiling (responses of nearly 1
from every respondent, many censored) that correlation is weak and the mirror image can win
by a wide margin: on matrices drawn from the model's own priors (30 x 400), about one in ten
ended in a local optimum 100-150 nats above the optimum found from the true parameters, with
one to four items in the wrong basin and the abilities shifted as a block by 3-5 of their
standard errors. Here, with the abilities held at the fit, every item is refitted from its
mirror image ``(1 - delta, -a)`` by a Newton iteration on its two parameters (the items are
independent given the abilities), and the items whose conditional posterior is higher there
are moved before the joint Newton phase runs again. Private helpers of :mod:`.model`; every
function trusts its inputs.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.special import betaln, expit

from ._censored import log_lower_tail
from ._newton import NewtonResult, _cell_blocks, _shapes, minimize_newton
from .information import log_prob

#: Rounds of mirror-and-refit; each round that moves an item is followed by a joint Newton phase.
MAX_ROUNDS = 3
#: Newton iterations of the items' conditional refit.
ITEM_ITER = 8
#: Newton decrement (nats) below which an item's conditional refit stops: far below the margin
#: (1e-6 nats) an item must gain to move, and the joint Newton phase converges it after.
ITEM_TOL = 1e-9


def item_objective(params: np.ndarray, cells: Any, prior_sd: float) -> np.ndarray:
    """Per item: the negative log posterior of its cells and its priors, at the given abilities."""
    n, m = cells.n_rows, cells.n_cols
    t, d, a = params[:n], params[n : n + m], params[n + m :]
    out = np.zeros(m)
    for r, c, lp, lq in cells.chunks():
        _aj, _u, _v, alpha, beta = _shapes(t, d, a, r, c)
        cell = (alpha - 1.0) * lp + (beta - 1.0) * lq - betaln(alpha, beta)
        out -= np.bincount(c, weights=cell, minlength=m)
    if cells.c_rows.size:  # the censored cells: log I_c(alpha, beta), or log I_c(beta, alpha) at 1
        aj, u, v = _censored_eta(t, d, a, cells)
        own, other = np.where(cells.c_upper, aj * v, aj * u), np.where(cells.c_upper, aj * u, aj * v)
        ell = log_lower_tail(own, other, cells.c_log, cells.c_log1m)
        out -= np.bincount(cells.c_cols, weights=ell, minlength=m)
    ld, ld1 = log_prob(d)
    return out - (ld + ld1) + (a - 1.0) ** 2 / (2.0 * prior_sd**2)


def _censored_eta(t: np.ndarray, d: np.ndarray, a: np.ndarray, cells: Any) -> tuple[np.ndarray, ...]:
    lt, lt1 = log_prob(t)
    ld, ld1 = log_prob(d)
    r, c = cells.c_rows, cells.c_cols
    return a[c], lt[r] - ld[c], lt1[r] - ld1[c]


def _item_system(x: np.ndarray, cells: Any, prior_sd: float, expected: bool) -> tuple[np.ndarray, ...]:
    """Gradient and 2 x 2 Hessian blocks of the items' conditional objective (as :func:`._newton.system`)."""
    n, m = cells.n_rows, cells.n_cols
    t, d, a = x[:n], x[n : n + m], x[n + m :]
    de, de1 = expit(d), expit(-d)
    g_d, g_a = de - de1, (a - 1.0) / prior_sd**2
    h_dd, h_da, h_aa = 2.0 * de * de1, np.zeros(m), np.full(m, 1.0 / prior_sd**2)
    for _r, c, aj, u, v, ga, gb, p_aa, p_ab, p_bb in _cell_blocks(t, d, a, cells, expected):
        xd, yd = -aj * de1[c], aj * de[c]
        g_d -= np.bincount(c, weights=ga * xd + gb * yd, minlength=m)
        g_a -= np.bincount(c, weights=ga * u + gb * v, minlength=m)
        w_dd = xd * xd * p_aa + yd * yd * p_bb + 2.0 * xd * yd * p_ab
        w_da = xd * u * p_aa + yd * v * p_bb + (xd * v + yd * u) * p_ab
        w_aa = u * u * p_aa + v * v * p_bb + 2.0 * u * v * p_ab
        if not expected:
            w_dd -= aj * de[c] * de1[c] * (ga + gb)
            w_da -= gb * de[c] - ga * de1[c]
        h_dd += np.bincount(c, weights=w_dd, minlength=m)
        h_da += np.bincount(c, weights=w_da, minlength=m)
        h_aa += np.bincount(c, weights=w_aa, minlength=m)
    return g_d, g_a, h_dd, h_da, h_aa


def _item_steps(x: np.ndarray, cells: Any, prior_sd: float) -> tuple[np.ndarray, ...]:
    """Each item's Newton step in ``(logit delta, a)`` (the exact 2 x 2 block, the expected one where that
    is not positive definite, steepest descent where neither is) and its gradient."""
    g_d, g_a, h_dd, h_da, h_aa = _item_system(x, cells, prior_sd, expected=False)
    ok = (h_dd > 0.0) & (h_dd * h_aa - h_da**2 > 0.0)
    if not np.all(ok):
        fisher = _item_system(x, cells, prior_sd, expected=True)[2:]
        h_dd, h_da, h_aa = (np.where(ok, e, f) for e, f in zip((h_dd, h_da, h_aa), fisher))
        ok = (h_dd > 0.0) & (h_dd * h_aa - h_da**2 > 0.0)
    det = np.where(ok, h_dd * h_aa - h_da**2, 1.0)
    sd = np.where(ok, -(h_aa * g_d - h_da * g_a) / det, -g_d)
    sa = np.where(ok, -(h_dd * g_a - h_da * g_d) / det, -g_a)
    return sd, sa, g_d, g_a


def refit_items(
    params: np.ndarray, cells: Any, lower: np.ndarray, upper: np.ndarray, prior_sd: float
) -> tuple[np.ndarray, np.ndarray]:
    """Each item's ``(logit delta, a)`` refitted with the abilities fixed: Newton, halved per item.

    An item drops out when its Newton decrement is below :data:`ITEM_TOL` or its line search
    fails; after :data:`ITEM_ITER` iterations the rest stop where they are (an item whose mirror
    basin has no optimum inside the bounds drifts to one; the joint Newton phase, which decides
    whether a move is kept, converges the others). Returns the parameters and the items' objectives (:func:`item_objective`).
    """
    n, m = cells.n_rows, cells.n_cols
    x = np.clip(params, lower, upper)
    f = item_objective(x, cells, prior_sd)
    items = np.r_[n : n + 2 * m]
    active = np.ones(m, dtype=bool)
    for _ in range(ITEM_ITER):
        sd, sa, g_d, g_a = _item_steps(x, cells, prior_sd)
        # a coordinate at its bound with the step pointing out is held (projected Newton)
        sd[((x[n : n + m] <= lower[n : n + m]) & (sd < 0.0)) | ((x[n : n + m] >= upper[n : n + m]) & (sd > 0.0))] = 0.0
        sa[((x[n + m :] <= lower[n + m :]) & (sa < 0.0)) | ((x[n + m :] >= upper[n + m :]) & (sa > 0.0))] = 0.0
        slope = g_d * sd + g_a * sa
        active &= -slope > ITEM_TOL
        if not np.any(active):
            break
        size = np.minimum(1.0, 1.0 / np.maximum(np.maximum(np.abs(sd), np.abs(sa)), 1e-300))
        pending = active.copy()
        for _half in range(20):
            trial = x.copy()
            trial[n : n + m] += np.where(pending, size * sd, 0.0)
            trial[n + m :] += np.where(pending, size * sa, 0.0)
            trial[items] = np.clip(trial[items], lower[items], upper[items])
            ft = item_objective(trial, cells, prior_sd)
            accept = pending & np.isfinite(ft) & (ft <= f + 1e-4 * size * slope)
            x[n : n + m][accept], x[n + m :][accept] = trial[n : n + m][accept], trial[n + m :][accept]
            f = np.where(accept, ft, f)
            pending &= ~accept
            if not np.any(pending):
                break
            size = size / 2.0
        active &= ~pending
    return x, f


def other_basins(
    res: NewtonResult, cells: Any, lower: np.ndarray, upper: np.ndarray, prior_sd: float, max_iter: int
) -> NewtonResult:
    """The joint fit, with the items moved to their mirror basin where that is better, re-converged.

    Repeats (at most :data:`MAX_ROUNDS` times) while some item's conditional posterior is higher
    in its mirror basin by more than ``1e-6`` nats; keeps a round only if the joint objective
    fell. Returns ``res`` unchanged where no item moves.
    """
    n, m = cells.n_rows, cells.n_cols
    best = res
    for _ in range(MAX_ROUNDS):
        here = item_objective(best.x, cells, prior_sd)
        mirror = best.x.copy()
        mirror[n : n + m] = -mirror[n : n + m]
        mirror[n + m :] = -mirror[n + m :]
        mirror, there = refit_items(mirror, cells, lower, upper, prior_sd)
        switch = there < here - 1e-6
        if not np.any(switch):
            break
        start = best.x.copy()
        start[n : n + m][switch] = mirror[n : n + m][switch]
        start[n + m :][switch] = mirror[n + m :][switch]
        again = minimize_newton(start, cells, lower, upper, prior_sd, max_iter)
        if not again.fun < best.fun:
            break
        best = NewtonResult(
            again.x, again.fun, again.success, best.nit + again.nit, best.nfev + again.nfev, again.message
        )
    return best
