"""What an evaluation of score columns returns, whichever path computed it, and its results document.

:class:`BinaryEvaluation` (one score column), :class:`Evaluations` (several, in order) and
:func:`results_json`, the one writer of the ``isometrics evaluate --json`` document for the
in-memory, out-of-core and Dask paths.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

import numpy as np

from .._core.frames import to_native_frame
from .._core.html import LIMIT, clip, html_table, summarised
from ..spaces.operating_points import OperatingPoints
from ..spaces.thresholds import BestThreshold
from ..uncertainty.groups import GroupEvaluation

__all__ = ["BinaryEvaluation", "Evaluations", "results_json"]

#: The columns of :meth:`Evaluations.to_pandas` before each metric's: one per scalar of a result.
_SUMMARY = ("score", "n_samples", "n_positives", "n_negatives", "prevalence", "auroc", "average_precision", "auprg")


@summarised()
@dataclass(frozen=True)
class BinaryEvaluation:
    """Summary of one scorer on one labelled data set.

    Attributes
    ----------
    name : str
        The score column's name.
    n_samples : int
        Rows evaluated (including zero-weight rows).
    n_positives, n_negatives : int or float
        Weighted class totals: ``int`` when the weights are whole numbers (or absent).
    prevalence : float
        Weighted share of positives, in [0, 1].
    auroc, average_precision, auprg : float
        Areas; see :func:`isometrics.auroc`, :func:`isometrics.average_precision`,
        :func:`isometrics.auprg`.
    best : tuple of BestThreshold
        The best operating point for each requested metric, in request order.
    operating_points : OperatingPoints
        The engine the numbers were derived from (for curves and plots). With
        ``evaluate_scores(..., keep_operating_points=False)``, a display subset of it
        (see there): exact at the points it keeps, not for areas.
    intervals : dict of str to BootstrapResult
        Bootstrap confidence intervals when requested: ``"auroc"``,
        ``"average_precision"``, ``"auprg"``, and each metric's spec (its value at its
        re-optimised best threshold). Empty otherwise.
    weight_kind : {"sampling", "frequency"} or None
        What the sample weights meant to the bootstrap (``"sampling"`` when
        ``weight_kind=None`` was resolved); ``None`` for unweighted data.
    groups : GroupEvaluation or None
        The evaluation by group (``evaluate_scores(..., groups=...)``), else ``None``.
    exact : bool
        Whether the areas are the data's exact values (every path but a binned one). When
        ``False`` (:meth:`isometrics.scale.BinnedEvaluation.to_evaluation`), each area is an
        estimate and ``bounds`` holds the interval known to contain it.
    bounds : dict of str to AreaBounds
        ``"auroc"``, ``"average_precision"``, ``"auprg"`` -> their
        :class:`~isometrics.scale.AreaBounds` when ``exact`` is ``False``; empty otherwise.
    """

    name: str
    n_samples: int
    n_positives: float
    n_negatives: float
    prevalence: float
    auroc: float
    average_precision: float
    auprg: float
    best: tuple[BestThreshold, ...]
    operating_points: OperatingPoints
    intervals: dict[str, Any] = field(default_factory=dict)
    weight_kind: str | None = None
    groups: GroupEvaluation | None = field(default=None, repr=False)
    exact: bool = True
    bounds: dict[str, Any] = field(default_factory=dict, repr=False)

    def _repr_html_(self) -> str:
        rows: list[tuple[str, Any]] = [
            ("n", self.n_samples),
            ("prevalence", self.prevalence),
            ("AUROC", self.auroc),
            ("average precision", self.average_precision),
            ("AUPRG", self.auprg),
        ]
        rows += [
            (
                f"best {b.metric.label}",
                f"{b.value:.4f} at threshold {b.threshold:.6g} (precision {b.precision:.4f}, recall {b.recall:.4f})",
            )
            for b in self.best
        ]
        return html_table(("", "value"), rows, caption=f"isometrics evaluation of {self.name}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of every number (without the operating points)."""
        return {
            "score": self.name,
            "n_samples": self.n_samples,
            "n_positives": self.n_positives,
            "n_negatives": self.n_negatives,
            "prevalence": self.prevalence,
            "auroc": self.auroc,
            "average_precision": self.average_precision,
            "auprg": self.auprg,
            "best_thresholds": [b.to_dict() for b in self.best],
            "weight_kind": self.weight_kind,
            "confidence_intervals": {
                name: {
                    "low": r.confidence_interval[0],
                    "high": r.confidence_interval[1],
                    "confidence_level": r.confidence_level,
                    "method": r.method,
                    "standard_error": r.standard_error,
                    "n_resamples": len(r.bootstrap_distribution),
                    "n_dropped": r.n_dropped,
                    "n_undefined": r.n_undefined,
                    "weight_kind": r.weight_kind,
                }
                for name, r in self.intervals.items()
            },
            **({} if self.groups is None else {"groups": self.groups.to_dict()}),
            # an approximate (binned) path says so, with the interval of each area
            **({} if self.exact else {"exact": False, "bounds": {k: b.to_dict() for k, b in self.bounds.items()}}),
        }


@dataclass(frozen=True)
class Evaluations(Sequence[BinaryEvaluation]):
    """The evaluations of several score columns on one label column, in column order.

    A sequence of :class:`BinaryEvaluation` (index it, iterate it, ``len`` it as the list
    it replaces) that is also looked up by score name (``evaluations["logreg"]``), and
    tabulated: one row per score column.

    Attributes
    ----------
    results : tuple of BinaryEvaluation
        One per score column, in the order given.
    """

    results: tuple[BinaryEvaluation, ...]

    @property
    def names(self) -> tuple[str, ...]:
        """The score columns' names, in order."""
        return tuple(r.name for r in self.results)

    @overload
    def __getitem__(self, key: int | str) -> BinaryEvaluation: ...

    @overload
    def __getitem__(self, key: slice) -> Evaluations: ...

    def __getitem__(self, key: int | str | slice) -> BinaryEvaluation | Evaluations:
        if isinstance(key, slice):
            return Evaluations(self.results[key])
        if isinstance(key, str):
            for r in self.results:
                if r.name == key:
                    return r
            raise KeyError(f"Evaluations: no score column named {key!r}; the names are {list(self.names)}.")
        return self.results[key]

    def __len__(self) -> int:
        return len(self.results)

    def _columns(self) -> dict[str, list[Any]]:
        """One list per column of the table: the areas, each metric's best point, each interval's ends."""
        columns: dict[str, list[Any]] = {name: [] for name in _SUMMARY}
        for r in self.results:
            for name in columns:
                columns[name].append(r.name if name == "score" else getattr(r, name))
        for k, b in enumerate(self.results[0].best if self.results else ()):
            for part in ("value", "threshold", "precision", "recall"):
                columns[f"{b.metric.spec} {part}"] = [float(getattr(r.best[k], part)) for r in self.results]
        for key in self.results[0].intervals if self.results else ():
            columns[f"{key} low"] = [r.intervals[key].confidence_interval[0] for r in self.results]
            columns[f"{key} high"] = [r.intervals[key].confidence_interval[1] for r in self.results]
        return columns

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: score name -> :meth:`BinaryEvaluation.to_dict`."""
        return {r.name: r.to_dict() for r in self.results}

    def to_pandas(self) -> Any:
        """A pandas DataFrame, one row per score column (requires pandas).

        Columns: ``score``, the class totals, ``prevalence``, the three areas, and for
        each metric its best ``value``, ``threshold``, ``precision`` and ``recall``
        (``"f1 value"``, ...), then each interval's ``low`` and ``high`` when computed.
        """
        return to_native_frame(self._columns(), "pandas")

    def to_polars(self) -> Any:
        """A Polars DataFrame with the columns of :meth:`to_pandas` (requires polars)."""
        return to_native_frame(self._columns(), "polars")

    def __repr__(self) -> str:
        shown = [
            f"{r.name!r}: auroc={r.auroc:.4g}, ap={r.average_precision:.4g}, auprg={r.auprg:.4g}"
            + "".join(f", {b.metric.spec}={b.value:.4g}@{b.threshold:.4g}" for b in r.best)
            for r in self.results[:8]
        ]
        more = f", ... ({len(self)} scores)" if len(self) > 8 else ""
        n = self.results[0].n_samples if self.results else 0
        return clip(f"Evaluations(n_samples={n}, {{{'; '.join(shown)}{more}}})", LIMIT)

    def _repr_html_(self) -> str:
        columns = {k: v for k, v in self._columns().items() if k not in ("n_positives", "n_negatives")}
        return html_table(list(columns), zip(*columns.values()), caption="isometrics evaluation")


def results_json(
    results: Sequence[BinaryEvaluation],
    *,
    file: str,
    label: str,
    weight: str | None = None,
    versus: Any = None,
    files: Sequence[str] | None = None,
    path: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The results document of ``isometrics evaluate --json``, whichever path computed ``results``.

    Parameters
    ----------
    results : sequence of BinaryEvaluation
        One per score column, in order (non-empty): in memory, out of core or on Dask.
    file, label : str
        The input as given and its label column.
    weight, versus : str or object, default=None
        The weight column; the class evaluated against the rest (a label of over two classes).
    files : sequence of str, default=None
        The files a pattern matched (out of core), written after ``file``.
    path, extra : mapping, default=None
        Written after ``weight_kind``: what the path says of itself (``{"out_of_core": ...}``,
        ``{"cluster": ...}``); after the results: further blocks (``decision``, ``summary``).

    Returns
    -------
    dict
        JSON-ready: ``file``, [``files``], ``label``, ``pos_label``, ``one_vs_rest``,
        ``weight``, ``weight_kind``, [the path's keys], ``results`` (each
        :meth:`BinaryEvaluation.to_dict`), [``extra``], in this order.
    """
    positive = results[0].operating_points.pos_label if versus is None else versus
    return {
        "file": file,
        **({} if files is None else {"files": list(files)}),
        "label": label,
        "pos_label": positive.item() if isinstance(positive, np.generic) else positive,
        "one_vs_rest": versus is not None,
        "weight": weight,
        "weight_kind": results[0].weight_kind,
        **(path or {}),
        "results": [r.to_dict() for r in results],
        **(extra or {}),
    }
