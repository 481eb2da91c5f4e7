"""The report page: ``build_report`` renders the Jinja2 template with the inlined scripts,
styles and figures under a Content Security Policy that allows only the page's own two
scripts (by their SHA-256 hashes); ``write_report`` writes it atomically.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from .._core.caller import current_caller
from .._core.constraints import InBody, String, validate_params
from .._core.optional import needs
from .._core.outputs import write_text_atomic
from .._version import __version__
from ..evaluation import BinaryEvaluation
from ..exceptions import IsometricsError
from ..metrics._arguments import parse_metric_argument, parse_metric_arguments
from ..metrics.registry import Metric
from ..model_selection.recommendation import Recommendation
from ..uncertainty import formatting
from ..uncertainty.model_comparison import ModelComparison
from ._bundle import _plotly_bundle
from ._data import _Shared
from ._explorer import _explorer_start
from ._figures import _metric_figure, _panels, _prg_caption
from ._gains import _gains_figure
from ._groups import group_section
from ._reading import _comparisons, _reading, _table_rows
from ._summary import _glossary, _summary
from ._text import _AREAS, _bests

__all__ = ["build_report", "write_report"]

#: The Content Security Policy, less the script hashes: nothing loads, posts or rebases.
_CSP = (
    "default-src 'none'; script-src {scripts}; style-src 'unsafe-inline'; img-src data:; font-src data:; "
    "base-uri 'none'; form-action 'none'"
)


def _require() -> tuple[Any, Any]:
    with needs("the HTML report"):
        import jinja2
        import plotly
    return jinja2, plotly


@functools.cache
def _environment(jinja2: Any) -> Any:
    """The one jinja2 environment of the package's page templates: each template is compiled the first time
    a page of this process renders it (10-25 ms), and read from the environment's cache after that."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(files("isometrics.report") / "templates")), autoescape=True
    )


def _script_source(code: str, what: str) -> str:
    """Inline JavaScript checked for sequences that would end or bend the script element."""
    code = code.replace("\r\n", "\n")
    lowered = code.lower()
    if "</script" in lowered or "<!--" in lowered or "\r" in code:
        raise IsometricsError(
            f"build_report: {what} holds '</script', '<!--' or a carriage return, which cannot "
            "be inlined; please report this."
        )
    return code


def _csp_hash(code: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii") + "'"


# ---------------------------------------------------------------------------- page
def _weights_text(results: list[BinaryEvaluation], comparisons: Any) -> str:
    """How the weights were read, from the results' (or comparisons') ``weight_kind``."""
    first = results[0]
    kinds = {getattr(r, "weight_kind", None) for r in results}
    items = [] if comparisons is None else ([comparisons] if not isinstance(comparisons, Sequence) else comparisons)
    kinds |= {getattr(c, "weight_kind", None) for c in items}
    kinds.discard(None)
    weighted = first.n_positives + first.n_negatives != first.n_samples
    if not kinds:
        return "weighted (weight kind not stated)" if weighted else ""
    described = {
        "frequency": "frequency weights (a row counts as that many identical samples; the bootstrap "
        "resamples those samples)",
        "sampling": "sampling weights (the bootstrap resamples rows, each carrying its weight)",
    }
    return "weighted: " + "; ".join(described.get(k, k) for k in sorted(str(k) for k in kinds))


@validate_params(
    {
        "results": InBody("a sequence of BinaryEvaluation (evaluate_scores)"),
        "comparisons": InBody("a ModelComparison, a sequence of them or None"),
        "metrics": [InBody("a sequence of metric names or Metrics", invalid=[["no-such-metric"]]), None],
        "title": String(),
        "file_name": String(),
        "label": String(),
        "summary": InBody("a Recommendation or None"),
    }
)
def build_report(
    results: Sequence[BinaryEvaluation],
    *,
    comparisons: ModelComparison | Sequence[ModelComparison] | None = None,
    metrics: Sequence[str | Metric] | None = None,
    title: str = "isometrics report",
    file_name: str = "",
    label: str = "",
    summary: Recommendation | None = None,
) -> str:
    """Render evaluation results as one self-contained HTML page.

    Parameters
    ----------
    results : Evaluations or sequence of BinaryEvaluation
        From :func:`isometrics.evaluate_scores` (every scorer on the same labels). Their
        bootstrap intervals, when computed, are shown next to the values.
    comparisons : ModelComparison or list of them, default=None
        Paired comparisons of the scorers on the same rows, from
        :func:`isometrics.uncertainty.compare_scores` or :func:`isometrics.uncertainty.bootstrap_compare`. The
        "Reading" section compares two models under a measure only through the
        comparison's decision and sentence (after its adjustment for multiple
        comparisons, as ``isometrics compare`` prints them); without one, it lists the
        values and says the difference was not tested.
    metrics : sequence of str or Metric, default=None
        The threshold metrics shown, each among those the results were evaluated with;
        default: every one of them, in evaluation order.
    title : str, default="isometrics report"
        Page title.
    file_name, label : str, default=""
        Shown in the header (escaped).
    summary : Recommendation, default=None
        The decision the page opens with (:func:`isometrics.model_selection.recommend`,
        on the same data): the recommended model and threshold, the counts per 1,000
        cases in sample (with intervals) and cross-fitted, the share flagged and the
        comparison's verdicts. The page renders its ``to_dict()``, the block the JSON of
        ``isometrics report --json`` carries. None: the page says there is none.

    Returns
    -------
    str
        The HTML page: inline scripts (Plotly, the page's own) allowed by hash, inline
        styles, no external resource.

    Raises
    ------
    ValueError
        If ``results`` is empty or has no threshold metric, if a metric was not
        evaluated, if ``comparisons`` name a scorer that is not in ``results`` or
        disagree with them (computed on other data), or if ``summary`` recommends a model
        not in ``results`` or disagrees with them.
    TypeError
        If ``comparisons`` holds anything but ModelComparison, or ``summary`` is not a
        Recommendation.
    InvalidParameterError
        If ``title``, ``file_name`` or ``label`` is not a str (a ``TypeError`` and a ``ValueError``).
    ImportError
        If plotly or jinja2 is missing.

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics import evaluate_scores
    >>> from isometrics.report import build_report
    >>> y = np.array([0, 0, 1, 1, 0, 1, 0, 1])
    >>> page = build_report(evaluate_scores(y, {"<b>m</b>": np.arange(8.0)}), title="Two & two")
    >>> "Two &amp; two" in page and "<b>m</b>" not in page
    True
    """
    jinja2, _ = _require()
    results = list(results)
    if not results:
        raise IsometricsError(f"{current_caller()}: no results to report; pass the list evaluate_scores returned.")
    specs = [b.metric.spec for b in results[0].best]
    if not specs:
        raise IsometricsError(f"{current_caller()}: the results have no threshold metric; evaluate with metrics=[...].")
    if metrics is None:
        chosen = [b.metric for b in results[0].best]
    else:
        chosen = (
            [parse_metric_argument(metrics, name="metrics")]
            if isinstance(metrics, (str, Metric))
            else parse_metric_arguments(metrics)
        )
        if not chosen:
            raise IsometricsError(f"{current_caller()}: `metrics` is empty; give at least one of {', '.join(specs)}.")
    for m in chosen:
        for r in results:
            if m.spec not in [b.metric.spec for b in r.best]:
                raise IsometricsError(
                    f"{current_caller()}: metric {m.spec!r} was not evaluated for {r.name!r} (evaluated: "
                    f"{', '.join(b.metric.spec for b in r.best)}); evaluate it or leave it out."
                )
    values = {
        r.name: {
            "auroc": r.auroc,
            "average_precision": r.average_precision,
            "auprg": r.auprg,
            **{m.spec: b.value for m, b in zip(chosen, _bests(r, chosen))},
        }
        for r in results
    }
    diffs, delong, policies = _comparisons(comparisons, values)
    first = results[0]
    weighted = first.n_positives + first.n_negatives != first.n_samples

    rows = [dict(name=r.name, **formatting.area_cells(r)) for r in results]  # auroc, average_precision, auprg
    any_interval = next((iv for r in results for iv in r.intervals.values()), None)
    intervals_note = ""
    if any_interval is not None:
        intervals_note = formatting.interval_note(any_interval)
    shared = _Shared()
    models = [shared.add(r, chosen) for r in results]  # every model's points, thinned once, for every figure
    metric_sections = []
    for j, m in enumerate(chosen):
        figure, thinned = _metric_figure(results, m, weighted, shared, models)
        best_rows = []
        for r in results:
            b = _bests(r, [m])[0]
            total = r.n_positives + r.n_negatives
            cells = formatting.best_threshold_cells(b, r.intervals.get(m.spec))
            best_rows.append(
                dict(
                    name=r.name,
                    threshold=cells["threshold"],
                    value=cells["value"],
                    precision=cells["precision"],
                    recall=cells["recall"],
                    flagged=f"{cells['predicted']} ({100 * (b.tp + b.fp) / total:.2f} %)",
                    ties="" if b.n_ties <= 1 else f"{b.n_ties} tied",
                )
            )
        metric_sections.append(
            dict(index=j, label=m.label, spec=m.spec, rows=best_rows, figure=figure, thinned=thinned)
        )
    stat_labels = {**_AREAS, **{m.spec: f"{m.label} at each model's best threshold" for m in chosen}}
    comparison_rows = _table_rows([*diffs, *delong], stat_labels)

    page_js = _script_source(
        "\n".join(
            (files("isometrics.report") / "static" / name).read_text(encoding="utf-8")
            for name in ("figures.js", "explorer.js", "start.js")
        ),
        "the page's script",
    )
    plotly_js = _script_source(_plotly_bundle(), "the Plotly bundle")
    csp = _CSP.format(scripts=" ".join(_csp_hash(code) for code in (plotly_js, page_js)))
    return (
        _environment(jinja2)
        .get_template("report.html.j2")
        .render(
            csp=csp,
            title=title,
            file_name=file_name,
            label=label,
            summary=_summary(summary, results),
            glossary=_glossary(),
            pos_label=first.operating_points.pos_label,
            n_samples=f"{first.n_samples:,}",
            weights=_weights_text(results, comparisons),
            total_weight=formatting.count(first.n_positives + first.n_negatives) if weighted else "",
            prevalence=first.prevalence,
            metrics=metric_sections,
            rows=rows,
            intervals_note=intervals_note,
            comparison_rows=comparison_rows,
            comparison_policy=" ".join(policies),
            reading=_reading(results, chosen, values, diffs),
            panels=_panels(results, chosen, shared, models),
            prg_caption=_prg_caption(first.prevalence),
            gains=_gains_figure(results, shared, models),
            shared=shared.json(),
            resolution=shared.resolution,
            explorer=_explorer_start(results, chosen, shared, models),
            groups=group_section(results),
            plotly_js=plotly_js,
            page_js=page_js,
            version=__version__,
        )
    )


@validate_params({"path": InBody("a path"), "html_text": String()})
def write_report(path: str | os.PathLike[str], html_text: str) -> Path:
    """Write the page through a temporary file (nothing half-written on failure).

    Parameters
    ----------
    path : str or os.PathLike
        Where to write it.
    html_text : str
        The page, from :func:`build_report`.

    Returns
    -------
    Path
        The path written.

    Raises
    ------
    InvalidParameterError
        If ``html_text`` is not a str.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from isometrics.report import write_report
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = write_report(Path(folder) / "report.html", "<!doctype html><title>t</title>")
    ...     written.read_text()
    '<!doctype html><title>t</title>'
    """
    return write_text_atomic(path, html_text)
