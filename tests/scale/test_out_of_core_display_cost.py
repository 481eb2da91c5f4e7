"""Out-of-core evaluation at 10^8 rows (issue 26, item 5): the per-batch work beside DuckDB's sort.

The display's cells are computed only where a run may end (whole counts: each cell is monotone
in tp and in fp, so a block whose two extreme corners share their cells has no run boundary
inside), and the kept points are exactly those of computing every cell; the running sums are
taken in place, with the same additions in the same order; a batch of distinct scores is the
count table as it stands; the command line lets the batches reuse freed memory (a page fault
per 4 KiB of every batch's arrays otherwise)."""

import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

import isometrics as im
from isometrics.cli import out_of_core as cli_ooc
from isometrics.cli._console import make_console
from isometrics.scale import _display
from isometrics.scale import out_of_core as ooc
from isometrics.scale._display import StreamingDisplay
from isometrics.scale._sources import _grouped

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("duckdb")


def _curve(rng, n, *, ties, weights):
    y = (rng.random(n) < 0.1).astype(int)
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(s, 2)
    w = rng.integers(1, 4, n).astype(np.float64) if weights else None
    return im.OperatingPoints.from_scores(y, s, sample_weight=w)


def _kept(op, exact, cuts, resolution, monkeypatch=None, seen=None):
    display = StreamingDisplay(op.n_positives, op.n_negatives, resolution, exact=exact)
    if seen is not None:  # count the points whose cells are computed
        real = display._coordinates

        def counting(tp, fp):
            seen.append(len(tp))
            return real(tp, fp)

        display._coordinates = counting
    edges = [1, *cuts, op.n_points]
    for a, b in zip(edges[:-1], edges[1:]):
        display.update(a, op.thresholds[a:b], op.tp[a:b], op.fp[a:b])
    return display.points([])


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("resolution", [2, 10, 1000])
def test_cells_computed_where_runs_may_end_keep_the_same_points(rng, ties, weights, resolution):
    op = _curve(rng, 60_000, ties=ties, weights=weights)
    cuts = sorted(rng.choice(np.arange(2, op.n_points - 1), size=7, replace=False).tolist())
    every = _kept(op, False, cuts, resolution)
    bounded = _kept(op, True, cuts, resolution)
    for a, b in zip(every, bounded, strict=True):
        assert np.array_equal(a, b)
    # also with batches shorter than the blocks (every cell computed there) and one batch
    for split in ([*range(2, 400, 37)], []):
        for a, b in zip(every, _kept(op, True, split, resolution), strict=True):
            assert np.array_equal(a, b)


def test_cells_are_computed_for_a_few_percent_of_the_points(rng):
    # 10^6 continuous scores, the benchmark's shape: computing every cell took most of the display's time
    op = _curve(rng, 1_000_000, ties=False, weights=False)
    cuts = list(range(120_000, op.n_points - 1, 120_000))
    seen: list[int] = []
    bounded = _kept(op, True, cuts, 1000, seen=seen)
    # (precision is noisy near the top of the ranking, where every cell is computed; 9 % at 10^7)
    assert sum(seen) < 0.3 * op.n_points
    for a, b in zip(_kept(op, False, cuts, 1000), bounded, strict=True):
        assert np.array_equal(a, b)


def test_fractional_counts_compute_every_cell(rng, monkeypatch):
    # the corner test needs exact tp + fp: without it every cell is computed, as before
    op = _curve(rng, 5_000, ties=True, weights=False)
    seen: list[int] = []
    _kept(op, False, [1000, 3000], 1000, seen=seen)
    assert sum(seen) >= op.n_points - 1
    assert min(_display._BLOCKS) >= 2


def test_running_sums_in_place_are_the_same_additions(rng):
    before = 0.1
    increments = rng.random(10_000) * 1e3
    expected = ooc._running(increments, before)
    got = ooc._running_into(increments.copy(), before)
    assert np.array_equal(expected, got)
    frozen = increments.copy()
    frozen.flags.writeable = False  # an Arrow column's memory: copied, not written
    assert np.array_equal(ooc._running_into(frozen, before), expected)
    assert np.array_equal(frozen, increments)
    assert ooc._running_into(np.empty(0), 3.0).size == 0


@pytest.mark.parametrize("weighted", [False, True])
def test_batches_of_distinct_scores_are_the_table(rng, weighted):
    # batches without a tie take the short path; the table equals the one summed by score
    n = 3_000
    t = np.sort(rng.normal(size=n))[::-1].copy()
    t[1500:1503] = t[1500]  # one batch with a tie
    p = (rng.random(n) < 0.3).astype(np.uint8)
    w = rng.integers(1, 5, n).astype(np.float64)
    columns = [t, p, w] if weighted else [t, p]
    batches = [
        pa.record_batch([pa.array(c[a : a + 250]) for c in columns], names=["t", "p", "w"][: len(columns)])
        for a in range(0, n, 250)
    ]
    table = [np.concatenate(parts) for parts in zip(*_grouped(iter(batches), weighted))]
    values, inverse = np.unique(t, return_inverse=True)
    ww = w if weighted else np.ones(n)
    pos = np.bincount(inverse, weights=ww * p)[::-1]
    neg = np.bincount(inverse, weights=ww * (1 - p))[::-1]
    assert np.array_equal(table[0], values[::-1])
    assert np.array_equal(table[1], pos) and np.array_equal(table[2], neg)


_FAULTS = """
import resource, sys, threading
import numpy as np
from isometrics.scale._memory import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
def batches():  # a batch's arrays and temporaries, about 1 MB each, allocated and freed in turn
    x = np.arange(131072, dtype=np.float64)
    for _ in range(100):
        a = x * 2.0; b = a + x; c = np.cumsum(b); del a, b, c
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
t = threading.Thread(target=batches); t.start(); t.join(); batches()
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator")
def test_freed_memory_is_reused_by_the_next_batches():
    def faults(mode):
        run = subprocess.run(
            [sys.executable, "-c", _FAULTS, mode], capture_output=True, text=True, env=os.environ, check=True
        )
        return int(run.stdout.split()[-1])

    if not ctypes_mallopt():
        pytest.skip("not glibc")
    # about 150,000 page faults (each 1 MB array mapped afresh) against about 2,000
    assert faults("keep") * 10 < faults("default")


def ctypes_mallopt():
    try:
        return ctypes.CDLL(None).mallopt is not None
    except (AttributeError, OSError):
        return False


def test_the_command_line_keeps_freed_memory_out_of_core(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(cli_ooc, "keep_freed_memory", lambda: calls.append(1) or True)
    path = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": [0, 1, 0, 1], "s": [0.1, 0.8, 0.3, 0.6]}), path)
    results = cli_ooc.evaluate_out_of_core_file(
        path, "y", ["s"], None, None, ["f1"], None, make_console(), "64MB", str(tmp_path / "spill")
    )
    assert calls == [1] and results[0].auroc == 1.0
