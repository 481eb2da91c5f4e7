"""Slow, obviously-correct references written independently of the package (loops, Fractions)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np


def naive_points(y, s, w=None):
    """(thresholds, tp, fp) by brute force: for each distinct score, sum weights at or above it."""
    y = np.asarray(y, bool)
    s = np.asarray(s, float)
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    keep = w != 0
    y, s, w = y[keep], s[keep], w[keep]
    thresholds = [np.inf] + sorted(set(s.tolist()), reverse=True)
    tp = [sum(wi for yi, si, wi in zip(y, s, w) if yi and si >= t) for t in thresholds]
    fp = [sum(wi for yi, si, wi in zip(y, s, w) if not yi and si >= t) for t in thresholds]
    return np.array(thresholds), np.array(tp, float), np.array(fp, float)


def naive_auroc(y, s, w=None):
    """Probability that a positive outscores a negative, ties 1/2, as a weighted pairwise count."""
    y = np.asarray(y, bool)
    s = np.asarray(s, float)
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    num = 0.0
    for i in np.flatnonzero(y):
        for j in np.flatnonzero(~y):
            num += w[i] * w[j] * (1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0)
    return num / (w[y].sum() * w[~y].sum())


def naive_average_precision(y, s, w=None):
    """Mean over positives (weighted) of the precision at the end of their tie group."""
    y = np.asarray(y, bool)
    s = np.asarray(s, float)
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    total = 0.0
    for i in np.flatnonzero(y & (w > 0)):
        above = s >= s[i]
        total += w[i] * (w[above & y].sum() / w[above].sum())
    return total / w[y].sum()


def exact_auprg(y, s):
    """AUPRG in exact rational arithmetic, following Flach & Kull's recipe step by step."""
    y = [bool(v) for v in y]
    P = sum(y)
    N = len(y) - P
    pts = [(Fraction(0), Fraction(0))]
    for t in sorted(set(s), reverse=True):
        tp = sum(1 for yi, si in zip(y, s) if yi and si >= t)
        fp = sum(1 for yi, si in zip(y, s) if not yi and si >= t)
        pts.append((Fraction(tp), Fraction(fp)))
    odds = Fraction(P, N)

    def gains(tp, fp):
        return 1 - odds * (P - tp) / tp, 1 - odds * fp / tp  # (recall gain, precision gain)

    cross = Fraction(P * P, P + N)
    curve = []
    for (tp0, fp0), (tp1, fp1) in zip(pts, pts[1:]):
        if tp0 < cross <= tp1:
            a = (cross - tp0) / (tp1 - tp0)
            curve.append(gains(cross, fp0 + a * (fp1 - fp0)))
        if tp1 >= cross:
            curve.append(gains(tp1, fp1))
    area = Fraction(0)
    for (r0, p0), (r1, p1) in zip(curve, curve[1:]):
        area += (r1 - r0) * (p0 + p1) / 2
    return area


def naive_delong(y, scores):
    """DeLong's AUROC covariance from O(m n) pairwise placements (the 1988 definitions)."""
    y = np.asarray(y, bool)
    S = np.atleast_2d(np.asarray(scores, float))
    pos, neg = S[:, y], S[:, ~y]
    m, n = pos.shape[1], neg.shape[1]

    def psi(a, b):
        return (a > b) + 0.5 * (a == b)

    v10 = np.array([[np.mean(psi(pos[k, i], neg[k])) for i in range(m)] for k in range(len(S))])
    v01 = np.array([[np.mean(psi(pos[k], neg[k, j])) for j in range(n)] for k in range(len(S))])
    auc = v10.mean(axis=1)
    cov = np.atleast_2d(np.cov(v10, ddof=1)) / m + np.atleast_2d(np.cov(v01, ddof=1)) / n
    return auc, cov


def polyline_value(x, xs, ys):
    """The curve through (xs, ys) in curve order at x, by walking its segments; at an x where
    the curve has a vertical run, the highest point of the run."""
    on_point = [y for xi, y in zip(xs, ys) if xi == x]
    if on_point:
        return max(on_point)
    for (x0, y0), (x1, y1) in zip(zip(xs, ys), zip(xs[1:], ys[1:])):
        if x0 < x < x1:
            return y0 + (x - x0) * (y1 - y0) / (x1 - x0)
    raise ValueError("x outside the curve")


def naive_hand_till(y, scores, w=None, weighted=False):
    """Hand & Till's M by brute force: for each pair of classes present, the mean of the two
    pairwise AUCs (class j's column ranking j above k, and k's ranking k above j), averaged
    over pairs, with equal weights or the (weighted) share of samples in the pair."""
    y = np.asarray(y)
    scores = np.asarray(scores, float)
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    classes = sorted(set(y.tolist()))
    areas, shares = [], []
    for a in range(len(classes)):
        for b in range(a + 1, len(classes)):
            mask = (y == classes[a]) | (y == classes[b])
            is_a = y[mask] == classes[a]
            a_ab = naive_auroc(is_a, scores[mask, a], w[mask])
            a_ba = naive_auroc(~is_a, scores[mask, b], w[mask])
            areas.append((a_ab + a_ba) / 2)
            shares.append(w[mask].sum() / w.sum())
    return float(np.average(areas, weights=shares if weighted else None))
