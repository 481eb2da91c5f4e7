"""Several score columns evaluated by threads (issue 26, item 4): the same results as one column at a time.

References: every threaded result is compared with the serial path (``n_jobs=None``) with
``np.array_equal`` and ``==`` on floats, never a tolerance; the serial path's numbers are checked
against scikit-learn elsewhere (tests/test_against_sklearn.py), and here once more for AUROC and AP.
"""

from __future__ import annotations

import contextvars
import dataclasses
import inspect
import threading
import time
import warnings

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import isometrics as im
from isometrics import OperatingPoints
from isometrics._core.parallel import available_cpus, check_n_jobs, ordered_map
from isometrics.cli import out_of_core
from isometrics.evaluation import score_columns
from isometrics.exceptions import InvalidParameterError

N = 60_000  # above the size where the engine sorts packed keys (and groups tied scores by hashing)


def _columns(n: int = N, seed: int = 0) -> tuple[np.ndarray, dict[str, np.ndarray], np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return (
        y,
        {
            "continuous": rng.random(n) + 0.4 * y,
            "negative": rng.normal(size=n) - y,  # signed keys
            "tied": np.round(rng.random(n) + 0.3 * y, 2),  # mostly tied: grouped by hashing (Polars)
            "int": rng.integers(0, 1000, n).astype(float) + 100 * y,
            "tiny": rng.random(n) * 1e-310,  # subnormal: no exact key, Polars' arg_sort
        },
        rng.integers(1, 4, n).astype(float),
    )


def _same_evaluation(a: im.BinaryEvaluation, b: im.BinaryEvaluation) -> None:
    assert a.name == b.name
    for key in ("n_samples", "n_positives", "n_negatives", "prevalence", "auroc", "average_precision", "auprg"):
        va, vb = getattr(a, key), getattr(b, key)
        assert type(va) is type(vb) and (va == vb or (va != va and vb != vb)), key  # bit for bit, not close
    assert len(a.best) == len(b.best)
    for x, z in zip(a.best, b.best):
        for f in dataclasses.fields(x):
            vx, vz = getattr(x, f.name), getattr(z, f.name)
            assert vx == vz or repr(vx) == repr(vz) == "nan", f.name  # floats bit for bit; NaN equal to NaN
    for key in ("thresholds", "tp", "fp"):
        assert np.array_equal(getattr(a.operating_points, key), getattr(b.operating_points, key)), key
    assert a.intervals.keys() == b.intervals.keys()
    for key, r in a.intervals.items():
        assert np.array_equal(r.bootstrap_distribution, b.intervals[key].bootstrap_distribution, equal_nan=True)
        assert r.confidence_interval == b.intervals[key].confidence_interval
    assert (a.groups is None) == (b.groups is None)
    if a.groups is not None:
        assert a.groups.to_dict() == b.groups.to_dict()


def _same(a: im.Evaluations, b: im.Evaluations) -> None:
    assert a.names == b.names
    for x, z in zip(a, b):
        _same_evaluation(x, z)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("keep", [True, False], ids=["kept", "lean"])
def test_threads_give_the_serial_results_bit_for_bit(weighted, keep):
    y, scores, w = _columns()
    kwargs = dict(
        metrics=["f1", "youden", "g(beta=2, rho=-3)"], sample_weight=w if weighted else None, keep_operating_points=keep
    )
    serial = im.evaluate_scores(y, scores, n_jobs=None, **kwargs)
    for n_jobs in (2, 3, -1, 64):
        _same(im.evaluate_scores(y, scores, n_jobs=n_jobs, **kwargs), serial)
    _same(im.evaluate_scores(y, scores, **kwargs), serial)  # the default is threaded
    # the serial path itself against scikit-learn (an independent reference)
    for r in serial:
        assert r.auroc == pytest.approx(
            roc_auc_score(y, scores[r.name], sample_weight=kwargs["sample_weight"]), rel=1e-12
        )
        assert r.average_precision == pytest.approx(
            average_precision_score(y, scores[r.name], sample_weight=kwargs["sample_weight"]), rel=1e-12
        )


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "lean"])
def test_bootstrap_and_groups_draw_as_one_column_at_a_time(keep):
    """The bootstrap and the groups draw from one Generator column after column: the same draws threaded."""
    y, scores, w = _columns(8_000, seed=1)
    scores = {k: scores[k] for k in ("continuous", "negative", "int")}
    groups = np.arange(len(y)) % 3
    for rng in (lambda: 7, lambda: np.random.default_rng(7)):  # a seed, and a Generator shared by the columns
        runs = [
            im.evaluate_scores(
                y,
                scores,
                metrics=["f1"],
                sample_weight=w,
                weight_kind="frequency",
                n_resamples=30,
                rng=rng(),
                groups=groups,
                keep_operating_points=keep,
                n_jobs=n_jobs,
            )
            for n_jobs in (None, 3)
        ]
        _same(runs[1], runs[0])


def test_columns_are_evaluated_at_the_same_time(monkeypatch):
    """Two columns' count tables are built at once, on two threads (this failed when columns ran in a loop)."""
    y, scores, _ = _columns(2_000)
    barrier = threading.Barrier(2, timeout=30)
    threads = set()
    original = OperatingPoints.from_validated.__func__

    def meeting(cls, *args, **kwargs):
        threads.add(threading.get_ident())
        barrier.wait()  # returns only when another column's table is being built at the same time
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(OperatingPoints, "from_validated", classmethod(meeting))
    results = im.evaluate_scores(y, {"a": scores["continuous"], "b": scores["int"]}, n_jobs=2)
    assert results.names == ("a", "b") and len(threads) == 2


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "lean"])
def test_a_thread_done_early_starts_the_next_column_at_once(monkeypatch, keep):
    """The thread that finished the second column starts the third while the first is still being evaluated
    (before, it waited for the first column's result to be taken: one core idle for the difference)."""
    y, scores, _ = _columns(2_000)
    columns = {k: scores[k] for k in ("continuous", "int", "negative")}
    third_started = threading.Event()
    seen = []
    original = OperatingPoints.from_validated.__func__

    def first_waits_for_third(cls, is_pos, handed, *args, **kwargs):
        values = handed[0] if isinstance(handed, list) else handed
        if values[0] == columns["continuous"][0]:
            seen.append(third_started.wait(timeout=5))
        elif values[0] == columns["negative"][0]:
            third_started.set()
        return original(cls, is_pos, handed, *args, **kwargs)

    monkeypatch.setattr(OperatingPoints, "from_validated", classmethod(first_waits_for_third))
    results = im.evaluate_scores(y, columns, n_jobs=2, keep_operating_points=keep)
    assert results.names == tuple(columns) and seen == [True]


def test_with_resampling_the_columns_ahead_wait_for_the_calling_thread(monkeypatch):
    """With ``n_resamples`` a finished column holds its scores and full table until the calling thread resamples it:
    no more columns are started than there are threads, besides the one being resampled."""
    y, scores, _ = _columns(2_000)
    running, most = [0], [0]
    lock = threading.Lock()
    original = OperatingPoints.from_validated.__func__

    def counted(cls, *args, **kwargs):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.01)
        return original(cls, *args, **kwargs)

    monkeypatch.setattr(OperatingPoints, "from_validated", classmethod(counted))
    taken = []
    original_intervals = score_columns._intervals

    def resampled(*args, **kwargs):
        with lock:
            running[0] -= 1  # the column whose result the calling thread holds
        taken.append(1)
        time.sleep(0.05)  # a slow bootstrap: threads free to run ahead would start every other column meanwhile
        return original_intervals(*args, **kwargs)

    monkeypatch.setattr(score_columns, "_intervals", resampled)
    im.evaluate_scores(y, scores, n_resamples=2, rng=0, n_jobs=2, keep_operating_points=False)
    assert len(taken) == len(scores) and most[0] <= 2 + 1


@pytest.mark.parametrize("keep", [True, False], ids=["kept", "lean"])
def test_the_first_bad_column_in_column_order_is_reported(keep):
    y, scores, _ = _columns(2_000)
    scores = dict(scores)
    scores["int"] = scores["int"].copy()
    scores["int"][5] = np.nan
    scores["tiny"] = scores["tiny"].copy()
    scores["tiny"][0] = np.inf
    messages = []
    for n_jobs in (None, 4):
        with pytest.raises(im.IsometricsError, match=r"score column 'int'") as info:
            im.evaluate_scores(y, scores, keep_operating_points=keep, n_jobs=n_jobs)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_an_unexpected_error_names_its_column(monkeypatch):
    y, scores, _ = _columns(2_000)
    original = OperatingPoints.from_validated.__func__

    def failing(cls, is_pos, handed, *args, **kwargs):
        values = handed[0] if isinstance(handed, list) else handed
        if values[0] == scores["int"][0]:
            raise MemoryError("no room")
        return original(cls, is_pos, handed, *args, **kwargs)

    monkeypatch.setattr(OperatingPoints, "from_validated", classmethod(failing))
    for n_jobs in (None, 3):
        with pytest.raises(MemoryError, match="no room") as info:
            im.evaluate_scores(y, scores, n_jobs=n_jobs)
        notes = getattr(info.value, "__notes__", ["score column 'int'"])  # notes: Python >= 3.11
        assert any("score column 'int'" in note for note in notes)


def test_warnings_come_in_column_order_at_the_callers_line():
    y, scores, _ = _columns(2_000)
    constant = {name: np.full(len(y), float(k)) for k, name in enumerate(("c0", "c1", "c2", "c3"))}
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        im.evaluate_scores(y, constant, n_jobs=4)
    shown = [str(w.message).split(" has")[0] for w in record if issubclass(w.category, im.DegenerateDataWarning)]
    assert shown == [f"score column {name!r}" for name in constant]
    assert {(w.filename, w.lineno) for w in record} == {(__file__, line)}


@pytest.mark.parametrize("value", [0, -5, -2, "x", "2", 2.5, True, np.bool_(True), [2], np.nan, 1.5])
def test_n_jobs_refuses_what_is_not_a_thread_count(value):
    y, scores, _ = _columns(100)
    with pytest.raises(InvalidParameterError, match=r"^evaluate_scores: `n_jobs` must be") as info:
        im.evaluate_scores(y, scores, n_jobs=value)
    assert repr(value) in str(info.value)


def test_n_jobs_reads_as_in_scikit_learn():
    assert check_n_jobs(None, caller="f") == 1
    assert check_n_jobs(1, caller="f") == 1
    assert check_n_jobs(np.int64(3), caller="f") == 3
    assert check_n_jobs(2.0, caller="f") == 2  # an integral float is an integer, as everywhere in the package
    assert check_n_jobs(-1, caller="f") == available_cpus() >= 1


def test_ordered_map_keeps_order_bounds_the_window_and_carries_the_context():
    setting: contextvars.ContextVar[str] = contextvars.ContextVar("setting", default="unset")
    setting.set("caller's")
    started: list[int] = []
    lock = threading.Lock()

    def work(k: int) -> tuple[int, str]:
        with lock:
            started.append(k)
        time.sleep(0.002 * (5 - k % 5))  # later items often finish first
        return k, setting.get()

    taken = 0
    for k, seen in ordered_map(work, range(20), 3):
        assert (k, seen) == (taken, "caller's")
        with lock:
            assert len(started) <= taken + 1 + 3  # the one held, the window of three
        taken += 1
    assert taken == 20


@pytest.mark.parametrize("ahead", [None, 1])
def test_ordered_map_ahead_lets_an_idle_thread_start_the_next_items(ahead):
    third_started = threading.Event()

    def work(k: int) -> tuple[int, bool]:
        if k == 2:
            third_started.set()
        return k, third_started.wait(timeout=5) if k == 0 else True  # item 0 ends only once item 2 has begun

    assert list(ordered_map(work, range(4), 2, ahead=ahead)) == [(k, True) for k in range(4)]


def test_ordered_map_stops_early_when_an_item_fails():
    done: list[int] = []

    def work(k: int) -> int:
        if k == 2:
            raise ValueError("two")
        done.append(k)
        return k

    named = []
    with pytest.raises(ValueError, match="two"):
        list(ordered_map(work, range(100), 2, on_error=lambda item, exc: named.append(item)))
    assert named == [2] and max(done) < 10  # the rest were never started


def test_the_command_line_runs_as_many_threads_as_fit_in_memory(tmp_path, monkeypatch):
    """`isometrics evaluate` holds one column per thread: on a machine with little memory left it runs fewer."""
    path = tmp_path / "scores.csv"
    rng = np.random.default_rng(0)
    path.write_text(
        "y,a,b,c\n" + "".join(f"{k % 2},{rng.random()},{rng.random()},{rng.random()}\n" for k in range(2_000))
    )
    monkeypatch.setattr(out_of_core, "available_cpus", lambda: 8)
    monkeypatch.setattr(out_of_core, "available_memory", lambda: 10**12)
    assert out_of_core.threads_in_memory(path, 4, 3) == 3  # one per column (fewer columns than CPUs)
    rows, need = out_of_core.in_memory_estimate(path, 4)
    per_thread = rows * out_of_core.BYTES_PER_CELL * out_of_core.ENGINE_ARRAYS
    monkeypatch.setattr(out_of_core, "available_memory", lambda: int((need + per_thread) / out_of_core.SAFE_SHARE) + 1)
    assert out_of_core.threads_in_memory(path, 4, 3) == 2  # room for one more thread's arrays, not two
    monkeypatch.setattr(out_of_core, "available_memory", lambda: 0)
    assert out_of_core.threads_in_memory(path, 4, 3) == 1
    monkeypatch.setattr(out_of_core, "available_cpus", lambda: 1)
    monkeypatch.setattr(out_of_core, "available_memory", lambda: 10**12)
    assert out_of_core.threads_in_memory(path, 4, 3) == 1
