"""Registry-driven message checks: every public error names the function and the parameter.

The functions (and methods) come from the one registry (tests/registry.py), tag ``messages``:
each entry is a public function (or method) with a valid call; the tests replace one
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
from registry import HOSTILE, RAGGED, P, S, Y, _hull, _op, _report, having, per_parameter, variants

import isometrics as im

# name (as it must appear in messages) -> (callable, valid keyword arguments, {parameter: kind})
MESSAGES = variants("messages")
CASES = [
    (name, param, kind, label)
    for name, (_, _, params) in MESSAGES.items()
    for param, kind in params.items()
    for label in HOSTILE[kind]
]


@pytest.mark.parametrize("name", MESSAGES)
def test_the_valid_call_works(name):
    func, kwargs, _ = MESSAGES[name]
    func(**kwargs)


@pytest.mark.parametrize("name, param, kind, label", CASES, ids=[f"{n}-{p}-{h}" for n, p, _, h in CASES])
def test_hostile_input_names_function_and_parameter(name, param, kind, label):
    func, kwargs, _ = MESSAGES[name]
    bad = {**kwargs, param: HOSTILE[kind][label]}
    with pytest.raises((im.IsometricsError, TypeError)) as info:
        func(**bad)
    message = str(info.value)
    assert re.search(rf"\b{param}\b", message), message
    assert "inhomogeneous" not in message and "could not convert" not in message, message
    assert message.startswith(f"{name}:"), message


# Binary functions that validate through the engine's one construction path
# (_core.count_table.table_from_scores): each passes its own name, never the engine's (tag ``via_engine``).
VIA_ENGINE = having("via_engine")


def test_engine_wrappers_name_themselves():
    wrong = []
    for name in sorted(VIA_ENGINE):
        func, kwargs, _ = MESSAGES[name]
        with pytest.raises(im.IsometricsError, match=r"`y_score` must be 1-D") as info:
            func(**{**kwargs, "y_score": "abc"})
        if not str(info.value).startswith(f"{name}:"):
            wrong.append(f"{name}: {info.value}")
    assert wrong == []
    with pytest.raises(im.IsometricsError, match=r"^OperatingPoints.from_scores: `y_score` must be 1-D"):
        im.OperatingPoints.from_scores(Y, "abc")  # the method names itself


# Each class's total weight overflows float64 (tag ``overflow``).
OVERFLOW = variants("overflow")


@pytest.mark.parametrize("name", OVERFLOW)
def test_weight_overflow_names_the_public_function(name):
    """The check after the counts are summed (not a boundary check) names the public caller too."""
    with pytest.raises(im.IsometricsError, match=rf"^{re.escape(name)}: `sample_weight` sums to more than"):
        OVERFLOW[name]()


def test_one_class_is_decided_per_sample_not_from_rounded_sums():
    """1e20 + 1 == 1e20: "positive weight == total weight" used to report no negatives on valid data."""
    w = np.where(Y == 1, 1e20, 1.0)
    assert (
        im.uncertainty.bootstrap(Y, S, sample_weight=w, n_resamples=5, rng=0, weight_kind="sampling").estimate == 0.9375
    )
    assert im.spaces.always_positive(Y, sample_weight=w).recall == 1.0
    for call in (
        lambda: im.spaces.always_positive(Y, sample_weight=np.where(Y == 1, 1e20, 0.0)),
        lambda: im.evaluate_scores(Y, {"a": S}, sample_weight=np.where(Y == 1, 1e20, 0.0)),
        lambda: im.uncertainty.bootstrap(Y, S, sample_weight=np.where(Y == 1, 0.0, 1.0), n_resamples=5, rng=0),
    ):
        with pytest.raises(
            im.IsometricsError,
            match=r"y_true has one class \(no (negative|positive) samples with "
            r"positive weight",
        ):
            call()


def test_constant_scores_warning_points_at_the_callers_line():
    constant = np.full(len(Y), 0.5)
    calls = {
        "auroc": lambda: im.auroc(Y, constant),
        "best_threshold": lambda: im.best_threshold(Y, constant, metric="f1"),
        "roc_curve": lambda: im.roc_curve(Y, constant),
        "OperatingPoints.from_scores": lambda: im.OperatingPoints.from_scores(Y, constant),
    }
    for name, call in calls.items():
        with pytest.warns(im.DegenerateDataWarning, match="single distinct value") as record:
            call()
        [warning] = [w for w in record if issubclass(w.category, im.DegenerateDataWarning)]
        assert (warning.filename, warning.lineno) == (__file__, call.__code__.co_firstlineno), name


# Every public function (or method) that takes a metric spec (tag ``metric_arguments``): (name in messages,
# parameter, call with the value). Sequences of specs name the position (`metrics[0]`).
METRIC_ARGUMENTS = per_parameter("metric_arguments")


@pytest.mark.parametrize("name, param, call", METRIC_ARGUMENTS, ids=[f"{n}-{p}" for n, p, _ in METRIC_ARGUMENTS])
@pytest.mark.parametrize(
    "value, detail",
    [
        ("fbta", r"unknown metric 'fbta'\. Did you mean 'fbeta'\?"),
        ("g(beta=2)", r"metric 'g' needs rho"),
        (5, r"metric must be a string"),
    ],
)
def test_metric_arguments_name_function_and_parameter(name, param, call, value, detail):
    with pytest.raises(im.InvalidParameterError) as info:
        call(value)
    message = str(info.value)
    assert message.startswith(f"{name}: `{param}` = {value!r} is not a metric: "), message
    assert re.search(detail, message), message


def test_metric_sequences_refuse_a_lone_string():
    """A string used to be read character by character: metrics="f1" parsed 'f', then '1'."""
    for name, call in {
        "evaluate_scores": lambda: im.evaluate_scores(Y, {"a": S}, metrics="f1"),
        "compare_scores": lambda: im.uncertainty.compare_scores(Y, S, S[::-1], metrics="f1", n_resamples=5),
        "metric_report": lambda: im.metric_report(Y, P, metrics="f1"),
    }.items():
        with pytest.raises(
            im.InvalidParameterError,
            match=rf"^{name}: `metrics` must be a sequence of metric specs or Metric objects; got 'f1'",
        ):
            call()
    with pytest.raises(im.InvalidParameterError, match=r"^build_report: `metrics` = 'fbta' is not a metric"):
        _report(metrics="fbta")  # the report takes one spec alone too


# Array (and seed) arguments of the functions outside the ``messages`` tag (tag ``outside``): each once
# went straight to np.asarray, np.random.default_rng or a Python method, so NumPy's or Python's messages
# reached the user. They now go through the shared checkers of _validation (as_array, as_1d,
# check_real_array, check_unit_interval, check_scores, check_rng). name -> (callable, valid keyword
# arguments, parameters).
OUTSIDE = variants("outside")


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


WITH_POS_LABEL = [
    name
    for name, (func, _, _) in MESSAGES.items()
    if inspect.isfunction(func) and "pos_label" in inspect.signature(func).parameters
]


@pytest.mark.parametrize("name", WITH_POS_LABEL)
@pytest.mark.parametrize("value", [[1], (1,), np.array([1, 0])], ids=["list", "tuple", "array"])
def test_pos_label_is_one_label(name, value):
    """A sequence as pos_label used to reach NumPy's comparison (inhomogeneous-shape error) or match nothing."""
    func, kwargs, _ = MESSAGES[name]
    with pytest.raises(im.InvalidParameterError, match=rf"^{name}: `pos_label` must be one label"):
        func(
            **{
                **kwargs,
                "pos_label": value,
                **({"average": "binary"} if "average" in inspect.signature(func).parameters else {}),
            }
        )


def test_shared_checkers_messages_by_example():
    """What the checkers say, for the cases the issue lists (independent of the registry's generic checks)."""
    with pytest.raises(
        im.IsometricsError,
        match=r"^expected_cost: `cost_matrix` is a ragged nested sequence .*"
        r"pass an array of shape \(n_classes, n_classes\)",
    ):
        im.spaces.expected_cost([0, 1], [0, 1], cost_matrix=[[0, 1], [5]])
    with pytest.raises(
        im.InvalidParameterError,
        match=r"^cost_sensitive_predict: `y_proba` must be a real number or "
        r"an array of real numbers; got 'a' \(type str\)",
    ):
        im.spaces.cost_sensitive_predict([["a", "b"]], cost_matrix=[[0, 1], [5, 0]])
    with pytest.raises(
        im.InvalidParameterError,
        match=r"^precision_at_prevalence: `fpr` must lie in \[0, 1\]; found 1 "
        r"value\(s\) outside it \(first: nan\)",
    ):
        im.spaces.precision_at_prevalence(0.9, [0.1, math.nan], prevalence=0.3)
    with pytest.raises(
        im.InvalidParameterError,
        match=r"^level_curve_slope: the array arguments do not broadcast "
        r"together \(`precision` has shape \(2,\), `recall` has shape",
    ):
        im.spaces.level_curve_slope("f1", [0.5, 0.6], [0.1, 0.2, 0.3])
    with pytest.raises(im.InvalidParameterError, match=r"^level_curve_slope: `recall` must lie in \(0, 1\]"):
        im.spaces.level_curve_slope("f1", 0.5, 0.0)
    with pytest.raises(im.InvalidParameterError, match=r"^RocHull.tpr_at: `fpr` must lie in \[0, 1\]"):
        _hull().tpr_at(1.5)  # np.interp used to return the end value
    with pytest.raises(im.IsometricsError, match=r"^RandomizedClassifier.predict: y_score contains 1 NaN"):
        _hull().randomized(fpr=0.3).predict([0.1, math.nan])  # NaN used to be predicted negative
    with pytest.raises(
        im.InvalidParameterError,
        match=r"^bootstrap: `rng` must be None, an integer seed or a "
        r"numpy.random.Generator; got 'abc'",
    ):
        im.uncertainty.bootstrap(Y, S, n_resamples=5, rng="abc")
    with pytest.raises(
        im.InvalidParameterError,
        match=r"^evaluate_scores: `scores` must be a mapping of name to score "
        r"column",
    ):
        im.evaluate_scores(Y, S)
    with pytest.raises(
        im.IsometricsError,
        match=r"^delong_test: inputs have different numbers of samples \(y_true "
        r"has 8, y_score_a has 8, y_score_b has 7\)",
    ):
        im.uncertainty.delong_test(Y, S, S[1:])
    with pytest.raises(im.InvalidParameterError, match=r"^OperatingPoints.merge: `others\[1\]` is a str"):
        _op().merge(_op(), "abc")


# Every integer parameter of the package (tag ``integers``): (name in messages, parameter, call with the
# value). (The uncertainty and evaluation functions check theirs with the same check_integer.)
INTEGERS = per_parameter("integers")
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
        im.spaces.reliability_curve(Y, S, n_bins=1.5)
    with pytest.raises(im.InvalidParameterError, match=r"reliability_curve: `n_bins` must be an integer; got nan"):
        im.spaces.reliability_curve(Y, S, n_bins=math.nan)
    with pytest.raises(im.InvalidParameterError, match=r"level_curve: `n_points` must be an integer >= 2; got 1"):
        im.level_curve("f1", 0.5, n_points=1)


def test_issue_examples_name_function_and_parameter():
    with pytest.raises(im.InvalidParameterError, match=r"metric_report: `metrics` is empty; pass at least one"):
        im.metric_report([0, 1, 1], [0, 1, 0], metrics=[])
    with pytest.raises(
        im.InvalidParameterError,
        match=r"g_beta_rho: `precision` must be a real number .*; got 'a' \(type str\); convert",
    ):
        im.g_beta_rho("a", 0.5, beta=1.0, rho=-2.0)
    with pytest.raises(im.IsometricsError, match=r"^auroc: `y_true` is a ragged nested"):
        im.auroc([[0, 1], [1], 0, 1], [0.1, 0.2, 0.3, 0.4])
    with pytest.raises(im.IsometricsError, match=r"accuracy_score: `y_pred` is a ragged nested sequence"):
        im.accuracy_score([0, 1, 1], [[0, 1], [1], 0])
    with pytest.raises(
        im.InvalidParameterError,
        match=r"power_mean: the array arguments do not broadcast together "
        r"\(`precision` has shape \(2,\), `recall` has shape \(3,\)",
    ):
        im.power_mean([0.5, 0.6], [0.1, 0.2, 0.3], phi=1.0)
    with pytest.raises(im.InvalidParameterError, match=r"fbeta: `beta` is None; pass a real number"):
        im.fbeta(0.5, 0.5, beta=None)
    with pytest.raises(im.InvalidParameterError, match=r"weighted_harmonic_mean: `gamma` must be a real number"):
        im.weighted_harmonic_mean(0.5, 0.5, gamma=1 + 2j)
