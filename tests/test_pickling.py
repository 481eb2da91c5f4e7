"""Every public result type pickles (multiprocessing, joblib, caching): registry-driven round trips.

Each public class of ``isometrics.__all__`` has a builder here (a new public class without one
fails ``test_every_public_class_has_a_pickling_case``). A round trip must give back an object
equal in content, with arrays read-only exactly where they were, that still works: the same
calls on the original and on the copy give the same results.
"""

import dataclasses
import inspect
import math
import pickle
import warnings

import numpy as np
import pytest

import isometrics as im

pytestmark = pytest.mark.filterwarnings("ignore::isometrics.exceptions.DegenerateDataWarning")

_rng = np.random.default_rng(7)
Y = np.r_[1, 0, (_rng.random(58) < 0.4).astype(int)]
S = np.round(_rng.normal(size=60) + Y, 1)
W = _rng.integers(1, 4, size=60).astype(float)
MULTI_Y = np.r_[Y, 2, 2, 2]
MULTI_S = np.c_[np.r_[S, 0, 0, 1], -np.r_[S, 0, 0, 1], np.r_[np.zeros(60), 2, 2, 2]]


def _op():
    return im.OperatingPoints.from_scores(Y, S, sample_weight=W)


def _hull():
    return _op().roc_convex_hull()


# name -> (builder, what to call on the original and on the copy: same results expected)
CASES = {
    "OperatingPoints": (_op, lambda o: (o.auroc(), o.best_threshold("f2").value, o.roc_curve(),
                                        o.precision_at_recall(0.5), o.n_positives)),
    "RocCurve": (lambda: _op().roc_curve(), lambda c: np.trapezoid(c.tpr, c.fpr)),
    "PrecisionRecallCurve": (lambda: _op().precision_recall_curve(), lambda c: c.precision.max()),
    "PrgCurve": (lambda: _op().prg_curve(), lambda c: c.in_unit_square),
    "AlwaysPositive": (lambda: im.always_positive(Y, sample_weight=W), lambda a: tuple(a)),
    "BaselineCurve": (lambda: im.iso_fbeta_baseline(0.3, beta=2.0), lambda b: tuple(b)),
    "LevelCurve": (lambda: im.level_curve("g(beta=2, rho=-3)", 0.5, space="roc", prevalence=0.3),
                   lambda c: c.x.sum()),
    "InterpolatedPoints": (lambda: im.interpolate_pr_points(2, 1, 6, 5, n_positives=10), lambda p: tuple(p)),
    "RocHull": (_hull, lambda h: (h.max_precision_at_recall(0.5), h.best_mixture("g(beta=2, rho=-3)"),
                                  h.tpr_at([0.1, 0.5]))),
    "PrgHull": (lambda: _op().prg_convex_hull(), lambda h: h.f_calibrated_scores.sum()),
    "RandomizedClassifier": (lambda: _hull().randomized(fpr=0.3), lambda c: c.predict(S, rng=0)),
    "HullOptimum": (lambda: _hull().best_mixture("f1"), lambda o: o.metric.from_counts(3, 1, 2)),
    "BestThreshold": (lambda: im.best_threshold(Y, S, metric="g(beta=2, rho=-3)", sample_weight=W),
                      lambda b: (b.to_dict(), b._repr_html_())),
    "MetricCurve": (lambda: im.metric_curve(Y, S, metric="f1"), lambda c: np.nanmax(c.values)),
    "OperatingPoint": (lambda: im.precision_at_recall(Y, S, min_recall=0.5), lambda p: p.precision),
    "BinaryEvaluation": (lambda: im.evaluate_scores(Y, {"a": S}, metrics=["f1", "youden", "cost(fp=1, fn=3)"])[0],
                         lambda e: (e.to_dict(), e.operating_points.auprg())),
    "ScoreComparison": (lambda: im.compare_scores(Y, S, -S, n_resamples=20, rng=0), lambda c: c.to_dict()),
    "Metric": (lambda: im.parse_metric("cost(fp=1, fn=4, prevalence=0.2)"),
               lambda m: m.from_counts([1.0, 2.0], [0.0, 1.0], [2.0, 1.0], [3.0, 2.0])),
    "OneVsRest": (lambda: im.one_vs_rest(MULTI_Y, MULTI_S), lambda o: (o.auroc(average="macro"),
                                                                        o.best_thresholds("f1"))),
    "MetricReport": (lambda: im.metric_report(MULTI_Y, MULTI_S.argmax(axis=1), metrics=["precision", "f2"]),
                     lambda r: (r.to_dict(), r.to_text())),
    "ClassCounts": (lambda: im.class_counts(MULTI_Y, MULTI_S.argmax(axis=1)), lambda c: c.support),
    "StepCalibrator": (lambda: im.isotonic_calibrator(Y, S), lambda c: c(S)),
    "ReliabilityCurve": (lambda: im.reliability_curve(Y, 1 / (1 + np.exp(-S))), lambda c: tuple(c)),
    "BootstrapResult": (lambda: im.bootstrap(Y, S, n_resamples=20, rng=0), lambda r: r.confidence_interval),
    "PairedBootstrapResult": (lambda: im.bootstrap_compare(Y, {"a": S, "b": -S}, n_resamples=20, rng=0),
                              lambda r: (r.p_values, r.estimates)),
    "CurveBand": (lambda: im.bootstrap_curve_band(Y, S, n_resamples=20, rng=0), lambda b: tuple(b)),
    "DelongResult": (lambda: im.delong(Y, S), lambda r: r.confidence_interval()),
    "DelongTest": (lambda: im.delong_test(Y, S, S + _rng.normal(size=60)), lambda t: t.p_value),
}

PUBLIC_CLASSES = sorted(name for name in im.__all__ if inspect.isclass(getattr(im, name)))
# errors and warnings: one generic case each (a message naming the function and the parameter)
for _name in PUBLIC_CLASSES:
    if issubclass(getattr(im, _name), BaseException):
        CASES.setdefault(_name, (lambda cls=getattr(im, _name): cls("auroc: `y_true` has one class."), str))


def _same(a, b, path="x"):
    """Equal in content: same types, arrays equal (NaN = NaN) with the same dtype and writeability."""
    assert type(a) is type(b), f"{path}: {type(a)} != {type(b)}"
    if isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, path
        assert a.flags.writeable == b.flags.writeable, f"{path}: writeable {a.flags.writeable} -> {b.flags.writeable}"
        if a.dtype.kind in "fc":
            np.testing.assert_array_equal(a, b, err_msg=path)
        else:
            assert np.array_equal(a, b), path
    elif isinstance(a, im.Metric):
        assert a == b and a.spec == b.spec, path
    elif isinstance(a, im.OperatingPoints):
        for field in ("thresholds", "tp", "fp", "pos_label"):
            _same(getattr(a, field), getattr(b, field), f"{path}.{field}")
    elif dataclasses.is_dataclass(a):
        for field in dataclasses.fields(a):
            if not field.name.startswith("_"):  # caches are derived, not content
                _same(getattr(a, field.name), getattr(b, field.name), f"{path}.{field.name}")
    elif isinstance(a, (tuple, list)):
        assert len(a) == len(b), path
        for i, (u, v) in enumerate(zip(a, b)):
            _same(u, v, f"{path}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for key in a:
            _same(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, BaseException):
        assert a.args == b.args, path
    elif isinstance(a, float):
        assert a == b or (math.isnan(a) and math.isnan(b)), f"{path}: {a} != {b}"
    elif isinstance(a, (np.generic, int, str, bool, type(None))):
        assert a == b or (a != a and b != b), f"{path}: {a!r} != {b!r}"
    else:
        assert vars(a).keys() == vars(b).keys(), path
        for key in vars(a):
            if not key.startswith("_"):
                _same(vars(a)[key], vars(b)[key], f"{path}.{key}")


def test_every_public_class_has_a_pickling_case():
    assert sorted(CASES) == PUBLIC_CLASSES


@pytest.mark.parametrize("name", PUBLIC_CLASSES)
@pytest.mark.parametrize("protocol", [pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL])
def test_round_trip_keeps_content_read_only_arrays_and_behaviour(name, protocol):
    build, use = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        original = build()
        assert isinstance(original, getattr(im, name))
        copy = pickle.loads(pickle.dumps(original, protocol=protocol))
        _same(original, copy)
        _same(use(original), use(copy))
        _same(original, copy)  # using them (caches filled) changed neither


def test_read_only_arrays_come_back_read_only():
    op = _op()
    curve = op.roc_curve()
    copy_op, copy_curve = pickle.loads(pickle.dumps((op, curve)))
    for array in (copy_op.thresholds, copy_op.tp, copy_op.fp, *copy_curve):
        assert not array.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 1.0
    # a curve of the caller's own writable arrays stays writable
    mine = im.RocCurve(np.array([0.0, 1.0]), np.array([0.0, 1.0]), np.array([np.inf, 0.5]))
    assert pickle.loads(pickle.dumps(mine)).fpr.flags.writeable


def test_every_metric_of_the_registry_pickles_as_its_spec():
    for name in im.METRIC_NAMES:
        spec = {"fbeta": "fbeta(beta=2)", "g": "g(beta=2, rho=-3)", "power": "power(gamma=2, phi=3)"}.get(name, name)
        metric = im.parse_metric(spec)
        copy = pickle.loads(pickle.dumps(metric))
        assert copy == metric
        np.testing.assert_array_equal(copy.from_counts([3.0, 0.0], [1.0, 2.0], [1.0, 4.0], [5.0, 3.0]),
                                      metric.from_counts([3.0, 0.0], [1.0, 2.0], [1.0, 4.0], [5.0, 3.0]))


def test_a_metric_not_built_by_the_parser_says_how_to_pickle_it():
    custom = im.Metric(spec="f1", label="my own F1", _pr=lambda p, r: p * r)
    with pytest.raises(TypeError, match="was not built by parse_metric"):
        pickle.dumps(custom)
