"""Every bad input gets a clear error (message asserted), and the caller's arrays are untouched."""

import numpy as np
import pytest

import isometrics as im

Y = np.array([0, 1, 0, 1, 1])
S = np.array([0.1, 0.9, 0.3, 0.6, 0.6])

BINARY_FUNCS = [
    im.roc_curve,
    im.precision_recall_curve,
    im.prg_curve,
    im.auroc,
    im.average_precision,
    im.auprg,
    lambda y, s, **k: im.best_threshold(y, s, metric="f1", **k),
    lambda y, s, **k: im.OperatingPoints.from_scores(y, s, **k).roc_curve(),
    lambda y, s, **k: im.OperatingPoints.from_scores(y, s, **k).precision_recall_curve(),
]
#: scikit-learn's names: one class gives NaN (or recall 1) with a warning, as scikit-learn's functions do
AS_SKLEARN = (im.roc_curve, im.precision_recall_curve)


@pytest.mark.parametrize("func", BINARY_FUNCS)
@pytest.mark.parametrize(
    "y, s, kwargs, match",
    [
        (Y, [0.1, np.nan, 0.3, np.nan, 0.2], {}, r"y_score contains 2 NaN values \(first at index 1\); drop or impute"),
        (Y, [0.1, np.inf, 0.3, 0.2, 0.2], {}, r"y_score contains 1 infinite value \(first at index 1\)"),
        (Y, ["a", "b", "c", "d", "e"], {}, r"y_score must be numeric scores"),
        (Y, S[:4], {}, r"different numbers of samples \(y_true has 5, y_score has 4\)"),
        ([], [], {}, r"the input is empty"),
        ([1, 1, 1, 1, 1], S, {}, r"undefined when y_true has one class \(no negative samples"),
        ([0, 0, 0, 0, 0], S, {}, r"undefined when y_true has one class \(no positive samples"),
        (
            ["a", "b", "a", "b", "b"],
            S,
            {},
            r"cannot infer the positive class from the labels \['a', 'b'\]; pass pos_label=",
        ),
        (Y, S, {"pos_label": 2}, r"pos_label=2 is not a label of y_true \(labels: \[0, 1\]\)"),
        ([0, 1, 2, 1, 0], S, {}, r"y_true has 3 classes \[0, 1, 2\], but this is a binary evaluation"),
        (Y, S, {"sample_weight": [1, 1, -1, 1, 1]}, r"sample_weight contains 1 negative values \(first at index 2"),
        (Y, S, {"sample_weight": [1, 1, 1]}, r"different numbers of samples"),
        (Y, S, {"sample_weight": [0, 0, 0, 0, 0]}, r"every sample_weight is 0"),
        (Y, S, {"sample_weight": [1, np.nan, 1, 1, 1]}, r"sample_weight contains 1 NaN value"),
        (Y, S.reshape(1, -1), {}, r"has shape \(1, 5\), a row; pass a 1-D array"),
        ([0, 1, np.nan, 1, 0], S, {}, r"y_true contains NaN labels \(first at index 2\)"),
    ],
)
def test_bad_input_messages(func, y, s, kwargs, match):
    if func in AS_SKLEARN and "one class" in match:
        if func is im.precision_recall_curve and "no negative" in match:  # defined: precision 1 throughout
            assert np.all(func(y, s, **kwargs)[0] == 1.0)
            return
        with pytest.warns(im.UndefinedMetricWarning, match="no (positive|negative) samples"):
            func(y, s, **kwargs)
        return
    with pytest.raises(im.IsometricsError, match=match):
        func(y, s, **kwargs)


@pytest.mark.parametrize("func", BINARY_FUNCS)
def test_column_vectors_are_raveled_as_in_scikit_learn(func):
    # scikit-learn's column_or_1d ravels labels and scores of shape (n, 1); the result is that of the 1-D
    # input. Weights stay 1-D, as _check_sample_weight requires (issue 23: test_common refuses (n, 1) weights).
    expected = func(Y, S)
    got = func(Y.reshape(-1, 1), S.reshape(-1, 1), sample_weight=np.ones(5))
    if isinstance(expected, tuple):
        for a, b in zip(got, expected):
            np.testing.assert_array_equal(a, b)
    else:
        assert repr(got) == repr(expected)


def test_single_class_chunk_is_allowed_in_the_engine_but_not_in_curves():
    op = im.OperatingPoints.from_scores([1, 1], [0.2, 0.4])
    assert op.n_positives == 2 and op.n_negatives == 0
    with pytest.raises(im.IsometricsError, match="auroc is undefined when y_true has one class"):
        op.auroc()


@pytest.mark.parametrize("labels, expected", [([0, 1], 1), ([-1, 1], 1), ([False, True], True), ([1, 1], 1)])
def test_pos_label_inference(labels, expected):
    op = im.OperatingPoints.from_scores(labels, [0.2, 0.4])
    assert op.pos_label == expected


def test_inputs_are_not_mutated():
    y = Y.copy()
    s = S.copy()
    w = np.array([1.0, 0.0, 2.0, 1.0, 1.0])
    originals = (y.copy(), s.copy(), w.copy())
    op = im.OperatingPoints.from_scores(y, s, sample_weight=w)
    op.roc_curve(), op.precision_recall_curve(), op.prg_curve(), op.auprg(), op.best_threshold("f2")
    im.precision_recall_fscore_support(y, (s > 0.5).astype(int), sample_weight=w)
    for a, b in zip((y, s, w), originals):
        np.testing.assert_array_equal(a, b)


def test_curves_do_not_share_mutable_state():
    op = im.OperatingPoints.from_scores(Y, S)
    p1 = op.precision_recall_curve().precision
    p1_copy = p1.copy()
    op.prg_curve()
    op.average_precision()
    np.testing.assert_array_equal(op.precision_recall_curve().precision, p1_copy)


@pytest.mark.parametrize(
    "call, match",
    [
        (lambda: im.precision_score([0, 1, 2], [0, 1, 1]), r"3 classes but average='binary' takes two"),
        (
            lambda: im.precision_score([0, 1], [0, 1], average="samples"),
            r"average='samples' averages over the labels of each sample, which needs multilabel data",
        ),
        (lambda: im.precision_score([0, 1], [0, 1], average="none"), r"`average` must be one of"),
        (lambda: im.precision_score([0, 1], [0, 1], zero_division=2), r"`zero_division` must be 'warn', 0.0, 1.0"),
        (lambda: im.precision_score(["a", "b"], ["a", "b"]), r"pos_label=1 is not a label"),
        (lambda: im.precision_score(["a", "b"], [0, 1]), r"use the same label type"),
        (lambda: im.fbeta_score([0, 1], [0, 1], beta=-1), r"`beta` must be a real number >= 0; got -1"),
        (lambda: im.accuracy_score([0, 1], [0]), r"different numbers of samples"),
    ],
)
def test_label_score_errors(call, match):
    with pytest.raises((im.IsometricsError, im.InvalidParameterError), match=match):
        call()


def test_mcc_undefined_warns_and_follows_zero_division():
    with pytest.warns(im.UndefinedMetricWarning, match="Matthews"):
        assert im.matthews_corrcoef([0, 0, 1], [1, 1, 1]) == 0.0
    assert np.isnan(im.matthews_corrcoef([0, 0, 1], [1, 1, 1], zero_division=np.nan))


@pytest.mark.parametrize(
    "spec, match",
    [
        ("fbta(beta=2)", r"unknown metric 'fbta'. Did you mean 'fbeta'\?"),
        ("g(beta=2)", r"metric 'g' needs rho"),
        ("g(beta=2, rho=x)", r"cannot parse 'rho=x'.*arguments are key=number"),
        ("fbeta(gamma=2)", r"metric 'fbeta' has no parameter 'gamma'; it accepts: beta"),
        ("fbeta(beta=-2)", r"`beta` must be a number >= 0; got -2"),
        ("g(beta=0, rho=-2)", r"`beta` must be a number > 0 and finite"),
        ("f1(", r"cannot parse metric 'f1\('"),
        ("fbeta(beta=1, beta=2)", r"parameter 'beta' given twice"),
        ("harmonic(beta=1, gamma=2)", r"takes beta or gamma, not both"),
        (3, r"metric must be a string"),
    ],
)
def test_metric_parser_explains_mistakes(spec, match):
    with pytest.raises(im.InvalidParameterError, match=match):
        im.parse_metric(spec)


@pytest.mark.parametrize(
    "spec, p, r, expected",
    [
        ("f1", 0.5, 1.0, 2 / 3),
        ("F0.5", 0.5, 1.0, 1.25 * 0.5 / (0.25 * 0.5 + 1.0)),
        ("fbeta(beta=2)", 0.5, 1.0, 5 * 0.5 / (4 * 0.5 + 1.0)),
        ("harmonic(gamma=4)", 0.5, 1.0, 1 / ((4 / 0.5 + 1 / 1.0) / 5)),
        ("g(beta=2, rho=-3)", 0.5, 1.0, ((2**-3 * 0.5**-2 + 1.0) / (1 + 2**-3)) ** (-1 / 2)),
        ("arithmetic(gamma=4)", 0.5, 1.0, (4 * 0.5 + 1.0) / 5),
        ("geometric(beta=2)", 0.5, 1.0, (0.5 * 1.0**2) ** (1 / 3)),
        ("power(gamma=1, phi=2)", 0.5, 1.0, ((0.25 + 1.0) / 2) ** 0.5),
        ("min", 0.5, 1.0, 0.5),
        ("max", 0.5, 1.0, 1.0),
        ("precision", 0.5, 1.0, 0.5),
        ("recall", 0.5, 1.0, 1.0),
    ],
)
def test_metric_specs_evaluate_by_hand(spec, p, r, expected):
    metric = im.parse_metric(spec)
    assert float(metric.from_precision_recall(p, r)) == pytest.approx(expected, rel=1e-14)
    assert im.parse_metric(metric.spec).spec == metric.spec  # canonical spec round-trips


def test_fbeta_defined_where_precision_is_not():
    metric = im.parse_metric("f2")
    assert metric.from_counts(0, 0, 5, 10) == 0.0  # nothing predicted positive: F = 0, precision undefined
    assert np.isnan(im.parse_metric("arithmetic(gamma=1)").from_counts(0, 0, 5, 10))
    assert im.parse_metric("geometric(beta=1)").from_counts(0, 0, 5, 10) == 0.0


def test_constant_scores_warn_and_still_evaluate():
    with pytest.warns(im.DegenerateDataWarning, match="single distinct value"):
        op = im.OperatingPoints.from_scores([0, 1, 1, 0], [0.3, 0.3, 0.3, 0.3])
    assert op.auroc() == 0.5
    assert op.auprg() == pytest.approx(0.0, abs=1e-15)  # the random-ranking baseline of PRG
