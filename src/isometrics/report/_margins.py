"""Margins that hold the figures' tick labels and axis titles, sized here so that Plotly draws each
figure once.

Plotly's automargin (on for every axis of plotly.py's templates) measures the labels after drawing
and, when they do not fit the margins given, grows the margins and draws the whole figure again
(its defaults, axes, traces and labels): with the margins plotly.py figures usually carry (50 px
left, 40 below), every figure of the report was drawn twice. These margins already hold the labels
in Plotly's default 12 px font at the widths of the wide fonts it asks for (Verdana, DejaVu Sans),
so the first drawing is the last; automargin stays on, so a label wider than planned (an unusual
font, a user's long category name) still gets its room, at the cost of that second drawing. A
legend or buttons outside the plot push their own margin before anything is drawn, so a margin is
sized for the axes only.

:func:`quiet_axes` also turns off Plotly's check of every tick label against the figure's edge
(``ticklabeloverflow``: it measures each label after every drawing): with automargin on, no label
of these figures crosses the edge, and the check only costs.
"""

from __future__ import annotations

import math
from typing import Any

#: Left margin (px) for the tick labels of a [0, 1] axis ("0.8") and the title beside them.
LEFT = 54

#: Bottom margin (px) for the x tick labels and the title below them.
BOTTOM = 53

#: Left and right margins (px) of a figure whose y tick labels are percentages ("100%"), its last x
#: tick label "100%" centred near the plot's right edge (1 % of the range inside it: the narrower the
#: window, the more of the label sticks out; 26 holds it in a 700 px window).
PERCENT_LEFT, PERCENT_RIGHT = 69, 26

#: Width (px) of a tick label's characters in the default 12 px font: digits and letters, the decimal
#: point, Plotly's minus sign (U+2212). The labels of LEFT ("0.8") are 3.
_CHAR_PX, _POINT_PX, _MINUS_PX = 7.7, 3.9, 10.1


def _label_px(text: str) -> float:
    return sum(_POINT_PX if c == "." else _MINUS_PX if c == "-" else _CHAR_PX for c in text)


def tick_labels(lo: float, hi: float, length: float, *, marker_low: float = 0.0, marker_high: float = 0.0) -> list[str]:
    """The tick labels Plotly writes on a linear axis auto-ranged over data from ``lo`` to ``hi``,
    ``length`` px long, a marker of ``marker_low`` or ``marker_high`` px diameter drawn at either end
    (0: none), with ASCII ``-`` for Plotly's minus sign.

    Plotly pads the data's ends by 5 % of the axis's length, more by a marker's diameter / 1.6 at an
    end where one is drawn; aims at one tick per 40 px of a y axis (4 to 9 intervals, plus one);
    rounds the step up to 2, 5 or 10 times a power of ten and writes each tick with the step's
    decimals, trailing zeros dropped. Values of 10,000 or more (written with SI suffixes) and steps
    below 1e-6 are left out: an empty list.
    """
    if not (math.isfinite(lo) and math.isfinite(hi) and length > 0):
        return []
    if hi <= lo:
        lo, hi = lo - 1.0, hi + 1.0
    pad_low, pad_high = (0.05 * length + marker / 1.6 for marker in (marker_low, marker_high))
    span = (hi - lo) / max(1.0 - (pad_low + pad_high) / length, 0.1)
    lo, hi = lo - pad_low / length * span, hi + pad_high / length * span
    rough = (hi - lo) / (min(max(length / 40.0, 4.0), 9.0) + 1.0)
    power = 10.0 ** math.floor(math.log10(rough))
    step = power * next(m for m in (2.0, 5.0, 10.0) if m >= rough / power * (1 - 1e-9))
    if max(abs(lo), abs(hi)) >= 1e4 or step < 1e-6:
        return []
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    first, last = math.ceil(lo / step - 1e-9), math.floor(hi / step + 1e-9)
    labels = [f"{k * step:.{decimals}f}" for k in range(first, last + 1)]
    return [t.rstrip("0").rstrip(".") if "." in t else t for t in labels]


def left_for(labels: list[str]) -> int:
    """The left margin (px) for a y axis's tick ``labels`` (see :func:`tick_labels`; none: as wide as
    "-0.25") and its title: :data:`LEFT`, widened by what the widest label adds to "0.8"."""
    widest = max((_label_px(t) for t in labels), default=_label_px("-0.25"))
    return LEFT + max(0, math.ceil(widest - _label_px("0.8")))


def quiet_axes(layout: dict[str, Any]) -> None:
    """Turn off, in a figure's layout (plotly.py's JSON), the check of every tick label against the
    figure's edge for all its x and y axes (through its template, which every axis reads)."""
    template = layout.setdefault("template", {}).setdefault("layout", {})
    for axis in ("xaxis", "yaxis"):
        template.setdefault(axis, {})["ticklabeloverflow"] = "allow"
