"""The shape of a command: every option that more than one command takes, declared once, and the request a
command's body reads its options into.

A command module exposes ``register(app)``; its command's parameters are the Annotated types below (an option
that one command alone takes is declared in its module); its body builds one :class:`ScoredFile` (or its own
parameters) and hands it to one call inside :func:`guard`. ``tests/presentation/test_cli_options.py`` reads
the Typer application and fails when an option name means two things (help, type or default differ) in two
commands.
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

from ..exceptions import IsometricsError
from ._console import command_guard
from ._io import describe_input, use_separator
from .scores import SCORES_HELP

try:
    import typer
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

__all__ = ["ScoredFile", "WeightKind", "guard"]


def _n_columns(scores: list[str] | None, weight: str | None) -> int:
    return 1 + len(set(scores or [])) + (weight is not None)


def guard(file: Path | None = None, n_columns: int = 0) -> Any:
    """The command's boundary (:func:`command_guard`), naming the input's size if it runs out of memory."""
    return command_guard(input_size=None if file is None else lambda: describe_input(file, n_columns))


class WeightKind(str, enum.Enum):
    """What the weights of ``--weight`` mean (``weight_kind`` of the library)."""

    sampling = "sampling"
    frequency = "frequency"


def _weight_options(weight: str | None, weight_kind: str | None) -> dict[str, Any]:
    """Keyword arguments for the library: ``weight_kind`` only when given, and only with weights."""
    if weight_kind is None:
        return {}
    if weight is None:
        raise IsometricsError(
            "--weight-kind describes the weights of --weight, but no --weight column was given; "
            "add --weight COLUMN or drop --weight-kind."
        )
    return {"weight_kind": weight_kind}


def _value(kind: WeightKind | None) -> str | None:
    return None if kind is None else kind.value


@dataclass(frozen=True)
class ScoredFile:
    """What a command that reads a scored file was asked: the file, its columns, the metrics, the bootstrap.

    The body of ``evaluate``, ``report`` and ``compare`` reads its options into one of these and passes it on.
    ``n_resamples`` replicates draw the intervals when ``ci`` is set (:attr:`interval_resamples`), and a report's
    paired comparisons always; ``labels`` holds one column (several only with ``--multilabel``).
    """

    file: Path
    labels: tuple[str, ...]
    scores: list[str]
    pos_label: str | None = None
    weight: str | None = None
    weight_kind: str | None = None
    metrics: list[str] = field(default_factory=lambda: ["f1"])
    n_resamples: int = 1000
    ci: bool = False
    seed: int | None = None
    json_out: str | os.PathLike[str] | None = None
    by: str | None = None

    @property
    def label(self) -> str:
        """The one label column of a binary evaluation."""
        if len(self.labels) != 1:
            raise IsometricsError(
                f"give one --label column ({len(self.labels)} given); several --label columns need --multilabel."
            )
        return self.labels[0]

    @property
    def interval_resamples(self) -> int | None:
        """Replicates of the intervals: ``n_resamples`` with ``--ci``, else None (no intervals)."""
        return self.n_resamples if self.ci else None

    @property
    def weight_options(self) -> dict[str, Any]:
        """``weight_kind`` for the library, only when given (and refused without --weight)."""
        return _weight_options(self.weight, self.weight_kind)

    @property
    def n_columns(self) -> int:
        """Columns read at once (the out-of-memory message's size)."""
        return _n_columns(self.scores, self.weight) + len(self.labels) - 1


def _one_vs_rest_options(
    multiclass: bool, multilabel: bool, pos_label: str | None, report: str | None, by: str | None = None
) -> None:
    """Refuse what the per-class evaluation does not do, in the command line's words."""
    if multiclass and multilabel:
        raise IsometricsError(
            "--multiclass and --multilabel exclude each other: one label column with one class "
            "per row is --multiclass; one 0/1 label column per class is --multilabel."
        )
    mode = "--multiclass" if multiclass else "--multilabel"
    refused = [
        name
        for name, given in (
            ("--pos-label", pos_label is not None),
            ("--report", report is not None and multilabel),
            ("--by", by is not None),
        )
        if given
    ]
    if refused:
        raise IsometricsError(
            f"{mode} evaluates every class against the rest and does not take "
            f"{', '.join(refused)}; for one class's report use --pos-label CLASS with that class's "
            "--score column."
        )


_OUT = "PATH"  # the metavar of every output file option (kept a string: a trailing '/' must survive parsing)

#: The help of --by (evaluate, report, compare).
BY_HELP = (
    "Also evaluate within each group of this column (region, site, sex...): every area, the chosen "
    "threshold's precision, recall and alert rate, the threshold best within each group, and (with "
    "bootstrap replicates) intervals and each group against the rest, Holm-adjusted over the groups."
)
_MULTICLASS_HELP = (
    "Multiclass: the --label column holds one class per row and each --score column scores one "
    "class (named after it, or named by --class); evaluates each class against the rest, with "
    "macro, weighted and micro averages (a report also shows each class's panels and the argmax "
    "confusion matrix)."
)

if typer is not None:
    # ------------------------------------------------------------------ the scored file (evaluate, report, compare)
    File = Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")]
    #: --label of report and compare (evaluate's is repeatable, for --multilabel).
    Label = Annotated[str, typer.Option("--label", help="Column with the true labels.")]
    Score = Annotated[
        list[str] | None,
        typer.Option(
            "--score",
            help="Score column: one per model (repeatable), or with --multiclass or --multilabel one per class.",
        ),
    ]
    #: --scores PATTERN (cli/scores.py)
    Scores = Annotated[list[str] | None, typer.Option("--scores", metavar="PATTERN", help=SCORES_HELP)]
    PosLabel = Annotated[
        str | None,
        typer.Option(
            "--pos-label",
            help="Value of the positive class (inferred for 0/1, -1/1, false/true); with more than two "
            "classes, that class against the rest.",
        ),
    ]
    Weight = Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")]
    WeightKindOption = Annotated[
        WeightKind | None,
        typer.Option(
            "--weight-kind",
            help="What the --weight column means: 'sampling' (importance or survey weights; the default) or "
            "'frequency' (counts of identical rows, resampled as units by the bootstrap).",
        ),
    ]
    Metric = Annotated[
        list[str] | None,
        typer.Option(
            "--metric",
            help="Metric of the best threshold (and of the comparisons), e.g. f1, f0.5, 'g(beta=2, rho=-3)', "
            "mcc, kappa, net_benefit@0.2 (repeatable; default: f1).",
        ),
    ]
    Ci = Annotated[
        bool,
        typer.Option(
            "--ci",
            help="Add bootstrap confidence intervals of the areas and of each metric (that of its threshold "
            "re-optimised in every replicate).",
        ),
    ]
    NResamples = Annotated[
        int,
        typer.Option(
            "--n-resamples",
            min=2,
            help="Bootstrap replicates (of --ci, and of the paired comparisons of two or more scores).",
        ),
    ]
    Seed = Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")]
    JsonOut = Annotated[
        str | None,
        typer.Option(
            "--json",
            metavar=_OUT,
            help="Also write the results (with a report: and its summary) as JSON here ('-': standard output).",
        ),
    ]
    By = Annotated[str | None, typer.Option("--by", metavar="COLUMN", help=BY_HELP)]
    #: --separator of every command that reads a CSV file (its callback sets it for the whole command).
    Separator = Annotated[
        str | None,
        typer.Option(
            "--separator",
            metavar="CHAR",
            callback=use_separator,
            help="Field separator of a CSV file (default: ',', a tab for .tsv; a header read as one column that "
            "holds ';', a tab or '|' is split on it, as stderr says).",
        ),
    ]
    Multiclass = Annotated[bool, typer.Option("--multiclass", help=_MULTICLASS_HELP)]
    Class = Annotated[
        list[str] | None,
        typer.Option(
            "--class",
            help="With --multiclass or --multilabel: the class each --score column scores, once per --score, "
            "in order (default: the column names).",
        ),
    ]

    # ------------------------------------------------------------------ isometrics benchmark build | fit | test
    Cache = Annotated[
        Path,
        typer.Option(
            "--cache",
            help="Folder of the benchmark cache (one file per data set and model; a rerun skips what is done).",
        ),
    ]
    Folds = Annotated[
        int,
        typer.Option(
            "--folds",
            min=2,
            help="Folds of the stratified cross-validation (build makes them; fit and test read the cache built "
            "with them).",
        ),
    ]
    BenchmarkSeed = Annotated[
        int,
        typer.Option(
            "--seed",
            min=0,
            help="Seed of the cross-validation folds (build makes them; fit and test read them) and of "
            "test's random selection.",
        ),
    ]
    DropModel = Annotated[
        list[str] | None,
        typer.Option("--drop-model", help="Leave this cached model out of the bank (repeatable)."),
    ]
    MaxItems = Annotated[int, typer.Option("--max-items", min=1, help="Most data sets an adaptive test trains on.")]
    Response = Annotated[
        str,
        typer.Option(
            "--metric",
            help="The response the item bank is fitted to: auroc, auprg, average_precision or a threshold metric "
            "such as f1.",
        ),
    ]
