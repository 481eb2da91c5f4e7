"""Text of the report: escaping of user text for Plotly labels and ``<script>`` data blocks,
and the formatting of numbers, intervals, shares and counts.
"""

from __future__ import annotations

import html
from typing import Any

from ..evaluation import BinaryEvaluation
from ..metrics.registry import Metric
from ..uncertainty.intervals import BootstrapResult

_AREAS = {"auroc": "AUROC", "average_precision": "average precision", "auprg": "AUPRG"}


# ---------------------------------------------------------------------------- escaping
def _plotly_text(value: Any) -> str:
    """User text for a Plotly label (legend, hover, title): shown literally.

    Plotly reads labels as pseudo-HTML: it splits tags (``<b>``, ``<br>``, ``<a>``...) and
    decodes the entities ``&amp;``, ``&lt;``, ``&gt;`` (not ``&quot;``) into text nodes.
    Escaping exactly those three characters makes it show the text as given, once.
    """
    return html.escape(str(value), quote=False)


def _script_json(text: str) -> str:
    """JSON text made safe inside ``<script type="application/json">``: no ``</script``,
    no ``<!--``, whatever the strings hold (``<``, ``>``, ``&`` occur only in strings)."""
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# ---------------------------------------------------------------------------- formatting
def _fmt(x: float) -> str:
    return "undefined" if x != x else f"{x:.4f}"


def _with_ci(value: float, interval: BootstrapResult | None) -> str:
    if interval is None:
        return _fmt(value)
    low, high = interval.confidence_interval
    return f"{_fmt(value)} [{_fmt(low)}, {_fmt(high)}]"


def _pct(level: float) -> str:
    return f"{100 * level:g} %"


def _count(x: float) -> str:
    return f"{x:,.0f}" if x == int(x) else f"{x:,.2f}"


def _bests(r: BinaryEvaluation, metrics: list[Metric]) -> list[Any]:
    return [next(b for b in r.best if b.metric.spec == m.spec) for m in metrics]
