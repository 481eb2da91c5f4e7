"""``isometrics evaluate ... --scheduler ADDRESS | --local-cluster N``, run as a user runs it (a subprocess).

The JSON written on a cluster equals the JSON of the in-memory evaluation of the same file. The refusals
(an option the cluster does not take, a bad --curve-dir) are checked in process: they are about what the
command prints and its exit status, and a fresh interpreter with Dask cost 2 to 5 CPU seconds a call.
"""

import json

import numpy as np
import pytest
from _cli import run, run_in_process

import isometrics as im

pd = pytest.importorskip("pandas")
distributed = pytest.importorskip("distributed")
pq = pytest.importorskip("pyarrow.parquet")
pa = pytest.importorskip("pyarrow")


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(14)
    n = 3000
    y = rng.random(n) < 0.2
    frame = pd.DataFrame(
        {
            "label": np.where(y, "fraud", "ok"),
            "a": rng.normal(size=n) + y,
            "b": np.round(rng.random(n) + 0.3 * y, 2),
            "w": rng.integers(0, 3, n),
        }
    )
    d = tmp_path_factory.mktemp("cli_dask")
    frame.to_parquet(d / "scores.parquet", row_group_size=500)
    (d / "parts").mkdir()
    for k in range(3):
        frame.iloc[k * 1000 : (k + 1) * 1000].to_parquet(d / "parts" / f"{k}.parquet")
    return d, frame


@pytest.fixture(scope="module")
def scheduler():
    """A cluster in this process that a subprocess reaches over TCP on the loopback."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


ARGS = (
    "--label",
    "label",
    "--pos-label",
    "fraud",
    "--score",
    "a",
    "--score",
    "b",
    "--weight",
    "w",
    "--metric",
    "f1",
    "--metric",
    "mcc",
)


def test_scheduler_gives_the_in_memory_json(data, scheduler):
    d, _ = data
    res = run("evaluate", d / "scores.parquet", *ARGS, "--json", d / "cluster.json", "--scheduler", scheduler)
    assert res.returncode == 0, res.stderr
    assert "On the Dask scheduler" in res.stdout and "Best threshold for MCC" in res.stdout
    # the reference, in memory: what the command writes, not the process, so in this process
    res = run_in_process("evaluate", d / "scores.parquet", *ARGS, "--json", d / "memory.json")
    assert res.returncode == 0, res.stderr
    on_cluster, in_memory = (json.loads((d / f"{k}.json").read_text()) for k in ("cluster", "memory"))
    assert on_cluster["results"] == in_memory["results"]
    assert on_cluster["pos_label"] == "fraud" and on_cluster["cluster"] == scheduler


def test_local_cluster_on_a_directory_with_curves(data):
    d, frame = data
    res = run(
        "evaluate",
        d / "parts",
        "--label",
        "label",
        "--pos-label",
        "fraud",
        "--score",
        "a",
        "--local-cluster",
        "1",
        "--curve-dir",
        d / "curves",
        "--json",
        "-",
    )
    assert res.returncode == 0, res.stderr
    payload = json.loads(res.stdout)
    reference = im.evaluate_scores(frame.label, {"a": frame.a}, pos_label="fraud")["a"]
    assert payload["results"][0]["auroc"] == reference.auroc
    curve = pa.concat_tables([pq.read_table(f) for f in sorted((d / "curves" / "a").iterdir())])
    op = im.OperatingPoints.from_scores(frame.label, frame.a, pos_label="fraud")
    np.testing.assert_array_equal(curve["tp"].to_numpy(), op.tp)
    np.testing.assert_array_equal(curve["threshold"].to_numpy(), op.thresholds)


def test_a_bad_row_fails_cleanly_and_writes_nothing(data, scheduler, tmp_path):
    _, frame = data
    bad = frame.copy()
    bad.loc[1234, "a"] = np.inf
    bad.to_parquet(tmp_path / "bad.parquet", row_group_size=500)
    res = run(
        "evaluate",
        tmp_path / "bad.parquet",
        *ARGS,
        "--json",
        tmp_path / "out.json",
        "--curve-dir",
        tmp_path / "curves",
        "--scheduler",
        scheduler,
    )
    assert res.returncode == 2
    assert "score column 'a'" in res.stderr and "row 1234" in res.stderr and "Traceback" not in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.parquet"]


@pytest.mark.parametrize(
    "extra, words",
    [
        (("--ci",), "do not take --ci"),
        (("--report", "r.html"), "do not take --report"),
        (("--local-cluster", "2"), "not both"),
    ],
)
def test_options_the_cluster_does_not_take(data, extra, words):
    d, _ = data
    res = run_in_process("evaluate", d / "scores.parquet", *ARGS, "--scheduler", "tcp://127.0.0.1:1", *extra)
    assert res.returncode == 2 and words in res.stderr, res.stderr


def test_curve_dir_that_cannot_be_written(data, scheduler, tmp_path):
    d, _ = data
    (tmp_path / "afile").write_text("x")
    for target, words in (
        (tmp_path / "afile", "is a file"),
        (tmp_path / "afile" / "sub", "is a file"),
        (d, "non-empty directory"),
    ):
        res = run_in_process("evaluate", d / "scores.parquet", *ARGS, "--scheduler", scheduler, "--curve-dir", target)
        assert res.returncode == 2 and words in res.stderr and "Traceback" not in res.stderr, res.stderr


def test_curve_dir_needs_a_cluster_and_csv_is_refused(data, tmp_path):
    d, frame = data
    res = run_in_process("evaluate", d / "scores.parquet", *ARGS, "--curve-dir", tmp_path / "c")
    assert res.returncode == 2 and "add --scheduler ADDRESS or --local-cluster N" in res.stderr
    frame.to_csv(tmp_path / "s.csv", index=False)
    res = run_in_process("evaluate", tmp_path / "s.csv", *ARGS, "--local-cluster", "1")
    assert res.returncode == 2 and "read Parquet" in res.stderr
