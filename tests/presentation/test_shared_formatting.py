"""The terminal and the page write the same evaluation the same way (isometrics.uncertainty.formatting).

For one evaluation and one paired comparison, the cells the command line prints (its tables of areas, of
best thresholds and of comparisons, and the note under the intervals) equal the cells of the report's
tables, read back from its HTML with the standard library's parser. A second test replaces the shared
functions and requires both sides to show the replacement, so a side that formats on its own fails even
where its own format happens to agree.
"""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("rich")
pytest.importorskip("jinja2")

from rich.console import Console  # noqa: E402

from isometrics import evaluate_scores  # noqa: E402
from isometrics.cli.compare import print_comparison, with_intervals  # noqa: E402
from isometrics.cli.results import print_results  # noqa: E402
from isometrics.report import build_report  # noqa: E402
from isometrics.uncertainty import compare_scores, formatting  # noqa: E402


class _Tables(HTMLParser):
    """Every ``<table>`` of a page as rows of cell texts, and the text of each ``<p id=...>``."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.paragraphs: dict[str, str] = {}
        self._cell: list[str] | None = None
        self._paragraph: str | None = None
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr" and self.tables:
            self.tables[-1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = []
        elif tag == "p" and dict(attrs).get("id"):
            self._paragraph = dict(attrs)["id"]
            self.paragraphs[self._paragraph] = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "p":
            self._paragraph = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)
        if self._paragraph is not None:
            self.paragraphs[self._paragraph] += data


def _page(html: str) -> _Tables:
    parser = _Tables()
    parser.feed(html)
    return parser


def _terminal_rows(text: str) -> list[list[str]]:
    """The body rows of every Rich table in ``text`` (a wide console: one line per row)."""
    return [
        [c.strip() for c in line.strip().strip("│").split("│")] for line in text.splitlines() if line.startswith("│")
    ]


@pytest.fixture(scope="module")
def evaluated():
    rng = np.random.default_rng(7)
    n = 400
    y = rng.random(n) < 0.3
    scores = {"a": y + rng.normal(0, 0.8, n), "b": y + rng.normal(0, 1.2, n)}
    comparison = compare_scores(y, scores, metrics=["f2"], n_resamples=60, rng=1)
    results = with_intervals(list(evaluate_scores(y, scores, metrics=["f2"])), comparison)
    return results, comparison


def _both(results, comparison):
    console = Console(record=True, width=400, emoji=False, color_system=None)
    print_results(console, Path("scores.csv"), "y", results)
    print_comparison(console, "scores.csv", comparison)
    terminal = console.export_text()
    page = _page(build_report(results, comparisons=comparison, title="t"))
    return terminal, page


def test_the_terminal_and_the_page_show_the_same_cells_and_notes(evaluated):
    results, comparison = evaluated
    terminal, page = _both(results, comparison)
    rows = _terminal_rows(terminal)
    areas, best, compared = (
        next(t[1:] for t in page.tables if t and t[0][: len(h)] == h)
        for h in (
            ["score", "AUROC", "AP", "AUPRG"],
            ["score", "best threshold (chosen on these data: optimistic)"],
            ["first", "second"],
        )
    )
    for r in results:
        # areas: the page's row (score, AUROC, AP, AUPRG) is the terminal's without n and prevalence
        page_areas = next(row for row in areas if row[0] == r.name)
        terminal_areas = next((row for row in rows if row[0] == r.name and row[3:] == page_areas[1:]), None)
        assert terminal_areas is not None, (page_areas, rows)
        assert "[" in page_areas[1] and len(terminal_areas) == 6  # with intervals
        # best threshold: threshold, value [interval], precision, recall, and the count flagged
        page_best = next(row for row in best if row[0] == r.name)
        terminal_best = next((row for row in rows if row[0] == r.name and row[1:5] == page_best[1:5]), None)
        assert terminal_best is not None, (page_best, rows)
        assert page_best[5].startswith(terminal_best[5] + " (")
    # the paired comparisons: difference, interval, p-values and decision of every row
    terminal_comparisons = [row for row in rows if " - " in row[0]]
    assert len(compared) == len(terminal_comparisons) == len(comparison.rows) + len(comparison.delong)
    for p, t in zip(compared, terminal_comparisons):
        assert f"{p[0]} - {p[1]}" == t[0]
        assert [p[3], p[4], p[7]] == [t[1], f"{t[2]} to {t[3]}", t[4]]
        assert p[9] == t[-1]
    # the note under the intervals, word for word
    note = " ".join(page.paragraphs["intervals-note"].split())
    assert note.startswith("Brackets: 95 % percentile bootstrap intervals (60 replicates); ")
    assert note in " ".join(terminal.split())


def test_neither_side_formats_on_its_own(evaluated, monkeypatch):
    """Replace the shared functions: both the terminal and the page must show the replacement."""
    results, comparison = evaluated
    monkeypatch.setattr(formatting, "with_interval", lambda value, interval: "<<interval>>")
    monkeypatch.setattr(formatting, "interval_note", lambda interval, **kw: "<<note>>")
    monkeypatch.setattr(formatting, "comparison_cells", lambda row: dict.fromkeys(_COMPARISON_KEYS, "<<c>>"))
    terminal, page = _both(results, comparison)
    cells = [c for table in page.tables for row in table for c in row]
    rows = _terminal_rows(terminal)
    for shown in (cells, [c for row in rows for c in row]):
        assert shown.count("<<interval>>") == 4 * len(results)  # three areas and one metric per model
        assert shown.count("<<c>>") >= 3 * len(comparison.rows)
    assert page.paragraphs["intervals-note"] == "<<note>>"
    assert "<<note>>" in terminal


_COMPARISON_KEYS = (
    "pair",
    "difference",
    "low",
    "high",
    "p_value",
    "adjusted_low",
    "adjusted_high",
    "adjusted_p_value",
    "decision",
)


@pytest.mark.parametrize(
    "value, interval, expected",
    [
        (0.81234, (0.79012, 0.83349), "0.8123 [0.790, 0.833]"),  # written by hand
        (float("nan"), None, "undefined"),
        (None, (0.1, 0.2), "undefined"),
        (1.0, (float("-inf"), float("inf")), "1.0000 [-inf, inf]"),
    ],
)
def test_the_one_format_of_a_value_and_its_interval(value, interval, expected):
    assert formatting.with_interval(value, interval) == expected


def test_one_class_against_the_rest_reads_the_same_in_the_terminal_and_on_the_page(tmp_path):
    """``evaluate --multiclass --ci --report``: the per-class rows, best thresholds and the note agree."""
    from isometrics.cli._options import ScoredFile
    from isometrics.cli.multiclass import evaluate_multiclass_file

    rng = np.random.default_rng(3)
    n = 300
    y = rng.integers(0, 3, n)
    path = tmp_path / "classes.csv"
    columns = {str(k): (y == k) + rng.normal(0, 0.9, n) for k in range(3)}
    path.write_text(
        "y,"
        + ",".join(columns)
        + "\n"
        + "".join(f"{y[i]}," + ",".join(f"{float(columns[c][i])!r}" for c in columns) + "\n" for i in range(n))
    )
    console = Console(record=True, width=400, emoji=False, color_system=None)
    request = ScoredFile(path, ("y",), list(columns), metrics=["f1"], n_resamples=40, ci=True, seed=0)
    evaluate_multiclass_file(request, console, report=str(tmp_path / "page.html"))
    text = console.export_text()
    rows = _terminal_rows(text)
    page = _page((tmp_path / "page.html").read_text())
    per_class = next(t[1:] for t in page.tables if t and t[0][:2] == ["class", "score"])
    best = next(
        t[1:] for t in page.tables if t and t[0][:2] == ["class", "best threshold (chosen on these data: optimistic)"]
    )
    per_class = [row for row in per_class if row[0] in columns]  # the averages: intervals on the page only
    assert len(per_class) == 3
    for row in per_class:
        assert row in rows, (row, rows)  # class, score, support, prevalence, AUROC, AP, AUPRG
        assert "[" in row[4]
    for row in best:
        assert row in rows, (row, rows)  # class, threshold, value [interval], precision, recall, flagged
    terminal = " ".join(text.split())
    head = "Brackets: 95 % percentile bootstrap intervals of each class against the rest (40 replicates"
    note = " ".join(page.paragraphs["intervals-note"].split())
    assert note.startswith(head) and head in terminal
    assert formatting.REOPTIMISED in note and formatting.REOPTIMISED in terminal


def test_every_evaluate_path_prints_with_the_one_printer():
    """Out of core and on a cluster the tables come from ``cli.results.print_results`` itself, imported where
    they are printed, not from a printer handed in by ``evaluate`` (no ``print_results=`` seam)."""
    import inspect

    import isometrics.cli.cluster as cluster
    import isometrics.cli.in_memory as in_memory
    import isometrics.cli.out_of_core as out_of_core

    for module, body in (
        (cluster, cluster.evaluate_on_cluster),
        (out_of_core, out_of_core.evaluate_out_of_core_file),
        (in_memory, in_memory._evaluate_file),
    ):
        assert "print_results" not in inspect.signature(body).parameters, module.__name__
        assert module.print_results is print_results, module.__name__
