"""Registry-driven checks: every binary function of the library obeys the same invariances.

The functions and what applies to each come from the one registry (tests/registry.py): each
``binary`` variant maps (y_true, y_score, sample_weight, pos_label) to a flat float array, so one
set of tests covers curves, areas, hulls, thresholds and calibration alike.
"""

import inspect

import numpy as np
import pytest
from registry import EXEMPT, REGISTRY, having, variants

import isometrics as im

BINARY = variants("binary")
# no entry returns thresholds, so every one must be unchanged by a monotone map of the scores
NO_SCORES = having("no_scores")  # takes no y_score: the score checks do not apply


@pytest.fixture
def data(rng):
    y = (rng.random(120) < 0.35).astype(int)
    y[:2] = [1, 0]
    s = np.round(rng.normal(size=120) + y, 1)
    w = rng.integers(1, 4, size=120).astype(float)
    return y, s, w


@pytest.mark.parametrize("name", BINARY)
def test_order_invariance(name, data, rng):
    y, s, w = data
    perm = rng.permutation(len(y))
    np.testing.assert_allclose(BINARY[name](y[perm], s[perm], w[perm], None), BINARY[name](y, s, w, None),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", BINARY)
def test_sample_weight_invariances(name, data):
    y, s, w = data
    f = BINARY[name]
    np.testing.assert_allclose(f(y, s, np.ones(len(y)), None), f(y, s, None, None), rtol=1e-12, atol=1e-12)
    repeated = np.repeat(np.arange(len(y)), w.astype(int))
    np.testing.assert_allclose(f(y, s, w, None), f(y[repeated], s[repeated], None, None), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(f(y, s, 3.5 * w, None), f(y, s, w, None), rtol=1e-9, atol=1e-12)
    zeroed = w.copy()
    zeroed[5:15] = 0.0
    keep = zeroed > 0
    np.testing.assert_allclose(f(y, s, zeroed, None), f(y[keep], s[keep], zeroed[keep], None), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("name", BINARY)
def test_string_labels_and_monotone_maps(name, data):
    y, s, w = data
    f = BINARY[name]
    names = np.where(y == 1, "yes", "no")
    np.testing.assert_allclose(f(names, s, w, "yes"), f(y, s, w, None), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(f(y, np.exp(s) * 3 - 1, w, None), f(y, s, w, None), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", BINARY)
@pytest.mark.parametrize("bad, match", [
    (lambda y, s, w: (y, np.where(np.arange(len(s)) == 3, np.nan, s), w), "contains 1 NaN value"),
    (lambda y, s, w: (y[:-1], s, w), "different numbers of samples"),
    (lambda y, s, w: (np.ones_like(y), s, w), "one class"),
    (lambda y, s, w: (y, s, -w), "negative values"),
])
def test_bad_input_errors(name, data, bad, match):
    if name in NO_SCORES and match in ("contains 1 NaN value", "different numbers of samples"):
        pytest.skip("takes no scores")
    y, s, w = data
    yb, sb, wb = bad(y, s, w)
    with pytest.raises(im.IsometricsError, match=match):
        BINARY[name](yb, sb, wb, None)


@pytest.mark.parametrize("name", BINARY)
def test_inputs_are_not_mutated(name, data):
    y, s, w = data
    copies = (y.copy(), s.copy(), w.copy())
    BINARY[name](y, s, w, None)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------- uncertainty
# The uncertainty functions on the same inputs (registry tag ``uncertainty``): point estimates,
# so that the score validation, the errors, non-mutation and order invariance are checked for
# every function that takes y_score.
UNCERTAINTY = variants("uncertainty")
UNWEIGHTED = having("unweighted")  # DeLong's U-statistic takes no sample weights


@pytest.mark.parametrize("name", UNCERTAINTY)
def test_uncertainty_point_estimates_are_order_invariant(name, data, rng):
    y, s, w = data
    perm = rng.permutation(len(y))
    np.testing.assert_allclose(UNCERTAINTY[name](y[perm], s[perm], w[perm], None), UNCERTAINTY[name](y, s, w, None),
                               rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", UNCERTAINTY)
def test_uncertainty_string_labels(name, data):
    y, s, w = data
    f = UNCERTAINTY[name]
    np.testing.assert_allclose(f(np.where(y == 1, "yes", "no"), s, w, "yes"), f(y, s, w, None), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("name", UNCERTAINTY)
@pytest.mark.parametrize("bad, match", [
    # predict_proba output where one score column belongs: refused, with what to pass instead
    (lambda y, s, w: (y, np.c_[1 - s, s], w), r"must be 1-D .* got an array of shape \(120, 2\); for predict_proba "
                                              r"output pass proba\[:, 1\]"),
    (lambda y, s, w: (y, np.where(np.arange(len(s)) == 3, np.nan, s), w), "contains 1 NaN value"),
    (lambda y, s, w: (y, np.where(np.arange(len(s)) == 3, np.inf, s), w), "contains 1 infinite value"),
    (lambda y, s, w: (y, s.astype(str), w), "must be numeric scores"),
    (lambda y, s, w: (y[:-1], s, w), "different numbers of samples"),
    (lambda y, s, w: (np.ones_like(y), s, w), "one class"),
    (lambda y, s, w: (y, s, -w), "negative values"),
])
def test_uncertainty_bad_input_errors(name, data, bad, match):
    if name in UNWEIGHTED and match == "negative values":
        pytest.skip("takes no sample weights")
    y, s, w = data
    yb, sb, wb = bad(y, s, w)
    with pytest.raises(im.IsometricsError, match=match):
        UNCERTAINTY[name](yb, sb, wb, None)


@pytest.mark.parametrize("name", UNCERTAINTY)
def test_uncertainty_inputs_are_not_mutated(name, data):
    y, s, w = data
    copies = (y.copy(), s.copy(), w.copy())
    UNCERTAINTY[name](y, s, w, None)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------- weight scale
# Every other public function that takes sample_weight (registry tag ``weighted``), as
# (y, s, w) -> flat floats, each entry unchanged by scaling the weights. Functions whose weights
# count samples are tagged ``scale_dependent`` instead.
WEIGHTED = variants("weighted")
SCALE_DEPENDENT = having("scale_dependent")
_SCALES = [1e-300, 1e-170, 1e-100, 1e100, 1e160, 1e300]


def _public_weighted_functions():
    return {name for name in im.__all__ if inspect.isfunction(getattr(im, name))
            and "sample_weight" in inspect.signature(getattr(im, name)).parameters}


def test_every_weighted_function_is_checked_for_weight_scale():
    covered = {name for name, entry in REGISTRY.items() if entry.tags & {"binary", "weighted", "scale_dependent"}}
    assert _public_weighted_functions() - covered == set()


def _assert_scale_invariant(f, scale):
    base, scaled = f(1.0), f(scale)
    assert np.isfinite(scaled[np.isfinite(base)]).all(), f"non-finite results at weights x {scale:g}"
    np.testing.assert_allclose(scaled, base, rtol=1e-9, atol=1e-13)


@pytest.mark.parametrize("scale", _SCALES)
@pytest.mark.parametrize("name", [n for n in BINARY])
def test_weight_scale_invariance(name, scale, data):
    """Multiplying every weight by a constant changes nothing, from 1e-300 to 1e300 (issue 9, item 3)."""
    y, s, w = data
    _assert_scale_invariant(lambda c: BINARY[name](y, s, w * c, None), scale)


@pytest.mark.parametrize("scale", _SCALES)
@pytest.mark.parametrize("name", WEIGHTED)
def test_weight_scale_invariance_of_other_weighted_functions(name, scale, data):
    y, s, w = data
    _assert_scale_invariant(lambda c: WEIGHTED[name](y, s, w * c), scale)


# ---------------------------------------------------------------------------- the registry itself
def _is_error(obj):
    return inspect.isclass(obj) and issubclass(obj, BaseException)


def test_every_public_callable_is_registered():
    """A public function or class of ``isometrics.__all__`` is covered by the common checks by being registered
    (errors and warnings automatically); the few that none applies to are exempt, with the reason."""
    public = {name for name in im.__all__ if callable(getattr(im, name))}
    registered = {name for name, entry in REGISTRY.items() if entry.tags}
    assert public - registered - set(EXEMPT) == set()
    assert set(EXEMPT) <= public - registered  # an exemption names a public callable that is not registered
    assert all(REGISTRY[name].pickling for name in public if _is_error(getattr(im, name)))
