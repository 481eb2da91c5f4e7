"""The report's section "By group" shows each group's own numbers (issue 25, acceptance): read back
from the page in Chromium, every cell is the JSON's (``report --by --json``) and the ungrouped
engine's, or scikit-learn's, run on that group's rows alone.

The groups differ (one model separates the classes much better in one region than in another,
and the groups' sizes and prevalences differ), so a row that showed another group's (or
another model's) numbers fails; the test checks that premise too."""

import json
import re
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from _browser import needs_browser
from _cli import run_in_process as run  # what the report command writes; not about the process
from sklearn.metrics import average_precision_score, fbeta_score, roc_auc_score

import isometrics as im

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
#: The table's columns with an estimate and interval, by header, and their JSON keys.
CELLS = {
    "AUROC": "auroc",
    "AP": "average_precision",
    "AUPRG": "auprg",
    "precision": "precision",
    "recall": "recall",
    "alert rate": "alert_rate",
}


@pytest.fixture(scope="module")
def grouped(tmp_path_factory):
    """``isometrics report --by region --ci --json`` on three regions of different sizes, prevalences
    and separations: the page, its JSON and the data."""
    rng = np.random.default_rng(7)
    sizes, prevalence, signal = (
        {"north": 700, "south": 500, "east": 900},
        {"north": 0.15, "south": 0.3, "east": 0.1},
        {"north": 0.6, "south": 2.2, "east": 1.3},
    )
    frames = []
    for g, n in sizes.items():
        y = (rng.random(n) < prevalence[g]).astype(int)
        frames.append(
            pd.DataFrame(
                {
                    "y": y,
                    "region": g,
                    "a": np.round(signal[g] * y + rng.normal(size=n), 3),
                    "b": np.round((2.0 - signal[g] / 2) * y + rng.normal(size=n), 3),
                }
            )
        )
    frame = pd.concat(frames, ignore_index=True).sample(frac=1.0, random_state=1, ignore_index=True)
    d = tmp_path_factory.mktemp("bygroup")
    frame.to_csv(d / "scores.csv", index=False)
    res = run(
        "report",
        d / "scores.csv",
        "--label",
        "y",
        "--score",
        "a",
        "--score",
        "b",
        "--metric",
        "f2",
        "--by",
        "region",
        "--ci",
        "--n-resamples",
        "100",
        "--seed",
        "3",
        "-o",
        d / "report.html",
        "--json",
        d / "report.json",
    )
    assert res.returncode == 0, res.stderr
    return d / "report.html", json.loads((d / "report.json").read_text()), frame


def _read_groups(page):
    """The section's table as the reader sees it: one dict per row, header -> shown text."""
    return page.evaluate("""() => {
        const table = document.querySelector('#by-group ~ table.groups');
        const heads = [...table.querySelectorAll('thead th')].map(th => th.innerText.trim());
        return [...table.querySelectorAll('tbody tr')].map(tr =>
            Object.fromEntries([...tr.cells].map((td, i) => [heads[i], td.innerText.trim()])));
    }""")


def _shown(text):
    """A cell "0.1234 [0.100, 0.200]": the estimate and the interval's ends, as shown."""
    numbers = [float(x) for x in NUMBER.findall(text)]
    assert len(numbers) == 3, text
    return numbers


def flagged_at(s, t):
    return (s >= t).astype(int)


def _close(shown, value, decimals=4):
    assert abs(shown - value) <= 0.5 * 10**-decimals + 1e-12, (shown, value)


@pytest.fixture(scope="module")
def rows(grouped, browser):
    path, _, _ = grouped
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(Path(path).as_uri())
    seen = _read_groups(page)
    page.close()
    assert errors == []
    return seen


@needs_browser
def test_every_group_row_on_the_page_is_the_jsons(grouped, rows):
    _, doc, _ = grouped
    by_model = {r["score"]: r["groups"] for r in doc["results"]}
    assert [(r["group"], r["model"]) for r in rows] == [
        (g["group"], m) for g in by_model["a"]["groups"] for m in ("a", "b")
    ]
    for row in rows:
        groups = by_model[row["model"]]
        g = next(x for x in groups["groups"] if x["group"] == row["group"])
        assert int(row["n"].replace(",", "")) == g["n_samples"]
        assert float(row["positives"].replace(",", "")) == g["n_positives"]
        for header, key in CELLS.items():
            value, low, high = _shown(row[header])
            _close(value, g[key]["estimate"])
            _close(low, g[key]["interval"]["low"], decimals=3)  # an interval's ends: 3 decimals, as in the CLI
            _close(high, g[key]["interval"]["high"], decimals=3)
        assert float(row["global threshold"]) == pytest.approx(groups["threshold"], rel=1e-5)
        assert float(row["best in group"]) == pytest.approx(g["best_thresholds"][0]["threshold"], rel=1e-5)
        assert row["note"] == ""


@needs_browser
def test_every_group_row_on_the_page_is_the_ungrouped_engine_on_that_groups_rows(grouped, rows):
    """Each row against scikit-learn (AUROC, AP, precision, recall, alert rate at the global threshold,
    the best F2 by brute force over the group's thresholds) and against the ungrouped isometrics
    evaluation (AUPRG), each run on that group's rows only."""
    _, doc, frame = grouped
    global_threshold = {r["score"]: r["groups"]["threshold"] for r in doc["results"]}
    for row in rows:
        part = frame[frame["region"] == row["group"]]
        y, s = part["y"].to_numpy(), part[row["model"]].to_numpy()
        t = global_threshold[row["model"]]
        flagged = s >= t
        assert int(row["n"].replace(",", "")) == len(y) and float(row["positives"]) == y.sum()
        expected = {
            "AUROC": roc_auc_score(y, s),
            "AP": average_precision_score(y, s),
            "AUPRG": im.evaluate_scores(y, {row["model"]: s})[0].auprg,
            "precision": y[flagged].mean(),
            "recall": flagged[y == 1].mean(),
            "alert rate": flagged.mean(),
        }
        for header, value in expected.items():
            _close(_shown(row[header])[0], value)
        # the group's best F2 threshold: its F2 on these rows is the best any threshold gets there
        best = float(row["best in group"])
        cuts = np.unique(s)
        flags = s[None, :] >= cuts[:, None]  # one row per threshold
        tp, fp = (flags & (y == 1)).sum(1), (flags & (y == 0)).sum(1)
        f2 = 5 * tp / (5 * tp + 4 * (y.sum() - tp) + fp)  # (1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)
        at = int(np.argmin(np.abs(cuts - best)))
        assert abs(cuts[at] - best) <= 1e-5 * max(1.0, abs(best))
        assert f2[at] == pytest.approx(f2.max(), abs=1e-12)
        assert f2[at] == pytest.approx(fbeta_score(y, flagged_at(s, cuts[at]), beta=2), abs=1e-12)


@needs_browser
def test_the_groups_differ_so_a_swapped_row_would_fail(rows):
    """The premise of the two tests above: no two groups (for a model) show the same AUROC, AP,
    recall or best threshold, so a row showing another group's numbers cannot pass."""
    for model in ("a", "b"):
        mine = [r for r in rows if r["model"] == model]
        for r1, r2 in combinations(mine, 2):
            for header in ("AUROC", "AP", "recall"):
                assert abs(_shown(r1[header])[0] - _shown(r2[header])[0]) > 2e-3, (header, r1["group"], r2["group"])
            assert r1["best in group"] != r2["best in group"] and r1["n"] != r2["n"]
