"""The fused construction and the run-by-run curves (issue 26, item 2): same values, computed once.

References come from NumPy directly (``np.unique`` and ``np.bincount`` for the counts, the gain
formula written out), never from the engine's own output.
"""

from __future__ import annotations

import numpy as np
import pytest

from isometrics import OperatingPoints
from isometrics._core import sorting
from isometrics.metrics.gain import gain_transform
from isometrics.spaces import hull

N = 3 * 65_536 + 123  # several runs of the fused loops (65,536 keys each), the last one short


def _reference(y, s):
    values, group = np.unique(s, return_inverse=True)
    pos = np.bincount(group, weights=y, minlength=len(values))[::-1]
    total = np.bincount(group, minlength=len(values))[::-1]
    return values[::-1], np.cumsum(pos), np.cumsum(total - pos)


@pytest.mark.parametrize("kind", ["signed", "scaled", "nonnegative", "tie_in_third_run", "signed_zero_tie"])
@pytest.mark.parametrize("sort", sorted(sorting.KEY_SORTS))
def test_fused_counts_equal_counts_by_hand(kind, sort):
    rng = np.random.default_rng(7)
    y = (rng.random(N) < 0.2).astype(int)
    s = rng.normal(size=N) + y
    if kind == "scaled":  # |s| >= 2: scaled keys, decoded by a multiplication by a power of two
        s = s * 1e6
    elif kind == "nonnegative":
        s = np.abs(s)
    elif kind == "tie_in_third_run":  # every score distinct but two, found in a later run
        s[2 * 65_536 + 5] = s[17]
    elif kind == "signed_zero_tie":
        s[100], s[200] = 0.0, -0.0
    saved = list(sorting._chosen)
    try:
        sorting.choose_sort(sort)
        op = OperatingPoints.from_scores(y, s)
    finally:
        sorting._chosen[:] = saved
    thresholds, tp, fp = _reference(y, s)
    np.testing.assert_array_equal(op.thresholds[1:], thresholds)
    np.testing.assert_array_equal(op.tp[1:], tp)
    np.testing.assert_array_equal(op.fp[1:], fp)
    assert op.thresholds[0] == np.inf and op.tp[0] == op.fp[0] == 0


def test_gain_run_by_run_is_the_formula():
    x = np.random.default_rng(3).random(3 * 65_536 + 11)
    x[::97] = 0.0
    pi = 0.137
    with np.errstate(divide="ignore"):
        expected = (1.0 - pi / x) * (1.0 / (1.0 - pi))
    assert gain_transform(x, pi).tobytes() == expected.tobytes()


def test_precision_curve_is_tp_over_predicted():
    rng = np.random.default_rng(5)
    y, s = rng.random(N) < 0.3, rng.normal(size=N)
    curve = OperatingPoints.from_scores(y, s).precision_recall_curve()
    _, tp, fp = _reference(y, s)
    assert curve.precision[0] == 1.0
    assert curve.precision[1:].tobytes() == (tp / (tp + fp)).tobytes()


def test_the_roc_hull_is_computed_once_for_the_table_and_its_views(monkeypatch):
    """The PRG hull reads the ROC hull on the table's normalised view: it must be the table's, not a second one."""
    calls = []
    original = hull.upper_hull_indices
    monkeypatch.setattr(hull, "upper_hull_indices", lambda op: calls.append(op) or original(op))
    rng = np.random.default_rng(2)
    y, s = rng.random(500) < 0.4, rng.normal(size=500)
    op = OperatingPoints.from_scores(y, s, sample_weight=rng.random(500) * 1e300)  # a scaled view
    assert op.normalised is not op
    roc = op.roc_convex_hull()
    op.prg_convex_hull(), op.isotonic_calibrator(), op.f_calibrator(), op.achievable_pr_curve()
    assert len(calls) == 1
    assert op.normalised.get(hull.ROC_HULL) is roc


@pytest.mark.parametrize("smallest", [1e-300, 0.0, 5e-324])
def test_scores_that_scaling_would_round_are_sorted_exactly(smallest):
    """Scores of both signs beyond 2 in magnitude are scaled for their keys; a tiny one must not lose bits."""
    rng = np.random.default_rng(11)
    y = (rng.random(N) < 0.3).astype(int)
    s = rng.normal(size=N) * 10
    s[[5, 9]] = smallest, -smallest * 3
    s[7] = np.nextafter(smallest, 1.0)
    op = OperatingPoints.from_scores(y, s)
    thresholds, tp, fp = _reference(y, s)
    np.testing.assert_array_equal(op.thresholds[1:], thresholds)
    np.testing.assert_array_equal(op.tp[1:], tp)
    np.testing.assert_array_equal(op.fp[1:], fp)
