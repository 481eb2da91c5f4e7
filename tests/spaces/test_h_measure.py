"""The H-measure (Hand 2009) against hand derivations and a numerical integral of its definition.

The reference here never uses the closed form of ``isometrics.spaces.hmeasure``: it integrates
``min over every ROC point of the loss`` times the Beta(2, 2) density with scipy's quad, over
the breakpoints so that each piece is a polynomial.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate

from isometrics import IsometricsError, OperatingPoints
from isometrics.spaces.hmeasure import H_MEASURE, h_measure
from isometrics.spaces.quantities import QUANTITIES


def _by_quadrature(y, s, w=None):
    """H = 1 - L / L_max from the definition: the minimum loss over all thresholds at each cost c."""
    y, s = np.asarray(y), np.asarray(s, dtype=float)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    P, N = w[y == 1].sum(), w[y == 0].sum()
    pi1, pi0 = P / (P + N), N / (P + N)
    cuts = np.concatenate(([np.inf], np.unique(s)[::-1]))
    fpr = np.array([w[(y == 0) & (s >= t)].sum() / N for t in cuts])
    tpr = np.array([w[(y == 1) & (s >= t)].sum() / P for t in cuts])

    def density(c):
        return 6.0 * c * (1.0 - c)

    def loss(c):
        return np.min(c * pi0 * fpr + (1.0 - c) * pi1 * (1.0 - tpr)) * density(c)

    def trivial(c):
        return min(c * pi0, (1.0 - c) * pi1) * density(c)

    # the minimum changes vertex where two lines cross: give quad every crossing as a breakpoint
    points = [pi1]
    for i in range(len(cuts)):
        for j in range(len(cuts)):
            den = pi0 * (fpr[j] - fpr[i]) + pi1 * (tpr[j] - tpr[i])
            if den != 0:
                c = pi1 * (tpr[j] - tpr[i]) / den
                if 0 < c < 1:
                    points.append(c)
    opts = dict(points=sorted(set(points)), limit=500, epsabs=1e-13, epsrel=1e-12)
    return 1.0 - integrate.quad(loss, 0, 1, **opts)[0] / integrate.quad(trivial, 0, 1, **opts)[0]


@pytest.mark.filterwarnings("ignore::isometrics.DegenerateDataWarning")
def test_perfect_ranking_is_one_and_random_is_zero():
    assert h_measure([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9]) == 1.0
    assert h_measure([0, 1, 0, 1], [1, 1, 2, 2]) == 0.0  # the diagonal
    assert h_measure([1, 1, 0, 0], [0.1, 0.2, 0.8, 0.9]) == 0.0  # worse than random: the hull is the diagonal
    assert h_measure([0, 1] * 5, [3.0] * 10) == pytest.approx(0.0)  # one score: nothing ranked
    # a random ranking of many samples: the hull hugs the diagonal
    rng = np.random.default_rng(0)
    assert h_measure(rng.integers(0, 2, 20_000), rng.random(20_000)) < 0.01


def test_hand_derived_three_point_example():
    """Scores .8 (+), .4 (-), .35 (+), .1 (-): hull (0, 0), (0, 1/2), (1/2, 1), (1, 1), P = N = 2.

    The hull's segments have precision 1, 1/2, 0, so (0, 1/2) is optimal for c in [1/2, 1] and
    (1/2, 1) for c in [0, 1/2]. With M1(0, 1/2) = [2c^3 - 3c^4/2] = 5/32 and (M0 - M1)(1/2, 1) =
    1/2 - 11/32 = 5/32: (P + N) L = FN (5/32) + FP (5/32) = 10/32, (P + N) L_max = 2 (5/32) + 2 (5/32)
    = 20/32, so H = 1/2.
    """
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    assert h_measure(y, s) == 0.5
    assert _by_quadrature(y, s) == pytest.approx(0.5, abs=1e-10)


@pytest.mark.parametrize("seed", range(6))
def test_closed_form_equals_the_numerical_integral(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 40))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.normal(size=n) + rng.uniform(0, 2) * y, 1)  # ties included
    w = rng.uniform(0.2, 3.0, n) if seed % 2 else None
    assert h_measure(y, s, sample_weight=w) == pytest.approx(_by_quadrature(y, s, w), abs=1e-9)


def test_declared_once_and_cached_on_the_table():
    assert QUANTITIES["h_measure"] is H_MEASURE
    op = OperatingPoints.from_scores([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9])
    assert op.get(H_MEASURE) == h_measure([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9])
    assert op.peek(H_MEASURE) is not None


def test_one_class_raises():
    with pytest.raises(IsometricsError, match="h_measure is undefined when y_true has one class"):
        h_measure([1, 1, 1], [0.1, 0.5, 0.9])


def test_labels_swapped_give_the_same_value():
    """A symmetric cost distribution: calling the other class positive (and negating scores) changes nothing."""
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 50)
    s = rng.normal(size=50) + y
    assert h_measure(1 - y, -s) == pytest.approx(h_measure(y, s), abs=1e-14)


_cases = st.integers(2, 30).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 1), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
        st.lists(st.integers(-20, 20), min_size=n, max_size=n),
        st.lists(st.integers(1, 5), min_size=n, max_size=n),
    )
)


@pytest.mark.filterwarnings("ignore::isometrics.DegenerateDataWarning")
@settings(max_examples=60, deadline=None)
@given(_cases)
def test_in_unit_interval_and_invariant_to_monotone_maps(case):
    y, s, w = (np.asarray(v) for v in case)
    value = h_measure(y, s, sample_weight=w)
    assert 0.0 <= value <= 1.0
    for mapped in (np.exp(s / 7.0), 3.0 * s - 11.0, np.arctan(s / 3.0)):  # strictly increasing maps
        assert h_measure(y, mapped, sample_weight=w) == pytest.approx(value, abs=1e-12)
    # integer weights are repeated samples
    assert h_measure(np.repeat(y, w), np.repeat(s, w)) == pytest.approx(value, abs=1e-12)


def test_the_namespace_name_is_the_function_even_after_its_module_is_imported():
    import isometrics.spaces.hmeasure  # noqa: F401 - the submodule loaded first, as spaces.quantities does
    from isometrics.spaces import h_measure as from_namespace

    assert from_namespace is h_measure and callable(from_namespace)
