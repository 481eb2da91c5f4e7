"""The sweep: areas and best thresholds from segments of the count table, bit-identical to the
in-memory engine however the table is cut (the contract out-of-core and Dask evaluation rely on)."""

from __future__ import annotations

import pickle
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from isometrics import OperatingPoints
from isometrics.exceptions import InvalidParameterError, IsometricsError
from isometrics.spaces import _terms, hull, thresholds
from isometrics.spaces.sweep import AREAS, Sweep, sweep_table

METRICS = [
    "f1",
    "f0.5",
    "g(beta=2, rho=-3)",
    "mcc",
    "youden",
    "cost(fp=1, fn=5)",
    "precision",
    "accuracy",
    "geometric",
    "arithmetic(gamma=2)",
]


def _table(seed: int, n: int, kind: str, ties: bool) -> OperatingPoints:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < rng.uniform(0.05, 0.6)).astype(int)
    y[:2] = [0, 1]
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 1)
    s[:2] = [-9.0, 9.0]  # two distinct scores at least
    w = {"none": None, "integer": rng.integers(0, 4, n).astype(float), "float": rng.exponential(size=n)}[kind]
    if w is not None:
        w[:2] = 1.0
    return OperatingPoints.from_scores(y, s, sample_weight=w)


def _in_memory(op: OperatingPoints, metrics: list[str]) -> tuple:
    areas = (op.auroc(), op.average_precision(), op.auprg(), op.auc_pr_interpolated(), op.auc_pr_achievable())
    return areas, [_best_key(op.best_threshold(m)) for m in metrics]


def _best_key(b) -> tuple:
    values = (b.index, b.threshold, b.value, b.tp, b.fp, b.n_ties, b.tied_thresholds, b.precision, b.recall)
    return tuple("nan" if isinstance(v, float) and np.isnan(v) else v for v in values)  # NaN == NaN here


def _swept(r) -> tuple:
    return tuple(getattr(r, a) for a in AREAS), [_best_key(b) for b in r.best]


def _cuts(n_points: int, fractions: list[float]) -> list[int]:
    return sorted({1 + int(f * (n_points - 1)) for f in fractions} | {1, n_points})


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 400),
    kind=st.sampled_from(["none", "integer", "float"]),
    ties=st.booleans(),
    fractions=st.lists(st.floats(0, 1), max_size=6),
)
def test_any_cutting_gives_the_in_memory_doubles(seed, n, kind, ties, fractions):
    op = _table(seed, n, kind, ties)
    expected = _in_memory(op, METRICS)
    with_curves = OperatingPoints.from_arrays(op.thresholds.copy(), op.tp.copy(), op.fp.copy(), op.pos_label)
    with_curves.precision_recall_curve(), with_curves.prg_curve()  # areas then reuse the curves' values
    for m in METRICS[:3]:
        with_curves.metric_curve(m)
    assert _in_memory(with_curves, METRICS) == expected
    state = Sweep(op.n_positives, op.n_negatives, metrics=METRICS)
    points = _cuts(op.n_points, fractions)
    for a, b in zip(points[:-1], points[1:]):
        state.update(op.thresholds[a:b], op.tp[a:b], op.fp[a:b])
    assert _swept(state.result()) == expected


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 400),
    kind=st.sampled_from(["none", "integer", "float"]),
    ties=st.booleans(),
    fractions=st.lists(st.floats(0, 1), min_size=1, max_size=5),
)
def test_ranges_swept_apart_and_merged_give_the_in_memory_doubles(seed, n, kind, ties, fractions):
    # As Dask workers do: each range knows its global start and the counts of the point before it.
    op = _table(seed, n, kind, ties)
    expected = _in_memory(op, METRICS)
    points = _cuts(op.n_points, fractions)
    parts = []
    for a, b in zip(points[:-1], points[1:]):
        part = Sweep(op.n_positives, op.n_negatives, metrics=METRICS)
        part.update(op.thresholds[a:b], op.tp[a:b], op.fp[a:b], start=a, previous=(op.tp[a - 1], op.fp[a - 1]))
        parts.append(pickle.loads(pickle.dumps(part)))  # as shipped from a worker
    first = Sweep(op.n_positives, op.n_negatives, metrics=METRICS)  # an empty state adopts the first range
    for part in parts:
        first.merge(part)
    assert _swept(first.result()) == expected
    again = Sweep(op.n_positives, op.n_negatives, metrics=METRICS)  # the parts were copied, not changed
    for part in parts:
        again.merge(part)
    assert _swept(again.result()) == expected


@pytest.mark.parametrize("kind", ["none", "integer", "float"])
def test_tables_longer_than_a_block_cut_anywhere(kind):
    # Terms cross block boundaries (65,536 terms) and the engine's own runs.
    op = _table(7, 200_000, kind, ties=False)
    assert op.n_points > 2 * 65_536
    expected = _in_memory(op, ["f1", "mcc"])
    for chunk in (65_536, 50_000, 131_073):
        assert _swept(sweep_table(op, metrics=["f1", "mcc"], chunk=chunk)) == expected


def test_in_memory_results_do_not_depend_on_the_engines_run_length(monkeypatch):
    op = _table(3, 3000, "float", ties=True)
    expected = _in_memory(op, METRICS)
    monkeypatch.setattr(_terms, "CHUNK", 7)
    monkeypatch.setattr(thresholds, "CHUNK", 7)
    monkeypatch.setattr(hull, "CHUNK", 7)
    fresh = OperatingPoints.from_arrays(op.thresholds.copy(), op.tp.copy(), op.fp.copy(), op.pos_label)
    assert _in_memory(fresh, METRICS) == expected
    curves_first = OperatingPoints.from_arrays(op.thresholds.copy(), op.tp.copy(), op.fp.copy(), op.pos_label)
    curves_first.precision_recall_curve(), curves_first.prg_curve(), curves_first.metric_curve("f1")
    assert _in_memory(curves_first, METRICS) == expected


def test_extreme_weights_are_normalised_as_in_memory():
    op = _table(4, 500, "float", ties=False)
    for scale in (1e-300, 1e300):
        big = OperatingPoints.from_arrays(op.thresholds.copy(), op.tp * scale, op.fp * scale, op.pos_label)
        assert _swept(sweep_table(big, metrics=["f1", "g(beta=2, rho=-3)"], chunk=37)) == _in_memory(
            big, ["f1", "g(beta=2, rho=-3)"]
        )


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 300), ties=st.booleans())
def test_auroc_is_the_exact_mann_whitney_count_for_integer_weights(seed, n, ties):
    # U counted in integers, pair by pair (ties one half): AUROC is the correctly rounded U / (P N).
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = rng.integers(0, 5 if ties else 10**6, n).astype(float)
    s[:2] = [0.0, 1.0]  # two distinct scores at least
    w = rng.integers(1, 5, n)
    pos, neg = y == 1, y == 0
    greater = (s[pos][:, None] > s[neg][None, :]).astype(np.int64)
    equal = (s[pos][:, None] == s[neg][None, :]).astype(np.int64)
    pair_w = w[pos][:, None].astype(np.int64) * w[neg][None, :]
    twice_u = int((pair_w * (2 * greater + equal)).sum())
    P, N = int(w[pos].sum()), int(w[neg].sum())
    op = OperatingPoints.from_scores(y, s, sample_weight=w.astype(float))
    assert op.auroc() == float(Fraction(twice_u, 2 * P * N))
    assert sweep_table(op, chunk=3).auroc == op.auroc()


def test_state_pickled_mid_sweep_continues():
    op = _table(5, 200, "integer", ties=True)
    state = Sweep(op.n_positives, op.n_negatives, metrics=["f2"])
    state.update(op.thresholds[1:10], op.tp[1:10], op.fp[1:10])
    state = pickle.loads(pickle.dumps(state))
    state.update(op.thresholds[10:], op.tp[10:], op.fp[10:], start=10)
    assert _swept(state.result()) == _in_memory(op, ["f2"])
    assert "points 1.." in repr(state)


def test_a_subset_of_areas():
    op = _table(6, 100, "none", ties=False)
    r = sweep_table(op, areas=["auroc"])
    assert r.auroc == op.auroc() and np.isnan(r.average_precision) and len(r.hull_tp) == 0 and r.best == ()


def test_hull_vertices_are_the_in_memory_hull():
    op = _table(8, 500, "integer", ties=True)
    r = sweep_table(op, chunk=11)
    hull = op.roc_convex_hull()
    assert np.array_equal(r.hull_thresholds, hull.thresholds)
    assert np.array_equal(r.hull_tp, op.tp[hull.indices]) and np.array_equal(r.hull_fp, op.fp[hull.indices])


def test_incomplete_or_misordered_sweeps_are_refused():
    op = _table(9, 100, "none", ties=False)
    P, N = op.n_positives, op.n_negatives
    state = Sweep(P, N)
    state.update(op.thresholds[1:5], op.tp[1:5], op.fp[1:5])
    with pytest.raises(IsometricsError, match="not the whole table"):
        state.result()
    with pytest.raises(IsometricsError, match="not the whole table"):
        Sweep(P, N).result()
    with pytest.raises(InvalidParameterError, match="starts at 5, not 7"):
        state.update(op.thresholds[7:], op.tp[7:], op.fp[7:], start=7)
    with pytest.raises(InvalidParameterError, match="is not the last point seen"):
        state.update(op.thresholds[5:], op.tp[5:], op.fp[5:], previous=(-1.0, 0.0))
    late = Sweep(P, N)
    late.update(op.thresholds[8:], op.tp[8:], op.fp[8:], start=8, previous=(op.tp[7], op.fp[7]))
    with pytest.raises(InvalidParameterError, match="merge ranges in score order"):
        state.merge(late)
    with pytest.raises(InvalidParameterError, match="needs `previous"):
        Sweep(P, N).update(op.thresholds[8:], op.tp[8:], op.fp[8:], start=8)
    with pytest.raises(InvalidParameterError, match=">= 1"):
        Sweep(P, N).update(op.thresholds, op.tp, op.fp, start=0)
    with pytest.raises(InvalidParameterError, match="non-decreasing"):
        Sweep(P, N).update(op.thresholds[1:], op.tp[1:][::-1], op.fp[1:])
    with pytest.raises(InvalidParameterError, match="one length"):
        Sweep(P, N).update(op.thresholds[1:], op.tp[2:], op.fp[1:])
    with pytest.raises(InvalidParameterError, match="different totals"):
        state.merge(Sweep(P + 1, N))
    with pytest.raises(InvalidParameterError, match="not a Sweep"):
        state.merge(op)
    with pytest.raises(InvalidParameterError, match="finite number > 0"):
        Sweep(0, N)
    with pytest.raises(InvalidParameterError, match="unknown area"):
        Sweep(P, N, areas=["auc"])


def test_areas_never_leave_their_range_by_rounding():
    # A perfect ranking: every area is exactly 1, but these weights make the interpolated PR
    # terms (rise / P per positive) sum to 1.0000000000000002 before the clamp.
    y, s = [1, 1, 1, 1, 0], [5.0, 4.0, 3.0, 2.0, 1.0]
    w = [0.56, 0.86, 0.51, 0.26, 0.08]
    op = OperatingPoints.from_scores(y, s, sample_weight=w)
    raw = _terms.table_sum(op, _terms.interpolated_pr_terms)
    assert raw > 1.0  # the rounding the clamp is for (else this test could not fail)
    assert op.auc_pr_interpolated() == 1.0 and op.auc_pr_achievable() == 1.0
    r = sweep_table(op, chunk=2)
    assert r.auc_pr_interpolated == 1.0 and r.auc_pr_achievable == 1.0
    assert _terms.area_from_sum("auroc", -1e-30, 1.0, 1.0) == 0.0
    assert _terms.area_from_sum("auprg", -5.0, 1.0, 1.0) == -5.0  # AUPRG has no lower bound
    with pytest.raises(AssertionError, match="internal error: auroc"):  # more than rounding: a bug, not hidden
        _terms.area_from_sum("auroc", 2.6, 1.0, 1.0)  # 0.5 * 2.6 = 1.3


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 12), kind=st.sampled_from(["none", "float"]))
def test_the_areas_of_a_perfect_ranking_are_one_and_never_above(seed, n, kind):
    rng = np.random.default_rng(seed)
    y = np.sort(rng.integers(0, 2, n))[::-1].copy()
    y[0], y[-1] = 1, 0
    w = None if kind == "none" else np.round(rng.random(n), 2) + 0.01
    op = OperatingPoints.from_scores(y, np.arange(n, 0, -1.0), sample_weight=w)
    for area in (op.auroc(), op.average_precision(), op.auprg(), op.auc_pr_interpolated(), op.auc_pr_achievable()):
        assert area <= 1.0 and area == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize("chunk", [0, -3, 2.5, "7", None])
def test_sweep_table_refuses_a_chunk_that_is_not_a_positive_integer(chunk):
    op = OperatingPoints.from_scores([0, 1, 0, 1], [0.1, 0.9, 0.4, 0.3])
    with pytest.raises(InvalidParameterError, match="chunk"):
        sweep_table(op, chunk=chunk)


def test_a_point_with_nothing_predicted_positive_is_never_best_for_precision():
    # Hand-built table: after the origin, a group of zero weight (TP = FP = 0 at threshold 3),
    # then 1.5 positives alone (precision 1 at threshold 2). Precision is undefined at 3, so the
    # best is threshold 2 with TP 1.5 — once it was 3, with TP = FP = 0 and "precision 1".
    state = Sweep(2.5, 2.5, metrics=["precision"])
    state.update([3.0, 2.0, 1.0, 0.0], [0.0, 1.5, 1.5, 2.5], [0.0, 0.0, 1.0, 2.5])
    best = state.result().best[0]
    assert (best.threshold, best.value, best.tp, best.fp) == (2.0, 1.0, 1.5, 0.0)
