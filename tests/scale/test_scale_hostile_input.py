"""Hostile input to the scale subsystems (streaming, out of core, Dask) and their command line (issue 23).

``HOSTILE`` registers, for every public callable of ``isometrics.scale`` and ``isometrics.dask``
(their ``__all__``, and the public methods their classes define), bad calls and the library's
error each must raise: the function, the parameter, what was wrong and the fix.
``test_every_public_callable_is_registered`` fails when a new public callable is neither
registered nor in ``EXEMPT`` with a reason. The command line's cases (one line, exit 2) and
the CSV that must get one answer on every path follow.
"""

import inspect
import math
import re

import numpy as np
import pytest
from _cli import run_in_process

import isometrics.dask
import isometrics.scale
from isometrics.exceptions import InvalidParameterError, IsometricsError
from isometrics.scale import BinnedCountTable
from isometrics.scale.batches import ArrowSource, ColumnsSource

pd = pytest.importorskip("pandas")
pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")
pytest.importorskip("duckdb")
dd = pytest.importorskip("dask.dataframe")

Y = [0, 1, 0, 1, 1, 0, 0, 1]
S = [0.1, 0.8, 0.35, 0.4, 0.9, 0.2, 0.6, 0.7]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    good = root / "good.parquet"
    pq.write_table(pa.table({"y": Y, "s": S}), good)
    nan = root / "nan.parquet"
    pq.write_table(pa.table({"y": Y, "s": [0.1, math.nan, *S[2:]]}), nan)
    ragged = root / "ragged.csv"  # the last line holds only a label
    ragged.write_text("y,s\n" + "".join(f"{y},{s}\n" for y, s in zip(Y, S)) + "1\n")
    a_file = root / "a_file"
    a_file.write_text("not a directory")
    return {"root": root, "good": good, "nan": nan, "ragged": ragged, "file": a_file}


def _ooc(files, **kwargs):
    call = {"label": "y", "scores": "s", "memory_limit": "64MB", **kwargs}
    path = call.pop("path", files["good"])
    return isometrics.scale.evaluate_out_of_core(path, **call)


def _dask(files, **kwargs):
    call = {"label": "y", "scores": "s", **kwargs}
    data = call.pop("data", dd.from_pandas(pd.DataFrame({"y": Y, "s": S}), npartitions=2))
    return isometrics.dask.evaluate_dask(data, **call)


def _exact():
    return BinnedCountTable(8).update(Y, S)


# name -> [(label, call(files), error type, pattern)]
HOSTILE = {
    "evaluate_out_of_core": [
        (
            "temp_directory a file",
            lambda f: _ooc(f, temp_directory=f["file"]),
            InvalidParameterError,
            r"evaluate_out_of_core: `temp_directory` '.*a_file' is a file, not a directory; pass a directory",
        ),
        (
            "temp_directory under a file",
            lambda f: _ooc(f, temp_directory=f["file"] / "spill"),
            InvalidParameterError,
            r"evaluate_out_of_core: `temp_directory` .* lies under the file .*; pass",
        ),
        (
            "temp_directory a number",
            lambda f: _ooc(f, temp_directory=42),
            InvalidParameterError,
            r"evaluate_out_of_core: `temp_directory` must be a path or None; got int; pass",
        ),
        (
            "path None",
            lambda f: _ooc(f, path=None),
            InvalidParameterError,
            r"evaluate_out_of_core: `path` must be a path, a glob or a list of them; got NoneType; pass",
        ),
        ("path a number", lambda f: _ooc(f, path=42), InvalidParameterError, r"`path` must be a path.*got int"),
        (
            "path a list holding a number",
            lambda f: _ooc(f, path=[f["good"], 3]),
            InvalidParameterError,
            r"`path` must be .* a list holding a int",
        ),
        (
            "glob matching nothing",
            lambda f: _ooc(f, path=str(f["root"] / "nomatch*.parquet")),
            IsometricsError,
            r"evaluate_out_of_core: no file matches .*nomatch\*\.parquet'; check the pattern",
        ),
        (
            "short last row",
            lambda f: _ooc(f, path=f["ragged"]),
            IsometricsError,
            r"evaluate_out_of_core: row 8 \(line 10 of .*ragged\.csv'.*\) has 1 field where the header names 2 "
            r"columns: no value for 's'; give every row",
        ),
        ("label a number", lambda f: _ooc(f, label=3), InvalidParameterError, r"`label` must be the name"),
        ("no scores", lambda f: _ooc(f, scores=[]), InvalidParameterError, r"`scores` must be"),
        (
            "memory limit no size",
            lambda f: _ooc(f, memory_limit="lots"),
            InvalidParameterError,
            r"`memory_limit` 'lots' is not a size",
        ),
        ("resolution 1", lambda f: _ooc(f, resolution=1), InvalidParameterError, r"`resolution`"),
        ("metric unknown", lambda f: _ooc(f, metrics=["nope"]), InvalidParameterError, r"nope"),
        (
            "separator two characters",
            lambda f: _ooc(f, path=f["ragged"], separator="ab"),
            IsometricsError,
            r"evaluate_out_of_core: `separator` must be one character",
        ),
        ("pos_label not a label", lambda f: _ooc(f, pos_label=7), IsometricsError, r"evaluate_out_of_core: .*7"),
        ("column missing", lambda f: _ooc(f, scores="nope"), IsometricsError, r"column 'nope' is not in"),
    ],
    "parse_memory": [
        (
            "words",
            lambda f: isometrics.scale.parse_memory("lots"),
            InvalidParameterError,
            r"parse_memory: `memory_limit` 'lots' is not a size; pass bytes",
        ),
        ("a boolean", lambda f: isometrics.scale.parse_memory(True), InvalidParameterError, r"must be a size"),
        ("None", lambda f: isometrics.scale.parse_memory(None), InvalidParameterError, r"parse_memory: `memory_limit`"),
        ("too small", lambda f: isometrics.scale.parse_memory("1kB"), InvalidParameterError, r"at least 32 MiB"),
        ("a fraction", lambda f: isometrics.scale.parse_memory(1.5), InvalidParameterError, r"whole number"),
    ],
    "BinnedCountTable": [
        ("one bin", lambda f: BinnedCountTable(1), InvalidParameterError, r"BinnedCountTable: `bins`"),
        ("bins words", lambda f: BinnedCountTable("many"), InvalidParameterError, r"BinnedCountTable: `bins`"),
        ("unknown strategy", lambda f: BinnedCountTable(8, strategy="best"), InvalidParameterError, r"`strategy`"),
        (
            "empty range",
            lambda f: BinnedCountTable(8, strategy="uniform", score_range=(1, 0)),
            InvalidParameterError,
            r"`score_range`",
        ),
    ],
    "BinnedCountTable.update": [
        ("NaN score", lambda f: BinnedCountTable(8).update([0, 1], [0.1, math.nan]), IsometricsError, r"y_score"),
        ("lengths differ", lambda f: BinnedCountTable(8).update([0, 1, 1], [0.1, 0.2]), IsometricsError, r""),
        (
            "a row of labels",
            lambda f: BinnedCountTable(8).update([[0, 1]], [0.1, 0.2]),
            IsometricsError,
            r"BinnedCountTable.update: `y_true` has shape \(1, 2\)",
        ),
        (
            "weights a word",
            lambda f: BinnedCountTable(8).update([0, 1], [0.1, 0.2], sample_weight="w"),
            IsometricsError,
            r"BinnedCountTable.update: `sample_weight`",
        ),
        (
            "negative weight",
            lambda f: BinnedCountTable(8).update([0, 1], [0.1, 0.2], sample_weight=[1, -1]),
            IsometricsError,
            r"BinnedCountTable.update",
        ),
    ],
    "BinnedCountTable.merge": [
        (
            "a word",
            lambda f: BinnedCountTable(8).merge("x"),
            InvalidParameterError,
            r"BinnedCountTable.merge: `others\[0\]` is a str, not a BinnedCountTable",
        ),
    ],
    "BinnedCountTable.compute": [
        (
            "nothing seen",
            lambda f: BinnedCountTable(8).compute(),
            IsometricsError,
            r"BinnedCountTable.compute: no samples yet; call update",
        ),
    ],
    "BinnedEvaluation.best_threshold": [
        (
            "unknown metric",
            lambda f: _exact().compute().best_threshold("nope"),
            InvalidParameterError,
            r"^BinnedEvaluation.best_threshold: .*nope",
        ),
    ],
    "BinnedCountTable.update_from": [
        (
            "arrays, not a source",
            lambda f: BinnedCountTable(8).update_from([Y, S], label="y", score="s"),
            InvalidParameterError,
            r"BinnedCountTable.update_from: `source` must be a batch source .*got a list; wrap the data",
        ),
        (
            "label a number",
            lambda f: BinnedCountTable(8).update_from(ColumnsSource({"y": Y, "s": S}), label=0, score="s"),
            InvalidParameterError,
            r"BinnedCountTable.update_from: `label` must name a column \(a str\); got 0; pass",
        ),
        (
            "column missing",
            lambda f: BinnedCountTable(8).update_from(ColumnsSource({"y": Y, "s": S}), label="y", score="t"),
            IsometricsError,
            r"BinnedCountTable.update_from: column\(s\) 't' not in the columns given \(columns: 'y', 's'\)",
        ),
        (
            "NaN score in a file",
            lambda f: BinnedCountTable(8).update_from(
                ArrowSource.from_files(f["nan"], ["y", "s"]), label="y", score="s"
            ),
            IsometricsError,
            r"BinnedCountTable.update_from: score column 's' has 1 NaN or infinite value\(s\), the first \(NaN\) in file\(s\) "
            r".*nan\.parquet', row 1; drop or impute",
        ),
    ],
    "BinnedEvaluation.to_evaluation": [
        (
            "name a number",
            lambda f: _exact().compute().to_evaluation(3),
            InvalidParameterError,
            r"BinnedEvaluation.to_evaluation: `name` must be the score column's name \(a str\); got 3; pass",
        ),
        (
            "unknown metric",
            lambda f: _exact().compute().to_evaluation("s", ["nope"]),
            InvalidParameterError,
            r"^BinnedEvaluation.to_evaluation: .*nope",
        ),
    ],
    "AreaBounds.contains": [
        (
            "a word",
            lambda f: _exact().compute().auroc.contains("a"),
            InvalidParameterError,
            r"AreaBounds.contains: `value` must be a real number; got 'a' \(str\); pass",
        ),
        ("None", lambda f: _exact().compute().auroc.contains(None), InvalidParameterError, r"got None"),
    ],
    "evaluate_dask": [
        (
            "client a word",
            lambda f: _dask(f, client="x"),
            InvalidParameterError,
            r"evaluate_dask: `client` must be a distributed.Client or None; got 'x'; pass the Client",
        ),
        ("client a number", lambda f: _dask(f, client=3), InvalidParameterError, r"`client` must be .*got 3"),
        ("data a number", lambda f: _dask(f, data=42), InvalidParameterError, r"evaluate_dask: `data` must be"),
        (
            "data missing",
            lambda f: _dask(f, data=f["root"] / "none.parquet"),
            IsometricsError,
            r"evaluate_dask: .*none\.parquet' does not exist",
        ),
        (
            "data not Parquet",
            lambda f: _dask(f, data=f["ragged"]),
            IsometricsError,
            r"evaluate_dask: cannot read .*ragged\.csv' as Parquet",
        ),
        ("label a number", lambda f: _dask(f, label=3), InvalidParameterError, r"evaluate_dask: `label`"),
        ("no scores", lambda f: _dask(f, scores=[]), InvalidParameterError, r"evaluate_dask: `scores`"),
        ("n_ranges 0", lambda f: _dask(f, n_ranges=0), InvalidParameterError, r"`n_ranges` must be"),
        ("curve_path a file", lambda f: _dask(f, curve_path=f["file"]), IsometricsError, r"curve_path"),
        ("metric unknown", lambda f: _dask(f, metrics=["nope"]), InvalidParameterError, r"nope"),
        ("column missing", lambda f: _dask(f, scores="nope"), IsometricsError, r"'nope' not in the data frame"),
        (
            "NaN score",
            lambda f: _dask(f, data=f["nan"], client=None),
            IsometricsError,
            r"evaluate_dask: score column 's' has 1 NaN or infinite value.*row 1",
        ),
    ],
}

EXEMPT = {
    "default_memory_limit": "takes no argument: a quarter of this machine's memory",
    "BinnedCountTable.reset": "takes no argument",
    "AreaBounds": "a result: built by BinnedCountTable.compute from counts it checked",
    "AreaBounds.to_dict": "takes no argument",
    "BinnedEvaluation": "a result: built by BinnedCountTable.compute",
    "BinnedEvaluation.to_dict": "takes no argument",
    "OutOfCoreResult": "a result: built by evaluate_out_of_core from the data it checked",
    "OutOfCoreResult.to_dict": "takes no argument",
    "OutOfCoreEvaluation": "a result: built by evaluate_out_of_core",
}


def _public_callables():
    """Every public callable of the scale and dask subsystems: the names of their ``__all__`` and the
    public methods their classes define themselves (inherited ones are the other modules' own)."""
    names = set()
    for module in (isometrics.scale, isometrics.dask):
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj):
                continue
            names.add(name)
            if inspect.isclass(obj):
                for attr, value in vars(obj).items():
                    if not attr.startswith("_") and inspect.isfunction(value):
                        names.add(f"{name}.{attr}")
    return names


def test_every_public_callable_is_registered():
    public = _public_callables()
    missing = sorted(public - HOSTILE.keys() - EXEMPT.keys())
    assert not missing, f"register hostile inputs for {missing} in HOSTILE (or exempt them, with a reason, in EXEMPT)"
    stale = sorted((HOSTILE.keys() | EXEMPT.keys()) - public)
    assert not stale, f"{stale} are no public callables of isometrics.scale or isometrics.dask any more"
    assert all(len(reason) > 10 for reason in EXEMPT.values())


CASES = [
    (name, label, call, error, pattern) for name, cases in HOSTILE.items() for label, call, error, pattern in cases
]


@pytest.mark.parametrize("name, label, call, error, pattern", CASES, ids=[f"{c[0]}: {c[1]}" for c in CASES])
def test_hostile_input_is_the_librarys_error(files, name, label, call, error, pattern):
    with pytest.raises(IsometricsError) as info:
        call(files)
    assert isinstance(info.value, error), f"{type(info.value).__name__}: {info.value}"
    assert re.search(pattern, str(info.value)), str(info.value)
    assert "\n" not in str(info.value)


def test_contains_keeps_answering_numbers():
    bounds = _exact().compute().auroc
    assert bounds.contains(bounds.estimate) is True and bounds.contains(math.nan) is False
    assert bounds.contains(np.float32(2.0)) is False


def test_a_temp_directory_that_does_not_exist_is_made(files, tmp_path):
    result = _ooc(files, temp_directory=tmp_path / "new" / "spill")
    assert result["s"].auroc == 15 / 16 and (tmp_path / "new" / "spill").is_dir()


# ---------------------------------------------------------------------------- the command line


def _one_line(result):
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "Compute Failed" not in result.stderr
    return lines


def test_cli_temp_directory_a_file(files):
    result = run_in_process(
        "evaluate", files["good"], "--label", "y", "--score", "s", "--out-of-core", "--temp-directory", files["file"]
    )
    lines = _one_line(result)
    assert len(lines) == 1 and "`temp_directory`" in lines[0] and "is a file, not a directory" in lines[0]


def test_cli_pattern_matching_nothing_says_so_before_anything(files):
    result = run_in_process("evaluate", files["root"] / "nomatch*.parquet", "--label", "y", "--score", "s")
    lines = _one_line(result)
    assert len(lines) == 1 and "no file matches" in lines[0] and "out of core" not in result.stderr


def test_cli_pattern_says_how_many_files_it_matches(files):
    result = run_in_process("evaluate", files["root"] / "goo*.parquet", "--label", "y", "--score", "s")
    assert result.returncode == 0, result.stderr
    assert "is a pattern matching 1 file: evaluating it out of core" in result.stderr


def test_cli_short_last_row_out_of_core_names_the_row(files):
    result = run_in_process("evaluate", files["ragged"], "--label", "y", "--score", "s", "--out-of-core")
    lines = _one_line(result)
    assert len(lines) == 1 and "row 8 (line 10" in lines[0] and "no value for 's'" in lines[0]
    assert "sniffing" not in result.stderr


@pytest.mark.xdist_group("local-cluster-nan")
def test_cli_local_cluster_failure_is_one_line(local_cluster_nan_run):
    """The subprocess (``evaluate --local-cluster 1`` on a file whose ``s`` holds a NaN) is run once for this test
    and tests/presentation/test_cli_hostile_input.py, in tests/conftest.py."""
    result = local_cluster_nan_run
    lines = _one_line(result)
    assert [line for line in lines if "error" in line] == lines[-1:] and len(lines) == 1, result.stderr
    assert "score column 's' has 1 NaN" in lines[-1]


# ---------------------------------------------------------------------------- one file, one answer


def _padded(tmp_path):
    """A CSV with whitespace around every name and value, and the same data clean."""
    rng = np.random.default_rng(3)
    n = 60
    y = np.where(rng.random(n) < 0.4, "pos", "neg")
    s = np.round(rng.normal(size=n) + (y == "pos"), 3)
    w = rng.integers(1, 4, n)
    padded = tmp_path / "padded.csv"
    padded.write_text(" label ,  s , w \n" + "".join(f"  {a} , {b} ,{c} \n" for a, b, c in zip(y, s, w)))
    return padded, y, s, w


def _answer(result):
    return [(r.auroc, r.average_precision, r.auprg, r.best[0].threshold, float(r.n_positives)) for r in result]


def test_whitespace_around_names_and_values_is_stripped_on_every_path(tmp_path):
    import isometrics as im
    from isometrics.cli._io import read_columns

    padded, y, s, w = _padded(tmp_path)
    # reference: the clean data in memory (itself tested against scikit-learn)
    expected = _answer(im.evaluate_scores(y, {"s": s}, sample_weight=w, pos_label="pos"))
    # in memory, as the command line reads the file
    columns = read_columns(padded, ["label", "s", "w"])
    assert columns["label"].tolist() == y.tolist() and columns["s"].dtype.kind == "f"
    assert (
        _answer(im.evaluate_scores(columns["label"], {"s": columns["s"]}, sample_weight=columns["w"], pos_label="pos"))
        == expected
    )
    # out of core
    assert (
        _answer(
            isometrics.scale.evaluate_out_of_core(
                padded, label="label", scores="s", sample_weight="w", pos_label="pos", memory_limit="64MB"
            )
        )
        == expected
    )
    # Dask reads Parquet: the same values stored there, from the frame the CSV reader gives
    parquet = tmp_path / "padded.parquet"
    pq.write_table(pa.table({"label": columns["label"], "s": columns["s"], "w": columns["w"]}), parquet)
    assert (
        _answer(isometrics.dask.evaluate_dask(parquet, label="label", scores="s", sample_weight="w", pos_label="pos"))
        == expected
    )


def test_padded_booleans_and_numbers_are_typed_alike(tmp_path):
    from isometrics.cli._io import read_columns

    path = tmp_path / "typed.csv"
    path.write_text("y , s\n true , 1 \n false , 2\n TRUE , \n")
    columns = read_columns(path, ["y"])
    assert columns["y"].dtype == bool and columns["y"].tolist() == [True, False, True]
    with pytest.raises(IsometricsError, match=r"column 's' has 1 missing value \(first at row 2\)"):
        read_columns(path, ["s"])
    with pytest.raises(IsometricsError, match=r"score column 's' has a missing.*at row 2"):
        isometrics.scale.evaluate_out_of_core(path, label="y", scores="s", memory_limit="64MB")


def test_cli_padded_csv_in_memory_and_out_of_core_agree(tmp_path):
    padded, *_ = _padded(tmp_path)
    outputs = []
    for extra in ([], ["--out-of-core"]):
        result = run_in_process(
            "evaluate",
            padded,
            "--label",
            "label",
            "--pos-label",
            "pos",
            "--score",
            "s",
            "--weight",
            "w",
            "--json",
            "-",
            *extra,
        )
        assert result.returncode == 0, result.stderr
        import json

        r = json.loads(result.stdout)["results"][0]
        outputs.append((r["auroc"], r["average_precision"], r["auprg"], float(r["n_positives"])))
    assert outputs[0] == outputs[1]
