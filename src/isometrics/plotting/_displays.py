"""The curve Displays (ROC, precision-recall, PRG): compute once (from the operating points), then plot."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.count_table import table_from_scores
from .._core.html import summarised
from .._core.validation import column_name
from .._typing import ArrayLike, FloatArray
from ..metrics._arguments import parse_metric_argument
from ..metrics.gain import gain_transform
from ..metrics.registry import Metric
from ..spaces.interpolation import interpolate_pr_points
from ..spaces.level_curves import level_curve
from ..spaces.operating_points import OperatingPoints
from ..spaces.thresholds import BestThreshold
from ._docs import _CURVE, _declared, _fill
from ._estimator import _FromEstimator
from ._group import _per_column
from ._style import _area_label, _axes, _legend, _legend_entry, _line_kwargs, _once, _reference

_DEFAULT_LEVELS = (0.2, 0.4, 0.6, 0.8)


def _name(name: str | None, y_score: Any) -> str | None:
    """The curve's name: as given, else the name of the score column (a pandas or Polars Series)."""
    return name if name is not None else column_name(y_score)


def _levels(metric: Metric | None, levels: Any) -> tuple[float, ...]:
    if metric is None:
        return ()
    return tuple(_DEFAULT_LEVELS if levels is None else levels)


@dataclass
class _Base(_FromEstimator):
    """Shared fields of the curve displays."""

    name: str | None = None
    best: BestThreshold | None = None
    metric: Metric | None = None
    prevalence: float = 0.5
    level_values: tuple[float, ...] = ()
    line_kwargs: dict[str, Any] = field(default_factory=dict, repr=False)
    line_: Any = field(default=None, init=False, repr=False)
    hull_line_: Any = field(default=None, init=False, repr=False)
    best_marker_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    def _curve(
        self,
        ax: Any,
        x: Any,
        y: Any,
        name: str | None,
        area_name: str,
        area: float | None,
        kwargs: dict[str, Any],
        **defaults: Any,
    ) -> Any:
        """The model's curve: its defaults, then the user's keywords; the area in the label."""
        label = _area_label(name or self.name, area_name, area)
        (line,) = ax.plot(x, y, **{**defaults, **_line_kwargs(self.line_kwargs, kwargs, label=label)})
        return line

    def _hull(self, ax: Any, line: Any, x: Any, y: Any, entry: str) -> None:
        """The model's hull, dashed in its colour; one legend entry per axes for every model's."""
        (self.hull_line_,) = ax.plot(x, y, linestyle="--", color=line.get_color(), alpha=0.6)
        _legend_entry(ax, "hull", entry, linestyle="--")

    def _best(self, ax: Any, line: Any, x: float, y: float) -> None:
        """The best point in the model's colour; one legend entry per axes and metric."""
        assert self.best is not None
        (self.best_marker_,) = ax.plot([x], [y], "o", color=line.get_color())
        _legend_entry(ax, "best:" + self.best.metric.spec, f"best {self.best.metric.label}", marker="o", linestyle="")

    def _finish(self, ax: Any, line: Any, xlabel: str, ylabel: str, title: str) -> None:
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_aspect("equal")
        _legend(ax)
        self.line_, self.ax_, self.figure_ = line, ax, ax.figure

    def _level_lines(self, ax: Any, space: str) -> list[Any]:
        lines: list[Any] = []
        if self.metric is None or not _once(ax, f"levels:{space}:{self.metric.spec}:{self.prevalence:.12g}"):
            return lines
        for k, value in enumerate(self.level_values):
            curve = level_curve(self.metric, value, space=space, prevalence=self.prevalence)
            label = f"{self.metric.label} isometrics" if k == 0 else None
            lines.append(_reference(ax, curve.x, curve.y, color="0.6", linestyle=":", label=label))
        return lines


def _setup(
    y_true: ArrayLike,
    y_score: ArrayLike,
    sample_weight: ArrayLike | None,
    pos_label: Any,
    metric: str | Metric | None,
) -> tuple[OperatingPoints, Metric | None, BestThreshold | None]:
    """The operating points, the metric and its best threshold, validated in the name of the declared method."""
    op = table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=OperatingPoints,
    )
    m = None if metric is None else parse_metric_argument(metric)
    best = None if m is None else op.best_threshold(m)
    return op, m, best


@summarised()
@_fill
@dataclass
class RocDisplay(_Base):
    """ROC curve with its convex hull, chance diagonal, best point and level curves.

    The best point is that of a threshold metric, whose level curves are drawn at the
    data's prevalence.

    Build with :meth:`from_predictions` or :meth:`from_estimator`, then call :meth:`plot`.
    Several Displays drawn on one axes share one chance line and one set of level curves,
    and the legend lists each model with its AUROC.

    Parameters
    ----------
    %(fields)s
    fpr, tpr : ndarray of shape (n_points,)
        The curve.
    hull_fpr, hull_tpr : ndarray of shape (n_vertices,)
        The ROC convex hull.
    auroc : float or None
        The area under the ROC curve, shown in the legend.
    """

    fpr: FloatArray = field(default_factory=lambda: np.zeros(0))
    tpr: FloatArray = field(default_factory=lambda: np.zeros(0))
    hull_fpr: FloatArray = field(default_factory=lambda: np.zeros(0))
    hull_tpr: FloatArray = field(default_factory=lambda: np.zeros(0))
    auroc: float | None = None

    @classmethod
    @_declared("RocDisplay.from_predictions", **_CURVE)
    @_per_column
    @_fill
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        name: str | None = None,
        metric: str | Metric | None = None,
        levels: Any = None,
        **kwargs: Any,
    ) -> RocDisplay:
        """Compute the display's arrays from labels and scores (see :func:`isometrics.roc_curve`).

        Parameters
        ----------
        %(data)s
        %(weight_pos)s
        %(name_metric)s
        %(kwargs)s

        Returns
        -------
        RocDisplay
            Not drawn yet: call :meth:`plot`.
        """
        op, m, best = _setup(y_true, y_score, sample_weight, pos_label, metric)
        roc, hull = op.roc_curve(), op.roc_convex_hull()
        return cls(
            name=_name(name, y_score),
            best=best,
            metric=m,
            prevalence=op.prevalence,
            level_values=_levels(m, levels),
            line_kwargs=kwargs,
            fpr=roc.fpr,
            tpr=roc.tpr,
            hull_fpr=hull.fpr,
            hull_tpr=hull.tpr,
            auroc=op.auroc(),
        )

    @_fill
    def plot(
        self, ax: Any = None, *, name: str | None = None, hull: bool = True, chance: bool = True, **kwargs: Any
    ) -> RocDisplay:
        """Draw on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure when None.
        name : str, default=None
            Overrides the name given to :meth:`from_predictions`.
        hull : bool, default=True
            Draw the convex hull (dashed, in the curve's colour).
        chance : bool, default=True
            Draw the chance diagonal (once per axes).
        %(plot_kwargs)s

        Returns
        -------
        RocDisplay
            The display itself, with ``line_``, ``hull_line_``, ``best_marker_``, ``ax_`` and ``figure_``.
        """
        ax = _axes(ax)
        line = self._curve(ax, self.fpr, self.tpr, name, "AUROC", self.auroc, kwargs)
        if hull:
            self._hull(ax, line, self.hull_fpr, self.hull_tpr, "convex hull")
        if chance and _once(ax, "chance"):
            _reference(ax, [0, 1], [0, 1], label="chance")
        self._level_lines(ax, "roc")
        if self.best is not None:
            self._best(ax, line, self.best.fp / (self.best.fp + self.best.tn), self.best.recall)
        self._finish(ax, line, "false positive rate", "true positive rate (recall)", "ROC")
        return self


@summarised()
@_fill
@dataclass
class PrecisionRecallDisplay(_Base):
    """Precision-recall curve with its achievable curve, baseline, best point and level curves.

    The achievable curve is the ROC hull mapped to PR space; the baseline is the prevalence.

    Several Displays drawn on one axes share one baseline per prevalence and one set of
    level curves, and the legend lists each model with its average precision.

    Parameters
    ----------
    %(fields)s
    precision, recall : ndarray of shape (n_points,)
        The curve (step-wise between operating points, as average precision counts it).
    achievable_precision, achievable_recall : ndarray
        The ROC hull mapped to PR space with count interpolation (Davis & Goadrich).
    average_precision : float or None
        The average precision (the area under the step-wise curve), shown in the legend.
    """

    precision: FloatArray = field(default_factory=lambda: np.zeros(0))
    recall: FloatArray = field(default_factory=lambda: np.zeros(0))
    achievable_precision: FloatArray = field(default_factory=lambda: np.zeros(0))
    achievable_recall: FloatArray = field(default_factory=lambda: np.zeros(0))
    average_precision: float | None = None

    @classmethod
    @_declared("PrecisionRecallDisplay.from_predictions", **_CURVE)
    @_per_column
    @_fill
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        name: str | None = None,
        metric: str | Metric | None = None,
        levels: Any = None,
        **kwargs: Any,
    ) -> PrecisionRecallDisplay:
        """Compute the display's arrays (see :func:`isometrics.precision_recall_curve`).

        Parameters
        ----------
        %(data)s
        %(weight_pos)s
        %(name_metric)s
        %(kwargs)s

        Returns
        -------
        PrecisionRecallDisplay
            Not drawn yet: call :meth:`plot`.
        """
        op, m, best = _setup(y_true, y_score, sample_weight, pos_label, metric)
        pr = op.precision_recall_curve()
        idx = op.roc_convex_hull().indices
        tp, fp = op.tp[idx], op.fp[idx]
        # flat from the origin to the first vertex, then count interpolation between vertices
        rec, prec = [0.0], [float(tp[1] / (tp[1] + fp[1]))]
        for k in range(1, len(idx) - 1):
            if tp[k + 1] > tp[k]:
                pts = interpolate_pr_points(
                    tp[k], fp[k], tp[k + 1], fp[k + 1], n_positives=op.n_positives, step=(tp[k + 1] - tp[k]) / 20
                )
                rec.extend(pts.recall.tolist())
                prec.extend(pts.precision.tolist())
        return cls(
            name=_name(name, y_score),
            best=best,
            metric=m,
            prevalence=op.prevalence,
            level_values=_levels(m, levels),
            line_kwargs=kwargs,
            precision=pr.precision,
            recall=pr.recall,
            achievable_precision=np.array(prec),
            achievable_recall=np.array(rec),
            average_precision=op.average_precision(),
        )

    @_fill
    def plot(
        self, ax: Any = None, *, name: str | None = None, hull: bool = True, baseline: bool = True, **kwargs: Any
    ) -> PrecisionRecallDisplay:
        """Draw on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure when None.
        name : str, default=None
            Overrides the name given to :meth:`from_predictions`.
        hull : bool, default=True
            Draw the achievable curve (dashed, in the curve's colour).
        baseline : bool, default=True
            Draw the prevalence line (once per axes and prevalence).
        %(plot_kwargs)s

        Returns
        -------
        PrecisionRecallDisplay
            The display itself, with ``line_``, ``hull_line_``, ``best_marker_``, ``ax_`` and ``figure_``.
        """
        ax = _axes(ax)
        line = self._curve(
            ax, self.recall[1:], self.precision[1:], name, "AP", self.average_precision, kwargs, drawstyle="steps-pre"
        )
        if hull:
            self._hull(ax, line, self.achievable_recall, self.achievable_precision, "achievable (hull)")
        if baseline and _once(ax, f"prevalence:{self.prevalence:.12g}"):
            _reference(ax, [0, 1], [self.prevalence, self.prevalence], label=f"prevalence {self.prevalence:.3g}")
        self._level_lines(ax, "pr")
        if self.best is not None:
            self._best(ax, line, self.best.recall, self.best.precision)
        self._finish(ax, line, "recall", "precision", "Precision-recall")
        return self


@summarised()
@_fill
@dataclass
class PrgDisplay(_Base):
    """Precision-Recall-Gain curve with its hull, baseline, best point and level curves.

    Drawn in the unit square; the baseline is the F1 line through always-positive.

    Several Displays drawn on one axes share one baseline and one set of level curves, and
    the legend lists each model with its AUPRG.

    Parameters
    ----------
    %(fields)s
    precision_gain, recall_gain : ndarray of shape (n_points,)
        The curve (points with a true positive).
    hull_precision_gain, hull_recall_gain : ndarray
        The PRG convex hull.
    auprg : float or None
        The area under the PRG curve, shown in the legend.
    """

    precision_gain: FloatArray = field(default_factory=lambda: np.zeros(0))
    recall_gain: FloatArray = field(default_factory=lambda: np.zeros(0))
    hull_precision_gain: FloatArray = field(default_factory=lambda: np.zeros(0))
    hull_recall_gain: FloatArray = field(default_factory=lambda: np.zeros(0))
    auprg: float | None = None

    @classmethod
    @_declared("PrgDisplay.from_predictions", **_CURVE)
    @_per_column
    @_fill
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        name: str | None = None,
        metric: str | Metric | None = None,
        levels: Any = None,
        **kwargs: Any,
    ) -> PrgDisplay:
        """Compute the display's arrays (see :func:`isometrics.prg_curve`).

        Parameters
        ----------
        %(data)s
        %(weight_pos)s
        %(name_metric)s
        %(kwargs)s

        Returns
        -------
        PrgDisplay
            Not drawn yet: call :meth:`plot`.
        """
        op, m, best = _setup(y_true, y_score, sample_weight, pos_label, metric)
        pg, rg, _ = op.prg_curve()
        hull = op.prg_convex_hull()
        finite = op.tp > 0
        return cls(
            name=_name(name, y_score),
            best=best,
            metric=m,
            prevalence=op.prevalence,
            level_values=_levels(m, levels),
            line_kwargs=kwargs,
            precision_gain=pg[finite],
            recall_gain=rg[finite],
            hull_precision_gain=hull.precision_gain,
            hull_recall_gain=hull.recall_gain,
            auprg=op.auprg(),
        )

    @_fill
    def plot(
        self, ax: Any = None, *, name: str | None = None, hull: bool = True, baseline: bool = True, **kwargs: Any
    ) -> PrgDisplay:
        """Draw the unit square of PRG space on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure when None.
        name : str, default=None
            Overrides the name given to :meth:`from_predictions`.
        hull : bool, default=True
            Draw the PRG convex hull (dashed, in the curve's colour).
        baseline : bool, default=True
            Draw the F1 baseline of always-positive (once per axes).
        %(plot_kwargs)s

        Returns
        -------
        PrgDisplay
            The display itself, with ``line_``, ``hull_line_``, ``best_marker_``, ``ax_`` and ``figure_``.
        """
        ax = _axes(ax)
        line = self._curve(ax, self.recall_gain, self.precision_gain, name, "AUPRG", self.auprg, kwargs)
        if hull:
            self._hull(ax, line, self.hull_recall_gain, self.hull_precision_gain, "convex hull")
        if baseline and _once(ax, "prg-baseline"):
            _reference(ax, [0, 1], [1, 0], label="F1 of always-positive")
        self._level_lines(ax, "prg")
        if self.best is not None and self.best.recall > 0 and self.best.precision > 0:
            rg, pg = gain_transform(np.array([self.best.recall, self.best.precision]), self.prevalence)
            self._best(ax, line, float(rg), float(pg))
        self._finish(ax, line, "recall gain", "precision gain", "Precision-Recall-Gain")
        return self
