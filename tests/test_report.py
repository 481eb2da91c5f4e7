"""The HTML report: self-contained, escaped, and working in a real browser (Playwright + Chromium)."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import polars as pl
import pytest

import isometrics as im
from isometrics.report import build_report

XSS = "<script>window.__pwned = 1</script>"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    rng = np.random.default_rng(5)
    n = 3000
    y = (rng.random(n) < 0.1).astype(int)
    frame = pl.DataFrame({"y": y, XSS: rng.normal(size=n) + 1.5 * y, "plain": np.round(rng.normal(size=n) + y, 2)})
    d = tmp_path_factory.mktemp("report")
    frame.write_parquet(d / "scores.parquet")
    out = d / "report.html"
    res = subprocess.run([sys.executable, "-m", "isometrics.cli", "report", str(d / "scores.parquet"), "--label",
                          "y", "--score", XSS, "--score", "plain", "--metric", "f2", "-o", str(out)],
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    return out, frame


def test_report_is_self_contained_and_escaped(report_file):
    out, _ = report_file
    page = out.read_text()
    assert "window.__pwned = 1</script>" not in page.replace("<\\/script", "")  # never raw markup
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in page  # shown as text in the table
    assert not re.search(r"<script[^>]+src=", page) and not re.search(r"<link[^>]+href=", page)
    assert "https://" not in page.split("<script>", 1)[0]  # the head loads nothing from outside
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


def test_report_numbers_are_the_evaluation(report_file):
    out, frame = report_file
    y = frame["y"].to_numpy()
    auroc = im.auroc(y, frame["plain"].to_numpy())
    assert f"{auroc:.4f}" in out.read_text()


def test_build_report_errors():
    res = im.evaluate_scores([0, 0, 1, 1], {"a": [0.1, 0.4, 0.35, 0.8]}, metrics=["f1"])
    with pytest.raises(im.IsometricsError, match="metric 'fbeta\\(beta=2\\)' was not evaluated"):
        build_report(res, metric="f2")
    with pytest.raises(im.IsometricsError, match="no results"):
        build_report([])


def test_jupyter_reprs_escape_user_text():
    r = im.evaluate_scores([0, 0, 1, 1], {"<b>x</b>": [0.1, 0.4, 0.35, 0.8]})[0]
    assert "&lt;b&gt;x&lt;/b&gt;" in r._repr_html_() and "<b>x</b>" not in r._repr_html_()
    assert "<table>" in r.best[0]._repr_html_()
    assert "weighted avg" in im.metric_report([0, 1, 1], [0, 1, 0])._repr_html_()


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_report_in_a_real_browser(report_file):
    from playwright.sync_api import sync_playwright

    out, _ = report_file
    errors, outside = [], []
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                                          "--disable-component-update", "--no-first-run", "--disable-sync"])
        page = browser.new_page(viewport={"width": 1500, "height": 1100})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: outside.append(r.url) if not r.url.startswith(("file:", "data:", "blob:"))
                else None)
        page.goto(out.as_uri())
        page.wait_for_function("document.querySelectorAll('.js-plotly-plot').length >= 6")
        # the escaped column name is shown as text and its script never ran
        assert page.locator("#summary td", has_text=XSS).count() == 1
        assert page.evaluate("window.__pwned") is None
        # moving a slider redraws the explorer's curves
        before = page.evaluate("JSON.stringify(document.getElementById('explorer-g').data[0].y)")
        page.evaluate("() => { const s = document.getElementById('explorer-g-rho'); s.value = '3';"
                      " s.dispatchEvent(new Event('input')); }")
        page.wait_for_function(f"JSON.stringify(document.getElementById('explorer-g').data[0].y) !== {json.dumps(before)}")
        before_mean = page.evaluate("JSON.stringify(document.getElementById('explorer-harmonic').data[2].y)")
        page.evaluate("() => { const s = document.getElementById('explorer-harmonic-gamma'); s.value = '4';"
                      " s.dispatchEvent(new Event('input')); }")
        after_mean = page.evaluate("JSON.stringify(document.getElementById('explorer-harmonic').data[2].y)")
        assert after_mean != before_mean
        page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
        browser.close()
    assert errors == []
    assert outside == []
    assert (ARTIFACTS / "report.png").stat().st_size > 10_000
