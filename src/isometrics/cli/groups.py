"""``--by COLUMN`` (declared in ``cli/_options.py``) of ``evaluate``, ``compare`` and ``report``: the evaluation by group, printed.

The numbers, notes and sentences are those of :class:`isometrics.uncertainty.GroupEvaluation` (one per score
column); nothing is computed or worded here.
"""

from __future__ import annotations

from typing import Any

from ..uncertainty import formatting
from ._console import markup
from ._format import new_table

__all__ = ["print_groups"]

#: The headers of formatting.GROUP_KEYS.
_HEADERS = ("AUROC", "AP", "AUPRG", "precision", "recall", "alert rate")


def print_groups(console: Any, results: Any) -> None:
    """One table per score column evaluated by group, then the detected differences' sentences."""
    for r in results:
        ge = getattr(r, "groups", None)
        if ge is None:
            continue
        table = new_table(
            console,
            f"{markup(r.name)} by {markup(ge.column)}: precision, recall and alert rate "
            f"at the global best {markup(ge.metric.label)} threshold {formatting.threshold(ge.threshold)}",
        )
        for header in ("group", "n", "positives", *_HEADERS, f"best {ge.metric.label} threshold"):
            table.add_column(markup(header), justify="left" if header == "group" else "right")
        for row in ge.rows:
            cells = formatting.group_cells(row)
            table.add_row(
                markup(row.group), *(cells[key] for key in ("n", "positives", *formatting.GROUP_KEYS, "best"))
            )
        console.print(table)
        for row in ge.rows:
            if row.note:
                console.print(f"[dim]{markup(row.group)}: {markup(row.note)}[/dim]")
        detected = [d for d in ge.differences if d.winner is not None]
        for d in detected:
            console.print("- " + markup(d.sentence()))
        if ge.differences:
            console.print(
                f"[dim]{len(detected)} of {len(ge.differences)} group differences detected. {markup(ge.family())}[/dim]"
            )
        elif ge.n_resamples is None:
            console.print(
                "[dim]No intervals or tests by group: add --ci for bootstrap intervals and each group "
                "against the rest.[/dim]"
            )
