"""A complete command line (issue 13, item 6): multiclass and multilabel evaluation, compare with any
number of models and Holm-adjusted p-values, report --title and --ci, --version, 80-column tables,
and in-sample thresholds labelled as such (item 5).

References: scikit-learn's roc_auc_score (multi_class="ovr", average micro over an indicator
matrix), average_precision_score and f1_score; Holm's procedure written out by hand here.
"""

import json
import re

import numpy as np
import polars as pl
import pytest
from sklearn import metrics as skm
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import label_binarize
from typer.testing import CliRunner

import isometrics
from isometrics.cli.app import app

SPECIES = ["Adelie", "Chinstrap", "Gentoo"]


def invoke(*args, columns=400):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": str(columns)})


def ok(result):
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result.stdout


def error_line(result):
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("isometrics: error: "), result.stderr
    return lines[0]


@pytest.fixture(scope="module")
def penguins(tmp_path_factory):
    """A penguins-like frame: three species, a multinomial model's probabilities (held-out half), four binary
    scorers of 'Adelie vs the rest', and two 0/1 label columns for multilabel."""
    X, k = make_classification(
        n_samples=600, n_features=6, n_informative=4, n_classes=3, weights=[0.45, 0.2], class_sep=0.7, random_state=11
    )
    model = LogisticRegression(max_iter=1000).fit(X[:300], k[:300])
    proba = model.predict_proba(X[300:])
    k = k[300:]
    rng = np.random.default_rng(5)
    adelie = (k == 0).astype(int)
    frame = pl.DataFrame(
        {
            "species": np.array(SPECIES)[k],
            "code": k,
            **{name: proba[:, j] for j, name in enumerate(SPECIES)},
            **{f"p_{j}": proba[:, j] for j in range(3)},
            "m1": rng.normal(size=300) + 1.2 * adelie,
            "m2": rng.normal(size=300) + 0.8 * adelie,
            "m3": np.round(rng.normal(size=300) + 0.2 * adelie, 1),
            "m4": rng.normal(size=300) + 1.0 * adelie,
            "is_adelie": adelie,
            "is_big": ((k == 2) | (rng.random(300) < 0.1)).astype(int),
            "w": rng.random(300) + 0.5,
        }
    )
    d = tmp_path_factory.mktemp("complete")
    frame.write_csv(d / "penguins.csv")
    return d / "penguins.csv", frame


# ---------------------------------------------------------------------------- multiclass
def _f1_at_every_score(truth, score):
    """scikit-learn's F1 of the predictions ``score >= t`` at every distinct score ``t`` (a brute force over the
    thresholds), from one ``multilabel_confusion_matrix`` call whose column ``k`` holds the predictions at the
    ``k``-th score: 2 TP / (2 TP + FP + FN) of whole counts, the one rounding ``f1_score`` makes (rather than a
    ``f1_score`` call per threshold, 2 ms each)."""
    thresholds = np.unique(score)
    predicted = (score[:, None] >= thresholds[None, :]).astype(int)
    matrices = skm.multilabel_confusion_matrix(np.repeat(truth[:, None], len(thresholds), axis=1), predicted)
    tp, fp, fn = matrices[:, 1, 1], matrices[:, 0, 1], matrices[:, 1, 0]
    return 2 * tp / (2 * tp + fp + fn)


def test_multiclass_evaluation_matches_sklearn_ovr(penguins, tmp_path):
    path, frame = penguins
    out = tmp_path / "mc.json"
    text = ok(
        invoke(
            "evaluate",
            path,
            "--label",
            "species",
            *sum((["--score", s] for s in SPECIES), []),
            "--multiclass",
            "--metric",
            "f1",
            "--metric",
            "f2",
            "--json",
            out,
        )
    )
    y = frame["species"].to_numpy()
    proba = frame.select(SPECIES).to_numpy()
    payload = json.loads(out.read_text())
    assert payload["mode"] == "multiclass" and payload["classes"] == SPECIES
    for average in ("macro", "weighted"):
        expected = skm.roc_auc_score(y, proba, multi_class="ovr", average=average, labels=SPECIES)
        assert payload["averages"][average]["auroc"] == pytest.approx(expected, rel=1e-12)
    indicator = label_binarize(y, classes=SPECIES)
    assert payload["averages"]["micro"]["auroc"] == pytest.approx(
        skm.roc_auc_score(indicator, proba, average="micro"), rel=1e-12
    )
    for average in ("macro", "weighted", "micro"):
        assert payload["averages"][average]["average_precision"] == pytest.approx(
            skm.average_precision_score(indicator, proba, average=average), rel=1e-12
        )
    for j, row in enumerate(payload["per_class"]):
        assert row["class"] == SPECIES[j] and row["score"] == SPECIES[j]
        assert row["auroc"] == pytest.approx(skm.roc_auc_score(indicator[:, j], proba[:, j]), rel=1e-12)
        assert row["support"] == indicator[:, j].sum()
        best = row["best_thresholds"][0]
        predicted = proba[:, j] >= best["threshold"]
        assert best["value"] == pytest.approx(skm.f1_score(indicator[:, j], predicted), rel=1e-12)
        # no threshold does better (brute force over every distinct score)
        every = _f1_at_every_score(indicator[:, j], proba[:, j])
        assert best["value"] >= max(every)
        assert list(every[np.unique(proba[:, j]) == best["threshold"]]) == [skm.f1_score(indicator[:, j], predicted)]
    assert "macro avg" in text and "micro avg" in text and "Gentoo" in text
    assert "Best threshold per class for F2 (chosen on these data: optimistic)" in text


def test_multiclass_with_class_names_for_other_columns_and_integer_labels(penguins):
    path, frame = penguins
    text = ok(
        invoke(
            "evaluate",
            path,
            "--label",
            "code",
            "--score",
            "p_0",
            "--score",
            "p_1",
            "--score",
            "p_2",
            "--class",
            "0",
            "--class",
            "1",
            "--class",
            "2",
            "--multiclass",
            "--json",
            "-",
        )
    )
    payload = json.loads(text)
    expected = skm.roc_auc_score(
        frame["code"].to_numpy(), frame.select(["p_0", "p_1", "p_2"]).to_numpy(), multi_class="ovr"
    )
    assert payload["classes"] == [0, 1, 2] and payload["averages"]["macro"]["auroc"] == pytest.approx(expected)


def test_multiclass_weights_are_threaded(penguins):
    path, frame = penguins
    payload = json.loads(
        ok(
            invoke(
                "evaluate",
                path,
                "--label",
                "species",
                *sum((["--score", s] for s in SPECIES), []),
                "--multiclass",
                "--weight",
                "w",
                "--json",
                "-",
            )
        )
    )
    y, w = frame["species"].to_numpy(), frame["w"].to_numpy()
    for j, row in enumerate(payload["per_class"]):
        expected = skm.roc_auc_score(y == SPECIES[j], frame[SPECIES[j]].to_numpy(), sample_weight=w)
        assert row["auroc"] == pytest.approx(expected, rel=1e-12)


def test_multiclass_intervals_are_each_class_against_the_rest(penguins):
    path, frame = penguins
    result = invoke(
        "evaluate",
        path,
        "--label",
        "species",
        *sum((["--score", s] for s in SPECIES), []),
        "--multiclass",
        "--ci",
        "--n-resamples",
        40,
        "--seed",
        2,
        "--metric",
        "f2",
        "--json",
        "-",
    )
    payload = json.loads(ok(result))
    y = frame["species"].to_numpy()
    for j, row in enumerate(payload["per_class"]):
        [alone] = isometrics.evaluate_scores(
            y == SPECIES[j], {SPECIES[j]: frame[SPECIES[j]].to_numpy()}, metrics=["f2"], n_resamples=40, rng=2
        )
        for key in ("auroc", "average_precision", "auprg", "fbeta(beta=2)"):
            interval = row["confidence_intervals"][key]
            assert (interval["low"], interval["high"]) == alone.intervals[key].confidence_interval
        assert interval["low"] <= row["best_thresholds"][0]["value"] <= interval["high"]
    assert "the averages have none" in result.stderr


def test_pos_label_on_three_classes_is_one_against_the_rest(penguins, tmp_path):
    path, frame = penguins
    out = tmp_path / "adelie.json"
    text = ok(
        invoke("evaluate", path, "--label", "species", "--score", "Adelie", "--pos-label", "Adelie", "--json", out)
    )
    payload = json.loads(out.read_text())
    y = frame["species"].to_numpy() == "Adelie"
    assert payload["results"][0]["auroc"] == pytest.approx(skm.roc_auc_score(y, frame["Adelie"].to_numpy()))
    assert payload["pos_label"] == "Adelie" and payload["one_vs_rest"] is True
    assert "positive = 'Adelie' vs the rest" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (["--score", "Adelie"], "label column 'species' has 3 classes (Adelie, Chinstrap, Gentoo); give --multiclass"),
        (
            ["--score", "Adelie", "--score", "Gentoo", "--multiclass"],
            "label column 'species' has classes with no --score column: Chinstrap",
        ),
        (
            ["--score", "p_0", "--score", "p_1", "--score", "p_2", "--multiclass"],
            "score column 'p_0' is not a class of label column 'species'",
        ),
        (
            [*sum((["--score", s] for s in SPECIES), []), "--multilabel", "--report", "r.html"],
            "--multilabel evaluates every class against the rest and does not take --report",
        ),
        ([*sum((["--score", s] for s in SPECIES), []), "--multiclass", "--multilabel"], "exclude each other"),
        (["--score", "Adelie", "--class", "Adelie"], "--class names the class of each --score column"),
    ],
)
def test_multiclass_errors_speak_the_command_line(penguins, args, message):
    path, _ = penguins
    line = error_line(invoke("evaluate", path, "--label", "species", *args))
    assert message in line and "y_true" not in line


def test_multilabel_matches_sklearn(penguins):
    path, frame = penguins
    payload = json.loads(
        ok(
            invoke(
                "evaluate",
                path,
                "--multilabel",
                "--label",
                "is_adelie",
                "--label",
                "is_big",
                "--score",
                "Adelie",
                "--score",
                "Gentoo",
                "--json",
                "-",
            )
        )
    )
    Y = frame.select(["is_adelie", "is_big"]).to_numpy()
    S = frame.select(["Adelie", "Gentoo"]).to_numpy()
    assert payload["mode"] == "multilabel" and payload["classes"] == ["is_adelie", "is_big"]
    for average in ("macro", "weighted", "micro"):
        assert payload["averages"][average]["auroc"] == pytest.approx(skm.roc_auc_score(Y, S, average=average))
    line = error_line(invoke("evaluate", path, "--multilabel", "--label", "species", "--score", "Adelie"))
    assert "--multilabel needs 0/1 (or true/false) label columns; column 'species' holds" in line


# ---------------------------------------------------------------------------- compare with Holm
def _holm_by_hand(p):
    """Holm (1979): sort ascending, multiply the i-th smallest (from 0) by m - i, cap at 1, running maximum."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adjusted, running = [0.0] * m, 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def test_four_model_compare_with_holm(penguins):
    path, frame = penguins
    models = ["m1", "m2", "m3", "m4"]
    text = ok(
        invoke(
            "compare",
            path,
            "--label",
            "is_adelie",
            *sum((["--score", m] for m in models), []),
            "--metric",
            "f1",
            "--n-resamples",
            199,
            "--seed",
            3,
            "--json",
            "-",
        )
    )
    payload = json.loads(text)
    pairs = [(c["a"], c["b"]) for c in payload["comparisons"] if c["statistic"] == "auroc"]
    assert pairs == [("m1", "m2"), ("m1", "m3"), ("m1", "m4"), ("m2", "m3"), ("m2", "m4"), ("m3", "m4")]
    y = frame["is_adelie"].to_numpy()
    for c in payload["comparisons"]:
        if c["statistic"] == "auroc":
            expected = skm.roc_auc_score(y, frame[c["a"]].to_numpy()) - skm.roc_auc_score(y, frame[c["b"]].to_numpy())
            assert c["difference"] == pytest.approx(expected, rel=1e-12)
    for key in ("auroc", "average_precision", "auprg", "f1"):
        rows = [c for c in payload["comparisons"] if c["statistic"] == key]
        assert len(rows) == 6 and all(c["adjustment"] == "holm" and c["n_tests"] == 6 for c in rows)
        holm = [c["adjusted_p_value"] for c in rows]
        assert holm == pytest.approx(_holm_by_hand([c["p_value"] for c in rows]), rel=1e-12)
        for c in rows:  # the decision is the adjusted one
            assert (c["decision"] == "no detectable difference") == (c["adjusted_p_value"] > 0.05)
    raw = [c["p_value"] for c in payload["delong"]]
    assert [c["adjusted_p_value"] for c in payload["delong"]] == pytest.approx(_holm_by_hand(raw))


def test_compare_against_a_baseline(penguins):
    path, _ = penguins
    result = invoke(
        "compare",
        path,
        "--label",
        "is_adelie",
        "--score",
        "m1",
        "--score",
        "m2",
        "--score",
        "m3",
        "--baseline",
        "m3",
        "--n-resamples",
        50,
        "--seed",
        0,
    )
    text = ok(result)
    assert "m1 - m3" in text and "m2 - m3" in text and "m1 - m2" not in text and "Holm p" in text
    assert "Holm CI low" in text and "decision" in text
    assert "adjusted over its 2 pairs" in text
    line = error_line(
        invoke("compare", path, "--label", "is_adelie", "--score", "m1", "--score", "m2", "--baseline", "m4")
    )
    assert "--baseline 'm4' is not one of the --score columns (m1, m2)" in line


# ---------------------------------------------------------------------------- version, report, labels
def test_version():
    assert ok(invoke("--version")).strip() == f"isometrics {isometrics.__version__}"


def test_report_title_and_intervals(penguins, tmp_path):
    path, _ = penguins
    out = tmp_path / "r.html"
    ok(
        invoke(
            "report",
            path,
            "--label",
            "is_adelie",
            "--score",
            "m1",
            "--score",
            "m2",
            "--metric",
            "f1",
            "--metric",
            "f2",
            "--ci",
            "--n-resamples",
            40,
            "--seed",
            1,
            "--title",
            "Penguins <b>&</b> models",
            "-o",
            out,
        )
    )
    page = out.read_text()
    assert "<title>Penguins &lt;b&gt;&amp;&lt;/b&gt; models</title>" in page
    assert page.count("best threshold (chosen on these data: optimistic)") == 2  # one table per metric
    assert "re-optimised in every replicate" in page
    # values with their intervals, written as the terminal writes them (isometrics.uncertainty.formatting)
    assert re.search(r"0\.\d{4} \[0\.\d{3}, 0\.\d{3}\]", page)


def test_evaluate_labels_in_sample_thresholds_and_reoptimised_intervals(penguins):
    path, _ = penguins
    text = ok(
        invoke(
            "evaluate",
            path,
            "--label",
            "is_adelie",
            "--score",
            "m1",
            "--metric",
            "f2",
            "--ci",
            "--n-resamples",
            30,
            "--seed",
            0,
        )
    )
    assert "Best threshold for F2 (chosen on these data: optimistic)" in text
    assert "a metric's interval is that of its re-optimised best threshold" in text


def test_help_documents_the_new_flags():
    evaluate = ok(invoke("evaluate", "--help"))
    for flag in ("--multiclass", "--multilabel", "--class"):
        assert flag in evaluate
    assert "--baseline" in ok(invoke("compare", "--help"))
    assert "--title" in ok(invoke("report", "--help"))
    assert "--version" in ok(invoke("--help"))


@pytest.mark.parametrize(
    "args",
    [
        ["evaluate", "--label", "is_adelie", "--score", "m1", "--metric", "f2"],  # narrow tables, long titles
        [
            "evaluate",
            "--label",
            "is_adelie",
            "--score",
            "m1",
            "--score",
            "m2",
            "--metric",
            "f2",
            "--metric",
            "g(beta=2, rho=-3)",
            "--ci",
            "--n-resamples",
            20,
            "--seed",
            0,
        ],
        ["evaluate", "--label", "species", *sum((["--score", s] for s in SPECIES), []), "--multiclass"],
        [
            "compare",
            "--label",
            "is_adelie",
            "--score",
            "m1",
            "--score",
            "m2",
            "--score",
            "m3",
            "--score",
            "m4",
            "--n-resamples",
            20,
            "--seed",
            0,
        ],
        ["compare", "--label", "is_adelie", "--score", "m1", "--score", "m2", "--n-resamples", 20, "--seed", 0],
    ],
)
def test_tables_fit_80_columns_and_titles_stay_whole(penguins, args):
    path, _ = penguins
    text = ok(invoke(args[0], path, *args[1:], columns=80))
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    titles = [line.strip() for line, below in zip(lines, lines[1:]) if below.startswith("┏")]
    assert titles, text
    for title in titles:  # a title is one line: its phrase is not split across lines (nothing but a border below)
        assert not title.endswith(("(", ",", "for", "per")), title
        assert title.count("(") == title.count(")"), title
    if args[0] == "evaluate" and "--multiclass" not in args:
        assert "Best threshold for F2 (chosen on these data: optimistic)" in titles
        assert "penguins.csv: 300 rows, label 'is_adelie' (positive = 1)" in titles


def test_multiclass_score_columns_are_checked_by_name(penguins, tmp_path):
    _, frame = penguins
    bad = frame.with_columns(
        pl.when(pl.int_range(pl.len()) == 5).then(float("nan")).otherwise(pl.col("Gentoo")).alias("Gentoo")
    )
    bad.write_parquet(tmp_path / "nan.parquet")
    line = error_line(
        invoke(
            "evaluate",
            tmp_path / "nan.parquet",
            "--label",
            "species",
            *sum((["--score", s] for s in SPECIES), []),
            "--multiclass",
        )
    )
    assert "score column 'Gentoo' contains 1 NaN value (first at index 5)" in line


def test_compare_says_who_is_ahead_in_a_sentence(penguins):
    """The README's promise: compare prints "A beats B on <statistic> by <difference>, 95 % CI ..." when
    the interval excludes 0, and "no detectable difference" when it covers 0."""
    path, frame = penguins
    y = frame["is_adelie"].to_numpy()
    # m2 is the weaker scorer: listed first, the sentence must still name m1 as the one ahead
    text = ok(
        invoke(
            "compare",
            path,
            "--label",
            "is_adelie",
            "--score",
            "m2",
            "--score",
            "m1",
            "--metric",
            "f1",
            "--n-resamples",
            199,
            "--seed",
            3,
        )
    )
    gap = skm.roc_auc_score(y, frame["m1"].to_numpy()) - skm.roc_auc_score(y, frame["m2"].to_numpy())
    assert gap > 0.05
    match = re.search(r"m1 beats m2 on AUROC by (\d\.\d{4}) \(95 % CI (-?\d\.\d{4}) to (-?\d\.\d{4}); p = ", text)
    assert match, text
    assert float(match.group(1)) == pytest.approx(gap, abs=5e-5)
    assert float(match.group(2)) > 0 and float(match.group(3)) >= float(match.group(1))
    # the sentence's other cases (no difference, lower is better) are the result's: tests/uncertainty
