"""``--by COLUMN`` on evaluate, compare and report (issue 25, item 7): the group tables, the JSON
(equal to the library's GroupEvaluation), the report section, and the bad inputs in one line."""

import json

import numpy as np
import pandas as pd
import pytest
from _cli import run_in_process as run  # the tests of what commands print and write; not of the process

import isometrics as im


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(0)
    n = 1200
    g = rng.choice(["north", "south", "east"], n)
    y = (rng.random(n) < 0.2).astype(int)
    a = np.round(y * (1 + 0.8 * (g == "south")) + rng.normal(size=n), 3)
    b = np.round(y * 0.9 + rng.normal(size=n), 3)
    path = tmp_path_factory.mktemp("by") / "d.csv"
    frame = pd.DataFrame({"y": y, "region": g, "logreg": a, "gbm": b})
    frame.to_csv(path, index=False)
    return path, frame


def test_evaluate_by_prints_and_writes_the_library_result(data, tmp_path):
    path, frame = data
    out = tmp_path / "e.json"
    res = run(
        "evaluate",
        path,
        "--label",
        "y",
        "--score",
        "logreg",
        "--by",
        "region",
        "--ci",
        "--n-resamples",
        "50",
        "--seed",
        "0",
        "--json",
        out,
    )
    assert res.returncode == 0, res.stderr
    assert "logreg by region" in res.stdout and "Holm" in res.stdout
    got = json.loads(out.read_text())["results"][0]["groups"]
    ref = im.evaluate_scores(
        frame["y"].to_numpy(),
        {"logreg": frame["logreg"].to_numpy()},
        groups=frame["region"].to_numpy(),
        group_name="region",
    )["logreg"].groups
    assert got["column"] == "region" and [r["group"] for r in got["groups"]] == list(ref.groups)
    for row, r in zip(got["groups"], ref.rows):
        assert row["auroc"]["estimate"] == r.estimates["auroc"]
        assert row["best_thresholds"][0]["threshold"] == r.best[0].threshold
        assert row["auroc"]["interval"] is not None
    assert len(got["differences"]) == 15  # 3 groups x 5 tested statistics


def test_evaluate_by_without_ci_says_how_to_get_intervals(data):
    path, _ = data
    res = run("evaluate", path, "--label", "y", "--score", "logreg", "--by", "region")
    assert res.returncode == 0, res.stderr
    assert "add --ci" in res.stdout


def test_compare_and_report_take_by(data, tmp_path):
    path, _ = data
    out = tmp_path / "c.json"
    res = run(
        "compare",
        path,
        "--label",
        "y",
        "--score",
        "logreg",
        "--score",
        "gbm",
        "--by",
        "region",
        "--n-resamples",
        "30",
        "--seed",
        "0",
        "--json",
        out,
    )
    assert res.returncode == 0, res.stderr
    d = json.loads(out.read_text())
    assert d["by"] == "region" and set(d["groups"]) == {"logreg", "gbm"}
    page = tmp_path / "r.html"
    res = run(
        "report",
        path,
        "--label",
        "y",
        "--score",
        "logreg",
        "--score",
        "gbm",
        "--by",
        "region",
        "--ci",
        "--n-resamples",
        "30",
        "--seed",
        "0",
        "-o",
        page,
    )
    assert res.returncode == 0, res.stderr
    html = page.read_text()
    assert 'id="by-group"' in html and "By region" in html and 'data-figure="groups"' in html
    assert html.count("<td>south</td>") == 2  # one row per group and model


def test_by_bad_inputs_fail_in_one_line(data, tmp_path):
    path, frame = data
    res = run("evaluate", path, "--label", "y", "--score", "logreg", "--by", "regio")
    assert res.returncode == 2
    line = res.stderr.strip()
    assert "\n" not in line and "'regio'" in line and "'region'" in line and "'logreg'" in line
    many = tmp_path / "many.csv"
    big = pd.concat([frame] * 9, ignore_index=True)
    big["region"] = np.arange(len(big))
    big.to_csv(many, index=False)
    res = run("evaluate", many, "--label", "y", "--score", "logreg", "--by", "region")
    assert res.returncode == 2 and "limit of 1,000 groups" in res.stderr and "merge" in res.stderr
    holes = tmp_path / "holes.csv"
    gap = frame.copy()
    gap.loc[5, "region"] = None
    gap.to_csv(holes, index=False)
    res = run("evaluate", holes, "--label", "y", "--score", "logreg", "--by", "region")
    assert res.returncode == 2 and "region" in res.stderr and "\n" not in res.stderr.strip()


@pytest.mark.parametrize(
    "extra, named",
    [
        (["--out-of-core"], "--by"),
        (["--multiclass"], "--by"),
    ],
)
def test_by_is_refused_where_it_is_not_computed(data, extra, named):
    path, _ = data
    res = run("evaluate", path, "--label", "y", "--score", "logreg", "--by", "region", *extra)
    assert res.returncode == 2 and named in res.stderr and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
