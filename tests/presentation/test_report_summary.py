"""The report opens with the decision, and the numbers it shows are the JSON's (issue 25, items 1-2):
read back from the page in Chromium, and from the HTML."""

import json
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from _browser import needs_browser
from _cli import run_in_process as run  # what the report command writes; not about the process
from sklearn.metrics import confusion_matrix

import isometrics as im
from isometrics.model_selection import recommend
from isometrics.report import build_report
from isometrics.report.glossary import glossary

NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    """``isometrics report`` on a rare outcome (5 %), three models, F2, with --ci: the page and its JSON."""
    rng = np.random.default_rng(25)
    n = 3000
    y = (rng.random(n) < 0.05).astype(int)
    frame = pl.DataFrame(
        {
            "y": y,
            "a": np.round(rng.normal(size=n) + 2.0 * y, 3),
            "b": np.round(rng.normal(size=n) + 1.9 * y, 3),
            "c": np.round(rng.normal(size=n) + y, 3),
        }
    )
    d = tmp_path_factory.mktemp("summary")
    frame.write_csv(d / "scores.csv")
    res = run(
        "report",
        d / "scores.csv",
        "--label",
        "y",
        "--score",
        "a",
        "--score",
        "b",
        "--score",
        "c",
        "--metric",
        "f2",
        "--metric",
        "f1",
        "--ci",
        "--n-resamples",
        "200",
        "--seed",
        "1",
        "-o",
        d / "report.html",
        "--json",
        d / "report.json",
    )
    assert res.returncode == 0, res.stderr
    return d / "report.html", json.loads((d / "report.json").read_text()), frame


def test_the_json_carries_the_decision_and_it_is_sklearns(reported):
    _, doc, frame = reported
    summary = doc["summary"]
    best = {
        r["score"]: next(b["value"] for b in r["best_thresholds"] if b["metric"] == "fbeta(beta=2)")
        for r in doc["results"]
    }
    assert summary["metric"] == "fbeta(beta=2)" and summary["model"] == max(best, key=best.get)
    y, s = frame["y"].to_numpy(), frame[summary["model"]].to_numpy()
    tn, fp, fn, tp = confusion_matrix(y, (s >= summary["threshold"]).astype(int)).ravel()
    inside = summary["in_sample"]
    assert inside["counts"] == {"tp": tp, "fp": fp, "fn": fn, "tn": tn}
    assert inside["per_1000"]["fn"] == pytest.approx(1000 * fn / len(y))
    assert {"tp_per_1000", "fp_per_1000", "fn_per_1000", "tn_per_1000"} <= set(inside["intervals"])
    assert summary["cross_fitted"]["estimate"] == "cross-fitted" and summary["cross_fitted"]["n_splits"] == 5
    assert summary["tested"] and summary["verdicts"][:2] == [c["sentence"] for c in summary["comparisons"]]


@pytest.fixture(scope="module")
def summary_page(reported, browser):
    """The report, opened once (about 1.5 CPU seconds a time) for the tests that read its text."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(Path(reported[0]).as_uri())
    yield page
    page.close()


def _read_summary(page):
    """The summary's shown text, cell by cell, as the reader sees it."""
    return page.evaluate("""() => {
        const rows = {};
        for (const tr of document.querySelectorAll('#decision-counts tbody tr')) {
            const cell = est => { const td = tr.querySelector(`td[data-estimate="${est}"]`); if (!td) return null;
                const iv = td.querySelector('.interval');
                return {value: td.querySelector('.value').innerText, interval: iv ? iv.innerText : ''}; };
            rows[tr.dataset.key] = {words: tr.cells[0].innerText, inside: cell('in-sample'), cross: cell('cross-fitted')};
        }
        return {model: document.getElementById('decision-model').innerText,
                threshold: document.getElementById('decision-threshold').innerText,
                verdicts: [...document.querySelectorAll('#decision-verdicts li')].map(li => li.innerText),
                caveat: document.getElementById('decision-caveat').innerText,
                note: document.getElementById('decision-intervals').innerText,
                top: document.getElementById('decision-summary').getBoundingClientRect().top,
                areas: document.getElementById('summary').getBoundingClientRect().top,
                glossary: [...document.querySelectorAll('#glossary dt')].map(dt => [dt.innerText, dt.nextElementSibling.innerText]),
                rows};
    }""")


def _close(shown, expected, decimals, scale=1.0):
    """A number shown with ``decimals`` decimals is the JSON's number, rounded."""
    assert expected is not None
    assert float(shown) == pytest.approx(scale * expected, abs=0.5 * 10**-decimals + 1e-9), (shown, expected)


@needs_browser
def test_the_summarys_numbers_on_the_page_are_the_jsons(reported, summary_page):
    _, doc, _ = reported
    summary = doc["summary"]
    seen = _read_summary(summary_page)
    assert seen["top"] < seen["areas"]  # the decision comes first
    assert seen["model"] == summary["model"]
    assert float(seen["threshold"]) == pytest.approx(summary["threshold"], rel=1e-5)
    assert seen["verdicts"] == summary["verdicts"] and seen["caveat"] == summary["caveat"]
    assert seen["note"] == summary["intervals_note"] and "200 replicates" in seen["note"]
    for estimate, key in (("inside", "in_sample"), ("cross", "cross_fitted")):
        d = summary[key]
        for count in ("tp", "fp", "fn", "tn"):
            cell = seen["rows"][count][estimate]
            _close(cell["value"], d["per_1000"][count], 1)
            if estimate == "inside":  # in sample, with its interval; cross-fitted has none
                low, high = map(float, NUMBER.findall(cell["interval"]))
                _close(low, d["intervals"][f"{count}_per_1000"]["low"], 1)
                _close(high, d["intervals"][f"{count}_per_1000"]["high"], 1)
            else:
                assert cell.get("interval", "") == ""
        _close(seen["rows"]["alert_rate"][estimate]["value"], d["alert_rate"], 2, 100.0)
        _close(seen["rows"]["precision"][estimate]["value"], d["precision"], 1, 100.0)
        _close(seen["rows"]["recall"][estimate]["value"], d["recall"], 1, 100.0)
        _close(seen["rows"]["metric"][estimate]["value"], d["metrics"][summary["metric"]], 4)
    low, high = map(float, NUMBER.findall(seen["rows"]["alert_rate"]["inside"]["interval"]))
    _close(low, summary["in_sample"]["intervals"]["alert_rate"]["low"], 2, 100.0)
    assert [words for words in (seen["rows"][k]["words"] for k in ("tp", "fn", "fp", "tn"))] == [
        "caught",
        "missed",
        "falsely flagged",
        "correctly passed",
    ]
    assert seen["glossary"] == [[t, x] for t, x in glossary().items()]


def _evaluated():
    rng = np.random.default_rng(2)
    y = rng.random(600) < 0.1
    scores = {"m": rng.normal(size=600) + 1.5 * y, "n": rng.normal(size=600) + y}
    return y, scores, im.evaluate_scores(y, scores, metrics=["f1"])


def test_without_a_summary_the_page_says_so_and_still_explains_its_words():
    _, _, results = _evaluated()
    page = build_report(results)
    assert 'id="decision-none"' in page and 'id="decision-counts"' not in page
    assert "<dt>AUPRG</dt>" in page and "precision gain and recall gain" in page


def test_a_summary_of_other_data_is_refused():
    y, scores, results = _evaluated()
    other = recommend(y, {n: -s for n, s in scores.items()}, metric="f1", cv=None)
    with pytest.raises(ValueError, match="computed on other data"):
        build_report(results, summary=other)
    with pytest.raises(TypeError, match="must be a Recommendation"):
        build_report(results, summary={"model": "m"})


def test_a_single_model_is_recommended_without_a_test():
    y, scores, results = _evaluated()
    one = {"m": scores["m"]}
    page = build_report(results[:1], summary=recommend(y, one, metric="f1", cv=3, rng=0))
    assert "m is the only model evaluated" in page and 'id="decision-verdicts"' not in page
    assert "cross-fitted (3 folds)" in page and "No intervals" in page


@needs_browser
def test_the_summarys_intervals_rest_on_the_comparisons_replicates(reported, summary_page):
    """One set of replicates for the page: the summary's count intervals are read on the paired
    replicates of the comparisons (the JSON says so, and the page's note)."""
    _, doc, _ = reported
    assert doc["summary"]["shared_replicates"] is True
    note = summary_page.evaluate("document.getElementById('decision-intervals').innerText")
    assert note == doc["summary"]["intervals_note"] and "200 replicates: those of the paired comparisons" in note
