"""Every quantity of the spaces, each declared once (:class:`~isometrics._core.quantity.Quantity`).

A quantity is declared beside the function that computes it (``AUROC`` in :mod:`.areas`,
``ROC_HULL`` in :mod:`.hull`...): its computation, the counts it reads (common scale, per-class
rates, the caller's units), whether it needs both classes, its public function and
``OperatingPoints`` method, its streaming terms. The declaration is its cache key:
``op.get(AUROC)``. This module lists the modules that declare quantities and collects their
declarations, so that the common tests (``tests/spaces/test_quantities.py``) check each one
against its public function, its method, the sweep and the test registry.

To add a quantity: write its module (the computation, the ``Quantity`` declaration, the public
function calling ``table_from_scores(...).get(QUANTITY)``), add the module to ``MODULES`` below,
and write its test and docs page.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from .._core.quantity import Quantity

__all__ = ["MODULES", "QUANTITIES", "by_name"]

#: The modules that declare quantities (module-level ``Quantity`` objects).
#: Imported by name: a module may share its name with the function the namespace exports
#: (the lazy namespace would hand back the function), which ``from . import`` would return.
MODULES: tuple[ModuleType, ...] = tuple(
    import_module(f"{__package__}.{name}")
    for name in ("curves", "areas", "hull", "calibration", "interpolation", "gains", "cutoffs", "hmeasure")
)


def _declared(modules: tuple[ModuleType, ...]) -> dict[str, Quantity]:
    found: dict[str, Quantity] = {}
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, Quantity) and found.setdefault(value.name, value) is not value:
                raise RuntimeError(f"two quantities are named {value.name!r} (one in {module.__name__})")
    return found


#: Every declared quantity by name (the name of its public function and method).
QUANTITIES: dict[str, Quantity] = _declared(MODULES)


def by_name(name: str) -> Quantity:
    """The declared quantity called ``name`` (its public function's name).

    Parameters
    ----------
    name : str
        For example ``"auroc"`` or ``"roc_convex_hull"``.

    Returns
    -------
    Quantity

    Raises
    ------
    KeyError
        If no quantity of that name is declared.
    """
    return QUANTITIES[name]
