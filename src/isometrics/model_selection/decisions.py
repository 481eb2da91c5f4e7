"""A decision handed over: the operating rule to deploy and what it is expected to do.

:func:`decide` states one rule on one score column: flag ``y_score >= threshold``, flag the
top ``k`` rows, or flag at the best threshold of a metric. It returns :class:`Decision`
objects (:mod:`.decision_result`): the confusion counts the rule gives (also per 1,000 cases), its alert rate,
precision, recall, specificity, F1 and any other metric, with bootstrap intervals at a
fixed rule. A threshold chosen as the best on the data is optimistic on those data, so a
best-metric rule comes with a second, cross-fitted estimate: the threshold is chosen on
k - 1 folds of the rows and applied to the held-out fold, and the held-out counts are
pooled (no model is refitted: the scores are taken as given).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, InBody, Integral, Interval, validate_params
from .._core.docstrings import fill_doc
from .._core.validation import check_integer, check_real, check_rng
from .._typing import WEIGHT_KINDS, ArrayLike
from ..exceptions import InvalidParameterError, IsometricsError
from ..metrics._arguments import parse_metric_argument, parse_metric_arguments
from ..metrics.registry import Metric
from ..spaces.cutoffs import Cutoff, cut_at_rate, cut_at_threshold, cut_at_top_k
from ..spaces.operating_points import OperatingPoints
from ..uncertainty._inputs import (
    RESAMPLING,
    WEIGHT_KIND,
    check_binary_inputs,
    check_confidence_level,
    check_n_resamples,
    check_score_column,
    resolve_weight_kind,
)
from ..uncertainty.intervals import BootstrapResult, bootstrap_statistics
from ..uncertainty.resampling import Resampler, replicates_at_point
from .decision_result import _RATES, CROSS_FITTED, IN_SAMPLE, PER_1000, Decision
from .thresholds import _cross_validated, _splits

__all__ = ["Decision", "decide"]


def _cut_counts(cut: Cutoff) -> tuple[float, float, float, float]:
    return cut.tp, cut.fp, cut.fn, cut.tn


def _intervals(
    resampler: Resampler,
    is_pos: np.ndarray,
    s: np.ndarray,
    weights: Any,
    counts: Callable[[OperatingPoints], tuple[float, float, float, float]],
    metrics: Sequence[Metric],
    n_resamples: int,
    level: float,
    rng: np.random.Generator,
    weight_kind: str | None,
    index: int | None = None,
) -> dict[str, BootstrapResult]:
    """Paired percentile intervals of the rates and metrics at one rule (one set of replicates).

    ``index``: the rule flags the tie groups before this operating point of ``resampler.op``
    (a fixed threshold), so each replicate's counts are four sums of its draws, no table."""

    def rate_of(f: Callable[..., Any]) -> Callable[[tuple[float, float, float, float]], float]:
        return lambda c: float(f(*c))

    stats = [(name, rate_of(f)) for name, f in _RATES.items()]
    stats += [(name, rate_of(lambda *c, i=i: 1000.0 * c[i] / sum(c))) for name, i in PER_1000.items()]
    stats += [(m.spec, rate_of(m.from_counts)) for m in metrics if m.spec not in _RATES]
    on_data = counts(resampler.op)
    kept = [(name, f) for name, f in stats if not math.isnan(f(on_data))]
    if not kept:
        return {}
    defined = [(name, (lambda op, f=f: f(counts(op))), False) for name, f in kept]
    draw = (
        None if index is None else (lambda n, gen: replicates_at_point(resampler, index, [f for _, f in kept], n, gen))
    )
    return bootstrap_statistics(
        resampler,
        is_pos,
        s,
        weights,
        defined,  # type: ignore[arg-type]
        n_resamples,
        level,
        "percentile",
        rng,
        False,
        weight_kind=weight_kind,
        stacklevel=5,
        draw=draw,
    )


@validate_params(
    {p: RESAMPLING[p] for p in ("sample_weight", "pos_label", "confidence_level", "rng")}
    | {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "threshold": [InBody("a real number (infinite allowed), checked after the data", invalid=["1"]), None],
        "top_k": [InBody("a number of rows to flag, > 0"), None],
        "metric": [InBody("a metric name or a Metric"), None],
        "metrics": InBody("a sequence of metric names or Metrics", invalid=[["no-such-metric"]]),
        "cv": InBody("a number of folds, a scikit-learn splitter, fold ids or None"),
        "n_repeats": Interval(Integral, 1, None),
        "n_resamples": [RESAMPLING["n_resamples"], None],
        "weight_kind": WEIGHT_KIND,
    }
)
@fill_doc
def decide(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    threshold: float | None = None,
    top_k: float | None = None,
    metric: str | Metric | None = None,
    metrics: Sequence[str | Metric] = (),
    cv: Any = 5,
    n_repeats: int = 1,
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
    n_resamples: int | None = None,
    confidence_level: float = 0.95,
    rng: Any = None,
) -> tuple[Decision, ...]:
    r"""State a decision rule on a score column and estimate what it does.

    Give exactly one rule: ``threshold`` (flag ``y_score >= threshold``), ``top_k``
    (flag the ``top_k`` highest-scored rows) or ``metric`` (flag at the threshold that
    maximises it on these data; minimises, for a cost). A fixed rule is estimated on the
    data (not optimistic: nothing was chosen on them). A best-metric rule gets two
    estimates: in sample (optimistic, since the threshold was fitted to these rows) and
    cross-fitted: for each of ``cv`` stratified folds, the threshold best on the other
    folds is applied to the fold; the held-out confusion counts are pooled,

    .. math::

        \widehat{TP}_{\mathrm{cf}} = \sum_{j=1}^{k} \sum_{i \in F_j}
        w_i\,[y_i = 1]\,[s_i \ge t_{-j}], \qquad t_{-j} = \arg\max_t M(\text{rows} \notin F_j; t)

    (likewise FP, FN, TN), averaged over ``n_repeats`` fold assignments, and every rate
    is computed from the pooled counts.

    Parameters
    ----------
    %(binary_data)s
    threshold : float, default=None
        A fixed threshold: predict positive iff ``y_score >= threshold`` (any real
        number or ``+-inf``; not NaN).
    top_k : int or float, default=None
        A budget: flag the ``top_k`` highest-scored rows, > 0 and at most the number
        of rows (the total weight, when weighted). A budget ending inside a group of
        tied scores gives the expected counts under a random order of the tie.
    metric : str or Metric, default=None
        Flag at this metric's best threshold; see :func:`isometrics.parse_metric`.
    metrics : sequence of str or Metric, default=()
        Further metrics to evaluate from each decision's counts (in ``values``).
    cv : int, array-like of shape (n_samples,), splitter or None, default=5
        The folds of the cross-fitted estimate (``metric`` only): an int ``k >= 2``
        (stratified folds drawn with ``rng``), one fold id per sample, or an object with
        a scikit-learn ``split(X, y)`` method; ``None``: no cross-fitted estimate.
    n_repeats : int, default=1
        Fold assignments averaged over (>= 1; more than 1 needs an int ``cv``).
    %(binary_weight)s
    %(weight_kind)s
    %(binary_pos_label)s
    n_resamples : int, default=None
        Bootstrap replicates (>= 2) for percentile intervals of a fixed rule (``threshold``
        or ``top_k``); ``None``: no intervals. A top-k rule keeps its rate ``top_k / total``
        in each replicate.
    confidence_level : float, default=0.95
        In (0, 1).
    rng : numpy.random.Generator or int, default=None
        Randomness of the folds and of the bootstrap (SPEC 7).

    Returns
    -------
    tuple of Decision
        One :class:`Decision` for a fixed rule; for ``metric``, two: the in-sample
        estimate (``optimistic=True``), then the cross-fitted one (left out when ``cv``
        is None). Both name the threshold to deploy, the best on all the data.

    Raises
    ------
    InvalidParameterError
        If not exactly one of ``threshold``, ``top_k`` and ``metric`` is given; if
        ``threshold`` is NaN or not a number, ``top_k`` is not in (0, total weight],
        ``n_repeats`` is not an integer >= 1 (or exceeds 1 with a ``cv`` that is not an
        int), ``n_resamples`` is given with ``metric``, or ``n_resamples``,
        ``confidence_level``, ``weight_kind`` or ``rng`` is invalid.
    ValueError
        If ``y_true`` has one class, ``cv`` asks for more folds than the smaller class
        has samples, a training part has one class, a metric cannot be parsed, and for
        the bad inputs listed in :meth:`OperatingPoints.from_scores`.

    Warns
    -----
    UndefinedMetricWarning
        If a bootstrapped statistic is undefined on some replicates (left out).
    WeightKindWarning
        With ``n_resamples``, as :func:`isometrics.uncertainty.bootstrap`.

    See Also
    --------
    cross_validated_threshold, OperatingPoints.at_threshold, OperatingPoints.at_top_k

    Notes
    -----
    The cross-fitted estimate compares each fold's scores with a threshold chosen on
    the other folds' scores; it corrects the optimism of choosing the threshold, not
    that of fitting the model that made the scores (pass out-of-fold scores for that).
    It estimates the rule "choose the best threshold on this much data", which is
    slightly worse than choosing on all of it.

    References
    ----------
    .. [1] T. Hastie, R. Tibshirani and J. Friedman, *The Elements of Statistical
       Learning*, 2nd ed., Springer 2009, section 7.10.

    Examples
    --------
    >>> from isometrics import decide
    >>> (d,) = decide([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], threshold=0.35)
    >>> d.tp, d.fp, d.alert_rate, d.precision
    (3.0, 1.0, 0.6666666666666666, 0.75)
    >>> (d,) = decide([0, 1, 1, 0, 1], [0.9, 0.5, 0.5, 0.5, 0.2], top_k=3)
    >>> round(d.tp, 4), d.rule
    (1.3333, 'top 3')
    """
    given = [name for name, v in (("threshold", threshold), ("top_k", top_k), ("metric", metric)) if v is not None]
    if len(given) != 1:
        raise InvalidParameterError(
            f"{current_caller()}: give exactly one rule of `threshold`, `top_k` and `metric`; got "
            f"{' and '.join(given) if given else 'none'}."
        )
    data = check_binary_inputs(y_true, {"score": check_score_column(y_score)}, sample_weight, pos_label)
    parsed = parse_metric_arguments(metrics)
    repeats = check_integer(n_repeats, "n_repeats", low=1)
    gen = check_rng(rng)
    s, is_pos, weights = data.scores["score"], data.is_pos, data.weights
    op = OperatingPoints.from_validated(is_pos, s, weights, True)
    if metric is not None:
        if n_resamples is not None:
            raise InvalidParameterError(
                f"{current_caller()}: intervals (`n_resamples`) are computed at a fixed rule; the "
                "honest estimate of a best-metric rule is its cross-fitted one: drop "
                "`n_resamples`, or give the chosen `threshold`."
            )
        return _best_metric(op, is_pos, s, weights, parse_metric_argument(metric), parsed, cv, repeats, gen)
    if threshold is not None:
        t = check_real(threshold, "threshold", allow_inf=True)
        cut = cut_at_threshold(op, t)
        rule, k = f"score >= {t:g}", None
        counts, index = _threshold_counts(op, t)
    else:
        assert top_k is not None  # exactly one rule is given (checked above)
        cut = cut_at_top_k(op, top_k, "interpolate")
        k = float(cut.flagged)
        rate = k / (op.n_positives + op.n_negatives)
        rule, index = f"top {k:g}", None  # interpolated between operating points: each replicate's table

        def counts(o: OperatingPoints) -> tuple[float, float, float, float]:
            return _cut_counts(cut_at_rate(o, min(rate, 1.0), "interpolate"))

    intervals: dict[str, BootstrapResult] = {}
    if n_resamples is not None:
        n = check_n_resamples(n_resamples)
        level = check_confidence_level(confidence_level)
        kind = resolve_weight_kind(weight_kind, weights, stacklevel=3)
        resampler = Resampler(is_pos, s, weights, False, op=op, frequency=kind == "frequency")
        intervals = _intervals(resampler, is_pos, s, weights, counts, parsed, n, level, gen, kind, index)
    values = {m.spec: float(m.from_counts(*_cut_counts(cut))) for m in parsed}
    return (
        Decision(
            rule,
            IN_SAMPLE,
            False,
            cut.threshold,
            k,
            *_cut_counts(cut),
            values,
            intervals,
            tie_fraction=cut.tie_fraction,
        ),
    )


def _threshold_counts(
    op: OperatingPoints, t: float
) -> tuple[Callable[[OperatingPoints], tuple[float, float, float, float]], int]:
    """The rule ``score >= t``: its counts ``(tp, fp, fn, tn)`` in any table of these scores, and the
    index of its operating point in ``op`` (the same point of every replicate)."""

    def counts(o: OperatingPoints) -> tuple[float, float, float, float]:
        i = int(np.searchsorted(-o.thresholds, -t, side="right")) - 1  # the last threshold >= t
        return (float(o.tp[i]), float(o.fp[i]), o.n_positives - float(o.tp[i]), o.n_negatives - float(o.fp[i]))

    return counts, int(np.searchsorted(-op.thresholds, -t, side="right")) - 1


def _paired_intervals(
    y_true: ArrayLike,
    y_score: ArrayLike,
    threshold: float,
    metric: Metric,
    comparison: Any,
    *,
    sample_weight: Any,
    pos_label: Any,
) -> dict[str, BootstrapResult]:
    """:func:`decide`'s intervals of the rule ``score >= threshold``, read on the paired replicates of
    ``comparison`` (a :class:`~isometrics.uncertainty.ModelComparison` of these data, with its
    ``replicate_state``) instead of replicates of their own: the same rows, replicate by replicate,
    drawn per sample as the comparison drew them, so the counts' intervals and the comparisons rest
    on one set of replicates."""
    data = check_binary_inputs(y_true, {"score": check_score_column(y_score)}, sample_weight, pos_label)
    s, is_pos, weights = data.scores["score"], data.is_pos, data.weights
    op = OperatingPoints.from_validated(is_pos, s, weights, True)
    counts, index = _threshold_counts(op, threshold)
    kind = comparison.weight_kind
    # the comparison's own way of drawing, per sample (Resampler.row_counts): the same rows, replicate by replicate
    resampler = Resampler(
        is_pos,
        s,
        weights,
        comparison.stratified,
        per_sample=True,
        op=op,
        frequency=kind == "frequency",
    )
    return _intervals(
        resampler,
        is_pos,
        s,
        weights,
        counts,
        [metric],
        comparison.n_resamples,
        comparison.confidence_level,
        comparison.replicate_generator(),
        kind,
        index,
    )


def _best_metric(
    op: OperatingPoints,
    is_pos: np.ndarray,
    s: np.ndarray,
    weights: Any,
    m: Metric,
    parsed: list[Metric],
    cv: Any,
    repeats: int,
    gen: np.random.Generator,
) -> tuple[Decision, ...]:
    """The in-sample and the cross-fitted estimates of flagging at ``m``'s best threshold."""
    if (
        repeats > 1
        and cv is not None
        and not (isinstance(cv, (int, np.integer)) and not isinstance(cv, (bool, np.bool_)))
    ):
        raise InvalidParameterError(
            f"{current_caller()}: `n_repeats` = {repeats} draws new folds each time, which needs `cv` "
            "as an int (a number of folds); pass n_repeats=1 with these splits."
        )
    best = op.best_threshold(m)
    cut = cut_at_threshold(op, best.threshold)
    metrics = [m, *(p for p in parsed if p.spec != m.spec)]
    if math.isnan(best.value):
        raise IsometricsError(
            f"{current_caller()}: {m.spec} is undefined at every threshold of these data; choose another metric."
        )
    rule = f"best {m.spec}"
    in_sample = Decision(
        rule,
        IN_SAMPLE,
        True,
        cut.threshold,
        None,
        *_cut_counts(cut),
        {p.spec: float(p.from_counts(*_cut_counts(cut))) for p in metrics},
    )
    if cv is None:
        return (in_sample,)
    pooled = np.zeros(4)
    n_splits = 0
    for _ in range(repeats):
        result = _cross_validated(is_pos, s, weights, True, m, _splits(cv, is_pos, is_pos, gen), np.nan, op=op)
        pooled += np.asarray(result.counts)
        n_splits = result.n_splits
    tp, fp, fn, tn = (float(c) for c in pooled / repeats)
    held_out = (tp, fp, fn, tn)
    cross = Decision(
        rule,
        CROSS_FITTED,
        False,
        cut.threshold,
        None,
        tp,
        fp,
        fn,
        tn,
        {p.spec: float(p.from_counts(*held_out)) for p in metrics},
        n_splits=n_splits,
        n_repeats=repeats,
    )
    return in_sample, cross
