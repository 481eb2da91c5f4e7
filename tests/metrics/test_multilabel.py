"""Multilabel indicator targets in the label metrics, column vectors, ``confusion_matrix(normalize=...)``
and ``drop_intermediate``: scikit-learn's values where both compute them."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

import isometrics as im


def _data(seed, n=20, k=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, (n, k))
    p = rng.integers(0, 2, (n, k))
    if seed % 3 == 0:  # samples with no true and no predicted labels: the undefined per-sample ratios
        y[:3] = 0
        p[:2] = 0
    return y, p, rng.integers(1, 4, n).astype(float)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted", "samples"])
@pytest.mark.parametrize("zero_division", ["warn", 0.0, 1.0, np.nan])
@pytest.mark.parametrize("labels", [None, [3, 0]])
def test_precision_recall_fscore_support_matches_sklearn(seed, average, zero_division, labels):
    y, p, w = _data(seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = im.precision_recall_fscore_support(
            y, p, beta=2, average=average, labels=labels, sample_weight=w, zero_division=zero_division
        )
        expected = skm.precision_recall_fscore_support(
            y, p, beta=2, average=average, labels=labels, sample_weight=w, zero_division=zero_division
        )
    for a, b in zip(got, expected):
        if b is None:
            assert a is None
        else:
            np.testing.assert_allclose(a, b, equal_nan=True)


@pytest.mark.filterwarnings("ignore:.* is ill-defined")
@pytest.mark.parametrize("name", ["precision_score", "recall_score", "f1_score"])
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted", "samples"])
def test_scores_match_sklearn(name, average):
    y, p, w = _data(1)
    np.testing.assert_allclose(
        getattr(im, name)(y, p, average=average, sample_weight=w),
        getattr(skm, name)(y, p, average=average, sample_weight=w),
    )


def test_one_vs_rest_counts_match_sklearns_multilabel_confusion_matrix():
    y, p, w = _data(2)
    c = im.class_counts(y, p, sample_weight=w)
    mcm = skm.multilabel_confusion_matrix(y, p, sample_weight=w)  # [[tn, fp], [fn, tp]] per label
    np.testing.assert_allclose(np.column_stack([c.tn, c.fp, c.fn, c.tp]), mcm.reshape(-1, 4))
    tn, fp = mcm[:, 0, 0], mcm[:, 0, 1]
    np.testing.assert_allclose(im.specificity_score(y, p, average=None, sample_weight=w), tn / (tn + fp))


def test_subset_accuracy_matches_sklearn():
    y, p, w = _data(4, k=2)
    for normalize in (True, False):
        assert im.accuracy_score(y, p, normalize=normalize, sample_weight=w) == pytest.approx(
            skm.accuracy_score(y, p, normalize=normalize, sample_weight=w)
        )
    assert im.accuracy_score([[1, 0, 1]], [[1, 0, 1]]) == 1.0
    assert im.accuracy_score([[1, 0, 1]], [[1, 1, 1]]) == 0.0  # one label wrong: the subset is wrong


def test_sparse_and_bool_matrices_equal_dense_integers():
    y, p, w = _data(5)
    dense = im.precision_recall_fscore_support(y, p, average="samples", sample_weight=w)
    for make in (sp.csr_matrix, sp.csc_matrix, lambda a: a.astype(bool)):
        assert im.precision_recall_fscore_support(make(y), make(p), average="samples", sample_weight=w) == dense


@pytest.mark.parametrize(
    "y, p, match",
    [
        ([[0, 1], [1, 0]], [1, 0], r"y_true is a multilabel indicator matrix \(2-D\) but y_pred holds one label"),
        ([[0, 1], [1, 0]], [[0, 1, 1], [1, 0, 0]], r"different numbers of labels \(columns: 2 and 3\)"),
        ([[0, 2], [1, 0]], [[0, 1], [1, 0]], r"holds 2: a 2-D target must be a multilabel indicator matrix"),
    ],
)
def test_malformed_multilabel_input_is_named(y, p, match):
    with pytest.raises(im.IsometricsError, match=match):
        im.f1_score(y, p, average="macro")
    with pytest.raises(ValueError):
        skm.f1_score(y, p, average="macro")


def test_average_binary_and_out_of_range_labels_are_refused():
    y, p, _ = _data(6)
    with pytest.raises(im.IsometricsError, match=r"average='binary' is undefined; pass average='micro'"):
        im.precision_score(y, p)
    with pytest.raises(im.InvalidParameterError, match=r"column indices in \[0, 4\); got 4"):
        im.recall_score(y, p, average="macro", labels=[0, 4])
    for f, g in ((im.precision_score, skm.precision_score), (im.recall_score, skm.recall_score)):
        for fn in (f, g):  # scikit-learn refuses both too, with a ValueError
            with pytest.raises(ValueError):
                fn(y, p)
            with pytest.raises(ValueError):
                fn(y, p, average="macro", labels=[0, 4])


@pytest.mark.parametrize("name", ["confusion_matrix", "matthews_corrcoef", "balanced_accuracy_score"])
def test_whole_matrix_metrics_refuse_multilabel_like_sklearn(name):
    y, p, _ = _data(7)
    with pytest.raises(im.IsometricsError, match=rf"which {name} does not take"):
        getattr(im, name)(y, p)
    with pytest.raises(ValueError):
        getattr(skm, name)(y, p)


def test_samples_average_needs_multilabel():
    with pytest.raises(im.IsometricsError, match="average='samples' averages over the labels of each sample"):
        im.f1_score([0, 1, 1], [0, 1, 0], average="samples")
    with pytest.raises(ValueError):
        skm.f1_score([0, 1, 1], [0, 1, 0], average="samples")


@pytest.mark.parametrize("name", ["accuracy_score", "matthews_corrcoef", "f1_score", "confusion_matrix"])
def test_column_vectors_are_raveled(name):
    y, p = np.array([0, 1, 1, 0, 1]), np.array([0, 1, 0, 0, 1])
    np.testing.assert_array_equal(getattr(im, name)(y[:, None], p[:, None]), getattr(im, name)(y, p))
    np.testing.assert_allclose(getattr(im, name)(y[:, None], p[:, None]), getattr(skm, name)(y[:, None], p[:, None]))


def test_unused_pos_label_warns_like_sklearn():
    with pytest.warns(UserWarning, match=r"pos_label=2 is ignored when average != 'binary'"):
        im.f1_score([1, 2, 3], [1, 2, 2], pos_label=2, average="macro")


@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
@pytest.mark.parametrize("seed", range(5))
def test_confusion_matrix_normalize_matches_sklearn(normalize, seed):
    rng = np.random.default_rng(seed)
    y, p = rng.integers(0, 4, 30), rng.integers(0, 4, 30)
    y[y == 3] = 2  # class 3 is predicted but never true: a zero row under "true"
    w = rng.integers(1, 4, 30).astype(float)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        got = im.confusion_matrix(y, p, sample_weight=w, normalize=normalize)
    np.testing.assert_allclose(got, skm.confusion_matrix(y, p, sample_weight=w, normalize=normalize))
    assert any(issubclass(r.category, im.UndefinedMetricWarning) for r in record) == (normalize == "true")


def test_confusion_matrix_bad_normalize_and_single_label():
    with pytest.raises(im.InvalidParameterError, match="`normalize` must be one of"):
        im.confusion_matrix([0, 1], [0, 1], normalize="rows")
    with pytest.warns(im.DegenerateDataWarning, match="a single label was found"):
        np.testing.assert_array_equal(im.confusion_matrix([1, 1], [1, 1]), [[2.0]])


@pytest.mark.parametrize("seed", range(30))
def test_drop_intermediate_keeps_sklearns_points(seed):
    rng = np.random.default_rng(seed)
    y = np.r_[0, 1, rng.integers(0, 2, 28)]
    s = rng.integers(0, 1 + seed % 8, 30).astype(float)
    w = rng.integers(1, 3, 30).astype(float) if seed % 2 else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", im.DegenerateDataWarning)
        fpr, tpr, thr = im.roc_curve(y, s, sample_weight=w, drop_intermediate=True)
        precision, recall, thr_pr = im.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=True)
    sk = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=True)
    for a, b in zip((fpr, tpr, thr), sk):
        np.testing.assert_allclose(a, b)
    # scikit-learn's PR curve: increasing thresholds, (1, 0) appended last, in its dtypes
    sk = skm.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=True)
    for a, b in zip((precision, recall, thr_pr), sk):
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_allclose(a, b)


def test_metric_report_rows_are_the_labels_of_multilabel_data():
    y, p, w = _data(3)
    report = im.metric_report(y, p, metrics=["precision", "recall", "f1"], sample_weight=w, zero_division=0.0)
    expected = skm.precision_recall_fscore_support(y, p, sample_weight=w, zero_division=0.0)
    np.testing.assert_array_equal(report.labels, np.arange(4))
    np.testing.assert_allclose(report.values, np.column_stack(expected[:3]))
    np.testing.assert_allclose(
        report.averages["micro"], skm.precision_recall_fscore_support(y, p, sample_weight=w, average="micro")[:3]
    )


_matrices = st.integers(1, 12).flatmap(
    lambda n: st.integers(2, 4).flatmap(
        lambda k: st.tuples(
            st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=n, max_size=n),
            st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=n, max_size=n),
            st.lists(st.integers(1, 3), min_size=n, max_size=n),
        )
    )
)


@given(_matrices)
def test_micro_average_is_the_binary_score_of_the_pooled_labels(data):
    y, p, w = (np.array(a) for a in data)
    flat_w = np.repeat(w, y.shape[1])
    for name in ("precision_score", "recall_score", "f1_score"):
        micro = getattr(im, name)(y, p, average="micro", sample_weight=w, zero_division=0.0)
        pooled = getattr(im, name)(
            y.ravel(), p.ravel(), labels=[1], average="macro", sample_weight=flat_w, zero_division=0.0
        )
        assert micro == pytest.approx(pooled)


@given(_matrices)
def test_samples_average_is_the_weighted_mean_of_each_rows_score(data):
    y, p, w = (np.array(a) for a in data)
    rows = [im.f1_score(y[i], p[i], labels=[1], average="macro", zero_division=1.0) for i in range(len(y))]
    assert im.f1_score(y, p, average="samples", sample_weight=w, zero_division=1.0) == pytest.approx(
        np.average(rows, weights=w)
    )
