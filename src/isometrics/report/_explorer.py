"""Where the report's level-curve explorers open: at the chosen metric's beta and rho (and the
gamma of each weighted mean with that beta), with each model's precision-recall curve (a
reference into the page's shared data, see ``_data``) and best point for that metric.

A weighted power mean ``W(gamma, phi)`` of precision and recall is ``G(beta, rho)`` with
``rho = phi - 1`` and ``gamma = beta ** rho`` (``rho = 0``: the stipulated arithmetic mean,
``gamma = beta``); F-beta is ``rho = -2``. A metric that is no such mean (precision, costs,
MCC...) leaves the explorers at F1, and the page says so.
"""

from __future__ import annotations

import json
import math
from typing import Any

from ..evaluation import BinaryEvaluation
from ..metrics.registry import Metric
from ._data import _Shared
from ._style import _model_color
from ._text import _bests, _plotly_text, _script_json

#: Each slider's default range and step: (min, max, step).
_BETA, _RHO, _GAMMA = (0.25, 4.0, 0.25), (-8.0, 8.0, 1.0), (0.125, 8.0, 0.125)

#: Each explorer's mean: its exponent rho in G(beta, rho).
_MEANS = {"arithmetic": 0.0, "geometric": -1.0, "harmonic": -2.0}


def _beta_rho(metric: Metric) -> tuple[float, float] | None:
    """The metric as G(beta, rho), or None when it is not a weighted power mean with finite parameters."""
    if (
        metric.phi is None
        or metric.log_gamma is None
        or not (math.isfinite(metric.phi) and math.isfinite(metric.log_gamma))
    ):
        return None
    rho = metric.phi - 1.0
    beta = math.exp(metric.log_gamma if rho == 0 else metric.log_gamma / rho)
    return (beta, rho) if math.isfinite(beta) and beta > 0 else None


def _slider(value: float, default: tuple[float, float, float]) -> dict[str, Any]:
    """A slider's attributes opening at ``value``: the default range and step, widened to reach it and
    with a free step when the value is off the step grid."""
    low, high, step = default
    value = float(f"{value:.6g}")
    on_grid = abs(value / step - round(value / step)) < 1e-9
    return dict(
        value=f"{value:g}",
        min=f"{min(low, value):g}",
        max=f"{max(high, value):g}",
        step=f"{step:g}" if on_grid else "any",
    )


def _explorer_start(
    results: list[BinaryEvaluation], metrics: list[Metric], shared: _Shared, models: list[int]
) -> dict[str, Any]:
    """The explorers' opening sliders and overlays for the template: ``g`` (beta and rho sliders),
    ``means`` (each mean's gamma slider), ``metric`` (the label they open at), ``note`` (why
    they open at F1, if they do) and ``data`` (the overlays' JSON: each model's curve and best point)."""
    chosen = next((m for m in metrics if _beta_rho(m) is not None), None)
    beta, rho = (1.0, -2.0) if chosen is None else _beta_rho(chosen)  # type: ignore[misc]
    note = (
        ""
        if chosen is metrics[0]
        else (
            f"{metrics[0].label} is not a weighted mean of precision and recall; the explorers open at "
            + (f"{chosen.label}, the first chosen metric that is." if chosen is not None else "F1.")
        )
    )
    overlays = []
    for k, (r, m_k) in enumerate(zip(results, models)):
        entry: dict[str, Any] = {
            "name": _plotly_text(r.name),
            "color": _model_color(k),
            "recall": _Shared.col(m_k, "tpr", 1),
            "precision": _Shared.col(m_k, "precision", 1),
        }
        if chosen is not None:
            b = _bests(r, [chosen])[0]
            entry["best"] = {
                "recall": b.recall,
                "precision": b.precision,
                "value": b.value,
                "label": _plotly_text(chosen.label),
            }
        overlays.append(entry)
    means = {name: _slider(beta if r_mean == 0 else beta**r_mean, _GAMMA) for name, r_mean in _MEANS.items()}
    return dict(
        g=dict(beta=_slider(beta, _BETA), rho=_slider(rho, _RHO)),
        means=means,
        metric="F1" if chosen is None else chosen.label,
        note=note,
        data=_script_json(json.dumps({"models": overlays})),
    )
