"""Metric specifications passed to the package's public functions, parsed with the function named.

:func:`~isometrics.metrics.registry.parse_metric` is the user's parser: its messages say what
was wrong with the specification. A public function that takes a metric (``best_threshold``,
``bootstrap``, ``decide``, the plots, the report...) parses it here instead, so that a message
also names that function and its parameter (``"decide: `metrics[1]` = 'f' is not a metric:
..."``). These are internal interfaces of the package, used from every layer above ``metrics``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._core.caller import current_caller, takes_caller
from ..exceptions import InvalidParameterError
from .registry import Metric, parse_metric

__all__ = ["parse_metric_argument", "parse_metric_arguments"]


def parse_metric_argument(spec: Any, *, caller: str | None = None, name: str = "metric") -> Metric:
    """Parse the metric given as argument ``name`` of the public function being called.

    Parameters
    ----------
    spec : str or Metric
        A metric specification as :func:`~isometrics.metrics.registry.parse_metric`
        reads it, or a :class:`~isometrics.metrics.registry.Metric` (returned unchanged).
    caller : str or None, default=None
        The public function (or method) that received ``spec``, named in any message;
        ``None``: the declared public function being called (``current_caller``).
    name : str, default="metric"
        The parameter (or element, such as ``metrics[2]``) that held ``spec``.

    Returns
    -------
    Metric
        The parsed metric, the one :func:`~isometrics.metrics.registry.parse_metric` returns.

    Raises
    ------
    InvalidParameterError
        If ``spec`` is not a metric; the message starts with the function and ``name`` and
        goes on with the parser's own message.
    """
    caller = current_caller(caller)
    try:
        return parse_metric(spec)
    except InvalidParameterError as exc:
        raise InvalidParameterError(f"{caller}: `{name}` = {spec!r} is not a metric: {exc}") from exc


@takes_caller
def parse_metric_arguments(metrics: Any, *, caller: str | None = None, name: str = "metrics") -> list[Metric]:
    """Parse a sequence of metrics given as argument ``name`` of the public function being called.

    Parameters
    ----------
    metrics : sequence of str or Metric
        The metric specifications or objects, in order. A lone string or Metric is refused
        (a string would be read character by character); an empty sequence is returned as
        an empty list, for the caller to judge.
    caller : str or None, default=None
        The public function (or method) that received ``metrics``, named in any message;
        ``None``: the declared public function being called (``current_caller``).
    name : str, default="metrics"
        The parameter that held ``metrics``; element ``k`` is named ``name[k]``.

    Returns
    -------
    list of Metric
        One parsed metric per element, in order.

    Raises
    ------
    InvalidParameterError
        If ``metrics`` is a lone string or Metric or not iterable, or if an element is not a
        metric (the message names the function and ``name[k]``).
    """
    caller = current_caller(caller)
    if isinstance(metrics, (str, Metric)) or not isinstance(metrics, Iterable):
        raise InvalidParameterError(
            f"{caller}: `{name}` must be a sequence of metric specs or Metric objects; "
            f"got {metrics!r}; e.g. {name}=['precision', 'recall', 'f1']."
        )
    return [parse_metric_argument(m, name=f"{name}[{k}]") for k, m in enumerate(metrics)]
