"""How a value, its interval and the note under a table of intervals are written, wherever they are shown.

The command line's tables (``cli/``) and the report's pages (``report/``) both write their numbers through
this module, so the same evaluation reads the same in the terminal and on the page: a value has four
decimals, its interval three (``0.8120 [0.790, 0.833]``), an undefined value reads ``undefined``, and the
note under a table of intervals says their level, method and number of replicates. It knows the results'
attribute names (``confidence_interval`` of a :class:`~isometrics.uncertainty.BootstrapResult`, the fields
of a :class:`~isometrics.uncertainty.ComparisonRow` and of a best threshold) but no markup: each side adds
its own (Rich markup, HTML escaping). Presentation-neutral; used by ``cli/`` and ``report/``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = [
    "AREA_KEYS",
    "GROUP_KEYS",
    "REOPTIMISED",
    "area_cells",
    "best_threshold_cells",
    "comparison_cells",
    "count",
    "group_cells",
    "interval_note",
    "level",
    "number",
    "p_value",
    "threshold",
    "with_interval",
]

#: The three headline areas, in the order every table shows them.
AREA_KEYS = ("auroc", "average_precision", "auprg")

#: What the interval of a metric at its best threshold is (said wherever such an interval is shown).
REOPTIMISED = (
    "a metric's interval is that of its re-optimised best threshold: the best threshold is re-optimised in "
    "every replicate, so the interval is not that of the threshold shown."
)


def number(value: float | None, digits: int = 4) -> str:
    """A number for a table cell.

    Parameters
    ----------
    value : float or None
        The value; None or NaN is undefined.
    digits : int, default=4
        Decimals shown.

    Returns
    -------
    str
        ``"undefined"`` for None or NaN, ``"inf"``/``"-inf"``, else ``value`` with ``digits`` decimals.

    Examples
    --------
    >>> number(0.81234), number(float("nan")), number(float("-inf")), number(0.5, 1)
    ('0.8123', 'undefined', '-inf', '0.5')
    """
    if value is None or value != value:
        return "undefined"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def with_interval(value: float | None, interval: Any) -> str:
    """A value and its interval, ``0.8120 [0.790, 0.833]``; the value alone without an interval.

    Parameters
    ----------
    value : float or None
        The point estimate (None or NaN: undefined).
    interval : BootstrapResult, tuple of float or None
        Anything with ``confidence_interval = (low, high)``, or the pair ``(low, high)`` itself.

    Returns
    -------
    str
        The value with four decimals, the bounds with three.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> with_interval(0.81234, SimpleNamespace(confidence_interval=(0.7901, 0.8333)))
    '0.8123 [0.790, 0.833]'
    >>> with_interval(0.5, None)
    '0.5000'
    """
    if interval is None or value is None:  # None: undefined, and so is any interval of it
        return number(value)
    low, high = getattr(interval, "confidence_interval", interval)
    return f"{number(value)} [{number(low, 3)}, {number(high, 3)}]"


def p_value(p: float) -> str:
    """A p-value with two significant digits (``0.012``, ``3.1e-05``).

    Parameters
    ----------
    p : float
        In [0, 1].

    Returns
    -------
    str

    Examples
    --------
    >>> p_value(0.01234), p_value(3.14e-5)
    ('0.012', '3.1e-05')
    """
    return f"{p:.2g}"


def level(confidence_level: float) -> str:
    """A confidence level as a percentage, ``95 %``.

    Parameters
    ----------
    confidence_level : float
        In (0, 1).

    Returns
    -------
    str

    Examples
    --------
    >>> level(0.95), level(0.9)
    ('95 %', '90 %')
    """
    return f"{100 * confidence_level:g} %"


def count(x: float) -> str:
    """A count with thousands separators: whole numbers without decimals, weighted counts with two.

    Parameters
    ----------
    x : float
        A count or a sum of weights.

    Returns
    -------
    str

    Examples
    --------
    >>> count(1234.0), count(12.5)
    ('1,234', '12.50')
    """
    return f"{x:,.0f}" if x == int(x) else f"{x:,.2f}"


def threshold(t: float) -> str:
    """A threshold as chosen: six significant digits (``inf`` flags nothing).

    Parameters
    ----------
    t : float
        A score threshold.

    Returns
    -------
    str

    Examples
    --------
    >>> threshold(0.123456789), threshold(float("inf"))
    ('0.123457', 'inf')
    """
    return f"{t:.6g}"


def interval_note(interval: Any, *, of: str = "", extra: str = "", after: str | None = None) -> str:
    """The note under a table of intervals: their level, method and number of replicates, and what they are.

    Parameters
    ----------
    interval : BootstrapResult
        One interval of the table (they share level, method and replicates).
    of : str, default=""
        What was resampled, after "intervals" (e.g. ``" of each class against the rest"``).
    extra : str, default=""
        Said after the number of replicates, inside the parentheses (e.g. ``"; the averages have none"``).
    after : str, optional
        The end of the note; by default ``"; "`` and :data:`REOPTIMISED` (the table shows a metric at its
        best threshold).

    Returns
    -------
    str
        E.g. ``Brackets: 95 % percentile bootstrap intervals (1,000 replicates); a metric's interval ...``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> iv = SimpleNamespace(confidence_level=0.95, method="percentile", bootstrap_distribution=[0.0] * 1000)
    >>> interval_note(iv, after=" at this fixed rule.")
    'Brackets: 95 % percentile bootstrap intervals (1,000 replicates) at this fixed rule.'
    """
    n = len(interval.bootstrap_distribution)
    head = f"Brackets: {level(interval.confidence_level)} {interval.method} bootstrap intervals{of} ({n:,} replicates{extra})"
    return head + (f"; {REOPTIMISED}" if after is None else after)


def area_cells(result: Any) -> dict[str, str]:
    """The cells of one model's row of areas: AUROC, AP and AUPRG, each with its interval when it has one.

    Parameters
    ----------
    result : BinaryEvaluation
        Anything with ``auroc``, ``average_precision``, ``auprg`` and ``intervals`` (a mapping by key).

    Returns
    -------
    dict of str to str
        Keyed by :data:`AREA_KEYS`.
    """
    intervals: Mapping[str, Any] = result.intervals
    return {key: with_interval(getattr(result, key), intervals.get(key)) for key in AREA_KEYS}


def best_threshold_cells(best: Any, interval: Any = None) -> dict[str, str]:
    """The cells of one model's row of a best-threshold table.

    Parameters
    ----------
    best : BestThreshold
        Anything with ``threshold``, ``value``, ``precision``, ``recall``, ``tp`` and ``fp``.
    interval : BootstrapResult or None
        The interval of the metric's value (that of its re-optimised best threshold).

    Returns
    -------
    dict of str to str
        ``threshold``, ``value`` (with its interval), ``precision``, ``recall`` and ``predicted`` (the count, or
        the weight, of the rows flagged).
    """
    return {
        "threshold": threshold(best.threshold),
        "value": with_interval(best.value, interval),
        "precision": number(best.precision),
        "recall": number(best.recall),
        "predicted": count(best.tp + best.fp),
    }


def comparison_cells(row: Any) -> dict[str, str]:
    """The cells of one paired comparison (one statistic of one pair of models).

    Parameters
    ----------
    row : ComparisonRow
        The comparison's row.

    Returns
    -------
    dict of str to str
        ``pair`` (``a - b``), ``difference``, ``low``, ``high``, ``p_value``, ``adjusted_low``,
        ``adjusted_high``, ``adjusted_p_value`` and ``decision`` (``"<model> better"`` or the row's decision).
    """
    return {
        "pair": f"{row.a} - {row.b}",
        "difference": number(row.estimate),
        "low": number(row.confidence_interval[0]),
        "high": number(row.confidence_interval[1]),
        "p_value": p_value(row.p_value),
        "adjusted_low": number(row.adjusted_interval[0]),
        "adjusted_high": number(row.adjusted_interval[1]),
        "adjusted_p_value": p_value(row.adjusted_p_value),
        "decision": row.decision if row.winner is None else f"{row.winner} better",
    }


#: The estimates of a group's row, in the order every table shows them.
GROUP_KEYS = (*AREA_KEYS, "precision", "recall", "alert_rate")


def group_cells(row: Any) -> dict[str, str]:
    """The cells of one group's row of an evaluation by group.

    Parameters
    ----------
    row : GroupRow
        A row of :class:`~isometrics.uncertainty.GroupEvaluation`.

    Returns
    -------
    dict of str to str
        ``n``, ``positives`` (a count, or a weight), each of :data:`GROUP_KEYS` (with its interval when it
        has one; ``undefined`` when the group cannot define it) and ``best`` (the threshold best within the
        group).
    """
    return {
        "n": f"{row.n_samples:,}",
        "positives": f"{row.n_positives:,.6g}",
        **{key: with_interval(row.estimates[key], row.intervals.get(key)) for key in GROUP_KEYS},
        "best": threshold(row.best[0].threshold) if row.best else "undefined",
    }
