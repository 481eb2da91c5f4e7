"""Gains and lift Displays: arrays equal to the API's, references drawn once per axes, never plt.show()."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402

import isometrics as im  # noqa: E402
from isometrics.plotting import GainsDisplay, LiftDisplay  # noqa: E402


@pytest.fixture(autouse=True)
def no_show(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("library code called plt.show()")

    monkeypatch.setattr(plt, "show", fail)
    yield
    plt.close("all")


@pytest.fixture
def data(rng):
    y = (rng.random(300) < 0.2).astype(int)
    s = np.round(rng.normal(size=300) + 1.2 * y, 2)
    w = rng.random(300) + 0.5
    return y, s, w


def test_gains_display_draws_the_curve_and_its_references_once(data):
    y, s, w = data
    a = GainsDisplay.from_predictions(y, s, sample_weight=w, name="a").plot()
    rate, gain, _ = im.spaces.gains_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(a.line_.get_xdata(), rate)
    np.testing.assert_array_equal(a.line_.get_ydata(), gain)
    b = GainsDisplay.from_predictions(y, -s, sample_weight=w, name="b").plot(ax=a.ax_, color="red", linestyle="--")
    labels = [line.get_label() for line in a.ax_.get_lines()]
    assert labels.count("random") == 1 and sum(lab.startswith("perfect") for lab in labels) == 1
    assert b.line_.get_color() == "red" and b.line_.get_linestyle() == "--" and b.figure_ is a.figure_
    perfect = next(line for line in a.ax_.get_lines() if line.get_label().startswith("perfect"))
    assert perfect.get_xdata()[1] == pytest.approx(np.average(y, weights=w))
    assert "shape=(" in repr(a) and len(repr(a)) < 400


def test_lift_display_and_from_estimator(data):
    y, s, _ = data
    X = np.column_stack([s, np.sin(s)])
    model = LogisticRegression().fit(X, y)
    a = LiftDisplay.from_estimator(model, X, y, name="logreg").plot()
    rate, lift, _ = im.spaces.lift_curve(y, model.predict_proba(X)[:, 1])
    np.testing.assert_array_equal(a.line_.get_xdata(), rate)
    np.testing.assert_array_equal(a.line_.get_ydata(), lift)
    assert a.ax_.get_ylabel() == "lift (precision / prevalence)" and a.line_.get_label() == "logreg"
    g = GainsDisplay.from_estimator(model, X, y)
    np.testing.assert_array_equal(g.gain, im.spaces.gains_curve(y, model.predict_proba(X)[:, 1]).gain)


def test_displays_name_themselves_in_errors():
    with pytest.raises(im.IsometricsError, match="GainsDisplay.from_predictions: .*contains 1 NaN"):
        GainsDisplay.from_predictions([0, 1, 1], [0.1, np.nan, 0.3])
    with pytest.raises(im.IsometricsError, match="LiftDisplay.from_predictions is undefined when y_true has one"):
        LiftDisplay.from_predictions([1, 1, 1], [0.1, 0.2, 0.3])
