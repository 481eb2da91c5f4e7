"""The spaces name the function called from its declaration, not from ``caller`` strings (issue 24, item 5).

The methods of the spaces' result classes that check their input are declared with
``validate_params(name="Class.method")``: the declaration is introspectable, the message names
the method when the user calls it, and the function the user called when a declared function
calls it (outermost wins). The internal helpers take no ``caller`` parameter any more.
"""

import inspect

import numpy as np
import pytest

import isometrics as im
from isometrics._core.constraints import Interval, Real, declared_params, validate_params
from isometrics.exceptions import IsometricsError
from isometrics.spaces import calibration, constraints, curves, gains, thresholds
from isometrics.spaces.cutoffs import Cutoff
from isometrics.spaces.hull import RandomizedClassifier, RocHull
from isometrics.spaces.multiclass import OneVsRest
from isometrics.spaces.sweep import Sweep, sweep_table

Y = np.array([0, 0, 1, 1, 0, 1])
S = np.array([0.1, 0.4, 0.35, 0.8, 0.3, 0.9])

#: Every method that validates its input, with a call refusing a value and the message's start.
METHODS = {
    "OperatingPoints.compute": (im.OperatingPoints.compute, lambda op: op.compute("roc")),
    "OperatingPoints.metric_curve": (im.OperatingPoints.metric_curve, lambda op: op.metric_curve("nope")),
    "OperatingPoints.best_threshold": (im.OperatingPoints.best_threshold, lambda op: op.best_threshold("nope")),
    "OperatingPoints.precision_at_recall": (
        im.OperatingPoints.precision_at_recall,
        lambda op: op.precision_at_recall(2),
    ),
    "OperatingPoints.recall_at_precision": (
        im.OperatingPoints.recall_at_precision,
        lambda op: op.recall_at_precision(2),
    ),
    "OperatingPoints.specificity_at_sensitivity": (
        im.OperatingPoints.specificity_at_sensitivity,
        lambda op: op.specificity_at_sensitivity(-1),
    ),
    "OperatingPoints.at_threshold": (im.OperatingPoints.at_threshold, lambda op: op.at_threshold("x")),
    "OperatingPoints.at_top_k": (im.OperatingPoints.at_top_k, lambda op: op.at_top_k(0)),
    "OperatingPoints.at_rate": (im.OperatingPoints.at_rate, lambda op: op.at_rate(1.5)),
    "OperatingPoints.decision_curve": (im.OperatingPoints.decision_curve, lambda op: op.decision_curve([1.0])),
    "Cutoff.value": (Cutoff.value, lambda op: op.at_threshold(0.5).value("nope")),
    "RocHull.min_fpr_at_tpr": (RocHull.min_fpr_at_tpr, lambda op: op.roc_convex_hull().min_fpr_at_tpr(2)),
    "RocHull.tpr_at": (RocHull.tpr_at, lambda op: op.roc_convex_hull().tpr_at(2)),
    "RocHull.best_mixture": (RocHull.best_mixture, lambda op: op.roc_convex_hull().best_mixture("f1", resolution=0)),
    "RandomizedClassifier.predict": (
        RandomizedClassifier.predict,
        lambda op: op.roc_convex_hull().randomized(fpr=0.3).predict(S, rng="seed"),
    ),
    "StepCalibrator": (calibration.StepCalibrator.__call__, lambda op: op.isotonic_calibrator()([np.nan])),
    "Sweep": (Sweep.__init__, lambda op: Sweep(0, 1)),
    "Sweep.update": (Sweep.update, lambda op: Sweep(1, 1).update([0.5], [1, 2], [0])),
    "Sweep.merge": (Sweep.merge, lambda op: Sweep(1, 1).merge(op)),
}


@pytest.mark.parametrize("label", sorted(METHODS))
def test_validating_methods_are_declared_and_named(label):
    method, refused = METHODS[label]
    assert declared_params(method) is not None, f"{label} is not declared"
    op = im.OperatingPoints.from_scores(Y, S)
    with pytest.raises(IsometricsError) as info:
        refused(op)
    assert str(info.value).startswith(f"{label}:"), str(info.value)


def test_one_vs_rest_methods_are_declared_and_named():
    ovr = im.one_vs_rest([0, 1, 2, 2], [[0.8, 0.1, 0.1], [0.2, 0.6, 0.2], [0.1, 0.2, 0.7], [0.3, 0.3, 0.4]])
    for name, call in (
        ("auroc", lambda: ovr.auroc(average="mean")),
        ("average_precision", lambda: ovr.average_precision(average="mean")),
        ("auprg", lambda: ovr.auprg(average="mean")),
        ("best_thresholds", lambda: ovr.best_thresholds("nope")),
        ("macro_precision_recall_curve", lambda: ovr.macro_precision_recall_curve(n_points=1)),
    ):
        assert declared_params(getattr(OneVsRest, name)) is not None, name
        with pytest.raises(IsometricsError, match=rf"^OneVsRest\.{name}:"):
            call()
    assert declared_params(sweep_table) is not None


def test_a_method_called_by_a_declared_function_names_that_function():
    """Outermost wins: the message names the function the user called, as every checker's does."""

    @validate_params({"share": Interval(Real, None, None)})
    def triage(share):
        return im.OperatingPoints.from_scores(Y, S).at_rate(share)

    with pytest.raises(IsometricsError, match=r"^triage: `rate` must be"):
        triage(1.5)
    with pytest.raises(IsometricsError, match=r"^OperatingPoints\.at_rate: `rate` must be"):
        im.OperatingPoints.from_scores(Y, S).at_rate(1.5)


@pytest.mark.parametrize(
    "helper",
    [
        thresholds._best_threshold,
        thresholds._metric_curve,
        constraints._fraction,
        constraints._precision_at_recall,
        constraints._recall_at_precision,
        constraints._specificity_at_sensitivity,
        gains._decision_curve,
        curves._rate_or_nan,
        calibration._reliability_iv,
        calibration._reliability_curve,
    ],
    ids=lambda f: f.__name__,
)
def test_internal_helpers_take_no_caller(helper):
    assert "caller" not in inspect.signature(helper).parameters
