"""scikit-learn's own metric tests, run against isometrics' functions of the same names.

The test files ship inside the installed scikit-learn (``sklearn/metrics/tests/``); nothing
of them is copied here. A child pytest run loads ``_sklearn_suite_plugin`` (see its
docstring), which selects the cases that concern the names both libraries export,
substitutes isometrics' functions for scikit-learn's and checks the type, not the
wording, of the errors and warnings scikit-learn's tests expect.

Every case must pass, or fail for a difference that the isometrics function documents
under *Notes*: ``ALLOWED`` maps each such case (a node id, ``fnmatch`` pattern allowed)
to the function, a phrase of its Notes that states the difference, and why the case
meets it. The test checks that the phrase is in that Notes section, that every failing
case is allowed, and that every allowed pattern still fails (a fixed difference leaves
the list). The allowlist is that of the scikit-learn version in ``SKLEARN_VERSION``.
"""

from __future__ import annotations

import fnmatch
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest

import isometrics as im

sklearn = pytest.importorskip("sklearn")

SKLEARN_VERSION = "1.9"
_TESTS = Path(sklearn.__file__).parent / "metrics" / "tests"
FILES = [_TESTS / "test_classification.py", _TESTS / "test_ranking.py"]


class Difference(NamedTuple):
    function: str  # the isometrics function whose Notes document the difference
    notes: str  # a phrase of those Notes
    reason: str  # why the case fails for that difference


_PR_ORIENTATION = Difference(
    "precision_recall_curve", "thresholds decrease and every array has the same length",
    "the test indexes scikit-learn's increasing thresholds, one fewer than the points, and expects the points "
    "after full recall to be dropped")
_ONE_CLASS = Difference(
    "roc_curve", "a single class in ``y_true`` is an error rather than NaN with a warning",
    "the test expects NaN rates and an UndefinedMetricWarning for a one-class y_true; isometrics raises")
_BYTES = Difference(
    "roc_curve", "bytes labels are refused",
    "the test passes bytes labels (b'a', b'b'); isometrics asks for them decoded to str")
_CM_DTYPE = Difference(
    "confusion_matrix", "the result is float64 always",
    "the test expects an integer matrix for unweighted or integer-weighted input")

_AUC_ONE_CLASS = Difference(
    "roc_auc_score", "a binary problem with one class raises",
    "the test expects NaN and an UndefinedMetricWarning for a one-class y_true; isometrics raises")
_OVO_NONE = Difference(
    "roc_auc_score", "``average=None`` with one-vs-one raises ``ValueError``",
    "the test expects NotImplementedError for average=None with multi_class='ovo'")

ALLOWED: dict[str, Difference] = {
    "test_ranking.py::test_auc_score_non_binary_class": _AUC_ONE_CLASS,
    "test_ranking.py::test_multiclass_ovo_roc_auc_toydata[[]*[]]": _OVO_NONE,
    "test_classification.py::test_confusion_matrix_dtype": _CM_DTYPE,
    "test_classification.py::test_confusion_matrix_normalize[[]None-i-2[]]": _CM_DTYPE,
    "test_ranking.py::test_confusion_matrix_at_thresholds_implicit_bytes_pos_label[[]*[]]": _BYTES,
    "test_ranking.py::test_precision_recall_curve[[]*[]]": _PR_ORIENTATION,
    "test_ranking.py::test_precision_recall_curve_drop_intermediate": _PR_ORIENTATION,
    "test_ranking.py::test_precision_recall_curve_toydata[[]*[]]": _PR_ORIENTATION,
    "test_ranking.py::test_roc_curve_one_label": _ONE_CLASS,
    "test_ranking.py::test_roc_curve_toydata": _ONE_CLASS,
}


def _notes(function: str) -> str:
    doc = inspect.getdoc(getattr(im, function)) or ""
    notes = doc.split("\nNotes\n-----\n", 1)
    assert len(notes) == 2, f"{function} has no Notes section"
    return " ".join(notes[1].split("\nReferences\n")[0].split("\nExamples\n")[0].split())


@pytest.mark.parametrize("pattern", sorted(ALLOWED))
def test_every_allowed_difference_is_documented_in_the_notes(pattern):
    diff = ALLOWED[pattern]
    assert " ".join(diff.notes.split()) in _notes(diff.function), (pattern, diff.function)


@pytest.fixture(scope="module")
def sklearn_results(tmp_path_factory):
    out = tmp_path_factory.mktemp("sklearn_suite") / "results.json"
    here = Path(__file__).resolve().parent
    env = dict(os.environ, ISOMETRICS_SKLEARN_RESULTS=str(out),
               PYTHONPATH=os.pathsep.join([str(here), str(here.parent / "src"), os.environ.get("PYTHONPATH", "")]))
    env.pop("ISOMETRICS_SKLEARN_STRICT", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "_sklearn_suite_plugin",
         "--rootdir", str(_TESTS), *map(str, FILES)],
        cwd=out.parent, env=env, capture_output=True, text=True, timeout=600,
    )
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(out.read_text())


def test_sklearn_version_is_the_one_the_allowlist_was_made_for():
    assert sklearn.__version__.startswith(SKLEARN_VERSION), sklearn.__version__


def test_the_shared_names_are_selected(sklearn_results):
    assert set(sklearn_results["shared"]) >= {
        "accuracy_score", "confusion_matrix", "f1_score", "precision_recall_curve", "roc_curve", "roc_auc_score"}
    assert len(sklearn_results["results"]) > 300


def test_every_failure_is_a_documented_difference(sklearn_results):
    failed = {k: v["error"] for k, v in sklearn_results["results"].items() if v["outcome"] == "failed"}
    unexplained = {k: e for k, e in failed.items() if not any(fnmatch.fnmatchcase(k, p) for p in ALLOWED)}
    assert not unexplained, "failures that are neither wording nor documented differences:\n" + "\n".join(
        f"{k}: {e}" for k, e in sorted(unexplained.items()))


def test_every_allowed_difference_still_fails(sklearn_results):
    failed = [k for k, v in sklearn_results["results"].items() if v["outcome"] == "failed"]
    stale = [p for p in ALLOWED if not any(fnmatch.fnmatchcase(k, p) for k in failed)]
    assert not stale, f"allowed failures that now pass or are no longer selected (drop them): {stale}"
