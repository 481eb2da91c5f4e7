"""The HTML report: true numbers, honest figures, escaped once, locked down, and working in a
real browser (Playwright + Chromium)."""

import base64
import hashlib
import itertools
import json
import re
import time
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from _browser import needs_browser, scroll_through
from _cli import run_in_process
from _report_data import figures as resolved_figures
from hypothesis import given, settings
from hypothesis import strategies as st

import isometrics as im
from isometrics.report import build_report

XSS = "<script>window.__pwned = 1</script>"
QUOTE = 'a"b<c>&d</script>'  # a name every context must show literally
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


# ---------------------------------------------------------------------------- reading a page back
class _Page(HTMLParser):
    """The parts of a page the tests read: the CSP, every script element, table cells, list items."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.csp, self.scripts, self.cells, self.items, self.first_head_tags = None, [], {}, [], []
        self._script, self._table, self._cell, self._item, self._in_head = None, None, None, None, False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "head":
            self._in_head = True
        elif self._in_head and len(self.first_head_tags) < 3:
            self.first_head_tags.append(tag)
        if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy":
            self.csp = attrs["content"]
        elif tag == "script":
            self._script = [attrs, ""]
        elif tag == "table":
            self._table = attrs.get("id")
            self.cells[self._table] = []
        elif tag in ("td", "th"):
            self._cell = ""
        elif tag == "li":
            self._item = ""

    def handle_endtag(self, tag):
        if tag == "head":
            self._in_head = False
        if tag == "script":
            self.scripts.append(tuple(self._script))
            self._script = None
        elif tag in ("td", "th") and self._cell is not None:
            self.cells[self._table].append(self._cell)
            self._cell = None
        elif tag == "li" and self._item is not None:
            self.items.append(self._item)
            self._item = None

    def handle_data(self, data):
        if self._script is not None:
            self._script[1] += data
        if self._cell is not None:
            self._cell += data
        if self._item is not None:
            self._item += data


def _array(value):
    """A Plotly data array: a list (None for NaN) or a base64 typed array."""
    if isinstance(value, dict):
        out = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        return out.reshape([int(k) for k in str(shape).split(",")]) if shape else out
    return np.array([np.nan if v is None else v for v in value], dtype=np.float64)


def _figures(text):
    return resolved_figures(text)


def _step_traces(figure):
    return [t for t in figure["figure"]["data"] if t.get("meta", {}).get("role") == "steps"]


def _fbeta_from_counts(tp, fp, fn, beta):
    b2 = beta * beta
    return (1 + b2) * tp / ((1 + b2) * tp + b2 * fn + fp)


def _reference_points(y, s, w, beta):
    """Every threshold's (share flagged, F-beta), brute force from counts; the empty prediction first."""
    y, s, w = np.asarray(y, bool), np.asarray(s, float), np.asarray(w, float)
    keep = w > 0
    y, s, w = y[keep], s[keep], w[keep]
    total, positives = w.sum(), w[y].sum()
    points = [(0.0, _fbeta_from_counts(0.0, 0.0, positives, beta))]
    for t in sorted(set(s), reverse=True):
        flagged = s >= t
        tp, fp = w[flagged & y].sum(), w[flagged & ~y].sum()
        points.append(((tp + fp) / total, _fbeta_from_counts(tp, fp, positives - tp, beta)))
    return points


def _step_value(trace, x):
    """The drawn value at share x, read the way Plotly draws the trace's line shape."""
    xs, ys = _array(trace["x"]), _array(trace["y"])
    assert np.all(np.diff(xs) >= 0)
    shape = trace.get("line", {}).get("shape", "linear")
    if shape == "hv":  # horizontal from each point to the next x: the last point at or before x
        return ys[np.searchsorted(xs, x, side="right") - 1]
    if shape == "vh":  # vertical first: the first point at or after x
        return ys[np.searchsorted(xs, x, side="left")]
    raise AssertionError(f"the metric is drawn with line shape {shape!r}, not as steps")


def _assert_steps_match(trace, points):
    """The drawn step function equals, between and at the achievable shares, the metric of the
    operating point that flags the most while flagging at most that share."""
    shares = np.array([p[0] for p in points])
    values = np.array([p[1] for p in points])
    np.testing.assert_allclose(_array(trace["x"]), shares, rtol=0, atol=1e-12)
    np.testing.assert_allclose(_array(trace["y"]), values, rtol=1e-12, atol=1e-12)
    probes = np.concatenate([(shares[:-1] + shares[1:]) / 2, np.linspace(0, 1, 401)])
    probes = probes[np.min(np.abs(probes[:, None] - shares[None, :]), axis=1) > 1e-9]
    for x in probes:
        expected = values[np.flatnonzero(shares <= x)[-1]]
        assert _step_value(trace, x) == pytest.approx(expected, rel=1e-12, abs=1e-12), x


# ---------------------------------------------------------------------------- the CLI's report
@pytest.fixture(scope="module")
def report_file(tmp_path_factory):
    rng = np.random.default_rng(5)
    n = 3000
    y = (rng.random(n) < 0.1).astype(int)
    frame = pl.DataFrame(
        {
            "y": y,
            XSS: rng.normal(size=n) + 1.5 * y,
            "plain": np.round(rng.normal(size=n) + y, 2),
            QUOTE: 100 * (rng.normal(size=n) + 1.4 * y),
        }
    )
    d = tmp_path_factory.mktemp("report")
    frame.write_parquet(d / "scores.parquet")
    out = d / "report.html"
    res = run_in_process(  # the page the command writes; not about the process
        "report",
        d / "scores.parquet",
        "--label",
        "y",
        "--score",
        XSS,
        "--score",
        "plain",
        "--score",
        QUOTE,
        "--metric",
        "f2",
        "--metric",
        "f0.5",
        "--n-resamples",
        "200",
        "--seed",
        "3",
        "-o",
        out,
    )
    assert res.returncode == 0, res.stderr
    return out, frame


def test_report_is_self_contained_and_escaped(report_file):
    out, _ = report_file
    page = out.read_text()
    assert "window.__pwned = 1</script>" not in page  # never raw markup
    assert "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in page  # shown as text in the tables
    assert not re.search(r"<script[^>]+src=", page) and not re.search(r"<link[^>]+href=", page)
    assert "https://" not in page.split("<script>", 1)[0]  # the head loads nothing from outside
    assert "default-src 'none'" in _Page(page).csp


def test_report_numbers_are_the_evaluation(report_file):
    out, frame = report_file
    y = frame["y"].to_numpy()
    auroc = im.auroc(y, frame["plain"].to_numpy())
    assert f"{auroc:.4f}" in out.read_text()


def test_user_text_is_escaped_once_in_html(report_file):
    """Table cells read back by an HTML parser (one unescaping) are the names as given."""
    page = _Page(report_file[0].read_text())
    for table in ("summary", "best-0", "best-1"):
        assert {QUOTE, XSS, "plain"} <= set(page.cells[table])
    assert "&quot;" not in "".join(page.cells["summary"]) and "&amp;" not in "".join(page.cells["summary"])


def test_user_text_cannot_leave_the_figure_data(report_file):
    """The figures' JSON sits in data blocks: no '<' at all, so no '</script' or '<!--', and it
    parses back to the names as given (escaped once, for Plotly's pseudo-HTML labels)."""
    page = report_file[0].read_text()
    blocks = re.findall(r'<script type="application/json" data-figure="[^"]+">(.*?)</script>', page, re.S)
    assert len(blocks) == 4  # the panels, one figure per metric, the gains and lift panel
    for body in blocks:
        assert "<" not in body and ">" not in body
    names = {t["name"] for t in _figures(page)["metric-figure-0"]["figure"]["data"]}
    assert 'a"b&lt;c&gt;&amp;d&lt;/script&gt;' in names  # Plotly decodes &lt; &gt; &amp; (not &quot;) once


def test_csp_runs_only_the_pages_own_scripts(report_file):
    """script-src lists exactly the SHA-256 of each executable inline script (hashed here
    independently): no 'unsafe-inline', no 'unsafe-eval'; no form posts, no <base>."""
    page = _Page(report_file[0].read_text())
    assert page.first_head_tags[:2] == ["meta", "meta"]  # the policy precedes every user-provided text
    directives = {d.split()[0]: d.split()[1:] for d in page.csp.split(";") if d.strip()}
    executable = [body for attrs, body in page.scripts if attrs.get("type") in (None, "text/javascript")]
    assert len(executable) == 2  # Plotly and the page's script; the figures are data blocks
    hashes = {
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode()).digest()).decode() + "'" for body in executable
    }
    assert set(directives["script-src"]) == hashes
    assert directives["default-src"] == ["'none'"]
    assert directives["form-action"] == ["'none'"] and directives["base-uri"] == ["'none'"]
    assert not [attrs for attrs, _ in page.scripts if attrs.get("type") not in (None, "application/json")]


def test_cli_report_compares_every_pair(report_file):
    page = _Page(report_file[0].read_text())
    cells = page.cells["comparisons"]
    for a, b in itertools.combinations([XSS, "plain", QUOTE], 2):
        assert any(cells[i : i + 2] == [a, b] for i in range(len(cells) - 1))
    reading = " ".join(page.items)
    assert "F2 at each model's best threshold" in reading and "F0.5 at each model's best threshold" in reading
    assert " wins" not in reading


def test_evaluate_ci_report_shows_the_intervals(tmp_path):
    """`evaluate --ci --report`: the report shows the same intervals the JSON output holds."""
    rng = np.random.default_rng(2)
    y = (rng.random(500) < 0.3).astype(int)
    pl.DataFrame({"y": y, "a": rng.normal(size=500) + y, "b": rng.normal(size=500) + 0.5 * y}).write_csv(
        tmp_path / "s.csv"
    )
    res = run_in_process(  # what the command writes; not about the process
        "evaluate",
        tmp_path / "s.csv",
        "--label",
        "y",
        "--score",
        "a",
        "--score",
        "b",
        "--metric",
        "f1",
        "--metric",
        "f2",
        "--ci",
        "--n-resamples",
        "60",
        "--seed",
        "0",
        "--json",
        tmp_path / "r.json",
        "--report",
        tmp_path / "r.html",
    )
    assert res.returncode == 0, res.stderr
    stored = json.loads((tmp_path / "r.json").read_text())
    page = _Page((tmp_path / "r.html").read_text())
    for k, result in enumerate(stored["results"]):
        row = page.cells["summary"][4 * (k + 1) : 4 * (k + 2)]
        assert row[0] == result["score"]
        for cell, key in zip(row[1:], ("auroc", "average_precision", "auprg")):
            ci = result["confidence_intervals"][key]
            assert cell == f"{result[key]:.4f} [{ci['low']:.3f}, {ci['high']:.3f}]"  # bounds: 3 decimals, as in the CLI
        for j, best in enumerate(result["best_thresholds"]):
            ci = result["confidence_intervals"][best["metric"]]
            assert f"{best['value']:.4f} [{ci['low']:.3f}, {ci['high']:.3f}]" in page.cells[f"best-{j}"]
    assert any(c == "a" for c in page.cells["comparisons"])  # two models: the paired comparison too


# ---------------------------------------------------------------------------- item 16: the metric figure
@pytest.mark.parametrize("weighted", [False, True])
def test_metric_figure_is_the_step_function_of_the_thresholds(weighted):
    """Two models on very different scales, heavy ties: each drawn step function equals, at
    many shares, the F-beta of the operating point reached there (computed from counts)."""
    rng = np.random.default_rng(11)
    n = 240
    y = rng.random(n) < 0.25
    scores = {
        "probability": np.round(rng.random(n) * 0.5 + 0.3 * y, 2),
        "balance": np.round(2600 * rng.random(n) + 400 * y, -2),
    }
    w = rng.integers(0, 4, n).astype(float) if weighted else np.ones(n)
    results = im.evaluate_scores(y, scores, metrics=["f1", "f2"], sample_weight=w if weighted else None)
    figures = _figures(build_report(results))
    for j, beta in enumerate((1.0, 2.0)):
        traces = _step_traces(figures[f"metric-figure-{j}"])
        assert len(traces) == 2
        for trace, s in zip(traces, scores.values()):
            _assert_steps_match(trace, _reference_points(y, s, w, beta))
        best = [t for t in figures[f"metric-figure-{j}"]["figure"]["data"] if t["meta"]["role"] == "best"]
        for trace, r in zip(best, results):
            b = r.best[j]
            assert _array(trace["y"])[0] == b.value
            assert _array(trace["x"])[0] == pytest.approx((b.tp + b.fp) / (r.n_positives + r.n_negatives))


def test_binary_score_gives_one_flat_step():
    """Scores 0/1: every threshold in (0, 1] flags the ones, so the line is flat at that F1
    from the first achievable share up to 1; nothing in between is drawn."""
    rng = np.random.default_rng(4)
    y = rng.random(200) < 0.3
    s = np.where(rng.random(200) < 0.7, y, ~y).astype(int)
    [r] = im.evaluate_scores(y, {"binary": s}, metrics=["f1"])
    [trace] = _step_traces(_figures(build_report([r]))["metric-figure-0"])
    tp, fp = np.sum(y & (s == 1)), np.sum(~y & (s == 1))
    f1 = 2 * tp / (2 * tp + (np.sum(y) - tp) + fp)
    share = (tp + fp) / 200
    for x in np.linspace(share, 1, 200, endpoint=False)[1:]:
        assert _step_value(trace, x) == pytest.approx(f1, rel=1e-12)
    assert _step_value(trace, 1.0) == pytest.approx(2 * np.sum(y) / (2 * np.sum(y) + 200 - np.sum(y)))


@pytest.mark.filterwarnings("ignore::isometrics.DegenerateDataWarning")  # one distinct score is a valid case
@settings(max_examples=12, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.integers(0, 6), st.integers(0, 3)), min_size=2, max_size=40),
    st.sampled_from([0.5, 1.0, 3.0]),
)
def test_metric_figure_steps_property(rows, beta):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=float)
    w = np.array([r[2] for r in rows], dtype=float)
    if not (w[y].sum() > 0 and w[~y].sum() > 0):
        return
    results = im.evaluate_scores(y, {"m": s}, metrics=[f"fbeta(beta={beta})"], sample_weight=w)
    [trace] = _step_traces(_figures(build_report(results))["metric-figure-0"])
    _assert_steps_match(trace, _reference_points(y, s, w, beta))


# ---------------------------------------------------------------------------- item 17: the reading
@pytest.fixture(scope="module")
def two_models():
    rng = np.random.default_rng(9)
    n = 600
    y = rng.random(n) < 0.2
    base = rng.normal(size=n)
    scores = {"strong": base + 2.0 * y, "weak": base + rng.normal(scale=1.2, size=n) + 1.4 * y}
    metrics = ["f1", "f2", "precision"]
    results = im.evaluate_scores(y, scores, metrics=metrics)
    comparison = im.uncertainty.compare_scores(
        y, scores["strong"], scores["weak"], names=("strong", "weak"), metrics=metrics, n_resamples=300, rng=1
    )
    return y, scores, metrics, results, comparison


def test_reading_rests_on_the_paired_interval(two_models):
    """Each measure's sentence is the comparison's own: "no detectable difference" when its adjusted
    interval covers 0, "beats" otherwise, with the interval's numbers (issue 20: one wording)."""
    _, _, metrics, results, comparison = two_models
    reading = _Page(build_report(results, comparisons=comparison)).items
    seen = set()
    for row in comparison.rows:
        areas = {"auroc": "AUROC", "average_precision": "average precision", "auprg": "AUPRG"}
        key = row.statistic
        label = areas[key] if key in areas else im.parse_metric(key).label + " at each model's best threshold"
        [sentence] = [s for s in reading if s.startswith(f"By {label}:")]
        assert row.sentence() in sentence
        low, high = row.adjusted_interval
        if low <= 0 <= high:
            seen.add("covers")
            assert "no detectable difference between" in sentence and "covers 0" in sentence
        else:
            seen.add("excludes")
            leader, other = ("strong", "weak") if row.winner == "strong" else ("weak", "strong")
            assert f"{leader} beats {other} on {row.label}" in sentence
        assert "wins" not in sentence and "is ahead of" not in sentence
    assert seen == {"covers", "excludes"}  # the data exercise both cases


def test_disagreement_needs_detected_differences_both_ways(two_models):
    """Decisions set by hand: the reading says the measures disagree only when one pair has
    differences detected on both sides."""
    _, _, _, results, comparison = two_models

    def with_decisions(decisions):
        rows = tuple(
            replace(r, decision=decisions.get(r.statistic, "no detectable difference")) for r in comparison.rows
        )
        return replace(comparison, rows=rows)

    agree = with_decisions({"auroc": "a better", "f1": "a better"})
    assert not any("disagree" in s for s in _Page(build_report(results, comparisons=agree)).items)
    disagree = with_decisions({"auroc": "a better", "f1": "b better"})
    items = _Page(build_report(results, comparisons=disagree)).items
    [sentence] = [s for s in items if "disagree" in s]
    assert "strong is ahead of weak by AUROC but behind it by F1 at each model's best threshold" in sentence
    [f1] = [s for s in items if s.startswith("By F1")]
    assert "weak beats strong on F1" in f1
    assert "the paired bootstrap does not support the order of the point estimates" in f1


def test_no_comparison_means_no_winner(two_models):
    _, _, _, results, _ = two_models
    reading = _Page(build_report(results)).items
    for sentence in reading:
        assert not re.search(r"\b(wins|is best|is ahead|better)\b", sentence.replace("declared better", ""))
    assert sum("was not tested" in s for s in reading) == 6  # three areas, three metrics
    assert any("No paired comparison was computed" in s for s in reading)


def test_bootstrap_compare_results_are_read_too(two_models):
    y, scores, _, results, _ = two_models
    paired = im.uncertainty.bootstrap_compare(y, scores, statistics="auroc", n_resamples=200, rng=2)
    low, high = paired.row("auroc", "strong", "weak").adjusted_interval
    [sentence] = [s for s in _Page(build_report(results, comparisons=[paired])).items if s.startswith("By AUROC:")]
    assert f"{low:.4f} to {high:.4f}" in sentence and paired.rows[0].sentence() in sentence
    [other] = [s for s in _Page(build_report(results, comparisons=[paired])).items if s.startswith("By AUPRG:")]
    assert "was not tested" in other


def test_every_metric_is_shown_with_the_optimism_caveat(two_models):
    _, _, metrics, results, _ = two_models
    text = build_report(results)
    page, figures = _Page(text), _figures(text)
    for j, spec in enumerate(metrics):
        label = im.parse_metric(spec).label
        assert f"metric-figure-{j}" in figures
        assert page.cells[f"best-{j}"][2] == label  # the column header of its value
        assert sum(f"{label} at each model's best threshold" in s for s in page.items) == 1
    assert len(figures["panels"]["groups"]) == len(metrics)
    assert "chosen on the same data" in text and "held-out data" in text


def test_weight_kind_is_stated(two_models):
    y, scores, _, _, _ = two_models
    w = np.random.default_rng(0).integers(1, 4, len(y))
    results = im.evaluate_scores(y, scores, sample_weight=w)  # no kind given: resolved to "sampling"
    assert "sampling weights" in build_report(results)
    frequency = im.evaluate_scores(y, scores, sample_weight=w, weight_kind="frequency")
    assert "frequency weights" in build_report(frequency)
    assert "sampling weights" not in build_report(frequency)
    for r in results:  # results from elsewhere that carry no kind: said so, never guessed
        object.__setattr__(r, "weight_kind", None)
    assert "weight kind not stated" in build_report(results)


def test_build_report_errors(two_models):
    y, scores, _, results, comparison = two_models
    res = im.evaluate_scores([0, 0, 1, 1], {"a": [0.1, 0.4, 0.35, 0.8]}, metrics=["f1"])
    with pytest.raises(im.IsometricsError, match="build_report: metric 'fbeta\\(beta=2\\)' was not evaluated"):
        build_report(res, metrics=["f2"])
    with pytest.raises(im.IsometricsError, match="build_report: no results"):
        build_report([])
    with pytest.raises(TypeError, match="build_report: every item of `comparisons` must be"):
        build_report(results, comparisons=[comparison.to_dict()])
    with pytest.raises(TypeError, match="build_report: `comparisons` must be"):
        build_report(results, comparisons=comparison.to_dict())
    other = im.uncertainty.compare_scores(
        y, scores["strong"], scores["weak"], names=("strong", "x"), n_resamples=20, rng=0
    )
    with pytest.raises(im.IsometricsError, match="build_report: `comparisons` compare 'x'"):
        build_report(results, comparisons=other)
    elsewhere = im.uncertainty.compare_scores(
        y[::-1], scores["strong"], scores["weak"], names=("strong", "weak"), n_resamples=20, rng=0
    )
    with pytest.raises(im.IsometricsError, match="computed on other data"):
        build_report(results, comparisons=elsewhere)


def test_jupyter_reprs_escape_user_text():
    r = im.evaluate_scores([0, 0, 1, 1], {"<b>x</b>": [0.1, 0.4, 0.35, 0.8]})[0]
    assert "&lt;b&gt;x&lt;/b&gt;" in r._repr_html_() and "<b>x</b>" not in r._repr_html_()
    assert "<table>" in r.best[0]._repr_html_()
    assert "weighted avg" in im.metric_report([0, 1, 1], [0, 1, 0])._repr_html_()


# ---------------------------------------------------------------------------- in a real browser


def _wait(page, expression, timeout=20.0):
    """Poll ``expression`` until it is truthy (page.wait_for_function evaluates its predicate with
    eval inside the page, which the report's policy refuses: that refusal is the point)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"timed out waiting for {expression}"
        page.wait_for_timeout(50)


def _open(browser, path):
    """The page, with the console errors, CSP violations and outside requests it produced."""
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    log = {"errors": [], "outside": [], "blocked": []}
    page.on("console", lambda m: log["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.on(
        "request", lambda r: log["outside"].append(r.url) if not r.url.startswith(("file:", "data:", "blob:")) else None
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "(window.__blocked = window.__blocked || []).push(e.violatedDirective + ' ' + e.blockedURI))"
    )
    page.goto(Path(path).as_uri())
    scroll_through(page)  # the figures are drawn as they come near the window
    _wait(
        page,
        "document.querySelectorAll('.js-plotly-plot').length === "
        "document.querySelectorAll('script[data-figure]').length + 4",
    )  # the figures and 4 explorers
    return page, log


def _slider_redraws(page):
    before = page.evaluate("JSON.stringify(document.getElementById('explorer-g').data[0].y)")
    page.evaluate(
        "() => { const s = document.getElementById('explorer-g-rho'); s.value = '3';"
        " s.dispatchEvent(new Event('input')); }"
    )
    _wait(page, f"JSON.stringify(document.getElementById('explorer-g').data[0].y) !== {json.dumps(before)}")


@needs_browser
def test_report_in_a_real_browser(report_file, browser):
    """Everything draws and reacts with script-src limited to two hashes and no 'unsafe-eval'
    (a Plotly feature needing eval would log a CSP error), and nothing leaves the page."""
    out, _ = report_file
    ARTIFACTS.mkdir(exist_ok=True)
    page, log = _open(browser, out)
    # the escaped column name is shown as text and its script never ran
    assert page.locator("#summary td", has_text=XSS).count() == 1
    assert page.evaluate("window.__pwned") is None
    _slider_redraws(page)
    before_mean = page.evaluate("JSON.stringify(document.getElementById('explorer-harmonic').data[2].y)")
    page.evaluate(
        "() => { const s = document.getElementById('explorer-harmonic-gamma'); s.value = '4';"
        " s.dispatchEvent(new Event('input')); }"
    )
    assert page.evaluate("JSON.stringify(document.getElementById('explorer-harmonic').data[2].y)") != before_mean
    # the metric selector shows the second metric's level curves and best points, hides the first's
    groups = page.evaluate("JSON.parse(document.querySelector('[data-figure=panels]').textContent).groups")
    page.select_option("#panels-metric", "1")
    visible = page.evaluate("document.getElementById('panels').data.map(t => t.visible)")
    assert all(visible[i] is True for i in groups[1]) and all(visible[i] is False for i in groups[0])
    # hover labels draw (Plotly's hover code runs under the policy too)
    page.evaluate("Plotly.Fx.hover('metric-figure-0', [{curveNumber: 0, pointNumber: 40}])")
    assert page.locator("#metric-figure-0 .hovertext").count() >= 1
    page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
    assert page.evaluate("window.__blocked") is None
    page.close()
    assert log["errors"] == []
    assert log["outside"] == []
    assert (ARTIFACTS / "report.png").stat().st_size > 10_000


@pytest.fixture(scope="module")
def drawn(report_file, browser):
    """The CLI's report, opened once and drawn to the end (2-3 CPU seconds a time), for the tests that only
    read it or set its explorer's sliders (each sets every slider it reads), with what it logged meanwhile."""
    page, log = _open(browser, report_file[0])
    yield page, log
    page.close()


@needs_browser
def test_names_show_literally_in_legends_and_hovers(drawn):
    """A name with ", <, >, & and </script> reads back from the rendered legend and hover
    text exactly as given (escaped once), and no element came out of it."""
    page, log = drawn
    for fig in ("panels", "metric-figure-0", "metric-figure-1"):
        legend = page.evaluate(f"Array.from(document.querySelectorAll('#{fig} .legendtext')).map(e => e.textContent)")
        assert QUOTE in legend and XSS in legend and "plain" in legend
    k = page.evaluate(
        "document.getElementById('metric-figure-0').data.findIndex(t => t.meta && "
        "t.meta.role === 'steps' && t.meta.model === 2)"
    )
    page.evaluate(f"Plotly.Fx.hover('metric-figure-0', [{{curveNumber: {k}, pointNumber: 100}}])")
    hover = page.evaluate(
        "Array.from(document.querySelectorAll('#metric-figure-0 .hovertext text')).map(e => e.textContent)"
    )
    assert QUOTE in hover
    assert page.evaluate("document.querySelectorAll('c').length") == 0
    assert page.locator("#summary td", has_text=QUOTE).count() == 1
    assert log["errors"] == []


@needs_browser
def test_injected_script_does_not_run(report_file, browser, tmp_path):
    """Should escaping ever fail: markup injected into a copy of a report (an inline script, an
    onerror attribute, a <base>, a form) does not run, while the report's own scripts still do."""
    text = report_file[0].read_text()
    injected = (
        '<base href="https://example.invalid/"><script>window.__injected = 1</script>'
        '<img src="x" onerror="window.__onerror = 1"><svg onload="window.__onload = 1"></svg>'
        '<form id="leak" action="https://example.invalid/"><input name="q" value="1"></form>'
    )
    copy = tmp_path / "injected.html"
    copy.write_text(text.replace("<body>\n", "<body>\n" + injected, 1))
    page, log = _open(browser, copy)
    assert page.evaluate("[window.__injected, window.__onerror, window.__onload]") == [None, None, None]
    blocked = page.evaluate("window.__blocked")
    assert any(b.startswith("script-src") for b in blocked)
    assert any(b.startswith("base-uri") for b in blocked)
    _slider_redraws(page)  # the page's own scripts ran: figures drawn (checked by _open), explorers react
    page.evaluate("document.getElementById('leak').submit()")
    _wait(page, "window.__blocked.some(b => b.startsWith('form-action'))")  # the refusal is reported (a task later)
    assert page.evaluate("location.protocol") == "file:"
    assert any(b.startswith("form-action") for b in page.evaluate("window.__blocked"))
    page.close()
    assert log["outside"] == []


@needs_browser
@pytest.mark.parametrize("beta, rho", [(1.0, -2), (3.0, -6), (0.5, 3), (2.0, -1)])
def test_explorer_level_curves_span_the_square(drawn, beta, rho):
    """The explorer's level curves (computed in the page) run from edge to edge of the unit
    square, and every drawn point has the level's value under isometrics' own G(beta, rho)."""
    page, log = drawn
    page.evaluate(
        f"() => {{ for (const [k, v] of [['beta', '{beta}'], ['rho', '{rho}']]) {{"
        " const s = document.getElementById('explorer-g-' + k); s.value = v;"
        " s.dispatchEvent(new Event('input')); } }"
    )
    traces = page.evaluate(
        "document.getElementById('explorer-g').data.filter(t => t.meta === 'level')"
        ".map(t => [Number(t.name), t.x, t.y])"
    )
    assert log["errors"] == []
    assert len(traces) == 9
    for level, recall, precision in traces:
        recall, precision = np.asarray(recall), np.asarray(precision)
        np.testing.assert_allclose(im.g_beta_rho(precision, recall, beta=beta, rho=rho), level, rtol=1e-6)
        for i in (0, -1):  # each end lies on an edge of the square
            assert min(recall[i], precision[i], 1 - recall[i], 1 - precision[i]) < 1e-9, (
                level,
                recall[i],
                precision[i],
            )
        assert recall[0] != pytest.approx(recall[-1]) or precision[0] != pytest.approx(precision[-1])
