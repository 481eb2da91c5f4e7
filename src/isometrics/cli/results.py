"""The tables of one evaluation's results, printed alike by every path of ``evaluate`` (in memory,
out of core, on a Dask cluster): the summary (rows, prevalence, AUROC, AP, AUPRG) and one table of
best thresholds per metric. Cells and notes come from :mod:`isometrics.uncertainty.formatting`, the
report's source too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..uncertainty import formatting
from ._console import markup
from ._format import IN_SAMPLE, new_table

__all__ = ["print_results"]


def print_results(console: Any, file: Path, label: str, results: list[Any], shown: str = "") -> None:
    """Print the summary table of ``results`` (rows, prevalence, the three areas) and a table of best
    thresholds per metric, with the interval note when there are intervals (``shown``: how the
    positive class is written, default its ``repr``)."""
    first = results[0]
    weighted = "weighted " if first.n_positives + first.n_negatives != first.n_samples else ""
    positive = shown or repr(first.operating_points.pos_label)
    summary = new_table(
        console,
        f"{markup(file.name)}: {first.n_samples:,} rows, label {markup(repr(label))} (positive = {markup(positive)})",
    )
    summary.add_column("score", style="bold")
    for header in ("n", f"{weighted}prevalence", "AUROC", "AP", "AUPRG"):
        summary.add_column(header, justify="right")
    for r in results:
        summary.add_row(
            markup(r.name),
            f"{r.n_samples:,}",
            formatting.number(r.prevalence),
            *formatting.area_cells(r).values(),
        )
    console.print(summary)
    if first.intervals:
        console.print(f"[dim]{markup(formatting.interval_note(next(iter(first.intervals.values()))))}[/dim]")
    for k, metric_best in enumerate(first.best):
        table = new_table(console, f"Best threshold for {markup(metric_best.metric.label)} ({IN_SAMPLE})")
        table.add_column("score", style="bold")
        predicted_header = "predicted positive" + (" (weight)" if weighted else "")
        for header in ("threshold", markup(metric_best.metric.label), "precision", "recall", predicted_header):
            table.add_column(header, justify="right")
        for r in results:
            cells = formatting.best_threshold_cells(r.best[k], r.intervals.get(r.best[k].metric.spec))
            table.add_row(
                markup(r.name), *(cells[c] for c in ("threshold", "value", "precision", "recall", "predicted"))
            )
        console.print(table)
        if metric_best.metric.spec != metric_best.metric.label.lower():
            console.print(f"[dim]{markup(metric_best.metric.label)} = {markup(metric_best.metric.spec)}[/dim]")
