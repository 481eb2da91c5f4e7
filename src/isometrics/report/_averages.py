"""Bootstrap intervals of the multiclass page's averaged measures: the macro, weighted and micro
one-vs-rest areas and the argmax prediction's accuracy, balanced accuracy and macro and
weighted F1.

Each replicate resamples the rows with replacement (as ``isometrics.bootstrap`` does: sampling
weights travel with their rows; frequency weights are that many units, resampled unit by
unit) and recomputes every measure on the replicate, through :func:`isometrics.one_vs_rest`
and the argmax summary, as the page computes the estimates. A replicate without every class
among its rows, or leaving a measure undefined, is dropped for that measure. The interval is
the percentile interval at the page's level.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.parameters import check_rng
from ..spaces._argmax import argmax_summary
from ..spaces.multiclass import one_vs_rest

__all__: list[str] = []

_AVERAGES = ("macro", "weighted", "micro")


def _measures(y: np.ndarray, scores: np.ndarray, classes: np.ndarray, weights: np.ndarray | None) -> dict[str, float]:
    """Every averaged measure of one (re)sample: ``"auroc/macro"``, ..., ``"accuracy"``, ..."""
    ovr = one_vs_rest(y, scores, classes=classes, sample_weight=weights)
    out = {
        f"{name}/{a}": float(getattr(ovr, name)(average=a))
        for name in ("auroc", "average_precision", "auprg")
        for a in _AVERAGES
    }
    argmax = argmax_summary(y, scores, classes, weights)
    out.update(
        accuracy=argmax.accuracy,
        balanced_accuracy=argmax.balanced_accuracy,
        f1_macro=argmax.f1_macro,
        f1_weighted=argmax.f1_weighted,
    )
    return out


def _average_intervals(
    y: np.ndarray,
    scores: np.ndarray,
    classes: np.ndarray,
    weights: np.ndarray | None,
    weight_kind: str | None,
    n_resamples: int,
    level: float,
    rng: Any,
) -> tuple[dict[str, tuple[float, float]], int]:
    """Percentile intervals of every averaged measure, and the number of replicates used."""
    generator = check_rng(rng)
    n = len(y)
    draw: Callable[[], np.ndarray]
    if weights is not None and weight_kind == "frequency":
        units = weights.astype(np.int64)
        total = int(units.sum())
        draw = lambda: generator.multinomial(total, units / total).astype(np.float64)  # noqa: E731
    else:
        base = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
        draw = lambda: np.bincount(generator.integers(0, n, n), minlength=n) * base  # noqa: E731
    values: dict[str, list[float]] = {}
    for _ in range(n_resamples):
        w = draw()
        keep = w > 0
        if not all(np.any(y[keep] == c) for c in classes):
            continue
        try:
            measured = _measures(y[keep], scores[keep], classes, w[keep])
        except (ValueError, ArithmeticError):  # a replicate leaving a class's curve undefined
            continue
        for key, v in measured.items():
            if v == v:
                values.setdefault(key, []).append(v)
    alpha = (1.0 - level) / 2.0
    intervals = {
        key: (float(np.quantile(v, alpha)), float(np.quantile(v, 1.0 - alpha)))
        for key, v in values.items()
        if len(v) >= 2
    }
    return intervals, max((len(v) for v in values.values()), default=0)
