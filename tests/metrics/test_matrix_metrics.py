"""The whole-matrix metrics as objectives (issue 13 item 4): MCC, accuracy, balanced accuracy,
Cohen's kappa, NPV, specificity, markedness, informedness and net benefit.

References: scikit-learn's own metrics on the predictions ``y_score >= t`` at every threshold
(NPV, specificity and markedness from its confusion matrix), a brute-force argmax in exact
rational arithmetic, and a hand-derived net benefit (Vickers & Elkin 2006).
"""

import math
import pickle
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import isometrics as im


def _confusions(y, s, w, thresholds):
    """scikit-learn's confusion counts ``(TP, FP, FN, TN)`` of the predictions ``s >= t`` at each threshold, from
    one ``confusion_matrix`` call: the rows are repeated once a threshold, and the copy for threshold ``k`` is
    labelled ``2k + y`` and predicted ``2k + (s >= t_k)``, so the matrix's diagonal 2 x 2 blocks are the thresholds'
    confusion matrices, each cell a weighted sum of its own rows (``multilabel_confusion_matrix`` would not do:
    it takes TN as the total weight less the other three, which leaves rounding residue where TN is 0)."""
    t = np.asarray(thresholds, dtype=float)
    block = 2 * np.arange(len(t))[:, None]
    truth = (block + np.asarray(y)[None, :]).ravel()
    pred = (block + (s[None, :] >= t[:, None])).ravel()
    weight = None if w is None else np.tile(w, len(t))
    matrix = skm.confusion_matrix(truth, pred, labels=np.arange(2 * len(t)), sample_weight=weight)
    blocks = np.array([matrix[2 * k : 2 * k + 2, 2 * k : 2 * k + 2] for k in range(len(t))])
    off_blocks = np.kron(np.eye(len(t)), np.ones((2, 2))) == 0
    assert not matrix[off_blocks].any()  # a row's copy is counted in its threshold's block only
    (tn, fp), (fn, tp) = blocks.transpose(1, 2, 0)
    return tp, fp, fn, tn


def _div(a, b):
    return a / b if b != 0 else math.nan


def _npv(tp, fp, fn, tn):
    return _div(tn, tn + fn)


def _specificity(tp, fp, fn, tn):
    return _div(tn, tn + fp)


def _markedness(tp, fp, fn, tn):
    if tp + fp == 0 or tn + fn == 0:
        return math.nan
    return tp / (tp + fp) + tn / (tn + fn) - 1.0


def _mcc(y, pred, w, counts):
    tp, fp, fn, tn = counts
    if tp + fp == 0 or tn + fn == 0:  # scikit-learn returns 0.0 here: the zero_division substitute
        # (with fractional weights, or NaN: its n^2 - p.p of a constant prediction can round to a tiny negative,
        # -4.5e-13 in test_mcc_of_a_constant_prediction_with_rounding_residue, and the square root of a negative
        # is NaN; with whole counts that residue is exactly 0)
        sklearn_value = skm.matthews_corrcoef(y, pred, sample_weight=w)
        assert sklearn_value == 0.0 or (w is not None and math.isnan(sklearn_value)), sklearn_value
        return math.nan
    return skm.matthews_corrcoef(y, pred, sample_weight=w)


def _net_benefit(pt):
    def nb(tp, fp, fn, tn):
        n = tp + fp + fn + tn
        return tp / n - fp / n * pt / (1 - pt)

    return nb


#: References computed by scikit-learn's own metric function on the predictions at a threshold.
FROM_PREDICTIONS = {
    "mcc": _mcc,
    "accuracy": lambda y, pred, w, counts: skm.accuracy_score(y, pred, sample_weight=w),
    "balanced_accuracy": lambda y, pred, w, counts: skm.balanced_accuracy_score(y, pred, sample_weight=w),
    "kappa": lambda y, pred, w, counts: skm.cohen_kappa_score(y, pred, sample_weight=w),
    "informedness": lambda y, pred, w, counts: skm.balanced_accuracy_score(y, pred, sample_weight=w, adjusted=True),
}
#: References derived from scikit-learn's confusion counts at a threshold (it has no function for these).
FROM_COUNTS = {
    "npv": _npv,
    "specificity": _specificity,
    "markedness": _markedness,
    "net_benefit@0.2": _net_benefit(0.2),
    "net_benefit(pt=0.05)": _net_benefit(0.05),
}
REFERENCES = [*FROM_PREDICTIONS, *FROM_COUNTS]


@st.composite
def _data(draw, weighted):
    n = draw(st.integers(2, 30))
    y = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    s = np.array(draw(st.lists(st.integers(0, 6), min_size=n, max_size=n)), dtype=float)
    # Weights 0 or of order 1: scikit-learn's MCC underflows with weights near 1e-38 (products of four counts).
    weight = st.one_of(st.just(0.0), st.floats(0.1, 5.0))
    w = np.array(draw(st.lists(weight, min_size=n, max_size=n))) if weighted else None
    wt = np.ones(n) if w is None else w
    assume(wt[y == 1].sum() > 0 and wt[y == 0].sum() > 0)
    return y, s, w


def _sklearn_at_every_threshold(spec, y, s, w, thresholds):
    # the confusion counts serve the references derived from them, and MCC's check of its undefined points; the
    # other metrics need only scikit-learn's function (a confusion_matrix call of their own would be unused)
    if spec in FROM_COUNTS or spec == "mcc":
        counts = list(zip(*_confusions(y, s, w, thresholds)))
    else:
        counts = [None] * len(thresholds)
    if spec in FROM_COUNTS:
        return np.array([FROM_COUNTS[spec](*c) for c in counts])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.array([FROM_PREDICTIONS[spec](y, (s >= t).astype(int), w, c) for t, c in zip(thresholds, counts)])


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("spec", REFERENCES)
@settings(max_examples=40)
@given(data=st.data())
def test_every_threshold_equals_sklearn(spec, weighted, data):
    y, s, w = data.draw(_data(weighted))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", im.DegenerateDataWarning)
        curve = im.metric_curve(y, s, metric=spec, sample_weight=w)
    expected = _sklearn_at_every_threshold(spec, y, s, w, curve.thresholds)
    np.testing.assert_allclose(curve.values, expected, rtol=1e-9, atol=1e-12)  # NaN where both are undefined


def test_mcc_of_a_constant_prediction_with_rounding_residue():
    """Found by test_every_threshold_equals_sklearn: every score 0, so both points predict one class and MCC is
    undefined (0/0); scikit-learn's covariance of the prediction, n^2 - p.p, rounds to -4.5e-13 on these weights
    and it returns NaN rather than its 0.0 substitute. The curve is NaN at both points."""
    y = np.r_[np.zeros(26, int), 1]
    s = np.zeros(27)
    w = np.r_[np.zeros(10), [1.948868378121599, 1.739289603068455, 1.943016901498198, 1.3765052760030363]]
    w = np.r_[w, [1.0506327945814413, 1.1, 1.2416847068341634, 1.280264060606313, 3.1576607746711307]]
    w = np.r_[w, [4.572753826946968, 4.048997168018264, 4.3441441612795355, 4.359208441762278, 4.765746298383953]]
    w = np.r_[w, [4.065311678583993, 4.392020180035305, 4.019156759031282]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", im.DegenerateDataWarning)
        curve = im.metric_curve(y, s, metric="mcc", sample_weight=w)
    expected = _sklearn_at_every_threshold("mcc", y, s, w, curve.thresholds)
    assert np.isnan(curve.values).all() and np.isnan(expected).all() and len(expected) == 2


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("spec", REFERENCES)
@settings(max_examples=40)
@given(data=st.data())
def test_best_threshold_is_the_brute_force_argmax(spec, weighted, data):
    y, s, w = data.draw(_data(weighted))
    thresholds = [math.inf, *sorted(set(s[(w > 0) if w is not None else slice(None)]), reverse=True)]
    values = _sklearn_at_every_threshold(spec, y, s, w, thresholds)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", im.DegenerateDataWarning)
        if np.isnan(values).all():  # one distinct score: MCC and markedness are 0/0 at both points
            with pytest.raises(im.IsometricsError, match="undefined .0/0. at every threshold: y_score has one"):
                im.best_threshold(y, s, metric=spec, sample_weight=w)
            return
        best = im.best_threshold(y, s, metric=spec, sample_weight=w)
    top = np.nanmax(values)
    assert best.value == pytest.approx(top, rel=1e-9, abs=1e-12)
    assert values[thresholds.index(best.threshold)] == pytest.approx(top, rel=1e-9, abs=1e-12)
    if w is None:  # integer counts: ties are exact, every tied threshold and only those
        assert list(best.tied_thresholds) == _exact_ties(spec, y, s, thresholds)


def _exact_key(spec, tp, fp, fn, tn):
    """The metric, or a rational increasing function of it (MCC: its square with its sign); None if undefined."""
    n, s = tp + fp + fn + tn, tp + fp
    cross = tp * tn - fp * fn
    if spec == "mcc":
        den = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        return None if den == 0 else Fraction(cross * abs(cross), den)
    if spec == "kappa":
        po = Fraction(tp + tn, n)
        pe = Fraction((tp + fn) * s + (tn + fp) * (n - s), n * n)
        return (po - pe) / (1 - pe)
    if spec in ("npv", "markedness") and tn + fn == 0 or spec == "markedness" and s == 0:
        return None
    return {
        "accuracy": lambda: Fraction(tp + tn, n),
        "balanced_accuracy": lambda: (Fraction(tp, tp + fn) + Fraction(tn, tn + fp)) / 2,
        "npv": lambda: Fraction(tn, tn + fn),
        "specificity": lambda: Fraction(tn, tn + fp),
        "markedness": lambda: Fraction(tp, s) + Fraction(tn, tn + fn) - 1,
        "informedness": lambda: Fraction(tp, tp + fn) - Fraction(fp, fp + tn),
        "net_benefit@0.2": lambda: Fraction(tp, n) - Fraction(fp, n) * Fraction(0.2) / (1 - Fraction(0.2)),
        "net_benefit(pt=0.05)": lambda: Fraction(tp, n) - Fraction(fp, n) * Fraction(0.05) / (1 - Fraction(0.05)),
    }[spec]()


def _exact_ties(spec, y, s, thresholds):
    keys = []
    for t in thresholds:
        pred = s >= t
        tp, fp = int(np.sum(pred & (y == 1))), int(np.sum(pred & (y == 0)))
        fn, tn = int(np.sum(~pred & (y == 1))), int(np.sum(~pred & (y == 0)))
        keys.append(_exact_key(spec, tp, fp, fn, tn))
    top = max(k for k in keys if k is not None)
    return [t for t, k in zip(thresholds, keys) if k == top]


def test_net_benefit_by_hand():
    # y = [0, 0, 1, 1, 0, 1], s = [0.1, 0.4, 0.35, 0.8, 0.3, 0.9]; n = 6, pt = 0.2 so FP cost pt/(1 - pt) = 1/4.
    # Thresholds inf, 0.9, 0.8, 0.4, 0.35, 0.3, 0.1 flag (TP, FP) = (0,0) (1,0) (2,0) (2,1) (3,1) (3,2) (3,3):
    # NB = TP/6 - FP/24 = 0, 4/24, 8/24, 7/24, 11/24, 10/24, 9/24; the best is 11/24 at 0.35.
    y, s = [0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9]
    curve = im.metric_curve(y, s, metric="net_benefit@0.2")
    np.testing.assert_allclose(curve.values, np.array([0, 4, 8, 7, 11, 10, 9]) / 24, rtol=1e-15)
    best = im.best_threshold(y, s, metric="net_benefit(pt=0.2)")
    assert best.threshold == 0.35 and best.value == pytest.approx(11 / 24, rel=1e-15) and best.n_ties == 1
    # Treat all (threshold 0.1): prevalence - (1 - prevalence) pt/(1 - pt) = 1/2 - 1/8 = 3/8.
    assert curve.values[-1] == pytest.approx(3 / 8, rel=1e-15)


@pytest.mark.parametrize(
    "spec, canonical",
    [
        ("mcc", "mcc"),
        ("ACCURACY", "accuracy"),
        ("balanced_accuracy", "balanced_accuracy"),
        ("kappa", "kappa"),
        ("npv", "npv"),
        ("specificity", "specificity"),
        ("markedness", "markedness"),
        ("informedness", "youden"),
        ("net_benefit@0.2", "net_benefit(pt=0.2)"),
        ("net_benefit @ 0.25", "net_benefit(pt=0.25)"),
        ("net_benefit(pt=1e-3)", "net_benefit(pt=0.001)"),
    ],
)
def test_specs_parse_and_round_trip(spec, canonical):
    m = im.parse_metric(spec)
    assert m.spec == canonical and str(m) == canonical
    assert im.parse_metric(m.spec) == m and pickle.loads(pickle.dumps(m)) == m
    assert m.greater_is_better and m.spec.split("(")[0] in im.METRIC_NAMES


@pytest.mark.parametrize(
    "spec, match",
    [
        ("net_benefit", "needs pt"),
        ("net_benefit(pt=0)", r"`pt` of net_benefit \(the threshold probability\) must be in \(0, 1\); got 0"),
        ("net_benefit@1", r"must be in \(0, 1\); got 1"),
        ("net_benefit(pt=0.2, beta=1)", "has no parameter 'beta'"),
        ("mcc(beta=2)", "has no parameter 'beta'"),
        ("mcc@0.2", "cannot parse metric"),
        ("kapa", "Did you mean 'kappa'"),
    ],
)
def test_bad_specs(spec, match):
    with pytest.raises(im.InvalidParameterError, match=match):
        im.parse_metric(spec)


def test_from_counts_needs_tn_and_marks_undefined_points():
    m = im.parse_metric("mcc")
    with pytest.raises(im.InvalidParameterError, match="needs the true negatives"):
        m.from_counts([1], [1], [1])
    values = m.from_counts([0, 2, 3], [0, 1, 3], [3, 1, 0], [3, 2, 0])
    assert (
        np.isnan(values[0])
        and np.isnan(values[2])
        and values[1] == pytest.approx(skm.matthews_corrcoef([1, 1, 1, 0, 0, 0], [1, 1, 0, 1, 0, 0]), rel=1e-15)
    )


def test_mcc_needs_no_product_of_four_counts():
    # Counts near 1e100: a product of four overflows, the kernel does not (same value as the unit counts).
    m = im.parse_metric("mcc")
    unit = m.from_counts(
        3.0,
        1.0,
        2.0,
        4.0,
    )
    big = m.from_counts(3e100, 1e100, 2e100, 4e100)
    assert big == pytest.approx(unit, rel=1e-14) and unit == pytest.approx(
        skm.matthews_corrcoef([1] * 5 + [0] * 5, [1, 1, 1, 0, 0, 1, 0, 0, 0, 0]), rel=1e-14
    )


def test_weight_scale_and_large_weights_leave_the_best_unchanged(rng):
    y = (rng.random(200) < 0.3).astype(int)
    s = np.round(rng.normal(size=200) + y, 1)
    w = rng.random(200) + 0.1
    for spec in ("mcc", "kappa", "markedness", "net_benefit@0.3", "npv", "balanced_accuracy"):
        a = im.best_threshold(y, s, metric=spec, sample_weight=w)
        b = im.best_threshold(y, s, metric=spec, sample_weight=w * 1e250)
        assert (a.threshold, a.value) == (b.threshold, pytest.approx(b.value, rel=1e-13))


def test_cli_and_evaluation_accept_every_new_metric(rng):
    y = (rng.random(120) < 0.4).astype(int)
    s = rng.normal(size=120) + y
    specs = [
        "mcc",
        "accuracy",
        "balanced_accuracy",
        "kappa",
        "npv",
        "specificity",
        "markedness",
        "informedness",
        "net_benefit@0.1",
    ]
    (result,) = im.evaluate_scores(y, {"a": s}, metrics=specs)
    for spec, b in zip(specs, result.best):
        assert b.value == pytest.approx(im.best_threshold(y, s, metric=spec).value, rel=1e-15)
