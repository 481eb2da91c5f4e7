"""Zero division and averaging over classes, each done once for every label-based score."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._core.confusion import ClassCounts
from .._typing import FloatArray
from ..exceptions import UndefinedMetricWarning

__all__: list[str] = []


def ratio(numerator: FloatArray, denominator: FloatArray, *, zero_division: Any, what: str, why: str) -> FloatArray:
    """``numerator / denominator`` with 0/0 replaced by ``zero_division`` (``"warn"``: 0 and a warning).

    ``what`` names the quantity ("Precision") and ``why`` the condition ("labels with
    no predicted samples") for the warning text, which is scikit-learn's ("due to no
    predicted samples" for a single value).
    """
    numerator = np.asarray(numerator, dtype=np.float64)
    denominator = np.asarray(denominator, dtype=np.float64)
    undefined = denominator == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        out = numerator / np.where(undefined, 1.0, denominator)
    if undefined.any():
        if isinstance(zero_division, str):  # "warn"; scikit-learn's words, which users filter warnings by
            where = f"due to {why.split(' with ', 1)[1]}" if out.size == 1 and " with " in why else f"in {why}"
            warnings.warn(
                f"{what} is ill-defined and being set to 0.0 {where}. "
                "Use `zero_division` parameter to control this behavior.",
                UndefinedMetricWarning,
                stacklevel=4,
            )
            fill = 0.0
        else:
            fill = float(zero_division)
        out = np.where(undefined, fill, out)
    return out


def average(values: FloatArray, counts: ClassCounts, average: str | None, *, zero_division: Any,
            sample_weight: FloatArray | None = None) -> Any:
    """Average per-class values: ``None`` returns them; macro/weighted/samples return a float.

    For ``"samples"`` the values are those of each sample (counts over its labels) and
    the weights are ``sample_weight``. Micro averaging is not done here: it pools counts
    before the ratio (see callers).
    """
    if average is None:
        return values
    if average == "samples":
        weights = sample_weight
    elif average == "weighted":
        weights = counts.support
        if not weights.any():  # no true samples in the selected labels: the plain mean, as scikit-learn
            if isinstance(zero_division, str):
                warnings.warn(
                    "Weighted average is ill-defined (no true samples in the selected labels): the plain mean "
                    "of the per-label values is returned. Use the `zero_division` parameter to control this "
                    "behavior.",
                    UndefinedMetricWarning,
                    stacklevel=4,
                )
            weights = None
    else:
        weights = None
    if np.isnan(values).all():
        return float("nan")
    mask = ~np.isnan(values)  # zero_division=np.nan: classes with undefined values are left out
    w = None if weights is None else weights[mask]
    if w is not None and not w.any():  # every defined class has support 0: their plain mean (as scikit-learn)
        w = None
    return float(np.average(values[mask], weights=w))
