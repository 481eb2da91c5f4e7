r"""The log-domain kernels of the weighted power means and of G(beta, rho), on validated arrays.

:mod:`.means` validates the public functions' arguments and calls these; :mod:`.kernels` and
:mod:`.registry` call them for the metrics of the registry. Every kernel works with
``log P`` and ``log R`` (which may be ``-inf``) and a weight given as ``log gamma``, so that
no exponent overflows: a log-sum-exp, with the ``log1p``/``expm1`` form near the result 0,
the geometric mean below ``|phi| = 1e-200``, the min/max limit from ``|phi| = 1e20`` on, and
the exact mean where precision or recall is 0. The family and its references are in
:mod:`.means`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._typing import FloatArray

#: From this ``|phi|`` (``|rho|`` for G) on, a mean of the family equals its limit (min or
#: max of precision and recall, scaled by beta for G) to double precision: the relative
#: difference is below ``(|log gamma| + log(1 + gamma) + log 2) / |phi|`` (for G,
#: ``(|log beta| + log 2) / |rho|``), under 2e-17 for every parameter in double range.
#: Beyond it the kernel would form ``phi * log(P)`` and ``rho * log(beta)`` near overflow.
_LIMIT_EXPONENT = 1e20

#: Below this ``|phi|`` the mean of two positive arguments is the geometric mean to within
#: 1e-196 relative, and ``phi * log(x)`` could underflow to 0, so the limit's formula is used.
_GEOMETRIC_EXPONENT = 1e-200


def _limit_exponent(phi: Any) -> Any:
    """``phi`` with ``|phi| >= _LIMIT_EXPONENT`` replaced by its limit, +-inf."""
    return np.where(np.abs(phi) >= _LIMIT_EXPONENT, np.copysign(np.inf, phi), phi)


def _softplus(x: FloatArray) -> FloatArray:
    """log(1 + exp(x)) without overflow."""
    with np.errstate(over="ignore"):
        return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def _log_power_mean(log_p: FloatArray, log_r: FloatArray, log_gamma: FloatArray, phi: FloatArray) -> FloatArray:
    """log W(gamma, phi) for broadcast arrays, with ``gamma = exp(log_gamma)`` in (0, inf).

    ``phi`` may be 0 (geometric mean) or +-inf (max, min). ``log_p`` and ``log_r`` are
    <= 0 and may be -inf.
    """
    log_p, log_r, log_gamma, phi = np.broadcast_arrays(log_p, log_r, log_gamma, _limit_exponent(phi))
    out = np.empty(log_p.shape, dtype=np.float64)
    log_wp = -_softplus(-log_gamma)  # log(gamma / (1 + gamma))
    log_wr = -_softplus(log_gamma)  # log(1 / (1 + gamma))

    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        geo = np.abs(phi) < _GEOMETRIC_EXPONENT
        if geo.any():
            wp, wr = np.exp(log_wp[geo]), np.exp(log_wr[geo])
            out[geo] = wp * log_p[geo] + wr * log_r[geo]
        hi, lo = phi == np.inf, phi == -np.inf
        out[hi] = np.maximum(log_p[hi], log_r[hi])
        out[lo] = np.minimum(log_p[lo], log_r[lo])

        gen = ~(geo | hi | lo)
        if gen.any():
            f, lp, lr = phi[gen], log_p[gen], log_r[gen]
            lwp, lwr = log_wp[gen], log_wr[gen]
            a, b = f * lp, f * lr  # same sign: log_p, log_r <= 0
            # Near the geometric mean, log(wp e^a + wr e^b) = log1p(wp expm1(a) + wr expm1(b))
            # has no cancellation (both expm1 terms share a sign).
            s = np.exp(lwp) * np.expm1(a) + np.exp(lwr) * np.expm1(b)
            small = np.isfinite(s) & (s > -0.5) & (s < 1.0)
            log_sum = np.empty_like(f)
            log_sum[small] = np.log1p(s[small])
            big = ~small
            if big.any():
                x1, x2 = a[big] + lwp[big], b[big] + lwr[big]
                m = np.maximum(x1, x2)
                d = np.abs(x1 - x2)
                log_sum[big] = np.where(x1 == x2, m + math.log(2.0), m + np.log1p(np.exp(-d)))
            out[gen] = log_sum / f
        out = _one_zero(out, log_p, log_r, log_wp, log_wr, phi)  # exact where P or R is 0, phi > 0
    return out


def _one_zero(out: FloatArray, log_p: FloatArray, log_r: FloatArray, log_wp: Any, log_wr: Any, phi: Any) -> FloatArray:
    """``out`` where precision or recall is 0 replaced by the exact mean there, for ``phi`` > 0.

    With ``phi > 0`` and ``P = 0`` the mean is ``R * (1/(1 + gamma))**(1/phi)`` exactly (``P *
    (gamma/(1 + gamma))**(1/phi)`` at ``R = 0``): positive when the weight is tiny enough,
    where the geometric mean, the limit at ``phi -> 0``, is 0.
    """
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        positive = phi > 0
        at_p0 = positive & (log_p == -np.inf) & (log_r > -np.inf)
        at_r0 = positive & (log_r == -np.inf) & (log_p > -np.inf)
        out = np.where(at_p0, log_r + log_wr / np.where(positive, phi, 1.0), out)
        return np.where(at_r0, log_p + log_wp / np.where(positive, phi, 1.0), out)


def _log_power_mean_scalar(log_p: FloatArray, log_r: FloatArray, log_gamma: float, phi: float) -> FloatArray:
    """log W(gamma, phi) with scalar ``log_gamma`` (finite) and ``phi``, for long arrays.

    Same results as :func:`_log_power_mean`, in fewer passes: a log-sum-exp over the
    whole array, then the ``log1p``/``expm1`` form only where the result is near 0 (the
    only place the log-sum-exp can lose relative accuracy).
    """
    log_p, log_r = np.broadcast_arrays(np.asarray(log_p, dtype=np.float64), np.asarray(log_r, dtype=np.float64))
    shape = log_p.shape
    log_p, log_r = log_p.reshape(-1), log_r.reshape(-1)  # 1-D (0-d inputs would turn into scalars)
    return _log_power_mean_1d(log_p, log_r, log_gamma, phi).reshape(shape)


def _log_power_mean_1d(log_p: FloatArray, log_r: FloatArray, log_gamma: float, phi: float) -> FloatArray:
    log_wp = -(max(-log_gamma, 0.0) + math.log1p(math.exp(-abs(log_gamma))))
    log_wr = -(max(log_gamma, 0.0) + math.log1p(math.exp(-abs(log_gamma))))
    wp, wr = math.exp(log_wp), math.exp(log_wr)
    if abs(phi) >= _LIMIT_EXPONENT:
        phi = math.copysign(math.inf, phi)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if abs(phi) < _GEOMETRIC_EXPONENT:  # the geometric mean (see _log_power_mean)
            out = np.multiply(log_p, wp)
            out += wr * log_r
            return _one_zero(out, log_p, log_r, log_wp, log_wr, phi) if phi > 0 else out
        if phi == math.inf:
            return np.maximum(log_p, log_r)
        if phi == -math.inf:
            return np.minimum(log_p, log_r)
        x1 = np.multiply(log_p, phi)
        x1 += log_wp
        x2 = np.multiply(log_r, phi)
        x2 += log_wr
        out = np.maximum(x1, x2)
        np.subtract(x1, x2, out=x1)  # both infinite alike: NaN, fixed below
        np.abs(x1, out=x1)
        np.negative(x1, out=x1)
        np.exp(x1, out=x1)
        np.log1p(x1, out=x1)
        np.copyto(x1, 0.0, where=np.isnan(x1))
        out += x1
        near_zero = np.flatnonzero((out > -0.5) & (out < 0.5))
        if near_zero.size:
            a = phi * log_p[near_zero]
            b = phi * log_r[near_zero]
            s = wp * np.expm1(a) + wr * np.expm1(b)
            ok = np.isfinite(s) & (s > -0.5) & (s < 1.0)  # where the weights underflow, keep the log-sum-exp
            out[near_zero[ok]] = np.log1p(s[ok])
        out /= phi
    return _one_zero(out, log_p, log_r, log_wp, log_wr, phi) if phi > 0 else out


def _finish(log_value: FloatArray, scalar: bool) -> Any:
    value = np.exp(log_value)
    return float(value) if scalar else value


def _is_scalar(*values: FloatArray) -> bool:
    return all(v.ndim == 0 for v in values)


def _power_mean_log_gamma(
    p: FloatArray, r: FloatArray, log_g: FloatArray, f: FloatArray, gamma: FloatArray | None = None
) -> Any:
    """W for validated arrays, with the weight given as ``log(gamma)`` in [-inf, inf] (and
    ``gamma`` itself when the caller has it: see :func:`_exact_weights`)."""
    scalar = _is_scalar(p, r, log_g, f)
    if log_g.ndim == 0 and f.ndim == 0:
        g = None if gamma is None else float(gamma)
        return _finish(_log_power_mean_fixed(p, r, float(log_g), float(f), g), scalar)
    p, r, log_g, f = np.broadcast_arrays(p, r, log_g, f)
    with np.errstate(divide="ignore"):
        log_value = _log_power_mean(np.log(p), np.log(r), np.where(np.isfinite(log_g), log_g, 0.0), f)
        # gamma = 0 or inf puts all the weight on one argument, whatever phi is.
        log_value = np.where(log_g == -np.inf, np.log(np.where(log_g == -np.inf, r, 1.0)), log_value)
        log_value = np.where(log_g == np.inf, np.log(np.where(log_g == np.inf, p, 1.0)), log_value)
        if gamma is not None:
            log_wp, log_wr = _exact_weights(np.broadcast_to(gamma, f.shape))
            log_value = _one_zero(log_value, np.log(p), np.log(r), log_wp, log_wr, _limit_exponent(f))
    return _finish(log_value, scalar)


def _exact_weights(gamma: Any) -> tuple[Any, Any]:
    """``log(gamma/(1+gamma))`` and ``log(1/(1+gamma))`` from ``gamma`` itself (0 < gamma < inf).

    Next to ``phi = 0`` a zero argument's mean divides these by ``phi``, so their rounding
    is amplified; ``log1p(gamma)`` keeps the digits that ``exp(log(gamma))`` loses.
    """
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        inv = 1.0 / gamma  # inf for subnormal gamma: there log(gamma) - log1p(gamma) has no cancellation
        return np.where(np.isinf(inv), np.log(gamma) - np.log1p(gamma), -np.log1p(inv)), -np.log1p(gamma)


def _log_power_mean_fixed(
    p: FloatArray, r: FloatArray, log_gamma: float, phi: float, gamma: float | None = None
) -> FloatArray:
    """log W(gamma, phi) for validated arrays and scalar parameters (log gamma in [-inf, inf];
    ``gamma`` itself, where the caller has it, for the exact mean at a zero argument)."""
    with np.errstate(divide="ignore"):
        if log_gamma == -math.inf:
            return np.log(np.broadcast_arrays(r, p)[0])
        if log_gamma == math.inf:
            return np.log(np.broadcast_arrays(p, r)[0])
        out = _log_power_mean_scalar(np.log(p), np.log(r), log_gamma, phi)
        if gamma is not None and 0 < phi < _LIMIT_EXPONENT:
            log_wp, log_wr = _exact_weights(gamma)
            log_p, log_r = np.broadcast_arrays(np.log(p), np.log(r))
            out = _one_zero(out, log_p, log_r, log_wp, log_wr, phi)
        return out


def _log_g_fixed(p: FloatArray, r: FloatArray, beta: float, rho: float) -> FloatArray:
    """log G(beta, rho) for validated arrays and scalar parameters (beta finite > 0)."""
    with np.errstate(divide="ignore"):
        log_p, log_r = np.log(p), np.log(r)
        log_b = math.log(beta)
        if abs(rho) >= _LIMIT_EXPONENT:  # equal to its limit to double precision
            rho = math.copysign(math.inf, rho)
        if rho == 0:  # the stipulated weighted arithmetic mean
            return np.log((beta * p + r) / (1.0 + beta))
        if rho == -math.inf:
            return np.minimum(log_p, log_r - log_b) if beta <= 1 else np.minimum(log_p + log_b, log_r)
        if rho == math.inf:
            return np.maximum(log_p, log_r - log_b) if beta >= 1 else np.maximum(log_p + log_b, log_r)
        return _log_power_mean_scalar(log_p, log_r, rho * log_b, rho + 1.0)
