"""Boyd et al.'s confidence intervals for average precision (binomial, logit).

References
----------
.. [1] K. Boyd, K. H. Eng and C. D. Page, "Area Under the Precision-Recall Curve: Point
   Estimates and Confidence Intervals", ECML PKDD 2013.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from .._core.constraints import ARRAY, POS_LABEL, Checked, InBody, Options, validate_params
from .._core.validation import (
    check_option,
)
from .._typing import WEIGHT_KINDS, ArrayLike
from ..exceptions import (
    IsometricsError,
)
from ..spaces.operating_points import OperatingPoints
from ._inputs import _NORMAL, check_binary_inputs, check_confidence_level, check_score_column, resolve_weight_kind

__all__ = ["average_precision_ci"]


# ---------------------------------------------------------------------------- Boyd et al.
@validate_params(
    {
        "y_true": ARRAY,
        "y_score": ARRAY,
        "method": Options("logit", "binomial"),
        "confidence_level": Checked(check_confidence_level, "a real number in (0, 1)", invalid=[1.0, 0]),
        "sample_weight": [ARRAY, None],
        "weight_kind": InBody("'sampling', 'frequency' or None", invalid=["weights"]),
        "pos_label": POS_LABEL,
    }
)
def average_precision_ci(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    method: str = "logit",
    confidence_level: float = 0.95,
    sample_weight: ArrayLike | None = None,
    weight_kind: WEIGHT_KINDS | None = None,
    pos_label: Any = None,
) -> tuple[float, float]:
    r"""Boyd et al.'s binomial or logit interval for average precision.

    With :math:`\hat\theta` the average precision and :math:`n` the number of positives:
    binomial :math:`\hat\theta \pm z\sqrt{\hat\theta(1-\hat\theta)/n}`; logit
    :math:`\mathrm{expit}(\eta \pm z\tau)`, :math:`\eta = \mathrm{logit}\,\hat\theta`,
    :math:`\tau = (n\hat\theta(1-\hat\theta))^{-1/2}`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True binary labels.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive; finite. One column: for
        ``predict_proba`` output pass ``proba[:, 1]``.
    method : {"logit", "binomial"}, default="logit"
        The logit interval stays inside (0, 1); the binomial one can leave [0, 1].
    confidence_level : float, default=0.95
        In (0, 1).
    sample_weight : array-like of shape (n_samples,), default=None
        Non-negative sample weights. ``n`` is then the total weight of the positives
        for frequency weights, and Kish's effective number of positives
        :math:`(\sum w)^2 / \sum w^2` over the positives for sampling weights (the
        same when all weights are 1; unchanged when all weights are scaled).
    weight_kind : {"sampling", "frequency"} or None, default=None
        What ``sample_weight`` means: ``"frequency"``, each row stands for ``w``
        identical samples (whole numbers); ``"sampling"``, sampling or importance
        weights. ``None``: as ``"sampling"``, with a ``WeightKindWarning`` when the
        weights are whole numbers that are not all equal.
    pos_label : int, float, bool or str, default=None
        The label of the positive class. ``None`` infers it when the labels are
        {0, 1}, {-1, 1} or {False, True} (positive: 1 or True).

    Returns
    -------
    tuple of float
        ``(low, high)``.

    Raises
    ------
    InvalidParameterError
        If ``method``, ``confidence_level`` or ``weight_kind`` is invalid, or
        ``weight_kind="frequency"`` with weights that are not whole numbers.
    ValueError
        If AP is 0 or 1 (the logit is infinite), and for the bad inputs of
        :func:`average_precision`.

    Warns
    -----
    WeightKindWarning
        As :func:`bootstrap`.

    References
    ----------
    .. [1] K. Boyd, K. H. Eng and C. D. Page, "Area Under the Precision-Recall Curve:
       Point Estimates and Confidence Intervals", ECML PKDD 2013.

    Examples
    --------
    >>> from isometrics.uncertainty import average_precision_ci
    >>> low, high = average_precision_ci([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.3, 0.9])
    >>> round(low, 4), round(high, 4)
    (0.1549, 0.9985)
    """
    check_option(method, "method", ("logit", "binomial"))
    level = check_confidence_level(confidence_level)
    data = check_binary_inputs(y_true, {"score": check_score_column(y_score)}, sample_weight, pos_label)
    kind = resolve_weight_kind(weight_kind, data.weights, stacklevel=3)
    op = OperatingPoints.from_validated(data.is_pos, data.scores["score"], data.weights, True)
    n = float(op.n_positives)
    if kind == "sampling":
        assert data.weights is not None
        v = data.weights[data.is_pos]
        v = v / v.max()  # scale-free: no overflow or underflow of the squares
        n = float(v.sum()) ** 2 / float(np.dot(v, v))
    return _boyd_interval(op.average_precision(), n, method, level)


def _boyd_interval(theta: float, n: float, method: str, level: float) -> tuple[float, float]:
    z = _NORMAL.inv_cdf(0.5 + level / 2)
    if method == "binomial":
        half = z * math.sqrt(theta * (1 - theta) / n)
        return theta - half, theta + half
    if not 0 < theta < 1:
        raise IsometricsError(
            f"average_precision_ci: the logit interval needs 0 < AP < 1 (AP = {theta:g}); use method='binomial'."
        )
    eta = math.log(theta / (1 - theta))
    tau = 1 / math.sqrt(n * theta * (1 - theta))

    def expit(x: float) -> float:
        return 1 / (1 + math.exp(-x))

    return expit(eta - z * tau), expit(eta + z * tau)
