"""The three scale paths (in memory, out of core through DuckDB, on Dask) and the binned accumulator:
one result type, one JSON schema, one source interface whose rows are checked in one place.

References are independent of the paths compared: scikit-learn's ``roc_auc_score`` and
``average_precision_score`` for the areas, a hand count for the class totals; between the
exact paths the comparisons are ``==`` (integer weights: every sum is exact).
"""

import json

import numpy as np
import pytest

import isometrics as im
from isometrics._core.outputs import json_text
from isometrics.evaluation import BinaryEvaluation, results_json

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")
dd = pytest.importorskip("dask.dataframe")
sklearn_metrics = pytest.importorskip("sklearn.metrics")

from isometrics.dask import evaluate_dask  # noqa: E402
from isometrics.dask._partitions import PartitionSource  # noqa: E402
from isometrics.scale import BinnedCountTable, evaluate_out_of_core  # noqa: E402
from isometrics.scale.batches import ArrowSource, ColumnsSource, Locator, check_batch  # noqa: E402

METRICS = ["f1", "mcc"]
#: What each path says of itself in the results JSON, beside the keys every path writes.
PATH_KEYS = {"in memory": set(), "out of core": {"files", "out_of_core"}, "dask": {"cluster"}}


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(24)
    n = 4000
    y = (rng.random(n) < 0.35).astype(np.int64)
    frame = pd.DataFrame(
        {
            "y": y,
            "a": np.round(rng.normal(size=n) + y, 2),  # ties
            "b": rng.normal(size=n) + 0.5 * y,  # distinct
            "w": rng.integers(0, 4, size=n).astype(np.float64),
        }
    )
    path = tmp_path_factory.mktemp("paths") / "scores.parquet"
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path, row_group_size=1000)
    return frame, path


def _three_paths(frame, path, weighted):
    weight = "w" if weighted else None
    memory = im.evaluate_scores(
        frame["y"].to_numpy(),
        {c: frame[c].to_numpy() for c in "ab"},
        metrics=METRICS,
        sample_weight=frame["w"].to_numpy() if weighted else None,
    )
    out_of_core = evaluate_out_of_core(
        path, label="y", scores=["a", "b"], sample_weight=weight, metrics=METRICS, memory_limit="64MB"
    )
    on_dask = evaluate_dask(
        dd.from_pandas(frame, npartitions=3), label="y", scores=["a", "b"], sample_weight=weight, metrics=METRICS
    )
    return {"in memory": memory, "out of core": out_of_core, "dask": on_dask}


def _document(name, results, path, weighted):
    """The results JSON as ``isometrics evaluate`` writes it for each path (one writer, parsed back)."""
    weight = "w" if weighted else None
    extra = {}
    if name == "out of core":
        extra = {"files": results.files, "path": {"out_of_core": {"memory_limit": results.memory_limit}}}
    elif name == "dask":
        extra = {"path": {"cluster": "local:1"}}
    return json.loads(json_text(results_json(results, file=str(path), label="y", weight=weight, **extra)))


@pytest.mark.parametrize("weighted", [False, True])
def test_three_paths_give_one_result_type_and_one_json_schema(data, weighted):
    frame, path = data
    runs = _three_paths(frame, path, weighted)
    documents = {name: _document(name, results, path, weighted) for name, results in runs.items()}
    common = set(documents["in memory"])
    for name, doc in documents.items():
        assert all(isinstance(r, BinaryEvaluation) and r.exact and not r.bounds for r in runs[name])
        assert set(doc) == common | PATH_KEYS[name], name  # the same keys, plus what the path says of itself
        assert [k for k in doc if k in common] == list(documents["in memory"]), name  # in the same order
        base = {k for k in doc if k in common and k != "results"}
        assert {k: doc[k] for k in base} == {k: documents["in memory"][k] for k in base}
    reference = documents["in memory"]["results"]
    for name, doc in documents.items():
        for got, ref in zip(doc["results"], reference, strict=True):
            assert set(ref) <= set(got)  # out of core adds its interpolated PR area and display sizes
            assert {k: got[k] for k in ref} == ref, name  # exact paths: every value equal (integer weights)
    # independent references: scikit-learn's areas, a hand count of the classes
    w = frame["w"].to_numpy() if weighted else None
    for r, column in zip(reference, "ab", strict=True):
        assert r["auroc"] == pytest.approx(sklearn_metrics.roc_auc_score(frame["y"], frame[column], sample_weight=w))
        assert r["average_precision"] == pytest.approx(
            sklearn_metrics.average_precision_score(frame["y"], frame[column], sample_weight=w)
        )
        positives = frame["w"][frame["y"] == 1].sum() if weighted else int((frame["y"] == 1).sum())
        assert r["n_positives"] == positives


def test_binned_path_gives_the_same_result_type(data):
    frame, _ = data
    columns = {c: frame[c].to_numpy() for c in ("y", "a", "w")}
    memory = im.evaluate_scores(columns["y"], {"a": columns["a"]}, metrics=METRICS, sample_weight=columns["w"])[0]
    exact = BinnedCountTable(10_000).update(columns["y"], columns["a"], columns["w"]).compute()
    r = exact.to_evaluation("a", METRICS)
    assert type(r) is BinaryEvaluation and r.exact and r.bounds == {}
    assert r.to_dict() == {**memory.to_dict(), "n_positives": r.n_positives, "n_negatives": r.n_negatives}
    assert (r.n_positives, r.n_negatives) == (float(memory.n_positives), float(memory.n_negatives))
    # binned: approximate, and says so, with the interval of each area, which holds the exact value
    approximate = BinnedCountTable(16).update(columns["y"], columns["a"], columns["w"]).compute().to_evaluation("a")
    assert type(approximate) is BinaryEvaluation and not approximate.exact
    for area in ("auroc", "average_precision", "auprg"):
        assert approximate.bounds[area].contains(getattr(memory, area))
    as_json = approximate.to_dict()
    assert as_json["exact"] is False and set(as_json["bounds"]) == {"auroc", "average_precision", "auprg"}
    assert set(memory.to_dict()) | {"exact", "bounds"} == set(as_json)


def test_one_source_interface_for_the_three_readers(data):
    """Columns in memory, DuckDB's Arrow batches of the file and a Dask partition: the same counts."""
    frame, path = data
    sources = [
        ColumnsSource({c: frame[c].to_numpy() for c in frame.columns}, batch_size=1500),
        ArrowSource.from_files(path, ["y", "a", "w"], batch_size=999),
        PartitionSource(frame, Locator(0, 1)),
    ]
    results = [
        BinnedCountTable(10_000).update_from(s, label="y", score="a", sample_weight="w").compute() for s in sources
    ]
    assert all(r.to_dict() == results[0].to_dict() for r in results)
    reference = im.evaluate_scores(frame["y"], {"a": frame["a"]}, sample_weight=frame["w"].to_numpy())[0]
    assert results[0].auroc.lower == results[0].auroc.upper == reference.auroc


@pytest.mark.parametrize(
    "column, value, match",
    [
        ("a", np.nan, r"score column 'a' has 1 NaN or infinite value\(s\), the first \(NaN\) in .*row 1234"),
        ("w", -1.0, r"weight column 'w' has 1 negative or non-finite value\(s\), the first \(-1.0\) in .*row 1234"),
        ("y", 7, r"label column 'y' has a third class 7 \(besides 1, 0\) in .*row 1234"),
    ],
)
def test_a_bad_value_is_found_by_one_check_whichever_the_source(data, column, value, match):
    frame, _ = data
    bad = frame.copy()
    bad.loc[1234, column] = value
    sources = [
        ColumnsSource({c: bad[c].to_numpy() for c in bad.columns}),
        ArrowSource(pa.table({c: bad[c].to_numpy() for c in bad.columns})),  # NaN kept (pandas' would be null)
        PartitionSource(bad, Locator(0, 1)),
    ]
    for source in sources:
        acc = BinnedCountTable(100)
        with pytest.raises(im.IsometricsError, match=match):
            acc.update_from(source, label="y", score="a", sample_weight="w")
        assert acc.n_positives == 0  # nothing counted


def test_a_missing_column_is_named_before_any_row_is_read(data):
    frame, path = data
    for source in (
        ColumnsSource(frame),
        ArrowSource.from_files(path, ["y", "a"]),
        PartitionSource(frame, Locator(0, 1)),
    ):
        with pytest.raises(im.IsometricsError, match=r"column\(s\) 'nope' not in"):
            BinnedCountTable(100).update_from(source, label="y", score="nope")


def test_columns_of_different_lengths_are_refused():
    source = ColumnsSource({"y": [0, 1, 0, 1], "s": [0.1, 0.2, 0.3]})
    with pytest.raises(im.IsometricsError, match=r"the columns have different lengths \({'y': 4, 's': 3}\)"):
        BinnedCountTable(8).update_from(source, label="y", score="s")


def test_check_batch_keeps_the_rows_it_was_given(data):
    frame, _ = data
    raw = next(ColumnsSource({c: frame[c].to_numpy() for c in ("y", "a", "b")}).raw_batches(["y", "a", "b"]))
    batch = check_batch(raw, label="y", scores=["a", "b"], weight=None)
    assert batch.n_rows == len(frame) and batch.labels == (0, 1) and batch.sample_weight is None
    assert np.array_equal(batch.scores["b"], frame["b"].to_numpy())


def test_each_format_is_known_in_one_place(data, tmp_path):
    """``scale.formats``: a Parquet file's rows and column types from its metadata, a CSV's estimated."""
    from isometrics.scale.formats import column_type, estimated_rows, scan_expression

    frame, path = data
    assert estimated_rows([path, path], "parquet") == 2 * len(frame)
    assert column_type(path, "parquet", "y") == (pa.int64(), ["y", "a", "b", "w"])
    assert column_type(path, "parquet", "nope")[0] is None
    csv = tmp_path / "s.csv"
    frame.to_csv(csv, index=False)
    assert estimated_rows([csv], "csv") == pytest.approx(len(frame), rel=0.05)
    assert column_type(csv, "csv", "y") == (None, [])  # DuckDB infers CSV types as it reads
    assert scan_expression("csv", [csv], separator=";") == (
        f"read_csv(['{csv}'], header = true, delim = ';', quote = '\"', union_by_name = true)"
    )


def test_the_three_commands_write_their_json_with_the_one_writer():
    """In memory, out of core and on a cluster: the CLI calls ``results_json``, and builds no document of its own."""
    from pathlib import Path

    import isometrics.cli

    cli = Path(isometrics.cli.__file__).parent
    for module in ("in_memory.py", "out_of_core.py", "cluster.py"):
        text = (cli / module).read_text(encoding="utf-8")
        assert "results_json(" in text, module
        assert '"one_vs_rest"' not in text and '"results":' not in text, module
