"""Streaming evaluation in constant memory: counts in score bins, with guaranteed intervals.

:class:`BinnedCountTable` is an accumulator (``update``, ``merge``, ``compute``) for evaluation
during training or on a stream. It keeps the exact count table (distinct scores) while the scores
take at most ``n_bins`` values, and class counts in ``n_bins`` score bins after that; ``compute``
returns a :class:`BinnedEvaluation` whose AUROC, AP and AUPRG are :class:`AreaBounds`: intervals
that contain the exact value, with an estimate inside. The bounds are computed in
:mod:`._bounds`; the two result classes are in ``streaming_results`` (re-exported here).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from .._core.caller import current_caller
from .._core.constraints import ARRAY, POS_LABEL, InBody, in_body, validate_params
from .._core.html import html_table
from .._core.validation import (
    as_1d,
    as_sample_weight,
    check_consistent_length,
    check_integer,
    check_labels,
    check_option,
    check_real_array,
    check_sample_weight,
    check_scores,
    infer_pos_label,
    label_set,
)
from .._typing import ArrayLike, FloatArray
from ..exceptions import InvalidParameterError, IsometricsError
from ..spaces.operating_points import OperatingPoints
from ._binning import Bins, State, bin_summary, combine, uniform_edges
from ._bounds import binned_areas, widen
from ._edges import EdgeIndex, absorb
from .batches import BatchSource, checked_batches
from .streaming_results import AreaBounds, BinnedEvaluation

__all__ = ["AreaBounds", "BinnedEvaluation", "BinnedCountTable"]

Strategy = Literal["quantile", "uniform"]


class BinnedCountTable:
    r"""An accumulator of class counts in score bins: AUROC, AP and AUPRG with guaranteed error bounds.

    Feed it batches with :meth:`update`, combine accumulators of disjoint data with
    :meth:`merge`, and read :meth:`compute`: each area comes as an :class:`AreaBounds`
    ``[lower, upper]`` that contains the exact value on all the data seen, with an estimate
    inside. Memory is constant: at most ``bins`` distinct scores (three floats each: the score
    and each class's weight) or bins (five floats each: the edge, each class's weight and
    each class's score sum).

    While the scores take at most ``n_bins`` distinct values the accumulator keeps the exact
    count table (every distinct score with the weight of each class), and the areas are
    exact: ``lower == upper ==`` the exact engine's value. The first batch that would make
    more distinct values turns it into bins, for good:

    * ``strategy="quantile"`` (default, data-adapted): edges at the quantiles of the scores
      known at that moment (the distinct values kept so far and that batch, evenly
      subsampled beyond 262,144 samples), each sample weighing half its share of all the
      weight and half its share of its class, so a rare class gets bins where it lies (tied
      scores in class order; unweighted, an edge is a score of the data, or at most one unit
      in the last place below one when some score is negative);
    * ``strategy="uniform"``: ``n_bins`` equal-width bins on ``score_range``;
    * ``bins=`` an array of edges: those bins.

    The first and last bins are open (scores outside the range or the edges fall there and
    widen the bounds, never break them). Ties, bins and batches never change the guarantee.

    .. math::

        \mathrm{AUROC} \in \Big[\tfrac{1}{PN}\sum_b p_b N_{<b},\;
        \tfrac{1}{PN}\sum_b p_b (N_{<b} + n_b)\Big]

    Parameters
    ----------
    bins : int or array-like of shape (n_edges,), default=1000
        An int: the most distinct scores kept exactly, and then the number of bins (>= 2).
        An array: the interior edges of the bins, finite and strictly increasing (bin ``b``
        holds ``edges[b-1] <= y_score < edges[b]``; ``len(edges) + 1`` bins).
    strategy : {"quantile", "uniform"}, default=None
        How bins are chosen when ``bins`` is an int: ``None`` means ``"quantile"``. Not
        allowed with an array of edges.
    score_range : tuple of float, default=(0.0, 1.0)
        ``(low, high)`` of the equal-width bins of ``strategy="uniform"``, ``low < high``.
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).

    Raises
    ------
    InvalidParameterError
        If ``bins`` is not an int >= 2 or an array of at least one finite, strictly
        increasing edge; if ``strategy`` is unknown or given with edges; if
        ``score_range`` is not two finite numbers with ``low < high`` (far enough apart
        for ``bins`` distinct edges); if ``pos_label`` is not one label.

    See Also
    --------
    OperatingPoints : the exact engine (all distinct scores in memory).
    OperatingPoints.merge : exact merging of exact count tables.

    Notes
    -----
    Bins ``b`` in decreasing score order hold weights ``p_b`` of positives and ``n_b`` of
    negatives; above bin ``b`` lie ``T_b`` positives and ``F_b`` negatives, ``K_b = T_b + F_b``;
    ``P`` and ``N`` are the class totals. Between bins the order of the samples is known;
    inside a bin it is not, and the bounds are the extremes over every order (and every tie
    grouping) inside every bin. Each bin's part of an area depends only on the order inside
    it, the counts above and below it being fixed, so the bounds add up bin by bin.

    *AUROC* is the share of (positive, negative) pairs ranked right, a tie counting 1/2. A
    pair in different bins is ranked right exactly when the positive's bin is higher; the
    ``p_b n_b`` pairs of bin ``b`` count between 0 and 1 each. Hence the interval above, of
    width :math:`\sum_b p_b n_b / (PN)`.

    *AUPRG* is the integral of precision gain :math:`1 - \frac{P}{N}\frac{FP}{TP}` over recall
    gain :math:`1 - \frac{P}{N}\frac{P - TP}{TP}` along the ROC path from recall gain 0
    (the trapezoid rule of :func:`auprg` is this integral: straight ROC segments are
    straight in PRG space). Recall gain depends on ``TP`` alone, and precision gain
    decreases in ``FP`` at a fixed ``TP``; inside bin ``b`` the path stays in the box from
    ``(F_b, T_b)`` to ``(F_b + n_b, T_b + p_b)``, so the path "positives first" (``FP = F_b``
    while ``TP`` rises) gives the upper bound and "negatives first" the lower one. Both are
    computed by the exact engine on the table with every bin split into its positives and
    its negatives.

    *AP* gives each positive the precision at the end of its tie group:
    :math:`\mathrm{AP} = \frac{1}{P}\sum_g p_g\,\mathrm{prec}_g`. Inside bin ``b`` let group
    ``g`` end after ``A_g`` of the bin's positives and ``B_g <= n_b`` of its negatives; its
    precision :math:`\frac{T_b + A_g}{K_b + A_g + B_g}` lies between
    :math:`h(A_g) = \frac{T_b + A_g}{K_b + n_b + A_g}` and :math:`\frac{T_b + p_b}{K_b + p_b}`
    (``B_g >= 0``, ``A_g <= p_b``, both fractions increasing in ``A`` as ``K_b >= T_b``).
    So the bin's part is at most :math:`p_b \frac{T_b + p_b}{K_b + p_b}` (its positives
    first, tied) and at least :math:`\sum_g p_g h(A_g) \ge \int_0^{p_b} h(a)\,da = p_b -
    (K_b + n_b - T_b)\ln\big(1 + \frac{p_b}{K_b + n_b}\big)`, a right Riemann sum of an
    increasing function being at least its integral (its positives last, each alone).

    Each bound is then widened by ``1e-9`` (relative, at least absolute) to absorb the
    rounding of the exact engine, which adds the same numbers in another order. With
    weights that are not whole numbers the exact value itself depends on the order of
    addition (as for :meth:`OperatingPoints.merge`), so an exact accumulator that has seen
    such weights reports its value widened the same way; with whole-number weights (or
    none) it reports ``lower == upper ==`` the engine's value, bit for bit.

    The *estimate* models each class's scores inside a bin by a power law
    (:math:`F(t) = t^k` or :math:`1 - (1 - t)^k` on the bin's width) with the class's
    observed mean there, and integrates each area along the modelled path (Gauss-Legendre,
    24 nodes per bin); for AUROC it is exact when one class is spread uniformly in the bin.
    Treating each bin as one tie group instead (the midpoint of the AUROC interval, and what
    a threshold grid gives) is :attr:`BinnedEvaluation.operating_points`.

    No batch is sorted: a score's bin comes from a lookup table of the edges and one
    comparison (exactly the bin of a binary search), the counts from ``np.bincount``; the
    quantile edges from one sort of 64-bit keys holding score and class, by the sort
    measured fastest on the machine (``isometrics --version --verbose`` prints it).

    Data-adapted edges are fixed at the first overflow: a stream whose scores drift later
    keeps valid bounds, only wider. Two accumulators merge when both are exact, when one is
    exact, or when their bins have the same edges (uniform or given edges always do; give
    the quantile edges of one, ``bins=first.edges``, to the others).

    References
    ----------
    .. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
       NeurIPS 2015 (the PRG curve and its area).
    .. [2] F. McSherry and M. Najork, "Computing Information Retrieval Performance Measures
       Efficiently in the Presence of Tied Scores", ECIR 2008 (areas over the orders of tied
       scores).

    Examples
    --------
    >>> import numpy as np
    >>> from isometrics.scale import BinnedCountTable
    >>> from isometrics import auroc
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 100_000)
    >>> s = rng.normal(size=100_000) + y
    >>> acc = BinnedCountTable(200)
    >>> for start in range(0, 100_000, 10_000):
    ...     _ = acc.update(y[start:start + 10_000], s[start:start + 10_000])
    >>> result = acc.compute()
    >>> result.exact, result.auroc.contains(auroc(y, s))
    (False, True)
    >>> print(f"AUROC in [{result.auroc.lower:.4f}, {result.auroc.upper:.4f}], estimate {result.auroc.estimate:.6f}")
    AUROC in [0.7570, 0.7611], estimate 0.759061
    >>> print(f"exact {auroc(y, s):.6f}")
    exact 0.759062
    """

    @validate_params(
        in_body("bins", "strategy", "score_range") | {"pos_label": [POS_LABEL, None]}, name="BinnedCountTable"
    )
    def __init__(
        self,
        bins: int | ArrayLike = 1000,
        *,
        strategy: Strategy | None = None,
        score_range: tuple[float, float] = (0.0, 1.0),
        pos_label: Any = None,
    ) -> None:
        if isinstance(bins, (int, np.integer, float, np.floating)) and not isinstance(bins, (bool, np.bool_)):
            n_bins = check_integer(bins, "bins", low=2)
            chosen = check_option("quantile" if strategy is None else strategy, "strategy", ("quantile", "uniform"))
            if chosen == "uniform":
                low, high = self._check_range(score_range)
                edges = uniform_edges(low, high, n_bins)
                with np.errstate(over="ignore", divide="ignore"):
                    scale = n_bins / (high - low)
                if (
                    not np.isfinite(scale)
                    or not np.isfinite(high - low)
                    or not (np.diff(edges) > 0).all()
                    or edges[0] <= low
                    or edges[-1] >= high
                ):
                    raise InvalidParameterError(
                        f"{current_caller()}: `score_range` {(low, high)!r} is too narrow or too wide for {n_bins} distinct "
                        "equal-width bin edges in float64; give a range of ordinary magnitude (or fewer bins)."
                    )
                self._bins = Bins(n_bins, edges, (low, high))
            else:
                self._bins = Bins(n_bins, None)
        else:
            if strategy is not None:
                raise InvalidParameterError(
                    f"{current_caller()}: `strategy` applies to a number of bins; got strategy={strategy!r} with an array of "
                    "edges. Pass either bins=<int> with a strategy, or the edges alone."
                )
            edges = check_real_array(bins, "bins", shape="(n_edges,)")
            if edges.ndim != 1 or edges.size == 0 or not np.isfinite(edges).all() or not (np.diff(edges) > 0).all():
                raise InvalidParameterError(
                    f"{current_caller()}: `bins` as edges must be a 1-D array of at least one finite, strictly increasing "
                    f"value; got {edges.size} value(s) of shape {edges.shape}. Pass an int for a number of bins."
                )
            chosen = "edges"
            self._bins = Bins(len(edges) + 1, edges.copy())
        self._strategy = chosen
        self._pos_label = pos_label
        self.reset()

    @staticmethod
    def _check_range(score_range: Any) -> tuple[float, float]:
        values = check_real_array(score_range, "score_range", shape="(2,)")
        if values.shape != (2,) or not np.isfinite(values).all() or not values[0] < values[1]:
            raise InvalidParameterError(
                f"{current_caller()}: `score_range` must be two finite numbers (low, high) with low < high; got {score_range!r}."
            )
        return float(values[0]), float(values[1])

    def reset(self) -> None:
        """Forget every sample: back to the empty, exact state (the bins and ``pos_label`` stay)."""
        self._state = State()
        self._labels: tuple[Any, ...] = ()
        self._index: list[EdgeIndex] = []  # the lookup of the current edges, built once
        self._rows, self._weighted = 0, False  # rows seen (zero weights included); whether weights were given

    # ------------------------------------------------------------------ views
    @property
    def n_bins(self) -> int:
        """The most distinct scores kept exactly, and the number of bins after that."""
        return self._bins.n_bins

    @property
    def strategy(self) -> str:
        """``"quantile"``, ``"uniform"`` or ``"edges"`` (given edges)."""
        return self._strategy

    @property
    def exact(self) -> bool:
        """Whether the counts are still the exact count table."""
        return self._state.edges is None

    @property
    def edges(self) -> FloatArray | None:
        """The interior bin edges, increasing (a copy), or ``None`` while exact with data-adapted bins."""
        edges = self._state.edges if self._state.edges is not None else self._bins.edges
        return None if edges is None else edges.copy()

    @property
    def pos_label(self) -> Any:
        """The positive class: as given, or inferred from the labels seen (``None`` before any)."""
        return self._resolve_pos_label(self._labels) if self._labels else self._pos_label

    @property
    def n_positives(self) -> float:
        """Total weight of the positives seen."""
        return float(self._state.pos.sum())

    @property
    def n_negatives(self) -> float:
        """Total weight of the negatives seen."""
        return float(self._state.neg.sum())

    def __repr__(self) -> str:
        used = len(self._state.pos) if self.exact else int(np.count_nonzero(self._state.pos + self._state.neg))
        kept = f"n_values={used}" if self.exact else f"n_bins_used={used}"
        return (
            f"BinnedCountTable(n_bins={self.n_bins}, strategy={self._strategy!r}, exact={self.exact}, {kept}, "
            f"n_positives={self.n_positives:g}, n_negatives={self.n_negatives:g}, pos_label={self.pos_label!r})"
        )

    def _repr_html_(self) -> str:
        rows = [
            ("n_bins", self.n_bins),
            ("strategy", self._strategy),
            ("exact", self.exact),
            ("positives (weighted)", self.n_positives),
            ("negatives (weighted)", self.n_negatives),
            ("positive class", self.pos_label),
        ]
        return html_table(("", "value"), rows, caption="BinnedCountTable")

    # ------------------------------------------------------------------ labels
    def _resolve_pos_label(self, labels: tuple[Any, ...]) -> Any:
        if self._pos_label is not None:
            if len(labels) == 2 and self._pos_label not in labels:
                raise IsometricsError(
                    f"{current_caller()}: pos_label={self._pos_label!r} is not a label of y_true (labels seen: "
                    f"{list(labels)!r}); pass one of them as pos_label when building the accumulator."
                )
            return self._pos_label
        return infer_pos_label(np.array(labels))

    # ------------------------------------------------------------------ accumulating
    @validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": ARRAY}, name="BinnedCountTable.update")
    def update(self, y_true: ArrayLike, y_score: ArrayLike, sample_weight: ArrayLike | None = None) -> BinnedCountTable:
        """Add a batch of samples; a batch with bad input raises and changes nothing.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            True binary labels. Across all batches, at most two labels.
        y_score : array-like of shape (n_samples,)
            Scores, higher meaning more likely positive; finite.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative sample weights. ``None`` weighs every sample 1.

        Returns
        -------
        BinnedCountTable
            This accumulator (updated in place), so that calls chain.

        Raises
        ------
        ValueError
            If the arrays have different lengths; if ``y_score`` has NaN or infinite values
            or is not numeric; if ``y_true`` is not labels or brings the labels seen to more
            than two, or ``pos_label`` is None and cannot be inferred, or is not one of two
            labels seen; if ``sample_weight`` has negative or non-finite values. The
            accumulator is then exactly as before the call. An empty batch, or one whose
            weights are all 0, adds no sample (its labels still count as seen).
        """
        y = as_1d(y_true, name="y_true")
        s = as_1d(y_score, name="y_score")
        w = as_sample_weight(sample_weight)
        if len(y) == len(s) == 0 and (w is None or len(w) == 0):
            return self
        check_consistent_length(y_true=y, y_score=s, sample_weight=w)
        y = check_labels(y, name="y_true")
        scores = check_scores(s)
        # a batch whose weights are all 0 adds no sample (the shared check refuses it for a whole data set)
        silent = w is not None and w.dtype.kind in "biuf" and not (np.asarray(w, dtype=np.float64) != 0).any()
        weights = check_sample_weight(np.ones(len(scores)) if silent else w, len(scores))
        if silent:
            weights = np.zeros(len(scores))
        return self._absorb(y, scores, weights, w is not None)

    @validate_params(
        in_body("label", "score", "sample_weight") | {"source": InBody("a BatchSource")},
        name="BinnedCountTable.update_from",
    )
    def update_from(
        self, source: BatchSource, *, label: str, score: str, sample_weight: str | None = None
    ) -> BinnedCountTable:
        """Add every batch of a source: columns in memory, Arrow batches (from DuckDB), a Dask partition.

        The rows are checked once, by :func:`isometrics.scale.batches.check_batch` (what
        every scale path's rows go through), and counted as :meth:`update` counts them.

        Parameters
        ----------
        source : BatchSource
            :class:`~isometrics.scale.batches.ColumnsSource`,
            :class:`~isometrics.scale.batches.ArrowSource` (``ArrowSource.from_files``: Parquet or
            CSV files read by DuckDB) or a Dask partition's source.
        label, score : str
            The label column and the score column.
        sample_weight : str, default=None
            The weight column; ``None`` weighs every row 1.

        Returns
        -------
        BinnedCountTable
            This accumulator (updated in place), so that calls chain.

        Raises
        ------
        InvalidParameterError
            If ``source`` is not a batch source or a column name is not a str.
        IsometricsError
            If a column is missing, or a value is bad (as :func:`~isometrics.scale.batches.check_batch`
            says), or the labels seen come to more than two. The accumulator is then exactly
            as before the call.
        """
        for what, name in (("label", label), ("score", score), ("sample_weight", sample_weight)):
            if not isinstance(name, str) and not (what == "sample_weight" and name is None):
                raise InvalidParameterError(
                    f"{current_caller()}: `{what}` must name a column (a str); got {name!r}; pass the column's name."
                )
        saved = self._state, self._labels, self._rows, self._weighted
        try:
            for batch in checked_batches(source, label=label, scores=[score], weight=sample_weight):
                if batch.n_rows:
                    self._absorb(batch.y_true, batch.scores[score], batch.sample_weight, sample_weight is not None)
        except BaseException:
            self._state, self._labels, self._rows, self._weighted = saved
            raise
        return self

    def _absorb(
        self, y: np.ndarray, scores: FloatArray, weights: FloatArray | None, weighted: bool
    ) -> BinnedCountTable:
        """Count checked rows (labels, finite scores, finite weights >= 0), all or nothing."""
        labels = _union_labels(self._labels, label_set(y))
        pos_label = self._resolve_pos_label(labels)
        is_pos = np.asarray(y if y.dtype == np.bool_ and pos_label is True else y == pos_label, dtype=np.bool_)
        if weights is not None and not (keep := weights > 0).all():
            scores, is_pos, weights = scores[keep], is_pos[keep], weights[keep]
        state = absorb(self._state, scores, is_pos, weights, self._bins, self._index)
        self._state, self._labels = state, labels  # all or nothing: nothing above changed self
        self._rows, self._weighted = self._rows + len(y), self._weighted or weighted
        return self

    @validate_params({"others": InBody("BinnedCountTable accumulators")}, name="BinnedCountTable.merge")
    def merge(self, *others: BinnedCountTable) -> BinnedCountTable:
        """Add the counts of accumulators of other data (disjoint from this one's).

        Parameters
        ----------
        *others : BinnedCountTable
            Accumulators built with the same ``pos_label``, whose bins agree with this one's:
            exact ones merge with any; binned ones must have this one's edges (when this one
            is binned or has fixed edges; an exact one with data-adapted bins takes theirs).
            The union keeps this accumulator's settings.

        Returns
        -------
        BinnedCountTable
            This accumulator (updated in place): its counts are those of the union of the
            data. With exact accumulators, or bins of the same edges, and whole-number
            weights, the same as one accumulator fed all the batches.

        Raises
        ------
        InvalidParameterError
            If one of ``others`` is not a ``BinnedCountTable``, was built with another
            ``pos_label``, or is binned with other edges than this one's.
        ValueError
            If together they hold more than two labels, or labels that contradict
            ``pos_label``. This accumulator is then unchanged.
        """
        state, labels, rows, weighted = self._state, self._labels, self._rows, self._weighted
        for k, other in enumerate(others):
            if not isinstance(other, BinnedCountTable):
                raise InvalidParameterError(
                    f"{current_caller()}: `others[{k}]` is a {type(other).__name__}, not a BinnedCountTable; pass accumulators."
                )
            self._check_compatible(other, state, k)
            if other._labels:
                labels = _union_labels(labels, other._labels)
                self._resolve_pos_label(labels)
            state = combine(state, other._state, self._bins)
            rows, weighted = rows + other._rows, weighted or other._weighted
        self._state, self._labels, self._rows, self._weighted = state, labels, rows, weighted
        return self

    def _check_compatible(self, other: BinnedCountTable, state: State, k: int) -> None:
        if other._pos_label != self._pos_label:
            raise InvalidParameterError(
                f"{current_caller()}: `others[{k}]` was built with pos_label={other._pos_label!r}, this one with "
                f"pos_label={self._pos_label!r}; build every accumulator with the same pos_label."
            )
        if other._state.edges is None:
            return  # an exact table bins into any edges
        # the edges the union must have: this one's if binned or fixed in advance; data-adapted ones adopt
        mine = state.edges if state.edges is not None else self._bins.edges
        if mine is not None and not np.array_equal(mine, other._state.edges):
            raise InvalidParameterError(
                f"{current_caller()}: `others[{k}]` has other bin edges than this accumulator ({len(other._state.edges) + 1} "
                f"bins against {len(mine) + 1}; data-adapted bins are chosen from each one's own data); counts in "
                "different bins cannot be added. Build the accumulators with the same edges (bins=first.edges), "
                "or with strategy='uniform' and the same score_range."
            )

    # ------------------------------------------------------------------ results
    @validate_params({}, name="BinnedCountTable.compute")
    def compute(self) -> BinnedEvaluation:
        """The areas known from the counts so far, each as a guaranteed interval, and the bins' operating points.

        Returns
        -------
        BinnedEvaluation
            AUROC, average precision and AUPRG as :class:`AreaBounds`; exact (``lower ==
            upper``) while the accumulator is exact.

        Raises
        ------
        ValueError
            If no sample has been seen, or only one class (with positive weight); if the
            class weights are so unequal (a ratio near float64's range) that precision
            gain, hence AUPRG, is undefined or not finite.
        """
        state = self._state
        P, N = float(state.pos.sum()), float(state.neg.sum())
        if not len(state.pos):
            raise IsometricsError(f"{current_caller()}: no samples yet; call update(y_true, y_score) first.")
        if not (P > 0 and N > 0):
            missing = "positive" if not P > 0 else "negative"
            raise IsometricsError(
                f"{current_caller()}: y_true has one class so far (no {missing} samples with positive weight, "
                f"pos_label={self.pos_label!r}); the areas need both classes: update with samples of both."
            )
        pos_label = self.pos_label
        if state.edges is None:
            assert state.values is not None
            op = OperatingPoints.from_counts(state.values, state.pos, state.neg, pos_label=pos_label)
            areas = {
                name: (v, v, v)
                for name, v in (
                    ("auroc", op.auroc()),
                    ("average_precision", op.average_precision()),
                    ("auprg", op.auprg()),
                )
            }
            if not state.whole:  # sums of fractional weights depend on their order: the engine's may differ
                areas = {name: (*widen(v, v, -np.inf, np.inf), v) for name, (v, _, _) in areas.items()}
            used = len(state.values)
        else:
            lower, pos, neg, mean_pos, mean_neg = bin_summary(state)
            op = OperatingPoints.from_counts(lower, pos, neg, pos_label=pos_label)
            areas = binned_areas(pos, neg, mean_pos, mean_neg)
            used = int(np.count_nonzero(pos + neg))
        for name, values in areas.items():
            if not np.isfinite(values).all():
                raise IsometricsError(
                    f"{current_caller()}: {name} is not finite in float64 for these weights (positives weigh "
                    f"{P:g}, negatives {N:g}: their ratio is too extreme for precision and recall gain); divide "
                    "the weights of the heavier class by a constant, or leave this area out."
                )
        return BinnedEvaluation(
            **{name: AreaBounds(*v) for name, v in areas.items()},
            exact=state.edges is None,
            n_bins=used,
            n_positives=P,
            n_negatives=N,
            pos_label=pos_label,
            operating_points=op,
            n_samples=self._rows,
            weighted=self._weighted,
        )


def _union_labels(seen: tuple[Any, ...], present: Any) -> tuple[Any, ...]:
    """The labels ``seen`` so far and those ``present`` in a batch (at most two, of one kind), checked."""
    union = list(seen)
    for value in present:
        value = value.item() if isinstance(value, np.generic) else value
        if value not in union:
            union.append(value)
    if len({isinstance(v, str) for v in union}) > 1:
        raise IsometricsError(
            f"{current_caller()}: y_true mixes label types across batches ({union!r}); use one type for all labels."
        )
    if len(union) > 2:
        raise IsometricsError(
            f"{current_caller()}: y_true has {len(union)} classes across the batches seen ({union!r}), but this is a "
            "binary evaluation; binarise y_true (one class against the rest) before updating."
        )
    return tuple(union)
