"""``evaluate --threshold`` / ``--top-k`` and the JSON ``decision`` block (issue 20, item 6), as a user runs it."""

import json

import numpy as np
import polars as pl
import pytest
from _cli import run_in_process as run  # the tests of what commands print and write; not of the process
from sklearn.metrics import confusion_matrix


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(4)
    n = 400
    y = (rng.random(n) < 0.25).astype(int)
    frame = pl.DataFrame({"y": y, "a": np.round(rng.normal(size=n) + 1.2 * y, 2), "b": rng.normal(size=n) + 0.5 * y})
    d = tmp_path_factory.mktemp("decision")
    frame.write_csv(d / "scores.csv")
    return d, frame


def test_threshold_gives_sklearns_counts_per_1000_with_intervals(data):
    d, frame = data
    out = d / "threshold.json"
    res = run(
        "evaluate",
        d / "scores.csv",
        "--label",
        "y",
        "--score",
        "a",
        "--score",
        "b",
        "--threshold",
        "0.8",
        "--metric",
        "mcc",
        "--ci",
        "--n-resamples",
        "200",
        "--seed",
        "3",
        "--json",
        out,
    )
    assert res.returncode == 0, res.stderr
    assert "Decision: score >= 0.8" in res.stdout and "per 1,000 cases" in res.stdout
    doc = json.loads(out.read_text())
    assert [e["score"] for e in doc["decision"]] == ["a", "b"]
    y = frame["y"].to_numpy()
    for entry in doc["decision"]:
        s = frame[entry["score"]].to_numpy()
        tn, fp, fn, tp = confusion_matrix(y, (s >= 0.8).astype(int)).ravel()
        assert entry["counts"] == {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
        assert entry["per_1000"]["tp"] == pytest.approx(tp * 1000 / len(y))
        assert entry["alert_rate"] == pytest.approx((tp + fp) / len(y))
        assert entry["precision"] == pytest.approx(tp / (tp + fp))
        assert entry["rule"] == "score >= 0.8" and entry["estimate"] == "in-sample" and not entry["optimistic"]
        assert set(entry["intervals"]) == {
            "alert_rate",
            "precision",
            "recall",
            "specificity",
            "f1",
            "mcc",
            "tp_per_1000",
            "fp_per_1000",
            "fn_per_1000",
            "tn_per_1000",
        }
        low, high = entry["intervals"]["precision"]["low"], entry["intervals"]["precision"]["high"]
        assert low <= entry["precision"] <= high
        assert set(entry) >= {
            "threshold",
            "k",
            "rule",
            "estimate",
            "label",
            "alert_rate",
            "precision",
            "recall",
            "specificity",
            "f1",
            "metrics",
            "counts",
            "per_1000",
            "intervals",
        }


def test_top_k_with_ties_gives_the_expected_counts(data):
    d, frame = data
    out = d / "top.json"
    res = run("evaluate", d / "scores.csv", "--label", "y", "--score", "a", "--top-k", "50", "--json", out)
    assert res.returncode == 0, res.stderr
    (entry,) = json.loads(out.read_text())["decision"]
    # by hand: the rows strictly above the 50th score, then the needed share of the tie at it
    y, s = frame["y"].to_numpy(), frame["a"].to_numpy()
    kth = np.sort(s)[::-1][49]
    above, tied = s > kth, s == kth
    share = (50 - above.sum()) / tied.sum()
    tp = y[above].sum() + share * y[tied].sum()
    assert entry["counts"]["tp"] == pytest.approx(tp)
    assert entry["counts"]["tp"] + entry["counts"]["fp"] == pytest.approx(50)
    assert entry["rule"] == "top 50" and entry["k"] == 50 and entry["threshold"] == kth


def test_without_a_rule_each_metric_is_decided_in_sample_and_cross_fitted(data):
    d, _ = data
    out = d / "best.json"
    res = run("evaluate", d / "scores.csv", "--label", "y", "--score", "a", "--metric", "f2", "--json", out)
    assert res.returncode == 0, res.stderr
    assert "in sample vs cross-fitted" in res.stdout
    inside, cross = json.loads(out.read_text())["decision"]
    assert (inside["rule"], inside["estimate"], inside["optimistic"]) == ("best fbeta(beta=2)", "in-sample", True)
    assert (cross["rule"], cross["estimate"], cross["n_splits"]) == ("best fbeta(beta=2)", "cross-fitted", 5)
    assert inside["label"] == "chosen on these data: optimistic" and cross["label"] == "cross-fitted (5 folds)"
    assert inside["threshold"] == cross["threshold"]
    assert sum(cross["counts"].values()) == pytest.approx(400)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--threshold", "nan"], "--threshold must be a number"),
        (["--top-k", "-5"], "--top-k must be a number of rows > 0"),
        (["--top-k", "0"], "--top-k must be a number of rows > 0"),
        (["--top-k", "nan"], "--top-k must be a number of rows > 0"),
        (["--top-k", "401"], "--top-k 401 exceeds the 400 rows scored"),
        (["--threshold", "0.5", "--top-k", "3"], "give --threshold or --top-k, not both"),
        (["--threshold", "0.5", "--out-of-core"], "--out-of-core does not take --threshold/--top-k"),
    ],
)
def test_a_bad_rule_is_one_line_exit_2_and_writes_nothing(data, args, message):
    d, _ = data
    out = d / "never.json"
    res = run("evaluate", d / "scores.csv", "--label", "y", "--score", "a", *args, "--json", out)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], res.stderr
    assert not out.exists()
    assert "AUROC" not in res.stdout  # refused before anything is printed
