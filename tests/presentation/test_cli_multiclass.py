"""Multiclass on the command line (issue 20, item 7): the argmax confusion matrix and its scores in
``evaluate --multiclass``, ``report --multiclass`` (the command the 3-class hint names), and
``--scores PATTERN`` for many score columns at once.

References: scikit-learn's confusion_matrix, accuracy_score, balanced_accuracy_score and f1_score
(macro, weighted) on the argmax prediction formed here with numpy.argmax (first column on ties).
"""

import json
import re
from html.parser import HTMLParser

import numpy as np
import polars as pl
import pytest
from _browser import needs_browser
from _cli import run_in_process as run  # the tests of what commands print and write; not of the process
from sklearn import metrics as skm
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression

from isometrics.report import _bundle, build_multiclass_report

SPECIES = ["Adelie", "Chinstrap", "Gentoo"]


@pytest.fixture(scope="module")
def penguins(tmp_path_factory):
    """Three species, a multinomial model's probabilities rounded to one decimal (so rows have tied top
    scores, and the tie-break matters), the same columns as p_<species>, two binary scorers and weights."""
    X, k = make_classification(
        n_samples=800, n_features=6, n_informative=4, n_classes=3, weights=[0.45, 0.2], class_sep=0.8, random_state=3
    )
    proba = LogisticRegression(max_iter=1000).fit(X[:400], k[:400]).predict_proba(X[400:]).round(1)
    k = k[400:]
    rng = np.random.default_rng(7)
    frame = pl.DataFrame(
        {
            "species": np.array(SPECIES)[k],
            **{name: proba[:, j] for j, name in enumerate(SPECIES)},
            **{f"p_{name}": proba[:, j] for j, name in enumerate(SPECIES)},
            "m1": rng.normal(size=400) + 1.2 * (k == 0),
            "m2": rng.normal(size=400) + 0.6 * (k == 0),
            "is_adelie": (k == 0).astype(int),
            "w": rng.random(400) + 0.5,
        }
    )
    path = tmp_path_factory.mktemp("multiclass") / "penguins.csv"
    frame.write_csv(path)
    return path, frame


def ok(result):
    assert result.returncode == 0, (result.stdout, result.stderr)
    return result.stdout


def error_line(result):
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("isometrics: error: "), result.stderr
    return lines[0]


def _argmax(frame, columns):
    scores = frame.select(columns).to_numpy()
    return np.array(SPECIES)[np.argmax(scores, axis=1)]  # numpy: the first of tied columns


# ---------------------------------------------------------------------------- evaluate --multiclass
@pytest.mark.parametrize("weighted", [False, True])
def test_evaluate_multiclass_argmax_matches_sklearn(penguins, weighted):
    path, frame = penguins
    y = frame["species"].to_numpy()
    scores = frame.select(SPECIES).to_numpy()
    tied = (scores == scores.max(axis=1, keepdims=True)).sum(axis=1) > 1
    assert tied.sum() > 10  # the tie-break is exercised
    predicted = _argmax(frame, SPECIES)
    w = frame["w"].to_numpy() if weighted else None
    extra = ["--weight", "w"] if weighted else []
    text = ok(
        run(
            "evaluate",
            path,
            "--label",
            "species",
            *sum((["--score", s] for s in SPECIES), []),
            "--multiclass",
            *extra,
            "--json",
            "-",
        )
    )
    payload = json.loads(text)
    argmax = payload["argmax"]
    assert set(argmax) >= {
        "prediction",
        "tie_break",
        "labels",
        "confusion_matrix",
        "accuracy",
        "balanced_accuracy",
        "f1_macro",
        "f1_weighted",
        "per_class",
    }
    assert argmax["labels"] == SPECIES and argmax["tie_break"] == "first column"
    assert np.allclose(
        argmax["confusion_matrix"], skm.confusion_matrix(y, predicted, labels=SPECIES, sample_weight=w), rtol=1e-12
    )
    assert argmax["accuracy"] == pytest.approx(skm.accuracy_score(y, predicted, sample_weight=w), rel=1e-12)
    assert argmax["balanced_accuracy"] == pytest.approx(
        skm.balanced_accuracy_score(y, predicted, sample_weight=w), rel=1e-12
    )
    for average in ("macro", "weighted"):
        expected = skm.f1_score(y, predicted, labels=SPECIES, average=average, sample_weight=w, zero_division=0)
        assert argmax[f"f1_{average}"] == pytest.approx(expected, rel=1e-12)
    per_class = skm.f1_score(y, predicted, labels=SPECIES, average=None, sample_weight=w, zero_division=0)
    assert [c["f1"] for c in argmax["per_class"]] == pytest.approx(per_class, rel=1e-12)


def test_evaluate_multiclass_prints_the_confusion_matrix(penguins):
    path, frame = penguins
    y = frame["species"].to_numpy()
    predicted = _argmax(frame, SPECIES)
    text = ok(
        run(
            "evaluate",
            path,
            "--label",
            "species",
            "--scores",
            "p_*",
            "--class",
            "Adelie",
            "--class",
            "Chinstrap",
            "--class",
            "Gentoo",
            "--multiclass",
        )
    )
    assert "Argmax prediction: confusion matrix (rows: true class, columns: predicted)" in text
    matrix = skm.confusion_matrix(y, predicted, labels=SPECIES)
    for name, row in zip(SPECIES, matrix):
        assert re.search(rf"│ {name}\s+│" + "".join(rf"\s+{v} │" for v in row), text), (name, row, text)
    f1 = skm.f1_score(y, predicted, average="macro")
    assert f"accuracy {skm.accuracy_score(y, predicted):.4f}" in text and f"macro F1 {f1:.4f}" in text
    assert "a tie goes to the first of the tied --score columns" in " ".join(text.split())


# ---------------------------------------------------------------------------- report --multiclass
class _Tables(HTMLParser):
    """Cells of every table by id, the ids of the figures' data blocks, and those blocks."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.tables, self.figures, self._table, self._cell, self._row, self._figure = {}, {}, None, None, None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "table":
            self._table = attrs.get("id")
            self.tables[self._table] = []
        elif tag == "tr" and self._table is not None:
            self._row = []
            self.tables[self._table].append(self._row)
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "script" and "data-figure" in attrs:
            self._figure = attrs["data-figure"]
            self.figures[self._figure] = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell.strip())
            self._cell = None
        elif tag == "table":
            self._table = None
        elif tag == "script":
            self._figure = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data
        if self._figure is not None:
            self.figures[self._figure] += data


def _check_page(page, frame, y_columns=SPECIES):
    parsed = _Tables(page)
    y = frame["species"].to_numpy()
    matrix = skm.confusion_matrix(y, _argmax(frame, y_columns), labels=SPECIES)
    rows = parsed.tables["confusion-matrix"]
    assert rows[0][1:4] == SPECIES
    for name, row, expected in zip(SPECIES, rows[1:4], matrix):
        assert row[0] == name and [int(c) for c in row[1:4]] == expected.tolist()
    assert [r[0] for r in parsed.tables["one-vs-rest"]][1:] == [
        *SPECIES,
        "macro average",
        "weighted average",
        "micro average",
    ]
    auroc = np.mean([skm.roc_auc_score(y == c, frame[col].to_numpy()) for c, col in zip(SPECIES, y_columns)])
    assert float(parsed.tables["one-vs-rest"][4][4]) == pytest.approx(auroc, abs=5e-5)
    assert sorted(parsed.figures) == ["panels-0", "panels-1", "panels-2"]  # one panel set per class
    for block in parsed.figures.values():
        types = {trace.get("type", "scatter") for trace in json.loads(block)["figure"]["data"]}
        assert types <= _bundle._TRACES  # the vendored bundle draws them (no heatmap there)
    summary = dict(parsed.tables["argmax-summary"][1:])
    assert float(summary["macro F1"]) == pytest.approx(
        skm.f1_score(y, _argmax(frame, y_columns), average="macro"), abs=5e-5
    )
    return parsed


def test_report_hint_on_three_classes_is_a_command_that_works(penguins, tmp_path):
    """`report` on a 3-class label says "give --multiclass ..."; doing what it says writes the multiclass page."""
    path, frame = penguins
    out = tmp_path / "r.html"
    args = ["report", path, "--label", "species", "--score", "Adelie", "-o", out]
    line = error_line(run(*args))
    assert "give --multiclass with one --score column per class" in line
    hinted = [*args[:4], "--multiclass", *sum((["--score", s] for s in SPECIES), []), "-o", out]
    text = ok(run(*hinted))
    # rich wraps at 80 columns: a long temporary path (xdist's popen-gwN) goes to the next line, or is folded
    assert f"Report:{out}" in "".join(text.split()) and "Argmax prediction" in text
    _check_page(out.read_text(), frame)


def test_report_multiclass_by_pattern_and_class_names(penguins, tmp_path):
    path, frame = penguins
    out = tmp_path / "p.html"
    ok(
        run(
            "report",
            path,
            "--label",
            "species",
            "--scores",
            "p_*",
            *sum((["--class", s] for s in SPECIES), []),
            "--multiclass",
            "--metric",
            "f1",
            "--metric",
            "f2",
            "-o",
            out,
            "--title",
            "Penguins <b>",
        )
    )
    page = out.read_text()
    parsed = _check_page(page, frame, [f"p_{s}" for s in SPECIES])
    assert "<title>Penguins &lt;b&gt;</title>" in page
    assert [r[1] for r in parsed.tables["one-vs-rest"][1:4]] == [f"p_{s}" for s in SPECIES]
    assert 'data-groups-of="panels-2"' in page  # a metric selector per class panel set


def test_evaluate_multiclass_report_writes_the_same_page(penguins, tmp_path):
    path, frame = penguins
    ok(
        run(
            "evaluate",
            path,
            "--label",
            "species",
            "--scores",
            "[ACG]*",
            "--multiclass",
            "--report",
            tmp_path / "e.html",
        )
    )
    _check_page((tmp_path / "e.html").read_text(), frame)


def test_library_entry_point_takes_a_data_frame(penguins):
    _, frame = penguins
    page = build_multiclass_report(frame["species"], frame.select(SPECIES), metrics=["f1"])
    parsed = _check_page(page, frame)
    assert [r[1] for r in parsed.tables["one-vs-rest"][1:4]] == SPECIES


@needs_browser
def test_multiclass_page_draws_in_a_real_browser(penguins, browser, tmp_path):
    """Every per-class panel set draws under the page's Content Security Policy, with no error or request."""
    _, frame = penguins
    out = tmp_path / "m.html"
    out.write_text(build_multiclass_report(frame["species"], frame.select(SPECIES), metrics=["f1", "f2"]))
    page = browser.new_page()
    errors, outside = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(out.as_uri())
    # a function, not a bare expression: Playwright polls an expression with eval, which the page's policy refuses
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length === 3", timeout=30_000)
    page.select_option("#panels-1-metric", "1")  # the second metric's level curves and best points
    groups = page.evaluate("JSON.parse(document.querySelector('[data-figure=panels-1]').textContent).groups")
    visible = page.evaluate("document.getElementById('panels-1').data.map(t => t.visible)")
    assert all(visible[i] is True for i in groups[1]) and all(visible[i] is False for i in groups[0])
    page.close()
    assert errors == [] and outside == []


# ---------------------------------------------------------------------------- --scores PATTERN
def test_scores_pattern_equals_the_explicit_list(penguins):
    path, _ = penguins
    explicit = ok(run("evaluate", path, "--label", "is_adelie", "--score", "m1", "--score", "m2", "--json", "-"))
    pattern = ok(run("evaluate", path, "--label", "is_adelie", "--scores", "m*", "--json", "-"))
    assert json.loads(pattern) == json.loads(explicit)
    compare = ["compare", path, "--label", "is_adelie", "--n-resamples", 30, "--seed", 1, "--json", "-"]
    assert json.loads(ok(run(*compare, "--scores", "m?"))) == json.loads(
        ok(run(*compare, "--score", "m1", "--score", "m2"))
    )
    # combined with --score: those first, then the matches in file order, each once
    mixed = json.loads(
        ok(
            run(
                "evaluate",
                path,
                "--label",
                "species",
                "--score",
                "p_Gentoo",
                "--scores",
                "p_*",
                "--class",
                "Gentoo",
                "--class",
                "Adelie",
                "--class",
                "Chinstrap",
                "--multiclass",
                "--json",
                "-",
            )
        )
    )
    assert [c["score"] for c in mixed["per_class"]] == ["p_Gentoo", "p_Adelie", "p_Chinstrap"]


def test_scores_pattern_never_matches_the_label_or_weight(penguins):
    path, frame = penguins
    payload = json.loads(
        ok(run("evaluate", path, "--label", "is_adelie", "--weight", "w", "--scores", "[mwi]*", "--json", "-"))
    )
    assert [r["score"] for r in payload["results"]] == ["m1", "m2"]


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["evaluate", "--label", "is_adelie", "--scores", "q_*"],
            "--scores 'q_*' matches no score column of 'penguins.csv' (columns: 'species', 'Adelie'",
        ),
        (["evaluate", "--label", "is_adelie", "--scores", "m*", "--scores", "P_*"], "--scores 'P_*' matches no"),
        (["report", "--label", "is_adelie", "--scores", "zz", "-o", "x.html"], "--scores 'zz' matches no"),
        (["compare", "--label", "is_adelie", "--scores", "zz"], "--scores 'zz' matches no"),
        (["evaluate", "--label", "is_adelie"], "no score column given; add --score COLUMN (repeatable) or --scores"),
        (
            ["evaluate", "--label", "species", "--scores", "[AG]*", "--multiclass"],
            "label column 'species' has classes with no --score column: Chinstrap",
        ),
        (
            ["report", "--label", "species", "--scores", "[AG]*", "--multiclass", "-o", "x.html"],
            "label column 'species' has classes with no --score column: Chinstrap",
        ),
        (
            ["report", "--label", "species", "--scores", "p_*", "--class", "Adelie", "-o", "x.html"],
            "--class names the class of each --score column with --multiclass",
        ),
        (
            ["report", "--label", "species", "--scores", "p_*", "--multiclass", "-o", "x.html"],
            "score column 'p_Adelie' is not a class of label column 'species'",
        ),
        (
            [
                "report",
                "--label",
                "species",
                "--scores",
                "[ACG]*",
                "--multiclass",
                "--pos-label",
                "Adelie",
                "-o",
                "x.html",
            ],
            "--multiclass evaluates every class against the rest and does not take --pos-label",
        ),
    ],
)
def test_pattern_and_multiclass_errors_are_one_line(penguins, tmp_path, args, message):
    path, _ = penguins
    line = error_line(run(args[0], path, *args[1:], cwd=tmp_path))
    assert message in line, line
    assert not (tmp_path / "x.html").exists()


def test_help_documents_scores_and_report_multiclass():
    assert "--scores" in ok(run("evaluate", "--help")) and "--scores" in ok(run("compare", "--help"))
    text = ok(run("report", "--help"))
    assert "--multiclass" in text and "--scores" in text and "--class" in text
