"""The fast paths of the full evaluation (issue 26, item 2) against a plain NumPy reference, bit for bit.

The one-pass sweep reads AUROC of a table without ties from one reduction of TP (an exact integer),
computes F-beta from the precision's TP + FP and skips the runs whose F-beta bound lies below the
running best's window; the unweighted counts are cumulated as float64 ones. Every value here is
compared with ``==`` to a straightforward computation on whole arrays: counts from a stable argsort
and ``np.cumsum``, rates and gains by their formulas, AUROC from the Mann-Whitney U in integers, AP
summed by aligned blocks (the summation contract of ``_core.summation``), the best F-beta by exact
fractions. The tests that monkeypatch the slow paths away fail on the code before the fast paths.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from isometrics import OperatingPoints
from isometrics._core import counting, sorting
from isometrics._core.count_table import UNIT_STEPS
from isometrics._core.summation import BLOCK
from isometrics.spaces import one_pass
from isometrics.spaces._terms import CHUNK
from isometrics.spaces.areas import AUPRG, AUROC, AVERAGE_PRECISION
from isometrics.spaces.curves import PR, PRG, ROC


def _data(n: int, ties: bool, seed: int = 0, prevalence: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < prevalence
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 2)
    return y, s


def _reference(y: np.ndarray, s: np.ndarray) -> dict[str, np.ndarray]:
    """Thresholds, counts, curves and gains of unweighted scores, computed on whole arrays."""
    order = np.argsort(-s, kind="stable")
    ranked, labels = s[order], y[order]
    last = np.r_[ranked[1:] != ranked[:-1], True]  # the last sample of each tie group
    tp = np.r_[0.0, np.cumsum(labels)[last].astype(np.float64)]
    fp = np.r_[0.0, np.cumsum(~labels)[last].astype(np.float64)]
    P, N = tp[-1], fp[-1]
    predicted = tp + fp
    predicted[0] = 1.0
    precision = tp / predicted
    precision[0] = 1.0
    pi = P / (P + N)
    with np.errstate(divide="ignore"):
        gains = [(1.0 - pi / x) * (1.0 / (1.0 - pi)) for x in (precision, tp / P)]
    return {
        "thresholds": np.r_[np.inf, ranked[last]],
        "tp": tp,
        "fp": fp,
        "tpr": tp / P,
        "fpr": fp / N,
        "precision": precision,
        "precision_gain": gains[0],
        "recall_gain": gains[1],
    }


def _auroc(y: np.ndarray, s: np.ndarray) -> float:
    """U / (P N), U the Mann-Whitney statistic counted in integers (ties count one half)."""
    pos, neg = np.sort(s[y]), s[~y]
    below = np.searchsorted(pos, neg, side="right")  # positives at or below each negative
    strictly = np.searchsorted(pos, neg, side="left")
    twice_u = int(2 * (len(pos) * len(neg)) - np.sum(below + strictly, dtype=np.int64))
    return (twice_u / 2) / (len(pos) * len(neg))


def _average_precision(ref: dict[str, np.ndarray]) -> float:
    """diff(TP) x precision, summed by blocks of BLOCK terms aligned to their positions, the blocks exactly."""
    terms = np.diff(ref["tp"]) * ref["precision"][1:]
    return math.fsum(float(np.add.reduce(terms[k : k + BLOCK])) for k in range(0, len(terms), BLOCK)) / ref["tp"][-1]


def _best_fbeta(ref: dict[str, np.ndarray], beta: float) -> tuple[float, float]:
    """The highest F-beta (exact fractions decide between near values; ties to the highest threshold)."""
    tp, fp = ref["tp"], ref["fp"]
    P = tp[-1]
    b2 = beta * beta
    values = tp / ((tp + fp) * (1.0 / (1.0 + b2)) + (b2 / (1.0 + b2)) * P)
    near = np.flatnonzero(values >= values.max() * (1 - 1e-9))
    q = Fraction(beta) ** 2
    exact = [
        Fraction(int(tp[i])) * (1 + q) / (int(tp[i]) * (1 + q) + int(fp[i]) + q * (int(P) - int(tp[i]))) for i in near
    ]
    i = int(near[exact.index(max(exact))])
    return float(values[i]), float(ref["thresholds"][i])


def _evaluate(y: np.ndarray, s: np.ndarray) -> tuple[OperatingPoints, list]:
    op = OperatingPoints.from_scores(y, s)
    return op, op.compute(ROC, PR, PRG, AUROC, AVERAGE_PRECISION, AUPRG, best=["f1", "f2"])


@pytest.mark.parametrize("sort", ["numpy", "polars"])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("n", [60_000, 2 * CHUNK + 17, 3 * CHUNK])
def test_full_evaluation_equals_the_reference_bit_for_bit(n, ties, sort):
    saved = list(sorting._chosen)
    try:
        sorting.choose_sort(sort)
        y, s = _data(n, ties, seed=n)
        op, (roc, pr, prg, auroc, ap, _, f1, f2) = _evaluate(y, s)
    finally:
        sorting._chosen[:] = saved
    ref = _reference(y, s)
    for name, got in [
        ("thresholds", op.thresholds),
        ("tp", op.tp),
        ("fp", op.fp),
        ("tpr", roc.tpr),
        ("fpr", roc.fpr),
        ("precision", pr.precision),
        ("tpr", pr.recall),
        ("precision_gain", prg.precision_gain),
        ("recall_gain", prg.recall_gain),
    ]:
        assert got.dtype == np.float64 and np.array_equal(got, ref[name]), name
    assert (op.peek(UNIT_STEPS) is True) is (not ties)
    assert auroc == _auroc(y, s)
    assert ap == _average_precision(ref)
    assert (f1.value, f1.threshold) == _best_fbeta(ref, 1.0)
    assert (f2.value, f2.threshold) == _best_fbeta(ref, 2.0)


def test_auroc_without_ties_is_one_reduction_of_tp(monkeypatch):
    """No AUROC term is computed for a table without ties, and the area is still U / (P N) exactly."""
    y, s = _data(2 * CHUNK + 5, ties=False, seed=3, prevalence=0.4)

    def refuse(*args, **kwargs):
        raise AssertionError("auroc_terms called on a table without ties")

    monkeypatch.setattr(one_pass, "auroc_terms", refuse)
    op = OperatingPoints.from_scores(y, s)
    (auroc,), _ = one_pass.compute_together(op, [AUROC])
    assert auroc == _auroc(y, s)
    weighted = OperatingPoints.from_scores(y, s, sample_weight=np.ones(len(y)))  # no unit-step mark: the terms
    assert weighted.peek(UNIT_STEPS) is None
    with pytest.raises(AssertionError, match="auroc_terms"):
        one_pass.compute_together(weighted, [AUROC])


def test_fbeta_of_the_sweep_reads_the_precision_sum_and_skips_runs_below_the_best(monkeypatch):
    """F-beta is not computed by the general kernel, and runs past the optimum are not evaluated at all."""
    y, s = _data(8 * CHUNK, ties=False, seed=4)
    runs = []
    fbeta_run = one_pass.fbeta_from_predicted

    def counted(tp, *args, **kwargs):
        runs.append(len(tp))
        return fbeta_run(tp, *args, **kwargs)

    def refuse(*args, **kwargs):
        raise AssertionError("metric_values called for F-beta")

    monkeypatch.setattr(one_pass, "fbeta_from_predicted", counted)
    monkeypatch.setattr(one_pass, "metric_values", refuse)
    op = OperatingPoints.from_scores(y, s)
    _, best = op.compute(PR, best=["f1"])
    assert (best.value, best.threshold) == _best_fbeta(_reference(y, s), 1.0)
    assert 0 < len(runs) < op.n_points // CHUNK  # some runs were skipped by their bound


@pytest.mark.parametrize("inverted", [False, True])
@pytest.mark.parametrize("ties", [False, True])
def test_label_counts_of_both_key_orders(inverted, ties):
    """Counts decoded from keys sorted decreasingly (no sort uses it today) or complemented and ascending."""
    y, s = _data(3 * sorting._KEY_RUN + 11, ties, seed=5, prevalence=0.5)
    keys, exponent = sorting._label_keys(s, y, invert=inverted, slot=True)
    keys[...] = np.sort(keys) if inverted else np.sort(keys)[::-1]  # in place: the slot stays before them
    thresholds, counts, labels = counting._label_counts(keys, exponent, inverted)
    ref = _reference(y, s)
    if ties:  # the scores of every sample and their labels, for the caller to group
        assert counts is None
        ranked = np.sort(s)[::-1]
        np.testing.assert_array_equal(thresholds[1:], ranked)
        starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]])
        positives = np.add.reduceat(labels.astype(np.int64), starts)
        assert np.array_equal(np.r_[0.0, np.cumsum(positives)], ref["tp"])
    else:
        assert counts is not None
        np.testing.assert_array_equal(thresholds, ref["thresholds"])
        assert np.array_equal(counts[0], ref["tp"]) and np.array_equal(counts[1], ref["fp"])


def test_auprg_after_a_prg_curve_reads_its_gains(monkeypatch):
    """AUPRG asked after the PRG curve reads the curve's gains instead of computing them again: the same area."""
    y, s = _data(2 * CHUNK + 9, ties=False, seed=6)
    expected = OperatingPoints.from_scores(y, s).auprg()
    op = OperatingPoints.from_scores(y, s)
    op.compute(PRG)

    def refuse(*args, **kwargs):
        raise AssertionError("gains computed again")

    monkeypatch.setattr(one_pass, "gain_transform", refuse)
    (auprg,) = op.compute(AUPRG)
    assert auprg == expected
