"""Usage errors in one line: what the command line could not parse, and where its options are listed.

Typer (through Click) reports a usage error (an unknown option or command, a missing option, a
value outside an option's range or choices) as a usage line, a hint and a framed panel, several
lines on stderr. :class:`OneLineUsage`, the class of the root command, reports each as every
other bad input is reported: ``isometrics: error: <command>: <what>; run `isometrics <command>
--help` for its options.``, one inert line, exit status 2. The help that a bare ``isometrics`` or
``isometrics benchmark`` prints is left as it is.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from ._console import EXIT_FAILED, command_line, fail

try:
    import typer
    from typer.core import TyperGroup
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]
    TyperGroup = object  # type: ignore[assignment,misc]

__all__ = ["OneLineUsage", "usage_line"]


def _ancestor(name: str) -> type[BaseException]:
    """Click's exception class ``name`` as this Typer raises it (Typer >= 0.26 vendors its own Click)."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == name)


def _given(exc: BaseException) -> str:
    """``, got VALUE`` when the parser kept the value it refused (Typer's pydantic coercion does)."""
    errors = getattr(exc.__cause__, "errors", None)
    try:
        value = errors()[0]["input"] if callable(errors) else None
    except (IndexError, KeyError, TypeError):
        value = None
    return (
        "" if value is None or str(value) in str(getattr(exc, "format_message", lambda: exc)()) else f", got {value!r}"
    )


#: Typer's words for a value it refused (pydantic's), and ours: "--folds must be >= 2".
_REFUSED = (
    ("Input should be greater than or equal to", "must be >="),
    ("Input should be less than or equal to", "must be <="),
    ("Input should be greater than", "must be >"),
    ("Input should be less than", "must be <"),
    ("Input should be a valid integer", "must be an integer"),
    ("Input should be a valid number", "must be a number"),
)


def _what(exc: Any) -> str:
    """What is wrong, in the house's words where Typer's are pydantic's."""
    message, param = str(getattr(exc, "message", "")), getattr(exc, "param", None)
    for theirs, ours in _REFUSED:
        if message.startswith(theirs) and param is not None and param.opts:
            tail = message[len(theirs) :].split(",")[0] if ours.endswith(("=", ">", "<")) else ""
            return f"{max(param.opts, key=len)} {ours}{tail}"
    what = exc.format_message().strip().rstrip(".").replace("Value error, ", "")
    return what[:1].lower() + what[1:]


def usage_line(exc: Any) -> str:
    """The one-line message of a Click usage error ``exc``: the command, what is wrong, where the options are.

    Parameters
    ----------
    exc : click.UsageError
        The error Typer raised while parsing the command line.

    Returns
    -------
    str
        E.g. ``compare: --n-resamples must be >= 2, got '1'; run `isometrics compare --help` for its
        options.``
    """
    words: list[str] = []
    ctx = getattr(exc, "ctx", None)
    while ctx is not None and ctx.parent is not None:  # the root's own name is the program's: 'isometrics'
        words.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    what = _what(exc)
    where = f"{' '.join(words)}: " if words else ""
    return f"{where}{what}{_given(exc)}; run `{command_line(*words, '--help')}` for its options."


class OneLineUsage(TyperGroup):  # type: ignore[misc,valid-type]
    """The root command of ``isometrics``: a usage error is one line on stderr (exit 2), never a panel."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line as Typer does, reporting usage errors and aborts in one line each."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            returned = super().main(args, prog_name, complete_var, False, **extra)
        except _ancestor("UsageError") as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # the help is printed already: keep its status
                sys.exit(exc.exit_code)  # type: ignore[attr-defined]
            fail(usage_line(exc))
        except _ancestor("ClickException") as exc:
            fail(exc.format_message(), exc.exit_code)  # type: ignore[attr-defined]
        except typer.Abort:
            fail("aborted; no output was written.", EXIT_FAILED)
        sys.exit(returned if isinstance(returned, int) else 0)
