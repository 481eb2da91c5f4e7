"""One-vs-rest curves and areas against scikit-learn; averaged curves; the per-class metric report."""

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.preprocessing import label_binarize

import isometrics as im


@pytest.fixture
def multiclass(rng):
    n, k = 600, 4
    y = rng.integers(0, k, size=n)
    logits = rng.normal(size=(n, k)) + 1.5 * np.eye(k)[y]
    proba = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    return y, np.round(proba, 3), rng.random(n) + 0.5


@pytest.mark.parametrize("weighted", [False, True])
def test_areas_match_sklearn(multiclass, weighted):
    y, p, w = multiclass
    w = w if weighted else None
    ovr = im.one_vs_rest(y, p, sample_weight=w)
    Y = label_binarize(y, classes=[0, 1, 2, 3])
    # scikit-learn's one-vs-rest average is the average over the binarised columns (the rounded
    # probabilities, kept for their ties, no longer sum to 1, so its multi_class="ovr" path refuses them)
    for average in ("macro", "weighted"):
        assert ovr.auroc(average=average) == pytest.approx(
            skm.roc_auc_score(Y, p, average=average, sample_weight=w), rel=1e-12
        )
    for average in ("macro", "weighted", "micro", None):
        np.testing.assert_allclose(
            ovr.average_precision(average=average),
            skm.average_precision_score(Y, p, average=average, sample_weight=w),
            rtol=1e-12,
        )
    assert ovr.auroc(average="micro") == pytest.approx(
        skm.roc_auc_score(Y, p, average="micro", sample_weight=w), rel=1e-12
    )
    np.testing.assert_allclose(
        ovr.auroc(average=None), [skm.roc_auc_score(Y[:, k], p[:, k], sample_weight=w) for k in range(4)], rtol=1e-12
    )


def test_multilabel_indicator_input(rng):
    Y = (rng.random((300, 3)) < 0.3).astype(int)
    Y[0], Y[1] = 1, 0
    p = np.round(rng.random((300, 3)) * 0.5 + 0.5 * Y, 2)
    ovr = im.one_vs_rest(Y, p)
    assert ovr.auroc(average="macro") == pytest.approx(skm.roc_auc_score(Y, p, average="macro"), rel=1e-12)


def test_macro_roc_curve_is_the_mean_of_interpolated_class_curves(multiclass):
    y, p, _ = multiclass
    ovr = im.one_vs_rest(y, p)
    macro = ovr.macro_roc_curve()
    assert macro.fpr[0] == 0 and macro.tpr[0] == 0 and macro.tpr[-1] == pytest.approx(1.0)
    # independently: sklearn's per-class curves, walked segment by segment between breakpoints, averaged
    from _naive import polyline_value

    full = [skm.roc_curve(y == k, p[:, k], drop_intermediate=False)[:2] for k in range(4)]
    breaks = np.unique(np.concatenate([f for f, _ in full]))
    x = (breaks[:-1] + breaks[1:]) / 2  # strictly between the breakpoints of every class
    expected = np.mean([[polyline_value(v, f.tolist(), t.tolist()) for v in x] for f, t in full], axis=0)
    ours = [polyline_value(v, macro.fpr.tolist(), macro.tpr.tolist()) for v in x]
    np.testing.assert_allclose(ours, expected, atol=1e-12)
    # the area of the mean curve is the mean of the areas
    trapezoid = float(np.sum(np.diff(macro.fpr) * (macro.tpr[1:] + macro.tpr[:-1]) / 2))
    assert trapezoid == pytest.approx(ovr.auroc(average="macro"), rel=1e-12)


def test_macro_pr_curve_and_per_class_thresholds(multiclass):
    y, p, _ = multiclass
    ovr = im.one_vs_rest(y, p)
    curve = ovr.macro_precision_recall_curve(n_points=11)
    assert curve.recall[0] == 0 and curve.recall[-1] == 1 and np.all((curve.precision >= 0) & (curve.precision <= 1))
    best = ovr.best_thresholds("f1")
    for k, b in enumerate(best):
        assert b.value == pytest.approx(im.best_threshold(y == k, p[:, k], metric="f1").value, rel=1e-12)


def test_metric_report_matches_prfs_and_hand_values(rng):
    yt = rng.integers(0, 3, size=400)
    yp = np.where(rng.random(400) < 0.6, yt, rng.integers(0, 3, size=400))
    w = rng.random(400) + 0.1
    report = im.metric_report(yt, yp, metrics=["precision", "recall", "f1"], sample_weight=w)
    p, r, f, s = skm.precision_recall_fscore_support(yt, yp, sample_weight=w)
    np.testing.assert_allclose(report.values, np.column_stack([p, r, f]), rtol=1e-12)
    np.testing.assert_allclose(report.support, s, rtol=1e-12)
    for average in ("macro", "weighted", "micro"):
        expected = skm.precision_recall_fscore_support(yt, yp, sample_weight=w, average=average)[:3]
        np.testing.assert_allclose(report.averages[average], expected, rtol=1e-12)
    text = report.to_text()
    assert "weighted avg" in text and "F1" in text
    assert set(report.to_dict()) == {"0", "1", "2", "micro avg", "macro avg", "weighted avg"}


def test_metric_report_zero_division():
    with pytest.warns(im.UndefinedMetricWarning, match="precision ill-defined"):
        report = im.metric_report([0, 1, 1], [0, 0, 0], metrics=["precision"])
    assert report.values[1, 0] == 0.0
    report = im.metric_report([0, 1, 1], [0, 0, 0], metrics=["precision"], zero_division=1.0)
    assert report.values[1, 0] == 1.0


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: im.one_vs_rest([0, 1, 2], [0.1, 0.2, 0.3]), r"y_score must be 2-D"),
        (lambda: im.one_vs_rest([0, 1, 2], np.eye(3)[:, :2]), r"y_score has 2 columns but there are 3 classes"),
        (lambda: im.one_vs_rest([0, 1, 1], np.eye(3), classes=[0, 1, 2]), r"class 2 has no sample of it"),
        (lambda: im.one_vs_rest([0, 1, 5], np.eye(3), classes=[0, 1, 2]), r"labels \[5\] that are not in classes"),
        (lambda: im.one_vs_rest(np.eye(3), np.eye(3)).auroc(average="samples"), r"`average` must be one of"),
    ],
)
def test_multiclass_errors(call, match):
    with pytest.raises((im.IsometricsError, im.InvalidParameterError), match=match):
        call()


@pytest.mark.parametrize("library", ["pandas", "polars", "pyarrow"])
def test_a_data_frame_of_class_columns_names_the_classes(library):
    """Columns named by the labels, in any order, score those classes (issue 13, item 1)."""
    frames = {
        "pandas": pytest.importorskip("pandas").DataFrame,
        "polars": pytest.importorskip("polars").DataFrame,
        "pyarrow": pytest.importorskip("pyarrow").table,
    }
    from sklearn.metrics import roc_auc_score

    rng = np.random.default_rng(4)
    y = rng.choice(["cat", "dog", "emu"], 300)
    proba = rng.dirichlet([1, 1, 1], 300)
    proba[:, 1] += 0.4 * (y == "dog")
    order = ["emu", "cat", "dog"]
    frame = frames[library]({name: proba[:, ["cat", "dog", "emu"].index(name)] for name in order})
    ovr = im.one_vs_rest(y, frame)
    assert ovr.classes.tolist() == order
    expected = [roc_auc_score(y == name, proba[:, ["cat", "dog", "emu"].index(name)]) for name in order]
    np.testing.assert_allclose(ovr.auroc(average=None), expected, rtol=1e-12)
    # columns that are not the labels: the sorted labels, as for an array
    other = frames[library]({f"p{k}": proba[:, k] for k in range(3)})
    assert im.one_vs_rest(y, other).classes.tolist() == ["cat", "dog", "emu"]
