"""The ``isometrics`` command line: presentation only.

Holds the typer application (``app``), file reading and all-or-none writing (``_io``), terminal
tables (``_format``), the bodies of the larger commands (``compare``: any number of models,
Holm-adjusted; ``multiclass``: one class against the rest) and the demo on ISLR's Default
data (``demo``). It parses, calls the public API, and prints or
writes; it computes nothing itself. May import every layer below it (evaluation, report,
plotting). A new command or option goes in ``app``; a new file format in ``_io``.
"""

from .app import main

__all__ = ["main"]
