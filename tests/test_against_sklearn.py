"""Cross-checks with scikit-learn, which computes the same quantities independently."""

import numpy as np
import pytest
from _data import random_binary
from sklearn import metrics as skm

import isometrics as im

CASES = [
    dict(n=300, ties=True, weights=False),
    dict(n=300, ties=False, weights=False),
    dict(n=400, ties=True, weights=True),
    dict(n=400, ties=False, weights=True),
    dict(n=120_000, ties=True, weights=True),   # large enough to take the Polars sort path
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
    assert op.average_precision() == pytest.approx(
        skm.average_precision_score(y, s, sample_weight=w), rel=1e-12)

    # PR: scikit-learn returns increasing thresholds and stops at full recall; compare the shared points.
    precision, recall, pthr = op.precision_recall_curve()
    sk_p, sk_r, sk_t = skm.precision_recall_curve(y, s, sample_weight=w)
    sk_p, sk_r, sk_t = sk_p[::-1], sk_r[::-1], sk_t[::-1]  # now (P=1, R=0) first, thresholds decreasing
    m = len(sk_t)
    np.testing.assert_array_equal(pthr[1:m + 1], sk_t)
    np.testing.assert_allclose(precision[: m + 1], sk_p, rtol=1e-12)
    np.testing.assert_allclose(recall[: m + 1], sk_r, rtol=1e-12, atol=1e-14)


def test_precision_recall_curve_orientation_differs_from_sklearn_on_purpose(rng):
    y, s, _ = random_binary(rng, 50)
    precision, recall, thresholds = im.precision_recall_curve(y, s)
    assert len(precision) == len(recall) == len(thresholds)
    assert thresholds[0] == np.inf and np.all(np.diff(thresholds) < 0)
    sk_p, _, sk_t = skm.precision_recall_curve(y, s)
    assert len(sk_p) == len(sk_t) + 1 and np.all(np.diff(sk_t) > 0)


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
        ours = im.precision_recall_fscore_support(yt, yp, labels=labels, average=average, sample_weight=w,
                                                  zero_division=0.0)
        theirs = skm.precision_recall_fscore_support(yt, yp, labels=labels, average=average, sample_weight=w,
                                                     zero_division=0.0)
        for a, b in zip(ours, theirs):
            if b is not None:
                np.testing.assert_allclose(a, b, rtol=1e-12)


@pytest.mark.parametrize("ours, theirs", [
    (im.precision_score, skm.precision_score),
    (im.recall_score, skm.recall_score),
    (im.f1_score, skm.f1_score),
])
@pytest.mark.parametrize("average", ["binary", "micro", "macro", "weighted", None])
def test_label_scores_match_sklearn(rng, ours, theirs, average):
    k = 2 if average == "binary" else 3
    yt, yp, w = _labels(rng, 400, k, True)
    np.testing.assert_allclose(ours(yt, yp, average=average, sample_weight=w),
                               theirs(yt, yp, average=average, sample_weight=w), rtol=1e-12)


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
            skm.balanced_accuracy_score(yt, yp, sample_weight=w, adjusted=adjusted), rel=1e-12)
    assert im.matthews_corrcoef(yt, yp, sample_weight=w) == pytest.approx(
        skm.matthews_corrcoef(yt, yp, sample_weight=w), rel=1e-12)
    np.testing.assert_allclose(im.confusion_matrix(yt, yp, sample_weight=w),
                               skm.confusion_matrix(yt, yp, sample_weight=w), rtol=1e-12)


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
        pooled[0, 0] / (pooled[0, 0] + pooled[0, 1]), rel=1e-12)


def test_best_threshold_matches_sklearn_prf_at_that_threshold(rng):
    y, s, w = random_binary(rng, 500, weights=True)
    for metric, beta in (("f1", 1.0), ("f2", 2.0), ("f0.5", 0.5)):
        best = im.best_threshold(y, s, metric=metric, sample_weight=w)
        pred = (s >= best.threshold).astype(int)
        assert best.value == pytest.approx(skm.fbeta_score(y, pred, beta=beta, sample_weight=w), rel=1e-12)
        # and no threshold does better
        values = [skm.fbeta_score(y, (s >= t).astype(int), beta=beta, sample_weight=w, zero_division=0.0)
                  for t in np.unique(s)]
        assert best.value == pytest.approx(max(values), rel=1e-12)
