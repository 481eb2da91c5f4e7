"""The ``isometrics`` command line: presentation only.

Holds the typer application (``app``), file reading and all-or-none writing (``_io``), terminal
tables (``_format``), the bodies of the larger commands (``compare``: any number of models,
Holm-adjusted; ``multiclass``: one class against the rest) and the demo on ISLR's Default
data (``demo``). It parses, calls the public API, and prints or
writes; it computes nothing itself. May import every layer below it (evaluation, report,
plotting). A new command or option goes in ``app``; a new file format in ``_io``.
:func:`main` answers ``--version`` before it loads the application (typer, rich and every
command), which it imports on first use as the package's ``__init__`` does (PEP 562).
"""

from __future__ import annotations

import importlib
import sys

from .._version import __version__

__all__ = ["main"]


def main() -> None:
    """Entry point of the ``isometrics`` command: ``--version`` at once, anything else through the app."""
    if sys.argv[1:] == ["--version"]:
        print(f"isometrics {__version__}")
        return
    importlib.import_module(".app", __name__).main()

