"""Guaranteed intervals and estimates of AUROC, AP and AUPRG from class counts in score bins.

A bin is an interval of scores; what is known of it is the weight of its positives and of its
negatives, and the mean score of each class inside it. The order of the samples *between* bins
is known; the order *inside* a bin is not. Every area is bounded by the two extreme orders
inside every bin (the derivations are in the Notes of
:class:`isometrics.scale.streaming.BinnedCountTable`):

* AUROC: only the pairs (positive, negative) of one bin are unknown, each worth 0 or 1.
* AUPRG: the area is a line integral of precision gain (decreasing in FP at fixed TP) along
  the ROC path; inside a bin the path lies in the box between the bin's corners, lowest FP on
  the path "positives first", highest on "negatives first". Both paths go through the engine.
* AP: a positive's precision lies between the one where the bin's positives come first, tied
  (upper), and the integral of the precision where they come last, one by one (lower).

The estimate inside the interval models each class's scores inside a bin by a power law with
the class's observed mean position there, and integrates the three areas along the modelled
path with Gauss-Legendre nodes; with equal means it is the straight path (random order).
"""

from __future__ import annotations

import math

import numpy as np

from .._core.count_table import CountTable
from .._typing import FloatArray
from ..spaces.areas import AUPRG

__all__ = ["binned_areas", "widen", "ROUNDING_MARGIN"]

#: Added below every lower bound and above every upper bound (relative to the magnitude of the
#: area, at least absolute): the exact engine and these bounds add the same quantities in
#: different orders, so their roundings differ by far less than this.
ROUNDING_MARGIN = 1e-9

#: Gauss-Legendre nodes and weights on [0, 1] for the within-bin integrals.
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(24)
_NODES, _WEIGHTS = (_NODES + 1.0) / 2.0, _WEIGHTS / 2.0

#: Mean positions inside a bin are clipped to this range before the power law is fitted.
_MEAN_CLIP = 0.02


def _normalised(p: FloatArray, n: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Counts divided by the power of two that puts the larger class total in [1/2, 1)."""
    largest = max(float(p.sum()), float(n.sum()))
    exponent = math.frexp(largest)[1] if largest > 0 else 0
    return np.ldexp(p, -exponent), np.ldexp(n, -exponent)


def widen(lower: float, upper: float, low: float, high: float) -> tuple[float, float]:
    """The interval widened by :data:`ROUNDING_MARGIN` and clipped to the area's range [low, high]."""
    lower -= ROUNDING_MARGIN * max(1.0, abs(lower))
    upper += ROUNDING_MARGIN * max(1.0, abs(upper))
    return max(lower, low), min(upper, high)


def _path(u: FloatArray, mean_pos: FloatArray, mean_neg: FloatArray) -> FloatArray:
    """Share of a bin's negatives above the point where a share ``u`` of its positives is above.

    Each class's scores inside the bin (position t in [0, 1]) follow the power law with its
    mean: ``F(t) = t**k`` (mean ``k / (k + 1)``, for means >= 1/2) or ``1 - (1 - t)**k``
    (mean ``1 / (k + 1)``). ``u`` has shape (n_bins, n_nodes); the means shape (n_bins, 1).
    """
    mp = np.clip(mean_pos, _MEAN_CLIP, 1.0 - _MEAN_CLIP)
    mn = np.clip(mean_neg, _MEAN_CLIP, 1.0 - _MEAN_CLIP)
    kp = np.where(mp >= 0.5, mp / (1.0 - mp), (1.0 - mp) / mp)
    kn = np.where(mn >= 0.5, mn / (1.0 - mn), (1.0 - mn) / mn)
    # the position t at which the positives above make up u: F+(t) = 1 - u
    t = np.where(mp >= 0.5, (1.0 - u) ** (1.0 / kp), 1.0 - u ** (1.0 / kp))
    below = np.where(mn >= 0.5, t**kn, 1.0 - (1.0 - t) ** kn)  # F-(t): share of negatives below t
    return 1.0 - below


def binned_areas(
    positives: FloatArray, negatives: FloatArray, mean_pos: FloatArray, mean_neg: FloatArray
) -> dict[str, tuple[float, float, float]]:
    """``{"auroc" | "average_precision" | "auprg": (lower, upper, estimate)}`` of binned counts.

    Parameters
    ----------
    positives, negatives : ndarray of shape (n_bins,)
        Weight of each class in each bin, bins in *decreasing* score order; both classes
        present overall.
    mean_pos, mean_neg : ndarray of shape (n_bins,)
        Mean position of each class's scores inside its bin, in [0, 1] (0: the bin's lower
        edge); any value where the class is absent from the bin.
    """
    p, n = _normalised(np.asarray(positives, dtype=np.float64), np.asarray(negatives, dtype=np.float64))
    keep = (p > 0) | (n > 0)
    p, n = p[keep], n[keep]
    mean_pos, mean_neg = np.asarray(mean_pos)[keep], np.asarray(mean_neg)[keep]
    tp_after, fp_after = np.cumsum(p), np.cumsum(n)
    P, N = float(tp_after[-1]), float(fp_after[-1])
    T, F = tp_after - p, fp_after - n  # weight of each class above the bin
    u = _NODES[np.newaxis, :]
    phi = _path(np.broadcast_to(u, (len(p), len(_NODES))), mean_pos[:, None], mean_neg[:, None])
    return {
        "auroc": _auroc_bounds(p, n, N, fp_after, phi),
        "average_precision": _ap_bounds(p, n, P, T, F, phi),
        "auprg": _auprg_bounds(p, n, P, N, T, F, mean_pos, mean_neg),
    }


def _auroc_bounds(
    p: FloatArray, n: FloatArray, N: float, fp_after: FloatArray, phi: FloatArray
) -> tuple[float, float, float]:
    PN = float(p.sum()) * N
    below = float(np.dot(p, N - fp_after)) / PN  # pairs with the negative in a lower bin: won for sure
    inside = p * n / PN  # pairs inside a bin: won or lost
    share = 1.0 - phi @ _WEIGHTS  # modelled share of a bin's pairs won
    lower, upper = widen(below, below + float(inside.sum()), 0.0, 1.0)
    estimate = below + float(np.dot(inside, share))
    return lower, upper, min(max(estimate, lower), upper)


def _ap_bounds(
    p: FloatArray, n: FloatArray, P: float, T: FloatArray, F: FloatArray, phi: FloatArray
) -> tuple[float, float, float]:
    has = p > 0
    p, n, T, F, phi = p[has], n[has], T[has], F[has], phi[has]
    K = T + F
    # upper: the bin's positives first, tied: each gets precision (T + p) / (K + p)
    upper = float(np.sum(p * (T + p) / (K + p)))
    # lower: negatives first, positives one by one: p - D log(1 + p / K') with K' = K + n, D = K' - T
    Kn = K + n
    with np.errstate(divide="ignore", invalid="ignore"):
        low_terms = np.where(Kn > 0, p - (Kn - T) * np.log1p(p / Kn), p)
    lower = float(np.sum(low_terms))
    u = _NODES[np.newaxis, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = (T[:, None] + p[:, None] * u) / (K[:, None] + p[:, None] * u + n[:, None] * phi)
    precision = np.where(np.isfinite(precision), precision, 1.0)  # 0/0 only at the very top: one positive
    estimate = float(np.sum(p * (precision @ _WEIGHTS)))
    lo, hi = widen(lower / P, upper / P, 0.0, 1.0)
    return lo, hi, min(max(estimate / P, lo), hi)


def _auprg_bounds(
    p: FloatArray,
    n: FloatArray,
    P: float,
    N: float,
    T: FloatArray,
    F: FloatArray,
    mean_pos: FloatArray,
    mean_neg: FloatArray,
) -> tuple[float, float, float]:
    order = np.arange(2 * len(p), 0, -1, dtype=np.float64)  # synthetic decreasing scores
    zeros = np.zeros_like(p)
    ends = {}
    for name, first, second in (("upper", (p, zeros), (zeros, n)), ("lower", (zeros, n), (p, zeros))):
        pos = np.column_stack([first[0], second[0]]).ravel()
        neg = np.column_stack([first[1], second[1]]).ravel()
        ends[name] = CountTable.from_counts(order, pos, neg).get(AUPRG)  # totals already in [1/2, 1): no rescaling
    lower, upper = widen(ends["lower"], ends["upper"], -math.inf, 1.0)
    # the modelled path: integral of precision gain d(recall gain) from recall gain 0 (TP = P^2 / (P + N))
    crossing = P * P / (P + N)
    has = (p > 0) & (T + p > crossing)
    p, n, T, F = p[has], n[has], T[has], F[has]
    start = np.clip((crossing - T) / p, 0.0, 1.0)[:, None]
    u = start + (1.0 - start) * _NODES[np.newaxis, :]
    phi = _path(u, mean_pos[has][:, None], mean_neg[has][:, None])
    tp = T[:, None] + p[:, None] * u
    fp = F[:, None] + n[:, None] * phi
    integrand = (1.0 - (P / N) * fp / tp) * (P * P / N) * p[:, None] / (tp * tp)
    estimate = float(np.sum((1.0 - start[:, 0]) * (integrand @ _WEIGHTS)))
    return lower, upper, min(max(estimate, lower), upper)
