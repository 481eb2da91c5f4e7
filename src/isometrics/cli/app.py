"""The ``isometrics`` command line: a thin shell over the public API.

It parses arguments, reads files, calls :func:`isometrics.evaluate_scores`, and prints
or writes the result. Every output destination is checked before anything is computed,
and a command writes all of its outputs or none. Bad input or a bad destination prints
one line on stderr and exits with status 2; running out of memory exits with status 1,
SIGINT with 130 and SIGTERM with 143, never with a traceback; a missing optional package is
bad input too (status 2, one line naming the extra to install: ``_core/optional.py``). Text that came from the
user (column names, labels, file names) is printed inertly: no Rich markup, no terminal
escape sequences.
"""

from __future__ import annotations

from typing import Annotated, Any

from . import compare, demo, elicit, evaluate, report
from ._console import EXIT_BAD_INPUT, EXIT_FAILED, fail
from ._lazy import LazyCommands
from ._usage import OneLineUsage
from .version import note_verbose as _note_verbose
from .version import show_version as _show_version

try:
    import rich  # noqa: F401  (the commands print through it; without it there is no command line)
    import typer
except ImportError:  # pragma: no cover - depends on the environment
    typer = None  # type: ignore[assignment]

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "main"]


def _fail(message: str, code: int = EXIT_BAD_INPUT) -> None:
    fail(message, code)


#: The command modules, in the order ``isometrics --help`` lists them: each exposes ``register(app)``, which adds
#: its command (its options: ``cli/_options.py``). A new command is a module here and its line in this tuple.
COMMANDS = (evaluate, report, compare, demo, elicit)

#: Commands listed after ``COMMANDS`` but imported only when invoked (or their help is read): each name and the
#: module whose ``register(app)`` adds it. ``benchmark`` loads IRT and scipy.optimize, which no other command needs
#: (``cli/_lazy.py``; ``tests/test_startup.py`` keeps ``isometrics evaluate`` from loading them).
LAZY_COMMANDS = {"benchmark": ".benchmark"}

if typer is not None:

    class _Root(OneLineUsage):
        """The root command: :class:`OneLineUsage`, with the ``LAZY_COMMANDS`` listed but not yet imported."""

        def __init__(self, **attrs: Any) -> None:
            super().__init__(**attrs)
            self.commands = LazyCommands(self.commands, LAZY_COMMANDS)

        def list_commands(self, ctx: Any) -> list[str]:
            """The names, in order, without importing a lazy command (Typer's reads every value)."""
            return list(self.commands)

    app = typer.Typer(
        cls=_Root,  # a usage error is one line (cli/_usage.py); benchmark is imported when invoked
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        help="Evaluate scored classifiers through precision, recall and their metric families.",
    )

    @app.callback()
    def _root(
        version: Annotated[
            bool, typer.Option("--version", callback=_show_version, help="Print the version of isometrics and exit.")
        ] = False,
        verbose: Annotated[
            bool,
            typer.Option(
                "--verbose",
                callback=_note_verbose,
                is_eager=True,
                help="With --version: also the CPU, NumPy's SIMD dispatch and "
                "the sort chosen by measurement, with its times.",
            ),
        ] = False,
    ) -> None:
        """Evaluate scored classifiers through precision, recall and their metric families."""


if typer is not None:
    for _command in COMMANDS:
        _command.register(app)


def main() -> None:
    """Entry point of the ``isometrics`` command."""
    if typer is None:  # pragma: no cover
        _fail("the command line needs typer and rich: pip install 'isometrics[cli]'")
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
