"""p-values adjusted for testing several hypotheses at once (Holm's step-down method)."""

from __future__ import annotations

import numpy as np

from .._core.constraints import ARRAY, validate_params
from .._core.validation import as_1d, check_unit_interval
from .._typing import ArrayLike, FloatArray

__all__ = ["holm_adjust"]


@validate_params({"p_values": ARRAY})
def holm_adjust(p_values: ArrayLike) -> FloatArray:
    r"""Holm's step-down adjustment of p-values: family-wise error control for any dependence.

    .. math::

        \tilde p_{(i)} = \max_{j \le i} \min\bigl(1, (m - j + 1)\, p_{(j)}\bigr)

    with :math:`p_{(1)} \le \dots \le p_{(m)}` the sorted p-values of the :math:`m`
    hypotheses. Rejecting every hypothesis with :math:`\tilde p \le \alpha` keeps the
    chance of any false rejection at most :math:`\alpha`.

    Parameters
    ----------
    p_values : array-like of shape (n_tests,)
        The unadjusted p-values, each in [0, 1].

    Returns
    -------
    ndarray of shape (n_tests,), float64
        The adjusted p-values, in [0, 1], in the order given; each is at least its
        unadjusted value, and their order is that of the unadjusted values.

    Raises
    ------
    ValueError
        If a p-value is NaN or outside [0, 1], or ``p_values`` is not 1-D.

    See Also
    --------
    bootstrap_compare, compare_scores

    Notes
    -----
    Ties among the p-values get the same adjusted value whatever their order.

    References
    ----------
    .. [1] S. Holm, "A Simple Sequentially Rejective Multiple Test Procedure",
       Scandinavian Journal of Statistics 6(2), 65-70, 1979.

    Examples
    --------
    >>> from isometrics.uncertainty import holm_adjust
    >>> holm_adjust([0.01, 0.04, 0.03, 0.5]).tolist()
    [0.04, 0.09, 0.09, 0.5]
    """
    p = check_unit_interval(as_1d(p_values, name="p_values", shape="(n_tests,)"), "p_values")
    m = len(p)
    if m == 0:
        return np.empty(0)
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted
