"""``isometrics report``: a self-contained interactive HTML report of one file's score columns (the body is
``cli/in_memory.py``, or ``cli/multiclass.py`` with ``--multiclass``)."""

from __future__ import annotations

from typing import Annotated, Any

from ..exceptions import IsometricsError
from ._console import make_console
from ._options import _OUT, ScoredFile, _n_columns, _one_vs_rest_options, _value, guard
from .in_memory import _evaluate_file
from .multiclass import evaluate_multiclass_file
from .scores import score_columns

try:
    import typer

    from ._options import (
        By,
        Ci,
        Class,
        File,
        JsonOut,
        Label,
        Metric,
        Multiclass,
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


__all__ = ["register", "report_request"]


def register(app: Any) -> None:
    """Add the ``report`` command to the Typer ``app``."""

    @app.command(name="report")
    def report_command(
        file: File,
        label: Label,
        output: Annotated[
            str,
            typer.Option("-o", "--output", metavar=_OUT, help="Where to write the HTML report ('-': standard output)."),
        ],
        score: Score = None,
        pos_label: PosLabel = None,
        weight: Weight = None,
        metric: Metric = None,
        ci: Ci = False,
        n_resamples: NResamples = 1000,
        seed: Seed = None,
        weight_kind: WeightKindOption = None,
        title: Annotated[
            str | None, typer.Option("--title", help="Title of the report (default: 'isometrics: FILE').")
        ] = None,
        scores: Scores = None,
        multiclass: Multiclass = False,
        class_: Class = None,
        by: By = None,
        separator: Separator = None,
        json_out: JsonOut = None,
    ) -> None:
        """Write a self-contained interactive HTML report (ROC, PR, PRG, level curves, paired comparisons)."""
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
                ci,
                seed,
                json_out,
                by,
            )
            report_request(request, output, title=title, multiclass=multiclass, classes=class_)


def report_request(
    request: ScoredFile, output: str, *, title: str | None, multiclass: bool, classes: list[str] | None
) -> None:
    """Write the report of ``request`` to ``output`` (one class against the rest per column with ``multiclass``)."""
    if classes and not multiclass:
        raise IsometricsError(
            "--class names the class of each --score column with --multiclass; add "
            "--multiclass, or use --pos-label for one class."
        )
    if multiclass:
        _one_vs_rest_options(True, False, request.pos_label, None, request.by)
        evaluate_multiclass_file(
            request, make_console(), classes=classes, report=output, report_option="-o", title=title
        )
        return
    _evaluate_file(request, make_console(), report=output, report_option="-o", title=title)
