"""The multiclass report: one self-contained HTML page for a scorer with one score column per class.

It shows each class against the rest (AUROC, average precision, AUPRG, best thresholds,
with their macro, weighted and micro averages, from :func:`isometrics.one_vs_rest`; with
``n_resamples``, every one with a bootstrap interval, the averages' from ``_averages``), each
class's ROC, PR and PRG panels (the binary report's figure builder, one panel set per class,
from :func:`isometrics.evaluate_scores` on that class against the rest), and the argmax
prediction (each row's class of highest score, a tie going to the first column): its
confusion matrix as a table of counts shaded by the share of the true class, accuracy,
balanced accuracy, macro and weighted F1, and per-class precision, recall and F1. The plotly
bundle draws no heatmap, so the matrix is an HTML table; inline styles are allowed by the
page's Content Security Policy, scripts only by hash, as in :func:`build_report`.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.resources import files
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, InBody, RandomState, String, in_body, validate_params
from .._core.frames import frame_columns
from .._core.validation import as_1d, as_array
from .._typing import ArrayLike
from .._version import __version__
from ..evaluation import evaluate_scores
from ..exceptions import IsometricsError
from ..metrics._arguments import parse_metric_arguments
from ..metrics.registry import Metric
from ..spaces._argmax import TIE_BREAK, argmax_summary
from ..spaces.multiclass import one_vs_rest
from ..uncertainty import formatting
from ._averages import _average_intervals
from ._bundle import _plotly_bundle
from ._data import _Shared
from ._figures import _panels
from ._page import _CSP, _csp_hash, _environment, _require, _script_source
from ._text import _bests

__all__ = ["build_multiclass_report"]

_AVERAGES = ("macro", "weighted", "micro")


def _shade(share: float) -> str:
    """Inline style of a confusion-matrix cell: blue, as dark as the share of its true class."""
    alpha = 0.0 if share != share else 0.85 * share
    text = "#fff" if alpha > 0.5 else "#222"
    return f"background-color: rgba(31, 119, 180, {alpha:.3f}); color: {text}"


def _confusion_rows(classes: list[str], matrix: np.ndarray) -> list[dict[str, Any]]:
    rows = []
    for i, name in enumerate(classes):
        total = matrix[i].sum()
        cells = [
            dict(
                text=formatting.count(v),
                style=_shade(v / total if total > 0 else float("nan")),
                title=f"true {name}, predicted {classes[j]}: {formatting.count(v)}"
                + (f" ({100 * v / total:.1f} % of true {name})" if total > 0 else ""),
            )
            for j, v in enumerate(matrix[i])
        ]
        rows.append(dict(name=name, cells=cells, total=formatting.count(total)))
    return rows


@validate_params(
    in_body("classes", "score_names", "weight_kind", "n_resamples")
    | {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "metrics": InBody("a sequence of metric names or Metrics", invalid=[["no-such-metric"]]),
        "sample_weight": [ARRAY, None],
        "rng": RandomState(),
        "title": String(),
        "file_name": String(),
        "label": String(),
    }
)
def build_multiclass_report(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    classes: ArrayLike | None = None,
    score_names: Sequence[str] | None = None,
    metrics: Sequence[str | Metric] = ("f1",),
    sample_weight: ArrayLike | None = None,
    weight_kind: str | None = None,
    n_resamples: int | None = None,
    rng: Any = None,
    title: str = "isometrics multiclass report",
    file_name: str = "",
    label: str = "",
) -> str:
    """Render a multiclass evaluation (one score column per class) as one self-contained HTML page.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Class labels.
    y_score : array-like of shape (n_samples, n_classes), or data frame
        Scores of each class, e.g. ``predict_proba`` output; column ``k`` scores
        ``classes[k]``.
    classes : array-like of shape (n_classes,), default=None
        Labels of the score columns, as in :func:`isometrics.one_vs_rest`.
    score_names : sequence of str, default=None
        Names of the score columns shown in the tables; default: a data frame's column
        names, else ``column 0``, ``column 1``, ...
    metrics : sequence of str or Metric, default=("f1",)
        Metrics whose best threshold (each class against the rest) is shown.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.
    weight_kind : {"sampling", "frequency"}, default=None
        What the weights mean, as in :func:`isometrics.evaluate_scores`.
    n_resamples : int, default=None
        Bootstrap replicates of each class's intervals (areas and best-threshold values),
        and of the percentile intervals of the macro, weighted and micro averages and the
        argmax measures (rows resampled, every measure recomputed); ``None``: no intervals.
    rng : int or numpy.random.Generator, default=None
        Seed of the bootstrap.
    title : str, default="isometrics multiclass report"
        Page title (escaped).
    file_name, label : str, default=""
        Shown in the header (escaped).

    Returns
    -------
    str
        The HTML page: per-class and averaged one-vs-rest areas, per-class best
        thresholds, the argmax prediction's confusion matrix (rows: true class; columns:
        predicted class; ties go to the first column) with accuracy, balanced accuracy,
        macro and weighted F1, and each class's ROC, PR and PRG panels.

    Raises
    ------
    ValueError
        If ``y_true`` is not one label per sample, ``score_names`` does not name every
        column, ``metrics`` is empty, and for the bad inputs of
        :func:`isometrics.one_vs_rest` and :func:`isometrics.evaluate_scores`.
    InvalidParameterError
        If ``rng`` is not a seed or a Generator, or ``title``, ``file_name`` or ``label``
        is not a str. Every message names ``build_multiclass_report``.
    ImportError
        If plotly or jinja2 is missing.

    See Also
    --------
    isometrics.report.build_report : the report of binary scorers.

    Examples
    --------
    >>> from isometrics.report import build_multiclass_report
    >>> page = build_multiclass_report([0, 1, 2, 2], [[.8, .1, .1], [.2, .6, .2], [.1, .2, .7], [.3, .3, .4]])
    >>> "confusion-matrix" in page
    True
    """
    jinja2, _ = _require()
    chosen = parse_metric_arguments(metrics)
    if not chosen:
        raise IsometricsError(f"{current_caller()}: `metrics` is empty; give at least one, e.g. metrics=['f1'].")
    if np.ndim(as_array(y_true, name="y_true")) != 1:
        raise IsometricsError(
            f"{current_caller()}: y_true must hold one class label per sample (shape (n_samples,)); "
            "a multilabel indicator matrix has no argmax prediction."
        )
    ovr = one_vs_rest(y_true, y_score, classes=classes, sample_weight=sample_weight)
    y = as_1d(y_true, name="y_true")
    matrix = as_array(y_score, name="y_score")
    frame = frame_columns(y_score)
    names = (
        list(score_names)
        if score_names is not None
        else list(frame)
        if frame is not None
        else [f"column {k}" for k in range(matrix.shape[1])]
    )
    if len(names) != matrix.shape[1]:
        raise IsometricsError(
            f"{current_caller()}: score_names has {len(names)} names for {matrix.shape[1]} score columns; "
            "name every column, in order."
        )
    shown = [str(c) for c in ovr.classes.tolist()]
    options: dict[str, Any] = {} if weight_kind is None else {"weight_kind": weight_kind}
    evaluations = [
        evaluate_scores(
            y == c,
            {shown[k]: matrix[:, k]},
            metrics=chosen,
            sample_weight=sample_weight,
            pos_label=True,
            n_resamples=n_resamples,
            rng=rng,
            **options,
        )[0]
        for k, c in enumerate(ovr.classes)
    ]
    argmax = argmax_summary(y, matrix, ovr.classes, sample_weight)
    areas = [ovr.auroc(average=None), ovr.average_precision(average=None), ovr.auprg(average=None)]
    class_rows = [
        dict(
            name=shown[k],
            score=names[k],
            support=formatting.count(ovr.support[k]),
            prevalence=formatting.number(r.prevalence),
            auroc=formatting.with_interval(float(areas[0][k]), r.intervals.get("auroc")),
            ap=formatting.with_interval(float(areas[1][k]), r.intervals.get("average_precision")),
            auprg=formatting.with_interval(float(areas[2][k]), r.intervals.get("auprg")),
        )
        for k, r in enumerate(evaluations)
    ]
    interval = next((iv for r in evaluations for iv in r.intervals.values()), None)
    averaged: dict[str, tuple[float, float]] = {}
    if interval is not None and n_resamples is not None:
        weights = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
        averaged, _ = _average_intervals(
            y, matrix, ovr.classes, weights, weight_kind, n_resamples, interval.confidence_level, rng
        )

    def shown_ci(value: float, key: str) -> str:
        return formatting.with_interval(value, averaged.get(key))

    average_rows = [
        dict(
            name=f"{a} average",
            auroc=shown_ci(ovr.auroc(average=a), f"auroc/{a}"),
            ap=shown_ci(ovr.average_precision(average=a), f"average_precision/{a}"),
            auprg=shown_ci(ovr.auprg(average=a), f"auprg/{a}"),
        )
        for a in _AVERAGES
    ]
    best_sections = [
        dict(
            label=m.label,
            spec=m.spec,
            rows=[
                dict(
                    name=shown[k],
                    **formatting.best_threshold_cells(b, r.intervals.get(m.spec)),
                )
                for k, r in enumerate(evaluations)
                for b in _bests(r, [m])
            ],
        )
        for m in chosen
    ]
    intervals_note = (
        ""
        if interval is None
        else (
            formatting.interval_note(interval, of=" of each class against the rest")
            + " The averages and the argmax measures have percentile intervals "
            f"from {n_resamples:,} replicates of the rows, every measure recomputed on each (a replicate missing a "
            "class is dropped)."
        )
    )
    shared = _Shared()  # each class's points, thinned to display resolution, stored once
    panels = [
        dict(index=k, name=shown[k], score=names[k], figure=_panels([r], chosen, shared, [shared.add(r, chosen)]))
        for k, r in enumerate(evaluations)
    ]
    page_js = _script_source(
        (files("isometrics.report") / "static" / "figures.js").read_text(encoding="utf-8")
        + "\nwindow.isometricsFigures();\n",
        "the page's script",
    )
    plotly_js = _script_source(_plotly_bundle(), "the Plotly bundle")
    csp = _CSP.format(scripts=" ".join(_csp_hash(code) for code in (plotly_js, page_js)))
    weighted = sample_weight is not None
    return (
        _environment(jinja2)
        .get_template("multiclass.html.j2")
        .render(
            csp=csp,
            title=title,
            file_name=file_name,
            label=label,
            n_samples=f"{len(y):,}",
            total_weight=formatting.count(float(ovr.support.sum())) if weighted else "",
            weight_kind=weight_kind or "",
            classes=shown,
            metrics=[dict(index=j, label=m.label, spec=m.spec) for j, m in enumerate(chosen)],
            class_rows=class_rows,
            average_rows=average_rows,
            best_sections=best_sections,
            intervals_note=intervals_note,
            tie_break=TIE_BREAK,
            accuracy=shown_ci(argmax.accuracy, "accuracy"),
            balanced_accuracy=shown_ci(argmax.balanced_accuracy, "balanced_accuracy"),
            f1_macro=shown_ci(argmax.f1_macro, "f1_macro"),
            f1_weighted=shown_ci(argmax.f1_weighted, "f1_weighted"),
            confusion=_confusion_rows(shown, argmax.confusion),
            predicted_totals=[formatting.count(v) for v in argmax.confusion.sum(axis=0)],
            argmax_rows=[
                dict(
                    name=shown[k],
                    precision=formatting.number(argmax.precision[k]),
                    recall=formatting.number(argmax.recall[k]),
                    f1=formatting.number(argmax.f1[k]),
                    support=formatting.count(float(argmax.confusion[k].sum())),
                )
                for k in range(len(shown))
            ],
            panels=panels,
            shared=shared.json(),
            plotly_js=plotly_js,
            page_js=page_js,
            version=__version__,
        )
    )
