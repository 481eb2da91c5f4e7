"""The fitted beta^3-IRT model: a bank of items with their difficulties and discriminations.

A :class:`Beta3IRT` holds what :func:`~isometrics.irt.model.fit_beta3` estimates (the
respondents' abilities, the items' difficulties and discriminations, their standard errors
and the fit's diagnostics), or a bank built by hand from published item parameters. It
answers the questions asked of a bank: the expected response and the information of an
item at an ability, Laplace intervals of the parameters, and the fit as plain data. The
fitting itself is in :mod:`.model`, which re-exports this class. Model: Y. Chen et al.,
"beta^3-IRT: A New Item Response Model and its Applications", AISTATS 2019.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
from scipy.special import ndtri

from .._core.caller import current_caller
from .._core.constraints import InBody, Interval, Real, validate_params
from .._core.html import summarised
from .._core.validation import check_option, check_real
from ..exceptions import IsometricsError
from ._bank import bank_fields, check_ability
from ._laplace import wald_interval
from .information import expected_response, fisher_information, kl_information

__all__ = ["Beta3IRT"]

_ITEM = InBody("an item index or name", invalid=["no such item"])
_ABILITY = InBody("abilities in (0, 1)", invalid=[1.5])
_LEVEL = Interval(Real, 0.0, 1.0, closed="neither")


@summarised(
    "respondents",
    "items",
    "ability",
    "difficulty",
    "discrimination",
    "n_clipped",
    "negative_discrimination",
    "log_likelihood",
    "converged",
)
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
        for name, value in bank_fields(self, name="Beta3IRT").items():  # a bank is checked where it is built
            object.__setattr__(self, name, value)

    # Called by itself, it names the class, as it always has; under a method or adaptive_test, theirs.
    @validate_params({"item": _ITEM}, name="Beta3IRT")
    def item_index(self, item: Any) -> int:
        """Position of ``item`` (an integer index or an item name) in :attr:`items`.

        Parameters
        ----------
        item : int or str
            Index or name of the item.

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
            raise IsometricsError(
                f"{current_caller()}: item index {int(item)} is out of range; the bank has {len(self.items)} items."
            )
        try:
            return self.items.index(str(item))
        except ValueError:
            shown = ", ".join(self.items[:10]) + (", ..." if len(self.items) > 10 else "")
            raise IsometricsError(
                f"{current_caller()}: unknown item {item!r}; give an index or one of {shown}."
            ) from None

    @validate_params({"ability": _ABILITY, "item": _ITEM}, name="Beta3IRT.expected_response")
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
        j = self.item_index(item)
        t = check_ability(ability)
        out = expected_response(t, self.difficulty[j], self.discrimination[j])
        return float(out) if out.ndim == 0 else out

    @validate_params(
        {"ability": _ABILITY, "item": _ITEM, "kind": InBody("'fisher' or 'kl'")}, name="Beta3IRT.information"
    )
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
        check_option(kind, "kind", ("fisher", "kl"))
        j = self.item_index(item)
        t = check_ability(ability)
        fn = fisher_information if kind == "fisher" else kl_information
        out = np.asarray(fn(t, self.difficulty[j], self.discrimination[j]))
        return float(out) if out.ndim == 0 else out

    def _interval(self, value: np.ndarray, se: np.ndarray, level: Any, logit_scale: bool) -> np.ndarray:
        level = check_real(level, "level", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
        if logit_scale:  # the curvature was taken on the logit scale
            return wald_interval(value, se, level)
        z = float(ndtri(0.5 + level / 2.0))
        return np.column_stack([value - z * se, value + z * se])

    @validate_params({"level": _LEVEL}, name="Beta3IRT.ability_interval")
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
        return self._interval(self.ability, self.ability_se, level, True)

    @validate_params({"level": _LEVEL}, name="Beta3IRT.difficulty_interval")
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
        return self._interval(self.difficulty, self.difficulty_se, level, True)

    @validate_params({"level": _LEVEL}, name="Beta3IRT.discrimination_interval")
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
        return self._interval(self.discrimination, self.discrimination_se, level, False)

    def to_dict(self) -> dict[str, Any]:
        """The fit as plain Python types (JSON-ready).

        Returns
        -------
        dict
            ``respondents`` (name, ability, ability_se), ``items`` (name, difficulty,
            difficulty_se, discrimination, discrimination_se) and the scalar summaries.
        """
        return {
            "respondents": [
                {"name": n, "ability": float(t), "ability_se": float(s)}
                for n, t, s in zip(self.respondents, self.ability, self.ability_se)
            ],
            "items": [
                {
                    "name": n,
                    "difficulty": float(d),
                    "difficulty_se": float(ds),
                    "discrimination": float(a),
                    "discrimination_se": float(as_),
                }
                for n, d, ds, a, as_ in zip(
                    self.items, self.difficulty, self.difficulty_se, self.discrimination, self.discrimination_se
                )
            ],
            "n_clipped": int(self.n_clipped),
            "negative_discrimination": list(self.negative_discrimination),
            "log_likelihood": float(self.log_likelihood),
            "n_observed": int(self.n_observed),
            "eps": float(self.eps),
            "converged": bool(self.converged),
            "n_iter": int(self.n_iter),
            "n_censored": int(self.n_censored),
            "resolution": np.asarray(self.resolution, dtype=float).tolist(),
        }
