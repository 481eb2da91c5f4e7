r"""The gain transform of Precision-Recall-Gain analysis.

With prevalence :math:`\pi`, :math:`g(x) = (x - \pi) / ((1 - \pi) x)`: the harmonic
rescaling that maps :math:`\pi` to 0 and 1 to 1 and is affine in :math:`1/x`, so that
F-beta (a weighted harmonic mean) becomes a weighted arithmetic mean of the gains.

References
----------
.. [1] P. Flach and M. Kull, "Precision-Recall-Gain Curves: PR Analysis Done Right",
   NeurIPS 2015.
"""

from __future__ import annotations

import numpy as np

from .._typing import FloatArray
from ..exceptions import IsometricsError

__all__: list[str] = []

#: Elements per run of the transform: its three steps stay in the cache.
_RUN = 1 << 16


def gain_transform(x: FloatArray, prevalence: float, *, out: FloatArray | None = None) -> FloatArray:
    """The gain :math:`g(x) = (x - \\pi) / ((1 - \\pi) x)` of precision or recall, elementwise.

    Parameters
    ----------
    x : ndarray of float64
        Precisions or recalls, in [0, 1]; ``g(0) = -inf`` (no division warning).
    prevalence : float
        The positives' share of the weight, :math:`\\pi` in (0, 1).
    out : ndarray of float64, optional
        Where to write the gains (the shape of ``x``; ``x`` itself is allowed): the one-pass
        sweep writes each run of a curve straight into the curve's array.

    Returns
    -------
    ndarray of float64
        The gains, of the shape of ``x``: 1 at ``x = 1``, 0 at ``x = prevalence``,
        negative below it.

    Raises
    ------
    IsometricsError
        If the prevalence rounds to 1 in float64 (the negatives weigh less than about
        1e-16 of the total): the gains would divide by zero.
    """
    if not 1.0 - prevalence > 0.0:
        raise IsometricsError(
            "precision-recall gain is undefined here (PRG curve, AUPRG, PRG hull, F-calibration): "
            f"the positives' share of the weight ({prevalence!r}) "
            "rounds to 1 in float64, so the negatives weigh too little to rescale precision and recall; "
            "check the sample weights (or leave out PRG quantities such as auprg for these data)."
        )
    # (x - pi) / ((1 - pi) x) = (1 - pi / x) / (1 - pi), in place, run by run: three steps per
    # run while it is in the cache, one array.
    x = np.asarray(x, dtype=np.float64)
    out = np.empty(x.shape) if out is None else out
    scale = 1.0 / (1.0 - prevalence)
    flat, source = out.reshape(-1), x.reshape(-1)
    with np.errstate(divide="ignore"):
        for a in range(0, max(len(flat), 1), _RUN):
            run = flat[a : a + _RUN]
            np.divide(prevalence, source[a : a + _RUN], out=run)
            np.subtract(1.0, run, out=run)
            np.multiply(run, scale, out=run)
    return out
