"""The options several commands share: ``--weight-kind``, ``--scores``, ``--separator``, the help texts of the
evaluation options, and the checks of their combinations (in the command line's words)."""

from __future__ import annotations

import enum
from typing import Annotated, Any

from ..exceptions import IsometricsError
from ._io import use_separator
from .scores import SCORES_HELP

try:
    import typer
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]


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
        raise IsometricsError(
            "--weight-kind describes the weights of --weight, but no --weight column was given; "
            "add --weight COLUMN or drop --weight-kind."
        )
    return {"weight_kind": weight_kind}


_OUT = "PATH"  # the metavar of every output file option (kept a string: a trailing '/' must survive parsing)
_WEIGHT_KIND_HELP = (
    "What the --weight column means: 'sampling' (importance or survey weights; the default) or "
    "'frequency' (counts of identical rows, resampled as units by the bootstrap)."
)


def _value(kind: WeightKind | None) -> str | None:
    return None if kind is None else kind.value


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


_SCHEDULER_HELP = (
    "Evaluate exactly on the Dask cluster of this scheduler (e.g. tcp://host:8786); FILE is then "
    "a Parquet file or directory the workers can read."
)
_LOCAL_CLUSTER_HELP = (
    "Evaluate exactly on a Dask cluster of N worker processes started on this machine (FILE: a "
    "Parquet file or directory)."
)
_CURVE_DIR_HELP = (
    "With --scheduler or --local-cluster: also write each score column's full curve (threshold, "
    "tp, fp) here as Parquet, one file per score range, in decreasing threshold order."
)
_THRESHOLD_HELP = (
    "State a decision: flag rows with score >= T; prints the counts per 1,000, alert rate, "
    "precision, recall, specificity, F1 and each --metric there (intervals with --ci); JSON: "
    "'decision'."
)
_TOP_K_HELP = (
    "State a decision: flag the K highest-scored rows (a tie split at the K-th score counts its expected "
    "share); reported as --threshold is."
)
_MULTICLASS_HELP = (
    "Multiclass: the --label column holds one class per row and each --score column scores one "
    "class (named after it, or named by --class); evaluates each class against the rest, with "
    "macro, weighted and micro averages."
)
_MULTILABEL_HELP = (
    "Multilabel: give one 0/1 --label column per class, paired in order with the --score "
    "columns; evaluates each class against the rest, with macro, weighted and micro averages."
)

if typer is not None:
    #: --scores PATTERN (cli/scores.py), shared by evaluate, report and compare
    _Scores = Annotated[list[str] | None, typer.Option("--scores", metavar="PATTERN", help=SCORES_HELP)]
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
