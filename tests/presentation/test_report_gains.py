"""The report's gains and lift panel, and whole-matrix metrics in the report and the CLI
(issue 13 items 3 and 4): the drawn data are the API's curves, and the page works in a real
browser (Playwright + Chromium) under the report's policy."""

import re
import time
from pathlib import Path

import numpy as np
import pytest
from _browser import needs_browser, scroll_through
from _cli import run_in_process
from _report_data import figures as resolved_figures

import isometrics as im

pytest.importorskip("plotly")
pytest.importorskip("jinja2")
from isometrics.report import build_report  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
METRICS = ["mcc", "net_benefit@0.2"]


@pytest.fixture(scope="module")
def evaluated():
    rng = np.random.default_rng(11)
    y = (rng.random(800) < 0.2).astype(int)
    scores = {"logit": rng.normal(size=800) + 1.3 * y, "coarse": np.round(rng.normal(size=800) + y, 1)}
    results = im.evaluate_scores(y, scores, metrics=METRICS, n_resamples=100, rng=1)
    return y, scores, results


def _figure(page_text, name):
    return resolved_figures(page_text)[name]  # the models' curves are references into the shared data


def _array(values):
    if isinstance(values, dict):  # plotly's typed-array encoding
        import base64

        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=np.dtype(values["dtype"])).astype(float)
    return np.asarray(values, dtype=float)


def test_gains_panel_draws_the_api_curves(evaluated):
    y, scores, results = evaluated
    page = build_report(results)
    figure = _figure(page, "gains")["figure"]
    models = [t for t in figure["data"] if t.get("legendgroup", "").startswith("model-")]
    for k, name in enumerate(scores):
        gains, lift = [t for t in models if t["legendgroup"] == f"model-{k}"]
        rate, gain, _ = im.spaces.gains_curve(y, scores[name])
        np.testing.assert_allclose(_array(gains["x"]), rate, rtol=1e-15)
        np.testing.assert_allclose(_array(gains["y"]), gain, rtol=1e-15)
        lift_curve = im.spaces.lift_curve(y, scores[name])
        np.testing.assert_allclose(_array(lift["x"]), lift_curve.rate, rtol=1e-15)
        np.testing.assert_allclose(_array(lift["y"]), lift_curve.lift, rtol=1e-12)
    names = [t.get("name") for t in figure["data"]]
    assert "random" in names and any(str(n).startswith("perfect ranking (prevalence 0.") for n in names)
    assert "Cumulative gains and lift" in page


def test_report_and_cli_show_whole_matrix_metrics_with_intervals(evaluated, tmp_path):
    y, scores, results = evaluated
    page = build_report(results)
    assert "MCC (<code>mcc</code>)" in page and "net benefit (pt=0.2) (<code>net_benefit(pt=0.2)</code>)" in page
    best = im.best_threshold(y, scores["logit"], metric="mcc")
    assert f"{best.threshold:.6g}" in page and re.search(rf"{best.value:.4f} \[\d\.\d+, \d\.\d+\]", page)
    path = tmp_path / "scores.csv"
    path.write_text("y,logit\n" + "".join(f"{a},{float(b)!r}\n" for a, b in zip(y, scores["logit"])))
    res = run_in_process(  # what the command prints and writes; not about the process
        "evaluate",
        path,
        "--label",
        "y",
        "--score",
        "logit",
        "--metric",
        "kappa",
        "--metric",
        "net_benefit@0.2",
        "--json",
        tmp_path / "out.json",
    )
    assert res.returncode == 0, res.stderr
    assert "Cohen's kappa" in res.stdout and "net benefit (pt=0.2)" in res.stdout
    text = (tmp_path / "out.json").read_text()
    kappa = im.best_threshold(y, scores["logit"], metric="kappa")
    assert "net_benefit(pt=0.2)" in text and repr(kappa.value)[:10] in text


def _wait(page, expression, timeout=20.0):
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


@needs_browser
def test_gains_panel_in_a_real_browser(evaluated, browser, tmp_path):
    _, _, results = evaluated
    out = tmp_path / "report.html"
    out.write_text(build_report(results, title="gains panel"), encoding="utf-8")
    ARTIFACTS.mkdir(exist_ok=True)
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    errors, outside = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
    page.goto(out.as_uri())
    scroll_through(page)  # the figures are drawn as they come near the window
    _wait(page, "document.querySelector('#gains .main-svg') !== null")
    page.evaluate("Plotly.Fx.hover('gains', [{curveNumber: 0, pointNumber: 100}])")
    assert page.locator("#gains .hovertext").count() >= 1
    assert "captures" in page.locator("#gains .hovertext").first.text_content()
    page.locator("#gains").screenshot(path=str(ARTIFACTS / "report-gains.png"))
    # the two metrics' threshold charts drew, and the intervals are on the page
    for k in range(len(METRICS)):
        _wait(page, f"document.querySelector('#metric-figure-{k} .main-svg') !== null")
    assert page.locator("text=re-optimised").count() + page.locator("text=interval").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "report-two-metrics-intervals.png"), full_page=True)
    page.close()
    assert errors == [] and outside == []
    assert (ARTIFACTS / "report-gains.png").stat().st_size > 5_000
