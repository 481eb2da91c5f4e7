"""Cross-checks with scikit-learn, which computes the same quantities independently."""

import numpy as np
import pandas as pd
import pytest
from _data import random_binary
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning as SkUndefinedMetricWarning

import isometrics as im

CASES = [
    dict(n=300, ties=True, weights=False),
    dict(n=300, ties=False, weights=False),
    dict(n=400, ties=True, weights=True),
    dict(n=400, ties=False, weights=True),
    dict(n=120_000, ties=True, weights=True),  # large enough to take the Polars sort path
    dict(n=120_000, ties=False, weights=False),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"n{c['n']}-ties{c['ties']}-w{c['weights']}")
def test_curves_and_areas_match_sklearn(rng, case):
    y, s, w = random_binary(rng, case["n"], ties=case["ties"], weights=case["weights"])
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)

    fpr, tpr, thr = op.roc_curve()
    sk_fpr, sk_tpr, sk_thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_array_equal(thr, sk_thr)
    np.testing.assert_allclose(fpr, sk_fpr, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(tpr, sk_tpr, rtol=1e-12, atol=1e-14)

    assert op.auroc() == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    assert op.average_precision() == pytest.approx(skm.average_precision_score(y, s, sample_weight=w), rel=1e-12)

    # PR: scikit-learn returns increasing thresholds and stops at full recall; compare the shared points.
    precision, recall, pthr = op.precision_recall_curve()
    sk_p, sk_r, sk_t = skm.precision_recall_curve(y, s, sample_weight=w)
    sk_p, sk_r, sk_t = sk_p[::-1], sk_r[::-1], sk_t[::-1]  # now (P=1, R=0) first, thresholds decreasing
    m = len(sk_t)
    np.testing.assert_array_equal(pthr[1 : m + 1], sk_t)
    np.testing.assert_allclose(precision[: m + 1], sk_p, rtol=1e-12)
    np.testing.assert_allclose(recall[: m + 1], sk_r, rtol=1e-12, atol=1e-14)


def _same_arrays(ours, theirs):
    """Same number of arrays, each of the same dtype, shape and values (NaN where scikit-learn has NaN)."""
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("case", CASES[:4], ids=lambda c: f"n{c['n']}-ties{c['ties']}-w{c['weights']}")
@pytest.mark.parametrize("drop", [False, True])
def test_precision_recall_curve_is_sklearns(rng, case, drop):
    # scikit-learn's order: thresholds increasing, one fewer than the points, (precision 1, recall 0) last
    y, s, w = random_binary(rng, case["n"], ties=case["ties"], weights=case["weights"])
    got = im.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
    _same_arrays(got, skm.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop))
    # isometrics' own orientation stays on the curve object: the same points, reversed, from threshold inf
    native = im.OperatingPoints.from_scores(y, s, sample_weight=w).precision_recall_curve()
    assert native.thresholds[0] == np.inf and np.all(np.diff(native.thresholds) < 0)
    if not drop:
        np.testing.assert_array_equal(native.precision, got[0][::-1])
        np.testing.assert_array_equal(native.recall, got[1][::-1])
        np.testing.assert_array_equal(native.thresholds[1:], got[2][::-1])


@pytest.mark.parametrize(
    "y_score",
    [
        [0, 1, 1, 3],
        [0.5, 0.25, 0.25, 1.0],
        np.array([1, 2, 2, 5], dtype=np.float32),
        np.array([3, 1, 2, 2], dtype=np.int32),
    ],
)
def test_precision_recall_curve_thresholds_keep_the_scores_dtype(y_score):
    y = [0, 1, 0, 1]
    _same_arrays(im.precision_recall_curve(y, y_score), skm.precision_recall_curve(y, y_score))


@pytest.mark.parametrize("drop", [False, True])
def test_roc_curve_default_and_drop_intermediate_are_sklearns(rng, drop):
    y, s, w = random_binary(rng, 400, ties=False, weights=False)  # runs of one class: collinear points
    default = im.roc_curve(y, s)
    assert len(default[0]) < len(np.unique(s)) + 1  # thinned, as scikit-learn's default
    _same_arrays(default, skm.roc_curve(y, s))
    _same_arrays(
        im.roc_curve(y, s, sample_weight=w, drop_intermediate=drop),
        skm.roc_curve(y, s, sample_weight=w, drop_intermediate=drop),
    )


@pytest.mark.parametrize("y", [[1, 1, 1, 1], [0, 0, 0, 0], [-1, -1, -1, -1]])
def test_one_class_gives_sklearns_nan_with_a_warning(y):
    s = [0.1, 0.4, 0.4, 0.8]
    with pytest.warns(im.UndefinedMetricWarning):
        got = im.roc_curve(y, s)
    with pytest.warns(SkUndefinedMetricWarning):
        _same_arrays(got, skm.roc_curve(y, s))
    with pytest.warns(im.UndefinedMetricWarning):
        got = im.roc_auc_score(y, s)
    assert np.isnan(got)
    if max(y) < 1:  # no positive sample: recall 1 everywhere, with a warning
        with pytest.warns(im.UndefinedMetricWarning):
            got = im.precision_recall_curve(y, s)
        with pytest.warns(UserWarning):
            _same_arrays(got, skm.precision_recall_curve(y, s))
    with pytest.raises(im.IsometricsError, match="one class"):  # the native curve stays strict
        im.OperatingPoints.from_scores(y, s).roc_curve()


def test_roc_auc_score_one_class_column_of_a_multilabel_target_is_nan_as_sklearn():
    y = np.array([[0, 1], [1, 1], [0, 1], [1, 1]])
    s = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.4], [0.7, 0.6]])
    with pytest.warns(im.UndefinedMetricWarning, match="label column 1"):
        got = im.roc_auc_score(y, s, average=None)
    with pytest.warns(SkUndefinedMetricWarning):
        np.testing.assert_array_equal(got, skm.roc_auc_score(y, s, average=None))


@pytest.mark.parametrize(
    "labels",
    [
        pd.Series(list("abcabcabcaab")),
        np.array(list("abcabcabcaab"), dtype=object),
        pd.Series(list("abcabcabcaab"), dtype="category"),
        list("abcabcabcaab"),
        np.array(list("abcabcabcaab")),
    ],
    ids=["series", "object", "category", "list", "str_"],
)
@pytest.mark.parametrize("multi_class", ["ovr", "ovo"])
@pytest.mark.parametrize("average", ["macro", "weighted"])
def test_roc_auc_score_string_labels_of_any_container(rng, labels, multi_class, average):
    proba = rng.dirichlet([1, 1, 1], size=12)
    got = im.roc_auc_score(labels, proba, multi_class=multi_class, average=average)
    assert got == pytest.approx(skm.roc_auc_score(labels, proba, multi_class=multi_class, average=average), rel=1e-12)


def test_roc_auc_score_ovo_average_none_is_not_implemented_as_in_sklearn(rng):
    y, proba = [0, 1, 2, 0, 1, 2], rng.dirichlet([1, 1, 1], size=6)
    with pytest.raises(NotImplementedError):
        skm.roc_auc_score(y, proba, multi_class="ovo", average=None)
    with pytest.raises(NotImplementedError, match="average=None"):
        im.roc_auc_score(y, proba, multi_class="ovo", average=None)
    with pytest.raises(im.InvalidParameterError):  # and our own type, for code that catches ours
        im.roc_auc_score(y, proba, multi_class="ovo", average=None)


@pytest.mark.parametrize(
    "sample_weight",
    [
        None,
        [1, 2, 1, 1, 3, 1],
        np.array([1, 0, 2, 1, 1, 1], dtype=np.int32),
        np.ones(6, dtype=bool),
        [1.0, 2.0, 1.0, 1.0, 3.0, 1.0],
        [0.5] * 6,
    ],
)
@pytest.mark.parametrize("normalize", [None, "true", "all"])
def test_confusion_matrix_dtype_is_sklearns(sample_weight, normalize):
    y_true, y_pred = [0, 1, 2, 2, 1, 0], [0, 2, 2, 1, 1, 0]
    got = im.confusion_matrix(y_true, y_pred, sample_weight=sample_weight, normalize=normalize)
    expected = skm.confusion_matrix(y_true, y_pred, sample_weight=sample_weight, normalize=normalize)
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got, expected)


@pytest.mark.parametrize("func", [im.roc_curve, im.precision_recall_curve, im.roc_auc_score])
def test_bytes_labels_are_a_type_error_as_in_sklearn(func):
    for labels in ([b"a", b"b"], np.array([b"a", b"b"])):
        with pytest.raises(TypeError):
            func(labels, [0.0, 1.0])
        with pytest.raises(im.IsometricsError):  # still ours (a ValueError) too
            func(labels, [0.0, 1.0])


def test_class_totals_are_integers_for_whole_weights(rng):
    y, s, _ = random_binary(rng, 200)
    r = im.evaluate_scores(y, {"m": s})["m"]
    assert type(r.n_positives) is int and type(r.n_negatives) is int
    assert r.n_positives == int(np.sum(y)) and r.n_negatives == len(y) - int(np.sum(y))
    assert str(r.to_dict()["n_positives"]) == str(int(np.sum(y)))  # prints 590, not 590.0
    whole = im.evaluate_scores(y, {"m": s}, sample_weight=np.full(len(y), 2))["m"]
    assert type(whole.n_positives) is int and whole.n_positives == 2 * int(np.sum(y))
    halves = im.evaluate_scores(y, {"m": s}, sample_weight=np.full(len(y), 0.5))["m"]
    assert type(halves.n_positives) is float and halves.n_positives == 0.5 * np.sum(y)


def _labels(rng, n, k, weights):
    yt = rng.integers(0, k, size=n)
    yp = np.where(rng.random(n) < 0.6, yt, rng.integers(0, k, size=n))
    w = rng.random(n) * 3 if weights else None
    return yt, yp, w


@pytest.mark.parametrize("k", [2, 4])
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_prfs_matches_sklearn(rng, k, average, weights, beta):
    yt, yp, w = _labels(rng, 500, k, weights)
    ours = im.precision_recall_fscore_support(yt, yp, beta=beta, average=average, sample_weight=w)
    theirs = skm.precision_recall_fscore_support(yt, yp, beta=beta, average=average, sample_weight=w)
    for a, b in zip(ours, theirs):
        if b is None:
            assert a is None
        else:
            np.testing.assert_allclose(a, b, rtol=1e-12)


def test_prfs_with_labels_subset_and_absent_class(rng):
    yt, yp, w = _labels(rng, 300, 4, True)
    labels = [3, 1, 7]
    for average in (None, "macro", "micro", "weighted"):
        ours = im.precision_recall_fscore_support(
            yt, yp, labels=labels, average=average, sample_weight=w, zero_division=0.0
        )
        theirs = skm.precision_recall_fscore_support(
            yt, yp, labels=labels, average=average, sample_weight=w, zero_division=0.0
        )
        for a, b in zip(ours, theirs):
            if b is not None:
                np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize(
    "ours, theirs",
    [
        (im.precision_score, skm.precision_score),
        (im.recall_score, skm.recall_score),
        (im.f1_score, skm.f1_score),
    ],
)
@pytest.mark.parametrize("average", ["binary", "micro", "macro", "weighted", None])
def test_label_scores_match_sklearn(rng, ours, theirs, average):
    k = 2 if average == "binary" else 3
    yt, yp, w = _labels(rng, 400, k, True)
    np.testing.assert_allclose(
        ours(yt, yp, average=average, sample_weight=w), theirs(yt, yp, average=average, sample_weight=w), rtol=1e-12
    )


@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
def test_zero_division_matches_sklearn(zero_division):
    yt = [0, 0, 1, 2, 2]
    yp = [0, 0, 0, 0, 2]  # class 1 never predicted, so its precision is 0/0
    for average in (None, "macro", "weighted"):
        ours = im.precision_score(yt, yp, average=average, zero_division=zero_division)
        theirs = skm.precision_score(yt, yp, average=average, zero_division=zero_division)
        np.testing.assert_allclose(ours, theirs, rtol=1e-12, equal_nan=True)


def test_warn_gives_zero_and_warns():
    with pytest.warns(im.UndefinedMetricWarning, match="Precision is ill-defined"):
        assert im.precision_score([0, 1, 1], [0, 0, 0]) == 0.0


@pytest.mark.parametrize("k", [2, 3])
def test_other_label_metrics_match_sklearn(rng, k):
    yt, yp, w = _labels(rng, 400, k, True)
    assert im.accuracy_score(yt, yp, sample_weight=w) == pytest.approx(skm.accuracy_score(yt, yp, sample_weight=w))
    assert im.accuracy_score(yt, yp, normalize=False) == pytest.approx(skm.accuracy_score(yt, yp, normalize=False))
    for adjusted in (False, True):
        assert im.balanced_accuracy_score(yt, yp, sample_weight=w, adjusted=adjusted) == pytest.approx(
            skm.balanced_accuracy_score(yt, yp, sample_weight=w, adjusted=adjusted), rel=1e-12
        )
    assert im.matthews_corrcoef(yt, yp, sample_weight=w) == pytest.approx(
        skm.matthews_corrcoef(yt, yp, sample_weight=w), rel=1e-12
    )
    np.testing.assert_allclose(
        im.confusion_matrix(yt, yp, sample_weight=w), skm.confusion_matrix(yt, yp, sample_weight=w), rtol=1e-12
    )


def test_specificity_npv_fpr_against_sklearn_confusion_matrix(rng):
    yt, yp, w = _labels(rng, 400, 2, True)
    (tn, fp), (fn, tp) = skm.confusion_matrix(yt, yp, sample_weight=w)
    assert im.specificity_score(yt, yp, sample_weight=w) == pytest.approx(tn / (tn + fp), rel=1e-12)
    assert im.negative_predictive_value_score(yt, yp, sample_weight=w) == pytest.approx(tn / (tn + fn), rel=1e-12)
    assert im.false_positive_rate_score(yt, yp, sample_weight=w) == pytest.approx(fp / (fp + tn), rel=1e-12)
    # multiclass one-vs-rest specificity, per class, from scikit-learn's multilabel confusion matrix
    yt, yp, w = _labels(rng, 400, 3, True)
    mcm = skm.multilabel_confusion_matrix(yt, yp, sample_weight=w)
    expected = mcm[:, 0, 0] / (mcm[:, 0, 0] + mcm[:, 0, 1])
    np.testing.assert_allclose(im.specificity_score(yt, yp, average=None, sample_weight=w), expected, rtol=1e-12)
    pooled = mcm.sum(axis=0)
    assert im.specificity_score(yt, yp, average="micro", sample_weight=w) == pytest.approx(
        pooled[0, 0] / (pooled[0, 0] + pooled[0, 1]), rel=1e-12
    )


def test_best_threshold_matches_sklearn_prf_at_that_threshold(rng):
    y, s, w = random_binary(rng, 500, weights=True)
    for metric, beta in (("f1", 1.0), ("f2", 2.0), ("f0.5", 0.5)):
        best = im.best_threshold(y, s, metric=metric, sample_weight=w)
        pred = (s >= best.threshold).astype(int)
        assert best.value == pytest.approx(skm.fbeta_score(y, pred, beta=beta, sample_weight=w), rel=1e-12)
        # and no threshold does better
        values = [
            skm.fbeta_score(y, (s >= t).astype(int), beta=beta, sample_weight=w, zero_division=0.0)
            for t in np.unique(s)
        ]
        assert best.value == pytest.approx(max(values), rel=1e-12)
