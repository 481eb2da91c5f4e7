"""``isometrics --version [--verbose]``: the version and, verbose, what the engine's speed depends on.

``--verbose`` adds the CPU, NumPy's SIMD dispatch and the sort of packed keys chosen by
measurement, with its times (``_core.sorting.choose_sort``). Both options are
callbacks of the root command: ``--verbose`` is eager, so it is known when ``--version``
(processed after every eager option) prints and exits.
"""

from __future__ import annotations

from .._core.sorting import machine_report
from .._version import __version__
from ..exceptions import IsometricsError
from ._console import fail

try:
    import typer
except ImportError:  # pragma: no cover - depends on the environment (typer resolves the annotations)
    typer = None  # type: ignore[assignment]

__all__ = ["note_verbose", "show_version"]


def note_verbose(ctx: typer.Context, value: bool) -> None:
    """Remember ``--verbose`` for :func:`show_version`."""
    ctx.meta["verbose"] = value


def show_version(ctx: typer.Context, value: bool) -> None:
    """Print the version (verbose: and the machine report) and exit; a bad ``ISOMETRICS_SORT`` is one line, exit 2."""
    if value:
        print(f"isometrics {__version__}")
        if ctx.meta.get("verbose"):
            try:
                print("\n".join(machine_report()))
            except IsometricsError as exc:
                fail(str(exc))
        raise SystemExit(0)
