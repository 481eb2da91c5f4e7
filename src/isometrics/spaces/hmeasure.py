r"""The H-measure (Hand 2009): the expected minimum loss over a Beta(2, 2) cost distribution.

Derivation (positives are class 1 with prior :math:`\pi_1 = P/(P+N)`, negatives class 0 with
:math:`\pi_0`). A false positive costs :math:`c`, a false negative :math:`1 - c`, for a cost
:math:`c \in [0, 1]`. At the operating point of rates (FPR :math:`x`, TPR :math:`y`) the
expected loss is :math:`Q(c) = c\,\pi_0 x + (1 - c)\,\pi_1 (1 - y)`, linear in the point, so its
minimum over every threshold (and every mixture of two) is reached at a vertex of the ROC convex
hull. Between hull vertices :math:`k` and :math:`k + 1`, :math:`Q_{k+1}(c) < Q_k(c)` exactly when

.. math::

    c < t_k = \frac{\pi_1 \Delta y_k}{\pi_0 \Delta x_k + \pi_1 \Delta y_k}
            = \frac{\Delta TP_k}{\Delta TP_k + \Delta FP_k},

the precision of the hull's segment :math:`k`, which decreases along the hull. So vertex :math:`k`
(vertices ordered from :math:`(0, 0)` to :math:`(1, 1)`) is optimal for :math:`c \in [t_k,
t_{k-1}]`, with :math:`t_{-1} = 1` and :math:`t_m = 0` for the last vertex :math:`m`. With the
cost density :math:`w(c) = 6c(1 - c)` of Beta(2, 2) and, in counts
(:math:`\pi_0 x_k = FP_k/(P+N)`, :math:`\pi_1(1 - y_k) = FN_k/(P+N)`),

.. math::

    (P + N)\,L = \sum_k FP_k\, M_1(t_k, t_{k-1}) + FN_k\, [M_0 - M_1](t_k, t_{k-1}),

where :math:`M_0(a, b) = \int_a^b w = [3c^2 - 2c^3]_a^b` and
:math:`M_1(a, b) = \int_a^b c\,w = [2c^3 - \tfrac{3}{2}c^4]_a^b`. The trivial classifier (all
negative or all positive, whichever costs less) loses
:math:`(P + N) L_{\max} = N M_1(0, \pi_1) + P [M_0 - M_1](\pi_1, 1)`, which is the same sum over
the diagonal's two vertices. The H-measure is :math:`H = 1 - L / L_{\max}`, in [0, 1]: 1 for a
perfect ranking, 0 when the hull is the diagonal (a random ranking, or a worse one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.constraints import ARRAY, POS_LABEL, validate_params
from .._core.count_table import CountTable, Quantity, table_from_scores
from .._core.docstrings import fill_doc
from .._typing import ArrayLike, FloatArray
from .hull import ROC_HULL

__all__ = ["H_MEASURE", "h_measure"]


def _beta22_moments(a: FloatArray, b: FloatArray) -> tuple[FloatArray, FloatArray]:
    """``(M0, M1)`` on ``[a, b]``: the Beta(2, 2) mass and first moment, ``int w`` and ``int c w``."""

    def mass(c: FloatArray) -> FloatArray:
        return c * c * (3.0 - 2.0 * c)

    def moment(c: FloatArray) -> FloatArray:
        return c * c * c * (2.0 - 1.5 * c)

    return mass(b) - mass(a), moment(b) - moment(a)


def _h_measure(op: CountTable) -> float:
    op.require_both_classes("h_measure")
    idx = op.get(ROC_HULL).indices  # vertices from (0, 0) to (1, 1), slopes decreasing
    tp, fp = op.tp[idx], op.fp[idx]
    P, N = op.n_positives, op.n_negatives
    d_tp, d_fp = np.diff(tp), np.diff(fp)
    t = d_tp / (d_tp + d_fp)  # each segment's precision: where the optimum moves to the next vertex
    upper = np.concatenate(([1.0], t))  # vertex k is optimal on [t_k, t_{k-1}]
    lower = np.concatenate((t, [0.0]))
    m0, m1 = _beta22_moments(lower, upper)
    loss = float(np.sum(fp * m1 + (P - tp) * (m0 - m1)))
    pi1 = P / (P + N)
    t0, t1 = _beta22_moments(np.array([0.0, pi1]), np.array([pi1, 1.0]))
    trivial = float(N * t1[0] + P * (t0[1] - t1[1]))
    return float(min(max(1.0 - loss / trivial, 0.0), 1.0))  # rounding only: the hull dominates the diagonal


#: The H-measure: a functional of the ROC hull (read from the cache, in counts of one scale).
H_MEASURE = Quantity("h_measure", _h_measure, method=False)


@validate_params({"y_true": ARRAY, "y_score": ARRAY, "sample_weight": [ARRAY, None], "pos_label": POS_LABEL})
@fill_doc
def h_measure(
    y_true: ArrayLike, y_score: ArrayLike, *, sample_weight: ArrayLike | None = None, pos_label: Any = None
) -> float:
    r"""The H-measure: one minus the expected minimum loss over Beta(2, 2) costs, relative to a trivial rule.

    .. math::

        H = 1 - \frac{\int_0^1 \min_T\, [c\,\pi_0\,\mathrm{FPR}(T) + (1 - c)\,\pi_1\,(1 - \mathrm{TPR}(T))]
        \, w(c)\, dc}{\int_0^1 \min(c\,\pi_0, (1 - c)\,\pi_1)\, w(c)\, dc},
        \qquad w(c) = 6c(1 - c),

    with :math:`\pi_1` the (weighted) share of positives and :math:`c` the cost of a false
    positive relative to a false negative's :math:`1 - c`. The minimum over thresholds is
    taken at the vertices of the ROC convex hull, and the integral in closed form over the
    hull's segments (:mod:`isometrics.spaces.hmeasure` gives the derivation).

    Parameters
    ----------
    %(binary_data)s
    %(binary_weight)s
    %(binary_pos_label)s

    Returns
    -------
    float
        In [0, 1]; higher is better; 1 for a perfect ranking, 0 for a random ranking (or any
        ranking whose ROC hull is the diagonal).

    Raises
    ------
    %(binary_raises)s

    See Also
    --------
    auroc, roc_convex_hull

    Notes
    -----
    Unlike AUROC, which averages over a distribution of costs that depends on the classifier
    itself, the H-measure fixes one cost distribution, symmetric Beta(2, 2), for every
    classifier compared. It depends on the scores through their ranking only, and on the
    classes' prevalence. With a symmetric cost distribution it does not depend on which
    class is called positive.

    References
    ----------
    .. [1] D. J. Hand, "Measuring classifier performance: a coherent alternative to the area
       under the ROC curve", Machine Learning 77:103-123, 2009 (Section 5, the H-measure).

    Examples
    --------
    >>> from isometrics.spaces import h_measure
    >>> h_measure([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    1.0
    >>> h_measure([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])  # hull (0, 0), (0, 1/2), (1/2, 1), (1, 1)
    0.5
    """
    return table_from_scores(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, table=CountTable).get(
        H_MEASURE
    )
