"""A self-contained interactive HTML report of an evaluation (Jinja2 + Plotly, offline).

The report consumes result objects only (:class:`~isometrics.BinaryEvaluation`, and
:class:`~isometrics.uncertainty.ModelComparison` for the paired comparisons, whose
decisions and sentences it renders as they are); every number comes from them, nothing is computed here but
their display. Scripts and styles are inlined. Everything that came from the user's
file (column names, labels, file names) is escaped once for the context it lands in:
HTML text by Jinja2's autoescaping, the figures' JSON for a ``<script>`` data block
(``<``, ``>`` and ``&`` as ``\\u`` escapes), and Plotly's pseudo-HTML labels (``&``,
``<`` and ``>`` as the entities Plotly decodes). A Content Security Policy forbids the
page any network request, form submission or ``<base>``, and runs only the page's own
two scripts, allowed by their SHA-256 hashes: markup that escaped the escaping could
not run. Needs ``pip install 'isometrics[report]'`` (plotly, jinja2).

Holds the escaping and number formatting (``_text``), the comparisons and their sentences
(``_reading``), each model's look in every figure (``_style``: colour, legend group, name),
the Plotly figures (``_figures``), the plotly.js bundle inlined (``_bundle``: plotly.js's
partial "basic" bundle, vendored in ``static/``) and the page itself (``_page``:
``build_report``, ``write_report``); the multiclass page (``multiclass_page``: ``build_multiclass_report``, template
``templates/multiclass.html.j2``); the interactive elicitation page (``elicitation_page``:
``elicitation_page``, ``write_elicitation_page``, script ``static/elicit.js``); the Jinja2 template is in ``templates/`` and the
page's script in ``static/``. A new panel draws each model with ``_style._model_style``. The models'
curves are thinned to display resolution once and embedded once (``_data``), every figure referring
to them; the explorers' opening metric and overlays are in ``_explorer``, the multiclass averages'
intervals in ``_averages``; the figures' margins, sized to hold their axes' labels so that Plotly draws
each figure once, in ``_margins``.
"""

from __future__ import annotations

from ._page import build_report, write_report
from .elicitation_page import elicitation_page, write_elicitation_page
from .multiclass_page import build_multiclass_report

__all__ = ["build_multiclass_report", "build_report", "elicitation_page", "write_elicitation_page", "write_report"]
