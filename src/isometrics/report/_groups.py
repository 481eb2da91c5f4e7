"""The report's section "By group": one table row per group (each model's areas and the chosen
threshold's precision, recall and alert rate, with intervals or the note that replaces them), the
detected differences from the rest as their sentences, and small multiples of the ROC and PR curves
of each group. Every number and sentence is the :class:`isometrics.uncertainty.GroupEvaluation`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..evaluation import BinaryEvaluation
from ..uncertainty import formatting
from ._data import _RESOLUTION, _display_indices
from ._figures import _figure_json
from ._margins import BOTTOM, LEFT
from ._style import _REFERENCE, _model_style
from ._text import _plotly_text

__all__ = ["group_section"]

#: Groups drawn in the small multiples (the table lists every group).
_MAX_PANELS = 24


def group_section(results: Sequence[BinaryEvaluation]) -> dict[str, Any] | None:
    """The template's ``groups`` (see ``templates/_groups.html.j2``), or None when not evaluated by group."""
    grouped = [r for r in results if r.groups is not None]
    if not grouped:
        return None
    first = grouped[0].groups
    assert first is not None
    rows = []
    for name in first.groups:
        for r in grouped:
            ge = r.groups
            assert ge is not None
            row = ge[name]
            cells = formatting.group_cells(row)
            rows.append(
                dict(
                    group=name,
                    model=r.name,
                    n=cells["n"],
                    positives=cells["positives"],
                    cells=[cells[k] for k in formatting.GROUP_KEYS],
                    best=cells["best"],
                    global_threshold=formatting.threshold(ge.threshold),
                    note=row.note or "",
                )
            )
    sentences = [
        f"{r.name}: {d.sentence()}"
        for r in grouped
        for d in r.groups.differences  # type: ignore[union-attr]
        if d.winner is not None
    ]
    n_tests = sum([len(r.groups.differences) for r in grouped if r.groups is not None])
    return dict(
        column=first.column,
        metric=first.metric.label,
        rows=rows,
        sentences=sentences,
        n_tests=n_tests,
        family=first.family(),
        figure=_small_multiples(grouped),
        shown=min(len(first.rows), _MAX_PANELS),
        n_groups=len(first.rows),
    )


def _small_multiples(results: list[BinaryEvaluation]) -> str:
    """ROC (top row) and PR (bottom row) curves of every model in each group, one column per group."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    first = results[0].groups
    assert first is not None
    names = list(first.groups)[:_MAX_PANELS]
    cols = len(names)
    fig = make_subplots(
        rows=2,
        cols=cols,
        subplot_titles=[_plotly_text(n) for n in names] + [""] * cols,
        horizontal_spacing=min(0.04, 0.5 / max(cols, 1)),
        vertical_spacing=0.12,
        shared_yaxes=True,
    )
    for c, name in enumerate(names, start=1):
        for k, r in enumerate(results):
            ge = r.groups
            assert ge is not None
            row = ge[name]
            op = row.operating_points
            if op is None or not row.best:
                continue
            roc, pr = op.roc_curve(), op.precision_recall_curve()
            precision = np.nan_to_num(pr.precision, nan=1.0)
            idx = _thinned(roc.fpr, roc.tpr, row.best[0].index)
            keep = _thinned(pr.recall, precision, row.best[0].index)
            show = c == 1
            fig.add_trace(
                go.Scatter(
                    x=roc.fpr[idx].tolist(),
                    y=roc.tpr[idx].tolist(),
                    mode="lines",
                    showlegend=show,
                    **_model_style(k, r.name),
                ),
                row=1,
                col=c,
            )
            fig.add_trace(
                go.Scatter(
                    x=pr.recall[keep].tolist(),
                    y=precision[keep].tolist(),
                    mode="lines",
                    showlegend=False,
                    **_model_style(k, r.name),
                ),
                row=2,
                col=c,
            )
            cut = op.at_threshold(ge.threshold)
            if cut.flagged > 0:
                fig.add_trace(
                    go.Scatter(
                        x=[cut.recall],
                        y=[cut.precision],
                        mode="markers",
                        showlegend=False,
                        hovertext=[_plotly_text(f"{r.name}, {name}: global threshold {ge.threshold:.4g}")],
                        **_model_style(k, r.name, marker=dict(size=7)),
                    ),
                    row=2,
                    col=c,
                )
        fig.add_trace(
            go.Scatter(
                x=[0, 1], y=[0, 1], mode="lines", showlegend=False, line=dict(color=_REFERENCE, dash="dot", width=1)
            ),
            row=1,
            col=c,
        )
        fig.update_xaxes(range=[0, 1], row=1, col=c, title_text="FPR" if c == 1 else None)
        fig.update_xaxes(range=[0, 1], row=2, col=c, title_text="recall" if c == 1 else None)
        fig.update_yaxes(range=[0, 1.02], row=1, col=c)
        fig.update_yaxes(range=[0, 1.02], row=2, col=c)
    fig.update_yaxes(title_text="TPR", row=1, col=1)
    fig.update_yaxes(title_text="precision", row=2, col=1)
    fig.update_layout(
        height=460,
        margin=dict(l=LEFT, r=17, t=40, b=BOTTOM),
        template="plotly_white",
        legend=dict(orientation="h", y=-0.12),
    )
    return _figure_json(fig)


def _thinned(x: np.ndarray, y: np.ndarray, best: int) -> np.ndarray:
    """Indices of a small multiple's curve to draw: within 1/_RESOLUTION of the exact curve on each
    axis, the best point kept (the report's panels thin the same way, see ``_data.py``)."""
    forced = np.zeros(len(x), dtype=bool)
    if 0 <= best < len(x):
        forced[best] = True
    return _display_indices(np.vstack([x, y]), forced, 1.0 / _RESOLUTION)
