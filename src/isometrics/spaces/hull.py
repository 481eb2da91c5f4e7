"""Convex hulls in ROC and PRG space, and randomised classifiers on them.

The ROC convex hull is the Pareto front of the classifiers reachable by thresholding
the scores and randomly mixing two thresholds. PRG coordinates are a projective image
of ROC coordinates (``precision_gain = 1 - fpr/tpr`` and ``recall_gain`` are affine in
``(1/tpr, fpr/tpr)``), so straight ROC segments are straight PRG segments and the PRG
hull is the image of the ROC hull.

References
----------
.. [1] F. Provost and T. Fawcett, "Robust Classification for Imprecise Environments",
   Machine Learning 42(3):203-231, 2001.
.. [2] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
   NeurIPS 2015 (section 4: the PRG convex hull and calibration).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core.bounds import BOUND_RTOL, fmt_bound, loosest, meets_bound, near_bound
from .._core.constraints import ARRAY, POS_LABEL, InBody, in_body, validate_params
from .._core.count_table import CountTable, Quantity, table_from_scores
from .._core.docstrings import fill_doc
from .._core.html import summarised
from .._core.validation import check_integer, check_real, check_rng, check_scores, check_unit_interval
from .._typing import ArrayLike, FloatArray
from ..exceptions import IsometricsError
from ..metrics._arguments import parse_metric_argument
from ..metrics.gain import gain_transform
from ._terms import CHUNK

__all__ = [
    "PRG_HULL",
    "ROC_HULL",
    "RocHull",
    "PrgHull",
    "RandomizedClassifier",
    "HullOptimum",
    "roc_convex_hull",
    "prg_convex_hull",
]


def upper_hull_indices(op: CountTable) -> np.ndarray:
    """Find the vertices of the upper convex hull of the table's (fp, tp) points.

    Run by run, as the sweep does (:mod:`.sweep`): the hull of the vertices found so far and
    the next run of points. A point under the hull of some of the points is under the hull
    of all, so nothing is lost, and no temporary is longer than a run.

    Parameters
    ----------
    op : CountTable
        The operating points; pass a table in units that cannot overflow in the cross
        products (``op.rates`` or ``op.normalised``).

    Returns
    -------
    ndarray of intp
        Increasing indices of the hull's vertices among the table's points.
    """
    x, y = op.fp, op.tp
    n = len(x)
    if n <= CHUNK:
        return _upper_hull(x, y)
    idx = np.empty(0, dtype=np.intp)
    for a in range(0, n, CHUNK):  # the run's own hull, then the hull of those vertices and the ones so far
        candidates = np.concatenate((idx, _upper_hull(x[a : a + CHUNK], y[a : a + CHUNK]) + a))
        idx = candidates[_upper_hull(x[candidates], y[candidates])]
    return idx


def _upper_hull(x: FloatArray, y: FloatArray) -> np.ndarray:
    """Indices of the vertices of the upper convex hull of the points (x, y), both non-decreasing.

    The first and the last point are always kept.

    Exact for integer counts (cross products of counts below 2**53). Three steps, all
    vectorised: keep the points entered by a rise and left by a run (a strict right turn
    needs both: the only possible vertices); discard those under the hull of an evenly
    spaced subset (which lies inside the full hull); then remove points that do not turn
    right until none is left.
    """
    n = len(x)
    if n <= 2:
        return np.arange(n)
    dx = np.diff(x)
    # A strict right turn at point i needs a rise into it and a run out of it
    # (dy_in * dx_out > dx_in * dy_out >= 0).
    rises = np.flatnonzero(np.diff(y) > 0)
    rises = rises[rises < len(dx) - 1]
    turn = rises[dx[rises + 1] > 0]  # the exact turn test is left to the pruning below
    candidates = np.concatenate(([0], turn + 1, [n - 1]))
    while len(candidates) > 4096:
        step = len(candidates) // 1024
        positions = np.append(np.arange(0, len(candidates) - 1, step), len(candidates) - 1)
        subset = _prune(x, y, candidates[positions])
        xc, yc = x[candidates], y[candidates]
        keep = yc > np.interp(xc, x[subset], y[subset])
        keep[np.searchsorted(candidates, subset)] = True  # the subset's hull stays
        keep[0] = keep[-1] = True
        reduced = candidates[keep]
        done = len(reduced) > 0.9 * len(candidates)
        candidates = reduced
        if done:
            break
    return _prune(x, y, candidates)


def _prune(x: FloatArray, y: FloatArray, idx: np.ndarray) -> np.ndarray:
    """Drop points that do not make a strict right turn until the chain is convex."""
    xi, yi = x[idx], y[idx]
    while len(idx) > 2:
        dxi, dyi = np.diff(xi), np.diff(yi)
        keep = np.ones(len(idx), dtype=bool)
        keep[1:-1] = dxi[:-1] * dyi[1:] - dyi[:-1] * dxi[1:] < 0
        if keep.all():
            break
        idx, xi, yi = idx[keep], xi[keep], yi[keep]
    return idx


@summarised()
@dataclass(frozen=True)
class RandomizedClassifier:
    """A classifier on a hull segment: two thresholds and a mixing probability.

    Predict positive when ``y_score >= threshold_high``; when
    ``threshold_low <= y_score < threshold_high``, predict positive with probability
    ``probability``; otherwise negative. In expectation it reaches ``(fpr, tpr)``.

    Attributes
    ----------
    threshold_high, threshold_low : float
        Thresholds of the segment's two vertices (``threshold_high >= threshold_low``).
    probability : float
        Mixing probability in [0, 1]: 0 is the vertex at ``threshold_high``, 1 the
        vertex at ``threshold_low``.
    fpr, tpr : float
        The expected rates reached, in [0, 1] (``tpr`` is the recall).
    precision : float
        The expected precision reached (ratio of expected counts), in [0, 1]; 1 at the
        origin by the PR convention.
    """

    threshold_high: float
    threshold_low: float
    probability: float
    fpr: float
    tpr: float
    precision: float = float("nan")

    @validate_params(
        {"y_score": ARRAY, "rng": InBody("a numpy.random.Generator or a seed")}, name="RandomizedClassifier.predict"
    )
    def predict(self, y_score: ArrayLike, *, rng: Any = None) -> np.ndarray:
        """Randomised hard predictions for ``y_score`` (array of 0/1, shape (n_samples,)).

        ``rng`` is a ``numpy.random.Generator`` or a seed. Scores are checked as
        everywhere (1-D, numeric, finite); a bad ``rng`` raises ``InvalidParameterError``.
        """
        s = check_scores(y_score)
        generator = check_rng(rng)
        middle = (s >= self.threshold_low) & (s < self.threshold_high)
        coin = generator.random(s.shape) < self.probability
        return ((s >= self.threshold_high) | (middle & coin)).astype(np.int8)


@summarised()
@dataclass(frozen=True)
class HullOptimum:
    """The best point of a hull for a metric: a randomised classifier and the value it reaches.

    Attributes
    ----------
    classifier : RandomizedClassifier
        Thresholds and mixing probability (0 at a vertex).
    value : float
        The metric's value at the expected counts.
    metric : Metric
        The metric optimised.
    """

    classifier: RandomizedClassifier
    value: float
    metric: Any


@summarised()
@dataclass(frozen=True)
class RocHull:
    """Vertices of the ROC convex hull, from (0, 0) to (1, 1).

    Attributes
    ----------
    indices : ndarray of shape (n_vertices,), int
        Indices of the vertices among the operating points (increasing).
    fpr, tpr : ndarray of shape (n_vertices,), float64
        Vertex coordinates, non-decreasing; the first vertex is (0, 0), the last (1, 1).
    thresholds : ndarray of shape (n_vertices,), float64
        Thresholds realising each vertex (decreasing; ``inf`` first).
    slopes : ndarray of shape (n_vertices - 1,), float64
        ``d tpr / d fpr`` of each segment, decreasing (``inf`` for a vertical segment).
        For calibrated scores a segment's slope is an empirical likelihood ratio.
    n_positives, n_negatives : float
        Weighted class totals (to turn rates into precision).
    """

    indices: np.ndarray
    fpr: FloatArray
    tpr: FloatArray
    thresholds: FloatArray
    slopes: FloatArray
    n_positives: float = 1.0
    n_negatives: float = 1.0

    def _precision(self, tpr: float, fpr: float) -> float:
        tp, fp = self.n_positives * tpr, self.n_negatives * fpr
        return 1.0 if tp + fp == 0 else tp / (tp + fp)

    def _on_segment(self, k: int, lam: float) -> RandomizedClassifier:
        lam = min(max(lam, 0.0), 1.0)
        if lam == 1.0:  # a vertex: no randomisation needed
            k, lam = k + 1, 0.0
        if lam == 0.0:  # a vertex's own rates, not a rounding of them
            fpr, tpr = self.fpr[k], self.tpr[k]
        else:
            fpr = self.fpr[k] + lam * (self.fpr[k + 1] - self.fpr[k])
            tpr = self.tpr[k] + lam * (self.tpr[k + 1] - self.tpr[k])
        low = self.thresholds[min(k + 1, len(self.thresholds) - 1)] if lam > 0 else self.thresholds[k]
        return RandomizedClassifier(
            float(self.thresholds[k]),
            float(low),
            float(lam),
            float(fpr),
            float(tpr),
            self._precision(float(tpr), float(fpr)),
        )

    @validate_params(in_body("min_tpr"), name="RocHull.min_fpr_at_tpr")
    @fill_doc
    def min_fpr_at_tpr(self, min_tpr: float) -> RandomizedClassifier:
        """The hull point with the lowest FPR among those with TPR >= ``min_tpr`` (in [0, 1]).

        This is also the best specificity at sensitivity >= ``min_tpr``, reached by
        randomising between two thresholds when it lies inside a segment. Ties in FPR
        (on a vertical first segment) go to the larger TPR: the first vertex.
        ``min_tpr=0`` gives the empty prediction (the origin) unless the first segment
        is vertical.

        Raises
        ------
        InvalidParameterError
            If ``min_tpr`` is not a number in [0, 1].

        Notes
        -----
        %(bound_note_method)s
        """
        k_tpr = check_real(min_tpr, "min_tpr", low=0.0, high=1.0)
        return self._min_fpr_at_tpr(k_tpr)

    def _min_fpr_at_tpr(self, k_tpr: float) -> RandomizedClassifier:
        if self.fpr[1] == 0 and meets_bound(self.tpr[1], k_tpr, "min"):  # the vertical first segment: FPR 0
            return self._on_segment(0, 1.0)
        k = int(np.searchsorted(self.tpr, loosest(k_tpr, "min"), side="left"))  # the first vertex meeting it
        if k == 0:
            return self._on_segment(0, 0.0)
        if near_bound(self.tpr[k], k_tpr):  # the vertex is at the bound as typed: no randomisation
            return self._on_segment(k - 1, 1.0)
        rise = self.tpr[k] - self.tpr[k - 1]
        return self._on_segment(k - 1, (k_tpr - self.tpr[k - 1]) / rise)

    @validate_params(in_body("min_recall"), name="RocHull.max_precision_at_recall")
    @fill_doc
    def max_precision_at_recall(self, min_recall: float) -> RandomizedClassifier:
        """The hull point with the best precision among those with recall >= ``min_recall``.

        Precision is constant along the first segment (a ray from the origin: mixing
        its vertex with the empty prediction keeps its precision at every recall above
        0) and falls after it. So for ``min_recall`` up to the first vertex's recall,
        ``0`` included, the optimum is that vertex (ties go to the larger recall); above,
        it is the hull point at recall ``min_recall``. The empty prediction itself (no
        predicted positive, no precision) never competes, as in
        :func:`isometrics.precision_at_recall`.

        Raises
        ------
        InvalidParameterError
            If ``min_recall`` is not a number in [0, 1].

        Notes
        -----
        %(bound_note_method)s
        """
        k_tpr = check_real(min_recall, "min_recall", low=0.0, high=1.0)
        if meets_bound(self.tpr[1], k_tpr, "min"):
            return self._on_segment(0, 1.0)
        return self._min_fpr_at_tpr(k_tpr)

    @validate_params(in_body("min_precision"), name="RocHull.max_recall_at_precision")
    @fill_doc
    def max_recall_at_precision(self, min_precision: float) -> RandomizedClassifier:
        """The hull point with the best recall among those with precision >= ``min_precision``.

        ``precision >= p`` is the half-plane ``TP (1 - p) >= p FP`` through the origin;
        the optimum is where its boundary crosses the hull (Davis & Goadrich 2006;
        Provost & Fawcett 2001). Ties in recall (a horizontal last segment) go to the
        lower FPR. The origin (no predicted positive) never competes.

        Raises
        ------
        InvalidParameterError
            If ``min_precision`` is not a number in [0, 1].
        IsometricsError
            If no point of the hull reaches ``min_precision`` (the message gives the highest).

        Notes
        -----
        %(bound_note_method)s
        """
        p = check_real(min_precision, "min_precision", low=0.0, high=1.0)
        tp, fp = self.tpr * self.n_positives, self.fpr * self.n_negatives
        with np.errstate(invalid="ignore"):
            precision = tp / (tp + fp)  # decreasing along the hull; NaN at the origin, which never competes
        ok = np.flatnonzero(meets_bound(precision[1:], p, "min")) + 1  # precision >= p as typed (_core.bounds)
        if len(ok) == 0:
            best = int(np.nanargmax(precision[1:])) + 1
            raise IsometricsError(
                f"RocHull.max_recall_at_precision: no point of the hull reaches precision >= {fmt_bound(p)} "
                f"(compared within a relative {BOUND_RTOL:g}); the highest is {fmt_bound(precision[best])}, at "
                f"vertex {best}; lower min_precision."
            )
        k = int(ok[-1])
        margin = tp * (1.0 - p) - p * fp  # > 0 where precision > p
        if k < len(self.fpr) - 1 and self.tpr[k + 1] > self.tpr[k] and not near_bound(precision[k], p):
            # the boundary crosses the rising segment after vertex k (margin[k + 1] < 0)
            return self._on_segment(k, float(margin[k] / (margin[k] - margin[k + 1])))
        k = int(np.searchsorted(self.tpr, self.tpr[k], side="left"))  # ties in recall: the lowest FPR
        return self._on_segment(k - 1, 1.0)

    @validate_params(in_body("fpr"), name="RocHull.randomized")
    def randomized(self, *, fpr: float) -> RandomizedClassifier:
        """The randomised classifier on the hull at false positive rate ``fpr`` (in [0, 1]).

        Raises
        ------
        InvalidParameterError
            If ``fpr`` is not a number in [0, 1].

        Notes
        -----
        A vertex whose FPR is within a relative ``1e-12`` of ``fpr`` is returned as
        that vertex (mixing probability 0), so that a rate typed as a decimal that
        equals a vertex's FPR as a fraction of the counts is not a mixture with a
        rounding residue.
        """
        target = check_real(fpr, "fpr", low=0.0, high=1.0)
        k = int(np.searchsorted(self.fpr, loosest(target, "max"), side="right")) - 1
        k = min(max(k, 0), len(self.fpr) - 2)
        width = self.fpr[k + 1] - self.fpr[k]
        lam = 0.0 if width == 0 else (target - self.fpr[k]) / width
        if near_bound(self.fpr[k], target):  # a vertex at the rate as typed: no randomisation
            target, lam = float(self.fpr[k]), 0.0
        elif near_bound(self.fpr[k + 1], target):
            target, lam = float(self.fpr[k + 1]), 1.0
        lam = min(max(lam, 0.0), 1.0)
        tpr = self.tpr[k] + lam * (self.tpr[k + 1] - self.tpr[k])
        return RandomizedClassifier(
            float(self.thresholds[k]),
            float(self.thresholds[k + 1]),
            float(lam),
            float(target),
            float(tpr),
            self._precision(float(tpr), target),
        )

    @validate_params(in_body("metric", "resolution"), name="RocHull.best_mixture")
    def best_mixture(self, metric: Any, *, resolution: int = 256) -> HullOptimum:
        """The point of the hull (vertex or randomised mixture) where ``metric`` is best.

        Parameters
        ----------
        metric : str or Metric
            Any metric of :func:`isometrics.parse_metric`.
        resolution : int, default=256
            Mixing probabilities tried on each segment (>= 1).

        Returns
        -------
        HullOptimum
            The randomised classifier and the metric's value there.

        Raises
        ------
        InvalidParameterError
            If the metric cannot be parsed or ``resolution`` is not an integer >= 1.

        Notes
        -----
        Metrics that are linear-fractional in the counts (F-beta, precision, recall,
        Youden's J, expected cost) have their optimum over the hull at a vertex, which
        is evaluated exactly: randomisation does not help them. For the other means of
        the family the optimum can lie inside a segment; it is found on a grid of
        ``resolution`` mixing probabilities per segment.
        """
        m = parse_metric_argument(metric)
        resolution = check_integer(resolution, "resolution", low=1)
        lam = np.linspace(0.0, 1.0, resolution + 1)[:-1]  # the segment's far end is the next segment's start
        k = np.repeat(np.arange(len(self.fpr) - 1), len(lam))
        lam_all = np.tile(lam, len(self.fpr) - 1)
        fpr = np.append(self.fpr[k] + lam_all * (self.fpr[k + 1] - self.fpr[k]), self.fpr[-1])
        tpr = np.append(self.tpr[k] + lam_all * (self.tpr[k + 1] - self.tpr[k]), self.tpr[-1])
        P, N = self.n_positives, self.n_negatives
        tp, fp = tpr * P, fpr * N
        values = m.from_counts(tp, fp, P - tp, N - fp)
        score = np.where(np.isnan(values), -np.inf, values if m.greater_is_better else -values)
        top = score.max()
        near = np.flatnonzero(score >= top - 1e-12 * max(1.0, abs(top)))
        at_vertex = near[(np.append(lam_all, 0.0)[near] == 0)]
        best = int(at_vertex[0] if len(at_vertex) else near[0])  # ties (rounding aside) go to a vertex
        if best == len(score) - 1:
            classifier = self._on_segment(len(self.fpr) - 2, 1.0)
        else:
            classifier = self._on_segment(int(k[best]), float(lam_all[best]))
        return HullOptimum(classifier, float(values[best]), m)

    @validate_params(in_body("fpr"), name="RocHull.tpr_at")
    def tpr_at(self, fpr: ArrayLike) -> FloatArray:
        """Hull TPR at the given false positive rates (linear between vertices).

        Raises ``InvalidParameterError`` if a rate is not a number in [0, 1].
        """
        return np.interp(check_unit_interval(fpr, "fpr"), self.fpr, self.tpr)


@summarised()
@dataclass(frozen=True)
class PrgHull:
    """Vertices of the PRG convex hull (the image of the ROC hull, true positives > 0).

    Attributes
    ----------
    indices : ndarray of shape (n_vertices,), int
        Indices of the vertices among the operating points.
    recall_gain, precision_gain : ndarray of shape (n_vertices,), float64
        Vertex coordinates; recall gain increases to 1, the last vertex is the
        always-positive classifier (1, 0).
    thresholds : ndarray of shape (n_vertices,), float64
        Thresholds realising each vertex (decreasing).
    slopes : ndarray of shape (n_vertices,), float64
        ``d precision_gain / d recall_gain`` of the segment ending at each vertex; the
        first is 0, the horizontal ray from recall gain -inf (the ROC segment from the
        origin). Decreasing.
    f_calibrated_scores : ndarray of shape (n_vertices,), float64
        ``1 / (1 - slope)`` for each of those segments, in (0, 1], decreasing: a score
        in the segment ending at vertex ``k`` (thresholds in
        ``(thresholds[k], thresholds[k-1]]``) maps to ``f_calibrated_scores[k]``, and
        thresholding these at ``1/(1 + beta**2)`` gives F-beta-optimal decisions.
    """

    indices: np.ndarray
    recall_gain: FloatArray
    precision_gain: FloatArray
    thresholds: FloatArray
    slopes: FloatArray
    f_calibrated_scores: FloatArray


def _roc_hull(op: CountTable) -> RocHull:
    op.require_both_classes("roc_convex_hull")
    idx = upper_hull_indices(op.rates)  # cross products of counts: in units that cannot overflow (per class)
    fpr = op.fp[idx] / op.n_negatives
    tpr = op.tp[idx] / op.n_positives
    with np.errstate(divide="ignore", invalid="ignore"):
        slopes = np.diff(tpr) / np.diff(fpr)
    return RocHull(idx, fpr, tpr, op.thresholds[idx], slopes, op.n_positives, op.n_negatives)


def _prg_hull(op: CountTable) -> PrgHull:
    op.require_both_classes("prg_convex_hull")
    roc = op.get(ROC_HULL)
    keep = roc.tpr > 0
    idx = roc.indices[keep]
    tp, fp = op.tp[idx], op.fp[idx]
    recall_gain = gain_transform(tp / op.n_positives, op.prevalence)
    precision_gain = gain_transform(tp / (tp + fp), op.prevalence)
    slopes = np.zeros(len(idx))
    with np.errstate(divide="ignore", invalid="ignore"):  # a vertical last segment has slope -inf
        slopes[1:] = np.diff(precision_gain) / np.diff(recall_gain)
        scores = 1.0 / (1.0 - slopes)
    return PrgHull(idx, recall_gain, precision_gain, op.thresholds[idx], slopes, scores)


#: The hulls: the ROC hull in the caller's units (its vertices are found on :attr:`CountTable.rates`).
ROC_HULL = Quantity("roc_convex_hull", _roc_hull, counts="raw", kind="hull")
PRG_HULL = Quantity("prg_convex_hull", _prg_hull, kind="hull")


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def roc_convex_hull(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> RocHull:
    """The ROC convex hull: the classifiers reachable by thresholds and their random mixtures.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    RocHull
        Vertices from (0, 0) to (1, 1) with their thresholds and segment slopes; every
        operating point lies on or below it.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    prg_convex_hull, RocHull.randomized

    Notes
    -----
    Computed on the weighted counts, exactly for integer weights; vertices are strict
    (collinear points are not vertices).

    References
    ----------
    .. [1] F. Provost and T. Fawcett, "Robust Classification for Imprecise
       Environments", Machine Learning 42(3):203-231, 2001.

    Examples
    --------
    >>> from isometrics import roc_convex_hull
    >>> hull = roc_convex_hull([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> hull.fpr, hull.tpr
    (array([0. , 0. , 0.5, 1. ]), array([0. , 0.5, 1. , 1. ]))
    """
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable).get(
        ROC_HULL
    )


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def prg_convex_hull(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> PrgHull:
    """The convex hull of the Precision-Recall-Gain curve, with F-calibrated scores.

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    PrgHull
        Vertices (the ROC hull's vertices with a true positive, mapped to PRG space),
        segment slopes and the F-calibrated score of each segment.

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    roc_convex_hull, isometrics.f_calibrated_scores

    Notes
    -----
    F-beta gain is linear in the gains with slope ``-beta**2``, so it is maximised
    where a line of that slope touches the hull: the vertex between segments of slopes
    ``s_in >= -beta**2 >= s_out``.

    References
    ----------
    .. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
       NeurIPS 2015.

    Examples
    --------
    >>> from isometrics import prg_convex_hull
    >>> hull = prg_convex_hull([1, 1, 0, 0, 1, 0], [.8, .8, .6, .4, .4, .2])
    >>> hull.recall_gain, hull.precision_gain.round(4)
    (array([0.5, 1. , 1. ]), array([1.    , 0.3333, 0.    ]))
    """
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable).get(
        PRG_HULL
    )
