"""One look per model across the report: every panel that draws a model takes its colour,
legend group and (escaped) name from :func:`_model_style`, so a model keeps its colour from
the ROC panel to the metric figures and any panel added later.

A new panel draws model ``k`` (its position in the results, the order the user gave) with
``go.Scatter(..., **_model_style(k, r.name))``, adding to the line or markers with
``_model_style(k, r.name, line=dict(dash="dash"))``, and takes ``_model_color(k)`` where it
needs the bare colour.
"""

from __future__ import annotations

import colorsys
from typing import Any

from ._text import _plotly_text

#: Tableau 10 (matplotlib's default cycle, so the report and the Displays agree for ten models).
_PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
)

#: Colour of what belongs to no model (chance lines, baselines, level curves).
_REFERENCE = "#999"


def _model_color(k: int) -> str:
    """Colour of the k-th model: Tableau 10, then hues spread by the golden angle (never a
    colour already used, so eleven or more models stay distinguishable by colour)."""
    if k < len(_PALETTE):
        return _PALETTE[k]
    hue = ((k - len(_PALETTE)) * 0.381966 + 0.05) % 1.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.42, 0.75)
    return f"#{round(255 * r):02x}{round(255 * g):02x}{round(255 * b):02x}"


def _model_style(
    k: int, name: str, *, line: dict[str, Any] | None = None, marker: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The Scatter keywords every trace of model k shares: its name (escaped for Plotly's
    labels), legend group (one legend entry toggles the model everywhere in a figure) and the
    colour of its line and markers; ``line`` and ``marker`` add to those (``line=dict(dash="dash")``)."""
    color = _model_color(k)
    return dict(
        name=_plotly_text(name),
        legendgroup=f"model-{k}",
        line=dict(color=color, **(line or {})),
        marker=dict(color=color, **(marker or {})),
    )
