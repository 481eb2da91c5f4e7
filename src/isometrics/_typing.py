"""Type aliases and the option sets derived from them (one source of truth)."""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "ArrayLike",
    "FloatArray",
    "Average",
    "AVERAGE_OPTIONS",
    "ZeroDivision",
    "WEIGHT_KINDS",
    "WEIGHT_KIND_OPTIONS",
]

FloatArray = NDArray[np.float64]

#: Averaging strategies for label-based scores (``None`` returns per-class values).
Average = Literal["binary", "micro", "macro", "weighted", "samples"]
AVERAGE_OPTIONS: tuple[str, ...] = get_args(Average)

#: What a 0/0 ratio evaluates to; ``"warn"`` means 0.0 with an ``UndefinedMetricWarning``.
ZeroDivision = Literal["warn"] | float

#: What a sample weight means to the bootstrap: ``"frequency"``, each row stands for that
#: many identical samples (integer weights; the samples are resampled); ``"sampling"``,
#: sampling or importance weights (the rows are resampled, each carrying its weight).
WEIGHT_KINDS = Literal["sampling", "frequency"]
WEIGHT_KIND_OPTIONS: tuple[str, ...] = get_args(WEIGHT_KINDS)
