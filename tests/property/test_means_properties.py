"""Identities of the power-mean family (ERRATA.md), checked with hypothesis and mpmath."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import isometrics as im

unit = st.floats(0.0, 1.0)
pos_unit = st.floats(1e-6, 1.0)
beta_st = st.floats(0.05, 20.0)
rho_st = st.floats(-50.0, 50.0)


@given(unit, unit, beta_st, rho_st)
def test_g_between_min_and_max(p, r, beta, rho):
    g = im.g_beta_rho(p, r, beta=beta, rho=rho)
    assert min(p, r) * (1 - 1e-12) - 1e-300 <= g <= max(p, r) * (1 + 1e-12)


@given(pos_unit, pos_unit, st.floats(0.05, 20.0), st.floats(-30.0, 30.0), st.floats(1e-3, 5.0))
def test_power_mean_monotone_in_exponent(p, r, gamma, phi, step):
    lo = im.power_mean(p, r, gamma=gamma, phi=phi)
    hi = im.power_mean(p, r, gamma=gamma, phi=phi + step)
    assert lo <= hi * (1 + 1e-12)


@given(pos_unit, pos_unit, beta_st)
def test_rho_minus_two_is_fbeta_count_formula(p, r, beta):
    # With TP = 1: FP = 1/P - 1, FN = 1/R - 1, and F = (1+b2) TP / ((1+b2) TP + b2 FN + FP).
    tp, fp, fn = 1.0, 1.0 / p - 1.0, 1.0 / r - 1.0
    b2 = beta * beta
    count_form = (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)
    assert im.g_beta_rho(p, r, beta=beta, rho=-2) == pytest.approx(count_form, rel=1e-12)
    assert im.fbeta(p, r, beta=beta) == pytest.approx(count_form, rel=1e-12)


@given(pos_unit, pos_unit, beta_st)
def test_continuity_at_rho_minus_one(p, r, beta):
    at = im.g_beta_rho(p, r, beta=beta, rho=-1)
    assert at == pytest.approx((p * r**beta) ** (1 / (1 + beta)), rel=1e-12)
    for eps in (1e-9, -1e-9):
        assert im.g_beta_rho(p, r, beta=beta, rho=-1 + eps) == pytest.approx(at, rel=1e-7)


@given(pos_unit, pos_unit, beta_st)
def test_limit_at_rho_zero_is_plain_mean_not_the_stipulation(p, r, beta):
    assert im.g_beta_rho(p, r, beta=beta, rho=1e-12) == pytest.approx((p + r) / 2, rel=1e-9)
    assert im.g_beta_rho(p, r, beta=beta, rho=0) == pytest.approx((beta * p + r) / (1 + beta), rel=1e-14)


@given(st.floats(0.01, 1.0), st.floats(0.01, 1.0), beta_st)
def test_limits_approached_numerically(p, r, beta):
    for rho in (-np.inf, np.inf):
        limit = im.g_beta_rho(p, r, beta=beta, rho=rho)
        near = im.g_beta_rho(p, r, beta=beta, rho=math.copysign(3000.0, rho))
        assert near == pytest.approx(limit, rel=5e-3)


@given(pos_unit, pos_unit, beta_st, st.floats(-20.0, 20.0).filter(lambda x: abs(x) > 1e-3))
def test_break_even_line(p, r, beta, rho):
    # dG/dR == dG/dP exactly where R / P == beta (for rho != 0): check by central differences.
    p = min(p, 1 / max(beta, 1.0)) * 0.5 + 0.25 * 1e-3
    r = beta * p
    if r > 0.999 or p < 1e-3:
        return
    h = 1e-6 * min(p, r)
    dgdp = (im.g_beta_rho(p + h, r, beta=beta, rho=rho) - im.g_beta_rho(p - h, r, beta=beta, rho=rho)) / (2 * h)
    dgdr = (im.g_beta_rho(p, r + h, beta=beta, rho=rho) - im.g_beta_rho(p, r - h, beta=beta, rho=rho)) / (2 * h)
    assert dgdp == pytest.approx(dgdr, rel=1e-4, abs=1e-9)


def _g_mp(p, r, beta, rho):
    mpmath.mp.dps = 60
    P, R, B, RHO = (mpmath.mpf(x) for x in (p, r, beta, rho))
    if RHO == -1:
        return (P * R**B) ** (1 / (1 + B))
    return ((B**RHO * P ** (RHO + 1) + R ** (RHO + 1)) / (1 + B**RHO)) ** (1 / (RHO + 1))


RHOS = [
    -1000,
    -300,
    -17.5,
    -2,
    -1 - 1e-9,
    -1 - 1e-13,
    -1,
    -1 + 1e-13,
    -1 + 1e-9,
    -0.5,
    -1e-10,
    1e-10,
    0.3,
    1,
    7,
    120,
    1000,
]


@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize(
    "p, r, beta", [(0.3, 0.8, 2.0), (0.9, 0.05, 0.5), (1e-8, 0.7, 3.0), (0.5, 0.5, 1.0), (0.999, 0.001, 10.0)]
)
def test_accuracy_against_mpmath(p, r, beta, rho):
    expected = float(_g_mp(p, r, beta, rho))
    assert im.g_beta_rho(p, r, beta=beta, rho=rho) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("p, r, beta", [(0.3, 0.8, 2.0), (0.9, 0.05, 0.5), (1e-8, 0.7, 3.0), (0.999, 0.001, 10.0)])
def test_accuracy_against_mpmath_with_array_parameters(p, r, beta):
    # array-valued rho takes the general (broadcasting) kernel rather than the scalar fast path
    values = im.g_beta_rho(p, r, beta=np.full(len(RHOS), beta), rho=np.array(RHOS, dtype=float))
    expected = [float(_g_mp(p, r, beta, rho)) for rho in RHOS]
    np.testing.assert_allclose(values, expected, rtol=1e-12)


@given(st.lists(st.tuples(unit, unit), min_size=1, max_size=20), beta_st, rho_st)
def test_scalar_and_array_kernels_agree(pairs, beta, rho):
    p, r = np.array(pairs).T
    fast = im.g_beta_rho(p, r, beta=beta, rho=rho)
    general = im.g_beta_rho(p, r, beta=np.full(len(p), beta), rho=np.full(len(p), rho))
    np.testing.assert_allclose(fast, general, rtol=1e-12, atol=1e-300)


def test_zero_precision_or_recall_is_defined():
    assert im.g_beta_rho(0.0, 0.5, beta=1, rho=-2) == 0.0
    assert im.g_beta_rho(0.5, 0.0, beta=1, rho=-1) == 0.0
    assert im.g_beta_rho(0.0, 0.5, beta=1, rho=1) == pytest.approx(math.sqrt(0.125), rel=1e-14)
    assert im.g_beta_rho(0.0, 0.0, beta=2, rho=-3) == 0.0
    assert im.power_mean(0.0, 0.0, phi=2.0) == 0.0


def test_broadcasting():
    p = np.linspace(0.1, 1, 4)[:, None]
    rho = np.array([-2.0, -1.0, 0.0, 1.0])
    out = im.g_beta_rho(p, 0.5, beta=1.0, rho=rho)
    assert out.shape == (4, 4)
    assert out[2, 0] == pytest.approx(im.g_beta_rho(float(p[2, 0]), 0.5, beta=1.0, rho=-2.0), rel=1e-15)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: im.g_beta_rho(1.5, 0.5, beta=1, rho=-2), r"`precision` must lie in \[0, 1\]"),
        (lambda: im.g_beta_rho(0.5, np.nan, beta=1, rho=-2), r"`recall` must lie in \[0, 1\]"),
        (lambda: im.g_beta_rho(0.5, 0.5, beta=0, rho=-2), r"`beta` must be a real number > 0"),
        (lambda: im.g_beta_rho(0.5, 0.5, beta=1, rho=np.nan), r"`rho` must be a real number"),
        (lambda: im.power_mean(0.5, 0.5, gamma=-1, phi=1), r"`gamma` must be a real number >= 0"),
    ],
)
def test_bad_parameters_raise(call, match):
    with pytest.raises(im.InvalidParameterError, match=match):
        call()


def test_denormal_exponent_is_the_geometric_mean():
    # found by hypothesis: phi * log(x) underflowed to 0 and gave max(P, R) instead of sqrt(P R)
    assert im.power_mean(1.0, 0.5, phi=5e-324) == pytest.approx(np.sqrt(0.5), rel=1e-14)


# ------------------------------------------------- the whole double range, against mpmath
# Issue 9: at phi in (0, 1e-200) with a tiny weight, a zero argument gave 0 (the geometric
# limit) where the mean is positive, and |phi| or |rho| near 1e308 gave 0 or NaN where the
# min/max limit is right to double precision. The reference below is evaluated in
# arbitrary precision from the definition (ERRATA.md), in logarithms.


def _decade(lo: int, hi: int):
    return st.builds(lambda m, e: m * 10.0**e, st.floats(1.0, 9.999), st.integers(lo, hi))


def _signed(values):
    return st.one_of(values, values.map(lambda x: -x))


unit_wide = st.one_of(st.sampled_from([0.0, 1.0]), st.floats(0.0, 1.0), _decade(-320, -1).map(lambda x: min(x, 1.0)))
weight_wide = st.one_of(st.sampled_from([1e-300, 1e300, 1.0]), _decade(-300, 299))
exponent_wide = st.one_of(
    st.sampled_from(
        [
            0.0,
            1e-300,
            -1e-300,
            5e-324,
            -5e-324,
            1e308,
            -1e308,
            1.7976931348623157e308,
            -1.0,
            -2.0,
            1.0,
            math.inf,
            -math.inf,
        ]
    ),
    _signed(_decade(-323, 307)),
    st.floats(-50.0, 50.0),
)
tiny_exponent = _decade(-320, -90)  # phi next to 0 with a weight of the same order: W at a zero argument is not 0


@settings(deadline=None, max_examples=200)
@given(st.sampled_from([0.0, 0.5, 1.0, 1e-300]), st.sampled_from([0.0, 0.5, 1.0]), tiny_exponent, st.floats(1e-3, 1e3))
def test_power_mean_zero_argument_next_to_phi_zero(p, r, phi, ratio):
    # gamma = ratio * phi (and 1/gamma for the mirror case) keeps (1 + gamma)**(-1/phi) in (0, 1)
    for gamma in (ratio * phi, 1.0 / (ratio * phi)):
        if not 0 < gamma < math.inf:  # phi below 1e-308: 1/gamma overflows, gamma = inf is W = P
            continue
        expected = _w_mp(p, r, gamma, phi)
        spec = f"power(gamma={gamma!r}, phi={phi!r})"
        for got in (
            im.power_mean(p, r, gamma=gamma, phi=phi),
            float(im.power_mean([p], [r], gamma=[gamma], phi=[phi])[0]),
            float(im.parse_metric(spec).from_precision_recall([p], [r])[0]),
        ):
            assert _agrees(got, expected), (spec, p, r, got, expected)


def _mp_log_mean(log_terms, log_norm, exponent):
    """log(sum(exp(t)) / exp(log_norm)) / exponent, all mpf; terms may be empty (all zero)."""
    m = max(log_terms)
    return (m + mpmath.log(mpmath.fsum(mpmath.exp(t - m) for t in log_terms)) - log_norm) / exponent


def _w_mp(p, r, gamma, phi):
    """Weighted power mean W(gamma, phi)(P, R) in arbitrary precision (a float, rounded once)."""
    mpmath.mp.dps = 60 + (int(abs(mpmath.log10(abs(phi)))) if math.isfinite(phi) and phi != 0 else 0)
    P, R, G = mpmath.mpf(p), mpmath.mpf(r), mpmath.mpf(gamma)
    if math.isinf(phi):
        return float(max(P, R) if phi > 0 else min(P, R))
    if phi == 0:
        return 0.0 if p == 0 or r == 0 else float(mpmath.exp((G * mpmath.log(P) + mpmath.log(R)) / (1 + G)))
    F = mpmath.mpf(phi)
    if p == 0 and r == 0 or F < 0 and (p == 0 or r == 0):
        return 0.0
    terms = [mpmath.log(G) + F * mpmath.log(P)] if p > 0 else []
    terms += [F * mpmath.log(R)] if r > 0 else []
    return float(mpmath.exp(_mp_log_mean(terms, mpmath.log1p(G), F)))


def _g_wide_mp(p, r, beta, rho):
    """G(beta, rho) from the definition and the stipulations of ERRATA.md, arbitrary precision."""
    mpmath.mp.dps = 60 + (int(abs(mpmath.log10(abs(rho)))) if math.isfinite(rho) and rho != 0 else 0)
    P, R, B = mpmath.mpf(p), mpmath.mpf(r), mpmath.mpf(beta)
    if rho == -math.inf:
        return float(min(P, R / B) if beta <= 1 else min(B * P, R))
    if rho == math.inf:
        return float(max(P, R / B) if beta >= 1 else max(B * P, R))
    if rho == 0:
        return float((B * P + R) / (1 + B))
    RHO = mpmath.mpf(rho)
    F = RHO + 1
    if F == 0:
        return 0.0 if p == 0 or r == 0 else float((P * R**B) ** (1 / (1 + B)))
    if p == 0 and r == 0 or F < 0 and (p == 0 or r == 0):
        return 0.0
    log_gamma = RHO * mpmath.log(B)
    terms = [log_gamma + F * mpmath.log(P)] if p > 0 else []
    terms += [F * mpmath.log(R)] if r > 0 else []
    log_norm = (
        log_gamma + mpmath.log1p(mpmath.exp(-log_gamma)) if log_gamma > 0 else mpmath.log1p(mpmath.exp(log_gamma))
    )
    return float(mpmath.exp(_mp_log_mean(terms, log_norm, F)))


def _agrees(got, expected):
    if expected == 1.0:
        # A true mean just below 1 rounds to 1.0 in the reference but may land one ulp below
        # in double arithmetic (e.g. W(1, 1 - 2**-53) = 1 - 2**-54): never above 1. The exact
        # 1 of equal arguments is asserted in test_means_of_equal_arguments_are_exact.
        return 1.0 - 2.0**-52 <= got <= 1.0
    if expected == 0.0:  # exact, but for one step of rounding at half the smallest subnormal
        return 0.0 <= got <= 5e-324
    # 1e-12 relative; below the normal range (2.2e-308) doubles carry a fixed absolute step
    return abs(got - expected) <= max(1e-12 * expected, 4 * 5e-324)


@settings(deadline=None, max_examples=300)
@given(unit_wide, unit_wide, weight_wide, exponent_wide)
def test_power_mean_whole_double_range_against_mpmath(p, r, gamma, phi):
    expected = _w_mp(p, r, gamma, phi)
    values = {
        "scalar": im.power_mean(p, r, gamma=gamma, phi=phi),
        "array": float(im.power_mean([p], [r], gamma=[gamma], phi=[phi])[0]),
        "metric": float(im.parse_metric(f"power(gamma={gamma!r}, phi={phi!r})").from_precision_recall([p], [r])[0]),
    }
    for path, got in values.items():
        assert _agrees(got, expected), (path, got, expected)


@settings(deadline=None, max_examples=300)
@given(unit_wide, unit_wide, weight_wide, exponent_wide)
def test_g_beta_rho_whole_double_range_against_mpmath(p, r, beta, rho):
    expected = _g_wide_mp(p, r, beta, rho)
    values = {
        "scalar": im.g_beta_rho(p, r, beta=beta, rho=rho),
        "array": float(im.g_beta_rho([p], [r], beta=[beta], rho=[rho])[0]),
        "metric": float(im.parse_metric(f"g(beta={beta!r}, rho={rho!r})").from_precision_recall([p], [r])[0]),
    }
    for path, got in values.items():
        assert _agrees(got, expected), (path, got, expected)


@settings(deadline=None, max_examples=200)
@given(unit_wide, unit_wide, st.one_of(weight_wide, st.sampled_from([0.0, math.inf, 1e-155, 1e-160, 1e155])))
def test_fbeta_and_fixed_means_whole_double_range_against_mpmath(p, r, beta):
    # gamma = 1/beta**2 is formed by the reference in arbitrary precision
    mpmath.mp.dps = 60
    gamma = math.inf if beta == 0 else 0.0 if beta == math.inf else mpmath.mpf(beta) ** -2
    expected = _w_mp(p, r, gamma, -1.0) if 0 < beta < math.inf else (p if beta == 0 else r)
    for got in (im.fbeta(p, r, beta=beta), float(im.fbeta([p], [r], beta=[beta])[0])):
        assert _agrees(got, expected), (got, expected)
    w = float(beta) if 0 < beta < math.inf else 1.0  # beta as a weight of the fixed means
    for fn, phi in (
        (im.weighted_arithmetic_mean, 1.0),
        (im.weighted_geometric_mean, 0.0),
        (im.weighted_harmonic_mean, -1.0),
    ):
        assert _agrees(fn(p, r, gamma=w), _w_mp(p, r, w, phi)), fn.__name__


@pytest.mark.parametrize(
    "p, r, gamma, phi",
    [
        (0.0, 0.5, 1e-300, 1e-300),
        (0.5, 0.0, 1e300, 1e-300),
        (0.0, 1.0, 1e-300, 1e-250),
        (1e-300, 0.0, 1.0, 1e308),
        (1e-300, 0.5, 1.0, -1e308),
        (0.3, 0.7, 1e300, -1e308),
    ],
)
def test_extreme_exponents_regressions(p, r, gamma, phi):
    expected = _w_mp(p, r, gamma, phi)
    assert expected > 0
    assert _agrees(im.power_mean(p, r, gamma=gamma, phi=phi), expected)


@settings(deadline=None, max_examples=200)
@given(weight_wide, exponent_wide)
def test_means_of_equal_arguments_are_exact(gamma, phi):
    # A perfect classifier scores exactly 1 and a useless one exactly 0 under every mean.
    assert im.power_mean(1.0, 1.0, gamma=gamma, phi=phi) == 1.0
    assert im.power_mean(0.0, 0.0, gamma=gamma, phi=phi) == 0.0
    for fn in (im.weighted_arithmetic_mean, im.weighted_geometric_mean, im.weighted_harmonic_mean):
        assert fn(1.0, 1.0, gamma=gamma) == 1.0
