"""Pointwise bootstrap bands of a curve (ROC, PR, PRG) on a fixed grid."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._core.bounds import loosest_grid
from .._core.caller import current_caller
from .._core.constraints import (
    ARRAY,
    NUMBERS,
    Boolean,
    Options,
    validate_params,
)
from .._core.docstrings import fill_doc
from .._core.html import summarised
from .._core.validation import (
    check_option,
    check_real_array,
    check_rng,
)
from .._typing import WEIGHT_KINDS, ArrayLike, FloatArray
from ..exceptions import (
    InvalidParameterError,
    IsometricsError,
)
from ..spaces.curves import polyline_at
from ..spaces.operating_points import OperatingPoints
from ._inputs import RESAMPLING, _bootstrap_iv, check_score_column
from .resampling import Resampler, _replicates

__all__ = ["CurveBand", "bootstrap_curve_band"]


# ---------------------------------------------------------------------------- curve bands
@summarised()
class CurveBand(NamedTuple):
    """A pointwise bootstrap band around a curve, on a grid (arrays of equal length).

    ``x`` is the grid (FPR for ROC, recall for PR, recall gain for PRG); ``estimate``
    the curve of the data at the grid; ``lower`` and ``upper`` the pointwise percentile
    bounds; ``weight_kind`` how the sample weights were resampled (``"sampling"`` or
    ``"frequency"``; ``None`` for unweighted data).
    """

    x: FloatArray
    estimate: FloatArray
    lower: FloatArray
    upper: FloatArray
    weight_kind: str | None = None


def _curve_on_grid(op: OperatingPoints, curve: str, grid: FloatArray) -> FloatArray:
    if curve == "roc":
        roc = op.roc_curve()
        return polyline_at(grid, roc.fpr, roc.tpr)[1]  # top of a vertical rise
    if curve == "pr":
        precision, recall, _ = op.precision_recall_curve()
        first = np.minimum(np.searchsorted(recall, loosest_grid(grid, "min"), side="left"), len(recall) - 1)
        return precision[first]  # the first point reaching the recall: AP's step convention
    pg, rg, _ = op.prg_curve()
    finite = op.tp > 0
    rg, pg = rg[finite], pg[finite]
    # Before its first point the PRG curve is the image of the ROC segment from (0, 0) to that
    # point, where FP/TP is constant: precision gain stays at the first point's value while
    # recall gain falls to -inf. A replicate whose first point has recall gain > 0 reaches there.
    values = polyline_at(np.maximum(grid, rg[0]), rg, pg)[0]  # in PRG a vertical run falls: its top first
    return np.where(grid < rg[0], pg[0], values)


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "curve": Options("roc", "pr", "prg"),
        "grid": [NUMBERS, None],
        "stratified": Boolean(),
    }
    | RESAMPLING
)
@fill_doc
def bootstrap_curve_band(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    curve: str = "roc",
    grid: ArrayLike | None = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    stratified: bool = False,
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
    rng: Any = None,
    progress: bool = False,
) -> CurveBand:
    """Pointwise bootstrap confidence band of a ROC, PR or PRG curve.

    Each replicate's curve is read on a fixed grid (vertical averaging): TPR at FPR
    (the ROC polyline, the top of a vertical rise at a repeated FPR), precision at recall
    (the first operating point reaching the recall, AP's step convention), or precision
    gain at recall gain (the PRG polyline, the top of a vertical step);
    the band is the pointwise percentile interval.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive; finite. One column: for
        ``predict_proba`` output pass ``proba[:, 1]``.
    curve : {"roc", "pr", "prg"}, default="roc"
        Which curve.
    grid : array-like of shape (n_grid,), default=None
        Where to read the curves: FPR, recall or recall gain values in [0, 1].
        ``None``: 101 evenly spaced values.
    n_resamples, confidence_level, stratified, sample_weight, pos_label, rng, progress
        As in :func:`bootstrap`.
    %(weight_kind)s

    Returns
    -------
    CurveBand
        Grid, the data's curve on it, the lower and upper bounds, and the weight kind.

    Raises
    ------
    InvalidParameterError
        If ``curve`` is unknown or ``grid`` is not a 1-D array of numbers in [0, 1],
        and as :func:`bootstrap`.
    ValueError
        As :func:`bootstrap`.

    Warns
    -----
    WeightKindWarning
        As :func:`bootstrap`.

    Notes
    -----
    Pointwise bands cover each grid value separately at the confidence level; they are
    not simultaneous bands for the whole curve. A PR grid value is a bound on the
    recall, compared as typed: a recall within a relative ``1e-12`` of it reaches it (so
    a recall of exactly 7/10 is read at ``0.7``, and at ``linspace``'s 0.7000000000000001).

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.uncertainty import bootstrap_curve_band
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> band = bootstrap_curve_band(y, rng.normal(size=300) + y, grid=[0.1, 0.5], n_resamples=100, rng=1)
    >>> bool(np.all(band.lower <= band.upper))
    True
    """
    check_option(curve, "curve", ("roc", "pr", "prg"))
    x = np.linspace(0.0, 1.0, 101) if grid is None else check_real_array(grid, "grid")
    outside = x[~((x >= 0) & (x <= 1))]  # NaN too
    if x.ndim != 1 or len(outside):
        got = f"shape {x.shape}" if x.ndim != 1 else f"{float(outside[0])!r}"
        raise InvalidParameterError(f"{current_caller()}: `grid` must be 1-D with values in [0, 1]; got {got}.")
    checked = _bootstrap_iv(
        y_true,
        {"score": check_score_column(y_score)},
        sample_weight,
        pos_label,
        n_resamples,
        confidence_level,
        "percentile",
        weight_kind,
    )
    data = checked.data
    s = data.scores["score"]
    resampler = Resampler(data.is_pos, s, data.weights, stratified, frequency=checked.weight_kind == "frequency")
    paired, _ = _replicates(
        [resampler],
        lambda op: _curve_on_grid(op, curve, x),
        len(x),
        checked.n_resamples,
        check_rng(rng),
        progress,
        f"bootstrap {curve} band",
    )
    values = paired[:, 0, :]
    if len(values) < 2:
        raise IsometricsError(
            f"{current_caller()}: only {len(values)} replicate(s) had both classes; use stratified=True."
        )
    alpha = (1 - checked.level) / 2
    lower, upper = np.quantile(values, [alpha, 1 - alpha], axis=0)
    estimate = _curve_on_grid(resampler.op, curve, x)
    if np.isnan(estimate).any() or np.isnan(lower).any() or np.isnan(upper).any():  # pragma: no cover - a guard
        raise IsometricsError(
            f"{current_caller()}: the {curve} curve is undefined at some grid values; please report this."
        )
    return CurveBand(x, estimate, lower, upper, checked.weight_kind)
