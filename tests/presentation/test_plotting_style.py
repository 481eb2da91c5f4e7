"""Displays people reuse: matplotlib keyword arguments reach the curve's Line2D, the legend
names each model with its area (computed here independently), shared elements are drawn
once per axes, and from_estimator takes the positive class from classes_."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from _naive import exact_auprg  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import RocCurveDisplay, average_precision_score, roc_auc_score  # noqa: E402
from sklearn.svm import LinearSVC  # noqa: E402

import isometrics as im  # noqa: E402
from isometrics.plotting import (  # noqa: E402
    MetricCurveDisplay,
    PrecisionRecallDisplay,
    PrgDisplay,
    RocDisplay,
)

CURVES = [RocDisplay, PrecisionRecallDisplay, PrgDisplay]


@pytest.fixture(autouse=True)
def close():
    yield
    plt.close("all")


@pytest.fixture
def data(rng):
    y = (rng.random(300) < 0.3).astype(int)
    s = rng.normal(size=300) + 1.2 * y
    return y, s


def _legend(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


# ---------------------------------------------------------------------------- keyword arguments
@pytest.mark.parametrize("cls", CURVES + [MetricCurveDisplay])
def test_keyword_arguments_reach_the_curve(cls, data):
    y, s = data
    extra = {} if cls is MetricCurveDisplay else {"metric": "f1"}
    display = cls.from_predictions(y, s, name="m", color="red", linestyle="--", linewidth=3, alpha=0.5, **extra).plot()
    line = display.line_
    assert to_rgba(line.get_color()) == to_rgba("red")
    assert line.get_linestyle() == "--" and line.get_linewidth() == 3 and line.get_alpha() == 0.5
    if cls is not MetricCurveDisplay:  # the model's hull and best point follow its colour
        assert to_rgba(display.hull_line_.get_color()) == to_rgba("red")
        assert to_rgba(display.best_marker_.get_color()) == to_rgba("red")
    # given again to plot: plot's win; label replaces the legend text
    again = display.plot(ax=plt.subplots()[1], color="tab:green", label="my words")
    assert to_rgba(again.line_.get_color()) == to_rgba("tab:green") and again.line_.get_linewidth() == 3
    assert again.line_.get_label() == "my words" and _legend(again.ax_)[0] == "my words"


def test_keyword_arguments_pass_through_from_estimator(data):
    y, s = data
    X = np.column_stack([s, np.cos(s)])
    model = LogisticRegression().fit(X, y)
    display = RocDisplay.from_estimator(model, X, y, name="logreg", color="purple", linestyle=":").plot()
    assert to_rgba(display.line_.get_color()) == to_rgba("purple") and display.line_.get_linestyle() == ":"
    assert display.name == "logreg"


def test_a_bad_keyword_is_matplotlibs_error(data):
    y, s = data
    with pytest.raises(AttributeError, match="no_such_property"):
        RocDisplay.from_predictions(y, s, no_such_property=1).plot()


# ---------------------------------------------------------------------------- legend texts
def test_legend_names_each_model_with_its_area(data, rng):
    y, s = data
    other = s + rng.normal(scale=2, size=len(s))
    _, ax = plt.subplots()
    RocDisplay.from_predictions(y, s, name="a").plot(ax=ax)
    RocDisplay.from_predictions(y, other, name="b").plot(ax=ax)
    texts = _legend(ax)
    assert texts[:2] == [f"a (AUROC = {roc_auc_score(y, s):.3f})", f"b (AUROC = {roc_auc_score(y, other):.3f})"]
    pr = PrecisionRecallDisplay.from_predictions(y, s, name="a").plot()
    assert _legend(pr.ax_)[0] == f"a (AP = {average_precision_score(y, s):.3f})"
    prg = PrgDisplay.from_predictions(y, s, name="a").plot()
    assert _legend(prg.ax_)[0] == f"a (AUPRG = {float(exact_auprg(y, s)):.3f})"
    unnamed = RocDisplay.from_predictions(y, s).plot()
    assert _legend(unnamed.ax_)[0] == f"AUROC = {roc_auc_score(y, s):.3f}"
    best = im.best_threshold(y, s, metric="f2")
    metric = MetricCurveDisplay.from_predictions(y, s, metric="f2", name="a").plot()
    assert _legend(metric.ax_) == [f"a (best {best.value:.3f} at {best.threshold:.3g})"]


# ---------------------------------------------------------------------------- drawn once per axes
@pytest.mark.parametrize(
    "cls, reference",
    [(RocDisplay, "chance"), (PrecisionRecallDisplay, "prevalence"), (PrgDisplay, "F1 of always-positive")],
)
def test_three_models_share_one_reference_and_a_short_legend(cls, reference, data, rng):
    """Three models with F1 on one axes: one reference line, one set of level curves, one
    legend entry for the hulls and one for the best points; the models come first."""
    y, s = data
    _, ax = plt.subplots()
    for k in range(3):
        cls.from_predictions(y, s + rng.normal(scale=0.5 + k, size=len(s)), name=f"m{k}", metric="f1").plot(ax=ax)
    references = [line for line in ax.get_lines() if line.get_label().startswith(reference)]
    assert len(references) == 1
    texts = _legend(ax)
    assert [t.split(" (")[0] for t in texts[:3]] == ["m0", "m1", "m2"]
    assert len(texts) == 3 + 4  # the reference, the hulls, the best points, the isometrics
    assert sum(t == "F1 isometrics" for t in texts) == 1 and sum(t == "best F1" for t in texts) == 1
    level_lines = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
    assert len(level_lines) == 4  # the default four levels, once
    # the shared elements leave matplotlib's colour cycle to the models: C0, C1, C2
    models = [line for line in ax.get_lines() if line.get_label().startswith("m")]
    assert [to_rgba(line.get_color()) for line in models] == [to_rgba(f"C{k}") for k in range(3)]


def test_cleared_axes_draw_the_reference_again(data):
    y, s = data
    _, ax = plt.subplots()
    RocDisplay.from_predictions(y, s).plot(ax=ax)
    ax.cla()
    RocDisplay.from_predictions(y, s).plot(ax=ax)
    assert [line.get_label() for line in ax.get_lines()].count("chance") == 1


def test_chance_false_draws_none_and_a_later_display_can(data):
    y, s = data
    _, ax = plt.subplots()
    RocDisplay.from_predictions(y, s).plot(ax=ax, chance=False)
    assert "chance" not in [line.get_label() for line in ax.get_lines()]
    RocDisplay.from_predictions(y, s).plot(ax=ax)
    assert [line.get_label() for line in ax.get_lines()].count("chance") == 1


# ---------------------------------------------------------------------------- estimators with string labels
@pytest.fixture
def strings(rng):
    n = 400
    X = rng.normal(size=(n, 2))
    y = np.where(X[:, 0] + 0.8 * rng.normal(size=n) > 0.4, "yes", "no")
    return X, y


@pytest.mark.parametrize("cls", CURVES + [MetricCurveDisplay])
def test_from_estimator_takes_the_positive_class_from_classes(cls, strings):
    """classes_ = ['no', 'yes']: the positive class is 'yes' (classes_[1]) as in scikit-learn,
    whose own Display gives the same area."""
    X, y = strings
    model = LogisticRegression().fit(X, y)
    display = cls.from_estimator(model, X, y)
    expected = cls.from_predictions(y, model.predict_proba(X)[:, 1], pos_label="yes")
    for name in ("tpr", "precision", "precision_gain", "values"):
        if hasattr(display, name):
            np.testing.assert_array_equal(getattr(display, name), getattr(expected, name))
    if cls is RocDisplay:
        assert display.auroc == pytest.approx(RocCurveDisplay.from_estimator(model, X, y).roc_auc, abs=1e-12)
        plt.close("all")


@pytest.mark.parametrize("model", [LogisticRegression(), LinearSVC()], ids=["predict_proba", "decision_function"])
def test_from_estimator_pos_label_among_classes(model, strings):
    """pos_label='no' (classes_[0]): its probability column, or the decision function negated."""
    X, y = strings
    model.fit(X, y)
    display = RocDisplay.from_estimator(model, X, y, pos_label="no")
    if hasattr(model, "predict_proba"):
        reference = roc_auc_score(y == "no", model.predict_proba(X)[:, 0])
    else:
        reference = roc_auc_score(y == "no", -model.decision_function(X))
    assert display.auroc == pytest.approx(reference, abs=1e-12)
    assert display.auroc > 0.5  # scores for 'no' rank the 'no' rows first


def test_from_estimator_refuses_a_label_not_in_classes(strings):
    X, y = strings
    model = LogisticRegression().fit(X, y)
    with pytest.raises(
        im.InvalidParameterError,
        match=r"RocDisplay.from_estimator: `pos_label` must be one of the estimator's classes_ "
        r"\['no', 'yes'\]; got 'maybe'",
    ):
        RocDisplay.from_estimator(model, X, y, pos_label="maybe")
