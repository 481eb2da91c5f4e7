"""Display objects: computed once, drawn on given axes, arrays equal to the API's, never plt.show()."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

import isometrics as im  # noqa: E402
from isometrics.plotting import (  # noqa: E402
    LevelCurveDisplay,
    MetricCurveDisplay,
    PrecisionRecallDisplay,
    PrgDisplay,
    RocDisplay,
)


@pytest.fixture(autouse=True)
def no_show(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("library code called plt.show()")

    monkeypatch.setattr(plt, "show", fail)
    yield
    plt.close("all")


@pytest.fixture
def data(rng):
    y = (rng.random(400) < 0.3).astype(int)
    s = np.round(rng.normal(size=400) + 1.2 * y, 2)
    return y, s


def test_roc_display(data):
    y, s = data
    display = RocDisplay.from_predictions(y, s, name="model", metric="f1").plot()
    fpr, tpr, _ = im.OperatingPoints.from_scores(y, s).roc_curve()  # every point, as the display
    np.testing.assert_array_equal(display.line_.get_xdata(), fpr)
    np.testing.assert_array_equal(display.line_.get_ydata(), tpr)
    hull = im.roc_convex_hull(y, s)
    np.testing.assert_array_equal(display.hull_fpr, hull.fpr)
    assert display.ax_.get_xlabel() == "false positive rate" and display.figure_ is display.ax_.figure
    assert any("F1 isometrics" == line.get_label() for line in display.ax_.get_lines())


def test_pr_display_on_given_axes(data):
    y, s = data
    fig, ax = plt.subplots()
    display = PrecisionRecallDisplay.from_predictions(y, s, metric="f2").plot(ax=ax)
    assert display.ax_ is ax
    precision, recall, _ = im.OperatingPoints.from_scores(y, s).precision_recall_curve()
    np.testing.assert_array_equal(display.line_.get_xdata(), recall[1:])
    # the achievable curve dominates the observed PR points at equal recall (Davis & Goadrich)
    achievable = np.interp(recall[1:], display.achievable_recall, display.achievable_precision)
    assert np.all(precision[1:] <= achievable + 1e-9)
    best = im.best_threshold(y, s, metric="f2")
    marker = display.best_marker_
    assert marker.get_xdata()[0] == best.recall and marker.get_ydata()[0] == best.precision
    assert "best F2" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_prg_display(data):
    y, s = data
    display = PrgDisplay.from_predictions(y, s, metric="f1").plot()
    hull = im.prg_convex_hull(y, s)
    np.testing.assert_array_equal(display.hull_recall_gain, hull.recall_gain)
    assert display.ax_.get_title() == "Precision-Recall-Gain"


def test_from_estimator_matches_from_predictions(data):
    y, s = data
    X = np.column_stack([s, np.sin(s)])
    model = LogisticRegression().fit(X, y)
    a = RocDisplay.from_estimator(model, X, y)
    b = RocDisplay.from_predictions(y, model.predict_proba(X)[:, 1])
    np.testing.assert_array_equal(a.tpr, b.tpr)


def test_metric_curve_and_level_curve_displays(data):
    y, s = data
    metric_display = MetricCurveDisplay.from_predictions(y, s, metric="g(beta=2, rho=-3)").plot()
    best = im.best_threshold(y, s, metric="g(beta=2, rho=-3)")
    assert np.nanmax(metric_display.line_.get_ydata()) == pytest.approx(best.value)
    levels = LevelCurveDisplay.from_metric("f2", levels=(0.3, 0.6), beta=2).plot()
    assert len(levels.lines_) == 2
    values = im.parse_metric("f2").from_precision_recall(levels.lines_[0].get_ydata(), levels.lines_[0].get_xdata())
    np.testing.assert_allclose(values, 0.3, rtol=1e-9)


def test_from_estimator_rejects_multiclass(rng):
    X = rng.normal(size=(60, 2))
    y = np.repeat([0, 1, 2], 20)
    model = LogisticRegression().fit(X, y)
    with pytest.raises(im.InvalidParameterError, match="must be a binary classifier"):
        RocDisplay.from_estimator(model, X, y == 0)
