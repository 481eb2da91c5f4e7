"""Public names imported on first use (PEP 562): the one mechanism behind the package's namespaces.

``import isometrics`` and ``import isometrics.spaces`` load no module they do not need: each
public name says where it lives (a table name -> module, relative to the package), and the
package's ``__getattr__`` imports that module the first time the name is read and keeps the
value, so a second read costs a dictionary look-up. A name that moved to a namespace still
resolves at its old place for one release, with a :class:`DeprecationWarning` naming the new
place. Standard library only (``importlib``, ``sys``, ``warnings``).
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable, Iterable, Mapping
from typing import Any


def attach(
    package: str,
    table: Mapping[str, str],
    *,
    namespaces: Iterable[str] = (),
    moved: Mapping[str, str] | None = None,
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package whose public names are imported on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    table : mapping of str to str
        Each public name and the module that holds it, relative to ``package`` (``".spaces.areas"``).
    namespaces : iterable of str, default=()
        Subpackages read as attributes (``isometrics.uncertainty``), imported on first use.
    moved : mapping of str to str, optional
        Names that used to live here and the namespace (a subpackage of ``package``) that holds them
        now: reading one warns (:class:`DeprecationWarning`) and returns the namespace's value. They are
        not listed by ``dir()``.

    Returns
    -------
    getattr : callable
        The module-level ``__getattr__`` (PEP 562): raises :class:`AttributeError` for any other name.
    dir : callable
        The module-level ``__dir__``: the module's globals, the names of ``table`` and the namespaces.
    """
    subpackages = tuple(namespaces)
    old = dict(moved or {})

    def __getattr__(name: str) -> Any:
        module = table.get(name)
        if module is not None:
            value = getattr(importlib.import_module(module, package), name)
            setattr(sys.modules[package], name, value)
            return value
        if name in subpackages:
            return importlib.import_module(f"{package}.{name}")
        if name in old:
            where = f"{package}.{old[name]}"
            # ``from isometrics import bootstrap`` reads the name twice: once in importlib's
            # ``_handle_fromlist`` (hasattr), then at the caller's line; warn once, at the caller's.
            if not sys._getframe(1).f_code.co_filename.startswith("<frozen importlib"):
                warnings.warn(
                    f"{package}.{name} moved to {where}.{name}: import it from {where} "
                    f"(`from {where} import {name}`); the old name is removed in the next release",
                    DeprecationWarning,
                    stacklevel=2,
                )
            return getattr(importlib.import_module(where), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(table) | set(subpackages))

    return __getattr__, __dir__
