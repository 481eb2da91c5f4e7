"""The benchmark page: true numbers, escaped names, locked down, drawn in a real browser."""

import base64
import dataclasses
import hashlib
import json
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from _browser import needs_browser
from scipy.special import expit, logit
from scipy.stats import spearmanr

from isometrics.irt._laplace import wald_interval
from isometrics.irt.study import AdaptiveRecord, BenchmarkStudy
from isometrics.report.benchmark_page import build_benchmark_page

XSS = "<script>window.__pwned = 1</script>"
QUOTE = 'a"b<c>&d</script>'
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def make_study(with_test=True):
    """A study written by hand from the model's formula (nothing fitted)."""
    rng = np.random.default_rng(3)
    models = ("logreg:C=1", XSS, QUOTE, "forest", "nb", "knn:n_neighbors=5")
    datasets = tuple(f"set-{j}" for j in range(12)) + ("<b>bold</b>",)
    ability = np.array([0.8, 0.6, 0.55, 0.9, 0.3, 0.45])
    difficulty = np.linspace(0.1, 0.9, len(datasets))
    discrimination = np.where(np.arange(len(datasets)) == 4, -0.8, 1.5)
    discrimination[7] = -0.5
    dataset_mean = np.full(len(datasets), 0.8)
    dataset_mean[4], dataset_mean[7] = 0.998, 0.61  # near the ceiling; low and negative: noisy?
    grid = np.linspace(0.005, 0.995, 199)
    icc = expit(discrimination[:, None] * (logit(grid)[None, :] - logit(difficulty)[:, None]))
    auroc = ability * 0.3 + 0.6 + rng.normal(0, 0.01, len(models))
    auprg = 0.95 - 0.2 * ability  # the reverse ranking: Spearman -1
    test = None
    if with_test:
        test = AdaptiveRecord(
            model=QUOTE,
            selection="fisher",
            datasets=datasets[:5],
            responses=np.array([0.8, 0.7, 0.9, 0.6, 0.75]),
            ability=np.array([0.5, 0.58, 0.6, 0.57, 0.56]),
            ability_se=np.array([0.2, 0.12, 0.08, 0.06, 0.05]),
            full_ability=0.55,
            full_se=0.02,
            held_out=True,
            bank_size=5,
            failed=(("set-9", "model <i>failed</i>"),),
        )
    return BenchmarkStudy(
        metric="auroc",
        models=models,
        datasets=datasets,
        ability=ability,
        ability_se=np.full(len(models), 0.03),
        difficulty=difficulty,
        discrimination=discrimination,
        mean_responses={"auroc": auroc, "auprg": auprg},
        icc_grid=grid,
        icc=icc,
        test=test,
        dataset_mean=dataset_mean,
    )


class _Page(HTMLParser):
    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.csp, self.scripts, self.cells, self.table = None, [], {}, None
        self._script, self._cell = None, None
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and attrs.get("http-equiv") == "Content-Security-Policy":
            self.csp = attrs["content"]
        if tag == "script":
            self._script = [attrs, ""]
        if tag == "table":
            self.table = attrs.get("id")
            self.cells[self.table] = []
        if tag == "td":
            self._cell = ""

    def handle_endtag(self, tag):
        if tag == "script":
            self.scripts.append(tuple(self._script))
            self._script = None
        if tag == "td":
            self.cells[self.table].append(self._cell)
            self._cell = None

    def handle_data(self, data):
        if self._script is not None:
            self._script[1] += data
        if self._cell is not None:
            self._cell += data


@pytest.fixture(scope="module")
def page_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("page") / "benchmark.html"
    path.write_text(build_benchmark_page(make_study(), title=f"KEEL {XSS}"))
    return path


def test_locked_down_and_self_contained(page_file):
    text = page_file.read_text()
    page = _Page(text)
    assert "default-src 'none'" in page.csp and "unsafe-eval" not in page.csp
    inline = [code for attrs, code in page.scripts if not attrs.get("type")]
    assert len(inline) == 2
    for code in inline:
        digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in page.csp
    markup = re.sub(r"<script[^>]*>.*?</script>", "", text, flags=re.S)  # the page without its scripts
    assert not re.search(r"(src|href)=", markup)
    data_blocks = [code for attrs, code in page.scripts if attrs.get("type") == "application/json"]
    assert len(data_blocks) == 4 and all("<" not in code for code in data_blocks)


def test_names_are_escaped_and_shown_literally(page_file):
    text = page_file.read_text()
    page = _Page(text)
    assert XSS in page.cells["models"] and QUOTE in page.cells["models"]
    assert "<b>bold</b>" in page.cells["datasets"]
    assert "<script>window.__pwned" not in text and "<b>bold</b>" not in text


def test_numbers_come_from_the_study(page_file):
    study = make_study()
    page = _Page(page_file.read_text())
    text = page_file.read_text()
    rho = spearmanr(study.ability, study.mean_responses["auroc"]).statistic
    assert f"{rho:.3f}" in text and "-1.000" in text  # AUPRG ranks the models in reverse
    # models by decreasing ability, the ranks of each column beside them
    models = page.cells["models"][::9]
    assert models == [study.models[i] for i in np.argsort(-study.ability)]
    assert [r for r in page.cells["trajectory-table"][1::5]] == list(study.test.datasets)


def test_negative_discrimination_is_described_not_ranked(page_file):
    """Issue 22 item 4: data sets with a < 0 were sorted as the hardest and called mislabelled."""
    study = make_study()
    cells = _Page(page_file.read_text()).cells["datasets"]
    rows = [cells[k : k + 6] for k in range(0, len(cells), 6)]
    names = [r[0] for r in rows]
    positive = [d for d, a in zip(study.datasets, study.discrimination) if a > 0]
    # a > 0: from the hardest (largest difficulty) to the easiest, ranked 1..; then a < 0 by mean response
    assert names == positive[::-1] + ["set-7", "set-4"]
    assert [r[3] for r in rows] == [str(k) for k in range(1, 12)] + ["-", "-"]
    reading = {r[0]: r[5] for r in rows}
    assert "near the ceiling" in reading["set-4"] and "not ordered by ability" in reading["set-4"]
    assert "score lower" in reading["set-7"] and "near the ceiling" not in reading["set-7"]
    assert not any(word in reading["set-7"] for word in ("noisy", "mislabelled", "hardest"))
    assert all(reading[d] == "" for d in positive)
    assert {r[0]: r[1] for r in rows}["set-4"] == "0.9980"  # the mean response beside the difficulty
    note = page_file.read_text()
    assert "1 of them lie near the ceiling" in note and "a sign of noise" not in note


def _figure(text, name):
    match = re.search(rf'data-figure="{name}">(.*?)</script>', text, flags=re.S)
    return json.loads(match.group(1))["figure"]


def _values(x):
    """A Plotly array: a list, or base64 typed data."""
    if isinstance(x, dict):
        return np.frombuffer(base64.b64decode(x["bdata"]), dtype=np.dtype(x["dtype"]))
    return np.asarray(x, dtype=float)


def test_intervals_are_drawn_not_one_se(page_file):
    """Issue 22 item 1 (page part): 95 % intervals, from the study's own intervals where it has them."""
    study = make_study()
    text = page_file.read_text()
    band = wald_interval(study.ability, study.ability_se)
    trace = _figure(text, "abilities")["data"][0]
    np.testing.assert_allclose(_values(trace["error_x"]["array"]), band[:, 1] - study.ability)
    np.testing.assert_allclose(_values(trace["error_x"]["arrayminus"]), study.ability - band[:, 0])
    assert "95 % interval" in text and "± 1 SE" not in text and "1 standard error" not in text
    own = np.column_stack([study.ability - 0.1, study.ability + 0.05])
    trace = _figure(build_benchmark_page(dataclasses.replace(study, ability_interval=own)), "abilities")["data"][0]
    np.testing.assert_allclose(_values(trace["error_x"]["array"]), np.full(6, 0.05))
    steps = _figure(text, "trajectory")["data"][-1]
    np.testing.assert_allclose(_values(steps["error_y"]["array"]), study.test.interval()[:, 1] - study.test.ability)


def test_axes_and_digits_follow_the_data():
    """Issue 22 item 6: abilities in 0.029-0.074 were drawn on 0-1 and printed as ties."""
    study = make_study(with_test=False)
    ability = np.array([0.0291, 0.0294, 0.041, 0.074, 0.05, 0.06])
    text = build_benchmark_page(dataclasses.replace(study, ability=ability, ability_se=np.full(6, 0.002)))
    lo, hi = _figure(text, "icc")["layout"]["xaxis"]["range"]
    assert 0 <= lo < 0.0291 and 0.074 < hi < 0.1
    shown = _Page(text).cells["models"][1::9]
    assert len(set(shown)) == 6 and "0.0291" in shown and "0.0294" in shown


def test_the_held_out_model_and_failed_data_sets_are_said(page_file):
    text = page_file.read_text()
    flat = " ".join(text.split())
    assert "was held out: this test uses a bank refitted to the other 5 models" in flat
    assert "failed on 1 data set" in text and "&lt;i&gt;failed&lt;/i&gt;" in text


def test_without_a_test_the_trajectory_is_left_out():
    text = build_benchmark_page(make_study(with_test=False))
    assert 'id="trajectory' not in text and "Adaptive test" not in text


def test_a_study_is_required():
    with pytest.raises(TypeError, match="BenchmarkStudy"):
        build_benchmark_page({"models": []})


@needs_browser
def test_page_in_a_real_browser(page_file, browser):
    page = browser.new_page(viewport={"width": 1500, "height": 1100})
    log = {"errors": [], "outside": []}
    page.on("console", lambda m: log["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log["errors"].append(str(e)))
    page.on(
        "request", lambda r: log["outside"].append(r.url) if not r.url.startswith(("file:", "data:", "blob:")) else None
    )
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => "
        "(window.__blocked = window.__blocked || []).push(e.violatedDirective))"
    )
    page.goto(page_file.as_uri())
    deadline = time.monotonic() + 20
    while page.evaluate("document.querySelectorAll('.js-plotly-plot').length") < 4:
        assert time.monotonic() < deadline, "the figures did not draw"
        page.wait_for_timeout(50)
    # each figure drawn once: its margins hold its labels (report/_margins.py), so automargin grew none
    redrawn = "Array.from(document.querySelectorAll('.js-plotly-plot')).filter(d => '_redrawFromAutoMarginCount' in d._fullLayout)"
    assert page.evaluate(redrawn + ".map(d => d.id)") == []
    # every data set has its curve; the trajectory has the full-benchmark line and the test's path
    assert page.evaluate("document.getElementById('icc').data.length") == 13 + 1
    names = page.evaluate("document.getElementById('trajectory').data.map(t => t.name)")
    assert any(n.startswith("full benchmark") for n in names) and any(n.startswith("adaptive") for n in names)
    page.evaluate("Plotly.Fx.hover('abilities', [{curveNumber: 0, pointNumber: 2}])")
    assert QUOTE in page.locator("#abilities .hovertext").first.text_content()
    assert page.evaluate("window.__pwned") is None and page.evaluate("window.__blocked") is None
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "benchmark.png"), full_page=True)
    page.close()
    assert log["errors"] == [] and log["outside"] == []
    assert (ARTIFACTS / "benchmark.png").stat().st_size > 10_000
