"""``isometrics evaluate --multiclass`` and ``--multilabel``: one class against the rest.

Each ``--score`` column scores one class: with ``--multiclass`` the classes are values of
the one ``--label`` column, named by the score columns' names or by ``--class`` (once per
``--score``, in the same order); with ``--multilabel`` each class has its own 0/1 ``--label``
column, paired with the ``--score`` columns in order. The numbers come from
:func:`isometrics.one_vs_rest`: per class AUROC, average precision, AUPRG and the best
threshold of each metric, and their macro, weighted and micro averages. With
``--multiclass``, also the argmax prediction (each row's class of highest score; a tie goes
to the first of the tied --score columns): its confusion matrix (rows: true class; columns:
predicted class), accuracy, balanced accuracy, macro and weighted F1, from the library's
``confusion_matrix``, ``accuracy_score``, ``balanced_accuracy_score`` and ``f1_score``
(JSON key ``"argmax"``). ``--report`` (and ``isometrics report --multiclass``) writes the
page of :func:`isometrics.report.build_multiclass_report`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from .._core.arrays import python_scalar
from .._core.outputs import json_text, staged_outputs
from .._core.validation import check_scores, label_set
from ..evaluation import evaluate_scores
from ..exceptions import IsometricsError
from ..metrics.registry import parse_metric
from ..report import build_multiclass_report
from ..spaces._argmax import argmax_summary
from ..spaces.multiclass import one_vs_rest
from ..uncertainty import formatting
from ._console import make_console, markup
from ._format import IN_SAMPLE, new_table
from ._io import read_columns
from ._options import ScoredFile

__all__ = ["evaluate_multiclass_file"]

_AVERAGES = ("macro", "weighted", "micro")
_KEYS = formatting.AREA_KEYS


def _class_value(name: str, y: np.ndarray, column: str, option: str) -> Any:
    """The class of ``y`` that ``name`` (a column name or a --class value) stands for."""
    present = label_set(y)
    for value in present.tolist():
        if str(value) == name or (isinstance(value, bool) and name.lower() == str(value).lower()):
            return value
    shown = ", ".join(str(v) for v in present[:10].tolist())
    raise IsometricsError(
        f"{option} {name!r} is not a class of label column {column!r} (classes: {shown}); "
        "name the score columns after the classes, or give --class once per --score."
    )


def _classes(labels: list[str], scores: list[str], classes: list[str] | None, multilabel: bool) -> list[str]:
    if len(labels) != (len(scores) if multilabel else 1):
        raise IsometricsError(
            f"--multilabel pairs one --label column with each --score column; got {len(labels)} --label and "
            f"{len(scores)} --score."
            if multilabel
            else f"give one --label column ({len(labels)} given); several --label columns need --multilabel."
        )
    if classes is not None and len(classes) != len(scores):
        raise IsometricsError(
            f"--class names the class of each --score column, in order; got {len(classes)} "
            f"--class for {len(scores)} --score."
        )
    names = classes if classes is not None else (labels if multilabel else scores)
    if len(set(names)) != len(names) or len(set(scores)) != len(scores):
        raise IsometricsError(
            f"each --score column must score a different class; got scores {scores} for classes {names}."
        )
    if len(scores) < 2 and not multilabel:
        raise IsometricsError(
            "--multiclass needs one --score column per class (at least two); for one class "
            "against the rest use --pos-label CLASS instead."
        )
    return names


def _targets(
    columns: dict[str, np.ndarray], labels: list[str], names: list[str], scores: list[str], multilabel: bool
) -> tuple[np.ndarray, np.ndarray]:
    """``(y_true, classes)``: a label column and its classes, or a 0/1 indicator matrix and its names."""
    if multilabel:
        indicator = []
        for column in labels:
            values = columns[column]
            if values.dtype.kind == "b":
                indicator.append(values.astype(np.int8))
                continue
            if values.dtype.kind not in "iuf" or not np.isin(values, (0, 1)).all():
                shown = ", ".join(str(v) for v in label_set(values)[:6].tolist())
                raise IsometricsError(
                    f"--multilabel needs 0/1 (or true/false) label columns; column {column!r} holds {shown}."
                )
            indicator.append(values.astype(np.int8))
        return np.column_stack(indicator), np.array(names, dtype=object)
    y = columns[labels[0]]
    option = "--class" if names is not scores else "score column"
    classes = [_class_value(name, y, labels[0], option) for name in names]
    missing = [v for v in label_set(y).tolist() if v not in classes]
    if missing:
        raise IsometricsError(
            f"label column {labels[0]!r} has classes with no --score column: "
            f"{', '.join(map(str, missing))}; give one --score column per class."
        )
    return y, np.array(classes, dtype=y.dtype if y.dtype.kind != "U" else object)


def evaluate_multiclass_file(
    request: ScoredFile,
    console: Any,
    *,
    classes: list[str] | None = None,
    multilabel: bool = False,
    report: str | os.PathLike[str] | None = None,
    report_option: str = "--report",
    title: str | None = None,
) -> Any:
    """Read, evaluate one class against the rest per score column, print and (optionally) write JSON and a report.

    With ``--ci`` (``request.interval_resamples``), each class's areas and best-threshold values get bootstrap
    intervals from :func:`isometrics.evaluate_scores` on that class against the rest; the averages are shown
    without intervals.
    """
    file, labels, scores, weight, json_out = (
        request.file,
        list(request.labels),
        request.scores,
        request.weight,
        request.json_out,
    )
    n_resamples, seed, weight_options = request.interval_resamples, request.seed, request.weight_options
    metrics = request.metrics
    names = _classes(labels, scores, classes, multilabel)
    parsed = [parse_metric(m) for m in metrics]
    if report is not None and multilabel:
        raise IsometricsError(
            f"{report_option} writes the multiclass report; --multilabel has none yet: drop "
            f"{report_option}, or report one label column with --pos-label."
        )
    with staged_outputs({"--json": json_out, report_option: report}, inputs=[file]) as outputs:
        if outputs.to_stdout:
            console = make_console(stderr=True)
        wanted = list(dict.fromkeys([*labels, *scores] + ([weight] if weight else [])))
        columns = read_columns(file, wanted)
        y, class_values = _targets(columns, labels, names, scores, multilabel)
        # each column checked by name (numeric, finite) before the matrix is formed
        score_matrix = np.column_stack(
            [check_scores(columns[name], caller="evaluate", name=f"score column {name!r}") for name in scores]
        )
        ovr = one_vs_rest(y, score_matrix, classes=class_values, sample_weight=columns[weight] if weight else None)
        bests = [ovr.best_thresholds(m) for m in parsed]
        intervals: list[dict[str, Any]] = [{} for _ in scores]
        if n_resamples is not None:
            members = y.astype(bool) if multilabel else y[:, None] == class_values[None, :]
            intervals = [
                list(
                    evaluate_scores(
                        members[:, k],
                        {name: score_matrix[:, k]},
                        metrics=parsed,
                        sample_weight=columns[weight] if weight else None,
                        pos_label=True,
                        n_resamples=n_resamples,
                        rng=seed,
                        progress=True,
                        **(weight_options or {}),
                    )
                )[0].intervals
                for k, name in enumerate(scores)
            ]
        weights = columns[weight] if weight else None
        argmax = None if multilabel else argmax_summary(y, score_matrix, class_values, weights)
        _print(console, file, labels, multilabel, ovr, scores, parsed, bests, len(score_matrix), intervals)
        if argmax is not None:
            _print_argmax(console, argmax)
        if report is not None:
            outputs.stage(
                report_option,
                build_multiclass_report(
                    y,
                    score_matrix,
                    classes=class_values,
                    score_names=scores,
                    metrics=parsed,
                    sample_weight=weights,
                    n_resamples=n_resamples,
                    rng=seed,
                    title=f"isometrics: {file.name}" if title is None else title,
                    file_name=file.name,
                    label=labels[0],
                    **(weight_options or {}),
                ),
            )
        if json_out is not None:
            payload = _payload(file, labels, multilabel, weight, ovr, scores, bests, intervals)
            if argmax is not None:
                payload["argmax"] = argmax.to_dict()
            outputs.stage("--json", json_text(payload))
        outputs.commit()
    if report is not None and outputs.destinations[report_option].kind != "stdout":
        console.print(f"Report: {markup(report)}")
    return ovr


def _print_argmax(console: Any, argmax: Any) -> None:
    """The argmax prediction: its confusion matrix (rows true, columns predicted) and its scores."""
    names = [str(c) for c in argmax.classes.tolist()]
    table = new_table(console, "Argmax prediction: confusion matrix (rows: true class, columns: predicted)")
    table.add_column("true \\ predicted", style="bold")
    for name in names:
        table.add_column(markup(name), justify="right")
    for name, row in zip(names, argmax.confusion):
        table.add_row(markup(name), *(formatting.count(float(v)) for v in row))
    console.print(table)
    console.print(
        f"accuracy {formatting.number(argmax.accuracy)}, balanced accuracy "
        f"{formatting.number(argmax.balanced_accuracy)}, macro F1 {formatting.number(argmax.f1_macro)}, "
        f"weighted F1 {formatting.number(argmax.f1_weighted)}"
    )
    console.print(
        "[dim]Argmax: each row predicted as the class of its highest score (a tie goes to the first "
        "of the tied --score columns); a class never predicted has F1 0.[/dim]"
    )


def _areas(ovr: Any, average: str | None) -> tuple[Any, Any, Any]:
    return (ovr.auroc(average=average), ovr.average_precision(average=average), ovr.auprg(average=average))


def _print(
    console: Any,
    file: Path,
    labels: list[str],
    multilabel: bool,
    ovr: Any,
    scores: list[str],
    metrics: list[Any],
    bests: list[Any],
    n_rows: int,
    intervals: list[dict[str, Any]],
) -> None:
    what = (
        f"{len(labels)} label columns" if multilabel else f"label {markup(repr(labels[0]))}, {len(ovr.classes)} classes"
    )
    table = new_table(console, f"{markup(file.name)}: {n_rows:,} rows, {what}, one vs rest")
    table.add_column("class", style="bold")
    table.add_column("score")
    for header in ("support", "prevalence", "AUROC", "AP", "AUPRG"):
        table.add_column(header, justify="right")
    per_class = _areas(ovr, None)
    for k, op in enumerate(ovr.per_class):
        table.add_row(
            markup(ovr.classes[k]),
            markup(scores[k]),
            formatting.count(ovr.support[k]),
            formatting.number(op.prevalence),
            *(formatting.with_interval(float(a[k]), intervals[k].get(key)) for a, key in zip(per_class, _KEYS)),
        )
    table.add_section()
    for average in _AVERAGES:
        table.add_row(f"{average} avg", "", "", "", *(formatting.number(float(a)) for a in _areas(ovr, average)))
    console.print(table)
    console.print(
        "[dim]macro: mean over classes; weighted: by support; micro: every (row, class) pair pooled "
        "into one binary problem.[/dim]"
    )
    first = next((iv for iv in intervals[0].values()), None)
    if first is not None:
        note = formatting.interval_note(first, of=" of each class against the rest", extra="; the averages have none")
        console.print(f"[dim]{markup(note)}[/dim]")
    for m, best in zip(metrics, bests):
        t = new_table(console, f"Best threshold per class for {markup(m.label)} ({IN_SAMPLE})")
        t.add_column("class", style="bold")
        for header in ("threshold", markup(m.label), "precision", "recall", "predicted positive"):
            t.add_column(header, justify="right")
        for k, b in enumerate(best):
            cells = formatting.best_threshold_cells(b, intervals[k].get(m.spec))
            t.add_row(
                markup(ovr.classes[k]), *(cells[c] for c in ("threshold", "value", "precision", "recall", "predicted"))
            )
        console.print(t)


def _payload(
    file: Path,
    labels: list[str],
    multilabel: bool,
    weight: str | None,
    ovr: Any,
    scores: list[str],
    bests: list[Any],
    intervals: list[dict[str, Any]],
) -> dict[str, Any]:
    per_class = _areas(ovr, None)
    return {
        "file": str(file),
        "mode": "multilabel" if multilabel else "multiclass",
        "label": labels if multilabel else labels[0],
        "weight": weight,
        "classes": [python_scalar(c) for c in ovr.classes],
        "per_class": [
            {
                "class": python_scalar(c),
                "score": scores[k],
                "support": float(ovr.support[k]),
                "prevalence": ovr.per_class[k].prevalence,
                "auroc": float(per_class[0][k]),
                "average_precision": float(per_class[1][k]),
                "auprg": float(per_class[2][k]),
                "best_thresholds": [best[k].to_dict() for best in bests],
                "confidence_intervals": {
                    key: {
                        "low": r.confidence_interval[0],
                        "high": r.confidence_interval[1],
                        "confidence_level": r.confidence_level,
                        "n_resamples": len(r.bootstrap_distribution),
                    }
                    for key, r in intervals[k].items()
                },
            }
            for k, c in enumerate(ovr.classes)
        ],
        "averages": {
            average: dict(zip(("auroc", "average_precision", "auprg"), map(float, _areas(ovr, average))))
            for average in _AVERAGES
        },
    }
