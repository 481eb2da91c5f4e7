"""Out-of-core evaluation (issue 26, item 5): the two ways DuckDB builds the count table (group
the rows by score, or sort the rows and group ties as they stream back) give the same table to
the bit; the display points do not depend on the batches; the threads that fetch and thin the
batches hand their errors on and stop with the evaluation."""

import threading

import numpy as np
import pytest

import isometrics as im
from isometrics.scale import _sources, evaluate_out_of_core
from isometrics.scale import out_of_core as ooc
from isometrics.scale._sources import Source, connect, count_table_batches
from isometrics.spaces.sweep import Sweep

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")


def _table(con, path, weight, plan, batch_size):
    batches = list(
        count_table_batches(con, Source((path,), "parquet"), "y", "s", weight, 1, batch_size, sort_rows=plan)
    )
    assert all(len(b[0]) <= batch_size for b in batches)
    return tuple(np.concatenate([b[k] for b in batches]) for k in range(3))


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("batch_size", [1, 3, 50, 1_000_000])
def test_sorting_the_rows_gives_the_grouped_table_to_the_bit(tmp_path, rng, weighted, batch_size):
    # runs of tied scores longer than a batch (they straddle batch boundaries), negative zeros,
    # zero weights (left out), integer weights
    n = 2_000
    y = rng.integers(0, 2, n)
    s = np.round(rng.normal(size=n), 1)
    s[rng.random(n) < 0.1] = -0.0
    s[rng.random(n) < 0.1] = 0.0
    w = rng.integers(0, 5, n).astype(np.float64)
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": y, "s": s, "w": w}), path)
    con = connect(256 * 2**20, str(tmp_path))
    weight = "w" if weighted else None
    grouped = _table(con, path, weight, False, batch_size)
    sorted_rows = _table(con, path, weight, True, batch_size)
    for a, b in zip(grouped, sorted_rows, strict=True):
        assert a.dtype == b.dtype == np.float64 and np.array_equal(a, b)
    assert not np.signbit(sorted_rows[0][sorted_rows[0] == 0]).any()  # no negative zero among the thresholds
    # and both are the count table, derived independently: distinct scores, decreasing
    keep = w > 0 if weighted else np.ones(n, dtype=bool)
    ww = w if weighted else np.ones(n)
    values, inverse = np.unique(s[keep] + 0.0, return_inverse=True)
    pos = np.bincount(inverse, weights=(ww * y)[keep], minlength=len(values))
    neg = np.bincount(inverse, weights=(ww * (1 - y))[keep], minlength=len(values))
    assert np.array_equal(sorted_rows[0], values[::-1])
    assert np.array_equal(sorted_rows[1], pos[::-1]) and np.array_equal(sorted_rows[2], neg[::-1])


def test_the_plan_follows_the_share_of_distinct_scores(tmp_path, rng, monkeypatch):
    n = 20_000
    y = rng.integers(0, 2, n)
    columns = {"y": y, "continuous": rng.normal(size=n) + y, "tied": np.round(rng.normal(size=n) + y, 1)}
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table(columns), path)
    plans = {}
    real = ooc.count_table_batches

    def spy(con, source, label, score, *args, sort_rows=False, **kwargs):
        plans[score] = sort_rows
        return real(con, source, label, score, *args, sort_rows=sort_rows, **kwargs)

    monkeypatch.setattr(ooc, "count_table_batches", spy)
    result = evaluate_out_of_core(path, label="y", scores=["continuous", "tied"], metrics=["f1"], batch_size=999)
    assert plans == {"continuous": True, "tied": False}
    memory = im.evaluate_scores(y, {k: v for k, v in columns.items() if k != "y"}, metrics=["f1"])
    for r, m in zip(result, memory, strict=True):
        assert (r.auroc, r.average_precision, r.auprg) == (m.auroc, m.average_precision, m.auprg)
        assert r.best[0].threshold == m.best[0].threshold


def test_fractional_weights_keep_the_grouped_plan(tmp_path, rng, monkeypatch):
    # per-score sums of fractional weights depend on the order of the additions: DuckDB's group-by
    # stays the one way of building their table
    n = 5_000
    y = rng.integers(0, 2, n)
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": y, "s": rng.normal(size=n), "w": rng.random(n) + 0.5}), path)
    plans = []
    real = ooc.count_table_batches
    monkeypatch.setattr(
        ooc,
        "count_table_batches",
        lambda *a, sort_rows=False, **k: plans.append(sort_rows) or real(*a, sort_rows=sort_rows, **k),
    )
    evaluate_out_of_core(path, label="y", scores="s", sample_weight="w", metrics=["f1"])
    assert plans == [False]


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("threaded", [False, True])
def test_display_points_do_not_depend_on_the_batches(tmp_path, rng, monkeypatch, ties, threaded):
    # before, each batch's last point was kept besides the rule's points, so the kept points
    # changed with batch_size
    monkeypatch.setattr(ooc, "PIPELINE_BATCH", 1 if threaded else 10**9)
    n = 4_000
    y = rng.integers(0, 2, n)
    s = rng.normal(size=n) + y
    if ties:
        s = np.round(s, 3)
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": y, "s": s}), path)
    runs = [
        evaluate_out_of_core(path, label="y", scores="s", metrics=["f1"], resolution=50, batch_size=b)[0]
        for b in (1_000_000, 97, 7)
    ]
    first = runs[0].operating_points
    for r in runs[1:]:
        op = r.operating_points
        assert np.array_equal(op.thresholds, first.thresholds)
        assert np.array_equal(op.tp, first.tp) and np.array_equal(op.fp, first.fp)


def _threads():
    return {t for t in threading.enumerate() if t.name.startswith(("isometrics-out-of-core", "isometrics-display"))}


def test_an_error_while_fetching_is_raised_and_the_threads_end(tmp_path, rng, monkeypatch):
    monkeypatch.setattr(ooc, "PIPELINE_BATCH", 1)  # threads for these small batches too
    n = 5_000
    y = rng.integers(0, 2, n)
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": y, "s": rng.normal(size=n)}), path)
    real = _sources._grouped

    def failing(batches, weighted):
        for k, item in enumerate(real(batches, weighted)):
            if k == 2:
                raise OSError("disk gone")
            yield item

    monkeypatch.setattr(_sources, "_grouped", failing)
    with pytest.raises(OSError, match="disk gone"):
        evaluate_out_of_core(path, label="y", scores="s", metrics=["f1"], batch_size=100)
    assert not _threads()


def test_an_error_in_the_sweep_stops_the_fetching_thread(tmp_path, rng, monkeypatch):
    monkeypatch.setattr(ooc, "PIPELINE_BATCH", 1)
    n = 20_000
    y = rng.integers(0, 2, n)
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": y, "s": rng.normal(size=n)}), path)
    real = Sweep.update
    calls = []

    def failing(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise MemoryError("no room")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Sweep, "update", failing)
    with pytest.raises(MemoryError, match="no room"):
        evaluate_out_of_core(path, label="y", scores="s", metrics=["f1"], batch_size=50)
    assert not _threads()
    assert len(calls) == 3
