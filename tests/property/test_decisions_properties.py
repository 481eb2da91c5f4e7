"""Best thresholds against exact rational arithmetic, and every metric of the family at extreme
parameters against mpmath.

The references here are written from the metrics' definitions (precision P = TP/(TP+FP),
recall R = TP/(TP+FN)), independently of the package's count forms and kernels.
"""

import math
import warnings
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import isometrics as im

INF = math.inf


# ------------------------------------------------------------------ exact reference (Fractions)
def _order_key(kind, par, tp, fp, pos, neg):
    """A rational that increases with the metric (the metric itself or a power of it); None if undefined."""
    p = tp / (tp + fp) if tp + fp else None
    r = tp / pos
    fn = pos - tp
    if kind == "youden":
        return tp / pos - fp / neg
    if kind == "top_left":  # 1 - distance / sqrt(2): order by minus the squared distance to (0, 1)
        return -((fp / neg) ** 2 + (fn / pos) ** 2)
    if kind == "cost":
        c_fp, c_fn, pi = par
        pi = pos / (pos + neg) if pi is None else Fraction(pi)
        return -(pi * (fn / pos) * Fraction(c_fn) + (1 - pi) * (fp / neg) * Fraction(c_fp))
    if kind == "fbeta":
        if par == 0:
            return p
        if par == INF:
            return r
        if tp == 0:
            return Fraction(0)
        b2 = Fraction(par) ** 2
        return (1 + b2) * p * r / (b2 * p + r)
    if kind == "power":
        gamma, phi = par
        if gamma == 0:
            return r
        if gamma == INF:
            return p
        if phi == INF:
            return None if p is None else max(p, r)
        if phi == -INF:
            return Fraction(0) if p is None else min(p, r)
        g = Fraction(gamma)
        if phi == 0:  # (P^g R)^(1/(1+g)); with g = a/b, W^(a+b) = P^a R^b
            return Fraction(0) if p is None or p == 0 or r == 0 else p**g.numerator * r**g.denominator
        k = abs(phi)
        if phi > 0:  # W^k
            return None if p is None else (g * p**k + r**k) / (1 + g)
        return Fraction(0) if p is None or p == 0 or r == 0 else 1 / ((g / p**k + 1 / r**k) / (1 + g))
    if kind == "g":
        beta, rho = par
        b = Fraction(beta)
        if rho == 0:
            return None if p is None else (b * p + r) / (1 + b)
        if rho == -INF:
            return Fraction(0) if p is None else (min(p, r / b) if b <= 1 else min(p * b, r))
        if rho == INF:
            return None if p is None else (max(p, r / b) if b >= 1 else max(p * b, r))
        return _order_key("power", (b**rho, rho + 1), tp, fp, pos, neg)
    raise AssertionError(kind)


def _spec(kind, par):
    if kind in ("youden", "top_left"):
        return kind
    if kind == "cost":
        c_fp, c_fn, pi = par
        return f"cost(fp={c_fp}, fn={c_fn}" + ("" if pi is None else f", prevalence={pi}") + ")"
    if kind == "fbeta":
        return f"fbeta(beta={par})"
    if kind == "power":
        return f"power(gamma={par[0]}, phi={par[1]})"
    return f"g(beta={par[0]}, rho={par[1]})"


def _brute_force_ties(kind, par, y, s, w):
    """Thresholds (decreasing, inf first) where the metric is exactly best, from explicit predictions."""
    pos = sum(Fraction(wi) for yi, wi in zip(y, w) if yi)
    neg = sum(Fraction(wi) for yi, wi in zip(y, w) if not yi)
    keys = []
    for t in [INF, *sorted({si for si, wi in zip(s, w) if wi}, reverse=True)]:
        tp = sum(Fraction(wi) for yi, si, wi in zip(y, s, w) if yi and si >= t)
        fp = sum(Fraction(wi) for yi, si, wi in zip(y, s, w) if not yi and si >= t)
        key = _order_key(kind, par, tp, fp, pos, neg)
        if key is not None:
            keys.append((t, key))
    best = max(k for _, k in keys)
    return [t for t, k in keys if k == best]


_rational_metrics = st.one_of(
    st.tuples(st.just("youden"), st.none()),
    st.tuples(st.just("top_left"), st.none()),
    st.tuples(
        st.just("cost"),
        st.tuples(st.sampled_from([0, 0.5, 1, 2]), st.sampled_from([1, 3, 5]), st.sampled_from([None, 0.1, 0.25, 0.5])),
    ),
    st.tuples(st.just("fbeta"), st.sampled_from([0, 0.25, 0.5, 1, 2, 3, INF])),
    st.tuples(
        st.just("power"),
        st.tuples(st.sampled_from([0, 0.25, 0.5, 1, 2, 3, INF]), st.sampled_from([-INF, -3, -2, -1, 0, 1, 2, 3, INF])),
    ),
    st.tuples(
        st.just("g"),
        st.tuples(st.sampled_from([0.25, 0.5, 1, 2, 3]), st.sampled_from([-INF, -4, -3, -2, -1, 0, 1, 2, INF])),
    ),
)


@st.composite
def _small_integer_data(draw):
    n = draw(st.integers(2, 10))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    s = draw(st.lists(st.integers(0, 4), min_size=n, max_size=n))
    w = draw(st.one_of(st.just([1] * n), st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    assume(any(wi for yi, wi in zip(y, w) if yi) and any(wi for yi, wi in zip(y, w) if not yi))
    return y, [float(v) for v in s], w


@settings(max_examples=500)
@given(_small_integer_data(), _rational_metrics)
def test_best_threshold_ties_are_exact_ties(data, metric):
    y, s, w = data
    kind, par = metric
    expected = _brute_force_ties(kind, par, y, s, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", im.DegenerateDataWarning)
        best = im.best_threshold(y, s, metric=_spec(kind, par), sample_weight=np.array(w, float))
    assert list(best.tied_thresholds) == expected
    assert best.threshold == expected[0] and best.n_ties == len(expected)


# ------------------------------------------------------------------ extreme parameters (mpmath)
mpmath.mp.dps = 60


def _mp_power_mean(p, r, gamma, phi):
    """W(gamma, phi)(P, R) in 60-digit arithmetic, from its definition (limits at 0 and +-inf)."""
    p, r = mpmath.mpf(p), mpmath.mpf(r)
    if gamma == 0:
        return r
    if gamma == mpmath.inf:
        return p
    if phi == mpmath.inf:
        return max(p, r)
    if phi == -mpmath.inf:
        return min(p, r)
    if phi == 0:
        return mpmath.mpf(0) if p == 0 or r == 0 else mpmath.exp((gamma * mpmath.log(p) + mpmath.log(r)) / (1 + gamma))
    if phi < 0 and (p == 0 or r == 0):
        return mpmath.mpf(0)
    a = phi * mpmath.log(p) if p > 0 else -mpmath.inf
    b = phi * mpmath.log(r) if r > 0 else -mpmath.inf
    if a == -mpmath.inf:  # ((R^phi) / (1 + gamma))^(1/phi)
        return mpmath.exp((b - mpmath.log1p(gamma)) / phi)
    if b == -mpmath.inf:
        return mpmath.exp((a - mpmath.log1p(1 / gamma)) / phi)
    if abs(a) < 1 and abs(b) < 1:  # no cancellation next to phi = 0
        s = (gamma * mpmath.expm1(a) + mpmath.expm1(b)) / (1 + gamma)
        return mpmath.exp(mpmath.log1p(s) / phi)
    x1, x2 = mpmath.log(gamma) + a, b
    hi, lo = max(x1, x2), min(x1, x2)
    return mpmath.exp((hi + mpmath.log1p(mpmath.exp(lo - hi)) - mpmath.log1p(gamma)) / phi)


def _mp_reference(kind, params, p, r):
    mp = mpmath.mpf
    if kind in ("fbeta", "f", "harmonic_beta"):
        beta = params[0]
        return _mp_power_mean(p, r, mpmath.inf if beta == 0 else 1 / mp(beta) ** 2, -1)
    if kind == "harmonic_gamma":
        return _mp_power_mean(p, r, mpmath.inf if params[0] == INF else mp(params[0]), -1)
    if kind == "power":
        gamma, phi = params
        return _mp_power_mean(p, r, mpmath.inf if gamma == INF else mp(gamma), mp(phi))
    if kind == "arithmetic":
        return _mp_power_mean(p, r, mpmath.inf if params[0] == INF else mp(params[0]), 1)
    if kind == "geometric_gamma":
        return _mp_power_mean(p, r, mpmath.inf if params[0] == INF else mp(params[0]), 0)
    if kind == "geometric_beta":
        beta = params[0]
        return _mp_power_mean(p, r, mp(0) if beta == INF else 1 / mp(beta), 0)
    if kind == "g":
        beta, rho = mp(params[0]), params[1]
        if rho == 0:
            return (beta * p + r) / (1 + beta)
        if rho == -INF:
            return min(mp(p), r / beta) if beta <= 1 else min(p * beta, mp(r))
        if rho == INF:
            return max(mp(p), r / beta) if beta >= 1 else max(p * beta, mp(r))
        return _mp_power_mean(p, r, beta ** mp(rho), mp(rho) + 1)
    raise AssertionError(kind)


_SPECS = {
    "fbeta": "fbeta(beta={})",
    "f": "f{}",
    "harmonic_beta": "harmonic(beta={})",
    "harmonic_gamma": "harmonic(gamma={})",
    "power": "power(gamma={}, phi={})",
    "arithmetic": "arithmetic(gamma={})",
    "geometric_gamma": "geometric(gamma={})",
    "geometric_beta": "geometric(beta={})",
    "g": "g(beta={}, rho={})",
}
_magnitude = st.one_of(
    st.sampled_from(
        [0.0, 5e-324, 1e-320, 1e-300, 1e-155, 1e-20, 1.0, 1e20, 1e155, 1e200, 1e300, 1.7976931348623157e308, INF]
    ),
    st.floats(5e-324, 1.7976931348623157e308),
    st.floats(1e-3, 1e3),
)
_exponent = st.one_of(
    st.sampled_from([-INF, -1e308, -1e300, -1e20, -1e17, -1.0, 0.0, 1e-300, 1e17, 1e20, 1e300, 1e308, INF]),
    st.floats(allow_nan=False),
    st.floats(-50, 50),
)
_family = st.one_of(
    *[
        st.tuples(st.just(k), st.tuples(_magnitude))
        for k in ("fbeta", "f", "harmonic_beta", "harmonic_gamma", "arithmetic", "geometric_gamma", "geometric_beta")
    ],
    st.tuples(st.just("power"), st.tuples(_magnitude, _exponent)),
    st.tuples(st.just("g"), st.tuples(_magnitude, _exponent)),
)
_P = np.array([0.0, 1.0, 0.5, 1e-300, 0.3, 0.9, 0.123, 1.0, 0.25])
_R = np.array([0.5, 0.0, 1.0, 0.2, 1e-300, 0.9, 0.77, 1.0, 0.75])


def _close(value, reference):
    reference = float(reference) if abs(reference) > 1e-290 else reference
    if abs(reference) <= 1e-290:  # at or below the double range: absolute
        return abs(value - float(reference)) <= 1e-290
    return abs(value - reference) <= 1e-12 * abs(reference)


@given(_family)
def test_every_family_member_evaluates_finitely_or_is_rejected_at_parse_time(member):
    kind, params = member
    spec = _SPECS[kind].format(*(repr(v) if v not in (INF, -INF) else ("inf" if v > 0 else "-inf") for v in params))
    if kind == "f" and params[0] == INF:
        spec = "finf"
    # the parser refuses only values outside the documented ranges: beta of G must be finite
    # and > 0, beta of the geometric mean > 0 with gamma = 1/beta finite; everything else is evaluated
    refused = (kind == "g" and params[0] in (0.0, INF)) or (
        kind == "geometric_beta" and (params[0] == 0.0 or math.isinf(1.0 / params[0]))
    )
    if refused:
        with pytest.raises(im.InvalidParameterError, match="`beta`"):
            im.parse_metric(spec)
        return
    metric = im.parse_metric(spec)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        values = metric.from_precision_recall(_P, _R)
        for p, r, v in zip(_P, _R, values):
            assert np.isfinite(v), (spec, p, r, v)
            assert _close(v, _mp_reference(kind, params, p, r)), (spec, p, r, v, _mp_reference(kind, params, p, r))
        y, s = [0, 1, 0, 1, 1, 0, 0, 1], [0.1, 0.2, 0.3, 0.4, 0.5, 0.5, 0.9, 0.9]
        best = im.best_threshold(y, s, metric=metric)
        curve = im.metric_curve(y, s, metric=metric).values
    assert np.all(np.isfinite(curve[1:]))
    p = 0.0 if math.isnan(best.precision) else best.precision  # no predicted positive: R = 0 there
    assert _close(best.value, _mp_reference(kind, params, p, best.recall))


@pytest.mark.parametrize(
    "spec",
    [
        "fbeta(beta=1e200)",
        "f1e155",
        "g(beta=1e300, rho=-2)",
        "harmonic(gamma=1e-320)",
        "g(beta=7, rho=-1e308)",
        "power(gamma=2, phi=-1e308)",
        "fbeta(beta=1e-200)",
    ],
)
def test_parameters_that_overflowed_evaluate(spec):
    # y = [0, 1, 1], s = [3, 2, 1]: at threshold 2 P = 1/2, R = 1/2; at 1 P = 2/3, R = 1.
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        best = im.best_threshold([0, 1, 1], [3, 2, 1], metric=spec)
    assert math.isfinite(best.value) and 0 <= best.value <= 1
