"""The public methods of ``metrics`` are declared, and names reach messages without ``caller`` strings
(issue 24, item 5). Expected messages are written out from the house template; expected warning
lines are those of this file."""

import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import isometrics as im
from isometrics._core.constraints import ARRAY, declared_params, validate_params
from isometrics.exceptions import InvalidParameterError, UndefinedMetricWarning
from isometrics.metrics._arguments import parse_metric_argument, parse_metric_arguments
from isometrics.metrics.class_report import MetricReport
from isometrics.metrics.metric import Metric
from isometrics.metrics.registry import parse_metric


@pytest.mark.parametrize(
    ("method", "params"),
    [
        (MetricReport.to_text, ["digits"]),
        (Metric.from_counts, ["tp", "fp", "fn", "tn"]),
        (Metric.from_precision_recall, ["precision", "recall"]),
    ],
)
def test_the_public_methods_are_declared(method, params):
    assert list(declared_params(method)) == params


def test_to_text_names_itself():
    report = im.metric_report([0, 1, 1], [0, 1, 0])
    with pytest.raises(InvalidParameterError) as info:
        report.to_text(18)
    assert str(info.value) == "MetricReport.to_text: `digits` must be an integer >= 0 and <= 17; got 18."


def test_metric_methods_name_themselves_inside_another_declared_function():
    """The explicit name is kept there: the message is about the method's own parameters."""

    @validate_params({"tp": ARRAY})
    def outer(tp):
        return parse_metric("mcc").from_counts(tp, 1, 1)

    with pytest.raises(InvalidParameterError) as info:
        outer(1)
    assert str(info.value) == "Metric.from_counts: mcc needs the true negatives: pass `tn`."


def test_parse_metric_arguments_names_the_declared_function_or_the_given_one():
    @validate_params({"metrics": ARRAY})
    def evaluate_things(metrics):
        return parse_metric_arguments(metrics)

    with pytest.raises(InvalidParameterError, match=r"^evaluate_things: `metrics\[1\]` = 'nope' is not a metric"):
        evaluate_things(["f1", "nope"])
    # an explicit name (layers that still pass one) names the elements too
    with pytest.raises(InvalidParameterError, match=r"^given: `metrics\[0\]` = 'nope' is not a metric"):
        parse_metric_arguments(["nope"], caller="given")
    with pytest.raises(InvalidParameterError, match=r"^isometrics: `metric` = 'nope' is not a metric"):
        parse_metric_argument("nope")


@pytest.mark.parametrize("frame", [False, True])
def test_metric_report_warns_at_the_users_line(frame):
    """The undefined-metric warning pointed into class_report.py (stacklevel one short)."""
    y_true, y_pred = [0, 0, 1], [0, 0, 0]
    if frame:
        y_true, y_pred = pd.Series(y_true), pd.DataFrame({"model": y_pred})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = sys._getframe().f_lineno + 1
        report = im.metric_report(y_true, y_pred, metrics=["precision"])
    [warning] = [w for w in caught if issubclass(w.category, UndefinedMetricWarning)]
    assert (warning.filename, warning.lineno) == (__file__, line)
    values = (report["model"] if frame else report).values
    assert np.array_equal(values, [[2 / 3], [0.0]])  # class 0: 2 of 3 predicted right; class 1: never predicted
