"""Columns of pyarrow, pandas and polars are inputs like NumPy arrays, through one conversion.

``as_1d`` converts every array argument: pyarrow arrays (chunked or not, booleans and
strings included, which have no zero-copy NumPy view), pandas and polars Series. A null
gives the missing-value message (what, where, how many, what to do) whatever the library.
"""

import subprocess
import sys

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import isometrics as im

Y = np.array([True, False, True, False, True, False])
S = np.array([0.9, 0.1, 0.6, 0.7, 0.8, 0.3])
NAMES = np.where(Y, "yes", "no")
W = np.array([1.0, 2.0, 1.0, 3.0, 1.0, 1.0])

CONVERTERS = {
    "pyarrow": pa.array,
    "pyarrow chunked": lambda a: pa.chunked_array([a[:2].tolist(), a[2:].tolist()]),
    "pyarrow dictionary": lambda a: pa.array(a).dictionary_encode() if a.dtype.kind == "U" else pa.array(a),
    "pandas": pd.Series,
    "pandas nullable": lambda a: pd.Series(a, dtype={"b": "boolean", "f": "Float64", "U": "string"}[a.dtype.kind]),
    "pandas arrow": lambda a: pd.Series(
        a, dtype={"b": "bool[pyarrow]", "f": "float64[pyarrow]", "U": "string[pyarrow]"}[a.dtype.kind]
    ),
    "pandas category": lambda a: pd.Series(a, dtype="category") if a.dtype.kind == "U" else pd.Series(a),
    "polars": pl.Series,
}

# functions of each input kind: name -> call(y_true, y_score or y_pred, sample_weight)
CALLS = {
    "auroc": lambda y, s, w, p: im.auroc(y, s, sample_weight=w, pos_label=p),
    "roc_curve": lambda y, s, w, p: np.r_[tuple(im.roc_curve(y, s, sample_weight=w, pos_label=p)[:2])],
    "best_threshold": lambda y, s, w, p: im.best_threshold(y, s, metric="f2", sample_weight=w, pos_label=p).value,
    "reliability_curve": lambda y, s, w, p: (
        im.spaces.reliability_curve(y, s, n_bins=3, sample_weight=w, pos_label=p).fraction_positive
    ),
    "always_positive": lambda y, s, w, p: im.spaces.always_positive(y, sample_weight=w, pos_label=p).precision,
    "accuracy_score": lambda y, s, w, p: im.accuracy_score(y, _flip(y), sample_weight=w),
    "confusion_matrix": lambda y, s, w, p: im.confusion_matrix(y, _flip(y), sample_weight=w),
    "f1_score": lambda y, s, w, p: im.f1_score(y, _flip(y), sample_weight=w, pos_label=True if p is None else p),
}


def _flip(y):
    """The same column type as ``y``, with the first two samples swapped (hard predictions)."""
    if isinstance(y, (pa.Array, pa.ChunkedArray)):
        values = y.to_pylist()
        return pa.array(values[1::-1] + values[2:])
    if isinstance(y, (pd.Series, pl.Series)):
        values = y.to_list()
        return type(y)(values[1::-1] + values[2:], dtype=y.dtype)
    return np.r_[y[1::-1], y[2:]]


@pytest.mark.parametrize("library", CONVERTERS)
@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("labels", ["bool", "str"])
def test_columns_of_every_library_give_the_numpy_result(library, name, labels):
    """auroc(pa.array(bool_labels), pa.array(s)) and string labels used to raise ArrowInvalid."""
    convert = CONVERTERS[library]
    y, pos = (Y, None) if labels == "bool" else (NAMES, "yes")
    expected = CALLS[name](y, S, W, pos)
    got = CALLS[name](convert(y), convert(S), convert(W), pos)
    np.testing.assert_array_equal(got, expected)


NULL_LABELS = [True, False, None, False, True, None]
NULL_SCORES = [0.9, 0.1, 0.6, None, 0.8, 0.3]


@pytest.mark.parametrize(
    "column",
    [
        pytest.param(lambda v: pa.array(v), id="pyarrow"),
        pytest.param(lambda v: pa.chunked_array([v[:2], v[2:]]), id="pyarrow chunked"),
        pytest.param(lambda v: pl.Series(v), id="polars"),
        pytest.param(
            lambda v: pd.Series(v, dtype="boolean" if isinstance(v[0], bool) else "Float64"), id="pandas nullable"
        ),
        pytest.param(lambda v: pd.Series(v, dtype=object), id="pandas object"),
    ],
)
def test_nulls_give_the_missing_value_message(column):
    """Nulls used to raise ArrowInvalid (or surface as NaN or None labels)."""
    with pytest.raises(
        im.IsometricsError,
        match=r"^auroc: y_true contains 2 missing "
        r"values \(null / NA; first at index 2\); drop or impute",
    ):
        im.auroc(column(NULL_LABELS), S)
    with pytest.raises(im.IsometricsError, match=r"y_score contains 1 missing value \(null / NA; first at index 3\)"):
        im.auroc(Y, column(NULL_SCORES))
    with pytest.raises(
        im.IsometricsError,
        match=r"^accuracy_score: y_pred contains 2 missing values \(null / NA; "
        r"first at index 2\)",
    ):
        im.accuracy_score(Y, column(NULL_LABELS))
    with pytest.raises(im.IsometricsError, match=r"^class_counts: sample_weight contains 1 missing value"):
        im.class_counts(Y, Y, sample_weight=column(NULL_SCORES))
    with pytest.raises(im.IsometricsError, match=r"^g_beta_rho: recall contains 1 missing value"):
        im.g_beta_rho(0.5, column(NULL_SCORES), beta=1.0, rho=-2.0)


@pytest.mark.parametrize("values", [["yes", None, "no"], ["yes", "no", pd.NA], ["a", np.nan, "b"]])
def test_missing_string_labels_in_pandas(values):
    for dtype in (object, "string", "category"):
        with pytest.raises(
            im.IsometricsError,
            match=r"^accuracy_score: y_true contains 1 missing value \(null / NA; "
            r"first at index \d\)",
        ):
            im.accuracy_score(pd.Series(values, dtype=dtype), ["yes", "no", "no"])


def test_missing_labels_in_python_lists():
    with pytest.raises(
        im.IsometricsError,
        match=r"^accuracy_score: y_true contains 1 missing value \(null / NA; "
        r"first at index 1\)",
    ):
        im.accuracy_score(["a", None, "b"], ["a", "b", "b"])
    with pytest.raises(im.IsometricsError, match=r"^accuracy_score: y_true contains 1 missing value"):
        im.accuracy_score(np.array(["a", float("nan"), "b"], dtype=object), ["a", "b", "b"])


def test_numpy_backed_pandas_and_polars_floats_keep_the_nan_message():
    """A NaN float (not a null) is reported as NaN, as for a NumPy array."""
    scores = [0.9, 0.1, float("nan"), 0.7, 0.8, 0.3]
    for column in (pd.Series(scores), pl.Series(scores, nan_to_null=False), np.array(scores)):
        with pytest.raises(im.IsometricsError, match=r"y_score contains 1 NaN value \(first at index 2\)"):
            im.auroc(Y, column)


def test_arrow_inputs_are_not_modified_and_results_match_numpy():
    y, s = pa.array(Y), pa.chunked_array([S[:3], S[3:]])
    op = im.OperatingPoints.from_scores(y, s)
    assert op.auroc() == im.auroc(Y, S)
    assert y.to_pylist() == Y.tolist() and s.to_pylist() == S.tolist()


def test_importing_isometrics_imports_no_data_frame_library():
    code = "import sys, isometrics; print(sorted(m for m in ('pandas', 'pyarrow', 'polars') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
