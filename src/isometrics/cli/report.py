"""``isometrics report``: a self-contained interactive HTML report of one file's score columns (the body is
``cli/in_memory.py``, or ``cli/multiclass.py`` with ``--multiclass``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from ..evaluation import evaluate_scores
from ..exceptions import IsometricsError
from ._console import make_console
from ._options import (
    _MULTICLASS_HELP,
    _OUT,
    _WEIGHT_KIND_HELP,
    WeightKind,
    _n_columns,
    _one_vs_rest_options,
    _value,
    _weight_options,
)
from .groups import BY_HELP
from .in_memory import _evaluate_file
from .multiclass import evaluate_multiclass_file
from .scores import score_columns

try:
    import typer

    from ._options import Separator, _Scores
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]


__all__ = ["register"]


def register(app: Any, guard: Any) -> None:
    """Add the ``report`` command to the Typer ``app``; ``guard`` is the CLI's error boundary."""

    @app.command(name="report")
    def report_command(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[str, typer.Option("--label", help="Column with the true labels.")],
        output: Annotated[
            str,
            typer.Option("-o", "--output", metavar=_OUT, help="Where to write the HTML report ('-': standard output)."),
        ],
        score: Annotated[
            list[str] | None,
            typer.Option("--score", help="Score column (repeat for several models; with --multiclass, one per class)."),
        ] = None,
        pos_label: Annotated[
            str | None,
            typer.Option(
                "--pos-label",
                help="Value of the positive class; with more than two classes, that class against the rest.",
            ),
        ] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[
            list[str] | None, typer.Option("--metric", help="Threshold metric (repeatable; the report shows each).")
        ] = None,
        ci: Annotated[
            bool,
            typer.Option(
                "--ci",
                help="Show bootstrap intervals of the areas and of each metric "
                "(that of its threshold re-optimised in every replicate).",
            ),
        ] = False,
        n_resamples: Annotated[
            int,
            typer.Option(
                "--n-resamples",
                min=2,
                help="Bootstrap replicates of --ci and of the paired comparisons (two or more scores).",
            ),
        ] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
        title: Annotated[
            str | None, typer.Option("--title", help="Title of the report (default: 'isometrics: FILE').")
        ] = None,
        scores: _Scores = None,
        multiclass: Annotated[
            bool,
            typer.Option(
                "--multiclass",
                help=_MULTICLASS_HELP + " The report shows each class's panels and the argmax confusion matrix.",
            ),
        ] = False,
        class_: Annotated[
            list[str] | None,
            typer.Option(
                "--class",
                help="With --multiclass: the class each --score "
                "column scores, once per --score, in order (default: the "
                "column names).",
            ),
        ] = None,
        by: Annotated[str | None, typer.Option("--by", metavar="COLUMN", help=BY_HELP)] = None,
        separator: Separator = None,
        json_out: Annotated[
            str | None,
            typer.Option(
                "--json",
                metavar=_OUT,
                help="Also write the results, and the report's summary, as JSON here ('-': standard output).",
            ),
        ] = None,
    ) -> None:
        """Write a self-contained interactive HTML report (ROC, PR, PRG, level curves, paired comparisons)."""
        with guard(file, _n_columns(score, weight)):
            score = score_columns(file, score, scores, exclude=[label, weight, by])
            if class_ and not multiclass:
                raise IsometricsError(
                    "--class names the class of each --score column with --multiclass; add "
                    "--multiclass, or use --pos-label for one class."
                )
            if multiclass:
                _one_vs_rest_options(True, False, pos_label, None, by)
                evaluate_multiclass_file(
                    file,
                    [label],
                    score,
                    class_,
                    weight,
                    metric or ["f1"],
                    json_out,
                    make_console(),
                    n_resamples=n_resamples if ci else None,
                    seed=seed,
                    weight_options=_weight_options(weight, _value(weight_kind)),
                    evaluate=evaluate_scores,
                    report=output,
                    report_option="-o",
                    title=title,
                )
                return
            _evaluate_file(
                file,
                label,
                score,
                pos_label,
                weight,
                metric or ["f1"],
                json_out,
                make_console(),
                n_resamples if ci else None,
                seed,
                output,
                weight_kind=_value(weight_kind),
                report_option="-o",
                report_resamples=n_resamples,
                title=title,
                by=by,
            )
