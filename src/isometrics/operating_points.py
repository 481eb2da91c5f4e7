"""The exact evaluation engine: every threshold's weighted confusion counts, built once.

:class:`OperatingPoints` sorts the scores once, groups tied scores into one operating
point, and accumulates weighted true and false positives in float64. Every curve, area
and threshold in isometrics is derived from this one structure; nothing sorts again.

The structure is a sufficient statistic: the per-score counts of two chunks of data
merge exactly (:meth:`OperatingPoints.merge`) into the counts of the whole, which is how
data larger than memory or spread over a cluster is evaluated.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ._typing import ArrayLike, FloatArray
from ._validation import (
    as_1d,
    check_binary_target,
    check_consistent_length,
    check_sample_weight,
    check_scores,
)
from .exceptions import DegenerateDataWarning, InvalidParameterError, IsometricsError

if TYPE_CHECKING:  # pragma: no cover
    from .calibration import StepCalibrator
    from .curves import PrecisionRecallCurve, PrgCurve, RocCurve
    from .hull import PrgHull, RocHull
    from .metrics import Metric
    from .thresholds import BestThreshold, MetricCurve, OperatingPoint

__all__ = ["OperatingPoints"]

#: Below this many samples NumPy's sort is faster than handing the data to Polars.
_POLARS_MIN_SAMPLES = 50_000

#: Class totals within 2**±this need no rescaling (see ``OperatingPoints._normalised``):
#: every metric raises counts to at most the 8th power, and 2**(8 * 64) is far from overflow.
_SAFE_EXPONENT = 64


@dataclass(frozen=True, eq=False)
class OperatingPoints:
    """Weighted confusion counts at every distinct threshold of a binary scorer.

    Operating point ``i`` predicts positive every sample with ``y_score >= thresholds[i]``.
    Point 0 has ``thresholds[0] = +inf`` and predicts nothing positive; the last point
    predicts everything positive. Tied scores form one operating point.

    Parameters
    ----------
    thresholds : ndarray of shape (n_points,), float64
        Distinct scores in strictly decreasing order, preceded by ``+inf``.
    tp : ndarray of shape (n_points,), float64
        Cumulative weighted true positives at each threshold; ``tp[0] == 0``, non-decreasing.
    fp : ndarray of shape (n_points,), float64
        Cumulative weighted false positives at each threshold; ``fp[0] == 0``, non-decreasing.
    pos_label : object, default=1
        The label of the positive class the counts refer to.

    Attributes
    ----------
    n_positives, n_negatives : float
        Total weight of positives (``tp[-1]``) and negatives (``fp[-1]``).
    prevalence : float
        ``n_positives / (n_positives + n_negatives)``, in [0, 1].

    Notes
    -----
    Samples of zero weight are removed before thresholds are formed, as scikit-learn
    does: a score carried only by zero-weight samples is not a threshold. The bootstrap
    applies the same rule, so a replicate's thresholds are those of its resampled data.

    Counts are accumulated in float64 by a cumulative sum in score order. With integer
    weights (or none) every count is an exact integer. The results are bit-reproducible:
    the same inputs give the same bits on every run.

    Only the ratios of the weights matter: multiplying every weight by a constant scales
    the counts and leaves every curve, area, threshold and metric unchanged, for weights
    anywhere in float64's range (derived quantities are computed from counts divided by
    a power of two near the class totals, which is exact).

    References
    ----------
    .. [1] T. Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters
       27(8):861-874, 2006 (Algorithm 2: one sort, ties grouped).
    """

    thresholds: FloatArray
    tp: FloatArray
    fp: FloatArray
    pos_label: Any = 1
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def _own(cls, thresholds: FloatArray, tp: FloatArray, fp: FloatArray, pos_label: Any) -> OperatingPoints:
        """Wrap arrays the engine made itself, read-only: every derived quantity relies on them."""
        for values in (thresholds, tp, fp):
            values.flags.writeable = False
        return cls(thresholds=thresholds, tp=tp, fp=fp, pos_label=pos_label)

    # ------------------------------------------------------------------ construction
    @classmethod
    def from_scores(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
    ) -> OperatingPoints:
        """Build the operating points of scores ``y_score`` against labels ``y_true``.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True labels, binary. Any two label values are accepted with ``pos_label``.
        y_score : array-like of shape (n_samples,)
            Scores, higher meaning more likely positive (probabilities, logits, margins;
            used as given). Must be finite; compared as float64, so integer scores must
            be exact in float64.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights. ``None`` weighs every sample 1.
        pos_label : int, float, bool or str, default=None
            The label of the positive class. ``None`` infers it when the labels are
            {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).

        Returns
        -------
        OperatingPoints
            The counts at all distinct thresholds, in decreasing threshold order.

        Raises
        ------
        ValueError
            If the inputs are empty or of different lengths; if ``y_score`` is not numeric,
            has NaN or infinite values, holds integers that float64 cannot represent
            exactly (magnitude beyond ``2**53``, which would merge or reorder scores), or
            holds timestamps or durations (convert them to numbers); if ``y_true`` has
            more than two classes, or ``pos_label`` is ``None`` and cannot be inferred,
            or is not a label of ``y_true`` (or not one label: a sequence or an array); if ``sample_weight`` has negative or
            non-finite values, is all 0, or the weights of a class sum beyond float64's
            range (about 1.8e308).

        Warns
        -----
        DegenerateDataWarning
            If every sample has the same score (nothing is ranked).

        Notes
        -----
        A single class is accepted here (a chunk of a larger data set may hold one);
        quantities that need both classes raise when asked for.

        Examples
        --------
        >>> from isometrics import OperatingPoints
        >>> op = OperatingPoints.from_scores([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> op.thresholds
        array([ inf, 0.8 , 0.4 , 0.35, 0.1 ])
        >>> op.tp, op.fp
        (array([0., 1., 1., 2., 2.]), array([0., 0., 1., 1., 2.]))
        """
        return _from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label,
                            caller="OperatingPoints.from_scores")

    @classmethod
    def _from_validated(
        cls, is_pos: np.ndarray, scores: FloatArray, weights: FloatArray | None, pos_label: Any, *, caller: str
    ) -> OperatingPoints:
        """Operating points of inputs the public function ``caller`` has validated (named if weights overflow)."""
        if weights is not None:
            keep = weights != 0
            if not keep.all():
                is_pos, scores, weights = is_pos[keep], scores[keep], weights[keep]
        positives: np.ndarray
        negatives: np.ndarray | None
        ends: np.ndarray | None
        if _mostly_tied(scores):
            thresholds, positives, negatives = _grouped_by_score(scores, is_pos, weights)
            thresholds, ends = _prepend(thresholds, np.inf), None
        else:
            thresholds, positives, negatives, ends = _sorted_by_score(scores, is_pos, weights)
        # Counts are accumulated straight into their final buffers (slot 0 is the +inf
        # point): at 10^7 samples every avoided 80 MB temporary saves tens of milliseconds.
        m = len(thresholds) - 1
        tp, fp = np.empty(m + 1), np.empty(m + 1)
        tp[0] = fp[0] = 0.0
        if positives.dtype == np.float64:  # weights, or per-group sums
            assert negatives is not None
            with np.errstate(over="ignore"):  # an infinite total is reported below
                for source, target in ((positives, tp), (negatives, fp)):
                    if ends is None:
                        np.cumsum(source, out=target[1:])
                    else:
                        np.take(np.cumsum(source), ends, out=target[1:])
        else:  # labels: integer counts, exact; FP = (samples so far) - TP
            cum = np.cumsum(positives, dtype=np.int64)
            seen = np.arange(1, len(cum) + 1, dtype=np.float64) if ends is None else (ends + 1.0)
            np.copyto(tp[1:], cum if ends is None else cum[ends])
            np.subtract(seen, tp[1:], out=fp[1:])
        _check_finite_totals(tp, fp, caller, "sample_weight")
        op = cls._own(thresholds, tp, fp, pos_label)
        if ends is None and negatives is not None and positives.dtype == np.float64:  # increments at hand
            for key, values in (("dtp", positives), ("dfp", negatives)):
                values.flags.writeable = False
                op._cache[key] = values
        return op

    @classmethod
    def from_counts(
        cls,
        scores: ArrayLike,
        positives: ArrayLike,
        negatives: ArrayLike,
        *,
        pos_label: Any = 1,
    ) -> OperatingPoints:
        """Build operating points from per-score sufficient statistics.

        Parameters
        ----------
        scores : array-like of shape (n_groups,)
            Scores, in any order; repeated scores are summed.
        positives, negatives : array-like of shape (n_groups,)
            Weight of the positive and of the negative samples having each score (>= 0).
        pos_label : object, default=1
            Label of the positive class, kept for reporting.

        Returns
        -------
        OperatingPoints

        Raises
        ------
        ValueError
            If the arrays differ in length or are empty, hold NaN, infinite or
            negative values, or a class's total is beyond float64's range.

        Examples
        --------
        >>> op = OperatingPoints.from_counts([0.8, 0.4, 0.8], [1, 0, 1], [0, 2, 1])
        >>> op.thresholds, op.tp, op.fp
        (array([inf, 0.8, 0.4]), array([0., 2., 2.]), array([0., 1., 3.]))
        """
        caller = "OperatingPoints.from_counts"
        s = check_scores(scores, caller=caller, name="scores")
        p = check_scores(positives, caller=caller, name="positives")
        n = check_scores(negatives, caller=caller, name="negatives")
        check_consistent_length(caller, scores=s, positives=p, negatives=n)
        if (p < 0).any() or (n < 0).any():
            raise IsometricsError(f"{caller}: positives and negatives must be >= 0 (they are weights).")
        keep = (p + n) > 0
        s, p, n = s[keep], p[keep], n[keep]
        order = np.argsort(-s, kind="stable")
        s, p, n = s[order], p[order], n[order]
        ends = _group_ends(s)
        if ends is None:
            ends = np.arange(len(s))
        starts = np.concatenate(([0], ends[:-1] + 1)) if len(ends) else ends
        with np.errstate(over="ignore"):  # an infinite total is reported below
            tp = np.cumsum(np.add.reduceat(p, starts)) if len(s) else np.zeros(0)
            fp = np.cumsum(np.add.reduceat(n, starts)) if len(s) else np.zeros(0)
        tp, fp = _prepend(tp, 0.0), _prepend(fp, 0.0)
        _check_finite_totals(tp, fp, caller, "positives` or `negatives")
        return cls._own(_prepend(s[ends], np.inf), tp, fp, pos_label)

    def group_counts(self) -> tuple[FloatArray, FloatArray, FloatArray]:
        """The sufficient statistics: ``(scores, positives, negatives)`` per distinct score.

        Returns
        -------
        scores : ndarray of shape (n_points - 1,)
            Distinct scores, decreasing.
        positives, negatives : ndarray of shape (n_points - 1,)
            Weight of positives and negatives at each score.
        """
        return self.thresholds[1:], self.dtp, self.dfp

    @property
    def dtp(self) -> FloatArray:
        """Weighted positives at each operating point after the first, ``diff(tp)``, shape (n_points - 1,)."""
        return self._cached("dtp", lambda: np.diff(self.tp))

    @property
    def dfp(self) -> FloatArray:
        """Weighted negatives at each operating point after the first, ``diff(fp)``, shape (n_points - 1,)."""
        return self._cached("dfp", lambda: np.diff(self.fp))

    @property
    def _rises(self) -> np.ndarray:
        """Indices ``i`` of the steps ``i -> i + 1`` that add true positives (``dtp[i] > 0``)."""
        return self._cached("rises", lambda: np.flatnonzero(self.dtp > 0))

    @property
    def _normalised(self) -> OperatingPoints:
        """These operating points with every count divided by one power of two near the totals.

        ``tp``, ``fp``, ``n_positives`` and ``n_negatives`` stay in the caller's units (the
        public contract), but every derived quantity (curves, areas, hulls, metrics,
        calibrators) reads its counts from this view, where the larger class total lies in
        [1/2, 1). Products of counts (``P N`` in AUROC, cross products in the hull, powers
        in a metric) then neither overflow nor underflow, so scaling all weights by a
        constant changes no result, from weights of 1e-300 to 1e300. Dividing by a power
        of two is exact: every ratio of counts is bit-identical to the one in the caller's
        units. When the larger total already lies within ``2**±64`` (every unweighted data
        set, most weighted ones), no product of a few counts can leave float64's range:
        the view is ``self`` and costs nothing.
        """
        view = self._cache.get("normalised")
        if view is None:
            largest = max(self.n_positives, self.n_negatives)
            exponent = math.frexp(largest)[1]  # largest in [2**(exponent - 1), 2**exponent)
            if largest == 0 or abs(exponent) <= _SAFE_EXPONENT:
                return self  # not cached: a reference to itself would keep the arrays alive
            view = OperatingPoints._own(self.thresholds, np.ldexp(self.tp, -exponent), np.ldexp(self.fp, -exponent),
                                        self.pos_label)
            for key in ("dtp", "dfp"):  # the increments at hand (exact sums of the weights), scaled alike
                if key in self._cache:
                    increments = np.ldexp(self._cache[key], -exponent)
                    increments.flags.writeable = False
                    view._cache[key] = increments
            self._cache["normalised"] = view
        return view

    def merge(self, *others: OperatingPoints) -> OperatingPoints:
        """Merge the counts of disjoint chunks of data into the counts of their union.

        Merging is associative and commutative; with integer (or no) weights the result
        equals, exactly, the operating points built from the concatenated data.

        Parameters
        ----------
        *others : OperatingPoints
            Operating points of other chunks, for the same positive class.

        Returns
        -------
        OperatingPoints

        Raises
        ------
        ValueError
            If the chunks were built for different positive labels.
        TypeError
            If one of ``others`` is not an ``OperatingPoints``.
        """
        parts = [self, *others]
        for k, other in enumerate(others):
            if not isinstance(other, OperatingPoints):
                raise InvalidParameterError(
                    f"OperatingPoints.merge: `others[{k}]` is a {type(other).__name__}, not OperatingPoints; pass the "
                    "OperatingPoints of each chunk (OperatingPoints.from_scores or from_counts)."
                )
            if other.pos_label != self.pos_label:
                raise IsometricsError(
                    f"OperatingPoints.merge: chunks have different positive labels "
                    f"({self.pos_label!r} and {other.pos_label!r}); build every chunk with the same pos_label."
                )
        stats = [p.group_counts() for p in parts]
        return OperatingPoints.from_counts(
            np.concatenate([s[0] for s in stats]),
            np.concatenate([s[1] for s in stats]),
            np.concatenate([s[2] for s in stats]),
            pos_label=self.pos_label,
        )

    # ------------------------------------------------------------------ basic views
    @property
    def n_points(self) -> int:
        """Number of operating points, including the one at ``+inf``."""
        return len(self.thresholds)

    @property
    def n_positives(self) -> float:
        """Total weight of the positive class."""
        return float(self.tp[-1])

    @property
    def n_negatives(self) -> float:
        """Total weight of the negative class."""
        return float(self.fp[-1])

    @property
    def prevalence(self) -> float:
        """Weighted share of positives, ``P / (P + N)``, in [0, 1]."""
        view = self._normalised  # P + N may overflow in the caller's units
        return view.n_positives / (view.n_positives + view.n_negatives)

    @property
    def fn(self) -> FloatArray:
        """Weighted false negatives at each threshold, ``P - tp``."""
        return self._cached("fn", lambda: self.tp[-1] - self.tp)

    @property
    def tn(self) -> FloatArray:
        """Weighted true negatives at each threshold, ``N - fp``."""
        return self._cached("tn", lambda: self.fp[-1] - self.fp)

    def _cached(self, key: Any, compute: Any) -> Any:
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def warn_if_degenerate(self, name: str, *, stacklevel: int = 3) -> None:
        """Warn (``DegenerateDataWarning``) when every sample has the same score.

        ``stacklevel`` is that of :func:`warnings.warn` from here: 3 points at the line
        that called the function calling this method.
        """
        if self.n_points == 2:
            warnings.warn(
                f"{name} has a single distinct value ({float(self.thresholds[1])!r}): it does not rank the samples, "
                "so the ROC curve is the diagonal (AUROC 0.5) and every threshold metric has one operating point.",
                DegenerateDataWarning,
                stacklevel=stacklevel,
            )

    def require_both_classes(self, what: str) -> None:
        """Raise a clear error when ``what`` needs both classes and one is missing."""
        if self.n_positives > 0 and self.n_negatives > 0:
            return
        missing = "positive" if self.n_positives <= 0 else "negative"
        raise IsometricsError(
            f"{what} is undefined when y_true has one class (no {missing} samples with positive weight, "
            f"pos_label={self.pos_label!r}); pass samples of both classes."
        )

    # ------------------------------------------------------------------ derived
    def roc_curve(self) -> RocCurve:
        """ROC curve at every operating point; see :func:`isometrics.roc_curve`."""
        from .curves import _roc_curve

        return self._cached("roc", lambda: _roc_curve(self._normalised))

    def precision_recall_curve(self) -> PrecisionRecallCurve:
        """PR curve at every operating point; see :func:`isometrics.precision_recall_curve`."""
        from .curves import _precision_recall_curve

        return self._cached("pr", lambda: _precision_recall_curve(self._normalised))

    def prg_curve(self) -> PrgCurve:
        """Precision-Recall-Gain curve; see :func:`isometrics.prg_curve`."""
        from .curves import _prg_curve

        return self._cached("prg", lambda: _prg_curve(self._normalised))

    def auroc(self) -> float:
        """Area under the ROC curve; see :func:`isometrics.auroc`."""
        from .areas import _auroc

        return self._cached("auroc", lambda: _auroc(self._normalised))

    def average_precision(self) -> float:
        """Step-wise average precision; see :func:`isometrics.average_precision`."""
        from .areas import _average_precision

        return self._cached("ap", lambda: _average_precision(self._normalised))

    def auprg(self) -> float:
        """Area under the Precision-Recall-Gain curve; see :func:`isometrics.auprg`."""
        from .areas import _auprg

        return self._cached("auprg", lambda: _auprg(self._normalised))

    def at_prevalence(self, prevalence: float) -> OperatingPoints:
        """The same classifier at another prevalence: negatives reweighted, ROC unchanged.

        Every PR and PRG quantity (curves, areas, best thresholds of any metric) derived
        from the result is the one expected on a population with this share of
        positives; TPR and FPR, hence the ROC curve and AUROC, do not change.

        Parameters
        ----------
        prevalence : float
            Deployment share of positives, in (0, 1).

        Returns
        -------
        OperatingPoints
            Same thresholds and true positives; false positives scaled by
            ``P (1 - prevalence) / (N prevalence)``.

        Raises
        ------
        InvalidParameterError
            If ``prevalence`` is not in (0, 1).
        ValueError
            If the operating points have one class only.

        References
        ----------
        .. [1] ``shared/reference/002`` (ROC to PR under class imbalance); W. Siblini et
           al., "Master your Metrics with Calibration", IDA 2020.
        """
        from ._validation import check_real

        pi = check_real(prevalence, "prevalence", caller="OperatingPoints.at_prevalence", low=0.0, high=1.0,
                        low_inclusive=False, high_inclusive=False)
        self.require_both_classes("at_prevalence")
        scale = self.n_positives * (1.0 - pi) / (self.n_negatives * pi)
        return OperatingPoints._own(self.thresholds.copy(), self.tp.copy(), self.fp * scale, self.pos_label)

    def auc_pr_interpolated(self) -> float:
        """Count-interpolated PR area; see :func:`isometrics.auc_pr_interpolated`."""
        from .interpolation import _auc_pr_interpolated

        return self._cached("auc_pr_interpolated", lambda: _auc_pr_interpolated(self._normalised))

    def achievable_pr_curve(self) -> PrecisionRecallCurve:
        """PR curve at the ROC hull's vertices; see :func:`isometrics.achievable_pr_curve`."""
        from .interpolation import _achievable

        return self._cached("achievable_pr", lambda: _achievable(self._normalised))

    def auc_pr_achievable(self) -> float:
        """Area under the achievable PR curve; see :func:`isometrics.auc_pr_achievable`."""
        from .interpolation import _auc_pr_achievable

        return self._cached("auc_pr_achievable", lambda: _auc_pr_achievable(self._normalised))

    def isotonic_calibrator(self) -> StepCalibrator:
        """Isotonic calibration through the ROC hull; see :func:`isometrics.isotonic_calibrator`."""
        from .calibration import _isotonic

        return self._cached("isotonic", lambda: _isotonic(self._normalised))

    def f_calibrator(self) -> StepCalibrator:
        """F-calibration through the PRG hull; see :func:`isometrics.f_calibrator`."""
        from .calibration import _f_calibrator

        return self._cached("f_calibrator", lambda: _f_calibrator(self._normalised))

    def roc_convex_hull(self) -> RocHull:
        """ROC convex hull; see :func:`isometrics.roc_convex_hull`."""
        from .hull import _roc_hull

        return self._cached("roc_hull", lambda: _roc_hull(self))

    def prg_convex_hull(self) -> PrgHull:
        """PRG convex hull; see :func:`isometrics.prg_convex_hull`."""
        from .hull import _prg_hull

        return self._cached("prg_hull", lambda: _prg_hull(self._normalised))

    def metric_curve(self, metric: str | Metric) -> MetricCurve:
        """A metric at every operating point; see :func:`isometrics.metric_curve`."""
        from .thresholds import _metric_curve

        return _metric_curve(self, metric, "OperatingPoints.metric_curve")

    def precision_at_recall(self, min_recall: float) -> OperatingPoint:
        """Best precision at recall >= ``min_recall``; see :func:`isometrics.precision_at_recall`."""
        from .thresholds import _precision_at_recall

        return _precision_at_recall(self, min_recall, "OperatingPoints.precision_at_recall")

    def recall_at_precision(self, min_precision: float) -> OperatingPoint:
        """Best recall at precision >= ``min_precision``; see :func:`isometrics.recall_at_precision`."""
        from .thresholds import _recall_at_precision

        return _recall_at_precision(self, min_precision, "OperatingPoints.recall_at_precision")

    def specificity_at_sensitivity(self, min_sensitivity: float) -> OperatingPoint:
        """Best specificity at sensitivity >= ``min_sensitivity``; see :func:`isometrics.specificity_at_sensitivity`."""
        from .thresholds import _specificity_at_sensitivity

        return _specificity_at_sensitivity(self, min_sensitivity, "OperatingPoints.specificity_at_sensitivity")

    def best_threshold(self, metric: str | Metric = "f1") -> BestThreshold:
        """The operating point maximising ``metric``; see :func:`isometrics.best_threshold`."""
        from .thresholds import _best_threshold

        return _best_threshold(self, metric, "OperatingPoints.best_threshold")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the counts alone: derived quantities are recomputed on demand, and the
        arrays come back read-only, as the engine keeps them."""
        return (OperatingPoints._own, (self.thresholds, self.tp, self.fp, self.pos_label))

    def __repr__(self) -> str:
        return (
            f"OperatingPoints(n_points={self.n_points}, n_positives={self.n_positives:g}, "
            f"n_negatives={self.n_negatives:g}, pos_label={self.pos_label!r})"
        )


def _from_scores(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None,
    pos_label: Any,
    caller: str,
) -> OperatingPoints:
    """Validate binary scores at the boundary of the public function ``caller`` and build their operating points.

    The one construction path from user input: :meth:`OperatingPoints.from_scores` and
    every public binary function (``auroc``, ``roc_curve``, ``best_threshold``...) call
    it with their own public name, which every validation message starts with. Call it
    directly from the public function: the degenerate-score warning points at the line
    that called that function.
    """
    y_arr = as_1d(y_true, name="y_true", caller=caller)
    s_arr = as_1d(y_score, name="y_score", caller=caller)
    w_arr = None if sample_weight is None else as_1d(sample_weight, name="sample_weight", caller=caller)
    check_consistent_length(caller, y_true=y_arr, y_score=s_arr, sample_weight=w_arr)
    is_pos, pos_label = check_binary_target(y_arr, pos_label=pos_label, caller=caller)
    scores = check_scores(s_arr, caller=caller)
    weights = check_sample_weight(w_arr, len(scores), caller=caller)
    op = OperatingPoints._from_validated(is_pos, scores, weights, pos_label, caller=caller)
    op.warn_if_degenerate("y_score", stacklevel=4)  # warn_if_degenerate, here, the public function, its caller
    return op


def _check_finite_totals(tp: FloatArray, fp: FloatArray, caller: str, name: str) -> None:
    """Raise when a class total overflowed float64 (each weight finite, their sum not)."""
    if len(tp) and not (math.isfinite(tp[-1]) and math.isfinite(fp[-1])):
        raise IsometricsError(
            f"{caller}: `{name}` sums to more than the largest float64 (about 1.8e308) within one class; "
            "divide every weight by the same constant (no result depends on the scale of the weights)."
        )


#: Sample size used to decide between grouping tied scores by hashing and sorting.
_TIE_SAMPLE = 100_000


def _mostly_tied(scores: FloatArray) -> bool:
    """Whether scores repeat so much that grouping by hash beats a full sort.

    Looks at an evenly spaced sample; only speed depends on the answer, never results.
    """
    n = len(scores)
    if n < _POLARS_MIN_SAMPLES:
        return False
    sample = scores[:: max(1, n // _TIE_SAMPLE)]
    return len(np.unique(sample)) < 0.6 * len(sample)


def _sorted_by_score(
    scores: FloatArray, is_pos: np.ndarray, weights: FloatArray | None
) -> tuple[FloatArray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Operating points via one sort: (thresholds, positives, negatives, group ends).

    ``thresholds`` has shape (n_points,) and starts with ``+inf``. ``positives`` and
    ``negatives`` are per sample in decreasing score order: the labels (uint8) with
    ``negatives`` ``None``, or each class's weights (float64). ``ends`` indexes the last
    sample of each tie group (``None`` when there are no ties).
    """
    slotted, positives, negatives = _sort_descending(scores, is_pos, weights)
    s = slotted[1:]
    ends = _group_ends(s)
    return (slotted if ends is None else _prepend(s[ends], np.inf)), positives, negatives, ends


def _sort_descending(
    scores: FloatArray, is_pos: np.ndarray, weights: FloatArray | None
) -> tuple[FloatArray, np.ndarray, np.ndarray | None]:
    """Scores in decreasing order with the labels or class weights carried along.

    Returns ``(values, positives, negatives)``: ``values`` has shape (n + 1,), ``+inf``
    first (the slot of the operating point that predicts nothing positive), then the
    sorted scores. Unweighted: ``positives`` are the labels (uint8) and ``negatives``
    is ``None``. Weighted: the weight of each sample in its class's array, 0 in the
    other. The order inside a run of tied scores is unspecified: ties are grouped
    afterwards.

    Small inputs use NumPy's ``argsort``. Large ones sort exact integer keys with
    Polars' multithreaded sort (``docs/performance.md``): unweighted, 64-bit keys that
    hold the score and the label (:func:`_label_keys`); weighted, 128-bit keys whose high
    word orders the score (:func:`_signed_order`) and whose low word carries the weight,
    negated for negatives.
    """
    large = len(scores) >= _POLARS_MIN_SAMPLES
    if large and weights is None:
        encoded = _label_keys(scores, is_pos)
        if encoded is not None:
            import polars as pl

            keys, exponent = encoded
            ordered = pl.Series(keys).sort(descending=True).to_numpy()
            values = _decode_order(ordered, exponent, shift=1)
            return values, ordered.view(np.uint8)[::8] & 1, None  # label: the key's lowest bit
    elif large:
        assert weights is not None
        order_ints = _signed_order(scores)
        if order_ints is not None:
            high, exponent = order_ints
            high_sorted, signed = _sort_int128_descending(high, weights, negate=~is_pos)
            values = _decode_order(high_sorted, exponent)
            signed_weights = signed.view(np.float64)
            positives = np.maximum(signed_weights, 0.0)
            return values, positives, np.subtract(positives, signed_weights)
    # Fallback: a permutation (NumPy for small inputs, Polars' arg_sort for scores whose
    # keys would not be exact).
    order = _polars_argsort_descending(scores) if large else np.argsort(-scores, kind="stable")
    values = np.empty(len(scores) + 1)
    values[0] = np.inf
    np.take(scores, order, out=values[1:])
    labels = is_pos.view(np.uint8)[order]
    if weights is None:
        return values, labels, None
    w = weights[order]
    positives = np.where(labels != 0, w, 0.0)
    return values, positives, np.subtract(w, positives, out=w)


def _polars_argsort_descending(scores: FloatArray) -> np.ndarray:
    import polars as pl

    return pl.Series(scores).arg_sort(descending=True).to_numpy()


def _sort_int128_descending(
    high: np.ndarray, weights: FloatArray, *, negate: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Sort 128-bit integers (high word: ``high``; low word: the bits of the weights, negated
    where ``negate``) decreasingly; return the sorted high words and low words.

    Polars sorts a Decimal128 column as 128-bit integers; the values stay within its
    38-digit precision because ``|high| < 2**62``. Zero weights have been removed, so the
    sign of a low word tells the class.
    """
    import polars as pl
    import pyarrow as pa

    packed = np.empty((len(high), 2), dtype=np.uint64)
    low = packed[:, 0].view(np.float64)  # little-endian: low word first
    np.copyto(low, weights)
    np.negative(weights, out=low, where=negate)
    packed[:, 1] = high.view(np.uint64)
    column = pl.Series(pa.Array.from_buffers(pa.decimal128(38, 0), len(high), [None, pa.py_buffer(packed)]))
    result = column.sort(descending=True).to_arrow()
    if isinstance(result, pa.ChunkedArray):
        result = result.combine_chunks()
    words = np.frombuffer(result.buffers()[1], dtype=np.uint64)
    words = words[2 * result.offset : 2 * (result.offset + len(result))].reshape(-1, 2)
    return words[:, 1].view(np.int64), words[:, 0]


def _signed_order(scores: FloatArray) -> tuple[np.ndarray, int] | None:
    """Order-preserving int64 images of the scores, all in ``[-2**62, 2**62)``.

    Read as a signed integer ``b``, a double's bits map to an order-preserving integer
    ``t = b ^ ((b >> 63) & (2**63 - 1))``; when every ``|x| < 2``, ``t`` lies in
    ``[-2**62, 2**62)``. Scores are first scaled by ``2**-k`` so that ``|x| < 2``, which
    is exact unless it would make a value subnormal: then ``None`` is returned and the
    caller sorts without keys. Returns ``t`` and ``k``.
    """
    high, low = float(scores.max()), float(scores.min())
    exponent = 0
    largest = max(high, -low)
    if largest >= 2.0:
        exponent = math.frexp(largest)[1]  # largest < 2**exponent
        smallest_normal = math.ldexp(np.finfo(np.float64).tiny, exponent)
        if low > 0 or high < 0:
            smallest = low if low > 0 else -high
        else:
            magnitude = np.abs(scores)
            smallest = float(magnitude.min())
            if smallest == 0.0:  # zeros are exact whatever the scale: look past them
                smallest = float(np.min(magnitude, where=magnitude > 0, initial=np.inf))
        if smallest < smallest_normal:
            return None  # scaling by 2**-k would lose bits of the smallest scores
        scores = np.ldexp(scores, -exponent)
    bits = scores.view(np.int64)
    order = np.right_shift(bits, 63)  # 0 or -1 (arithmetic shift)
    np.bitwise_and(order, np.int64(2**63 - 1), out=order)
    np.bitwise_xor(order, bits, out=order)
    return order, exponent


#: Marks keys that hold raw bits of non-negative scores (no scaling, unsigned order).
_UNSIGNED = None


def _label_keys(scores: FloatArray, is_pos: np.ndarray) -> tuple[np.ndarray, int | None] | None:
    """Exact 64-bit sort keys holding each score (in order) and its label in the lowest bit.

    Non-negative scores: their IEEE-754 bits, read as unsigned integers, are in score
    order with a top bit of 0 (``-0.0`` aside, whose top bit the shift drops, making it
    ``+0.0``), so ``bits << 1 | label`` is an exact unsigned key. Other scores:
    ``t << 1 | label`` with ``t`` from :func:`_signed_order`, an exact signed key.
    Returns the keys and the scale exponent (``_UNSIGNED`` for unsigned keys), or
    ``None`` when no exact key exists.
    """
    if float(scores.min()) >= 0:
        keys = np.left_shift(scores.view(np.uint64), np.uint64(1))
        np.bitwise_or(keys, is_pos.view(np.uint8), out=keys, casting="unsafe")
        return keys, _UNSIGNED
    order_ints = _signed_order(scores)
    if order_ints is None:
        return None
    keys, exponent = order_ints
    unsigned = keys.view(np.uint64)  # shift the two's-complement bits, never a negative int
    np.left_shift(unsigned, np.uint64(1), out=unsigned)
    np.bitwise_or(unsigned, is_pos.view(np.uint8), out=unsigned, casting="unsafe")
    return keys, exponent


def _decode_order(order: np.ndarray, exponent: int | None, *, shift: int = 0) -> FloatArray:
    """Scores from their order-preserving integers (``order >> shift``), after a slot holding ``+inf``.

    Returns shape (n + 1,).
    """
    slotted = np.empty(len(order) + 1, dtype=order.dtype)
    decoded = slotted[1:]
    np.right_shift(order, order.dtype.type(shift), out=decoded)  # logical if unsigned, else arithmetic
    if exponent is not _UNSIGNED:
        mask = np.right_shift(decoded, 63)
        np.bitwise_and(mask, np.int64(2**63 - 1), out=mask)
        np.bitwise_xor(decoded, mask, out=decoded)
    values = slotted.view(np.float64)
    values[0] = np.inf
    if exponent:
        np.ldexp(values[1:], exponent, out=values[1:])
    return values


def _grouped_by_score(
    scores: FloatArray, is_pos: np.ndarray, weights: FloatArray | None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per distinct score (decreasing): the score and its positive and negative weight.

    Hash grouping without a full sort; -0.0 and 0.0 form one group, as they compare
    equal. Results are bit-reproducible: unweighted, Polars' multithreaded aggregation
    sums integers, exact in any order. Weighted, float sums depend on the order of the
    additions, which a multithreaded aggregation changes from run to run; instead,
    Arrow's dictionary encoding gives every sample the code of its score and one
    ``np.bincount`` over ``2 * group + label`` sums both classes, both in input order.
    """
    if weights is None:
        import polars as pl

        frame = pl.LazyFrame({"s": scores, "y": is_pos.view(np.int8)})
        agg = [pl.col("y").cast(pl.Int64).sum().alias("p"), pl.len().alias("c")]
        out = frame.group_by("s").agg(agg).sort(by="s", descending=True).collect()
        positives = out.get_column("p").to_numpy().astype(np.float64)
        negatives = out.get_column("c").to_numpy().astype(np.float64) - positives
        return out.get_column("s").to_numpy(), positives, negatives
    import pyarrow as pa

    encoded = pa.array(scores).dictionary_encode()  # hashes the bits: -0.0 and 0.0 are two entries
    values, group = np.unique(encoded.dictionary.to_numpy() + 0.0, return_inverse=True)  # ascending, -0.0 merged
    m = len(values)
    slot = np.subtract(m - 1, group.ravel(), dtype=np.intp)  # rank in decreasing order
    np.left_shift(slot, 1, out=slot)
    keys = slot[encoded.indices.to_numpy()]
    np.bitwise_or(keys, is_pos.view(np.uint8), out=keys, casting="unsafe")
    counts = np.bincount(keys, weights=weights, minlength=2 * m)  # float64: the weights' sums
    return (np.ascontiguousarray(values[::-1]), np.ascontiguousarray(counts[1::2], dtype=np.float64),
            np.ascontiguousarray(counts[::2], dtype=np.float64))


def _group_ends(sorted_scores: np.ndarray) -> np.ndarray | None:
    """Index of the last element of each run of equal values in a sorted array.

    ``None`` when all values are distinct (every index ends a run), so that callers
    skip the gathers.
    """
    n = len(sorted_scores)
    if n == 0:
        return np.zeros(0, dtype=np.intp)
    change = sorted_scores[1:] != sorted_scores[:-1]
    if np.count_nonzero(change) == n - 1:
        return None
    ends = np.empty(np.count_nonzero(change) + 1, dtype=np.intp)
    ends[:-1] = np.flatnonzero(change)
    ends[-1] = n - 1
    return ends


def _prepend(values: np.ndarray, first: float) -> FloatArray:
    out = np.empty(len(values) + 1, dtype=np.float64)
    out[0] = first
    out[1:] = values
    return out
