"""Issue 20, item 1: one comparison, rendered alike by Python, the compare table, its JSON and the
report: the same numbers (to printed precision), decisions and sentences."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

import isometrics as im
from isometrics.cli.app import app


def _invoke(*args):
    result = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    return result.stdout


def _words(text):
    """The text's words, with the table's box-drawing characters taken out."""
    return " ".join(re.sub(r"[\u2500-\u257f]", " ", text).split())


@pytest.fixture(scope="module")
def three_models(tmp_path_factory):
    """Three models of known, different quality (strong > logreg ~ forest), logreg and forest close."""
    r = np.random.default_rng(39)
    n = 600
    y = r.random(n) < 0.3
    base = r.normal(size=n)
    frame = pl.DataFrame(
        {
            "y": y.astype(int),
            "logreg": base + 1.0 * y + r.normal(scale=0.6, size=n),
            "forest": base + 0.9 * y + r.normal(scale=0.6, size=n),
            "strong": base + 2.5 * y + r.normal(scale=0.6, size=n),
        }
    )
    path = tmp_path_factory.mktemp("renderings") / "three.csv"
    frame.write_csv(path)
    return path, frame


def test_python_table_json_and_report_say_the_same(three_models, tmp_path):
    path, frame = three_models
    models = ["logreg", "forest", "strong"]
    y = frame["y"].to_numpy()
    result = im.uncertainty.compare_scores(y, frame.select(models), metrics=["f1"], n_resamples=199, rng=3)
    rows = [*result.rows, *result.delong]
    decisions = {r.decision for r in rows}
    assert {"no detectable difference", "a better", "b better"} & decisions >= {"no detectable difference"}
    assert any(r.winner == "strong" for r in rows)  # the strong model is found better

    args = [
        path,
        "--label",
        "y",
        *sum((["--score", m] for m in models), []),
        "--metric",
        "f1",
        "--n-resamples",
        199,
        "--seed",
        3,
    ]
    table = _words(_invoke("compare", *args, "--json", tmp_path / "c.json"))  # one run: the table and the JSON
    payload = json.loads((tmp_path / "c.json").read_text())
    _invoke("report", *args, "-o", tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()

    # the JSON is the result's to_dict
    assert payload["comparisons"] == json.loads(json.dumps(result.to_dict()["comparisons"]))
    assert payload["delong"] == json.loads(json.dumps(result.to_dict()["delong"]))
    for row in rows:
        # the table: every sentence, and the numbers of its line at the printed precision
        assert _words(row.sentence()) in table, row.sentence()
        cells = [
            f"{row.estimate:.4f}",
            f"{row.confidence_interval[0]:.4f}",
            f"{row.confidence_interval[1]:.4f}",
            f"{row.p_value:.2g}",
            f"{row.adjusted_interval[0]:.4f}",
            f"{row.adjusted_interval[1]:.4f}",
            f"{row.adjusted_p_value:.2g}",
            row.decision if row.winner is None else f"{row.winner} better",
        ]
        assert re.search(rf"{row.a} - {row.b} " + r" ".join(map(re.escape, cells)), table), cells
        # the report's table: the same numbers and decision
        report_cells = [
            row.a,
            row.b,
            None,
            f"{row.estimate:.4f}",
            f"{row.confidence_interval[0]:.4f} to {row.confidence_interval[1]:.4f}",
            "95 %",
            f"{row.adjusted_interval[0]:.4f} to {row.adjusted_interval[1]:.4f}",
            f"{row.p_value:.2g}",
            f"{row.adjusted_p_value:.2g}",
            cells[-1],
        ]
        pattern = "".join(
            r"<td>[^<]*</td>" if c is None else f"<td>{re.escape(html.escape(c))}</td>" for c in report_cells
        )
        assert re.search(pattern, page), report_cells
    # the report's reading: each measure's leader against the others, in the rows' own sentences
    reading = html.unescape(page[page.index('id="reading"') : page.index("</ul>", page.index('id="reading"'))])
    shown = [r for r in result.rows if r.sentence() in reading]
    assert len(shown) == 2 * len(result.statistics)  # the leader of each measure against the two others
    assert "is ahead of" not in reading and "Holm" in reading


def test_the_sentence_follows_the_adjusted_decision(tmp_path):
    """The failure of issue 20: "logreg beats forest on AUROC ... (p = 0.13) (Holm-adjusted p)". Three
    close models where logreg - forest has raw p 0.04 and Holm p 0.12: compare and the report must
    not say logreg beats forest, and must say why."""
    r = np.random.default_rng(39)
    n = 600
    y = r.random(n) < 0.3
    base = r.normal(size=n)
    frame = pl.DataFrame(
        {
            "y": y.astype(int),
            "logreg": base + 1.0 * y + r.normal(scale=0.6, size=n),
            "forest": base + 0.9 * y + r.normal(scale=0.6, size=n),
            "tree": base + 0.9 * y + r.normal(scale=0.6, size=n),
        }
    )
    path = tmp_path / "close.csv"
    frame.write_csv(path)
    args = [
        path,
        "--label",
        "y",
        "--score",
        "logreg",
        "--score",
        "forest",
        "--score",
        "tree",
        "--n-resamples",
        399,
        "--seed",
        0,
    ]
    text = _words(_invoke("compare", *args, "--json", tmp_path / "c.json"))  # one run: the table and the JSON
    payload = json.loads((tmp_path / "c.json").read_text())
    [row] = [
        c for c in payload["comparisons"] if c["statistic"] == "auroc" and (c["a"], c["b"]) == ("logreg", "forest")
    ]
    assert row["p_value"] < 0.05 < row["adjusted_p_value"] and row["decision"] == "no detectable difference"
    assert "logreg beats forest on AUROC by" not in text
    assert _words(row["sentence"]) in text and "Holm-adjusted p = 0.12" in row["sentence"]
    _invoke("report", *args, "-o", tmp_path / "r.html")
    page = html.unescape((tmp_path / "r.html").read_text())
    assert "logreg beats forest on AUROC" not in page and "logreg is ahead of forest" not in page
    assert row["sentence"] in page
