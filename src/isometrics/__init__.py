"""isometrics: exact, fast evaluation of classifiers in precision-recall, ROC and PRG space.

The top level is the core: scikit-learn's metric functions under their own names (drop-in
replacements), the engine (:class:`OperatingPoints` and its verbs: curves, areas, hulls,
thresholds), the metric family G(beta, rho), and the result types these return. Each other
product is a namespace of its own, imported on first use:

- :mod:`isometrics.uncertainty`: bootstrap intervals, DeLong, paired comparisons, curve bands;
- :mod:`isometrics.elicitation`: beta and rho elicited from a stakeholder's answers;
- :mod:`isometrics.irt`: beta^3-IRT and the KEEL benchmark;
- :mod:`isometrics.scale`: streaming and out-of-core evaluation (:mod:`isometrics.dask` on a cluster);
- :mod:`isometrics.spaces`: every curve, baseline, calibration, cost and cutoff of the three spaces;
- :mod:`isometrics.plotting` and :mod:`isometrics.report`: matplotlib Displays and the HTML report.

Only the version and the exceptions are loaded by ``import isometrics``: every other public
name is imported on first use (PEP 562 ``__getattr__``, :mod:`isometrics._core.lazy`), so that a
script or the command line does not pay for item response theory, SciPy's optimisers or the
Dask backend it never touches. The imports under ``TYPE_CHECKING`` are what type checkers and
readers see; ``_LAZY`` says where each name lives at run time. A name that moved to a namespace
(``isometrics.bootstrap`` is now ``isometrics.uncertainty.bootstrap``) still resolves here for
one release, with a :class:`DeprecationWarning` naming its new place (``_MOVED``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._core.lazy import attach
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
    from .evaluation import BinaryEvaluation, Evaluations, evaluate_scores
    from .metrics.accuracy import accuracy_score, balanced_accuracy_score, matthews_corrcoef
    from .metrics.class_report import MetricReport, metric_report
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
    from .spaces.areas import auprg, auroc, average_precision
    from .spaces.constraints import precision_at_recall, recall_at_precision, specificity_at_sensitivity
    from .spaces.curves import (
        PrecisionRecallCurve,
        PrgCurve,
        RocCurve,
        precision_recall_curve,
        prg_curve,
        roc_curve,
    )
    from .spaces.hull import PrgHull, RocHull, prg_convex_hull, roc_convex_hull
    from .spaces.level_curves import LevelCurve, level_curve
    from .spaces.multiclass import OneVsRest, one_vs_rest
    from .spaces.operating_points import OperatingPoints
    from .spaces.roc_auc import roc_auc_score
    from .spaces.thresholds import BestThreshold, MetricCurve, OperatingPoint, best_threshold, metric_curve

#: Each public name of the core imported on first use, and the module (relative to the package) that holds it.
_LAZY: dict[str, str] = {
    "ClassCounts": "._core.confusion",
    "class_counts": "._core.confusion",
    "confusion_matrix": "._core.confusion",
    "BinaryEvaluation": ".evaluation",
    "Evaluations": ".evaluation",
    "evaluate_scores": ".evaluation",
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
    "auprg": ".spaces.areas",
    "auroc": ".spaces.areas",
    "average_precision": ".spaces.areas",
    "precision_at_recall": ".spaces.constraints",
    "recall_at_precision": ".spaces.constraints",
    "specificity_at_sensitivity": ".spaces.constraints",
    "PrecisionRecallCurve": ".spaces.curves",
    "PrgCurve": ".spaces.curves",
    "RocCurve": ".spaces.curves",
    "precision_recall_curve": ".spaces.curves",
    "prg_curve": ".spaces.curves",
    "roc_curve": ".spaces.curves",
    "PrgHull": ".spaces.hull",
    "RocHull": ".spaces.hull",
    "prg_convex_hull": ".spaces.hull",
    "roc_convex_hull": ".spaces.hull",
    "LevelCurve": ".spaces.level_curves",
    "level_curve": ".spaces.level_curves",
    "MetricReport": ".metrics.class_report",
    "OneVsRest": ".spaces.multiclass",
    "metric_report": ".metrics.class_report",
    "one_vs_rest": ".spaces.multiclass",
    "OperatingPoints": ".spaces.operating_points",
    "roc_auc_score": ".spaces.roc_auc",
    "BestThreshold": ".spaces.thresholds",
    "MetricCurve": ".spaces.thresholds",
    "OperatingPoint": ".spaces.thresholds",
    "best_threshold": ".spaces.thresholds",
    "metric_curve": ".spaces.thresholds",
}

#: The namespaces, each a subpackage with its own ``__all__``, imported on first use (``isometrics.irt``).
_NAMESPACES = ("uncertainty", "elicitation", "irt", "scale", "spaces", "plotting", "report", "dask", "model_selection")

#: Names that left the top level for a namespace: old name -> the namespace that holds it now.
#: They resolve here with a DeprecationWarning for one release; not in ``__all__`` nor ``dir()``.
_MOVED: dict[str, str] = {
    **dict.fromkeys(
        [
            "BootstrapResult",
            "ComparisonRow",
            "CurveBand",
            "DelongResult",
            "DelongTest",
            "GroupEvaluation",
            "ModelComparison",
            "average_precision_ci",
            "bootstrap",
            "bootstrap_areas",
            "bootstrap_compare",
            "bootstrap_curve_band",
            "compare_scores",
            "delong",
            "delong_test",
            "holm_adjust",
        ],
        "uncertainty",
    ),
    **dict.fromkeys(
        [
            "Elicitation",
            "ElicitationResult",
            "LinearMetricResult",
            "LocalQuestion",
            "PairwiseQuestion",
            "SimulatedStakeholder",
            "TangencyResult",
            "Transcript",
            "elicit_linear_metric",
            "load_transcript",
            "replay",
            "tangency_estimate",
        ],
        "elicitation",
    ),
    **dict.fromkeys(
        [
            "AdaptiveTest",
            "Beta3IRT",
            "ClassifierSpec",
            "KeelBenchmark",
            "adaptive_test",
            "build_keel_benchmark",
            "fit_beta3",
            "keel_datasets",
            "keel_response",
            "load_keel_dataset",
            "parse_classifier_spec",
            "read_keel_benchmark",
        ],
        "irt",
    ),
    **dict.fromkeys(
        [
            "AreaBounds",
            "BinnedCountTable",
            "BinnedEvaluation",
            "OutOfCoreEvaluation",
            "OutOfCoreResult",
            "evaluate_out_of_core",
        ],
        "scale",
    ),
    **dict.fromkeys(
        [
            "AlwaysPositive",
            "BaselineCurve",
            "Cutoff",
            "DecisionCurve",
            "GainsCurve",
            "HullOptimum",
            "InterpolatedPoints",
            "LiftCurve",
            "RandomizedClassifier",
            "ReliabilityCurve",
            "StepCalibrator",
            "achievable_pr_curve",
            "always_positive",
            "always_positive_fbeta",
            "auc_pr_achievable",
            "auc_pr_interpolated",
            "bayes_threshold",
            "break_even_line",
            "cost_sensitive_predict",
            "decision_curve",
            "expected_calibration_error",
            "expected_cost",
            "f_calibrator",
            "gains_curve",
            "interpolate_pr_points",
            "iso_fbeta_baseline",
            "isotonic_calibrator",
            "level_curve_slope",
            "lift_curve",
            "precision_at_k",
            "precision_at_prevalence",
            "prg_fbeta_baseline",
            "recall_at_k",
            "reliability_curve",
            "repeated_test_precision",
            "unachievable_precision",
        ],
        "spaces",
    ),
}

# Every public name of the core: the lazy ones where they live, then the version and the exceptions.
__all__ = [
    *_LAZY,
    "IsometricsError",
    "InvalidParameterError",
    "UndefinedMetricWarning",
    "DegenerateDataWarning",
    "WeightKindWarning",
    "__version__",
]

__getattr__, __dir__ = attach(__name__, _LAZY, namespaces=_NAMESPACES, moved=_MOVED)
