"""A self-contained interactive HTML report of an evaluation (Jinja2 + Plotly, offline).

The report consumes result objects only (:class:`~isometrics.BinaryEvaluation`); every
number comes from the operating points. Scripts and styles are inlined, a Content
Security Policy forbids the page any network request, and everything that came from the
user's file (column names, labels, file names) is escaped. Needs
``pip install 'isometrics[report]'`` (plotly, jinja2).
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..evaluation import BinaryEvaluation
from ..exceptions import IsometricsError
from ..gain import _gain
from ..level_curves import level_curve
from ..metrics import Metric

__all__ = ["build_report", "write_report"]

_MAX_POINTS = 2000


def _require() -> tuple[Any, Any]:
    try:
        import jinja2
        import plotly
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("the HTML report needs plotly and jinja2: pip install 'isometrics[report]'") from exc
    return jinja2, plotly


def _thin(n: int, keep: Sequence[int]) -> np.ndarray:
    """At most ~_MAX_POINTS evenly spaced indices of n, plus the ones to keep."""
    if n <= _MAX_POINTS:
        return np.arange(n)
    return np.union1d(np.linspace(0, n - 1, _MAX_POINTS).astype(int), np.asarray(keep, dtype=int))


def _text(value: Any) -> str:
    """User-provided text for Plotly: escaped, so markup shows as text."""
    return html.escape(str(value), quote=True)


def _fmt(x: float) -> str:
    return "undefined" if x != x else f"{x:.4f}"


def _panels(results: list[BinaryEvaluation], metric: Metric, plotly: Any) -> str:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=3, subplot_titles=("ROC", "Precision-recall", "Precision-recall-gain"),
                        horizontal_spacing=0.07)
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]
    first = results[0]
    pi = first.prevalence
    for k, r in enumerate(results):
        op = r.operating_points
        color = palette[k % len(palette)]
        name = _text(r.name)
        best = next(b for b in r.best if b.metric.spec == metric.spec)
        fpr, tpr, thr = op.roc_curve()
        precision, recall, _ = op.precision_recall_curve()
        pg, rg, _ = op.prg_curve()
        values = op.metric_curve(metric).values
        hull = op.roc_convex_hull()
        idx = _thin(op.n_points, list(hull.indices) + [best.index])
        custom = np.column_stack([thr[idx], precision[idx], recall[idx], pg[idx], rg[idx], values[idx]])
        hover = ("threshold %{customdata[0]:.4g}<br>precision %{customdata[1]:.4f}<br>recall %{customdata[2]:.4f}"
                 "<br>precision gain %{customdata[3]:.4f}<br>recall gain %{customdata[4]:.4f}<br>"
                 + _text(metric.label) + " %{customdata[5]:.4f}<extra>" + name + "</extra>")
        common = dict(mode="lines", line=dict(color=color), customdata=custom, hovertemplate=hover, legendgroup=name)
        fig.add_trace(go.Scatter(x=fpr[idx], y=tpr[idx], name=name, **common), 1, 1)
        fig.add_trace(go.Scatter(x=recall[idx][1:], y=precision[idx][1:], showlegend=False,
                                 line_shape="vh", **{**common, "customdata": custom[1:]}), 1, 2)
        ok = rg[idx] > -0.05
        fig.add_trace(go.Scatter(x=rg[idx][ok], y=pg[idx][ok], showlegend=False,
                                 **{**common, "customdata": custom[ok]}), 1, 3)
        dash = dict(mode="lines", line=dict(color=color, dash="dash", width=1), showlegend=False,
                    hoverinfo="skip", legendgroup=name)
        fig.add_trace(go.Scatter(x=hull.fpr, y=hull.tpr, **dash), 1, 1)
        achievable = op.achievable_pr_curve()
        fig.add_trace(go.Scatter(x=achievable.recall[1:], y=achievable.precision[1:], **dash), 1, 2)
        prg_hull = op.prg_convex_hull()
        fig.add_trace(go.Scatter(x=prg_hull.recall_gain, y=prg_hull.precision_gain, **dash), 1, 3)
        marker = dict(mode="markers", marker=dict(color=color, size=9), showlegend=False, legendgroup=name,
                      hovertemplate=f"best {_text(metric.label)} {best.value:.4f} at threshold {best.threshold:.4g}"
                                    f"<extra>{name}</extra>")
        fig.add_trace(go.Scatter(x=[best.fp / op.n_negatives], y=[best.recall], **marker), 1, 1)
        fig.add_trace(go.Scatter(x=[best.recall], y=[best.precision], **marker), 1, 2)
        if best.tp > 0:
            gains = _gain(np.array([best.recall, best.precision]), pi)
            fig.add_trace(go.Scatter(x=gains[:1], y=gains[1:], **marker), 1, 3)
    grey = dict(mode="lines", line=dict(color="#999", width=1), hoverinfo="name", showlegend=False)
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], name="chance", **grey), 1, 1)
    fig.add_trace(go.Scatter(x=[0, 1], y=[pi, pi], name=f"prevalence {pi:.3g}", **grey), 1, 2)
    fig.add_trace(go.Scatter(x=[0, 1], y=[1, 0], name="F1 of always-positive", **grey), 1, 3)
    if metric._pr is not None:
        dotted = dict(mode="lines", line=dict(color="#bbb", width=1, dash="dot"), hoverinfo="name", showlegend=False)
        for value in (0.2, 0.4, 0.6, 0.8):
            for col, space in ((1, "roc"), (2, "pr"), (3, "prg")):
                curve = level_curve(metric, value, space=space, prevalence=pi)
                fig.add_trace(go.Scatter(x=curve.x, y=curve.y, name=f"{_text(metric.label)} = {value}", **dotted),
                              1, col)
    for col, (xt, yt) in enumerate((("false positive rate", "true positive rate"), ("recall", "precision"),
                                    ("recall gain", "precision gain")), start=1):
        fig.update_xaxes(title_text=xt, range=[-0.02, 1.02], row=1, col=col)
        fig.update_yaxes(title_text=yt, range=[-0.02, 1.02], row=1, col=col)
    fig.update_layout(height=480, margin=dict(t=40, b=40, l=50, r=10), legend=dict(orientation="h", y=-0.2))
    return plotly.io.to_html(fig, full_html=False, include_plotlyjs=False, div_id="panels",
                             config={"displaylogo": False})


def _metric_figure(results: list[BinaryEvaluation], metric: Metric, plotly: Any) -> str:
    import plotly.graph_objects as go

    fig = go.Figure()
    for r in results:
        op = r.operating_points
        curve = op.metric_curve(metric)
        best = next(b for b in r.best if b.metric.spec == metric.spec)
        idx = _thin(op.n_points - 1, [max(best.index - 1, 0)]) + 1
        fig.add_trace(go.Scatter(x=curve.thresholds[idx], y=curve.values[idx], mode="lines", name=_text(r.name),
                                 hovertemplate="threshold %{x:.4g}<br>" + _text(metric.label) + " %{y:.4f}"))
    fig.update_layout(height=380, xaxis_title="threshold (predict positive when score >= threshold)",
                      yaxis_title=_text(metric.label), margin=dict(t=20, b=40, l=50, r=10))
    return plotly.io.to_html(fig, full_html=False, include_plotlyjs=False, div_id="metric-figure",
                             config={"displaylogo": False})


def _reading(results: list[BinaryEvaluation], metric: Metric) -> list[str]:
    """Plain-language sentences: who wins under which measure, and why it can differ."""
    sentences = []
    if len(results) == 1:
        r = results[0]
        b = next(x for x in r.best if x.metric.spec == metric.spec)
        return [f"{r.name} ranks a random positive above a random negative {100 * r.auroc:.1f} % of the time "
                f"(AUROC); its average precision is {r.average_precision:.3f} against {r.prevalence:.3f} for "
                "a random ranking.",
                f"At its best threshold for {metric.label} ({b.threshold:.4g}) it flags "
                f"{b.tp + b.fp:,.0f} of {r.n_positives + r.n_negatives:,.0f}, catching {100 * b.recall:.1f} % of "
                f"the positives with precision {100 * b.precision:.1f} %."]
    by = {
        "AUROC (ranking over all thresholds)": max(results, key=lambda r: r.auroc),
        "average precision (the top of the ranking, where positives are rare)":
            max(results, key=lambda r: r.average_precision),
        "AUPRG (expected F1 on the harmonic scale)": max(results, key=lambda r: r.auprg),
    }
    for what, winner in by.items():
        sentences.append(f"By {what}, {winner.name} is best.")
    best_metric = max(results, key=lambda r: next(b for b in r.best if b.metric.spec == metric.spec).value)
    b = next(x for x in best_metric.best if x.metric.spec == metric.spec)
    others = [r for r in results if r is not best_metric]
    runner = max(others, key=lambda r: next(x for x in r.best if x.metric.spec == metric.spec).value)
    rb = next(x for x in runner.best if x.metric.spec == metric.spec)
    sentences.append(
        f"Under {metric.label}, the metric chosen for this report, {best_metric.name} wins: {b.value:.3f} at "
        f"threshold {b.threshold:.4g} (precision {b.precision:.3f}, recall {b.recall:.3f}) against "
        f"{rb.value:.3f} for {runner.name}."
    )
    if len({id(w) for w in by.values()} | {id(best_metric)}) > 1:
        sentences.append(
            "The measures disagree: AUROC weighs every threshold alike, while average precision and the "
            "threshold metric care about the top of the ranking, where the positives the decision keeps are. "
            "Choose by the metric that matches the cost of errors in your setting."
        )
    return sentences


def build_report(
    results: list[BinaryEvaluation],
    *,
    metric: str | Metric | None = None,
    title: str = "isometrics report",
    file_name: str = "",
    label: str = "",
) -> str:
    """Render evaluation results as one self-contained HTML page.

    Parameters
    ----------
    results : list of BinaryEvaluation
        From :func:`isometrics.evaluate_scores` (every scorer on the same labels).
    metric : str or Metric, default=None
        The threshold metric shown; one of the metrics the results were evaluated with
        (default: the first).
    title : str, default="isometrics report"
        Page title.
    file_name, label : str, default=""
        Shown in the header (escaped).

    Returns
    -------
    str
        The HTML page: inline scripts (Plotly, the explorers) and styles, no external
        resource.

    Raises
    ------
    ValueError
        If ``results`` is empty or the metric was not evaluated.
    ImportError
        If plotly or jinja2 is missing.
    """
    jinja2, plotly = _require()
    from importlib.resources import files

    from .. import __version__

    if not results:
        raise IsometricsError("build_report: no results to report.")
    specs = [b.metric.spec for b in results[0].best]
    if not specs:
        raise IsometricsError("build_report: the results have no threshold metric; evaluate with metrics=[...].")
    from ..metrics import parse_metric

    m = results[0].best[0].metric if metric is None else parse_metric(metric)
    if m.spec not in specs:
        raise IsometricsError(f"build_report: metric {m.spec!r} was not evaluated (evaluated: {', '.join(specs)}).")
    rows = []
    for r in results:
        b = next(x for x in r.best if x.metric.spec == m.spec)
        rows.append(dict(name=r.name, auroc=_fmt(r.auroc), ap=_fmt(r.average_precision), auprg=_fmt(r.auprg),
                         threshold=f"{b.threshold:.6g}", value=_fmt(b.value), precision=_fmt(b.precision),
                         recall=_fmt(b.recall)))
    first = results[0]
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(files("isometrics.report") / "templates")),
                             autoescape=True)
    page = env.get_template("report.html.j2").render(
        title=title,
        file_name=file_name,
        label=label,
        pos_label=first.operating_points.pos_label,
        n_samples=f"{first.n_samples:,}",
        weighted=first.n_positives + first.n_negatives != first.n_samples,
        prevalence=first.prevalence,
        metric_label=m.label,
        metric_spec=m.spec,
        rows=rows,
        reading=_reading(results, m),
        panels=_panels(results, m, plotly),
        metric_figure=_metric_figure(results, m, plotly),
        plotly_js=plotly.offline.get_plotlyjs().replace("</script", "<\\/script"),
        explorer_js=(files("isometrics.report") / "static" / "explorer.js").read_text(encoding="utf-8"),
        version=__version__,
    )
    return page


def write_report(path: str | os.PathLike[str], html_text: str) -> Path:
    """Write the page through a temporary file (nothing half-written on failure)."""
    from .._io import write_text_atomic

    return write_text_atomic(path, html_text)
