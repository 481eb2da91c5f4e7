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


# ---------------------------------------------------------------------------- uncertainty
# The uncertainty functions on the same inputs. Each entry maps (y_true, y_score, sample_weight,
# pos_label) to its point estimates (deterministic: the replicates are not compared), so that
# the score validation, the errors, non-mutation and order invariance are checked for every
# function that takes y_score. Multi-scorer functions get a second scorer made elementwise from
# y_score, so a bad y_score (2-D, NaN, wrong length) reaches them as a bad column.
def _second(s):
    with np.errstate(invalid="ignore"):  # sin(inf) is NaN: the first column's error is the one expected
        return np.sin(3 * np.asarray(s, dtype=float))


_B = dict(n_resamples=20, rng=0)
UNCERTAINTY = {
    "bootstrap": lambda y, s, w, p: _flat(im.bootstrap(y, s, sample_weight=w, weight_kind="sampling", pos_label=p,
                                                       **_B).estimate),
    "bootstrap metric": lambda y, s, w, p: _flat(im.bootstrap(y, s, statistic="metric", metric="f2", threshold=0.4,
                                                              sample_weight=w, weight_kind="sampling", pos_label=p,
                                                              **_B).estimate),
    "bootstrap_areas": lambda y, s, w, p: _flat(*[r.estimate for r in im.bootstrap_areas(
        y, s, sample_weight=w, weight_kind="sampling", pos_label=p, **_B).values()]),
    "bootstrap_curve_band": lambda y, s, w, p: _flat(im.bootstrap_curve_band(
        y, s, curve="prg", sample_weight=w, weight_kind="sampling", pos_label=p, **_B).estimate),
    "bootstrap_compare": lambda y, s, w, p: _flat(im.bootstrap_compare(
        y, {"a": s, "b": _second(s)}, sample_weight=w, weight_kind="sampling", pos_label=p, **_B).estimates),
    "compare_scores": lambda y, s, w, p: _flat(*[r.estimate for r in im.compare_scores(
        y, s, _second(s), sample_weight=w, weight_kind="sampling", pos_label=p, **_B).differences.values()]),
    "evaluate_scores": lambda y, s, w, p: _flat(*[
        [e.auroc, e.average_precision, e.auprg, *[r.estimate for r in e.intervals.values()]]
        for e in im.evaluate_scores(y, {"a": s, "b": _second(s)}, metrics=["f1", "youden"], sample_weight=w,
                                    weight_kind="sampling", pos_label=p, **_B)]),
    "average_precision_ci": lambda y, s, w, p: _flat(im.average_precision_ci(y, s, sample_weight=w,
                                                                             weight_kind="sampling", pos_label=p)),
    "delong": lambda y, s, w, p: _flat(*(lambda r: (r.auroc, r.covariance))(im.delong(y, {"a": s, "b": _second(s)},
                                                                                      pos_label=p))),
    "delong_test": lambda y, s, w, p: _flat(*(lambda t: (t.difference, t.z, t.p_value, t.confidence_interval))(
        im.delong_test(y, s, _second(s), pos_label=p))),
}
UNWEIGHTED = {"delong", "delong_test"}  # DeLong's U-statistic takes no sample weights


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
# Every other public function that takes sample_weight, as (y, s, w) -> flat floats. Outputs
# that are counts in the weights' unit (confusion matrices, supports, bin weights) are divided
# by their total, so that every entry must be unchanged by scaling the weights.
def _share(a):
    a = np.asarray(a, dtype=float)
    return a / a.sum()


def _labels(s):
    return (s > 0.5).astype(int)


def _proba(s):
    return 1.0 / (1.0 + np.exp(-s))


def _three_classes(y, s):
    classes = y + (s > 1.5)  # 0, 1, 2; every class present in the fixture
    logits = np.column_stack([-s, s, 2 * s - 2])
    return classes, np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)


_SCORES_FROM_LABELS = {
    name: (lambda f: lambda y, s, w: _flat(f(y, _labels(s), sample_weight=w)))(getattr(im, name))
    for name in ("precision_score", "recall_score", "f1_score", "specificity_score",
                 "negative_predictive_value_score", "false_positive_rate_score", "accuracy_score",
                 "balanced_accuracy_score", "matthews_corrcoef")
}
WEIGHTED = {
    **_SCORES_FROM_LABELS,
    "fbeta_score": lambda y, s, w: _flat(im.fbeta_score(y, _labels(s), beta=2, sample_weight=w)),
    "precision_recall_fscore_support": lambda y, s, w: (lambda r: _flat(*r[:3], _share(r[3])))(
        im.precision_recall_fscore_support(y, _labels(s), sample_weight=w)),
    "confusion_matrix": lambda y, s, w: _share(im.confusion_matrix(y, _labels(s), sample_weight=w)),
    "class_counts": lambda y, s, w: (lambda c: _share(_flat(c.tp, c.fp, c.fn, c.tn)))(
        im.class_counts(y, _labels(s), sample_weight=w)),
    "metric_report": lambda y, s, w: (lambda r: _flat(r.values, _share(r.support), *r.averages.values()))(
        im.metric_report(*_three_classes(y, s)[:1], _labels(s) + (s > 1.5), sample_weight=w,
                         metrics=["f1", "g(beta=2, rho=-3)", "youden", "cost(fp=1, fn=4)"])),
    "expected_cost": lambda y, s, w: _flat(im.expected_cost(y, _labels(s), cost_matrix=[[0, 1], [1e10, 0]],
                                                            sample_weight=w)),
    "reliability_curve": lambda y, s, w: (lambda c: _flat(c.mean_predicted, c.fraction_positive, _share(c.weight)))(
        im.reliability_curve(y, _proba(s), n_bins=5, sample_weight=w)),
    "expected_calibration_error": lambda y, s, w: _flat(im.expected_calibration_error(y, _proba(s), sample_weight=w)),
    "isotonic_calibrator": lambda y, s, w: _flat(im.isotonic_calibrator(y, s, sample_weight=w)(s)),
    "f_calibrator": lambda y, s, w: _flat(im.f_calibrator(y, s, sample_weight=w)(s)),
    "achievable_pr_curve": lambda y, s, w: _flat(*im.achievable_pr_curve(y, s, sample_weight=w)[:2]),
    "recall_at_precision": lambda y, s, w: (lambda p: _flat(p.precision, p.recall, p.fpr))(
        im.recall_at_precision(y, s, min_precision=0.6, sample_weight=w)),
    "specificity_at_sensitivity": lambda y, s, w: (lambda p: _flat(p.precision, p.recall, p.fpr))(
        im.specificity_at_sensitivity(y, s, min_sensitivity=0.6, sample_weight=w)),
    "roc_convex_hull optima": lambda y, s, w: (lambda h: _flat(
        h.max_recall_at_precision(0.6).tpr, h.max_precision_at_recall(0.5).precision,
        h.min_fpr_at_tpr(0.7).fpr, h.best_mixture("g(beta=2, rho=-3)").value))(
        im.roc_convex_hull(y, s, sample_weight=w)),
    "at_prevalence": lambda y, s, w: (lambda op: _flat(op.auprg(), op.best_threshold("f1").value))(
        im.OperatingPoints.from_scores(y, s, sample_weight=w).at_prevalence(0.1)),
    "evaluate_scores": lambda y, s, w: _flat(*[
        [e.prevalence, e.auroc, e.average_precision, e.auprg, *[b.value for b in e.best]]
        for e in im.evaluate_scores(y, {"a": s}, metrics=["f1", "g(beta=2, rho=-3)", "youden"], sample_weight=w)]),
    "one_vs_rest": lambda y, s, w: (lambda o: _flat(
        o.auroc(average=None), o.average_precision(average=None), o.auprg(average=None), o.auroc(average="micro"),
        o.auroc(average="weighted"), _share(o.support), [b.value for b in o.best_thresholds("f2")]))(
        im.one_vs_rest(*_three_classes(y, s), sample_weight=w)),
}
# Functions whose weights are not only a relative weighting, checked elsewhere: their
# frequency weights count samples (an interval narrows as they grow) and their point
# estimates are covered by the uncertainty registry.
SCALE_DEPENDENT = {"bootstrap", "bootstrap_areas", "bootstrap_compare", "bootstrap_curve_band",
                   "average_precision_ci", "compare_scores"}
_SCALES = [1e-300, 1e-170, 1e-100, 1e100, 1e160, 1e300]


def _public_weighted_functions():
    import inspect

    return {name for name in im.__all__
            if inspect.isfunction(getattr(im, name)) and "sample_weight" in inspect.signature(getattr(im, name)).parameters}


def test_every_weighted_function_is_checked_for_weight_scale():
    covered = {name.split()[0] for name in [*REGISTRY, *WEIGHTED]} | {"best_threshold"} | SCALE_DEPENDENT
    assert _public_weighted_functions() - covered == set()


def _assert_scale_invariant(f, scale):
    base, scaled = f(1.0), f(scale)
    assert np.isfinite(scaled[np.isfinite(base)]).all(), f"non-finite results at weights x {scale:g}"
    np.testing.assert_allclose(scaled, base, rtol=1e-9, atol=1e-13)


@pytest.mark.parametrize("scale", _SCALES)
@pytest.mark.parametrize("name", [n for n in REGISTRY])
def test_weight_scale_invariance(name, scale, data):
    """Multiplying every weight by a constant changes nothing, from 1e-300 to 1e300 (issue 9, item 3)."""
    y, s, w = data
    _assert_scale_invariant(lambda c: REGISTRY[name](y, s, w * c, None), scale)


@pytest.mark.parametrize("scale", _SCALES)
@pytest.mark.parametrize("name", WEIGHTED)
def test_weight_scale_invariance_of_other_weighted_functions(name, scale, data):
    y, s, w = data
    _assert_scale_invariant(lambda c: WEIGHTED[name](y, s, w * c), scale)
