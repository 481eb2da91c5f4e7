"""The report's Plotly figures: the ROC, PR and PRG panels and the metric-against-threshold
figures, thinned to a bounded number of points (hull vertices, best points and each
stretch's extremes kept), as JSON for the page.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..evaluation import BinaryEvaluation
from ..metrics.gain import _gain
from ..metrics.registry import Metric
from ..spaces.level_curves import level_curve
from ._style import _REFERENCE, _model_style
from ._text import _bests, _plotly_text, _script_json

#: Points per curve in the ROC/PR/PRG panels before thinning (hull vertices and best points kept).
_MAX_POINTS = 2000

#: Steps per model in the metric figures drawn exactly; above, each stretch keeps its extremes.
_MAX_STEPS = 10_000


# ---------------------------------------------------------------------------- figures
def _thin(n: int, keep: Sequence[int]) -> np.ndarray:
    """At most ~_MAX_POINTS evenly spaced indices of n, plus the ones to keep."""
    if n <= _MAX_POINTS:
        return np.arange(n)
    return np.union1d(np.linspace(0, n - 1, _MAX_POINTS).astype(int), np.asarray(keep, dtype=int))


def _index(op: Any, best: Any) -> int:
    """The index of a best point in ``op``: its own when ``op`` is the full table, else found by its
    threshold (``op`` a display subset, see ``evaluate_scores(keep_operating_points=False)``)."""
    if best.index < op.n_points and op.thresholds[best.index] == best.threshold:
        return int(best.index)
    return int(np.searchsorted(-op.thresholds, -best.threshold))


def _thin_steps(values: np.ndarray, keep: int) -> np.ndarray:
    """Indices of a step function to draw: all of them up to _MAX_STEPS, else for each of
    _MAX_STEPS / 3 stretches its first, lowest and highest point (and ``keep`` and the last)."""
    n = len(values)
    if n <= _MAX_STEPS:
        return np.arange(n)
    edges = np.linspace(0, n, _MAX_STEPS // 3 + 1).astype(int)
    finite = np.where(np.isnan(values), -np.inf, values)
    lowest = np.where(np.isnan(values), np.inf, values)
    picks = [edges[:-1], [keep, n - 1]]
    for start, stop in zip(edges[:-1], edges[1:]):
        picks.append([start + int(np.argmax(finite[start:stop])), start + int(np.argmin(lowest[start:stop]))])
    return np.unique(np.concatenate([np.asarray(p, dtype=int) for p in picks]))


def _figure_json(fig: Any, **extra: Any) -> str:
    """``{"figure": ..., **extra}`` as JSON safe inside a script data block."""
    body = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in extra.items())
    return _script_json('{"figure": ' + fig.to_json() + (", " + body if body else "") + "}")


def _panels(results: list[BinaryEvaluation], metrics: list[Metric]) -> str:
    """ROC, PR and PRG panels; the level curves and best points of each metric form a group
    that the page shows one at a time."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=3, subplot_titles=("ROC", "Precision-recall", "Precision-recall-gain"),
                        horizontal_spacing=0.07)
    groups: list[list[int]] = [[] for _ in metrics]
    pi = results[0].prevalence

    def add(trace: Any, col: int, group: int | None = None) -> None:
        if group is not None:
            groups[group].append(len(fig.data))
            trace.visible = group == 0
        fig.add_trace(trace, 1, col)

    lines = "".join(f"<br>{_plotly_text(m.label)} %{{customdata[{8 + j}]:.4f}}" for j, m in enumerate(metrics))
    hover = ("threshold %{customdata[0]:.4~g}<br>flags %{customdata[1]:,.6~g} (%{customdata[2]:.2%})"
             "<br>false positive rate %{customdata[3]:.4f}<br>recall (true positive rate) %{customdata[4]:.4f}"
             "<br>precision %{customdata[5]:.4f}<br>precision gain %{customdata[6]:.4f}"
             "<br>recall gain %{customdata[7]:.4f}" + lines + "<extra>%{fullData.name}</extra>")
    for k, r in enumerate(results):
        op = r.operating_points
        bests = _bests(r, metrics)
        fpr, tpr, thr = op.roc_curve()
        precision, recall, _ = op.precision_recall_curve()
        pg, rg, _ = op.prg_curve()
        hull = op.roc_convex_hull()
        idx = _thin(op.n_points, list(hull.indices) + [_index(op, b) for b in bests])
        flagged = op.tp + op.fp
        custom = np.column_stack([thr[idx], flagged[idx], flagged[idx] / (op.n_positives + op.n_negatives), fpr[idx],
                                  recall[idx], precision[idx], pg[idx], rg[idx]]
                                 + [op.metric_curve(m).values[idx] for m in metrics]).astype(np.float32)  # hover only
        common = dict(mode="lines", customdata=custom, hovertemplate=hover, **_model_style(k, r.name))
        add(go.Scatter(x=fpr[idx], y=tpr[idx], **common), 1)
        add(go.Scatter(x=recall[idx][1:], y=precision[idx][1:], showlegend=False, line_shape="vh",
                       **{**common, "customdata": custom[1:]}), 2)
        ok = rg[idx] > -0.05
        add(go.Scatter(x=rg[idx][ok], y=pg[idx][ok], showlegend=False, **{**common, "customdata": custom[ok]}), 3)
        dash = dict(mode="lines", showlegend=False, hoverinfo="skip",
                    **_model_style(k, r.name, line=dict(dash="dash", width=1)))
        add(go.Scatter(x=hull.fpr, y=hull.tpr, **dash), 1)
        achievable = op.achievable_pr_curve()
        add(go.Scatter(x=achievable.recall[1:], y=achievable.precision[1:], **dash), 2)
        prg_hull = op.prg_convex_hull()
        add(go.Scatter(x=prg_hull.recall_gain, y=prg_hull.precision_gain, **dash), 3)
        for j, (m, best) in enumerate(zip(metrics, bests)):
            marker = dict(mode="markers", showlegend=False, **_model_style(k, r.name, marker=dict(size=9)),
                          hovertemplate=f"best {_plotly_text(m.label)} {best.value:.4f} at threshold "
                                                   f"{best.threshold:.4g}<extra>%{{fullData.name}}</extra>")
            add(go.Scatter(x=[best.fp / op.n_negatives], y=[best.recall], **marker), 1, j)
            add(go.Scatter(x=[best.recall], y=[best.precision], **marker), 2, j)
            if best.tp > 0:
                gains = _gain(np.array([best.recall, best.precision]), pi)
                add(go.Scatter(x=gains[:1], y=gains[1:], **marker), 3, j)
    grey = dict(mode="lines", line=dict(color=_REFERENCE, width=1), hoverinfo="name", showlegend=False)
    add(go.Scatter(x=[0, 1], y=[0, 1], name="chance", **grey), 1)
    add(go.Scatter(x=[0, 1], y=[pi, pi], name=f"prevalence {pi:.3g}", **grey), 2)
    add(go.Scatter(x=[0, 1], y=[1, 0], name="F1 of always-positive", **grey), 3)
    dotted = dict(mode="lines", line=dict(color="#bbb", width=1, dash="dot"), hoverinfo="name", showlegend=False)
    for j, m in enumerate(metrics):
        if m._pr is None:
            continue
        for value in (0.2, 0.4, 0.6, 0.8):
            for col, space in ((1, "roc"), (2, "pr"), (3, "prg")):
                curve = level_curve(m, value, space=space, prevalence=pi)
                add(go.Scatter(x=curve.x, y=curve.y, name=f"{_plotly_text(m.label)} = {value}", **dotted), col, j)
    for col, (xt, yt) in enumerate((("false positive rate", "true positive rate"), ("recall", "precision"),
                                    ("recall gain", "precision gain")), start=1):
        fig.update_xaxes(title_text=xt, range=[-0.02, 1.02], row=1, col=col)
        fig.update_yaxes(title_text=yt, range=[-0.02, 1.02], row=1, col=col)
    fig.update_layout(height=480, margin=dict(t=40, b=40, l=50, r=10), legend=dict(orientation="h", y=-0.2))
    return _figure_json(fig, groups=groups)


def _metric_figure(results: list[BinaryEvaluation], metric: Metric, weighted: bool) -> tuple[str, bool]:
    """The metric against the share of samples flagged positive, as the step function it is.

    Operating point ``i`` flags the share ``q_i`` (thresholds decreasing, shares
    increasing). The trace joins ``(q_i, value_i)`` with ``line_shape="hv"``: the value
    holds from ``q_i`` until the next threshold flags more, i.e. at share ``x`` the drawn
    value is that of the last operating point flagging at most ``x`` (flagging the top
    ``x``, a tie group at the cut left out). No sloped segment: nothing is drawn that no
    threshold achieves. Returns the JSON and whether any model was thinned.
    """
    import plotly.graph_objects as go

    fig = go.Figure()
    thinned = False
    label = _plotly_text(metric.label)
    for k, r in enumerate(results):
        op = r.operating_points
        total = op.n_positives + op.n_negatives
        flagged = op.tp + op.fp
        share = flagged / total
        values = np.asarray(op.metric_curve(metric).values, dtype=np.float64)
        best = _bests(r, [metric])[0]
        idx = _thin_steps(values, _index(op, best))
        thinned |= len(idx) < len(values)
        precision, recall, _ = op.precision_recall_curve()
        custom = np.column_stack([op.thresholds[idx], flagged[idx], precision[idx], recall[idx]])
        fig.add_trace(go.Scatter(
            x=share[idx], y=values[idx], mode="lines", **_model_style(k, r.name, line=dict(shape="hv")),
            customdata=custom, meta=dict(model=k, role="steps"),
            hovertemplate="predict positive when score ≥ %{customdata[0]:.6~g}<br>flags %{x:.2%} "
                          "(%{customdata[1]:,.6~g})<br>precision %{customdata[2]:.4f}<br>recall %{customdata[3]:.4f}"
                          "<br>" + label + " %{y:.4f}<extra>%{fullData.name}</extra>",
        ))
        fig.add_trace(go.Scatter(
            x=[share[_index(op, best)]], y=[best.value], mode="markers", showlegend=False,
            **_model_style(k, r.name, marker=dict(size=9)), meta=dict(model=k, role="best"),
            hovertemplate=f"best {label} {best.value:.4f} at threshold {best.threshold:.6g}<br>"
                          "flags %{x:.2%}<extra>%{fullData.name}</extra>",
        ))
    flagged_title = "share of " + ("weight" if weighted else "samples") + " flagged positive"
    fig.update_layout(height=380, margin=dict(t=20, b=40, l=50, r=10), hovermode="closest",
                      xaxis=dict(title=dict(text=flagged_title + " (lowering the threshold moves right)"),
                                 range=[-0.01, 1.01], tickformat=".0%"),
                      yaxis=dict(title=dict(text=label)))
    return _figure_json(fig), thinned
