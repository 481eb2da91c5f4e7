"""Adaptive testing on a fitted beta^3-IRT item bank (Song & Flach 2021).

:func:`adaptive_test` evaluates a new respondent (a classifier) on a few well-chosen items
(data sets) of a :class:`~isometrics.irt.model.Beta3IRT` bank: the next item maximises the
Fisher or KL information at the current ability (or is drawn at random), the ability is
re-estimated by MAP after each response with the item parameters fixed, and the test stops
at a standard-error target or a number of items. H. Song and P. Flach, "Efficient and Robust
Model Benchmarks with Item Response Theory and Adaptive Testing", IJIMAI 6(5), 2021.

Why not catsim: catsim is built around the logistic 1PL-4PL models of
dichotomous responses; its item banks are the (a, b, c, d) parameters of those models and its
selectors and estimators use their Bernoulli likelihood and information. beta^3-IRT
responses are continuous in (0, 1) with a Beta likelihood, so neither its information, its
estimators nor its item matrix apply; the loop itself is a few lines, written here.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import digamma, expit, gammaln, polygamma

from .._core.caller import CALLER, current_caller
from .._core.constraints import InBody, Integral, Interval, Options, RandomState, Real, validate_params
from .._core.html import summarised
from .._core.validation import check_integer, check_option, check_real, check_rng
from ..exceptions import InvalidParameterError, IsometricsError
from ._bank import bank_fields
from ._censored import tail_terms
from ._responses import is_real
from .information import LOG_SHAPE_MAX, fisher_information, kl_information, log_prob
from .model import LOGIT_BOUND, Beta3IRT

__all__ = ["AdaptiveTest", "adaptive_test"]


@summarised()
@dataclasses.dataclass(frozen=True, eq=False)
class AdaptiveTest:
    """The record of one adaptive test (from :func:`adaptive_test`).

    Attributes
    ----------
    items : tuple of str
        The items administered, in the order asked.
    responses : ndarray of shape (n_steps,)
        The responses given (as received, before clipping).
    trajectory : ndarray of shape (n_steps,)
        The MAP ability in (0, 1) after each response.
    trajectory_se : ndarray of shape (n_steps,)
        Its standard error after each response (probability scale).
    ability : float
        The final ability (the trajectory's last value).
    ability_se : float
        Its standard error.
    selection : str
        ``"fisher"``, ``"kl"`` or ``"random"``.
    stop_reason : str
        ``"max_items"``, ``"se_target"`` or ``"exhausted"`` (no item left to ask).
    """

    items: tuple[str, ...]
    responses: np.ndarray
    trajectory: np.ndarray
    trajectory_se: np.ndarray
    ability: float
    ability_se: float
    selection: str
    stop_reason: str

    def to_dict(self) -> dict[str, Any]:
        """The test as plain Python types (JSON-ready).

        Returns
        -------
        dict
            ``steps`` (item, response, ability, se) and the summary fields.
        """
        return {
            "steps": [
                {"item": i, "response": float(r), "ability": float(t), "se": float(s)}
                for i, r, t, s in zip(self.items, self.responses, self.trajectory, self.trajectory_se)
            ],
            "ability": float(self.ability),
            "ability_se": float(self.ability_se),
            "selection": self.selection,
            "stop_reason": self.stop_reason,
        }


def _shapes(t: float, ld: np.ndarray, ld1: np.ndarray, a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lt, lt1 = log_prob(np.asarray(t))
    alpha = np.exp(np.clip(a * (lt - ld), -LOG_SHAPE_MAX, LOG_SHAPE_MAX))
    beta = np.exp(np.clip(a * (lt1 - ld1), -LOG_SHAPE_MAX, LOG_SHAPE_MAX))
    return alpha, beta


def ability_map(
    lp: np.ndarray,
    lq: np.ndarray,
    difficulty: np.ndarray,
    discrimination: np.ndarray,
    censored: tuple[np.ndarray, ...] | None = None,
) -> tuple[float, float]:
    """MAP ability (probability scale) and its standard error from responses to items of known parameters.

    The prior is Beta(1, 1) on ability (with the logit Jacobian, as in :func:`fit_beta3`); the
    MAP is found on ``logit theta`` in [-10, 10] by bounded scalar minimisation, and the
    standard error is ``1 / sqrt(observed information + prior curvature)`` on the logit scale,
    mapped by the delta method (the expected information is used should the observed one not
    be positive). ``censored``: ``(difficulty, discrimination, log c, log(1 - c), upper)`` of
    the responses at 0 or 1 read as censored at ``c`` (as :func:`fit_beta3` does); their
    curvature is a central difference of their log tail probabilities.
    """
    ld, ld1 = log_prob(np.log(difficulty) - np.log1p(-difficulty))
    a = discrimination
    if censored is not None:
        c_ld, c_ld1 = log_prob(np.log(censored[0]) - np.log1p(-censored[0]))

    def tails(t: float) -> float:
        if censored is None:
            return 0.0
        lt, lt1 = log_prob(np.asarray(t))
        a_c = censored[1]
        ell = tail_terms(a_c * (lt - c_ld), a_c * (lt1 - c_ld1), censored[2], censored[3], censored[4], False)[0]
        return float(np.sum(ell))

    def objective(t: float) -> float:
        alpha, beta = _shapes(t, ld, ld1, a)
        ll = np.sum((alpha - 1.0) * lp + (beta - 1.0) * lq - gammaln(alpha) - gammaln(beta) + gammaln(alpha + beta))
        lt, lt1 = log_prob(np.asarray(t))
        return -float(ll + lt + lt1) - tails(t)

    res = minimize_scalar(objective, bounds=(-LOGIT_BOUND, LOGIT_BOUND), method="bounded", options={"xatol": 1e-9})
    t = float(res.x)
    th = float(expit(t))
    tail_info = 0.0 if censored is None else -(tails(t + 1e-4) - 2.0 * tails(t) + tails(t - 1e-4)) / 1e-8
    alpha, beta = _shapes(t, ld, ld1, a)
    s = alpha + beta
    da, db = alpha * a * (1.0 - th), -beta * a * th  # d(alpha, beta)/dt
    d2a, d2b = da * (a * (1.0 - th) - th), beta * a * th * (a * th - (1.0 - th))
    ga, gb = lp - digamma(alpha) + digamma(s), lq - digamma(beta) + digamma(s)
    ts = polygamma(1, s)
    dga = -polygamma(1, alpha) * da + ts * (da + db)
    dgb = -polygamma(1, beta) * db + ts * (da + db)
    observed = -float(np.sum(dga * da + ga * d2a + dgb * db + gb * d2b))
    if not observed > 0.0:
        observed = float(np.sum(fisher_information(th, difficulty, a))) * (th * (1.0 - th)) ** 2
    info = observed + max(tail_info, 0.0) + 2.0 * th * (1.0 - th)
    return th, th * (1.0 - th) / math.sqrt(info)


def _adaptive_test_iv(
    bank: Any,
    respond: Any,
    selection: Any,
    max_items: Any,
    se_target: Any,
    rng: Any,
    available: Any,
    start_ability: Any,
) -> tuple[Any, ...]:
    if not isinstance(bank, Beta3IRT):
        raise InvalidParameterError(
            f"{current_caller()}: `bank` must be a Beta3IRT; got {type(bank).__name__}; pass the item bank fit_beta3 returned."
        )
    # the bank's own check, again: a bank unpickled or changed behind the constructor's back
    bank = dataclasses.replace(bank, **bank_fields(bank, "bank."))
    if not (callable(respond) or isinstance(respond, Mapping)):
        raise InvalidParameterError(
            f"{current_caller()}: `respond` must be a callable item -> response or a mapping; got "
            f"{type(respond).__name__}; pass e.g. a dict of item name -> response."
        )
    check_option(selection, "selection", ("fisher", "kl", "random"))
    max_items = check_integer(max_items, "max_items", low=1)
    if se_target is not None:
        se_target = check_real(se_target, "se_target", low=0.0, low_inclusive=False)
    generator = check_rng(rng)
    if available is None:
        pool = list(range(len(bank.items)))
    else:
        if isinstance(available, (str, bytes)) or not isinstance(available, Sequence | np.ndarray):
            shown = repr(available) if isinstance(available, (str, bytes)) else f"a {type(available).__name__}"
            raise InvalidParameterError(
                f"{current_caller()}: `available` must be a list of item names or indices; got "
                f"{shown:.80}; pass e.g. ['{bank.items[0]}'] (a list, in the order "
                "random selection draws from)."
            )
        pool = list(dict.fromkeys(bank.item_index(v) for v in available))
        if not pool:
            raise IsometricsError(f"{current_caller()}: `available` is empty; give at least one item of the bank.")
    if start_ability is None:
        if not bank.respondents:
            raise IsometricsError(
                f"{current_caller()}: `start_ability` is needed: the bank has no respondents whose median "
                "ability could start the test; pass start_ability in (0, 1)."
            )
        start = float(np.median(bank.ability))
    else:
        start = check_real(start_ability, "start_ability", low=0.0, high=1.0, low_inclusive=False, high_inclusive=False)
    return bank, selection, max_items, se_target, generator, pool, start


def _censored_cells(bank: Beta3IRT, edge: list[int], upper: list[bool]) -> tuple[np.ndarray, ...]:
    """The ``censored`` argument of :func:`ability_map` for the items answered 0 or 1 (as ``_cells`` reads them)."""
    idx = np.asarray(edge, dtype=int)
    up = np.asarray(upper, dtype=bool)
    res = np.broadcast_to(np.asarray(bank.resolution, dtype=float), (len(bank.items),))[idx] / 2.0
    floor = np.where(up, -54.0, -1075.0) * np.log(2.0)
    log_c = np.where(res > 0.0, np.log(np.where(res > 0.0, res, 1.0)), floor)
    return bank.difficulty[idx], bank.discrimination[idx], log_c, np.log1p(-np.exp(log_c)), up


def _ask(respond: Callable[[str], Any] | Mapping[str, Any], item: str) -> float:
    if isinstance(respond, Mapping):
        if item not in respond:
            raise IsometricsError(
                f"{current_caller()}: `respond` has no response for item {item!r}; add it or leave the item out of `available`."
            )
        value = respond[item]
    else:
        # the user's code runs outside adaptive_test: a public function it calls (keel_response
        # in `isometrics benchmark adaptive`) names itself in its messages, not adaptive_test
        token = CALLER.set(None)
        try:
            value = respond(item)
        finally:
            CALLER.reset(token)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if not (is_real(value) and 0.0 <= float(value) <= 1.0):  # also refuses NaN
        shown = value.item() if isinstance(value, np.generic) else value
        kind = "" if is_real(value) else f" (a {type(shown).__name__})"
        error = IsometricsError if is_real(value) else InvalidParameterError
        raise error(
            f"{current_caller()}: `respond` returned {shown!r:.80}{kind} for item {item!r}; it must return a real "
            "number in [0, 1], the response to that item: convert or rescale it."
        )
    p = float(value)
    return p


@validate_params(
    {
        "bank": InBody("a Beta3IRT"),
        "respond": InBody("a callable item -> response, or a mapping"),
        "selection": Options("fisher", "kl", "random"),
        "max_items": Interval(Integral, 1, None),
        "se_target": [Interval(Real, 0, None, closed="right"), None],
        "rng": RandomState(),
        "available": InBody("item names or indices, or None"),
        "start_ability": [Interval(Real, 0, 1, closed="neither"), None],
    }
)
def adaptive_test(
    bank: Beta3IRT,
    respond: Callable[[str], float] | Mapping[str, float],
    *,
    selection: str = "fisher",
    max_items: int = 20,
    se_target: float | None = None,
    rng: Any = None,
    available: Sequence[Any] | None = None,
    start_ability: float | None = None,
) -> AdaptiveTest:
    """Test a new respondent adaptively on a fitted item bank.

    At each step the untested item with the largest information at the current ability is
    asked (or a random one), the response is read as the bank's fit read its responses (a 0 or 1
    censored at ``bank.resolution``, or, for a bank fitted with ``eps``, clipped to
    ``[bank.eps, 1 - bank.eps]``), and the
    ability is re-estimated by MAP from all responses so far with the item parameters fixed.

    Parameters
    ----------
    bank : Beta3IRT
        The fitted item bank (from :func:`fit_beta3`).
    respond : callable or mapping
        ``respond(item_name) -> response`` in [0, 1], or a mapping item name -> response.
    selection : {"fisher", "kl", "random"}, default="fisher"
        Closed-form Fisher information, symmetric KL index (step 0.1 on the logit scale), or a
        uniformly random untested item.
    max_items : int, default=20
        Most items asked.
    se_target : float, default=None
        Stop as soon as the ability's standard error (probability scale) is at most this.
    rng : None, int or numpy.random.Generator, default=None
        Randomness of ``selection="random"``.
    available : sequence of str or int, default=None
        The items that may be asked (names or indices; default: every item of the bank).
    start_ability : float, default=None
        Ability in (0, 1) at which the first item is chosen; default: the median ability of
        the bank's respondents (Song & Flach 2021).

    Returns
    -------
    AdaptiveTest
        The items asked, the responses, the ability trajectory and its standard errors.

    Raises
    ------
    IsometricsError
        If a response is missing or outside [0, 1] (naming the item), an item of ``available``
        is unknown, ``available`` is empty, the bank holds what no fit gives (arrays of another
        length than its items, a NaN or out-of-range parameter, ``eps`` outside (0, 0.5): the
        checks of :class:`Beta3IRT`, naming ``bank.<field>``), or the bank has no respondents
        and ``start_ability`` is None.
    InvalidParameterError
        If ``bank`` is not a :class:`Beta3IRT`, ``respond`` is neither callable nor a mapping or
        returns something that is not a real number (a string such as ``"0.5"``, a boolean,
        None), ``available`` is not a list (a string, a set), or ``selection``, ``max_items``,
        ``se_target`` or ``start_ability`` is invalid. It subclasses ``TypeError``.

    Notes
    -----
    The standard error after each step is ``1 / sqrt(observed information + prior curvature)``
    on the logit scale (prior Beta(1, 1) with the logit Jacobian, as in the fit), carried to
    the probability scale by the delta method. Fisher and KL selection are deterministic.

    The loop is written here rather than taken from catsim: catsim's item banks, selectors and
    estimators are those of the logistic 1PL-4PL models of dichotomous (right/wrong) responses,
    with their Bernoulli likelihood and information; beta^3-IRT responses are continuous in
    (0, 1) with a Beta likelihood, so none of them applies.

    References
    ----------
    .. [1] H. Song, P. Flach, "Efficient and robust model benchmarks with item response theory
       and adaptive testing", IJIMAI 6(5), 2021.

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.irt import adaptive_test, fit_beta3
    >>> rng = np.random.default_rng(0)
    >>> bank = fit_beta3(rng.uniform(0.1, 0.9, (8, 12)))
    >>> test = adaptive_test(bank, lambda item: 0.7, max_items=3)
    >>> len(test.items), test.stop_reason
    (3, 'max_items')
    """
    bank, selection, max_items, se_target, generator, pool, start = _adaptive_test_iv(
        bank, respond, selection, max_items, se_target, rng, available, start_ability
    )
    remaining = list(pool)
    asked: list[int] = []
    given: list[float] = []
    lp: list[float] = []
    lq: list[float] = []
    inner: list[int] = []
    edge: list[int] = []
    upper: list[bool] = []
    censor = bool(np.all(np.isfinite(np.asarray(bank.resolution, dtype=float))))  # the bank censored, not clipped
    trajectory: list[float] = []
    ses: list[float] = []
    theta = start
    stop = "exhausted"
    while remaining:
        if len(asked) >= max_items:
            stop = "max_items"
            break
        if se_target is not None and ses and ses[-1] <= se_target:
            stop = "se_target"
            break
        if selection == "random":
            k = int(generator.integers(len(remaining)))
        else:
            fn = fisher_information if selection == "fisher" else kl_information
            idx = np.asarray(remaining)
            k = int(np.argmax(fn(theta, bank.difficulty[idx], bank.discrimination[idx])))
        j = remaining.pop(k)
        p = _ask(respond, bank.items[j])
        asked.append(j)
        given.append(p)
        if censor and p in (0.0, 1.0):
            edge.append(j)
            upper.append(p == 1.0)
        else:
            inner.append(j)
            # log eps directly: 1 - eps rounds to 1 for eps below 2**-53
            lp.append(math.log(p) if p >= bank.eps else math.log(bank.eps))
            lq.append(math.log1p(-p) if 1.0 - p >= bank.eps else math.log(bank.eps))
        idx = np.asarray(inner, dtype=int)
        theta, se = ability_map(
            np.asarray(lp),
            np.asarray(lq),
            bank.difficulty[idx],
            bank.discrimination[idx],
            _censored_cells(bank, edge, upper) if edge else None,
        )
        trajectory.append(theta)
        ses.append(se)
    else:
        if se_target is not None and ses and ses[-1] <= se_target:
            stop = "se_target"
        elif len(asked) >= max_items:
            stop = "max_items"
    return AdaptiveTest(
        items=tuple(bank.items[j] for j in asked),
        responses=np.asarray(given),
        trajectory=np.asarray(trajectory),
        trajectory_se=np.asarray(ses),
        ability=trajectory[-1],
        ability_se=ses[-1],
        selection=selection,
        stop_reason=stop,
    )
