"""The ``isometrics`` command line: presentation only.

Holds the typer application (``app``), file reading and all-or-none writing (``_io``), terminal
tables (``_format``), one-line errors (``_console``; usage errors: ``_usage``), the bodies of the larger commands (``compare``: any number of models,
Holm-adjusted; ``multiclass``: one class against the rest) and the demo on ISLR's Default
data (``demo``). It parses, calls the public API, and prints or
writes; it computes nothing itself. May import every layer below it (evaluation, report,
plotting). A new command is a module with ``register(app)``, listed in ``COMMANDS`` of ``app`` (a heavy one in
``LAZY_COMMANDS``, imported when invoked: ``_lazy``); an option
several commands take is declared once in ``_options``; a new file format goes in ``_io``.
:func:`main` answers ``--version`` before it loads the application (typer, rich and every
command), which it imports on first use as the package's ``__init__`` does (PEP 562). A
missing optional package (typer, rich, duckdb, dask, plotly, ...) is one line naming the extra
to install, exit status 2, wherever it is found.
"""

from __future__ import annotations

import importlib
import sys

from .._core.optional import is_optional, missing_dependency
from .._version import __version__
from ..exceptions import IsometricsError
from ._console import fail

__all__ = ["main"]


def main() -> None:
    """Entry point of the ``isometrics`` command: ``--version`` at once, anything else through the app."""
    if sys.argv[1:] == ["--version"]:
        print(f"isometrics {__version__}")
        return
    try:
        importlib.import_module(".app", __name__).main()
    except ImportError as exc:  # a missing optional package outside a command's guard: one line, exit 2
        if not is_optional(exc):
            raise
        fail(str(exc) if isinstance(exc, IsometricsError) else str(missing_dependency(exc.name or "", "isometrics")))
