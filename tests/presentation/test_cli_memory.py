"""Bounded memory (issue 14, section 1): ``evaluate`` evaluates one score column at a time and
keeps a display subset of each column's operating points; the numbers do not change."""

import json
import weakref
from collections.abc import Mapping

import numpy as np
import polars as pl
import pytest
from _cli import run_in_process

from isometrics import OperatingPoints, evaluate_scores
from isometrics._core.outputs import json_text

N = 30_000  # more distinct scores than the display subset keeps (10,000): the subset is really thinned


@pytest.fixture(scope="module")
def frame():
    rng = np.random.default_rng(11)
    y = (rng.random(N) < 0.2).astype(int)
    return pl.DataFrame(
        {
            "y": y,
            "a": rng.normal(size=N) + 1.2 * y,
            "b": np.round(rng.normal(size=N) + 0.8 * y, 2),  # ties
            "c": rng.random(N) + 0.3 * y,
            "w": rng.integers(1, 4, N).astype(float),
        }
    )


@pytest.mark.parametrize("weighted", [False, True])
def test_cli_json_equals_the_full_evaluation(frame, tmp_path, weighted):
    """Every number the CLI writes equals that of evaluate_scores keeping the full operating points."""
    path = tmp_path / "scores.parquet"
    frame.write_parquet(path)
    extra = ["--weight", "w", "--weight-kind", "frequency"] if weighted else []
    run = run_in_process(  # what the command writes, not the process: in this process
        "evaluate",
        path,
        "--label",
        "y",
        "--score",
        "a",
        "--score",
        "b",
        "--score",
        "c",
        "--metric",
        "f1",
        "--metric",
        "f2",
        "--json",
        tmp_path / "out.json",
        *extra,
    )
    assert run.returncode == 0, run.stderr
    got = json.loads((tmp_path / "out.json").read_text())["results"]
    full = evaluate_scores(
        frame["y"].to_numpy(),
        {k: frame[k].to_numpy() for k in "abc"},
        metrics=["f1", "f2"],
        sample_weight=frame["w"].to_numpy() if weighted else None,
        weight_kind="frequency" if weighted else None,
    )
    assert all(r.operating_points.n_points > 10_000 for r in full[::2])  # "a" and "c": thinned below
    assert got == json.loads(json_text([r.to_dict() for r in full]))


def test_display_subset_keeps_hull_vertices_and_best_points(frame):
    y, scores = frame["y"].to_numpy(), {k: frame[k].to_numpy() for k in "abc"}
    full = evaluate_scores(y, scores, metrics=["f1", "f0.5"])
    lean = evaluate_scores(y, scores, metrics=["f1", "f0.5"], keep_operating_points=False)
    for f, r in zip(full, lean):
        op, sub = f.operating_points, r.operating_points
        assert sub.n_points <= min(
            op.n_points, 10_000 + len(op.roc_convex_hull().indices) + len(op.prg_convex_hull().indices) + 2
        )
        kept = np.isin(op.thresholds, sub.thresholds)
        assert kept.sum() == sub.n_points  # a subset of the points: exact where drawn
        np.testing.assert_array_equal(op.tp[kept], sub.tp)
        np.testing.assert_array_equal(op.fp[kept], sub.fp)
        assert np.isin(op.thresholds[op.roc_convex_hull().indices], sub.thresholds).all()
        assert np.isin(op.thresholds[op.prg_convex_hull().indices], sub.thresholds).all()
        for b in r.best:
            assert b.threshold in sub.thresholds
            assert sub.best_threshold(b.metric).threshold == b.threshold
        assert (r.auroc, r.average_precision, r.auprg) == (f.auroc, f.average_precision, f.auprg)


class _Lazy(Mapping):
    """Score columns made when looked up; records whether earlier operating points were alive then."""

    def __init__(self, columns, refs):
        self.columns, self.refs, self.alive_at_lookup = columns, refs, []

    def __getitem__(self, name):
        self.alive_at_lookup.append(sum(r() is not None for r in self.refs))
        return self.columns[name]()

    def __iter__(self):
        return iter(self.columns)

    def __len__(self):
        return len(self.columns)


@pytest.mark.parametrize("n_jobs", [None, 2], ids=["one column at a time", "two threads"])
@pytest.mark.parametrize("keep", [False, True])
def test_operating_points_of_a_column_are_released_before_the_next(monkeypatch, keep, n_jobs):
    refs = []
    build = OperatingPoints.from_validated.__func__

    def tracked(cls, *args, **kwargs):
        op = build(cls, *args, **kwargs)
        refs.append(weakref.ref(op))
        return op

    monkeypatch.setattr(OperatingPoints, "from_validated", classmethod(tracked))
    rng = np.random.default_rng(3)
    y = rng.random(20_000) < 0.3
    columns = {f"s{k}": (lambda k=k: np.random.default_rng(k).normal(size=len(y)) + y) for k in range(3)}
    lazy = _Lazy(columns, refs)
    results = evaluate_scores(
        y,
        lazy if not keep else {k: f() for k, f in columns.items()},
        metrics=["f1"],
        keep_operating_points=keep,
        n_jobs=n_jobs,
    )
    assert len(refs) == 3
    if keep:  # each result holds its full operating points
        assert {id(r()) for r in refs} == {id(r.operating_points) for r in results}  # threads: built in any order
    else:  # column k's full operating points are gone when column k+1 is read (threads: besides the other thread's)
        assert lazy.alive_at_lookup == [0, 0, 0] if n_jobs is None else max(lazy.alive_at_lookup) <= n_jobs - 1
        assert all(r() is None for r in refs)
        assert all(r.operating_points.n_points <= 10_000 + 100 for r in results)


def test_keep_operating_points_must_be_a_bool():
    with pytest.raises(TypeError, match="keep_operating_points"):
        evaluate_scores([0, 1], {"s": [0.1, 0.9]}, keep_operating_points="no")
