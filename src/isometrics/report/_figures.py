"""The report's Plotly figures: the ROC, PR and PRG panels and the metric-against-threshold
figures, as JSON for the page. The models' curves are references into the page's shared data
(``_data``: each model's points thinned to display resolution, hull vertices and best points
kept, stored once); hulls, best points, baselines and level curves are inline.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..evaluation import BinaryEvaluation
from ..metrics.gain import gain_transform
from ..metrics.registry import Metric
from ..spaces.level_curves import level_curve
from ._data import _Shared, _simplify
from ._margins import BOTTOM, LEFT, left_for, quiet_axes, tick_labels
from ._style import _REFERENCE, _model_style
from ._text import _bests, _plotly_text, _script_json

#: Diameter (px) of the markers of the best points.
_BEST_SIZE = 9

#: The panels' PRG frame: the models' region, padded by this share of its side, at least this wide.
_FRAME_PAD, _FRAME_MIN = 0.08, 0.1


# ---------------------------------------------------------------------------- figures
def _figure_json(
    fig: Any, refs: dict[int, dict[str, Any]] | None = None, shared: _Shared | None = None, **extra: Any
) -> str:
    """``{"figure": ..., **extra}`` as JSON safe inside a script data block; ``refs`` replaces, in
    trace ``i``, each named attribute by a reference into the page's shared data (see ``_data``),
    and with ``shared`` the layout's template is stored there once, the layout naming it. The axes
    skip Plotly's tick label overflow check (``_margins.quiet_axes``)."""
    spec = json.loads(fig.to_json())
    for i, patch in (refs or {}).items():
        spec["data"][i].update(patch)
    quiet_axes(spec["layout"])
    if shared is not None:
        spec["layout"]["template"] = shared.template(spec["layout"]["template"])
    text = json.dumps(spec)
    body = ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in extra.items())
    return _script_json('{"figure": ' + text + (", " + body if body else "") + "}")


#: Hover columns of the panels' curves (the metrics' values follow), in the order of the hover template.
_HOVER = ["thr", "flagged", "share", "fpr", "tpr", "precision", "pg", "rg"]


def _gain_of(x: float, pi: float) -> float:
    """Precision or recall gain of a precision or recall ``x`` > 0 at prevalence ``pi``."""
    return float(gain_transform(np.array([x]), pi)[0])


def _prg_frame(shared: _Shared, models: list[int], metrics: list[Metric], pi: float) -> list[list[float]] | None:
    """The PRG panel's frame of the models' region, ``[[x0, x1], [y0, y1]]``, or None when it is about the
    whole square. Horizontally from the recall gain of recall 0.1 (or of a best point, if lower) to 1;
    vertically the precision gains of the curves' kept points inside that strip, padded."""
    xs, ys = [], []
    low = _gain_of(0.1, pi) if pi < 0.1 else 0.0
    for k in models:
        p = shared.points[k]
        op, idx = p.op, p.idx
        for spec in p.best:
            b = idx[p.best[spec]]
            if op.tp[b] > 0:
                low = min(low, _gain_of(op.tp[b] / op.n_positives, pi))
        tp, fp = op.tp[idx], op.fp[idx]
        seen = tp > 0
        rg = gain_transform(tp[seen] / op.n_positives, pi)
        pg = gain_transform(tp[seen] / (tp[seen] + fp[seen]), pi)
        inside = (rg >= max(low, 0.0)) & (pg >= 0)
        xs.append(rg[inside])
        ys.append(pg[inside])
    x0 = max(low, 0.0)
    if x0 < 0.2 or not any(len(y) for y in ys):
        return None
    y = np.concatenate(ys)
    y0, y1 = float(y.min()), float(y.max())
    if y1 - y0 < _FRAME_MIN:
        y0, y1 = max(0.0, y1 - _FRAME_MIN), min(1.0, y0 + _FRAME_MIN)
    pad_x, pad_y = _FRAME_PAD * (1 - x0), _FRAME_PAD * (y1 - y0)
    return [[x0 - pad_x, 1 + pad_x], [max(-0.02, y0 - pad_y), min(1.02, y1 + pad_y)]]


def _prg_caption(pi: float) -> str:
    """Why PRG curves crowd near 1 when positives are rare, with this prevalence's numbers."""
    examples = [x for x in (0.1, 0.25, 0.5) if x > 2 * pi]
    said = ", ".join(f"{x:g} gains {_gain_of(x, pi):.2f}" for x in examples)
    return (
        "Precision and recall gains measure precision and recall against the classifier that flags "
        f"everything, whose precision is the prevalence ({pi:.3g}): a gain is (x - prevalence) / ((1 - "
        "prevalence) x), 0 at the prevalence and 1 at 1. When positives are rare, almost every useful "
        "precision or recall is many times the prevalence, so its gain is close to 1"
        + (f" (here a precision or recall of {said})" if said else "")
        + ": the curves crowd against the top and right edges. The panel opens framed on the region "
        "where the models lie; the button above it shows the full square."
    )


def _panels(results: list[BinaryEvaluation], metrics: list[Metric], shared: _Shared, models: list[int]) -> str:
    """ROC, PR and PRG panels, drawn from the models' shared points (``models[k]``: result ``k``'s number
    in ``shared``); the level curves and best points of each metric form a group that the page shows
    one at a time. At low prevalence the PRG panel opens framed on the models' region, with buttons
    for the region and the full square."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig = make_subplots(
        rows=1, cols=3, subplot_titles=("ROC", "Precision-recall", "Precision-recall-gain"), horizontal_spacing=0.07
    )
    groups: list[list[int]] = [[] for _ in metrics]
    refs: dict[int, dict[str, Any]] = {}
    pi = results[0].prevalence

    def add(trace: Any, col: int, group: int | None = None, ref: dict[str, Any] | None = None) -> None:
        if group is not None:
            groups[group].append(len(fig.data))
            trace.visible = group == 0
        if ref is not None:
            refs[len(fig.data)] = ref
        fig.add_trace(trace, 1, col)

    lines = "".join(f"<br>{_plotly_text(m.label)} %{{customdata[{8 + j}]:.4f}}" for j, m in enumerate(metrics))
    hover = (
        "threshold %{customdata[0]:.4~g}<br>flags %{customdata[1]:,.6~g} (%{customdata[2]:.2%})"
        "<br>false positive rate %{customdata[3]:.4f}<br>recall (true positive rate) %{customdata[4]:.4f}"
        "<br>precision %{customdata[5]:.4f}<br>precision gain %{customdata[6]:.4f}"
        "<br>recall gain %{customdata[7]:.4f}" + lines + "<extra>%{fullData.name}</extra>"
    )
    columns = _HOVER + [f"metric:{m.spec}" for m in metrics]
    for k, (r, m_k) in enumerate(zip(results, models)):
        op = r.operating_points
        p = shared.points[m_k]
        bests = _bests(r, metrics)
        hull = op.roc_convex_hull()
        common = dict(mode="lines", hovertemplate=hover, **_model_style(k, r.name))
        add(
            go.Scatter(**common),
            1,
            ref=dict(x=_Shared.col(m_k, "fpr"), y=_Shared.col(m_k, "tpr"), customdata=_Shared.rows(m_k, columns)),
        )
        add(
            go.Scatter(showlegend=False, line_shape="vh", **common),
            2,
            ref=dict(
                x=_Shared.col(m_k, "tpr", 1),
                y=_Shared.col(m_k, "precision", 1),
                customdata=_Shared.rows(m_k, columns, 1),
            ),
        )
        add(
            go.Scatter(showlegend=False, **common),
            3,
            ref=dict(
                x=_Shared.col(m_k, "rg", p.prg_from),
                y=_Shared.col(m_k, "pg", p.prg_from),
                customdata=_Shared.rows(m_k, columns, p.prg_from),
            ),
        )
        dash = dict(
            mode="lines", showlegend=False, hoverinfo="skip", **_model_style(k, r.name, line=dict(dash="dash", width=1))
        )
        add(go.Scatter(x=hull.fpr, y=hull.tpr, **dash), 1)
        achievable = op.achievable_pr_curve()
        add(go.Scatter(x=achievable.recall[1:], y=achievable.precision[1:], **dash), 2)
        prg_hull = op.prg_convex_hull()
        add(go.Scatter(x=prg_hull.recall_gain, y=prg_hull.precision_gain, **dash), 3)
        for j, (m, best) in enumerate(zip(metrics, bests)):
            marker = dict(
                mode="markers",
                showlegend=False,
                **_model_style(k, r.name, marker=dict(size=_BEST_SIZE)),
                hovertemplate=f"best {_plotly_text(m.label)} {best.value:.4f} at threshold "
                f"{best.threshold:.4g}<extra>%{{fullData.name}}</extra>",
            )
            add(go.Scatter(x=[best.fp / op.n_negatives], y=[best.recall], **marker), 1, j)
            add(go.Scatter(x=[best.recall], y=[best.precision], **marker), 2, j)
            if best.tp > 0:
                gains = gain_transform(np.array([best.recall, best.precision]), pi)
                add(go.Scatter(x=gains[:1], y=gains[1:], **marker), 3, j)
    grey = dict(mode="lines", line=dict(color=_REFERENCE, width=1), hoverinfo="name", showlegend=False)
    add(go.Scatter(x=[0, 1], y=[0, 1], name="chance", **grey), 1)
    add(go.Scatter(x=[0, 1], y=[pi, pi], name=f"prevalence {pi:.3g}", **grey), 2)
    add(go.Scatter(x=[0, 1], y=[1, 0], name="F1 of always-positive", **grey), 3)
    dotted = dict(mode="lines", line=dict(color="#bbb", width=1, dash="dot"), hoverinfo="text", showlegend=False)
    tol = 1.0 / shared.resolution
    for j, m in enumerate(metrics):
        if m._pr is None:
            continue
        for col, space in ((1, "roc"), (2, "pr"), (3, "prg")):  # one trace per panel: the levels apart by gaps
            xs: list[Any] = []
            ys: list[Any] = []
            texts: list[str] = []
            for value in (0.2, 0.4, 0.6, 0.8):
                curve = level_curve(m, value, space=space, prevalence=pi)
                keep = _simplify(curve.x, curve.y, tol)
                xs += [*curve.x[keep].tolist(), None]
                ys += [*curve.y[keep].tolist(), None]
                texts += [f"{_plotly_text(m.label)} = {value}"] * (len(keep) + 1)
            add(go.Scatter(x=xs, y=ys, text=texts, name=f"{_plotly_text(m.label)} level curves", **dotted), col, j)
    for col, (xt, yt) in enumerate(
        (("false positive rate", "true positive rate"), ("recall", "precision"), ("recall gain", "precision gain")),
        start=1,
    ):
        fig.update_xaxes(title_text=xt, range=[-0.02, 1.02], row=1, col=col)
        fig.update_yaxes(title_text=yt, range=[-0.02, 1.02], row=1, col=col)
    frame = _prg_frame(shared, models, metrics, pi)
    fig.update_layout(height=480, margin=dict(t=40, b=BOTTOM, l=LEFT, r=10), legend=dict(orientation="h", y=-0.2))
    if frame is not None:
        square = [-0.02, 1.02]
        fig.update_xaxes(range=frame[0], row=1, col=3)
        fig.update_yaxes(range=frame[1], row=1, col=3)
        fig.update_layout(
            margin=dict(t=70),
            updatemenus=[
                dict(
                    type="buttons",
                    direction="right",
                    x=1.0,
                    xanchor="right",
                    y=1.16,
                    yanchor="bottom",
                    showactive=True,
                    active=0,
                    pad=dict(r=2, t=2),
                    font=dict(size=11),
                    buttons=[
                        dict(
                            label="PRG: models' region",
                            method="relayout",
                            args=[{"xaxis3.range": frame[0], "yaxis3.range": frame[1]}],
                        ),
                        dict(
                            label="PRG: full square",
                            method="relayout",
                            args=[{"xaxis3.range": square, "yaxis3.range": square}],
                        ),
                    ],
                )
            ],
        )
    return _figure_json(fig, refs, shared, groups=groups, prg_frame=frame)


def _metric_figure(
    results: list[BinaryEvaluation], metric: Metric, weighted: bool, shared: _Shared, models: list[int]
) -> tuple[str, bool]:
    """The metric against the share of samples flagged positive, as the step function it is.

    Operating point ``i`` flags the share ``q_i`` (thresholds decreasing, shares
    increasing). The trace joins ``(q_i, value_i)`` with ``line_shape="hv"``: the value
    holds from ``q_i`` until the next threshold flags more, i.e. at share ``x`` the drawn
    value is that of the last operating point flagging at most ``x`` (flagging the top
    ``x``, a tie group at the cut left out). No sloped segment: nothing is drawn that no
    threshold achieves. The points are the models' shared points (``models[k]``: result
    ``k``'s number in ``shared``), thinned to display resolution. Returns the JSON and
    whether any model was thinned.
    """
    import plotly.graph_objects as go

    fig = go.Figure()
    refs: dict[int, dict[str, Any]] = {}
    thinned = False
    label = _plotly_text(metric.label)
    for k, (r, m_k) in enumerate(zip(results, models)):
        op = r.operating_points
        p = shared.points[m_k]
        total = op.n_positives + op.n_negatives
        best = _bests(r, [metric])[0]
        thinned |= len(p.idx) < op.n_points
        refs[len(fig.data)] = dict(
            x=_Shared.col(m_k, "share"),
            y=_Shared.col(m_k, f"metric:{metric.spec}"),
            customdata=_Shared.rows(m_k, ["thr", "flagged", "precision", "tpr"]),
        )
        fig.add_trace(
            go.Scatter(
                mode="lines",
                **_model_style(k, r.name, line=dict(shape="hv")),
                meta=dict(model=k, role="steps"),
                hovertemplate="predict positive when score ≥ %{customdata[0]:.6~g}<br>flags %{x:.2%} "
                "(%{customdata[1]:,.6~g})<br>precision %{customdata[2]:.4f}<br>recall %{customdata[3]:.4f}"
                "<br>" + label + " %{y:.4f}<extra>%{fullData.name}</extra>",
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[(best.tp + best.fp) / total],
                y=[best.value],
                mode="markers",
                showlegend=False,
                **_model_style(k, r.name, marker=dict(size=_BEST_SIZE)),
                meta=dict(model=k, role="best"),
                hovertemplate=f"best {label} {best.value:.4f} at threshold {best.threshold:.6g}<br>"
                "flags %{x:.2%}<extra>%{fullData.name}</extra>",
            )
        )
    flagged_title = "share of " + ("weight" if weighted else "samples") + " flagged positive"
    drawn = np.concatenate([shared.points[m_k].metric_values[metric.spec][shared.points[m_k].idx] for m_k in models])
    drawn = drawn[np.isfinite(drawn)]
    lo, hi = (float(drawn.min()), float(drawn.max())) if drawn.size else (0.0, 1.0)
    marked = [b.value for r in results for b in _bests(r, [metric])]

    def marker_at(end: float) -> float:  # a best point's marker at that end of the values: Plotly pads for it
        return _BEST_SIZE if any(abs(v - end) <= 1e-9 * max(1.0, abs(end)) for v in marked) else 0.0

    height, top = 380, 20
    labels = tick_labels(lo, hi, height - top - BOTTOM, marker_low=marker_at(lo), marker_high=marker_at(hi))
    fig.update_layout(
        height=height,
        margin=dict(t=top, b=BOTTOM, l=left_for(labels), r=10),
        hovermode="closest",
        xaxis=dict(
            title=dict(text=flagged_title + " (lowering the threshold moves right)"),
            range=[-0.01, 1.01],
            tickformat=".0%",
        ),
        yaxis=dict(title=dict(text=label)),
    )
    return _figure_json(fig, refs, shared), thinned
