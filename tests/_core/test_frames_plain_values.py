"""Plain values (NumPy arrays and scalars, Python numbers, lists) never reach narwhals' look-up of the
data-frame libraries, which costs 0.2-1.5 ms a call (the level curves and the elicitation engine call
the metrics with scalars thousands of times); columns and frames of the libraries still do."""

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

from isometrics._core import frames
from isometrics._core.arrays import as_array, check_real_array

PLAIN = [np.arange(3.0), np.float64(0.25), 0.25, 3, True, [0.1, 0.2], (0.1, 0.2), np.array([[1.0, 2.0]])]


@pytest.fixture
def no_narwhals(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("narwhals was asked about a plain value")

    monkeypatch.setattr(frames.nw, "from_native", refuse)


@pytest.mark.parametrize("value", PLAIN, ids=lambda v: type(v).__name__)
def test_plain_values_skip_narwhals(value, no_narwhals):
    np.testing.assert_array_equal(as_array(value, name="x", shape=None), np.asarray(value))
    np.testing.assert_array_equal(check_real_array(value, "x"), np.asarray(value, dtype=np.float64))
    assert frames.column_name(value) is None
    assert frames.frame_columns(value) is None


@pytest.mark.parametrize(
    "column",
    [pd.Series([1.0, 2.0], name="a"), pl.Series("a", [1.0, 2.0]), pa.chunked_array([[1.0, 2.0]])],
    ids=["pandas", "polars", "pyarrow"],
)
def test_columns_of_libraries_still_read(column):
    np.testing.assert_array_equal(as_array(column, name="x"), [1.0, 2.0])
    assert frames.column_name(column) == (None if isinstance(column, pa.ChunkedArray) else "a")
