"""isometrics.dask: the evaluation on a (local, in-process) Dask cluster equals the in-memory engine's, exactly.

The reference is the in-memory engine on the concatenated data (itself tested against
scikit-learn and brute force), and a brute-force pair count for AUROC; the comparisons are
``==`` with integer weights. Bad values in the middle of a partition or a file are reported
with where they are; a worker lost in the middle of the computation changes nothing.
"""

import asyncio
import time

import numpy as np
import pytest

import isometrics as im

pd = pytest.importorskip("pandas")
dd = pytest.importorskip("dask.dataframe")
dask = pytest.importorskip("dask")
distributed = pytest.importorskip("distributed")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from _naive import naive_auroc  # noqa: E402

from isometrics.dask import _evaluate, _partitions, _plan, _reduce, evaluate_dask  # noqa: E402

METRICS = ["f1", "f0.5", "mcc", "g(beta=2, rho=-3)", "cost(fp=1, fn=5)", "youden"]


@pytest.fixture(scope="module")
def client():
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as c,
        distributed.Client(c, set_as_default=False) as cl,
    ):
        yield cl


def _data(rng, n=3000, *, ties=True, weights=True, labels=(0, 1)):
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    s = np.round(s, 1) if ties else s
    frame = pd.DataFrame({"y": np.where(y, labels[1], labels[0]), "s": s, "t": rng.random(n)})
    if weights:
        frame["w"] = rng.integers(0, 4, size=n)
    return frame


def _same(result, frame, *, weight="w", pos_label=None, metrics=METRICS, scores=("s",)):
    reference = im.evaluate_scores(
        frame["y"].to_numpy(),
        {c: frame[c].to_numpy() for c in scores},
        sample_weight=None if weight is None else frame[weight].to_numpy(),
        pos_label=pos_label,
        metrics=metrics,
    )
    for name in scores:
        got, ref = result[name], reference[name]
        assert (got.auroc, got.average_precision, got.auprg) == (ref.auroc, ref.average_precision, ref.auprg)
        assert (got.n_samples, got.n_positives, got.n_negatives) == (ref.n_samples, ref.n_positives, ref.n_negatives)
        if weight is None:  # unweighted: the totals are counts, ints as evaluate_scores gives them
            assert type(got.n_positives) is type(ref.n_positives) is int
        for b, r in zip(got.best, ref.best, strict=True):
            assert (b.threshold, b.value, b.tp, b.fp, b.n_ties, b.tied_thresholds) == (
                r.threshold,
                r.value,
                r.tp,
                r.fp,
                r.n_ties,
                r.tied_thresholds,
            )


@pytest.mark.parametrize("n_partitions, n_ranges", [(1, None), (17, None), (17, 1), (9, 40), (40, 7)])
def test_equals_the_in_memory_engine(client, rng, n_partitions, n_ranges):
    frame = _data(rng)
    result = evaluate_dask(
        dd.from_pandas(frame, npartitions=n_partitions),
        label="y",
        scores=["s", "t"],
        sample_weight="w",
        metrics=METRICS,
        client=client,
        n_ranges=n_ranges,
    )
    _same(result, frame, scores=("s", "t"))


class _Tasks(distributed.diagnostics.plugin.SchedulerPlugin):
    """Counts what the scheduler receives: the graphs (each a wait of the client for the workers or a
    submission) and the tasks it runs."""

    def __init__(self):
        self.graphs = self.run = 0

    def update_graph(self, scheduler, **kwargs):
        self.graphs += 1

    def transition(self, key, start, finish, *args, **kwargs):
        self.run += start == "processing" and finish == "memory"


def test_few_tasks_and_round_trips(client, rng):
    """One task per partition reads, validates and counts every column (and one more sends the client its
    summary); a column of one score range is one task from the partitions' tables to its result; the
    client submits four graphs, whatever the number of columns (the evaluation column by column ran
    884 tasks in 10 graphs here: 17 ranges of a few hundred scores, each in several tasks)."""
    frame = _data(rng)
    data = dd.from_pandas(frame, npartitions=17)
    counter = _Tasks()
    client.cluster.scheduler.add_plugin(counter, name="count-tasks")
    try:
        result = evaluate_dask(data, label="y", scores=["s", "t"], sample_weight="w", metrics=METRICS, client=client)
    finally:
        client.cluster.scheduler.remove_plugin(name="count-tasks")
    _same(result, frame, scores=("s", "t"))
    # 17 partitions of the input, 17 tables, 17 summaries, 2 columns
    assert counter.run <= 3 * 17 + 2, counter.run
    assert counter.graphs <= 4, counter.graphs


@pytest.mark.parametrize("n_partitions, expected", [(17, 3), (2, 2)])
def test_default_ranges_one_per_range_points(client, rng, tmp_path, monkeypatch, n_partitions, expected):
    """Without ``n_ranges``: one score range per ``RANGE_POINTS`` distinct scores, at most one per
    partition (one curve file per range); the column of ties (73 distinct scores, at most 17 * 73 counted
    over the partitions) has one range."""
    monkeypatch.setattr(_plan, "RANGE_POINTS", 1000)
    frame = _data(rng, weights=False)  # "t": 3000 distinct scores; "s": a few dozen
    out = tmp_path / "curve"
    result = evaluate_dask(
        dd.from_pandas(frame, npartitions=n_partitions),
        label="y",
        scores=["s", "t"],
        metrics=METRICS,
        client=client,
        curve_path=out,
    )
    _same(result, frame, weight=None, scores=("s", "t"))
    assert len(list((out / "t").iterdir())) == expected
    assert len(list((out / "s").iterdir())) == 1


def test_ranges_that_cut_the_summation_blocks(client, rng, monkeypatch):
    """More distinct scores than one summation block (65,536 terms): ranges begin and end inside blocks,
    whose pieces are handed on between the workers' sweeps, and each range is swept in several updates;
    the sums are still the in-memory ones."""
    monkeypatch.setattr(_reduce, "SWEEP_CHUNK", 7_777)  # the cluster runs in this process: workers see it
    frame = _data(rng, n=300_000, ties=False)
    result = evaluate_dask(
        dd.from_pandas(frame, npartitions=6),
        label="y",
        scores="s",
        sample_weight="w",
        metrics=["f1", "mcc"],
        client=client,
        n_ranges=7,
    )
    _same(result, frame, metrics=["f1", "mcc"])


def test_display_subset_is_on_the_curve(client, rng):
    frame = _data(rng, n=50_000, ties=False, weights=False)
    got = evaluate_dask(dd.from_pandas(frame, npartitions=5), label="y", scores="s", metrics=["f1"], client=client)["s"]
    op = im.OperatingPoints.from_scores(frame.y, frame.s)
    shown = got.operating_points
    at = np.searchsorted(-op.thresholds, -shown.thresholds)
    np.testing.assert_array_equal(op.thresholds[at], shown.thresholds)  # points of the curve, in order
    np.testing.assert_array_equal(op.tp[at], shown.tp)
    np.testing.assert_array_equal(op.fp[at], shown.fp)
    assert 10_000 <= shown.n_points < 11_000 and shown.thresholds[0] == np.inf and shown.tp[-1] == op.tp[-1]
    hull = op.roc_convex_hull()
    assert set(op.thresholds[hull.indices]) <= set(shown.thresholds)  # every ROC hull vertex
    assert got.best[0].threshold in set(shown.thresholds)
    assert shown.auroc() == pytest.approx(op.auroc(), abs=1e-3)


def test_ranges_hold_about_equal_numbers_of_points(rng):
    """The cuts come from the partitions' summaries (what the client receives): weighted quantiles of
    their samples, so skewed partitions still give balanced ranges."""
    sizes = [40_000, 5_000, 20_000, 1_000]
    parts = [
        _partitions.partition_table(
            pd.DataFrame({"y": rng.integers(0, 2, n), "s": rng.normal(size=n) * (k + 1)}),
            _partitions.Locator(k, 4),
            label="y",
            scores=["s"],
            weight=None,
            caller="t",
        )
        for k, n in enumerate(sizes)
    ]
    cuts = _plan.range_cuts([p.summary().columns[0] for p in parts], 6)
    assert len(cuts) == 5 and np.all(np.diff(cuts) < 0)
    pieces = [_partitions.split_by_range(p, [(0, cuts)], False) for p in parts]
    per_range = [sum(len(piece[r][0][0]) for piece in pieces) for r in range(6)]
    assert sum(per_range) == sum(sizes)
    assert max(per_range) < 1.2 * sum(sizes) / 6 and min(per_range) > 0.8 * sum(sizes) / 6, per_range


def test_auroc_is_the_pair_count(client, rng):
    frame = _data(rng, n=400, weights=False)
    result = evaluate_dask(dd.from_pandas(frame, npartitions=6), label="y", scores="s", client=client)
    assert result["s"].auroc == pytest.approx(naive_auroc(frame.y.to_numpy(), frame.s.to_numpy()), rel=1e-14)


def test_partitions_of_one_class_and_string_labels(client, rng):
    """Sorted by label, most partitions hold one class: their counts are flipped to the global classes."""
    frame = _data(rng, labels=("ham", "spam")).sort_values("y", kind="stable").reset_index(drop=True)
    data = dd.from_pandas(frame, npartitions=11)
    for pos in ("spam", "ham"):
        _same(
            evaluate_dask(
                data, label="y", scores="s", sample_weight="w", pos_label=pos, metrics=METRICS, client=client
            ),
            frame,
            pos_label=pos,
        )


@pytest.mark.parametrize("labels", [(-1, 1), (False, True)])
def test_inferred_positive_class(client, rng, labels):
    frame = _data(rng, labels=labels, weights=False)
    _same(
        evaluate_dask(dd.from_pandas(frame, npartitions=5), label="y", scores="s", metrics=["f1"], client=client),
        frame,
        weight=None,
        metrics=["f1"],
    )


def test_empty_partitions_and_zero_weights(client, rng):
    frame = _data(rng)
    frame.loc[frame.index[500:900], "w"] = 0  # whole partitions of zero weight
    data = dd.from_pandas(frame, npartitions=15)
    data = data[(data.t > 0.05) | (data.index < 2)]  # some rows dropped; partitions stay
    kept = frame[(frame.t > 0.05) | (frame.index < 2)]
    _same(evaluate_dask(data, label="y", scores="s", sample_weight="w", client=client, metrics=METRICS), kept)


def test_fractional_weights_agree_to_rounding(client, rng):
    frame = _data(rng)
    frame["w"] = frame["w"] * rng.random(len(frame))
    got = evaluate_dask(dd.from_pandas(frame, npartitions=7), label="y", scores="s", sample_weight="w", client=client)[
        "s"
    ]
    ref = im.evaluate_scores(frame.y, {"s": frame.s}, sample_weight=frame.w)["s"]
    assert got.auroc == pytest.approx(ref.auroc, rel=1e-12)
    assert got.average_precision == pytest.approx(ref.average_precision, rel=1e-12)


def test_curve_files_are_the_whole_curve(client, rng, tmp_path):
    frame = _data(rng)
    out = tmp_path / "curve"
    evaluate_dask(
        dd.from_pandas(frame, npartitions=8),
        label="y",
        scores=["s", "t"],
        sample_weight="w",
        client=client,
        n_ranges=5,
        curve_path=out,
    )
    for name in ("s", "t"):
        files = sorted((out / name).iterdir())
        assert [f.name for f in files] == [f"part-{k:05d}.parquet" for k in range(len(files))]
        curve = pa.concat_tables([pq.read_table(f) for f in files])
        op = im.OperatingPoints.from_scores(frame.y, frame[name], sample_weight=frame.w)
        np.testing.assert_array_equal(curve["threshold"].to_numpy(), op.thresholds)
        np.testing.assert_array_equal(curve["tp"].to_numpy(), op.tp)
        np.testing.assert_array_equal(curve["fp"].to_numpy(), op.fp)
    assert [p.name for p in tmp_path.iterdir()] == ["curve"]  # no staging left behind


def _write_parquet(directory, frame, n_files=3, row_group_size=250):
    directory.mkdir()
    bounds = np.linspace(0, len(frame), n_files + 1).astype(int)
    for k, chunk in enumerate(frame.iloc[i:j] for i, j in zip(bounds[:-1], bounds[1:])):
        pq.write_table(
            pa.Table.from_pandas(chunk, preserve_index=False),
            directory / f"part-{k}.parquet",
            row_group_size=row_group_size,
        )


def test_parquet_data_set_by_path(client, rng, tmp_path, monkeypatch):
    frame = _data(rng)
    _write_parquet(tmp_path / "data", frame)
    monkeypatch.setattr(_evaluate, "ROWS_PER_PARTITION", 500)  # two row groups per partition
    assert len(_evaluate._parquet_pieces(tmp_path / "data", ["y", "s"])) == 6
    result = evaluate_dask(
        tmp_path / "data", label="y", scores=["s", "t"], sample_weight="w", metrics=METRICS, client=client
    )
    _same(result, frame, scores=("s", "t"))


# ---------------------------------------------------------------------------------------- bad input (issue 14 §5)
def _bad(frame, column, row, value):
    frame = frame.copy()
    frame[column] = frame[column].astype(object if isinstance(value, str) else float)
    frame.loc[row, column] = value
    return frame


@pytest.mark.parametrize(
    "column, value, words",
    [
        ("s", np.nan, ["score column 's'", "NaN"]),
        ("s", -np.inf, ["score column 's'", "infinite"]),
        ("w", -2.0, ["weight column 'w'", "-2.0", ">= 0"]),
        ("w", np.nan, ["weight column 'w'", "non-finite", "nan"]),
        ("y", np.nan, ["label column 'y'", "missing"]),
        ("y", 7, ["third class 7", "binary"]),
    ],
)
def test_bad_value_names_the_partition_and_row(client, rng, tmp_path, column, value, words):
    frame = _data(rng, n=1000)
    frame.index = frame.index + 5000  # index labels differ from positions
    bad = _bad(frame, column, 5000 + 437, value)  # partition 4 of 10 (100 rows each), its row 37
    out = tmp_path / "curve"
    with pytest.raises(im.IsometricsError) as info:
        evaluate_dask(
            dd.from_pandas(bad, npartitions=10, sort=False),
            label="y",
            scores=["t", "s"],
            sample_weight="w",
            client=client,
            curve_path=out,
        )  # "t" is fine, and its curve discarded
    message = str(info.value)
    for word in words + ["evaluate_dask", "partition 4 of 10", "row 37 of that partition", "index 5437"]:
        assert word in message, message
    assert not out.exists() and list(tmp_path.iterdir()) == []  # nothing written


def test_bad_value_in_a_file_names_the_file_and_row(client, rng, tmp_path, monkeypatch):
    frame = _data(rng, n=1200)
    frame.loc[1000, "s"] = np.nan  # file part-2 holds rows 800..1199: its row 200
    _write_parquet(tmp_path / "data", frame)
    monkeypatch.setattr(_evaluate, "ROWS_PER_PARTITION", 100)
    with pytest.raises(im.IsometricsError, match=r"part-2\.parquet', row 200 \(partition \d+ of \d+\)"):
        evaluate_dask(tmp_path / "data", label="y", scores="s", client=client)


def test_a_third_class_in_another_partition(client, rng):
    frame = _data(rng, n=1000)
    frame.loc[frame.index >= 600, "y"] = 2  # partitions 6..9 hold the classes 0 and 2
    frame.loc[650, "y"] = 0
    with pytest.raises(im.IsometricsError, match=r"third class 2 \(besides 0, 1\) in partition 6 of 10, row 0"):
        evaluate_dask(dd.from_pandas(frame, npartitions=10), label="y", scores="s", client=client)


def test_one_class_and_unknown_pos_label(client, rng):
    frame = _data(rng, n=500)
    data = dd.from_pandas(frame[frame.y == 0], npartitions=3)
    with pytest.raises(im.IsometricsError, match="no positive samples"):
        evaluate_dask(data, label="y", scores="s", client=client)
    with pytest.raises(im.IsometricsError, match="pos_label=3 is not a label"):
        evaluate_dask(dd.from_pandas(frame, npartitions=3), label="y", scores="s", pos_label=3, client=client)


def test_parameters_are_checked_before_anything_runs(tmp_path):
    data = dd.from_pandas(pd.DataFrame({"y": [0, 1], "s": [0.1, 0.2]}), npartitions=1)
    cases = [
        (dict(data=data, label="y", scores="z"), "column(s) 'z' not in the data frame"),
        (dict(data=data, label="y", scores=[]), "non-empty sequence"),
        (dict(data=data, label="y", scores=["s", "s"]), "names a column twice"),
        (dict(data=data, label=1, scores="s"), "`label` must name a column"),
        (dict(data=data, label="y", scores="s", n_ranges=0), "`n_ranges` must be an integer >= 1"),
        (dict(data=data, label="y", scores="s", metrics=["nonsense"]), "nonsense"),
        (dict(data=[1, 2], label="y", scores="s"), "Dask DataFrame or the path"),
        (dict(data=tmp_path / "none", label="y", scores="s"), "does not exist"),
        (dict(data=data, label="y", scores="s", curve_path=tmp_path), None),  # tmp_path gets a file below
    ]
    (tmp_path / "file").write_text("x")
    cases[-1] = (dict(data=data, label="y", scores="s", curve_path=tmp_path), "non-empty directory")
    for kwargs, words in cases:
        with pytest.raises(im.IsometricsError, match=words.replace("(", r"\(").replace(")", r"\)")):
            evaluate_dask(**kwargs)


# ------------------------------------------------------------------------------------------- faults
_CALLS: list[int] = []


def _slow_partition(frame):
    """A user's partition step that takes a while; on the 12th call it closes the *other* worker, which by
    then holds results of finished tasks: they are lost and must be computed again."""
    _CALLS.append(1)
    if len(_CALLS) == 12:
        me = distributed.get_worker()
        victim = next(w for w in _WORKERS if w is not me)
        asyncio.run_coroutine_threadsafe(victim.close(), victim.loop.asyncio_loop)
    time.sleep(0.02)
    return frame


_WORKERS: list = []


def test_a_worker_lost_mid_computation_changes_nothing(rng):
    frame = _data(rng)
    _CALLS.clear()
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cluster,
        distributed.Client(cluster, set_as_default=False) as client,
    ):
        _WORKERS[:] = list(cluster.workers.values())
        data = dd.from_pandas(frame, npartitions=16).map_partitions(_slow_partition, meta=frame.iloc[:0])
        result = evaluate_dask(data, label="y", scores="s", sample_weight="w", metrics=METRICS, client=client)
        # one worker is gone (under heavy load the scheduler may also drop the survivor for a missed
        # heartbeat; the result must still be right, which _same checks)
        assert len(client.scheduler_info()["workers"]) < 2
    _same(result, frame)
    assert len(_CALLS) > 16  # partitions whose results were lost with the worker were read again


def test_label_types_mixed_across_partitions_are_refused(client, rng):
    # int 0 in one partition, str "1" in another: as one array they would read as "0" and "1".
    a = pd.DataFrame({"y": pd.Series([0] * 50, dtype=object), "s": rng.random(50)})
    b = pd.DataFrame({"y": pd.Series(["1"] * 50, dtype=object), "s": rng.random(50)})
    with dask.config.set({"dataframe.convert-string": False}):  # keep the objects as they are
        data = dd.concat([dd.from_pandas(a, npartitions=1), dd.from_pandas(b, npartitions=1)])
        with pytest.raises(im.IsometricsError, match="mixes label types"):
            evaluate_dask(data, label="y", scores="s", pos_label="1", client=client)
    with pytest.raises(im.IsometricsError, match="mixes label types"):
        im.auroc(np.r_[a.y, b.y], np.r_[a.s, b.s], pos_label="1")  # as in memory
