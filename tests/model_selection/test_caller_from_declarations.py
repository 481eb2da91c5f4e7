"""The public functions of uncertainty, model_selection, evaluation and plotting name themselves
through their declarations (issue 24, item 5), not through a ``caller`` string threaded by hand."""

import ast
import inspect
import pathlib
import warnings

import numpy as np
import pytest

import isometrics as im
from isometrics._core.constraints import declared_params
from isometrics.model_selection import get_scorer, recommend
from isometrics.uncertainty import DelongResult, delong

SRC = pathlib.Path(im.__file__).parent
PACKAGES = ("uncertainty", "model_selection", "evaluation", "plotting")

# An internal function may still take a name explicitly where no declaration can give it, with the reason.
EXPLICIT = {
    # one inherited from_estimator body serves every Display: its name depends on the class
    ("plotting/_estimator.py", "_classes"),
    ("plotting/_estimator.py", "_positive_class"),
    ("plotting/_estimator.py", "_scores_of"),
    ("plotting/_estimator.py", "_estimator_inputs"),
}

Y = np.array([0, 1, 0, 1, 1, 0, 1, 0, 1, 0])
S = np.array([0.1, 0.9, 0.3, 0.6, 0.8, 0.2, 0.4, 0.5, 0.7, 0.35])


def _threaded():
    """(file, function) of every function of the packages whose ``caller`` parameter is required."""
    found = []
    for package in PACKAGES:
        for path in sorted((SRC / package).glob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                args = node.args
                positional = args.posonlyargs + args.args
                defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
                required = [a.arg for a, d in zip(positional, defaults) if d is None]
                required += [a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is None]
                if "caller" in required:
                    found.append((f"{package}/{path.name}", node.name))
    return found


def test_no_function_takes_a_required_caller():
    assert sorted(set(_threaded()) - EXPLICIT) == []


def test_no_module_keeps_a_caller_constant():
    lines = [
        f"{package}/{path.name}:{n}: {line.strip()}"
        for package in PACKAGES
        for path in sorted((SRC / package).glob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if line.strip().startswith(("caller = ", "_CALLER = "))
    ]
    assert lines == []


@pytest.mark.parametrize(
    "method",
    [
        im.decide,
        recommend,
        DelongResult.confidence_interval,
        DelongResult.confidence_intervals,
        im.CrossValidatedThreshold.from_estimator,
        im.plotting.RocDisplay.from_predictions,
        im.plotting.LiftDisplay.from_predictions,
        im.plotting.LevelCurveDisplay.from_metric,
    ],
    ids=lambda f: f.__qualname__,
)
def test_declared_with_exactly_their_parameters(method):
    declared = declared_params(method)
    assert declared is not None
    params = [
        p.name
        for p in inspect.signature(method).parameters.values()
        if p.name not in ("self", "cls") and p.kind is not inspect.Parameter.VAR_KEYWORD
    ]
    assert sorted(declared) == sorted(params)


def test_recommend_names_itself_when_the_rule_it_states_refuses_the_data():
    """recommend runs decide: a message names the function the user called (outermost wins)."""
    with pytest.raises(im.IsometricsError, match=r"^recommend: .*y_score"):
        recommend(Y, {"a": np.r_[S[:-1], np.nan], "b": S}, metric="f1", cv=None)
    with pytest.raises(im.InvalidParameterError, match=r"^decide: `n_repeats`"):
        im.decide(Y, S, metric="f1", n_repeats=0)


def test_a_result_method_names_itself():
    result = delong(Y, np.column_stack([S, S[::-1]]))
    with pytest.raises(im.InvalidParameterError, match=r"^DelongResult\.confidence_interval: `confidence_level`"):
        result.confidence_interval(1.5, scorer=0)
    with pytest.raises(im.InvalidParameterError, match=r"^DelongResult\.confidence_interval: there are 2 scorers"):
        result.confidence_interval()
    with pytest.raises(im.InvalidParameterError, match=r"^DelongResult\.confidence_intervals: `confidence_level`"):
        result.confidence_intervals(0)


def test_scorers_name_get_scorer_when_scikit_learn_scores():
    """scikit-learn calls the scorer's function outside get_scorer: its messages still name get_scorer."""
    base = pytest.importorskip("sklearn.base")

    class Predicting(base.ClassifierMixin, base.BaseEstimator):
        def fit(self, X, y):
            self.classes_ = np.array([0, 1])
            return self

        def predict(self, X):
            return np.zeros(len(X) + 1, dtype=int)  # one prediction too many

    scorer = get_scorer("f1")
    with pytest.raises(im.IsometricsError, match=r"^get_scorer: y_true has 10 samples but y_pred has 11"):
        scorer(Predicting().fit(None, None), np.zeros((10, 1)), Y)


def test_decides_undefined_metric_warning_points_at_the_users_line():
    y = np.array([0] * 40 + [1] * 2)
    s = np.r_[np.linspace(0, 0.5, 40), [0.99, 0.2]]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        im.decide(y, s, threshold=0.95, metrics=["precision"], n_resamples=200, rng=0)
    ours = [w for w in record if issubclass(w.category, im.UndefinedMetricWarning)]
    assert ours, [str(w.message) for w in record]
    assert all((w.filename, w.lineno) == (__file__, line) for w in ours)
