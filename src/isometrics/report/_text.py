"""Text of the report: escaping of user text for Plotly labels and ``<script>`` data blocks. Numbers, intervals,
counts and the notes under tables of intervals are written by :mod:`isometrics.uncertainty.formatting`, the
command line's source too.
"""

from __future__ import annotations

import html
from typing import Any

from ..evaluation import BinaryEvaluation
from ..metrics.registry import Metric

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


def _bests(r: BinaryEvaluation, metrics: list[Metric]) -> list[Any]:
    return [next(b for b in r.best if b.metric.spec == m.spec) for m in metrics]
