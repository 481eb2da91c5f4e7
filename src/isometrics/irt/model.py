"""beta^3-IRT fitted by maximum a posteriori: abilities, difficulties and discriminations.

:func:`fit_beta3` fits the model of Chen et al. (AISTATS 2019) to a respondents x items
matrix of responses in (0, 1) (a classifier's probability of the true class, or a data-set
level performance measure) and returns a :class:`Beta3IRT`. The maths of the response
distribution and of the information lives in :mod:`.information`; the fitted model's class
lives in :mod:`.beta3` and is re-exported here (``isometrics.irt.model.Beta3IRT`` keeps
working). Model: Y. Chen et al.,
"beta^3-IRT: A New Item Response Model and its Applications", AISTATS 2019.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit
from threadpoolctl import threadpool_limits  # one BLAS thread during the fit (see fit_beta3's Notes)

from .._core.caller import current_caller
from .._core.constraints import InBody, RandomState, validate_params
from .._core.validation import check_rng
from ..exceptions import InvalidParameterError, IsometricsError
from ._basins import other_basins
from ._laplace import joint_laplace
from ._newton import NewtonResult, minimize_newton
from ._objective import LOGIT_BOUND, SIGMA0, _start, negative_log_posterior
from ._responses import _Cells, _cells, data_eps, data_resolution, validate_responses  # noqa: F401 - tests use _Cells
from .beta3 import Beta3IRT
from .information import log_prob

__all__ = ["Beta3IRT", "fit_beta3"]

#: Bounds of the discrimination in the fit.
DISCRIMINATION_BOUND = 10.0
#: Relative objective decrease at which the L-BFGS-B phase of the fit hands over to Newton.
WARM_FTOL = 1e-4
#: Largest Schur complement (``min(n_respondents, 2 n_items)``) the Newton phase solves; beyond it
#: the fit is L-BFGS-B alone, to the tight tolerance.
NEWTON_MAX_SCHUR = 4000
#: Largest ``n_respondents x n_items`` the Newton phase takes on: it holds up to four dense arrays
#: of that size (32 bytes a cell, 4 GB here); beyond it the fit is L-BFGS-B alone.
NEWTON_MAX_CELLS = 125_000_000


# ---------------------------------------------------------------------------- the data
# ---------------------------------------------------------------------------- the objective
def _split(params: np.ndarray, n: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return params[:n], params[n : n + m], params[n + m :]


def _check_resolution(value: Any, m: int) -> Any:
    r = np.asarray(value, dtype=float) if not isinstance(value, str) else np.array(np.nan)
    if r.shape not in ((), (m,)) or not np.all((r >= 0.0) & (r < 1.0)):
        raise InvalidParameterError(
            f"{current_caller()}: `resolution` must be a number in [0, 1) or one per item ({m}); got {value!r}."
        )
    return float(r) if r.ndim == 0 else r


def _random_state(value: Any) -> np.random.Generator:
    ok = isinstance(value, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)) or (
        isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 0
    )
    if not ok:
        raise InvalidParameterError(
            f"{current_caller()}: `random_state` must be None, a non-negative integer seed or a "
            f"numpy.random.Generator; got {value!r}."
        )
    return check_rng(value)


@validate_params(
    {
        "responses": InBody("a matrix of responses in [0, 1] or a long-form table"),
        "respondents": InBody("names, or None"),
        "items": InBody("names, or None"),
        "eps": InBody("a clipping margin, or None"),
        "resolution": InBody("the responses' resolution, or None"),
        "max_iter": InBody("a number of iterations"),
        "missing": InBody("'allow' or 'raise'"),
        "long_form": InBody("the long form's column names, or None"),
        "random_state": RandomState(),
    }
)
def fit_beta3(
    responses: Any,
    *,
    respondents: Sequence[str] | None = None,
    items: Sequence[str] | None = None,
    eps: float | None = None,
    resolution: Any = None,
    max_iter: int = 2000,
    missing: str = "allow",
    long_form: Sequence[str] | None = None,
    random_state: Any = None,
) -> Beta3IRT:
    """Fit beta^3-IRT by maximum a posteriori (L-BFGS-B, then projected Newton; analytic derivatives).

    Each response ``p_ij`` in (0, 1) of respondent ``i`` to item ``j`` is modelled as
    ``Beta(alpha_ij, beta_ij)`` with ``alpha_ij = (theta_i/delta_j)**a_j`` and
    ``beta_ij = ((1-theta_i)/(1-delta_j))**a_j``, so that the expected response is
    ``expit(a_j (logit theta_i - logit delta_j))``.

    Parameters
    ----------
    responses : array-like of shape (n_respondents, n_items) or data frame
        Responses in [0, 1] (NaN: a missing cell). A data frame's columns name the items and,
        for pandas, a non-default index names the respondents.
    respondents : sequence of str, default=None
        Names of the rows (default: the frame's index, else ``"0"``, ``"1"``, ...).
    items : sequence of str, default=None
        Names of the columns (default: the frame's columns, else ``"0"``, ``"1"``, ...).
    eps : float in (0, 0.5), default=None
        None: every response inside (0, 1) keeps its value and the responses at exactly 0 or 1
        are *censored* (see ``resolution``; counted as ``n_censored``). A float: responses are
        clipped to ``[eps, 1 - eps]`` instead (counted as ``n_clipped``); this moves the
        answer (``docs/user_guide/benchmark.md`` shows by how much: eps 1e-3 clips a sixth to
        a third of simulated responses and halves the discriminations' rank agreement with the
        truth on strongly discriminating items).
    resolution : float in [0, 1) or array-like of shape (n_items,), default=None
        With ``eps=None``, the resolution the responses were recorded at: a 0 stands for a value
        below ``resolution / 2`` and a 1 for one above ``1 - resolution / 2``, and such a cell
        contributes ``log P(Y <= resolution / 2)`` (or ``log P(Y >= 1 - resolution / 2)``) under
        its Beta law. One per item for, e.g., an AUROC on ``n_pos x n_neg`` pairs
        (``1 / (n_pos n_neg)``). 0 means float precision (a 0 underflowed below ``2**-1075``, a 1
        is within ``2**-54`` of 1). None: ``10**-k`` if every response is a multiple of it
        (k = 1..9; e.g. 1e-6 for values written with six decimals), else 0. Reported as
        ``resolution``.
    max_iter : int, default=2000
        Most iterations of each phase (L-BFGS-B, then Newton).
    missing : {"allow", "raise"}, default="allow"
        ``"allow"`` skips NaN cells; ``"raise"`` rejects them.
    long_form : sequence of 3 str, default=None
        If given, ``responses`` is long-form: a data frame (or mapping of columns) with one row
        per observed cell, and these are the names of its respondent, item and response columns
        (e.g. ``("model", "dataset", "auroc")``). Respondents and items are ordered by first
        appearance; absent pairs are missing cells.
    random_state : None, int or numpy.random.Generator, default=None
        Seed of a small (1e-3) perturbation of the starting values; None starts exactly at the
        data-driven values.

    Returns
    -------
    Beta3IRT
        Abilities, difficulties, discriminations, their standard errors and the fit's summary.

    Raises
    ------
    IsometricsError
        If ``responses`` is not 2-D, has a value outside [0, 1] or infinite (naming the
        respondent and item), a NaN with ``missing="raise"``, a respondent or item with no
        observed response, fewer than 2 rows or columns, or names of the wrong number; in
        long form, a column that is absent or a (respondent, item) pair given twice.
    InvalidParameterError
        If ``eps`` is not None or in (0, 0.5), ``resolution`` is not in [0, 1) or not one per
        item, both ``eps`` and ``resolution`` are given, ``max_iter`` is not a positive integer
        or ``missing`` is not an option.
    TypeError
        If ``responses`` is not numeric.

    Notes
    -----
    The parameters are fitted on the unconstrained scale ``(logit theta, logit delta, a)``
    (logits bounded to [-10, 10], ``a`` to [-10, 10]) with the exact Beta log-likelihood, its
    digamma gradient and its trigamma Hessian, accumulated per respondent and item with
    ``np.bincount`` over the observed cells in chunks, in two phases. First
    ``scipy.optimize.minimize(method="L-BFGS-B")`` to a loose relative tolerance (1e-4): its
    first iterations decide which sign basin each item ends in. Then a projected Newton
    iteration to convergence: the Hessian is diagonal in the respondents, 2 x 2
    block-diagonal in the items and coupled by one entry per observed cell, so the Newton
    step eliminates one side and solves a dense ``min(n_respondents, 2 n_items)`` square
    system (Schur complement, Cholesky); where the exact Hessian is not positive definite
    the expected (Fisher) information is used; steps are capped at 1 per coordinate,
    backtracked (Armijo) and projected on the bounds. This reaches the optimum of a tightly
    converged L-BFGS-B in a few steps where L-BFGS-B needs a hundred or more evaluations. The
    Newton phase holds up to four dense ``n_respondents x n_items`` arrays (the coupling
    terms and their elimination, 32 bytes a cell); where ``min(n_respondents, 2 n_items)``
    exceeds 4000 or the matrix exceeds 1.25e8 cells, it is skipped and L-BFGS-B runs to its
    tight tolerance alone. The fit runs with one BLAS thread (threadpoolctl): its BLAS work
    is small products, and idle BLAS threads spinning beside the fit made it 2 to 7 times
    slower on a loaded two-core machine. The priors
    are those of the paper:
    ``theta, delta ~ Beta(1, 1)`` (with the Jacobian of the logit map, i.e. ``theta(1-theta)``
    on the logit scale) and ``a ~ N(1, 1)``.

    **Gauge.** The expected response depends on ``a (logit theta - logit delta)`` only; the Beta
    likelihood pins the location and scale through the concentration ``alpha + beta``, and the
    priors fix what remains: no other constraint is imposed. The sign symmetry
    ``(theta, delta, a) -> (1 - theta, 1 - delta, -a)`` (same mean, other concentration) is
    resolved by the N(1, 1) prior and by sign-aware starting values: ``a = -1`` for items whose
    responses correlate negatively with the respondents' mean response, ``+1`` otherwise (as
    in beta^4-IRT, Ferreira-Junior et al. 2023). That choice can be wrong near the ceiling
    (every response close to 1, the correlation weak), and the fit then stays in a local
    optimum; so after the Newton phase each item is refitted, with the abilities held, from
    its mirror image ``(1 - delta, -a)``, the items whose conditional posterior is higher
    there are moved, and the Newton phase runs again (at most three rounds; a round is kept
    only if the joint posterior rose). On matrices drawn from the priors this found a better
    optimum, by 100-150 nats, in about one in ten at 30 x 400.

    **Censored responses.** ``I_c(alpha, beta)``, the regularised incomplete beta function
    (``scipy.special.betainc``; the first term of its series where it underflows), has no
    derivative in its shapes in SciPy: the gradient and curvature of those cells are central
    differences in ``(log alpha, log beta)`` (step 1e-4), on those cells only.

    **Convergence.** The Newton phase stops when the Newton decrement ``-g' H^{-1} g`` (the
    decrease of the quadratic model, in nats, independent of the parameters' scale) is below
    ``1e-12 (1 + |f|)`` or the projected gradient below ``1e-10 (1 + |f|)``; where the Hessian
    is indefinite the Fisher-scoring direction is taken (Levenberg-Marquardt damping if that
    too is singular by rounding), and where a line search along it fails, steepest descent.
    ``converged`` is False only after ``max_iter`` iterations or a line search that fails far
    from the optimum.

    Standard errors and intervals: see :class:`Beta3IRT` (Laplace approximation with the
    joint curvature over all parameters).

    References
    ----------
    .. [1] Y. Chen, T. Silva Filho, R. B. C. Prudencio, T. Diethe, P. Flach, "beta^3-IRT: a new
       item response model and its applications", AISTATS 2019, PMLR 89.
    .. [2] M. Ferreira-Junior et al., "beta^4-IRT: a new beta^3-IRT with enhanced discrimination
       estimation", arXiv:2303.17731, 2023.

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.irt import fit_beta3
    >>> responses = np.array([[0.9, 0.8, 0.7], [0.6, 0.5, 0.2], [0.8, 0.6, 0.3]])
    >>> bank = fit_beta3(responses, respondents=["a", "b", "c"])
    >>> [bank.respondents[i] for i in np.argsort(-bank.ability)]
    ['a', 'c', 'b']
    """
    x, names_r, names_i, eps, max_iter = validate_responses(
        responses, respondents, items, eps, max_iter, missing, long_form
    )
    if eps is not None and resolution is not None:
        raise InvalidParameterError(
            f"{current_caller()}: `eps` clips and `resolution` censors the responses at 0 or 1; got "
            f"eps={eps!r} and resolution={resolution!r}: pass one of them."
        )
    rng = None if random_state is None else _random_state(random_state)
    if eps is None:
        res_used = data_resolution(x) if resolution is None else _check_resolution(resolution, x.shape[1])
        cells, n_censored = _cells(x, None, res_used)
        n_clipped, eps = 0, data_eps(x)
    else:
        cells, n_clipped = _cells(x, eps)
        n_censored, res_used = 0, np.nan
    n, m = x.shape
    bounds = [(-LOGIT_BOUND, LOGIT_BOUND)] * (n + m) + [(-DISCRIMINATION_BOUND, DISCRIMINATION_BOUND)] * m
    with threadpool_limits(limits=1, user_api="blas"):
        # 1. L-BFGS-B, to a loose tolerance when Newton follows: its first iterations decide each item's sign basin
        newton = min(n, 2 * m) <= NEWTON_MAX_SCHUR and n * m <= NEWTON_MAX_CELLS
        warm = minimize(
            negative_log_posterior,
            _start(x, eps, rng),
            args=(cells,),
            jac=True,
            method="L-BFGS-B",
            bounds=bounds,
            options={
                "maxiter": max_iter,
                "maxfun": 2 * max_iter,
                "ftol": WARM_FTOL if newton else 1e-10,
                "gtol": 1e-5,
                "maxcor": 20,
            },
        )
        # 2. projected Newton to convergence: the slow tail of L-BFGS-B in a few exact steps
        if newton:
            lower, upper = np.array(bounds).T
            res = minimize_newton(warm.x, cells, lower, upper, SIGMA0, max_iter)
            # 3. each item's mirror basin, tried with the abilities fixed (see _basins)
            res = other_basins(res, cells, lower, upper, SIGMA0, max_iter)
        else:
            res = NewtonResult(warm.x, float(warm.fun), bool(warm.success), 0, int(warm.nfev), str(warm.message))
        se_t, se_d, se_a = joint_laplace(res.x, cells, SIGMA0, NEWTON_MAX_SCHUR, NEWTON_MAX_CELLS)
    if not np.all(np.isfinite(res.x)):  # pragma: no cover - guarded by the bounds
        raise IsometricsError(f"{current_caller()}: the optimiser diverged ({res.message}).")
    t, d, a = _split(res.x, n, m)
    theta, delta = expit(t), expit(d)
    ll = -res.fun
    lt, lt1 = log_prob(t)
    ld, ld1 = log_prob(d)
    ll -= float(np.sum(lt + lt1) + np.sum(ld + ld1)) - float(np.sum((a - 1.0) ** 2)) / (2.0 * SIGMA0**2)
    return Beta3IRT(
        respondents=names_r,
        items=names_i,
        ability=theta,
        ability_se=theta * (1.0 - theta) * se_t,
        difficulty=delta,
        difficulty_se=delta * (1.0 - delta) * se_d,
        discrimination=a.copy(),
        discrimination_se=se_a,
        n_clipped=n_clipped,
        negative_discrimination=tuple(names_i[j] for j in np.flatnonzero(a < 0.0)),
        log_likelihood=float(ll),
        n_observed=int(cells.rows.size + cells.c_rows.size),
        eps=eps,
        converged=bool(res.success),
        n_iter=int(warm.nit) + int(res.nit),
        n_censored=n_censored,
        resolution=res_used,
    )
