"""The exact evaluation engine: every threshold's weighted confusion counts, built once.

The count table (:class:`CountTable`) sorts the scores once, groups tied scores into one operating
point, and accumulates weighted true and false positives in float64. Every curve, area
and threshold in isometrics is derived from this one structure; nothing sorts again.

The structure is a sufficient statistic: the per-score counts of two chunks of data
merge exactly (:meth:`CountTable.merge`) into the counts of the whole, which is how
data larger than memory or spread over a cluster is evaluated.

The table is data: it builds, merges and rescales counts and knows nothing of curves or
metrics. The verbs users call on it (``op.auroc()``, ``op.best_threshold("f2")``) live one
layer up, on :class:`isometrics.spaces.operating_points.OperatingPoints`, a subclass, so that
this module imports nothing above the core.
"""

from __future__ import annotations

import math
import warnings
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from .._typing import ArrayLike, FloatArray
from ..exceptions import DegenerateDataWarning, InvalidParameterError, IsometricsError
from .caller import takes_caller
from .constraints import ARRAY, POS_LABEL, InBody, Interval, Real, user_stacklevel, validate_params
from .counting import counts_from_statistics, counts_from_validated
from .html import html_table
from .quantity import Quantity
from .sorting import Scores
from .validation import (
    as_1d,
    as_sample_weight,
    check_binary_target,
    check_consistent_length,
    check_real,
    check_sample_weight,
    check_scores,
)

__all__ = ["CountTable", "Quantity", "normalising_exponent", "table_from_scores"]

#: Cache key of a table built from unweighted samples without ties: every step adds one sample of
#: weight 1 (its counts are the integers 0, 1, 2, ...; the one-pass sweep reads AUROC from that).
UNIT_STEPS = "unit steps"

#: A count table or one of its subclasses (the constructors return the class they are called on).
_Table = TypeVar("_Table", bound="CountTable")

#: Cache key of a scaled view's weak reference to the table it was made from.
_ORIGIN = "origin"

#: Class totals within 2**±this need no rescaling (see ``CountTable.normalised``):
#: every metric raises counts to at most the 8th power, and 2**(8 * 64) is far from overflow.
_SAFE_EXPONENT = 64


@dataclass(frozen=True, eq=False)
class CountTable:
    """Weighted confusion counts at every distinct threshold of a binary scorer (the engine).

    Fields: ``thresholds`` (distinct scores, strictly decreasing, preceded by ``+inf``),
    cumulative weighted ``tp`` and ``fp`` (both 0 at ``+inf``, non-decreasing) and the
    ``pos_label`` they refer to. This class is the data alone: it builds, merges and
    rescales counts. The public class, documented in full (conventions, zero weights,
    exactness, weight scale), is its subclass :class:`isometrics.OperatingPoints`, which adds
    the verbs of the spaces.
    """

    thresholds: FloatArray
    tp: FloatArray
    fp: FloatArray
    pos_label: Any = 1
    _cache: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_arrays(
        cls: type[_Table], thresholds: FloatArray, tp: FloatArray, fp: FloatArray, pos_label: Any
    ) -> _Table:
        """Wrap count arrays the package made itself (not validated), made read-only.

        The engine's constructor for code of the package that already holds a valid table's
        arrays (a subset of points, a merge, a reweighting): every derived quantity relies
        on them, so they are frozen in place, not copied. Users build tables with
        :meth:`from_scores` or :meth:`from_counts`.
        """
        for values in (thresholds, tp, fp):
            values.flags.writeable = False
        return cls(thresholds=thresholds, tp=tp, fp=fp, pos_label=pos_label)

    # ------------------------------------------------------------------ construction
    @classmethod
    @validate_params(
        {"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL},
        name="OperatingPoints.from_scores",
    )
    def from_scores(
        cls: type[_Table],
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        sample_weight: ArrayLike | None = None,
        pos_label: Any = None,
    ) -> _Table:
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
        return table_from_scores(
            y_true,
            y_score,
            sample_weight=sample_weight,
            pos_label=pos_label,
            table=cls,
        )

    @classmethod
    @takes_caller
    def from_validated(
        cls: type[_Table],
        is_pos: np.ndarray,
        scores: Scores,
        weights: FloatArray | None,
        pos_label: Any,
        *,
        caller: str | None = None,
    ) -> _Table:
        """Operating points of inputs a public function has validated (named if weights overflow).

        The message names ``caller`` where one is given (layers that still pass one), else the
        public function being called (:func:`~isometrics._core.caller.current_caller`).

        The engine's one sort: ``is_pos`` (bool), ``scores`` (finite float64) and ``weights``
        (non-negative float64 or ``None``) as :func:`table_from_scores` leaves them.

        ``scores`` given as a one-element list are handed over (see ``sorting.Scores``): the
        list is emptied, and the array freed, as soon as the sort no longer needs it.
        """
        n = len(is_pos)
        thresholds, tp, fp, increments = counts_from_validated(is_pos, scores, weights)
        op = cls.from_arrays(thresholds, tp, fp, pos_label)
        if increments is not None:  # the per-point weights at hand: diff(tp) and diff(fp) need no pass
            op._cache["dtp"], op._cache["dfp"] = increments
        if weights is None and len(thresholds) == n + 1:  # no tie: each step is one sample of weight 1
            op._cache[UNIT_STEPS] = True
        return op

    @classmethod
    @validate_params(
        {
            "scores": ARRAY,
            "positives": ARRAY,
            "negatives": ARRAY,
            "pos_label": InBody("any object (kept for reporting)"),
        },
        name="OperatingPoints.from_counts",
    )
    def from_counts(
        cls: type[_Table],
        scores: ArrayLike,
        positives: ArrayLike,
        negatives: ArrayLike,
        *,
        pos_label: Any = 1,
    ) -> _Table:
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
        >>> from isometrics import OperatingPoints
        >>> op = OperatingPoints.from_counts([0.8, 0.4, 0.8], [1, 0, 1], [0, 2, 1])
        >>> op.thresholds, op.tp, op.fp
        (array([inf, 0.8, 0.4]), array([0., 2., 2.]), array([0., 1., 3.]))
        """
        thresholds, tp, fp = counts_from_statistics(scores, positives, negatives)
        return cls.from_arrays(thresholds, tp, fp, pos_label)

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
        return self.cached("dtp", lambda: np.diff(self.tp))

    @property
    def dfp(self) -> FloatArray:
        """Weighted negatives at each operating point after the first, ``diff(fp)``, shape (n_points - 1,)."""
        return self.cached("dfp", lambda: np.diff(self.fp))

    @property
    def normalised(self: _Table) -> _Table:
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
            exponent = normalising_exponent(self.n_positives, self.n_negatives)
            if exponent == 0:
                return self  # not cached: a reference to itself would keep the arrays alive
            view = self._scaled_view(exponent, exponent)
            self._cache["normalised"] = view
        return view

    @property
    def rates(self: _Table) -> _Table:
        """These operating points with each class's counts divided by its own power of two.

        The view of ROC space: TPR ``tp / P`` and FPR ``fp / N`` (hence the ROC curve, its
        area and its hull) do not change when each class is rescaled on its own, and
        dividing by a power of two is exact, so every rate is bit-identical to the one in
        the caller's units. Each class total lies in [1/2, 1) when it leaves ``2**±64``,
        whatever the other's: classes whose totals differ by more than float64's range
        (weights of 1e-300 for one class, 1e300 for the other), which the common scale of
        :attr:`normalised` cannot hold together, both keep their counts here.
        """
        view = self._cache.get("rates")
        if view is None:
            e_pos = normalising_exponent(self.n_positives, 0.0)
            e_neg = normalising_exponent(self.n_negatives, 0.0)
            if e_pos == e_neg:
                return self.normalised if e_pos else self
            view = self._scaled_view(e_pos, e_neg)
            self._cache["rates"] = view
        return view

    def _scaled_view(self: _Table, e_pos: int, e_neg: int) -> _Table:
        """A view with ``tp`` divided by ``2**e_pos`` and ``fp`` by ``2**e_neg`` (exact), knowing the classes present."""
        view = type(self).from_arrays(
            self.thresholds, np.ldexp(self.tp, -e_pos), np.ldexp(self.fp, -e_neg), self.pos_label
        )
        for key, exponent in (("dtp", e_pos), ("dfp", e_neg)):  # the increments at hand, scaled alike
            if key in self._cache:
                increments = np.ldexp(self._cache[key], -exponent)
                increments.flags.writeable = False
                view._cache[key] = increments
        view._cache["totals"] = self._totals  # the caller's class totals: which classes are present
        view._cache[_ORIGIN] = weakref.ref(self)  # where quantities in the caller's units are kept (see get)
        return view

    @property
    def _totals(self) -> tuple[float, float]:
        """``(P, N)`` in the caller's units (a view carries those of the table it was made from)."""
        totals: tuple[float, float] = self._cache.get("totals", (self.n_positives, self.n_negatives))
        return totals

    def merge(self: _Table, *others: CountTable) -> _Table:
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
        parts: list[CountTable] = [self, *others]
        for k, other in enumerate(others):
            if not isinstance(other, CountTable):
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
        return type(self).from_counts(
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
        view = self.normalised  # P + N may overflow in the caller's units
        return view.n_positives / (view.n_positives + view.n_negatives)

    @property
    def fn(self) -> FloatArray:
        """Weighted false negatives at each threshold, ``P - tp``."""
        return self.cached("fn", lambda: self.tp[-1] - self.tp)

    @property
    def tn(self) -> FloatArray:
        """Weighted true negatives at each threshold, ``N - fp``."""
        return self.cached("tn", lambda: self.fp[-1] - self.fp)

    def cached(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()``, kept in this table's cache under ``key``: for families of values keyed by a
        parameter (a metric's values under ``("metric", spec)``); a declared quantity is read with :meth:`get`."""
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
        P, N = self._totals  # a class is present when its weight is positive, at any scale
        if P > 0 and N > 0:
            if self.n_positives > 0 and self.n_negatives > 0:
                return
            # A view whose common scale flushed the smaller class to 0: both are present, but
            # their totals differ by more than float64 can hold in one unit.
            raise IsometricsError(
                f"{what} cannot be computed in float64 here: the class totals (positives {P!r}, negatives {N!r}, "
                f"pos_label={self.pos_label!r}) differ by a factor beyond float64's range (about 1e323); "
                "bring the weights of the two classes closer (ROC quantities such as auroc and roc_curve "
                "are computed whatever the ratio)."
            )
        missing = "positive" if P <= 0 else "negative"
        raise IsometricsError(
            f"{what} is undefined when y_true has one class (no {missing} samples with positive weight, "
            f"pos_label={self.pos_label!r}); pass samples of both classes."
        )

    def get(self, quantity: Quantity) -> Any:
        """The declared ``quantity`` of this table, computed once in its declared units and cached.

        The one way a derived quantity is read: ``quantity.compute`` receives the view its
        ``counts`` declare (:attr:`normalised`, :attr:`rates`, this table for ``"raw"`` and
        ``"own"``), and the value is cached under the declaration itself. A ``"raw"`` quantity
        asked of a scaled view (the ROC hull, read by the PRG hull and the calibrators on
        :attr:`normalised`) is the one of the table the view was made from, computed once. The verbs of
        :class:`~isometrics.spaces.operating_points.OperatingPoints` and the public functions of
        the spaces share the cache through this method.
        """
        cache = self._cache
        if quantity not in cache:
            counts = quantity.counts
            origin = cache[_ORIGIN]() if counts == "raw" and _ORIGIN in cache else None
            if origin is not None:  # a scaled view: the table it was made from computes (and keeps) it once
                cache[quantity] = origin.get(quantity)
            else:
                view = self.normalised if counts == "normalised" else self.rates if counts == "rates" else self
                cache[quantity] = quantity.compute(view)
        return cache[quantity]

    def peek(self, key: Quantity | Any) -> Any:
        """The cached value of ``key`` (a :class:`Quantity` or a :meth:`cached` key), or ``None``: never computes."""
        return self._cache.get(key)

    def clear_cache(self) -> None:
        """Forget every derived value (they are recomputed on demand): frees their memory."""
        self._cache.clear()

    @validate_params({"prevalence": Interval(Real, 0.0, 1.0, closed="neither")}, name="OperatingPoints.at_prevalence")
    def at_prevalence(self: _Table, prevalence: float) -> _Table:
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
        .. [1] J. Davis and M. Goadrich, "The Relationship Between Precision-Recall and ROC
           Curves", ICML 2006; W. Siblini et al., "Master your Metrics with Calibration", IDA 2020.
        """
        pi = check_real(
            prevalence,
            "prevalence",
            low=0.0,
            high=1.0,
            low_inclusive=False,
            high_inclusive=False,
        )
        self.require_both_classes("at_prevalence")
        scale = self.n_positives * (1.0 - pi) / (self.n_negatives * pi)
        return type(self).from_arrays(self.thresholds.copy(), self.tp.copy(), self.fp * scale, self.pos_label)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle the counts alone: derived quantities are recomputed on demand, and the
        arrays come back read-only, as the engine keeps them."""
        return (type(self).from_arrays, (self.thresholds, self.tp, self.fp, self.pos_label))

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(n_points={self.n_points}, n_positives={self.n_positives:g}, "
            f"n_negatives={self.n_negatives:g}, pos_label={self.pos_label!r})"
        )

    def _repr_html_(self) -> str:
        rows = [
            ("operating points", self.n_points),
            ("positives (weighted)", self.n_positives),
            ("negatives (weighted)", self.n_negatives),
            ("positive class", self.pos_label),
        ]
        return html_table(("", "value"), rows, caption=type(self).__name__)


def normalising_exponent(n_positives: float, n_negatives: float) -> int:
    """The power of two that ``CountTable.normalised`` divides counts by (0: none).

    0 when the larger class total lies within ``2**±64`` (or is 0); otherwise the exponent
    ``e`` with the larger total in ``[2**(e - 1), 2**e)``. The sweep over a table's segments
    (:mod:`isometrics.spaces.sweep`) applies the same rule, so both see the same doubles.
    """
    largest = max(n_positives, n_negatives)
    exponent = math.frexp(largest)[1]  # largest in [2**(exponent - 1), 2**exponent)
    return 0 if largest == 0 or abs(exponent) <= _SAFE_EXPONENT else exponent


@takes_caller
def table_from_scores(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    sample_weight: ArrayLike | None,
    pos_label: Any,
    caller: str | None = None,
    table: type[_Table],
) -> _Table:
    """Validate binary scores at the boundary of a public function and build their operating points.

    The one construction path from user input: :meth:`OperatingPoints.from_scores` and
    every public binary function (``auroc``, ``roc_curve``, ``best_threshold``...) call
    it; every validation message starts with the name of the declared public function
    being called (or ``caller``, where a layer still passes one). Call it
    directly from the public function: the degenerate-score warning points at the line
    that called that function. ``table`` is the class built (the public
    :class:`isometrics.OperatingPoints` where the result reaches users with its verbs).
    """
    y_arr = as_1d(y_true, name="y_true")
    s_arr = as_1d(y_score, name="y_score")
    w_arr = as_sample_weight(sample_weight)
    check_consistent_length(y_true=y_arr, y_score=s_arr, sample_weight=w_arr)
    is_pos, pos_label = check_binary_target(y_arr, pos_label=pos_label)
    scores = check_scores(s_arr)
    weights = check_sample_weight(w_arr, len(scores))
    op = table.from_validated(is_pos, scores, weights, pos_label)
    op.warn_if_degenerate(
        "y_score", stacklevel=user_stacklevel(3) + 1
    )  # warn_if_degenerate, here, the public function (its wrappers skipped), its caller
    return op
