"""The sort chosen by measurement (issue 26, item 1): every candidate gives the same table, bit for bit.

Reference values: each count table built with a forced candidate is compared with counts derived
by hand (``np.unique`` and ``np.bincount``, no sort of ours) and with every other candidate.
"""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from _cli import run_in_process as run  # what --version prints, not the process: in this process

from isometrics import OperatingPoints
from isometrics._core import sorting
from isometrics.exceptions import InvalidParameterError

N = 60_000  # above the size where the engine sorts packed keys


@pytest.fixture(autouse=True)
def _fresh_choice():
    """Each test starts with no choice made and leaves none behind."""
    saved = list(sorting._chosen)
    sorting._chosen.clear()
    yield
    sorting._chosen[:] = saved


def _data(kind: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(N) < 0.3).astype(int)
    if kind == "continuous":
        s = rng.normal(size=N) + y
    elif kind == "ties":  # tied, but not so much that the engine groups by hash instead of sorting
        s = np.round(rng.normal(size=N), 5)
    elif kind == "signed_zeros":  # -0.0 and 0.0 compare equal: one group
        s = rng.normal(size=N)
        s[::50] = np.where(rng.random(len(s[::50])) < 0.5, -0.0, 0.0)
    elif kind == "nonnegative":  # the unsigned keys
        s = rng.random(N)
        s[::7] = 0.0
    else:  # huge and tiny magnitudes: scaled keys
        s = rng.normal(size=N) * 10.0 ** rng.integers(-150, 150, size=N)  # exact keys exist
    return y, s


def _reference(y, s):
    """Distinct scores (decreasing) and cumulative positive and negative counts, by hand."""
    values, group = np.unique(s, return_inverse=True)  # -0.0 == 0.0: one value
    pos = np.bincount(group, weights=y, minlength=len(values))[::-1]
    total = np.bincount(group, minlength=len(values))[::-1]
    return values[::-1], np.cumsum(pos), np.cumsum(total - pos)


def _table(y, s, name):
    sorting.choose_sort(name)
    return OperatingPoints.from_scores(y, s)


@pytest.mark.parametrize("kind", ["continuous", "ties", "signed_zeros", "nonnegative", "huge_and_tiny"])
def test_every_candidate_gives_the_same_table(kind, monkeypatch):
    y, s = _data(kind)
    used = []
    for name, sort in sorting.KEY_SORTS.items():
        monkeypatch.setitem(sorting.KEY_SORTS, name, lambda keys, sort=sort, name=name: used.append(name) or sort(keys))
    thresholds, tps, fps = _reference(y, s)
    assert kind not in ("ties", "signed_zeros") or len(thresholds) < N  # ties to group
    tables = {name: _table(y, s, name) for name in sorting.KEY_SORTS}
    for name, op in tables.items():
        assert op.thresholds[0] == np.inf, name
        np.testing.assert_array_equal(op.thresholds[1:], thresholds, err_msg=name)
        np.testing.assert_array_equal(op.tp[1:], tps, err_msg=name)
        np.testing.assert_array_equal(op.fp[1:], fps, err_msg=name)
    assert used == list(sorting.KEY_SORTS)  # each candidate did sort the keys
    first = next(iter(tables.values()))
    for op in tables.values():  # bit for bit, signs of zeros included
        for a, b in ((op.thresholds, first.thresholds), (op.tp, first.tp), (op.fp, first.fp)):
            assert a.tobytes() == b.tobytes()
        assert op.auroc() == first.auroc() and op.average_precision() == first.average_precision()


@pytest.mark.parametrize("name", sorted(sorting.KEY_SORTS))
@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
def test_each_candidate_sorts_keys_decreasingly(name, dtype):
    rng = np.random.default_rng(1)
    keys = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, 5_000, dtype=np.int64).astype(dtype)
    keys[::3] = keys[1::3][: len(keys[::3])]  # ties
    expected = np.sort(keys)[::-1]
    np.testing.assert_array_equal(sorting.KEY_SORTS[name](keys.copy()), expected)


def test_the_keyword_forces_the_choice():
    for name in sorting.KEY_SORTS:
        choice = sorting.choose_sort(name)
        assert (choice.name, choice.how, choice.times) == (name, "keyword", {})
        assert sorting.choose_sort() is choice  # kept for the process


def test_the_measured_choice_is_the_fastest_and_cached(monkeypatch):
    monkeypatch.delenv(sorting.SORT_VARIABLE, raising=False)
    choice = sorting.choose_sort()
    assert choice.how == "measured" and set(choice.times) == set(sorting.KEY_SORTS)
    assert choice.times[choice.name] == min(choice.times.values())
    assert sorting.choose_sort() is choice
    assert "fastest" in choice.describe() and choice.name in choice.describe()


def test_small_inputs_do_not_time_the_sorts(monkeypatch):
    monkeypatch.delenv(sorting.SORT_VARIABLE, raising=False)
    OperatingPoints.from_scores([0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8])
    assert sorting._chosen == []


@pytest.mark.parametrize("name", sorted(sorting.KEY_SORTS))
def test_the_environment_variable_forces_the_choice(monkeypatch, name):
    monkeypatch.setenv(sorting.SORT_VARIABLE, name)
    choice = sorting.choose_sort()
    assert (choice.name, choice.how) == (name, "environment")
    assert sorting.SORT_VARIABLE in choice.describe()


def test_a_bad_name_errors_with_the_choices(monkeypatch):
    with pytest.raises(InvalidParameterError, match=r"choose_sort: `name`.*'numpy', 'polars'.*got 'quick'"):
        sorting.choose_sort("quick")
    monkeypatch.setenv(sorting.SORT_VARIABLE, "radix")
    with pytest.raises(InvalidParameterError, match=r"ISOMETRICS_SORT.*'numpy', 'polars'.*got 'radix'"):
        OperatingPoints.from_scores(*_data("continuous"))


def test_version_verbose_prints_the_machine_and_the_choice():
    res = run("--version", "--verbose")
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0].startswith("isometrics ")
    assert any(line.startswith("CPU: ") for line in lines)
    assert any(line.startswith("NumPy ") and "SIMD" in line for line in lines)
    sort_line = next(line for line in lines if line.startswith("Sort of 64-bit keys"))
    assert "fastest" in sort_line and all(name in sort_line for name in sorting.KEY_SORTS)
    assert run("--version").stdout.count("\n") == 1  # plain --version stays one line


def test_version_verbose_shows_a_forced_sort_and_refuses_a_bad_one(monkeypatch):
    monkeypatch.setenv("ISOMETRICS_SORT", "polars")  # read when the sort is chosen (none is made: _fresh_choice)
    res = run("--verbose", "--version")
    assert res.returncode == 0 and "polars (forced by ISOMETRICS_SORT)" in res.stdout
    sorting._chosen.clear()
    monkeypatch.setenv("ISOMETRICS_SORT", "bogus")
    res = run("--version", "--verbose")
    assert res.returncode == 2 and "got 'bogus'" in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_threads_asking_at_once_time_the_sorts_once(monkeypatch):
    # two threads ask for the choice while none is made: one times the candidates, the other waits
    # for that choice (without the lock both saw no choice and both timed, on a CPU they shared)
    monkeypatch.delenv(sorting.SORT_VARIABLE, raising=False)
    calls = []

    def slow_timing():
        calls.append(1)
        time.sleep(0.2)  # long enough for the other thread to arrive while this one times
        return {"numpy": 1.0, "polars": 2.0}

    monkeypatch.setattr(sorting, "time_sorts", slow_timing)
    start = threading.Barrier(2)
    got = []

    def ask():
        start.wait()
        got.append(sorting.choose_sort())

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert len(sorting._chosen) == 1
    assert [c.name for c in got] == ["numpy", "numpy"] and got[0] is got[1]
