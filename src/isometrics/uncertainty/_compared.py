"""The statistics a paired comparison compares, and the pairs of models it compares.

One vocabulary for :func:`~isometrics.uncertainty.bootstrap_compare` and
:func:`~isometrics.uncertainty.compare_scores`: the areas (AUROC, average precision, AUPRG,
the interpolated PR area) and every metric spec that :func:`~isometrics.best_threshold` takes,
each at its best threshold or at a fixed one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Any

from .._core.caller import current_caller
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics.registry import Metric, parse_metric
from ..spaces.operating_points import OperatingPoints
from .intervals import _AREAS, resolve_statistic

#: The areas that the points inside runs of tie groups without positives do not change.
_STEP_AREAS = ("auroc", "average_precision", "auprg")
_AREA_LABELS = {
    "auroc": "AUROC",
    "average_precision": "average precision",
    "auprg": "AUPRG",
    "auc_pr_interpolated": "interpolated AUC-PR",
}


class _Named:
    """A compared statistic: its key, readable label, direction, function, whether it reads
    thresholds, and whether it reads only the points where positives step in (an area, or a
    metric that grows with precision at its best threshold: see ``Resampler.build(reduced=)``)."""

    def __init__(
        self,
        key: str,
        label: str,
        greater_is_better: bool,
        name: str,
        fn: Callable[[OperatingPoints], float],
        compact: bool,
        steps: bool = False,
    ) -> None:
        self.key, self.label, self.greater_is_better = key, label, greater_is_better
        self.name, self.fn, self.compact, self.steps = name, fn, compact, steps


def _named(statistics: Any, threshold: float | None) -> list[_Named]:
    """The statistics compared, from one vocabulary: the areas, and every metric spec that
    :func:`best_threshold` and ``--metric`` take (at the best threshold, or at ``threshold``)."""
    if isinstance(statistics, (str, Metric)):
        statistics = [statistics]
    if not isinstance(statistics, Iterable) or not (statistics := list(statistics)):
        raise InvalidParameterError(
            f"{current_caller()}: `statistics` must be a non-empty sequence of areas and metric specs, "
            f"e.g. ['auroc', 'f1']; got {statistics!r}."
        )
    out: list[_Named] = []
    for k, s in enumerate(statistics):
        if isinstance(s, str) and s in ("metric", "best_threshold"):
            raise InvalidParameterError(
                f"{current_caller()}: `statistics[{k}]` = {s!r}: name the metric itself, e.g. "
                "statistics=['f1'] (a best threshold is not compared)."
            )
        if isinstance(s, str) and s in _AREAS:
            name, fn, compact = resolve_statistic(s, None, None)
            out.append(_Named(s, _AREA_LABELS[s], True, name, fn, compact, s in _STEP_AREAS))
            continue
        name, fn, compact = resolve_statistic(s, None, threshold, f"statistics[{k}]")  # refuses what is no metric
        m = parse_metric(s)
        at = "" if threshold is None else f" at threshold {threshold:g}"
        steps = threshold is None and m._pr is not None and m.greater_is_better  # grows with precision
        out.append(_Named(m.spec + at, m.label + at, m.greater_is_better, name, fn, compact, steps))
    keys = [n.key for n in out]
    if len(set(keys)) != len(keys):
        raise InvalidParameterError(
            f"{current_caller()}: `statistics` names a statistic twice ({keys}); name each once."
        )
    return out


def _pairs(names: tuple[str, ...], baseline: Any) -> list[tuple[str, str]]:
    """Every two models in the order given, or each model against ``baseline`` (``model - baseline``)."""
    if baseline is None:
        return list(combinations(names, 2))
    if not isinstance(baseline, str) or baseline not in names:
        raise IsometricsError(
            f"{current_caller()}: `baseline` = {baseline!r} is not one of the models "
            f"({', '.join(map(repr, names))}); name one of them, or None for every pair."
        )
    return [(n, baseline) for n in names if n != baseline]
