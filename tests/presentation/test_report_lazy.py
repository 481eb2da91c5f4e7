"""The report opens fast (issue 25, item 5): each figure and explorer is drawn when it comes near the
window, those in the first window at once; its box keeps its height meanwhile; printing and the "draw
every figure" button draw whatever is left, and the page marks its progress in the performance timeline."""

import json
import re
from pathlib import Path

import numpy as np
import pytest
from _browser import needs_browser, scroll_through

import isometrics as im
from isometrics.report import build_report
from isometrics.report._margins import LEFT, left_for, tick_labels

pytest.importorskip("plotly")

ITEMS = "Array.from(document.querySelectorAll('.figure, [data-explorer]'))"
DRAWN = ITEMS + ".filter(d => d.classList.contains('js-plotly-plot')).map(d => d.id)"
ALL = ITEMS + ".map(d => d.id)"
TOPS = ITEMS + ".map(d => Math.round(d.getBoundingClientRect().top + window.scrollY))"


@pytest.fixture(scope="module")
def report_path(tmp_path_factory):
    rng = np.random.default_rng(5)
    n = 2000
    y = (rng.random(n) < 0.1).astype(int)
    groups = rng.choice(["north", "south"], size=n)
    results = im.evaluate_scores(
        y, {"a": rng.normal(size=n) + 1.5 * y, "b": rng.normal(size=n) + y}, metrics=["f2", "f1"], groups=groups
    )
    path = tmp_path_factory.mktemp("lazy") / "report.html"
    path.write_text(build_report(results, title="lazy"), encoding="utf-8")
    return path


def _open(browser, path, height=900):
    page = browser.new_page(viewport={"width": 1400, "height": height})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(Path(path).as_uri())
    for _ in range(400):
        if page.evaluate("performance.getEntriesByName('isometrics-viewport-drawn').length"):
            break
        page.wait_for_timeout(25)
    return page, errors


def _marks(page):
    return page.evaluate("performance.getEntriesByType('mark').map(m => m.name)")


#: Per drawn figure: whether automargin drew it again, its axes' ticklabeloverflow, and the labels (tick
#: labels and axis titles) that lie outside the figure's box or are hidden.
STATE = """() => Array.from(document.querySelectorAll('.js-plotly-plot')).map(d => {
  const box = d.getBoundingClientRect(), full = d._fullLayout;
  const texts = Array.from(d.querySelectorAll("g[class$='tick'] > text, .infolayer g[class*='title'] text"));
  const outside = texts.filter(t => {
    const r = t.getBoundingClientRect();
    return t.style.display === 'none' || r.left < box.left - 1 || r.right > box.right + 1
      || r.top < box.top - 1 || r.bottom > box.bottom + 1;
  }).map(t => t.textContent);
  const overflow = Object.keys(full).filter(k => /^[xy]axis\\d*$/.test(k)).map(k => full[k].ticklabeloverflow);
  return {id: d.id, redrawn: full._redrawFromAutoMarginCount !== undefined, overflow: overflow,
          outside: outside, width: full.width, box: Math.round(box.width)};
})"""

#: Each metric figure's y axis: the data's range, the axis's length and the tick labels Plotly wrote.
METRIC_AXES = """() => Array.from(document.querySelectorAll("[id^='metric-figure-']")).map(d => {
  const ys = d._fullData.flatMap(t => Array.from(t.y)).filter(Number.isFinite);
  return {lo: Math.min(...ys), hi: Math.max(...ys), length: d._fullLayout.yaxis._length,
          left: d._fullLayout.margin.l, labels: Array.from(d.querySelectorAll('g.ytick text')).map(t => t.textContent)};
})"""


def _drawn_once_with_labels_inside(page, expected):
    """Each figure drawn once (issue 24, item 6: its margins hold its labels, report/_margins.py, so
    automargin grew none and drew it again), every label inside the figure, no axis checking its labels
    against the figure's edge."""
    state = page.evaluate(STATE)
    assert sorted(f["id"] for f in state) == sorted(expected)
    for f in state:
        assert not f["redrawn"], f"{f['id']} was drawn twice: its margins did not hold its labels"
        assert f["outside"] == [], f"{f['id']}: labels outside the figure {f['outside']}"
        assert f["overflow"] and set(f["overflow"]) == {"allow"}, f["id"]


@needs_browser
def test_only_the_figures_near_the_window_are_drawn_then_scrolling_draws_the_rest(report_path, browser):
    page, errors = _open(browser, report_path)
    everything = page.evaluate(ALL)
    assert {"panels", "gains", "groups", "explorer-g", "explorer-harmonic"} <= set(everything)
    page.wait_for_timeout(500)  # time enough to draw more, were it drawing more
    tops = page.evaluate(TOPS)
    assert page.evaluate(DRAWN) == []  # the first window holds text and tables only (and so does the next)
    assert "isometrics-viewport-drawn" in _marks(page) and "isometrics-all-drawn" not in _marks(page)
    # scroll to the panels: they (and what is near) are drawn, the explorers at the end are not yet
    page.evaluate("document.getElementById('panels').scrollIntoView()")
    for _ in range(200):
        if "panels" in page.evaluate(DRAWN):
            break
        page.wait_for_timeout(25)
    drawn = page.evaluate(DRAWN)
    assert "panels" in drawn and "explorer-harmonic" not in drawn
    scroll_through(page)
    assert page.evaluate(DRAWN) == everything
    assert "isometrics-all-drawn" in _marks(page)
    assert all(f"isometrics-drawn:{i}" in _marks(page) for i in everything)
    # each box kept the height of what is drawn in it: nothing below moved when it was drawn
    assert np.max(np.abs(np.subtract(page.evaluate(TOPS), tops))) <= 2
    page.close()
    assert errors == []


@needs_browser
@pytest.mark.parametrize("how", ["print", "button"])
def test_printing_or_the_button_draws_every_figure_at_once(report_path, browser, how):
    page, errors = _open(browser, report_path)
    assert page.evaluate(DRAWN) == []
    if how == "print":  # what the browser sends before it prints; the handler draws synchronously
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    else:
        page.locator("#draw-all").click()
    assert page.evaluate(DRAWN) == page.evaluate(ALL)
    assert page.evaluate("window.isometricsLazy.pending()") == 0
    # drawn from the data, as when scrolled to: the explorer opened at F2 with both models over it
    assert page.evaluate("document.getElementById('explorer-g').data.filter(t => t.meta === 'model').length") == 2
    if how == "button":  # drawn once each, labels inside, in this window and in a narrow one
        _drawn_once_with_labels_inside(page, page.evaluate(ALL))
        # the metric figures' left margins are sized from the tick labels Plotly writes
        for axis in page.evaluate(METRIC_AXES):
            written = [t.replace("\u2212", "-") for t in axis["labels"]]
            assert tick_labels(axis["lo"], axis["hi"], axis["length"], marker_high=9) == written
            assert axis["left"] == left_for(written) == LEFT
        # a narrow window: each figure laid out again at its box's new width (Plotly's responsive resize);
        # the box keeps the figure's height (a box collapsed to 0 px would leave every label outside it)
        page.set_viewport_size({"width": 700, "height": 900})
        for _ in range(200):
            if all(f["width"] == f["box"] for f in page.evaluate(STATE)):
                break
            page.wait_for_timeout(25)
        assert page.evaluate("document.getElementById('panels')._fullLayout.width") < 700
        _drawn_once_with_labels_inside(page, page.evaluate(ALL))
    page.close()
    assert errors == []


@needs_browser
def test_a_slider_moved_before_its_explorer_is_drawn_draws_it(report_path, browser):
    page, errors = _open(browser, report_path)
    page.evaluate(
        "() => { const s = document.getElementById('explorer-g-rho'); s.value = '3';"
        " s.dispatchEvent(new Event('input')); }"
    )
    assert "explorer-g" in page.evaluate(DRAWN)
    assert page.evaluate("document.getElementById('explorer-g').layout.title.text").endswith("ρ=3)")
    page.close()
    assert errors == []


@needs_browser
def test_a_tall_window_draws_what_it_shows_before_it_marks_the_load(report_path, browser):
    """In a window tall enough to show the panels, they are drawn by the time the page marks the
    first window drawn (the load the benchmark times)."""
    page, errors = _open(browser, report_path, height=6000)
    shown = page.evaluate(
        ITEMS + ".filter(d => { const r = d.getBoundingClientRect();"
        " return r.height > 0 && r.top < innerHeight; }).map(d => d.id)"
    )
    assert "panels" in shown
    at = page.evaluate("performance.getEntriesByName('isometrics-viewport-drawn')[0].startTime")
    drawn_at = page.evaluate(
        "ids => ids.map(i => (performance.getEntriesByName('isometrics-drawn:' + i)[0]"
        " || {startTime: Infinity}).startTime)",
        shown,
    )
    assert max(drawn_at) <= at
    page.close()
    assert errors == []


def _templates(path):
    text = path.read_text(encoding="utf-8")
    blocks = dict(re.findall(r'<script type="application/json" data-figure="([^"]+)">(.*?)</script>', text, re.S))
    data = json.loads(
        re.search(r'<script type="application/json" id="report-data">(.*?)</script>', text, re.S).group(1)
    )
    named = [k for k, b in blocks.items() if json.loads(b)["figure"]["layout"]["template"] == {"$template": 0}]
    return text, named, data.get("templates", [])


def test_the_plotly_template_is_stored_once(report_path):
    """plotly.py writes its default template (about 7 kB) into every figure: the page stores it once,
    in the data block, and each figure names it."""
    text, named, templates = _templates(report_path)
    assert {"panels", "metric-figure-0", "metric-figure-1", "gains"} <= set(named)
    assert len(templates) == 1 and text.count('"plot_bgcolor": "#E5ECF6"') == 1


@needs_browser
def test_every_figure_draws_with_the_stored_template(report_path, browser):
    _, named, templates = _templates(report_path)
    page, errors = _open(browser, report_path)
    page.locator("#draw-all").click()
    drawn = page.evaluate(
        f"[{', '.join(repr(k) for k in named)}].map(k => document.getElementById(k)._fullLayout.plot_bgcolor)"
    )
    assert [c.lower() for c in drawn] == [templates[0]["layout"]["plot_bgcolor"].lower()] * len(named)
    page.close()
    assert errors == []
