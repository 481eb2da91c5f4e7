"""Bootstrap intervals (percentile, basic, normal, BCa) and the bootstrap entry points:
``bootstrap`` for one statistic and ``bootstrap_areas`` for the areas of several scorers.

What is resampled is resolved in ``_statistic.py``; the interval arithmetic is in ``_interval_math.py``.

References
----------
.. [1] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*, 1993 (BCa).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, Boolean, InBody, Options, validate_params
from .._core.docstrings import fill_doc
from .._core.html import html_table, summarised
from .._core.validation import (
    check_option,
    check_rng,
)
from .._typing import WEIGHT_KINDS, ArrayLike, FloatArray
from ..exceptions import (
    InvalidParameterError,
    IsometricsError,
)
from ..metrics.registry import Metric
from ..spaces.operating_points import OperatingPoints
from ._inputs import RESAMPLING, _bootstrap_iv, check_score_column
from ._interval_math import _defined, _interval, _standard_error
from ._interval_math import _quantiles as _quantiles
from ._statistic import _AREAS, _check_estimate, resolve_statistic
from .resampling import Resampler, _fast_replicates, _first, _jackknife, _many, _replicates

__all__ = ["BootstrapResult", "bootstrap", "bootstrap_areas"]


# ---------------------------------------------------------------------------- bootstrap


@summarised()
@dataclass(frozen=True)
class BootstrapResult:
    """A bootstrap confidence interval and the distribution behind it.

    Attributes
    ----------
    statistic : str
        What was resampled, e.g. ``"auroc"`` or ``"f1 at its best threshold"``.
    estimate : float
        The statistic on the data.
    confidence_interval : tuple of float
        ``(low, high)``.
    confidence_level : float
        In (0, 1).
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"``.
    bootstrap_distribution : ndarray of shape (n_valid,), float64
        The statistic on each replicate that had both classes and where it is defined.
        For ``statistic="best_threshold"`` it may hold ``+inf`` (predicting nothing
        positive was best on that replicate).
    standard_error : float
        Standard deviation of the bootstrap distribution (``inf`` if it holds an
        infinite value).
    n_dropped : int
        Replicates left out because they drew a single class.
    n_undefined : int
        Replicates left out because the statistic is undefined on them (0/0, e.g.
        precision at a fixed threshold that no drawn sample reaches); a warning says so.
    weight_kind : {"sampling", "frequency"} or None
        How the sample weights were resampled; ``None`` for unweighted data.
    """

    statistic: str
    estimate: float
    confidence_interval: tuple[float, float]
    confidence_level: float
    method: str
    bootstrap_distribution: FloatArray
    standard_error: float
    n_dropped: int
    n_undefined: int = 0
    weight_kind: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the numbers (without the bootstrap distribution).

        Returns
        -------
        dict
            ``statistic``, ``estimate``, ``low``, ``high``, ``confidence_level``,
            ``method``, ``standard_error``, ``n_resamples`` (replicates used),
            ``n_dropped``, ``n_undefined`` and ``weight_kind``.
        """
        low, high = self.confidence_interval
        return {
            "statistic": self.statistic,
            "estimate": self.estimate,
            "low": low,
            "high": high,
            "confidence_level": self.confidence_level,
            "method": self.method,
            "standard_error": self.standard_error,
            "n_resamples": len(self.bootstrap_distribution),
            "n_dropped": self.n_dropped,
            "n_undefined": self.n_undefined,
            "weight_kind": self.weight_kind,
        }

    def _headline(self) -> str:
        low, high = self.confidence_interval
        return f"{self.estimate:.6g}, {100 * self.confidence_level:g} % CI [{low:.6g}, {high:.6g}]"

    def _repr_html_(self) -> str:
        low, high = self.confidence_interval
        rows = [
            ("estimate", self.estimate),
            (f"{100 * self.confidence_level:g} % interval ({self.method})", f"{low:.6g} to {high:.6g}"),
            ("standard error", self.standard_error),
            ("replicates", len(self.bootstrap_distribution)),
            ("dropped (one class)", self.n_dropped),
        ]
        if self.n_undefined:
            rows.append(("dropped (statistic undefined)", self.n_undefined))
        if self.weight_kind is not None:
            rows.append(("weights", self.weight_kind))
        return html_table(("", "value"), rows, caption=f"bootstrap of {self.statistic}")


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "statistic": InBody("an area or a metric", invalid=["no-such-metric"]),
        "metric": InBody("a metric or None"),
        "threshold": InBody("a threshold or None"),
        "method": Options("percentile", "basic", "bca"),
        "stratified": Boolean(),
    }
    | RESAMPLING
)
@fill_doc
def bootstrap(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    statistic: str = "auroc",
    metric: str | Metric | None = None,
    threshold: float | None = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    method: str = "percentile",
    stratified: bool = False,
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
    rng: Any = None,
    progress: bool = False,
) -> BootstrapResult:
    """Bootstrap confidence interval of an area, a metric, or the best threshold.

    Each replicate resamples the samples with replacement and is evaluated through the
    already-sorted operating points (counts per tie group, no new sort): its value is
    exactly the statistic of the explicitly resampled data.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive; finite. One column: for
        ``predict_proba`` output pass ``proba[:, 1]``.
    statistic : str or Metric, default="auroc"
        An area (``"auroc"``, ``"average_precision"``, ``"auprg"``,
        ``"auc_pr_interpolated"``); or a metric, named as :func:`best_threshold` and
        ``--metric`` take it (``"f1"``, ``"g(beta=2, rho=-3)"``, ``"net_benefit@0.2"``,
        any of :data:`METRIC_NAMES`; see :func:`parse_metric`) or given as a
        :class:`Metric`: its value at ``threshold``, or at its re-optimised best
        threshold when ``threshold`` is None; or ``"best_threshold"``: that threshold
        of ``metric``. ``statistic="metric", metric=m`` is the same as ``statistic=m``.
    metric : str or Metric, default=None
        For ``"metric"`` and ``"best_threshold"``; see :func:`parse_metric`.
    threshold : float, default=None
        Fixed threshold for a metric statistic (predict positive iff score >= it).
    n_resamples : int, default=1000
        Number of replicates (>= 2).
    confidence_level : float, default=0.95
        In (0, 1).
    method : {"percentile", "basic", "bca"}, default="percentile"
        BCa uses a delete-a-block jackknife (50 blocks) for the acceleration.
    stratified : bool, default=False
        Resample positives and negatives separately (fixed class sizes), as when the
        class sizes are fixed by design; otherwise the prevalence varies too.
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights; ``weight_kind`` says how they are resampled.
    %(weight_kind)s
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).
    rng : numpy.random.Generator or int, default=None
        Source of randomness (SPEC 7); an int seeds a new generator.
    progress : bool, default=False
        Show a progress bar (on a terminal, with Rich installed).

    Returns
    -------
    BootstrapResult
        The estimate, the interval, the bootstrap distribution, its standard error,
        how many replicates were dropped for lacking a class or for leaving the
        statistic undefined, and the weight kind used.

    Raises
    ------
    InvalidParameterError
        If ``statistic``, ``metric``, ``threshold``, ``n_resamples``,
        ``confidence_level``, ``method``, ``weight_kind`` or ``rng`` is invalid, or
        ``weight_kind="frequency"`` with weights that are not whole numbers.
    ValueError
        If ``y_score`` is not 1-D (for ``predict_proba`` output pass ``proba[:, 1]``);
        if ``y_true`` has one class, and for the bad inputs listed in
        :meth:`OperatingPoints.from_scores`; if the statistic is undefined on the data
        (e.g. precision at a threshold above every score: nothing is predicted
        positive); if fewer than 2 replicates have both classes and a defined statistic;
        with ``method="basic"`` or ``"bca"`` if the interval is undefined because the
        statistic is infinite (a best threshold of ``+inf``).

    Warns
    -----
    UndefinedMetricWarning
        If the statistic is undefined on some replicates (0/0, e.g. precision at a
        threshold that no drawn sample reaches): they are left out and counted in
        ``n_undefined``, and the interval is conditional on the statistic being defined.
    WeightKindWarning
        If ``weight_kind=None`` and the weights are whole numbers that are not all
        equal (they may be frequencies).

    See Also
    --------
    bootstrap_compare, delong

    Notes
    -----
    The best threshold and the metric at it are non-smooth statistics: their bootstrap
    is biased and its intervals are rough; prefer a fixed (held-out) threshold. The
    best threshold is ``+inf`` on a replicate where predicting nothing positive is best
    (possible for costs); the percentile interval then reaches ``+inf``.

    References
    ----------
    .. [1] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*, 1993.

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.uncertainty import bootstrap
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.3
    >>> s = rng.normal(size=500) + y
    >>> result = bootstrap(y, s, statistic="auroc", n_resamples=200, rng=1)
    >>> low, high = result.confidence_interval
    >>> bool(low < result.estimate < high)
    True
    """
    name, stat, compact = resolve_statistic(statistic, metric, threshold)
    checked = _bootstrap_iv(
        y_true,
        {"score": check_score_column(y_score)},
        sample_weight,
        pos_label,
        n_resamples,
        confidence_level,
        method,
        weight_kind,
    )
    data = checked.data
    s = data.scores["score"]
    resampler = Resampler(data.is_pos, s, data.weights, stratified, frequency=checked.weight_kind == "frequency")
    return bootstrap_statistics(
        resampler,
        data.is_pos,
        s,
        data.weights,
        [(name, stat, compact)],
        checked.n_resamples,
        checked.level,
        method,
        check_rng(rng),
        progress,
        weight_kind=checked.weight_kind,
        threshold=threshold,
    )[name]


def bootstrap_statistics(
    resampler: Resampler,
    is_pos: np.ndarray,
    scores: FloatArray,
    weights: FloatArray | None,
    named: list[tuple[str, Callable[[OperatingPoints], float], bool]],
    n_resamples: int,
    level: float,
    method: str,
    rng: np.random.Generator,
    progress: bool,
    *,
    weight_kind: str | None,
    threshold: float | None = None,
    stacklevel: int = 4,
    draw: Callable[[int, np.random.Generator], tuple[FloatArray, int]] | None = None,
) -> dict[str, BootstrapResult]:
    """Bootstrap several statistics of one scorer, all from the same replicates.

    Parameters
    ----------
    resampler : Resampler
        The resampler of the scorer's validated data (its ``op`` gives the estimates).
    is_pos, scores, weights : ndarray
        The validated data, for the per-sample jackknife of ``method="bca"``.
    named : list of (str, callable, bool)
        Each statistic as :func:`resolve_statistic` returns it.
    n_resamples, level, method, rng, progress : int, float, str, Generator, bool
        The number of replicates, the confidence level, the interval, the source of the
        replicates and whether to show a progress bar.
    weight_kind : {"sampling", "frequency"} or None
        As ``_inputs.resolve_weight_kind`` resolved it.
    threshold : float, optional
        The threshold of a metric's statistic, for the message of an undefined estimate.
    stacklevel : int, default=4
        Stack level of the warnings, pointing at the user's call.
    draw : callable, optional
        ``draw(n_resamples, rng)``: the replicates' values (n_valid, statistics) and the
        number dropped, drawn without building tables (e.g. ``resampling.replicates_at_point``).

    Returns
    -------
    dict of str to BootstrapResult
        One result per statistic, by its name.

    Raises
    ------
    IsometricsError
        If an estimate is undefined on the data, or fewer than two replicates had both classes.
    """
    names = [name for name, _, _ in named]
    stats = [fn for _, fn, _ in named]
    estimates = [_check_estimate(float(fn(resampler.op)), name, resampler.op, threshold) for name, fn, _ in named]
    fast = None if draw is not None else _fast_replicates(resampler, names, n_resamples, rng, progress)
    if draw is not None:
        dist, dropped = draw(n_resamples, rng)
    elif fast is not None:
        dist, dropped = fast
    else:
        compact = any(c for _, _, c in named)
        paired, dropped = _replicates(
            [resampler], _many(stats), len(stats), n_resamples, rng, progress, f"bootstrap {', '.join(names)}", compact
        )
        dist = paired[:, 0, :]
    if len(dist) < 2:
        raise IsometricsError(
            f"{current_caller()}: only {len(dist)} replicate(s) had both classes; use stratified=True."
        )
    per_sample = None
    if method == "bca":
        per_sample = (
            resampler
            if resampler.weighted
            else Resampler(
                is_pos,
                scores,
                weights,
                False,
                per_sample=True,
                op=resampler.op,
                frequency=resampler.frequency,
            )
        )
    out = {}
    for k, (name, fn, _) in enumerate(named):
        estimate = estimates[k]
        values, n_undefined = _defined(dist[:, k], name, n_resamples, stacklevel)
        jack = _jackknife([per_sample], _first(fn), rng) if per_sample is not None else None
        out[name] = BootstrapResult(
            name,
            estimate,
            _interval(estimate, values, level, method, jack, name),
            level,
            method,
            values,
            _standard_error(values),
            dropped,
            n_undefined,
            weight_kind,
        )
    return out


@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "areas": InBody("a tuple of area names", invalid=[("auroc", "no-such-area")]),
        "method": Options("percentile", "basic", "bca"),
        "stratified": Boolean(),
    }
    | RESAMPLING
)
@fill_doc
def bootstrap_areas(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    areas: tuple[str, ...] = ("auroc", "average_precision", "auprg"),
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    method: str = "percentile",
    stratified: bool = False,
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
    rng: Any = None,
    progress: bool = False,
) -> dict[str, BootstrapResult]:
    """Bootstrap intervals of several areas from the same replicates (one draw, every area).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive; finite. One column: for
        ``predict_proba`` output pass ``proba[:, 1]``.
    areas : tuple of str, default=("auroc", "average_precision", "auprg")
        Any of ``"auroc"``, ``"average_precision"``, ``"auprg"``, ``"auc_pr_interpolated"``.
    n_resamples, confidence_level, method, stratified, sample_weight, pos_label, rng, progress
        As in :func:`bootstrap`.
    %(weight_kind)s

    Returns
    -------
    dict of str to BootstrapResult
        One result per area, in the order given.

    Raises
    ------
    InvalidParameterError
        If ``areas`` is empty or names an unknown area, and as :func:`bootstrap`.
    ValueError
        As :func:`bootstrap`.

    Warns
    -----
    WeightKindWarning
        As :func:`bootstrap`.

    See Also
    --------
    bootstrap

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.uncertainty import bootstrap_areas
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> results = bootstrap_areas(y, rng.normal(size=300) + y, n_resamples=100, rng=1)
    >>> list(results)
    ['auroc', 'average_precision', 'auprg']
    """
    if isinstance(areas, str) or not hasattr(areas, "__len__") or not len(areas):
        raise InvalidParameterError(
            f"{current_caller()}: `areas` must be a non-empty tuple of area names, e.g. "
            f"('auroc', 'average_precision'); got {areas!r}."
        )
    named = [resolve_statistic(check_option(a, f"areas[{k}]", _AREAS), None, None) for k, a in enumerate(areas)]
    checked = _bootstrap_iv(
        y_true,
        {"score": check_score_column(y_score)},
        sample_weight,
        pos_label,
        n_resamples,
        confidence_level,
        method,
        weight_kind,
    )
    data = checked.data
    s = data.scores["score"]
    resampler = Resampler(data.is_pos, s, data.weights, stratified, frequency=checked.weight_kind == "frequency")
    return bootstrap_statistics(
        resampler,
        data.is_pos,
        s,
        data.weights,
        named,
        checked.n_resamples,
        checked.level,
        method,
        check_rng(rng),
        progress,
        weight_kind=checked.weight_kind,
    )
