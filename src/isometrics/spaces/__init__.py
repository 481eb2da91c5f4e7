"""The ROC, PR and PRG spaces: everything derived from the count table.

Holds curves, areas, convex hulls, Davis-Goadrich interpolation, level curves, thresholds and
constrained optima, calibration, baselines, costs, one-vs-rest multiclass evaluation, and
``OperatingPoints``: the count table with these verbs as methods. May import
``isometrics.metrics``, ``isometrics._core`` and the base modules. A new curve, area, hull or
threshold rule goes in the module of its kind; a method users want on the object goes on
``OperatingPoints`` in ``operating_points``.

The namespace :mod:`isometrics.spaces` lists them all in ``__all__`` (the core's curves, areas,
hulls and thresholds are also at the top level); each is imported on first use (PEP 562,
:mod:`isometrics._core.lazy`), so importing one module of the layer loads no other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._core.lazy import attach

if TYPE_CHECKING:
    from .areas import auprg, auroc, average_precision
    from .baselines import (
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
    from .calibration import (
        ReliabilityCurve,
        StepCalibrator,
        expected_calibration_error,
        f_calibrator,
        isotonic_calibrator,
        reliability_curve,
    )
    from .constraints import precision_at_recall, recall_at_precision, specificity_at_sensitivity
    from .costs import bayes_threshold, cost_sensitive_predict, expected_cost
    from .curves import PrecisionRecallCurve, PrgCurve, RocCurve, precision_recall_curve, prg_curve, roc_curve
    from .cutoffs import Cutoff, precision_at_k, recall_at_k
    from .gains import DecisionCurve, GainsCurve, LiftCurve, decision_curve, gains_curve, lift_curve
    from .hmeasure import h_measure
    from .hull import HullOptimum, PrgHull, RandomizedClassifier, RocHull, prg_convex_hull, roc_convex_hull
    from .interpolation import (
        InterpolatedPoints,
        achievable_pr_curve,
        auc_pr_achievable,
        auc_pr_interpolated,
        interpolate_pr_points,
    )
    from .level_curves import LevelCurve, break_even_line, level_curve, level_curve_slope
    from .multiclass import OneVsRest, one_vs_rest
    from .operating_points import OperatingPoints
    from .roc_auc import roc_auc_score
    from .thresholds import BestThreshold, MetricCurve, OperatingPoint, best_threshold, metric_curve

#: Each public name of the spaces, and the module (relative to this package) that holds it.
_LAZY: dict[str, str] = {
    "auprg": ".areas",
    "auroc": ".areas",
    "average_precision": ".areas",
    "AlwaysPositive": ".baselines",
    "BaselineCurve": ".baselines",
    "always_positive": ".baselines",
    "always_positive_fbeta": ".baselines",
    "iso_fbeta_baseline": ".baselines",
    "precision_at_prevalence": ".baselines",
    "prg_fbeta_baseline": ".baselines",
    "repeated_test_precision": ".baselines",
    "unachievable_precision": ".baselines",
    "ReliabilityCurve": ".calibration",
    "StepCalibrator": ".calibration",
    "expected_calibration_error": ".calibration",
    "f_calibrator": ".calibration",
    "isotonic_calibrator": ".calibration",
    "reliability_curve": ".calibration",
    "precision_at_recall": ".constraints",
    "recall_at_precision": ".constraints",
    "specificity_at_sensitivity": ".constraints",
    "bayes_threshold": ".costs",
    "cost_sensitive_predict": ".costs",
    "expected_cost": ".costs",
    "PrecisionRecallCurve": ".curves",
    "PrgCurve": ".curves",
    "RocCurve": ".curves",
    "precision_recall_curve": ".curves",
    "prg_curve": ".curves",
    "roc_curve": ".curves",
    "Cutoff": ".cutoffs",
    "precision_at_k": ".cutoffs",
    "recall_at_k": ".cutoffs",
    "DecisionCurve": ".gains",
    "GainsCurve": ".gains",
    "LiftCurve": ".gains",
    "decision_curve": ".gains",
    "gains_curve": ".gains",
    "lift_curve": ".gains",
    "h_measure": ".hmeasure",
    "HullOptimum": ".hull",
    "PrgHull": ".hull",
    "RandomizedClassifier": ".hull",
    "RocHull": ".hull",
    "prg_convex_hull": ".hull",
    "roc_convex_hull": ".hull",
    "InterpolatedPoints": ".interpolation",
    "achievable_pr_curve": ".interpolation",
    "auc_pr_achievable": ".interpolation",
    "auc_pr_interpolated": ".interpolation",
    "interpolate_pr_points": ".interpolation",
    "LevelCurve": ".level_curves",
    "break_even_line": ".level_curves",
    "level_curve": ".level_curves",
    "level_curve_slope": ".level_curves",
    "OneVsRest": ".multiclass",
    "one_vs_rest": ".multiclass",
    "OperatingPoints": ".operating_points",
    "roc_auc_score": ".roc_auc",
    "BestThreshold": ".thresholds",
    "MetricCurve": ".thresholds",
    "OperatingPoint": ".thresholds",
    "best_threshold": ".thresholds",
    "metric_curve": ".thresholds",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = attach(__name__, _LAZY)
