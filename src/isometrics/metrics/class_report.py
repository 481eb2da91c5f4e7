"""A report of any metrics of the family on predicted labels, per class and averaged.

:func:`metric_report` is scikit-learn's ``classification_report`` for any metric of
:func:`~isometrics.parse_metric`: each class against the rest is scored from its
confusion counts by the metric's count kernel (the same kernels as the threshold
metrics), with micro, macro and weighted averages. It needs only ``_core`` and the
metrics below it; a new column format goes on :class:`MetricReport`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.confusion import check_label_pair, class_counts_of_pair
from .._core.constraints import ARRAY, ZERO_DIVISION, InBody, Integral, Interval, validate_params
from .._core.html import html_table, summarised
from .._core.validation import check_integer, check_zero_division, frame_columns
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError
from ._arguments import parse_metric_arguments
from .kernels import fill_undefined
from .registry import Metric

__all__ = ["MetricReport", "metric_report"]


@summarised()
@dataclass(frozen=True)
class MetricReport:
    """Per-class values of several metrics, with their averages.

    Attributes
    ----------
    labels : ndarray of shape (n_classes,)
        The classes, in row order.
    metrics : tuple of Metric
        The metrics, in column order.
    values : ndarray of shape (n_classes, n_metrics), float64
        ``values[k, j]``: metric ``j`` of class ``k`` against the rest.
    support : ndarray of shape (n_classes,), float64
        Weighted number of true samples of each class.
    averages : dict of str to ndarray of shape (n_metrics,)
        ``"micro"`` (the metric on pooled counts), ``"macro"`` (mean over classes) and
        ``"weighted"`` (mean weighted by support).
    """

    labels: np.ndarray
    metrics: tuple[Metric, ...]
    values: FloatArray
    support: FloatArray
    averages: dict[str, FloatArray]

    def to_dict(self) -> dict[str, Any]:
        """Nested dict: ``{class or average: {metric spec: value, "support": weight}}``."""
        out: dict[str, Any] = {}
        for k, label in enumerate(self.labels.tolist()):
            row = {m.spec: float(v) for m, v in zip(self.metrics, self.values[k])}
            row["support"] = float(self.support[k])
            out[str(label)] = row
        for name, vals in self.averages.items():
            out[f"{name} avg"] = {m.spec: float(v) for m, v in zip(self.metrics, vals)}
        return out

    @validate_params({"digits": Interval(Integral, 0, 17)}, name="MetricReport.to_text")
    def to_text(self, digits: int = 3) -> str:
        """A plain-text table, one row per class and per average."""
        digits = check_integer(digits, "digits", low=0, high=17)
        names = [m.label for m in self.metrics]
        first = max([len(str(x)) for x in self.labels.tolist()] + [len("weighted avg")])
        width = max([len(n) for n in names] + [digits + 3])
        head = " " * first + "".join(f"  {n:>{width}}" for n in names) + f"  {'support':>9}"
        lines = [head, ""]
        for k, label in enumerate(self.labels.tolist()):
            cells = "".join(f"  {v:>{width}.{digits}f}" for v in self.values[k])
            lines.append(f"{str(label):>{first}}{cells}  {self.support[k]:>9.6g}")
        lines.append("")
        total = self.support.sum()
        for name, vals in self.averages.items():
            cells = "".join(f"  {v:>{width}.{digits}f}" for v in vals)
            lines.append(f"{name + ' avg':>{first}}{cells}  {total:>9.6g}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        header = ["class", *[m.label for m in self.metrics], "support"]
        rows = [[label, *vals, sup] for label, vals, sup in zip(self.labels.tolist(), self.values, self.support)]
        rows += [[f"{name} avg", *vals, self.support.sum()] for name, vals in self.averages.items()]
        return html_table(header, rows, caption="isometrics metric report")


@validate_params(
    {
        "y_true": ARRAY,
        "y_pred": ARRAY,
        "metrics": InBody("a sequence of metric names or Metrics", invalid=[["no-such-metric"]]),
        "labels": [ARRAY, None],
        "sample_weight": [ARRAY, None],
        "zero_division": ZERO_DIVISION,
    }
)
def metric_report(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    metrics: Sequence[str | Metric] = ("precision", "recall", "f1"),
    labels: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: Any = "warn",
) -> MetricReport | dict[str, MetricReport]:
    """Any metrics of the family, per class (one against the rest) and averaged.

    Like scikit-learn's ``classification_report``, but for any metric of
    :func:`parse_metric` (``"g(beta=2, rho=-3)"``, ``"youden"``, ...), returning one
    object with ``to_text()`` and ``to_dict()``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        True labels, or a multilabel indicator matrix of 0 and 1 (one row of the report
        per column).
    y_pred : array-like of shape (n_samples,) or (n_samples, n_labels), or data frame
        Predicted labels, in the format of ``y_true``. With one label per sample in
        ``y_true``, a data frame (pandas, Polars, pyarrow) of shape (n_samples, n_models)
        holds several models' predictions, one column each: the result is then one report
        per column, keyed by the column's name.
    metrics : sequence of str or Metric, default=("precision", "recall", "f1")
        The columns of the report.
    labels : array-like of shape (n_labels,), default=None
        Classes to report, in this order (for multilabel data, column indices);
        ``None``: the sorted union of the labels (every column).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``None`` weighs every sample 1.
    zero_division : {"warn", 0.0, 1.0, np.nan}, default="warn"
        Value of a metric that is undefined for a class (e.g. precision of a class never
        predicted). ``"warn"`` gives 0.0 and an ``UndefinedMetricWarning``.

    Returns
    -------
    MetricReport or dict of str to MetricReport
        Per-class values, supports, and micro, macro and weighted averages; a dict of
        them, in column order, when ``y_pred`` is a data frame of several models'
        predictions.

    Raises
    ------
    ValueError
        If ``metrics`` is empty or a metric cannot be parsed, and for the bad inputs
        of :func:`isometrics.class_counts`.

    See Also
    --------
    precision_recall_fscore_support, one_vs_rest

    Notes
    -----
    The micro average evaluates the metric on the counts pooled over classes, so for
    single-label multiclass data micro precision, recall and F1 all equal accuracy.

    Examples
    --------
    >>> from isometrics import metric_report
    >>> report = metric_report([0, 1, 2, 2], [0, 2, 2, 1], metrics=["precision", "f2"])
    >>> report.values.round(3)
    array([[1. , 1. ],
           [0. , 0. ],
           [0.5, 0.5]])
    """
    models = frame_columns(y_pred) if frame_columns(y_true) is None else None
    if models is not None:
        if not models:
            raise InvalidParameterError(
                f"{current_caller()}: `y_pred` is a data frame with no columns; pass at least one column of predicted labels."
            )
        reports: dict[str, MetricReport] = {}
        for name, column in models.items():  # a loop, not a comprehension: no frame between (warnings' stacklevel)
            reports[name] = _report(
                y_true,
                column,
                parsed_metrics=metrics,
                labels=labels,
                sample_weight=sample_weight,
                zero_division=zero_division,
            )
        return reports
    return _report(
        y_true, y_pred, parsed_metrics=metrics, labels=labels, sample_weight=sample_weight, zero_division=zero_division
    )


def _report(
    y_true: ArrayLike,
    y_pred: ArrayLike,
    *,
    parsed_metrics: Sequence[str | Metric],
    labels: ArrayLike | None,
    sample_weight: ArrayLike | None,
    zero_division: Any,
) -> MetricReport:
    """:func:`metric_report` of one model's predictions."""
    parsed = tuple(parse_metric_arguments(parsed_metrics))
    if not parsed:
        raise InvalidParameterError(
            f"{current_caller()}: `metrics` is empty; pass at least one metric, e.g. metrics=['precision', 'recall', 'f1']."
        )
    check_zero_division(zero_division)
    yt, yp, w = check_label_pair(y_true, y_pred, sample_weight, multilabel=True)
    counts = class_counts_of_pair(yt, yp, w, labels)
    pooled = (counts.tp.sum(), counts.fp.sum(), counts.fn.sum(), counts.tn.sum())
    values = np.column_stack([m.from_counts(counts.tp, counts.fp, counts.fn, counts.tn) for m in parsed])
    micro = np.array([float(m.from_counts(*pooled)) for m in parsed])
    undefined = np.isnan(values)

    def message() -> str:
        bad = sorted({parsed[j].spec for j in np.flatnonzero(undefined.any(axis=0))})
        return (
            f"{', '.join(bad)} ill-defined for some classes and set to 0.0; use the `zero_division` parameter "
            "to control this behavior."
        )

    values = fill_undefined(
        values, zero_division=zero_division, message=message, stacklevel=4
    )  # here, _report, metric_report, the user's line
    support = counts.support
    macro = np.nanmean(values, axis=0) if not np.isnan(values).all() else np.full(len(parsed), np.nan)
    weighted = np.average(values, axis=0, weights=support) if support.sum() > 0 else np.full(len(parsed), np.nan)
    return MetricReport(counts.labels, parsed, values, support, {"micro": micro, "macro": macro, "weighted": weighted})
