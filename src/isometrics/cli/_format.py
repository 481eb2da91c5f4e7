"""Terminal tables of the command line: titles that stay on one line. Their cells (numbers, intervals) and the
notes under them are written by :mod:`isometrics.uncertainty.formatting`, the report's source too.

A Rich table wraps its title to the table's own width, so a narrow table broke its title
mid-phrase. :func:`new_table` makes the table at least as wide as its title (up to the
console's width), so a title that fits the terminal is printed on one line.
"""

from __future__ import annotations

from typing import Any

__all__ = ["new_table", "IN_SAMPLE"]

#: How the command line labels a threshold chosen on the data it is reported on.
IN_SAMPLE = "chosen on these data: optimistic"


def new_table(console: Any, title: str, **options: Any) -> Any:
    """A Rich table whose title (markup allowed) is not wrapped while it fits the console."""
    from rich.table import Table
    from rich.text import Text

    width = Text.from_markup(title).cell_len
    return Table(title=title, min_width=min(width, console.width), **options)
