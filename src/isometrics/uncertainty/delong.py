"""DeLong's covariance of AUROC estimates and the paired test of two scorers.

References
----------
.. [1] E. R. DeLong, D. M. DeLong and D. L. Clarke-Pearson, "Comparing the Areas under
   Two or More Correlated Receiver Operating Characteristic Curves: A Nonparametric
   Approach", Biometrics 44(3):837-845, 1988.
.. [2] X. Sun and W. Xu, "Fast Implementation of DeLong's Algorithm for Comparing the
   Areas Under Correlated Receiver Operating Characteristic Curves", IEEE Signal
   Processing Letters 21(11):1389-1393, 2014.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, Checked, InBody, user_stacklevel, validate_params
from .._core.html import summarised
from .._core.validation import (
    as_1d,
    check_binary_target,
    check_consistent_length,
    check_integer,
)
from .._typing import ArrayLike, FloatArray
from ..exceptions import (
    DegenerateDataWarning,
    InvalidParameterError,
    IsometricsError,
)
from ..spaces.operating_points import OperatingPoints
from ._inputs import _NORMAL, RESAMPLING, _group_of, _score_columns, check_confidence_level, check_score_column

__all__ = ["DelongResult", "delong", "DelongTest", "delong_test"]

#: The confidence level of the Wald intervals (declared as the resampling functions declare it).
_LEVEL = RESAMPLING["confidence_level"]


# ---------------------------------------------------------------------------- DeLong
@summarised()
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

    @validate_params(
        {"confidence_level": _LEVEL, "scorer": InBody("a scorer's name or position, or None")},
        name="DelongResult.confidence_interval",
    )
    def confidence_interval(
        self, confidence_level: float = 0.95, *, scorer: str | int | None = None
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
        level = check_confidence_level(confidence_level)
        if scorer is None:
            if len(self.names) != 1:
                raise InvalidParameterError(
                    f"{current_caller()}: there are {len(self.names)} scorers {list(self.names)}; pass scorer= (a name or a "
                    "position), or use confidence_intervals() for all of them."
                )
            k = 0
        elif isinstance(scorer, str):
            if scorer not in self.names:
                raise InvalidParameterError(
                    f"{current_caller()}: `scorer` must be one of {list(self.names)}; got {scorer!r}."
                )
            k = self.names.index(scorer)
        else:
            k = check_integer(scorer, "scorer", low=-len(self.names), high=len(self.names) - 1)
        return self._wald(level, k % len(self.names))

    @validate_params({"confidence_level": _LEVEL}, name="DelongResult.confidence_intervals")
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
        level = check_confidence_level(confidence_level)
        return {name: self._wald(level, k) for k, name in enumerate(self.names)}

    def _wald(self, level: float, k: int) -> tuple[float, float]:
        half = _NORMAL.inv_cdf(0.5 + level / 2) * float(self.standard_error[k])
        auc = float(self.auroc[k])
        return max(auc - half, 0.0), min(auc + half, 1.0)


def _two_sided_p(z: float) -> float:
    """Two-sided normal p-value ``2 (1 - Phi(|z|))``, through the complementary error function.

    ``erfc`` keeps full relative accuracy in the far tail, where ``1 - cdf`` cancels
    (to 0 beyond |z| of about 8.3; z = 9.13 gives 6.9e-20).
    """
    return math.erfc(abs(z) / math.sqrt(2.0))


def _placements(
    is_pos: np.ndarray, scores: FloatArray, op: OperatingPoints | None, group: np.ndarray | None = None
) -> tuple[FloatArray, FloatArray, float]:
    """DeLong's structural components (placements) from the engine, and the AUROC.

    V10 of a positive: the share of negatives it outscores (ties 1/2); V01 of a negative:
    the share of positives that outscore it (ties 1/2). Computed per tie group from the
    operating points, then read per sample through its group's position (``group``: each sample's
    0-based tie group in ``op``, when the caller has it).
    """
    if op is None:
        op = OperatingPoints.from_validated(is_pos, scores, None, True)
    P, N = op.n_positives, op.n_negatives
    tp, fp = op.tp, op.fp
    group_v10 = (N - fp[1:] + 0.5 * op.dfp) / N  # for a positive in group g (1-based)
    group_v01 = (tp[:-1] + 0.5 * op.dtp) / P  # for a negative in group g
    g = _group_of(op, scores) if group is None else group
    return group_v10[g[is_pos]], group_v01[g[~is_pos]], op.auroc()


@validate_params({"y_true": ARRAY, "y_score": InBody("score columns"), "pos_label": POS_LABEL})
def delong(y_true: ArrayLike, y_score: Any, *, pos_label: Any = None) -> DelongResult:
    """AUROC and DeLong's covariance for one or several scorers of the same samples.

    Uses the fast algorithm of Sun & Xu (2014): O(k n log n) through one sort per scorer
    (the operating points), instead of the O(k m n) pairwise placements.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,) or (n_samples, k), data frame or mapping of str to array-like
        One score column per scorer: a 1-D array (one scorer, named ``"score"``), a 2-D
        array (column ``j`` named ``"score_j"``), a data frame (pandas, Polars, pyarrow
        Table; named by its columns) or a mapping of name to 1-D column. Each
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

    Warns
    -----
    DegenerateDataWarning
        If a scorer gives every sample the same score (it ranks nothing: AUROC 0.5 with
        variance 0), as :func:`auroc` warns.

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
    >>> from isometrics.uncertainty import delong
    >>> result = delong([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9])
    >>> float(result.auroc[0]), round(float(result.standard_error[0]), 4)
    (0.8888888888888888, 0.1571)
    """
    return _delong_checked(y_true, _score_columns(y_score), pos_label)


def _delong_checked(y_true: ArrayLike, scores: dict[str, FloatArray], pos_label: Any) -> DelongResult:
    """DeLong's result for checked score columns, the labels validated here (named as the declared function)."""
    y = as_1d(y_true, name="y_true")
    check_consistent_length(None, y_true=y, **scores)  # None: the declared function names it
    is_pos, _ = check_binary_target(y, pos_label=pos_label)
    m, n = int(is_pos.sum()), int((~is_pos).sum())
    if m == 0 or n == 0:
        raise IsometricsError(
            f"{current_caller()}: y_true has one class ({m} positive, {n} negative samples); the AUROC needs both classes."
        )
    if m < 2 or n < 2:
        raise IsometricsError(
            f"{current_caller()}: DeLong's variance needs at least 2 samples of each class (got {m} positive, {n} negative)."
        )
    ops = [OperatingPoints.from_validated(is_pos, s, None, True) for s in scores.values()]
    for name, op in zip(scores, ops):  # the engine's one degenerate-score warning, as auroc gives it
        op.warn_if_degenerate(
            "y_score" if name == "score" else name if name.startswith("y_score") else f"score column {name!r}",
            stacklevel=user_stacklevel(3) + 1,  # counted from warn_if_degenerate, which is one frame deeper
        )
    return _delong(is_pos, scores, ops)


def _delong(
    is_pos: np.ndarray,
    scores: dict[str, FloatArray],
    ops: list[OperatingPoints] | None,
    groups: list[np.ndarray] | None = None,
) -> DelongResult:
    """DeLong's AUROCs and covariance from validated inputs (and their operating points and each
    sample's tie group in them, if built)."""
    v10, v01, aucs = [], [], []
    for k, s in enumerate(scores.values()):
        a, b, auc = _placements(is_pos, s, None if ops is None else ops[k], None if groups is None else groups[k])
        v10.append(a)
        v01.append(b)
        aucs.append(auc)
    m, n = len(v10[0]), len(v01[0])
    s10 = np.atleast_2d(np.cov(np.array(v10), ddof=1))
    s01 = np.atleast_2d(np.cov(np.array(v01), ddof=1))
    return DelongResult(tuple(scores), np.array(aucs), s10 / m + s01 / n, m, n)


@summarised()
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


@validate_params(
    {
        "y_true": ARRAY,
        "y_score_a": ARRAY,
        "y_score_b": ARRAY,
        "confidence_level": Checked(check_confidence_level, "a real number in (0, 1)", invalid=[1.0, 0]),
        "pos_label": POS_LABEL,
    }
)
def delong_test(
    y_true: ArrayLike,
    y_score_a: ArrayLike,
    y_score_b: ArrayLike,
    *,
    confidence_level: float = 0.95,
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
        If a scorer gives every sample the same score (as :func:`delong`); if the
        difference has zero variance and the AUROCs are equal (identical or
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
    >>> from isometrics.uncertainty import delong_test
    >>> t = delong_test([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9], [0.2, 0.1, 0.3, 0.4, 0.5, 0.6])
    >>> round(t.difference, 4), round(t.p_value, 3)
    (0.1111, 0.724)
    """
    level = check_confidence_level(confidence_level)
    a = check_score_column(y_score_a, name="y_score_a")
    b = check_score_column(y_score_b, name="y_score_b")
    result = _delong_checked(y_true, {"y_score_a": a, "y_score_b": b}, pos_label)
    return _delong_pair(result, level, stacklevel=3)


_ZERO_VARIANCE = 64 * float(np.finfo(np.float64).eps)


def _delong_pair(result: DelongResult, level: float, stacklevel: int = 4) -> DelongTest:
    """The paired test of the first two AUROCs of a DeLong result."""
    (a, b), c = (float(v) for v in result.auroc[:2]), result.covariance
    var = float(c[0, 0] + c[1, 1] - 2 * c[0, 1])
    if var <= _ZERO_VARIANCE * float(c[0, 0] + c[1, 1]):  # zero up to rounding
        if abs(a - b) > _ZERO_VARIANCE:
            raise IsometricsError(
                f"{current_caller()}: the AUROCs differ ({a:.6g} and {b:.6g}) but DeLong's variance of their difference is 0 "
                "(each scorer separates the classes perfectly or not at all), where its normal approximation "
                "fails; use bootstrap_compare to compare them."
            )
        warnings.warn(
            f"{current_caller()}: the difference of the two AUROCs has zero variance (the scorers order every "
            "positive-negative pair alike, e.g. identical or monotone-equivalent scores); reporting z = 0, p = 1.",
            DegenerateDataWarning,
            stacklevel=user_stacklevel(stacklevel),
        )
        return DelongTest(a - b, (a - b, a - b), 0.0, 1.0, a, b)
    se = math.sqrt(var)
    z = (a - b) / se
    half = _NORMAL.inv_cdf(0.5 + level / 2) * se
    return DelongTest(a - b, (a - b - half, a - b + half), z, _two_sided_p(z), a, b)
