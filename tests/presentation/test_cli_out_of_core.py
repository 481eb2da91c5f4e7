"""``isometrics evaluate --out-of-core`` (issue 14, sections 2 and 5): the numbers of the in-memory
path, bad values named by file and row with nothing written, and the automatic switch said on stderr."""

import json

import numpy as np
import pytest
import sklearn.metrics as skm
from typer.testing import CliRunner

import isometrics.cli.out_of_core as ooc_module
from isometrics import evaluate_scores
from isometrics.cli.app import app

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")


def invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "400"})


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(5)
    n = 20_000
    y = (rng.random(n) < 0.2).astype(int)
    columns = {
        "y": y,
        "a": rng.normal(size=n) + 1.2 * y,
        "b": np.round(rng.normal(size=n) + y, 2),
        "w": rng.integers(1, 4, n).astype(float),
    }
    path = tmp_path_factory.mktemp("ooc") / "scores.parquet"
    pq.write_table(pa.table(columns), path)
    return path, columns


@pytest.mark.parametrize("weighted", [False, True])
def test_out_of_core_json_has_the_in_memory_numbers(data, tmp_path, weighted):
    path, columns = data
    extra = ["--weight", "w"] if weighted else []
    out = tmp_path / "out.json"
    result = invoke(
        "evaluate",
        path,
        "--label",
        "y",
        "--score",
        "a",
        "--score",
        "b",
        "--metric",
        "f1",
        "--metric",
        "mcc",
        "--out-of-core",
        "--memory-limit",
        "64MB",
        "--json",
        out,
        *extra,
    )
    assert result.exit_code == 0, result.stderr
    got = json.loads(out.read_text())
    memory = evaluate_scores(
        columns["y"],
        {k: columns[k] for k in "ab"},
        metrics=["f1", "mcc"],
        sample_weight=columns["w"] if weighted else None,
    )
    for r, m in zip(got["results"], memory, strict=True):
        expected = m.to_dict()
        for key in ("n_samples", "n_positives", "n_negatives", "prevalence", "auroc", "average_precision", "auprg"):
            assert r[key] == expected[key]
        assert [b["threshold"] for b in r["best_thresholds"]] == [b["threshold"] for b in expected["best_thresholds"]]
        assert r["auc_pr_interpolated"] == m.operating_points.auc_pr_interpolated()
    assert got["out_of_core"]["memory_limit"] == 64 * 10**6
    # The JSON around the results is the in-memory command's (weight_kind once read None here).
    plain = tmp_path / "plain.json"
    assert (
        invoke(
            "evaluate",
            path,
            "--label",
            "y",
            "--score",
            "a",
            "--score",
            "b",
            "--metric",
            "f1",
            "--metric",
            "mcc",
            "--json",
            plain,
            *extra,
        ).exit_code
        == 0
    )
    in_memory = json.loads(plain.read_text())
    # The decision block (cross-fitted best thresholds) needs the rows: in memory only (README).
    assert "decision" in in_memory and "decision" not in got
    assert {k: v for k, v in got.items() if k not in ("results", "out_of_core", "files")} == {
        k: v for k, v in in_memory.items() if k not in ("results", "decision")
    }
    # An independent reference for the areas: scikit-learn.
    w = columns["w"] if weighted else None
    assert got["results"][0]["auroc"] == pytest.approx(
        skm.roc_auc_score(columns["y"], columns["a"], sample_weight=w), rel=1e-12
    )
    assert got["results"][1]["average_precision"] == pytest.approx(
        skm.average_precision_score(columns["y"], columns["b"], sample_weight=w), rel=1e-12
    )


def test_frequency_weights_are_refused_out_of_core(data):
    path, _ = data
    result = invoke(
        "evaluate", path, "--label", "y", "--score", "a", "--weight", "w", "--weight-kind", "frequency", "--out-of-core"
    )
    assert result.exit_code != 0
    assert "--weight-kind frequency" in result.stderr


def test_bad_value_names_file_and_row_and_writes_nothing(tmp_path):
    s = np.linspace(0, 1, 1000)
    s[613] = np.nan
    path = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"y": np.arange(1000) % 2, "s": s}), path)
    out = tmp_path / "out.json"
    result = invoke("evaluate", path, "--label", "y", "--score", "s", "--out-of-core", "--json", out)
    assert result.exit_code == 2
    assert "bad.parquet' at row 613" in result.stderr and "Traceback" not in result.stderr
    assert not out.exists()


def test_switches_by_itself_when_the_file_would_not_fit(data, tmp_path, monkeypatch):
    path, _ = data
    monkeypatch.setattr(ooc_module, "available_memory", lambda: 10**6)  # 1 MB free: 20,000 rows do not fit
    result = invoke("evaluate", path, "--label", "y", "--score", "a")
    assert result.exit_code == 0, result.stderr
    assert "would need about" in result.stderr and "evaluating out of core instead" in result.stderr
    assert "Out of core: DuckDB" in result.stdout
    monkeypatch.setattr(ooc_module, "available_memory", lambda: 10**12)
    result = invoke("evaluate", path, "--label", "y", "--score", "a")
    assert result.exit_code == 0 and "out of core" not in result.stderr + result.stdout


def test_a_glob_goes_out_of_core(data, tmp_path):
    _, columns = data
    for k in range(2):
        half = slice(k * 10_000, (k + 1) * 10_000)
        pq.write_table(pa.table({c: v[half] for c, v in columns.items()}), tmp_path / f"part-{k}.parquet")
    result = invoke("evaluate", tmp_path / "part-*.parquet", "--label", "y", "--score", "a")
    assert result.exit_code == 0, result.stderr
    assert "is a pattern" in result.stderr and "2 files" in result.stdout


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--out-of-core", "--ci"], "--out-of-core does not take --ci"),
        (["--out-of-core", "--memory-limit", "3"], "at least 32 MiB"),
        (["--memory-limit", "4GB"], "apply out of core"),
    ],
)
def test_refused_combinations(data, extra, words):
    path, _ = data
    result = invoke("evaluate", path, "--label", "y", "--score", "a", *extra)
    assert result.exit_code == 2 and words in result.stderr


def test_a_boolean_csv_label_takes_pos_label_true(tmp_path):
    path = tmp_path / "b.csv"
    path.write_text("y,s\ntrue,0.9\nfalse,0.8\ntrue,0.7\nfalse,0.1\n")
    out = tmp_path / "b.json"
    result = invoke(
        "evaluate", path, "--label", "y", "--score", "s", "--pos-label", "true", "--out-of-core", "--json", out
    )
    assert result.exit_code == 0, result.stderr
    # Hand count: positives 0.9, 0.7 against negatives 0.8, 0.1: 3 of 4 pairs ordered.
    assert json.loads(out.read_text())["results"][0]["auroc"] == 0.75
