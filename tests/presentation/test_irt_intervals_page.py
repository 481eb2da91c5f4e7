"""Issue 22 (items 1 and 4, checked in Chromium): the benchmark page draws the abilities' 95 %
intervals (not +- 1 SE) and reads a negative discrimination as a near-ceiling data set on which the
better models do not score higher, not as the hardest one or as noise. A small hand-made study,
not a KEEL build."""

import time

import numpy as np
import pytest
from _browser import needs_browser
from scipy.special import expit, logit

from isometrics.irt.study import BenchmarkStudy
from isometrics.report.benchmark_page import build_benchmark_page

MODELS = ("forest", "logreg", "nb", "knn")
DATASETS = ("easy-1", "mid-2", "hard-3", "shuttle-like")  # the last: every model near 1, a < 0
ABILITY = np.array([0.62, 0.55, 0.41, 0.48])
SE = np.full(4, 0.01)
# intervals of their own, wide and asymmetric: nothing like ability +- 1 SE (or +- 1.96 SE)
INTERVAL = np.column_stack([ABILITY - np.array([0.05, 0.04, 0.03, 0.06]), ABILITY + np.array([0.02, 0.07, 0.01, 0.03])])


def _study():
    difficulty = np.array([0.2, 0.5, 0.8, 0.05])
    discrimination = np.array([1.2, 2.0, 1.5, -2.7])
    grid = np.linspace(0.005, 0.995, 99)
    icc = expit(discrimination[:, None] * (logit(grid)[None, :] - logit(difficulty)[:, None]))
    auroc = np.array([0.91, 0.88, 0.80, 0.85])
    return BenchmarkStudy(
        metric="auroc",
        models=MODELS,
        datasets=DATASETS,
        ability=ABILITY,
        ability_se=SE,
        difficulty=difficulty,
        discrimination=discrimination,
        mean_responses={"auroc": auroc, "auprg": auroc - 0.1},
        icc_grid=grid,
        icc=icc,
        dataset_mean=np.array([0.95, 0.85, 0.62, 0.999]),
        ability_interval=INTERVAL,
    )


@pytest.fixture(scope="module")
def page_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("irt22") / "benchmark.html"
    path.write_text(build_benchmark_page(_study(), title="small KEEL-like benchmark"))
    return path


@needs_browser
def test_intervals_drawn_and_negative_discrimination_read_right(page_path, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(page_path.as_uri())
    deadline = time.monotonic() + 20
    while page.evaluate("document.querySelectorAll('.js-plotly-plot').length") < 3:
        assert time.monotonic() < deadline, "the figures did not draw"
        page.wait_for_timeout(50)
    # the error bars Plotly drew: one per model in each panel, from the intervals
    full = page.evaluate(
        "document.getElementById('abilities')._fullData.map(t => [t.error_x.array, "
        "t.error_x.arrayminus, t.error_x.visible])"
    )
    for plus, minus, visible in full:
        assert visible
        np.testing.assert_allclose(plus, INTERVAL[:, 1] - ABILITY, atol=1e-12)
        np.testing.assert_allclose(minus, ABILITY - INTERVAL[:, 0], atol=1e-12)
        assert not np.allclose(plus, SE) and not np.allclose(plus, 1.96 * SE)
    assert page.evaluate("document.querySelectorAll('#abilities g.errorbar').length") == 2 * len(MODELS)
    widths = page.evaluate(
        "Array.from(document.querySelectorAll('#abilities g.errorbar path')).slice(0, 4).map(p => p.getBBox().width)"
    )
    assert len(set(np.round(widths, 1))) > 1  # asymmetric widths drawn as given, not one SE for all
    # the table of the models shows the interval, the one of the data sets the reading of a < 0
    text = page.inner_text("#models")
    assert "0.570 - 0.640" in text and "0.420 - 0.510" in text
    page.click("details summary")
    rows = page.evaluate(
        "Array.from(document.querySelectorAll('#datasets tbody tr'))"
        ".map(r => Array.from(r.cells).map(c => c.innerText))"
    )
    by_name = {r[0]: r for r in rows}
    ceiling = by_name["shuttle-like"]
    assert ceiling[3] == "-"  # not ranked by difficulty, let alone as the hardest
    assert "near the ceiling" in ceiling[5] and "not ordered by ability" in ceiling[5]
    assert [r[0] for r in rows][0] == "hard-3" and rows[-1][0] == "shuttle-like"
    note = page.inner_text("#icc-note")
    assert "near the ceiling" in note and "do not score higher" in note
    body = page.inner_text("body").lower()
    assert "mislabel" not in body and "noise" not in body and "noisy" not in body
    page.close()
    assert errors == []
