"""A CSV file separated by semicolons (or tabs, or bars) is read as such (issue 20, item 10).

It used to be read as one column ``'malignant;logreg;forest'`` with no hint. Now the
separator is detected when the header reads as one column that holds one (said on stderr),
or chosen with ``--separator``; in memory and out of core agree. Reference: scikit-learn's
roc_auc_score on the same numbers.
"""

from __future__ import annotations

import numpy as np
import pytest
from _cli import run_in_process as run  # the tests of what commands print and write; not of the process
from sklearn.metrics import roc_auc_score

import isometrics
from isometrics._core.files import csv_separator
from isometrics.exceptions import IsometricsError

Y = [1, 0, 1, 0, 1, 0, 0, 1]
LOGREG = [0.9, 0.2, 0.7, 0.4, 0.35, 0.1, 0.5, 0.8]
FOREST = [0.6, 0.3, 0.8, 0.7, 0.2, 0.1, 0.4, 0.9]


def _write(path, sep):
    rows = [sep.join(["malignant", "logreg", "forest"])]
    rows += [sep.join([str(y), str(a), str(b)]) for y, a, b in zip(Y, LOGREG, FOREST)]
    path.write_text("\n".join(rows) + "\n")
    return path


def _auroc_printed(stdout: str, name: str) -> float:
    row = next(line for line in stdout.splitlines() if f" {name} " in line and "│" in line)
    return float(row.split("│")[4])


@pytest.mark.parametrize("out_of_core", [False, True], ids=["in-memory", "out-of-core"])
@pytest.mark.parametrize(("sep", "said"), [(";", "';'"), ("\t", "tab"), ("|", "'|'")], ids=["semicolon", "tab", "bar"])
def test_a_separator_in_a_one_column_header_is_detected_and_said(tmp_path, sep, said, out_of_core):
    path = _write(tmp_path / "scores.csv", sep)
    res = run(
        "evaluate",
        path,
        "--label",
        "malignant",
        "--score",
        "logreg",
        "--score",
        "forest",
        *(["--out-of-core"] if out_of_core else []),
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    note = [line for line in res.stderr.splitlines() if "separated" in line]
    assert len(note) == 1 and said in note[0] and "--separator" in note[0]
    assert _auroc_printed(res.stdout, "logreg") == pytest.approx(roc_auc_score(Y, LOGREG), abs=5e-5)
    assert _auroc_printed(res.stdout, "forest") == pytest.approx(roc_auc_score(Y, FOREST), abs=5e-5)


@pytest.mark.parametrize("command", ["evaluate", "compare", "report"])
def test_separator_option_is_used_silently(tmp_path, command):
    path = _write(tmp_path / "scores.txt", ";")
    extra = {
        "evaluate": [],
        "compare": ["--n-resamples", "20"],
        "report": ["-o", tmp_path / "r.html", "--n-resamples", "20"],
    }[command]
    res = run(
        command,
        path,
        "--label",
        "malignant",
        "--score",
        "logreg",
        "--score",
        "forest",
        "--separator",
        ";",
        *extra,
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stderr
    assert "separated" not in res.stderr


def test_a_wrong_separator_is_refused_with_the_fix(tmp_path):
    path = _write(tmp_path / "scores.csv", ";")
    res = run("evaluate", path, "--label", "malignant", "--score", "logreg", "--separator", ",", cwd=tmp_path)
    assert res.returncode == 2
    assert "'malignant;logreg;forest'" in res.stderr and "pass --separator ';'" in res.stderr
    assert "Traceback" not in res.stderr and len(res.stderr.strip().splitlines()) == 1
    bad = run("evaluate", path, "--label", "malignant", "--score", "logreg", "--separator", ";;", cwd=tmp_path)
    assert bad.returncode == 2 and "--separator must be one character" in bad.stderr


def test_library_out_of_core_reads_the_separator(tmp_path):
    path = _write(tmp_path / "scores.csv", ";")
    for given in (None, ";"):
        result = isometrics.scale.evaluate_out_of_core(path, label="malignant", scores=["logreg"], separator=given)
        assert result["logreg"].auroc == pytest.approx(roc_auc_score(Y, LOGREG))
    with pytest.raises(IsometricsError, match="`separator` must be one character"):
        isometrics.scale.evaluate_out_of_core(path, label="malignant", scores=["logreg"], separator="")


def test_a_file_of_several_columns_is_never_resplit(tmp_path):
    path = tmp_path / "a.csv"
    path.write_text("y,score;v2\n1,0.5\n")
    assert csv_separator(path) == (",", None)
    tsv = tmp_path / "a.tsv"
    tsv.write_text("y\tscore\n1\t0.5\n")
    assert csv_separator(tsv) == ("\t", None)
    np.testing.assert_equal(csv_separator(path, ";"), (";", None))


def test_a_one_column_file_asked_for_by_its_name_is_kept(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("a;b\n1\n")
    assert csv_separator(path, wanted=["a;b"]) == (",", None)
    assert csv_separator(path)[0] == ";"
