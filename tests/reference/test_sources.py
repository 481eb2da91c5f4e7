"""Worked examples from the sources and published values, with provenance.

Every expected value below is derived by hand or quoted from a publication (with
shared/reference/ERRATA.md applied); none is taken from isometrics' own output.
"""

from fractions import Fraction

import numpy as np
import pytest
from _naive import exact_auprg

import isometrics as im


def _labels_from_confusion(tn, fp, fn, tp):
    y_true = [0] * (tn + fp) + [1] * (fn + tp)
    y_pred = [0] * tn + [1] * fp + [0] * fn + [1] * tp
    return y_true, y_pred


@pytest.mark.parametrize(
    "name, counts, precision, recall",
    [
        # shared/reference/001: Model A (TN 90, FP 10, FN 1, TP 99): precision 99/109 (the text's "90/(99+10)"
        # is a slip, ERRATA.md), recall 99/100.
        ("A", (90, 10, 1, 99), Fraction(99, 109), Fraction(99, 100)),
        # Model B (TN 91, FP 9, FN 3, TP 97): precision 97/106 (the text writes 91/(91+9)), recall 97/100.
        ("B", (91, 9, 3, 97), Fraction(97, 106), Fraction(97, 100)),
    ],
)
def test_models_a_and_b_of_001(name, counts, precision, recall):
    y_true, y_pred = _labels_from_confusion(*counts)
    assert im.precision_score(y_true, y_pred) == pytest.approx(float(precision), rel=1e-15)
    assert im.recall_score(y_true, y_pred) == pytest.approx(float(recall), rel=1e-15)
    f1 = 2 * precision * recall / (precision + recall)
    assert im.f1_score(y_true, y_pred) == pytest.approx(float(f1), rel=1e-15)
    # the text's rounded figures
    assert round(100 * im.precision_score(y_true, y_pred), 1) == {"A": 90.8, "B": 91.5}[name]


def test_bayes_example_of_002():
    # 1 % prevalence, recall 0.99, false-positive rate 0.05 -> precision 1/6 (shared/reference/002).
    # As weighted data: 1 infected (weight .01) split .99/.01, healthy (weight .99) split .05/.95.
    y_true = [1, 1, 0, 0]
    y_pred = [1, 0, 1, 0]
    weight = [0.01 * 0.99, 0.01 * 0.01, 0.99 * 0.05, 0.99 * 0.95]
    assert im.precision_score(y_true, y_pred, sample_weight=weight) == pytest.approx(1 / 6, rel=1e-12)
    # Second positive test: prior 1/6 -> 0.99 (1/6) / (0.99 (1/6) + 0.05 (5/6)) ~ 0.80.
    prior = 1 / 6
    weight2 = [prior * 0.99, prior * 0.01, (1 - prior) * 0.05, (1 - prior) * 0.95]
    second = im.precision_score(y_true, y_pred, sample_weight=weight2)
    assert second == pytest.approx(0.99 / (0.99 + 0.05 * 5), rel=1e-12)
    assert round(second, 2) == 0.80


@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0, 3.0])
@pytest.mark.parametrize("tp, fn, fp, tn", [(7, 3, 5, 85), (40, 10, 2, 3), (1, 9, 0, 90)])
def test_fbeta_is_accuracy_on_modified_confusion_matrix_of_004(beta, tp, fn, fp, tn):
    # shared/reference/004: F-beta = accuracy of the matrix whose positive row is scaled by beta^2
    # and whose TN cell is replaced by TP:  [[b2 TP, b2 FN], [FP, TP]].
    b2 = beta * beta
    modified = np.array([[b2 * tp, b2 * fn], [fp, tp]], dtype=float)
    accuracy = np.trace(modified) / modified.sum()
    y_true, y_pred = _labels_from_confusion(tn, fp, fn, tp)
    assert im.fbeta_score(y_true, y_pred, beta=beta) == pytest.approx(accuracy, rel=1e-13)
    assert im.parse_metric(f"fbeta(beta={beta})").from_counts(tp, fp, fn, tn) == pytest.approx(accuracy, rel=1e-13)


def test_flach_kull_prg_example():
    # ALGORITHMS.md 1.8 (published example of the PRG reference package): labels/scores below,
    # points (TP, FP) = (2,0), (2,1), (3,2), (3,3) with (recG, precG) = (.5, 1), (.5, .5), (1, 1/3), (1, 0),
    # AUPRG = 0.7083333 (= 17/24).
    y = [1, 1, 0, 0, 1, 0]
    s = [0.8, 0.8, 0.6, 0.4, 0.4, 0.2]
    pg, rg, thr = im.prg_curve(y, s)
    np.testing.assert_allclose(rg[1:], [0.5, 0.5, 1.0, 1.0], rtol=1e-15)
    np.testing.assert_allclose(pg[1:], [1.0, 0.5, 1 / 3, 0.0], rtol=1e-15, atol=1e-15)
    assert im.auprg(y, s) == pytest.approx(17 / 24, rel=1e-14)
    assert round(im.auprg(y, s), 7) == 0.7083333


def test_auprg_25_label_example():
    # ALGORITHMS.md 1.8: the PRG Matlab package's example, published AUPRG 0.4325.
    labels = [int(c) for c in "1 1 1 0 1 1 1 1 1 1 0 1 1 1 0 1 0 0 1 0 0 0 1 0 1".split()]
    scores = 1 - np.arange(1, 26) / 25
    value = im.auprg(labels, scores)
    assert round(value, 4) == 0.4325
    assert value == pytest.approx(float(exact_auprg(labels, scores.tolist())), rel=1e-13)


def test_sklearn_docstring_example():
    # scikit-learn's documented example: AP 0.8333..., ROC AUC 0.75 (ALGORITHMS.md, check 6).
    y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    assert im.average_precision(y, s) == pytest.approx(5 / 6, rel=1e-15)
    assert im.auroc(y, s) == 0.75


def test_spark_documented_example():
    # pyspark BinaryClassificationMetrics docs: (score, label) pairs below, ROC area 0.70833 unweighted
    # (published to 2 d.p. as 0.70..., recomputed in ALGORITHMS.md 2.2).
    s = [0.1, 0.1, 0.4, 0.6, 0.6, 0.6, 0.8]
    y = [0, 1, 0, 0, 1, 1, 1]
    w = [1, 0.4, 0.2, 0.6, 0.9, 0.5, 0.7]
    assert im.auroc(y, s) == pytest.approx(17 / 24, rel=1e-14)
    # Weighted, by hand as a pairwise count: P = 2.5, N = 1.8; the 0.8 positive (.7) beats all negatives
    # (1.26); the 0.6 positives (1.4) beat 1.2 of negatives (1.68) and tie .6 (0.42); the 0.1 positive
    # (.4) ties 1 (0.2): 3.56 / 4.5 = 178/225 = 0.791111. (ALGORITHMS.md prints 0.79112: a rounding slip.)
    assert im.auroc(y, s, sample_weight=w) == pytest.approx(178 / 225, rel=1e-14)
    # Step-wise AP by hand: unweighted (1 + 2 * 3/4 + 4/7)/4 = 0.767857...; weighted
    # (0.7 * 1 + 1.4 * 2.1/2.7 + 0.4 * 2.5/4.3) / 2.5 = 0.808579... (ALGORITHMS.md prints 0.80861).
    assert im.average_precision(y, s) == pytest.approx((1 + 2 * 0.75 + 4 / 7) / 4, rel=1e-14)
    expected = (0.7 * 1 + 1.4 * 2.1 / 2.7 + 0.4 * 2.5 / 4.3) / 2.5
    assert im.average_precision(y, s, sample_weight=w) == pytest.approx(expected, rel=1e-13)


def test_g_beta_rho_special_cases_by_hand():
    P, R = 0.6, 0.9
    # rho = -2: F-beta; beta = 2: 5 P R / (4 P + R)
    assert im.g_beta_rho(P, R, beta=2, rho=-2) == pytest.approx(5 * P * R / (4 * P + R), rel=1e-15)
    # rho = -1: (P R^beta)^(1/(1+beta))
    assert im.g_beta_rho(P, R, beta=2, rho=-1) == pytest.approx((P * R**2) ** (1 / 3), rel=1e-15)
    # rho = 0: stipulated (beta P + R)/(1 + beta) (ERRATA.md)
    assert im.g_beta_rho(P, R, beta=2, rho=0) == pytest.approx((2 * P + R) / 3, rel=1e-15)
    # rho = 1: ((beta P^2 + R^2)/(1+beta))^(1/2)
    assert im.g_beta_rho(P, R, beta=2, rho=1) == pytest.approx(((2 * P**2 + R**2) / 3) ** 0.5, rel=1e-15)
    # limits (ERRATA.md): beta = 2 > 1: min(beta P, R) and max(P, R/beta)
    assert im.g_beta_rho(P, R, beta=2, rho=-np.inf) == min(2 * P, R)
    assert im.g_beta_rho(P, R, beta=2, rho=np.inf) == max(P, R / 2)
    assert im.g_beta_rho(P, R, beta=0.5, rho=-np.inf) == min(P, R / 0.5)
    assert im.g_beta_rho(P, R, beta=0.5, rho=np.inf) == max(0.5 * P, R)
