"""``isometrics evaluate``: its options, and which path evaluates the file (in memory, out of core, on a Dask
cluster, or one class against the rest); the in-memory body is ``cli/in_memory.py``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

from ..evaluation import evaluate_scores
from ..exceptions import IsometricsError
from ._console import make_console
from ._options import (
    _CURVE_DIR_HELP,
    _LOCAL_CLUSTER_HELP,
    _MULTICLASS_HELP,
    _MULTILABEL_HELP,
    _OUT,
    _SCHEDULER_HELP,
    _THRESHOLD_HELP,
    _TOP_K_HELP,
    _WEIGHT_KIND_HELP,
    WeightKind,
    _n_columns,
    _one_vs_rest_options,
    _value,
    _weight_options,
)
from .cluster import evaluate_on_cluster, refuse_with_cluster
from .decision import check_rule
from .groups import BY_HELP
from .in_memory import _evaluate_file, _print_results
from .multiclass import evaluate_multiclass_file
from .out_of_core import evaluate_out_of_core_file, fits_in_memory, is_glob, pattern_files
from .scores import score_columns

try:
    import typer

    from ._options import Separator, _Scores
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]


__all__ = ["register"]


def register(app: Any, guard: Any) -> None:
    """Add the ``evaluate`` command to the Typer ``app``; ``guard`` is the CLI's error boundary."""

    @app.command()
    def evaluate(
        file: Annotated[Path, typer.Argument(help="CSV or Parquet file with a label column and score columns.")],
        label: Annotated[
            list[str],
            typer.Option(
                "--label", help="Column with the true labels (with --multilabel: one 0/1 column per class, repeated)."
            ),
        ],
        score: Annotated[
            list[str] | None,
            typer.Option(
                "--score",
                help="Score column (repeat for several models; with --multiclass or --multilabel, one per class).",
            ),
        ] = None,
        scores: _Scores = None,
        pos_label: Annotated[
            str | None,
            typer.Option(
                "--pos-label",
                help="Value of the positive class (inferred "
                "for 0/1, -1/1, false/true); with more than two classes, "
                "that class against the rest.",
            ),
        ] = None,
        weight: Annotated[str | None, typer.Option("--weight", help="Column of non-negative sample weights.")] = None,
        metric: Annotated[
            list[str] | None,
            typer.Option(
                "--metric",
                help="Metric to pick a threshold for, e.g. "
                "f1, f0.5, 'g(beta=2, rho=-3)', mcc, kappa, "
                "net_benefit@0.2 (repeatable).",
            ),
        ] = None,
        json_out: Annotated[
            str | None,
            typer.Option("--json", metavar=_OUT, help="Also write the results as JSON here ('-': standard output)."),
        ] = None,
        ci: Annotated[
            bool,
            typer.Option(
                "--ci",
                help="Add bootstrap confidence intervals (a metric's interval is "
                "that of its threshold re-optimised in every replicate).",
            ),
        ] = False,
        n_resamples: Annotated[int, typer.Option("--n-resamples", min=2, help="Bootstrap replicates for --ci.")] = 1000,
        seed: Annotated[int | None, typer.Option("--seed", help="Seed of the bootstrap.")] = None,
        report: Annotated[
            str | None,
            typer.Option(
                "--report", metavar=_OUT, help="Also write a self-contained HTML report here ('-': standard output)."
            ),
        ] = None,
        weight_kind: Annotated[WeightKind | None, typer.Option("--weight-kind", help=_WEIGHT_KIND_HELP)] = None,
        multiclass: Annotated[bool, typer.Option("--multiclass", help=_MULTICLASS_HELP)] = False,
        multilabel: Annotated[bool, typer.Option("--multilabel", help=_MULTILABEL_HELP)] = False,
        class_: Annotated[
            list[str] | None,
            typer.Option(
                "--class",
                help="With --multiclass or --multilabel: the "
                "class each --score column scores, once per --score, in "
                "order (default: the column names).",
            ),
        ] = None,
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
        by: Annotated[str | None, typer.Option("--by", metavar="COLUMN", help=BY_HELP)] = None,
        separator: Separator = None,
    ) -> None:
        """Print n, prevalence, AUROC, AP, AUPRG and the best threshold of each metric, per score column.

        Best thresholds are chosen on these data, so their values are optimistic; validate one on new data.
        """
        with guard(file, _n_columns(score, weight) + len(label) - 1):
            rule = check_rule(threshold, top_k)
            score = score_columns(file, score, scores, exclude=[*label, weight, by])
            if scheduler is not None or local_cluster is not None:
                if out_of_core:
                    raise IsometricsError(
                        "--out-of-core evaluates on this machine and --scheduler/--local-cluster on "
                        "a Dask cluster: choose one."
                    )
                refuse_with_cluster(
                    **{
                        "--multiclass": multiclass,
                        "--multilabel": multilabel,
                        "--ci": ci,
                        "--report": report is not None,
                        "--class": bool(class_),
                        "--weight-kind frequency": weight_kind == WeightKind.frequency,
                        "several --label": len(label) != 1,
                        "--threshold/--top-k": rule is not None,
                        "--by": by is not None,
                    }
                )
                evaluate_on_cluster(
                    file,
                    label[0],
                    score,
                    pos_label,
                    weight,
                    metric or ["f1"],
                    json_out,
                    make_console(),
                    scheduler=scheduler,
                    local_cluster=local_cluster,
                    curve_dir=curve_dir,
                    print_results=_print_results,
                )
                return
            if curve_dir is not None:
                raise IsometricsError(
                    "--curve-dir writes the curves computed on a cluster; add --scheduler ADDRESS or --local-cluster N."
                )
            refused = [
                name
                for name, given in (
                    ("--ci", ci),
                    ("--report", report is not None),
                    ("--multiclass", multiclass),
                    ("--multilabel", multilabel),
                    ("--class", bool(class_)),
                    ("--weight-kind frequency", weight_kind == WeightKind.frequency),
                    ("--threshold/--top-k", rule is not None),
                    ("--by", by is not None),
                )
                if given
            ]
            why = ""
            if not out_of_core and not refused:  # the automatic switch
                if is_glob(file):
                    n = len(pattern_files(file))  # no file matches: said before anything is announced
                    why = (
                        f"{str(file)!r} is a pattern matching {n} file{'s' if n != 1 else ''}: evaluating "
                        f"{'them together' if n != 1 else 'it'} out of core"
                    )
                elif file.is_file():
                    fits, why = fits_in_memory(file, _n_columns(score, weight))
                    if not fits:
                        why += (
                            ": evaluating out of core instead (DuckDB, spilling to disk; pass --out-of-core to "
                            "choose this yourself)"
                        )
            if out_of_core or why:
                if refused:
                    raise IsometricsError(
                        f"--out-of-core does not take {', '.join(refused)}: out of core the "
                        "score columns are not held in memory, which bootstrap intervals, reports "
                        "and per-class evaluations need; drop them, or evaluate a sample in memory."
                    )
                if len(label) != 1:
                    raise IsometricsError(f"give one --label column ({len(label)} given).")
                if why:
                    print(f"isometrics: {why}.", file=sys.stderr)
                evaluate_out_of_core_file(
                    file,
                    label[0],
                    score,
                    pos_label,
                    weight,
                    metric or ["f1"],
                    json_out,
                    make_console(),
                    memory_limit,
                    temp_directory,
                    print_results=_print_results,
                )
                return
            if memory_limit is not None or temp_directory is not None:
                raise IsometricsError(
                    "--memory-limit and --temp-directory apply out of core; add --out-of-core, or drop them."
                )
            if multiclass or multilabel:
                if rule is not None:
                    raise IsometricsError(
                        "--threshold and --top-k state a decision on one binary target; for one "
                        "class use --pos-label CLASS with that class's --score column."
                    )
                _one_vs_rest_options(multiclass, multilabel, pos_label, report, by)
                evaluate_multiclass_file(
                    file,
                    label,
                    score,
                    class_,
                    weight,
                    metric or ["f1"],
                    json_out,
                    make_console(),
                    multilabel=multilabel,
                    n_resamples=n_resamples if ci else None,
                    seed=seed,
                    weight_options=_weight_options(weight, _value(weight_kind)),
                    evaluate=evaluate_scores,
                    report=report,
                )
                return
            if class_:
                raise IsometricsError(
                    "--class names the class of each --score column with --multiclass or "
                    "--multilabel; add one of them, or use --pos-label for one class."
                )
            if len(label) != 1:
                raise IsometricsError(
                    f"give one --label column ({len(label)} given); several --label columns need --multilabel."
                )
            _evaluate_file(
                file,
                label[0],
                score,
                pos_label,
                weight,
                metric or ["f1"],
                json_out,
                make_console(),
                n_resamples if ci else None,
                seed,
                report,
                weight_kind=_value(weight_kind),
                report_resamples=n_resamples,
                decision=True,
                rule=rule,
                by=by,
            )
