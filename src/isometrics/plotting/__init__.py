"""Static plots (matplotlib): Display objects in scikit-learn's manner.

Each Display holds computed arrays; ``from_predictions`` / ``from_estimator`` compute
them once through :class:`~isometrics.OperatingPoints`, and ``plot(ax=None)`` draws and
stores ``line_``, ``ax_`` and ``figure_``. Nothing here calls ``plt.show()``.
matplotlib is optional: ``pip install 'isometrics[plot]'``.
"""

from ._displays import LevelCurveDisplay, MetricCurveDisplay, PrecisionRecallDisplay, PrgDisplay, RocDisplay
from ._gains import GainsDisplay, LiftDisplay

__all__ = ["RocDisplay", "PrecisionRecallDisplay", "PrgDisplay", "MetricCurveDisplay", "LevelCurveDisplay",
           "GainsDisplay", "LiftDisplay"]
