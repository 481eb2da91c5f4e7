"""beta^3-IRT fitted by maximum a posteriori: abilities, difficulties and discriminations.

:func:`fit_beta3` fits the model of Chen et al. (AISTATS 2019) to a respondents x items
matrix of responses in (0, 1) (a classifier's probability of the true class, or a data-set
level performance measure) and returns a :class:`Beta3IRT`. The maths of the response
distribution and of the information lives in :mod:`.information`. Model: Y. Chen et al.,
"beta^3-IRT: A New Item Response Model and its Applications", AISTATS 2019.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy.optimize import minimize
from scipy.special import expit, ndtri
from threadpoolctl import threadpool_limits  # one BLAS thread during the fit (see fit_beta3's Notes)

from .._core.html import summarised
from .._core.validation import check_option, check_real, check_rng
from ..exceptions import InvalidParameterError, IsometricsError
from ._bank import bank_fields, check_ability
from ._basins import other_basins
from ._laplace import joint_laplace, wald_interval
from ._newton import NewtonResult, minimize_newton
from ._objective import LOGIT_BOUND, SIGMA0, _start, negative_log_posterior
from ._responses import _Cells, _cells, data_eps, data_resolution, validate_responses  # noqa: F401 - tests use _Cells
from .information import expected_response, fisher_information, kl_information, log_prob

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


@summarised("respondents", "items", "ability", "difficulty", "discrimination", "n_clipped",
            "negative_discrimination", "log_likelihood", "converged")
@dataclasses.dataclass(frozen=True, eq=False)
class Beta3IRT:
    """A fitted beta^3-IRT model (from :func:`fit_beta3`).

    Attributes
    ----------
    respondents : tuple of str
        Names of the respondents (rows), e.g. classifiers.
    items : tuple of str
        Names of the items (columns), e.g. instances or data sets.
    ability : ndarray of shape (n_respondents,)
        MAP abilities ``theta`` in (0, 1).
    ability_se : ndarray of shape (n_respondents,)
        Laplace standard errors of ``ability`` (probability scale, delta method of the logit
        scale's joint curvature; see Notes).
    difficulty : ndarray of shape (n_items,)
        MAP difficulties ``delta`` in (0, 1).
    difficulty_se : ndarray of shape (n_items,)
        Laplace standard errors of ``difficulty`` (probability scale).
    discrimination : ndarray of shape (n_items,)
        MAP discriminations ``a`` (real; negative means the item's expected response falls
        as ability rises: on benchmark data most often an item near the ceiling, where every
        respondent scores nearly perfectly and the better ones do not score higher).
    discrimination_se : ndarray of shape (n_items,)
        Laplace standard errors of ``discrimination``.
    n_clipped : int
        Number of observed responses moved to ``[eps, 1 - eps]`` (with the default ``eps``,
        those at exactly 0 or 1).
    negative_discrimination : tuple of str
        Names of the items with ``discrimination < 0``.
    log_likelihood : float
        Beta log-likelihood of the (clipped) observed responses at the estimates (no prior).
    n_observed : int
        Number of observed (non-missing) cells.
    eps : float
        The clipping margin used (chosen from the data unless given; see :func:`fit_beta3`).
    converged : bool
        Whether the optimiser converged (the projected Newton phase, or L-BFGS-B where it ran
        alone).
    n_iter : int
        Iterations: L-BFGS-B's plus Newton's.
    n_censored : int
        Number of responses at exactly 0 or 1 treated as censored (``eps=None``; else 0).
    resolution : float or ndarray of shape (n_items,)
        The resolution the censored responses were read at (0: float precision; NaN when
        ``eps`` clipped instead).

    Raises
    ------
    IsometricsError
        If a field holds what no fit gives (checked when the bank is built, by
        :func:`fit_beta3` or by hand): arrays of another length than the names, an ability or
        difficulty outside (0, 1) or NaN, a discrimination that is not finite, a negative
        standard error, ``eps`` outside (0, 0.5), a ``resolution`` outside [0, 1), or names
        that repeat.
    InvalidParameterError
        If the names are not a tuple of strings or an array is not numeric.

    Notes
    -----
    Standard errors come from a Laplace approximation of the joint posterior: the diagonal of
    the inverse of the full Hessian of the negative log posterior at the MAP over all
    ``n_respondents + 2 n_items`` parameters (the exact Hessian, i.e. the observed information
    plus the priors' curvature; the expected one where that is not positive definite),
    computed through the Schur complement of the arrow-shaped Hessian without forming the
    dense inverse. No gauge constraint is imposed (the priors and the Beta concentration pin
    location and scale, so the Hessian is positive definite at the MAP), so nothing is
    projected out: the interval of a parameter is that of its Laplace-approximated marginal
    posterior. See :meth:`ability_interval` for the coverage measured and what the intervals
    mean when the priors do not describe the data. They are taken on the logit scale and
    mapped to the probability scale by the delta method; :meth:`ability_interval`,
    :meth:`difficulty_interval` and :meth:`discrimination_interval` give the intervals (on
    the logit scale, mapped back). Past the sizes the Newton phase takes on, the
    block-diagonal expected information is used instead (one block per respondent and item).
    """

    respondents: tuple[str, ...]
    items: tuple[str, ...]
    ability: np.ndarray
    ability_se: np.ndarray
    difficulty: np.ndarray
    difficulty_se: np.ndarray
    discrimination: np.ndarray
    discrimination_se: np.ndarray
    n_clipped: int
    negative_discrimination: tuple[str, ...]
    log_likelihood: float
    n_observed: int
    eps: float
    converged: bool
    n_iter: int
    n_censored: int = 0
    resolution: Any = float("nan")

    def __post_init__(self) -> None:
        for name, value in bank_fields(self, "Beta3IRT").items():  # a bank is checked where it is built
            object.__setattr__(self, name, value)

    def item_index(self, item: Any, *, caller: str = "Beta3IRT") -> int:
        """Position of ``item`` (an integer index or an item name) in :attr:`items`.

        Parameters
        ----------
        item : int or str
            Index or name of the item.
        caller : str, default="Beta3IRT"
            Name used in the error message.

        Returns
        -------
        int
            The item's position.

        Raises
        ------
        IsometricsError
            If ``item`` is neither a valid index nor the name of an item.
        """
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if -len(self.items) <= int(item) < len(self.items):
                return int(item) % len(self.items)
            raise IsometricsError(f"{caller}: item index {int(item)} is out of range; the bank has "
                                  f"{len(self.items)} items.")
        try:
            return self.items.index(str(item))
        except ValueError:
            shown = ", ".join(self.items[:10]) + (", ..." if len(self.items) > 10 else "")
            raise IsometricsError(f"{caller}: unknown item {item!r}; give an index or one of {shown}.") from None

    def _ability(self, ability: Any, caller: str) -> np.ndarray:
        return check_ability(ability, caller)

    def expected_response(self, ability: Any, item: Any) -> Any:
        """Expected response (the Beta mean) of a respondent of ``ability`` to ``item``.

        Parameters
        ----------
        ability : float or array-like of float
            Abilities in (0, 1).
        item : int or str
            Index or name of the item.

        Returns
        -------
        float or ndarray
            ``expit(a (logit ability - logit difficulty))``, shaped like ``ability``.

        Raises
        ------
        IsometricsError
            If ``ability`` is outside (0, 1) or ``item`` is unknown.
        InvalidParameterError
            If ``ability`` is not a real number or an array of them (a string, None, ragged).

        Examples
        --------
        >>> import numpy as np
        >>> from isometrics.irt import fit_beta3
        >>> bank = fit_beta3(np.array([[0.9, 0.8, 0.6], [0.6, 0.5, 0.2], [0.8, 0.6, 0.3]]))
        >>> 0 < bank.expected_response(0.5, 0) < 1
        True
        """
        j = self.item_index(item, caller="Beta3IRT.expected_response")
        t = self._ability(ability, "Beta3IRT.expected_response")
        out = expected_response(t, self.difficulty[j], self.discrimination[j])
        return float(out) if out.ndim == 0 else out

    def information(self, ability: Any, item: Any, kind: str = "fisher") -> Any:
        """Information ``item`` carries about ability at ``ability``.

        Parameters
        ----------
        ability : float or array-like of float
            Abilities in (0, 1).
        item : int or str
            Index or name of the item.
        kind : {"fisher", "kl"}, default="fisher"
            ``"fisher"``: the closed-form Fisher information about ``theta`` (probability
            scale); ``"kl"``: the symmetric finite-difference KL index (step 0.1 on the logit
            scale).

        Returns
        -------
        float or ndarray
            Shaped like ``ability``.

        Raises
        ------
        IsometricsError
            If ``ability`` is outside (0, 1) or ``item`` is unknown.
        InvalidParameterError
            If ``ability`` is not a real number or an array of them (a string, None, ragged), or
            ``kind`` is not one of the above.

        References
        ----------
        H. Song and P. Flach, "Efficient and Robust Model Benchmarks with Item Response
        Theory and Adaptive Testing", Int. J. Interactive Multimedia and AI 6(5), 2021.

        Examples
        --------
        >>> import numpy as np
        >>> from isometrics.irt import fit_beta3
        >>> bank = fit_beta3(np.array([[0.9, 0.8, 0.6], [0.6, 0.5, 0.2], [0.8, 0.6, 0.3]]))
        >>> bank.information(0.5, 0) > 0
        True
        """
        caller = "Beta3IRT.information"
        check_option(kind, "kind", ("fisher", "kl"), caller=caller)
        j = self.item_index(item, caller=caller)
        t = self._ability(ability, caller)
        fn = fisher_information if kind == "fisher" else kl_information
        out = np.asarray(fn(t, self.difficulty[j], self.discrimination[j]))
        return float(out) if out.ndim == 0 else out

    def _interval(self, value: np.ndarray, se: np.ndarray, level: Any, caller: str, logit_scale: bool) -> np.ndarray:
        level = check_real(level, "level", caller=caller, low=0.0, high=1.0, low_inclusive=False,
                           high_inclusive=False)
        if logit_scale:  # the curvature was taken on the logit scale
            return wald_interval(value, se, level)
        z = float(ndtri(0.5 + level / 2.0))
        return np.column_stack([value - z * se, value + z * se])

    def ability_interval(self, level: float = 0.95) -> np.ndarray:
        """Laplace interval of each ability: ``expit(logit theta +- z se)`` on the logit scale.

        Parameters
        ----------
        level : float, default=0.95
            Nominal coverage in (0, 1).

        Returns
        -------
        ndarray of shape (n_respondents, 2)
            Lower and upper ends, in (0, 1).

        Raises
        ------
        InvalidParameterError
            If ``level`` is not in (0, 1).

        Notes
        -----
        The standard error is the square root of the diagonal of the inverse of the full
        Hessian of the negative log posterior at the MAP (all abilities, difficulties and
        discriminations jointly; no gauge is fixed, the priors and the Beta concentration pin
        location and scale), on the logit scale. The interval is therefore a Laplace
        (normal) approximation of the marginal posterior of ``logit theta`` under the model
        and the paper's priors, mapped back by ``expit``: a credible interval, not a
        frequentist one. It carries the item parameters' uncertainty (the joint curvature),
        not the bias of the joint MAP itself.

        Measured (``benchmarks/bench_irt.py --issue22``): with the parameters drawn from the
        priors (theta, delta ~ U(0, 1), a ~ N(1, 1); 40 matrices each of 30 x 100 and
        30 x 400) nominal 95 % intervals cover 95.0 % and 95.3 % of the true abilities (92 %
        at 30 x 400 before the fit tried each item's mirror sign basin: a tenth of those
        matrices had stopped in a local optimum). On fixed designs whose parameters the
        priors do not describe (abilities uniform on (0.05, 0.95), a ~ N(1, 0.5^2) or
        |N(2, 0.5^2)|) they cover 39-78 %: the MAP's logit scale is off by a common factor
        (slopes of logit theta-hat on logit theta 0.87-0.93, or 1.09 for strongly
        discriminating items; RMS errors 0.12-0.20 on the logit scale against median
        half-widths 0.12-0.16), because the weakly identified direction
        ``(c logit theta, c logit delta, a / c)`` is set by the priors, not by the data.
        That bias is common to all respondents: the interval is then right about the ranking
        and the separation of respondents (against the rescaled truth the same intervals
        cover 98-100 %), not about an ability's absolute value on the probability scale.
        ``docs/user_guide/benchmark.md`` gives the coverage, bias, RMS error and interval
        half-width per design.

        Examples
        --------
        >>> import numpy as np
        >>> from isometrics.irt import fit_beta3
        >>> bank = fit_beta3(np.array([[0.9, 0.8, 0.6], [0.6, 0.5, 0.2], [0.8, 0.6, 0.3]]))
        >>> bank.ability_interval(0.9).shape
        (3, 2)
        """
        return self._interval(self.ability, self.ability_se, level, "Beta3IRT.ability_interval", True)

    def difficulty_interval(self, level: float = 0.95) -> np.ndarray:
        """Laplace interval of each difficulty: ``expit(logit delta +- z se)`` (as :meth:`ability_interval`).

        Parameters
        ----------
        level : float, default=0.95
            Nominal coverage in (0, 1).

        Returns
        -------
        ndarray of shape (n_items, 2)
            Lower and upper ends, in (0, 1).

        Raises
        ------
        InvalidParameterError
            If ``level`` is not in (0, 1).
        """
        return self._interval(self.difficulty, self.difficulty_se, level, "Beta3IRT.difficulty_interval", True)

    def discrimination_interval(self, level: float = 0.95) -> np.ndarray:
        """Laplace interval of each discrimination: ``a +- z se`` (joint curvature, as :meth:`ability_interval`).

        Parameters
        ----------
        level : float, default=0.95
            Nominal coverage in (0, 1).

        Returns
        -------
        ndarray of shape (n_items, 2)
            Lower and upper ends (real).

        Raises
        ------
        InvalidParameterError
            If ``level`` is not in (0, 1).
        """
        return self._interval(self.discrimination, self.discrimination_se, level,
                              "Beta3IRT.discrimination_interval", False)

    def to_dict(self) -> dict[str, Any]:
        """The fit as plain Python types (JSON-ready).

        Returns
        -------
        dict
            ``respondents`` (name, ability, ability_se), ``items`` (name, difficulty,
            difficulty_se, discrimination, discrimination_se) and the scalar summaries.
        """
        return {
            "respondents": [{"name": n, "ability": float(t), "ability_se": float(s)}
                            for n, t, s in zip(self.respondents, self.ability, self.ability_se)],
            "items": [{"name": n, "difficulty": float(d), "difficulty_se": float(ds), "discrimination": float(a),
                       "discrimination_se": float(as_)}
                      for n, d, ds, a, as_ in zip(self.items, self.difficulty, self.difficulty_se,
                                                  self.discrimination, self.discrimination_se)],
            "n_clipped": int(self.n_clipped), "negative_discrimination": list(self.negative_discrimination),
            "log_likelihood": float(self.log_likelihood), "n_observed": int(self.n_observed),
            "eps": float(self.eps), "converged": bool(self.converged), "n_iter": int(self.n_iter),
            "n_censored": int(self.n_censored), "resolution": np.asarray(self.resolution, dtype=float).tolist(),
        }


# ---------------------------------------------------------------------------- the data
# ---------------------------------------------------------------------------- the objective
def _split(params: np.ndarray, n: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return params[:n], params[n:n + m], params[n + m:]


def _check_resolution(value: Any, m: int, caller: str) -> Any:
    r = np.asarray(value, dtype=float) if not isinstance(value, str) else np.array(np.nan)
    if r.shape not in ((), (m,)) or not np.all((r >= 0.0) & (r < 1.0)):
        raise InvalidParameterError(f"{caller}: `resolution` must be a number in [0, 1) or one per item ({m}); "
                                    f"got {value!r}.")
    return float(r) if r.ndim == 0 else r


def _random_state(value: Any, caller: str) -> np.random.Generator:
    ok = isinstance(value, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)) or (
        isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 0)
    if not ok:
        raise InvalidParameterError(f"{caller}: `random_state` must be None, a non-negative integer seed or a "
                                    f"numpy.random.Generator; got {value!r}.")
    return check_rng(value, caller=caller)


def fit_beta3(responses: Any, *, respondents: Sequence[str] | None = None, items: Sequence[str] | None = None,
              eps: float | None = None, resolution: Any = None, max_iter: int = 2000, missing: str = "allow",
              long_form: Sequence[str] | None = None, random_state: Any = None) -> Beta3IRT:
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
    caller = "fit_beta3"
    x, names_r, names_i, eps, max_iter = validate_responses(responses, respondents, items, eps, max_iter, missing,
                                                            long_form, caller)
    if eps is not None and resolution is not None:
        raise InvalidParameterError(f"{caller}: `eps` clips and `resolution` censors the responses at 0 or 1; got "
                                    f"eps={eps!r} and resolution={resolution!r}: pass one of them.")
    rng = None if random_state is None else _random_state(random_state, caller)
    if eps is None:
        res_used = data_resolution(x) if resolution is None else _check_resolution(resolution, x.shape[1], caller)
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
        warm = minimize(negative_log_posterior, _start(x, eps, rng), args=(cells,), jac=True, method="L-BFGS-B",
                        bounds=bounds, options={"maxiter": max_iter, "maxfun": 2 * max_iter,
                                                "ftol": WARM_FTOL if newton else 1e-10, "gtol": 1e-5, "maxcor": 20})
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
        raise IsometricsError(f"{caller}: the optimiser diverged ({res.message}).")
    t, d, a = _split(res.x, n, m)
    theta, delta = expit(t), expit(d)
    ll = -res.fun
    lt, lt1 = log_prob(t)
    ld, ld1 = log_prob(d)
    ll -= float(np.sum(lt + lt1) + np.sum(ld + ld1)) - float(np.sum((a - 1.0) ** 2)) / (2.0 * SIGMA0**2)
    return Beta3IRT(
        respondents=names_r, items=names_i, ability=theta, ability_se=theta * (1.0 - theta) * se_t,
        difficulty=delta, difficulty_se=delta * (1.0 - delta) * se_d, discrimination=a.copy(),
        discrimination_se=se_a, n_clipped=n_clipped,
        negative_discrimination=tuple(names_i[j] for j in np.flatnonzero(a < 0.0)),
        log_likelihood=float(ll), n_observed=int(cells.rows.size + cells.c_rows.size), eps=eps,
        converged=bool(res.success), n_iter=int(warm.nit) + int(res.nit), n_censored=n_censored, resolution=res_used)

