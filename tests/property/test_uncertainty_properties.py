"""Properties of the uncertainty machinery (hypothesis): frequency replicates, tail p-values, quantiles."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from sklearn import metrics as skm

from isometrics.uncertainty.delong import _two_sided_p
from isometrics.uncertainty.intervals import _quantiles
from isometrics.uncertainty.resampling import Resampler


@st.composite
def aggregated_table(draw):
    """Rows of (label, score, frequency) as in an aggregated table; both classes present."""
    n = draw(st.integers(2, 25))
    y = draw(hnp.arrays(np.int8, n, elements=st.integers(0, 1)))
    y[0], y[1] = 1, 0
    s = draw(hnp.arrays(np.float64, n, elements=st.sampled_from([0.0, 0.5, 1.0, 1.5, 3.0])))
    w = draw(hnp.arrays(np.int64, n, elements=st.integers(0, 50)))
    w[0], w[1] = draw(st.integers(1, 50)), draw(st.integers(1, 50))
    return y, s, w.astype(float)


@given(aggregated_table(), st.booleans(), st.booleans(), st.integers(0, 2**32 - 1))
def test_a_frequency_replicate_is_a_bootstrap_sample_of_the_expanded_data(table, stratified, per_sample, seed):
    # whatever path draws it, a replicate holds sum(w) samples (per class when stratified),
    # each drawn sample weighs 1, and its areas are those of the data holding those copies
    y, s, w = table
    rng = np.random.default_rng(seed)
    resampler = Resampler(y == 1, s, w, stratified, per_sample=per_sample, frequency=True)
    draws = resampler.counts(rng)
    keep = w > 0
    if per_sample:
        counts = draws[0]
        yy, ss = np.repeat(y[keep], counts), np.repeat(s[keep], counts)
        pos_drawn, neg_drawn = counts[y[keep] == 1].sum(), counts[y[keep] == 0].sum()
    else:
        groups = resampler.op.thresholds[1:]
        pos_drawn, neg_drawn = int(draws[0].sum()), int(draws[1].sum())
        yy = np.r_[np.ones(pos_drawn), np.zeros(neg_drawn)]
        ss = np.r_[np.repeat(groups, draws[0]), np.repeat(groups, draws[1])]
    if stratified:
        assert (pos_drawn, neg_drawn) == (w[y == 1].sum(), w[y == 0].sum())
    else:
        assert pos_drawn + neg_drawn == w.sum()
    op = resampler.build(draws, compact=True)
    if pos_drawn == 0 or neg_drawn == 0:
        assert op is None
        return
    assert op.auroc() == pytest.approx(skm.roc_auc_score(yy, ss), rel=1e-12)
    assert op.average_precision() == pytest.approx(skm.average_precision_score(yy, ss), rel=1e-12)


@given(st.floats(-37.5, 37.5))
def test_two_sided_p_value_has_full_relative_accuracy(z):
    # 2 (1 - Phi(|z|)) in 50-digit arithmetic; 1 - cdf in doubles is 0 beyond |z| ~ 8.3. What
    # remains is the conditioning of erfc(x) at x = |z|/sqrt(2): a relative error eps in x
    # becomes about 2 x^2 eps = z^2 eps in the p-value.
    with mpmath.workdps(50):
        exact = 2 * mpmath.ncdf(-abs(mpmath.mpf(z)))
    assert _two_sided_p(z) == pytest.approx(float(exact), rel=1e-14 + 4 * z * z * 2.3e-16, abs=0.0)


@given(
    hnp.arrays(np.float64, st.integers(2, 30), elements=st.sampled_from([0.0, 0.5, 1.0, 2.0, math.inf])),
    st.floats(0.0, 1.0),
)
def test_quantiles_next_to_infinity_are_never_nan(values, q):
    # np.quantile's linear interpolation where both neighbours are finite; else the limit of
    # the interpolation, the infinite neighbour (never inf - inf = NaN)
    got = float(_quantiles(values, [q])[0])
    ordered = np.sort(values)
    h = (len(values) - 1) * q
    lo, hi = ordered[math.floor(h)], ordered[math.ceil(h)]
    if lo == hi or h == math.floor(h):
        expected = lo
    elif math.isinf(hi):
        expected = math.inf
    else:
        expected = lo + (h - math.floor(h)) * (hi - lo)
    assert not math.isnan(got)
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-12)
