"""Every Display that scores an estimator inherits one ``from_estimator`` (issue 24, item 5:
one plotting mixin), and each still draws what ``from_predictions`` draws on the estimator's
scores, taken here by hand from ``predict_proba`` / ``decision_function``."""

import dataclasses

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import roc_curve  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402

import isometrics as im  # noqa: E402
from isometrics import plotting  # noqa: E402
from isometrics.plotting._estimator import _FromEstimator  # noqa: E402

# every public Display built from predictions, found from the namespace (a new one is checked too)
DISPLAYS = [getattr(plotting, n) for n in plotting.__all__ if hasattr(getattr(plotting, n), "from_predictions")]


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def fitted():
    rng = np.random.default_rng(24)
    y = np.where(rng.random(120) < 0.35, "yes", "no")
    X = np.column_stack([rng.normal(size=120) + 1.3 * (y == "yes"), rng.normal(size=120)])
    return X, y


def test_the_six_displays_are_found():
    assert {d.__name__ for d in DISPLAYS} == {
        "RocDisplay",
        "PrecisionRecallDisplay",
        "PrgDisplay",
        "GainsDisplay",
        "LiftDisplay",
        "MetricCurveDisplay",
    }


@pytest.mark.parametrize("display", DISPLAYS, ids=lambda d: d.__name__)
def test_from_estimator_is_the_mixins(display):
    assert issubclass(display, _FromEstimator)
    assert display.from_estimator.__func__ is _FromEstimator.__dict__["from_estimator"].__func__
    assert not any("from_estimator" in vars(k) for k in display.__mro__ if k is not _FromEstimator)


def _same(a, b):
    """The same fields (arrays equal, bit for bit) and the same drawn line."""
    assert type(a) is type(b)
    for f in dataclasses.fields(a):
        if f.init:
            x, y = getattr(a, f.name), getattr(b, f.name)
            if isinstance(x, np.ndarray):
                np.testing.assert_array_equal(x, y)
            else:
                assert x == y, f.name
    la, lb = a.plot().line_, b.plot().line_
    np.testing.assert_array_equal(la.get_xdata(), lb.get_xdata())
    np.testing.assert_array_equal(la.get_ydata(), lb.get_ydata())
    assert la.get_label() == lb.get_label()


@pytest.mark.parametrize("display", DISPLAYS, ids=lambda d: d.__name__)
@pytest.mark.parametrize("pos_label", [None, "yes", "no"])
def test_from_estimator_draws_the_scores_of_the_positive_class(display, pos_label, fitted):
    X, y = fitted
    model = LogisticRegression().fit(X, y)
    column = 0 if pos_label == "no" else 1  # classes_ == ["no", "yes"]; default: classes_[1]
    by_hand = model.predict_proba(X)[:, column]
    _same(
        display.from_estimator(model, X, y, pos_label=pos_label, name="m"),
        display.from_predictions(y, by_hand, pos_label=model.classes_[column], name="m"),
    )


@pytest.mark.parametrize("display", DISPLAYS, ids=lambda d: d.__name__)
def test_from_estimator_negates_the_decision_function_for_classes_0(display, fitted):
    X, y = fitted
    model = LinearSVC().fit(X, y)
    _same(
        display.from_estimator(model, X, y, pos_label="no"),
        display.from_predictions(y, -model.decision_function(X), pos_label="no"),
    )


def test_roc_from_estimator_against_scikit_learn(fitted):
    X, y = fitted
    model = LogisticRegression().fit(X, y)
    fpr, tpr, _ = roc_curve(y, model.predict_proba(X)[:, 0], pos_label="no", drop_intermediate=False)
    display = plotting.RocDisplay.from_estimator(model, X, y, pos_label="no")
    np.testing.assert_allclose(display.fpr, fpr)
    np.testing.assert_allclose(display.tpr, tpr)


@pytest.mark.parametrize("display", DISPLAYS, ids=lambda d: d.__name__)
def test_from_estimator_errors_name_the_display(display, fitted):
    X, y = fitted
    model = LogisticRegression().fit(X, y)
    with pytest.raises(im.InvalidParameterError, match=rf"^{display.__name__}\.from_estimator: `pos_label`"):
        display.from_estimator(model, X, y, pos_label="maybe")
