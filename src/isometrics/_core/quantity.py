"""``Quantity``: the declaration of one thing derived from a count table, and its cache key.

Every curve, area, hull and calibrator of the spaces is declared once, as a module-level
``Quantity`` beside the function that computes it (``AUROC`` in :mod:`isometrics.spaces.areas`,
``ROC_HULL`` in :mod:`isometrics.spaces.hull`...). The declaration says

* how the quantity is computed (``compute``, a function of one count table);
* which counts that function reads (``counts``): the magnitude-safe common scale
  (``"normalised"``), each class in its own unit (``"rates"``, for ROC space whatever the
  classes' ratio), the caller's units (``"raw"``), or the table it is asked of (``"own"``,
  for the parts that curves share, such as the precision of every point);
* whether it needs both classes, which kind of thing it is, whether a public function and an
  ``OperatingPoints`` method of its name exist, and the name of its streaming terms (the
  sweep's per-segment sums, :data:`isometrics.spaces._terms.AREAS`) when it has them.

The declaration object *is* the cache key: ``op.get(AUROC)`` computes the area once per table,
in the declared units, and every later reader (the public function, the method, another
quantity built on it) gets the same object. No call site names the units or a string key, so
none can read a value computed at another scale. :mod:`isometrics.spaces.quantities` lists
every declaration; ``tests/spaces/test_quantities.py`` checks each against its public
function, its method, the sweep and the test registry.

This module imports nothing of the package: the count table (:mod:`.count_table`) imports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["COUNTS", "KINDS", "Quantity"]

#: The units a quantity's function reads its counts in (see :class:`Quantity`).
COUNTS = ("normalised", "rates", "raw", "own")

#: What a quantity is: a curve, an area (one number from the whole table), a hull, a calibrator, or a
#: part shared by several quantities (no public function of its own).
KINDS = ("curve", "area", "hull", "calibrator", "part")


@dataclass(frozen=True, eq=False)
class Quantity:
    """One quantity derived from a count table, declared once; the object is its cache key.

    Parameters
    ----------
    name : str
        The name of its public function and ``OperatingPoints`` method (when they exist), and
        the name in error messages; unique among the declarations.
    compute : callable
        ``compute(table) -> value``: the computation, given the table in the units ``counts``.
    counts : {"normalised", "rates", "raw", "own"}, default="normalised"
        The counts ``compute`` reads: ``CountTable.normalised`` (one power of two for both
        classes, so that products of counts cannot overflow), ``CountTable.rates`` (one power
        of two per class: ROC space), the table in the caller's units, or the very table the
        quantity is asked of (parts cached on a view).
    kind : {"curve", "area", "hull", "calibrator", "part"}, default="area"
        What it is.
    needs_both_classes : bool, default=True
        Whether it raises for a table with one class (``compute`` checks it).
    public : bool, default=True
        Whether a public function ``name`` computes it from ``(y_true, y_score)``.
    method : bool, default=True
        Whether ``OperatingPoints`` has a method ``name`` returning it.
    terms : str or None, default=None
        The name of its per-segment terms in the sweep (out of core, Dask), if it streams.

    Notes
    -----
    Compared by identity (``eq=False``): two declarations are never the same key, and a
    declaration hashes in constant time.
    """

    name: str
    compute: Callable[[Any], Any]
    counts: Literal["normalised", "rates", "raw", "own"] = "normalised"
    kind: Literal["curve", "area", "hull", "calibrator", "part"] = "area"
    needs_both_classes: bool = True
    public: bool = True
    method: bool = True
    terms: str | None = None

    def __post_init__(self) -> None:
        if self.counts not in COUNTS or self.kind not in KINDS:
            raise ValueError(
                f"Quantity {self.name!r}: counts must be one of {COUNTS} and kind one of {KINDS}, "
                f"got {self.counts!r} and {self.kind!r}"
            )

    def __repr__(self) -> str:
        return f"Quantity({self.name!r}, counts={self.counts!r}, kind={self.kind!r})"
