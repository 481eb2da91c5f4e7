"""Small HTML tables for Jupyter (``_repr_html_``), every value escaped."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return "undefined" if value != value else f"{value:.6g}"
    return html.escape(str(value))


def html_table(header: Sequence[str], rows: Iterable[Sequence[Any]], caption: str = "") -> str:
    """A plain HTML table; header and cells escaped."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
