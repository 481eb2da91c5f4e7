"""The label metrics' zero-division warning and averaging over classes, each done once for every label-based score."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from .._core.confusion import ClassCounts
from .._core.constraints import user_stacklevel
from .._typing import FloatArray
from ..exceptions import UndefinedMetricWarning
from .kernels import fill_undefined

__all__: list[str] = []


def resolve(values: FloatArray, *, zero_division: Any, what: str, why: str) -> FloatArray:
    """A count kernel's values with 0/0 (NaN) replaced by ``zero_division`` (``"warn"``: 0 and a warning).

    The replacement is :func:`~isometrics.metrics.kernels.fill_undefined`; this adds the
    label metrics' warning text, which is scikit-learn's ("due to no predicted samples" for
    a single value): ``what`` names the quantity ("Precision") and ``why`` the condition
    ("labels with no predicted samples").
    """

    def message() -> str:
        where = f"due to {why.split(' with ', 1)[1]}" if np.size(values) == 1 and " with " in why else f"in {why}"
        return (
            f"{what} is ill-defined and being set to 0.0 {where}. "
            "Use `zero_division` parameter to control this behavior."
        )

    return fill_undefined(values, zero_division=zero_division, message=message, stacklevel=5)


def average(
    values: FloatArray,
    counts: ClassCounts,
    average: str | None,
    *,
    zero_division: Any,
    sample_weight: FloatArray | None = None,
) -> Any:
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
                    stacklevel=user_stacklevel(4),
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
