"""``--by COLUMN`` of ``evaluate``, ``compare`` and ``report``: the evaluation by group, printed.

The numbers, notes and sentences are those of :class:`isometrics.uncertainty.GroupEvaluation` (one per score
column); nothing is computed or worded here.
"""

from __future__ import annotations

from typing import Any

from ._console import markup
from ._format import new_table, with_ci

__all__ = ["BY_HELP", "print_groups"]

BY_HELP = (
    "Also evaluate within each group of this column (region, site, sex...): every area, the chosen "
    "threshold's precision, recall and alert rate, the threshold best within each group, and (with "
    "bootstrap replicates) intervals and each group against the rest, Holm-adjusted over the groups."
)

_COLUMNS = (
    ("auroc", "AUROC"),
    ("average_precision", "AP"),
    ("auprg", "AUPRG"),
    ("precision", "precision"),
    ("recall", "recall"),
    ("alert_rate", "alert rate"),
)


def _cell(row: Any, key: str) -> str:
    value = row.estimates[key]
    return "undefined" if value is None else with_ci(value, row.intervals.get(key))


def print_groups(console: Any, results: Any) -> None:
    """One table per score column evaluated by group, then the detected differences' sentences."""
    for r in results:
        ge = getattr(r, "groups", None)
        if ge is None:
            continue
        table = new_table(
            console,
            f"{markup(r.name)} by {markup(ge.column)}: precision, recall and alert rate "
            f"at the global best {markup(ge.metric.label)} threshold {ge.threshold:.6g}",
        )
        for header in ("group", "n", "positives", *[h for _, h in _COLUMNS], f"best {ge.metric.label} threshold"):
            table.add_column(markup(header), justify="left" if header == "group" else "right")
        for row in ge.rows:
            best = f"{row.best[0].threshold:.6g}" if row.best else "undefined"
            table.add_row(
                markup(row.group),
                f"{row.n_samples:,}",
                f"{row.n_positives:,.6g}",
                *[_cell(row, key) for key, _ in _COLUMNS],
                best,
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
