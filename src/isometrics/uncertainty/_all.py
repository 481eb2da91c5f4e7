r"""Uncertainty: bootstrap by reweighting the sorted operating points, DeLong's method for
AUROC, and Boyd et al.'s intervals for average precision.

The bootstrap never sorts again: a replicate is a vector of multinomial counts (how often
each sample is drawn), aggregated per tie group with one ``bincount`` and cumulated, so
each replicate's operating points are exactly those of the explicitly resampled data
(groups drawn zero times are dropped, as zero-weight samples are).

References
----------
.. [1] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*, 1993 (BCa).
.. [2] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the Areas under
   Two or More Correlated Receiver Operating Characteristic Curves: A Nonparametric
   Approach", Biometrics 44(3):837-845, 1988.
.. [3] X. Sun and W. Xu, "Fast Implementation of DeLong's Algorithm for Comparing the
   Areas Under Correlated Receiver Operating Characteristic Curves", IEEE Signal
   Processing Letters 21(11):1389-1393, 2014.
.. [4] K. Boyd, K. H. Eng and C. D. Page, "Area Under the Precision-Recall Curve: Point
   Estimates and Confidence Intervals", ECML PKDD 2013.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any, NamedTuple

import numpy as np

from .._core.validation import (
    as_1d,
    as_array,
    check_binary_target,
    check_both_classes,
    check_consistent_length,
    check_integer,
    check_option,
    check_real,
    check_real_array,
    check_rng,
    check_sample_weight,
    check_scores,
)
from .._typing import WEIGHT_KIND_OPTIONS, WEIGHT_KINDS, ArrayLike, FloatArray
from ..exceptions import (
    DegenerateDataWarning,
    InvalidParameterError,
    IsometricsError,
    UndefinedMetricWarning,
    WeightKindWarning,
)
from ..metrics.registry import Metric, _parse_metric
from ..spaces.curves import _polyline_at
from ..spaces.operating_points import OperatingPoints

__all__ = [
    "DelongResult",
    "delong",
    "DelongTest",
    "delong_test",
    "BootstrapResult",
    "bootstrap",
    "bootstrap_areas",
    "PairedBootstrapResult",
    "bootstrap_compare",
    "average_precision_ci",
    "CurveBand",
    "bootstrap_curve_band",
]

_NORMAL = NormalDist()


# ---------------------------------------------------------------------------- DeLong
@dataclass(frozen=True)
class DelongResult:
    """AUROC of one or more scorers on the same samples, with DeLong's covariance.

    Attributes
    ----------
    names : tuple of str
        The scorers, in order.
    auroc : ndarray of shape (k,), float64
        Their AUROCs.
    covariance : ndarray of shape (k, k), float64
        DeLong's estimate of the covariance of the AUROCs.
    n_positives, n_negatives : int
        Class sizes.
    """

    names: tuple[str, ...]
    auroc: FloatArray
    covariance: FloatArray
    n_positives: int
    n_negatives: int

    @property
    def standard_error(self) -> FloatArray:
        """Standard errors of the AUROCs, shape (k,)."""
        return np.sqrt(np.diag(self.covariance))

    def confidence_interval(self, confidence_level: float = 0.95, *, scorer: str | int | None = None
                            ) -> tuple[float, float]:
        """Wald interval ``auroc +- z se`` of one scorer's AUROC, clipped to [0, 1].

        Like every interval of the library, a ``(low, high)`` tuple of floats; for all
        scorers at once see :meth:`confidence_intervals`.

        Parameters
        ----------
        confidence_level : float, default=0.95
            In (0, 1).
        scorer : str or int, default=None
            Which scorer: its name (one of ``names``) or its position. ``None`` is
            allowed when there is one scorer.

        Returns
        -------
        tuple of float
            ``(low, high)``, in [0, 1].

        Raises
        ------
        InvalidParameterError
            If ``confidence_level`` is not in (0, 1), or ``scorer`` is None with several
            scorers or names none of them.
        """
        caller = "DelongResult.confidence_interval"
        level = _check_level(confidence_level, caller)
        if scorer is None:
            if len(self.names) != 1:
                raise InvalidParameterError(
                    f"{caller}: there are {len(self.names)} scorers {list(self.names)}; pass scorer= (a name or a "
                    "position), or use confidence_intervals() for all of them.")
            k = 0
        elif isinstance(scorer, str):
            if scorer not in self.names:
                raise InvalidParameterError(f"{caller}: `scorer` must be one of {list(self.names)}; got {scorer!r}.")
            k = self.names.index(scorer)
        else:
            k = check_integer(scorer, "scorer", caller=caller, low=-len(self.names), high=len(self.names) - 1)
        return self._wald(level, k % len(self.names))

    def confidence_intervals(self, confidence_level: float = 0.95) -> dict[str, tuple[float, float]]:
        """Wald intervals of every scorer's AUROC, clipped to [0, 1].

        Parameters
        ----------
        confidence_level : float, default=0.95
            In (0, 1).

        Returns
        -------
        dict of str to tuple of float
            For each scorer, in ``names`` order, its ``(low, high)`` interval.

        Raises
        ------
        InvalidParameterError
            If ``confidence_level`` is not in (0, 1).
        """
        level = _check_level(confidence_level, "DelongResult.confidence_intervals")
        return {name: self._wald(level, k) for k, name in enumerate(self.names)}

    def _wald(self, level: float, k: int) -> tuple[float, float]:
        half = _NORMAL.inv_cdf(0.5 + level / 2) * float(self.standard_error[k])
        auc = float(self.auroc[k])
        return max(auc - half, 0.0), min(auc + half, 1.0)


def _check_level(confidence_level: Any, caller: str) -> float:
    return check_real(confidence_level, "confidence_level", caller=caller, low=0.0, high=1.0,
                      low_inclusive=False, high_inclusive=False)


def _two_sided_p(z: float) -> float:
    """Two-sided normal p-value ``2 (1 - Phi(|z|))``, through the complementary error function.

    ``erfc`` keeps full relative accuracy in the far tail, where ``1 - cdf`` cancels
    (to 0 beyond |z| of about 8.3; z = 9.13 gives 6.9e-20).
    """
    return math.erfc(abs(z) / math.sqrt(2.0))


def _placements(is_pos: np.ndarray, scores: FloatArray, op: OperatingPoints | None, caller: str
                ) -> tuple[FloatArray, FloatArray, float]:
    """DeLong's structural components (placements) from the engine, and the AUROC.

    V10 of a positive: the share of negatives it outscores (ties 1/2); V01 of a negative:
    the share of positives that outscore it (ties 1/2). Computed per tie group from the
    operating points, then read per sample through its group's position.
    """
    if op is None:
        op = OperatingPoints._from_validated(is_pos, scores, None, True, caller=caller)
    P, N = op.n_positives, op.n_negatives
    tp, fp = op.tp, op.fp
    group_v10 = (N - fp[1:] + 0.5 * op.dfp) / N  # for a positive in group g (1-based)
    group_v01 = (tp[:-1] + 0.5 * op.dtp) / P  # for a negative in group g
    g = _group_of(op, scores)
    return group_v10[g[is_pos]], group_v01[g[~is_pos]], op.auroc()


def _group_of(op: OperatingPoints, scores: FloatArray) -> np.ndarray:
    """0-based tie-group index (in decreasing score order) of each sample's score."""
    ascending = op.thresholds[:0:-1]  # distinct scores, increasing
    position = np.searchsorted(ascending, scores)
    return len(ascending) - 1 - np.minimum(position, len(ascending) - 1)


_PROBA_HINT = "for predict_proba output pass proba[:, 1], the positive class's column"


def _check_column(values: Any, *, caller: str, name: str = "y_score") -> FloatArray:
    """One score column through the shared :func:`check_scores` (1-D, numeric, finite);
    a 2-D array is refused there, and the message then says what to do with ``predict_proba``."""
    try:
        return check_scores(values, caller=caller, name=name)
    except IsometricsError as exc:
        shape: tuple[int, ...] | None = getattr(values, "shape", None)
        if shape is None:
            try:
                shape = np.shape(values)
            except ValueError:  # ragged nesting: no shape
                shape = ()
        if len(shape) == 2 and shape[1] >= 2 and "predict_proba" not in str(exc):
            raise IsometricsError(f"{str(exc).rstrip('.')}; {_PROBA_HINT}.") from None
        raise


def _score_columns(y_score: Any, caller: str) -> dict[str, FloatArray]:
    """The validated score columns of a multi-scorer function, by name.

    A mapping of name to column; a 2-D array, one column per scorer (named ``score_0``,
    ``score_1``, ...); or one 1-D column (named ``score``). Every column goes through
    :func:`_check_column`. Two columns that sum to 1 in every row are one model's
    ``predict_proba`` output, not two scorers, and are refused.
    """
    if isinstance(y_score, Mapping):
        if not y_score:
            raise IsometricsError(f"{caller}: `y_score` is an empty mapping; pass one score column per scorer.")
        return {str(k): _check_column(v, caller=caller, name=f"score column {k!r}") for k, v in y_score.items()}
    if y_score is None:
        return {"score": _check_column(y_score, caller=caller)}
    arr = as_array(y_score, name="y_score", caller=caller, shape="(n_samples,) or (n_samples, n_scorers)")
    if arr.ndim == 1:
        return {"score": _check_column(arr, caller=caller)}
    if arr.ndim == 2:
        if arr.shape[1] == 2 and _is_probability_pair(arr):
            raise IsometricsError(
                f"{caller}: the 2 columns of `y_score` sum to 1 in every row, as predict_proba output does: they "
                f"are one model's class probabilities, not two scorers; {_PROBA_HINT}, and stack the positive "
                "columns of the models to compare (or pass a mapping of name to column)."
            )
        return {f"score_{j}": _check_column(arr[:, j], caller=caller, name=f"score column 'score_{j}'")
                for j in range(arr.shape[1])}
    raise IsometricsError(f"{caller}: `y_score` must be 1-D, 2-D (one column per scorer) or a mapping of name to "
                          f"column; got an array of shape {arr.shape}.")


def _is_probability_pair(arr: np.ndarray) -> bool:
    if not np.issubdtype(arr.dtype, np.floating) or arr.shape[0] == 0:
        return False
    with np.errstate(invalid="ignore"):
        return bool(np.all((arr >= 0) & (arr <= 1)) and np.all(np.abs(arr.sum(axis=1) - 1.0) <= 1e-9))


def delong(y_true: ArrayLike, y_score: Any, *, pos_label: Any = None) -> DelongResult:
    """AUROC and DeLong's covariance for one or several scorers of the same samples.

    Uses the fast algorithm of Sun & Xu (2014): O(k n log n) through one sort per scorer
    (the operating points), instead of the O(k m n) pairwise placements.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,) or (n_samples, k), or mapping of str to array-like
        One score column per scorer: a 1-D array (one scorer, named ``"score"``), a 2-D
        array (column ``j`` named ``"score_j"``) or a mapping of name to 1-D column. Each
        column is validated as ``y_score`` of :func:`auroc` (1-D, numeric, finite); for
        ``predict_proba`` output pass ``proba[:, 1]``.
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).

    Returns
    -------
    DelongResult
        AUROCs, their covariance matrix, standard errors and Wald intervals.

    Raises
    ------
    ValueError
        If a class has fewer than 2 samples (the variance needs 2); if a mapping's
        column is not 1-D, or a 2-D array has two columns that sum to 1 in every row
        (``predict_proba`` output, one scorer); and for the bad inputs listed in
        :meth:`OperatingPoints.from_scores`.

    Notes
    -----
    DeLong's method treats samples as individuals (it is a U-statistic), so it takes
    no sample weights; use :func:`bootstrap` for weighted data.

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44(3):837-845, 1988.
    .. [2] X. Sun and W. Xu, IEEE Signal Processing Letters 21(11):1389-1393, 2014.

    Examples
    --------
    >>> from isometrics import delong
    >>> result = delong([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9])
    >>> float(result.auroc[0]), round(float(result.standard_error[0]), 4)
    (0.8888888888888888, 0.1571)
    """
    return _delong_checked(y_true, _score_columns(y_score, "delong"), pos_label, "delong")


def _delong_checked(y_true: ArrayLike, scores: dict[str, FloatArray], pos_label: Any, caller: str) -> DelongResult:
    """DeLong's result for checked score columns, the labels validated here in the name of ``caller``."""
    y = as_1d(y_true, name="y_true", caller=caller)
    check_consistent_length(caller, y_true=y, **scores)
    is_pos, _ = check_binary_target(y, pos_label=pos_label, caller=caller)
    m, n = int(is_pos.sum()), int((~is_pos).sum())
    if m == 0 or n == 0:
        raise IsometricsError(f"{caller}: y_true has one class ({m} positive, {n} negative samples); the AUROC "
                              "needs both classes.")
    if m < 2 or n < 2:
        raise IsometricsError(f"{caller}: DeLong's variance needs at least 2 samples of each class "
                              f"(got {m} positive, {n} negative).")
    return _delong(is_pos, scores, None, caller)


def _delong(is_pos: np.ndarray, scores: dict[str, FloatArray], ops: list[OperatingPoints] | None,
           caller: str) -> DelongResult:
    """DeLong's AUROCs and covariance from validated inputs (and their operating points, if built)."""
    v10, v01, aucs = [], [], []
    for k, s in enumerate(scores.values()):
        a, b, auc = _placements(is_pos, s, None if ops is None else ops[k], caller)
        v10.append(a)
        v01.append(b)
        aucs.append(auc)
    m, n = len(v10[0]), len(v01[0])
    s10 = np.atleast_2d(np.cov(np.array(v10), ddof=1))
    s01 = np.atleast_2d(np.cov(np.array(v01), ddof=1))
    return DelongResult(tuple(scores), np.array(aucs), s10 / m + s01 / n, m, n)


@dataclass(frozen=True)
class DelongTest:
    """DeLong's paired test of two AUROCs on the same samples.

    Attributes
    ----------
    difference : float
        ``auroc_a - auroc_b``.
    confidence_interval : tuple of float
        Wald interval of the difference.
    z : float
        The test statistic.
    p_value : float
        Two-sided p-value of "equal AUROCs", in [0, 1].
    auroc_a, auroc_b : float
        The two AUROCs.
    """

    difference: float
    confidence_interval: tuple[float, float]
    z: float
    p_value: float
    auroc_a: float
    auroc_b: float


def delong_test(
    y_true: ArrayLike, y_score_a: ArrayLike, y_score_b: ArrayLike, *, confidence_level: float = 0.95,
    pos_label: Any = None,
) -> DelongTest:
    """Paired test of two correlated AUROCs (two scorers, same samples), after DeLong et al.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score_a, y_score_b : array-like of shape (n_samples,)
        The two scorers' scores.
    confidence_level : float, default=0.95
        Of the interval for the difference, in (0, 1).
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).

    Returns
    -------
    DelongTest
        Difference, its interval, z and the two-sided p-value.

    Raises
    ------
    ValueError
        As :func:`delong`; if the AUROCs differ while the variance of their difference
        is 0 (each scorer separates the classes perfectly or not at all, where the
        normal approximation fails: use :func:`bootstrap_compare`).

    Warns
    -----
    DegenerateDataWarning
        If the difference has zero variance and the AUROCs are equal (identical or
        monotone-equivalent scorers): then ``z = 0``, ``p_value = 1`` and the interval
        is the difference itself, as pROC reports.

    Notes
    -----
    The p-value is ``erfc(|z| / sqrt(2))``, accurate to full relative precision in the
    far tail (``z = 9.13`` gives about 6.9e-20, not 0). "Zero variance" allows for
    rounding: a variance below ``64 eps`` times the sum of the two AUROC variances.

    References
    ----------
    .. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, Biometrics 44(3):837-845, 1988.

    Examples
    --------
    >>> from isometrics import delong_test
    >>> t = delong_test([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], [0.2, 0.1, 0.3, 0.4, 0.5, 0.6])
    >>> round(t.difference, 4), round(t.p_value, 3)
    (0.1111, 0.724)
    """
    caller = "delong_test"
    level = _check_level(confidence_level, caller)
    a = _check_column(y_score_a, caller=caller, name="y_score_a")
    b = _check_column(y_score_b, caller=caller, name="y_score_b")
    result = _delong_checked(y_true, {"y_score_a": a, "y_score_b": b}, pos_label, caller)
    return _delong_pair(result, level, caller, stacklevel=3)


_ZERO_VARIANCE = 64 * float(np.finfo(np.float64).eps)


def _delong_pair(result: DelongResult, level: float, caller: str, stacklevel: int = 4) -> DelongTest:
    """The paired test of the first two AUROCs of a DeLong result."""
    (a, b), c = (float(v) for v in result.auroc[:2]), result.covariance
    var = float(c[0, 0] + c[1, 1] - 2 * c[0, 1])
    if var <= _ZERO_VARIANCE * float(c[0, 0] + c[1, 1]):  # zero up to rounding
        if abs(a - b) > _ZERO_VARIANCE:
            raise IsometricsError(
                f"{caller}: the AUROCs differ ({a:.6g} and {b:.6g}) but DeLong's variance of their difference is 0 "
                "(each scorer separates the classes perfectly or not at all), where its normal approximation "
                "fails; use bootstrap_compare to compare them."
            )
        warnings.warn(
            f"{caller}: the difference of the two AUROCs has zero variance (the scorers order every "
            "positive-negative pair alike, e.g. identical or monotone-equivalent scores); reporting z = 0, p = 1.",
            DegenerateDataWarning, stacklevel=stacklevel,
        )
        return DelongTest(a - b, (a - b, a - b), 0.0, 1.0, a, b)
    se = math.sqrt(var)
    z = (a - b) / se
    half = _NORMAL.inv_cdf(0.5 + level / 2) * se
    return DelongTest(a - b, (a - b - half, a - b + half), z, _two_sided_p(z), a, b)


# ---------------------------------------------------------------------------- Boyd et al.
def average_precision_ci(
    y_true: ArrayLike, y_score: ArrayLike, *, method: str = "logit", confidence_level: float = 0.95,
    sample_weight: ArrayLike | None = None, weight_kind: WEIGHT_KINDS | None = None, pos_label: Any = None,
) -> tuple[float, float]:
    r"""Boyd et al.'s binomial or logit interval for average precision.

    With :math:`\hat\theta` the average precision and :math:`n` the number of positives:
    binomial :math:`\hat\theta \pm z\sqrt{\hat\theta(1-\hat\theta)/n}`; logit
    :math:`\mathrm{expit}(\eta \pm z\tau)`, :math:`\eta = \mathrm{logit}\,\hat\theta`,
    :math:`\tau = (n\hat\theta(1-\hat\theta))^{-1/2}`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive; finite. One column: for
        ``predict_proba`` output pass ``proba[:, 1]``.
    method : {"logit", "binomial"}, default="logit"
        The logit interval stays inside (0, 1); the binomial one can leave [0, 1].
    confidence_level : float, default=0.95
        In (0, 1).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``n`` is then the total weight of the positives
        for frequency weights, and Kish's effective number of positives
        :math:`(\sum w)^2 / \sum w^2` over the positives for sampling weights (the
        same when all weights are 1; unchanged when all weights are scaled).
    weight_kind : {"sampling", "frequency"} or None, default=None
        What ``sample_weight`` means: ``"frequency"``, each row stands for ``w``
        identical samples (whole numbers); ``"sampling"``, sampling or importance
        weights. ``None``: as ``"sampling"``, with a ``WeightKindWarning`` when the
        weights are whole numbers that are not all equal.
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    InvalidParameterError
        If ``method``, ``confidence_level`` or ``weight_kind`` is invalid, or
        ``weight_kind="frequency"`` with weights that are not whole numbers.
    ValueError
        If AP is 0 or 1 (the logit is infinite), and for the bad inputs of
        :func:`average_precision`.

    Warns
    -----
    WeightKindWarning
        As :func:`bootstrap`.

    References
    ----------
    .. [1] K. Boyd, K. H. Eng and C. D. Page, "Area Under the Precision-Recall Curve:
       Point Estimates and Confidence Intervals", ECML PKDD 2013.

    Examples
    --------
    >>> from isometrics import average_precision_ci
    >>> low, high = average_precision_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9])
    >>> round(low, 4), round(high, 4)
    (0.1549, 0.9985)
    """
    caller = "average_precision_ci"
    check_option(method, "method", ("logit", "binomial"), caller=caller)
    level = _check_level(confidence_level, caller)
    data = _binary_iv(y_true, {"score": _check_column(y_score, caller=caller)}, sample_weight, pos_label, caller)
    kind = _weight_kind(weight_kind, data.weights, caller, stacklevel=3)
    op = OperatingPoints._from_validated(data.is_pos, data.scores["score"], data.weights, True, caller=caller)
    n = float(op.n_positives)
    if kind == "sampling":
        assert data.weights is not None
        v = data.weights[data.is_pos]
        v = v / v.max()  # scale-free: no overflow or underflow of the squares
        n = float(v.sum()) ** 2 / float(np.dot(v, v))
    return _boyd_interval(op.average_precision(), n, method, level)


def _boyd_interval(theta: float, n: float, method: str, level: float) -> tuple[float, float]:
    z = _NORMAL.inv_cdf(0.5 + level / 2)
    if method == "binomial":
        half = z * math.sqrt(theta * (1 - theta) / n)
        return theta - half, theta + half
    if not 0 < theta < 1:
        raise IsometricsError(f"average_precision_ci: the logit interval needs 0 < AP < 1 (AP = {theta:g}); "
                              "use method='binomial'.")
    eta = math.log(theta / (1 - theta))
    tau = 1 / math.sqrt(n * theta * (1 - theta))

    def expit(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    return expit(eta - z * tau), expit(eta + z * tau)


# ---------------------------------------------------------------------------- bootstrap
_AREAS = ("auroc", "average_precision", "auprg", "auc_pr_interpolated")


def _statistic(statistic: str, metric: str | Metric | None, threshold: float | None,
               caller: str) -> tuple[str, Callable[[OperatingPoints], float], bool]:
    """The statistic as a function of operating points, a readable name, and whether it
    reads thresholds (then replicates must drop the tie groups they never drew)."""
    if statistic in _AREAS:
        if metric is not None or threshold is not None:
            raise InvalidParameterError(f"{caller}: `metric` and `threshold` apply to statistic='metric' or "
                                        f"'best_threshold', not to {statistic!r}.")
        return statistic, lambda op: float(getattr(op, statistic)()), False
    if statistic not in ("metric", "best_threshold"):
        raise InvalidParameterError(
            f"{caller}: `statistic` must be one of {', '.join(repr(s) for s in (*_AREAS, 'metric', 'best_threshold'))}; "
            f"got {statistic!r}."
        )
    if metric is None:
        raise InvalidParameterError(f"{caller}: statistic={statistic!r} needs `metric`, e.g. metric='f1'.")
    m = _parse_metric(metric, caller=caller)
    if statistic == "best_threshold":
        if threshold is not None:
            raise InvalidParameterError(f"{caller}: statistic='best_threshold' re-optimises the threshold; "
                                        "drop `threshold`.")
        return f"best threshold for {m.spec}", lambda op: op.best_threshold(m).threshold, True
    if threshold is None:
        return f"{m.spec} at its best threshold", lambda op: op.best_threshold(m).value, False
    t = check_real(threshold, "threshold", caller=caller, allow_inf=True)

    def at_threshold(op: OperatingPoints) -> float:
        i = int(np.searchsorted(-op.thresholds, -t, side="right")) - 1  # last point with threshold >= t
        P, N = op.n_positives, op.n_negatives
        return float(m.from_counts(op.tp[i], op.fp[i], P - op.tp[i], N - op.fp[i]))

    return f"{m.spec} at threshold {t:g}", at_threshold, False


class _Resampler:
    """Draws bootstrap replicates as counts and turns them into operating points, no sort.

    Unweighted data are resampled in "sorted space": the positives (and the negatives)
    are numbered in decreasing score order, group ``g`` holding positives
    ``tp[g-1] .. tp[g]-1``; drawing positions uniformly is drawing samples uniformly,
    and cumulative draw counts at the group ends are the replicate's true and false
    positives. With few tie groups the counts of each (group, class) cell are drawn
    directly, a multinomial over the cells, which has the same distribution as drawing
    the samples (it is their aggregate). Weighted data, and paired comparisons (which
    must draw the same samples for every scorer), draw per sample and go through each
    sample's tie group with one ``bincount``. ``op``: the operating points of these
    scores when the caller already has them (no second sort).

    ``frequency=True``: the (integer) weights are frequencies, each row standing for
    that many identical samples, and the units resampled are those samples, not the
    rows: the replicate is a multinomial count per row (or per (group, class) cell, their
    aggregate) of the ``W = sum(w)`` samples with probabilities ``w / W`` (per class when
    stratified), each drawn sample weighing 1. This is exactly the bootstrap of the data
    expanded to one row per sample, in O(rows) per replicate whatever ``W``.
    """

    def __init__(self, is_pos: np.ndarray, scores: FloatArray, weights: FloatArray | None, stratified: bool,
                 *, per_sample: bool = False, op: OperatingPoints | None = None, frequency: bool = False,
                 caller: str):
        self.op = OperatingPoints._from_validated(is_pos, scores, weights, True, caller=caller) if op is None else op
        self.stratified = stratified
        self.frequency = frequency and weights is not None
        # Paired comparisons need the same samples for every scorer: draw per sample.
        # Frequencies are drawn per (group, class) cell like unweighted data, or per row.
        self.weighted = (weights is not None and not self.frequency) or per_sample
        self.units: FloatArray | None = None  # per row: how many samples it stands for (frequencies)
        if self.weighted:
            weights = np.ones(len(scores)) if weights is None else weights
            keep = weights > 0
            self.is_pos, self.weights = is_pos[keep], weights[keep]
            if self.frequency:  # a drawn sample weighs 1; the rows' frequencies set the draw
                self.units, self.weights = self.weights, np.ones(int(keep.sum()))
            self.group = _group_of(self.op, scores[keep])
            self.pos_index = np.flatnonzero(self.is_pos)
            self.neg_index = np.flatnonzero(~self.is_pos)
        else:
            self.P, self.N = int(self.op.n_positives), int(self.op.n_negatives)
            self.tp_end = self.op.tp[1:].astype(np.int64)  # positives up to the end of each group
            self.fp_end = self.op.fp[1:].astype(np.int64)
            # Few tie groups: draw how many samples of each (group, class) cell the replicate
            # holds, a multinomial over the cells, in O(groups) instead of O(samples).
            # Frequencies always: a cell holds the summed frequencies of its rows.
            self.cells = self.frequency or self.op.n_points - 1 <= (self.P + self.N) // 4
            if self.cells:
                self.pos_cells, self.neg_cells = self.op.dtp, self.op.dfp
            # No ties at all: each positive is its own operating point, and the areas can
            # be read from the positives alone (see _fast_areas).
            self.singletons = not self.frequency and self.op.n_points - 1 == self.P + self.N
            if self.singletons:
                self.negatives_above = self.op.fp[np.flatnonzero(self.op.dtp)].astype(np.int64)

    def counts(self, rng: np.random.Generator) -> tuple[Any, Any]:
        """One replicate's draws: (positives, negatives) as whatever :meth:`build` takes."""
        if self.weighted:
            n = len(self.is_pos)
            if self.units is not None:  # frequencies: draw the samples the rows stand for
                if not self.stratified:
                    total = int(self.units.sum())
                    return rng.multinomial(total, self.units / total), None
                counts = np.zeros(n, dtype=np.int64)
                for index in (self.pos_index, self.neg_index):
                    units = self.units[index]
                    total = int(units.sum())
                    counts[index] = rng.multinomial(total, units / total)
                return counts, None
            if self.stratified:
                drawn = np.concatenate([rng.choice(self.pos_index, len(self.pos_index)),
                                        rng.choice(self.neg_index, len(self.neg_index))])
            else:
                drawn = rng.integers(0, n, n)
            return np.bincount(drawn, minlength=n), None
        if self.cells:
            n = self.P + self.N
            if self.stratified:
                return (rng.multinomial(self.P, self.pos_cells / self.P),
                        rng.multinomial(self.N, self.neg_cells / self.N))
            both = rng.multinomial(n, np.concatenate([self.pos_cells, self.neg_cells]) / n)
            G = len(self.pos_cells)
            return both[:G], both[G:]
        if self.stratified:
            k_pos, k_neg = self.P, self.N
        else:
            k_pos = int(rng.binomial(self.P + self.N, self.P / (self.P + self.N)))
            k_neg = self.P + self.N - k_pos
        return rng.integers(0, self.P, k_pos), rng.integers(0, self.N, k_neg)

    def build(self, draws: tuple[Any, Any], *, compact: bool = False) -> OperatingPoints | None:
        """The replicate's operating points (``None`` if it lacks a class).

        Tie groups drawn zero times repeat the previous operating point; they change no
        area and no metric value, only which thresholds exist. ``compact=True`` drops
        them, so that the thresholds are exactly those of the resampled data (needed when
        the statistic is a threshold).
        """
        G = self.op.n_points - 1
        tp, fp = np.empty(G + 1), np.empty(G + 1)
        tp[0] = fp[0] = 0.0
        if self.weighted:
            counts = draws[0]
            w = counts * self.weights
            np.cumsum(np.bincount(self.group, weights=np.where(self.is_pos, w, 0.0), minlength=G), out=tp[1:])
            np.cumsum(np.bincount(self.group, weights=np.where(self.is_pos, 0.0, w), minlength=G), out=fp[1:])
        elif self.cells:
            np.cumsum(draws[0], out=tp[1:])
            np.cumsum(draws[1], out=fp[1:])
        else:
            _cumulative_at(draws[0], self.P, self.tp_end, tp[1:])
            _cumulative_at(draws[1], self.N, self.fp_end, fp[1:])
        if tp[-1] == 0 or fp[-1] == 0:
            return None
        thresholds = self.op.thresholds
        if compact:
            drawn = np.r_[True, (np.diff(tp) + np.diff(fp)) > 0]
            if not drawn.all():
                thresholds, tp, fp = thresholds[drawn], tp[drawn], fp[drawn]
        else:
            # Undrawn groups before the first drawn one would be points predicting nothing
            # (precision 0/0): drop them. Later undrawn groups repeat their predecessor.
            first = min(int(np.searchsorted(tp, 0.0, side="right")), int(np.searchsorted(fp, 0.0, side="right")))
            if first > 1:
                keep = np.r_[0, first:len(tp)]
                thresholds, tp, fp = thresholds[keep], tp[keep], fp[keep]
        return OperatingPoints(thresholds=thresholds, tp=tp, fp=fp, pos_label=True)


_FAST_AREAS = ("auroc", "average_precision", "auprg")


def _fast_areas(resampler: _Resampler, draws: tuple[Any, Any]) -> FloatArray | None:
    """AUROC, AP and AUPRG of a replicate of untied, unweighted scores, from the positives alone.

    With positives ranked ``a = 0 .. P-1`` and ``c_a`` copies of positive ``a`` drawn,
    ``F_a`` the drawn negatives scored above it and ``T_a`` the drawn positives up to and
    including it (``K_p``, ``K_n`` the class totals):

    - AUROC = sum_a c_a (K_n - F_a) / (K_p K_n);
    - AP = sum_a c_a T_a / (T_a + F_a) / K_p;
    - AUPRG = (K_p/K_n) sum_a [-1/t + f/(2 t^2)] from max(t_0, pi) to t_1, with
      t_1 = T_a/K_p, t_0 = (T_a - c_a)/K_p, f = F_a/K_n, pi = K_p/(K_p + K_n): the
      closed form of Flach & Kull's area along the ROC curve, whose runs of negatives
      add nothing (ALGORITHMS.md 1.3).

    The same numbers as building the replicate's operating points, in O(P) work after one
    pass over the negatives. ``None`` when a class was not drawn.
    """
    pos_draws, neg_draws = draws
    k_pos, k_neg = len(pos_draws), len(neg_draws)
    if k_pos == 0 or k_neg == 0:
        return None
    copies = np.bincount(pos_draws, minlength=resampler.P)
    below = np.zeros(resampler.N + 1, dtype=np.int64)
    np.cumsum(np.bincount(neg_draws, minlength=resampler.N), out=below[1:])
    drawn = np.flatnonzero(copies)
    c = copies[drawn].astype(np.float64)
    above = below[resampler.negatives_above[drawn]].astype(np.float64)  # drawn negatives above
    upto = np.cumsum(c)  # drawn positives up to each drawn positive, inclusive
    auroc = float(np.dot(c, k_neg - above)) / (k_pos * k_neg)
    ap = float(np.dot(c, upto / (upto + above))) / k_pos
    pi = k_pos / (k_pos + k_neg)
    t1 = upto / k_pos
    t0 = np.maximum((upto - c) / k_pos, pi)
    f = above / k_neg
    part = t1 > pi
    t0, t1, f = t0[part], t1[part], f[part]
    integral = (1.0 / t0 - 1.0 / t1) + 0.5 * f * (1.0 / (t1 * t1) - 1.0 / (t0 * t0))
    auprg = (k_pos / k_neg) * float(np.sum(integral))
    return np.array([auroc, ap, auprg])


def _cumulative_at(positions: np.ndarray, size: int, ends: np.ndarray, out: FloatArray) -> None:
    """Draws at positions below each group end: the replicate's cumulative counts, into ``out``."""
    if size == 0:
        out[...] = 0.0
        return
    cumulative = np.zeros(size + 1, dtype=np.int64)
    np.cumsum(np.bincount(positions, minlength=size), out=cumulative[1:])
    out[...] = cumulative[ends]


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
        return {"statistic": self.statistic, "estimate": self.estimate, "low": low, "high": high,
                "confidence_level": self.confidence_level, "method": self.method,
                "standard_error": self.standard_error, "n_resamples": len(self.bootstrap_distribution),
                "n_dropped": self.n_dropped, "n_undefined": self.n_undefined, "weight_kind": self.weight_kind}

    def _repr_html_(self) -> str:
        from .._core.html import html_table

        low, high = self.confidence_interval
        rows = [("estimate", self.estimate), (f"{100 * self.confidence_level:g} % interval ({self.method})",
                                             f"{low:.6g} to {high:.6g}"),
                ("standard error", self.standard_error), ("replicates", len(self.bootstrap_distribution)),
                ("dropped (one class)", self.n_dropped)]
        if self.n_undefined:
            rows.append(("dropped (statistic undefined)", self.n_undefined))
        if self.weight_kind is not None:
            rows.append(("weights", self.weight_kind))
        return html_table(("", "value"), rows, caption=f"bootstrap of {self.statistic}")


def _quantiles(values: FloatArray, q: Any) -> FloatArray:
    """``np.quantile``'s linear interpolation, except that a neighbouring order statistic
    that is infinite gives that infinity (NumPy gives NaN, from ``inf - inf``)."""
    q = np.asarray(q, dtype=np.float64)
    if np.isfinite(values).all():
        return np.asarray(np.quantile(values, q))
    lower = np.quantile(values, q, method="lower")
    higher = np.quantile(values, q, method="higher")
    with np.errstate(invalid="ignore"):
        linear = np.quantile(values, q)
    out = np.where(lower == -np.inf, -np.inf, np.where(higher == np.inf, np.inf, linear))
    return np.asarray(np.where(lower == higher, lower, out))


def _standard_error(values: FloatArray) -> float:
    return float(np.std(values, ddof=1)) if np.isfinite(values).all() else math.inf


def _interval(estimate: float, dist: FloatArray, level: float, method: str,
              jackknife: FloatArray | None, caller: str, name: str) -> tuple[float, float]:
    alpha = (1 - level) / 2
    if method == "percentile":
        low, high = _quantiles(dist, [alpha, 1 - alpha])
    elif method == "basic":
        q_low, q_high = _quantiles(dist, [alpha, 1 - alpha])
        with np.errstate(invalid="ignore"):
            low, high = 2 * estimate - q_high, 2 * estimate - q_low
    else:  # BCa (Efron 1987)
        below = float(np.count_nonzero(dist < estimate) + 0.5 * np.count_nonzero(dist == estimate)) / len(dist)
        below = min(max(below, 1 / (2 * len(dist))), 1 - 1 / (2 * len(dist)))
        z0 = _NORMAL.inv_cdf(below)
        assert jackknife is not None
        jackknife = jackknife[~np.isnan(jackknife)]  # blocks whose removal leaves the statistic undefined
        if not np.isfinite(jackknife).all():
            raise IsometricsError(f"{caller}: method='bca' needs the statistic finite on every jackknife sample, "
                                  f"but {name} is infinite on some (nothing predicted positive was best); "
                                  "use method='percentile'.")
        d = jackknife.mean() - jackknife if len(jackknife) else jackknife
        denom = 6.0 * float(np.sum(d * d)) ** 1.5
        a = float(np.sum(d**3)) / denom if denom > 0 else 0.0
        quantiles = []
        for z_alpha in (_NORMAL.inv_cdf(alpha), _NORMAL.inv_cdf(1 - alpha)):
            shifted = z0 + (z0 + z_alpha) / (1 - a * (z0 + z_alpha))
            quantiles.append(_NORMAL.cdf(shifted))
        low, high = _quantiles(dist, quantiles)
    if math.isnan(low) or math.isnan(high):
        raise IsometricsError(f"{caller}: the {method} interval of {name} is undefined: the estimate and the "
                              "bootstrap distribution are infinite (nothing predicted positive was best); "
                              "use method='percentile'.")
    return float(low), float(high)


def _defined(values: FloatArray, name: str, n_resamples: int, caller: str, stacklevel: int) -> tuple[FloatArray, int]:
    """The replicate values where the statistic is defined, and how many were not (with a
    warning: the interval is then conditional on the statistic being defined)."""
    undefined = np.isnan(values)
    n_undefined = int(undefined.sum())
    if n_undefined:
        values = values[~undefined]
        if len(values) < 2:
            raise IsometricsError(
                f"{caller}: {name} is undefined (0/0) on {n_undefined} of the {n_resamples} replicates, leaving "
                f"{len(values)}; it is too rarely defined for an interval (e.g. a threshold that almost no sample "
                "reaches): choose another threshold or statistic."
            )
        warnings.warn(
            f"{caller}: {name} is undefined (0/0) on {n_undefined} of the {n_resamples} replicates (e.g. nothing "
            "predicted positive at the threshold); they are left out of the interval (n_undefined), which is "
            "therefore conditional on the statistic being defined.",
            UndefinedMetricWarning, stacklevel=stacklevel,
        )
    return values, n_undefined


def _check_estimate(estimate: float, name: str, op: OperatingPoints, threshold: float | None, caller: str) -> float:
    """The statistic on the data, or an error saying why it is undefined (never a silent NaN)."""
    if not math.isnan(estimate):
        return estimate
    why = ""
    if threshold is not None:
        i = int(np.searchsorted(-op.thresholds, -threshold, side="right")) - 1
        if op.tp[i] + op.fp[i] == 0:
            why = (f": no sample has a score >= {threshold:g} (the highest is {op.thresholds[1]:.6g}), so nothing "
                   "is predicted positive; pass a threshold at or below the highest score")
    raise IsometricsError(f"{caller}: {name} is undefined (0/0) on the data{why or '; choose another statistic'}.")


class _Data(NamedTuple):
    """Validated inputs of a binary uncertainty function."""

    is_pos: np.ndarray
    scores: dict[str, FloatArray]
    weights: FloatArray | None


def _binary_iv(y_true: ArrayLike, scores: dict[str, FloatArray], sample_weight: ArrayLike | None, pos_label: Any,
               caller: str) -> _Data:
    """Labels, weights and already validated score columns, checked together: one length, both classes."""
    y = as_1d(y_true, name="y_true", caller=caller)
    w = None if sample_weight is None else as_1d(sample_weight, name="sample_weight", caller=caller)
    lengths = {"y_score" if list(scores) == ["score"] else f"score column {k!r}": v for k, v in scores.items()}
    check_consistent_length(caller, **{"y_true": y, "sample_weight": w, **lengths})
    is_pos, pos_label = check_binary_target(y, pos_label=pos_label, caller=caller)
    weights = check_sample_weight(w, len(y), caller=caller)
    check_both_classes(is_pos, weights, pos_label=pos_label, caller=caller, needs="the statistics need both classes.")
    return _Data(is_pos, scores, weights)


def _check_resamples(n_resamples: Any, caller: str) -> int:
    return check_integer(n_resamples, "n_resamples", caller=caller, low=2)


_EXACT_COUNTS = 2.0**53  # float64 holds every integer up to here


def _weight_kind(weight_kind: Any, weights: FloatArray | None, caller: str, stacklevel: int) -> str | None:
    """The kind of weights to resample (``None`` when unweighted), checked against the weights.

    ``None`` resamples as ``"sampling"`` and warns once when the positive weights are
    whole numbers that are not all equal: they may be frequencies.
    """
    check_option(weight_kind, "weight_kind", (*WEIGHT_KIND_OPTIONS, None), caller=caller)
    if weights is None:
        return None
    whole = weights == np.floor(weights)
    if weight_kind == "frequency":
        if not whole.all():
            first = int(np.flatnonzero(~whole)[0])
            raise InvalidParameterError(
                f"{caller}: weight_kind='frequency' needs whole-number sample_weight (each row stands for that many "
                f"identical samples); got {float(weights[first])!r} at index {first} ({int((~whole).sum())} non-integer "
                "values). Pass weight_kind='sampling' for sampling or importance weights."
            )
        total = float(weights.sum())
        if total > _EXACT_COUNTS:
            raise InvalidParameterError(
                f"{caller}: the frequencies in sample_weight add up to {total:.6g} samples, beyond 2**53 where "
                "counts stop being exact; frequencies this large are not counts of rows: pass "
                "weight_kind='sampling'."
            )
        return "frequency"
    if weight_kind is None:
        positive = weights[weights > 0]
        if positive.min() != positive.max() and whole.all() and positive.max() <= _EXACT_COUNTS:
            warnings.warn(
                f"{caller}: sample_weight holds whole numbers that are not all equal; they are taken as sampling "
                "weights (weight_kind='sampling': the rows are the units of the interval, each carrying its "
                "weight). If each row stands for that many identical samples, pass weight_kind='frequency' (the "
                "intervals differ greatly); pass weight_kind='sampling' to silence this warning.",
                WeightKindWarning, stacklevel=stacklevel,
            )
    return "sampling"


class _Bootstrap(NamedTuple):
    """Validated inputs of a bootstrap: the data, and the checked parameters."""

    data: _Data
    level: float
    n_resamples: int
    weight_kind: str | None


def _bootstrap_iv(y_true: ArrayLike, scores: dict[str, FloatArray], sample_weight: ArrayLike | None, pos_label: Any,
                  n_resamples: Any, confidence_level: Any, method: Any, weight_kind: Any, caller: str,
                  stacklevel: int = 4) -> _Bootstrap:
    """Every input of a bootstrap checked before anything is computed (``scores`` already validated).

    ``stacklevel`` (here and in the helpers below) is that of the warnings, counted from the
    helper that warns: 4 points at the caller of a public function calling this directly.
    """
    data = _binary_iv(y_true, scores, sample_weight, pos_label, caller)
    n = _check_resamples(n_resamples, caller)
    level = _check_level(confidence_level, caller)
    check_option(method, "method", ("percentile", "basic", "bca"), caller=caller)
    kind = _weight_kind(weight_kind, data.weights, caller, stacklevel)
    return _Bootstrap(data, level, n, kind)


def _progress(total: int, description: str) -> Any:
    """A Rich progress bar when Rich is installed and the output is a terminal, else nothing."""
    try:
        from rich.progress import Progress
    except ImportError:  # pragma: no cover - depends on the environment
        return None
    import sys

    if not sys.stderr.isatty():
        return None
    from rich.console import Console

    progress = Progress(console=Console(stderr=True), transient=True)
    progress.start()
    progress.add_task(description, total=total)
    return progress


def _replicates(resamplers: list[_Resampler], stat: Callable[[OperatingPoints], FloatArray], width: int,
                n_resamples: int, rng: np.random.Generator, progress: bool, description: str,
                compact: bool = False) -> tuple[FloatArray, int]:
    """``width`` statistics of every scorer on the same replicates (paired draws).

    Returns an array of shape (n_valid, n_scorers, width) and the number of replicates
    dropped because they drew a single class.
    """
    out = np.empty((n_resamples, len(resamplers), width))
    valid = np.ones(n_resamples, dtype=bool)
    bar = _progress(n_resamples, description) if progress else None
    for b in range(n_resamples):
        draws = resamplers[0].counts(rng)  # one draw of samples, shared by every scorer
        for k, resampler in enumerate(resamplers):
            op = resampler.build(draws, compact=compact)
            if op is None:
                valid[b] = False
                break
            out[b, k] = stat(op)
        if bar is not None:
            bar.update(bar.task_ids[0], advance=1)
    if bar is not None:
        bar.stop()
    return out[valid], int(n_resamples - valid.sum())


def _jackknife(resamplers: list[_Resampler], value: Callable[[list[OperatingPoints]], float],
               rng: np.random.Generator, n_blocks: int = 50) -> FloatArray:
    """Delete-a-block jackknife values (for the BCa acceleration) of ``value`` on every
    scorer, the same block left out of each: per-sample resamplers built with the block's
    counts removed, so no sort again.

    The units are the rows, split into ``n_blocks`` blocks; with frequencies, the samples
    the rows stand for, each assigned to a block at random (a multinomial per row), so a
    block removes part of a row's frequency.
    """
    first = resamplers[0]
    n = len(first.is_pos)
    if first.units is None:
        removed = []
        for block in np.array_split(rng.permutation(n), min(n_blocks, n)):
            counts = np.zeros(n, dtype=np.int64)
            counts[block] = 1
            removed.append(counts)
        units = np.ones(n, dtype=np.int64)
    else:
        units = first.units.astype(np.int64)
        blocks = int(min(n_blocks, units.sum()))
        removed = list(rng.multinomial(units, np.full(blocks, 1.0 / blocks)).T)
    values = []
    for block_counts in removed:
        ops = [r.build((units - block_counts, None)) for r in resamplers]
        if any(op is None for op in ops):
            continue
        values.append(value(ops))  # type: ignore[arg-type]
    return np.array(values)


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
    statistic : {"auroc", "average_precision", "auprg", "auc_pr_interpolated", "metric", "best_threshold"}, default="auroc"
        An area; ``"metric"``: ``metric`` at ``threshold``, or at its re-optimised best
        threshold when ``threshold`` is None; ``"best_threshold"``: that threshold.
    metric : str or Metric, default=None
        For ``"metric"`` and ``"best_threshold"``; see :func:`parse_metric`.
    threshold : float, default=None
        Fixed threshold for ``statistic="metric"`` (predict positive iff score >= it).
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
    weight_kind : {"sampling", "frequency"} or None, default=None
        What ``sample_weight`` means to the resampling. ``"frequency"``: each row
        stands for ``w`` identical samples (whole-number weights), and those
        ``sum(w)`` samples are resampled, exactly as if the data were expanded to one
        row per sample. ``"sampling"``: sampling or importance weights; the rows are
        resampled, each carrying its weight. ``None``: as ``"sampling"``, with a
        ``WeightKindWarning`` when the weights are whole numbers that are not all
        equal. Point estimates are the same for both kinds; the intervals differ.
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
    >>> from isometrics import bootstrap
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.3
    >>> s = rng.normal(size=500) + y
    >>> result = bootstrap(y, s, statistic="auroc", n_resamples=200, rng=1)
    >>> low, high = result.confidence_interval
    >>> bool(low < result.estimate < high)
    True
    """
    caller = "bootstrap"
    name, stat, compact = _statistic(statistic, metric, threshold, caller)
    checked = _bootstrap_iv(y_true, {"score": _check_column(y_score, caller=caller)}, sample_weight, pos_label,
                            n_resamples, confidence_level, method, weight_kind, caller)
    data = checked.data
    s = data.scores["score"]
    resampler = _Resampler(data.is_pos, s, data.weights, stratified, frequency=checked.weight_kind == "frequency",
                           caller=caller)
    return _bootstrap_statistics(resampler, data.is_pos, s, data.weights, [(name, stat, compact)],
                                 checked.n_resamples, checked.level, method, check_rng(rng, caller=caller), progress,
                                 caller, weight_kind=checked.weight_kind, threshold=threshold)[name]


def _bootstrap_statistics(resampler: _Resampler, is_pos: np.ndarray, scores: FloatArray, weights: FloatArray | None,
                          named: list[tuple[str, Callable[[OperatingPoints], float], bool]], n_resamples: int,
                          level: float, method: str, rng: np.random.Generator, progress: bool, caller: str,
                          *, weight_kind: str | None, threshold: float | None = None, stacklevel: int = 4
                          ) -> dict[str, BootstrapResult]:
    """Bootstrap results of several statistics of one scorer, all from the same replicates."""
    names = [name for name, _, _ in named]
    stats = [fn for _, fn, _ in named]
    estimates = [_check_estimate(float(fn(resampler.op)), name, resampler.op, threshold, caller)
                 for name, fn, _ in named]
    if (not resampler.weighted and not resampler.cells and resampler.singletons
            and all(name in _FAST_AREAS for name in names)):
        dist, dropped = _fast_replicates(resampler, [_FAST_AREAS.index(name) for name in names], n_resamples, rng,
                                         progress)
    else:
        compact = any(c for _, _, c in named)
        paired, dropped = _replicates([resampler], _many(stats), len(stats), n_resamples, rng, progress,
                                      f"bootstrap {', '.join(names)}", compact)
        dist = paired[:, 0, :]
    if len(dist) < 2:
        raise IsometricsError(f"{caller}: only {len(dist)} replicate(s) had both classes; use stratified=True.")
    per_sample = None
    if method == "bca":
        per_sample = resampler if resampler.weighted else _Resampler(
            is_pos, scores, weights, False, per_sample=True, op=resampler.op, frequency=resampler.frequency,
            caller=caller)
    out = {}
    for k, (name, fn, _) in enumerate(named):
        estimate = estimates[k]
        values, n_undefined = _defined(dist[:, k], name, n_resamples, caller, stacklevel)
        jack = _jackknife([per_sample], _first(fn), rng) if per_sample is not None else None
        out[name] = BootstrapResult(name, estimate, _interval(estimate, values, level, method, jack, caller, name),
                                    level, method, values, _standard_error(values), dropped, n_undefined,
                                    weight_kind)
    return out


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
    weight_kind : {"sampling", "frequency"} or None, default=None
        What ``sample_weight`` means to the resampling. ``"frequency"``: each row
        stands for ``w`` identical samples (whole-number weights), and those
        ``sum(w)`` samples are resampled, exactly as if the data were expanded to one
        row per sample. ``"sampling"``: sampling or importance weights; the rows are
        resampled, each carrying its weight. ``None``: as ``"sampling"``, with a
        ``WeightKindWarning`` when the weights are whole numbers that are not all
        equal. Point estimates are the same for both kinds; the intervals differ.

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
    >>> from isometrics import bootstrap_areas
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> results = bootstrap_areas(y, rng.normal(size=300) + y, n_resamples=100, rng=1)
    >>> list(results)
    ['auroc', 'average_precision', 'auprg']
    """
    caller = "bootstrap_areas"
    if isinstance(areas, str) or not hasattr(areas, "__len__") or not len(areas):
        raise InvalidParameterError(f"{caller}: `areas` must be a non-empty tuple of area names, e.g. "
                                    f"('auroc', 'average_precision'); got {areas!r}.")
    named = [_statistic(check_option(a, f"areas[{k}]", _AREAS, caller=caller), None, None, caller)
             for k, a in enumerate(areas)]
    checked = _bootstrap_iv(y_true, {"score": _check_column(y_score, caller=caller)}, sample_weight, pos_label,
                            n_resamples, confidence_level, method, weight_kind, caller)
    data = checked.data
    s = data.scores["score"]
    resampler = _Resampler(data.is_pos, s, data.weights, stratified, frequency=checked.weight_kind == "frequency",
                           caller=caller)
    return _bootstrap_statistics(resampler, data.is_pos, s, data.weights, named, checked.n_resamples, checked.level,
                                 method, check_rng(rng, caller=caller), progress, caller,
                                 weight_kind=checked.weight_kind)


def _fast_replicates(resampler: _Resampler, columns: list[int], n_resamples: int, rng: np.random.Generator,
                     progress: bool) -> tuple[FloatArray, int]:
    out = np.empty((n_resamples, len(columns)))
    valid = np.ones(n_resamples, dtype=bool)
    bar = _progress(n_resamples, "bootstrap areas") if progress else None
    for b in range(n_resamples):
        areas = _fast_areas(resampler, resampler.counts(rng))
        if areas is None:
            valid[b] = False
        else:
            out[b] = areas[columns]
        if bar is not None:
            bar.update(bar.task_ids[0], advance=1)
    if bar is not None:
        bar.stop()
    return out[valid], int(n_resamples - valid.sum())


def _first(fn: Callable[[OperatingPoints], float]) -> Callable[[list[OperatingPoints]], float]:
    return lambda ops: fn(ops[0])


def _many(stats: list[Callable[[OperatingPoints], float]]) -> Callable[[OperatingPoints], FloatArray]:
    return lambda op: np.array([f(op) for f in stats])


@dataclass(frozen=True)
class PairedBootstrapResult:
    """Paired bootstrap comparison of scorers on the same samples.

    Attributes
    ----------
    statistic : str
        What was compared.
    names : tuple of str
        The scorers.
    estimates : ndarray of shape (k,)
        The statistic of each scorer on the data.
    differences : dict of (str, str) to BootstrapResult
        For each pair ``(a, b)`` (``a`` before ``b``), the bootstrap result of
        ``statistic(a) - statistic(b)``, every replicate keeping the pairing.
    p_values : dict of (str, str) to float
        Two-sided bootstrap p-value of "no difference": ``2 (1 + k) / (B + 1)``, at most
        1, with ``k`` the smaller number of the ``B`` replicates on either side of 0 (the
        inversion of the percentile interval; never 0, its floor is ``2 / (B + 1)``).
    weight_kind : {"sampling", "frequency"} or None
        How the sample weights were resampled; ``None`` for unweighted data.
    """

    statistic: str
    names: tuple[str, ...]
    estimates: FloatArray
    differences: dict[tuple[str, str], BootstrapResult]
    p_values: dict[tuple[str, str], float]
    weight_kind: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: the estimates, and per pair the difference's interval and p-value.

        Returns
        -------
        dict
            ``statistic``, ``weight_kind``, ``estimates`` (name to value) and
            ``differences``, a list of :meth:`BootstrapResult.to_dict` dicts with
            ``a``, ``b`` and ``p_value`` added.
        """
        return {
            "statistic": self.statistic,
            "weight_kind": self.weight_kind,
            "estimates": {name: float(v) for name, v in zip(self.names, self.estimates)},
            "differences": [{"a": a, "b": b, **r.to_dict(), "p_value": self.p_values[(a, b)]}
                            for (a, b), r in self.differences.items()],
        }


def bootstrap_compare(
    y_true: ArrayLike,
    y_score: Any,
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
) -> PairedBootstrapResult:
    """Paired bootstrap of the differences between two or more scorers of the same samples.

    Every replicate draws one set of samples and evaluates every scorer on it, so the
    pairing is kept: "model B beats model A on F0.5 by 0.031 (95 % CI 0.012 to 0.049)".

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples, k) or mapping of str to array-like
        One score column per scorer (k >= 2): a 2-D array (column ``j`` named
        ``"score_j"``) or a mapping of name to 1-D column, each validated as ``y_score``
        of :func:`bootstrap`; for ``predict_proba`` output pass ``proba[:, 1]``.
    statistic, metric, threshold, n_resamples, confidence_level, method, stratified, sample_weight, pos_label, rng, progress
        As in :func:`bootstrap`.
    weight_kind : {"sampling", "frequency"} or None, default=None
        What ``sample_weight`` means to the resampling. ``"frequency"``: each row
        stands for ``w`` identical samples (whole-number weights), and those
        ``sum(w)`` samples are resampled, exactly as if the data were expanded to one
        row per sample. ``"sampling"``: sampling or importance weights; the rows are
        resampled, each carrying its weight. ``None``: as ``"sampling"``, with a
        ``WeightKindWarning`` when the weights are whole numbers that are not all
        equal. Point estimates are the same for both kinds; the intervals differ.

    Returns
    -------
    PairedBootstrapResult
        Per-scorer estimates, and per pair the interval of the difference and a p-value.

    Raises
    ------
    ValueError
        If fewer than two scorers are given; if a mapping's column is not 1-D, or a
        2-D array has two columns that sum to 1 in every row (``predict_proba`` output,
        one scorer); and as :func:`bootstrap`.

    Warns
    -----
    UndefinedMetricWarning, WeightKindWarning
        As :func:`bootstrap`.

    See Also
    --------
    bootstrap, delong_test

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics import bootstrap_compare
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.3
    >>> scores = {"a": rng.normal(size=400) + 2 * y, "b": rng.normal(size=400) + 0.5 * y}
    >>> result = bootstrap_compare(y, scores, statistic="auroc", n_resamples=200, rng=1)
    >>> diff = result.differences[("a", "b")]
    >>> bool(diff.confidence_interval[0] > 0), result.p_values[("a", "b")] < 0.05
    (True, True)
    """
    caller = "bootstrap_compare"
    name, stat, compact = _statistic(statistic, metric, threshold, caller)
    scores = _score_columns(y_score, caller)
    if len(scores) < 2:
        raise IsometricsError(f"{caller}: `y_score` has {len(scores)} score column; give at least two score columns "
                              "to compare (a 2-D array with one column per scorer, or a mapping of name to column).")
    checked = _bootstrap_iv(y_true, scores, sample_weight, pos_label, n_resamples, confidence_level, method,
                            weight_kind, caller)
    data = checked.data
    resamplers = [_Resampler(data.is_pos, s, data.weights, stratified, per_sample=True,
                             frequency=checked.weight_kind == "frequency", caller=caller)
                  for s in data.scores.values()]
    return _paired_statistics(resamplers, tuple(data.scores), [(name, stat, compact)], checked.n_resamples,
                              checked.level, method, check_rng(rng, caller=caller), progress, caller,
                              weight_kind=checked.weight_kind, threshold=threshold)[0]


def _paired_statistics(resamplers: list[_Resampler], names: tuple[str, ...],
                       named: list[tuple[str, Callable[[OperatingPoints], float], bool]], n_resamples: int,
                       level: float, method: str, rng: np.random.Generator, progress: bool, caller: str,
                       *, weight_kind: str | None, threshold: float | None = None, stacklevel: int = 4
                       ) -> list[PairedBootstrapResult]:
    """Paired comparisons for several statistics at once: one set of replicates, every scorer."""
    stats = [fn for _, fn, _ in named]
    all_estimates = [np.array([_check_estimate(float(stat(r.op)), f"{name} of {names[i]!r}", r.op, threshold,
                                               caller) for i, r in enumerate(resamplers)])
                     for name, stat, _ in named]
    compact = any(c for _, _, c in named)
    dist, dropped = _replicates(resamplers, _many(stats), len(stats), n_resamples, rng, progress,
                                f"bootstrap {', '.join(name for name, _, _ in named)}", compact)
    results = []
    for k, (name, stat, _) in enumerate(named):
        estimates = all_estimates[k]
        differences, p_values = {}, {}
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                label = f"{name}: {names[i]} - {names[j]}"
                with np.errstate(invalid="ignore"):
                    diff = dist[:, i, k] - dist[:, j, k]
                diff, n_undefined = _defined(diff, label, n_resamples, caller, stacklevel)
                est = float(estimates[i] - estimates[j])
                jack = None
                if method == "bca":
                    jack = _jackknife([resamplers[i], resamplers[j]], _difference(stat), rng)
                ci = _interval(est, diff, level, method, jack, caller, label)
                differences[(names[i], names[j])] = BootstrapResult(
                    label, est, ci, level, method, diff, _standard_error(diff), dropped, n_undefined, weight_kind)
                # (1 + count) / (B + 1): a p-value is never 0 with finitely many replicates
                extreme = min(np.count_nonzero(diff <= 0), np.count_nonzero(diff >= 0))
                p_values[(names[i], names[j])] = float(min(1.0, 2 * (1 + extreme) / (len(diff) + 1)))
        results.append(PairedBootstrapResult(name, names, estimates, differences, p_values, weight_kind))
    return results


def _difference(stat: Callable[[OperatingPoints], float]) -> Callable[[list[OperatingPoints]], float]:
    return lambda ops: stat(ops[0]) - stat(ops[1])


# ---------------------------------------------------------------------------- curve bands
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
        return _polyline_at(grid, roc.fpr, roc.tpr)[1]  # top of a vertical rise
    if curve == "pr":
        precision, recall, _ = op.precision_recall_curve()
        first = np.minimum(np.searchsorted(recall, grid, side="left"), len(recall) - 1)
        return precision[first]  # the first point reaching the recall: AP's step convention
    pg, rg, _ = op.prg_curve()
    finite = op.tp > 0
    rg, pg = rg[finite], pg[finite]
    # Before its first point the PRG curve is the image of the ROC segment from (0, 0) to that
    # point, where FP/TP is constant: precision gain stays at the first point's value while
    # recall gain falls to -inf. A replicate whose first point has recall gain > 0 reaches there.
    values = _polyline_at(np.maximum(grid, rg[0]), rg, pg)[0]  # in PRG a vertical run falls: its top first
    return np.where(grid < rg[0], pg[0], values)


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
    weight_kind : {"sampling", "frequency"} or None, default=None
        What ``sample_weight`` means to the resampling. ``"frequency"``: each row
        stands for ``w`` identical samples (whole-number weights), and those
        ``sum(w)`` samples are resampled, exactly as if the data were expanded to one
        row per sample. ``"sampling"``: sampling or importance weights; the rows are
        resampled, each carrying its weight. ``None``: as ``"sampling"``, with a
        ``WeightKindWarning`` when the weights are whole numbers that are not all
        equal. Point estimates are the same for both kinds; the intervals differ.

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
    not simultaneous bands for the whole curve.

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics import bootstrap_curve_band
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> band = bootstrap_curve_band(y, rng.normal(size=300) + y, grid=[0.1, 0.5], n_resamples=100, rng=1)
    >>> bool(np.all(band.lower <= band.upper))
    True
    """
    caller = "bootstrap_curve_band"
    check_option(curve, "curve", ("roc", "pr", "prg"), caller=caller)
    x = np.linspace(0.0, 1.0, 101) if grid is None else check_real_array(grid, "grid", caller=caller)
    outside = x[~((x >= 0) & (x <= 1))]  # NaN too
    if x.ndim != 1 or len(outside):
        got = f"shape {x.shape}" if x.ndim != 1 else f"{float(outside[0])!r}"
        raise InvalidParameterError(f"{caller}: `grid` must be 1-D with values in [0, 1]; got {got}.")
    checked = _bootstrap_iv(y_true, {"score": _check_column(y_score, caller=caller)}, sample_weight, pos_label,
                            n_resamples, confidence_level, "percentile", weight_kind, caller)
    data = checked.data
    s = data.scores["score"]
    resampler = _Resampler(data.is_pos, s, data.weights, stratified, frequency=checked.weight_kind == "frequency",
                           caller=caller)
    paired, _ = _replicates([resampler], lambda op: _curve_on_grid(op, curve, x), len(x), checked.n_resamples,
                            check_rng(rng, caller=caller), progress, f"bootstrap {curve} band")
    values = paired[:, 0, :]
    if len(values) < 2:
        raise IsometricsError(f"{caller}: only {len(values)} replicate(s) had both classes; use stratified=True.")
    alpha = (1 - checked.level) / 2
    lower, upper = np.quantile(values, [alpha, 1 - alpha], axis=0)
    estimate = _curve_on_grid(resampler.op, curve, x)
    if np.isnan(estimate).any() or np.isnan(lower).any() or np.isnan(upper).any():  # pragma: no cover - a guard
        raise IsometricsError(f"{caller}: the {curve} curve is undefined at some grid values; please report this.")
    return CurveBand(x, estimate, lower, upper, checked.weight_kind)
