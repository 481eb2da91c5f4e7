"""Terminal tables of the command line: numbers, intervals, and titles that stay on one line.

A Rich table wraps its title to the table's own width, so a narrow table broke its title
mid-phrase. :func:`new_table` makes the table at least as wide as its title (up to the
console's width), so a title that fits the terminal is printed on one line.
"""

from __future__ import annotations

from typing import Any

__all__ = ["fmt", "new_table", "with_ci", "INTERVAL_NOTE", "IN_SAMPLE"]

#: How the command line labels a threshold chosen on the data it is reported on.
IN_SAMPLE = "chosen on these data: optimistic"

#: What the interval of a metric at its best threshold is (said wherever such an interval is shown).
INTERVAL_NOTE = (
    "a metric's interval is that of its re-optimised best threshold (the best threshold is found "
    "again in every replicate), not of the threshold shown."
)


def fmt(value: float, digits: int = 4) -> str:
    """A number for a table: ``undefined`` for NaN, ``inf``/``-inf``, else ``digits`` decimals."""
    if value != value:  # NaN
        return "undefined"
    if value in (float("inf"), float("-inf")):
        return "inf" if value > 0 else "-inf"
    return f"{value:.{digits}f}"


def with_ci(value: float, interval: Any) -> str:
    """``value [low, high]`` from a bootstrap result, or ``value`` alone."""
    if interval is None:
        return fmt(value)
    low, high = interval.confidence_interval
    return f"{fmt(value)} [{fmt(low, 3)}, {fmt(high, 3)}]"


def new_table(console: Any, title: str, **options: Any) -> Any:
    """A Rich table whose title (markup allowed) is not wrapped while it fits the console."""
    from rich.table import Table
    from rich.text import Text

    width = Text.from_markup(title).cell_len
    return Table(title=title, min_width=min(width, console.width), **options)
