"""roc_auc_score: scikit-learn's values where both compute them, brute-force Hand & Till elsewhere."""

import numpy as np
import pytest
from _naive import naive_auroc, naive_hand_till
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm

import isometrics as im


def _multiclass(rng, n, k, ties=True):
    y = np.r_[np.arange(k), rng.integers(0, k, n - k)]  # every class present
    p = rng.random((n, k))
    if ties:
        p = np.round(p, 1) + 0.05
    return y, p / p.sum(axis=1, keepdims=True)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize(
    "multi_class, average",
    [("ovr", "macro"), ("ovr", "weighted"), ("ovr", "micro"), ("ovr", None), ("ovo", "macro"), ("ovo", "weighted")],
)
def test_multiclass_matches_sklearn(seed, multi_class, average):
    rng = np.random.default_rng(seed)
    y, p = _multiclass(rng, 30, 3 + seed % 3)
    w = None if multi_class == "ovo" else rng.integers(1, 4, len(y)).astype(float)  # sklearn's ovo takes no weights
    np.testing.assert_allclose(
        im.roc_auc_score(y, p, multi_class=multi_class, average=average, sample_weight=w),
        skm.roc_auc_score(y, p, multi_class=multi_class, average=average, sample_weight=w),
    )


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("weighted", [False, True])
def test_one_vs_one_with_weights_matches_brute_force_hand_till(seed, weighted):
    rng = np.random.default_rng(100 + seed)
    y, p = _multiclass(rng, 18, 3 + seed % 2)
    w = rng.integers(0, 4, len(y)).astype(float)
    w[: len(set(y.tolist()))] = 1.0  # every class keeps a sample of positive weight
    expected = naive_hand_till(y, p, w, weighted=weighted)
    got = im.roc_auc_score(y, p, multi_class="ovo", average="weighted" if weighted else "macro", sample_weight=w)
    assert got == pytest.approx(expected, rel=1e-12)


def test_one_vs_one_integer_weights_equal_repeated_samples():
    rng = np.random.default_rng(7)
    y, p = _multiclass(rng, 20, 4)
    w = rng.integers(1, 4, len(y))
    rep = np.repeat(np.arange(len(y)), w)
    for average in ("macro", "weighted"):
        assert im.roc_auc_score(y, p, multi_class="ovo", average=average, sample_weight=w) == pytest.approx(
            im.roc_auc_score(y[rep], p[rep], multi_class="ovo", average=average), rel=1e-12
        )


@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 6)), min_size=4, max_size=30))
def test_one_vs_one_of_two_classes_is_the_binary_area(rows):
    y = np.array([r[0] for r in rows])
    if len(set(y.tolist())) < 2:
        return
    s = np.array([r[1] for r in rows]) / 6.0
    p = np.column_stack([0.9 * (1 - s), 0.9 * s, np.full(len(s), 0.1)])  # class 2 is absent from y
    # one pair of classes present: Hand & Till's M is their binary area (both columns rank alike)
    assert im.roc_auc_score(y, p, multi_class="ovo", labels=[0, 1, 2]) == pytest.approx(naive_auroc(y == 1, s))


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("max_fpr", [None, 0.05, 0.3, 0.5, 1.0])
def test_binary_and_partial_area_match_sklearn(seed, max_fpr):
    rng = np.random.default_rng(seed)
    y = np.r_[0, 1, rng.integers(0, 2, 38)]
    s = np.round(rng.random(40), 1)
    w = rng.integers(1, 4, 40).astype(float)
    assert im.roc_auc_score(y, s, max_fpr=max_fpr, sample_weight=w) == pytest.approx(
        skm.roc_auc_score(y, s, max_fpr=max_fpr, sample_weight=w), rel=1e-12
    )
    assert im.roc_auc_score(y, s) == pytest.approx(naive_auroc(y == 1, s), rel=1e-12)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", "samples", None])
def test_multilabel_matches_sklearn(seed, average):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, (25, 4))
    y[0], y[1] = [1, 0, 1, 0], [0, 1, 0, 1]  # every row and column has both classes
    y[:, 0][2], y[:, 1][2], y[:, 2][2], y[:, 3][2] = 0, 1, 1, 0
    y[2:] = np.where(y[2:].sum(axis=1, keepdims=True) % 4 == 0, [1, 1, 0, 0], y[2:])
    s = np.round(rng.random((25, 4)), 1)
    w = rng.integers(1, 4, 25).astype(float)
    np.testing.assert_allclose(
        im.roc_auc_score(y, s, average=average, sample_weight=w),
        skm.roc_auc_score(y, s, average=average, sample_weight=w),
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(y_true=[0, 1, 2], y_score=np.eye(3)), r"pass multi_class='ovr'"),
        (
            dict(y_true=[0, 1, 2], y_score=np.eye(3), multi_class="ovo", average=None),
            r"average=None .* not implemented",
        ),
        (dict(y_true=[0, 1, 2], y_score=np.eye(3), multi_class="ovr", max_fpr=0.5), r"max_fpr=0.5"),
        (dict(y_true=[0, 1, 2], y_score=np.eye(3) * 2, multi_class="ovr"), r"rows sum to 1"),
        (dict(y_true=[0, 1, 2], y_score=np.eye(3), multi_class="ovr", labels=[0, 2, 1]), r"must be ordered"),
        (dict(y_true=[0, 1, 2], y_score=np.eye(3), multi_class="ovr", labels=[0, 1, 3]), r"not in `labels`"),
        (dict(y_true=[0, 1, 2], y_score=np.eye(3)[:, :2] / 1, multi_class="ovr"), r"3 classes .* 2 columns"),
        (dict(y_true=[0, 1, 1], y_score=[0.1, 0.2, 0.3], max_fpr=0), r"`max_fpr` must be in \(0, 1\]"),
        (dict(y_true=[0, 1, 1], y_score=[[0.1, 0.9]] * 3), r"pass the scores of the positive"),
    ],
)
def test_errors_name_the_function_and_the_fix(kwargs, match):
    with pytest.raises(ValueError, match=match):
        im.roc_auc_score(**kwargs)
    with pytest.raises((ValueError, NotImplementedError)):
        skm.roc_auc_score(**kwargs)
