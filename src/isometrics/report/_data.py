"""The report's data, thinned to display resolution and embedded once for every figure.

Thinning (:func:`_display_indices`). Every operating point has normalised coordinates in each
space a figure draws: false positive rate, recall, precision (and lift, its multiple), recall
gain and precision gain (clipped to [-0.05, 1]: below, nothing is drawn), the share flagged
and each metric's value (scaled to its range). A point is kept when some coordinate has moved
by more than ``1 / resolution`` since the last kept point; hull vertices, best points and the
two ends are always kept (and restart the count). Guarantee: every skipped point lies within
``1 / resolution`` of the last kept point in every coordinate, so in every figure the drawn
line (straight or in steps) and the exact one are within ``1 / resolution`` of each other per
coordinate, in both directions. Kept points are exact operating points.

Sharing (:class:`_Shared`). Each model's kept points are stored once, in the page's
``report-data`` block: thresholds and counts as float64, each metric's values as float32
(displayed to four decimals; float64 when every point is drawn), all base64. A figure's trace
names a column by reference,
``{"$col": [model, name], "from": i}`` (the column from point ``i`` on), and hover data by
``{"$rows": [[model, name], ...], "from": i}``; ``static/figures.js`` derives the rates,
precision, gains, share and lift from the counts (the same divisions) and replaces the
references before Plotly sees the figure. A figure's Plotly template (the same for every figure)
is stored there once too, as ``templates``, and named by ``{"$template": i}``.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import numpy as np

from ..evaluation import BinaryEvaluation
from ..metrics.registry import Metric
from ._text import _bests, _script_json

#: Cells per axis of the display: a drawn line is within 1/_RESOLUTION of the exact one per coordinate.
_RESOLUTION = 400

#: Below this many operating points a curve is drawn from every point.
_EXACT = 1000

#: Recall and precision gains below this are clipped for thinning (the panels draw from -0.05 on).
_GAIN_FLOOR = -0.05


def _display_indices(coords: np.ndarray, forced: np.ndarray, tol: float) -> np.ndarray:
    """Indices to draw of points with coordinates ``coords`` (shape (k, n), no NaN).

    Walks the points in order: a point is kept when it is forced, or when one of its
    coordinates differs by more than ``tol`` from the last kept point's. The first and the last
    point are forced. The search for the next kept point scans windows that double in size,
    so the cost is about ``n * k`` element operations plus two array calls per kept point.
    """
    n = coords.shape[1]
    forced = np.asarray(forced, dtype=bool).copy()
    if n == 0:
        return np.arange(0)
    forced[0] = forced[-1] = True
    points = np.ascontiguousarray(coords.T)
    kept = [0]
    i = 0
    while i < n - 1:
        width = 64
        while True:
            stop = min(n, i + 1 + width)
            window = points[i + 1 : stop]
            moved = (np.abs(window - points[i]) > tol).any(axis=1) | forced[i + 1 : stop]
            hits = np.flatnonzero(moved)
            if hits.size:
                i = i + 1 + int(hits[0])
                break
            if stop == n:  # unreachable: the last point is forced
                i = n - 1
                break
            width *= 4
        kept.append(i)
    return np.asarray(kept, dtype=np.intp)


def _simplify(x: np.ndarray, y: np.ndarray, tol: float) -> np.ndarray:
    """Indices of a smooth polyline to keep (Ramer-Douglas-Peucker): every dropped point lies
    within ``tol`` of the chord drawn across it. For the level curves (a few hundred points)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    n = len(x)
    if n <= 2 or not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        return np.arange(n)
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        dx, dy = x[b] - x[a], y[b] - y[a]
        px, py = x[a + 1 : b] - x[a], y[a + 1 : b] - y[a]
        length2 = dx * dx + dy * dy
        if length2 == 0:
            dist = np.hypot(px, py)
        else:
            t = np.clip((px * dx + py * dy) / length2, 0.0, 1.0)
            dist = np.hypot(px - t * dx, py - t * dy)
        m = int(np.argmax(dist))
        if dist[m] > tol:
            keep[a + 1 + m] = True
            stack += [(a, a + 1 + m), (a + 1 + m, b)]
    return np.flatnonzero(keep)


def _best_index(op: Any, best: Any) -> int:
    """The index of a best point in ``op``: its own when ``op`` is the full table, else found by its
    threshold (``op`` a display subset, see ``evaluate_scores(keep_operating_points=False)``)."""
    if best.index < op.n_points and op.thresholds[best.index] == best.threshold:
        return int(best.index)
    return int(np.searchsorted(-op.thresholds, -best.threshold))


def _normalised(values: np.ndarray) -> np.ndarray:
    """A metric's values on a unit scale for thinning: NaN (undefined) at -1, the range scaled to <= 1."""
    finite = values[np.isfinite(values)]
    span = float(finite.max() - finite.min()) if finite.size else 0.0
    scaled = values / span if span > 1 else values
    return np.where(np.isfinite(scaled), scaled, -1.0)


class _Points:
    """One model's kept operating points: ``idx`` (into its operating points), the best
    points' positions among them (per metric spec) and where its PRG trace starts."""

    def __init__(self, r: BinaryEvaluation, metrics: list[Metric], resolution: int) -> None:
        op = r.operating_points
        self.op = op
        self.metric_values = {m.spec: np.asarray(op.metric_curve(m).values, dtype=np.float64) for m in metrics}
        bests = {m.spec: _best_index(op, b) for m, b in zip(metrics, _bests(r, metrics))}
        n = op.n_points
        if n <= _EXACT:
            idx = np.arange(n)
        else:
            precision, recall, _ = op.precision_recall_curve()
            pg, rg, _ = op.prg_curve()
            fpr = op.fp / op.n_negatives
            share = (op.tp + op.fp) / (op.n_positives + op.n_negatives)
            coords = [
                fpr,
                recall,
                np.nan_to_num(precision, nan=-1.0),
                np.clip(rg, _GAIN_FLOOR, 1.0),
                np.nan_to_num(np.clip(pg, _GAIN_FLOOR, 1.0), nan=_GAIN_FLOOR),
                share,
            ]
            coords += [_normalised(v) for v in self.metric_values.values()]
            forced = np.zeros(n, dtype=bool)
            forced[op.roc_convex_hull().indices] = True
            forced[op.prg_convex_hull().indices] = True
            forced[list(bests.values())] = True
            idx = _display_indices(np.vstack(coords), forced, 1.0 / resolution)
        self.idx = idx
        self.best = {spec: int(np.searchsorted(idx, i)) for spec, i in bests.items()}
        with np.errstate(divide="ignore", invalid="ignore"):
            rg_kept = 1.0 - (op.prevalence / (1.0 - op.prevalence)) * (op.n_positives - op.tp[idx]) / op.tp[idx]
        self.prg_from = int(np.sum(~(rg_kept > _GAIN_FLOOR)))  # recall gain grows along the curve


def _b64(values: np.ndarray, dtype: str) -> dict[str, str]:
    array = np.ascontiguousarray(values, dtype=np.dtype(dtype).newbyteorder("<"))
    return {"dtype": dtype, "bdata": base64.b64encode(array.tobytes()).decode("ascii")}


class _Shared:
    """The page's data block: each model's kept points, stored once, referenced by the figures."""

    def __init__(self, resolution: int = _RESOLUTION) -> None:
        self.resolution = resolution
        self.models: list[dict[str, Any]] = []
        self.points: list[_Points] = []
        self.templates: list[Any] = []
        self._template_keys: list[str] = []

    def add(self, r: BinaryEvaluation, metrics: list[Metric]) -> int:
        """Store a model's kept points; returns its number in the block (for :meth:`col`)."""
        p = _Points(r, metrics, self.resolution)
        op, idx = p.op, p.idx
        exact = len(idx) == op.n_points  # every point drawn: the metrics' values exact too
        self.points.append(p)
        self.models.append(
            {
                "P": float(op.n_positives),
                "N": float(op.n_negatives),
                "thr": _b64(op.thresholds[idx], "f8"),
                "tp": _b64(op.tp[idx], "f8"),
                "fp": _b64(op.fp[idx], "f8"),
                "metrics": {spec: _b64(v[idx], "f8" if exact else "f4") for spec, v in p.metric_values.items()},
            }
        )
        return len(self.models) - 1

    @staticmethod
    def col(model: int, name: str, start: int = 0) -> dict[str, Any]:
        """A reference to column ``name`` of a model from point ``start`` on: ``thr``, ``tp``, ``fp``,
        ``flagged``, ``share``, ``fpr``, ``tpr``, ``precision``, ``rg``, ``pg``, ``lift`` or ``metric:SPEC``."""
        return {"$col": [model, name], "from": start}

    @staticmethod
    def rows(model: int, names: list[str], start: int = 0) -> dict[str, Any]:
        """A reference to hover data: one row per point, the named columns' values."""
        return {"$rows": [[model, name] for name in names], "from": start}

    def template(self, template: Any) -> dict[str, int]:
        """A reference to a figure layout's Plotly template, stored once however many figures use it
        (plotly.py writes its whole default template, about 7 kB, into every figure)."""
        key = json.dumps(template, sort_keys=True)
        if key not in self._template_keys:
            self._template_keys.append(key)
            self.templates.append(template)
        return {"$template": self._template_keys.index(key)}

    def json(self) -> str:
        """The block's JSON, safe inside a script data block."""
        return _script_json(
            json.dumps({"models": self.models, **({"templates": self.templates} if self.templates else {})})
        )
