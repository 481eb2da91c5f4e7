"""Several models' Displays from one data frame of score columns, drawn on one axes."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from .._core.caller import current_caller
from .._core.frames import frame_columns
from .._core.html import clip, html_table
from ..exceptions import InvalidParameterError

__all__ = ["DisplayGroup"]


class DisplayGroup:
    """The Displays of several models, one per score column of a data frame, in column order.

    Returned by a Display's ``from_predictions`` (and ``from_estimator``'s sibling calls)
    when ``y_score`` is a data frame (pandas, Polars, pyarrow): each column is one model,
    named after the column. :meth:`plot` draws them all on one axes, where what the models
    share (the chance line, baselines, level curves) is drawn once and each model takes the
    next colour of the cycle, with its area in the legend.

    Parameters
    ----------
    displays : sequence of Display
        The per-model Displays, already computed.

    Attributes
    ----------
    displays : tuple of Display
        The per-model Displays; also reachable by position (``group[0]``), by name
        (``group["logreg"]``) and by iteration.
    ax_ : matplotlib Axes or None
        The axes drawn on by :meth:`plot` (None before).
    figure_ : matplotlib Figure or None
        Its figure.

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.plotting import DisplayGroup, RocDisplay
    >>> y = np.array([0, 0, 1, 1])
    >>> group = DisplayGroup([RocDisplay.from_predictions(y, [0.1, 0.4, 0.35, 0.8], name="a"),
    ...                       RocDisplay.from_predictions(y, [0.2, 0.1, 0.6, 0.7], name="b")])
    >>> group.names
    ('a', 'b')
    """

    def __init__(self, displays: Any) -> None:
        self.displays = tuple(displays)
        self.ax_: Any = None
        self.figure_: Any = None

    @property
    def names(self) -> tuple[str | None, ...]:
        """The models' names, in column order."""
        return tuple(getattr(d, "name", None) for d in self.displays)

    def __len__(self) -> int:
        return len(self.displays)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.displays)

    def __getitem__(self, key: int | str) -> Any:
        if isinstance(key, str):
            if key not in self.names:
                raise KeyError(f"DisplayGroup: no model named {key!r}; the models are {list(self.names)}.")
            return self.displays[self.names.index(key)]
        return self.displays[key]

    def _kind(self) -> str:
        return type(self.displays[0]).__name__ if self.displays else "Display"

    def __repr__(self) -> str:
        names = clip(", ".join(repr(n) for n in self.names), 800)
        return f"DisplayGroup({len(self.displays)} x {self._kind()}: {names})"

    def _repr_html_(self) -> str:
        return html_table(
            ("model", "display"),
            ((clip(str(n), 200), self._kind()) for n in self.names),
            caption=f"DisplayGroup of {len(self.displays)} models",
        )

    def plot(self, ax: Any = None, **kwargs: Any) -> DisplayGroup:
        """Draw every model on ``ax`` (a new figure when None), in column order.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Where to draw; a new figure when None.
        **kwargs
            Keyword arguments of each Display's ``plot`` (``hull=False``, ``chance=False``,
            matplotlib keywords such as ``linewidth``), given to every model.

        Returns
        -------
        DisplayGroup
            The group itself, with ``ax_`` and ``figure_`` set; each Display holds its own
            ``line_``.
        """
        for display in self.displays:
            display.plot(ax=ax, **kwargs)
            ax = display.ax_
        self.ax_ = ax
        self.figure_ = None if ax is None else ax.figure
        return self


def _per_column(func: Any) -> Any:
    """Let a Display's ``from_predictions`` take a data frame of score columns: one Display per
    column, named after it, returned as a :class:`DisplayGroup`."""

    @functools.wraps(func)
    def wrapper(cls: Any, y_true: Any, y_score: Any, *args: Any, **kwargs: Any) -> Any:
        columns = frame_columns(y_score)
        if columns is None:
            return func(cls, y_true, y_score, *args, **kwargs)
        if not columns:
            raise InvalidParameterError(
                f"{current_caller()}: `y_score` is a data frame with no columns; pass at least one score column."
            )
        if kwargs.get("name") is not None:
            raise InvalidParameterError(
                f"{current_caller()}: `name` names one model, but `y_score` is a data frame of "
                f"{len(columns)} score columns, each named after its column; drop `name` "
                "(or rename the columns)."
            )
        kwargs.pop("name", None)
        return DisplayGroup(func(cls, y_true, values, *args, name=name, **kwargs) for name, values in columns.items())

    return wrapper
