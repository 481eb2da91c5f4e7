"""The interactive elicitation page: one offline HTML file that asks a stakeholder the questions of
:class:`isometrics.elicitation.Elicitation` and computes, in the browser, the same questions and estimates.

The page embeds the session's settings and decision curve (a JSON data block, escaped for a
``<script>`` element) and its own script (``static/elicit.js``, the engine ported from
``docs/elicitation.md``), allowed by its SHA-256 hash under the report's Content Security
Policy: no network request, no other script. User text (title, model description) is escaped
by Jinja2's autoescaping and reaches the script's output only as text nodes. The answers
download as a transcript (``docs/elicitation.md`` section 10) that :func:`isometrics.elicitation.replay`
and ``isometrics elicit --answers`` turn into the same result.
"""

from __future__ import annotations

import json
import math
import os
from importlib.resources import files
from pathlib import Path
from typing import Any

from .._core.caller import current_caller
from .._core.constraints import InBody, String, validate_params
from .._core.optional import needs
from .._core.outputs import write_text_atomic
from .._version import __version__
from ..elicitation.session import Elicitation
from ..exceptions import InvalidParameterError
from ._page import _CSP, _csp_hash, _environment, _script_source
from ._text import _script_json

__all__ = ["elicitation_page", "write_elicitation_page"]


def _jinja() -> Any:
    with needs("the elicitation page"):
        import jinja2
    return jinja2


@validate_params(
    {
        "session": InBody("an Elicitation or None", invalid=[12345]),
        "title": String(),
        "model": String(),
        "command_tail": String(),
    }
)
def elicitation_page(
    session: Elicitation | None = None, *, title: str = "Choosing the metric", model: str = "", command_tail: str = ""
) -> str:
    """Render the interactive elicitation page for a session's settings and decision curve.

    Parameters
    ----------
    session : Elicitation, default=None
        The session whose settings (budgets, tolerance, noise, sign of rho) and decision
        curve (with thresholds, for :meth:`Elicitation.from_scores`) the page uses; the page
        always starts from the first question (answers already given to ``session`` are
        not carried over). ``None``: ``Elicitation()`` (default settings and curve).
    title : str, default="Choosing the metric"
        Page title (escaped).
    model : str, default=""
        A description of the model the decision is made on, e.g. ``"scores.csv, column
        model_a"`` (escaped); empty for the default curve.
    command_tail : str, default=""
        Shown after ``isometrics elicit --answers answers.json`` in the replay hint, e.g.
        the data file and columns (escaped).

    Returns
    -------
    str
        The HTML page: one inline script allowed by its hash, inline styles, no external
        resource.

    Raises
    ------
    InvalidParameterError
        If ``session`` is not an :class:`~isometrics.elicitation.Elicitation` (a ``TypeError``),
        or ``title``, ``model`` or ``command_tail`` is not a str.
    ImportError
        If jinja2 is missing.

    See Also
    --------
    write_elicitation_page : write it to a file.
    isometrics.elicitation.replay : the result of the answers file the page downloads.

    Notes
    -----
    The page's script ports the engine of ``docs/elicitation.md`` (grids, priors,
    likelihoods, candidate pairs, tie-breaking, stopping rule); on the same answers it asks
    the same questions as the Python engine and reaches the same estimate to 1e-9
    (tests/presentation/test_elicitation_page.py). Its state is readable by tests as
    ``window.__elicitationState``.

    References
    ----------
    .. [1] ``docs/elicitation.md`` (the design: questions, likelihoods, stopping rule);
       G. Gandenberger, "Evaluating Classification Models, Part 4: Weighted Power Means
       of Precision and Recall", blog post, 2019 (the G(beta, rho) family).

    Examples
    --------
    >>> from isometrics.elicitation import Elicitation
    >>> from isometrics.report import elicitation_page
    >>> page = elicitation_page(Elicitation(pairwise_budget=5), title="Fraud <alerts>")
    >>> "Fraud &lt;alerts&gt;" in page and "Content-Security-Policy" in page
    True
    """
    if session is None:
        session = Elicitation()
    if not isinstance(session, Elicitation):
        raise InvalidParameterError(
            f"{current_caller()}: `session` must be an Elicitation or None; got {type(session).__name__}."
        )
    jinja2 = _jinja()
    t = session.transcript.to_dict()
    data = {"settings": t["settings"], "curve": t["curve"]}
    data_json = _script_json(json.dumps(data, allow_nan=False))
    page_js = _script_source(
        (files("isometrics.report") / "static" / "elicit.js").read_text(encoding="utf-8"),
        "the elicitation page's script",
    )
    csp = _CSP.format(scripts=_csp_hash(page_js))
    s = session.settings
    return (
        _environment(jinja2)
        .get_template("elicit.html.j2")
        .render(
            csp=csp,
            title=title,
            model=model,
            command_tail=command_tail,
            data_json=data_json,
            page_js=page_js,
            tolerance=f"{s['tolerance']:g}",
            pairwise_budget=s["pairwise_budget"],
            version=__version__,
            noiseless=math.isinf(s["pairwise_lambda"]),
        )
    )


@validate_params({"path": InBody("a path"), "html_text": String()})
def write_elicitation_page(path: str | os.PathLike[str], html_text: str) -> Path:
    """Write the page through a temporary file (nothing half-written on failure).

    Parameters
    ----------
    path : str or os.PathLike
        Where to write it.
    html_text : str
        The page, from :func:`elicitation_page`.

    Returns
    -------
    Path
        The path written.

    Raises
    ------
    InvalidParameterError
        If ``html_text`` is not a str.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from isometrics.report import write_elicitation_page
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = write_elicitation_page(Path(folder) / "elicit.html", "<!doctype html><title>t</title>")
    ...     written.name
    'elicit.html'
    """
    return write_text_atomic(path, html_text)
