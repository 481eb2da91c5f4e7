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

from pathlib import Path
from typing import Annotated, Any

from ._console import (
    EXIT_BAD_INPUT,
    EXIT_FAILED,
    command_guard,
    fail,
)
from ._io import describe_input
from ._usage import OneLineUsage
from .benchmark import benchmark_app
from .compare import register as register_compare
from .demo import register as register_demo
from .elicit import register as register_elicit
from .evaluate import register as register_evaluate
from .report import register as register_report
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


def _guard(file: Path | None = None, n_columns: int = 0) -> Any:
    """:func:`command_guard`, naming the input's size if it runs out of memory."""
    return command_guard(input_size=None if file is None else lambda: describe_input(file, n_columns))


if typer is not None:
    app = typer.Typer(
        cls=OneLineUsage,  # a usage error is one line (cli/_usage.py)
        add_completion=False,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        help="Evaluate scored classifiers through precision, recall and their metric families.",
    )
    app.add_typer(benchmark_app, name="benchmark")  # build | fit | test (cli/benchmark.py)

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
    register_evaluate(app, _guard)  # isometrics evaluate: body in cli/evaluate.py and cli/in_memory.py
    register_report(app, _guard)  # isometrics report: body in cli/report.py and cli/in_memory.py
    register_compare(app, _guard)  # isometrics compare: body in cli/compare.py
    register_demo(app, _guard)  # isometrics demo: body in cli/demo.py
    register_elicit(app, _guard)  # isometrics elicit: body in cli/elicit.py


def main() -> None:
    """Entry point of the ``isometrics`` command."""
    if typer is None:  # pragma: no cover
        _fail("the command line needs typer and rich: pip install 'isometrics[cli]'")
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
