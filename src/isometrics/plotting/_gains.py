"""Cumulative gains and lift Displays: compute once (from the operating points), then plot."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .._core.caller import current_caller
from .._core.count_table import table_from_scores
from .._core.html import summarised
from .._typing import ArrayLike, FloatArray
from ..spaces.operating_points import OperatingPoints
from ._displays import _name
from ._docs import _declared
from ._estimator import _FromEstimator
from ._group import _per_column
from ._style import _axes, _once


def _curve_data(
    y_true: ArrayLike, y_score: ArrayLike, sample_weight: ArrayLike | None, pos_label: Any
) -> OperatingPoints:
    op = table_from_scores(
        y_true,
        y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        table=OperatingPoints,
    )
    op.require_both_classes(current_caller())
    return op


def _legend(ax: Any) -> None:
    if any(h.get_label() and not h.get_label().startswith("_") for h in ax.get_lines()):
        ax.legend(loc="best", fontsize="small")


@summarised()
@dataclass
class GainsDisplay(_FromEstimator):
    """Cumulative gains: the share of positives captured against the share flagged, with the
    random (diagonal) and perfect-ranking references.

    Build with :meth:`from_predictions` or :meth:`from_estimator`, then call :meth:`plot`.

    Parameters
    ----------
    rate, gain : ndarray of shape (n_points,)
        The curve (:func:`isometrics.spaces.gains_curve`), from (0, 0) to (1, 1).
    prevalence : float
        Weighted share of positives, for the perfect-ranking reference.
    name : str, default=None
        Legend label.
    """

    rate: FloatArray
    gain: FloatArray
    prevalence: float
    name: str | None = None
    line_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    @_declared("GainsDisplay.from_predictions")
    @_per_column
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        name: str | None = None,
    ) -> GainsDisplay:
        """Compute the curve (see :func:`isometrics.spaces.gains_curve`)."""
        op = _curve_data(y_true, y_score, sample_weight, pos_label)
        rate, gain, _ = op.gains_curve()
        return cls(rate, gain, op.prevalence, _name(name, y_score))

    def plot(
        self, ax: Any = None, *, name: str | None = None, chance: bool = True, perfect: bool = True, **kwargs: Any
    ) -> GainsDisplay:
        """Draw on ``ax`` (a new figure when None); returns self with ``line_``, ``ax_``, ``figure_``.

        Straight segments between operating points are exact: flagging part of a group
        of tied scores in random order gains that share of the group's positives in
        expectation. ``kwargs`` go to matplotlib's ``plot`` for the curve.
        """
        ax = _axes(ax)
        (line,) = ax.plot(self.rate, self.gain, **{"label": name or self.name or "gains", **kwargs})
        if chance and _once(ax, "gains-random"):
            ax.plot([0, 1], [0, 1], color="0.5", linewidth=0.8, label="random")
        if perfect and _once(ax, f"gains-perfect:{self.prevalence:.12g}"):
            ax.plot(
                [0, self.prevalence, 1],
                [0, 1, 1],
                color="0.5",
                linewidth=0.8,
                linestyle=":",
                label=f"perfect (prevalence {self.prevalence:.3g})",
            )
        ax.set_xlabel("share flagged (highest scores first)")
        ax.set_ylabel("share of positives captured (recall)")
        ax.set_title("Cumulative gains")
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(-0.01, 1.01)
        _legend(ax)
        self.line_, self.ax_, self.figure_ = line, ax, ax.figure
        return self


@summarised()
@dataclass
class LiftDisplay(_FromEstimator):
    """Lift: the precision of the top share flagged over the prevalence, with the random
    reference (lift 1).

    Parameters
    ----------
    rate, lift : ndarray of shape (n_points - 1,)
        The curve (:func:`isometrics.spaces.lift_curve`), the ``inf`` point left out.
    name : str, default=None
        Legend label.
    """

    rate: FloatArray
    lift: FloatArray
    name: str | None = None
    line_: Any = field(default=None, init=False, repr=False)
    ax_: Any = field(default=None, init=False, repr=False)
    figure_: Any = field(default=None, init=False, repr=False)

    @classmethod
    @_declared("LiftDisplay.from_predictions")
    @_per_column
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
        name: str | None = None,
    ) -> LiftDisplay:
        """Compute the curve (see :func:`isometrics.spaces.lift_curve`)."""
        op = _curve_data(y_true, y_score, sample_weight, pos_label)
        rate, lift, _ = op.lift_curve()
        return cls(rate, lift, _name(name, y_score))

    def plot(self, ax: Any = None, *, name: str | None = None, chance: bool = True, **kwargs: Any) -> LiftDisplay:
        """Draw on ``ax`` (a new figure when None); returns self with ``line_``, ``ax_``, ``figure_``.

        The operating points are joined by straight lines (between two of them the
        expected lift of a split tie is a hyperbola through both). ``kwargs`` go to
        matplotlib's ``plot`` for the curve.
        """
        ax = _axes(ax)
        (line,) = ax.plot(self.rate, self.lift, **{"label": name or self.name or "lift", **kwargs})
        if chance and _once(ax, "lift-random"):
            ax.axhline(1.0, color="0.5", linewidth=0.8, label="random")
        ax.set_xlabel("share flagged (highest scores first)")
        ax.set_ylabel("lift (precision / prevalence)")
        ax.set_title("Lift")
        ax.set_xlim(-0.01, 1.01)
        ax.set_ylim(bottom=0)
        _legend(ax)
        self.line_, self.ax_, self.figure_ = line, ax, ax.figure
        return self
