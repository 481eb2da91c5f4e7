"""``isometrics compare``: paired comparisons of any number of score columns, rendered from one
:class:`isometrics.uncertainty.ModelComparison`.

:func:`isometrics.uncertainty.compare_scores` compares every pair (or each column against ``--baseline``):
paired bootstrap of every statistic, DeLong's test of the AUROCs, the p-values of each statistic
Holm-adjusted over the pairs. The tables, the sentences (:meth:`ComparisonRow.sentence`) and the
JSON (:meth:`ModelComparison.to_dict`) are the result's; nothing is decided or worded here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Annotated, Any

from .._core.outputs import json_text, staged_outputs
from ..evaluation import evaluate_scores
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..uncertainty import formatting
from ..uncertainty.comparison import compare_scores
from ._console import make_console, markup
from ._format import IN_SAMPLE, new_table
from ._io import binary_target, read_columns
from ._options import ScoredFile, _n_columns, _value, guard
from .groups import print_groups
from .scores import score_columns

try:
    import typer

    from ._options import (
        By,
        File,
        JsonOut,
        Label,
        Metric,
        NResamples,
        PosLabel,
        Score,
        Scores,
        Seed,
        Separator,
        Weight,
        WeightKindOption,
    )
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
            c = formatting.comparison_cells(r)
            cells = [markup(c["pair"]), c["difference"], c["low"], c["high"], c["p_value"]]
            if adjusted:
                cells += [c["adjusted_low"], c["adjusted_high"], c["adjusted_p_value"]]
            table.add_row(*cells, markup(c["decision"]))
        console.print(table)
        for r in rows:
            console.print("- " + markup(r.sentence()))


def compare_file(request: ScoredFile, console: Any, baseline: str | None = None) -> Any:
    """Read, compare every pair (or each column against ``baseline``), print and (optionally) write JSON.

    ``request.by``: also evaluate each column within each group of that column (cli/groups.py), on the same
    replicates' count.
    """
    file, label, scores, weight, by = request.file, request.label, request.scores, request.weight, request.by
    pos_label, n_resamples, seed, json_out = request.pos_label, request.n_resamples, request.seed, request.json_out
    metrics, weight_options = request.metrics, request.weight_options
    _check_scores(scores)
    if baseline is not None and baseline not in scores:
        raise IsometricsError(
            f"--baseline {baseline!r} is not one of the --score columns ({', '.join(scores)}); name one of them."
        )
    parsed = [parse_metric(m) for m in metrics]
    with staged_outputs({"--json": json_out}, inputs=[file]) as outputs:
        if outputs.to_stdout:
            console = make_console(stderr=True)
        columns = read_columns(file, [label, *scores] + ([weight] if weight else []) + ([by] if by else []))
        # with --pos-label, a label column of more than two classes is that class against the rest
        y, pos, _ = (
            (columns[label], None, None) if pos_label is None else binary_target(columns[label], pos_label, label)
        )
        result = compare_scores(
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


def register(app: Any) -> None:
    """Add the ``compare`` command to the Typer ``app``."""

    @app.command()
    def compare(
        file: File,
        label: Label,
        score: Score = None,
        pos_label: PosLabel = None,
        weight: Weight = None,
        metric: Metric = None,
        baseline: Annotated[
            str | None,
            typer.Option(
                "--baseline",
                help="Compare each other --score column with this one (column - baseline) instead of every pair.",
            ),
        ] = None,
        n_resamples: NResamples = 1000,
        seed: Seed = None,
        json_out: JsonOut = None,
        weight_kind: WeightKindOption = None,
        scores: Scores = None,
        by: By = None,
        separator: Separator = None,
    ) -> None:
        """Paired comparisons of score columns: differences with bootstrap intervals, p-values and DeLong.

        Every pair is compared (or each column against --baseline); the p-values of each statistic are
        Holm-adjusted over its pairs, and a pair is said to differ only when its adjusted p-value is <= 0.05.
        """
        with guard(file, _n_columns(score, weight)):
            request = ScoredFile(
                file,
                (label,),
                score_columns(file, score, scores, exclude=[label, weight, by]),
                pos_label,
                weight,
                _value(weight_kind),
                metric or ["f1"],
                n_resamples,
                True,
                seed,
                json_out,
                by,
            )
            compare_file(request, make_console(), baseline=baseline)
