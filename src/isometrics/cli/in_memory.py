"""One file's score columns evaluated in memory: read, evaluated, printed, and written as JSON or a
self-contained HTML report (the body of ``evaluate``, ``report`` and ``demo``; the out-of-core, Dask and
per-class paths are their own modules).

Every destination is checked before the file is read; the outputs are written together at the end, or not at all.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from .._core.outputs import json_text, staged_outputs
from .._core.validation import label_set
from ..evaluation import evaluate_scores, results_json
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..report import build_report
from ._console import make_console, markup
from ._format import IN_SAMPLE, INTERVAL_NOTE, new_table
from ._format import fmt as _fmt
from ._format import with_ci as _with_ci
from ._io import FileColumns, coerce_label, read_columns
from ._options import (
    _n_columns,
    _weight_options,
)
from .compare import report_comparison, with_intervals
from .decision import decision_json, decisions, print_decisions, summary_of
from .groups import print_groups
from .out_of_core import threads_in_memory

__all__: list[str] = []


def _binary_target(y: Any, pos_label: str | None, label: str) -> tuple[Any, Any, Any]:
    """``(y, pos_label, versus)`` for a binary evaluation: a label column of more than two classes
    becomes one class (``--pos-label``) against the rest, and ``versus`` is that class (else None)."""
    if pos_label is None:
        classes = label_set(y)
        if len(classes) > 2:
            shown = ", ".join(str(v) for v in classes[:6].tolist()) + (", ..." if len(classes) > 6 else "")
            raise IsometricsError(
                f"label column {label!r} has {len(classes)} classes ({shown}); give --multiclass with one --score "
                "column per class (named after it, or --class), or --pos-label CLASS to evaluate one class against "
                "the rest."
            )
        return y, None, None
    pos = coerce_label(pos_label, y, label)
    if len(label_set(y)) > 2:
        return np.asarray(y == pos), True, pos
    return y, pos, None


def _evaluate_file(
    file: Path,
    label: str,
    scores: list[str],
    pos_label: str | None,
    weight: str | None,
    metrics: list[str],
    json_out: str | os.PathLike[str] | None,
    console: Any,
    n_resamples: int | None = None,
    seed: int | None = None,
    report: str | os.PathLike[str] | None = None,
    weight_kind: str | None = None,
    report_option: str = "--report",
    report_resamples: int = 1000,
    title: str | None = None,
    decision: bool = False,
    rule: dict[str, float] | None = None,
    by: str | None = None,
) -> list[Any]:
    """Read, evaluate, print and (optionally) write JSON and an HTML report; raise IsometricsError on bad input.

    Every destination is checked before the file is read; the outputs are written together
    at the end, or not at all.
    """
    parsed = [parse_metric(m) for m in metrics]
    weight_options = _weight_options(weight, weight_kind)
    with staged_outputs({"--json": json_out, report_option: report}, inputs=[file]) as outputs:
        if outputs.to_stdout:  # standard output carries a file: the tables go to stderr
            console = make_console(stderr=True)
        # bounded memory: the label and weights are read once, each score column when it is evaluated
        columns = read_columns(file, [label] + ([weight] if weight else []) + ([by] if by else []), also_check=scores)
        y, pos, versus = _binary_target(columns.pop(label), pos_label, label)
        by_group: dict[str, Any] = {} if by is None else {"groups": columns.pop(by), "group_name": by}  # --by
        weights = columns.pop(weight) if weight else None
        shown = "" if versus is None else f"{versus!r} vs the rest"
        lazy = FileColumns(file, scores)
        # A report with --ci draws one set of paired replicates: the comparisons and each model's intervals.
        shared = (
            report is not None
            and n_resamples is not None
            and n_resamples == report_resamples
            and len(scores) >= 2
            and by is None
        )
        comparison = (
            report_comparison(y, lazy, [m.spec for m in parsed], weights, pos, n_resamples, seed, weight_options)
            if shared
            else None
        )
        results = list(
            evaluate_scores(
                y,
                lazy,
                metrics=parsed,
                sample_weight=weights,
                pos_label=pos,
                n_resamples=None if shared else n_resamples,
                rng=seed,
                progress=n_resamples is not None and not shared,
                keep_operating_points=False,
                n_jobs=threads_in_memory(file, _n_columns(scores, weight), len(scores)),  # threads that fit in memory
                **weight_options,
                **by_group,
            )
        )
        if comparison is not None:
            results = with_intervals(results, comparison)
        chosen = (
            decisions(y, lazy, scores, weights, pos, parsed, rule, n_resamples, seed, weight_options)
            if decision
            else []
        )
        _print_results(console, file, label, results, shown)
        print_groups(console, results)
        print_decisions(console, chosen)
        summary = None
        if report is not None:  # with a paired comparison of every two scorers, and the decision it opens with
            page, summary = _report_page(
                results,
                file,
                label + (f" ({shown})" if shown else ""),
                y,
                lazy,
                weights,
                pos,
                report_resamples,
                seed,
                weight_options,
                title,
                n_resamples,
                comparison,
            )
            outputs.stage(report_option, page)
        if json_out is not None:
            extra = {"decision": decision_json(chosen)} if decision else {}
            if summary is not None:
                extra["summary"] = summary.to_dict()  # what the report opens with
            json_doc = results_json(results, file=str(file), label=label, weight=weight, versus=versus, extra=extra)
            outputs.stage("--json", json_text(json_doc))
        outputs.commit()
    if report is not None and not outputs.destinations[report_option].kind == "stdout":
        console.print(f"Report: {markup(report)}")
    return results


def _report_page(
    results: list[Any],
    file: Path,
    label: str,
    y: Any,
    scores: Mapping[str, Any],
    weights: Any,
    pos: Any,
    n_resamples: int,
    seed: int | None,
    weight_options: dict[str, Any],
    title: str | None = None,
    ci_resamples: int | None = None,
    comparison: Any = None,
) -> tuple[str, Any]:
    """The HTML report of ``results``, with a paired comparison of every two scorers (when there are two or more),
    and the summary it opens with (under the first metric; intervals with ``ci_resamples``, i.e. --ci).

    The comparisons read the weights as the evaluation did (``weight_options``: the user's ``--weight-kind``);
    ``comparison``: already drawn (the one whose replicates gave the models' intervals).
    """
    if comparison is None and len(scores) >= 2:
        comparison = report_comparison(
            y, scores, [b.metric.spec for b in results[0].best], weights, pos, n_resamples, seed, weight_options
        )
    summary = summary_of(
        y, scores, weights, pos, results[0].best[0].metric, comparison, ci_resamples, seed, weight_options
    )
    return build_report(
        results,
        comparisons=comparison,
        title=f"isometrics: {file.name}" if title is None else title,
        file_name=file.name,
        label=label,
        summary=summary,
    ), summary


def _print_results(console: Any, file: Path, label: str, results: list[Any], shown: str = "") -> None:
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
            _fmt(r.prevalence),
            _with_ci(r.auroc, r.intervals.get("auroc")),
            _with_ci(r.average_precision, r.intervals.get("average_precision")),
            _with_ci(r.auprg, r.intervals.get("auprg")),
        )
    console.print(summary)
    if first.intervals:
        level = next(iter(first.intervals.values())).confidence_level
        console.print(
            f"[dim]Brackets: {100 * level:g} % percentile bootstrap intervals "
            f"({len(next(iter(first.intervals.values())).bootstrap_distribution)} replicates); "
            f"{INTERVAL_NOTE}[/dim]"
        )
    for k, metric_best in enumerate(first.best):
        table = new_table(console, f"Best threshold for {markup(metric_best.metric.label)} ({IN_SAMPLE})")
        table.add_column("score", style="bold")
        predicted_header = "predicted positive" + (" (weight)" if weighted else "")
        for header in ("threshold", markup(metric_best.metric.label), "precision", "recall", predicted_header):
            table.add_column(header, justify="right")
        for r in results:
            b = r.best[k]
            predicted = b.tp + b.fp
            table.add_row(
                markup(r.name),
                f"{b.threshold:.6g}",
                _with_ci(b.value, r.intervals.get(b.metric.spec)),
                _fmt(b.precision),
                _fmt(b.recall),
                f"{predicted:,.0f}" if predicted == int(predicted) else f"{predicted:,.2f}",
            )
        console.print(table)
        if metric_best.metric.spec != metric_best.metric.label.lower():
            console.print(f"[dim]{markup(metric_best.metric.label)} = {markup(metric_best.metric.spec)}[/dim]")
