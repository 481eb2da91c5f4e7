"""Registry-driven message checks: every public error names the function and the parameter.

Each entry is a public function (or method) with a valid call; the tests replace one
argument at a time by a hostile value (a ragged list, a string where a number or an
array goes, an empty list, a non-integral count) and assert that the error names the
function, the parameter and what was wrong. A table of integer parameters checks that
every count goes through one integer check (never truncated, never a raw Python error).
"""

import inspect
import math
import re

import numpy as np
import pytest

import isometrics as im

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0])
S = np.array([0.1, 0.9, 0.3, 0.6, 0.8, 0.2, 0.4, 0.5])
P = (S > 0.45).astype(int)
W = np.array([1.0, 2.0, 1.0, 1.0, 3.0, 1.0, 1.0, 2.0])
Y3 = np.array([0, 1, 2, 2, 1, 0, 2, 1])
PROBA3 = np.array([[.7, .2, .1], [.2, .6, .2], [.1, .2, .7], [.3, .3, .4], [.2, .5, .3], [.6, .3, .1],
                   [.1, .1, .8], [.3, .4, .3]])


def _hull():
    return im.roc_convex_hull(Y, S)


# name (as it must appear in messages) -> (callable, valid keyword arguments, {parameter: kind})
# kinds: "labels" and "array" are per-sample arrays, "number" a scalar, "numbers" a value that
# broadcasts (scalar or array), "metrics" a sequence of metric specs.
BINARY = {"y_true": "labels", "y_score": "array", "sample_weight": "array"}
LABELS = {"y_true": "labels", "y_pred": "labels", "sample_weight": "array"}
REGISTRY = {
    **{f.__name__: (f, dict(y_true=Y, y_score=S, sample_weight=W), BINARY)
       for f in (im.roc_curve, im.precision_recall_curve, im.prg_curve, im.auroc, im.average_precision, im.auprg,
                 im.auc_pr_interpolated, im.achievable_pr_curve, im.auc_pr_achievable, im.roc_convex_hull,
                 im.prg_convex_hull, im.isotonic_calibrator, im.f_calibrator)},
    "best_threshold": (im.best_threshold, dict(y_true=Y, y_score=S, metric="f1", sample_weight=W), BINARY),
    "metric_curve": (im.metric_curve, dict(y_true=Y, y_score=S, metric="f1", sample_weight=W), BINARY),
    "precision_at_recall": (im.precision_at_recall, dict(y_true=Y, y_score=S, min_recall=0.5, sample_weight=W),
                            {**BINARY, "min_recall": "number"}),
    "recall_at_precision": (im.recall_at_precision, dict(y_true=Y, y_score=S, min_precision=0.5, sample_weight=W),
                            {**BINARY, "min_precision": "number"}),
    "specificity_at_sensitivity": (im.specificity_at_sensitivity,
                                   dict(y_true=Y, y_score=S, min_sensitivity=0.5, sample_weight=W),
                                   {**BINARY, "min_sensitivity": "number"}),
    "reliability_curve": (im.reliability_curve, dict(y_true=Y, y_prob=S, n_bins=2, sample_weight=W),
                          {"y_true": "labels", "y_prob": "array", "sample_weight": "array", "n_bins": "count"}),
    "expected_calibration_error": (im.expected_calibration_error, dict(y_true=Y, y_prob=S, n_bins=2, sample_weight=W),
                                   {"y_true": "labels", "y_prob": "array", "sample_weight": "array",
                                    "n_bins": "count"}),
    "always_positive": (im.always_positive, dict(y_true=Y, sample_weight=W),
                        {"y_true": "labels", "sample_weight": "array"}),
    **{f.__name__: (f, dict(y_true=Y, y_pred=P, sample_weight=W), LABELS)
       for f in (im.accuracy_score, im.balanced_accuracy_score, im.matthews_corrcoef, im.class_counts,
                 im.confusion_matrix, im.precision_recall_fscore_support, im.precision_score, im.recall_score,
                 im.f1_score, im.specificity_score, im.negative_predictive_value_score,
                 im.false_positive_rate_score)},
    "fbeta_score": (im.fbeta_score, dict(y_true=Y, y_pred=P, beta=2.0, sample_weight=W), {**LABELS, "beta": "number"}),
    "metric_report": (im.metric_report, dict(y_true=Y, y_pred=P, metrics=["f1"], sample_weight=W),
                      {**LABELS, "metrics": "metrics"}),
    "expected_cost": (im.expected_cost, dict(y_true=Y, y_pred=P, cost_matrix=[[0, 1], [5, 0]], sample_weight=W),
                      LABELS),
    "one_vs_rest": (im.one_vs_rest, dict(y_true=Y3, y_score=PROBA3, sample_weight=W),
                    {"y_true": "labels", "sample_weight": "array"}),
    **{f.__name__: (f, dict(precision=0.5, recall=[0.2, 0.8], gamma=2.0),
                    {"precision": "numbers", "recall": "numbers", "gamma": "numbers"})
       for f in (im.weighted_arithmetic_mean, im.weighted_geometric_mean, im.weighted_harmonic_mean)},
    "power_mean": (im.power_mean, dict(precision=0.5, recall=[0.2, 0.8], gamma=2.0, phi=-2.0),
                   {"precision": "numbers", "recall": "numbers", "gamma": "numbers", "phi": "numbers"}),
    "fbeta": (im.fbeta, dict(precision=0.5, recall=[0.2, 0.8], beta=2.0),
              {"precision": "numbers", "recall": "numbers", "beta": "numbers"}),
    "g_beta_rho": (im.g_beta_rho, dict(precision=0.5, recall=[0.2, 0.8], beta=2.0, rho=-3.0),
                   {"precision": "numbers", "recall": "numbers", "beta": "numbers", "rho": "numbers"}),
    "level_curve": (im.level_curve, dict(metric="f1", value=0.5, n_points=5), {"value": "number", "n_points": "count"}),
    "break_even_line": (im.break_even_line, dict(beta=2.0, n_points=3), {"beta": "number", "n_points": "count"}),
    "iso_fbeta_baseline": (im.iso_fbeta_baseline, dict(prevalence=0.3, beta=1.0, n_points=5),
                           {"prevalence": "number", "beta": "number", "n_points": "count"}),
    "repeated_test_precision": (im.repeated_test_precision, dict(tpr=0.9, fpr=0.1, prevalence=0.1, n_tests=2),
                                {"tpr": "number", "fpr": "number", "prevalence": "number", "n_tests": "count"}),
    "always_positive_fbeta": (im.always_positive_fbeta, dict(prevalence=0.3, beta=1.0),
                              {"prevalence": "number", "beta": "number"}),
    "bayes_threshold": (im.bayes_threshold, dict(cost_fp=1.0, cost_fn=4.0), {"cost_fp": "number", "cost_fn": "number"}),
    "RocHull.best_mixture": (lambda **k: _hull().best_mixture(**k), dict(metric="f1", resolution=4),
                             {"resolution": "count"}),
    "OneVsRest.macro_precision_recall_curve": (
        lambda **k: im.one_vs_rest(Y3, PROBA3).macro_precision_recall_curve(**k), dict(n_points=5),
        {"n_points": "count"}),
    "MetricReport.to_text": (lambda **k: im.metric_report(Y3, Y3[::-1]).to_text(**k), dict(digits=3),
                             {"digits": "count"}),
}

RAGGED = [[0, 1], [1], 0, 1, 1, 0, 1, 0]
HOSTILE = {
    "labels": {"ragged list": RAGGED, "string": "abc", "empty list": []},
    "array": {"ragged list": RAGGED, "string": "abc", "empty list": []},
    "numbers": {"ragged list": RAGGED, "string": "abc"},  # an empty array broadcasts: valid for the means
    "number": {"ragged list": RAGGED, "string": "abc", "empty list": []},
    "count": {"ragged list": RAGGED, "string": "abc", "empty list": [], "fraction": 2.5},
    "metrics": {"ragged list": RAGGED, "string": 5, "empty list": []},
}
CASES = [(name, param, kind, label)
         for name, (_, _, params) in REGISTRY.items()
         for param, kind in params.items()
         for label in HOSTILE[kind]]


@pytest.mark.parametrize("name", REGISTRY)
def test_the_valid_call_works(name):
    func, kwargs, _ = REGISTRY[name]
    func(**kwargs)


@pytest.mark.parametrize("name, param, kind, label", CASES, ids=[f"{n}-{p}-{h}" for n, p, _, h in CASES])
def test_hostile_input_names_function_and_parameter(name, param, kind, label):
    func, kwargs, _ = REGISTRY[name]
    bad = {**kwargs, param: HOSTILE[kind][label]}
    with pytest.raises((im.IsometricsError, TypeError)) as info:
        func(**bad)
    message = str(info.value)
    assert re.search(rf"\b{param}\b", message), message
    assert "inhomogeneous" not in message and "could not convert" not in message, message
    assert message.startswith(f"{name}:"), message


# Binary functions that validate through the engine's one construction path
# (operating_points._from_scores): each passes its own name, never the engine's.
VIA_ENGINE = {"roc_curve", "precision_recall_curve", "prg_curve", "auroc", "average_precision", "auprg",
              "auc_pr_interpolated", "achievable_pr_curve", "auc_pr_achievable", "roc_convex_hull", "prg_convex_hull",
              "isotonic_calibrator", "f_calibrator", "best_threshold", "metric_curve", "precision_at_recall",
              "recall_at_precision", "specificity_at_sensitivity"}


def test_engine_wrappers_name_themselves():
    wrong = []
    for name in sorted(VIA_ENGINE):
        func, kwargs, _ = REGISTRY[name]
        with pytest.raises(im.IsometricsError, match=r"`y_score` must be 1-D") as info:
            func(**{**kwargs, "y_score": "abc"})
        if not str(info.value).startswith(f"{name}:"):
            wrong.append(f"{name}: {info.value}")
    assert wrong == []
    with pytest.raises(im.IsometricsError, match=r"^OperatingPoints.from_scores: `y_score` must be 1-D"):
        im.OperatingPoints.from_scores(Y, "abc")  # the method names itself


BIG = np.array([1.0, 1e308, 1.0, 1e308, 1e308, 1.0, 1e308, 1.0])  # each class's total overflows float64
OVERFLOW = {
    "auroc": lambda: im.auroc(Y, S, sample_weight=BIG),
    "OperatingPoints.from_scores": lambda: im.OperatingPoints.from_scores(Y, S, sample_weight=BIG),
    "one_vs_rest": lambda: im.one_vs_rest(Y3, PROBA3, sample_weight=BIG),
    "evaluate_scores": lambda: im.evaluate_scores(Y, {"a": S}, sample_weight=BIG),
    "average_precision_ci": lambda: im.average_precision_ci(Y, S, sample_weight=BIG, weight_kind="sampling"),
    "bootstrap": lambda: im.bootstrap(Y, S, sample_weight=BIG, n_resamples=5, rng=0, weight_kind="sampling"),
    "bootstrap_compare": lambda: im.bootstrap_compare(Y, {"a": S, "b": S[::-1]}, sample_weight=BIG, n_resamples=5,
                                                      rng=0, weight_kind="sampling"),
}


@pytest.mark.parametrize("name", OVERFLOW)
def test_weight_overflow_names_the_public_function(name):
    """The check after the counts are summed (not a boundary check) names the public caller too."""
    with pytest.raises(im.IsometricsError, match=rf"^{re.escape(name)}: `sample_weight` sums to more than"):
        OVERFLOW[name]()


def test_one_class_is_decided_per_sample_not_from_rounded_sums():
    """1e20 + 1 == 1e20: "positive weight == total weight" used to report no negatives on valid data."""
    w = np.where(Y == 1, 1e20, 1.0)
    assert im.bootstrap(Y, S, sample_weight=w, n_resamples=5, rng=0, weight_kind="sampling").estimate == 0.9375
    assert im.always_positive(Y, sample_weight=w).recall == 1.0
    for call in (lambda: im.always_positive(Y, sample_weight=np.where(Y == 1, 1e20, 0.0)),
                 lambda: im.evaluate_scores(Y, {"a": S}, sample_weight=np.where(Y == 1, 1e20, 0.0)),
                 lambda: im.bootstrap(Y, S, sample_weight=np.where(Y == 1, 0.0, 1.0), n_resamples=5, rng=0)):
        with pytest.raises(im.IsometricsError, match=r"y_true has one class \(no (negative|positive) samples with "
                                                     r"positive weight"):
            call()


def test_constant_scores_warning_points_at_the_callers_line():
    constant = np.full(len(Y), 0.5)
    calls = {"auroc": lambda: im.auroc(Y, constant),
             "best_threshold": lambda: im.best_threshold(Y, constant, metric="f1"),
             "roc_curve": lambda: im.roc_curve(Y, constant),
             "OperatingPoints.from_scores": lambda: im.OperatingPoints.from_scores(Y, constant)}
    for name, call in calls.items():
        with pytest.warns(im.DegenerateDataWarning, match="single distinct value") as record:
            call()
        [warning] = [w for w in record if issubclass(w.category, im.DegenerateDataWarning)]
        assert (warning.filename, warning.lineno) == (__file__, call.__code__.co_firstlineno), name


def _report(**kwargs):
    pytest.importorskip("jinja2")
    pytest.importorskip("plotly")
    from isometrics.report import build_report

    return build_report(im.evaluate_scores(Y, {"a": S}, metrics=["f1"]), **kwargs)


def _plotting():
    pytest.importorskip("matplotlib")
    import isometrics.plotting

    return isometrics.plotting


# Every public function (or method) that takes a metric spec: (name in messages, parameter, call with the value).
# Sequences of specs name the position (`metrics[0]`).
METRIC_ARGUMENTS = [
    ("best_threshold", "metric", lambda v: im.best_threshold(Y, S, metric=v)),
    ("metric_curve", "metric", lambda v: im.metric_curve(Y, S, metric=v)),
    ("OperatingPoints.best_threshold", "metric", lambda v: im.OperatingPoints.from_scores(Y, S).best_threshold(v)),
    ("OperatingPoints.metric_curve", "metric", lambda v: im.OperatingPoints.from_scores(Y, S).metric_curve(v)),
    ("level_curve", "metric", lambda v: im.level_curve(v, 0.5)),
    ("level_curve_slope", "metric", lambda v: im.level_curve_slope(v, 0.5, 0.5)),
    ("RocHull.best_mixture", "metric", lambda v: _hull().best_mixture(v)),
    ("OneVsRest.best_thresholds", "metric", lambda v: im.one_vs_rest(Y3, PROBA3).best_thresholds(v)),
    ("bootstrap", "metric", lambda v: im.bootstrap(Y, S, statistic="metric", metric=v, threshold=0.5,
                                                    n_resamples=5, rng=0)),
    ("bootstrap_compare", "metric", lambda v: im.bootstrap_compare(Y, {"a": S, "b": S[::-1]}, statistic="metric",
                                                                    metric=v, threshold=0.5, n_resamples=5, rng=0)),
    ("evaluate_scores", "metrics[0]", lambda v: im.evaluate_scores(Y, {"a": S}, metrics=[v])),
    ("compare_scores", "metrics[1]", lambda v: im.compare_scores(Y, S, S[::-1], metrics=["f1", v], n_resamples=5,
                                                                 rng=0)),
    ("metric_report", "metrics[0]", lambda v: im.metric_report(Y, P, metrics=[v])),
    ("build_report", "metrics[0]", lambda v: _report(metrics=[v])),
    ("RocDisplay.from_predictions", "metric", lambda v: _plotting().RocDisplay.from_predictions(Y, S, metric=v)),
    ("MetricCurveDisplay.from_predictions", "metric",
     lambda v: _plotting().MetricCurveDisplay.from_predictions(Y, S, metric=v)),
    ("LevelCurveDisplay.from_metric", "metric", lambda v: _plotting().LevelCurveDisplay.from_metric(v)),
]


@pytest.mark.parametrize("name, param, call", METRIC_ARGUMENTS, ids=[f"{n}-{p}" for n, p, _ in METRIC_ARGUMENTS])
@pytest.mark.parametrize("value, detail", [("fbta", r"unknown metric 'fbta'\. Did you mean 'fbeta'\?"),
                                           ("g(beta=2)", r"metric 'g' needs rho"),
                                           (5, r"metric must be a string")])
def test_metric_arguments_name_function_and_parameter(name, param, call, value, detail):
    with pytest.raises(im.InvalidParameterError) as info:
        call(value)
    message = str(info.value)
    assert message.startswith(f"{name}: `{param}` = {value!r} is not a metric: "), message
    assert re.search(detail, message), message


def test_metric_sequences_refuse_a_lone_string():
    """A string used to be read character by character: metrics="f1" parsed 'f', then '1'."""
    for name, call in {"evaluate_scores": lambda: im.evaluate_scores(Y, {"a": S}, metrics="f1"),
                       "compare_scores": lambda: im.compare_scores(Y, S, S[::-1], metrics="f1", n_resamples=5),
                       "metric_report": lambda: im.metric_report(Y, P, metrics="f1")}.items():
        with pytest.raises(im.InvalidParameterError,
                           match=rf"^{name}: `metrics` must be a sequence of metric specs or Metric objects; got 'f1'"):
            call()
    with pytest.raises(im.InvalidParameterError, match=r"^build_report: `metrics` = 'fbta' is not a metric"):
        _report(metrics="fbta")  # the report takes one spec alone too


# Array (and seed) arguments of the functions outside REGISTRY: each once went straight to np.asarray,
# np.random.default_rng or a Python method, so NumPy's or Python's messages reached the user. They
# now go through the shared checkers of _validation (as_array, as_1d, check_real_array,
# check_unit_interval, check_scores, check_rng). name -> (callable, valid keyword arguments, parameters).
def _op():
    return im.OperatingPoints.from_scores(Y, S)


OUTSIDE = {
    "unachievable_precision": (im.unachievable_precision, dict(recall=[0.2, 0.5], prevalence=0.3), ["recall"]),
    "precision_at_prevalence": (im.precision_at_prevalence, dict(tpr=[0.9], fpr=[0.1], prevalence=0.3),
                                ["tpr", "fpr"]),
    "level_curve_slope": (im.level_curve_slope, dict(metric="f1", precision=[0.5], recall=[0.5]),
                          ["precision", "recall"]),
    "cost_sensitive_predict": (im.cost_sensitive_predict,
                               dict(y_proba=[[0.9, 0.1]], cost_matrix=[[0, 1], [5, 0]], classes=["a", "b"]),
                               ["y_proba", "cost_matrix", "classes"]),
    "expected_cost": (im.expected_cost, dict(y_true=[0, 1], y_pred=[0, 1], cost_matrix=[[0, 1], [5, 0]], labels=[0, 1]),
                      ["cost_matrix", "labels"]),
    "Metric.from_precision_recall": (lambda **k: im.parse_metric("f1").from_precision_recall(**k),
                                     dict(precision=[0.5], recall=[0.5]), ["precision", "recall"]),
    "Metric.from_counts": (lambda **k: im.parse_metric("youden").from_counts(**k), dict(tp=[1], fp=[1], fn=[1], tn=[1]),
                           ["tp", "fp", "fn", "tn"]),
    "RandomizedClassifier.predict": (lambda **k: _hull().randomized(fpr=0.3).predict(**k), dict(y_score=S, rng=0),
                                     ["y_score", "rng"]),
    "RocHull.tpr_at": (lambda **k: _hull().tpr_at(**k), dict(fpr=[0.3]), ["fpr"]),
    "OperatingPoints.merge": (lambda **k: _op().merge(*k["others"]), dict(others=[_op()]), ["others"]),
    "OperatingPoints.precision_at_recall": (lambda **k: _op().precision_at_recall(**k), dict(min_recall=0.5),
                                            ["min_recall"]),
    "OperatingPoints.recall_at_precision": (lambda **k: _op().recall_at_precision(**k), dict(min_precision=0.5),
                                            ["min_precision"]),
    "OperatingPoints.specificity_at_sensitivity": (lambda **k: _op().specificity_at_sensitivity(**k),
                                                   dict(min_sensitivity=0.5), ["min_sensitivity"]),
    "delong": (im.delong, dict(y_true=Y, y_score=S), ["y_true", "y_score"]),
    "delong_test": (im.delong_test, dict(y_true=Y, y_score_a=S, y_score_b=S[::-1]),
                    ["y_true", "y_score_a", "y_score_b"]),
    "bootstrap": (im.bootstrap, dict(y_true=Y, y_score=S, n_resamples=5, rng=0), ["rng"]),
    "bootstrap_areas": (im.bootstrap_areas, dict(y_true=Y, y_score=S, areas=("auroc",), n_resamples=5, rng=0),
                        ["areas", "rng"]),
    "bootstrap_curve_band": (im.bootstrap_curve_band, dict(y_true=Y, y_score=S, grid=[0.1, 0.5], n_resamples=5, rng=0),
                             ["grid", "rng"]),
    "bootstrap_compare": (im.bootstrap_compare, dict(y_true=Y, y_score=np.column_stack([S, S[::-1]]), n_resamples=5,
                                                     rng=0), ["y_score", "rng"]),
    "compare_scores": (im.compare_scores, dict(y_true=Y, score_a=S, score_b=S[::-1], names=("a", "b"), n_resamples=5,
                                               rng=0), ["names", "rng"]),
    "evaluate_scores": (im.evaluate_scores, dict(y_true=Y, scores={"a": S}, n_resamples=5, rng=0), ["scores", "rng"]),
    "LevelCurveDisplay.from_metric": (lambda **k: _plotting().LevelCurveDisplay.from_metric("f1", **k),
                                      dict(levels=[0.5]), ["levels"]),
}


def test_functions_outside_this_change_name_their_parameters():
    raw = []
    for name, (func, kwargs, params) in OUTSIDE.items():
        func(**kwargs)
        for param in params:
            for value in ("abc", 2.5) if param == "rng" else (RAGGED, "abc"):  # NumPy seeds from any nesting of ints
                try:
                    func(**{**kwargs, param: value})
                except (im.IsometricsError, TypeError) as exc:
                    if str(exc).startswith(f"{name}:") and re.search(rf"\b{param}\b", str(exc)):
                        continue
                    raw.append(f"{name}({param}={value!r}): {exc}")
                except Exception as exc:  # NumPy's ValueError, Python's AttributeError...
                    raw.append(f"{name}({param}={value!r}): {type(exc).__name__}: {exc}")
                else:
                    raw.append(f"{name}({param}={value!r}): no error")
    assert raw == [], "\n".join(raw)


WITH_POS_LABEL = [name for name, (func, _, _) in REGISTRY.items()
                  if inspect.isfunction(func) and "pos_label" in inspect.signature(func).parameters]


@pytest.mark.parametrize("name", WITH_POS_LABEL)
@pytest.mark.parametrize("value", [[1], (1,), np.array([1, 0])], ids=["list", "tuple", "array"])
def test_pos_label_is_one_label(name, value):
    """A sequence as pos_label used to reach NumPy's comparison (inhomogeneous-shape error) or match nothing."""
    func, kwargs, _ = REGISTRY[name]
    with pytest.raises(im.InvalidParameterError, match=rf"^{name}: `pos_label` must be one label"):
        func(**{**kwargs, "pos_label": value, **({"average": "binary"} if "average" in
                                                   inspect.signature(func).parameters else {})})


def test_shared_checkers_messages_by_example():
    """What the checkers say, for the cases the issue lists (independent of the registry's generic checks)."""
    with pytest.raises(im.IsometricsError, match=r"^expected_cost: `cost_matrix` is a ragged nested sequence .*"
                                                 r"pass an array of shape \(n_classes, n_classes\)"):
        im.expected_cost([0, 1], [0, 1], cost_matrix=[[0, 1], [5]])
    with pytest.raises(im.InvalidParameterError, match=r"^cost_sensitive_predict: `y_proba` must be a real number or "
                                                       r"an array of real numbers; got 'a' \(type str\)"):
        im.cost_sensitive_predict([["a", "b"]], cost_matrix=[[0, 1], [5, 0]])
    with pytest.raises(im.InvalidParameterError, match=r"^precision_at_prevalence: `fpr` must lie in \[0, 1\]; found 1 "
                                                       r"value\(s\) outside it \(first: nan\)"):
        im.precision_at_prevalence(0.9, [0.1, math.nan], prevalence=0.3)
    with pytest.raises(im.InvalidParameterError, match=r"^level_curve_slope: the array arguments do not broadcast "
                                                       r"together \(`precision` has shape \(2,\), `recall` has shape"):
        im.level_curve_slope("f1", [0.5, 0.6], [0.1, 0.2, 0.3])
    with pytest.raises(im.InvalidParameterError, match=r"^level_curve_slope: `recall` must lie in \(0, 1\]"):
        im.level_curve_slope("f1", 0.5, 0.0)
    with pytest.raises(im.InvalidParameterError, match=r"^RocHull.tpr_at: `fpr` must lie in \[0, 1\]"):
        _hull().tpr_at(1.5)  # np.interp used to return the end value
    with pytest.raises(im.IsometricsError, match=r"^RandomizedClassifier.predict: y_score contains 1 NaN"):
        _hull().randomized(fpr=0.3).predict([0.1, math.nan])  # NaN used to be predicted negative
    with pytest.raises(im.InvalidParameterError, match=r"^bootstrap: `rng` must be None, an integer seed or a "
                                                       r"numpy.random.Generator; got 'abc'"):
        im.bootstrap(Y, S, n_resamples=5, rng="abc")
    with pytest.raises(im.InvalidParameterError, match=r"^evaluate_scores: `scores` must be a mapping of name to score "
                                                       r"column"):
        im.evaluate_scores(Y, S)
    with pytest.raises(im.IsometricsError, match=r"^delong_test: inputs have different numbers of samples \(y_true "
                                                 r"has 8, y_score_a has 8, y_score_b has 7\)"):
        im.delong_test(Y, S, S[1:])
    with pytest.raises(im.InvalidParameterError, match=r"^OperatingPoints.merge: `others\[1\]` is a str"):
        _op().merge(_op(), "abc")


# Every integer parameter of the package: (name in messages, parameter, call with the value).
# (The uncertainty and evaluation functions check theirs with the same check_integer.)
INTEGERS = [
    ("level_curve", "n_points", lambda v: im.level_curve("f1", 0.5, n_points=v)),
    ("break_even_line", "n_points", lambda v: im.break_even_line(2.0, n_points=v)),
    ("iso_fbeta_baseline", "n_points", lambda v: im.iso_fbeta_baseline(0.3, n_points=v)),
    ("repeated_test_precision", "n_tests", lambda v: im.repeated_test_precision(0.9, 0.1, prevalence=0.1, n_tests=v)),
    ("reliability_curve", "n_bins", lambda v: im.reliability_curve(Y, S, n_bins=v)),
    ("expected_calibration_error", "n_bins", lambda v: im.expected_calibration_error(Y, S, n_bins=v)),
    ("RocHull.best_mixture", "resolution", lambda v: _hull().best_mixture("f1", resolution=v)),
    ("OneVsRest.macro_precision_recall_curve", "n_points",
     lambda v: im.one_vs_rest(Y3, PROBA3).macro_precision_recall_curve(n_points=v)),
    ("MetricReport.to_text", "digits", lambda v: im.metric_report(Y3, Y3[::-1]).to_text(v)),
]
NOT_INTEGERS = [2.7, 1.5, "abc", "3", None, math.nan, math.inf, True, np.bool_(False), [3], 3 + 0j]


@pytest.mark.parametrize("name, param, call", INTEGERS, ids=[f"{n}-{p}" for n, p, _ in INTEGERS])
@pytest.mark.parametrize("value", NOT_INTEGERS, ids=repr)
def test_integer_parameters_reject_non_integers(name, param, call, value):
    with pytest.raises(im.InvalidParameterError, match=rf"^{name}: `{param}` must be an integer"):
        call(value)


@pytest.mark.parametrize("name, param, call", INTEGERS, ids=[f"{n}-{p}" for n, p, _ in INTEGERS])
def test_integer_parameters_accept_integers_of_any_type(name, param, call):
    reference = call(4)
    for value in (np.int64(4), np.uint8(4), 4.0, np.float32(4.0)):
        result = call(value)
        assert type(result) is type(reference)
        assert repr(result) == repr(reference)  # the same value (array reprs compare the elements)


def test_counts_are_never_truncated():
    """level_curve(n_points=2.7) and reliability_curve(n_bins=1.5) used to run with int(): 2 and 1."""
    with pytest.raises(im.InvalidParameterError, match=r"level_curve: `n_points` must be an integer; got 2.7"):
        im.level_curve("f1", 0.5, n_points=2.7)
    with pytest.raises(im.InvalidParameterError, match=r"reliability_curve: `n_bins` must be an integer; got 1.5"):
        im.reliability_curve(Y, S, n_bins=1.5)
    with pytest.raises(im.InvalidParameterError, match=r"reliability_curve: `n_bins` must be an integer; got nan"):
        im.reliability_curve(Y, S, n_bins=math.nan)
    with pytest.raises(im.InvalidParameterError, match=r"level_curve: `n_points` must be an integer >= 2; got 1"):
        im.level_curve("f1", 0.5, n_points=1)


def test_issue_examples_name_function_and_parameter():
    with pytest.raises(im.InvalidParameterError, match=r"metric_report: `metrics` is empty; pass at least one"):
        im.metric_report([0, 1, 1], [0, 1, 0], metrics=[])
    with pytest.raises(im.InvalidParameterError,
                       match=r"g_beta_rho: `precision` must be a real number .*; got 'a' \(type str\); convert"):
        im.g_beta_rho("a", 0.5, beta=1.0, rho=-2.0)
    with pytest.raises(im.IsometricsError, match=r"^auroc: `y_true` is a ragged nested"):
        im.auroc([[0, 1], [1], 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(im.IsometricsError, match=r"accuracy_score: `y_pred` is a ragged nested sequence"):
        im.accuracy_score([0, 1, 1], [[0, 1], [1], 0])
    with pytest.raises(im.InvalidParameterError, match=r"power_mean: the array arguments do not broadcast together "
                                                       r"\(`precision` has shape \(2,\), `recall` has shape \(3,\)"):
        im.power_mean([0.5, 0.6], [0.1, 0.2, 0.3], phi=1.0)
    with pytest.raises(im.InvalidParameterError, match=r"fbeta: `beta` is None; pass a real number"):
        im.fbeta(0.5, 0.5, beta=None)
    with pytest.raises(im.InvalidParameterError, match=r"weighted_harmonic_mean: `gamma` must be a real number"):
        im.weighted_harmonic_mean(0.5, 0.5, gamma=1 + 2j)
