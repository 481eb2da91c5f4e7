"""Paired comparisons of k models on the same samples: one resample draws every model, every
statistic; DeLong's test of the AUROCs; the rows read under the one policy of
:mod:`~isometrics.uncertainty.model_comparison` (adjustment, compatible intervals, decision).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import validate_params
from .._core.docstrings import fill_doc
from .._core.validation import check_rng, column_name, frame_columns
from .._typing import WEIGHT_KINDS, ArrayLike
from ..exceptions import IsometricsError
from ..metrics._arguments import parse_metric_arguments
from ..metrics.registry import Metric
from ..spaces.operating_points import OperatingPoints
from ._compared import _Named, _named, _pairs
from ._inputs import (
    COMPARED,
    COMPARED_BOOTSTRAP,
    COMPARED_SCORES,
    RESAMPLING,
    _bootstrap_iv,
    _score_columns,
    check_score_column,
)
from .delong import _delong, _delong_pair
from .intervals import BootstrapResult, _check_estimate, _defined, _interval, _standard_error
from .model_comparison import ModelComparison, _bootstrap_rows, _delong_rows, check_adjustment
from .resampling import Resampler, _jackknife, _many, _paired_step_replicates, _replicates

__all__ = ["bootstrap_compare", "compare_scores"]


def _compare(
    y_true: ArrayLike,
    scores: dict[str, Any],
    named: list[_Named],
    *,
    baseline: Any,
    adjustment: Any,
    n_resamples: Any,
    confidence_level: Any,
    method: Any,
    stratified: bool,
    sample_weight: Any,
    weight_kind: Any,
    pos_label: Any,
    rng: Any,
    progress: bool,
    threshold: float | None = None,
) -> ModelComparison:
    """Every statistic of every pair from one set of paired replicates, DeLong where it applies, under the policy."""
    adjustment = check_adjustment(adjustment)
    if len(scores) < 2:
        raise IsometricsError(
            f"{current_caller()}: `y_score` has {len(scores)} score column; give at least two score columns "
            "to compare (a 2-D array with one column per scorer, or a mapping of name to column)."
        )
    checked = _bootstrap_iv(
        y_true,
        scores,
        sample_weight,
        pos_label,
        n_resamples,
        confidence_level,
        method,
        weight_kind,
        stacklevel=5,
    )
    data, level, kind = checked.data, checked.level, checked.weight_kind
    names = tuple(data.scores)
    pairs = _pairs(names, baseline)
    resamplers = [
        Resampler(data.is_pos, s, data.weights, stratified, per_sample=True, frequency=kind == "frequency")
        for s in data.scores.values()
    ]
    generator = check_rng(rng)
    state = dict(
        copy.deepcopy(generator.bit_generator.state)
    )  # the replicates' start: ModelComparison.replicate_generator
    estimates, results, jacks, (dist, dropped) = _paired_statistics(
        resamplers,
        names,
        named,
        pairs,
        checked.n_resamples,
        level,
        method,
        generator,
        progress,
        weight_kind=kind,
        threshold=threshold,
    )

    def interval(r: BootstrapResult, alpha: float) -> tuple[float, float]:
        return _interval(r.estimate, r.bootstrap_distribution, 1 - alpha, method, jacks.get(r.statistic), r.statistic)

    rows = []
    for k, n in enumerate(named):
        rows += _bootstrap_rows(
            n.key,
            n.label,
            n.greater_is_better,
            results[k],
            pairs,
            level,
            adjustment,
            None if method == "percentile" else interval,
        )
    delong = []
    if (
        any(n.key == "auroc" for n in named)
        and data.weights is None
        and min(int(data.is_pos.sum()), int((~data.is_pos).sum())) >= 2
    ):
        index = {name: i for i, name in enumerate(names)}
        ran, tests = [], []
        for a, b in pairs:
            i, j = index[a], index[b]
            try:
                tests.append(
                    _delong_pair(
                        _delong(
                            data.is_pos,
                            {a: data.scores[a], b: data.scores[b]},
                            [resamplers[i].op, resamplers[j].op],
                            [resamplers[i].group, resamplers[j].group],
                        ),  # unweighted: every row
                        level,
                        stacklevel=4,
                    )
                )
                ran.append((a, b))
            except IsometricsError:
                pass  # AUROCs that differ with zero variance: DeLong's approximation fails; the bootstrap row stands
        delong = _delong_rows(tests, ran, level, adjustment)
    return ModelComparison(
        names,
        tuple(n.key for n in named),
        {n.key: dict(zip(names, map(float, estimates[k]))) for k, n in enumerate(named)},
        tuple(rows),
        tuple(delong),
        level,
        adjustment,
        baseline,
        method,
        checked.n_resamples,
        kind,
        {n.key: dist[:, :, k] for k, n in enumerate(named)},
        dropped,
        stratified=stratified,
        replicate_state=state,
    )


@validate_params(RESAMPLING | COMPARED | COMPARED_BOOTSTRAP)
@fill_doc
def bootstrap_compare(
    y_true: ArrayLike,
    y_score: Any,
    *,
    statistics: str | Metric | Sequence[str | Metric] = ("auroc",),
    threshold: float | None = None,
    baseline: str | None = None,
    adjustment: str = "holm",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    method: str = "percentile",
    stratified: bool = False,
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
    rng: Any = None,
    progress: bool = False,
) -> ModelComparison:
    """Paired comparison of k models on several statistics: intervals, adjusted p-values, decisions.

    Every replicate draws one set of samples and evaluates every model on it, so the
    pairing is kept. For each statistic the p-values of its pairs form one family,
    adjusted by ``adjustment``; a pair's difference is declared ("logreg beats forest on
    AUROC by 0.0076 ...") only when its adjusted p-value is at most
    ``alpha = 1 - confidence_level``, exactly when its adjusted interval excludes 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples, k), data frame or mapping of str to array-like
        One score column per model (k >= 2): a data frame (pandas, Polars, pyarrow
        Table; its column names are the models' names), a mapping of name to 1-D column,
        or a 2-D array (column ``j`` named ``"score_j"``), each column validated as
        ``y_score`` of :func:`bootstrap`; for ``predict_proba`` output pass
        ``proba[:, 1]``.
    statistics : str, Metric or sequence of them, default=("auroc",)
        What is compared, from one vocabulary: the areas ``"auroc"``,
        ``"average_precision"``, ``"auprg"``, ``"auc_pr_interpolated"``, and every
        metric :func:`best_threshold` and ``--metric`` take (``"f1"``,
        ``"g(beta=2, rho=-3)"``, ``"net_benefit@0.2"``, a :class:`Metric`...), each at
        its re-optimised best threshold (or at ``threshold``).
    threshold : float, default=None
        A fixed threshold for the metrics (predict positive iff score >= it).
    baseline : str, default=None
        Compare each other model with this one (differences ``model - baseline``);
        ``None``: every two models, in the order given (``a - b``, ``a`` first).
    adjustment : {"holm", "bonferroni", "none"}, default="holm"
        Adjustment of the p-values of each statistic over its pairs (the family; DeLong's
        tests are a family of their own). Holm's step-down controls the family-wise
        error rate under any dependence.
    n_resamples : int, default=1000
        Paired bootstrap replicates (>= 2), shared by every statistic and model.
    confidence_level : float, default=0.95
        Of the intervals, in (0, 1); ``alpha = 1 - confidence_level`` is the level of
        the tests (after adjustment).
    method : {"percentile", "basic", "bca"}, default="percentile"
        The bootstrap interval. The p-value is the inversion of the percentile interval,
        whose adjusted interval excludes 0 exactly when the decision is a difference;
        ``"basic"`` and ``"bca"`` intervals may disagree with the decision.
    stratified, sample_weight, pos_label, rng, progress
        As in :func:`bootstrap`.
    %(weight_kind)s

    Returns
    -------
    ModelComparison
        Each model's estimates; per statistic and pair a :class:`ComparisonRow`
        (difference, raw and adjusted intervals and p-values, decision, sentence);
        DeLong's rows when ``"auroc"`` is compared on unweighted data.

    Raises
    ------
    InvalidParameterError
        If ``statistics`` is empty, names something that is neither an area nor a
        metric, or one twice; if ``adjustment`` is unknown; and as :func:`bootstrap`.
    ValueError
        If fewer than two models are given; if ``baseline`` is not one of them; if a
        mapping's column is not 1-D, or a 2-D array has two columns that sum to 1 in
        every row (``predict_proba`` output, one model); and as :func:`bootstrap`.

    Warns
    -----
    UndefinedMetricWarning, WeightKindWarning
        As :func:`bootstrap`.
    DegenerateDataWarning
        If two models order every positive-negative pair alike (DeLong: z = 0, p = 1).

    See Also
    --------
    compare_scores, bootstrap, delong_test, holm_adjust

    Notes
    -----
    The p-value of a pair is ``2 (1 + k) / (B + 1)`` (at most 1, never 0), with ``k``
    the smaller number of the ``B`` replicate differences on either side of 0: the
    inversion of the percentile interval taken as order statistics ``d_(j)`` and
    ``d_(B+1-j)``, ``j = floor((B + 1) a / 2)`` (Davison & Hinkley 1997, 5.2), which
    excludes 0 exactly when ``p <= a``. The adjusted interval is that interval at
    ``a = alpha * p / p_adjusted``, so that it excludes 0 exactly when
    ``p_adjusted <= alpha`` (the compatible intervals of Bretz, Hothorn & Westfall
    2010; for Bonferroni the usual level ``1 - alpha / m``). With too few replicates
    for that level it is infinite.

    A replicate draws how many times each row is taken, multinomial(n; 1/n, ..., 1/n)
    (within each class when stratified), block by block; a seed gives other replicates
    than 0.1.0 gave on 4,096 rows or more (the distribution is the same).

    References
    ----------
    .. [1] S. Holm, "A Simple Sequentially Rejective Multiple Test Procedure",
       Scandinavian Journal of Statistics 6(2), 65-70, 1979.
    .. [2] F. Bretz, T. Hothorn and P. Westfall, *Multiple Comparisons Using R*, 2010.
    .. [3] A. C. Davison and D. V. Hinkley, *Bootstrap Methods and their Application*, 1997.

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.uncertainty import bootstrap_compare
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> scores = {"a": rng.normal(size=400) + 2 * y, "b": rng.normal(size=400) + 0.5 * y}
    >>> result = bootstrap_compare(y, scores, statistics=["auroc", "f1"], n_resamples=200, rng=1)
    >>> row = result.row("auroc", "a", "b")
    >>> row.decision, row.winner
    ('a better', 'a')
    """
    named = _named(statistics, threshold)
    return _compare(
        y_true,
        _score_columns(y_score),
        named,
        baseline=baseline,
        adjustment=adjustment,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        method=method,
        stratified=stratified,
        sample_weight=sample_weight,
        weight_kind=weight_kind,
        pos_label=pos_label,
        rng=rng,
        progress=progress,
        threshold=threshold,
    )


@validate_params(RESAMPLING | COMPARED | COMPARED_SCORES)
@fill_doc
def compare_scores(
    y_true: ArrayLike,
    y_score: Any,
    score_b: ArrayLike | None = None,
    *,
    names: tuple[str, str] | None = None,
    metrics: Sequence[str | Metric] = ("f1",),
    baseline: str | None = None,
    adjustment: str = "holm",
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng: Any = None,
    progress: bool = False,
) -> ModelComparison:
    """Compare models as ``isometrics evaluate`` sees them: the three areas and each metric.

    :func:`bootstrap_compare` with ``statistics=("auroc", "average_precision",
    "auprg", *metrics)`` (percentile intervals, Holm over the pairs of each statistic,
    DeLong's test of the AUROCs on unweighted data), and two score columns may be given
    apart.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : data frame, mapping of str to array-like, array-like of shape (n_samples, k) or (n_samples,)
        The models' score columns (k >= 2), as :func:`bootstrap_compare` takes them; or
        the first model's 1-D scores, with ``score_b`` the second's.
    score_b : array-like of shape (n_samples,), default=None
        The second model's scores, when ``y_score`` is one column.
    names : tuple of str, default=None
        With ``score_b``: the two names. ``None``: the two columns' names (pandas or
        Polars Series) when both are named and differ, else ``("a", "b")``.
    metrics : sequence of str or Metric, default=("f1",)
        Metrics compared at their (re-optimised) best thresholds; see :func:`parse_metric`.
    baseline, adjustment
        As in :func:`bootstrap_compare`.
    %(binary_weight)s
    %(weight_kind)s
    %(binary_pos_label)s
    n_resamples : int, default=1000
        Paired bootstrap replicates.
    confidence_level : float, default=0.95
        Of the intervals, in (0, 1); ``alpha = 1 - confidence_level``.
    rng : numpy.random.Generator or int, default=None
        Randomness of the bootstrap.
    progress : bool, default=False
        Show progress bars.

    Returns
    -------
    ModelComparison
        As :func:`bootstrap_compare`.

    Raises
    ------
    InvalidParameterError
        As :func:`bootstrap_compare`.
    ValueError
        If the two names are equal; if ``metrics`` is not a sequence (a lone string) or
        one of its metrics cannot be parsed; if a score is not 1-D (for
        ``predict_proba`` output pass ``proba[:, 1]``); and as :func:`bootstrap_compare`.

    Warns
    -----
    WeightKindWarning, DegenerateDataWarning
        As :func:`bootstrap_compare`.

    See Also
    --------
    bootstrap_compare, delong_test

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.uncertainty import compare_scores
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> c = compare_scores(y, rng.normal(size=300) + 2 * y, rng.normal(size=300) + y, n_resamples=100, rng=1)
    >>> c.statistics
    ('auroc', 'average_precision', 'auprg', 'f1')
    >>> c.row("auroc", "a", "b").confidence_interval[0] > 0
    True
    """
    parsed = parse_metric_arguments(metrics)
    named = _named(["auroc", "average_precision", "auprg", *parsed], None)
    if score_b is None:
        if names is not None:
            raise IsometricsError(
                f"{current_caller()}: `names` names the two columns `y_score` and `score_b`; the columns of "
                "a data frame or mapping are named by it. Drop `names`."
            )
        scores = _score_columns(y_score)
    else:
        scores = _two_columns(y_score, score_b, names)
    return _compare(
        y_true,
        scores,
        named,
        baseline=baseline,
        adjustment=adjustment,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        method="percentile",
        stratified=False,
        sample_weight=sample_weight,
        weight_kind=weight_kind,
        pos_label=pos_label,
        rng=rng,
        progress=progress,
    )


def _two_columns(score_a: Any, score_b: Any, names: Any) -> dict[str, Any]:
    """Two score columns given apart, named by ``names``, else after the columns when both are named and differ."""
    if frame_columns(score_a) is not None or isinstance(score_a, Mapping):
        raise IsometricsError(
            f"{current_caller()}: `y_score` is a data frame or mapping and `score_b` is given; pass the "
            "columns to compare in one data frame or mapping, or two 1-D columns."
        )
    if names is None:
        found = (column_name(score_a), column_name(score_b))
        names = found if None not in found and found[0] != found[1] else ("a", "b")
    if isinstance(names, str) or not hasattr(names, "__len__") or len(names) != 2 or names[0] == names[1]:
        raise IsometricsError(f"{current_caller()}: `names` must be two different names; got {names!r}.")
    return {
        str(names[0]): check_score_column(score_a, name="y_score"),
        str(names[1]): check_score_column(score_b, name="score_b"),
    }


def _paired_statistics(
    resamplers: list[Resampler],
    names: tuple[str, ...],
    named: list[_Named],
    pairs: list[tuple[str, str]],
    n_resamples: int,
    level: float,
    method: str,
    rng: np.random.Generator,
    progress: bool,
    *,
    weight_kind: str | None,
    threshold: float | None = None,
    stacklevel: int = 5,
) -> tuple[list[Any], list[list[BootstrapResult]], dict[str, Any], tuple[Any, int]]:
    """Every statistic of every model on one set of replicates: the estimates, each pair's
    bootstrap of the difference, (BCa) the jackknife of each difference by its label, and the
    replicates themselves (shape (n_valid, models, statistics)) with the number dropped."""
    index = {name: i for i, name in enumerate(names)}
    all_estimates = [
        np.array(
            [
                _check_estimate(float(n.fn(r.op)), f"{n.name} of {names[i]!r}", r.op, threshold)
                for i, r in enumerate(resamplers)
            ]
        )
        for n in named
    ]
    fast = _paired_step_replicates(resamplers, [n.key for n in named], n_resamples, rng, progress)
    dist, dropped = (
        fast
        if fast is not None
        else _replicates(
            resamplers,
            _many([n.fn for n in named]),
            len(named),
            n_resamples,
            rng,
            progress,
            f"bootstrap {', '.join(n.name for n in named)}",
            any(n.compact for n in named),
            all(n.steps for n in named),
        )
    )
    results, jacks = [], {}
    for k, n in enumerate(named):
        per_pair = []
        for a, b in pairs:
            i, j = index[a], index[b]
            label = f"{n.name}: {a} - {b}"
            with np.errstate(invalid="ignore"):
                diff = dist[:, i, k] - dist[:, j, k]
            diff, n_undefined = _defined(diff, label, n_resamples, stacklevel)
            est = float(all_estimates[k][i] - all_estimates[k][j])
            jack = None
            if method == "bca":
                jack = jacks[label] = _jackknife([resamplers[i], resamplers[j]], _difference(n.fn), rng)
            ci = _interval(est, diff, level, method, jack, label)
            per_pair.append(
                BootstrapResult(
                    label, est, ci, level, method, diff, _standard_error(diff), dropped, n_undefined, weight_kind
                )
            )
        results.append(per_pair)
    return all_estimates, results, jacks, (dist, dropped)


def _difference(stat: Callable[[OperatingPoints], float]) -> Callable[[list[OperatingPoints]], float]:
    return lambda ops: stat(ops[0]) - stat(ops[1])
