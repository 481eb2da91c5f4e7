"""``isometrics compare``: paired comparisons of any number of score columns, rendered from one
:class:`isometrics.uncertainty.ModelComparison`.

:func:`isometrics.uncertainty.compare_scores` compares every pair (or each column against ``--baseline``):
paired bootstrap of every statistic, DeLong's test of the AUROCs, the p-values of each statistic
Holm-adjusted over the pairs. The tables, the sentences (:meth:`ComparisonRow.sentence`) and the
JSON (:meth:`ModelComparison.to_dict`) are the result's; nothing is decided or worded here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

from .._core.outputs import json_text, staged_outputs
from ..evaluation import evaluate_scores
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..uncertainty.comparison import compare_scores
from ._console import make_console, markup
from ._format import IN_SAMPLE, fmt, new_table
from ._io import coerce_label, read_columns
from ._options import _OUT, _WEIGHT_KIND_HELP, WeightKind, _n_columns, _value, _weight_options
from .groups import BY_HELP, print_groups
from .scores import score_columns

try:
    import typer

    from ._options import Separator, _Scores
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

__all__ = ["compare_file", "print_comparison", "register", "report_comparison", "with_intervals"]


def report_comparison(
    y: Any,
    scores: Mapping[str, Any],
    specs: list[str],
    weights: Any,
    pos: Any,
    n_resamples: int | None,
    seed: int | None,
    weight_options: dict[str, Any],
) -> Any:
    """The report's paired comparison of every two scorers: the areas and each metric (``specs``)."""
    assert n_resamples is not None  # the report path always draws its replicates
    return compare_scores(
        y,
        {name: scores[name] for name in scores},
        metrics=specs,
        sample_weight=weights,
        pos_label=pos,
        n_resamples=n_resamples,
        rng=seed,
        progress=True,
        **weight_options,
    )


def with_intervals(results: list[Any], comparison: Any) -> list[Any]:
    """The evaluations with each model's intervals read from the comparison's paired replicates
    (:meth:`ModelComparison.intervals`): the report's intervals and its comparisons, one set of replicates."""
    return [replace(r, intervals=comparison.intervals(r.name)) for r in results]


def _check_scores(scores: list[str]) -> None:
    if len(scores) < 2 or len(set(scores)) != len(scores):
        raise IsometricsError(
            f"compare needs at least two different --score columns; got {scores}; add another "
            "--score COLUMN (or --scores PATTERN)."
        )


def _p(p: float) -> str:
    return f"{p:.2g}"


def print_comparison(console: Any, title: str, result: Any) -> None:
    """The tables of a :class:`ModelComparison` (one per statistic, then DeLong's) and every row's sentence."""
    console.print(
        f"[bold]{markup(title)}[/bold]: {len(result.pairs)} paired comparison"
        f"{'s' if len(result.pairs) != 1 else ''} (paired bootstrap, {result.n_resamples} replicates)"
    )
    groups = [(key, "paired bootstrap", [r for r in result.rows if r.statistic == key]) for key in result.statistics]
    if result.delong:
        groups.append(("auroc", "DeLong", list(result.delong)))
    for _key, test, rows in groups:
        adjusted = rows[0].adjusted
        name = {"holm": "Holm", "bonferroni": "Bonferroni"}.get(result.adjustment, "")
        title = f"{markup(rows[0].label)}: " + ("DeLong's test" if test == "DeLong" else "differences")
        table = new_table(console, title)
        headers = ["pair", "difference", "CI low", "CI high", "p-value"]
        headers += [f"{name} CI low", f"{name} CI high", f"{name} p"] if adjusted else []
        for header in [*headers, "decision"]:
            table.add_column(header, justify="left" if header in ("pair", "decision") else "right")
        for r in rows:
            cells = [
                f"{markup(r.a)} - {markup(r.b)}",
                fmt(r.estimate),
                fmt(r.confidence_interval[0]),
                fmt(r.confidence_interval[1]),
                _p(r.p_value),
            ]
            if adjusted:
                cells += [fmt(r.adjusted_interval[0]), fmt(r.adjusted_interval[1]), _p(r.adjusted_p_value)]
            table.add_row(*cells, markup(r.winner + " better" if r.winner is not None else r.decision))
        console.print(table)
        for r in rows:
            console.print("- " + markup(r.sentence()))


def compare_file(
    file: Path,
    label: str,
    scores: list[str],
    pos_label: str | None,
    weight: str | None,
    metrics: list[str],
    n_resamples: int,
    seed: int | None,
    json_out: str | os.PathLike[str] | None,
    console: Any,
    weight_options: dict[str, Any],
    baseline: str | None = None,
    compare: Any = compare_scores,
    read: Any = read_columns,
    by: str | None = None,
) -> Any:
    """Read, compare every pair (or each column against ``baseline``), print and (optionally) write JSON.

    ``compare`` and ``read`` are the library calls (replaceable in tests). ``by``: also evaluate each
    column within each group of that column (cli/groups.py), on the same replicates' count.
    """
    _check_scores(scores)
    if baseline is not None and baseline not in scores:
        raise IsometricsError(
            f"--baseline {baseline!r} is not one of the --score columns ({', '.join(scores)}); name one of them."
        )
    parsed = [parse_metric(m) for m in metrics]
    with staged_outputs({"--json": json_out}, inputs=[file]) as outputs:
        if outputs.to_stdout:
            console = make_console(stderr=True)
        columns = read(file, [label, *scores] + ([weight] if weight else []) + ([by] if by else []))
        y = columns[label]
        pos = None if pos_label is None else coerce_label(pos_label, y, label)
        result = compare(
            y,
            {name: columns[name] for name in scores},
            metrics=parsed,
            baseline=baseline,
            sample_weight=columns[weight] if weight else None,
            pos_label=pos,
            n_resamples=n_resamples,
            rng=seed,
            progress=True,
            **weight_options,
        )
        print_comparison(console, file.name, result)
        console.print(
            f"[dim]Metrics are compared at each model's own best threshold ({IN_SAMPLE}), found "
            f"again in every replicate; {100 * result.confidence_level:g} % intervals; a positive "
            f"difference favours the first model of a pair. {markup(result.family())}[/dim]"
        )
        grouped = (
            None
            if by is None
            else evaluate_scores(
                y,
                {name: columns[name] for name in scores},
                metrics=parsed,
                groups=columns[by],
                group_name=by,
                sample_weight=columns[weight] if weight else None,
                pos_label=pos,
                n_resamples=n_resamples,
                rng=seed,
                **weight_options,
            )
        )
        if grouped is not None:
            print_groups(console, grouped)
        if json_out is not None:
            outputs.stage(
                "--json",
                json_text(
                    {
                        "file": str(file),
                        "label": label,
                        "weight": weight,
                        **result.to_dict(),
                        **(
                            {}
                            if grouped is None
                            else {
                                "by": by,
                                "groups": {r.name: r.groups.to_dict() for r in grouped if r.groups is not None},
                            }
                        ),
                    }
                ),
            )
        outputs.commit()
    return result


def register(app: Any, guard: Any) -> None:
    """Add the ``compare`` command to the Typer ``app``; ``guard`` is the CLI's error boundary."""

    @app.command()
    def compare(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[str, typer.Option("--label", help="Column with the true labels.")],
        score: Annotated[
            list[str] | None,
            typer.Option(
                "--score",
                help="Score columns to compare (two or more; every pair is compared unless --baseline is given).",
            ),
        ] = None,
        pos_label: Annotated[str | None, typer.Option("--pos-label", help="Value of the positive class.")] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[
            list[str] | None, typer.Option("--metric", help="Metric compared at its best threshold (repeatable).")
        ] = None,
        baseline: Annotated[
            str | None,
            typer.Option(
                "--baseline",
                help="Compare each other --score column with this one (column - baseline) instead of every pair.",
            ),
        ] = None,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2, help="Bootstrap replicates.")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        json_out: Annotated[
            str | None,
            typer.Option("--json", metavar=_OUT, help="Also write the results as JSON here ('-': standard output)."),
        ] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
        scores: _Scores = None,
        by: Annotated[str | None, typer.Option("--by", metavar="COLUMN", help=BY_HELP)] = None,
        separator: Separator = None,
    ) -> None:
        """Paired comparisons of score columns: differences with bootstrap intervals, p-values and DeLong.

        Every pair is compared (or each column against --baseline); the p-values of each statistic are
        Holm-adjusted over its pairs, and a pair is said to differ only when its adjusted p-value is <= 0.05.
        """
        with guard(file, _n_columns(score, weight)):
            score = score_columns(file, score, scores, exclude=[label, weight, by])
            compare_file(
                file,
                label,
                score,
                pos_label,
                weight,
                metric or ["f1"],
                n_resamples,
                seed,
                json_out,
                make_console(),
                _weight_options(weight, _value(weight_kind)),
                baseline=baseline,
                compare=compare_scores,
                read=read_columns,
                by=by,
            )
