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

from .._core.outputs import json_text, staged_outputs
from ..evaluation import evaluate_scores, results_json
from ..metrics.registry import parse_metric
from ..report import build_report
from ._console import make_console, markup
from ._io import FileColumns, binary_target, read_columns
from ._options import ScoredFile, _n_columns
from .compare import report_comparison, with_intervals
from .decision import decision_json, decisions, print_decisions, summary_of
from .groups import print_groups
from .out_of_core import threads_in_memory
from .results import print_results

__all__: list[str] = []


def _evaluate_file(
    request: ScoredFile,
    console: Any,
    *,
    report: str | os.PathLike[str] | None = None,
    report_option: str = "--report",
    title: str | None = None,
    decision: bool = False,
    rule: dict[str, float] | None = None,
) -> list[Any]:
    """Read, evaluate, print and (optionally) write JSON and an HTML report; raise IsometricsError on bad input.

    Every destination is checked before the file is read; the outputs are written together
    at the end, or not at all.
    """
    file, label, scores, weight, by = request.file, request.label, request.scores, request.weight, request.by
    json_out, pos_label, seed = request.json_out, request.pos_label, request.seed
    n_resamples, report_resamples = request.interval_resamples, request.n_resamples
    parsed = [parse_metric(m) for m in request.metrics]
    weight_options = request.weight_options
    with staged_outputs({"--json": json_out, report_option: report}, inputs=[file]) as outputs:
        if outputs.to_stdout:  # standard output carries a file: the tables go to stderr
            console = make_console(stderr=True)
        # bounded memory: the label and weights are read once, each score column when it is evaluated
        columns = read_columns(file, [label] + ([weight] if weight else []) + ([by] if by else []), also_check=scores)
        y, pos, versus = binary_target(columns.pop(label), pos_label, label)
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
        print_results(console, file, label, results, shown)
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
