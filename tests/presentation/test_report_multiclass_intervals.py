"""Issue 25, check 6: the multiclass report (``report --multiclass``) shows each class's ROC/PR/PRG
panels, the argmax confusion matrix as a shaded table of counts, and per-class and averaged
measures with intervals (the averages' intervals were missing)."""

import re

import numpy as np
import pytest
from _report_data import figures as resolved_figures
from sklearn.metrics import accuracy_score, confusion_matrix, roc_auc_score

pytest.importorskip("plotly")
pytest.importorskip("jinja2")
from isometrics.report import build_multiclass_report  # noqa: E402


def _cells(page, table):
    body = re.search(rf'<table id="{table}">(.*?)</table>', page, re.S).group(1)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", body, re.S)]


@pytest.fixture(scope="module")
def three_classes():
    rng = np.random.default_rng(8)
    n = 600
    y = rng.choice(np.array(["a", "b", "c"]), size=n, p=[0.6, 0.3, 0.1])
    logits = rng.normal(size=(n, 3)) + 1.2 * (y[:, None] == np.array(["a", "b", "c"]))
    scores = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)  # probabilities, as scikit-learn wants
    page = build_multiclass_report(y, scores, classes=["a", "b", "c"], metrics=["f1"], n_resamples=200, rng=4)
    return y, scores, page


def test_averages_and_argmax_measures_have_the_bootstrap_intervals(three_classes):
    """Reference: the same row replicates (the seed's stream) scored by scikit-learn."""
    y, scores, page = three_classes
    rng = np.random.default_rng(4)
    macro, accuracy = [], []
    for _ in range(200):
        idx = rng.integers(0, len(y), len(y))
        macro.append(roc_auc_score(y[idx], scores[idx], multi_class="ovr", average="macro", labels=["a", "b", "c"]))
        accuracy.append(accuracy_score(y[idx], np.array(["a", "b", "c"])[scores[idx].argmax(axis=1)]))
    cells = _cells(page, "one-vs-rest")
    row = cells[cells.index("macro average") :][:7]
    estimate = roc_auc_score(y, scores, multi_class="ovr", average="macro")
    expected = f"{estimate:.4f} [{np.quantile(macro, 0.025):.3f}, {np.quantile(macro, 0.975):.3f}]"  # as in the CLI
    assert row[4] == expected
    summary = _cells(page, "argmax-summary")
    acc = accuracy_score(y, np.array(["a", "b", "c"])[scores.argmax(axis=1)])
    assert summary[summary.index("accuracy") + 1] == (
        f"{acc:.4f} [{np.quantile(accuracy, 0.025):.3f}, {np.quantile(accuracy, 0.975):.3f}]"
    )
    for name in ("weighted average", "micro average"):
        assert re.fullmatch(r"[\d.]+ \[[\d.]+, [\d.]+\]", cells[cells.index(name) + 4])


def test_confusion_heatmap_counts_and_per_class_panels(three_classes):
    y, scores, page = three_classes
    predicted = np.array(["a", "b", "c"])[scores.argmax(axis=1)]
    matrix = confusion_matrix(y, predicted, labels=["a", "b", "c"])
    cells = _cells(page, "confusion-matrix")
    for i, name in enumerate("abc"):
        start = cells.index(name, 5) + 1  # the row header, after the column headers
        assert [int(c) for c in cells[start : start + 3]] == matrix[i].tolist()
    assert len(re.findall(r'<td class="cell" style="background-color: rgba', page)) == 9
    figures = resolved_figures(page)
    assert sorted(figures) == ["panels-0", "panels-1", "panels-2"]
    for k in range(3):
        titles = [a["text"] for a in figures[f"panels-{k}"]["figure"]["layout"]["annotations"]]
        assert titles[:3] == ["ROC", "Precision-recall", "Precision-recall-gain"]
        roc = figures[f"panels-{k}"]["figure"]["data"][0]
        assert len(roc["x"]) > 10 and roc["x"][0] == 0.0 and roc["x"][-1] == 1.0
    one_vs_rest = _cells(page, "one-vs-rest")
    assert re.fullmatch(r"[\d.]+ \[[\d.]+, [\d.]+\]", one_vs_rest[one_vs_rest.index("a") + 4])  # per class
