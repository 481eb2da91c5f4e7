"""scikit-learn's own metric tests, run against isometrics' functions of the same names.

The test files ship inside the installed scikit-learn (``sklearn/metrics/tests/``); nothing
of them is copied here. A child pytest run loads ``_sklearn_suite_plugin`` (see its
docstring), which selects the cases that concern the names both libraries export,
substitutes isometrics' functions for scikit-learn's and checks the type, not the
wording, of the errors and warnings scikit-learn's tests expect.

Every case must pass: no numeric difference, no crash, no input refused that
scikit-learn takes. ``ALLOWED`` would map a failing case (a node id, ``fnmatch`` pattern
allowed) to the function, a phrase of its Notes that states the difference, and why the
case meets it; it is empty. Only the wording of messages may differ: ``WORDING`` lists
each case whose error or warning message does not match scikit-learn's phrase, with the
reason. The lists are those of the scikit-learn version in ``SKLEARN_VERSION``.
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


#: Failing cases and the documented difference each meets. Empty: on every case, isometrics'
#: functions return what scikit-learn's return (values, order, dtypes, NaN and warnings) and
#: raise the exception types scikit-learn's raise. A new entry needs an issue, not a shrug.
ALLOWED: dict[str, Difference] = {}

_TEMPLATE = (
    "isometrics' messages follow its template (function, what, value, fix), so scikit-learn's "
    "exact phrase does not match; the exception or warning type is scikit-learn's"
)

#: Cases that pass but whose error or warning message is worded otherwise than scikit-learn's
#: (the plugin checks types and records the wording), each pattern with the reason.
WORDING: dict[str, str] = {
    "test_classification.py::test_confusion_matrix_error[[]*[]]": _TEMPLATE,
    "test_classification.py::test_confusion_matrix_single_label": _TEMPLATE,
    "test_classification.py::test_precision_recall_f_unused_pos_label": _TEMPLATE + "; it also names the fix",
    "test_classification.py::test_prf_average_binary_data_non_binary": _TEMPLATE,
    "test_ranking.py::test_auc_score_non_binary_class": _TEMPLATE + "; it names the absent class",
    "test_ranking.py::test_confusion_matrix_at_thresholds_implicit_bytes_pos_label[[]*[]]": _TEMPLATE
    + "; it shows how to decode the bytes",
    "test_ranking.py::test_confusion_matrix_at_thresholds_implicit_pos_label[[]*[]]": _TEMPLATE,
    "test_ranking.py::test_confusion_matrix_at_thresholds_multiclass_error[[]*[]]": _TEMPLATE
    + "; it says to binarise y_true",
    "test_ranking.py::test_multiclass_ovo_roc_auc_toydata[[]*[]]": _TEMPLATE,
    "test_ranking.py::test_multiclass_ranking_metrics_raise_for_incorrect_shape_of_y_score": _TEMPLATE,
    "test_ranking.py::test_precision_recall_curve_toydata[[]*[]]": _TEMPLATE,
    "test_ranking.py::test_roc_auc_score_multiclass_error[[]*[]]": _TEMPLATE,
    "test_ranking.py::test_roc_auc_score_multiclass_error[[]msg2-kwargs2[]]": "scikit-learn refuses sample_weight for one-vs-one; isometrics takes it (roc_auc_score's Notes), so the "
    "empty sample_weight of the case is refused for its length instead, with a ValueError as scikit-learn's",
    "test_ranking.py::test_roc_auc_score_multiclass_labels_error[[]*[]]": _TEMPLATE,
    "test_ranking.py::test_roc_curve_one_label": _TEMPLATE,
    "test_ranking.py::test_roc_curve_toydata": _TEMPLATE,
}


def _notes(function: str) -> str:
    doc = inspect.getdoc(getattr(im, function)) or ""
    notes = doc.split("\nNotes\n-----\n", 1)
    assert len(notes) == 2, f"{function} has no Notes section"
    return " ".join(notes[1].split("\nReferences\n")[0].split("\nExamples\n")[0].split())


def test_every_allowed_difference_is_documented_in_the_notes():
    for pattern, diff in ALLOWED.items():
        assert " ".join(diff.notes.split()) in _notes(diff.function), (pattern, diff.function)


@pytest.fixture(scope="module")
def sklearn_results(tmp_path_factory):
    out = tmp_path_factory.mktemp("sklearn_suite") / "results.json"
    here = Path(__file__).resolve().parent
    env = dict(
        os.environ,
        ISOMETRICS_SKLEARN_RESULTS=str(out),
        PYTHONPATH=os.pathsep.join([str(here), str(here.parent / "src"), os.environ.get("PYTHONPATH", "")]),
    )
    env.pop("ISOMETRICS_SKLEARN_STRICT", None)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "_sklearn_suite_plugin",
            "--rootdir",
            str(_TESTS),
            *map(str, FILES),
        ],
        cwd=out.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.exists(), proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(out.read_text())


def test_sklearn_version_is_the_one_the_allowlist_was_made_for():
    assert sklearn.__version__.startswith(SKLEARN_VERSION), sklearn.__version__


def test_the_shared_names_are_selected(sklearn_results):
    assert set(sklearn_results["shared"]) >= {
        "accuracy_score",
        "confusion_matrix",
        "f1_score",
        "precision_recall_curve",
        "roc_curve",
        "roc_auc_score",
    }
    assert len(sklearn_results["results"]) > 300


def test_every_failure_is_a_documented_difference(sklearn_results):
    failed = {k: v["error"] for k, v in sklearn_results["results"].items() if v["outcome"] == "failed"}
    unexplained = {k: e for k, e in failed.items() if not any(fnmatch.fnmatchcase(k, p) for p in ALLOWED)}
    assert not unexplained, "failures that are neither wording nor documented differences:\n" + "\n".join(
        f"{k}: {e}" for k, e in sorted(unexplained.items())
    )


def test_every_wording_difference_is_listed_with_its_reason(sklearn_results):
    worded = {k: v["wording"] for k, v in sklearn_results["results"].items() if v["wording"]}
    unlisted = {k: w for k, w in worded.items() if not any(fnmatch.fnmatchcase(k, p) for p in WORDING)}
    assert not unlisted, "messages worded otherwise than scikit-learn's, not listed in WORDING:\n" + "\n".join(
        f"{k}: {w[0]}" for k, w in sorted(unlisted.items())
    )
    stale = [p for p in WORDING if not any(fnmatch.fnmatchcase(k, p) for k in worded)]
    assert not stale, f"WORDING patterns that match no worded case (drop them): {stale}"


def test_every_allowed_difference_still_fails(sklearn_results):
    failed = [k for k, v in sklearn_results["results"].items() if v["outcome"] == "failed"]
    stale = [p for p in ALLOWED if not any(fnmatch.fnmatchcase(k, p) for k in failed)]
    assert not stale, f"allowed failures that now pass or are no longer selected (drop them): {stale}"
