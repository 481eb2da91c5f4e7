"""The terms of every area and the metric values of the threshold search, one segment at a time.

Every area is a sum over the steps between consecutive operating points (in decreasing
threshold order), and every term depends only on the two points of its step and on the
class totals. The functions here take one contiguous run of points *with the point before
it* (arrays ``tp``, ``fp`` of length ``L + 1``; element 0 is the point before the run) and
return the run's ``L`` terms, one per step, zeros where a step adds nothing. Step ``i -> i + 1``
between global points ``i`` and ``i + 1`` is term ``i``: those positions are what
:class:`isometrics._core.summation.BlockSum` aligns its blocks to, so an area summed over
any cutting of the points into runs is the same double. The in-memory engine
(:mod:`.areas`, :mod:`.interpolation`, :mod:`.thresholds`) and the sweep of
:mod:`.sweep` (out of core, Dask) both go through these functions: that, and the aligned
block sums, is what makes their results bit-identical.

The metric values of the threshold search are elementwise in the counts (no value depends
on another point), and the best point is tracked by :class:`_Candidates`, which keeps every
point within a window of the running best and resolves ties exactly at the end, as
:func:`isometrics.best_threshold` does on the whole table.

Counts here are in the magnitude-safe units of ``CountTable.normalised`` (divided by one
power of two, which changes no ratio); :func:`normalising_exponent` gives that power.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from .._core.count_table import CountTable, normalising_exponent
from .._core.summation import BLOCK, BlockSum, aligned_sum
from .._typing import FloatArray
from ..exceptions import IsometricsError
from ..metrics.gain import gain_transform
from ..metrics.kernels import fbeta_from_counts, fill_undefined, precision_from_counts, recall_from_counts
from ..metrics.registry import Metric

#: The smallest normal double: below it a count has lost its relative precision.
_TINY = float(np.finfo(np.float64).tiny)

__all__ = ["normalising_exponent"]

#: Operating points per run when the in-memory engine walks its table: one aligned block, so that
#: a run's temporaries (512 KiB each) stay in the cache, whatever the table's length.
CHUNK = BLOCK

#: A function of one run (``tp``, ``fp`` with the point before; totals ``P``, ``N``) to its terms.
Terms = Callable[[FloatArray, FloatArray, float, float], FloatArray]


# ---------------------------------------------------------------------------------- areas
def auroc_terms(
    tp: FloatArray,
    fp: FloatArray,
    P: float,
    N: float,
    *,
    out: FloatArray | None = None,
    scratch: FloatArray | None = None,
) -> FloatArray:
    """``(FP_i - FP_{i-1}) (TP_{i-1} + TP_i)``: twice the trapezoid of each ROC step, in counts.

    Integers for integer weights, so their sum (twice the Mann-Whitney U, below ``2 P N``) is
    exact while it stays below 2**53: AUROC is then the correctly rounded ``U / (P N)``.
    ``out`` and ``scratch`` (``len(tp) - 1`` each), when given, hold the terms and the steps.
    """
    terms = np.add(tp[:-1], tp[1:], out=out)
    terms *= np.subtract(fp[1:], fp[:-1], out=scratch)  # np.diff(fp), without its checks
    return terms


def ap_terms(
    tp: FloatArray,
    fp: FloatArray,
    P: float,
    N: float,
    precision: FloatArray | None = None,
    *,
    out: FloatArray | None = None,
) -> FloatArray:
    """``(TP_i - TP_{i-1}) precision_i``: the step-wise AP terms (before dividing by ``P``).

    ``precision`` (aligned with ``tp``), when a PR curve already holds it: the same doubles;
    the terms are then written into ``out`` when given (``len(tp) - 1``).
    """
    end_tp = tp[1:]
    if precision is None:
        predicted = np.add(end_tp, fp[1:])
        # Nothing predicted positive happens only at the origin, which ends no step; a zero step
        # there (zero-weight groups passed to the sweep) adds nothing.
        terms = np.divide(end_tp, predicted, out=np.zeros_like(predicted), where=predicted > 0)
        terms *= np.subtract(end_tp, tp[:-1])
        return terms
    terms = np.subtract(end_tp, tp[:-1], out=out)  # np.diff(tp)
    terms *= precision[1:]  # the same product as precision * diff(tp): multiplication commutes exactly
    return terms


def auprg_terms(
    tp: FloatArray,
    fp: FloatArray,
    P: float,
    N: float,
    recall_gain: FloatArray | None = None,
    precision_gain: FloatArray | None = None,
    *,
    out: FloatArray | None = None,
    scratch: FloatArray | None = None,
) -> FloatArray:
    """Trapezoids in (recall gain, precision gain) from recall gain 0 on.

    Steps that end before recall gain 0 (``TP < P**2 / (P + N)``, recall below the
    prevalence) add nothing; the step that crosses it adds the part from the crossing,
    whose counts are interpolated on the ROC segment (exact: straight ROC segments are
    straight PRG segments); every later step adds its trapezoid. The gains (aligned with
    ``tp``), when a PRG curve already holds them: the same doubles. ``out`` and ``scratch`` (at
    least ``len(tp) - 1`` each), when given, hold the trapezoids and the recall-gain steps.
    """
    L = len(tp) - 1
    pi = P / (P + N)
    tp_cross = P * P / (P + N)
    if not tp_cross >= _TINY:
        # Recall gain 0 lies at TP = P * prevalence > 0; when that underflows, the crossing step
        # cannot be located or interpolated (0/0), so the area would be a NaN: say so instead.
        raise IsometricsError(
            "AUPRG is undefined here in float64: the positives' share of the weight "
            f"({pi!r}) is so small that recall gain 0 (at TP = P * prevalence = {P!r} * {pi!r}) underflows; "
            "check the sample weights (the classes' total weights differ by a factor beyond about 1e300), "
            "or leave out PRG quantities such as auprg for these data."
        )
    j = int(np.searchsorted(tp, tp_cross, side="left"))  # first point (of the L + 1) past the crossing
    terms = np.zeros(L) if j > 0 or L == 0 else np.empty(0)
    if j > L:
        return terms
    end_tp, end_fp = tp[j:], fp[j:]
    if recall_gain is None or precision_gain is None:
        rg = gain_transform(end_tp / P, pi)
        pg = gain_transform(end_tp / (end_tp + end_fp), pi)
    else:
        rg, pg = recall_gain[j:], precision_gain[j:]
    if len(rg) > 1:
        steps = len(rg) - 1
        trapezoids = np.add(pg[:-1], pg[1:], out=None if out is None else out[:steps])
        trapezoids *= np.subtract(rg[1:], rg[:-1], out=None if scratch is None else scratch[:steps])  # np.diff(rg)
        trapezoids *= 0.5
        if j == 0:  # the whole run lies past the crossing (every run after the first few)
            return trapezoids
        terms[j:] = trapezoids
    if j > 0:  # the step (j - 1, j) crosses recall gain 0: from the crossing to point j
        alpha = (tp_cross - tp[j - 1]) / (tp[j] - tp[j - 1])
        fp_cross = fp[j - 1] + alpha * (fp[j] - fp[j - 1])
        pg_cross = 1.0 - (P / N) * fp_cross / tp_cross
        terms[j - 1] = rg[0] * (pg_cross + pg[0]) / 2.0
    return terms


def _gain_ready(P: float, N: float) -> None:
    gain_transform(np.ones(1), P / (P + N))  # raises the engine's error when the prevalence rounds to 1


def interpolated_pr_terms(tp: FloatArray, fp: FloatArray, P: float, N: float) -> FloatArray:
    """The closed-form area under the count-interpolated PR curve of each step (0 where recall stays)."""
    d_tp = np.diff(tp)
    rises = np.flatnonzero(d_tp > 0)
    terms = np.zeros(len(d_tp))
    fp0 = fp[rises]
    terms[rises] = _segment_areas(tp[rises], fp0, d_tp[rises], np.subtract(fp[rises + 1], fp0), P)
    return terms


def _segment_areas(
    tp0: FloatArray, fp0: FloatArray, rise: FloatArray, run: FloatArray, n_positives: float
) -> FloatArray:
    """Closed-form area under the count-interpolated PR curve of steps that start at counts
    (``tp0``, ``fp0``) and add ``rise > 0`` true and ``run`` false positives.

    Along a step from A to B, precision is ``r / (a + b r)`` with ``b = 1 + s``,
    ``a = (FP_A - s TP_A) / P``, ``s = dFP / dTP``; its integral is
    ``[r/b - (a/b**2) ln(a + b r)]`` between the recalls of A and B (see :mod:`.interpolation`).
    """
    start = np.add(fp0, tp0)  # TP + FP at the segment's start
    b = np.divide(run, rise)
    b += 1.0  # b = 1 + s, s = run / rise
    a = np.multiply(b, tp0)
    np.subtract(start, a, out=a)  # a P = FP0 - s TP0 = (TP0 + FP0) - b TP0
    with np.errstate(divide="ignore", invalid="ignore"):
        log_ratio = np.add(start, rise)
        log_ratio += run
        np.divide(log_ratio, start, out=log_ratio)  # (TP1 + FP1) / (TP0 + FP0) = (a + b r1)/(a + b r0)
        np.log(log_ratio, out=log_ratio)
        curvature = a / (b * b)
        curvature *= log_ratio
    curvature[(start == 0) | (a == 0)] = 0.0  # from the origin a = 0: the interpolated precision is flat
    area = rise / b
    area -= curvature
    area /= n_positives
    return area


#: Each area: its per-step terms, how their sum becomes the area, and the range the area lies in.
AREAS: dict[str, tuple[Terms, Callable[[float, float, float], float], float, float]] = {
    "auroc": (auroc_terms, lambda total, P, N: 0.5 * total / (P * N), 0.0, 1.0),  # halving is exact
    "average_precision": (ap_terms, lambda total, P, N: total / P, 0.0, 1.0),
    "auprg": (auprg_terms, lambda total, P, N: total, -math.inf, 1.0),
    "auc_pr_interpolated": (interpolated_pr_terms, lambda total, P, N: total, 0.0, 1.0),
    # the same terms over the ROC hull's vertices (summed by achievable_area)
    "auc_pr_achievable": (interpolated_pr_terms, lambda total, P, N: total, 0.0, 1.0),
}


def area_from_sum(name: str, total: float, P: float, N: float) -> float:
    """The area ``name`` from the aligned sum of its terms, within the area's range.

    The one place every area (in memory, swept, merged) is finished. The terms are each
    rounded, so a sum whose exact value is the bound can land an ulp beyond it: a perfect
    ranking with weights such as 0.56, 0.86, 0.51, 0.26 has the interpolated PR area
    1.0000000000000002. An area outside its mathematical range breaks the promise of the
    docstrings ("in [0, 1]") and every caller that checks it, so the value is clamped to
    the range; it moves by rounding error only, never by more: a larger excursion is a bug,
    and raises rather than being hidden.
    """
    _, finish, low, high = AREAS[name]
    value = float(finish(total, P, N))
    clamped = min(max(value, low), high)
    if abs(clamped - value) > 1e-12:
        raise AssertionError(
            f"internal error: {name} = {value!r} lies outside [{low}, {high}] by more than "
            "rounding; please report it with the data"
        )
    return float(clamped)


def table_area(op: CountTable, name: str, *aligned: FloatArray) -> float:
    """The area ``name`` of a whole (normalised) table, its terms summed run by run.

    ``aligned``: arrays of point values the terms accept when already at hand (cached curves).
    """
    return area_from_sum(name, table_sum(op, AREAS[name][0], *aligned), op.n_positives, op.n_negatives)


def table_sum(op: CountTable, terms: Callable[..., FloatArray], *aligned: FloatArray) -> float:
    """The aligned block sum of ``terms`` over a whole (normalised) table, run by run.

    No temporary is longer than :data:`CHUNK` points, and the result is bit-identical to a
    sweep over any other cutting of the same points. ``aligned`` arrays (one value per
    point) are cut like ``tp`` and passed on.
    """
    acc = BlockSum(0)
    tp, fp = op.tp, op.fp
    P, N = op.n_positives, op.n_negatives
    for k in range(1, op.n_points, CHUNK):
        acc.add(terms(tp[k - 1 : k + CHUNK], fp[k - 1 : k + CHUNK], P, N, *(a[k - 1 : k + CHUNK] for a in aligned)))
    return acc.total()


# ------------------------------------------------------------------------- metric values
def metric_values(tp: FloatArray, fp: FloatArray, P: float, N: float, metric: Metric) -> FloatArray:
    """The metric at points with counts ``tp``, ``fp``; NaN where undefined.

    Elementwise: a point's value does not depend on the other points given, so any cutting
    of the table gives the same values. F-beta uses its count form
    ``TP / (w (TP + FP) + (1 - w) P)``, ``w = 1 / (1 + beta**2)`` (0 where ``TP = 0``); the
    precision-recall family is NaN wherever nothing is predicted positive (TP + FP = 0) if
    the metric needs precision.
    """
    if metric._counts is not None:
        return metric.from_counts(tp, fp, P - tp, N - fp)
    if metric._count_beta is not None and metric._count_beta > 0:
        # No true positive: F-beta is 0, also where it is 0/0 (no positive at all), at every threshold.
        # With positives (P > 0) and beta > 0, fbeta_from_counts leaves no 0/0 (NaN): nothing to fill.
        values = fbeta_from_counts(tp, fp, None, metric._count_beta, positives=P)
        return values if P > 0 else fill_undefined(values, zero_division=0.0, message="")
    direct = _power_mean_direct(tp, fp, P, N, metric)
    if direct is None:
        # Precision 1 where nothing is predicted positive (those points are NaN below if it matters).
        precision = fill_undefined(precision_from_counts(tp, fp, None, None), zero_division=1.0, message="")
        direct = np.array(
            metric.from_precision_recall(precision, recall_from_counts(tp, fp, None, None, positives=P)),
            dtype=np.float64,
        )
    values = direct
    if metric.needs_precision and len(values):
        # No predicted positive (the origin, or points after it that only zero weights reach):
        # precision is undefined there, wherever the segment starts. The counts are cumulative
        # (non-decreasing, >= 0), so those points are the run's first ones: found by search.
        none = min(int(np.searchsorted(tp, 0.0, side="right")), int(np.searchsorted(fp, 0.0, side="right")))
        values[:none] = np.nan
    return values


def _power_mean_direct(tp: FloatArray, fp: FloatArray, P: float, N: float, metric: Metric) -> FloatArray | None:
    """W(gamma, phi) by plain arithmetic when phi is a small integer, where it is safe.

    ``((gamma P**phi + R**phi) / (1 + gamma)) ** (1/phi)`` with powers by repeated
    multiplication has no cancellation (every term is positive) and is accurate to a few
    ulps, but may overflow or underflow. A point is evaluated so when its precision and
    recall, both at least ``TP / (P + N)``, keep every term within 1e-290..1e290
    (``TP > (P + N) 1e-180**(1/k)``, or ``TP = 0``); the other points (tiny positive TP) go
    through the logarithmic kernel of :mod:`isometrics.means`. ``None`` when the metric has
    no such form. ``tp`` is non-decreasing (a run of the table).
    """
    if metric._gamma_phi is None:
        return None
    gamma, phi = metric._gamma_phi
    k = abs(phi)
    if phi == 0 or k > 8 or k != int(k) or not 1e-100 <= gamma <= 1e100:
        return None
    # With S = TP + FP: P**phi = (S/TP)**k and R**phi = (N_pos/TP)**k for phi = -k, so
    # W = TP ((1 + gamma) / (gamma S**k + N_pos**k))**(1/k); for phi = k > 0,
    # W = TP ((gamma S**-k + N_pos**-k) / (1 + gamma))**(1/k). One array, in place.
    k = int(k)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        w = np.add(tp, fp)
        _power_inplace(w, k)
        if phi < 0:
            w *= gamma
            w += P**k
            np.divide(1.0 + gamma, w, out=w)
        else:
            np.divide(gamma / (1.0 + gamma), w, out=w)
            w += P ** (-k) / (1.0 + gamma)
        if k == 2:
            np.sqrt(w, out=w)
        elif k != 1:
            np.power(w, 1.0 / k, out=w)
        w *= tp
    # Points with 0 < TP <= (P + N) 1e-180**(1/k), a run since tp is non-decreasing.
    first = int(np.searchsorted(tp, 0.0, side="right"))
    last = int(np.searchsorted(tp, (P + N) * 10.0 ** (-180.0 / k), side="right"))
    if last > first:
        t, f = tp[first:last], fp[first:last]
        w[first:last] = metric.from_precision_recall(t / (t + f), t / P)
    return w


def _power_inplace(x: FloatArray, k: int) -> None:
    """x **= k for a small positive integer k, by squaring (exact up to rounding)."""
    if k == 1:
        return
    if k & (k - 1) == 0:  # 2, 4, 8: square in place
        while k > 1:
            np.multiply(x, x, out=x)
            k >>= 1
        return
    base = x.copy()
    x[...] = 1.0
    while k:
        if k & 1:
            x *= base
        k >>= 1
        if k:
            base *= base


# ---------------------------------------------------------------------------- best points
#: Relative tolerance within which two metric values are ties when they cannot be compared
#: exactly (counts that are not integers, or a metric with no rational form); absolute for
#: Youden's J and top_left, whose values are differences of rates.
TIE_RTOL = 1e-12
#: Relative width of the window of float values searched for the exact optimum: far wider
#: than the evaluation error of any metric (a few ulps, 2e-13 for extreme exponents).
EXACT_WINDOW = 1e-10
#: Integers below this are exact in float64.
_EXACT_COUNTS = 2.0**53


def _window(top: float, metric: Metric, width: float) -> float:
    """The lowest score within ``width`` of ``top`` (relative; absolute below ``metric._abs_scale``).

    Non-decreasing in ``top``: a point left out under an earlier, lower best stays out.
    """
    return top - width * max(abs(top), metric._abs_scale)


def _integer_counts(tp: FloatArray, fp: FloatArray, P: float, N: float) -> bool:
    """Whether the counts and the class totals are exact integers (below 2**53)."""
    if not (P + N < _EXACT_COUNTS and float(P).is_integer() and float(N).is_integer()):
        return False
    return bool(np.all(tp == np.floor(tp)) and np.all(fp == np.floor(fp)))


def best_positions(score: FloatArray, tp: FloatArray, fp: FloatArray, P: float, N: float, metric: Metric) -> np.ndarray:
    """Positions (increasing) of the points whose ``score`` (the metric, negated for a cost;
    ``-inf`` where undefined or not allowed) is best, ties resolved as :func:`best_threshold` says.

    With integer counts and a metric with an exact rational form, the points whose float
    value is near the best are compared exactly, by cross-multiplying the integer
    numerators and denominators of the metric's key (Python integers, no rounding): ties
    are exact ties. Otherwise values within :data:`TIE_RTOL` of the best are ties.
    ``tp``, ``fp``, ``P``, ``N`` are in the caller's units (exact integers stay integers).

    Raises
    ------
    IsometricsError
        If every score is ``-inf`` (the metric is 0/0 at every threshold).
    """
    top = float(score.max()) if len(score) else -np.inf
    if top == -np.inf:  # MCC or markedness of scores with one distinct value: 0/0 at both points
        raise IsometricsError(
            f"best_threshold: {metric.spec} is undefined (0/0) at every threshold: y_score has one "
            "distinct value, so every threshold predicts all samples alike; pass scores that rank "
            "the samples, or a metric defined there (e.g. accuracy)."
        )
    if metric._exact is not None:
        candidates = np.flatnonzero(score >= _window(top, metric, EXACT_WINDOW))
        if _integer_counts(tp[candidates], fp[candidates], P, N):
            tp_c = tp[candidates].astype(np.int64).astype(object)
            fp_c = fp[candidates].astype(np.int64).astype(object)
            num, den = metric._exact(tp_c, fp_c, int(P), int(N))
            num, den = np.broadcast_arrays(np.asarray(num, dtype=object), np.asarray(den, dtype=object))
            defined = den != 0
            best = int(np.argmax(score[candidates]))  # start from the float optimum
            while True:
                order = num * den[best] - num[best] * den  # sign of key - best key (denominators > 0)
                order[~defined] = -1
                better = np.flatnonzero(order > 0)
                if len(better) == 0:
                    return candidates[order == 0]
                best = int(better[np.argmax(score[candidates[better]])])
    return np.flatnonzero(score >= _window(top, metric, TIE_RTOL))


def scores_of(metric: Metric, values: FloatArray) -> FloatArray:
    """The values as scores to maximise: negated for a cost, ``-inf`` where undefined."""
    score = np.array(values if metric.greater_is_better else -values, dtype=np.float64)
    score[np.isnan(score)] = -np.inf  # undefined points (no predicted positive) are never best
    return score


class _Candidates:
    """The points that may still be best for one metric: every point within
    :data:`EXACT_WINDOW` of the running best (a superset of the ties :func:`best_positions`
    finds, since the window only rises with the best). Arrays in global point order."""

    __slots__ = ("metric", "top", "index", "thresholds", "tp", "fp", "score", "value")

    def __init__(self, metric: Metric) -> None:
        self.metric = metric
        self.top = -np.inf
        self.index = np.empty(0, dtype=np.int64)
        self.thresholds = np.empty(0)
        self.tp = np.empty(0)
        self.fp = np.empty(0)
        self.score = np.empty(0)
        self.value = np.empty(0)

    def add(
        self,
        index: np.ndarray,
        thresholds: FloatArray,
        tp: FloatArray,
        fp: FloatArray,
        score: FloatArray,
        value: FloatArray,
    ) -> None:
        """Offer points (global ``index`` increasing, after every point held); ``tp``, ``fp`` in the caller's units."""
        if len(score):
            self.top = max(self.top, float(score.max()))
        if self.top == -np.inf:
            return
        low = _window(self.top, self.metric, EXACT_WINDOW)
        keep = np.flatnonzero(score >= low)
        held = self.score >= low
        parts = zip(
            (self.index, self.thresholds, self.tp, self.fp, self.score, self.value),
            (index, thresholds, tp, fp, score, value),
        )
        merged = [np.concatenate((old[held], new[keep])) for old, new in parts]
        self.index, self.thresholds, self.tp, self.fp, self.score, self.value = merged

    def add_values(
        self, start: int, thresholds: FloatArray, tp: FloatArray, fp: FloatArray, values: FloatArray
    ) -> None:
        """Offer the points ``start, start + 1, ...`` with the metric's ``values`` (NaN where undefined), as
        :meth:`add` with ``scores_of(metric, values)`` and ``np.arange(start, start + len(values))`` offers
        them, without either array as long as the run: only the points kept are gathered."""
        score = values if self.metric.greater_is_better else np.negative(values)
        top = float(np.fmax.reduce(score)) if len(score) else np.nan  # NaN (undefined) is ignored, as -inf
        if top == top:
            self.top = max(self.top, top)
        if self.top == -np.inf:
            return
        low = _window(self.top, self.metric, EXACT_WINDOW)
        # NaN compares false; a run whose best is below the window (most runs) keeps nothing
        keep = np.flatnonzero(score >= low) if top >= low else np.empty(0, dtype=np.intp)
        held = self.score >= low
        parts = zip(
            (self.index, self.thresholds, self.tp, self.fp, self.score, self.value),
            (keep + start, thresholds[keep], tp[keep], fp[keep], score[keep], values[keep]),
        )
        merged = [np.concatenate((old[held], new)) for old, new in parts]
        self.index, self.thresholds, self.tp, self.fp, self.score, self.value = merged

    def merge(self, other: _Candidates) -> None:
        """Append the candidates of a later range."""
        self.add(other.index, other.thresholds, other.tp, other.fp, other.score, other.value)


def achievable_area(tp: FloatArray, fp: FloatArray, P: float, N: float) -> float:
    """Area under the count-interpolated PR curve through the ROC hull's vertices (``tp``, ``fp``,
    from the origin), summed by aligned blocks over the hull's segments."""
    return area_from_sum("auc_pr_achievable", aligned_sum(interpolated_pr_terms(tp, fp, P, N)), P, N)
