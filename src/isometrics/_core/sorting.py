"""The sorts and groupings behind the count table: exact integer keys, the sort chosen by measurement, hash grouping.

Every function here takes validated scores (float64, finite), labels and weights, and returns
them in decreasing score order, or grouped by distinct score; how they get there (which sort,
which keys) changes only the speed, never a result. ``docs/performance.md`` has the measurements.

The packed 64-bit keys of a large unweighted sort go to whichever of :data:`KEY_SORTS` was
fastest on this machine: :func:`choose_sort` times them once per process on a small sample (the
first time a large input is sorted), unless ``ISOMETRICS_SORT`` or ``choose_sort(name)`` forces
one. Equal keys are identical, so every candidate gives the same array, bit for bit.
"""

from __future__ import annotations

import math
import os
import platform
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._typing import FloatArray
from ..exceptions import InvalidParameterError

if TYPE_CHECKING:  # pragma: no cover
    pass


#: Below this many samples NumPy's sort is faster than handing the data to Polars.
_POLARS_MIN_SAMPLES = 50_000


#: Sample size used to decide between grouping tied scores by hashing and sorting.
_TIE_SAMPLE = 100_000

#: Elements per pass of the element-wise steps around the sort: each temporary is a few MiB,
#: never as long as the data (at 10^8 samples every full-length temporary is 800 MB).
_RUN = 1 << 20

#: Scores given as a one-element list are *handed over*: the caller keeps no reference, and
#: the sort drops the list's array as soon as its keys exist, so a score column need not stay
#: in memory beside its sorted copy (``evaluate_scores`` hands over each column so).
Scores = FloatArray | list[FloatArray]


def _handed(scores: Scores) -> list[FloatArray]:
    """The scores in a list that the engine may empty (the caller's own list when handed over)."""
    return scores if isinstance(scores, list) else [scores]


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
    scores: Scores, is_pos: np.ndarray, weights: FloatArray | None
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
    # a group's threshold is its last sample, of either sign for -0.0 == 0.0 (Polars' arg-sort: run to run): + 0.0
    return (slotted if ends is None else _prepend(s[ends] + 0.0, np.inf)), positives, negatives, ends


def _sort_descending(
    scores: Scores, is_pos: np.ndarray, weights: FloatArray | None
) -> tuple[FloatArray, np.ndarray, np.ndarray | None]:
    """Scores in decreasing order with the labels or class weights carried along.

    Returns ``(values, positives, negatives)``: ``values`` has shape (n + 1,), ``+inf``
    first (the slot of the operating point that predicts nothing positive), then the
    sorted scores. Unweighted: ``positives`` are the labels (uint8) and ``negatives``
    is ``None``. Weighted: the weight of each sample in its class's array, 0 in the
    other. The order inside a run of tied scores is unspecified: ties are grouped
    afterwards.

    Small inputs use NumPy's ``argsort``. Large ones sort exact integer keys
    (``docs/performance.md``): unweighted, 64-bit keys that hold the score and the label
    (:func:`_label_keys`), with the sort :func:`choose_sort` picks; weighted, 128-bit keys whose high
    word orders the score (:func:`_signed_order`) and whose low word carries the weight,
    negated for negatives.
    """
    handed = _handed(scores)
    del scores  # only `handed` refers to them now: emptied once the keys hold them
    large = len(handed[0]) >= _POLARS_MIN_SAMPLES
    if large and weights is None:
        keyed = sorted_label_keys(handed, is_pos)
        if keyed is not None:
            ordered, exponent, inverted = keyed
            del keyed
            label_bits = ordered.view(np.uint8)[::8] & 1  # label: the key's lowest bit
            if inverted:
                np.bitwise_xor(label_bits, 1, out=label_bits)
            values = np.empty(len(ordered) + 1, dtype=ordered.dtype)
            for a in range(0, len(ordered), _KEY_RUN):
                decode_run(
                    ordered[a : a + _KEY_RUN], exponent, values[1 + a : 1 + a + _KEY_RUN], shift=1, inverted=inverted
                )
            slotted = values.view(np.float64)
            slotted[0] = np.inf
            return slotted, label_bits, None
    elif large:
        assert weights is not None
        order_ints = _signed_order(handed[0])
        if order_ints is not None:
            handed.clear()
            high, exponent = order_ints
            del order_ints
            high_sorted, signed = _sort_int128_descending(high, weights, negate=~is_pos)
            del high
            values = _decode_order(high_sorted, exponent)
            signed_weights = signed.view(np.float64)
            positives = np.maximum(signed_weights, 0.0)
            return values, positives, np.subtract(positives, signed_weights)
    # Fallback: a permutation (NumPy for small inputs, Polars' arg_sort for scores whose
    # keys would not be exact).
    order = _polars_argsort_descending(handed[0]) if large else np.argsort(-handed[0], kind="stable")
    values = np.empty(len(order) + 1)
    values[0] = np.inf
    np.take(handed.pop(), order, out=values[1:])
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


def _times_power_of_two(values: FloatArray, exponent: int, *, out: FloatArray) -> FloatArray:
    """``values * 2**exponent`` into ``out``: ``np.ldexp``'s bits wherever the result is a normal
    double or zero (a multiplication by a power of two is then exact), several times faster."""
    if abs(exponent) > 1000:  # 2**exponent itself would leave the normal range
        return np.ldexp(values, exponent, out=out)
    return np.multiply(values, math.ldexp(1.0, exponent), out=out)


def _scale_exponent(scores: FloatArray, low: float, high: float, *, scan: bool = True) -> int | None:
    """``k`` such that every ``|x| 2**-k < 2``, exact (no score becomes subnormal), or ``None``.

    ``low`` and ``high`` are the scores' minimum and maximum. ``scan=False``: the caller checks
    the smallest non-zero magnitude itself while it reads the scores (:func:`_label_keys`).
    """
    exponent = 0
    largest = max(high, -low)
    if largest >= 2.0:
        exponent = math.frexp(largest)[1]  # largest < 2**exponent
        smallest_normal = math.ldexp(np.finfo(np.float64).tiny, exponent)
        if low > 0 or high < 0:
            smallest = low if low > 0 else -high
        elif not scan:
            return exponent
        else:  # the smallest non-zero magnitude (zeros are exact whatever the scale), run by run
            smallest = math.inf
            for a in range(0, len(scores), _RUN):
                magnitude = np.abs(scores[a : a + _RUN])
                smallest = min(smallest, float(np.min(magnitude, where=magnitude > 0, initial=np.inf)))
        if smallest < smallest_normal:
            return None  # scaling by 2**-k would lose bits of the smallest scores
    return exponent


def _signed_order(scores: FloatArray) -> tuple[np.ndarray, int] | None:
    """Order-preserving int64 images of the scores, all in ``[-2**62, 2**62)``.

    Read as a signed integer ``b``, a double's bits map to an order-preserving integer
    ``t = b ^ ((b >> 63) & (2**63 - 1))``; when every ``|x| < 2``, ``t`` lies in
    ``[-2**62, 2**62)``. Scores are first scaled by ``2**-k`` so that ``|x| < 2``, which
    is exact unless it would make a value subnormal: then ``None`` is returned and the
    caller sorts without keys. Returns ``t`` and ``k``.
    """
    exponent = _scale_exponent(scores, float(scores.min()), float(scores.max()))
    if exponent is None:
        return None
    order = np.empty(len(scores), dtype=np.int64)  # the one array as long as the scores
    scaled = np.empty(min(len(scores), _KEY_RUN))
    for a in range(0, len(scores), _KEY_RUN):
        run = scores[a : a + _KEY_RUN]
        bits = (_times_power_of_two(run, -exponent, out=scaled[: len(run)]) if exponent else run).view(np.int64)
        out = order[a : a + _KEY_RUN]
        np.right_shift(bits, 63, out=out)  # 0 or -1 (arithmetic shift)
        np.bitwise_and(out, np.int64(2**63 - 1), out=out)
        np.bitwise_xor(out, bits, out=out)
    return order, exponent


#: Marks keys that hold raw bits of non-negative scores (no scaling, unsigned order).
_UNSIGNED = None


def _label_keys(
    scores: FloatArray, is_pos: np.ndarray, *, invert: bool = False, slot: bool = False
) -> tuple[np.ndarray, int | None] | None:
    """Exact 64-bit sort keys holding each score (in order) and its label in the lowest bit.

    Non-negative scores: their IEEE-754 bits, read as unsigned integers, are in score
    order with a top bit of 0 (``-0.0`` aside, whose top bit the shift drops, making it
    ``+0.0``), so ``bits << 1 | label`` is an exact unsigned key. Other scores:
    ``t << 1 | label`` with ``t`` from :func:`_signed_order`, an exact signed key.
    ``invert``: the keys' bitwise complements (an ascending sort of them is a descending
    sort of the keys, signed or unsigned alike). ``slot``: the keys are ``buffer[1:]`` of a buffer one
    element longer, so that the scores decoded in place after an in-place sort have the slot of the
    ``+inf`` point before them (see :func:`.counting.slotted_buffer`). Returns the keys and the scale exponent
    (``_UNSIGNED`` for unsigned keys), or ``None`` when no exact key exists. One pass over
    the scores, run by run (every step of a run stays in the cache).
    """
    low = float(scores.min())
    exponent: int | None = _UNSIGNED
    limit = 0  # scores of magnitude below 2**-1022 * 2**exponent, as integers, would lose bits when scaled
    if low < 0:
        high = float(scores.max())
        found = _scale_exponent(scores, low, high, scan=False)
        if found is None:
            return None
        exponent = found
        if exponent and high >= 0:  # scores of both signs: the smallest non-zero magnitude is checked below
            limit = int(np.float64(math.ldexp(np.finfo(np.float64).tiny, exponent)).view(np.int64))
    smallest = np.iinfo(np.uint64).max
    keys = np.empty(len(scores) + slot, dtype=np.uint64 if exponent is _UNSIGNED else np.int64)[int(slot) :]
    labels = is_pos.view(np.uint8)
    one, scaled = np.uint64(1), np.empty(min(len(scores), _KEY_RUN))
    for a in range(0, len(scores), _KEY_RUN):
        run, out = scores[a : a + _KEY_RUN], keys[a : a + _KEY_RUN]
        unsigned = out.view(np.uint64)
        if exponent is _UNSIGNED:
            np.left_shift(run.view(np.uint64), one, out=unsigned)
        else:
            if limit:  # |x| - 1 as an unsigned integer (zeros wrap to the largest): its minimum, run by run
                magnitude = np.bitwise_and(run.view(np.int64), np.int64(2**63 - 1), out=out)
                smallest = min(smallest, int(np.subtract(magnitude, 1, out=magnitude).view(np.uint64).min()))
            bits = (_times_power_of_two(run, -exponent, out=scaled[: len(run)]) if exponent else run).view(np.int64)
            np.right_shift(bits, 63, out=out)  # 0 or -1 (arithmetic shift)
            np.bitwise_and(out, np.int64(2**63 - 1), out=out)
            np.bitwise_xor(out, bits, out=out)
            np.left_shift(unsigned, one, out=unsigned)  # shift the two's-complement bits, never a negative int
        np.bitwise_or(unsigned, labels[a : a + _KEY_RUN], out=unsigned, casting="unsafe")
        if invert:
            np.invert(out, out=out)
    if smallest < limit - 1:
        return None  # scaling by 2**-k would lose bits of the smallest scores
    return keys, exponent


#: Elements per run of the fused key and decoding loops: every temporary of a run fits in the L2 cache.
_KEY_RUN = 1 << 16


def decode_run(
    keys: np.ndarray,
    exponent: int | None,
    out: np.ndarray,
    *,
    shift: int = 0,
    inverted: bool = False,
    scratch: np.ndarray | None = None,
) -> None:
    """The scores of one run of sorted keys (``keys >> shift``, complemented first when ``inverted``)
    written into ``out``, an integer view (``keys``' dtype) of the float64 destination; ``scratch``,
    an int64 array at least as long, spares an allocation per run."""
    if exponent is _UNSIGNED:  # a logical shift
        np.right_shift(np.invert(keys, out=out) if inverted else keys, keys.dtype.type(shift), out=out)
    else:
        np.right_shift(keys, keys.dtype.type(shift), out=out)  # arithmetic
        # t = u ^ ((u >> 63) & (2**63 - 1)) with u = k >> shift; with complemented keys u = ~(k >> shift)
        # (arithmetic shifts commute with ~), and u ^ ((u >> 63) & MAX) = v ^ ((v >> 63) | MIN) for v = ~u.
        mask = np.right_shift(out, 63, out=scratch[: len(out)] if scratch is not None else None)
        if inverted:
            np.bitwise_or(mask, np.int64(-(2**63)), out=mask)
        else:
            np.bitwise_and(mask, np.int64(2**63 - 1), out=mask)
        np.bitwise_xor(out, mask, out=out)
        if exponent:
            values = out.view(np.float64)
            _times_power_of_two(values, exponent, out=values)


def _decode_order(order: np.ndarray, exponent: int | None, *, shift: int = 0) -> FloatArray:
    """Scores from their order-preserving integers (``order >> shift``), after a slot holding ``+inf``.

    Returns shape (n + 1,).
    """
    slotted = np.empty(len(order) + 1, dtype=order.dtype)
    decoded = slotted[1:]
    for a in range(0, len(decoded), _KEY_RUN):
        decode_run(order[a : a + _KEY_RUN], exponent, decoded[a : a + _KEY_RUN], shift=shift)
    values = slotted.view(np.float64)
    values[0] = np.inf
    return values


def sorted_label_keys(scores: Scores, is_pos: np.ndarray) -> tuple[np.ndarray, int | None, bool] | None:
    """Unweighted samples' packed keys (:func:`_label_keys`) sorted by :func:`choose_sort`'s sort.

    Returns ``(keys, exponent, inverted)``: the keys in decreasing order of score, complemented
    when ``inverted`` (the chosen sort then ran ascending on complemented keys, which spares
    two passes); decode a run with :func:`decode_run`, the label is the lowest bit of a key
    (of its complement when ``inverted``: ``1 - bit``). ``None`` when no exact key exists.
    ``scores`` handed over (a one-element list) are dropped once the keys hold them.
    """
    handed = _handed(scores)
    del scores
    sort = choose_sort().sort
    ascending = _ASCENDING.get(sort)
    encoded = _label_keys(handed[0], is_pos, invert=ascending is not None, slot=True)
    if encoded is None:
        return None
    handed.clear()
    keys, exponent = encoded
    del encoded
    ordered = sort(keys) if ascending is None else ascending(keys)
    del keys  # the sorted copy is all that is left: at most two key arrays at once
    return ordered, exponent, ascending is not None


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
        return out.get_column("s").to_numpy() + 0.0, positives, negatives  # -0.0 and 0.0 are one group: +0.0
    import pyarrow as pa

    encoded = pa.array(scores).dictionary_encode()  # hashes the bits: -0.0 and 0.0 are two entries
    values, group = np.unique(encoded.dictionary.to_numpy() + 0.0, return_inverse=True)  # ascending, -0.0 merged
    m = len(values)
    slot = np.subtract(m - 1, group.ravel(), dtype=np.intp)  # rank in decreasing order
    np.left_shift(slot, 1, out=slot)
    keys = slot[encoded.indices.to_numpy()]
    np.bitwise_or(keys, is_pos.view(np.uint8), out=keys, casting="unsafe")
    counts = np.bincount(keys, weights=weights, minlength=2 * m)  # float64: the weights' sums
    return (
        np.ascontiguousarray(values[::-1]),
        np.ascontiguousarray(counts[1::2], dtype=np.float64),
        np.ascontiguousarray(counts[::2], dtype=np.float64),
    )


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


def _keys_numpy(keys: np.ndarray) -> np.ndarray:
    """NumPy's sort (its SIMD dispatch), in place: inverting the bits reverses the order of
    signed and unsigned integers alike, so an ascending sort of ``~keys`` is a descending one."""
    np.invert(keys, out=keys)
    keys.sort()
    np.invert(keys, out=keys)
    return keys


def _keys_polars(keys: np.ndarray) -> np.ndarray:
    """Polars' multithreaded sort (a copy)."""
    import polars as pl

    return pl.Series(keys).sort(descending=True).to_numpy()


def _ascending_numpy(keys: np.ndarray) -> np.ndarray:
    keys.sort()
    return keys


def _ascending_polars(keys: np.ndarray) -> np.ndarray:
    import polars as pl

    return pl.Series(keys).sort().to_numpy()


#: The candidate sorts of packed 64-bit keys (int64 or uint64): each returns the keys in
#: decreasing order and may overwrite its argument.
KEY_SORTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {"numpy": _keys_numpy, "polars": _keys_polars}

#: Each candidate's ascending sort, which the engine runs on complemented keys (the same order,
#: without complementing the keys before and after the sort); a sort not listed is called as is.
_ASCENDING: dict[Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]] = {
    _keys_numpy: _ascending_numpy,
    _keys_polars: _ascending_polars,
}

#: Environment variable that forces one of :data:`KEY_SORTS` (read once per process).
SORT_VARIABLE = "ISOMETRICS_SORT"

#: Keys in the timing sample: each candidate sorts it three times, in a few milliseconds in all.
_SAMPLE = 1 << 17


@dataclass(frozen=True)
class SortChoice:
    """The sort of packed keys this process uses, and why.

    ``name`` is a key of :data:`KEY_SORTS`; ``how`` is ``"measured"``, ``"environment"``
    (``ISOMETRICS_SORT``) or ``"keyword"`` (``choose_sort(name)``); ``times`` maps each
    candidate to its best time in seconds on :data:`_SAMPLE` random keys (empty when forced).
    """

    name: str
    how: str
    times: dict[str, float]

    @property
    def sort(self) -> Callable[[np.ndarray], np.ndarray]:
        """The chosen sort: keys in, the same keys in decreasing order out."""
        return KEY_SORTS[self.name]

    def describe(self) -> str:
        """One line: the sort, how it was chosen and, when measured, every candidate's time."""
        if not self.times:
            return f"{self.name} (forced by {SORT_VARIABLE if self.how == 'environment' else 'choose_sort'})"
        times = ", ".join(f"{k} {1e3 * v:.2f} ms" for k, v in sorted(self.times.items(), key=lambda kv: kv[1]))
        return f"{self.name} (fastest on {_SAMPLE:,} random 64-bit keys: {times})"


_chosen: list[SortChoice] = []  # the process's choice, once made
_choosing = threading.Lock()  # one thread times the candidates; the others wait for its choice


def _checked(name: str, where: str) -> str:
    if name not in KEY_SORTS:
        raise InvalidParameterError(
            f"{where} must name a sort of 64-bit keys, one of {', '.join(map(repr, KEY_SORTS))}, got {name!r}; "
            f"pick one of them, or leave {SORT_VARIABLE} unset to let isometrics time them."
        )
    return name


def time_sorts(size: int = _SAMPLE, repeat: int = 3, seed: int = 0) -> dict[str, float]:
    """Best time in seconds of each of :data:`KEY_SORTS` on ``size`` random 64-bit keys.

    The candidates take turns (``repeat`` rounds), so that a busy machine slows them alike.
    """
    keys = np.random.default_rng(seed).integers(0, 2**63 - 1, size, dtype=np.int64)
    best = dict.fromkeys(KEY_SORTS, math.inf)
    for _ in range(repeat):
        for name, sort in KEY_SORTS.items():
            work = keys.copy()
            start = time.perf_counter()
            sort(work)
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def choose_sort(name: str | None = None) -> SortChoice:
    """The sort of packed 64-bit keys used by every large unweighted evaluation in this process.

    Parameters
    ----------
    name : str or None, default=None
        Force this sort, one of :data:`KEY_SORTS` (``"numpy"``: NumPy's sort with its SIMD
        dispatch, in place; ``"polars"``: Polars' multithreaded sort), for the rest of the
        process. ``None``: keep the choice already made; the first time, the one named by
        the environment variable ``ISOMETRICS_SORT`` or, when it is unset or empty, the
        fastest measured by :func:`time_sorts` (a few milliseconds).

    Returns
    -------
    SortChoice
        The name of the sort, how it was chosen and the measured times.

    Raises
    ------
    InvalidParameterError
        If ``name`` or ``ISOMETRICS_SORT`` is not one of :data:`KEY_SORTS`.

    Notes
    -----
    Every candidate returns the same keys in the same order (equal keys are equal
    integers), so the choice changes speeds only, never a result.
    ``isometrics --version --verbose`` prints the choice.
    """
    with _choosing:  # threads (evaluate_scores' n_jobs, a user's own) time the sorts once, not at once
        if name is not None:
            _chosen[:] = [SortChoice(_checked(name, "choose_sort: `name`"), "keyword", {})]
        elif not _chosen:
            forced = os.environ.get(SORT_VARIABLE, "").strip()
            if forced:
                choice = SortChoice(_checked(forced, f"environment variable {SORT_VARIABLE}"), "environment", {})
            else:
                times = time_sorts()
                choice = SortChoice(min(times, key=times.__getitem__), "measured", times)
            _chosen.append(choice)
        return _chosen[0]


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_report() -> list[str]:
    """Lines describing what the engine's speed depends on: CPU, NumPy's SIMD dispatch, the chosen sort."""
    lines = [f"CPU: {_cpu_model()} ({os.cpu_count()} logical cores)"]
    umath = getattr(getattr(np, "_core", None), "_multiarray_umath", None)  # private: where NumPy 2 keeps it
    features = getattr(umath, "__cpu_features__", {})
    baseline = list(getattr(umath, "__cpu_baseline__", []))
    dispatch = [f for f in getattr(umath, "__cpu_dispatch__", []) if features.get(f)]
    lines.append(
        f"NumPy {np.__version__}: SIMD baseline {' '.join(baseline) or '?'}; "
        f"dispatched on this CPU {' '.join(dispatch) or 'none'}"
    )
    disabled = os.environ.get("NPY_DISABLE_CPU_FEATURES")
    if disabled:
        lines.append(f"NPY_DISABLE_CPU_FEATURES={disabled}")
    lines.append(f"Sort of 64-bit keys (unweighted, >= {_POLARS_MIN_SAMPLES:,} samples): {choose_sort().describe()}")
    lines.append(
        f"Weighted scores: Polars' sort of 128-bit keys. Force the key sort: {SORT_VARIABLE}={'|'.join(KEY_SORTS)}."
    )
    return lines
