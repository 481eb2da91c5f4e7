"""Display classes: compute once (from the operating points), then plot."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._core.count_table import _from_scores
from .._core.html import summarised
from .._core.validation import check_unit_interval, column_name
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError
from ..metrics.gain import _gain
from ..metrics.registry import Metric, _parse_metric
from ..spaces.interpolation import interpolate_pr_points
from ..spaces.level_curves import LevelCurve, break_even_line, level_curve
from ..spaces.operating_points import OperatingPoints
from ..spaces.thresholds import BestThreshold

_DEFAULT_LEVELS = (0.2, 0.4, 0.6, 0.8)


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("plotting needs matplotlib: pip install 'isometrics[plot]'") from exc
    return plt


def _axes(ax: Any) -> Any:
    if ax is None:
        _, ax = _pyplot().subplots()
    return ax


def _scores_of(estimator: Any, X: Any) -> FloatArray:
    """Positive-class scores of a fitted classifier: predict_proba[:, 1], else decision_function."""
    if hasattr(estimator, "predict_proba"):
        proba = np.asarray(estimator.predict_proba(X))
        if proba.ndim != 2 or proba.shape[1] != 2:
            raise InvalidParameterError("from_estimator: the estimator must be a binary classifier "
                                        f"(predict_proba gave shape {proba.shape}).")
        return proba[:, 1]
    if hasattr(estimator, "decision_function"):
        return np.asarray(estimator.decision_function(X), dtype=np.float64)
    raise InvalidParameterError("from_estimator: the estimator has neither predict_proba nor decision_function.")


def _once(ax: Any, key: str) -> bool:
    """True the first time ``key`` is asked for on these axes: references (chance lines,
    baselines, isometrics) are drawn once when several models share the axes."""
    drawn = getattr(ax, "_isometrics_drawn", None)
    if drawn is None:
        drawn = set()
        ax._isometrics_drawn = drawn
    if key in drawn:
        return False
    drawn.add(key)
    return True


def _name(name: str | None, y_score: Any) -> str | None:
    """The curve's name: as given, else the name of the score column (a pandas or Polars Series)."""
    return name if name is not None else column_name(y_score)


def _levels(metric: Metric | None, levels: Any) -> tuple[float, ...]:
    if metric is None:
        return ()
    return tuple(_DEFAULT_LEVELS if levels is None else levels)


@summarised()
@dataclass
class _Base:
    """Shared fields of the curve displays."""

    name: str | None = None
    best: BestThreshold | None = None
    metric: Metric | None = None
    prevalence: float = 0.5
    level_values: tuple[float, ...] = ()
    line_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    def _finish(self, ax: Any, line: Any, xlabel: str, ylabel: str, title: str) -> None:
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        ax.set_aspect("equal")
        if any(h.get_label() and not h.get_label().startswith("_") for h in ax.get_lines()):
            ax.legend(loc="best", fontsize="small")
        self.line_, self.ax_, self.figure_ = line, ax, ax.figure

    def _level_lines(self, ax: Any, space: str) -> list[Any]:
        lines: list[Any] = []
        if self.metric is None or not _once(ax, f"levels:{space}:{self.metric.spec}:{self.prevalence:.12g}"):
            return lines
        for k, value in enumerate(self.level_values):
            curve = level_curve(self.metric, value, space=space, prevalence=self.prevalence)
            label = f"{self.metric.label} isometrics" if k == 0 else None
            (line,) = ax.plot(curve.x, curve.y, color="0.6", linewidth=0.8, linestyle=":", label=label)
            lines.append(line)
        return lines


def _setup(y_true: ArrayLike, y_score: ArrayLike, sample_weight: ArrayLike | None, pos_label: Any,
           metric: str | Metric | None, caller: str) -> tuple[OperatingPoints, Metric | None, BestThreshold | None]:
    op = _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, caller=caller, table=OperatingPoints)
    m = None if metric is None else _parse_metric(metric, caller=caller)
    best = None if m is None else op.best_threshold(m)
    return op, m, best


@summarised()
@dataclass
class RocDisplay(_Base):
    """ROC curve with its convex hull, the chance diagonal, the best point for a metric and
    the metric's level curves (given the prevalence).

    Build with :meth:`from_predictions` or :meth:`from_estimator`, then call :meth:`plot`.

    Parameters
    ----------
    fpr, tpr : ndarray of shape (n_points,)
        The curve.
    hull_fpr, hull_tpr : ndarray of shape (n_vertices,)
        The ROC convex hull.
    """

    fpr: FloatArray = field(default_factory=lambda: np.zeros(0))
    tpr: FloatArray = field(default_factory=lambda: np.zeros(0))
    hull_fpr: FloatArray = field(default_factory=lambda: np.zeros(0))
    hull_tpr: FloatArray = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def from_predictions(cls, y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None,
                         pos_label: Any = None, name: str | None = None, metric: str | Metric | None = None,
                         levels: Any = None) -> RocDisplay:
        """Compute the display's arrays from labels and scores (see :func:`isometrics.roc_curve`)."""
        op, m, best = _setup(y_true, y_score, sample_weight, pos_label, metric,
                             "RocDisplay.from_predictions")
        roc, hull = op.roc_curve(), op.roc_convex_hull()
        return cls(name=_name(name, y_score), best=best, metric=m, prevalence=op.prevalence,
                   level_values=_levels(m, levels),
                   fpr=roc.fpr, tpr=roc.tpr, hull_fpr=hull.fpr, hull_tpr=hull.tpr)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: ArrayLike, **kwargs: Any) -> RocDisplay:
        """Score ``X`` with a fitted binary classifier, then :meth:`from_predictions`."""
        return cls.from_predictions(y, _scores_of(estimator, X), **kwargs)

    def plot(self, ax: Any = None, *, name: str | None = None, hull: bool = True, chance: bool = True) -> RocDisplay:
        """Draw on ``ax`` (a new figure when None); returns self with ``line_``, ``ax_``, ``figure_``."""
        ax = _axes(ax)
        label = name or self.name or "ROC"
        (line,) = ax.plot(self.fpr, self.tpr, label=label)
        if hull:
            ax.plot(self.hull_fpr, self.hull_tpr, linestyle="--", color=line.get_color(), alpha=0.6,
                    label=f"{label} hull")
        if chance and _once(ax, "chance"):
            ax.plot([0, 1], [0, 1], color="0.5", linewidth=0.8, label="chance")
        self._level_lines(ax, "roc")
        if self.best is not None:
            ax.plot([self.best.fp / (self.best.fp + self.best.tn)], [self.best.recall], "o", color=line.get_color(),
                    label=f"best {self.best.metric.label} (t={self.best.threshold:.3g})")
        self._finish(ax, line, "false positive rate", "true positive rate (recall)", "ROC")
        return self


@summarised()
@dataclass
class PrecisionRecallDisplay(_Base):
    """Precision-recall curve with the achievable (hull) curve, the prevalence baseline, the
    best point for a metric and its level curves.

    Parameters
    ----------
    precision, recall : ndarray of shape (n_points,)
        The curve (step-wise between operating points, as average precision counts it).
    achievable_precision, achievable_recall : ndarray
        The ROC hull mapped to PR space with count interpolation (Davis & Goadrich).
    """

    precision: FloatArray = field(default_factory=lambda: np.zeros(0))
    recall: FloatArray = field(default_factory=lambda: np.zeros(0))
    achievable_precision: FloatArray = field(default_factory=lambda: np.zeros(0))
    achievable_recall: FloatArray = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def from_predictions(cls, y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None,
                         pos_label: Any = None, name: str | None = None, metric: str | Metric | None = None,
                         levels: Any = None) -> PrecisionRecallDisplay:
        """Compute the display's arrays (see :func:`isometrics.precision_recall_curve`)."""
        op, m, best = _setup(y_true, y_score, sample_weight, pos_label, metric,
                             "PrecisionRecallDisplay.from_predictions")
        pr = op.precision_recall_curve()
        idx = op.roc_convex_hull().indices
        tp, fp = op.tp[idx], op.fp[idx]
        # flat from the origin to the first vertex, then count interpolation between vertices
        rec, prec = [0.0], [float(tp[1] / (tp[1] + fp[1]))]
        for k in range(1, len(idx) - 1):
            if tp[k + 1] > tp[k]:
                pts = interpolate_pr_points(tp[k], fp[k], tp[k + 1], fp[k + 1], n_positives=op.n_positives,
                                            step=(tp[k + 1] - tp[k]) / 20)
                rec.extend(pts.recall.tolist())
                prec.extend(pts.precision.tolist())
        return cls(name=_name(name, y_score), best=best, metric=m, prevalence=op.prevalence,
                   level_values=_levels(m, levels),
                   precision=pr.precision, recall=pr.recall, achievable_precision=np.array(prec),
                   achievable_recall=np.array(rec))

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: ArrayLike, **kwargs: Any) -> PrecisionRecallDisplay:
        """Score ``X`` with a fitted binary classifier, then :meth:`from_predictions`."""
        return cls.from_predictions(y, _scores_of(estimator, X), **kwargs)

    def plot(self, ax: Any = None, *, name: str | None = None, hull: bool = True,
             baseline: bool = True) -> PrecisionRecallDisplay:
        """Draw on ``ax`` (a new figure when None); returns self with ``line_``, ``ax_``, ``figure_``."""
        ax = _axes(ax)
        label = name or self.name or "PR"
        (line,) = ax.plot(self.recall[1:], self.precision[1:], drawstyle="steps-pre", label=label)
        if hull:
            ax.plot(self.achievable_recall, self.achievable_precision, linestyle="--", color=line.get_color(),
                    alpha=0.6, label=f"{label} achievable")
        if baseline and _once(ax, f"prevalence:{self.prevalence:.12g}"):
            ax.plot([0, 1], [self.prevalence, self.prevalence], color="0.5", linewidth=0.8,
                    label=f"prevalence {self.prevalence:.3g}")
        self._level_lines(ax, "pr")
        if self.best is not None:
            ax.plot([self.best.recall], [self.best.precision], "o", color=line.get_color(),
                    label=f"best {self.best.metric.label} (t={self.best.threshold:.3g})")
        self._finish(ax, line, "recall", "precision", "Precision-recall")
        return self


@summarised()
@dataclass
class PrgDisplay(_Base):
    """Precision-Recall-Gain curve (the unit square) with its hull, the F1 baseline through
    always-positive, the best point for a metric and its level curves.

    Parameters
    ----------
    precision_gain, recall_gain : ndarray of shape (n_points,)
        The curve (points with a true positive).
    hull_precision_gain, hull_recall_gain : ndarray
        The PRG convex hull.
    """

    precision_gain: FloatArray = field(default_factory=lambda: np.zeros(0))
    recall_gain: FloatArray = field(default_factory=lambda: np.zeros(0))
    hull_precision_gain: FloatArray = field(default_factory=lambda: np.zeros(0))
    hull_recall_gain: FloatArray = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def from_predictions(cls, y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None,
                         pos_label: Any = None, name: str | None = None, metric: str | Metric | None = None,
                         levels: Any = None) -> PrgDisplay:
        """Compute the display's arrays (see :func:`isometrics.prg_curve`)."""
        op, m, best = _setup(y_true, y_score, sample_weight, pos_label, metric,
                             "PrgDisplay.from_predictions")
        pg, rg, _ = op.prg_curve()
        hull = op.prg_convex_hull()
        finite = op.tp > 0
        return cls(name=_name(name, y_score), best=best, metric=m, prevalence=op.prevalence,
                   level_values=_levels(m, levels),
                   precision_gain=pg[finite], recall_gain=rg[finite], hull_precision_gain=hull.precision_gain,
                   hull_recall_gain=hull.recall_gain)

    @classmethod
    def from_estimator(cls, estimator: Any, X: Any, y: ArrayLike, **kwargs: Any) -> PrgDisplay:
        """Score ``X`` with a fitted binary classifier, then :meth:`from_predictions`."""
        return cls.from_predictions(y, _scores_of(estimator, X), **kwargs)

    def plot(self, ax: Any = None, *, name: str | None = None, hull: bool = True,
             baseline: bool = True) -> PrgDisplay:
        """Draw the unit square of PRG space on ``ax``; returns self with ``line_``, ``ax_``, ``figure_``."""
        ax = _axes(ax)
        label = name or self.name or "PRG"
        (line,) = ax.plot(self.recall_gain, self.precision_gain, label=label)
        if hull:
            ax.plot(self.hull_recall_gain, self.hull_precision_gain, linestyle="--", color=line.get_color(),
                    alpha=0.6, label=f"{label} hull")
        if baseline and _once(ax, "prg-baseline"):
            ax.plot([0, 1], [1, 0], color="0.5", linewidth=0.8, label="F1 of always-positive")
        self._level_lines(ax, "prg")
        if self.best is not None and self.best.recall > 0 and self.best.precision > 0:
            rg, pg = _gain(np.array([self.best.recall, self.best.precision]), self.prevalence)
            ax.plot([rg], [pg], "o", color=line.get_color(),
                    label=f"best {self.best.metric.label} (t={self.best.threshold:.3g})")
        self._finish(ax, line, "recall gain", "precision gain", "Precision-Recall-Gain")
        return self


@summarised()
@dataclass
class MetricCurveDisplay:
    """A metric against the threshold, with its best threshold marked.

    Parameters
    ----------
    thresholds, values : ndarray of shape (n_points,)
        The metric curve (the ``inf`` point left out).
    best : BestThreshold
        The best operating point.
    """

    thresholds: FloatArray
    values: FloatArray
    best: BestThreshold
    name: str | None = None
    line_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    def from_predictions(cls, y_true: ArrayLike, y_score: ArrayLike, *, metric: str | Metric = "f1",
                         sample_weight: ArrayLike | None = None, pos_label: Any = None,
                         name: str | None = None) -> MetricCurveDisplay:
        """Compute the curve (see :func:`isometrics.metric_curve`)."""
        op, m, best = _setup(y_true, y_score, sample_weight, pos_label, metric,
                             "MetricCurveDisplay.from_predictions")
        assert m is not None and best is not None
        curve = op.metric_curve(m)
        return cls(curve.thresholds[1:], curve.values[1:], best, _name(name, y_score))

    def plot(self, ax: Any = None, *, name: str | None = None) -> MetricCurveDisplay:
        """Draw on ``ax``; returns self with ``line_``, ``ax_``, ``figure_``."""
        ax = _axes(ax)
        label = name or self.name or self.best.metric.label
        (line,) = ax.plot(self.thresholds, self.values, label=label)
        ax.axvline(self.best.threshold, color=line.get_color(), linestyle="--", linewidth=0.8,
                   label=f"best: {self.best.value:.3f} at {self.best.threshold:.3g}")
        ax.set_xlabel("threshold (predict positive when score >= threshold)")
        ax.set_ylabel(self.best.metric.label)
        ax.legend(loc="best", fontsize="small")
        self.line_, self.ax_, self.figure_ = line, ax, ax.figure
        return self


@summarised()
@dataclass
class LevelCurveDisplay:
    """Level curves (isometrics) of a metric in the precision-recall square, with the
    break-even line R/P = beta where the metric has one.

    Parameters
    ----------
    curves : list of LevelCurve
        One per level.
    levels : tuple of float
        The levels.
    metric : Metric
        The metric.
    break_even : LevelCurve or None
        The line where a point of precision and of recall are worth the same.
    """

    curves: list[LevelCurve]
    levels: tuple[float, ...]
    metric: Metric
    break_even: LevelCurve | None = None
    lines_: list[Any] = field(default_factory=list, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    def from_metric(cls, metric: str | Metric, *, levels: Any = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
                    beta: float | None = None) -> LevelCurveDisplay:
        """Compute level curves; ``beta`` draws the break-even line R/P = beta."""
        caller = "LevelCurveDisplay.from_metric"
        m = _parse_metric(metric, caller=caller)
        values = tuple(float(v) for v in check_unit_interval(levels, "levels", caller=caller, low_open=True).flat)
        line = None if beta is None else break_even_line(beta)
        return cls([level_curve(m, v, n_points=400) for v in values], values, m, line)

    def plot(self, ax: Any = None) -> LevelCurveDisplay:
        """Draw on ``ax``; returns self with ``lines_``, ``ax_``, ``figure_``."""
        ax = _axes(ax)
        self.lines_ = []
        for value, curve in zip(self.levels, self.curves):
            (line,) = ax.plot(curve.recall, curve.precision, color="C0", linewidth=1)
            self.lines_.append(line)
            if len(curve.recall):
                ax.annotate(f"{value:g}", (curve.recall[-1], curve.precision[-1]), fontsize="x-small")
        if self.break_even is not None:
            ax.plot(self.break_even.recall, self.break_even.precision, color="black", linewidth=2,
                    label="break-even R/P")
            ax.legend(loc="best", fontsize="small")
        ax.set_xlabel("recall")
        ax.set_ylabel("precision")
        ax.set_title(f"Level curves of {self.metric.label}")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        self.ax_, self.figure_ = ax, ax.figure
        return self
