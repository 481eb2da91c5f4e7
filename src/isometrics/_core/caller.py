"""The name of the public function being called, as a context variable.

A public function declares its parameters with :func:`~isometrics._core.constraints.validate_params`,
which sets this variable for the duration of the call; the checkers of ``arrays``, ``labels``,
``parameters`` and ``confusion`` read it to name the function in their messages, so that the
name is not passed down by hand. When one public function calls another, the outermost keeps its
name: the message names the function the user called. Threads started by
:func:`~isometrics._core.parallel.ordered_map` run in a copy of the caller's context and see it.
"""

from __future__ import annotations

from contextvars import ContextVar

__all__ = ["CALLER", "current_caller"]

#: The public function being called (``None`` outside every declared function).
CALLER: ContextVar[str | None] = ContextVar("isometrics_caller", default=None)

#: What a message names when no declared function is running (a helper called directly).
_OUTSIDE = "isometrics"


def current_caller(caller: str | None = None) -> str:
    """``caller`` when given, else the public function being called (``"isometrics"`` outside any).

    Parameters
    ----------
    caller : str or None, default=None
        A name given explicitly (a helper that still passes one); it wins.

    Returns
    -------
    str
        The name a message should start with.
    """
    if caller is not None:
        return caller
    return CALLER.get() or _OUTSIDE
