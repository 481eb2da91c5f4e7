"""Thresholds chosen out of sample, and the scikit-learn scorers (issue 13, item 5).

References: scikit-learn's own metrics and scorers where they compute the same quantity; a
brute-force search over candidate thresholds with scikit-learn's ``fbeta_score`` for the
per-fold choices; Holm's procedure worked by hand.
"""

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn import metrics as skm
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    FixedThresholdClassifier,
    GridSearchCV,
    StratifiedKFold,
    TunedThresholdClassifierCV,
    cross_val_predict,
    cross_validate,
)

import isometrics as im
from isometrics.model_selection import CrossValidatedThreshold, cross_validated_threshold, get_scorer


@pytest.fixture(scope="module")
def classification():
    return make_classification(n_samples=500, n_features=8, n_informative=4, weights=[0.8], flip_y=0.05, random_state=3)


def _brute_best(y, s, beta):
    """The highest threshold among those maximising F-beta, by trying every distinct score (O(n^2))."""
    best_t, best_v = np.inf, -1.0
    positive = y == 1
    for t in np.unique(s)[::-1]:
        # F-beta by its definition, (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp), 0 where undefined
        # (scikit-learn's zero_division=0.0); counted by hand, as fbeta_score would count, without its
        # per-call validation, which made this loop over ~330 thresholds cost seconds
        predicted = s >= t
        tp = np.count_nonzero(predicted & positive)
        fp = np.count_nonzero(predicted & ~positive)
        fn = np.count_nonzero(~predicted & positive)
        denominator = (1 + beta**2) * tp + beta**2 * fn + fp
        v = (1 + beta**2) * tp / denominator if denominator and tp else 0.0
        if v > best_v + 1e-12:
            best_t, best_v = t, v
    return best_t


# ---------------------------------------------------------------------------- scorers in scikit-learn
@pytest.mark.parametrize(
    "ours, theirs",
    [
        ("f1", "f1"),
        ("auroc", "roc_auc"),
        ("roc_auc", "roc_auc"),
        ("average_precision", "average_precision"),
        ("fbeta(beta=2)", skm.make_scorer(skm.fbeta_score, beta=2)),
        ("f0.5", skm.make_scorer(skm.fbeta_score, beta=0.5)),
        ("precision", "precision"),
        ("recall", "recall"),
    ],
)
@pytest.mark.filterwarnings("ignore:.*ill-defined")  # C=0.001 predicts no positive: both say so, both give 0
def test_scorers_in_grid_search_match_sklearn(classification, ours, theirs):
    X, y = classification
    grid = {"C": [0.001, 0.1, 10.0]}
    a = GridSearchCV(LogisticRegression(), grid, scoring=get_scorer(ours), cv=4).fit(X, y)
    b = GridSearchCV(LogisticRegression(), grid, scoring=theirs, cv=4).fit(X, y)
    np.testing.assert_allclose(a.cv_results_["mean_test_score"], b.cv_results_["mean_test_score"], rtol=1e-12)
    np.testing.assert_allclose(a.cv_results_["split0_test_score"], b.cv_results_["split0_test_score"], rtol=1e-12)
    assert a.best_params_ == b.best_params_


@pytest.mark.parametrize(
    "ours, theirs",
    [
        ("f1", "f1"),
        ("f2", skm.make_scorer(skm.fbeta_score, beta=2)),
        ("recall", "recall"),
    ],
)
def test_scorers_in_tuned_threshold_classifier_match_sklearn(classification, ours, theirs):
    X, y = classification
    a = TunedThresholdClassifierCV(LogisticRegression(), scoring=get_scorer(ours), cv=4).fit(X, y)
    b = TunedThresholdClassifierCV(LogisticRegression(), scoring=theirs, cv=4).fit(X, y)
    assert a.best_threshold_ == pytest.approx(b.best_threshold_, rel=1e-12)
    assert a.best_score_ == pytest.approx(b.best_score_, rel=1e-12)


def test_scorers_with_string_labels_and_pos_label(classification):
    X, y = classification
    labels = np.where(y == 1, "churn", "stay")
    theirs = skm.make_scorer(skm.fbeta_score, beta=2, pos_label="stay")
    a = cross_validate(
        LogisticRegression(),
        X,
        labels,
        cv=3,
        scoring={"f2": get_scorer("f2", pos_label="stay"), "auc": get_scorer("auroc")},
    )
    b = cross_validate(LogisticRegression(), X, labels, cv=3, scoring={"f2": theirs, "auc": "roc_auc"})
    np.testing.assert_allclose(a["test_f2"], b["test_f2"], rtol=1e-12)
    np.testing.assert_allclose(a["test_auc"], b["test_auc"], rtol=1e-12)


def test_cost_scorer_is_minus_the_cost_and_auprg_is_ours(classification):
    X, y = classification
    model = LogisticRegression().fit(X, y)
    pred = model.predict(X)
    fp, fn = np.sum((pred == 1) & (y == 0)), np.sum((pred == 0) & (y == 1))
    assert get_scorer("cost(fp=1, fn=5)")(model, X, y) == pytest.approx(-(fp + 5 * fn) / len(y), rel=1e-12)
    assert get_scorer("auprg")(model, X, y) == pytest.approx(im.auprg(y, model.predict_proba(X)[:, 1]), rel=1e-12)


def test_multiclass_area_scorer_matches_sklearn_ovr():
    X, y = make_classification(n_samples=400, n_classes=3, n_informative=5, random_state=0)
    model = LogisticRegression(max_iter=500).fit(X, y)
    proba = model.predict_proba(X)
    for average in ("macro", "weighted"):
        expected = skm.roc_auc_score(y, proba, multi_class="ovr", average=average)
        scorer = get_scorer("auroc", average=average, response_method="predict_proba")  # as sklearn's roc_auc_ovr
        assert scorer(model, X, y) == pytest.approx(expected, rel=1e-12)


def test_scorers_pickle_and_refuse_bad_specs():
    scorer = pickle.loads(pickle.dumps(get_scorer("g(beta=2, rho=-3)")))
    assert scorer._kwargs["metric"] == "g(beta=2, rho=-3)"
    with pytest.raises(im.InvalidParameterError, match=r"^get_scorer: `metric` = 'f_one' is not a metric"):
        get_scorer("f_one")
    with pytest.raises(im.InvalidParameterError, match=r"^get_scorer: `average` must be"):
        get_scorer("auroc", average="samples")


# ---------------------------------------------------------------------------- cross-validated thresholds
def test_fold_choices_and_pooled_value_match_brute_force(rng):
    n = 300
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.normal(size=n) + 1.2 * y, 1)  # ties
    folds = rng.integers(0, 4, n)
    result = cross_validated_threshold(y, s, metric="f2", cv=folds)
    predicted = np.empty(n, dtype=int)
    for k in range(4):
        train, test = folds != k, folds == k
        t = _brute_best(y[train], s[train], 2)
        assert result.fold_thresholds[k] == t
        predicted[test] = s[test] >= t
        assert result.fold_values[k] == pytest.approx(skm.fbeta_score(y[test], predicted[test], beta=2), rel=1e-12)
    assert result.value == pytest.approx(skm.fbeta_score(y, predicted, beta=2), rel=1e-12)
    assert result.threshold == _brute_best(y, s, 2)
    assert result.in_sample_value == pytest.approx(
        skm.fbeta_score(y, (s >= result.threshold).astype(int), beta=2), rel=1e-12
    )
    assert result.threshold_spread == pytest.approx(np.std(result.fold_thresholds, ddof=1))
    assert result.n_splits == 4 and result.response_method == "scores"


def test_integer_weights_equal_repeated_rows(rng):
    n = 200
    y = (rng.random(n) < 0.4).astype(int)
    s = rng.normal(size=n) + y
    w = rng.integers(1, 4, n)
    folds = np.arange(n) % 3
    weighted = cross_validated_threshold(y, s, metric="f1", cv=folds, sample_weight=w)
    repeated = cross_validated_threshold(np.repeat(y, w), np.repeat(s, w), metric="f1", cv=np.repeat(folds, w))
    assert weighted.value == pytest.approx(repeated.value, rel=1e-12)
    np.testing.assert_array_equal(weighted.fold_thresholds, repeated.fold_thresholds)


def test_in_sample_optimum_is_optimistic_on_average():
    """Over seeded synthetic sets, the in-sample best F1 exceeds the out-of-fold F1 on average."""
    gaps = []
    for seed in range(30):
        gen = np.random.default_rng(seed)
        y = (gen.random(150) < 0.2).astype(int)
        s = gen.normal(size=150) + y
        result = cross_validated_threshold(y, s, metric="f1", cv=5, rng=seed)
        gaps.append(result.optimism)
        assert result.optimism == pytest.approx(result.in_sample_value - result.value)
    assert np.mean(gaps) > 0.01
    assert np.mean(np.array(gaps) > 0) > 0.7


def test_int_cv_is_stratified_and_seeded(rng):
    y = (rng.random(103) < 0.25).astype(int)
    s = rng.normal(size=103) + y
    a = cross_validated_threshold(y, s, cv=4, rng=5)
    b = cross_validated_threshold(y, s, cv=4, rng=5)
    assert a.value == b.value and a.n_splits == 4
    splitter = StratifiedKFold(4, shuffle=True, random_state=0)
    c = cross_validated_threshold(y, s, cv=splitter)
    assert c.n_splits == 4


def test_cost_is_minimised_and_optimism_keeps_its_sign(rng):
    y = (rng.random(300) < 0.3).astype(int)
    s = rng.normal(size=300) + y
    result = cross_validated_threshold(y, s, metric="cost(fp=1, fn=4)", cv=np.arange(300) % 5)
    fp, fn = result.counts[1], result.counts[2]
    assert result.value == pytest.approx((fp + 4 * fn) / 300, rel=1e-12)
    assert result.optimism == pytest.approx(result.value - result.in_sample_value)


def test_bad_inputs_are_named(rng):
    y = np.r_[np.ones(3), np.zeros(30)].astype(int)
    s = rng.normal(size=33)
    with pytest.raises(
        im.IsometricsError,
        match=r"^cross_validated_threshold: `cv`=5 folds, but the smaller class "
        r"has 3 samples",
    ):
        cross_validated_threshold(y, s, cv=5)
    with pytest.raises(im.IsometricsError, match=r"one id per sample"):
        cross_validated_threshold(y, s, cv=[0, 1])
    with pytest.raises(im.IsometricsError, match=r"training part of split 0 has one class"):
        cross_validated_threshold(y, s, cv=np.where(y == 1, 1, 0))


def test_undefined_fold_values_follow_zero_division():
    y = np.array([1, 0, 0, 0, 1, 0, 0, 0])
    s = np.array([0.9, 0.1, 0.2, 0.3, 0.1, 0.8, 0.7, 0.6])
    folds = np.array([0, 0, 0, 0, 1, 1, 1, 1])
    with pytest.warns(im.UndefinedMetricWarning, match="precision is undefined on 1 held-out fold"):
        result = cross_validated_threshold(y, s, metric="precision", cv=folds)
    assert 0.0 in result.fold_values
    quiet = cross_validated_threshold(y, s, metric="precision", cv=folds, zero_division=1.0)
    assert 1.0 in quiet.fold_values


def test_from_estimator_is_nested_and_builds_a_fixed_threshold_classifier(classification):
    X, y = classification
    outer, inner = StratifiedKFold(3), StratifiedKFold(3)
    result = CrossValidatedThreshold.from_estimator(LogisticRegression(), X, y, metric="f2", cv=outer, inner_cv=inner)
    predicted = np.empty(len(y), dtype=int)
    for k, (train, test) in enumerate(outer.split(X, y)):
        oof = cross_val_predict(LogisticRegression(), X[train], y[train], cv=inner, method="predict_proba")[:, 1]
        t = _brute_best(y[train], oof, 2)
        assert result.fold_thresholds[k] == pytest.approx(t, rel=1e-12)
        model = LogisticRegression().fit(X[train], y[train])
        predicted[test] = model.predict_proba(X[test])[:, 1] >= t
    assert result.value == pytest.approx(skm.fbeta_score(y, predicted, beta=2), rel=1e-12)
    deploy = _brute_best(y, cross_val_predict(LogisticRegression(), X, y, cv=outer, method="predict_proba")[:, 1], 2)
    assert result.threshold == pytest.approx(deploy, rel=1e-12)
    assert result.response_method == "predict_proba"
    clf = result.to_classifier(LogisticRegression())
    assert isinstance(clf, FixedThresholdClassifier) and clf.threshold == result.threshold
    clf.fit(X, y)
    scores = LogisticRegression().fit(X, y).predict_proba(X)[:, 1]
    np.testing.assert_array_equal(clf.predict(X), (scores >= result.threshold).astype(int))


def test_from_estimator_with_decision_function_and_the_lower_label_positive(classification):
    X, y = classification
    labels = np.where(y == 1, "b", "a")
    result = CrossValidatedThreshold.from_estimator(
        LogisticRegression(),
        X,
        labels,
        metric="f1",
        cv=3,
        inner_cv=3,
        response_method="decision_function",
        pos_label="a",
    )
    assert result.pos_label == "a" and result.response_method == "decision_function"
    clf = result.to_classifier(LogisticRegression()).fit(X, labels)
    margin = -LogisticRegression().fit(X, labels).decision_function(X)  # higher means "a"
    np.testing.assert_array_equal(clf.predict(X) == "a", margin >= result.threshold)


def test_result_reprs_are_compact(rng):
    y = (rng.random(5000) < 0.3).astype(int)
    result = cross_validated_threshold(y, rng.normal(size=5000) + y, cv=5, rng=0)
    assert len(repr(result)) < 300 and "out of fold" in repr(result)
    assert "in sample (optimistic)" in result._repr_html_()
    assert result.to_dict()["n_splits"] == 5


def test_importing_isometrics_does_not_import_sklearn():
    import subprocess
    import sys

    code = "import sys, isometrics, isometrics.model_selection; print('sklearn' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# ---------------------------------------------------------------------------- Holm
def test_holm_adjust_by_hand():
    # m = 4; sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04 -> running max 0.06
    np.testing.assert_allclose(
        im.uncertainty.holm_adjust([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02], rtol=1e-12
    )
    np.testing.assert_allclose(im.uncertainty.holm_adjust([0.9, 0.5]), [1.0, 1.0])
    assert im.uncertainty.holm_adjust([]).shape == (0,)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(im.InvalidParameterError, match=r"^holm_adjust: `p_values` must lie in \[0, 1\]"):
            im.uncertainty.holm_adjust([0.1, np.nan])


@given(st.lists(st.floats(0, 1), min_size=1, max_size=12))
def test_holm_properties(p):
    """Never below the raw p-value, at most 1, the raw order kept, and the smallest multiplied by m (Holm 1979)."""
    adjusted = im.uncertainty.holm_adjust(p)
    raw = np.array(p)
    assert np.all(adjusted >= raw) and np.all(adjusted <= 1)
    order = np.argsort(raw, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= 0)
    assert adjusted[order[0]] == min(1.0, len(p) * raw[order[0]])
