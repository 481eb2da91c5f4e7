"""Five products, five namespaces (issue 24, item 4): a core of at most 70 names at the top level,
``isometrics.uncertainty``, ``.elicitation``, ``.irt``, ``.scale``, ``.spaces``, ``.plotting``, ``.report``
(and ``.dask``, ``.model_selection``) each with its own ``__all__``, imported on first use.

A name that left the top level still resolves there for one release, with a DeprecationWarning that
names its new place; it is no longer in ``__all__`` nor ``dir()``.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import warnings

import pytest

import isometrics as im

#: The public names of the top level before the cut (148, issue 24): each one still resolves.
BEFORE = set(
    """
AdaptiveTest AlwaysPositive AreaBounds BaselineCurve BestThreshold Beta3IRT BinaryEvaluation BinnedCountTable
BinnedEvaluation BootstrapResult ClassCounts ClassifierSpec ComparisonRow CrossValidatedThreshold CurveBand Cutoff
Decision DecisionCurve DegenerateDataWarning DelongResult DelongTest Elicitation ElicitationResult Evaluations
GainsCurve GroupEvaluation HullOptimum InterpolatedPoints InvalidParameterError IsometricsError KeelBenchmark
LevelCurve LiftCurve LinearMetricResult LocalQuestion METRIC_NAMES Metric MetricCurve MetricReport ModelComparison
OneVsRest OperatingPoint OperatingPoints OutOfCoreEvaluation OutOfCoreResult PairwiseQuestion PrecisionRecallCurve
PrgCurve PrgHull RandomizedClassifier ReliabilityCurve RocCurve RocHull SimulatedStakeholder StepCalibrator
TangencyResult Transcript UndefinedMetricWarning WeightKindWarning __version__ accuracy_score achievable_pr_curve
adaptive_test always_positive always_positive_fbeta auc_pr_achievable auc_pr_interpolated auprg auroc
average_precision average_precision_ci balanced_accuracy_score bayes_threshold best_threshold bootstrap
bootstrap_areas bootstrap_compare bootstrap_curve_band break_even_line build_keel_benchmark class_counts
compare_scores confusion_matrix cost_sensitive_predict cross_validated_threshold decide decision_curve delong
delong_test elicit_linear_metric evaluate_out_of_core evaluate_scores expected_calibration_error expected_cost
f1_score f_calibrator false_positive_rate_score fbeta fbeta_score fit_beta3 g_beta_rho gains_curve get_scorer
holm_adjust interpolate_pr_points iso_fbeta_baseline isotonic_calibrator keel_datasets keel_response level_curve
level_curve_slope lift_curve load_keel_dataset load_transcript matthews_corrcoef metric_curve metric_report
negative_predictive_value_score one_vs_rest parse_classifier_spec parse_metric power_mean precision_at_k
precision_at_prevalence precision_at_recall precision_recall_curve precision_recall_fscore_support precision_score
prg_convex_hull prg_curve prg_fbeta_baseline read_keel_benchmark recall_at_k recall_at_precision recall_score
reliability_curve repeated_test_precision replay roc_auc_score roc_convex_hull roc_curve specificity_at_sensitivity
specificity_score tangency_estimate unachievable_precision weighted_arithmetic_mean weighted_geometric_mean
weighted_harmonic_mean
""".split()
)

#: The namespaces the issue names, each a product of its own.
REQUIRED = ("uncertainty", "elicitation", "irt", "scale", "plotting", "report")
#: Optional dependencies a namespace needs to be imported (the test is skipped without them).
NEEDS = {"plotting": "matplotlib", "report": "plotly", "dask": "dask"}


def _namespace(name: str):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    return getattr(im, name)


def test_the_top_level_is_a_core_of_at_most_70_names():
    assert len(im.__all__) <= 70
    assert len(set(im.__all__)) == len(im.__all__)
    assert BEFORE == set(im.__all__) | set(im._MOVED)  # no public name of before the cut is lost
    assert not set(im.__all__) & set(im._MOVED)


def test_the_namespaces_are_the_issues():
    assert set(REQUIRED) <= set(im._NAMESPACES)
    assert set(im._MOVED.values()) <= set(im._NAMESPACES)


@pytest.mark.parametrize("name", sorted(set(im._NAMESPACES)))
def test_each_namespace_has_all_and_every_name_resolves(name):
    namespace = _namespace(name)
    assert namespace is importlib.import_module(f"isometrics.{name}")
    assert isinstance(namespace.__all__, list) and namespace.__all__
    assert len(set(namespace.__all__)) == len(namespace.__all__)
    for member in namespace.__all__:
        assert getattr(namespace, member) is not None, f"isometrics.{name}.{member}"
        assert not isinstance(getattr(namespace, member), type(sys)), f"isometrics.{name}.{member} is a module"
    assert name in dir(im)


@pytest.mark.parametrize("name", sorted(im._MOVED))
def test_a_moved_name_warns_and_points_to_its_new_place(name):
    where = im._MOVED[name]
    namespace = _namespace(where)
    assert name in namespace.__all__
    assert name not in im.__all__ and name not in dir(im)
    with pytest.warns(
        DeprecationWarning,
        match=rf"^isometrics\.{name} moved to isometrics\.{where}\.{name}: "
        rf"import it from isometrics\.{where}",
    ):
        value = getattr(im, name)
    assert value is getattr(namespace, name)
    with pytest.warns(DeprecationWarning, match=rf"isometrics\.{where}"):  # warns on every read, not only the first
        getattr(im, name)


def test_from_import_of_a_moved_name_warns_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from isometrics import bootstrap  # noqa: F401
    assert [w.category for w in caught] == [DeprecationWarning]
    assert caught[0].filename == __file__
    assert "isometrics.uncertainty.bootstrap" in str(caught[0].message)


def test_the_core_names_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for name in im.__all__:
            getattr(im, name)


def test_an_unknown_name_is_still_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        im.no_such_name  # noqa: B018


def _loaded_after(code: str) -> list[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    res = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return json.loads(res.stdout.splitlines()[-1])


def test_importing_isometrics_imports_no_namespace():
    loaded = _loaded_after("import isometrics")
    assert [m for m in loaded if m.startswith("isometrics.") and m.split(".")[1] in im._NAMESPACES] == []


def test_a_namespace_is_imported_on_first_use_and_alone():
    loaded = _loaded_after("import isometrics\nisometrics.uncertainty.bootstrap")
    assert "isometrics.uncertainty" in loaded
    assert not {
        "isometrics.irt",
        "isometrics.elicitation",
        "isometrics.scale",
        "isometrics.report",
        "isometrics.plotting",
    } & set(loaded)


def test_the_spaces_namespace_loads_one_module_per_name():
    loaded = _loaded_after("from isometrics.spaces import roc_curve")
    assert "isometrics.spaces.curves" in loaded
    assert not {"isometrics.spaces.calibration", "isometrics.spaces.gains", "isometrics.spaces.baselines"} & set(loaded)
