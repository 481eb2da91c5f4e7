r"""Weighted power means of precision and recall, and the two-parameter family G(beta, rho).

All functions broadcast over their array arguments (precision, recall and the
parameters) and are evaluated in logarithms, so that they stay accurate to about
1e-14 relative for exponents of any size, next to the geometric mean (``phi -> 0``,
``rho -> -1``) and at precision or recall 0. This module validates the arguments and
documents the family; the log-domain kernels that evaluate it are in :mod:`._log_means`.

The family, with precision :math:`P` and recall :math:`R` in [0, 1]:

.. math::

    W_{\gamma,\varphi}(P, R) = \left(\frac{\gamma P^{\varphi} + R^{\varphi}}{1+\gamma}\right)^{1/\varphi},
    \qquad
    G_{\beta,\rho}(P, R) = W_{\beta^{\rho},\,\rho+1}(P, R).

References
----------
.. [1] G. Gandenberger, "Evaluating Classification Models", blog posts, 2019: Part 3, "F-beta and
   Other Weighted Pythagorean Means of Precision and Recall", and Part 4, "Weighted Power Means of
   Precision and Recall" (the G(beta, rho) family; its mapping is corrected in :func:`g_beta_rho`).
.. [2] C. J. van Rijsbergen, *Information Retrieval*, 2nd ed., 1979 (F-beta, E = 1 - F).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import NUMBERS, validate_params
from .._core.validation import check_broadcast, check_real_array, check_unit_interval
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError
from ._log_means import (
    _finish,
    _is_scalar,
    _limit_exponent,
    _log_g_fixed,
    _log_power_mean,
    _power_mean_log_gamma,
)

__all__ = [
    "power_mean",
    "weighted_arithmetic_mean",
    "weighted_geometric_mean",
    "weighted_harmonic_mean",
    "fbeta",
    "g_beta_rho",
]


def _as_unit_interval(values: ArrayLike, name: str) -> FloatArray:
    return check_unit_interval(values, name, hint=" Precision and recall are fractions, not percentages.")


def _as_param(
    values: ArrayLike,
    name: str,
    *,
    low: float,
    high: float,
    low_open: bool = False,
    allow_inf: bool = True,
) -> FloatArray:
    arr = check_real_array(values, name)
    ok = (arr > low) if low_open else (arr >= low)
    ok &= arr <= high
    if not allow_inf:
        ok &= np.isfinite(arr)
    if not ok.all():
        bad = arr.ravel()[np.flatnonzero(~ok.ravel())[0]]
        bound = f"{'>' if low_open else '>='} {low:g}"
        finite = " and finite" if not allow_inf else ""
        raise InvalidParameterError(f"{current_caller()}: `{name}` must be a real number {bound}{finite}; got {bad!r}.")
    return arr


def _as_exponent(values: ArrayLike, name: str) -> FloatArray:
    """``phi`` or ``rho``: real numbers in [-inf, inf]."""
    arr = check_real_array(values, name)
    if np.isnan(arr).any():
        raise InvalidParameterError(f"{current_caller()}: `{name}` must be a real number or +-inf; got NaN.")
    return arr


@validate_params({"precision": NUMBERS, "recall": NUMBERS, "gamma": NUMBERS, "phi": NUMBERS})
def power_mean(precision: ArrayLike, recall: ArrayLike, *, gamma: ArrayLike = 1.0, phi: ArrayLike) -> Any:
    r"""Weighted power mean of precision and recall.

    .. math::

        W_{\gamma,\varphi}(P, R) = \left(\frac{\gamma P^{\varphi} + R^{\varphi}}{1+\gamma}\right)^{1/\varphi}

    with the limits :math:`\varphi \to 0`: :math:`(P^{\gamma} R)^{1/(1+\gamma)}` (geometric),
    :math:`\varphi \to +\infty`: :math:`\max(P, R)`, :math:`\varphi \to -\infty`: :math:`\min(P, R)`.

    Parameters
    ----------
    precision, recall : float or array-like
        Values in [0, 1]; broadcast against each other and the parameters.
    gamma : float or array-like, default=1.0
        Weight of precision relative to recall, in [0, inf]. ``gamma=0`` gives recall,
        ``gamma=inf`` precision. On the arithmetic mean (``phi=1``) one point of precision
        is worth ``gamma`` points of recall.
    phi : float or array-like
        Exponent in [-inf, inf]: 1 arithmetic, 0 geometric, -1 harmonic.

    Returns
    -------
    float or ndarray of float64
        The mean, in [min(P, R), max(P, R)]; higher is better. A float when every input
        is a scalar, else an array of the broadcast shape.

    Raises
    ------
    InvalidParameterError
        If precision or recall is outside [0, 1] or NaN, or ``gamma`` is negative or NaN,
        or ``phi`` is NaN; if an argument is not a real number or an array of them
        (strings, ``None``, complex numbers, ragged sequences), or the arguments' shapes
        do not broadcast together.

    See Also
    --------
    g_beta_rho : the same family parametrised by break-even ratio and curvature.

    Notes
    -----
    Evaluated as :math:`\exp(\log W)` with :math:`\log W` computed by ``log1p``/``expm1``
    near :math:`\varphi = 0` and by a log-sum-exp elsewhere; :math:`|\varphi| \geq 10^{20}`
    is its min/max limit. Checked against mpmath to 1e-12 relative over the whole double
    range of :math:`\varphi` and :math:`\gamma`, with P or R equal to 0 or 1.

    References
    ----------
    .. [1] G. Gandenberger, "Weighted Power Means of Precision and Recall", blog post, 2019.

    Examples
    --------
    >>> from isometrics import power_mean
    >>> power_mean(0.5, 1.0, phi=1)          # arithmetic
    0.75
    >>> round(power_mean(0.5, 1.0, phi=-1), 12)  # harmonic = F1
    0.666666666667
    >>> power_mean(0.5, 1.0, phi=float("-inf"))
    0.5
    """
    return _power_mean(precision, recall, gamma, phi)


def _power_mean(precision: ArrayLike, recall: ArrayLike, gamma: ArrayLike, phi: ArrayLike) -> Any:
    p = _as_unit_interval(precision, "precision")
    r = _as_unit_interval(recall, "recall")
    g = _as_param(gamma, "gamma", low=0.0, high=np.inf)
    f = _as_exponent(phi, "phi")
    check_broadcast(precision=p, recall=r, gamma=g, phi=f)
    with np.errstate(divide="ignore"):
        return _power_mean_log_gamma(p, r, np.log(g), f, g)


@validate_params({"precision": NUMBERS, "recall": NUMBERS, "gamma": NUMBERS})
def weighted_arithmetic_mean(precision: ArrayLike, recall: ArrayLike, *, gamma: ArrayLike = 1.0) -> Any:
    r"""Weighted arithmetic mean :math:`(\gamma P + R)/(1 + \gamma)`.

    Its level curves are straight lines of slope :math:`-\gamma` in the (recall,
    precision) plane: one point of precision is worth ``gamma`` points of recall.

    Parameters
    ----------
    precision, recall : float or array-like
        Values in [0, 1].
    gamma : float or array-like, default=1.0
        Weight of precision, in [0, inf].

    Returns
    -------
    float or ndarray of float64
        In [0, 1]; higher is better.

    Raises
    ------
    InvalidParameterError
        As :func:`power_mean`.

    References
    ----------
    .. [1] G. Gandenberger, "F-beta and Other Weighted Pythagorean Means of Precision and
       Recall", blog post, 2019, section "The Weighted Arithmetic Mean".

    Examples
    --------
    >>> from isometrics import weighted_arithmetic_mean
    >>> weighted_arithmetic_mean(0.5, 1.0, gamma=3)
    0.625
    """
    return _power_mean(precision, recall, gamma, 1.0)


@validate_params({"precision": NUMBERS, "recall": NUMBERS, "gamma": NUMBERS})
def weighted_geometric_mean(precision: ArrayLike, recall: ArrayLike, *, gamma: ArrayLike = 1.0) -> Any:
    r"""Weighted geometric mean :math:`(P^{\gamma} R)^{1/(1+\gamma)}`.

    Parameters
    ----------
    precision, recall : float or array-like
        Values in [0, 1].
    gamma : float or array-like, default=1.0
        Weight of precision, in [0, inf]. ``G(beta, rho=-1)`` is this mean with
        ``gamma = 1/beta``.

    Returns
    -------
    float or ndarray of float64
        In [0, 1]; higher is better; 0 when precision or recall is 0 (for finite
        positive ``gamma``).

    Raises
    ------
    InvalidParameterError
        As :func:`power_mean`.

    Examples
    --------
    >>> from isometrics import weighted_geometric_mean
    >>> weighted_geometric_mean(0.25, 1.0)
    0.5
    """
    return _power_mean(precision, recall, gamma, 0.0)


@validate_params({"precision": NUMBERS, "recall": NUMBERS, "gamma": NUMBERS})
def weighted_harmonic_mean(precision: ArrayLike, recall: ArrayLike, *, gamma: ArrayLike = 1.0) -> Any:
    r"""Weighted harmonic mean :math:`\left((\gamma P^{-1} + R^{-1})/(1+\gamma)\right)^{-1}`.

    This is F-beta with :math:`\gamma = 1/\beta^2`.

    Parameters
    ----------
    precision, recall : float or array-like
        Values in [0, 1].
    gamma : float or array-like, default=1.0
        Weight of precision, in [0, inf].

    Returns
    -------
    float or ndarray of float64
        In [0, 1]; higher is better; 0 when precision or recall is 0.

    Raises
    ------
    InvalidParameterError
        As :func:`power_mean`.

    Examples
    --------
    >>> from isometrics import weighted_harmonic_mean
    >>> weighted_harmonic_mean(0.5, 1.0, gamma=1)
    0.6666666666666666
    """
    return _power_mean(precision, recall, gamma, -1.0)


@validate_params({"precision": NUMBERS, "recall": NUMBERS, "beta": NUMBERS})
def fbeta(precision: ArrayLike, recall: ArrayLike, *, beta: ArrayLike = 1.0) -> Any:
    r"""F-beta of precision and recall, :math:`(1+\beta^2) P R / (\beta^2 P + R)`.

    Parameters
    ----------
    precision, recall : float or array-like
        Values in [0, 1].
    beta : float or array-like, default=1.0
        Recall/precision ratio at which a point of either is worth the same, in
        [0, inf]: ``beta > 1`` weights recall more. ``beta=0`` is precision and
        ``beta=inf`` recall.

    Returns
    -------
    float or ndarray of float64
        In [0, 1]; higher is better; 0 when precision or recall is 0.

    Raises
    ------
    InvalidParameterError
        If precision or recall is outside [0, 1], or ``beta`` is negative or NaN; as
        :func:`power_mean` for arguments that are not real numbers or do not broadcast.

    See Also
    --------
    isometrics.fbeta_score : F-beta from labels, computed from counts, which is defined
        where precision is not (no predicted positives).

    Examples
    --------
    >>> from isometrics import fbeta
    >>> round(fbeta(0.5, 1.0, beta=2), 12)
    0.833333333333
    """
    p = _as_unit_interval(precision, "precision")
    r = _as_unit_interval(recall, "recall")
    b = _as_param(beta, "beta", low=0.0, high=np.inf)
    check_broadcast(precision=p, recall=r, beta=b)
    with np.errstate(divide="ignore", over="ignore"):
        # gamma = 1/beta**2; outside [1e-150, 1e150] beta**2 would leave the normal range
        # (it overflows, or loses digits as a subnormal), so form log(gamma) from log(beta) there.
        ordinary = (b >= 1e-150) & (b <= 1e150)
        log_gamma = np.where(ordinary, np.log(1.0 / np.where(ordinary, b * b, 1.0)), -2.0 * np.log(b))
    return _power_mean_log_gamma(p, r, log_gamma, np.asarray(-1.0))


@validate_params({"precision": NUMBERS, "recall": NUMBERS, "beta": NUMBERS, "rho": NUMBERS})
def g_beta_rho(precision: ArrayLike, recall: ArrayLike, *, beta: ArrayLike = 1.0, rho: ArrayLike) -> Any:
    r"""The two-parameter family :math:`G_{\beta,\rho}` of precision and recall.

    .. math::

        G_{\beta,\rho}(P, R) = \left(\frac{\beta^{\rho} P^{\rho+1} + R^{\rho+1}}{1 + \beta^{\rho}}\right)^{1/(\rho+1)}

    ``beta`` is the recall/precision ratio at which a point of precision and a point
    of recall are worth the same (for every ``rho != 0``); ``rho`` sets the curvature
    of the level curves, whose slope is :math:`-(R/(\beta P))^{\rho}`.

    Special values (each checked by hand in the tests):

    - ``rho = -2``: F-beta;
    - ``rho = -1``: :math:`(P R^{\beta})^{1/(1+\beta)}`, the limit of the formula
      (continuous there);
    - ``rho = 0``: **stipulated** as :math:`(\beta P + R)/(1+\beta)`. The formula's limit
      at ``rho -> 0`` is :math:`(P+R)/2`, so G is discontinuous at 0 unless ``beta = 1``,
      and in this stipulated form a larger ``beta`` weights *precision* more, while for
      every ``rho != 0`` a larger ``beta`` weights recall more;
    - ``rho = -inf``: :math:`\min(P, R/\beta)` for :math:`\beta \le 1`,
      :math:`\min(\beta P, R)` for :math:`\beta \ge 1`;
    - ``rho = +inf``: :math:`\max(P, R/\beta)` for :math:`\beta \ge 1`,
      :math:`\max(\beta P, R)` for :math:`\beta \le 1`.

    Parameters
    ----------
    precision, recall : float or array-like
        Values in [0, 1].
    beta : float or array-like, default=1.0
        Break-even recall/precision ratio, a finite number > 0.
    rho : float or array-like
        Curvature, in [-inf, inf].

    Returns
    -------
    float or ndarray of float64
        In [0, 1]; higher is better. A float when every input is a scalar.

    Raises
    ------
    InvalidParameterError
        If precision or recall is outside [0, 1] or NaN, ``beta`` is not finite and
        > 0, or ``rho`` is NaN; as :func:`power_mean` for arguments that are not real
        numbers or do not broadcast.

    See Also
    --------
    power_mean : ``G(beta, rho) = W(gamma=beta**rho, phi=rho+1)``.

    Notes
    -----
    The source writes "beta = gamma^(1/(phi+1))" and "rho = phi + 1", slips that miss F-beta at
    rho = -2: the mapping is ``phi = rho + 1`` and ``gamma = beta**rho``.
    ``beta**rho`` is formed as ``rho * log(beta)`` so that ``|rho|`` up to 1000 and
    beyond neither overflows nor underflows.

    References
    ----------
    .. [1] G. Gandenberger, "Weighted Power Means of Precision and Recall", blog post, 2019
       ("an orthogonal two-parameter family").

    Examples
    --------
    >>> from isometrics import g_beta_rho
    >>> round(g_beta_rho(0.5, 1.0, beta=2, rho=-2), 12)   # F2
    0.833333333333
    >>> round(g_beta_rho(0.25, 1.0, beta=1, rho=-1), 12)  # geometric mean
    0.5
    >>> g_beta_rho(0.5, 1.0, beta=3, rho=0)               # stipulated arithmetic form
    0.625
    """
    p = _as_unit_interval(precision, "precision")
    r = _as_unit_interval(recall, "recall")
    b = _as_param(beta, "beta", low=0.0, high=np.inf, low_open=True, allow_inf=False)
    rh = _as_exponent(rho, "rho")
    check_broadcast(precision=p, recall=r, beta=b, rho=rh)
    scalar = _is_scalar(p, r, b, rh)
    if b.ndim == 0 and rh.ndim == 0:
        return _finish(_log_g_fixed(p, r, float(b), float(rh)), scalar)
    p, r, b, rh = np.broadcast_arrays(p, r, b, _limit_exponent(rh))
    log_b = np.log(b)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_p, log_r = np.log(p), np.log(r)
        finite = np.isfinite(rh) & (rh != 0)
        log_gamma = np.where(finite, rh * log_b, 0.0)
        phi = np.where(finite, rh + 1.0, 0.0)
        out = _log_power_mean(log_p, log_r, log_gamma, phi)
        # rho = 0: the stipulated weighted arithmetic mean (beta P + R) / (1 + beta).
        zero = rh == 0
        if zero.any():
            bz = b[zero]
            out[zero] = np.log((bz * p[zero] + r[zero]) / (1.0 + bz))
        # rho = +-inf: the limits listed in the docstring, as logs.
        lo, hi = rh == -np.inf, rh == np.inf
        scaled_p = log_p + np.minimum(log_b, 0.0)  # log(beta P) when beta < 1
        scaled_r = log_r - np.maximum(log_b, 0.0)  # log(R / beta) when beta > 1
        # min: beta <= 1 -> min(P, R/beta) ; beta >= 1 -> min(beta P, R)
        lo_val = np.where(b <= 1, np.minimum(log_p, log_r - log_b), np.minimum(log_p + log_b, log_r))
        hi_val = np.where(b >= 1, np.maximum(log_p, scaled_r), np.maximum(scaled_p, log_r))
        out = np.where(lo, lo_val, out)
        out = np.where(hi, hi_val, out)
    return _finish(out, scalar)
