"""The plotly.js the report inlines: the vendored partial bundle, unchanged, holding every
trace type the report draws, and the smaller file it gives."""

import hashlib
import json
import re
from pathlib import Path

import numpy as np
from _browser import needs_browser, scroll_through

import isometrics as im
from isometrics.report import _bundle, build_report

STATIC = Path(_bundle.__file__).parent / "static"


def _small_report(n=24, metrics=("f1", "f2")):
    rng = np.random.default_rng(3)
    y = np.r_[np.zeros(n // 2, int), np.ones(n - n // 2, int)]
    scores = {"a": rng.normal(size=n) + y, "b": rng.normal(size=n) + 0.5 * y}
    results = im.evaluate_scores(y, scores, metrics=list(metrics))
    comparison = im.uncertainty.compare_scores(
        y, scores["a"], scores["b"], names=("a", "b"), metrics=list(metrics), n_resamples=50, rng=0
    )
    return build_report(results, comparisons=comparison)


def test_vendored_bundle_is_the_published_file():
    """Byte for byte the file of the npm package plotly.js-basic-dist-min at the stated version,
    its licence header kept and the licence text beside it."""
    path = STATIC / _bundle._FILE
    assert hashlib.sha256(path.read_bytes()).hexdigest() == _bundle._SHA256
    head = path.read_text(encoding="utf-8")[:300]
    assert f"plotly.js (basic - minified) v{_bundle._VERSION}" in head
    assert "Licensed under the MIT license" in head
    licence = (STATIC / "plotly-basic.LICENSE.txt").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and "Plotly" in licence


def test_report_inlines_the_partial_bundle_not_the_full_one():
    page = _small_report()
    assert _bundle._plotly_bundle() in page
    assert "* plotly.js v" not in page  # the full bundle's header
    assert "MapLibre GL JS" not in page  # nor its map library


def test_every_trace_type_the_report_draws_is_in_the_bundle():
    """Every figure of a report with every panel (two metrics, a comparison) uses only trace
    types the partial bundle registers; a panel drawing another type must change the bundle."""
    page = _small_report()
    blocks = re.findall(r'<script type="application/json" data-figure="[^"]+">(.*?)</script>', page, re.S)
    assert blocks
    types = {trace.get("type", "scatter") for body in blocks for trace in json.loads(body)["figure"]["data"]}
    assert types <= _bundle._TRACES, types - _bundle._TRACES


def test_a_small_data_set_gives_a_small_report():
    """24 rows used to give 4.9 MB, almost all of it Plotly's full bundle (4.8 MB); the partial
    bundle is 1.2 MB, and the rest of the page is small."""
    size = len(_small_report().encode("utf-8"))
    bundle = (STATIC / _bundle._FILE).stat().st_size
    assert bundle < 1_300_000
    assert size < bundle + 300_000, size


@needs_browser
def test_bundle_registers_the_stated_traces_and_draws_the_report(browser, tmp_path):
    """In Chromium: the bundle registers exactly the trace types stated, every figure and
    explorer draws from it, nothing is logged as an error, and a narrow window leaves the
    text a margin."""
    out = tmp_path / "small.html"
    out.write_text(_small_report(), encoding="utf-8")
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(out.as_uri())
    scroll_through(page)  # the figures are drawn as they come near the window
    expected = page.evaluate("document.querySelectorAll('script[data-figure]').length + 4")
    for _ in range(400):
        if page.evaluate("document.querySelectorAll('.js-plotly-plot').length") == expected:
            break
        page.wait_for_timeout(50)
    drawn = page.evaluate("document.querySelectorAll('.js-plotly-plot').length")
    registered = page.evaluate("Object.keys(Plotly.PlotSchema.get().traces)")
    used = page.evaluate(
        "Array.from(document.querySelectorAll('.js-plotly-plot')).flatMap(d => d._fullData.map(t => t.type))"
    )
    version = page.evaluate("Plotly.version")
    page.set_viewport_size({"width": 700, "height": 900})  # narrower than the page's max width
    margins = page.evaluate(
        "[document.querySelector('h1').getBoundingClientRect().left,"
        " window.innerWidth - document.querySelector('#summary').getBoundingClientRect().right]"
    )
    page.close()
    assert drawn == expected
    assert set(registered) == set(_bundle._TRACES)
    assert used and set(used) <= set(registered)
    assert version == _bundle._VERSION
    assert margins[0] >= 16 and margins[1] >= 0  # text keeps off the window's edge
    assert errors == []
