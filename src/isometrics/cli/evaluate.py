"""``isometrics evaluate``: its options, and which path evaluates the file (in memory, out of core, on a Dask
cluster, or one class against the rest); the in-memory body is ``cli/in_memory.py``.

The command reads its options into a :class:`~._options.ScoredFile` (what every command reading a scored file
is asked) and an :class:`EvaluateMode` (how and where ``evaluate`` runs), and :func:`evaluate_request` picks
the path.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Annotated, Any

from ..exceptions import IsometricsError
from ._console import make_console
from ._options import (
    _OUT,
    ScoredFile,
    WeightKind,
    _n_columns,
    _one_vs_rest_options,
    _value,
    guard,
)
from .cluster import evaluate_on_cluster, refuse_with_cluster
from .decision import check_rule
from .in_memory import _evaluate_file
from .multiclass import evaluate_multiclass_file
from .out_of_core import evaluate_out_of_core_file, fits_in_memory, is_glob, pattern_files
from .scores import score_columns

try:
    import typer

    from ._options import (
        By,
        Ci,
        Class,
        File,
        JsonOut,
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


__all__ = ["EvaluateMode", "evaluate_request", "register"]

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
_MULTILABEL_HELP = (
    "Multilabel: give one 0/1 --label column per class, paired in order with the --score "
    "columns; evaluates each class against the rest, with macro, weighted and micro averages."
)


@dataclass(frozen=True)
class EvaluateMode:
    """How and where ``evaluate`` runs: the options only it takes."""

    report: str | None = None
    multiclass: bool = False
    multilabel: bool = False
    classes: list[str] | None = None
    out_of_core: bool = False
    memory_limit: str | None = None
    temp_directory: str | None = None
    scheduler: str | None = None
    local_cluster: int | None = None
    curve_dir: str | None = None
    threshold: float | None = None
    top_k: float | None = None


def register(app: Any) -> None:
    """Add the ``evaluate`` command to the Typer ``app``."""

    @app.command()
    def evaluate(
        file: File,
        label: Annotated[
            list[str],
            typer.Option(
                "--label", help="Column with the true labels (with --multilabel: one 0/1 column per class, repeated)."
            ),
        ],
        score: Score = None,
        scores: Scores = None,
        pos_label: PosLabel = None,
        weight: Weight = None,
        metric: Metric = None,
        json_out: JsonOut = None,
        ci: Ci = False,
        n_resamples: NResamples = 1000,
        seed: Seed = None,
        report: Annotated[
            str | None,
            typer.Option(
                "--report", metavar=_OUT, help="Also write a self-contained HTML report here ('-': standard output)."
            ),
        ] = None,
        weight_kind: WeightKindOption = None,
        multiclass: Multiclass = False,
        multilabel: Annotated[bool, typer.Option("--multilabel", help=_MULTILABEL_HELP)] = False,
        class_: Class = None,
        out_of_core: Annotated[
            bool,
            typer.Option(
                "--out-of-core",
                help="Evaluate files larger than memory: DuckDB "
                "groups and sorts each score column within --memory-limit, "
                "spilling to --temp-directory; exact results. Chosen by itself "
                "when the file would not fit in memory, or FILE is a glob.",
            ),
        ] = False,
        memory_limit: Annotated[
            str | None,
            typer.Option(
                "--memory-limit",
                metavar="SIZE",
                help="Memory DuckDB may "
                "use out of core, e.g. 4GB, 512MiB, 25% (default: a "
                "quarter of physical memory).",
            ),
        ] = None,
        temp_directory: Annotated[
            str | None,
            typer.Option(
                "--temp-directory",
                metavar="DIR",
                help="Where DuckDB "
                "spills out of core (default: the system's temporary "
                "directory); needs up to about 50 bytes per row free.",
            ),
        ] = None,
        scheduler: Annotated[str | None, typer.Option("--scheduler", metavar="ADDRESS", help=_SCHEDULER_HELP)] = None,
        local_cluster: Annotated[
            int | None, typer.Option("--local-cluster", metavar="N", min=1, help=_LOCAL_CLUSTER_HELP)
        ] = None,
        curve_dir: Annotated[str | None, typer.Option("--curve-dir", metavar=_OUT, help=_CURVE_DIR_HELP)] = None,
        threshold: Annotated[float | None, typer.Option("--threshold", metavar="T", help=_THRESHOLD_HELP)] = None,
        top_k: Annotated[float | None, typer.Option("--top-k", metavar="K", help=_TOP_K_HELP)] = None,
        by: By = None,
        separator: Separator = None,
    ) -> None:
        """Print n, prevalence, AUROC, AP, AUPRG and the best threshold of each metric, per score column.

        Best thresholds are chosen on these data, so their values are optimistic; validate one on new data.
        """
        with guard(file, _n_columns(score, weight) + len(label) - 1):
            check_rule(threshold, top_k)  # a bad rule is said before the file is read
            request = ScoredFile(
                file,
                tuple(label),
                score_columns(file, score, scores, exclude=[*label, weight, by]),
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
            mode = EvaluateMode(
                report,
                multiclass,
                multilabel,
                class_,
                out_of_core,
                memory_limit,
                temp_directory,
                scheduler,
                local_cluster,
                curve_dir,
                threshold,
                top_k,
            )
            evaluate_request(request, mode)


def evaluate_request(request: ScoredFile, mode: EvaluateMode) -> None:
    """Evaluate ``request`` on the path ``mode`` names (or the file's size chooses), print and write its outputs."""
    file = request.file
    rule = check_rule(mode.threshold, mode.top_k)
    if mode.scheduler is not None or mode.local_cluster is not None:
        if mode.out_of_core:
            raise IsometricsError(
                "--out-of-core evaluates on this machine and --scheduler/--local-cluster on a Dask cluster: choose one."
            )
        refuse_with_cluster(
            **{
                "--multiclass": mode.multiclass,
                "--multilabel": mode.multilabel,
                "--ci": request.ci,
                "--report": mode.report is not None,
                "--class": bool(mode.classes),
                "--weight-kind frequency": request.weight_kind == WeightKind.frequency.value,
                "several --label": len(request.labels) != 1,
                "--threshold/--top-k": rule is not None,
                "--by": request.by is not None,
            }
        )
        evaluate_on_cluster(
            file,
            request.labels[0],
            request.scores,
            request.pos_label,
            request.weight,
            request.metrics,
            request.json_out,
            make_console(),
            scheduler=mode.scheduler,
            local_cluster=mode.local_cluster,
            curve_dir=mode.curve_dir,
        )
        return
    if mode.curve_dir is not None:
        raise IsometricsError(
            "--curve-dir writes the curves computed on a cluster; add --scheduler ADDRESS or --local-cluster N."
        )
    refused = [
        name
        for name, given in (
            ("--ci", request.ci),
            ("--report", mode.report is not None),
            ("--multiclass", mode.multiclass),
            ("--multilabel", mode.multilabel),
            ("--class", bool(mode.classes)),
            ("--weight-kind frequency", request.weight_kind == WeightKind.frequency.value),
            ("--threshold/--top-k", rule is not None),
            ("--by", request.by is not None),
        )
        if given
    ]
    why = ""
    if not mode.out_of_core and not refused:  # the automatic switch
        if is_glob(file):
            n = len(pattern_files(file))  # no file matches: said before anything is announced
            why = (
                f"{str(file)!r} is a pattern matching {n} file{'s' if n != 1 else ''}: evaluating "
                f"{'them together' if n != 1 else 'it'} out of core"
            )
        elif file.is_file():
            fits, why = fits_in_memory(file, _n_columns(request.scores, request.weight))
            if not fits:
                why += (
                    ": evaluating out of core instead (DuckDB, spilling to disk; pass --out-of-core to "
                    "choose this yourself)"
                )
    if mode.out_of_core or why:
        if refused:
            raise IsometricsError(
                f"--out-of-core does not take {', '.join(refused)}: out of core the "
                "score columns are not held in memory, which bootstrap intervals, reports "
                "and per-class evaluations need; drop them, or evaluate a sample in memory."
            )
        if len(request.labels) != 1:
            raise IsometricsError(f"give one --label column ({len(request.labels)} given).")
        if why:
            print(f"isometrics: {why}.", file=sys.stderr)
        evaluate_out_of_core_file(
            file,
            request.labels[0],
            request.scores,
            request.pos_label,
            request.weight,
            request.metrics,
            request.json_out,
            make_console(),
            mode.memory_limit,
            mode.temp_directory,
        )
        return
    if mode.memory_limit is not None or mode.temp_directory is not None:
        raise IsometricsError("--memory-limit and --temp-directory apply out of core; add --out-of-core, or drop them.")
    if mode.multiclass or mode.multilabel:
        if rule is not None:
            raise IsometricsError(
                "--threshold and --top-k state a decision on one binary target; for one "
                "class use --pos-label CLASS with that class's --score column."
            )
        _one_vs_rest_options(mode.multiclass, mode.multilabel, request.pos_label, mode.report, request.by)
        evaluate_multiclass_file(
            request, make_console(), classes=mode.classes, multilabel=mode.multilabel, report=mode.report
        )
        return
    if mode.classes:
        raise IsometricsError(
            "--class names the class of each --score column with --multiclass or "
            "--multilabel; add one of them, or use --pos-label for one class."
        )
    _evaluate_file(request, make_console(), report=mode.report, decision=True, rule=rule)
