"""Each figure of the report is drawn once (issue 24, item 6): its margins already hold its axes' labels,
so Plotly's automargin never grows them and draws the figure again, in a wide window and a narrow one;
every label stays inside the figure; no axis measures its tick labels against the figure's edge; and the
left margin of a metric figure is sized from the tick labels Plotly writes (``report/_margins.py``)."""

from pathlib import Path

import numpy as np
import pytest
from _browser import needs_browser

import isometrics as im
from isometrics.report import build_report
from isometrics.report._margins import LEFT, left_for, tick_labels

pytest.importorskip("plotly")

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


@pytest.fixture(scope="module")
def report_path(tmp_path_factory):
    """Two models and a worse-than-random one (MCC below zero: wider tick labels, "−0.1"), by group."""
    rng = np.random.default_rng(11)
    n = 1500
    y = (rng.random(n) < 0.2).astype(int)
    scores = {
        "a": rng.normal(size=n) + 1.5 * y,
        "b": rng.normal(size=n) + 0.7 * y,
        "reversed": rng.normal(size=n) - 0.8 * y,
    }
    results = im.evaluate_scores(y, scores, metrics=["f2", "mcc"], groups=rng.choice(["east", "west"], size=n))
    path = tmp_path_factory.mktemp("drawn-once") / "report.html"
    path.write_text(build_report(results, title="drawn once"), encoding="utf-8")
    return path


def _check(state, expected):
    assert sorted(f["id"] for f in state) == sorted(expected)
    for f in state:
        assert not f["redrawn"], f"{f['id']} was drawn twice: its margins did not hold its labels"
        assert f["outside"] == [], f"{f['id']}: labels outside the figure {f['outside']}"
        assert f["overflow"] and set(f["overflow"]) == {"allow"}, f["id"]


@needs_browser
def test_each_figure_is_drawn_once_with_its_labels_inside(report_path, browser):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(Path(report_path).as_uri())
    page.locator("#draw-all").click()
    expected = page.evaluate("Array.from(document.querySelectorAll('.figure, [data-explorer]')).map(d => d.id)")
    assert {"panels", "metric-figure-0", "metric-figure-1", "groups", "gains", "explorer-g"} <= set(expected)
    _check(page.evaluate(STATE), expected)

    # the metric figures' left margins are sized from the labels Plotly wrote (the MCC's below zero)
    axes = page.evaluate(METRIC_AXES)
    for axis in axes:
        written = [t.replace("\u2212", "-") for t in axis["labels"]]
        assert tick_labels(axis["lo"], axis["hi"], axis["length"], marker_high=9) == written
        assert axis["left"] == left_for(written)
    assert axes[0]["left"] == LEFT and axes[1]["left"] > LEFT and any(t.startswith("\u2212") for t in axes[1]["labels"])

    # a narrow window: each figure laid out again at its new width (Plotly's responsive resize), still once
    page.set_viewport_size({"width": 700, "height": 900})
    for _ in range(200):
        state = page.evaluate(STATE)
        if all(f["width"] == f["box"] for f in state):
            break
        page.wait_for_timeout(25)
    assert state[0]["width"] < 700
    _check(state, expected)
    page.close()
    assert errors == []


def test_tick_labels_as_derived_by_hand():
    """0 to 0.6 on 307 px: each end padded by 5 % of the length, so the range is 0.6 / 0.9 wide, from
    -0.0333 to 0.6333; 307 / 40 + 1 = 8.675 intervals of about 0.0769 each, rounded up to 0.1; ticks at 0,
    0.1, ..., 0.6. A size-9 marker at the top pads it by 9 / 1.6 px more: the range reaches
    0.6 + (15.35 + 5.625) / 307 * 0.6 / (1 - 36.325 / 307) = 0.6465, still below 0.7."""
    assert tick_labels(0.0, 0.6, 307) == ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6"]
    assert tick_labels(0.0, 0.6, 307, marker_high=9) == ["0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6"]
    # -0.2 to 0.3: range -0.2278 to 0.3278 (0.5556 wide), 0.0640 per interval, rounded up to 0.1; ticks -0.2
    # to 0.3, "-0.2" the widest: 10.1 + 7.7 + 3.9 + 7.7 = 29.4 px against 19.3 for "0.8", 11 px more than LEFT
    labels = tick_labels(-0.2, 0.3, 307)
    assert labels == ["-0.2", "-0.1", "0", "0.1", "0.2", "0.3"]
    assert left_for(labels) == LEFT + 11
    assert left_for(["0", "0.5", "1"]) == LEFT
