"""The name of the public function being called, as a context variable.

A public function declares its parameters with :func:`~isometrics._core.constraints.validate_params`,
which sets this variable for the duration of the call; the checkers of ``arrays``, ``labels``,
``parameters`` and ``confusion`` read it to name the function in their messages, so that the
name is not passed down by hand. When one public function calls another, the outermost keeps its
name: the message names the function the user called. Threads started by
:func:`~isometrics._core.parallel.ordered_map` run in a copy of the caller's context and see it.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

__all__ = ["CALLER", "NAMED_CODE", "current_caller", "takes_caller"]

_F = TypeVar("_F", bound=Callable[..., Any])

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


def takes_caller(func: _F) -> _F:
    """Let a checker still take an explicit ``caller`` (layers that pass one), naming it for the call.

    The checkers of ``_core`` name the declared public function being called
    (:func:`current_caller`) and no longer pass a name to one another. Some callers outside
    ``_core`` still give ``caller=`` (or, where the signature has it there, positionally): the
    wrapper sets :data:`CALLER` to that name for the call, so the checkers the decorated one
    calls name it too, as when the name was passed down by hand. Without one it calls the
    checker as it is. :func:`~isometrics._core.constraints.user_stacklevel` skips its frame.

    Parameters
    ----------
    func : callable
        A checker with a parameter ``caller`` (``str or None``, default ``None``).

    Returns
    -------
    callable
        ``func``, wrapped (:func:`functools.wraps`: same name, docstring and signature).
    """
    parameter = inspect.signature(func).parameters["caller"]
    positional = parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD)
    position = list(inspect.signature(func).parameters).index("caller") if positional else -1
    return functools.wraps(func)(_named(func, position))  # type: ignore[return-value]


def _named(func: Callable[..., Any], position: int) -> Callable[..., Any]:
    """The wrapper of :func:`takes_caller` (one code object, which ``user_stacklevel`` recognises)."""

    def named(*args: Any, **kwargs: Any) -> Any:
        caller = kwargs.get("caller")
        if caller is None and 0 <= position < len(args):
            caller = args[position]
        if caller is None:
            return func(*args, **kwargs)
        token = CALLER.set(caller)
        try:
            return func(*args, **kwargs)
        finally:
            CALLER.reset(token)

    return named


#: The code of every :func:`takes_caller` wrapper: a frame that ``user_stacklevel`` skips.
NAMED_CODE = _named(print, -1).__code__
