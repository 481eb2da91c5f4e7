"""From samples to counts: the one sort's output accumulated into every threshold's cumulative counts.

The construction half of the engine (:mod:`.count_table` holds the table and its derived-quantity
cache): :func:`counts_from_validated` sorts validated samples once (:mod:`.sorting`), groups tied
scores and accumulates weighted true and false positives straight into their final buffers;
:func:`counts_from_statistics` does the same from per-score sufficient statistics (a merge, a
chunk's group-by). Every function returns arrays; the count table wraps them
(:func:`.count_table.table_from_scores`, the one construction path from user input, validates
and calls :meth:`.count_table.CountTable.from_validated`), so this module does not import it.
"""

from __future__ import annotations

import math

import numpy as np

from .._typing import ArrayLike, FloatArray
from ..exceptions import IsometricsError
from .caller import current_caller
from .sorting import (
    _KEY_RUN,
    _POLARS_MIN_SAMPLES,
    _RUN,
    Scores,
    _group_ends,
    _grouped_by_score,
    _handed,
    _mostly_tied,
    _prepend,
    _sorted_by_score,
    decode_run,
    sorted_label_keys,
)
from .validation import (
    check_consistent_length,
    check_scores,
)

__all__ = ["counts_from_statistics", "counts_from_validated"]


def counts_from_validated(
    is_pos: np.ndarray, scores: Scores, weights: FloatArray | None
) -> tuple[FloatArray, FloatArray, FloatArray, tuple[FloatArray, FloatArray] | None]:
    """``(thresholds, tp, fp, increments)`` of validated samples: the engine's one sort.

    ``is_pos`` (bool), ``scores`` (finite float64; a one-element list is handed over, see
    ``sorting.Scores``) and ``weights`` (non-negative float64 or ``None``) as
    :func:`table_from_scores` leaves them. ``increments`` is ``(dtp, dfp)``, read-only, when the
    per-point weights are at hand (weighted scores without ties), else ``None``. Raises
    ``IsometricsError`` naming the public function being called (:func:`current_caller`) when a
    class's weights sum beyond float64's range.
    """
    handed = _handed(scores)
    del scores
    if weights is not None:
        keep = weights != 0
        if not keep.all():
            is_pos, weights = is_pos[keep], weights[keep]
            handed[0] = handed[0][keep]
    positives: np.ndarray
    negatives: np.ndarray | None
    ends: np.ndarray | None
    if _mostly_tied(handed[0]):
        thresholds, positives, negatives = _grouped_by_score(handed.pop(), is_pos, weights)
        thresholds, ends = _prepend(thresholds, np.inf), None
    else:
        keyed = sorted_label_keys(handed, is_pos) if weights is None and len(handed[0]) >= _POLARS_MIN_SAMPLES else None
        if keyed is None:
            thresholds, positives, negatives, ends = _sorted_by_score(handed, is_pos, weights)
        else:  # unweighted, one keyed sort: scores and counts decoded in one pass
            thresholds, counts, positives = _label_counts(*keyed)
            del keyed
            if counts is not None:
                return thresholds, counts[0], counts[1], None
            s = thresholds[1:]  # tied scores: grouped below
            ends = _group_ends(s)
            thresholds, negatives = (thresholds if ends is None else _prepend(s[ends], np.inf)), None
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
    else:  # labels: integer counts, exact (float64 sums of 0 and 1 are exact below 2**53)
        if ends is None:  # straight into tp; FP = (samples so far) - TP, run by run
            np.cumsum(positives, dtype=np.float64, out=tp[1:])
            for a in range(0, m, _RUN):
                b = min(a + _RUN, m)
                np.subtract(np.arange(a + 1, b + 1, dtype=np.float64), tp[1 + a : 1 + b], out=fp[1 + a : 1 + b])
        else:
            np.take(np.cumsum(positives, dtype=np.float64), ends, out=tp[1:])
            np.subtract(ends + 1.0, tp[1:], out=fp[1:])
    _check_finite_totals(tp, fp, "sample_weight")
    increments = None
    if ends is None and negatives is not None and positives.dtype == np.float64:  # increments at hand
        positives.flags.writeable = False
        negatives.flags.writeable = False
        increments = (positives, negatives)
    return thresholds, tp, fp, increments


def _label_counts(
    ordered: np.ndarray, exponent: int | None, inverted: bool
) -> tuple[FloatArray, tuple[FloatArray, FloatArray] | None, np.ndarray]:
    """Scores and cumulative counts of sorted label keys (:func:`.sorting.sorted_label_keys`), run by run.

    Returns ``(thresholds, (tp, fp), labels)``: one pass decodes each run's scores, cumulates its
    labels (as float64 ones and zeros: every partial sum an integer below 2**53, exact) straight into
    their final buffer and writes the other class as ``(samples so far) - count``, while no two
    neighbouring scores are equal. At the first tie it only decodes the scores, and returns
    ``(scores after the +inf slot, None, labels)`` (labels per sample, uint8) for the caller to
    group the ties.
    """
    n = len(ordered)
    slots = slotted_buffer(ordered)  # keys sorted in place after a free slot: decoded in place, no new array
    if slots is None:
        slots = np.empty(n + 1, dtype=ordered.dtype)
    values = slots.view(np.float64)
    values[0] = np.inf
    tp, fp = np.empty(n + 1), np.empty(n + 1)
    tp[0] = fp[0] = 0.0
    # The lowest bits count the positives, or the negatives when the keys are complemented (counted);
    # the other class is (samples so far) - count.
    counted, other = (fp, tp) if inverted else (tp, fp)
    bits = ordered.view(np.int64)
    size = min(n, _KEY_RUN)
    labels, scratch = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    ones = labels.view(np.float64)  # the same labels as the doubles 0.0 and 1.0 (their bits: 0 and _ONE)
    ramp = np.arange(1, size + 1, dtype=np.float64)  # samples so far at each point of the run
    carry, positives = 0.0, None
    for a in range(0, n, _KEY_RUN):
        b = min(a + _KEY_RUN, n)
        count = labels[: b - a]
        np.bitwise_and(bits[a:b], 1, out=count)  # read before the run is decoded (in place, with a slot)
        decode_run(ordered[a:b], exponent, slots[1 + a : 1 + b], shift=1, inverted=inverted, scratch=scratch)
        if positives is None:
            run = values[a : 1 + b]  # with the last score of the run before (+inf before the first)
            if np.count_nonzero(run[1:] == run[:-1]):  # a tie: the labels of every sample, for the caller
                positives = np.empty(n, dtype=np.uint8)
                positives[:a] = np.subtract(tp[1 : 1 + a], tp[:a])  # the runs before: their counts' steps
        if positives is not None:
            np.bitwise_xor(count, int(inverted), out=positives[a:b], casting="unsafe")
            continue
        np.negative(count, out=count)  # 0 or -1 (every bit set) ...
        np.bitwise_and(count, _ONE, out=count)  # ... and so the bits of 0.0 or 1.0
        run_ones, run_counted, run_other = ones[: b - a], counted[1 + a : 1 + b], other[1 + a : 1 + b]
        run_ones[0] += carry  # the count so far, cumulated with the run (integers: exact)
        np.cumsum(run_ones, out=run_counted)
        np.subtract(ramp[: b - a], run_counted, out=run_other)
        np.add(ramp, b - a, out=ramp)  # the next run's samples so far (only a last, shorter run follows a short one)
        carry = float(run_counted[-1])
    if positives is not None:
        return values, None, positives
    return values, (tp, fp), labels


#: The bits of the double 1.0.
_ONE = int(np.float64(1.0).view(np.int64))


def slotted_buffer(keys: np.ndarray) -> np.ndarray | None:
    """The buffer ``keys`` is ``[1:]`` of (keys made with ``sorting._label_keys(..., slot=True)`` and sorted in
    place), where scores can be decoded in place after the slot of the ``+inf`` point; else ``None``."""
    base = keys.base
    if not isinstance(base, np.ndarray) or base.ndim != 1 or base.dtype != keys.dtype or len(base) != len(keys) + 1:
        return None
    offset = keys.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    return base if offset == base.itemsize and base.flags.writeable and keys.flags.c_contiguous else None


def counts_from_statistics(
    scores: ArrayLike, positives: ArrayLike, negatives: ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``(thresholds, tp, fp)`` from per-score weights of positives and negatives (validated here, for the
    public function being called)."""
    s = check_scores(scores, name="scores")
    p = check_scores(positives, name="positives")
    n = check_scores(negatives, name="negatives")
    check_consistent_length(scores=s, positives=p, negatives=n)
    if (p < 0).any() or (n < 0).any():
        raise IsometricsError(f"{current_caller()}: positives and negatives must be >= 0 (they are weights).")
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
    _check_finite_totals(tp, fp, "positives` or `negatives")
    return _prepend(s[ends], np.inf), tp, fp


def _check_finite_totals(tp: FloatArray, fp: FloatArray, name: str) -> None:
    """Raise when a class total overflowed float64 (each weight finite, their sum not)."""
    if len(tp) and not (math.isfinite(tp[-1]) and math.isfinite(fp[-1])):
        raise IsometricsError(
            f"{current_caller()}: `{name}` sums to more than the largest float64 (about 1.8e308) within one class; "
            "divide every weight by the same constant (no result depends on the scale of the weights)."
        )
