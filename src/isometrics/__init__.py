"""isometrics: exact, fast evaluation of classifiers in precision-recall, ROC and PRG space.

Everything public is importable from here; modules are named after the concepts they
hold (``operating_points``, ``means``, ``curves``, ``areas``, ``thresholds``, ...).
Only the version and the exceptions are loaded by ``import isometrics``: every other
public name is imported on first use (PEP 562 ``__getattr__``), so that a script or the
command line does not pay for item response theory, SciPy's optimisers or the Dask
backend it never touches. The imports under ``TYPE_CHECKING`` are what type checkers
and readers see; ``_LAZY`` says where each name lives at run time.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import __version__
from .exceptions import (
    DegenerateDataWarning,
    InvalidParameterError,
    IsometricsError,
    UndefinedMetricWarning,
    WeightKindWarning,
)

if TYPE_CHECKING:
    from ._core.confusion import ClassCounts, class_counts, confusion_matrix
    from .elicitation.linear import LinearMetricResult, elicit_linear_metric
    from .elicitation.local import LocalQuestion
    from .elicitation.pairwise import PairwiseQuestion
    from .elicitation.result import ElicitationResult
    from .elicitation.session import Elicitation, replay
    from .elicitation.stakeholders import SimulatedStakeholder
    from .elicitation.tangency import TangencyResult, tangency_estimate
    from .elicitation.transcript import Transcript, load_transcript
    from .evaluation import BinaryEvaluation, Evaluations, evaluate_scores
    from .irt.adaptive import AdaptiveTest, adaptive_test
    from .irt.classifiers import ClassifierSpec, parse_classifier_spec
    from .irt.keel import (
        KeelBenchmark,
        build_keel_benchmark,
        keel_datasets,
        keel_response,
        load_keel_dataset,
        read_keel_benchmark,
    )
    from .irt.model import Beta3IRT, fit_beta3
    from .metrics.accuracy import accuracy_score, balanced_accuracy_score, matthews_corrcoef
    from .metrics.classification import (
        f1_score,
        false_positive_rate_score,
        fbeta_score,
        negative_predictive_value_score,
        precision_recall_fscore_support,
        precision_score,
        recall_score,
        specificity_score,
    )
    from .metrics.means import (
        fbeta,
        g_beta_rho,
        power_mean,
        weighted_arithmetic_mean,
        weighted_geometric_mean,
        weighted_harmonic_mean,
    )
    from .metrics.registry import METRIC_NAMES, Metric, parse_metric
    from .model_selection import CrossValidatedThreshold, Decision, cross_validated_threshold, decide, get_scorer
    from .scale import (
        AreaBounds,
        BinnedCountTable,
        BinnedEvaluation,
        OutOfCoreEvaluation,
        OutOfCoreResult,
        evaluate_out_of_core,
    )
    from .spaces.areas import auprg, auroc, average_precision
    from .spaces.baselines import (
        AlwaysPositive,
        BaselineCurve,
        always_positive,
        always_positive_fbeta,
        iso_fbeta_baseline,
        precision_at_prevalence,
        prg_fbeta_baseline,
        repeated_test_precision,
        unachievable_precision,
    )
    from .spaces.calibration import (
        ReliabilityCurve,
        StepCalibrator,
        expected_calibration_error,
        f_calibrator,
        isotonic_calibrator,
        reliability_curve,
    )
    from .spaces.constraints import precision_at_recall, recall_at_precision, specificity_at_sensitivity
    from .spaces.costs import bayes_threshold, cost_sensitive_predict, expected_cost
    from .spaces.curves import PrecisionRecallCurve, PrgCurve, RocCurve, precision_recall_curve, prg_curve, roc_curve
    from .spaces.cutoffs import Cutoff, precision_at_k, recall_at_k
    from .spaces.gains import DecisionCurve, GainsCurve, LiftCurve, decision_curve, gains_curve, lift_curve
    from .spaces.hull import HullOptimum, PrgHull, RandomizedClassifier, RocHull, prg_convex_hull, roc_convex_hull
    from .spaces.interpolation import (
        InterpolatedPoints,
        achievable_pr_curve,
        auc_pr_achievable,
        auc_pr_interpolated,
        interpolate_pr_points,
    )
    from .spaces.level_curves import LevelCurve, break_even_line, level_curve, level_curve_slope
    from .spaces.multiclass import MetricReport, OneVsRest, metric_report, one_vs_rest
    from .spaces.operating_points import OperatingPoints
    from .spaces.roc_auc import roc_auc_score
    from .spaces.thresholds import BestThreshold, MetricCurve, OperatingPoint, best_threshold, metric_curve
    from .uncertainty.average_precision import average_precision_ci
    from .uncertainty.bands import CurveBand, bootstrap_curve_band
    from .uncertainty.comparison import bootstrap_compare, compare_scores
    from .uncertainty.delong import DelongResult, DelongTest, delong, delong_test
    from .uncertainty.groups import GroupEvaluation
    from .uncertainty.intervals import BootstrapResult, bootstrap, bootstrap_areas
    from .uncertainty.model_comparison import ComparisonRow, ModelComparison
    from .uncertainty.multiple_testing import holm_adjust

#: Each public name imported on first use, and the module (relative to the package) that holds it.
_LAZY: dict[str, str] = {
    "ClassCounts": "._core.confusion",
    "class_counts": "._core.confusion",
    "confusion_matrix": "._core.confusion",
    "LinearMetricResult": ".elicitation.linear",
    "elicit_linear_metric": ".elicitation.linear",
    "LocalQuestion": ".elicitation.local",
    "PairwiseQuestion": ".elicitation.pairwise",
    "ElicitationResult": ".elicitation.result",
    "Elicitation": ".elicitation.session",
    "replay": ".elicitation.session",
    "SimulatedStakeholder": ".elicitation.stakeholders",
    "TangencyResult": ".elicitation.tangency",
    "tangency_estimate": ".elicitation.tangency",
    "Transcript": ".elicitation.transcript",
    "load_transcript": ".elicitation.transcript",
    "BinaryEvaluation": ".evaluation",
    "Evaluations": ".evaluation",
    "GroupEvaluation": ".uncertainty.groups",
    "evaluate_scores": ".evaluation",
    "AdaptiveTest": ".irt.adaptive",
    "adaptive_test": ".irt.adaptive",
    "ClassifierSpec": ".irt.classifiers",
    "parse_classifier_spec": ".irt.classifiers",
    "KeelBenchmark": ".irt.keel",
    "build_keel_benchmark": ".irt.keel",
    "keel_datasets": ".irt.keel",
    "keel_response": ".irt.keel",
    "load_keel_dataset": ".irt.keel",
    "read_keel_benchmark": ".irt.keel",
    "Beta3IRT": ".irt.model",
    "fit_beta3": ".irt.model",
    "accuracy_score": ".metrics.accuracy",
    "balanced_accuracy_score": ".metrics.accuracy",
    "matthews_corrcoef": ".metrics.accuracy",
    "f1_score": ".metrics.classification",
    "false_positive_rate_score": ".metrics.classification",
    "fbeta_score": ".metrics.classification",
    "negative_predictive_value_score": ".metrics.classification",
    "precision_recall_fscore_support": ".metrics.classification",
    "precision_score": ".metrics.classification",
    "recall_score": ".metrics.classification",
    "specificity_score": ".metrics.classification",
    "fbeta": ".metrics.means",
    "g_beta_rho": ".metrics.means",
    "power_mean": ".metrics.means",
    "weighted_arithmetic_mean": ".metrics.means",
    "weighted_geometric_mean": ".metrics.means",
    "weighted_harmonic_mean": ".metrics.means",
    "METRIC_NAMES": ".metrics.registry",
    "Metric": ".metrics.registry",
    "parse_metric": ".metrics.registry",
    "CrossValidatedThreshold": ".model_selection",
    "Decision": ".model_selection",
    "decide": ".model_selection",
    "cross_validated_threshold": ".model_selection",
    "get_scorer": ".model_selection",
    "AreaBounds": ".scale",
    "BinnedCountTable": ".scale",
    "BinnedEvaluation": ".scale",
    "OutOfCoreEvaluation": ".scale",
    "OutOfCoreResult": ".scale",
    "evaluate_out_of_core": ".scale",
    "auprg": ".spaces.areas",
    "auroc": ".spaces.areas",
    "average_precision": ".spaces.areas",
    "AlwaysPositive": ".spaces.baselines",
    "BaselineCurve": ".spaces.baselines",
    "always_positive": ".spaces.baselines",
    "always_positive_fbeta": ".spaces.baselines",
    "iso_fbeta_baseline": ".spaces.baselines",
    "precision_at_prevalence": ".spaces.baselines",
    "prg_fbeta_baseline": ".spaces.baselines",
    "repeated_test_precision": ".spaces.baselines",
    "unachievable_precision": ".spaces.baselines",
    "ReliabilityCurve": ".spaces.calibration",
    "StepCalibrator": ".spaces.calibration",
    "expected_calibration_error": ".spaces.calibration",
    "f_calibrator": ".spaces.calibration",
    "isotonic_calibrator": ".spaces.calibration",
    "reliability_curve": ".spaces.calibration",
    "precision_at_recall": ".spaces.constraints",
    "recall_at_precision": ".spaces.constraints",
    "specificity_at_sensitivity": ".spaces.constraints",
    "bayes_threshold": ".spaces.costs",
    "cost_sensitive_predict": ".spaces.costs",
    "expected_cost": ".spaces.costs",
    "PrecisionRecallCurve": ".spaces.curves",
    "PrgCurve": ".spaces.curves",
    "RocCurve": ".spaces.curves",
    "precision_recall_curve": ".spaces.curves",
    "prg_curve": ".spaces.curves",
    "roc_curve": ".spaces.curves",
    "Cutoff": ".spaces.cutoffs",
    "precision_at_k": ".spaces.cutoffs",
    "recall_at_k": ".spaces.cutoffs",
    "DecisionCurve": ".spaces.gains",
    "GainsCurve": ".spaces.gains",
    "LiftCurve": ".spaces.gains",
    "decision_curve": ".spaces.gains",
    "gains_curve": ".spaces.gains",
    "lift_curve": ".spaces.gains",
    "HullOptimum": ".spaces.hull",
    "PrgHull": ".spaces.hull",
    "RandomizedClassifier": ".spaces.hull",
    "RocHull": ".spaces.hull",
    "prg_convex_hull": ".spaces.hull",
    "roc_convex_hull": ".spaces.hull",
    "InterpolatedPoints": ".spaces.interpolation",
    "achievable_pr_curve": ".spaces.interpolation",
    "auc_pr_achievable": ".spaces.interpolation",
    "auc_pr_interpolated": ".spaces.interpolation",
    "interpolate_pr_points": ".spaces.interpolation",
    "LevelCurve": ".spaces.level_curves",
    "break_even_line": ".spaces.level_curves",
    "level_curve": ".spaces.level_curves",
    "level_curve_slope": ".spaces.level_curves",
    "MetricReport": ".spaces.multiclass",
    "OneVsRest": ".spaces.multiclass",
    "metric_report": ".spaces.multiclass",
    "one_vs_rest": ".spaces.multiclass",
    "OperatingPoints": ".spaces.operating_points",
    "roc_auc_score": ".spaces.roc_auc",
    "BestThreshold": ".spaces.thresholds",
    "MetricCurve": ".spaces.thresholds",
    "OperatingPoint": ".spaces.thresholds",
    "best_threshold": ".spaces.thresholds",
    "metric_curve": ".spaces.thresholds",
    "average_precision_ci": ".uncertainty.average_precision",
    "CurveBand": ".uncertainty.bands",
    "bootstrap_curve_band": ".uncertainty.bands",
    "bootstrap_compare": ".uncertainty.comparison",
    "compare_scores": ".uncertainty.comparison",
    "ComparisonRow": ".uncertainty.model_comparison",
    "ModelComparison": ".uncertainty.model_comparison",
    "DelongResult": ".uncertainty.delong",
    "DelongTest": ".uncertainty.delong",
    "delong": ".uncertainty.delong",
    "delong_test": ".uncertainty.delong",
    "BootstrapResult": ".uncertainty.intervals",
    "bootstrap": ".uncertainty.intervals",
    "bootstrap_areas": ".uncertainty.intervals",
    "holm_adjust": ".uncertainty.multiple_testing",
}

# Every public name: the lazy ones where they live, then the version and the exceptions.
__all__ = [
    *_LAZY,
    "IsometricsError",
    "InvalidParameterError",
    "UndefinedMetricWarning",
    "DegenerateDataWarning",
    "WeightKindWarning",
    "__version__",
]



def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562) and keep it in the module's namespace."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'isometrics' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
