"""Each page template is compiled once per process, not once per page: a report, an elicitation page,
a second page of either reuses the compiled template (compiling report.html.j2 takes 10-25 ms)."""

import numpy as np
import pytest

import isometrics as im

jinja2 = pytest.importorskip("jinja2")
pytest.importorskip("plotly")

from isometrics.report import build_report  # noqa: E402
from isometrics.report.elicitation_page import elicitation_page  # noqa: E402


@pytest.fixture
def compiles(monkeypatch):
    """The names of the templates jinja2 compiles from here on."""
    names = []
    compile_ = jinja2.Environment.compile

    def counted(self, source, name=None, filename=None, raw=False, defer_init=False):
        names.append(name)
        return compile_(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    return names


def _results():
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    return im.evaluate_scores(y, {"m": rng.normal(size=300) + y})


def test_a_second_page_compiles_no_template(compiles):
    results = _results()
    build_report(results)
    elicitation_page(im.elicitation.Elicitation())
    first = list(compiles)
    build_report(results)
    elicitation_page(im.elicitation.Elicitation())
    assert compiles == first  # nothing compiled by the second pages
    assert compiles.count("report.html.j2") <= 1 and compiles.count("elicit.html.j2") <= 1
