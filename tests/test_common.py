"""Registry-driven checks: every binary function of the library obeys the same invariances.

Each entry maps (y_true, y_score, sample_weight, pos_label) to a flat float array, so one
set of tests covers curves, areas, hulls, thresholds and calibration alike.
"""

import numpy as np
import pytest

import isometrics as im


def _flat(*arrays):
    return np.concatenate([np.ravel(np.asarray(a, dtype=float)) for a in arrays])


REGISTRY = {
    "roc_curve": lambda y, s, w, p: _flat(*im.roc_curve(y, s, sample_weight=w, pos_label=p)[:2]),
    "precision_recall_curve": lambda y, s, w, p: _flat(*im.precision_recall_curve(y, s, sample_weight=w,
                                                                                  pos_label=p)[:2]),
    "prg_curve": lambda y, s, w, p: _flat(*[a[np.isfinite(a)] for a in im.prg_curve(y, s, sample_weight=w,
                                                                                     pos_label=p)[:2]]),
    "auroc": lambda y, s, w, p: _flat(im.auroc(y, s, sample_weight=w, pos_label=p)),
    "average_precision": lambda y, s, w, p: _flat(im.average_precision(y, s, sample_weight=w, pos_label=p)),
    "auprg": lambda y, s, w, p: _flat(im.auprg(y, s, sample_weight=w, pos_label=p)),
    "auc_pr_interpolated": lambda y, s, w, p: _flat(im.auc_pr_interpolated(y, s, sample_weight=w, pos_label=p)),
    "auc_pr_achievable": lambda y, s, w, p: _flat(im.auc_pr_achievable(y, s, sample_weight=w, pos_label=p)),
    "roc_convex_hull": lambda y, s, w, p: _flat(*(lambda h: (h.fpr, h.tpr))(
        im.roc_convex_hull(y, s, sample_weight=w, pos_label=p))),
    "prg_convex_hull": lambda y, s, w, p: _flat(im.prg_convex_hull(y, s, sample_weight=w,
                                                                   pos_label=p).f_calibrated_scores),
    "best f1": lambda y, s, w, p: _flat(im.best_threshold(y, s, metric="f1", sample_weight=w, pos_label=p).value),
    "best g": lambda y, s, w, p: _flat(im.best_threshold(y, s, metric="g(beta=2, rho=-3)", sample_weight=w,
                                                         pos_label=p).value),
    "best cost": lambda y, s, w, p: _flat(im.best_threshold(y, s, metric="cost(fp=1, fn=4)", sample_weight=w,
                                                            pos_label=p).value),
    "metric_curve": lambda y, s, w, p: _flat(im.metric_curve(y, s, metric="f2", sample_weight=w,
                                                             pos_label=p).values[1:]),
    "precision_at_recall": lambda y, s, w, p: _flat(im.precision_at_recall(y, s, min_recall=0.5, sample_weight=w,
                                                                           pos_label=p).precision),
    "always_positive": lambda y, s, w, p: _flat(im.always_positive(y, sample_weight=w, pos_label=p).precision),
}
# no entry returns thresholds, so every one must be unchanged by a monotone map of the scores
NO_SCORES = {"always_positive"}  # takes no y_score: the score checks do not apply


@pytest.fixture
def data(rng):
    y = (rng.random(120) < 0.35).astype(int)
    y[:2] = [1, 0]
    s = np.round(rng.normal(size=120) + y, 1)
    w = rng.integers(1, 4, size=120).astype(float)
    return y, s, w


@pytest.mark.parametrize("name", REGISTRY)
def test_order_invariance(name, data, rng):
    y, s, w = data
    perm = rng.permutation(len(y))
    np.testing.assert_allclose(REGISTRY[name](y[perm], s[perm], w[perm], None), REGISTRY[name](y, s, w, None),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", REGISTRY)
def test_sample_weight_invariances(name, data):
    y, s, w = data
    f = REGISTRY[name]
    np.testing.assert_allclose(f(y, s, np.ones(len(y)), None), f(y, s, None, None), rtol=1e-12, atol=1e-12)
    repeated = np.repeat(np.arange(len(y)), w.astype(int))
    np.testing.assert_allclose(f(y, s, w, None), f(y[repeated], s[repeated], None, None), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(f(y, s, 3.5 * w, None), f(y, s, w, None), rtol=1e-9, atol=1e-12)
    zeroed = w.copy()
    zeroed[5:15] = 0.0
    keep = zeroed > 0
    np.testing.assert_allclose(f(y, s, zeroed, None), f(y[keep], s[keep], zeroed[keep], None), rtol=1e-12,
                               atol=1e-12)


@pytest.mark.parametrize("name", REGISTRY)
def test_string_labels_and_monotone_maps(name, data):
    y, s, w = data
    f = REGISTRY[name]
    names = np.where(y == 1, "yes", "no")
    np.testing.assert_allclose(f(names, s, w, "yes"), f(y, s, w, None), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(f(y, np.exp(s) * 3 - 1, w, None), f(y, s, w, None), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("name", REGISTRY)
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
        REGISTRY[name](yb, sb, wb, None)


@pytest.mark.parametrize("name", REGISTRY)
def test_inputs_are_not_mutated(name, data):
    y, s, w = data
    copies = (y.copy(), s.copy(), w.copy())
    REGISTRY[name](y, s, w, None)
    for a, b in zip((y, s, w), copies):
        np.testing.assert_array_equal(a, b)
