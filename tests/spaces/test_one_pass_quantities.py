"""One pass for all quantities (issue 26, item 2): ``OperatingPoints.compute`` and the evaluation.

The quantities named together must be the very doubles of each quantity asked alone (compared
with ``np.array_equal`` and ``==``), on tables whose lengths fall on both sides of the pass's runs
(65,536 points), and agree with scikit-learn; the one-call evaluation must walk each column once.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn import metrics as skm

import isometrics as im
from isometrics import OperatingPoints
from isometrics.exceptions import InvalidParameterError, IsometricsError
from isometrics.spaces import areas, hull, one_pass
from isometrics.spaces._terms import CHUNK
from isometrics.spaces.areas import AUPRG, AUROC, AVERAGE_PRECISION
from isometrics.spaces.curves import PR, PRECISION, PRG, ROC, TPR
from isometrics.spaces.hull import ROC_HULL
from isometrics.spaces.interpolation import AUC_PR_INTERPOLATED

ALL = (ROC, PR, PRG, AUROC, AVERAGE_PRECISION, AUPRG, AUC_PR_INTERPOLATED)
METRICS = ("f1", "f2", "mcc", "g(beta=2, rho=-3)", "youden")


def _data(n_points: int, weights: str, seed: int = 0):
    """Labels, scores with ``n_points - 1`` distinct values (fewer for "ties") and weights."""
    rng = np.random.default_rng(seed + n_points)
    n = n_points - 1
    y = rng.random(n) < 0.2
    y[:2] = True, False  # both classes, however small
    s = rng.normal(size=n) + y
    if weights == "ties":
        s = np.round(s, 3)
    scale = {"none": None, "ties": None, "real": 2.0, "int": None, "huge": 1e300}[weights]
    w = None if scale is None else rng.random(n) * scale
    if weights == "int":
        w = rng.integers(1, 4, n).astype(float)
    return y, s, w


def _same(a, b) -> bool:
    if isinstance(a, tuple):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, im.BestThreshold):
        return (a.threshold, a.value, a.tp, a.fp, a.index, a.n_ties, a.tied_thresholds) == (
            b.threshold,
            b.value,
            b.tp,
            b.fp,
            b.index,
            b.n_ties,
            b.tied_thresholds,
        )
    return a == b


@pytest.mark.parametrize("n_points", [3, 1000, CHUNK - 1, CHUNK, CHUNK + 1, CHUNK + 2, 2 * CHUNK + 1, 3 * CHUNK + 77])
@pytest.mark.parametrize("weights", ["none", "real", "int", "ties", "huge"])
def test_together_equals_each_alone_bit_for_bit(n_points, weights):
    y, s, w = _data(n_points, weights)
    alone = OperatingPoints.from_scores(y, s, sample_weight=w)
    expected = [alone.get(q) for q in ALL] + [alone.best_threshold(m) for m in METRICS]
    together = OperatingPoints.from_scores(y, s, sample_weight=w)
    got = together.compute(*ALL, best=METRICS)
    assert len(got) == len(expected)
    for q, a, b in zip([*ALL, *METRICS], expected, got):
        assert _same(a, b), q
    # kept: the methods return the values of the pass, and compute again changes nothing
    assert together.roc_curve() is got[0] and together.prg_curve() is got[2] and together.auroc() == got[3]
    assert together.best_threshold("f1") is got[len(ALL)]
    assert all(_same(a, b) for a, b in zip(got, together.compute(*ALL, best=METRICS)))


@pytest.mark.parametrize("weights", ["none", "real"])
def test_together_agrees_with_scikit_learn(weights):
    y, s, w = _data(2 * CHUNK + 500, weights, seed=3)
    roc, pr, auroc, ap = OperatingPoints.from_scores(y, s, sample_weight=w).compute(ROC, PR, AUROC, AVERAGE_PRECISION)
    fpr, tpr, _ = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(roc.fpr, fpr, rtol=1e-12, atol=0)
    np.testing.assert_allclose(roc.tpr, tpr, rtol=1e-12, atol=0)
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(pr.precision[1:], precision[::-1][1:], rtol=1e-12)
    np.testing.assert_allclose(pr.recall, recall[::-1], rtol=1e-12)
    assert auroc == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-12)
    assert ap == pytest.approx(skm.average_precision_score(y, s, sample_weight=w), rel=1e-12)


def test_subsets_and_order_and_parts():
    y, s, w = _data(CHUNK + 10, "none")
    op = OperatingPoints.from_scores(y, s, sample_weight=w)
    auprg, prg = op.compute(AUPRG, PRG)  # any order; the PR curve it reads is kept as get(PRG) keeps it
    ref = OperatingPoints.from_scores(y, s, sample_weight=w)
    assert auprg == ref.auprg() and _same(prg, ref.prg_curve())
    assert op.peek(PR) is not None and op.peek(TPR) is op.peek(PR).recall
    # a later pass reuses what is kept (the precision, the recall) instead of computing it again
    precision = op.peek(PRECISION)
    roc, ap = op.compute(ROC, AVERAGE_PRECISION)
    assert roc.tpr is op.peek(TPR) and op.peek(PRECISION) is precision and ap == ref.average_precision()
    # quantities outside the pass (the hull) come after it, as their methods give them
    (hull,) = op.compute(ROC_HULL)
    assert np.array_equal(hull.indices, ref.roc_convex_hull().indices)
    assert op.compute() == () and op.compute(best=["f1"])[0] is op.best_threshold("f1")


def test_only_what_is_asked_is_kept():
    y, s, _ = _data(CHUNK + 10, "none")
    op = OperatingPoints.from_scores(y, s)
    op.compute(AUROC, AVERAGE_PRECISION, AUPRG, best=["f1"])
    for curve in (ROC, PR, PRG, TPR, PRECISION):  # the areas' per-run values are not kept as curves
        assert op.peek(curve) is None
    roc = op.compute(ROC)[0]
    assert op.peek(PR) is None and op.peek(PRG) is None
    assert not roc.fpr.flags.writeable and not roc.tpr.flags.writeable


def test_refusals_are_those_of_each_quantity():
    op = OperatingPoints.from_scores([1, 1, 1], [0.2, 0.5, 0.9])  # one class
    with pytest.raises(IsometricsError, match="roc_curve"):
        op.compute(ROC, AUROC)
    with pytest.raises(IsometricsError, match="best_threshold"):
        op.compute(best=["f1"])
    with pytest.raises(InvalidParameterError, match=r"OperatingPoints.compute: `quantities\[1\]`"):
        OperatingPoints.from_scores([0, 1], [0.1, 0.9]).compute(ROC, "auroc")
    with pytest.raises(InvalidParameterError, match="best"):
        OperatingPoints.from_scores([0, 1], [0.1, 0.9]).compute(best=["nonsense"])
    # MCC is 0/0 at every threshold of scores with one value: raised as best_threshold raises it
    with pytest.warns(im.DegenerateDataWarning):
        tied = OperatingPoints.from_scores([0, 1, 0], [0.5, 0.5, 0.5])
    with pytest.raises(IsometricsError, match="undefined"):
        tied.compute(AUROC, best=["mcc"])


def test_evaluate_scores_walks_each_column_once(monkeypatch):
    """The one-call evaluation asks for its areas and best thresholds together: one sweep per column,
    and no area computed on its own."""
    calls = []
    sweep = one_pass._sweep
    monkeypatch.setattr(
        one_pass, "_sweep", lambda op, fused, metrics: (calls.append(len(fused)), sweep(op, fused, metrics))
    )
    alone = []  # the areas computed on their own (a walk each) go through areas.table_area
    table_area = areas.table_area
    monkeypatch.setattr(areas, "table_area", lambda op, name, *a: (alone.append(name), table_area(op, name, *a))[1])
    y, s, _ = _data(3 * CHUNK, "none")
    s2 = s + np.random.default_rng(1).normal(size=len(s))
    result = im.evaluate_scores(y, {"a": s, "b": s2}, metrics=["f1", "mcc"], n_jobs=None)
    assert calls == [3, 3] and alone == []
    ref = OperatingPoints.from_scores(y, s2)
    b = result[1]
    assert (b.auroc, b.average_precision, b.auprg) == (ref.auroc(), ref.average_precision(), ref.auprg())
    assert _same(b.best[1], ref.best_threshold("mcc"))


def test_lean_evaluation_finds_the_roc_hull_once(monkeypatch):
    """The display subset of a lean evaluation needs both hulls; the PRG hull is read from the ROC hull,
    which is found once per column (it was found twice: the cache was emptied between the two)."""
    calls = []
    indices = hull.upper_hull_indices
    monkeypatch.setattr(hull, "upper_hull_indices", lambda op: (calls.append(op.n_points), indices(op))[1])
    y, s, _ = _data(30_000, "none")
    result = im.evaluate_scores(y, {"a": s}, metrics=["f1"], keep_operating_points=False, n_jobs=None)[0]
    assert len(calls) == 1
    ref = OperatingPoints.from_scores(y, s)
    kept = set(result.operating_points.thresholds.tolist())
    assert set(ref.thresholds[ref.roc_convex_hull().indices].tolist()) <= kept
    assert set(ref.thresholds[ref.prg_convex_hull().indices].tolist()) <= kept
