"""``--pos-label`` text means the same label on the three scale paths (issue 24, item 3: one
label-text conversion): columns in memory (``coerce_label``), out of core and Dask (both from
the Parquet schema). Expected values are written by hand from the rule in the docstring of
``label_from_text``."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from isometrics._core.label_text import label_from_text
from isometrics.cli import cluster, out_of_core
from isometrics.cli._io import coerce_label
from isometrics.exceptions import IsometricsError

TEXTS = ["1", "0", "true", "TRUE", "1.0", " 1", "yes", "2.5"]
E = IsometricsError
# label column -> (its values, what each text of TEXTS names: a value of an exact type, or an error)
TABLE = {
    "bool": ([False, True], [True, False, True, True, E, True, E, E]),
    "int64": ([0, 1], [1, 0, E, E, 1, 1, E, E]),
    "float64": ([0.0, 1.0, 2.5], [1.0, 0.0, E, E, 1.0, 1.0, E, 2.5]),
    "string": (TEXTS, TEXTS),
}
ARROW = {"bool": pa.bool_(), "int64": pa.int64(), "float64": pa.float64(), "string": pa.string()}
CASES = [(column, text, expected) for column, (_, answers) in TABLE.items() for text, expected in zip(TEXTS, answers)]


def _paths(tmp_path, column):
    values = TABLE[column][0]
    file = tmp_path / f"{column}.parquet"
    pq.write_table(pa.table({"y": pa.array(values, type=ARROW[column]), "s": np.linspace(0, 1, len(values))}), file)
    y = pq.read_table(file).column("y").to_numpy(zero_copy_only=False)
    return {
        "in memory": lambda text: coerce_label(text, y, "y"),
        "out of core": lambda text: out_of_core._pos_label(file, "y", text),
        "dask": lambda text: cluster._pos_label(text, file, "y"),
    }


@pytest.mark.parametrize(("column", "text", "expected"), CASES, ids=[f"{c}-{t!r}" for c, t, _ in CASES])
def test_three_paths_give_the_same_label(tmp_path, column, text, expected):
    for path, convert in _paths(tmp_path, column).items():
        if expected is E:
            with pytest.raises(IsometricsError, match=rf"^--pos-label {text!r} is not a value of label column 'y'"):
                convert(text)
        else:
            got = convert(text)
            assert (type(got), got) == (type(expected), expected), path


def test_no_label_named_lists_the_labels_present():
    with pytest.raises(IsometricsError) as info:
        coerce_label("7", np.array([0, 1, 0]), "y")
    assert str(info.value) == "--pos-label '7' is not a value of label column 'y' (values: 0, 1); pass one of them."
    with pytest.raises(IsometricsError, match=r"\(values: no, yes\); pass one of them\.$"):
        coerce_label("Yes", np.array(["no", "yes"]), "y")


def test_a_schema_without_data_names_the_type(tmp_path):
    paths = _paths(tmp_path, "bool")
    for path in ("out of core", "dask"):
        with pytest.raises(IsometricsError) as info:
            paths[path]("yes")
        assert (
            str(info.value) == "--pos-label 'yes' is not a value of label column 'y' (a column of bool); "
            "pass one of its values."
        ), path


def test_object_labels_are_matched_by_their_text():
    assert label_from_text("1", labels=np.array([0, 1], dtype=object), column="y") == 1
    assert label_from_text("True", labels=np.array([False, True], dtype=object), column="y") is True
    assert label_from_text("b", labels=np.array(["a", "b"], dtype=object), column="y") == "b"


@pytest.mark.parametrize(
    ("text", "expected"), [("1", 1), ("2.5", 2.5), ("True", True), ("false", False), ("yes", "yes"), (" 1", 1)]
)
def test_unknown_type_is_guessed(text, expected):  # a CSV read by DuckDB, which infers the type
    got = label_from_text(text, column="y")
    assert (type(got), got) == (type(expected), expected)
