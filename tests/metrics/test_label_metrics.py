"""Label metrics take class labels only: one shared check, compared with scikit-learn.

Every label metric validates ``y_true, y_pred`` through ``_core.confusion.check_label_pair``, so a
registry of all of them checks each rule once per function. Expected behaviour comes
from scikit-learn (installed in the test environment): for the same inputs both raise,
or both return the same values.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

import isometrics as im

# every function that takes (y_true, y_pred): name -> call(y_true, y_pred, **kwargs)
LABEL_METRICS = {
    "accuracy_score": im.accuracy_score,
    "balanced_accuracy_score": im.balanced_accuracy_score,
    "matthews_corrcoef": im.matthews_corrcoef,
    "class_counts": im.class_counts,
    "confusion_matrix": im.confusion_matrix,
    "precision_recall_fscore_support": im.precision_recall_fscore_support,
    "precision_score": lambda y, p, **k: im.precision_score(y, p, average="macro", **k),
    "recall_score": lambda y, p, **k: im.recall_score(y, p, average="macro", **k),
    "f1_score": lambda y, p, **k: im.f1_score(y, p, average="macro", **k),
    "fbeta_score": lambda y, p, **k: im.fbeta_score(y, p, beta=2.0, average="macro", **k),
    "specificity_score": lambda y, p, **k: im.specificity_score(y, p, average="macro", **k),
    "negative_predictive_value_score": lambda y, p, **k: im.negative_predictive_value_score(y, p, average="macro", **k),
    "false_positive_rate_score": lambda y, p, **k: im.false_positive_rate_score(y, p, average="macro", **k),
    "metric_report": im.metric_report,
    "expected_cost": lambda y, p, **k: im.spaces.expected_cost(y, p, cost_matrix=[[0, 1], [4, 0]], **k),
}
Y = [0, 1, 1, 0]
PROBA = [0.2, 0.7, 0.9, 0.1]


@pytest.mark.parametrize("name", LABEL_METRICS)
def test_continuous_y_pred_is_rejected(name):
    """accuracy_score([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.1]) used to return 0.0 (one class per value)."""
    with pytest.raises(
        im.IsometricsError,
        match=rf"^{name}: y_pred holds continuous values \(e.g. 0.2, not a whole "
        r"number\), not class labels.*best_threshold",
    ):
        LABEL_METRICS[name](Y, PROBA)


@pytest.mark.parametrize("name", LABEL_METRICS)
def test_continuous_y_true_is_rejected(name):
    with pytest.raises(im.IsometricsError, match=rf"^{name}: y_true holds continuous values \(e.g. 0.2"):
        LABEL_METRICS[name](PROBA, Y)


@pytest.mark.parametrize("name", LABEL_METRICS)
def test_whole_floats_are_labels(name):
    """Floats that are whole numbers are labels, as in scikit-learn: 0.0/1.0 equals 0/1."""
    y_pred = [0, 1, 0, 0]
    a = LABEL_METRICS[name](Y, y_pred)
    b = LABEL_METRICS[name](np.asarray(Y, dtype=float), np.asarray(y_pred, dtype=np.float32))
    assert repr(_values(a)) == repr(_values(b))


def _values(result):
    if isinstance(result, im.ClassCounts):
        return np.r_[result.tp, result.fp, result.fn, result.tn]
    if isinstance(result, im.MetricReport):
        return result.values
    if isinstance(result, tuple):
        return [np.asarray(v, dtype=float) if v is not None else None for v in result]
    return np.asarray(result, dtype=float)


@pytest.mark.parametrize("name", LABEL_METRICS)
@pytest.mark.parametrize(
    "y_true, y_pred, match",
    [
        (
            np.array([b"a", b"b"]),
            np.array([b"a", b"a"]),
            r"y_true holds bytes \(e.g. b'a'\); bytes are not labels\. Decode",
        ),
        (np.array([b"a", b"b"], dtype=object), np.array([b"a", b"a"], dtype=object), r"y_true holds bytes"),
        (np.array(["a", "b"]), np.array([b"a", b"a"]), r"y_pred holds bytes"),
        (np.array([0, 1]), np.array([1j, 1]), r"y_pred holds complex numbers"),
        (np.array([0, 1, 1]), np.array([0, np.nan, 1]), r"y_pred contains NaN labels \(first at index 1\)"),
        (np.array([0, 1, 1]), np.array([0, np.inf, 1]), r"y_pred contains infinite labels \(first at index 1\)"),
        (
            np.array(["a", None, "b"], dtype=object),
            np.array(["a", "b", "b"]),
            r"y_true contains 1 missing value \(null / NA; first at index 1\)",
        ),
        (np.array([0, 1, 1]), np.array([0, 2**63, 1], dtype=float), r"y_pred holds continuous values"),
    ],
)
def test_values_that_are_not_labels(name, y_true, y_pred, match):
    with pytest.raises(im.IsometricsError, match=rf"^{name}: {match}"):
        LABEL_METRICS[name](y_true, y_pred)


def _object_array(items):
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


@pytest.mark.parametrize("name", LABEL_METRICS)
@pytest.mark.parametrize("sequence", [list, tuple, set, np.array])
def test_legacy_multilabel_sequences_are_rejected(name, sequence):
    """An object array of lists used to be read as one label per list."""
    y = _object_array([sequence([0, 1]), sequence([1]), sequence([0])])
    with pytest.raises(im.IsometricsError, match=rf"^{name}: y_true holds sequences .*legacy multilabel format"):
        LABEL_METRICS[name](y, [0, 1, 0])
    with pytest.raises(ValueError):  # scikit-learn refuses it too
        skm.accuracy_score(y, [0, 1, 0])


@pytest.mark.parametrize("name", LABEL_METRICS)
def test_complex_sample_weight_is_rejected(name):
    """Complex weights used to be accepted with their imaginary part dropped."""
    with pytest.raises(im.IsometricsError, match=rf"^{name}: sample_weight holds complex numbers"):
        LABEL_METRICS[name]([0, 1, 1], [0, 1, 0], sample_weight=np.array([1 + 1j, 1, 1]))


@pytest.mark.parametrize(
    "func",
    [im.auroc, im.roc_curve, im.best_threshold, im.spaces.always_positive, im.spaces.reliability_curve, im.one_vs_rest],
)
def test_complex_sample_weight_is_rejected_by_every_weighted_function(func):
    w = np.array([1, 1 + 0j, 2, 1])
    args = {
        im.spaces.always_positive: ([0, 1, 1, 0],),
        im.one_vs_rest: ([0, 1, 2, 1], np.eye(3)[[0, 1, 2, 1]] * 0.8 + 0.05),
    }
    kwargs = {"metric": "f1"} if func is im.best_threshold else {}
    with pytest.raises(im.IsometricsError, match=r"sample_weight holds complex numbers"):
        func(*args.get(func, ([0, 1, 1, 0], [0.1, 0.7, 0.4, 0.3])), sample_weight=w, **kwargs)


def test_bytes_pos_label_is_named():
    with pytest.raises(
        im.InvalidParameterError,
        match=r"precision_score: `pos_label` is bytes \(b'a'\); bytes are "
        r"not labels.*pos_label='a'",
    ):
        im.precision_score(["a", "b"], ["a", "a"], pos_label=b"a")
    with pytest.raises(im.InvalidParameterError, match=r"auroc|from_scores: `pos_label` is bytes"):
        im.auroc(["a", "b"], [0.1, 0.2], pos_label=b"a")


def test_bytes_binary_labels_are_named():
    with pytest.raises(im.IsometricsError, match=r"y_true holds bytes \(e.g. b'no'\); bytes are not labels"):
        im.auroc(np.array([b"no", b"yes", b"no"]), [0.1, 0.8, 0.3], pos_label="yes")


def test_continuous_binary_y_true_is_rejected():
    """Two distinct probabilities passed as labels: scikit-learn's roc_auc_score refuses them too."""
    with pytest.raises(im.IsometricsError, match=r"y_true holds continuous values \(e.g. 0.3"):
        im.auroc([0.3, 0.8, 0.3, 0.8], [0.1, 0.8, 0.3, 0.4], pos_label=0.8)
    with pytest.raises(ValueError, match="continuous format is not supported"):
        skm.roc_auc_score([0.3, 0.8, 0.3, 0.8], [0.1, 0.8, 0.3, 0.4])


@pytest.mark.parametrize(
    "y_true, y_pred",
    [([1, 1, 1], [1, 0, 1]), ([1, 1, 1], [1, 1, 1]), (["a"] * 4, ["a"] * 4), ([2, 2, 2, 2], [2, 1, 2, 3])],
)
def test_adjusted_balanced_accuracy_with_one_class_matches_sklearn(y_true, y_pred):
    """It used to raise ZeroDivisionError; scikit-learn computes (s - 1) / 0 (-inf, or nan when s = 1)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = skm.balanced_accuracy_score(y_true, y_pred, adjusted=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = im.balanced_accuracy_score(y_true, y_pred, adjusted=True)
    assert any(
        issubclass(w.category, im.UndefinedMetricWarning)
        and "adjusted=True is undefined when y_true has one class" in str(w.message)
        for w in caught
    )
    np.testing.assert_equal(got, expected)


@pytest.mark.parametrize("labels", [[], [5], [5, 6], [2], np.array([], dtype=int)])
def test_confusion_matrix_labels_naming_no_class_of_y_true_raise_like_sklearn(labels):
    """labels=[] used to give a 0x0 matrix and labels naming no class a matrix of zeros."""
    y_true, y_pred = [0, 1, 1, 0], [0, 2, 1, 1]
    with pytest.raises(ValueError):
        skm.confusion_matrix(y_true, y_pred, labels=labels)
    with pytest.raises(im.InvalidParameterError, match=r"^confusion_matrix: (`labels` is empty|none of `labels`)"):
        im.confusion_matrix(y_true, y_pred, labels=labels)


@pytest.mark.filterwarnings("ignore:A single label was found")
@pytest.mark.parametrize("labels", [[1, 5], [5, 0], [2, 1, 0], [0]])
def test_confusion_matrix_labels_partly_present_match_sklearn(labels):
    y_true, y_pred = [0, 1, 1, 0, 2], [0, 2, 1, 1, 2]
    np.testing.assert_array_equal(
        im.confusion_matrix(y_true, y_pred, labels=labels), skm.confusion_matrix(y_true, y_pred, labels=labels)
    )


@pytest.mark.parametrize(
    "name", [n for n in LABEL_METRICS if n not in ("accuracy_score", "balanced_accuracy_score", "matthews_corrcoef")]
)
def test_empty_labels_parameter_is_rejected(name):
    """An empty class selection has no value: every function with ``labels`` refuses it (never a NaN)."""
    with pytest.raises(im.InvalidParameterError, match=rf"^{name}: `labels` is empty"):
        LABEL_METRICS[name]([0, 1, 1], [0, 1, 0], labels=[])


def test_labels_of_another_type_than_y_true_are_named():
    with pytest.raises(
        im.InvalidParameterError,
        match=r"class_counts: `labels` holds <U1 values but y_true holds "
        r"int64 labels",
    ):
        im.class_counts([0, 1, 1], [0, 1, 0], labels=["a"])


# ---- the same answers as scikit-learn, raise for raise, on labels of every kind ----

FLOAT_VALUES = [0.0, 1.0, 2.0, -1.0, 0.5, 0.25, 1e20, 2.0**63, -0.0, np.nan]


@st.composite
def label_arrays(draw):
    n = draw(st.integers(1, 12))
    kind = draw(st.sampled_from(["int", "bool", "float", "str"]))
    if kind == "int":
        return np.array(draw(st.lists(st.integers(-1, 3), min_size=n, max_size=n)))
    if kind == "bool":
        return np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    if kind == "str":
        return np.array(draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n)))
    values = st.sampled_from(FLOAT_VALUES) if draw(st.booleans()) else st.sampled_from([0.0, 1.0, 2.0])
    return np.array(draw(st.lists(values, min_size=n, max_size=n)))


SK_PAIRS = {
    "accuracy_score": (im.accuracy_score, skm.accuracy_score),
    "balanced_accuracy_score": (im.balanced_accuracy_score, skm.balanced_accuracy_score),
    "matthews_corrcoef": (im.matthews_corrcoef, skm.matthews_corrcoef),
    "confusion_matrix": (im.confusion_matrix, skm.confusion_matrix),
    "precision_score": (
        lambda y, p: im.precision_score(y, p, average="macro", zero_division=0.0),
        lambda y, p: skm.precision_score(y, p, average="macro", zero_division=0.0),
    ),
    "f1_score": (
        lambda y, p: im.f1_score(y, p, average="weighted", zero_division=0.0),
        lambda y, p: skm.f1_score(y, p, average="weighted", zero_division=0.0),
    ),
    "precision_recall_fscore_support": (
        lambda y, p: im.precision_recall_fscore_support(y, p, zero_division=0.0)[:3],
        lambda y, p: skm.precision_recall_fscore_support(y, p, zero_division=0.0)[:3],
    ),
}


def _outcome(func, y_true, y_pred):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", func(y_true, y_pred)
        except ValueError as exc:  # IsometricsError and scikit-learn's errors are ValueErrors
            return "raised", str(exc)


@pytest.mark.parametrize("name", SK_PAIRS)
@given(y_true=label_arrays(), data=st.data())
def test_label_metrics_raise_or_agree_with_sklearn(name, y_true, data):
    y_pred = data.draw(label_arrays().map(lambda a: np.resize(a, len(y_true))))
    ours, theirs = SK_PAIRS[name]
    status, got = _outcome(ours, y_true, y_pred)
    sk_status, expected = _outcome(theirs, y_true, y_pred)
    assert status == sk_status, (y_true, y_pred, got, expected)
    if status == "ok":
        np.testing.assert_allclose(
            np.asarray(got, dtype=float), np.asarray(expected, dtype=float), rtol=1e-12, atol=1e-12
        )


@pytest.mark.parametrize("name", SK_PAIRS)
def test_the_issue_examples_raise_in_both(name):
    ours, theirs = SK_PAIRS[name]
    assert _outcome(theirs, np.array(Y), np.array(PROBA))[0] == "raised"
    status, message = _outcome(ours, np.array(Y), np.array(PROBA))
    assert status == "raised" and "continuous" in message
