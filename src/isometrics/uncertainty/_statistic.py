"""What a bootstrap resamples: a statistic (an area, a metric at its best or a given threshold, a
best threshold) resolved to a name and a function of operating points, and its checked value on
the data."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.validation import check_real
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics._arguments import parse_metric_argument
from ..metrics.registry import Metric, parse_metric
from ..spaces.operating_points import OperatingPoints

_AREAS = ("auroc", "average_precision", "auprg", "auc_pr_interpolated")


def resolve_statistic(
    statistic: Any, metric: str | Metric | None, threshold: float | None, name: str = "statistic"
) -> tuple[str, Callable[[OperatingPoints], float], bool]:
    """Resolve a bootstrap statistic to a readable name and a function of operating points.

    Parameters
    ----------
    statistic : str or Metric
        An area (``"auroc"``, ``"average_precision"``, ``"auprg"``, ``"auc_pr_interpolated"``),
        ``"metric"``, ``"best_threshold"``, or else a metric spec (the vocabulary of
        ``best_threshold`` and ``--metric``).
    metric : str, Metric or None
        The metric of ``statistic="metric"`` or ``"best_threshold"``; ``None`` otherwise.
    threshold : float or None
        For a metric: its value at this threshold (``None``: at its best threshold).
    name : str, default="statistic"
        The argument that held ``statistic``, named in any message.

    Returns
    -------
    name : str
        What is resampled, e.g. ``"f1 at its best threshold"``.
    function : callable
        ``OperatingPoints -> float``.
    reads_thresholds : bool
        Whether the value is a threshold (then replicates must drop the tie groups they
        never drew).

    Raises
    ------
    InvalidParameterError
        If ``statistic`` is neither an area nor a metric, if ``metric`` or ``threshold``
        is given where it does not apply or missing where it is needed, or if either is
        invalid.
    """
    if isinstance(statistic, Metric) or statistic not in (*_AREAS, "metric", "best_threshold"):
        if metric is not None:
            raise InvalidParameterError(
                f"{current_caller()}: `{name}` = {statistic!r} names the metric itself; drop `metric` "
                "(it applies to statistic='metric' or 'best_threshold')."
            )
        try:
            metric = parse_metric(statistic)
        except InvalidParameterError as exc:
            raise InvalidParameterError(
                f"{current_caller()}: `{name}` = {statistic!r} is not a metric: {exc} (Or an area: "
                f"{', '.join(repr(s) for s in _AREAS)}.)"
            ) from None
        statistic = "metric"
    if statistic in _AREAS:
        if metric is not None or threshold is not None:
            raise InvalidParameterError(
                f"{current_caller()}: `metric` and `threshold` apply to statistic='metric' or "
                f"'best_threshold', not to {statistic!r}."
            )
        return statistic, lambda op: float(getattr(op, statistic)()), False
    if metric is None:
        raise InvalidParameterError(f"{current_caller()}: statistic={statistic!r} needs `metric`, e.g. metric='f1'.")
    m = parse_metric_argument(metric)
    if statistic == "best_threshold":
        if threshold is not None:
            raise InvalidParameterError(
                f"{current_caller()}: statistic='best_threshold' re-optimises the threshold; drop `threshold`."
            )
        return f"best threshold for {m.spec}", lambda op: op.best_threshold(m).threshold, True
    if threshold is None:
        return f"{m.spec} at its best threshold", lambda op: op.best_threshold(m).value, False
    t = check_real(threshold, "threshold", allow_inf=True)

    def at_threshold(op: OperatingPoints) -> float:
        i = int(np.searchsorted(-op.thresholds, -t, side="right")) - 1  # last point with threshold >= t
        P, N = op.n_positives, op.n_negatives
        return float(m.from_counts(op.tp[i], op.fp[i], P - op.tp[i], N - op.fp[i]))

    return f"{m.spec} at threshold {t:g}", at_threshold, False


def _check_estimate(estimate: float, name: str, op: OperatingPoints, threshold: float | None) -> float:
    """The statistic on the data, or an error saying why it is undefined (never a silent NaN)."""
    if not math.isnan(estimate):
        return estimate
    why = ""
    if threshold is not None:
        i = int(np.searchsorted(-op.thresholds, -threshold, side="right")) - 1
        if op.tp[i] + op.fp[i] == 0:
            why = (
                f": no sample has a score >= {threshold:g} (the highest is {op.thresholds[1]:.6g}), so nothing "
                "is predicted positive; pass a threshold at or below the highest score"
            )
    raise IsometricsError(
        f"{current_caller()}: {name} is undefined (0/0) on the data{why or '; choose another statistic'}."
    )
