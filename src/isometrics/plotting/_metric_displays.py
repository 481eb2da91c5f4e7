"""Displays of one metric: against the threshold (MetricCurveDisplay) and its level curves in
the precision-recall square (LevelCurveDisplay)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._core.constraints import InBody, validate_params
from .._core.html import summarised
from .._core.validation import check_unit_interval
from .._typing import ArrayLike, FloatArray
from ..metrics._arguments import parse_metric_argument
from ..metrics.registry import Metric
from ..spaces.level_curves import LevelCurve, break_even_line, level_curve
from ..spaces.thresholds import BestThreshold
from ._displays import _name, _setup
from ._docs import _declared, _fill
from ._estimator import _FromEstimator
from ._group import _per_column
from ._style import _axes, _legend, _line_kwargs


@summarised()
@dataclass
class MetricCurveDisplay(_FromEstimator):
    """A metric against the threshold, with its best threshold marked.

    Parameters
    ----------
    thresholds, values : ndarray of shape (n_points,)
        The metric curve (the ``inf`` point left out).
    best : BestThreshold
        The best operating point.
    name : str or None
        The model's name, shown in the legend with the best value.
    line_kwargs : dict
        Matplotlib keyword arguments for the curve's line, from ``from_predictions``.
    """

    thresholds: FloatArray
    values: FloatArray
    best: BestThreshold
    name: str | None = None
    line_kwargs: dict[str, Any] = field(default_factory=dict, repr=False)
    line_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    @_declared("MetricCurveDisplay.from_predictions", metric=InBody("a metric name or a Metric"))
    @_per_column
    @_fill
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        metric: str | Metric = "f1",
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        name: str | None = None,
        **kwargs: Any,
    ) -> MetricCurveDisplay:
        """Compute the curve (see :func:`isometrics.metric_curve`).

        Parameters
        ----------
        %(data)s
        metric : str or Metric, default="f1"
            The threshold metric.
        %(weight_pos)s
        name : str, default=None
            The model's name, shown in the legend.
        %(kwargs)s

        Returns
        -------
        MetricCurveDisplay
            Not drawn yet: call :meth:`plot`.
        """
        op, m, best = _setup(y_true, y_score, sample_weight, pos_label, metric)
        assert m is not None and best is not None
        curve = op.metric_curve(m)
        return cls(curve.thresholds[1:], curve.values[1:], best, _name(name, y_score), kwargs)

    @_fill
    def plot(self, ax: Any = None, *, name: str | None = None, **kwargs: Any) -> MetricCurveDisplay:
        """Draw on ``ax`` (a new figure when None); the best threshold is a dashed vertical line.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure when None.
        name : str, default=None
            Overrides the name given to :meth:`from_predictions`.
        %(plot_kwargs)s

        Returns
        -------
        MetricCurveDisplay
            The display itself, with ``line_``, ``ax_`` and ``figure_``.
        """
        ax = _axes(ax)
        best = f"best {self.best.value:.3f} at {self.best.threshold:.3g}"
        label = f"{name or self.name} ({best})" if (name or self.name) else best
        (line,) = ax.plot(self.thresholds, self.values, **_line_kwargs(self.line_kwargs, kwargs, label=label))
        ax.axvline(self.best.threshold, color=line.get_color(), linestyle="--", linewidth=0.8)
        ax.set_xlabel("threshold (predict positive when score >= threshold)")
        ax.set_ylabel(self.best.metric.label)
        _legend(ax)
        self.line_, self.ax_, self.figure_ = line, ax, ax.figure
        return self


@summarised()
@dataclass
class LevelCurveDisplay:
    """Level curves (isometrics) of a metric in the precision-recall square.

    With the break-even line R/P = beta where the metric has one.

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
    @validate_params(
        {
            "metric": InBody("a metric name or a Metric"),
            "levels": InBody("metric values in (0, 1]"),
            "beta": [InBody("a real number > 0"), None],
        },
        name="LevelCurveDisplay.from_metric",
    )
    def from_metric(
        cls,
        metric: str | Metric,
        *,
        levels: Any = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9),
        beta: float | None = None,
    ) -> LevelCurveDisplay:
        """Compute level curves; ``beta`` draws the break-even line R/P = beta.

        Parameters
        ----------
        metric : str or Metric
            The metric of precision and recall.
        levels : sequence of float in (0, 1], default=(0.1, 0.2, ..., 0.9)
            The metric values.
        beta : float, default=None
            Draw the break-even line R/P = beta.

        Returns
        -------
        LevelCurveDisplay
            Not drawn yet: call :meth:`plot`.
        """
        m = parse_metric_argument(metric)
        values = tuple(float(v) for v in check_unit_interval(levels, "levels", low_open=True).flat)
        line = None if beta is None else break_even_line(beta)
        return cls([level_curve(m, v, n_points=400) for v in values], values, m, line)

    def plot(self, ax: Any = None, **kwargs: Any) -> LevelCurveDisplay:
        """Draw on ``ax`` (a new figure when None).

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure when None.
        **kwargs
            Matplotlib keyword arguments for every level curve (default ``color="C0"``,
            ``linewidth=1``).

        Returns
        -------
        LevelCurveDisplay
            The display itself, with ``lines_``, ``ax_`` and ``figure_``.
        """
        ax = _axes(ax)
        self.lines_ = []
        for value, curve in zip(self.levels, self.curves):
            (line,) = ax.plot(curve.recall, curve.precision, **{"color": "C0", "linewidth": 1, **kwargs})
            self.lines_.append(line)
            if len(curve.recall):
                ax.annotate(f"{value:g}", (curve.recall[-1], curve.precision[-1]), fontsize="x-small")
        if self.break_even is not None:
            ax.plot(
                self.break_even.recall, self.break_even.precision, color="black", linewidth=2, label="break-even R/P"
            )
            _legend(ax)
        ax.set_xlabel("recall")
        ax.set_ylabel("precision")
        ax.set_title(f"Level curves of {self.metric.label}")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_aspect("equal")
        self.ax_, self.figure_ = ax, ax.figure
        return self
