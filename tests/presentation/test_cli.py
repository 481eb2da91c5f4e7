"""The command line, run as a user runs it (a subprocess), on CSV and Parquet files."""

import json
import subprocess
import sys

import numpy as np
import polars as pl
import pytest
from sklearn import metrics as skm


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "isometrics.cli", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(7)
    n = 2000
    y = (rng.random(n) < 0.1).astype(int)
    frame = pl.DataFrame({
        "y": y,
        "label_text": np.where(y == 1, "fraud", "ok"),
        "model_a": rng.normal(size=n) + 1.5 * y,
        "model_b": np.round(rng.normal(size=n) + y, 1),
        "w": rng.random(n) + 0.5,
        "bad": np.where(np.arange(n) == 5, np.nan, rng.random(n)),
        "<script>alert(1)</script>": rng.random(n),
    })
    d = tmp_path_factory.mktemp("cli")
    frame.write_parquet(d / "scores.parquet")
    frame.drop("label_text").write_csv(d / "scores.csv")
    return d, frame


@pytest.mark.parametrize("name", ["scores.parquet", "scores.csv"])
def test_evaluate_prints_and_writes_json_that_matches_sklearn(data, name):
    d, frame = data
    out = d / f"{name}.json"
    res = run("evaluate", d / name, "--label", "y", "--score", "model_a", "--score", "model_b",
              "--weight", "w", "--metric", "f1", "--metric", "g(beta=2, rho=-3)", "--json", out)
    assert res.returncode == 0, res.stderr
    assert "AUROC" in res.stdout and "model_b" in res.stdout and "Best threshold for F1" in res.stdout
    payload = json.loads(out.read_text())
    y, w = frame["y"].to_numpy(), frame["w"].to_numpy()
    for result in payload["results"]:
        s = frame[result["score"]].to_numpy()
        assert result["auroc"] == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
        assert result["average_precision"] == pytest.approx(
            skm.average_precision_score(y, s, sample_weight=w), rel=1e-12)
        f1 = result["best_thresholds"][0]
        pred = (s >= f1["threshold"]).astype(int)
        assert f1["value"] == pytest.approx(skm.f1_score(y, pred, sample_weight=w), rel=1e-12)
        assert result["best_thresholds"][1]["metric"] == "g(beta=2, rho=-3)"


def test_string_labels_with_pos_label(data):
    d, frame = data
    res = run("evaluate", d / "scores.parquet", "--label", "label_text", "--score", "model_a", "--pos-label", "fraud")
    assert res.returncode == 0, res.stderr
    expected = skm.roc_auc_score(frame["y"].to_numpy(), frame["model_a"].to_numpy())
    assert f"{expected:.4f}" in res.stdout


@pytest.mark.parametrize("args, message", [
    (["evaluate", "missing.parquet", "--label", "y", "--score", "a"], "file not found: 'missing.parquet'"),
    (["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "nope"], "column 'nope' is not in 'scores.parquet'"),
    (["evaluate", "{d}/scores.parquet", "--label", "nope", "--score", "model_a"], "column 'nope' is not in"),
    (["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "bad"],
     "score column 'bad' contains 1 NaN value (first at index 5)"),
    (["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "label_text"], "must be numeric scores"),
    (["evaluate", "{d}/scores.parquet", "--label", "label_text", "--score", "model_a"],
     "cannot infer the positive class"),
    (["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "model_a", "--pos-label", "3"],
     "--pos-label '3' is not a value of label column 'y' (values: 0, 1)"),
    (["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "model_a", "--metric", "g(beta=2)"],
     "metric 'g' needs rho"),
    (["evaluate", "{d}/scores.parquet", "--label", "y", "--score", "model_a", "--weight", "bad"],
     "sample_weight contains 1 NaN value"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(data, args, message):
    d, _ = data
    out = d / "never.json"
    res = run(*[a.format(d=d) for a in args], "--json", out)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], res.stderr
    assert "Traceback" not in res.stderr
    assert not out.exists()


def test_one_class_is_an_error(tmp_path):
    pl.DataFrame({"y": [1, 1, 1], "s": [0.1, 0.2, 0.3]}).write_csv(tmp_path / "one.csv")
    res = run("evaluate", tmp_path / "one.csv", "--label", "y", "--score", "s")
    assert res.returncode == 2 and "y_true has one class (no negative samples" in res.stderr


def test_demo_runs_end_to_end(tmp_path):
    res = run("demo", "--output-dir", tmp_path / "out")
    assert res.returncode == 0, res.stderr
    assert "logistic_regression" in res.stdout and "How to read this" in res.stdout
    payload = json.loads((tmp_path / "out" / "evaluation.json").read_text())
    scores = pl.read_parquet(tmp_path / "out" / "default_scores.parquet")
    y = scores["default"].to_numpy()
    assert 0 < y.mean() <= 0.10  # imbalanced, as the demo promises
    for result in payload["results"]:
        assert result["auroc"] == pytest.approx(skm.roc_auc_score(y, scores[result["score"]].to_numpy()), rel=1e-12)


def test_evaluate_with_confidence_intervals(data):
    d, frame = data
    out = d / "ci.json"
    res = run("evaluate", d / "scores.parquet", "--label", "y", "--score", "model_a", "--metric", "f2", "--ci",
              "--n-resamples", "50", "--seed", "3", "--json", out)
    assert res.returncode == 0, res.stderr
    assert "percentile bootstrap intervals (50 replicates)" in res.stdout
    intervals = json.loads(out.read_text())["results"][0]["confidence_intervals"]
    assert set(intervals) == {"auroc", "average_precision", "auprg", "fbeta(beta=2)"}
    auroc = json.loads(out.read_text())["results"][0]["auroc"]
    assert intervals["auroc"]["low"] <= auroc <= intervals["auroc"]["high"]


def test_compare_two_columns(data):
    d, frame = data
    out = d / "compare.json"
    res = run("compare", d / "scores.parquet", "--label", "y", "--score", "model_a", "--score", "model_b",
              "--n-resamples", "60", "--seed", "1", "--json", out)
    assert res.returncode == 0, res.stderr
    payload = json.loads(out.read_text())
    y = frame["y"].to_numpy()
    expected = skm.roc_auc_score(y, frame["model_a"].to_numpy()) - skm.roc_auc_score(y, frame["model_b"].to_numpy())
    assert payload["statistics"]["auroc"]["difference"] == pytest.approx(expected, rel=1e-12)
    assert payload["delong"]["difference"] == pytest.approx(expected, rel=1e-12)
    assert 0 < payload["statistics"]["f1"]["p_value"] <= 1
    bad = run("compare", d / "scores.parquet", "--label", "y", "--score", "model_a")
    assert bad.returncode == 2 and "exactly two different --score columns" in bad.stderr
