"""Issue 25, items 3-5: a report of 13,000 rows x 3 models (4.5 % positives) that stays small
(curves thinned to display resolution, every hull vertex and best point kept, data stored once),
a PRG panel framed on the models at low prevalence, and explorers that open at the chosen metric."""

import json
import re
import time
from pathlib import Path

import numpy as np
import pytest
from _browser import needs_browser, scroll_through
from _report_data import figures as resolved_figures
from _report_data import shared_data

import isometrics as im

pytest.importorskip("plotly")
pytest.importorskip("jinja2")
from isometrics.report import build_report  # noqa: E402
from isometrics.report._data import _RESOLUTION, _display_indices  # noqa: E402

METRICS = ["f2", "f1", "f0.5"]


def _rare(n, seed=0, prevalence=0.045):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < prevalence).astype(int)
    scores = {
        "logistic": rng.normal(size=n) + 1.6 * y,
        "boosting": rng.normal(size=n) + 2.0 * y,
        "balance": np.round(rng.normal(size=n) + 1.0 * y, 3),
    }
    return y, scores


@pytest.fixture(scope="module")
def rare():
    y, scores = _rare(13_000)
    results = im.evaluate_scores(y, scores, metrics=METRICS)
    return y, scores, results, build_report(results)


def test_report_of_13000_rows_and_3_models_is_at_most_1_5_mb(rare):
    """The issue's case weighed 7.1 MiB; the Plotly bundle alone is 1.19 MB."""
    page = rare[3]
    assert len(page.encode("utf-8")) <= 1_500_000


def test_figures_refer_to_one_data_block(rare):
    """Every model curve of every figure is a reference into the one data block, not a copy."""
    page = rare[3]
    blocks = dict(re.findall(r'<script type="application/json" data-figure="([^"]+)">(.*?)</script>', page, re.S))
    assert len(re.findall(r'id="report-data"', page)) == 1
    for name, body in blocks.items():
        figure = json.loads(body)["figure"]
        curves = [
            t
            for t in figure["data"]
            if t.get("legendgroup", "").startswith("model-")
            and t.get("mode") == "lines"
            and t.get("line", {}).get("dash") != "dash"
        ]
        assert curves, name
        for trace in curves:
            assert "$col" in trace["x"] and "$col" in trace["y"], name
            assert "$rows" in trace["customdata"], name


def test_thinning_keeps_every_hull_vertex_and_best_point_exactly(rare):
    """The drawn points are exact operating points (thresholds and counts to the bit), include every
    ROC and PRG hull vertex and every best point, and every skipped point lies within
    1/resolution of the last drawn one in every coordinate a figure draws."""
    y, scores, results, page = rare
    shared = shared_data(page)
    assert len(shared) == 3
    tol = 1.0 / _RESOLUTION
    for r, cols in zip(results, shared):
        op = r.operating_points
        assert len(cols["thr"]) < op.n_points / 4  # thinned
        idx = np.searchsorted(-op.thresholds, -cols["thr"])
        assert np.array_equal(op.thresholds[idx], cols["thr"])
        assert np.array_equal(op.tp[idx], cols["tp"]) and np.array_equal(op.fp[idx], cols["fp"])
        must = set(op.roc_convex_hull().indices) | set(op.prg_convex_hull().indices) | {b.index for b in r.best}
        assert must <= set(idx.tolist())
        # the guarantee, on the exact curve: each point against the last kept point at or before it
        last = idx[np.searchsorted(idx, np.arange(op.n_points), side="right") - 1]
        fpr, tpr = op.fp / op.n_negatives, op.tp / op.n_positives
        share = (op.tp + op.fp) / (op.n_positives + op.n_negatives)
        for values in (fpr, tpr, share, *(op.metric_curve(m).values for m in METRICS)):
            assert np.max(np.abs(values - values[last])) <= tol
        with np.errstate(divide="ignore", invalid="ignore"):
            precision = op.tp / (op.tp + op.fp)
        seen = op.tp + op.fp > 0
        assert np.max(np.abs(precision - precision[last])[seen & (last > 0)]) <= tol


def test_display_indices_rule():
    """Hand-made: a forced point restarts the count; a move above the tolerance is kept."""
    coords = np.array([[0.0, 0.01, 0.02, 0.05, 0.051, 0.052, 0.2, 0.2, 0.2]])
    forced = np.zeros(9, dtype=bool)
    forced[4] = True
    assert _display_indices(coords, forced, 0.025).tolist() == [0, 3, 4, 6, 8]
    rng = np.random.default_rng(2)
    walk = np.cumsum(rng.normal(scale=1e-3, size=(3, 50_000)), axis=1)
    forced = rng.random(50_000) < 0.001
    kept = _display_indices(walk, forced, 0.01)
    assert set(np.flatnonzero(forced)) <= set(kept.tolist()) and kept[0] == 0 and kept[-1] == 49_999
    last = kept[np.searchsorted(kept, np.arange(50_000), side="right") - 1]
    assert np.max(np.abs(walk - walk[:, last])) <= 0.01


def test_drawn_curves_are_the_api_curves_at_the_kept_points(rare):
    """Resolved, each ROC/PR/gains trace is the engine's curve at the kept points."""
    _, _, results, page = rare
    figures = resolved_figures(page)
    shared = shared_data(page)
    panels = figures["panels"]["figure"]["data"]
    for k, (r, cols) in enumerate(zip(results, shared)):
        op = r.operating_points
        idx = np.searchsorted(-op.thresholds, -cols["thr"])
        roc, pr, prg = [
            t
            for t in panels
            if t.get("legendgroup") == f"model-{k}"
            and t.get("mode") == "lines"
            and t.get("line", {}).get("dash") != "dash"
        ]
        fpr, tpr = op.fp / op.n_negatives, op.tp / op.n_positives
        np.testing.assert_allclose(roc["x"], fpr[idx], rtol=1e-15)
        np.testing.assert_allclose(roc["y"], tpr[idx], rtol=1e-15)
        precision, recall, _ = op.precision_recall_curve()
        np.testing.assert_allclose(pr["y"], precision[idx][1:], rtol=1e-14)
        pg, rg, _ = op.prg_curve()
        np.testing.assert_allclose(prg["x"], rg[idx][-len(prg["x"]) :], rtol=1e-12)
        assert min(prg["x"]) > -0.05


# ---------------------------------------------------------------------------- item 4: PRG at low prevalence
def test_prg_panel_is_framed_on_the_models_at_low_prevalence(rare):
    _, _, results, page = rare
    panels = resolved_figures(page)["panels"]
    layout = panels["figure"]["layout"]
    x0, x1 = layout["xaxis3"]["range"]
    assert x0 > 0.3 and x1 >= 1.0  # recall gains crowd near 1
    buttons = layout["updatemenus"][0]["buttons"]
    full = next(b for b in buttons if "full square" in b["label"])
    assert full["args"][0]["xaxis3.range"] == [-0.02, 1.02] and full["args"][0]["yaxis3.range"] == [-0.02, 1.02]
    region = next(b for b in buttons if "region" in b["label"])
    assert region["args"][0]["xaxis3.range"] == [x0, x1]
    # every model's best point and its curve beyond recall 0.1 lie inside the frame
    y0, y1 = layout["yaxis3"]["range"]
    pi = results[0].prevalence
    for r in results:
        for b in r.best:
            g = lambda x: (x - pi) / ((1 - pi) * x)  # noqa: E731  (Flach & Kull 2015, eq. 1)
            assert x0 <= g(b.recall) <= x1 and y0 <= g(b.precision) <= y1
    caption = re.search(r'<p class="muted" id="prg-caption">(.*?)</p>', page, re.S).group(1)
    assert "rare" in caption and "full square" in caption
    assert f"0.25 gains {(0.25 - pi) / ((1 - pi) * 0.25):.2f}" in caption


def test_prg_panel_shows_the_full_square_at_high_prevalence():
    y, scores = _rare(3000, prevalence=0.4)
    page = build_report(im.evaluate_scores(y, scores, metrics=["f1"]))
    layout = resolved_figures(page)["panels"]["figure"]["layout"]
    assert layout["xaxis3"]["range"] == [-0.02, 1.02]
    assert "updatemenus" not in layout


# ---------------------------------------------------------------------------- item 3: explorers
def _slider(page, name):
    return re.search(rf'<input type="range" id="explorer-{name}"[^>]*>', page).group(0)


@pytest.mark.parametrize(
    "metric, beta, rho, gammas",
    [
        ("f2", "2", "-2", {"arithmetic": "2", "geometric": "0.5", "harmonic": "0.25"}),
        ("f0.5", "0.5", "-2", {"arithmetic": "0.5", "geometric": "2", "harmonic": "4"}),
        ("g(beta=3, rho=-1)", "3", "-1", {"arithmetic": "3", "geometric": "0.333333", "harmonic": "0.111111"}),
        ("arithmetic(gamma=4)", "4", "0", {"arithmetic": "4", "geometric": "0.25", "harmonic": "0.0625"}),
    ],
)
def test_explorers_open_at_the_chosen_metric(metric, beta, rho, gammas):
    """F-beta is G(beta, -2); a weighted mean W(gamma, phi) is G(beta, rho) with rho = phi - 1 and
    gamma = beta ** rho (beta itself for rho = 0): each explorer opens at the chosen metric's beta."""
    y, scores = _rare(2000, prevalence=0.2)
    page = build_report(im.evaluate_scores(y, scores, metrics=[metric]))
    assert f'value="{beta}"' in _slider(page, "g-beta") and f'value="{rho}"' in _slider(page, "g-rho")
    for mean, gamma in gammas.items():
        slider = _slider(page, f"{mean}-gamma")
        assert f'value="{gamma}"' in slider
        low, high = (float(re.search(rf'{a}="([^"]+)"', slider).group(1)) for a in ("min", "max"))
        assert low <= float(gamma) <= high
        if float(gamma) / 0.125 != round(float(gamma) / 0.125):
            assert 'step="any"' in slider  # reachable, not snapped to the grid


def test_explorers_say_when_the_metric_is_no_mean():
    y, scores = _rare(2000, prevalence=0.2)
    page = build_report(im.evaluate_scores(y, scores, metrics=["precision", "f2"]))
    assert 'value="2"' in _slider(page, "g-beta")
    assert "Precision is not a weighted mean" in page or "precision is not a weighted mean" in page


# ---------------------------------------------------------------------------- in Chromium
@needs_browser
def test_page_draws_from_the_shared_data_and_explorers_overlay_the_models(rare, browser, tmp_path):
    """In Chromium: the figures draw from the data block (the resolved curve equals the one the
    tests resolve), the explorers open at F2 with each model's PR curve and best F2 point, and
    the PRG button shows the full square."""
    _, _, results, text = rare
    path = tmp_path / "rare.html"
    path.write_text(text)
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    start = time.monotonic()
    page.goto(Path(path).as_uri())
    scroll_through(page)  # the figures are drawn as they come near the window
    while page.evaluate("document.querySelectorAll('.js-plotly-plot').length") < 9:
        assert time.monotonic() - start < 20
        page.wait_for_timeout(20)
    expected = resolved_figures(text)["metric-figure-0"]["figure"]["data"][0]["y"]
    drawn = page.evaluate("Array.from(document.getElementById('metric-figure-0').data[0].y)")
    np.testing.assert_allclose(drawn, expected, rtol=1e-7)
    assert page.evaluate("document.getElementById('explorer-g').layout.title.text").startswith("G(β=2, ρ=-2)")
    best = page.evaluate(
        "document.getElementById('explorer-g').data.filter(t => t.meta === 'best').map(t => [t.x[0], t.y[0]])"
    )
    assert best == [[r.best[0].recall, r.best[0].precision] for r in results]
    assert (
        page.evaluate("document.getElementById('explorer-harmonic').data.filter(t => t.meta === 'model').length") == 3
    )
    page.locator("#panels .updatemenu-button", has_text="full square").click()
    start = time.monotonic()  # Plotly relayouts from the button's handler: wait for it, not a fixed 200 ms
    while page.evaluate("document.getElementById('panels').layout.xaxis3.range") != [-0.02, 1.02]:
        assert time.monotonic() - start < 20
        page.wait_for_timeout(20)
    assert page.evaluate("document.getElementById('panels').layout.xaxis3.range") == [-0.02, 1.02]
    page.close()
    assert errors == []
