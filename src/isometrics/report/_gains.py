"""The report's cumulative gains and lift panel: one trace per model in each (references to the
models' shared points, see ``_data``), with the random and perfect-ranking references."""

from __future__ import annotations

from typing import Any

from ..evaluation import BinaryEvaluation
from ._data import _Shared
from ._figures import _figure_json
from ._margins import BOTTOM, PERCENT_LEFT, PERCENT_RIGHT
from ._style import _model_style


def _gains_figure(results: list[BinaryEvaluation], shared: _Shared, models: list[int]) -> str:
    """Cumulative gains (share of positives captured) and lift against the share flagged, drawn from
    the models' shared points (``models[k]``: result ``k``'s number in ``shared``)."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    fig: Any = make_subplots(rows=1, cols=2, subplot_titles=("Cumulative gains", "Lift"), horizontal_spacing=0.08)
    refs: dict[int, dict[str, Any]] = {}
    hover = (
        "flag the top %{x:.2%} (score ≥ %{customdata[0]:.6~g})<br>captures %{customdata[1]:.2%} of the positives"
        "<br>lift %{customdata[2]:.3f}<extra>%{fullData.name}</extra>"
    )
    for k, (r, m_k) in enumerate(zip(results, models)):
        common = dict(mode="lines", hovertemplate=hover, **_model_style(k, r.name))
        refs[len(fig.data)] = dict(
            x=_Shared.col(m_k, "share"), y=_Shared.col(m_k, "tpr"), customdata=_Shared.rows(m_k, ["thr", "tpr", "lift"])
        )
        fig.add_trace(go.Scatter(**common), 1, 1)
        refs[len(fig.data)] = dict(
            x=_Shared.col(m_k, "share", 1),
            y=_Shared.col(m_k, "lift", 1),
            customdata=_Shared.rows(m_k, ["thr", "tpr", "lift"], 1),
        )
        fig.add_trace(go.Scatter(showlegend=False, **common), 1, 2)
    pi = results[0].prevalence
    grey = dict(mode="lines", line=dict(color="#999", width=1), hoverinfo="name", showlegend=False)
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], name="random", **grey), 1, 1)
    fig.add_trace(
        go.Scatter(
            x=[0, pi, 1],
            y=[0, 1, 1],
            name=f"perfect ranking (prevalence {pi:.3g})",
            **{**grey, "line": dict(color="#999", width=1, dash="dot")},
        ),
        1,
        1,
    )
    fig.add_trace(go.Scatter(x=[0, 1], y=[1, 1], name="random (lift 1)", **grey), 1, 2)
    for col, title in ((1, "share of positives captured"), (2, "lift (precision / prevalence)")):
        fig.update_xaxes(
            title_text="share flagged (highest scores first)", range=[-0.01, 1.01], tickformat=".0%", row=1, col=col
        )
        fig.update_yaxes(title_text=title, row=1, col=col)
    fig.update_yaxes(range=[-0.02, 1.02], tickformat=".0%", row=1, col=1)
    fig.update_layout(
        height=400,
        margin=dict(t=40, b=BOTTOM, l=PERCENT_LEFT, r=PERCENT_RIGHT),
        legend=dict(orientation="h", y=-0.25),
    )
    return _figure_json(fig, refs, shared)
