"""Static plots (matplotlib): Display objects in scikit-learn's manner.

Each Display holds computed arrays; ``from_predictions`` / ``from_estimator`` compute
them once through :class:`~isometrics.OperatingPoints`, and ``plot(ax=None)`` draws and
stores ``line_``, ``ax_`` and ``figure_``. Both take matplotlib keyword arguments for the
curve's line (``color``, ``linestyle``, ``label``...), as scikit-learn's Displays do.
Nothing here calls ``plt.show()``. matplotlib is optional: ``pip install 'isometrics[plot]'``.

Holds the curve Displays (``_displays``: ROC, PR, PRG), the metric Displays
(``_metric_displays``), the look they share (``_style``: keyword arguments, legend labels
with the area, elements drawn once per axes), the positive class of an estimator
(``_estimator``), several models from one data frame (``_group``: ``DisplayGroup``) and the
shared parameter text (``_docs``). A new Display goes in its own
module and draws through ``_style``.
"""

from ._displays import PrecisionRecallDisplay, PrgDisplay, RocDisplay
from ._gains import GainsDisplay, LiftDisplay
from ._group import DisplayGroup
from ._metric_displays import LevelCurveDisplay, MetricCurveDisplay

__all__ = [
    "RocDisplay",
    "PrecisionRecallDisplay",
    "PrgDisplay",
    "MetricCurveDisplay",
    "LevelCurveDisplay",
    "GainsDisplay",
    "LiftDisplay",
    "DisplayGroup",
]
