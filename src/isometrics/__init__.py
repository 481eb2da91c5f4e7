"""isometrics: exact, fast evaluation of classifiers in precision-recall, ROC and PRG space.

Everything public is importable from here; modules are named after the concepts they
hold (``operating_points``, ``means``, ``curves``, ``areas``, ``thresholds``, ...).
"""

from ._core.confusion import ClassCounts, class_counts, confusion_matrix
from ._version import __version__
from .elicitation.linear import LinearMetricResult, elicit_linear_metric
from .elicitation.local import LocalQuestion
from .elicitation.pairwise import PairwiseQuestion
from .elicitation.result import ElicitationResult
from .elicitation.session import Elicitation, replay
from .elicitation.stakeholders import SimulatedStakeholder
from .elicitation.tangency import TangencyResult, tangency_estimate
from .elicitation.transcript import Transcript, load_transcript
from .evaluation import BinaryEvaluation, Evaluations, evaluate_scores
from .exceptions import (
    DegenerateDataWarning,
    InvalidParameterError,
    IsometricsError,
    UndefinedMetricWarning,
    WeightKindWarning,
)
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
from .uncertainty.model_comparison import ComparisonRow, ModelComparison
from .uncertainty.delong import DelongResult, DelongTest, delong, delong_test
from .uncertainty.intervals import BootstrapResult, bootstrap, bootstrap_areas
from .uncertainty.multiple_testing import holm_adjust

__all__ = [
    "OperatingPoints",
    # curves and areas
    "RocCurve",
    "PrecisionRecallCurve",
    "PrgCurve",
    "roc_curve",
    "precision_recall_curve",
    "prg_curve",
    "auroc",
    "roc_auc_score",
    "average_precision",
    "auprg",
    # baselines and prevalence
    "AlwaysPositive",
    "BaselineCurve",
    "always_positive",
    "always_positive_fbeta",
    "iso_fbeta_baseline",
    "prg_fbeta_baseline",
    "unachievable_precision",
    "precision_at_prevalence",
    "repeated_test_precision",
    # level curves
    "LevelCurve",
    "level_curve",
    "break_even_line",
    "level_curve_slope",
    # PR interpolation
    "InterpolatedPoints",
    "interpolate_pr_points",
    "auc_pr_interpolated",
    "achievable_pr_curve",
    "auc_pr_achievable",
    # hulls
    "RocHull",
    "PrgHull",
    "RandomizedClassifier",
    "HullOptimum",
    "roc_convex_hull",
    "prg_convex_hull",
    # thresholds and evaluation
    "BestThreshold",
    "best_threshold",
    "MetricCurve",
    "metric_curve",
    "OperatingPoint",
    "precision_at_recall",
    "recall_at_precision",
    "specificity_at_sensitivity",
    # cutoffs users choose, gains, lift and decision curves
    "Cutoff",
    "precision_at_k",
    "recall_at_k",
    "GainsCurve",
    "LiftCurve",
    "DecisionCurve",
    "gains_curve",
    "lift_curve",
    "decision_curve",
    "BinaryEvaluation",
    "Evaluations",
    "evaluate_scores",
    "compare_scores",
    # the metric family
    "power_mean",
    "weighted_arithmetic_mean",
    "weighted_geometric_mean",
    "weighted_harmonic_mean",
    "fbeta",
    "g_beta_rho",
    "Metric",
    "parse_metric",
    "METRIC_NAMES",
    # multiclass and multilabel
    "OneVsRest",
    "one_vs_rest",
    "MetricReport",
    "metric_report",
    # hard predictions
    "ClassCounts",
    "class_counts",
    "confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "fbeta_score",
    "f1_score",
    "specificity_score",
    "negative_predictive_value_score",
    "false_positive_rate_score",
    "accuracy_score",
    "balanced_accuracy_score",
    "matthews_corrcoef",
    # calibration
    "StepCalibrator",
    "isotonic_calibrator",
    "f_calibrator",
    "ReliabilityCurve",
    "reliability_curve",
    "expected_calibration_error",
    # uncertainty
    "BootstrapResult",
    "ModelComparison",
    "ComparisonRow",
    "bootstrap",
    "bootstrap_areas",
    "bootstrap_compare",
    "CurveBand",
    "bootstrap_curve_band",
    "DelongResult",
    "DelongTest",
    "delong",
    "delong_test",
    "average_precision_ci",
    "holm_adjust",
    # costs
    "expected_cost",
    "cost_sensitive_predict",
    "bayes_threshold",
    # thresholds chosen out of sample, scikit-learn scorers
    "CrossValidatedThreshold",
    "cross_validated_threshold",
    "get_scorer",
    "Decision",  # issue 20, item 6: a decision handed over
    "decide",
    # eliciting the metric
    "Elicitation",
    "ElicitationResult",
    "LocalQuestion",
    "PairwiseQuestion",
    "Transcript",
    "load_transcript",
    "replay",
    "SimulatedStakeholder",
    "tangency_estimate",
    "TangencyResult",
    "elicit_linear_metric",
    "LinearMetricResult",
    # item response theory (issue 12)
    "Beta3IRT",
    "fit_beta3",
    "AdaptiveTest",
    "adaptive_test",
    # streaming in constant memory (issue 14)
    "BinnedCountTable",
    "BinnedEvaluation",
    "AreaBounds",
    # files larger than memory, out of core (issue 14)
    "evaluate_out_of_core",
    "OutOfCoreEvaluation",
    "OutOfCoreResult",
    # the KEEL benchmark (issue 12)
    "KeelBenchmark",
    "ClassifierSpec",
    "build_keel_benchmark",
    "read_keel_benchmark",
    "keel_datasets",
    "load_keel_dataset",
    "keel_response",
    "parse_classifier_spec",
    # errors
    "IsometricsError",
    "InvalidParameterError",
    "UndefinedMetricWarning",
    "DegenerateDataWarning",
    "WeightKindWarning",
    "__version__",
]
